"""Batch self-play: the lean encoder equals the Observation path; zero-sum rewards; reproducible."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from preferans import PRESETS, Deal, IllegalAction, Rules
from preferans.env.batch import BatchSelfPlay, SelfPlayDeal, random_actions
from preferans.env.encoding import bits_to_array, encode, encode_bits
from preferans.env.fast import FastEncoder


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_encoder_equals_observation_path(preset: str, players: int) -> None:
    """Move by move, for every seat: the same bits as encode(deal.observation(seat))."""
    rules = Rules.preset(preset)
    rng = random.Random(f"{preset}/{players}")
    compared = 0
    for seed in range(40):
        deal = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
        enc = FastEncoder(deal)
        while True:
            for seat in range(players):
                assert enc.bits(seat) == encode_bits(deal.observation(seat), min_level=deal.min_level), (
                    preset, seed, seat, deal.moves,
                )  # fmt: skip
                compared += 1
            if deal.is_over:
                break
            action = rng.choice(deal.legal_actions())
            enc.before(action)
            deal.apply(action)
    assert compared > 1000


def test_fast_encoder_on_a_deal_with_history_uses_the_observation_path() -> None:
    deal = Deal.new(Rules.preset("sochi"), seed=2)
    deal.apply(deal.legal_actions()[1])
    enc = FastEncoder(deal)
    assert enc.bits(2) == encode_bits(deal.observation(2))


def test_batch_observations_are_the_aec_observations() -> None:
    batch = BatchSelfPlay(6, rules="leningrad", players=4, seed=3)
    obs, mask, seat = batch.reset()
    rng = np.random.default_rng(1)
    for _ in range(150):
        for i, deal in enumerate(batch.deals):
            s = int(seat[i])
            assert deal.to_act == s
            assert np.array_equal(obs[i], encode(deal.observation(s), min_level=deal.min_level))
            legal = np.zeros(105, dtype=np.int8)
            legal[list(deal.legal_actions())] = 1
            assert np.array_equal(mask[i], legal)
        step = batch.step(random_actions(mask, rng))
        obs, mask, seat = step.obs, step.mask, step.seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rewards_are_zero_sum_and_arrive_when_deals_end(players: int) -> None:
    batch = BatchSelfPlay(32, rules="rostov", players=players, seed=players)
    _, mask, _ = batch.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        step = batch.step(random_actions(mask, rng))
        mask = step.mask
        assert step.rewards.shape == (32, players)
        assert np.allclose(step.rewards.sum(axis=1), 0.0, atol=1e-3)
        assert not step.rewards[~step.done].any()
        ended += int(step.done.sum())
    assert ended == batch.deals_finished > 100


def test_batch_is_reproducible() -> None:
    def run() -> list[np.ndarray]:
        b = BatchSelfPlay(4, seed=9, normalize=True)
        _, mask, _ = b.reset()
        rng = np.random.default_rng(5)
        out: list[Any] = []
        for _ in range(120):
            st = b.step(random_actions(mask, rng))
            mask = st.mask
            out += [st.obs, st.rewards]
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(), run(), strict=True))


def test_illegal_action_names_the_slot() -> None:
    b = BatchSelfPlay(3, seed=1)
    _, mask, _ = b.reset()
    actions = random_actions(mask, np.random.default_rng(0))
    actions[1] = 104  # concede-all during the auction
    with pytest.raises(IllegalAction, match="slot 1"):
        b.step(actions)


def test_self_play_deals_keep_no_undo() -> None:
    src = Deal.new(Rules.preset("sochi"), seed=1)
    d = SelfPlayDeal(src.rules, src.initial_hands, src.talon, dealer=src.dealer)
    d.apply(d.legal_actions()[0])
    with pytest.raises(IllegalAction):
        d.undo()


def test_bits_to_array_round_trip() -> None:
    assert bits_to_array(1 << 5 | 1 << 895)[[5, 895]].tolist() == [1, 1]
