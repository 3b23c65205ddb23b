"""Decision times of the bot levels, per phase, on one core.

    python benchmarks/bots.py [--deals 40] [--rules sochi] [--players 3] [--levels easy,medium,hard,expert]

Every seat of each deal is played by the level measured (seeded deals), and
every decision with more than one legal action is timed (wall clock, one
thread).  Prints per level and phase the number of decisions, the median, the
95th percentile and the worst; then the level's overall median and worst
against the thinking budget of the strong levels (median ≤ 1 s, worst ≤ 5 s
a decision; ``expert`` is given 1 s a card decision, ``expert:250ms`` less).  The machine is
shared, so times are noisy: compare medians, and rerun before trusting a worst.
"""

from __future__ import annotations

import argparse
import statistics
import time

from preferans import Deal, Rules
from preferans.bots import make_bot


def measure(level: str, rules: Rules, deals: int, players: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    for i in range(deals):
        deal = Deal.new(rules, players=players, dealer=i % players, seed=1000 + i)
        bots = [make_bot(level, rules, seed=s) for s in range(players)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            start = time.perf_counter()
            action = bots[seat].act(obs)
            elapsed = time.perf_counter() - start
            if len(obs.legal_actions) > 1:
                times.setdefault(deal.phase.value, []).append(elapsed)
            deal.apply(action, seat=seat)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--rules", default="sochi")
    p.add_argument("--players", type=int, default=3, choices=(3, 4))
    p.add_argument("--levels", default="easy,medium,hard,expert")
    args = p.parse_args()
    rules = Rules.preset(args.rules)
    print(f"{args.deals} deals, {rules.name}, {args.players} players; times in ms (wall clock, one core)")
    for level in args.levels.split(","):
        times = measure(level, rules, args.deals, args.players)
        every: list[float] = []
        print(f"\n{level}")
        print(f"  {'phase':<14}{'n':>6}{'median':>10}{'p95':>10}{'worst':>10}")
        for phase, ts in sorted(times.items()):
            every += ts
            ts.sort()
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
            print(f"  {phase:<14}{len(ts):>6}{statistics.median(ts) * 1e3:>10.2f}{p95 * 1e3:>10.2f}"
                  f"{ts[-1] * 1e3:>10.2f}")
        med, worst = statistics.median(every), max(every)
        print(f"  {'all':<14}{len(every):>6}{med * 1e3:>10.2f}{'':>10}{worst * 1e3:>10.2f}"
              f"   budget: median ≤ 1000, worst ≤ 5000"
              f" → {'within' if med <= 1 and worst <= 5 else 'OVER'}")


if __name__ == "__main__":
    main()
