"""Where one bot gains or loses against another: a duplicate run split by the decision that differed.

    preferans arena --bots expert:50ms,hard --deals 200 --seed 1001 --per-deal run.jsonl
    python benchmarks/arena_phases.py run.jsonl [--top 10]
    python benchmarks/arena_phases.py run.jsonl --roles
    python benchmarks/arena_phases.py run.jsonl --calls bidding
    python benchmarks/arena_phases.py run.jsonl --allpass
    python benchmarks/arena_phases.py run.jsonl --passes --rules leningrad
    python benchmarks/arena_phases.py run.jsonl --times

Two seatings of a deal that differ in one seat only (bot A there in one, bot B
in the other; the other seats the same bots) are played alike until that seat
first decides differently: every earlier move was made by the same bot from
the same observation.  The *swap* is attributed to that first differing
decision — its phase and the seat's role (bidding; the talon and contract;
whisting; open or closed; declarer play, defence, misère, catching, all-pass)
— and scored by the swapped seat's net whists with A minus with B.  A
divergence made first by another seat (a bot whose thinking time ran out at
another moment) is counted apart as noise.

Printed per category: swaps, mean A − B per swap, its 95 % interval, and its
share of the total; then the ``--top`` swaps that cost A most (deal index,
seat, the differing moves) to replay by hand.  ``--roles`` prints instead what
each bot's seats earned as declarer, whister, passer, misère declarer, catcher
and in the all-pass: how often, the mean a time, and the share of its score.
``--calls CATEGORY`` splits one category's swaps by the two moves that differed
(A's / B's) and what came before in that phase: in the auction, whether anyone had
bid («opening» or «over a bid») and whether it was the seat's first call; elsewhere
the phase's earlier moves.  ``--allpass`` prices the all-pass's card play: the share
of the seatings that ended in an all-pass, what a trick there cost a seat (the slope of
its net whists on its tricks), and, seat by seat in deals that went all-pass in seatings
with A there and with B there, A's tricks minus B's (at four players the dealer, who sits
the all-pass out, is left out).  ``--passes`` prices a pass: A's
first calls that passed while nobody had bid, by the hand's rule-of-thumb estimate of its
tricks (:meth:`.HeuristicBot.estimates`, the deal dealt again from the file's seed under
``--rules``), and what the seat's net whists were when the deal went to an all-pass and
when it went to another's game.  ``--times`` splits each bot's thinking time by the
category of the decision (the categories above, from every move of every seating):
decisions, median, p99 and slowest milliseconds, and the ``--top`` slowest decisions
(runs written before the per-deal lines kept each move's time have none).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from typing import Any

from preferans.bots.arena import BotStats
from preferans.seats import active_seats


def role(play: dict[str, Any], seat: int, phase: str, moves: list[list[Any]], at: int) -> str:
    """The category of the move ``at`` of ``seat`` in ``play``."""
    if phase != "play":
        return phase
    kind = play["kind"]
    decl = play["declarer"]
    if kind == "all_pass":
        return "play: all-pass"
    trick = sum(1 for m in moves[:at] if m[2] == "play") // 3 + 1
    when = "lead 1" if trick == 1 else ("tricks 2-5" if trick <= 5 else "tricks 6-10")
    if kind == "misere":
        return f"play: misère {'declarer' if seat == decl else 'catcher'}"
    return f"play: game {'declarer' if seat == decl else 'defender'} ({when})"


def swaps(record: dict[str, Any]) -> list[tuple[str, float, int, int, Any]]:
    """(category, A − B value of the swapped seat, seat, move index, moves) for each swap
    of bot 0 (A) and bot 1 (B) in one deal."""
    plays = record["plays"]
    out = []
    for pa in plays:
        for pb in plays:
            sa, sb = pa["seating"], pb["seating"]
            diff = [i for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if x != y]
            if len(diff) != 1 or sa[diff[0]] != 0 or sb[diff[0]] != 1:
                continue
            seat = diff[0]
            ma, mb = pa["moves"], pb["moves"]
            first = next((i for i, (x, y) in enumerate(zip(ma, mb, strict=False)) if x != y), None)
            delta = pa["values"][seat] - pb["values"][seat]
            if first is None:
                cat = "identical play"
            elif ma[first][0] != seat:
                cat = "noise (another seat differed first)"
            else:
                cat = role(pa, seat, ma[first][2], ma, first)
            out.append((cat, delta, seat, first if first is not None else -1, (ma, mb)))
    return out


def call_context(moves: list[list[Any]], at: int) -> str:
    """What came before move ``at`` in its phase: in the auction «opening» (nobody has bid)
    or «over a bid», and «first call» or «later call» of the seat; elsewhere the phase's
    earlier moves (whisting: the calls before it), or «first» when there were none."""
    seat, _, phase = moves[at]
    before = [m for m in moves[:at] if m[2] == phase]
    if phase == "bidding":
        bid = any(m[1] != "pass" for m in before)
        again = any(m[0] == seat for m in before)
        return f"{'over a bid' if bid else 'opening'}, {'later' if again else 'first'} call"
    return " ".join(str(m[1]) for m in before) or "first"


def print_calls(path: str, category: str) -> None:
    """The swaps of ``category`` split by A's and B's differing moves and their context
    (:func:`call_context`): how many, the mean A − B, and the share of the run's swaps."""
    rows: dict[tuple[str, str], list[float]] = defaultdict(list)
    n_all = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            for cat, delta, _seat, at, (ma, mb) in swaps(json.loads(line)):
                n_all += 1
                if cat == category:
                    rows[(f"{ma[at][1]} / {mb[at][1]}", call_context(ma, at))].append(delta)
    print(f"{category}: {sum(len(v) for v in rows.values())} of {n_all} swaps, by A's / B's move")
    print(f"  {'A / B':<22}{'before it':<28}{'swaps':>7}{'mean A−B':>10}  {'95% CI':<18}{'per swap':>9}")
    for (moves, context), v in sorted(rows.items(), key=lambda kv: -len(kv[1])):
        m = statistics.mean(v)
        half = 1.96 * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else math.inf
        print(f"  {moves:<22}{context:<28}{len(v):>7}{m:>+10.2f}  [{m - half:+.2f}, {m + half:+.2f}]".ljust(85)
              + f"{sum(v) / n_all:>+9.3f}")


