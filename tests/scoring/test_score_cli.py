"""``preferans score`` and the score keeper's line syntax (issue 3)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from preferans.cli import main
from preferans.errors import ScoreError
from preferans.rules import Rules
from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.scoring.text_sheet import entry_text

LENINGRAD_4 = [
    {"game": "7C", "declarer": "B", "defence": {"C": "whist", "D": "whist"},
     "tricks": {"B": 7, "C": 2, "D": 1}},
    {"allpass": True, "tricks": {"C": 4, "D": 1, "A": 3}, "dealer_tricks": 2},
    {"game": "7H", "declarer": "D", "defence": {"A": "whist", "B": "pass"},
     "tricks": {"D": 6, "A": 3, "B": 1}},
    {"game": "misere", "declarer": "A", "tricks": {"A": 1, "B": 4, "C": 5},
     "half_with_dealer": True},
    {"game": "6D", "declarer": "C", "defence": {"D": "pass", "B": "half"}},
]  # fmt: skip


def write(tmp_path: Path, rows: list[object] | list[str], name: str = "deals.jsonl") -> Path:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(["score", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_issue_command_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's command line and its exact JSON shape (pulka of test_pulka, Leningrad 4p)."""
    path = write(tmp_path, LENINGRAD_4)
    rc, out, _ = run(["--rules", "leningrad", "--players", "A,B,C,D", "--first-dealer", "A",
                      "--pool", "20", str(path), "--format", "json"], capsys)  # fmt: skip
    assert rc == 0
    data = json.loads(out)
    assert list(data) == ["pool", "mountain", "whists", "net"]
    assert data["pool"] == {"A": 0, "B": 4, "C": 2, "D": 0}
    assert data["mountain"] == {"A": 12, "B": 1, "C": 3, "D": 18}
    assert data["whists"]["C"] == {"A": 0, "B": 16, "D": 8}
    assert data["net"] == {"A": "-41", "B": "133", "C": "81", "D": "-173"}


@pytest.mark.parametrize(
    ("row", "sets", "written"),
    [
        # schema: game played (rules.md §9.2)
        ({"game": "7S", "declarer": "A", "defence": {"B": "whist", "C": "pass"},
          "tricks": {"A": 7, "B": 3, "C": 0}}, [], "A pool 4 · B→A 12"),
        ({"game": "7S", "declarer": "A", "defence": {"B": "whist", "C": "pass"},
          "tricks": {"A": 7, "B": 3, "C": 0}, "open": True}, [], "A pool 4 · B→A 12"),
        # not played: both pass, half-whist, за своими (rules.md §5.4)
        ({"game": "8NT", "declarer": "A", "defence": {"B": "pass", "C": "pass"}}, [], "A pool 6"),
        ({"game": "6S", "declarer": "A", "defence": {"B": "pass", "C": "half"}}, [],
         "A pool 2 · C→A 4"),
        ({"game": "7D", "declarer": "A", "defence": {"B": "whist", "C": "pass"}, "za_svoimi": True},
         ["za_svoimi=true"], "A pool 4 · B→A 4"),
        # 10-game checked (seed-002 p.26)
        ({"game": "10H", "declarer": "A", "tricks": {"A": 9, "B": 1, "C": 0}}, [],
         "A mount 10 · B→A 20 · C→A 10"),
        # misère (rules.md §7)
        ({"game": "misere", "declarer": "A", "tricks": {"A": 1, "B": 4, "C": 5}}, [], "A mount 10"),
        # all-pass (Kodeks 3.7.2.1)
        ({"allpass": True, "tricks": {"A": 3, "B": 5, "C": 2}}, [], "A mount 1 · B mount 3"),
        # options: dealer, multiplier, без трёх
        ({"game": "6S", "declarer": "A", "defence": {"B": "pass", "C": "pass"}, "dealer": "C",
          "multiplier": 2}, [], "A pool 4"),
        ({"game": "6S", "declarer": "A", "defence": {"B": "whist", "C": "pass"}, "conceded": 3},
         ["bez_trekh=true"], "A mount 6 · B→A 6 · C→A 6"),
        ({"game": "6S", "declarer": "A", "defence": {"B": "whist", "C": "pass"}, "conceded": 3},
         ["bez_trekh=true", "bez_trekh_consolation=no"], "A mount 6"),
        ({"game": "7S", "declarer": "A", "defence": {"B": "whist", "C": "pass"},
          "tricks": {"A": 7, "B": 3, "C": 0}, "comment": "extra keys are allowed"}, [],
         "A pool 4 · B→A 12"),
    ],
)  # fmt: skip
def test_json_schema_forms(row: dict[str, object], sets: list[str], written: str) -> None:
    rules = Rules.preset("sochi")
    for s in sets:
        rules = rules.set_from_text(s)
    keeper = ScoreKeeper(rules, ["A", "B", "C"])
    score = keeper.enter(json.dumps(row))
    assert " · ".join(entry_text(e, keeper.names) for e in score.entries) == written


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("A 7S B:w C:p B2", "A pool 4 · B→A 8"),
        ("A 7♠ B:whist 2 C:pass", "A pool 4 · B→A 8"),
        ("A 6H B:w C:w B2 C2", "A pool 2 · B→A 4 · C→A 4"),
        ("A 6H B:w C:w A5 B3", "A mount 2 · B→A 8 · C→A 6"),
        ("A 8NT B:p C:p", "A pool 6"),
        ("A 8 NT B:p C:p", "A pool 6"),
        ("A 6S B:p C:h", "A pool 2 · C→A 4"),
        ("A 10H A10", "A pool 10"),
        ("A misere 0", "A pool 10"),
        ("A мизер 2", "A mount 20"),
        ("allpass A3 B5 C2", "A mount 1 · B mount 3"),
        ("распасы A0 B4", "A pool 1 · B mount 4 · C mount 6"),
        ("A 6S B:p C:p x2", "A pool 4"),
        ("A 6S B:p C:p @B", "A pool 2"),
    ],
)
def test_compact_lines(line: str, written: str) -> None:
    keeper = ScoreKeeper(Rules.preset("sochi"), ["A", "B", "C"])
    score = keeper.enter(line)
    assert " · ".join(entry_text(e, keeper.names) for e in score.entries) == written


