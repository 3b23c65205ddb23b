"""Complete random legal deals per second, and the cost of ``legal_actions()``.

Plays N seeded random deals (auction, talon and discard, declaration,
whisting, defence choices, trick play or all-pass) under each preset and
table size, and prints deals per second (median of R rounds) and the median
time of one ``legal_actions()`` call on a fresh state.  Target: ≥ 2,000 deals/s
on one core.

    python benchmarks/random_deals.py [--deals 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from preferans import Deal, Rules


def play_random(rules: Rules, players: int, seed: int) -> int:
    rng = random.Random(seed)
    d = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
    n = 0
    choice = rng.choice
    while not d.is_over:
        d.apply(choice(d.legal_actions()))
        n += 1
    return n


def play_to_the_end(rules: Rules, players: int, seed: int) -> int:
    """A policy that avoids all-pass and unplayed games, so every deal has 10 tricks."""
    rng = random.Random(seed)
    d = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
    n = 0
    while not d.is_over:
        legal = d.legal_actions()
        if d.phase.value == "bidding" and len(legal) > 1 and n == 0:
            a = legal[1]  # first hand opens, so the deal is a game
        elif d.phase.value == "whist":
            a = legal[-1] if str(legal[-1]) == "whist" else legal[1]
        else:
            a = rng.choice(legal)
        d.apply(a)
        n += 1
    return n


def measure(fn, rules: Rules, players: int, deals: int, rounds: int) -> tuple[float, float]:
    rates = []
    actions = 0
    for r in range(rounds):
        t0 = time.perf_counter()
        actions = sum(fn(rules, players, r * 100_000 + i) for i in range(deals))
        rates.append(deals / (time.perf_counter() - t0))
    return statistics.median(rates), actions / deals


def legal_actions_cost(rules: Rules, samples: int = 20_000) -> float:
    """Median ns of ``legal_actions()`` on mid-play states (the cache is cleared each time)."""
    d = Deal.new(rules, players=3, dealer=0, seed=1)
    for a in ("6♠", "pass", "pass"):
        d.apply(a)
    d.apply(d.legal_actions()[0])
    d.apply(d.legal_actions()[0])
    d.apply(d.legal_actions()[0])
    d.apply("whist")
    d.apply("whist")
    d.apply(d.legal_actions()[0])  # one card on the table: follow-suit logic runs
    times = []
    for _ in range(samples):
        d._legal = None
        t0 = time.perf_counter_ns()
        d.legal_actions()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"{'preset':<10} {'players':>7} {'random deals/s':>15} {'actions/deal':>13} "
          f"{'played-out deals/s':>19} {'actions/deal':>13}")
    for name in Rules.PRESET_NAMES:
        rules = Rules.preset(name)
        for players in (3, 4):
            rate, apd = measure(play_random, rules, players, args.deals, args.rounds)
            rate2, apd2 = measure(play_to_the_end, rules, players, args.deals // 2, args.rounds)
            print(f"{name:<10} {players:>7} {rate:>15,.0f} {apd:>13.1f} {rate2:>19,.0f} {apd2:>13.1f}")
    ns = legal_actions_cost(Rules.preset("sochi"))
    print(f"legal_actions() during play, median: {ns / 1000:.2f} µs")


if __name__ == "__main__":
    main()
