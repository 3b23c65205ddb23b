"""What the bots optimise: outcomes in net whists under each convention, and the
hand evaluation they start from."""

from __future__ import annotations

import itertools

import pytest

from preferans import Deal, Rules
from preferans.actions import Contract
from preferans.bots import make_bot
from preferans.bots.evaluate import misere_holes, strain_tricks
from preferans.bots.knowledge import OUT, Knowledge
from preferans.bots.value import (
    allpass_utility,
    game_utility,
    misere_utility,
    result_value,
    settled_utility,
)
from preferans.cards import SUIT_MASKS, parse_hand

KW = {"players": 3, "dealer": 2}


def test_a_played_deal_is_worth_what_the_utility_says() -> None:
    """For real deals, the utility table at the tricks taken gives each seat's settled value."""
    rules = Rules()
    checked = 0
    for seed in range(40):
        deal = Deal.new(rules, seed=seed, dealer=2)
        bots = [make_bot("medium", rules, seed=s) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].act(deal.observation(seat)), seat=seat)
        r = deal.result
        if r.kind.value != "game" or r.conceded:
            continue
        d1, d2 = r.defenders
        calls = tuple(r.defence.get(d, "pass") for d in (d1, d2))
        if "half" in calls or "whist" not in calls or r.ten_checked:
            continue
        assert r.declarer is not None
        t = r.tricks[r.declarer]
        for seat in range(3):
            u = game_utility(rules, seat=seat, declarer=r.declarer, contract=r.contract,
                             calls=calls, split=(r.tricks[d1], r.tricks[d2]), **KW)
            assert u[t] == pytest.approx(result_value(r, rules)[seat])
        checked += 1
    assert checked >= 10


def test_conventions_change_the_value_of_a_lone_whist() -> None:
    """Spec §5.3: greedy — the lone whister keeps his tricks; gentleman — split with the passer."""
    c = Contract(6, 0)
    greedy = game_utility(Rules(), seat=1, declarer=0, contract=c, calls=("whist", "pass"), **KW)
    gentle = game_utility(Rules(lone_fail_style="gentleman"), seat=1, declarer=0, contract=c,
                          calls=("whist", "pass"), **KW)
    assert greedy[4] > gentle[4]  # the declarer failed by two: the greedy whister gains more
    assert greedy[8] < 0  # made with an overtrick: the whister short of his quota pays


def test_misere_allpass_and_settlements() -> None:
    rules = Rules()
    m = misere_utility(rules, seat=0, declarer=0, **KW)
    assert m[0] > 0 > m[1] > m[2]
    catcher = misere_utility(rules, seat=1, declarer=0, **KW)
    assert catcher[0] < catcher[1]
    a = allpass_utility(rules, seat=0, **KW)
    assert all(x > y for x, y in itertools.pairwise(a))
    quota = settled_utility(rules, seat=1, declarer=0, contract=Contract(6, 0), calls=("whist", "pass"),
                            za_svoimi=True, **KW)
    both_pass = game_utility(rules, seat=1, declarer=0, contract=Contract(6, 0), calls=("pass", "pass"), **KW)
    assert quota > both_pass[6]  # the quota's whists soften the declarer's pool
    three = settled_utility(rules.replace(bez_trekh=True), seat=0, declarer=0, contract=Contract(8, 4),
                            calls=("whist", "whist"), conceded=3, **KW)
    assert three < 0


def test_hand_evaluation() -> None:
    rock = parse_hand("♠A K Q J 10 ♣A K ♦A ♥A K")
    assert strain_tricks(rock, 0) == 10
    junk = parse_hand("♠9 8 ♣10 9 8 ♦10 9 8 ♥9 8")
    assert max(strain_tricks(junk, s) for s in range(5)) < 2
    assert misere_holes(junk) > 0
    assert misere_holes(parse_hand("♠7 9 J ♣7 9 ♦7 9 J ♥7 8")) == 0


def test_knowledge_reads_voids_and_the_talon() -> None:
    """A player who discards on a led suit is void in it (rules.md §6); the talon, once
    taken, is with the declarer or in his discard."""
    rules = Rules()
    deal = Deal.from_cards(rules, hands={1: "♠A K Q J 10 9 ♣A K ♦A ♥A", 2: "♠8 7 ♣Q J 10 ♦K Q J ♥K Q",
                                         0: "♣9 8 7 ♦10 9 8 7 ♥J 10 9"}, talon="♥8 7")
    for a in ("6♠", "pass", "pass", "8♥", "7♥", "6♠", "whist", "pass"):
        deal.apply(a)
    while deal.phase.value != "play":
        deal.apply(deal.legal_actions()[0])
    deal.apply("A♠")  # the declarer leads spades; seat 2 follows, seat 0 is void
    while deal.trick:
        legal = deal.legal_actions()
        closed = [a for a in legal if str(a) == "closed"]  # the lone whister defends closed
        deal.apply(closed[0] if closed else legal[0])
    obs = deal.observation(2)
    k = Knowledge.of(obs)
    assert 0 not in k.hands
    assert not k.allowed[0] & SUIT_MASKS[0]
    assert OUT in k.sizes and k.sizes[OUT] == 2
