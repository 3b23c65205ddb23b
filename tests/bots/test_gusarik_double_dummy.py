"""The hard bot in гусарик (docs/rules.md §16) plays double-dummy once the dummy is open.

After the defender whists, his hand and the dummy's lie face up: the declarer sees every card
(his own, both open hands; the talon is his discard) and the whister sees the dummy's.  The
solver's three-hand model fits (the dummy is the third hand), so the declarer's card must be
one the solver rates best, at every one of his turns.
"""

from __future__ import annotations

import pytest

from preferans import Card, Deal, Phase, Rules
from preferans.bots import make_bot
from preferans.solver import Position, best_moves


@pytest.mark.parametrize("seed", [3, 8])
def test_the_declarer_plays_the_solvers_best_card_once_the_dummy_is_open(seed: int) -> None:
    rules = Rules.preset("sochi")
    deal = Deal.new(rules, players=2, dealer=1, seed=seed)  # first hand is seat 0
    while deal.phase is Phase.BIDDING:
        deal.apply("6♠" if deal.to_act == 0 else "pass")
    for c in deal.talon:
        deal.apply(int(c))
    deal.apply("6♠")
    deal.apply("whist")
    assert deal.phase is Phase.PLAY and set(deal.observation(0).known_hands) == {1, 2}
    assert 2 in deal.observation(1).known_hands  # the whister sees the dummy he plays
    bot = make_bot("hard", rules, seed=1)
    turns = 0
    while not deal.is_over:
        if deal.to_act == 0:
            values = best_moves(Position.from_deal(deal))
            best = max(values.values())
            action = bot.act(deal.observation(0))
            assert values[Card(int(action))] == best, (deal.moves, action, values)
            turns += 1
        else:
            action = deal.legal_actions()[0]
        deal.apply(action)
    assert turns == 10
