"""Puzzles (issue 27): ``preferans puzzles`` makes a set from records or bot deals and verifies one;
every puzzle of the shipped set is sound (one card at least a trick ahead, solved again)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from preferans.cli import main
from preferans.rulings.puzzles import load, save, shipped, verify

GOLDEN = Path(__file__).parents[1] / "golden" / "records"


def test_the_command_makes_a_set_from_records_and_verifies_it(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    out = tmp_path / "set.json"
    assert main(["puzzles", "--from", str(GOLDEN), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "every one verified" in said and f"written to {out}" in said
    made = load(out)
    assert made and all(not verify(z) for z in made)
    assert {z.source.split(" record")[0] for z in made} <= {f.name for f in GOLDEN.iterdir()}
    assert main(["puzzles", "--verify", str(out)]) == 0
    assert f"{len(made)} puzzles, 0 problems" in capsys.readouterr().out


def test_a_wrong_answer_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    z = shipped()[0]
    other = next(c for c in z.values if c != z.best)
    bad = tmp_path / "bad.json"
    save([dataclasses.replace(z, best=other)], bad)
    assert main(["puzzles", "--verify", str(bad)]) == 1
    said = capsys.readouterr().out
    assert f"the best cards are ['{z.best}'], the puzzle says {other}" in said and "1 puzzles, " in said


def test_bot_deals_and_no_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bots.json"
    assert main(["puzzles", "--deals", "6", "--seed", "3", "--bots", "random", "--quiet", "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "preferans-puzzles"
    assert main(["puzzles"]) == 2
    assert "give --from PATH or --deals N" in capsys.readouterr().err


def test_the_shipped_set_is_sound() -> None:
    puzzles = shipped()
    assert len(puzzles) == 112 and len({z.position for z in puzzles}) == len(puzzles)
    assert [line for z in puzzles for line in verify(z)] == []
    kinds = {z.contract if z.contract in ("misere", "all-pass") else "game" for z in puzzles}
    assert kinds == {"game", "misere", "all-pass"}
