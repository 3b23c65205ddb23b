"""The solver's entry points: exact values, yes/no tests and the value of every card.

Each thread gets its own search engine (a C object owning one transposition
table), and the search runs without the GIL, so threads solve in parallel.

>>> p = Position.parse("♠A K / ♠Q 7 / ♠10 9 | tricks trump=NT declarer=0 leader=1")
>>> solve(p), solve_at_least(p, 2), best_moves(p)
(2, True, {Card('7♠'): 2, Card('Q♠'): 2})

A bot sampling layouts of the hidden cards asks for many positions that differ
only in the hands: :func:`solve_many` and :func:`best_moves_many` answer them in
one C call per group of such positions (no Python between the layouts, and the
layouts share the thread's transposition table).

>>> q = Position.parse("♠A Q / ♠K 7 / ♠10 9 | tricks trump=NT declarer=0 leader=0")
>>> solve_many([p, q]), best_moves_many([p, q])[1]
([2, 1], {Card('Q♠'): 1, Card('A♠'): 1})
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, TypedDict

from ..cards import Card
from . import _solver
from .position import Position, SolverError

__all__ = [
    "DEFAULT_TABLE_MB",
    "EngineArgs",
    "best_moves",
    "best_moves_many",
    "engine",
    "engine_args",
    "set_table_size",
    "solve",
    "solve_at_least",
    "solve_many",
]

DEFAULT_TABLE_MB = 16
_GOAL_CODES = {"tricks": 0, "misere": 1, "allpass": 2}
_table_mb = DEFAULT_TABLE_MB
_local = threading.local()


def set_table_size(mb: int) -> None:
    """Size of the transposition table of each thread's engine, in MB (default 16).

    Engines created from now on use the new size; the calling thread's engine is
    replaced at once.
    """
    global _table_mb
    if not isinstance(mb, int) or not 1 <= mb <= 4096:
        raise SolverError(f"table size must be 1..4096 MB, not {mb!r}")
    _table_mb = mb
    _local.engine = _solver.Engine(mb)


def engine() -> _solver.Engine:
    """The calling thread's search engine (created on first use)."""
    e: _solver.Engine | None = getattr(_local, "engine", None)
    if e is None:
        e = _local.engine = _solver.Engine(_table_mb)
    return e


class EngineArgs(TypedDict):
    """The keyword arguments of ``Engine.solve`` / ``Engine.moves`` for a position."""

    hands: tuple[int, int, int]
    leader: int
    trick: tuple[int, ...]
    trump: int
    goal: int
    focus: int
    talon: tuple[int, ...]
    participates: bool


def engine_args(position: Position) -> EngineArgs:
    """The position as keyword arguments of ``Engine.solve`` / ``Engine.moves``."""
    p = position
    return {
        "hands": p.hands,
        "leader": p.leader,
        "trick": p.trick,
        "trump": -1 if p.trump is None else p.trump,
        "goal": _GOAL_CODES[p.goal],
        "focus": p.declarer,
        "talon": p.talon,
        "participates": p.talon_mode == "participates",
    }


def solve(position: Position) -> int:
    """The declarer's tricks from here (the current trick included) with best play.

    Trick game: the declarer maximises, the defenders minimise; misère: the
    declarer minimises, the defenders maximise; all-pass: the fewest tricks the
    player can guarantee against the other two together.
    """
    return int(engine().solve(**engine_args(position)))


def solve_at_least(position: Position, n: int) -> bool:
    """Whether ``solve(position) >= n``, by one null-window search (cheaper)."""
    if not isinstance(n, int):
        raise SolverError(f"n must be a number of tricks, not {n!r}")
    if n <= 0:
        return True
    return bool(engine().solve(**engine_args(position), target=n))


def best_moves(position: Position) -> dict[Card, int]:
    """The value (as in :func:`solve`) after each legal card of the player to move.

    The best card is the one with the highest value in a trick game, and the
    lowest for the declarer in misère (the opposite for his opponents).
    """
    return {Card(c): v for c, v in sorted(engine().moves(**engine_args(position)))}


def _groups(positions: Sequence[Position]) -> dict[tuple[object, ...], list[int]]:
    """Indices of the positions grouped by everything but the hands."""
    out: dict[tuple[object, ...], list[int]] = {}
    for i, p in enumerate(positions):
        key = (p.leader, p.declarer, p.goal, p.trump, p.trick, p.talon, p.talon_mode)
        out.setdefault(key, []).append(i)
    return out


def _batch_args(p: Position, members: list[int], positions: Sequence[Position]) -> dict[str, Any]:
    args: dict[str, Any] = dict(engine_args(p))
    args["hands"] = [positions[i].hands for i in members]
    return args


def solve_many(positions: Sequence[Position]) -> list[int]:
    """:func:`solve` of each position, in order; one C call per group of positions
    that differ only in their hands."""
    out = [0] * len(positions)
    e = engine()
    for members in _groups(positions).values():
        values = e.solve_many(**_batch_args(positions[members[0]], members, positions))
        for i, v in zip(members, values, strict=True):
            out[i] = int(v)
    return out


def best_moves_many(positions: Sequence[Position]) -> list[dict[Card, int]]:
    """:func:`best_moves` of each position, in order, batched as :func:`solve_many`."""
    out: list[dict[Card, int]] = [{} for _ in positions]
    e = engine()
    for members in _groups(positions).values():
        rows = e.moves_many(**_batch_args(positions[members[0]], members, positions))
        for i, row in zip(members, rows, strict=True):
            out[i] = {Card(c): v for c, v in sorted(row)}
    return out
