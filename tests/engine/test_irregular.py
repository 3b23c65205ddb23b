# mypy: disable-error-code="comparison-overlap"
# (a test asserts a phase, acts, and asserts the next one; mypy keeps the first narrowing)
"""Irregularities and claims in the engine (Kodeks 3.3.16–3.3.18, seed-002 p.12; issue 10)."""

import pytest

from preferans import Deal, DealKind, IllegalAction, Phase, Rules
from preferans.actions import SeatedAction
from preferans.cards import ALL_CARDS_MASK

from helpers import deal_with, legal, play, state_signature

SOCHI = Rules.preset("sochi")


def test_talon_seen_by_offender_only() -> None:
    # Kodeks 3.3.16.1: the offender loses the right to bid; the auction goes on without him.
    d = deal_with(SOCHI)
    play(d, "6♠")
    d.report("!talon-seen", seat=0)
    assert d.observation(0).talon == tuple(d.talon)
    assert d.observation(1).talon == (None, None)
    assert d.to_act == 2
    play(d, "6♣")
    assert d.to_act == 1  # seat 0 is skipped
    play(d, "pass")
    assert d.declarer == 2


def test_talon_seen_by_player_to_act() -> None:
    d = deal_with(SOCHI)
    d.report("!talon-seen", seat=1)
    assert d.to_act == 2 and 1 in [s for s in range(3) if d._passed >> s & 1]


def test_talon_exposed_one_bidder_left_kodeks_example() -> None:
    # Kodeks 3.3.16.2: 6♠ — pass — 6♣; first hand opens the talon; third hand takes it
    # and may declare any contract not lower than 6♣.
    d = deal_with(SOCHI)
    play(d, "6♠, pass, 6♣")
    d.report("!talon-exposed", seat=1)
    assert d.declarer == 0 and d.phase == Phase.DISCARD
    assert str(d.winning_bid) == "6♣"
    for seat in range(3):
        assert d.observation(seat).talon == tuple(d.talon)
    play(d, [str(c) for c in d.talon])
    assert legal(d)[:2] == ["6♣", "6♦"]


def test_talon_exposed_two_bidders_left_is_assessed() -> None:
    # Kodeks 3.3.16.3: bidding 6 — 6 — 6 (4 players), first hand opens the talon.
    d = deal_with(SOCHI, players=4, dealer=0)
    play(d, "6♠, 6♣, 6♦")
    d.report("!talon-exposed", seat=1)
    r = d.result
    assert r.kind == DealKind.PENALTY and r.offender == 1
    assert r.claimants == ((2, "6♣"), (3, "6♦"))
    assert set(d.exposed) == {0, 1, 2, 3} or set(d.exposed) >= {1, 2, 3}


def test_talon_taken_redraw() -> None:
    # Kodeks 3.3.17: the offender shuffles his 12 cards; the dealer draws two back.
    d = deal_with(SOCHI)
    play(d, "6♠")
    before = state_signature(d)
    d.report("!talon-taken", seat=2)
    assert d.phase == Phase.REDRAW and d.to_act == 0 and d.hands[2].bit_count() == 12
    assert d.observation(0).legal_actions == ()  # drawn face down
    first, second = d.legal_actions()[3], d.legal_actions()[7]
    d.apply(first)
    d.apply(second)
    assert d.phase == Phase.BIDDING and d.hands[2].bit_count() == 10
    assert [int(c) for c in d.talon] == [int(first), int(second)]
    total = d.talon[0].bit | d.talon[1].bit
    for h in d.hands:
        total |= h
    assert total == ALL_CARDS_MASK
    assert d.to_act == 0  # seat 2 lost the right to bid (3.3.16)
    d.undo()
    d.undo()
    d.undo()
    assert state_signature(d) == before


def test_misdeal_voids_the_deal() -> None:
    # seed-002 p.12: a deal out of turn is dealt again by the right dealer.
    d = deal_with(SOCHI)
    d.report("!misdeal", seat=2)
    r = d.result
    assert r.kind == DealKind.VOID and r.offender == 2


def _declared_with_out_of_turn(oot_seat: int, call: str) -> Deal:
    d = deal_with(SOCHI, fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ A♣ K♣ Q♣ J♣",
                                2: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ A♥ K♥",
                                0: "10♣ 9♣ 8♣ 7♣ Q♥ J♥ 10♥ 9♥ 8♥ 7♥"}, talon="8♠ 7♠")
    d.report(f"!out-of-turn {call}", seat=oot_seat)
    play(d, "6♠, pass, pass, 8♠, 7♠, 6♠")
    return d


def test_out_of_turn_call_penalty_at_partners_first_lead() -> None:
    # Kodeks 3.3.18: seat 2 called 7♦ out of turn; when his partner (seat 0) first has the
    # lead, the declarer may require or forbid diamonds.
    d = _declared_with_out_of_turn(2, "7♦")
    play(d, "whist, whist")
    play(d, "A♣")  # first hand (declarer) leads; seat 2 has no clubs
    d.apply(d.legal_actions()[0])
    play(d, "10♣")
    assert d.completed_tricks[-1][1] == 1
    # declarer won; he keeps leading until a defender wins
    play(d, "A♠")
    d.apply(d.legal_actions()[0])
    d.apply(d.legal_actions()[0])
    assert d.to_play == 1


