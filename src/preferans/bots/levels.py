"""The levels users choose from: ``random``, ``easy``, ``medium``, ``hard``.

======== ============================================================= ==================
level    combination                                                    time per decision
======== ============================================================= ==================
random   :class:`RandomBot` — any legal action                          microseconds
easy     :class:`HeuristicBot` that overbids (+0.6 trick) and plays a   ~1 ms
         random legal card 30 % of the time
medium   :class:`HeuristicBot` — hand evaluation, rules of thumb        ~1 ms
hard     :class:`PimcBot` — the heuristic auction; discard, contract,   median ≤ 1 s, worst
         whisting and every card by sampled layouts solved exactly      ≤ 5 s (one core)
======== ============================================================= ==================

>>> from preferans import Rules
>>> bot_for_level("hard", Rules(), seed=1)
<PimcBot hard>
>>> bot_for_level("expert", Rules())
Traceback (most recent call last):
...
preferans.errors.PreferansError: unknown bot level 'expert': choose random, easy, medium or hard
"""

from __future__ import annotations

from ..errors import PreferansError
from ..rules import Rules
from .base import Bot
from .heuristic import HeuristicBot
from .pimc import PimcBot
from .random_bot import RandomBot

__all__ = ["LEVELS", "bot_for_level"]

LEVELS = ("random", "easy", "medium", "hard")


def bot_for_level(level: str, rules: Rules, seed: int | None = None) -> Bot:
    """A bot of the named level for a table with ``rules``."""
    name = level.strip().lower()
    bot: Bot
    if name == "random":
        bot = RandomBot(rules, seed=seed)
    elif name == "easy":
        bot = HeuristicBot(rules, seed=seed, careless=0.3, boldness=0.6)
    elif name == "medium":
        bot = HeuristicBot(rules, seed=seed)
    elif name == "hard":
        bot = PimcBot(rules, seed=seed)
    else:
        raise PreferansError(f"unknown bot level {level!r}: choose random, easy, medium or hard")
    bot.name = name
    return bot
