"""The line mode in process: undo before any move, resuming a game in its language with its log,
how the game says it ended."""

from __future__ import annotations

import io
from pathlib import Path

from preferans import Rules
from preferans.table import Table
from preferans.terminal.plain import PlainGame


def run(table: Table, script: str, lang: str = "en", save: Path | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = PlainGame(table, lang=lang, out=out, inp=io.StringIO(script), quit_save=save).run()
    return code, out.getvalue()


def test_undo_before_any_move_answers_and_prompts_again(tmp_path: Path) -> None:
    """--plain --practice: «undo» before you moved is answered, and the game goes on (it used to end, exit 2)."""
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=3, practice=True,
                  save_path=tmp_path / "g.prf")  # fmt: skip
    code, out = run(table, "undo\nотмена\nquit\n")
    assert code == 0
    assert out.count("Nothing to take back: you have not moved in this deal yet") == 2
    assert out.count("Your call [") == 3  # the prompt after each answer, then quit
    assert "Game saved to" in out


def test_undo_in_practice_takes_back_your_move() -> None:
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=3, practice=True)
    code, out = run(table, "pass\nundo\nquit\n")
    assert code == 0 and "Taken back: You pass" in out
    assert not any(s == 0 for s, _ in table.deal.moves)


def test_resume_keeps_the_language_names_and_the_deal_so_far(tmp_path: Path) -> None:
    save = tmp_path / "g.prf"
    table = Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=3, lang="ru",
                  names=["Вы", "Левый", "Правый"], save_path=save)  # fmt: skip
    table.run_bots()
    table.act("pass")
    table.run_bots()
    calls = [(s, str(a)) for s, a in table.deal.moves]
    assert save.exists()
    # resumed without --lang: Russian again, the same names, and the auction told again
    again = Table.load(save)
    assert again.lang == "ru" and again.names == ["Вы", "Левый", "Правый"]
    code, out = run(again, "выход\n", lang=again.lang)
    assert code == 0 and "=== Сдача 1" in out and "Ваши карты" in out
    assert "Вы: пас" in out  # the deal log: your call, in your words
    for seat, call in calls:
        if seat != 0 and call in ("pass",):
            assert f"{again.names[seat]}: пас" in out
    assert "Left" not in out and "pass" not in out.replace("--resume", "")

def test_resume_in_another_language_renames_only_the_default_names(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from preferans.cli import main

    save = tmp_path / "g.prf"
    Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=3, lang="ru", save_path=save).save()
    monkeypatch.setenv("PREFERANS_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--resume", str(save), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Your hand" in out and "dealer: You" in out and "Левый" not in out
    chosen = tmp_path / "c.prf"
    Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=3, lang="ru", names=["Аня", "Боря", "Вера"],
          save_path=chosen).save()  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--resume", str(chosen), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Your hand" in out and "Боря" in out  # the players' own names stay


def test_the_end_is_told_as_it_is() -> None:
    """«The pulka is over.» only when it is: after --deals N the game says it stopped (plural forms)."""
    one = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=1, max_deals=1)
    _, out = run(one, "")
    assert "The game stopped after 1 deal (--deals); the pulka is not finished." in out
    assert "The pulka is over." not in out and "Pulka: Sochi, 3 players, pool 20, 1 deal\n" in out
    two = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=1, max_deals=2, lang="ru")
    _, out = run(two, "", lang="ru")
    assert "Игра остановлена после 2 сдач, как было условлено; пулька не закончена." in out
    assert "Пулька: Сочи, игроков: 3, пуля 20, 2 сдачи\n" in out
    closed = Table(Rules.preset("sochi").replace(pool_target=2), ["bot:easy"] * 3, seed=2)
    _, out = run(closed, "")
    assert "The pulka is over." in out and "stopped after" not in out
