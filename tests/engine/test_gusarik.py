# mypy: disable-error-code="comparison-overlap"
# (a test asserts a phase, acts, and asserts the next one; mypy keeps the first narrowing)
"""гусарик, two players and a dummy (rules.md §16, Kodeks 3.7.6.4), scripted.

Seat 2 is the dummy.  With dealer 1, first hand is seat 0 (the dealer's left is the dummy, so
first hand passes on to the next player) and the order is 0, 1, dummy; with dealer 0 it is
1, dummy, 0.
"""

from __future__ import annotations

import pytest

from preferans import Deal, DealKind, DefenceCall, Phase, Rules
from preferans.errors import CardError, ConfigError
from preferans.seats import DUMMY

from helpers import deal_with, legal, play

SOCHI = Rules.preset("sochi")


def bought(declarer: int, contract: str = "6♠", *, dealer: int = 1, rules: Rules = SOCHI) -> Deal:
    """``declarer`` buys ``contract`` (the other player passes) and declares it."""
    d = deal_with(rules, players=2, dealer=dealer)
    while d.phase is Phase.BIDDING:
        play(d, contract if d.to_act == declarer else "pass")
    play(d, [str(c) for c in d.talon])
    if contract != "misere":  # a misère goes straight to play
        play(d, contract)
    return d


def test_seats_first_hand_and_the_dummy_never_acting() -> None:
    d = Deal.new(SOCHI, players=2, dealer=1, seed=3)
    assert d.seats == 3 and d.active == (0, 1, DUMMY) and d.first_hand == 0 and d.to_act == 0
    assert Deal.new(SOCHI, players=2, dealer=0, seed=3).active == (1, DUMMY, 0)
    assert [h.bit_count() for h in d.hands] == [10, 10, 10]
    play(d, "pass")
    assert d.to_act == 1  # the dummy does not bid: the other player speaks
    play(d, "pass")
    assert d.kind is DealKind.ALL_PASS  # both passed


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_dummys_pass_opens_kodeks_3_3_15_only_when_it_sits_second(dealer: int) -> None:
    """rules.md §16: the dummy «always passes», and that pass counts.  Dealer 0: the order is
    1, dummy, 0, so after seat 1's pass seat 0 is a third hand after two passes and may take the
    talon without a bid (Kodeks 3.3.15); dealer 1: the order is 0, 1, dummy, and seat 1 after
    seat 0's pass is only second hand.  Without the option nobody has the right."""
    d = Deal.new(SOCHI, players=2, dealer=dealer, seed=5)
    play(d, "pass")
    assert ("talon" in legal(d)) is (dealer == 0)
    d = Deal.new(SOCHI.replace(third_hand_takes_talon=False), players=2, dealer=dealer, seed=5)
    play(d, "pass")
    assert "talon" not in legal(d)
    if dealer == 0:
        d = Deal.new(SOCHI, players=2, dealer=0, seed=5)
        play(d, "pass, talon")
        assert d.declarer == 0 and d.phase is Phase.DISCARD  # he took it, so he must declare a game


def test_the_defender_whists_and_plays_both_hands_open() -> None:
    """The dummy passes without being asked; the live defender whists, the dummy's hand and
    his own are laid face up, and he plays the dummy's cards."""
    d = bought(declarer=0)  # defenders: 1 (live, the declarer's left), then the dummy
    assert d.phase is Phase.WHIST and d.to_act == 1 and legal(d) == ["pass", "whist"]
    for seat in (0, 1):
        assert DUMMY not in d.observation(seat).known_hands  # dealt face down
    play(d, "whist")
    assert d.phase is Phase.PLAY and set(d.exposed) == {1, DUMMY} and d.open_play
    assert DUMMY in d.observation(0).known_hands and 1 in d.observation(0).known_hands
    d.apply(d.legal_actions()[0])  # the declarer leads
    assert d.to_play == 1 and d.to_act == 1
    d.apply(d.legal_actions()[0])
    assert d.to_play == DUMMY and d.to_act == 1  # the whister plays the dummy's card
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    r = d.result
    assert r.kind is DealKind.GAME and r.defence == {1: DefenceCall.WHIST, DUMMY: DefenceCall.PASS}
    assert sum(r.tricks.values()) == 10


