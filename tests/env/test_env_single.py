"""The Gymnasium wrapper: one learning seat against bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from preferans import IllegalAction
from preferans.bots import RandomBot
from preferans.env import EnvError
from preferans.env.single import SingleAgentEnv
from preferans.rules import Rules


def test_gymnasium_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # checker hints about the Dict space's bounds
        check_env(SingleAgentEnv(opponents="random"), skip_render_check=True)


def run(e: SingleAgentEnv, seed: int) -> tuple[float, int]:
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(obs["action_mask"].astype(bool), info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["random", "easy"])
def test_learner_gets_his_share_of_each_deal(players: int, level: str) -> None:
    e = SingleAgentEnv(players=players, opponents=level, seat="random")
    for seed in range(4):
        total, steps = run(e, seed)
        assert steps >= 1
        assert abs(total - e.table.totals[e.seat]) < 1e-9
        assert abs(sum(e.table.totals)) < 1e-9


def test_pulka_episode_sums_the_deals() -> None:
    e = SingleAgentEnv(players=4, episode="pulka", max_deals=6, seat=2, normalize=True)
    total, _ = run(e, 1)
    assert e.table.deals_played == 6 or e.table.pulka.is_over  # type: ignore[union-attr]
    assert abs(total - e.table.totals[2]) < 1e-9


def test_seeded_episodes_repeat() -> None:
    a = SingleAgentEnv(opponents="easy")
    b = SingleAgentEnv(opponents="easy")
    assert run(a, 7) == run(b, 7)


def test_opponent_bots_and_illegal_actions() -> None:
    rules = Rules.preset("sochi")
    e = SingleAgentEnv(opponents=[RandomBot(rules, seed=1), RandomBot(rules, seed=2)], seat=1, illegal_reward=None)
    e.reset(seed=0)
    with pytest.raises(IllegalAction):
        e.step(104)
    punished = SingleAgentEnv(seat=1)
    punished.reset(seed=0)
    _, reward, terminated, _, info = punished.step(104)
    assert terminated and info["illegal"] and reward == -100.0
    with pytest.raises(EnvError, match="opponents"):
        SingleAgentEnv(opponents=[RandomBot(rules)])
    with pytest.raises(EnvError, match="seat"):
        SingleAgentEnv(seat=3)


def test_render_shows_only_the_learner_hand() -> None:
    e = SingleAgentEnv(render_mode="ansi", seat=0)
    e.reset(seed=2)
    text = e.render()
    assert text is not None and "learner seat 0" in text and "hand:" in text


def test_registered_with_gymnasium() -> None:
    import gymnasium

    e = gymnasium.make("preferans/Preferans-v0", players=4, opponents="random")
    obs, info = e.reset(seed=1)
    assert obs["observation"].shape == (960,) and info["seat"] == 0
