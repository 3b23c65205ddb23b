"""All-pass card play alone: two bots on the same all-passes, seat for seat.

    python benchmarks/allpass_play.py --bots expert,hard --deals 200 --rules leningrad --seed 1
    python benchmarks/allpass_play.py --bots expert,expert --set lookahead=False --deals 200
    python benchmarks/allpass_play.py --bots oracle,expert --deals 200
    python benchmarks/allpass_play.py --bots oracle-selfish,oracle --deals 200

Every deal (three players, or four with ``--players 4``) is passed out (each player passes) and played as an
all-pass in every seating of the two bots (:func:`preferans.bots.arena.seatings`); the auction
decides nothing, so each difference is card play.  Printed: A's tricks minus
B's in the same seat of the same deal (each seat's mean over the seatings with A
there, less the same with B) with its 95 % interval, the same in net whists,
and A's decision times.  ``--set NAME=VALUE`` sets an attribute of bot A (an
option of :class:`~preferans.bots.expert.ExpertBot`, say) to try a change
against the same bot without it; the value is read as a Python literal.  ``oracle``
is a player who sees every hand: of the cards that leave him the fewest tricks with
the other two playing to give him tricks (the solver on the true layout), the one
``medium`` would play; against ``expert`` it bounds what a better reading of the
hidden cards could buy.  ``oracle-selfish`` sees every hand too and, once no talon card
leads, values his cards with each player taking his own fewest tricks
(:func:`preferans.solver.selfish_moves_many`).

An all-pass trick costs its seat about 11 whists under Leningrad and Sochi
(``python benchmarks/arena_phases.py run.jsonl --allpass``), so a tenth of a
trick a seat is worth about a whist a seat and all-pass.
"""

from __future__ import annotations

import argparse
import ast
import math
import statistics
import time
from typing import Any

from preferans import Action, Deal, Rules
from preferans.bots.arena import seat_seed, seatings
from preferans.bots.base import Bot
from preferans.bots.levels import make_bot
from preferans.bots.value import result_value
from preferans.seats import active_seats
from preferans.solver import Position, best_moves, memo, selfish_moves_many


class Oracle:
    """The all-pass player who sees every hand (see the module doc)."""

    def __init__(self, rules: Rules, seed: int, *, selfish: bool = False) -> None:
        self.hint: Bot = make_bot("medium", rules, seed=seed)
        self.deal: Deal | None = None
        self.selfish = selfish

    def act(self, obs: Any) -> Action:
        assert self.deal is not None
        position = Position.from_deal(self.deal)
        selfish = self.selfish and not position.talon  # the selfish search starts after the talon's tricks
        moves = selfish_moves_many([position])[0] if selfish else best_moves(position)
        fewest = min(moves.values())
        top = [int(c) for c, t in moves.items() if t == fewest]
        hint = self.hint.act(obs)
        return hint if int(hint) in top else Action.from_card(min(top))


def play_allpass(specs: list[str], seed: int, dealer: int, rules: Rules, setting: dict[str, Any],
                 times: list[float], players: int = 3) -> tuple[float, float]:
    """A − B in tricks and in net whists, seat for seat, over every seating of one deal
    (with four players, the three who play: the dealer sits the all-pass out)."""
    tricks: dict[tuple[int, int], list[int]] = {}
    whists: dict[tuple[int, int], list[float]] = {}
    with memo():
        for seating in seatings(2, players):
            deal = Deal.new(rules, players=players, dealer=dealer, seed=seed)
            bots: list[Any] = []
            for s, b in enumerate(seating):
                if specs[b] in ("oracle", "oracle-selfish"):
                    oracle = Oracle(rules, seat_seed(seed, s), selfish=specs[b] == "oracle-selfish")
                    oracle.deal = deal
                    bots.append(oracle)
                    continue
                bot = make_bot(specs[b], rules, seed=seat_seed(seed, s))
                if b == 0:
                    for name, value in setting.items():
                        if not hasattr(bot, name):
                            raise SystemExit(f"--set {name}: {specs[0]} has no such option")
                        setattr(bot, name, value)
                bots.append(bot)
            for _ in range(3):
                deal.apply("pass")  # every card holder passes: an all-pass (Kodeks 3.3.12, 3.7.1; rules.md §8.1)
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                began = time.perf_counter()
                action = bots[seat].act(deal.observation(seat))
                if seating[seat] == 0:
                    times.append(time.perf_counter() - began)
                deal.apply(action, seat=seat)
            values = result_value(deal.result, rules)
            for s, b in enumerate(seating):
                tricks.setdefault((s, b), []).append(deal.result.tricks.get(s, 0))
                whists.setdefault((s, b), []).append(values[s])
    seats = active_seats(dealer, players)  # rules.md §2: the dealer of four holds no cards
    dt = [statistics.mean(tricks[(s, 0)]) - statistics.mean(tricks[(s, 1)]) for s in seats]
    dw = [statistics.mean(whists[(s, 0)]) - statistics.mean(whists[(s, 1)]) for s in seats]
    return statistics.mean(dt), statistics.mean(dw)


def _interval(xs: list[float]) -> str:
    m = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="expert,hard", help="A,B (levels, e.g. expert:1s,hard)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--rules", default="leningrad")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(3, 4), default=3)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="an attribute of bot A")
    args = ap.parse_args()
    specs = args.bots.split(",")
    if len(specs) != 2:
        ap.error("--bots: two bots, A,B")
    setting: dict[str, Any] = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--set {item!r}: write NAME=VALUE")
        setting[name.strip()] = ast.literal_eval(value.strip())
    rules = Rules.preset(args.rules)
    times: list[float] = []
    dt: list[float] = []
    dw: list[float] = []
    for i in range(args.deals):
        t, w = play_allpass(specs, args.seed * 100_003 + i, i % args.players, rules, setting, times, args.players)
        dt.append(t)
        dw.append(w)
    times.sort()
    print(f"{args.deals} all-passes ({args.rules}, {args.players} players), "
          f"A = {specs[0]} {setting or ''}, B = {specs[1]}")
    print(f"A − B tricks a seat: {_interval(dt)}")
    print(f"A − B whists a seat: {_interval(dw)}")
    print(f"A's ms a decision: median {1000 * times[len(times) // 2]:.1f}, worst {1000 * times[-1]:.0f}")


if __name__ == "__main__":
    main()
