"""Gymnasium: one learning seat against computer opponents.

The other seats are played by bots of a chosen level (``"random"``, ``"easy"``,
``"medium"``, ``"hard"`` — :func:`preferans.bots.make_bot`) or by bots you
pass in.  Each :meth:`~SingleAgentEnv.step` is one decision of the learner;
the bots' decisions in between happen inside it.  The reward is the learner's
share of every deal that ended during the step (net whists, or normalised).

>>> from preferans.env.single import SingleAgentEnv
>>> e = SingleAgentEnv(rules="sochi", opponents="random")
>>> obs, info = e.reset(seed=3)
>>> obs["observation"].shape, info["seat"], bool(e.action_masks().any())
((960,), 0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import NUM_ACTIONS, Action
from ..bots import Bot, make_bot
from ..rules import Rules
from .aec import ObsDict, action_mask, observation_space
from .config import EnvConfig, EnvError
from .encoding import encode
from .episode import Table
from .rewards import reward_scale as whists_scale

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env[ObsDict, int]):
    """One seat learns; the others are bots.

    * ``seat`` — the learner's seat, or ``"random"`` (drawn at each reset);
    * ``opponents`` — a bot level for all the others, or one :class:`~preferans.bots.Bot` per other seat
      (in seat order, skipping the learner);
    * ``rules``, ``players``, ``episode`` (``"deal"`` / ``"pulka"``), ``normalize``, ``reward_scale``,
      ``max_deals`` — as for the PettingZoo environment;
    * ``illegal_reward`` — an illegal action ends the episode with this reward (default −1 normalised,
      minus :func:`~.rewards.reward_scale` in whists); ``None`` raises :class:`~preferans.IllegalAction`.

    With 4 players the learner is never the dealer of the first deal (who sits
    out); in a pulka, the deals he deals are played by the bots and their
    score comes with his next step.  ``info["action_mask"]`` and
    :meth:`action_masks` give the legal actions (as sb3-contrib's maskable
    algorithms expect).
    """

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - gymnasium declares it an instance attribute

    def __init__(
        self,
        rules: str | Rules = "sochi",
        players: int = 3,
        episode: str = "deal",
        *,
        seat: int | str = 0,
        opponents: str | Sequence[Bot] = "random",
        normalize: bool = False,
        reward_scale: float | None = None,
        max_deals: int | None = None,
        illegal_reward: float | str | None = "default",
        render_mode: str | None = None,
    ) -> None:
        self.config = EnvConfig.make(rules, players, episode, normalize, reward_scale, max_deals)
        if not (seat == "random" or (isinstance(seat, int) and 0 <= seat < players)):
            raise EnvError(f"seat: 0..{players - 1} or 'random', not {seat!r}")
        if not isinstance(opponents, str) and len(opponents) != players - 1:
            raise EnvError(f"opponents: give {players - 1} bots (one per other seat), not {len(opponents)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode: {render_mode!r} is not one of human, ansi")
        self.render_mode = render_mode
        self._seat_choice = seat
        self._opponents = opponents
        if illegal_reward == "default":
            illegal_reward = -1.0 if normalize else -whists_scale(self.config.rules)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.observation_space = observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.table = Table(self.config)
        self.seat = 0 if seat == "random" else int(seat)
        self.bots: dict[int, Bot] = {}

    # -- episode ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.config.players
        self.seat = int(rng.integers(n)) if self._seat_choice == "random" else int(self._seat_choice)
        others = [s for s in range(n) if s != self.seat]
        if isinstance(self._opponents, str):
            level = self._opponents
            self.bots = {s: make_bot(level, self.config.rules, seed=int(rng.integers(2**31))) for s in others}
        else:
            self.bots = dict(zip(others, self._opponents, strict=True))
        dealer = (options or {}).get("dealer")
        if dealer is None:
            # The learner acts in his first deal: with 4 players he must not be its dealer.
            dealer = int(rng.integers(n)) if n == 3 else (self.seat + 1 + int(rng.integers(3))) % n
        self.table.reset(int(rng.integers(2**63)), dealer=dealer)
        self._pending = self._advance()
        return self._obs(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done:
            raise EnvError("step after the episode ended: call reset()")
        act = Action(int(action))  # out of range: ActionError
        if not table.deal.is_legal(act):
            if self.illegal_reward is None:
                table.deal.verify(act)
            table.done = True
            return self._obs(), float(self.illegal_reward or 0.0), True, False, {**self._info(), "illegal": True}
        reward = self._pending
        rewards = table.apply(act)
        if rewards is not None:
            reward += rewards[self.seat]
        reward += self._advance()
        self._pending = 0.0
        if self.render_mode == "human":
            self.render()
        terminated = table.done and not table.truncated
        return self._obs(), reward, terminated, table.truncated, self._info()

    def _advance(self) -> float:
        """Let the bots act until the learner's turn (or the end); the learner's rewards meanwhile."""
        table = self.table
        got = 0.0
        while not table.done:
            deal = table.deal
            to_act = deal.to_act
            assert to_act is not None
            if to_act == self.seat:
                break
            rewards = table.apply(self.bots[to_act].act(deal.observation(to_act)))
            if rewards is not None:
                got += rewards[self.seat]
        return got

    # -- views ------------------------------------------------------------------------------
    def _obs(self) -> ObsDict:
        deal = self.table.deal
        view = deal.observation(self.seat)
        mask = action_mask(view.legal_actions) if not self.table.done else np.zeros(NUM_ACTIONS, np.int8)
        vector = encode(view, min_level=deal.min_level, sheet=self.table.sheet_bits(view.seat))
        return {"observation": vector, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        t = self.table
        info: dict[str, Any] = {"seat": self.seat, "deals_played": t.deals_played, "action_mask": self.action_masks()}
        if t.last_result is not None:
            info["last_deal"] = t.public_result()
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (empty once the episode is over)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        if not self.table.done and self.table.deal.to_act == self.seat:
            mask[[a for a in self.table.deal.legal_actions() if a < NUM_ACTIONS]] = True
        return mask

    def render(self) -> str | None:
        """What the learner sees: phase, hand, contract, trick, and the running totals."""
        view = self.table.deal.observation(self.seat).to_dict()
        text = (
            f"learner seat {self.seat}; phase {view['phase']}; to act {view['to_act']}\n"
            f"hand: {' '.join(view['hand'])}\n"
            f"contract: {view['contract']} (declarer {view['declarer']}); trick: {view['trick']}\n"
            f"totals: {[round(x, 2) for x in self.table.totals]}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text
