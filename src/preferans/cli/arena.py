"""``preferans arena``: bots play duplicate deals; the report says who is stronger.

    preferans arena --bots hard,medium,easy --deals 2000 --rules sochi --seed 1 --workers 2
    preferans arena --bots medium,cmd:"./mybot" --deals 100 --format json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from typing import Any

from ..bots.arena import progress_bar, run_arena
from ..bots.levels import split_specs
from ..errors import ArenaError
from ..i18n import N_
from ._rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "arena",
        help=N_("bots play duplicate deals in every seating; mean net whists per deal with 95%% CIs"),
    )
    p.add_argument("--bots", required=True,
                   help="comma-separated: levels random, easy, medium, hard, expert "
                        "(expert:250ms: its thinking time), or cmd:\"PROGRAM ARGS\"")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals (each played in every seating)")
    add_rules_arguments(p)
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4),
                   help="3, 4 (the dealer sits out) or 2 (гусарик: the dummy is played by the whister)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (same seed, same report)")
    p.add_argument("--workers", type=int, default=1, help="processes on this machine (0 = one per core)")
    p.add_argument("--ray", default=None, metavar="auto|ADDRESS",
                   help="spread the deals over a Ray cluster (needs the [cluster] extra)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a cmd: bot may take per answer")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--per-deal", metavar="FILE", default=None,
                   help="write each deal as a JSON line (seatings, moves with their phase, outcomes)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop once a deal ends after this many minutes; report the deals played from the first")
    p.add_argument("--resume", action="store_true",
                   help="continue the run whose --per-deal FILE this is: its deals are not played again, "
                        "new ones are added to it, and the report covers them all")
    p.add_argument("--no-progress", action="store_true", help="no progress display on stderr")
    p.set_defaults(func=run)


def read_per_deal(path: str) -> list[dict[str, Any]]:
    """The deal lines of a ``--per-deal`` file; a last line cut short (the run was killed while
    writing it) is dropped and rewritten, any other bad line is an error naming it."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return []  # nothing to resume: a fresh run
    lines = raw.split(b"\n")
    out = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            out.append(json.loads(text))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            if number == len(lines):  # no newline after it: written only in part
                with open(path, "r+b") as f:
                    f.truncate(len(raw) - len(text))
                break
            raise ArenaError(f"{path}, line {number}: not a deal line ({e})") from None
    return out


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    workers = args.workers if args.workers > 0 else (os.cpu_count() or 1)
    done: list[dict[str, Any]] = []
    if args.resume:
        if args.per_deal is None:
            raise ArenaError("--resume continues the run of a --per-deal FILE: give --per-deal")
        done = read_per_deal(args.per_deal)
    with contextlib.ExitStack() as stack:
        write = None
        if args.per_deal is not None:
            out = stack.enter_context(open(args.per_deal, "a" if args.resume else "w", encoding="utf-8"))

            def write(record: dict[str, Any]) -> None:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                out.flush()

        report = run_arena(
            split_specs(args.bots), deals=args.deals, rules=rules, seed=args.seed, players=args.players,
            workers=workers, ray=args.ray, timeout=args.timeout,
            progress=None if args.no_progress else progress_bar(), per_deal=write,
            time_limit=None if args.minutes is None else 60 * args.minutes, done=done,
        )
    if args.format == "json":
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(report.text())
    return 0
