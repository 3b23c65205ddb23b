"""Trick play, all-pass talon leads and misère procedure (rules.md §6–§8, Kodeks 3.6–3.7)."""
from typing import Any

import pytest

from preferans import Card, Deal, DealKind, IllegalAction, Phase, Rules

from helpers import deal_with, legal, play, state_signature

SOCHI = Rules.preset("sochi")


def _to_play_phase(d: Any, bid: str = "6♠", declare: Any = None, calls: str = "whist, whist") -> Any:
    """First hand bids and wins, discards the talon, declares, both defenders whist."""
    play(d, f"{bid}, pass, pass")
    tal = [str(c) for c in d.talon]
    play(d, tal)  # discard the talon cards back
    play(d, declare or bid)
    if d.phase == Phase.WHIST:
        play(d, calls)
    return d


def test_follow_suit_and_must_trump() -> None:
    # rules.md §6: follow suit; a void player must trump.
    d = deal_with(
        SOCHI,
        fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♣ K♣", 2: "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ A♦ K♦",
               0: "Q♣ J♣ 10♣ 9♣ 8♣ 7♣ Q♦ J♦ 10♦ 9♦"},
        talon="8♦ 7♦",
    )
    _to_play_phase(d, "6♠")
    assert d.to_play == 1 and d.trump == 0
    play(d, "A♣")  # first hand leads clubs
    # seat 2 has no clubs and no trumps (♠): any card
    assert len(legal(d)) == 10
    play(d, "A♥")
    # seat 0 must follow clubs
    assert set(legal(d)) == {"Q♣", "J♣", "10♣", "9♣", "8♣", "7♣"}
    before = state_signature(d)
    with pytest.raises(IllegalAction, match=r"must follow suit ♣"):
        d.apply("Q♦")
    assert state_signature(d) == before
    play(d, "7♣")
    assert d.tricks_won[1] == 1 and d.to_play == 1  # the winner leads
    play(d, "9♠")
    # seat 2 void in spades: no trumps in its hand either -> any
    play(d, "K♦")
    play(d, "9♦")
    # now seat 0 leads? No: seat 1 won with 9♠ (trump suit led) and leads again
    assert d.to_play == 1


def test_void_player_must_trump() -> None:
    d = deal_with(
        SOCHI,
        fixed={1: "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ A♦ K♦", 2: "A♥ K♥ Q♥ J♥ 10♥ 9♥ A♠ K♠ Q♠ J♠",
               0: "8♥ 7♥ 10♠ 9♠ 8♠ 7♠ Q♦ J♦ 10♦ 9♦"},
        talon="8♦ 7♦",
    )
    _to_play_phase(d, "6♣")
    play(d, "A♦")
    # seat 2: no diamonds, no clubs (trump ♣) -> anything
    assert len(legal(d)) == 10
    play(d, "A♥")
    play(d, "9♦")
    d2 = deal_with(
        SOCHI,
        fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♦ K♦", 2: "A♥ K♥ Q♥ J♥ 10♥ 9♥ A♣ K♣ Q♣ J♣",
               0: "8♥ 7♥ 10♣ 9♣ 8♣ 7♣ Q♦ J♦ 10♦ 9♦"},
        talon="8♦ 7♦",
    )
    _to_play_phase(d2, "6♥")  # hearts trump
    play(d2, "A♠")
    assert set(legal(d2)) == {"A♥", "K♥", "Q♥", "J♥", "10♥", "9♥"}  # must trump
    with pytest.raises(IllegalAction, match=r"must trump with ♥"):
        d2.apply("A♣")
    play(d2, "9♥")
    play(d2, "8♥")
    assert d2.tricks_won[2] == 1  # the higher trump wins


def test_no_trump_game_highest_of_led_suit_wins() -> None:
    d = deal_with(
        SOCHI,
        fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♦ K♦", 2: "A♥ K♥ Q♥ J♥ 10♥ 9♥ A♣ K♣ Q♣ J♣",
               0: "8♥ 7♥ 10♣ 9♣ 8♣ 7♣ Q♦ J♦ 10♦ 9♦"},
        talon="8♦ 7♦",
    )
    _to_play_phase(d, "6NT")
    play(d, "7♠, A♥, 7♣")
    assert d.tricks_won[1] == 1  # no trumps: the only spade wins


