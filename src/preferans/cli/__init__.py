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
from collections.abc import Iterable, Sequence
from typing import Any, cast

from ..errors import PreferansError
from ..i18n import LANGS, N_, Msg, Translator, system_language

__all__ = ["build_parser", "help_language", "main"]

# argparse's own words, which it writes in English whatever the language (its gettext domain
# has no Russian here): the help is printed through our catalog instead.
_ARGPARSE_WORDS = (N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"))


def help_language(argv: Sequence[str], environ: dict[str, str] | None = None) -> str:
    """The language ``--help`` speaks: the command's own ``--lang``, else the system's
    (:func:`~preferans.i18n.system_language`), as the command itself would.

    >>> help_language(["score", "--lang", "ru", "--help"], {})
    'ru'
    >>> help_language(["play", "--help"], {"LANG": "ru_RU.UTF-8"}), help_language(["play", "--lang=en"], {"LANG": "ru"})
    ('ru', 'en')
    """
    lang_only = argparse.ArgumentParser(add_help=False)
    lang_only.add_argument("--lang")
    given = lang_only.parse_known_args(argv)[0].lang
    return given if given in LANGS else system_language(environ)


class _TranslatedHelp(argparse.HelpFormatter):
    """Help whose texts (descriptions, options, section titles) are looked up in the catalog;
    a text the catalog does not hold (an analyst's command) is printed as written."""

    t = Translator("en")

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = super()._get_help_string(action)
        return self.t(help_text) if help_text else help_text

    def _format_text(self, text: str) -> str:
        return super()._format_text(self.t.text(text) if isinstance(text, Msg) else self.t(text))

    def _metavar_formatter(self, action: argparse.Action, default_metavar: str) -> Any:
        # FILE, N, PRESET… as the language writes them ({en,ru} choices stay as typed)
        shown = super()._metavar_formatter(action, default_metavar)
        return lambda size: tuple(m if m.startswith("{") else self.t.p("metavar", m) for m in shown(size))

    def start_section(self, heading: str | None) -> None:
        super().start_section(self.t(heading) if heading else heading)

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:  # fmt: skip
        super().add_usage(usage, actions, groups, self.t("usage: ") if prefix is None else prefix)


def _translate_help(parser: argparse.ArgumentParser, lang: str) -> None:
    """Print ``parser``'s help (and every subcommand's) in ``lang``, keeping each parser's own
    formatter (``score`` keeps its epilog's line breaks)."""
    base = parser.formatter_class
    translated: Any = type("TranslatedHelp", (_TranslatedHelp, cast(type, base)), {"t": Translator(lang)})
    parser.formatter_class = translated
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _translate_help(sub, lang)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """Every command's parser; ``lang`` is the language its help is printed in."""
    parser = argparse.ArgumentParser(
        prog="preferans",
        description=N_("Preferans (преферанс): play, keep score, solve and analyse."),
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
    _translate_help(parser, lang)
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
    parser = build_parser(help_language(sys.argv[1:] if argv is None else argv))
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
