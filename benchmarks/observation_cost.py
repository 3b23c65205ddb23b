"""The cost of ``Deal.observation(seat)``, which reads the visibility ledger (issue 14).

Plays seeded deals to the middle of the play (and some with a misère
invitation or an irregularity) and prints the median time of one
observation (asked again of the same position), and the median over whole
seeded deals played as the server does: after each move, every seat's
observation once.  Here and, with ``--baseline SRC``, in another checkout's
``src`` (rounds taken in turn), with the ratios.

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


def walk_median_us(deals: int) -> float:
    """Per observation, over deals played move by move with every seat observed after each move."""
    times = []
    for seed in range(deals):
        rng = random.Random(seed)
        d = Deal.new(Rules.preset(Rules.PRESET_NAMES[seed % 5]), players=3 + seed % 2, seed=seed)
        t0 = time.perf_counter_ns()
        n = 0
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
            for seat in range(d.players):
                d.observation(seat)
                n += 1
        times.append((time.perf_counter_ns() - t0) / n / 1000)
    return statistics.median(times)


def both(deals: int) -> tuple[float, float]:
    return median_us(deals), walk_median_us(deals)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", help="src folder of another checkout to compare with")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(both(args.deals)))
        return
    now: list[tuple[float, float]] = []
    base: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        if args.baseline:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(args.baseline))
            cmd = [sys.executable, __file__, "--deals", str(args.deals), "--json"]
            base.append(json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout))
        now.append(both(args.deals))
    for i, what in enumerate(("observation(seat) of one position", "every seat after each move (incl. the move)")):
        here = statistics.median(x[i] for x in now)
        line = f"{what}, median: {here:.1f} µs"
        if base:
            b = statistics.median(x[i] for x in base)
            line += f"; baseline {b:.1f} µs; ratio ×{here / b:.2f}"
        print(line)


if __name__ == "__main__":
    main()
