"""The PettingZoo AEC environment: every seat an agent, turns as the deal gives them.

>>> from preferans.env import env
>>> e = env(rules="sochi", players=3)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, e.agent_selection
((960,), True, 'player_2')
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..actions import NUM_ACTIONS, Action
from ..cards import format_hand
from ..rules import Rules
from .config import EnvConfig
from .encoding import OBS_SIZE, encode
from .episode import Table
from .rewards import reward_scale

__all__ = ["PreferansAEC", "action_mask", "env", "raw_env"]

ObsDict = dict[str, npt.NDArray[np.int8]]

_MASKS: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}


def action_mask(legal: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """The 0/1 mask over the 105 actions (a fresh array; built masks are cached)."""
    m = _MASKS.get(legal)
    if m is None:
        if len(_MASKS) > 50_000:
            _MASKS.clear()
        m = _MASKS[legal] = np.zeros(NUM_ACTIONS, dtype=np.int8)
        m[[a for a in legal if a < NUM_ACTIONS]] = 1  # ids ≥ 105 are reports and claims, never offered
    return m.copy()


def observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (OBS_SIZE,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


class PreferansAEC(AECEnv[str, ObsDict, int]):
    """Preferans as an agent-environment-cycle game.

    Agents are ``player_0`` … ``player_{n-1}`` (seat numbers).  ``observe``
    gives ``{"observation": int8[960], "action_mask": int8[105]}`` built from
    the seat's :class:`~preferans.Observation` only; rewards are net whists
    (or normalised) given to every seat when a deal ends.  See docs/env.md.

    An illegal action raises :class:`~preferans.IllegalAction` (nothing
    changes), or, with ``illegal_reward`` set, ends the episode with that
    reward for the culprit and 0 for the others (as PettingZoo's
    ``TerminateIllegalWrapper`` does).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "preferans_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules = "sochi",
        players: int = 3,
        episode: str = "deal",
        normalize: bool = False,
        reward_scale: float | None = None,
        max_deals: int | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__()
        self.illegal_reward = illegal_reward
        self.config = EnvConfig.make(rules, players, episode, normalize, reward_scale, max_deals)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of human, ansi")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.table = Table(self.config)
        self._cache: dict[int, ObsDict] = {}
        self._reset_dicts()
        self.agent_selection = self.possible_agents[0]

    # -- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_dicts(self) -> None:
        agents = self.agents
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}

    # -- the cycle ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode.  ``options={"dealer": seat}`` fixes the first dealer."""
        self.agents = self.possible_agents[:]
        self._reset_dicts()
        dealer = (options or {}).get("dealer")
        self.table.reset(seed, dealer=dealer)
        self._cache.clear()
        self._select()

    def _select(self) -> None:
        to_act = self.table.deal.to_act
        self.agent_selection = self.possible_agents[to_act if to_act is not None else 0]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        hit = self._cache.get(seat)
        if hit is not None:
            return {"observation": hit["observation"].copy(), "action_mask": hit["action_mask"].copy()}
        deal = self.table.deal
        view = deal.observation(seat)
        obs = {
            "observation": encode(view, min_level=deal.min_level, sheet=self.table.sheet_bits(view.seat)),
            "action_mask": action_mask(view.legal_actions),
        }
        self._cache[seat] = obs
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action id 0..{NUM_ACTIONS - 1}, not None")
        table = self.table
        act = Action(int(action))  # out of range: ActionError
        if self.illegal_reward is not None and not table.deal.is_legal(act):
            self._illegal(agent)
            return
        rewards = table.apply(act)  # an illegal action raises here and changes nothing
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._cache.clear()
        if rewards is not None:
            info = {"deal_result": table.public_result(), "deals_played": table.deals_played}
            for a, r in zip(self.agents, rewards, strict=True):
                self.rewards[a] = r
                self.infos[a] = dict(info)
            if table.done:
                flags = self.truncations if table.truncated else self.terminations
                for a in self.agents:
                    flags[a] = True
        elif self.infos[agent]:
            for a in self.agents:
                self.infos[a] = {}
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str) -> None:
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self._accumulate_rewards()
        self._deads_step_first()

    # -- showing -----------------------------------------------------------------------
    def render(self) -> str | None:
        """The whole table (every hand: for debugging, not for the agents)."""
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        deal = self.table.deal
        lines = [f"phase {deal.phase.value}; dealer {deal.dealer}; to act {deal.to_act}"]
        if deal.contract is not None:
            lines.append(f"declarer {deal.declarer}: {deal.contract}")
        for s in range(deal.players):
            lines.append(f"seat {s}: {format_hand(deal.hands[s])}  tricks {deal.tricks_won[s]}")
        lines.append("trick: " + " ".join(f"{s}:{c}" for s, c in deal.trick))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> PreferansAEC:
    """The bare environment (no PettingZoo wrappers)."""
    return PreferansAEC(**kwargs)


def env(**kwargs: Any) -> OrderEnforcingWrapper[str, ObsDict, int]:
    """The environment as PettingZoo's classic games come: order enforced, illegal actions punished.

    An illegal action ends the episode with reward -1 (normalised) or minus
    one reward scale (:func:`~.rewards.reward_scale`) for the culprit, unless
    ``illegal_reward`` is given; an action id outside 0..104 raises.  Use
    ``raw_env`` to get :class:`~preferans.IllegalAction` raised instead.
    """
    if kwargs.get("illegal_reward") is None:
        cfg = EnvConfig.make(
            kwargs.get("rules", "sochi"), kwargs.get("players", 3), normalize=kwargs.get("normalize", False)
        )
        kwargs["illegal_reward"] = -1.0 if cfg.normalize else -reward_scale(cfg.rules)
    return FastOrderEnforcing(raw_env(**kwargs))


class FastOrderEnforcing(OrderEnforcingWrapper[str, ObsDict, int]):
    """PettingZoo's ``OrderEnforcingWrapper`` reading the hot attributes without ``__getattr__``.

    The same checks (nothing before ``reset``, no step after the end), about
    twice the speed of the generic attribute forwarding.
    """

    def __init__(self, env: PreferansAEC) -> None:
        super().__init__(env)
        self._inner = env

    def _get(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._inner, name)

    @property
    def agent_selection(self) -> str:
        return self._get("agent_selection")  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        return self._get("agents")  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        return self._get("rewards")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        return self._get("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        return self._get("truncations")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._get("infos")  # type: ignore[no-any-return]

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._inner._cumulative_rewards

    @property
    def possible_agents(self) -> list[str]:
        return self._inner.possible_agents
