"""Random-action environment steps per second: PettingZoo AEC API and the batch self-play API.

Targets on one core: ≥ 20,000 steps/s through the AEC API and ≥ 100,000 steps/s
through the batch API.  AEC: ``env()`` with its order-enforcing wrapper,
``last()`` + ``step()`` per decision, a random legal action drawn from the mask
(the dead agents' closing ``step(None)`` calls are not counted); ``raw_env()``
likewise without the wrapper.  Batch: ``BatchSelfPlay.step`` with random legal
actions drawn from the mask array by numpy.  Also prints the bare engine
(``Deal.apply`` of random legal actions, no observations) for scale.

Prints the median of R rounds, by wall clock and by this process's CPU time
(the machine is shared: CPU time is less disturbed by other processes).

    python benchmarks/env.py [--steps 30000] [--rounds 5] [--batch 256] [--rules sochi] [--players 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from preferans import Deal, Rules
from preferans.env import env, raw_env
from preferans.env.batch import BatchSelfPlay, random_actions


def timed(fn: Callable[[], int]) -> tuple[float, float]:
    """(steps per wall second, steps per CPU second)."""
    w, c = time.perf_counter(), time.process_time()
    steps = fn()
    return steps / (time.perf_counter() - w), steps / (time.process_time() - c)


def aec(make: Callable[..., object], rules: str, players: int, steps: int) -> Callable[[], int]:
    e = make(rules=rules, players=players)
    e.reset(seed=0)  # type: ignore[attr-defined]
    rng = random.Random(0)

    def run() -> int:
        n = 0
        while n < steps:
            for _agent in e.agent_iter():  # type: ignore[attr-defined]
                obs, _r, term, trunc, _info = e.last()  # type: ignore[attr-defined]
                if term or trunc:
                    e.step(None)  # type: ignore[attr-defined]  # the end-of-episode steps are not counted
                else:
                    e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[attr-defined]
                    n += 1
            e.reset()  # type: ignore[attr-defined]
        return n

    return run


def batch(rules: str, players: int, steps: int, size: int) -> Callable[[], int]:
    b = BatchSelfPlay(size, rules=rules, players=players, seed=0)
    _, mask, _ = b.reset()
    rng = np.random.default_rng(0)
    rounds = max(1, steps // size)

    def run() -> int:
        nonlocal mask
        for _ in range(rounds):
            mask = b.step(random_actions(mask, rng)).mask
        return rounds * size

    return run


def engine(rules: str, players: int, steps: int) -> Callable[[], int]:
    r = Rules.preset(rules)
    rng = random.Random(0)

    def run() -> int:
        n = seed = 0
        while n < steps:
            d = Deal.new(r, players=players, dealer=seed % players, seed=seed)
            seed += 1
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
                n += 1
        return n

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=30000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--players", type=int, default=3)
    a = ap.parse_args()
    cases = {
        "engine only (Deal.apply, no observation)": engine(a.rules, a.players, a.steps),
        "AEC env() (PettingZoo API)": aec(env, a.rules, a.players, a.steps),
        "AEC raw_env() (no wrapper)": aec(raw_env, a.rules, a.players, a.steps),
        f"batch BatchSelfPlay({a.batch})": batch(a.rules, a.players, a.steps * 4, a.batch),
    }
    print(f"{a.rules}, {a.players} players; median of {a.rounds} rounds; steps/s (wall) / steps/s (CPU)")
    results = {}
    for name, fn in cases.items():
        fn()  # warm up: caches of masks, rewards and small features
        runs = [timed(fn) for _ in range(a.rounds)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        results[name] = cpu
        print(f"  {name:45s} {wall:10,.0f} / {cpu:10,.0f}")
    base = results["engine only (Deal.apply, no observation)"]
    print("ratios to the bare engine (CPU): " + ", ".join(
        f"{k.split(' (')[0]} {v / base:.2f}" for k, v in results.items() if not k.startswith("engine")
    ))  # fmt: skip


if __name__ == "__main__":
    main()
