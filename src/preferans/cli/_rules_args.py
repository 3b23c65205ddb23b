"""The ``--rules PRESET`` and ``--set FIELD=VALUE`` options every command shares.

One place for how a company's conventions are given on the command line: a
preset (docs/rules.md §13) and any number of field changes on top of it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..i18n import N_
from ..rules import Rules

__all__ = ["add_rules_arguments", "rules_from_args"]

# The presets by name, written out so that the catalog can hold the sentence (a test checks
# that they are Rules.PRESET_NAMES).
RULES_HELP = N_("the convention: sochi, leningrad, rostov, classic, kodeks (see 'preferans rules')")
RULES_HELP_DEFAULT = N_("the convention: sochi, leningrad, rostov, classic, kodeks (see 'preferans rules'); "
                        "default %(default)s")  # fmt: skip


def add_rules_arguments(parser: argparse.ArgumentParser, *, default: str | None = "sochi") -> None:
    """Add ``--rules`` and ``--set``; with ``default=None`` the preset may be left out
    (the command then takes the rules from elsewhere, e.g. a saved game's header)."""
    parser.add_argument(
        "--rules",
        default=default,
        metavar="PRESET",
        help=RULES_HELP_DEFAULT if default else RULES_HELP,
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help=N_("change one Rules field (docs/rules.md §13), repeatable: --set ten_mode=whisted"),
    )


def rules_from_args(args: argparse.Namespace, *, extra: Sequence[str] = ()) -> Rules:
    """The preset named by ``--rules`` with every ``--set`` (then ``extra``) applied.

    >>> p = argparse.ArgumentParser(); add_rules_arguments(p)
    >>> rules_from_args(p.parse_args(["--rules", "kodeks", "--set", "pool_target=30"])).pool_target
    30
    """
    rules = Rules.preset(args.rules or "sochi")
    for assignment in (*args.set, *extra):
        rules = rules.set_from_text(assignment)
    return rules
