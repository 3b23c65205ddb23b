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

Every part that seats a bot — the terminal table, the web server, the arena,
``preferans bot`` — asks :func:`make_bot`, the one factory, by a spec: a level,
or ``cmd:PROGRAM ARGS`` for a program speaking the bot protocol
(``docs/bot-protocol.md``).

>>> from preferans import Rules
>>> make_bot("hard", Rules(), seed=1)
<PimcBot hard>
>>> make_bot("expertt", Rules())
Traceback (most recent call last):
...
preferans.errors.PreferansError: unknown bot 'expertt': use a level (random, easy, medium, hard) or cmd:PROGRAM
"""

from __future__ import annotations

import shlex

from ..errors import PreferansError
from ..rules import Rules
from .base import Bot
from .heuristic import HeuristicBot
from .pimc import PimcBot
from .random_bot import RandomBot

__all__ = ["LEVELS", "is_bot_spec", "make_bot", "split_specs"]

LEVELS = ("random", "easy", "medium", "hard")
"""The levels of our own bots, weakest first."""


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, except inside quotes (``cmd:"./bot -a,b"``).

    >>> split_specs('medium, cmd:"./mybot --x=1,2",hard')
    ['medium', 'cmd:./mybot --x=1,2', 'hard']
    """
    out: list[str] = []
    cur = ""
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                cur += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [b for b in out if b]


def is_bot_spec(spec: str) -> bool:
    """Does ``spec`` name a bot :func:`make_bot` can build (a level, or ``cmd:`` with a program)?"""
    if spec.startswith("cmd:"):
        return bool(spec[4:].strip().strip("\"'"))
    return spec.strip().lower() in LEVELS


def make_bot(spec: str, rules: Rules, seed: int | None = None, *, timeout: float = 10.0) -> Bot:
    """The bot named by ``spec`` for a table with ``rules``.

    ``spec`` is a level (:data:`LEVELS`) or ``cmd:PROGRAM ARGS``: a program
    started now that answers over the bot protocol, each answer within
    ``timeout`` seconds.  ``seed`` makes our own bots' choices repeatable.
    """
    if spec.startswith("cmd:"):
        command = spec[4:].strip().strip("\"'")
        if not command:
            raise PreferansError("cmd: give the program to run, e.g. cmd:\"./mybot\"")
        from .protocol import SubprocessBot

        return SubprocessBot(shlex.split(command), rules, seed=seed, timeout=timeout)
    name = spec.strip().lower()
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
        raise PreferansError(f"unknown bot {spec!r}: use a level ({', '.join(LEVELS)}) or cmd:PROGRAM")
    bot.name = name
    return bot
