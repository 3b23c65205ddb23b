"""``preferans bot-check``: play a bot through every phase and choice of the bot protocol.

    preferans bot-check cmd:"./mybot"
    preferans bot-check "node examples/bot.js" --players 3 --presets sochi --timeout 2
    preferans bot-check medium --format json

Exit status 0 only when the bot answered every question legally and in time, never
crashed, and every phase and choice was reached (see :mod:`preferans.bots.conformance`).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..bots.conformance import check_bot
from ..bots.levels import LEVELS, make_bot, split_specs
from ..errors import PreferansError
from ..i18n import N_
from ..rules import Rules


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bot-check",
        help=N_("play a bot program through every phase and choice of the protocol; exit 0 only when clean"),
        description="The conformance kit of docs/bot-protocol.md: every preset, 2 (гусарик), 3 and 4 players, "
        "misère, all-pass, half-whist, open play, «за своими», concessions, irregularity answers, claims.",
    )
    p.add_argument("bot", help='the bot: cmd:"PROGRAM ARGS", a command line, or one of our levels')
    p.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per answer (default 10)")
    p.add_argument("--presets", default=",".join(Rules.PRESET_NAMES), help="comma-separated presets (default all)")
    p.add_argument("--players", default="2,3,4", help="comma-separated table sizes (default 2,3,4)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--examples", type=int, default=3, help="failures shown per phase and kind (default 3)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = args.bot.strip()
    if not spec.startswith("cmd:") and spec.lower() not in LEVELS:
        spec = "cmd:" + spec  # a bare command line
    presets = split_specs(args.presets)
    for name in presets:
        Rules.preset(name)  # an unknown preset is an error naming it
    try:
        players = [int(x) for x in split_specs(args.players)]
    except ValueError:
        raise PreferansError(f"--players: give table sizes such as 2,3,4, not {args.players!r}") from None
    timeout = args.timeout

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\rbot-check: {done}/{total} deals")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    report = check_bot(
        lambda rules: make_bot(spec, rules, seed=1, timeout=timeout), presets=presets, players=players,
        seed=args.seed, progress=None if args.no_progress else progress,
    )  # fmt: skip
    if args.format == "json":
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(report.text(examples=args.examples))
    return 0 if report.clean else 1
