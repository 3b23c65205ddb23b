"""Benchmark of the double-dummy solver on a fixed, seeded set of full deals.

    python benchmarks/solver.py [--deals 200] [--tables 20] [--ablation] [--batch] [--misere-values]
                                [--mid-trick [--repeats 7]]
                                [--cpu] [--against OTHER_BUILD.so]

Kinds (issue 4): trump — the declarer is the strongest hand and trump is his
longest suit; no-trump — the same deals at NT; misère — the declarer holds the
weakest hand.  The first leader is random.  Every solve starts from a cold
transposition table (``Engine.reset``).  Times are per call, in milliseconds,
on one thread: wall clock, or with ``--cpu`` the thread's CPU time, with the
mean and largest node count (exact and reproducible, unlike the times).
``--ablation`` switches each technique off in turn and reports the median time
and nodes.  ``--batch`` times what a sampling bot
asks: 16 layouts of one position (first hand's cards fixed, the others dealt
anew) of 10 and of 4 cards a hand, one call per layout against one ``best_moves_many`` call, warm
table as in a bot's decision.  ``--mid-trick`` times 4-5-card positions with
0-2 cards on the table (50 groups of 32 under one trump, goal and declarer): one
``Engine.solve`` call each, ``solve()`` each, the old batch (one call per group sharing
the trick) and the batch (one ``Engine.solve_many`` call per group, each position with its
own leader and trick), µs per position, median of ``--repeats`` runs, and exits.
``--misere-values`` prints the misère solves'
nodes by the value found (which misères are slow), the nodes of the driver's succeeding
tests against its last, failing one, and the all-pass nodes of the same player.
``--against SO`` solves every position with this build and another one (an
``_solver*.so`` built from another commit) in turn, and prints the ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from typing import Any

from preferans.solver import Position, best_moves, best_moves_many, discard_table, solve, solve_many
from preferans.solver import _solver as core
from preferans.solver.search import engine, engine_args

POINTS = (0, 0, 0, 0, 1, 2, 3, 4)  # J Q K A


def strength(hand: int) -> int:
    """High-card points plus length beyond four in a suit."""
    pts = sum(POINTS[c & 7] for c in range(32) if hand >> c & 1)
    return pts + sum(max(0, (hand >> (8 * s) & 0xFF).bit_count() - 4) for s in range(4))


def longest_suit(hand: int) -> int:
    def key(s: int) -> tuple[int, int]:
        b = hand >> (8 * s) & 0xFF
        return b.bit_count(), b

    return max(range(4), key=key)


Deal = tuple[tuple[int, int, int], tuple[int, int], int]
"""Three 10-card hands, the talon, the first leader."""


def make_deals(n: int, seed: int = 2026) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[10 * i : 10 * i + 10]) for i in range(3))
        out.append(((hands[0], hands[1], hands[2]), (deck[30], deck[31]), rng.randrange(3)))
    return out


def positions(deals: list[Deal]) -> dict[str, list[Position]]:
    kinds: dict[str, list[Position]] = {"trump": [], "no-trump": [], "misère": []}
    for hands, _talon, leader in deals:
        strong = max(range(3), key=lambda i: strength(hands[i]))
        weak = min(range(3), key=lambda i: strength(hands[i]))
        t = longest_suit(hands[strong])
        kinds["trump"].append(Position(hands, leader=leader, declarer=strong, trump=t))
        kinds["no-trump"].append(Position(hands, leader=leader, declarer=strong))
        kinds["misère"].append(Position(hands, leader=leader, declarer=weak, goal="misere"))
    return kinds


def stats(name: str, run: tuple[list[float], list[int]]) -> str:
    ms, nodes = sorted(run[0]), run[1]
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    rate = len(ms) / (sum(ms) / 1000)
    return (
        f"{name:<22} n={len(ms):4}  median {statistics.median(ms):7.3f} ms  p90 {p90:7.3f} ms  "
        f"max {ms[-1]:8.3f} ms  {rate:7.0f} /s  nodes mean {statistics.mean(nodes):8.0f} max {max(nodes):8}"
    )


CLOCK = time.perf_counter


def timed(fn, items) -> tuple[list[float], list[int]]:  # type: ignore[no-untyped-def]
    """Milliseconds and nodes searched of each call, from a cold table."""
    eng = engine()
    out, nodes = [], []
    for x in items:
        eng.reset()
        n0 = eng.nodes
        t = CLOCK()
        fn(x)
        out.append((CLOCK() - t) * 1000)
        nodes.append(eng.nodes - n0)
    return out, nodes


def ablation(kinds: dict[str, list[Position]]) -> None:
    eng = engine()
    variants = [
        ("all techniques", 0),
        ("no transposition table", core.NO_TT),
        ("table keyed by absolute ranks", core.NO_REL),
        ("no equivalent cards", core.NO_EQUIV),
        ("no sure-trick bounds", core.NO_BOUNDS),
        ("no move ordering", core.NO_ORDER),
        ("no closed last trick", core.NO_LAST),
        ("bisection, not MTD(f)", core.BISECT),
    ]
    print("\nAblation: median ms (mean nodes) per solve")
    print(f"{'':<32}" + "".join(f"{k:>24}" for k in kinds))
    for name, flag in variants:
        row = f"{name:<32}"
        for ps in kinds.values():
            ms, nodes = [], []
            sample = ps if not flag & core.NO_TT else ps[:20]
            for p in sample:
                eng.reset()
                n0 = eng.nodes
                t = CLOCK()
                eng.solve(**engine_args(p), flags=flag)
                ms.append((CLOCK() - t) * 1000)
                nodes.append(eng.nodes - n0)
            row += f"{statistics.median(ms):>11.3f} ({statistics.mean(nodes):>9.0f})"
        print(row)


def layouts_of(p: Position, n: int, rng: random.Random, cards: int = 10) -> list[Position]:
    """``n`` positions of ``cards`` cards a hand: hand 0 kept (its lowest cards
    when fewer), the others dealt anew from the rest of the three hands."""
    h0 = sum(1 << c for c in [c for c in range(32) if p.hands[0] >> c & 1][:cards])
    rest = [c for c in range(32) if (p.hands[0] | p.hands[1] | p.hands[2]) >> c & 1 and not h0 >> c & 1]
    out = []
    for _ in range(n):
        rng.shuffle(rest)
        h1 = sum(1 << c for c in rest[:cards])
        h2 = sum(1 << c for c in rest[cards : 2 * cards])
        out.append(Position((h0, h1, h2), leader=0, declarer=p.declarer, goal=p.goal, trump=p.trump))
    return out


def batch(kinds: dict[str, list[Position]], deals: int) -> None:
    print("\nBatches: 16 layouts of one position, best_moves per layout vs one best_moves_many call")
    eng = engine()
    rng = random.Random(7)
    for name, ps, cards in [(k, ps, n) for n in (10, 4) for k, ps in kinds.items()]:
        single, many = [], []
        for p in ps[:deals]:
            group = layouts_of(p, 16, rng, cards)
            eng.reset()
            t = CLOCK()
            one = [best_moves(q) for q in group]
            single.append((CLOCK() - t) * 1000)
            eng.reset()
            t = CLOCK()
            assert best_moves_many(group) == one
            many.append((CLOCK() - t) * 1000)
        ms, mm = statistics.median(single), statistics.median(many)
        print(f"{name:<10} {cards:>2} cards  one call per layout {ms:8.3f} ms   one batch {mm:8.3f} ms"
              f"   ratio {mm / ms:.2f}")


def small_group(rng: random.Random, n: int) -> list[Position]:
    """``n`` positions of 4-5 cards a hand under one set of rules (a random trump or
    no-trump, declarer, goal), each with its own hands, leader and 0-2 cards on the
    table: the endings a sampling bot or the arena asks about in one decision."""
    goal = rng.choice(["tricks", "tricks", "misere"])
    trump = rng.choice([None, 0, 1, 2, 3]) if goal == "tricks" else None
    declarer = rng.randrange(3)
    out: list[Position] = []
    while len(out) < n:
        deck = list(range(32))
        rng.shuffle(deck)
        k = rng.choice((4, 5))
        hands = tuple(sum(1 << c for c in deck[k * i : k * i + k]) for i in range(3))
        p = Position((hands[0], hands[1], hands[2]), leader=rng.randrange(3), declarer=declarer,
                     goal=goal, trump=trump)
        for _ in range(rng.randrange(3)):
            p = p.play(rng.choice(p.legal_moves()))
        out.append(p)
    return out


def mid_trick(groups: int, size: int, repeats: int) -> None:
    """Per position: one C call each (the old per-call path), the public ``solve`` per
    position, the old batch (one C call per group sharing the trick and leader) and the
    batch (one C call per group sharing the rules)."""
    rng = random.Random(29)
    sets = [small_group(rng, size) for _ in range(groups)]
    eng = engine()
    expect = [[solve(p) for p in ps] for ps in sets]

    def per_call(ps: list[Position]) -> list[int]:
        return [eng.solve(**engine_args(p)) for p in ps]

    def old_batch(ps: list[Position]) -> list[int]:
        out = [0] * len(ps)
        by: dict[tuple[object, ...], list[int]] = {}
        for i, p in enumerate(ps):
            by.setdefault((p.leader, p.trick), []).append(i)
        for idx in by.values():
            args: dict[str, Any] = dict(engine_args(ps[idx[0]]))
            args["hands"] = [ps[i].hands for i in idx]
            for i, v in zip(idx, eng.solve_many(**args), strict=True):
                out[i] = v
        return out

    def raw_batch(ps: list[Position]) -> list[int]:
        args: dict[str, Any] = dict(engine_args(ps[0]))
        args["hands"] = [(*p.hands, p.leader, p.trick) for p in ps]
        return list(eng.solve_many(**args))

    ways = {
        "per call (Engine.solve)": per_call,
        "solve() per position": lambda ps: [solve(p) for p in ps],
        "old batch (same trick)": old_batch,
        "batch (Engine.solve_many)": raw_batch,
        "solve_many()": solve_many,
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, fn in ways.items():
            total = 0.0
            for ps, want in zip(sets, expect, strict=True):
                eng.reset()
                t = CLOCK()
                got = fn(ps)
                total += CLOCK() - t
                assert got == want
            times[name].append(total / (groups * size) * 1e6)
    base = statistics.median(times["per call (Engine.solve)"])
    print(f"\n4-5 cards a hand, 0-2 on the table: {groups} groups of {size} positions, "
          f"µs per position, median of {repeats} runs (ratio to one Engine.solve call each)")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"{name:<28} {m:8.2f} µs   ×{m / base:.2f}")


def misere_values(kinds: dict[str, list[Position]], deals: list[Deal]) -> None:
    print("\nMisère: nodes per solve by the declarer's tricks (cold table)")
    eng = engine()
    by: dict[int, list[int]] = {}
    succeeding = failing = 0
    for p in kinds["misère"]:
        eng.reset()
        n0 = eng.nodes
        v = eng.solve(**engine_args(p))
        by.setdefault(v, []).append(eng.nodes - n0)
        # the driver's tests again, as it makes them from its first guess 0:
        # "can the defenders force t?" for t = 1 .. v + 1, the last one failing
        eng.reset()
        for t in range(1, min(v + 1, p.tricks_left) + 1):
            n0 = eng.nodes
            eng.solve(**engine_args(p), target=t)
            if t <= v:
                succeeding += eng.nodes - n0
            else:
                failing += eng.nodes - n0
    for v, ns in sorted(by.items()):
        print(f"  {v:2} tricks  n={len(ns):4}  mean {statistics.mean(ns):9.0f}  max {max(ns):9}")
    print(f"  null-window tests: succeeding {succeeding}, the last failing one {failing} nodes")
    ap = []
    for hands, talon, _leader in deals:  # all-pass for the misère declarer, talon leads, 3 players
        weak = min(range(3), key=lambda i: strength(hands[i]))
        ap.append(Position(hands, leader=0, declarer=weak, goal="allpass", talon=talon))
    nodes = []
    for p in ap:
        eng.reset()
        n0 = eng.nodes
        eng.solve(**engine_args(p))
        nodes.append(eng.nodes - n0)
    print(f"  all-pass (same player) nodes mean {statistics.mean(nodes):9.0f}  max {max(nodes):9}")


def load_build(path: str) -> Any:
    """Another build of the C core (an ``_solver*.so`` file), e.g. of an older commit."""
    spec = importlib.util.spec_from_file_location("preferans.solver._solver", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--against: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def against(kinds: dict[str, list[Position]], path: str, repeats: int = 3) -> None:
    """This build against another on the same positions: each position solved by
    both in turn ``repeats`` times from a cold table, the fastest kept, summed."""
    other = load_build(path).Engine(engine().size >> 20)
    ours = core.Engine(engine().size >> 20)
    print(f"\nAgainst {path}: total ms of the fastest of {repeats} (nodes), this build / the other")
    for call in ("solve", "moves"):
        for name, ps in kinds.items():
            ms = {"this": 0.0, "other": 0.0}
            nodes = {"this": 0, "other": 0}
            for p in ps:
                args = engine_args(p)
                best = {"this": 1e9, "other": 1e9}
                for _ in range(repeats):
                    for side, eng in (("other", other), ("this", ours)):
                        eng.reset()
                        n0 = eng.nodes
                        t = CLOCK()
                        getattr(eng, call)(**args)
                        best[side] = min(best[side], (CLOCK() - t) * 1000)
                        nodes[side] += eng.nodes - n0
                for side in ms:
                    ms[side] += best[side]
            n_this, n_other = nodes["this"] // repeats, nodes["other"] // repeats
            print(
                f"{call + ' ' + name:<18} this {ms['this']:8.1f} ms ({n_this:>10})   other {ms['other']:8.1f} ms"
                f" ({n_other:>10})   time ×{ms['this'] / ms['other']:.3f}  nodes ×{n_this / n_other:.3f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--tables", type=int, default=20, help="deals for contract_table")
    ap.add_argument("--ablation", action="store_true")
    ap.add_argument("--batch", action="store_true", help="layouts of one position: single calls vs a batch")
    ap.add_argument("--mid-trick", action="store_true",
                    help="4-5-card positions with cards on the table: per call vs one batch")
    ap.add_argument("--repeats", type=int, default=7, help="runs of --mid-trick (the median is shown)")
    ap.add_argument("--misere-values", action="store_true", help="misère nodes by the value found")
    ap.add_argument("--against", metavar="SO", help="also compare with another build of _solver (a .so file)")
    ap.add_argument(
        "--cpu", action="store_true",
        help="time with the thread's CPU clock (ignores time descheduled on a busy machine)",
    )
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.thread_time
    if args.mid_trick:
        mid_trick(50, 32, args.repeats)
        return
    deals = make_deals(args.deals)
    kinds = positions(deals)
    clock = "thread CPU time" if args.cpu else "wall clock"
    print(
        f"{args.deals} deals, seed 2026, cold table per call, "
        f"engine table {engine().size >> 20} MB, {clock}"
    )
    for name, ps in kinds.items():
        print(stats(f"solve {name}", timed(solve, ps)))
    for name, ps in kinds.items():
        print(stats(f"best_moves {name}", timed(best_moves, ps)))
    tables = []
    for hands, talon, _ in deals[: args.tables]:
        strong = max(range(3), key=lambda i: strength(hands[i]))
        tables.append((hands, talon, strong))
    print(stats("contract_table", timed(lambda x: discard_table(*x), tables)))
    if args.ablation:
        ablation(kinds)
    if args.batch:
        batch(kinds, min(args.deals, 50))
    if args.misere_values:
        misere_values(kinds, deals)
    if args.against:
        against(kinds, args.against)


if __name__ == "__main__":
    main()
