# mypy: disable-error-code="comparison-overlap"
# (a test asserts a phase, acts, and asserts the next one; mypy keeps the first narrowing)
"""The auction (rules.md §3, Kodeks 3.3.8–3.3.19, seed-002 pp.16–23).

With ``dealer=0`` and 3 players, first hand is seat 1, second seat 2, third seat 0.
"""

import pytest

from preferans import Action, Contract, Deal, DealKind, IllegalAction, Phase, Rules

from helpers import deal_with, legal, play, state_signature

KODEKS = Rules.preset("kodeks")
SOCHI = Rules.preset("sochi")


def test_first_hand_speaks_first_and_order_is_clockwise() -> None:
    d = deal_with(SOCHI)
    assert d.to_act == 1  # rules.md §2: first hand is the dealer's left
    play(d, "6♠")
    assert d.to_act == 2
    play(d, "6♣")
    assert d.to_act == 0


def test_kodeks_hold_example() -> None:
    # rules.md §12.4, Kodeks 3.3.8: 1st 6♠, 2nd pass, 3rd 6♣, 1st "6♣ here", 3rd 6♦,
    # 1st "6♦ here", 3rd 6♥, 1st pass → 3rd declares at 6♥.
    d = deal_with(KODEKS)
    play(d, "6♠, pass, 6♣, here, 6♦, here, 6♥, pass")
    assert d.declarer == 0 and d.winning_bid == Contract(6, 3)
    play(d, [str(a) for a in d.legal_actions()[:2]])  # discard any two
    assert d.phase == Phase.DECLARE
    assert legal(d)[:3] == ["6♥", "6NT", "7♠"]
    assert "6♦" not in legal(d)


def test_only_senior_may_hold_under_kodeks() -> None:
    d = deal_with(KODEKS)
    play(d, "6♠, 6♣")  # first hand 6♠, second hand 6♣
    play(d, "pass")  # third hand passes
    assert "here" in legal(d)  # first hand (senior) may hold the junior's 6♣
    d = deal_with(KODEKS)
    play(d, "pass, 6♠")  # second hand bids
    assert "here" not in legal(d)  # third hand is junior: Kodeks 3.3.8


def test_held_bid_must_be_overcalled() -> None:
    d = deal_with(KODEKS)
    play(d, "6♠, pass, 6♣, here")
    assert d.to_act == 0
    assert "here" not in legal(d) and legal(d)[:2] == ["pass", "6♦"]


@pytest.mark.parametrize(("rule", "second_may_hold"), [("first_hand_only", False), ("senior_only", True)])
def test_second_hand_holds_against_third_only_under_senior_only(rule: str, second_may_hold: bool) -> None:
    """Kodeks 3.3.8 gives «здесь» to «игрок, находящийся на первой руке»: read literally
    (first_hand_only, the kodeks preset) second hand may not hold third hand's bid, while
    senior_only lets the earlier of any two contenders hold."""
    d = deal_with(SOCHI.replace(jump_bids=False, hold_rule=rule))
    play(d, "pass, 6♠, 6♣")  # first hand passes; second bids, third overcalls
    assert d.to_act == 2
    assert ("here" in legal(d)) is second_may_hold
    if not second_may_hold:
        with pytest.raises(IllegalAction, match="only first hand holds"):
            d.apply("here")


def test_first_hand_holds_against_second_under_first_hand_only() -> None:
    """Kodeks 3.3.8: first hand holds whichever of the others bid against him."""
    d = deal_with(KODEKS)
    assert KODEKS.hold_rule == "first_hand_only"
    play(d, "6♠, 6♣, pass")
    assert d.to_act == 1 and "here" in legal(d)
    play(d, "here")
    assert d.to_act == 2 and "here" not in legal(d)


