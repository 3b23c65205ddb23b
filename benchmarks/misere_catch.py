"""How well a bot catches misères: the same misère deals played out, catchers A against B.

    python benchmarks/misere_catch.py deals --seed 7100 --count 30000 mis.jsonl
    python benchmarks/misere_catch.py play mis.jsonl new.jsonl --rules leningrad --catchers expert --declarer hard
    PYTHONPATH=/tmp/base/src python benchmarks/misere_catch.py play mis.jsonl base.jsonl --rules leningrad
    python benchmarks/misere_catch.py compare new.jsonl base.jsonl

A misère is a few deals in a hundred, so an arena run of 400 deals sees a handful and
cannot tell two catchers apart.  ``deals`` keeps the deals of ``--count`` seeded auctions
(``hard`` in every seat; its misère discard) that end in a misère, with the moves up to
the first card.  ``play`` plays each from there: the declarer's seat by ``--declarer``,
both catchers by ``--catchers`` (bots seeded per seat as in the arena), writes the
declarer's tricks and net whists a deal, and prints the catchers' decision times.  A
baseline tree (``PYTHONPATH``, a worktree of the commit before) plays the same file.
``compare`` prints, over the deals both hold: the catchers' gain a deal (the declarer's
loss with A less with B, whists, both catchers together) with its 95 % interval, the
misères caught, and the declarer's tricks.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from preferans import Deal, Phase
from preferans.bots.arena import seat_seed
from preferans.bots.evaluate import misere_holes
from preferans.bots.levels import make_bot
from preferans.bots.value import result_value
from preferans.rules import Rules


def deals(rules: Rules, seed: int, count: int, out: str) -> None:
    """Write the misère deals among ``count`` seeded ``hard`` auctions."""
    found = 0
    with open(out, "w", encoding="utf-8") as f:
        for i in range(count):
            deal_seed = random.Random(f"{seed}:{i}").getrandbits(63)
            deal = Deal.new(rules, players=3, dealer=i % 3, seed=deal_seed)
            if min(misere_holes(h) for h in deal.hands) > 3:
                continue  # nobody bids misère on four holes: skip the auction
            bots = [make_bot("hard", rules, seed=seat_seed(deal_seed, s)) for s in range(3)]
            moves = []
            while not deal.is_over and deal.phase is not Phase.PLAY:
                if deal.contract is not None and not deal.contract.is_misere:
                    break
                s = deal.to_act
                assert s is not None
                action = bots[s].act(deal.observation(s))
                moves.append([s, str(action)])
                deal.apply(action, seat=s)
            if deal.contract is not None and deal.contract.is_misere and deal.phase is Phase.PLAY:
                f.write(json.dumps({"seed": deal_seed, "dealer": i % 3, "moves": moves}, ensure_ascii=False) + "\n")
                found += 1
    print(f"{found} misère deals in {count} auctions -> {out}")


def play(rules: Rules, path: str, catchers: str, declarer: str, out: str) -> None:
    """Play each misère deal of ``path`` out; write the declarer's tricks and net whists."""
    began = time.perf_counter()
    n = 0
    thinking: list[float] = []  # the catchers' decisions, seconds
    with open(path, encoding="utf-8") as src, open(out, "w", encoding="utf-8") as f:
        for line in src:
            n += 1
            d = json.loads(line)
            deal = Deal.new(rules, players=3, dealer=d["dealer"], seed=d["seed"])
            for s, a in d["moves"]:
                deal.apply(a, seat=s)
            decl = deal.declarer
            assert decl is not None
            bots = [make_bot(declarer if s == decl else catchers, rules, seed=seat_seed(d["seed"], s))
                    for s in range(3)]
            while not deal.is_over:
                s = deal.to_act
                assert s is not None
                t0 = time.perf_counter()
                action = bots[s].act(deal.observation(s))
                if s != decl:
                    thinking.append(time.perf_counter() - t0)
                deal.apply(action, seat=s)
            values = result_value(deal.result, rules)
            f.write(json.dumps({"seed": d["seed"], "tricks": deal.result.tricks.get(decl, 0),
                                "declarer": values[decl]}) + "\n")
    thinking.sort()
    ms = [1000 * thinking[int(q * (len(thinking) - 1))] for q in (0.5, 0.99, 1.0)] if thinking else [0.0] * 3
    print(f"{n} deals played in {time.perf_counter() - began:.0f} s -> {out}; the catchers' "
          f"{len(thinking)} decisions: median {ms[0]:.1f} ms, p99 {ms[1]:.0f} ms, worst {ms[2]:.0f} ms")


def compare(new: str, base: str) -> None:
    """The catchers' gain a deal, new against base, deal by deal."""
    with open(new, encoding="utf-8") as f:
        a = {r["seed"]: r for r in map(json.loads, f)}
    with open(base, encoding="utf-8") as f:
        b = {r["seed"]: r for r in map(json.loads, f)}
    both = [s for s in a if s in b]
    if len(both) < 2:
        raise SystemExit(f"{new} and {base} share {len(both)} deals: play the same deals file")
    gain = [b[s]["declarer"] - a[s]["declarer"] for s in both]
    mean = statistics.mean(gain)
    half = 1.96 * statistics.stdev(gain) / math.sqrt(len(gain))
    caught = [sum(1 for s in both if r[s]["tricks"]) for r in (a, b)]
    tricks = [sum(r[s]["tricks"] for s in both) for r in (a, b)]
    print(f"{len(both)} misère deals; the catchers' gain a deal, new − base: {mean:+.2f} ± {half:.2f} whists")
    print(f"caught: new {caught[0]}, base {caught[1]}; the declarer's tricks: new {tricks[0]}, base {tricks[1]}; "
          f"deals that differ: {sum(1 for g in gain if g)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("deals", help="collect misère deals from seeded auctions")
    d.add_argument("out")
    d.add_argument("--rules", default="sochi")
    d.add_argument("--seed", type=int, default=7100)
    d.add_argument("--count", type=int, default=30000)
    p = sub.add_parser("play", help="play the deals out")
    p.add_argument("deals")
    p.add_argument("out")
    p.add_argument("--rules", default="sochi")
    p.add_argument("--catchers", default="expert")
    p.add_argument("--declarer", default="hard")
    c = sub.add_parser("compare", help="new against base, deal by deal")
    c.add_argument("new")
    c.add_argument("base")
    args = ap.parse_args()
    if args.command == "deals":
        deals(Rules.preset(args.rules), args.seed, args.count, args.out)
    elif args.command == "play":
        play(Rules.preset(args.rules), args.deals, args.catchers, args.declarer, args.out)
    else:
        compare(args.new, args.base)


if __name__ == "__main__":
    main()