def test_compact_four_handed_dealer_tricks_and_half_misere() -> None:
    keeper = ScoreKeeper(Rules.preset("sochi"), ["A", "B", "C", "D"], first_dealer="D")
    score = keeper.enter("allpass A3 B4 C2 D1")  # D deals: his 1 is a talon trick
    assert keeper.pulka.results[-1].dealer_tricks == 1
    assert [entry_text(e, keeper.names) for e in score.entries] == [
        "A mount 2", "B mount 3", "C mount 1"]  # amnesty of D's 1 (Kodeks 3.7.3)
    score = keeper.enter("B misere 1 half")  # A deals now
    assert [entry_text(e, keeper.names) for e in score.entries] == ["B mount 5", "A mount 5"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Z 7S", "start with who played"),
        ("A 11S B:w", "contract: cannot read «11S»"),
        ("A 7S B:x C:p", "B:w"),
        ("A 7S B:w C:w", "give the tricks"),
        ("A 7S B:w C:w B2", "all the players but one"),
        ("allpass A3 B5 C3", "sum to 10"),
        ("A 6S B:h C:p", "second opponent"),
        ("A 8S B:p C:h", "half-whist is allowed on levels 6, 7"),
        ("A 6S", "write what B and C said"),
        ("A misere B:w", "misère"),
        ("A 6S B:w C:p -3", "bez_trekh"),
        ('{"game": "7S", "declarer": "A", "defence": {"B": "maybe"}}', "defence.B"),
        ('{"allpass": true, "tricks": {"A": 3, "B": 5, "C": "2"}}', "tricks.C"),
        ('{"declarer": "A"}', "game"),
        ('{"game": 7}', "game"),
        ("{not json", "JSON"),
    ],
)
def test_invalid_lines_change_nothing(line: str, message: str) -> None:
    keeper = ScoreKeeper(Rules.preset("sochi"), ["A", "B", "C"])
    keeper.enter("A 7S B:w C:p B2")
    before = keeper.pulka.sheet.to_dict(), keeper.pulka.next_dealer
    with pytest.raises(ScoreError, match=message):
        keeper.enter(line)
    assert (keeper.pulka.sheet.to_dict(), keeper.pulka.next_dealer) == before


