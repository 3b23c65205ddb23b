"""Options shared by the environments: rules, table size, episode kind, reward scale."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EnvError
from ..rules import PRESETS, Rules
from .rewards import reward_scale as default_scale

__all__ = ["EnvConfig", "EnvError"]

EPISODES = ("deal", "pulka")



@dataclass(frozen=True)
class EnvConfig:
    """Validated environment options.

    * ``rules`` — a preset name (``"sochi"``, ``"leningrad"``, …) or a :class:`Rules`;
    * ``players`` — 3 or 4, or 2 (гусарик: the dummy is seat 2, played by the whister);
    * ``episode`` — ``"deal"`` (one deal) or ``"pulka"`` (a whole game on one sheet);
    * ``normalize`` — divide rewards by ``scale`` (default :func:`reward_scale`, a made 10-game);
    * ``max_deals`` — pulka episodes are truncated after this many deals (``None``: no limit).
    """

    rules: Rules
    players: int = 3
    episode: str = "deal"
    normalize: bool = False
    scale: float = 1.0
    max_deals: int | None = None

    @classmethod
    def make(
        cls,
        rules: str | Rules = "sochi",
        players: int = 3,
        episode: str = "deal",
        normalize: bool = False,
        reward_scale: float | None = None,
        max_deals: int | None = None,
    ) -> EnvConfig:
        if isinstance(rules, str):
            if rules not in PRESETS:
                raise EnvError(f"rules: unknown preset {rules!r}; choose one of {', '.join(PRESETS)}")
            rules = Rules.preset(rules)
        elif not isinstance(rules, Rules):
            raise EnvError(f"rules: give a preset name or a Rules object, not {type(rules).__name__}")
        if players not in (2, 3, 4):
            raise EnvError(f"players: Preferans is played by 2 (гусарик, with the dummy), 3 or 4, not {players}")
        if episode not in EPISODES:
            raise EnvError(f"episode: {episode!r} is not one of {', '.join(EPISODES)}")
        if max_deals is not None and max_deals < 1:
            raise EnvError(f"max_deals: must be at least 1 (or None), not {max_deals}")
        if reward_scale is not None and not reward_scale > 0:
            raise EnvError(f"reward_scale: must be positive, not {reward_scale}")
        scale = 1.0
        if normalize:
            scale = float(reward_scale) if reward_scale is not None else default_scale(rules)
        elif reward_scale is not None:
            raise EnvError("reward_scale: only used with normalize=True")
        return cls(rules, players, episode, normalize, scale, max_deals)
