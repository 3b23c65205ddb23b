"""The levels users choose from: ``random``, ``easy``, ``medium``, ``hard``, ``expert``.

======== ============================================================= ==================
level    combination                                                    time per decision
======== ============================================================= ==================
random   :class:`RandomBot` — any legal action                          microseconds
easy     :class:`HeuristicBot` that overbids (+0.6 trick) and plays a   ~1 ms
         random legal card 30 % of the time
medium   :class:`HeuristicBot` — hand evaluation, rules of thumb        ~1 ms
hard     :class:`PimcBot` — the heuristic auction; discard, contract,   ~1 ms median,
         whisting and every card by sampled layouts solved exactly      ~0.1 s worst
expert   :class:`ExpertBot` — the sampling bot that thinks until its    median ≤ 1 s, worst
         time (``expert:250ms``; default 1 s) or a convergence test     ≤ 5 s (one core)
         stops it; layouts weighted by the others' calls and cards
======== ============================================================= ==================

Every part that seats a bot — the terminal table, the web server, the arena,
``preferans bot`` — asks :func:`make_bot`, the one factory, by a spec: a level,
or ``cmd:PROGRAM ARGS`` for a program speaking the bot protocol
(``docs/bot-protocol.md``).

>>> from preferans import Rules
>>> make_bot("hard", Rules(), seed=1)
<PimcBot hard>

``expert`` thinks for up to a second a card; ``expert:TIME`` (``expert:250ms``,
``expert:2s``) gives it another thinking time.

>>> make_bot("expertt", Rules())
Traceback (most recent call last):
...
preferans.errors.PreferansError: unknown bot 'expertt': use a level (random, easy, medium, hard, expert) or cmd:PROGRAM
>>> make_bot("expert:250ms", Rules()).think
0.25
"""

from __future__ import annotations

import shlex

from ..errors import PreferansError
from ..rules import Rules
from .base import Bot
from .expert import ExpertBot, parse_think
from .heuristic import HeuristicBot
from .pimc import PimcBot
from .random_bot import RandomBot
from .sandbox import ProgramSlots

__all__ = ["LEVELS", "is_bot_spec", "make_bot", "split_specs"]

LEVELS = ("random", "easy", "medium", "hard", "expert")
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
    name, _, think = spec.strip().lower().partition(":")
    if think:
        try:
            parse_think(think)
        except ValueError:
            return False
        return name == "expert"
    return name in LEVELS


def make_bot(
    spec: str, rules: Rules, seed: int | None = None, *, timeout: float = 10.0, slots: ProgramSlots | None = None
) -> Bot:
    """The bot named by ``spec`` for a table with ``rules``.

    ``spec`` is a level (:data:`LEVELS`) or ``cmd:PROGRAM ARGS``: a program
    started now that answers over the bot protocol, each answer within
    ``timeout`` seconds (started only while one of ``slots`` is free, under their
    limits).  ``seed`` makes our own bots' choices repeatable.
    """
    if spec.startswith("cmd:"):
        command = spec[4:].strip().strip("\"'")
        if not command:
            raise PreferansError("cmd: give the program to run, e.g. cmd:\"./mybot\"")
        from .protocol import SubprocessBot

        return SubprocessBot(shlex.split(command), rules, seed=seed, timeout=timeout, slots=slots)
    name, _, think = spec.strip().lower().partition(":")
    if think and name != "expert":
        raise PreferansError(f"bot {spec!r}: only expert takes a thinking time (expert:250ms)")
    bot: Bot
    if name == "random":
        bot = RandomBot(rules, seed=seed)
    elif name == "easy":
        bot = HeuristicBot(rules, seed=seed, careless=0.3, boldness=0.6)
    elif name == "medium":
        bot = HeuristicBot(rules, seed=seed)
    elif name == "hard":
        bot = PimcBot(rules, seed=seed)
    elif name == "expert":
        try:
            bot = ExpertBot(rules, seed=seed, think=parse_think(think) if think else 1.0)
        except ValueError as e:
            raise PreferansError(f"bot {spec!r}: {e}") from None
    else:
        raise PreferansError(f"unknown bot {spec!r}: use a level ({', '.join(LEVELS)}) or cmd:PROGRAM")
    bot.name = spec.strip().lower() if name == "expert" else name
    return bot
