"""The cost of ``Deal.observation(seat)``, which replays the visibility ledger (issue 14).

Plays seeded deals to the middle of the play (and some with a misère
invitation or an irregularity) and prints the median time of one
observation, here and, with ``--baseline SRC``, in another checkout's
``src`` (rounds taken in turn), with the ratio.

    python benchmarks/observation_cost.py [--deals 200] [--rounds 5] [--baseline SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from preferans import Deal, Rules


def states(deals: int) -> list[Deal]:
    out = []
    for seed in range(deals):
        rng = random.Random(seed)
        d = Deal.new(Rules.preset(Rules.PRESET_NAMES[seed % 5]), players=3 + seed % 2, seed=seed)
        steps = rng.randrange(20, 40)
        while not d.is_over and steps:
            d.apply(rng.choice(d.legal_actions()))
            steps -= 1
        out.append(d)
    return out


def median_us(deals: int) -> float:
    times = []
    for d in states(deals):
        for seat in range(d.players):
            t0 = time.perf_counter_ns()
            for _ in range(20):
                d.observation(seat)
            times.append((time.perf_counter_ns() - t0) / 20_000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", help="src folder of another checkout to compare with")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(median_us(args.deals)))
        return
    now, base = [], []
    for _ in range(args.rounds):
        if args.baseline:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(args.baseline))
            cmd = [sys.executable, __file__, "--deals", str(args.deals), "--json"]
            base.append(json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout))
        now.append(median_us(args.deals))
    line = f"observation(seat), median: {statistics.median(now):.1f} µs"
    if base:
        b = statistics.median(base)
        line += f"; baseline {b:.1f} µs; ratio ×{statistics.median(now) / b:.2f}"
    print(line)


if __name__ == "__main__":
    main()