def test_ten_tricks_and_result() -> None:
    d = deal_with(SOCHI)
    _to_play_phase(d, "6NT")
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    assert sum(d.tricks_won) == 10 and len(d.completed_tricks) == 10
    r = d.result
    assert r.kind == DealKind.GAME and sum(r.tricks.values()) == 10


def _allpass_cards_3p() -> Deal:
    # rules.md §12.3: talon A♠ then 7♦; first hand 9♠, second K♠, third 8♠.
    return deal_with(
        SOCHI,
        fixed={1: "9♠ 8♦ 9♦ 10♣ J♣ Q♣ K♣ A♣ 7♥ 8♥", 2: "K♠ 10♦ J♦ 9♥ 10♥ J♥ Q♥ K♥ A♥ 7♣",
               0: "8♠ 7♠ Q♦ K♦ A♦ 10♠ J♠ Q♠ 8♣ 9♣"},
        talon="A♠ 7♦",
    )


def test_all_pass_three_players_talon_names_suit() -> None:
    # Kodeks 3.7.6.3: the talon card names the suit only; the highest of the three wins.
    d = _allpass_cards_3p()
    play(d, "pass, pass, pass")
    assert d.kind == DealKind.ALL_PASS and d.trick == ((-1, Card.parse("A♠")),)
    assert d.to_play == 1 and d.talon_shown == 1
    assert legal(d) == ["9♠"]  # must follow the talon's suit
    play(d, "9♠, K♠, 8♠")
    assert d.completed_tricks[0][1] == 2  # second hand takes it despite the talon ace
    # Trick 2: the second talon card; first hand plays first again (Kodeks 3.7.6.1).
    assert d.trick == ((-1, Card.parse("7♦")),) and d.to_play == 1 and d.talon_shown == 2
    play(d, "8♦, 10♦, A♦")
    assert d.completed_tricks[1][1] == 0
    # Trick 3: first hand leads, whoever won trick 2.
    assert d.trick == () and d.to_play == 1  # type: ignore[comparison-overlap]  # play() moved it


def test_all_pass_three_players_nobody_follows() -> None:
    d = deal_with(
        SOCHI,
        fixed={1: "9♠ 8♦ 9♦ 10♣ J♣ Q♣ K♣ A♣ 7♥ 8♥", 2: "K♠ 10♦ J♦ 9♥ 10♥ J♥ Q♥ K♥ A♥ 7♣",
               0: "8♠ 7♠ Q♦ K♦ A♦ 10♠ J♠ Q♠ 8♣ 9♣"},
        talon="A♠ 7♦",
    )
    play(d, "pass, pass, pass, 9♠, K♠, 8♠, 9♦, J♦, Q♦")
    assert d.completed_tricks[1][1] == 0


def test_all_pass_four_players_dealer_talon_card_wins() -> None:
    # rules.md §12.3 / Kodeks 3.7.6.1: 4-handed, the dealer takes the trick with the talon ace.
    d = deal_with(
        SOCHI,
        players=4,
        dealer=0,
        fixed={1: "9♠ 8♦ 9♦ 10♣ J♣ Q♣ K♣ A♣ 7♥ 8♥", 2: "K♠ 10♦ J♦ 9♥ 10♥ J♥ Q♥ K♥ A♥ 7♣",
               3: "8♠ 7♠ Q♦ K♦ A♦ 10♠ J♠ Q♠ 8♣ 9♣"},
        talon="A♠ 7♦",
    )
    play(d, "pass, pass, pass")
    assert d.trick == ((0, Card.parse("A♠")),)
    play(d, "9♠, K♠, 8♠")
    assert d.completed_tricks[0][1] == 0 and d.tricks_won[0] == 1
    play(d, "8♦, 10♦, A♦")
    assert d.completed_tricks[1][1] == 3
    assert d.to_play == 1  # trick 3: first hand leads
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    r = d.result
    assert r.dealer_tricks == 1 and sum(r.tricks.values()) + r.dealer_tricks == 10


