"""Deal labels for every kind of contract, «без прикупа» games included."""

from __future__ import annotations

from preferans.actions import Contract
from preferans.engine.result import DealKind, DealResult, DefenceCall
from preferans.i18n import text
from preferans.scoring import deal_label


def test_a_game_without_the_talon_has_a_label() -> None:
    r = DealResult(DealKind.GAME, 3, dealer=0, declarer=1, contract=Contract(9, 2, True),
                   defence={2: DefenceCall.WHIST, 0: DefenceCall.PASS}, tricks={0: 0, 1: 9, 2: 1})  # fmt: skip
    assert str(deal_label(r, ("A", "B", "C"))) == "B 9♦ made"
    assert text(deal_label(r, ("A", "B", "C")), "ru").startswith("B 9♦")


def test_an_all_pass_label_keeps_names_apart_from_counts() -> None:
    """The score keeper's ``A0 B4 C6`` while the names allow it; a name with a space or a final
    digit (the web's «Bot 2») would run into its count («Bot 24»), so then ``Bot 2: 4``; the
    4-handed dealer's talon tricks come last (Kodeks 3.7.6.1)."""
    r = DealResult(DealKind.ALL_PASS, 3, dealer=0, tricks={0: 0, 1: 4, 2: 6})
    assert str(deal_label(r, ("A", "B", "C"))) == "all-pass A0 B4 C6"
    assert str(deal_label(r, ("Ann", "Bot 2", "Bot 3"))) == "all-pass Ann: 0, Bot 2: 4, Bot 3: 6"
    assert text(deal_label(r, ("Аня", "Бот2", "Вера")), "ru") == "распасы Аня: 0, Бот2: 4, Вера: 6"
    four = DealResult(DealKind.ALL_PASS, 4, dealer=3, tricks={0: 5, 1: 3, 2: 1}, dealer_tricks=1)
    assert str(deal_label(four, ("A", "B", "C", "D"))) == "all-pass A5 B3 C1 D1"
