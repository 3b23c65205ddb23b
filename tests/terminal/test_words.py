"""Typed calls as players say them (seed 002 p.16–19), and what a typo gets back."""

from __future__ import annotations

import pytest

from preferans import Deal, IllegalAction, Rules
from preferans.terminal.words import InputError, read_action

SOCHI = Rules.preset("sochi")


def auction(*calls: str) -> Deal:
    d = Deal.new(SOCHI, players=3, dealer=0, seed=7)
    for c in calls:
        d.apply(c)
    return d


@pytest.mark.parametrize(
    ("calls", "typed", "meant"),
    [
        ((), "6 пик", "6♠"), ((), "шесть пик", "6♠"), ((), "семь червей", "7♥"), ((), "7 бубен", "7♦"),
        ((), "восемь треф", "8♣"), ((), "шесть без козыря", "6NT"), ((), "7 бк", "7NT"), ((), "десять БК", "10NT"),
        ((), "пас", "pass"), ((), "Пас!", "pass"), ((), "мизер", "misere"), ((), "seven hearts", "7♥"),
        # seed 002 p.16–17: «Раз», «Пики», «Первые» open the auction at 6♠; «Два» is the next step, 6♣
        ((), "раз", "6♠"), ((), "первые", "6♠"), ((), "Пики", "6♠"), (("6♠",), "два", "6♣"),
        # a bare suit is the lowest legal bid in it
        (("7♦",), "черви", "7♥"), (("7♦",), "пики", "8♠"),
        # seed 002 p.19: after a pass, «Трефы мои» / «Семь треф мои» / «Мои» hold the bid
        (("6♠", "7♣", "pass"), "трефы мои", "here"), (("6♠", "7♣", "pass"), "семь треф мои", "here"),
        (("6♠", "7♣", "pass"), "мои", "here"), (("6♠", "7♣", "pass"), "здесь", "here"),
    ],
)  # fmt: skip
def test_spoken_calls(calls: tuple[str, ...], typed: str, meant: str) -> None:
    d = auction(*calls)
    assert str(read_action(d, typed, "ru")) == meant


def test_whist_in_words() -> None:
    d = Deal.new(SOCHI, players=3, dealer=0, seed=7)
    d.apply("6♠")
    d.apply("pass")
    d.apply("pass")
    d.apply(str(d.talon[0]))
    d.apply(str(d.talon[1]))
    d.apply("6♠")
    assert str(read_action(d, "вист", "ru")) == "whist" and str(read_action(d, "пас", "ru")) == "pass"
    assert str(read_action(d, "вистую", "ru")) == "whist"


def test_holding_the_wrong_bid_is_explained() -> None:
    d = auction("6♠", "7♣", "pass")
    with pytest.raises(InputError, match="«мои» \\(здесь\\) держит текущую заявку 7♣, а не 7♥"):
        read_action(d, "черви мои", "ru")
    with pytest.raises(InputError, match="«here» holds the current bid 7♣, not 7♥"):
        read_action(d, "hearts mine", "en")


def test_spoken_words_are_checked_by_the_rules() -> None:
    d = auction("7♦")
    with pytest.raises(IllegalAction, match="insufficient bid 6♠"):
        read_action(d, "шесть пик", "en")


def test_typos_get_sensible_suggestions() -> None:
    d = auction()
    with pytest.raises(InputError) as e:
        read_action(d, "5h", "en")
    # no "did you mean 9♥": a 5 is no misspelt 9; the answer says what levels exist
    assert "did you mean" not in str(e.value) and "levels 6 to 10" in str(e.value)
    with pytest.raises(InputError, match="did you mean pass"):
        read_action(d, "pas", "en")
    with pytest.raises(InputError, match="может быть, мизер"):
        read_action(d, "мизр", "ru")
    with pytest.raises(InputError, match="не понимаю 'xyz'; выберите: пас, 6♠"):
        read_action(d, "xyz", "ru")


def test_cards_in_words() -> None:
    d = Deal.new(SOCHI, players=3, dealer=0, seed=7)
    for c in ("pass", "pass", "pass"):
        d.apply(c)  # all-pass: cards are played
    legal = d.legal_actions()
    first = legal[0]
    ranks = ["семерка", "восьмерка", "девятка", "десятка", "валет", "дама", "король", "туз"]
    suits = ["пик", "треф", "бубен", "червей"]
    said = f"{ranks[first & 7]} {suits[first >> 3]}"
    assert read_action(d, said, "ru") == first
