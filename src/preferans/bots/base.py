"""The bot interface: a bot sees one seat's observation and answers with an action.

A bot never receives the :class:`~preferans.Deal` — only the
:class:`~preferans.Observation` of its seat, which already lists the legal
actions — so it cannot see hidden cards by construction.  Between decisions
it is told when a game and a deal begin and end (:mod:`.events`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..actions import Action
from ..engine.observation import Observation
from ..rules import Rules
from .events import DealOutcome, DealStart, GameEnd, GameStart

__all__ = ["Bot"]


class Bot(ABC):
    """A computer player for one seat at a table with the given rules.

    ``answers_reports`` says whether the bot answers the questions that
    irregularities and claims ask (phases ``lead_penalty`` and ``claim_answer``)
    itself; when it is false the table answers for it
    (:func:`preferans.bots.automatic.automatic_answer`).
    """

    name: str = "bot"
    answers_reports: bool = False

    def __init__(self, rules: Rules, *, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = seed

    @abstractmethod
    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions``."""

    # What the table tells every bot between decisions; nothing to do by default.
    def tell_game(self, game: GameStart) -> None:
        """A game (a pulka, or the arena's run of deals) begins."""
        return None

    def tell_deal(self, deal: DealStart) -> None:
        """A deal begins, with this bot in ``deal.seat``."""
        return None

    def tell_result(self, outcome: DealOutcome) -> None:
        """The deal is over: its result, what it wrote, each seat's net whists."""
        return None

    def tell_end(self, end: GameEnd) -> None:
        """The game is over."""
        return None

    def close(self) -> None:
        """Free what the bot holds (a bot program ends); our own bots hold nothing."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
