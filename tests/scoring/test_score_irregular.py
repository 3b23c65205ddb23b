"""Irregularities typed into the score keeper (issue 10: "the score keeper accepts them as outcome lines")."""

import json

import pytest

from preferans import Rules
from preferans.errors import ScoreError
from preferans.scoring.scorekeeper import ScoreKeeper


def keeper(players: str = "ABCD") -> ScoreKeeper:
    return ScoreKeeper(Rules.preset("sochi"), list(players), first_dealer="D")


def test_kodeks_example_as_a_penalty_line() -> None:
    # Kodeks 3.3.16.3 / rules.md §12.1 E-S1: B writes 52 and the dealer D writes 7 on the offender A.
    k = keeper()
    k.enter("penalty A B:52 D:7")
    sheet = k.pulka.sheet
    assert sheet.whists[1][0] == 52 and sheet.whists[3][0] == 7
    assert k.pulka.next_dealer == 0  # the deal passes on as usual
    net = k.pulka.settlement().net
    assert list(net) == [-59, 52, 0, 7]


def test_void_deal_keeps_the_dealer() -> None:
    # seed-002 p.12: a deal out of turn is dealt again by the right dealer.
    k = keeper()
    k.enter("void C")
    assert k.pulka.next_dealer == 3 and sum(k.pulka.sheet.pool) == 0


def test_json_forms_round_trip_through_save() -> None:
    k = keeper()
    k.enter_json({"penalty": {"B": 52, "D": 7}, "offender": "A"})
    k.enter_json({"void": True, "offender": "C"})
    lines = k.lines()
    assert json.loads(lines[1]) == {"penalty": {"B": 52, "D": 7}, "offender": "A", "dealer": "D"}
    assert json.loads(lines[2])["void"] is True
    again = ScoreKeeper.from_lines(lines)
    assert again.pulka.sheet.whists == k.pulka.sheet.whists


@pytest.mark.parametrize(
    ("line", "message"),
    [("penalty A A:5", "offender writes nothing"), ("penalty A B:x", "whists as a number"),
     ("penalty", "penalty OFFENDER"), ("void Z", "cannot read «Z»")],
)
def test_bad_irregular_lines(line: str, message: str) -> None:
    with pytest.raises(ScoreError, match=message):
        keeper().enter(line)