def test_hold_after_pass_any_benyakova() -> None:
    # seed-002 p.19: 1st 7♣, 2nd pass, 3rd "7♣ mine".
    r = SOCHI.replace(hold_rule="after_pass_any")
    d = deal_with(r)
    play(d, "7♣, pass")
    assert "here" in legal(d)
    play(d, "here")
    assert d.to_act == 1 and "here" not in legal(d)
    play(d, "pass")
    assert d.declarer == 0 and d.winning_bid == Contract(7, 1)


def test_hold_via_passed_player_never_on_six_spades() -> None:
    r = SOCHI.replace(hold_rule="via_passed_player")
    d = deal_with(r)
    play(d, "pass, 6♠, 6♣")
    # seat 2 (second hand) is senior to seat 0 and first hand has passed
    assert "here" in legal(d)
    d = deal_with(r)
    play(d, "6♠, 6♣")
    play(d, "6♦")
    assert "here" not in legal(d)  # nobody passed yet


def test_sequential_bids_kodeks() -> None:
    # Kodeks 3.3.8: after 6♣ the only raising bid is 6♦; 8♦ is a jump.
    d = deal_with(KODEKS)
    play(d, "6♠, 6♣")
    bids = [a for a in legal(d) if a[0].isdigit()]
    assert bids == ["6♦"]
    before = state_signature(d)
    with pytest.raises(IllegalAction, match=r"jump bid 8♦.*next is 6♦.*Kodeks 3\.3\.8"):
        d.apply("8♦")
    assert state_signature(d) == before


def test_jump_bids_allowed_popular() -> None:
    # seed-002 p.18: any step at once.
    d = deal_with(SOCHI)
    play(d, "6♠, 6♣, 8♦")
    assert d.highest_bid == Contract(8, 2)


def test_insufficient_bid_names_lowest_legal() -> None:
    # Kodeks 3.3.8, 3.3.11: an insufficient bid is rejected and must be corrected.
    d = deal_with(SOCHI)
    play(d, "7♦")
    with pytest.raises(IllegalAction, match=r"insufficient bid 6♠.*current bid is 7♦.*lowest legal bid is 7♥"):
        d.apply("6♠")
    with pytest.raises(IllegalAction, match="insufficient"):
        d.apply("7♦")


def test_pass_is_final() -> None:
    # Kodeks 3.3.10
    d = deal_with(SOCHI)
    play(d, "pass, 6♠, 6♣")
    assert d.to_act == 2  # first hand (seat 1) is skipped for good
    play(d, "7♠, 7♣")
    assert d.to_act == 2


def test_misere_only_as_first_call() -> None:
    # Kodeks 3.3.9 «мизер кабальный»
    d = deal_with(SOCHI)
    play(d, "6♠, misere")
    assert d.to_act == 0
    play(d, "9♠")  # Kodeks 3.6.4: only a 9-level game overcalls misère
    assert d.to_act == 1
    with pytest.raises(IllegalAction, match=r"first call.*Kodeks 3\.3\.9"):
        d.apply("misere")


def test_misere_overcalled_only_by_nine() -> None:
    d = deal_with(SOCHI)
    play(d, "6♠, misere")
    assert next(a for a in legal(d) if a[0].isdigit()) == "9♠"
    with pytest.raises(IllegalAction, match=r"9-level.*Kodeks 3\.6\.4"):
        d.apply("8NT")
    play(d, "9♠, pass, pass")  # misère bidder may not continue: rules.md §3.2.7
    assert d.declarer == 0 and d.winning_bid == Contract(9, 0)


def test_misere_bidder_can_only_pass_when_overcalled() -> None:
    d = deal_with(SOCHI)
    play(d, "misere, 9♠")
    play(d, "pass")
    assert d.to_act == 1 and legal(d) == ["pass"]


def test_misere_on_top_benyakova() -> None:
    # seed-002 p.17: misère at the very top of the ladder.
    r = SOCHI.replace(misere_rank="top")
    d = deal_with(r)
    play(d, "misere")
    assert legal(d) == ["pass"]


