"""Decision times of the bot levels, per phase, on one core.

    python benchmarks/bots.py [--deals 40] [--rules sochi] [--players 3] [--levels easy,medium,hard,expert]
    python benchmarks/bots.py --duplicate expert:50ms,hard --baseline DIR [--deals 12] [--rules sochi]

Every seat of each deal is played by the level measured (seeded deals), and
every decision with more than one legal action is timed (wall clock, one
thread).  Prints per level and phase the number of decisions, the median, the
95th percentile and the worst; then the level's overall median and worst
against the thinking budget of the strong levels (median ≤ 1 s, worst ≤ 5 s
a decision; ``expert`` is given 1 s a card decision, ``expert:250ms`` less).  The machine is
shared, so times are noisy: compare medians, and rerun before trusting a worst.

``--duplicate SPECS --baseline DIR`` measures instead what a duplicate deal of
``preferans arena`` costs (every seating, :func:`preferans.bots.arena.play_deal`)
in this tree and in the tree at ``DIR`` (a checkout with its C extension built,
e.g. ``git worktree add /tmp/base main~3``): two worker processes, one per tree,
play the same seeded deals in turn — never at once, so the machine's load hits
both alike — and the medians per deal and their ratio are printed.  With
``--check`` each deal's moves must be the same in both trees (for seeded bots
whose decisions do not depend on the clock, e.g. ``hard,medium``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

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


def _worker(specs: str, rules: str, players: int) -> None:
    """Read deal indices from stdin; answer each with its time and moves (one JSON line)."""
    from preferans.bots.arena import play_deal

    r = Rules.preset(rules)
    for line in sys.stdin:
        index = int(line)
        start = time.perf_counter()
        res = play_deal(specs.split(","), index, rules=r, seed=18, players=players)
        seconds = time.perf_counter() - start
        moves = [[str(m) for m in play["moves"]] for play in res["plays"]]
        print(json.dumps({"seconds": seconds, "moves": moves}), flush=True)


def duplicate(specs: str, baseline: str, rules: str, deals: int, players: int, check: bool) -> None:
    trees = {"this tree": Path(__file__).resolve().parents[1], "baseline": Path(baseline).resolve()}
    workers = {}
    for name, root in trees.items():
        env = dict(os.environ, PYTHONPATH=str(root / "src"))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--duplicate", specs,
               "--rules", rules, "--players", str(players)]
        workers[name] = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    times: dict[str, list[float]] = {name: [] for name in trees}
    differ = 0
    try:
        for i in range(deals):
            answers = {}
            for name, w in workers.items():
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(f"{i}\n")
                w.stdin.flush()
                answers[name] = json.loads(w.stdout.readline())
                times[name].append(answers[name]["seconds"])
            differ += answers["this tree"]["moves"] != answers["baseline"]["moves"]
    finally:
        for w in workers.values():
            assert w.stdin is not None
            w.stdin.close()
            w.wait()
    print(f"duplicate deals of {specs}, {rules}, {players} players, seed 18: {deals} deals, seconds a deal")
    for name, ts in times.items():
        print(f"  {name:<10} median {statistics.median(ts):7.3f}  mean {statistics.mean(ts):7.3f}  ({trees[name]})")
    ratio = statistics.median(times["baseline"]) / statistics.median(times["this tree"])
    print(f"  baseline / this tree: {ratio:.2f}x (medians)")
    print(f"  deals whose moves differ: {differ} of {deals}")
    if check and differ:
        raise SystemExit("the moves differ: this tree's bots decide differently")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--rules", default="sochi")
    p.add_argument("--players", type=int, default=3, choices=(3, 4))
    p.add_argument("--levels", default="easy,medium,hard,expert")
    p.add_argument("--duplicate", metavar="SPECS", help="time duplicate deals of these bots (see the module doc)")
    p.add_argument("--baseline", metavar="DIR", help="the tree to compare with (with --duplicate)")
    p.add_argument("--check", action="store_true", help="with --duplicate: fail when the moves differ")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.duplicate and args.worker:
        _worker(args.duplicate, args.rules, args.players)
        return
    if args.duplicate:
        if not args.baseline:
            p.error("--duplicate needs --baseline DIR")
        duplicate(args.duplicate, args.baseline, args.rules, args.deals, args.players, args.check)
        return
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