def test_out_of_turn_penalty_choice_and_restriction() -> None:
    d = deal_with(SOCHI, fixed={2: "A♠ K♠ Q♠ J♠ 10♠ 9♠ A♣ K♣ Q♣ J♣",
                                0: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ A♥ K♥",
                                1: "10♣ 9♣ 8♣ 7♣ Q♥ J♥ 10♥ 9♥ 8♥ 7♥"}, talon="8♠ 7♠")
    # seat 0 announced hearts out of turn; seat 2 declares; seat 1 (first hand) is seat 0's partner
    d.report("!out-of-turn 7♥", seat=0)
    play(d, "pass, 6♠, pass, 8♠, 7♠, 6♠, whist, whist")
    assert d.phase == Phase.LEAD_PENALTY and d.to_act == 2
    assert legal(d) == ["require", "forbid", "waive"]
    play(d, "require")
    assert set(legal(d)) == {"Q♥", "J♥", "10♥", "9♥", "8♥", "7♥"}
    assert d.lead_rule == "♥ required of seat 1"
    play(d, "7♥")
    assert d.lead_rule is None


def test_out_of_turn_forbid() -> None:
    d = deal_with(SOCHI, fixed={2: "A♠ K♠ Q♠ J♠ 10♠ 9♠ A♣ K♣ Q♣ J♣",
                                0: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ A♥ K♥",
                                1: "10♣ 9♣ 8♣ 7♣ Q♥ J♥ 10♥ 9♥ 8♥ 7♥"}, talon="8♠ 7♠")
    d.report("!out-of-turn 7♥", seat=0)
    play(d, "pass, 6♠, pass, 8♠, 7♠, 6♠, whist, whist, forbid")
    assert set(legal(d)) == {"10♣", "9♣", "8♣", "7♣"}


def test_no_penalty_when_offender_declares() -> None:
    d = deal_with(SOCHI)
    d.report("!out-of-turn 6♦", seat=0)
    play(d, "pass, pass, 6♠")
    play(d, [str(c) for c in d.talon])
    play(d, "6♠, whist, whist")
    assert d.phase == Phase.PLAY


def test_out_of_turn_is_not_for_the_player_to_act() -> None:
    d = deal_with(SOCHI)
    with pytest.raises(IllegalAction, match="not out of turn"):
        d.report("!out-of-turn 6♠", seat=1)
    with pytest.raises(IllegalAction, match="not an irregularity"):
        d.report("whist", seat=1)


def _playing() -> Deal:
    d = deal_with(SOCHI)
    play(d, "6NT, pass, pass")
    play(d, [str(c) for c in d.talon])
    play(d, "6NT, whist, whist")
    return d


def test_claim_accepted_by_both_opponents() -> None:
    d = _playing()
    for _ in range(12):
        d.apply(d.legal_actions()[0])
    d.claim(1, 6)
    assert d.phase == Phase.CLAIM_ANSWER and d.to_act == 2
    play(d, "accept")
    assert d.to_act == 0
    play(d, "accept")
    r = d.result
    assert r.claim == (1, 6) and sum(r.tricks.values()) == 10


def test_claim_refused_play_goes_on() -> None:
    d = _playing()
    d.apply(d.legal_actions()[0])
    to_play = d.to_play
    d.claim(1, 10 - d.trick_number)
    play(d, "accept, refuse")
    assert d.phase == Phase.PLAY and d.to_play == to_play


def test_proven_claim_ends_play() -> None:
    d = _playing()
    d.claim(2, 4, proven=True)
    r = d.result
    assert r.claim == (2, 4) and r.tricks[2] == 4 and r.tricks[1] == 6
    with pytest.raises(IllegalAction):
        d.claim(1, 1)


def test_claim_bounds() -> None:
    d = _playing()
    with pytest.raises(IllegalAction, match="11 tricks claimed, but 10 remain"):
        d.claim(1, 11)
    d2 = deal_with(SOCHI)
    with pytest.raises(IllegalAction, match="only during play"):
        d2.claim(1, 3)


def test_a_deals_own_actions_replay_it_with_reports_and_claims() -> None:
    """Issue 29: ``Deal.replay(actions=deal.actions)`` rebuilds a deal with reports in it.

    A report names its offender, who is not whoever is to act (Kodeks 3.3.16: «игрок, увидевший
    прикуп…» — any bidder may be the one), so an action id alone cannot say who made it: the
    deal's ``actions`` list a report or a claim with its seat, as ``moves`` does.
    """
    d = deal_with(SOCHI.replace(irregularity_reports=True, claims=True))
    play(d, "6♠")
    d.report("!talon-seen", seat=0)  # seat 1 is to act; seat 0 saw the talon
    play(d, "6♣, pass")
    assert [str(a) for a in d.actions] == ["6♠", "0:!talon-seen", "6♣", "pass"]
    again = Deal.replay(SOCHI.replace(irregularity_reports=True, claims=True), hands=d.initial_hands,
                        talon=d.talon, actions=d.actions, dealer=d.dealer)  # fmt: skip
    assert again.moves == d.moves and state_signature(again) == state_signature(d)
    # Their text replays too, one move at a time through the one replay step.
    text = Deal.replay(d.rules, hands=d.initial_hands, talon=d.talon, actions=[str(a) for a in d.actions],
                       dealer=d.dealer)  # fmt: skip
    assert text.moves == d.moves
    report = again.actions[1]
    assert isinstance(report, SeatedAction) and (report.seat, str(report.action)) == (0, "!talon-seen")
    with pytest.raises(IllegalAction, match="seat 1"):
        deal_with(SOCHI).replay_move(1, "0:!talon-seen")  # two different seats named
