"""The score keeper never guesses what the players did not say, and names each mistake where it
is (issue 16, Score keeper): a lone whist without tricks is «за своими» only when the table plays
it and the players confirm it (seed-002 p.27); a bad option is named as the option; every bad
line of a file is reported, and nothing after the first one counts."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from preferans.cli import main
from preferans.cli.score import _interact
from preferans.errors import ConfirmationNeeded, ScoreError
from preferans.rules import Rules
from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.scoring.text_sheet import entry_text

LONE = "A 7D B:w C:p"  # B whists alone, C passes, no tricks written


def keeper(za_svoimi: bool) -> ScoreKeeper:
    return ScoreKeeper(Rules.preset("sochi").replace(za_svoimi=za_svoimi), ["A", "B", "C"])


def written(k: ScoreKeeper, line: str, **kw: bool) -> str:
    return " · ".join(entry_text(e, k.names) for e in k.enter(line, **kw).entries)


def test_a_lone_whist_without_tricks_is_an_error_where_za_svoimi_is_off() -> None:
    k = keeper(False)
    row = {"game": "7D", "declarer": "A", "defence": {"B": "whist", "C": "pass"}}
    for line in (LONE, LONE + " quota", json.dumps(row)):
        with pytest.raises(ScoreError, match=r"za_svoimi=false.*write the tricks, e.g. B2"):
            k.enter(line)
    assert k.pulka.results == []  # nothing written
    assert written(k, LONE + " B2") == "A pool 4 · B→A 8"  # with the tricks it is a played deal: 2 × 4


def test_with_za_svoimi_on_it_needs_the_players_word() -> None:
    """7♦: the pool 4; «за своими» on a 7 writes one trick's whists, 4 (seed 002 p.27, rules.md E-S7)."""
    k = keeper(True)
    with pytest.raises(ConfirmationNeeded, match="add 'quota'"):
        k.enter(LONE)
    assert k.pulka.results == []
    assert written(k, LONE + " quota") == "A pool 4 · B→A 4"
    assert written(k, LONE, quota=True) == "A pool 4 · B→A 4"  # the interactive «да»
    row = {"game": "7D", "declarer": "A", "defence": {"B": "whist", "C": "pass"}, "za_svoimi": True}
    assert written(k, json.dumps(row)) == "A pool 4 · B→A 4"
    saved = ScoreKeeper.from_lines(k.lines())  # the saved game says it, so it loads again
    assert saved.pulka.sheet.to_dict() == k.pulka.sheet.to_dict()
    with pytest.raises(ScoreError, match="quota: «за своими» is a lone whist"):
        k.enter("A 7D B:w C:w quota")  # two whisters: not «за своими»


def interact(k: ScoreKeeper, typed: str) -> tuple[ScoreKeeper, str]:
    out = io.StringIO()
    args = argparse.Namespace(save=None)
    return _interact(k, io.StringIO(typed), out, args, None), out.getvalue()


def test_the_interactive_keeper_asks() -> None:
    k, out = interact(keeper(True), f"{LONE}\nn\n{LONE}\nда\nquit\n")
    assert out.count("«за своими»: the lone whister writes his quota without play? [y/N]") == 2
    assert "nothing written: write the tricks" in out
    assert len(k.pulka.results) == 1 and k.pulka.results[0].za_svoimi
    k, out = interact(keeper(False), f"{LONE}\nquit\n")
    assert "za_svoimi=false" in out and "[y/N]" not in out and not k.pulka.results


def test_a_file_needs_the_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"A 6S B:p C:p\n{LONE}\n", encoding="utf-8")
    assert main(["score", str(path), "--set", "za_svoimi=true"]) == 2
    assert "line 2: defence: B whists alone" in capsys.readouterr().err
    path.write_text(f"A 6S B:p C:p\n{LONE} quota\n", encoding="utf-8")
    assert main(["score", str(path), "--set", "za_svoimi=true", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["pool"] == {"A": 6, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "A"], "--players A: "),
        (["--players", "A,B,C,D,E"], "--players A,B,C,D,E: "),
        (["--players", "A,B,C", "--first-dealer", "Z"], "--first-dealer Z: "),
        (["--set", "pool_target=-1"], "--set pool_target=-1: "),
        (["--pool", "0"], "--pool 0: "),
    ],
)  # fmt: skip
def test_command_line_mistakes_are_named_as_options(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    argv: list[str], message: str) -> None:  # fmt: skip
    path = tmp_path / "deals.txt"
    path.write_text("# a comment\nA 6S B:p C:p\n", encoding="utf-8")
    assert main(["score", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "line " not in err, err


def test_every_bad_line_is_reported_nothing_after_the_first_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["A 6S B:p C:p", "B 6Q", "C 7H A:p B:p", "allpass A3 B5 C3", "B 8NT A:p C:p"]
    with pytest.raises(ScoreError) as e:
        ScoreKeeper.from_lines(lines)
    text = str(e.value)
    assert text.startswith("line 2: contract: cannot read «6Q»") and "line 4: tricks" in text
    assert "line 3" not in text and "line 5" not in text
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(path), "--format", "json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "line 2" in err and "line 4" in err  # no sheet printed: nothing applied
