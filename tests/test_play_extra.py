"""The `[play]` extra (README's first command) installs what playing needs and nothing of the research
stack: every package the terminal, the server and the CLI import is in it (issue 16, Set-up)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Import names that a package of another name provides (rich comes with textual).
PROVIDED_BY = {"rich": "textual", "argon2": "argon2-cffi"}
# Parts that are not playing: the RL environments ([rl]), the bot arena on a Ray cluster ([cluster]) and
# the server's cluster mode on PostgreSQL ([web]; `preferans serve --cluster` imports it only then).
NOT_PLAYING = {"env", "bots/arena.py", "server/cluster.py"}


def extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {k: [re.split(r"[<>=\[ ]", r, maxsplit=1)[0].lower() for r in v]
            for k, v in project["optional-dependencies"].items()}  # fmt: skip


def imported_by_playing() -> set[str]:
    src = ROOT / "src" / "preferans"
    names: set[str] = set()
    for f in src.rglob("*.py"):
        rel = f.relative_to(src).as_posix()
        if rel.split("/")[0] in NOT_PLAYING or rel in NOT_PLAYING:
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "preferans"}


def test_play_has_what_the_games_import() -> None:
    play = set(extras()["play"])
    missing = {n for n in imported_by_playing() if PROVIDED_BY.get(n, n).lower() not in play}
    assert not missing, f"[play] lacks {sorted(missing)}"


def test_play_brings_no_research_or_test_tools() -> None:
    play = set(extras()["play"])
    heavy = {"ray", "open-spiel", "numpy", "gymnasium", "pettingzoo", "scipy", "mypy", "playwright", "pytest"}
    assert not play & heavy, sorted(play & heavy)
    assert any("play" in r for r in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
               ["project"]["optional-dependencies"]["all"])  # fmt: skip