def test_rostov_all_pass_talon_unused() -> None:
    # Kodeks 3.7.6.2: the talon takes no part and stays unknown.
    d = deal_with("rostov")
    play(d, "pass, pass, pass")
    assert d.trick == () and d.to_play == 1 and d.talon_shown == 0
    obs = d.observation(1)
    assert obs.talon == (None, None)
    while not d.is_over:
        d.apply(d.legal_actions()[-1])
    assert sum(d.result.tricks.values()) == 10


def test_all_pass_no_trumps() -> None:
    # Kodeks 3.7.5: no trumps on all-pass; a void player may play any card.
    d = _allpass_cards_3p()
    play(d, "pass, pass, pass, 9♠, K♠, 8♠, 8♦, 10♦, A♦")
    play(d, "10♣")  # first hand leads clubs
    assert len(legal(d)) == 1  # second hand follows with 7♣
    play(d, "7♣")
    assert set(legal(d)) == {"8♣", "9♣"}


MISERE_DECL = "7♠ 8♠ 9♠ 10♠ 8♣ 7♦ 8♦ 9♦ 8♥ 9♥"  # Kovalevskaya's misère hand


def test_misere_talon_shown_and_defenders_expose_before_first_lead() -> None:
    # Kodeks 3.6.6: when the lead belongs to the defenders they lie down before it.
    d = deal_with(SOCHI, fixed={2: MISERE_DECL}, talon="A♥ A♠")
    play(d, "pass, misere, pass")
    assert d.declarer == 2 and d.phase == Phase.DISCARD
    for seat in (0, 1):
        assert d.observation(seat).talon == (Card.parse("A♠"), Card.parse("A♥"))
    play(d, "A♠, A♥")
    assert d.phase == Phase.PLAY and d.to_play == 1  # type: ignore[comparison-overlap]  # apply() moved it
    assert set(d.exposed) == {1, 0}
    assert d.observation(2).known_hands.keys() == {0, 1}
    assert d.trump is None  # Kodeks 3.6.7


def test_misere_declarer_leads_before_defenders_lie_down() -> None:
    d = deal_with(SOCHI, fixed={1: MISERE_DECL}, talon="A♥ A♠")
    play(d, "misere, pass, pass, A♠, A♥")
    assert d.to_play == 1 and d.exposed == ()
    play(d, "7♠")
    assert set(d.exposed) == {2, 0}


def test_dark_misere_caught_in_the_dark() -> None:
    # Kodeks 3.6.5: talon taken face down; defenders do not open.
    d = deal_with("classic", fixed={1: MISERE_DECL})
    play(d, "dark misere, pass, pass")
    assert d.observation(2).talon == (None, None)
    assert d.observation(1).talon != (None, None)
    play(d, [str(c) for c in d.talon])
    play(d, "7♠")
    assert d.exposed == ()


def test_misere_winner_may_switch_when_allowed() -> None:
    r = SOCHI.replace(misere_winner_must_play_misere=False)
    d = deal_with(r)
    play(d, "misere, pass, pass")
    play(d, [str(c) for c in d.talon])
    assert d.phase == Phase.DECLARE and legal(d)[:2] == ["misere", "9♠"]


def test_undo_restores_every_step() -> None:
    d = deal_with(SOCHI)
    sigs = [state_signature(d)]
    _to_play_phase(d, "6NT")
    while not d.is_over:
        sigs.append(state_signature(d))
        d.apply(d.legal_actions()[-1])
    sigs.append(state_signature(d))
    sigs.pop()
    while d.moves:
        d.undo()
        if len(sigs) > 1 and d.phase == Phase.PLAY:
            pass
    assert state_signature(d) == sigs[0]
    with pytest.raises(IllegalAction, match="nothing to undo"):
        d.undo()


def test_legal_cards_are_actions() -> None:
    d = deal_with(SOCHI)
    play(d, "pass, pass, pass")
    assert all(type(a).__name__ == "Action" and a.is_card for a in d.legal_actions())
