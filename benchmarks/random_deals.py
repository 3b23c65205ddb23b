"""Complete random legal deals per second, and the cost of ``legal_actions()``.

Plays N seeded random deals (auction, talon and discard, declaration,
whisting, defence choices, trick play or all-pass) under each preset and
table size, and prints deals per second (median of R rounds) and the median
time of one ``legal_actions()`` call on a fresh state.  Target: ≥ 2,000 deals/s
on one core.

    python benchmarks/random_deals.py [--deals 2000] [--rounds 5] [--baseline SRC]

With ``--baseline SRC`` (the ``src`` folder of another checkout, e.g. a
``git worktree`` of main) the same measurements are made there too, in a
child process, and each line shows both medians and their ratio.
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

from preferans import Deal, Phase, Rules


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
        if d.phase == Phase.BIDDING and len(legal) > 1 and n == 0:
            a = legal[1]  # first hand opens, so the deal is a game
        elif d.phase == Phase.WHIST:
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


def measure_all(deals: int, rounds: int) -> dict[str, list[float]]:
    """Every measurement: (random deals/s, actions/deal, played-out deals/s, actions/deal) per line."""
    out: dict[str, list[float]] = {}
    for name in Rules.PRESET_NAMES:
        rules = Rules.preset(name)
        for players in (3, 4):
            rate, apd = measure(play_random, rules, players, deals, rounds)
            rate2, apd2 = measure(play_to_the_end, rules, players, deals // 2, rounds)
            out[f"{name} {players}"] = [rate, apd, rate2, apd2]
    out["legal_actions"] = [legal_actions_cost(Rules.preset("sochi"))]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", help="src folder of another checkout to compare with")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure_all(args.deals, args.rounds)))
        return
    base: dict[str, list[float]] | None = None
    if args.baseline:
        # One round here, one round there, in turn: a busy machine slows both alike.
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.baseline))
        cmd = [sys.executable, __file__, "--deals", str(args.deals), "--rounds", "1", "--json"]
        bases, nows = [], []
        for _ in range(args.rounds):
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
            bases.append(json.loads(out))
            nows.append(measure_all(args.deals, 1))
        base = {k: [statistics.median(b[k][i] for b in bases) for i in range(len(bases[0][k]))] for k in bases[0]}
        now = {k: [statistics.median(n[k][i] for n in nows) for i in range(len(nows[0][k]))] for k in nows[0]}
    else:
        now = measure_all(args.deals, args.rounds)
    head = f"{'preset':<10} {'players':>7} {'random deals/s':>15} {'actions/deal':>13} "
    head += f"{'played-out deals/s':>19} {'actions/deal':>13}"
    print(head + ("   baseline: random, played-out, ratios" if base else ""))
    for key, (rate, apd, rate2, apd2) in ((k, v) for k, v in now.items() if len(v) == 4):
        name, players = key.split()
        line = f"{name:<10} {players:>7} {rate:>15,.0f} {apd:>13.1f} {rate2:>19,.0f} {apd2:>13.1f}"
        if base:
            b = base[key]
            line += f"   {b[0]:>7,.0f} {b[2]:>7,.0f}  ×{rate / b[0]:.2f} ×{rate2 / b[2]:.2f}"
        print(line)
    ns = now["legal_actions"][0]
    line = f"legal_actions() during play, median: {ns / 1000:.2f} µs"
    if base:
        line += f" (baseline {base['legal_actions'][0] / 1000:.2f} µs)"
    print(line)
    if base:
        ratios = [now[k][0] / base[k][0] for k in now if len(now[k]) == 4]
        ratios2 = [now[k][2] / base[k][2] for k in now if len(now[k]) == 4]
        print(f"median ratio against the baseline: random ×{statistics.median(ratios):.3f}, "
              f"played-out ×{statistics.median(ratios2):.3f}")


if __name__ == "__main__":
    main()
