"""The ``preferans`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` — the
function called with the parsed arguments, returning the exit code.  Modules
are discovered automatically, so adding a command touches no shared list.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from ..errors import PreferansError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="preferans",
        description="Preferans (преферанс): play, keep score, solve and analyse.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except ImportError as exc:
            # One command missing its optional extra must not take the others down.
            _register_unavailable(sub, info.name, exc)
            continue
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def _register_unavailable(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, exc: Exception) -> None:
    p = sub.add_parser(name, help=f"(unavailable: {exc})", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)

    def run(args: argparse.Namespace) -> int:
        print(
            f"preferans {name}: not available here: {exc}\n"
            "Install the extras with: pip install 'preferans[all]' (or the extra this command needs).",
            file=sys.stderr,
        )
        return 2

    p.set_defaults(func=run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except PreferansError as exc:
        print(f"preferans {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