def seat_roles(record: dict[str, Any]) -> list[tuple[int, str, float]]:
    """(bot index, the seat's role in the deal, its net whists) for every seat of every seating:
    ``declarer``, ``whister``, ``passer`` (a defender who did not whist), ``misère declarer``,
    ``catcher``, ``all-pass``."""
    out = []
    for play in record["plays"]:
        kind, decl = play["kind"], play["declarer"]
        for seat, bot in enumerate(play["seating"]):
            if kind == "all_pass":
                r = "all-pass"
            elif kind == "misere":
                r = "misère declarer" if seat == decl else "catcher"
            elif seat == decl:
                r = "declarer"
            else:
                r = "whister" if play["defence"].get(str(seat)) == "whist" else "passer"
            out.append((bot, r, play["values"][seat]))
    return out


def print_roles(path: str) -> None:
    """What each bot's seats earned in each role: how often, the mean a time, and the share
    of its net whists a seat and deal (the shares add up to its score)."""
    rows: dict[tuple[int, str], list[float]] = defaultdict(list)
    seats: dict[int, int] = defaultdict(int)
    bots: list[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            bots = rec["bots"]
            for bot, r, value in seat_roles(rec):
                rows[(bot, r)].append(value)
                seats[bot] += 1
    print(f"  {'role':<16}" + "".join(f"{b + ' times':>16}{'mean':>8}{'a seat':>8}" for b in bots))
    for r in sorted({r for _, r in rows}):
        line = f"  {r:<16}"
        for b in range(len(bots)):
            v = rows.get((b, r), [])
            mean = statistics.mean(v) if v else 0.0
            line += f"{len(v):>16}{mean:>+8.2f}{sum(v) / max(1, seats[b]):>+8.3f}"
        print(line)


def print_allpass(path: str) -> None:
    """The all-pass's share of the seatings, the whists a trick cost a seat there, and A's
    tricks minus B's in the same seat of the same deal (each seat's mean over the seatings
    that put A there, less the same with B), with its 95 % interval."""
    tricks: list[float] = []
    values: list[float] = []
    paired: list[float] = []
    plays = all_pass = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            by_seat: dict[tuple[int, int], list[int]] = defaultdict(list)
            # rules.md §2: the seats dealt cards (the dealer of four holds none and takes no trick)
            playing = active_seats(rec["dealer"], len(rec["plays"][0]["seating"]))
            for play in rec["plays"]:
                plays += 1
                if play["kind"] != "all_pass":
                    continue
                all_pass += 1
                for seat in playing:
                    bot = play["seating"][seat]
                    taken = int(play["tricks"].get(str(seat), 0))
                    tricks.append(taken)
                    values.append(play["values"][seat])
                    by_seat[(seat, bot)].append(taken)
            for seat in playing:
                a, b = by_seat.get((seat, 0)), by_seat.get((seat, 1))
                if a and b:
                    paired.append(statistics.mean(a) - statistics.mean(b))
    if not tricks or len(paired) < 2:
        print("no all-pass played by both bots in one seat")
        return
    slope = statistics.linear_regression(tricks, values).slope
    m = statistics.mean(paired)
    half = 1.96 * statistics.stdev(paired) / math.sqrt(len(paired))
    print(f"all-pass: {all_pass} of {plays} seatings ({100 * all_pass / plays:.1f} %); "
          f"a trick costs its seat {-slope:.2f} whists")
    print(f"A − B tricks, same seat of the same deal: {m:+.3f} [{m - half:+.3f}, {m + half:+.3f}] "
          f"over {len(paired)} seats")


def print_passes(path: str, rules_name: str) -> None:
    """A's opening passes by the hand's estimate: their net whists in an all-pass and
    under another's game (the mean and, for the latter overall, its 95 % interval)."""
    from preferans import Deal, Rules
    from preferans.bots.heuristic import HeuristicBot

    rules = Rules.preset(rules_name)
    judge = HeuristicBot(rules)
    rows: dict[tuple[float, bool], list[float]] = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            players = len(rec["plays"][0]["seating"])
            hands = Deal.new(rules, players=players, dealer=rec["dealer"], seed=rec["seed"]).initial_hands
            for play in rec["plays"]:
                moves = play["moves"]
                for at, (seat, move, phase) in enumerate(moves):
                    if (phase == "bidding" and move == "pass" and play["seating"][seat] == 0
                            and call_context(moves, at) == "opening, first call"):
                        est = math.floor(2 * max(judge.estimates(hands[seat]))) / 2
                        rows[(est, play["kind"] == "all_pass")].append(play["values"][seat])
    print("A's first calls passed while nobody had bid, by the hand's estimated tricks")
    print(f"  {'estimate':>8} {'all-pass':>9} {'mean':>8} {'another plays':>14} {'mean':>8}")
    for est in sorted({e for e, _ in rows}):
        ap, other = rows.get((est, True), []), rows.get((est, False), [])
        print(f"  {est:>8.1f} {len(ap):>9} {statistics.mean(ap) if ap else math.nan:>+8.2f}"
              f" {len(other):>14} {statistics.mean(other) if other else math.nan:>+8.2f}")
    other = [v for (_, ap), vs in rows.items() if not ap for v in vs]
    if len(other) > 1:
        m, half = statistics.mean(other), 1.96 * statistics.stdev(other) / math.sqrt(len(other))
        print(f"another plays, every estimate: {m:+.2f} [{m - half:+.2f}, {m + half:+.2f}] over {len(other)} passes")


def decision_times(record: dict[str, Any]) -> list[tuple[int, str, float, int, str]]:
    """(bot, category, seconds, seat, move) for every timed move of one deal's seatings."""
    out = []
    for play in record["plays"]:
        moves = play["moves"]
        for at, took in enumerate(play.get("seconds", [])):
            seat, move, phase = moves[at]
            out.append((play["seating"][seat], role(play, seat, phase, moves, at), took, seat, str(move)))
    return out


def print_times(path: str, top: int) -> None:
    """Each bot's decisions by category: how many, median, p99 and slowest ms; then the
    ``top`` slowest decisions (deal index, seat, category, move)."""
    rows: dict[tuple[int, str], list[float]] = defaultdict(list)
    slowest: list[tuple[float, int, int, str, str, str]] = []
    bots: list[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            bots = rec["bots"]
            for bot, cat, took, seat, move in decision_times(rec):
                rows[(bot, cat)].append(took)
                slowest.append((took, rec["index"], seat, bots[bot], cat, move))
    if not rows:
        print(f"{path}: no move carries its thinking time (a run written before the per-deal lines kept them)")
        return
    print(f"  {'bot':<12}{'decision':<36}{'decisions':>10}{'median ms':>11}{'p99 ms':>9}{'slowest ms':>12}")
    for (bot, cat), v in sorted(rows.items(), key=lambda kv: (kv[0][0], -max(kv[1]))):
        summary = BotStats(bots[bot], times=v).time_summary()  # the arena report's median and p99
        median, p99, worst = (1000 * (summary[k] or 0.0) for k in ("median", "p99", "max"))
        print(f"  {bots[bot]:<12}{cat:<36}{len(v):>10}{median:>11.1f}{p99:>9.1f}{worst:>12.1f}")
    print(f"\nthe {top} slowest decisions (deal index, seat, bot, category, move):")
    for took, index, seat, name, cat, move in sorted(slowest, reverse=True)[:top]:
        print(f"  {1000 * took:>9.1f} ms  deal {index:<5} seat {seat}  {name:<12} {cat:<36} {move}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--roles", action="store_true", help="print what each bot earned in each role instead")
    ap.add_argument("--calls", metavar="CATEGORY", help="split one category (bidding, whist, ...) by the moves")
    ap.add_argument("--allpass", action="store_true", help="price the all-pass's card play instead")
    ap.add_argument("--passes", action="store_true", help="price A's opening passes by the hand instead")
    ap.add_argument("--rules", default="leningrad", help="the run's rules (for --passes)")
    ap.add_argument("--times", action="store_true", help="split each bot's thinking time by decision instead")
    args = ap.parse_args()
    if args.times:
        print_times(args.file, args.top)
        return
    if args.passes:
        print_passes(args.file, args.rules)
        return
    if args.allpass:
        print_allpass(args.file)
        return
    if args.roles:
        print_roles(args.file)
        return
    if args.calls:
        print_calls(args.file, args.calls)
        return
    rows: dict[str, list[float]] = defaultdict(list)
    worst: list[tuple[float, int, int, str, str, str]] = []
    deals = 0
    bots: list[str] = []
    with open(args.file, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            deals += 1
            bots = rec["bots"]
            for cat, delta, seat, at, (ma, mb) in swaps(rec):
                rows[cat].append(delta)
                if at >= 0:
                    worst.append((delta, rec["index"], seat, cat, " ".join(map(str, ma[at][:2])),
                                  " ".join(map(str, mb[at][:2]))))
    total = sum(sum(v) for v in rows.values())
    n_all = sum(len(v) for v in rows.values())
    print(f"{deals} deals, {n_all} swaps of {bots[0]} (A) for {bots[1]} (B); A − B per swap overall "
          f"{total / n_all:+.3f}")
    print(f"  {'first differing decision':<40}{'swaps':>7}{'mean A−B':>10}  {'95% CI':<18}{'per swap':>9}")
    for cat, v in sorted(rows.items(), key=lambda kv: sum(kv[1])):
        m = statistics.mean(v)
        half = 1.96 * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else math.inf
        print(f"  {cat:<40}{len(v):>7}{m:>+10.2f}  [{m - half:+.2f}, {m + half:+.2f}]".ljust(75)
              + f"{sum(v) / n_all:>+9.3f}")
    print(f"\nthe {args.top} swaps that cost A most (deal index, seat, category, A's move / B's move):")
    for delta, index, seat, cat, a, b in sorted(worst)[: args.top]:
        print(f"  {delta:+8.1f}  deal {index:<5} seat {seat}  {cat:<36} A: {a:<14} B: {b}")


if __name__ == "__main__":
    main()
