# mypy: disable-error-code="comparison-overlap"
# (a test asserts a phase, acts, and asserts the next one; mypy keeps the first narrowing)
"""Whisting, the defence's choices and concessions (rules.md §5, seed-002 pp.24–28, Kodeks 3.5.4)."""
from typing import Any

import pytest

from preferans import Contract, Deal, DealKind, DefenceCall, IllegalAction, Phase, Rules

from helpers import deal_with, legal, play

SOCHI = Rules.preset("sochi")


def declared(rules: Any = SOCHI, contract: str = "6♠", players: int = 3, dealer: int = 0) -> Deal:
    d = deal_with(rules, players=players, dealer=dealer)
    play(d, f"{contract}, pass, pass")
    play(d, [str(c) for c in d.talon])
    play(d, contract)
    return d


def test_whist_order_starts_left_of_declarer() -> None:
    # rules.md §5.1: the player after the declarer speaks first.
    d = declared()
    assert d.declarer == 1 and d.phase == Phase.WHIST and d.to_act == 2
    play(d, "pass")
    assert d.to_act == 0


def test_both_pass_not_played() -> None:
    # seed-002 p.25
    d = declared()
    play(d, "pass, pass")
    r = d.result
    assert r.kind == DealKind.NOT_PLAYED and r.defence == {2: DefenceCall.PASS, 0: DefenceCall.PASS}
    assert r.tricks == {}


def test_half_whist_confirmed_pass() -> None:
    # rules.md §5.4: пас / полвиста / пас → not played, half-whist written.
    d = declared()
    play(d, "pass")
    assert "half-whist" in legal(d)
    play(d, "half-whist")
    assert d.to_act == 2 and legal(d) == ["pass", "whist"]
    play(d, "pass")
    r = d.result
    assert r.kind == DealKind.NOT_PLAYED and r.defence[0] == DefenceCall.HALF
    assert r.defence[2] == DefenceCall.PASS


def test_half_whist_answered_by_whist() -> None:
    d = declared()
    play(d, "pass, half-whist, whist")
    assert d.whisters == (2,)
    assert d.phase in (Phase.PLAY, Phase.DEFENCE)


def test_half_whist_levels() -> None:
    d = declared(contract="8♠")
    play(d, "pass")
    assert "half-whist" not in legal(d)
    with pytest.raises(IllegalAction, match="half_whist_levels"):
        d.apply("half-whist")
    d = declared(SOCHI.replace(half_whist_levels={6}), contract="7♠")
    play(d, "pass")
    assert "half-whist" not in legal(d)


def test_first_defender_cannot_half_whist() -> None:
    d = declared()
    assert "half-whist" not in legal(d)


def _declared_by(seat_order: int, rules: Any = SOCHI) -> Deal:
    """A 6♠ declared by first (0), second (1) or third hand (2), dealer 0; the defender on the
    declarer's left whists alone, the other passes."""
    d = deal_with(rules)
    calls = ["pass"] * seat_order + ["6♠"] + ["pass"] * (2 - seat_order)
    play(d, calls)
    play(d, [str(c) for c in d.talon])
    play(d, "6♠, whist, pass")
    return d


@pytest.mark.parametrize(("order", "choice_after"), [(0, 1), (1, 2), (2, 3)])
def test_lone_whister_opens_after_the_declarers_first_card(order: int, choice_after: int) -> None:
    """Seed 002 p.28: the whister opens «после первого хода играющего» — after the declarer's
    first card.  Declarer first hand: after card 1; second hand: after card 2 (mid-trick);
    third hand: after card 3, which closes trick 1 (open_timing="after_declarer_card")."""
    d = _declared_by(order)
    declarer, whister = d.declarer, d.whisters[0]
    for k in range(choice_after):
        assert d.phase == Phase.PLAY, k
        d.apply(d.legal_actions()[0])
    assert d.phase == Phase.DEFENCE and d.to_act == whister and legal(d) == ["open", "closed"]
    assert d.moves[-1][0] == declarer  # the declarer's card came last
    play(d, "open")
    assert d.open_play and set(d.exposed) == set(d.defenders)
    assert d.phase == Phase.PLAY
    if order == 2:  # the choice came between tricks: trick 1's winner leads trick 2
        assert d.trick == () and d.to_play == d.completed_tricks[0][1]


