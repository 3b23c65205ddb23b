"""Scoring speed: write 100,000 random deal outcomes on a sheet (issue 3: ≥ 50,000 deals/s).

    python benchmarks/scoring.py [--deals 100000] [--runs 5] [--rules sochi] [--players 3]

The outcomes are generated first (not timed); then each run scores them all
with :func:`preferans.scoring.score_deal` (validation included) and adds the
lines to a :class:`~preferans.scoring.Sheet`, and a second figure times the
whole :class:`~preferans.scoring.pulka.Pulka` (series, help, history).  Prints the
median of the runs in deals per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from preferans.engine.result import DealKind
from preferans.rules import Rules
from preferans.scoring import Sheet, score_deal, settle
from preferans.scoring.pulka import Pulka
from preferans.scoring.sample import random_outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rules = Rules.preset(args.rules).replace(end_condition="agreement", pool_target=10**9)
    rng = random.Random(args.seed)
    n = args.players
    outcomes = [random_outcome(rng, rules, n) for _ in range(args.deals)]
    steps = [rng.randint(1, 3) if o.kind is DealKind.ALL_PASS else 1 for o in outcomes]

    def score_run() -> float:
        sheet = Sheet("ABCD"[:n])
        apply = sheet.apply
        t0 = time.perf_counter()
        for o, step in zip(outcomes, steps, strict=True):
            apply(score_deal(o, rules, raspas_step=step))
        dt = time.perf_counter() - t0
        assert sum(settle(sheet, rules).net) == 0
        return args.deals / dt

    def pulka_run() -> float:
        p = Pulka(rules.replace(raspas_exit_levels=(6,)), n)
        record = p.record
        t0 = time.perf_counter()
        for o in outcomes:
            record(o)
        dt = time.perf_counter() - t0
        return args.deals / dt

    scored = [score_run() for _ in range(args.runs)]
    pulka = [pulka_run() for _ in range(args.runs)]
    print(f"scoring {args.deals:,} random {args.rules} outcomes, {n} players, {args.runs} runs")
    print(f"  score_deal + sheet: median {statistics.median(scored):,.0f} deals/s "
          f"(min {min(scored):,.0f}, max {max(scored):,.0f})")  # fmt: skip
    print(f"  Pulka.record:       median {statistics.median(pulka):,.0f} deals/s "
          f"(min {min(pulka):,.0f}, max {max(pulka):,.0f})")  # fmt: skip


if __name__ == "__main__":
    main()
