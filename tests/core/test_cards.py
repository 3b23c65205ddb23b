"""Cards, suits, hands and their text forms (rules.md §1)."""

import pytest

from preferans import Card, CardError, PreferansError, Suit, format_hand, parse_hand
from preferans.cards import DECK, cards_of, mask_of, parse_cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A♥", "A♥"), ("10♠", "10♠"), ("AH", "A♥"), ("TS", "10♠"), ("10S", "10♠"), ("qd", "Q♦"),
     ("7c", "7♣"), ("J♣", "J♣"), (" K♦ ", "K♦")],
)
def test_card_parse_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_every_card_round_trips_in_both_forms() -> None:
    for c in DECK:
        assert Card.parse(str(c)) is c
        assert Card.parse(c.ascii()) is c


def test_card_order_and_ids() -> None:
    # rules.md §1: ranks 7 < … < A; suits ♠ < ♣ < ♦ < ♥ in seniority.
    assert int(Card.parse("7♠")) == 0 and int(Card.parse("A♥")) == 31
    assert Card.parse("A♠").rank > Card.parse("K♠").rank
    assert Suit.SPADES < Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS


@pytest.mark.parametrize("bad", ["", "X♥", "AX", "1H", "11S", "A"])
def test_bad_card_text_names_the_problem(bad: str) -> None:
    with pytest.raises(CardError) as e:
        Card.parse(bad)
    assert isinstance(e.value, PreferansError) and isinstance(e.value, ValueError)
    assert repr(bad) in str(e.value) or "cannot read" in str(e.value)


def test_hand_prints_in_suit_order_high_to_low() -> None:
    assert format_hand(parse_hand("7♥ A♠ 10♦ K♣ 8♠ AH")) == "A♠ 8♠ K♣ 10♦ A♥ 7♥"
    assert format_hand(parse_hand("7♥ A♠ 10♦"), ascii=True) == "AS TD 7H"
    assert format_hand(parse_hand("♠7 8 9 10 ♣8"), grouped=True) == "♠10 9 8 7 ♣8"


def test_grouped_and_mixed_parsing() -> None:
    assert parse_hand("♠K A ♣10 J Q") == parse_hand("KS AS TC JC QC")
    assert [str(c) for c in parse_cards("♦A, KH")] == ["A♦", "K♥"]


def test_duplicates_rejected() -> None:
    with pytest.raises(CardError, match="twice"):
        parse_hand("A♠ AS")
    with pytest.raises(CardError):
        mask_of([3, 3])


def test_cards_of_is_ascending() -> None:
    m = parse_hand("A♥ 7♠ K♦")
    assert [int(c) for c in cards_of(m)] == sorted(int(c) for c in cards_of(m))


def test_card_ids_out_of_range() -> None:
    with pytest.raises(CardError):
        Card(32)