def test_all_pass() -> None:
    # Kodeks 3.3.12
    d = deal_with(SOCHI)
    play(d, "pass, pass, pass")
    assert d.kind == DealKind.ALL_PASS and d.phase == Phase.PLAY


def test_winner_takes_talon_and_declares_not_lower() -> None:
    # Kodeks 3.3.11, 3.3.13; seed-002 p.21: bought at 7♦ → 7♠, 7♣ not allowed.
    d = deal_with(SOCHI, talon="A♠ A♥")
    play(d, "7♦, pass, pass")
    assert d.phase == Phase.DISCARD and d.declarer == 1
    assert d.hand(1) >> int(Action.parse("AS")) & 1  # the talon is in his hand
    assert d.hand(1).bit_count() == 12
    play(d, [str(a) for a in d.legal_actions()[:2]])
    assert d.hand(1).bit_count() == 10 and d.discard.bit_count() == 2
    assert legal(d)[:3] == ["7♦", "7♥", "7NT"]
    with pytest.raises(IllegalAction, match=r"lower than the winning bid 7♦"):
        d.apply("7♠")


def test_third_hand_takes_talon_after_two_passes() -> None:
    # Kodeks 3.3.15
    d = deal_with(SOCHI)
    play(d, "pass, pass")
    assert "talon" in legal(d)
    play(d, "talon")
    assert d.declarer == 0 and d.phase == Phase.DISCARD
    play(d, [str(a) for a in d.legal_actions()[:2]])
    assert legal(d)[0] == "6♠" and "misere" not in legal(d)


def test_third_hand_talon_option_off() -> None:
    d = deal_with(SOCHI.replace(third_hand_takes_talon=False))
    play(d, "pass, pass")
    assert "talon" not in legal(d)


def test_dark_pass_raises_the_overcall_to_seven() -> None:
    # Kodeks 3.3.19 a); rules.md §12.4: after a dark pass by 1st, 2nd may open only at 7.
    d = deal_with("classic")
    assert "dark pass" in legal(d)
    play(d, "dark pass")
    bids = [a for a in legal(d) if a[0].isdigit()]
    assert bids[0] == "7♠"
    with pytest.raises(IllegalAction, match=r"dark pass.*7-level.*Kodeks 3\.3\.19"):
        d.apply("6NT")
    play(d, "dark pass")
    assert next(a for a in legal(d) if a[0].isdigit()) == "8♠"


def test_dark_passes_multiply_all_pass() -> None:
    d = deal_with("classic")
    play(d, "dark pass, dark pass, pass")
    assert d.kind == DealKind.ALL_PASS and d.multiplier == 4


def test_dark_calls_only_as_first_call() -> None:
    d = deal_with("classic")
    play(d, "6♠, 6♣, 6♦")
    assert "dark pass" not in legal(d)
    with pytest.raises(IllegalAction, match="first call"):
        d.apply("dark pass")


def test_no_dark_pass_after_a_game_was_bid() -> None:
    """Kodeks 3.3.19 a): «пас втёмную. В случае, если после такой заявки произойдёт распасовка,
    цена взятки будет двойная … Перебить пас втёмную можно только семерной игрой.»  A dark pass
    stakes the all-pass that may follow and must be overcalled by a seven: after a light 6♠ no
    all-pass can follow and the 6♠ already stands below the seven, so it is refused (issue 29);
    after light passes it still doubles the all-pass."""
    d = deal_with("classic")
    play(d, "6♠")
    assert "dark pass" not in legal(d) and "dark 6♣" in legal(d)  # a dark game may still overcall
    to_act = d.to_act
    with pytest.raises(IllegalAction, match=r"dark pass.*a game has been bid.*Kodeks 3\.3\.19"):
        d.apply("dark pass")
    assert d.to_act == to_act and len(d.moves) == 1  # refused, nothing changed
    four = deal_with("classic", players=4, dealer=3)
    play(four, "misere")  # a misère is a game too: no all-pass can follow it
    assert "dark pass" not in legal(four)
    d = deal_with("classic")
    play(d, "pass, dark pass, pass")
    assert d.kind == DealKind.ALL_PASS and d.multiplier == 2


