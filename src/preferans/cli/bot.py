"""``preferans bot``: serve one of our bots over the bot protocol (stdin/stdout).

    preferans bot --level hard

A table (``preferans arena --bots cmd:"preferans bot --level hard"``, or a
program in any language) talks to it as ``docs/bot-protocol.md`` describes.
"""

from __future__ import annotations

import argparse
import sys

from ..bots.levels import LEVELS, make_bot
from ..bots.protocol import serve
from ..rules import Rules


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help="serve a bot over the line protocol on stdin/stdout (docs/bot-protocol.md)")
    p.add_argument("--level", default="medium", choices=LEVELS, help="the bot's level (default medium)")
    p.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    level, seed = args.level, args.seed

    def make(rules: Rules):  # type: ignore[no-untyped-def]
        return make_bot(level, rules, seed=seed)

    return serve(make, sys.stdin, sys.stdout, name=f"preferans-{level}")
