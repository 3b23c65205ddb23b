"""Kodeks 3.3.16.3 assessed with the solver, and claims proved against every layout."""

from fractions import Fraction

import pytest

from preferans import Deal, DealKind, IllegalAction, Rules
from preferans.rulings.assessment import assess_exposed_talon, exposed_talon_scenarios
from preferans.rulings.claims import claim_layouts, prove_claim

from helpers import deal_with, play


def kodeks_example() -> Deal:
    """rules.md §12.1 E-S1: 4 players, bidding 6 — 6 — 6, first hand exposes the talon."""
    d = Deal.from_cards(
        Rules.preset("sochi"),
        hands={1: "Q♠ 10♠ 7♠ Q♣ J♣ 10♣ 9♣ K♦ J♦ 9♦", 2: "♥A K Q J 10 9 8 ♠A ♣A ♦7",
               3: "K♠ J♠ 9♠ 8♠ K♣ 8♣ A♦ Q♦ 10♦ 7♥"},
        talon="♦8 ♣7", dealer=0, players=4,
    )
    play(d, "6♠, 6♣, 6♦")
    d.report("!talon-exposed", seat=1)
    return d


def test_kodeks_3_3_16_3_worked_example() -> None:
    # Kodeks 3.3.16.3: second hand would have made a 9 → writes 52 whists on the offender;
    # third hand's 6 would have gone down one → the dealer writes 7 (his lost gain).
    d = kodeks_example()
    second, third = exposed_talon_scenarios(d)
    assert second.contract.level == 9 and second.declarer_tricks == 9
    assert third.contract.level == 6 and third.declarer_tricks == 5
    # rules.md §12.1 E-S1 reconstruction of the 6 down one: A −31, B +13, C +11, D +7
    assert [third.net[s] for s in (3, 1, 2, 0)] == [-31, 13, 11, 7]
    r = assess_exposed_talon(d)
    assert r.kind == DealKind.PENALTY and r.offender == 1
    assert dict(r.penalty) == {2: Fraction(52), 0: Fraction(7)}  # the offender writes nothing


def test_assessment_needs_an_exposed_talon() -> None:
    d = deal_with("sochi")
    play(d, "pass, pass, pass")
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    with pytest.raises(IllegalAction, match="3.3.16.3"):
        assess_exposed_talon(d)


def _declarer_with_top_cards(tricks_played: int = 5) -> Deal:
    d = deal_with("sochi", fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♥ K♥"}, talon="A♦ K♦")
    play(d, "6♠, pass, pass, A♦, K♦, 6♠, whist, whist")
    while d.trick_number < tricks_played:
        d.apply(d.legal_actions()[-1])
    return d


def test_claim_proved_for_a_solid_hand() -> None:
    d = _declarer_with_top_cards()
    assert d.to_play == 1 and prove_claim(d, 1, 5)  # trumps and two top hearts


def test_claims_agree_with_the_real_layout() -> None:
    from preferans.solver import Position, solve

    for seed in range(6):
        d = deal_with("sochi")
        play(d, "6NT, pass, pass")
        play(d, [str(c) for c in d.talon])
        play(d, "6NT, whist, whist")
        import random

        rng = random.Random(seed)
        while d.trick_number < 6:
            d.apply(rng.choice(d.legal_actions()))
        value = solve(Position.from_deal(d))
        assert not prove_claim(d, 1, value + 1)  # the real layout refutes more
        best = max(k for k in range(value + 1) if prove_claim(d, 1, k) or k == 0)
        assert best <= value
        defender = d.defenders[0]
        if 4 - value + 1 <= 4:
            assert not prove_claim(d, defender, 4 - value + 1)


def test_too_many_layouts_is_not_a_proof() -> None:
    d = _declarer_with_top_cards(tricks_played=0)
    assert claim_layouts(d, 1) is None
    assert not prove_claim(d, 1, 1)


def test_defender_claims_against_a_misere() -> None:
    d = deal_with("sochi", fixed={1: "7♠ 8♠ 9♠ 10♠ 8♣ 7♦ 8♦ 9♦ 8♥ A♥"}, talon="7♣ 9♣")
    play(d, "misere, pass, pass, 7♣, 9♣, 7♠")
    # after the declarer's lead the defenders lie down (Kodeks 3.6.6): only his hand is unknown
    layouts = claim_layouts(d, 2)
    # he discarded the two talon cards, which everybody saw: his hand is determined
    assert layouts is not None and len(list(layouts)) == 1
    from preferans.solver import Position, solve

    value = solve(Position.from_deal(d))  # the declarer's tricks with best play
    assert value >= 1  # at least the A♥ is caught
    # "you take `value` tricks": proved; one more is not
    assert prove_claim(d, 2, 10 - value)
    assert not prove_claim(d, 2, 10 - value - 1)


def test_layouts_respect_known_cards() -> None:
    d = _declarer_with_top_cards()
    layouts = claim_layouts(d, 1)
    assert layouts is not None
    all_layouts = list(layouts)
    assert all(h[0] == d.hands[1] for h in all_layouts)
    assert any(h == tuple(d.hands[s] for s in d.active) for h in all_layouts)
