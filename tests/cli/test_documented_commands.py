"""Every ``preferans …`` command shown in README.md and docs/*.md is one the command line accepts.

The Python examples there run as doctests; the shell examples are checked here: each
line of a ``sh`` block that starts with ``preferans`` must parse with the real
argument parser (options and values that exist, in the right place).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from preferans.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _commands() -> list[tuple[str, str]]:
    out = []
    for path in DOCS:
        for block in re.findall(r"```(?:sh|bash|console|shell)\n(.*?)```", path.read_text(), re.S):
            for line in block.splitlines():
                line = line.strip().removeprefix("$ ")
                if line.startswith("preferans "):
                    out.append((path.name, line))
    return out


COMMANDS = _commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize(("doc", "line"), COMMANDS, ids=[f"{d}:{c[:60]}" for d, c in COMMANDS])
def test_documented_command_parses(doc: str, line: str) -> None:
    words = shlex.split(line, comments=True)
    # A pipeline or a redirection ends the command.
    for i, w in enumerate(words):
        if w in ("|", ">", ">>", "<", "&&", ";"):
            words = words[:i]
            break
    parser = build_parser()
    try:
        args = parser.parse_args(words[1:])
    except SystemExit as e:  # argparse exits on a bad command line
        raise AssertionError(f"{doc}: {line!r} does not parse") from e
    assert getattr(args, "func", None) is not None, f"{doc}: {line!r} names no command"