def test_invalid_line_reports_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ["# a comment", "A 7S B:w C:p B2", "", "allpass A3 B5 C3", "A 6S B:p C:p"])
    rc, out, err = run([str(path)], capsys)
    assert rc == 2 and out == ""
    assert "line 4" in err and "sum to 10" in err


def test_set_and_rules_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--set uses the rules.md §13 names; the geometric progression gives 1, 2, 4 (Kodeks 3.7.4)."""
    path = write(tmp_path, ["allpass A0 B4 C6"] * 3)
    rc, out, _ = run([str(path), "--set", "raspas_progression=geometric", "--pool", "50",
                      "--format", "json"], capsys)  # fmt: skip
    assert rc == 0
    assert json.loads(out)["pool"]["A"] == 1 + 2 + 4
    rc, _, err = run([str(path), "--set", "raspas_progresion=geometric"], capsys)
    assert rc == 2 and "did you mean 'raspas_progression'" in err


def test_text_output_and_price(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ["A 6H B:w C:w B2 C2"])
    rc, out, _ = run([str(path), "--price", "0.5"], capsys)
    assert rc == 0
    assert "A 6♥ made" in out and "5⅓" in out and "money" in out
    assert "16/3" not in out  # a player never reads a bare fraction
    # on paper each writes 6⅔ → 7 whists for a mountain share: +6 −3 −3, money at ½ a whist
    assert re.search(r"in whole whists\s+\+6\s+-3\s+-3", out) and re.search(r"money ×½\s+3\s+-1\.50", out)


def test_save_and_load_without_loss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keeper = ScoreKeeper(Rules.preset("leningrad").replace(pool_target=8), ["Ann", "Bob", "Cy"],
                         first_dealer="Bob")  # fmt: skip
    for line in ("Ann 7S Bob:w Cy:p Bob2", "allpass Ann3 Bob5 Cy2", "Cy 7H Ann:p Bob:h",
                 "Bob misere 0", "Ann 8NT Bob:p Cy:p help=Cy"):  # fmt: skip
        keeper.enter(line)
    path = tmp_path / "game.jsonl"
    keeper.save(path)
    again = ScoreKeeper.from_lines(path.read_text(encoding="utf-8").splitlines())
    assert again.pulka.rules == keeper.pulka.rules
    assert again.names == keeper.names and again.pulka.first_dealer == 1
    assert again.pulka.sheet.to_dict() == keeper.pulka.sheet.to_dict()
    assert again.pulka.results == keeper.pulka.results
    assert again.lines() == keeper.lines()
    rc, out, _ = run([str(path), "--format", "json"], capsys)
    assert rc == 0 and json.loads(out)["pool"] == keeper.pulka.sheet.to_dict()["pool"]


@pytest.mark.subprocess
def test_interactive_session(tmp_path: Path) -> None:
    """Typed lines with an error, an undo and a save, through the real command."""
    saved = tmp_path / "game.jsonl"
    script = "\n".join([
        "A 7S B:w C:p B2", "B 6H C:w A:w C2", "B 6H C:w A:w C2 A1", "undo", "foo",
        "allpass A3 B5 C2", "settle", f"save {saved}", "quit",
    ]) + "\n"  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from preferans.cli import main; sys.exit(main())",
         "score", "-i", "--format", "json"],
        input=script, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "error: tricks" in proc.stdout and "error: declarer: start with" in proc.stdout
    assert "took back" in proc.stdout
    final = json.loads(proc.stdout.strip().splitlines()[-1])
    assert final["pool"] == {"A": 4, "B": 0, "C": 0} and final["mountain"]["B"] == 3
    assert len(saved.read_text(encoding="utf-8").splitlines()) == 3  # header + 2 deals
    # load it back in a new session and go on
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from preferans.cli import main; sys.exit(main())",
         "score", "-i", "--format", "json"],
        input=f"load {saved}\nC 6S A:p B:p\n", capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "loaded 2 deals" in proc.stdout
    final = json.loads(proc.stdout.strip().splitlines()[-1])
    assert final["pool"] == {"A": 4, "B": 0, "C": 2}


def test_svg_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, LENINGRAD_4)
    out_svg = tmp_path / "sheet.svg"
    rc, _, _ = run(["--rules", "leningrad", "--players", "A,B,C,D", str(path), "--svg",
                    str(out_svg)], capsys)  # fmt: skip
    assert rc == 0 and out_svg.read_text(encoding="utf-8").startswith("<svg")


def test_lang_ru_sheet_settlement_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang ru``: the table's words in, the sheet, the whole-whist settlement and the SVG in Russian."""
    path = write(tmp_path, ["Аня 6♠ вист Боря пас Вася, 6 взяток", "распасы Аня 3 Боря 5 Вася 2"])
    svg = tmp_path / "sheet.svg"
    rc, out, _ = run([str(path), "--players", "Аня,Боря,Вася", "--lang", "ru", "--svg", str(svg)], capsys)
    assert rc == 0
    assert "Аня 6♠ сыграна" in out and "в целых вистах" in out and "Оба способа сходятся" in out
    assert "/3" not in out and "Settlement" not in out
    # the whole shares paper writes, from which the whole result follows (rules.md §11.3)
    assert "за недописанную до 2 пулю, в целых вистах" in out and "за гору, в целых вистах" in out
    drawn = svg.read_text(encoding="utf-8")
    assert "пуля" in drawn and "гора" in drawn and "pool" not in drawn


