"""``preferans rules``: a preset's options with their meanings, and how two presets differ.

::

    preferans rules                     # every option of sochi, with its meaning
    preferans rules kodeks --set pool_target=30
    preferans rules --diff sochi leningrad
    preferans rules --markdown          # the options table of docs/rules.md §13

Values print in the form ``--set`` takes (``half_whist_levels=6,7``), so a line
can be copied onto another command.
"""

from __future__ import annotations

import argparse
import textwrap
from dataclasses import fields

from ..i18n import N_
from ..rules import OPTION_DOCS, PRESETS, Rules

__all__ = ["describe", "diff", "markdown_table", "value_text"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rules",
        help=N_("show a preset's options with their meanings, or how two presets differ"),
        description="The table conventions (Rules fields) of a preset; see docs/rules.md.",
    )
    p.add_argument("preset", nargs="?", default="sochi", help=f"one of {', '.join(Rules.PRESET_NAMES)}")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="change a field first")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), help="only the options where presets A and B differ")
    p.add_argument("--markdown", action="store_true", help="print the options table of docs/rules.md §13")
    p.set_defaults(func=run)


def value_text(value: object) -> str:
    """A field's value as ``--set`` reads it.

    >>> from fractions import Fraction
    >>> value_text(True), value_text(frozenset({7, 6})), value_text((6, 7, 7)), value_text(Fraction(1, 2))
    ('true', '6,7', '6,7,7', '1/2')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return ",".join(str(x) for x in sorted(value)) or "none"
    if isinstance(value, tuple):
        return ",".join(str(x) for x in value)
    return str(value)


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def describe(rules: Rules) -> str:
    """Every option of ``rules`` with its value, meaning, who plays it and the source.

    >>> print(describe(Rules.preset("kodeks")).splitlines()[2])
    jump_bids=false
    """
    out = [f"{rules.name}: {len(fields(rules)) - 1} options (docs/rules.md §13)", ""]
    for f in fields(rules):
        if f.name == "name":
            continue
        doc = OPTION_DOCS[f.name]
        out.append(f"{f.name}={value_text(getattr(rules, f.name))}")
        out.append(_wrap(doc.meaning, "    "))
        out.append(_wrap(f"who: {doc.who}; source: {doc.source} (docs/rules.md {doc.section})", "    "))
    return "\n".join(out)


def diff(a: Rules, b: Rules) -> str:
    """The options where ``a`` and ``b`` differ, side by side, with their meanings.

    >>> print(diff(Rules.preset("sochi"), Rules.preset("kodeks")).splitlines()[2])
    jump_bids                  true             false
    """
    changed = [f.name for f in fields(a) if f.name != "name" and getattr(a, f.name) != getattr(b, f.name)]
    if not changed:
        return f"{a.name} and {b.name} have the same options"
    width = max(len(n) for n in changed) + 2
    out = [f"{len(changed)} options differ", f"{'option':<{width}} {a.name:<16} {b.name}"]
    for name in changed:
        out.append(f"{name:<{width}} {value_text(getattr(a, name)):<16} {value_text(getattr(b, name))}")
        out.append(_wrap(OPTION_DOCS[name].meaning, " " * 4))
    return "\n".join(out)


def markdown_table() -> str:
    """The table of every field with its meaning, the default of each preset, who plays it
    and the source — docs/rules.md §13 holds exactly this text (a test checks it)."""
    presets = [PRESETS[n] for n in Rules.PRESET_NAMES]
    head = ["field", "meaning", *Rules.PRESET_NAMES, "who plays it", "source"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for f in fields(Rules):
        if f.name == "name":
            continue
        doc = OPTION_DOCS[f.name]
        values = [f"`{value_text(getattr(p, f.name))}`" for p in presets]
        cells = [f"`{f.name}`", doc.meaning, *values, doc.who, f"{doc.source} ({doc.section})"]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    if args.markdown:
        print(markdown_table())
        return 0
    if args.diff:
        a, b = (Rules.preset(n) for n in args.diff)
        for assignment in args.set:
            b = b.set_from_text(assignment)
        print(diff(a, b))
        return 0
    rules = Rules.preset(args.preset)
    for assignment in args.set:
        rules = rules.set_from_text(assignment)
    print(describe(rules))
    return 0
