"""The all-pass play-out (bots/playout.py) and the expert's blend of it (issue 29, thirteenth step)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_expert import _all_pass_decisions

from preferans import Deal, Rules
from preferans.bots import make_bot
from preferans.bots.expert import PLAYOUT, ExpertBot
from preferans.bots.playout import all_pass_card, play_out
from preferans.cards import Card
from preferans.solver import Position
from solver_reference import random_position


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_play_out_is_a_legal_all_pass_to_the_end(seed: int) -> None:
    """From any all-pass position (mid-trick, talon tricks to lead, the talon card naming
    the suit or taking part) and any legal card, the play-out plays legal cards only
    (the solver's own :meth:`Position.play` accepts each), to the last card, and counts
    the focus's tricks as the solver's trick rule does (rules.md §6, §8.2)."""
    pos = random_position(random.Random(seed), "allpass", max_cards=6)
    for card in pos.legal_moves():
        tricks, cards = play_out(pos, card)
        assert cards[0] == card
        p, counted = pos, 0
        for c in cards:
            if len(p.trick) == 2:
                counted += p.trick_winner((*p.trick, Card(c))) == p.declarer
            p = p.play(c)
        assert not any(p.hands) and not p.trick
        assert tricks == counted
        assert 0 <= tricks <= pos.tricks_left


def test_the_rule_of_thumb_ducks_sheds_and_leads_low() -> None:
    spades = 0b1010_0101  # ♠7 9 J A (ids 0, 2, 5, 7)
    assert all_pass_card(spades, 0, 6, last=False) == 5  # under the K: the J, my highest below it
    assert all_pass_card(spades, 0, 1, last=False) == 0  # under the 8: the 7
    assert all_pass_card(0b1010_0100, 0, 1, last=False) == 2  # all above the 8, not last: my lowest
    assert all_pass_card(0b1010_0100, 0, 1, last=True) == 7  # last, the trick is mine: shed the ace
    assert all_pass_card(0b1010_0100, 0, None, last=True) == 7  # a talon trick nobody followed: mine, shed the ace
    assert all_pass_card(0b1010_0100, 0, None, last=False) == 2  # first to follow the talon card: my lowest
    assert all_pass_card(spades | 1 << 9, 2, None, last=False) == 7  # void in the suit: throw the ace
    assert all_pass_card(1 << 15 | 1 << 8 | 1 << 1, None, None, last=False) == 8  # lead 7♣, the shortest 7


def test_a_play_out_refuses_what_it_does_not_play() -> None:
    game = Position.parse("♠A K / ♠Q J / ♠10 9 | tricks trump=NT declarer=1 leader=0")
    with pytest.raises(ValueError, match="all-pass, not a 'tricks'"):
        play_out(game, Card.parse("A♠"))
    allpass = Position.parse("♠A ♣7 / ♠Q J / ♠10 9 | allpass player=0 leader=1")
    with pytest.raises(ValueError, match="cannot play 7♣"):
        play_out(allpass, Card.parse("7♣"))


@pytest.mark.parametrize("players", [3, 4])
def test_the_expert_blends_the_play_outs_into_an_all_pass_card(players: int) -> None:
    """An all-pass card's value is ``playout`` × the play-outs' + the rest × the solver's;
    with ``playout=0`` the solver's alone.  Checked on every decision of passed-out deals,
    three players and four (the dealer sitting out)."""
    rules = Rules.preset("leningrad")
    fixed = {"think": 60.0, "min_layouts": 12, "max_layouts": 12}
    blended = 0
    for seed in range(2):
        for obs in _all_pass_decisions(seed, players):
            if len([a for a in obs.legal_actions if a < 32]) < 2:
                continue
            bot = ExpertBot(rules, seed=1, **fixed)  # type: ignore[arg-type]
            solver = ExpertBot(rules, seed=1, playout=0.0, **fixed).card_values(obs)  # type: ignore[arg-type]
            played = bot._playout_values(obs)
            values = bot.card_values(obs)
            if played is None:  # nothing hidden: the solver's values
                assert values == solver
                continue
            assert set(values) == set(solver) == set(played)
            for c, v in values.items():
                assert v == pytest.approx(PLAYOUT * played[c] + (1 - PLAYOUT) * solver[c])
            blended += values != solver
    assert blended >= 10


def test_the_play_out_weight_is_checked_and_games_are_left_alone() -> None:
    with pytest.raises(ValueError, match="playout is the play-outs' weight"):
        ExpertBot(Rules(), playout=1.5)
    rules = Rules.preset("sochi")
    deal = Deal.new(rules, seed=8)
    bot = make_bot("hard", rules, seed=1)
    while deal.phase.value != "play":
        seat = deal.to_act
        assert seat is not None
        deal.apply(bot.act(deal.observation(seat)), seat=seat)
    assert deal.to_act is not None and deal.kind is not None
    obs = deal.observation(deal.to_act)
    fixed = {"think": 60.0, "min_layouts": 12, "max_layouts": 12}
    assert deal.kind.value == "game"  # 6♠ declared
    on = ExpertBot(rules, seed=1, **fixed).card_values(obs)  # type: ignore[arg-type]
    assert on == ExpertBot(rules, seed=1, playout=0.0, **fixed).card_values(obs)  # type: ignore[arg-type]