def test_after_first_lead_asks_after_the_first_card_of_the_deal() -> None:
    """The project's earlier reading (open_timing="after_first_lead"): the choice comes after
    the deal's first card even when a defender led it (declarer third hand)."""
    d = _declared_by(2, SOCHI.replace(open_timing="after_first_lead"))
    d.apply(d.legal_actions()[0])
    assert d.phase == Phase.DEFENCE and d.moves[-1][0] == d.first_hand != d.declarer


def test_lone_whister_open_after_first_lead() -> None:
    # seed-002 p.28: the declarer is first hand here, so his first card is the deal's first.
    d = declared()
    play(d, "whist, pass")
    assert d.phase == Phase.PLAY and d.to_play == 1 and d.exposed == ()
    d.apply(d.legal_actions()[0])
    assert d.phase == Phase.DEFENCE and d.to_act == 2 and legal(d) == ["open", "closed"]
    play(d, "open")
    assert set(d.exposed) == {2, 0} and d.open_play
    # the whister (seat 2) plays for the passer (seat 0)
    d.apply(d.legal_actions()[0])
    assert d.to_play == 0 and d.to_act == 2
    obs = d.observation(1)
    assert set(obs.known_hands) == {0, 2}


def test_lone_whister_before_first_lead() -> None:
    d = declared(SOCHI.replace(open_timing="before_first_lead"))
    play(d, "pass, whist")
    assert d.phase == Phase.DEFENCE and d.to_act == 0 and legal(d) == ["open", "closed"]
    play(d, "closed")
    assert d.phase == Phase.PLAY and not d.open_play and d.exposed == ()
    assert d.to_play == 1


def test_both_whist_closed() -> None:
    # seed-002 p.26
    d = declared()
    play(d, "whist, whist")
    assert d.phase == Phase.PLAY and not d.open_play and d.exposed == ()


def test_za_svoimi_accepted_and_refused() -> None:
    # seed-002 p.27: with the declarer's consent the lone whister writes his quota.
    r = SOCHI.replace(za_svoimi=True)
    d = declared(r, contract="7♠")
    play(d, "whist, pass")
    assert d.phase == Phase.DEFENCE and "quota" in legal(d)
    play(d, "quota")
    assert d.to_act == 1 and legal(d) == ["accept", "refuse"]
    play(d, "accept")
    res = d.result
    assert res.kind == DealKind.NOT_PLAYED and res.za_svoimi and res.defence[2] == DefenceCall.WHIST
    d = declared(r, contract="7♠")
    play(d, "whist, pass, quota, refuse")
    assert d.phase == Phase.DEFENCE and legal(d) == ["play"]
    play(d, "play")
    assert d.phase == Phase.PLAY


def test_ten_checked_no_whisting_all_open() -> None:
    # seed-002 p.26: no whist on a 10; the cards are opened and the game checked.
    d = declared(contract="10♠")
    assert d.phase == Phase.PLAY and set(d.exposed) == {0, 1, 2}
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    r = d.result
    assert r.ten_checked and r.defence == {} and r.kind == DealKind.GAME


def test_ten_whisted() -> None:
    d = declared(SOCHI.replace(ten_mode="whisted"), contract="10♠")
    assert d.phase == Phase.WHIST


def test_bez_trekh_concession() -> None:
    # Option bez_trekh: the declarer concedes down three without play.
    d = declared(SOCHI.replace(bez_trekh=True), contract="7♦")
    play(d, "whist, pass")
    assert d.phase == Phase.CONCESSION and legal(d) == ["play", "concede-3"]
    play(d, "concede-3")
    r = d.result
    assert r.conceded == 3 and r.tricks == {1: 4} and r.contract == Contract(7, 2)


def test_kodeks_concede_all_only() -> None:
    # Kodeks 3.5.4: no surrender except «без всех»; «без трёх» does not apply.
    d = declared(Rules.preset("kodeks"), contract="6♠")
    play(d, "whist, whist")
    assert legal(d) == ["play", "concede-all"]
    play(d, "concede-all")
    r = d.result
    assert r.conceded == 10 and r.tricks == {1: 0, 2: 5, 0: 5}


def test_no_concession_phase_by_default() -> None:
    d = declared()
    play(d, "whist, whist")
    assert d.phase == Phase.PLAY


def test_stalingrad() -> None:
    d = declared(SOCHI.replace(stalingrad=True), contract="6♠")
    assert legal(d) == ["whist"]


def test_four_handed_whisting_skips_dealer() -> None:
    d = declared(players=4, dealer=2)
    assert d.active == (3, 0, 1) and d.declarer == 3
    assert d.to_act == 0
    play(d, "pass")
    assert d.to_act == 1