def test_dark_calls_need_agreement() -> None:
    d = deal_with(SOCHI)
    with pytest.raises(IllegalAction, match="dark_bids"):
        d.apply("dark pass")


def test_dark_game_doubles() -> None:
    d = deal_with("classic")
    play(d, "dark 6♠, pass, pass")
    assert d.multiplier == 2


def test_out_of_turn_rejected_and_state_unchanged() -> None:
    d = deal_with(SOCHI)
    before = state_signature(d)
    with pytest.raises(IllegalAction, match=r"seat 2 acted out of turn.*seat 1's turn.*3\.3\.18"):
        d.apply("6♠", seat=2)
    assert state_signature(d) == before
    d.apply("6♠", seat=1)
    assert d.to_act == 2


def test_four_handed_dealer_does_not_bid() -> None:
    # seed-002 p.14
    d = deal_with(SOCHI, players=4, dealer=2)
    assert d.active == (3, 0, 1)
    for _ in range(3):
        assert d.to_act != 2
        play(d, "pass")
    assert d.kind == DealKind.ALL_PASS


def test_misere_half_with_dealer_accept() -> None:
    # Kodeks 3.6.9: "приглашаю" — the dealer accepts or refuses.
    d = deal_with(SOCHI, players=4, dealer=0)
    assert "invite" in legal(d)
    play(d, "invite")
    assert d.phase == Phase.MISERE_INVITE and d.to_act == 0
    assert legal(d) == ["accept", "refuse"]
    play(d, "accept, pass, pass")
    assert d.declarer == 1 and d.contract is not None and d.contract.is_misere and d.kind == DealKind.MISERE
    play(d, [str(a) for a in d.legal_actions()[:2]])
    assert d.phase == Phase.PLAY


def test_misere_half_refused_then_alone_and_no_second_invite() -> None:
    d = deal_with(SOCHI, players=4, dealer=0)
    play(d, "invite, refuse")
    assert d.to_act == 1 and "invite" not in legal(d)
    play(d, "misere")
    assert d.to_act == 2 and "invite" not in legal(d)


def test_min_level_after_all_pass_series() -> None:
    # raspas_exit_levels: the pulka asks for at least a 7-level game.
    d = deal_with(SOCHI, min_level=7)
    assert next(a for a in legal(d) if a[0].isdigit()) == "7♠"
    assert "misere" in legal(d)


def test_without_talon_bids() -> None:
    # seed-002 p.17: 9 без прикупа after 9NT; nobody sees the talon.
    r = SOCHI.replace(without_talon_bids=True)
    d = deal_with(r)
    play(d, "9NT, 9-no-talon, pass, pass")
    assert d.declarer == 2 and d.phase == Phase.DECLARE and d.talon_shown == 0
    assert legal(d)[0] == "9♠"
    play(d, "9♥")
    assert d.contract == Contract(9, 3, True)
    assert d.hand(2).bit_count() == 10


def test_illegal_text_is_a_clear_error() -> None:
    d = deal_with(SOCHI)
    with pytest.raises(ValueError, match="cannot read action"):
        d.apply("seven spades")


def test_insufficient_dark_bid_names_the_lowest_legal_bid() -> None:
    # Kodeks 3.3.8: a dark first call must still overcall; the reason is "insufficient", not "first call".
    d = Deal.new(Rules.preset("classic"), seed=1)
    d.apply("6♠")
    with pytest.raises(IllegalAction, match=r"insufficient bid dark 6♠: the current bid is 6♠; the lowest legal bid is 6♣"):  # noqa: E501
        d.apply("dark 6♠")
    d.apply("dark 6♣")
    d.apply("pass")
    with pytest.raises(IllegalAction, match="only as a player's first call"):
        d.apply("dark 7♠")  # seat 1 has called already
