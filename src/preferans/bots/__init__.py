"""Computer opponents.  Every bot sees only its seat's observation.

>>> from preferans import Deal, DealKind, Rules
>>> from preferans.bots import make_bot
>>> rules = Rules.preset("sochi")
>>> bots = [make_bot("medium", rules, seed=s) for s in range(3)]
>>> deal = Deal.new(rules, seed=7)
>>> while not deal.is_over:
...     seat = deal.to_act
...     deal.apply(bots[seat].act(deal.observation(seat)), seat=seat)
>>> deal.result.kind in (DealKind.GAME, DealKind.MISERE, DealKind.ALL_PASS, DealKind.NOT_PLAYED)
True
"""

from .base import Bot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .levels import LEVELS, is_bot_spec, make_bot
from .pimc import PimcBot
from .random_bot import RandomBot

__all__ = ["LEVELS", "Bot", "ExpertBot", "HeuristicBot", "PimcBot", "RandomBot", "is_bot_spec", "make_bot"]
