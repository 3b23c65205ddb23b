"""The example bots in ``examples/`` — JavaScript on node and C built with gcc — were written from
``docs/bot-protocol.md`` alone; each is under 200 lines and passes ``preferans bot-check`` (every
preset, 2, 3 and 4 players, every phase and choice)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from preferans.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path is not None, f"{name} is needed by this test (scripts/apt-packages.txt installs it)"
    return path


@pytest.mark.parametrize("name", ["bot.js", "bot.c"])
def test_examples_are_short(name: str) -> None:
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200


@pytest.mark.subprocess
def test_the_javascript_bot_passes_bot_check(capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{_tool('node')} {EXAMPLES / 'bot.js'}"
    code = main(["bot-check", command, "--no-progress", "--timeout", "20"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "clean: every answer legal and in time" in out


@pytest.mark.subprocess
def test_the_c_bot_builds_and_passes_bot_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "bot"
    build = subprocess.run(
        [_tool("gcc"), "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(EXAMPLES / "bot.c")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    code = main(["bot-check", f"cmd:{binary}", "--no-progress", "--timeout", "20"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "clean: every answer legal and in time" in out
