"""A bot that plays uniformly random legal actions (a baseline and a test driver)."""

from __future__ import annotations

import random

from ..actions import Action
from ..engine.observation import Observation
from ..rules import Rules
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniformly random among the legal actions; reproducible with ``seed``."""

    name = "random"

    def __init__(self, rules: Rules, *, seed: int | None = None) -> None:
        super().__init__(rules, seed=seed)
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        return self._rng.choice(observation.legal_actions)