@pytest.mark.subprocess
def test_interactive_session_in_russian() -> None:
    script = "Аня 6♠ вист Боря пас Вася, 6 взяток\nфу\nundo\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from preferans.cli import main; sys.exit(main())",
         "score", "-i", "--players", "Аня,Боря,Вася", "--lang", "ru"],
        input=script, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "[сдача 1, сдаёт Аня]>" in proc.stdout and "1. Аня 6♠ сыграна" in proc.stdout
    assert "ошибка: начните с того, кто играл" in proc.stdout and "ничего не записано" in proc.stdout
    assert "последняя сдача отменена" in proc.stdout


@pytest.mark.parametrize("command", ["score", "play", None])
def test_help_in_russian(command: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` speaks the command's ``--lang`` (or the system's): every option's text, the
    section titles, the placeholders and argparse's own words come from the catalog (issue 28)."""
    from preferans.cli import build_parser
    from preferans.i18n import Translator

    argv = [command, "--lang", "ru", "--help"] if command else ["--help"]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("LANGUAGE", "ru_RU")  # the bare `preferans --help` follows the system's language
        with pytest.raises(SystemExit) as done:
            main(argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("вызов: preferans") and "параметры:" in out and "показать эту справку и выйти" in out
    assert "usage" not in out and "options:" not in out and "FILE" not in out
    parser = build_parser()
    if command:
        commands = next(a for a in parser._actions if a.dest == "command").choices
        assert isinstance(commands, dict)
        parser = commands[command]
    ru = Translator("ru")
    for action in parser._actions + [c for a in parser._actions for c in getattr(a, "_choices_actions", [])]:
        if action.help and action.help != "==SUPPRESS==":
            english = action.help % {**vars(action), "prog": "p"}
            assert ru(action.help) != action.help, f"{action.dest}: no Russian for {action.help!r}"
            assert english not in out, english


def test_rules_help_names_every_preset() -> None:
    """The --rules help is written out for the catalog; it must name exactly the presets there are."""
    from preferans.cli._rules_args import RULES_HELP, RULES_HELP_DEFAULT

    listed = ", ".join(Rules.PRESET_NAMES)
    assert f"the convention: {listed} (see" in RULES_HELP and RULES_HELP_DEFAULT.startswith(RULES_HELP)


@pytest.mark.parametrize("command", ["score", "play"])
def test_lang_left_out_follows_the_system(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A Russian system gets Russian without --lang (as gettext programs do); --lang still decides."""
    monkeypatch.setenv("LANGUAGE", "ru_RU:ru")
    path = write(tmp_path, ["Аня 6♠ вист Боря пас Вася, 6 взяток"])
    argv = {"score": ["score", str(path), "--players", "Аня,Боря,Вася"],
            "play": ["play", "--plain", "--deals", "1", "--seats", "bot:random,bot:random,bot:random", "--seed", "1",
                     "--save", str(tmp_path / "g.prf")]}[command]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert ("Пулька: Сочи" if command == "score" else "Сдача 1 — Сочи") in out
    assert main([*argv, "--lang", "en"]) == 0
    assert ("Pulka: Sochi" if command == "score" else "Deal 1") in capsys.readouterr().out
