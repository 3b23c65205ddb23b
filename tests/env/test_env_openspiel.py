"""The OpenSpiel registration: OpenSpiel's own random-simulation test and the observation contract."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import preferans.env.openspiel as pos
from preferans import Deal, Rules
from preferans.env.encoding import encode
from preferans.env.rewards import reward_scale


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 4, "rules": "leningrad", "dealer": 2},
        {"rules": "classic", "rules_text": "dark_bids=true", "normalize": True},
        {"rules": "rostov", "players": 4},
        {"players": 2, "dealer": 1},  # гусарик: the dummy is dealt by chance, played by the whister
    ],
)
def test_openspiel_random_simulation(params: dict[str, object]) -> None:
    game = pyspiel.load_game(pos.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=8, serialize=bool(params.get("players")), verbose=False)


def play_out(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_returns_are_zero_sum_and_scaled() -> None:
    rng = random.Random(0)
    plain = pyspiel.load_game(pos.GAME_NAME, {"rules": "sochi"})
    scaled = pyspiel.load_game(pos.GAME_NAME, {"rules": "sochi", "normalize": True})
    for _ in range(20):
        seed = rng.random()
        a = play_out(plain.new_initial_state(), random.Random(seed)).returns()
        b = play_out(scaled.new_initial_state(), random.Random(seed)).returns()
        assert abs(sum(a)) < 1e-9
        assert np.allclose(np.array(a) / reward_scale(Rules.preset("sochi")), b)
        assert max(abs(x) for x in a) <= plain.max_utility()


def test_observation_tensor_is_the_env_vector() -> None:
    game = pyspiel.load_game(pos.GAME_NAME, {"players": 4, "dealer": 1})
    state = game.new_initial_state()
    rng = random.Random(2)
    dealt_to_seat_2 = 0
    while state.is_chance_node():
        before = len(state.dealt)
        state.apply_action(rng.choice(state.chance_outcomes())[0])
        if state.seat_of_dealt(before) == 2:
            dealt_to_seat_2 += 1
            # While dealing a seat sees its own cards so far, nothing else.
            assert int(np.sum(state.observation_tensor(2))) == dealt_to_seat_2
    assert state.deal.dealer == 1 and state.deal.hands[1] == 0  # the 4-handed dealer sits out
    for _ in range(12):
        for seat in range(4):
            deal = state.deal
            want = encode(deal.observation(seat), min_level=deal.min_level).astype(np.float32)
            assert np.array_equal(np.array(state.observation_tensor(seat)), want)
            info = json.loads(state.information_state_string(seat))
            assert info["seat"] == seat and len(info["moves"]) == len(deal.moves)
        state.apply_action(rng.choice(state.legal_actions()))


def test_clone_is_independent() -> None:
    game = pyspiel.load_game(pos.GAME_NAME)
    state = game.new_initial_state()
    for c in range(32):
        state.apply_action(c)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.deal.moves) == 0 and len(copy.deal.moves) == 1
    assert len(copy.history()) == 33


def test_action_strings_tell_bids_from_cards() -> None:
    game = pyspiel.load_game(pos.GAME_NAME)
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal A♠"
    for c in range(32):
        state.apply_action(c)
    assert state.action_to_string(1, 32) == "bid 6♠"
    assert state.action_to_string(1, 61) == "pass"


def test_bad_parameters_name_the_field() -> None:
    with pytest.raises(Exception, match="rules"):
        pyspiel.load_game(pos.GAME_NAME, {"rules": "moscow"})
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(pos.GAME_NAME, {"players": 5})


def test_deal_copy_keeps_every_field() -> None:
    """Cloning relies on Deal.copy (it once failed on an unset ``initial_talon`` slot)."""
    deal = Deal.new(Rules.preset("sochi"), seed=3)
    deal.apply(deal.legal_actions()[0])
    copy = deal.copy()
    copy.undo()
    assert len(deal.moves) == 1 and len(copy.moves) == 0 and copy.initial_talon == deal.talon


def test_loads_from_a_game_string() -> None:
    game = pyspiel.load_game("python_preferans(players=4,rules=leningrad,normalize=True)")
    assert game.num_players() == 4 and game.max_utility() == pos.utility_bound(Rules.preset("leningrad")) / 200
