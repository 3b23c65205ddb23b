"""The score keeper's line as players say it (scoring/scoreline.py): worked examples, in Russian and
English, names in any case, short or of several words; and every mistake named in the reader's words."""

from __future__ import annotations

import pytest

from preferans.errors import ScoreError
from preferans.i18n import text
from preferans.rules import Rules
from preferans.scoring.scorekeeper import ScoreKeeper

ABV = ["Аня", "Боря", "Вася"]

# (names, line, the deal's label in Russian, what it writes: (column, player, amount, on))
EXAMPLES = [
    (ABV, "АНЯ 6♠ ВИСТ БОРЯ ПАС ВАСЯ, 6 ВЗЯТОК", "Аня 6♠ сыграна", [("pool", 0, 2, -1), ("whists", 1, 8, 0)]),
    (ABV, "Аня 6♠ вист Боря пас Вася, 6 взяток", "Аня 6♠ сыграна", [("pool", 0, 2, -1), ("whists", 1, 8, 0)]),
    (ABV, "Ан 6♠ Б вист В пас Б 4", "Аня 6♠ сыграна", [("pool", 0, 2, -1), ("whists", 1, 8, 0)]),
    (ABV, "Аня 6♠ Боря вист Вася пас Боря 4", "Аня 6♠ сыграна", [("pool", 0, 2, -1), ("whists", 1, 8, 0)]),
    (ABV, "Боря 7 треф, оба вистуют, Вася 2 Аня 1", "Боря 7♣ сыграна",
     [("pool", 1, 4, -1), ("whists", 2, 8, 1), ("whists", 0, 4, 1)]),
    (ABV, "вася 8 бк пас пас", "Вася 8БК без вистов", [("pool", 2, 6, -1)]),
    (ABV, "Аня 6 пик Боря пас Вася полвиста", "Аня 6♠ полвиста", [("pool", 0, 2, -1), ("whists", 2, 4, 0)]),
    (ABV, "Вася 7♥ вист Аня пас Боря без одной", "Вася 7♥ без 1",
     [("mountain", 2, 4, -1), ("whists", 0, 20, 2), ("whists", 1, 4, 2)]),
    (ABV, "Вася 6 бубен вист Аня пас Боря, сыграл", "Вася 6♦ сыграна", [("pool", 2, 2, -1), ("whists", 0, 8, 2)]),
    (ABV, "Аня мизер чистый", "Аня мизер чистый", [("pool", 0, 10, -1)]),
    (ABV, "Боря мизер 2", "Боря мизер, 2 взятки", [("mountain", 1, 20, -1)]),
    (ABV, "распасы ан3 б5 в2", "распасы Аня3 Боря5 Вася2", [("mountain", 0, 1, -1), ("mountain", 1, 3, -1)]),
    (ABV, "Аня 6♠ Боря вист Вася пас за своими", "Аня 6♠ за своими", [("pool", 0, 2, -1), ("whists", 1, 4, 0)]),
    (["Anna", "Boris", "Vera"], "Anna 6S whist Boris pass Vera, 6 tricks", "Anna 6♠ сыграна",
     [("pool", 0, 2, -1), ("whists", 1, 8, 0)]),
    (["Анна Мария", "Боря", "В"], "анна мария 7♥ В вист Боря пас В 2", "Анна Мария 7♥ сыграна",
     [("pool", 0, 4, -1), ("whists", 2, 8, 0)]),
    # a player named «В» is «В»; the small «в» is вист
    (["Анна Мария", "Боря", "В"], "В 6♠ в Анна Мария п Боря Анна Мария 4", "В 6♠ сыграна",
     [("pool", 2, 2, -1), ("whists", 0, 8, 2)]),
]  # fmt: skip


@pytest.mark.parametrize(("names", "line", "label", "written"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_a_line_as_said(names: list[str], line: str, label: str, written: list[tuple[str, int, int, int]]) -> None:
    k = ScoreKeeper(Rules().replace(za_svoimi=True), names)
    score = k.enter(line)
    assert text(score.label, "ru") == label
    assert [(e.column, e.player, e.amount, e.on) for e in score.entries] == written


MISTAKES = [
    (ABV, "Аня 6♠ Петя вист", "не понял «Петя» (игроки: Аня, Боря, Вася)", "Петя"),
    (ABV, "Аня 11♠", "игра: не понял «11♠»", "11♠"),
    (ABV, "Аня 6♠ Боря вист Вася пас Боря 11", "взятки, Боря: от 0 до 10, а не 11", "11"),
    (ABV, "Гена 6♠ пас пас", "начните с того, кто играл (Аня, Боря, Вася)", "Гена"),
    (["Анна", "Андрей", "Вася"], "Ан 6♠ пас пас", "«Ан» — это Анна или Андрей?", "Ан"),
    # four players: the dealer (the first deal's, Аня) sits out, whatever the calls after her
    ([*ABV, "Галя"], "Аня 7♠ пас", "Аня сдаёт и в этой сдаче не играет", "Аня"),
]  # fmt: skip


@pytest.mark.parametrize(("names", "line", "said", "word"), MISTAKES, ids=[m[1] for m in MISTAKES])
def test_a_mistake_is_named_in_russian_and_english(names: list[str], line: str, said: str, word: str) -> None:
    k = ScoreKeeper(Rules(), names)
    with pytest.raises(ScoreError) as e:
        k.enter(line)
    ru, en = text(e.value, "ru"), text(e.value, "en")
    assert said in ru and word in en and ru != en
    assert "sheet" not in ru and not k.pulka.results
