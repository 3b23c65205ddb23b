"""The integer action space and the text forms of actions."""

import pytest

from preferans import NUM_ACTIONS, Action, Contract
from preferans.actions import BIDS, MISERE, NUM_ALL_ACTIONS, PASS
from preferans.errors import ActionError


def test_stable_ids() -> None:
    # Bots, records and the RL environment rely on these never changing.
    assert int(Action.parse("7♠")) == 0 and int(Action.parse("A♥")) == 31
    assert int(Action.parse("6♠", bid=True)) == 32 and int(Action.parse("10NT")) == 56
    assert int(MISERE) == 57 and int(PASS) == 61 and NUM_ACTIONS == 105
    assert [str(Action(i)) for i in range(94, 105)] == [
        "whist", "half-whist", "open", "closed", "invite", "accept", "refuse", "quota", "play",
        "concede-3", "concede-all",
    ]


def test_every_action_round_trips_through_text() -> None:
    for i in range(NUM_ALL_ACTIONS):
        a = Action(i)
        assert Action.parse(str(a), bid=a.is_bid) is a
        assert Action.parse(a.ascii(), bid=a.is_bid) is a


def test_ambiguous_texts_read_as_cards_unless_asked() -> None:
    assert Action.parse("10♥").is_card and Action.parse("10♥", bid=True).contract == Contract(10, 3)
    assert Action.parse("bid 8♦").contract == Contract(8, 2)
    assert Action.parse("card 8♦").card is not None


def test_russian_and_ascii_words() -> None:
    for text, expected in [("пас", "pass"), ("вист", "whist"), ("полвиста", "half-whist"),
                           ("мои", "here"), ("мизер", "misere"), ("6бк", "6NT"), ("7s", "7♠"),
                           ("лёжа", "open"), ("стоя", "closed"), ("пас втёмную", "dark pass")]:
        assert str(Action.parse(text, bid=True)) == expected


def test_contracts() -> None:
    c = Contract.parse("9H-WT")
    assert c.level == 9 and c.trump == 3 and c.without_talon
    assert Contract.parse("misere").is_misere and Contract.parse("misere").trump is None
    assert Contract.parse("8NT").trump is None
    assert len(BIDS) == 29
    with pytest.raises(ActionError):
        Contract.parse("whist")


@pytest.mark.parametrize("bad", ["", "11♠", "pas", "dark whist", "6X"])
def test_bad_action_text(bad: str) -> None:
    with pytest.raises(ActionError, match="cannot read action"):
        Action.parse(bad)


def test_bad_ids() -> None:
    with pytest.raises(ActionError):
        Action(165)
    with pytest.raises(ActionError):
        Action(-1)