@pytest.mark.parametrize("declarer", [0, 1])
def test_a_claim_is_answered_by_the_whister_never_by_the_dummy(declarer: int) -> None:
    """rules.md §16: the dummy never acts on its own; the whister plays its cards and answers for
    the defence alone — so he alone answers the declarer's claim (issue 25: the dummy was asked,
    and no person or bot sits there to answer)."""
    rules = SOCHI.replace(claims=True)
    d = bought(declarer=declarer, rules=rules)
    while d.phase is Phase.WHIST:
        play(d, "whist" if "whist" in legal(d) else "pass")
    assert d.phase is Phase.PLAY
    d.claim(declarer, 10)
    assert d.phase is Phase.CLAIM_ANSWER and d.to_act == 1 - declarer
    play(d, "accept")
    assert d.is_over and d.result.tricks[declarer] == 10
    whister = 1 - declarer  # and the whister's claim is answered by the declarer alone
    d = bought(declarer=declarer, rules=rules)
    while d.phase is Phase.WHIST:
        play(d, "whist" if "whist" in legal(d) else "pass")
    d.claim(whister, 10)
    assert d.to_act == declarer
    play(d, "accept")
    assert d.is_over


def test_the_dummy_speaks_first_when_it_sits_on_the_declarers_left() -> None:
    d = bought(declarer=1)  # defenders: the dummy (on 1's left), then 0
    assert d.to_act == 0 and d.whisters == ()
    play(d, "pass")
    assert d.is_over and d.result.kind is DealKind.NOT_PLAYED  # written unplayed


def test_misere_caught_with_the_dummy_open() -> None:
    """Kodeks 3.6.6: the defending hands (the player's and the dummy's) are laid open before the
    first lead when the defence leads; the defender plays the dummy."""
    d = bought(declarer=1, contract="misere")
    assert d.phase is Phase.PLAY and d.to_play == 0
    assert set(d.exposed) == {0, DUMMY}
    while not d.is_over:
        if d.to_play == DUMMY:
            assert d.to_act == 0
        d.apply(d.legal_actions()[0])
    assert d.result.kind is DealKind.MISERE


def test_all_pass_is_ten_tricks_of_two_with_the_talon_and_the_dummy_out() -> None:
    """Kodeks 3.7.6.4: the talon is never opened; the dummy's cards take no part."""
    d = Deal.new(SOCHI, players=2, dealer=1, seed=5)
    dummy_cards = d.hands[DUMMY]
    play(d, "pass, pass")
    assert d.phase is Phase.PLAY and d.trick == () and d.to_play == 0
    while not d.is_over:
        assert d.to_play in (0, 1)
        for seat in (0, 1):
            obs = d.observation(seat)
            assert obs.talon == (None, None) and DUMMY not in obs.known_hands
        d.apply(d.legal_actions()[-1])
    assert all(len(cards) == 2 for cards, _ in d.completed_tricks) and len(d.completed_tricks) == 10
    assert d.hands[DUMMY] == dummy_cards
    r = d.result
    assert r.tricks[0] + r.tricks[1] == 10 and r.tricks[DUMMY] == 0


@pytest.mark.parametrize("preset", ["rostov", "leningrad", "classic", "kodeks"])
def test_every_preset_deals_for_two(preset: str) -> None:
    d = Deal.new(Rules.preset(preset), players=2, dealer=0, seed=1)
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    assert d.result.players == 2


def test_bad_two_handed_deals_are_refused() -> None:
    with pytest.raises(ConfigError, match="2 \\(гусарик\\)"):
        Deal.new(SOCHI, players=5)
    with pytest.raises(ConfigError, match="dealer"):
        Deal.new(SOCHI, players=2, dealer=2)  # the dummy never deals
    with pytest.raises(CardError, match="the dummy's"):
        Deal(SOCHI, [0] * 2, (0, 1), players=2)
