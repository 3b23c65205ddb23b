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
