"""The bot interface: a bot sees one seat's observation and answers with an action.

A bot never receives the :class:`~preferans.Deal` — only the
:class:`~preferans.Observation` of its seat, which already lists the legal
actions — so it cannot see hidden cards by construction.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..actions import Action
from ..engine.observation import Observation
from ..rules import Rules

__all__ = ["Bot"]


class Bot(ABC):
    """A computer player for one seat at a table with the given rules."""

    name: str = "bot"

    def __init__(self, rules: Rules, *, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = seed

    @abstractmethod
    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
