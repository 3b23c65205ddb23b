"""The solver's entry points: exact values, yes/no tests and the value of every card.

Each thread gets its own search engine (a C object owning one transposition
table), and the search runs without the GIL, so threads solve in parallel.

>>> p = Position.parse("♠A K / ♠Q 7 / ♠10 9 | tricks trump=NT declarer=0 leader=1")
>>> solve(p), solve_at_least(p, 2), best_moves(p)
(2, True, {Card('7♠'): 2, Card('Q♠'): 2})

A bot sampling layouts of the hidden cards asks for many positions of one deal:
:func:`solve_many` and :func:`best_moves_many` answer them in one C call per group
of positions searched under the same rules (trump, goal, declarer, talon) — each
with its own hands, leader and cards on the table — so no Python runs between
them and they share the thread's transposition table.

>>> q = Position.parse("♠A Q / ♠K 7 / ♠10 9 | tricks trump=NT declarer=0 leader=0")
>>> solve_many([p, q]), best_moves_many([p, q])[1]
([2, 1], {Card('Q♠'): 1, Card('A♠'): 1})

Inside :func:`memo` the answers are remembered (per thread) and a position
asked again is answered without a search: a duplicate arena plays one deal in
every seating, and seeded bots sample the same layouts in each.

>>> with memo():
...     first = solve(p)
...     again = solve(p)  # from the memo
>>> first == again, memo_stats()["hits"] >= 1
(True, True)
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
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
    "memo",
    "memo_stats",
    "selfish_moves_many",
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


_MEMO_LIMIT = 200_000
"""Answers a memo keeps at most (then it is emptied: a deal's solves are far fewer)."""


def _memo() -> dict[tuple[object, ...], Any] | None:
    m: dict[tuple[object, ...], Any] | None = getattr(_local, "memo", None)
    return m


@contextlib.contextmanager
def memo() -> Iterator[None]:
    """Remember every answer of this thread's solves until the block ends.

    The answers are exact, so remembering them changes no result, only the time;
    nested blocks share the outer memo.
    """
    if _memo() is not None:
        yield
        return
    _local.memo = {}
    _local.hits = 0
    try:
        yield
    finally:
        _local.memo = None


def memo_stats() -> dict[str, int]:
    """This thread's memo: answers held and hits since its block began."""
    m = _memo()
    return {"size": len(m) if m is not None else 0, "hits": getattr(_local, "hits", 0)}


def _recall(key: tuple[object, ...]) -> Any:
    m = _memo()
    if m is None:
        return None
    v = m.get(key)
    if v is not None:
        _local.hits += 1
    return v


def _remember(key: tuple[object, ...], value: Any) -> None:
    m = _memo()
    if m is not None:
        if len(m) >= _MEMO_LIMIT:
            m.clear()
        m[key] = value


def solve(position: Position) -> int:
    """The declarer's tricks from here (the current trick included) with best play.

    Trick game: the declarer maximises, the defenders minimise; misère: the
    declarer minimises, the defenders maximise; all-pass: the fewest tricks the
    player can guarantee against the other two together.
    """
    key = ("solve", position)
    v = _recall(key)
    if v is None:
        v = int(engine().solve(**engine_args(position)))
        _remember(key, v)
    return int(v)


def solve_at_least(position: Position, n: int) -> bool:
    """Whether ``solve(position) >= n``, by one null-window search (cheaper)."""
    if not isinstance(n, int):
        raise SolverError(f"n must be a number of tricks, not {n!r}")
    if n <= 0:
        return True
    exact = _recall(("solve", position))
    if exact is not None:
        return bool(exact >= n)
    key = ("at_least", position, n)
    v = _recall(key)
    if v is None:
        v = bool(engine().solve(**engine_args(position), target=n))
        _remember(key, v)
    return bool(v)


def best_moves(position: Position) -> dict[Card, int]:
    """The value (as in :func:`solve`) after each legal card of the player to move.

    The best card is the one with the highest value in a trick game, and the
    lowest for the declarer in misère (the opposite for his opponents).
    """
    key = ("moves", position)
    v = _recall(key)
    if v is None:
        v = {Card(c): v for c, v in sorted(engine().moves(**engine_args(position)))}
        _remember(key, v)
    return dict(v)


def _groups(positions: Sequence[Position], todo: list[int]) -> list[list[int]]:
    """The indices ``todo`` of the positions grouped by the rules of their search (trump,
    goal, declarer, talon): one C call answers a group, each position with its own
    hands, leader and cards on the table."""
    out: dict[tuple[object, ...], list[int]] = {}
    for i in todo:
        p = positions[i]
        key = (p.declarer, p.goal, p.trump, p.talon, p.talon_mode)
        group = out.get(key)
        if group is None:
            out[key] = [i]
        else:
            group.append(i)
    return list(out.values())


def _batch_args(positions: Sequence[Position], members: list[int]) -> dict[str, Any]:
    args: dict[str, Any] = dict(engine_args(positions[members[0]]))
    args["hands"] = [(*q.hands, q.leader, q.trick) for q in (positions[i] for i in members)]
    return args


def solve_many(positions: Sequence[Position]) -> list[int]:
    """:func:`solve` of each position, in order; one C call per group of positions
    searched under the same rules (they may differ in hands, leader and trick)."""
    out: list[int] = [0] * len(positions)
    todo = _unknown("solve", positions, out)
    e = engine()
    keep = _memo() is not None
    for idx in _groups(positions, todo):
        values = e.solve_many(**_batch_args(positions, idx))
        for i, v in zip(idx, values, strict=True):
            out[i] = v
            if keep:
                _remember(("solve", positions[i]), v)
    return out


def _unknown(kind: str, positions: Sequence[Position], out: list[Any]) -> list[int]:
    """Indices of the positions the memo cannot answer (the others filled into ``out``)."""
    if _memo() is None:
        return list(range(len(positions)))
    todo = []
    for i, p in enumerate(positions):
        v = _recall((kind, p))
        if v is None:
            todo.append(i)
        else:
            out[i] = v if kind == "solve" else dict(v)
    return todo


def best_moves_many(positions: Sequence[Position]) -> list[dict[Card, int]]:
    """:func:`best_moves` of each position, in order, batched as :func:`solve_many`."""
    return _card_values_many("moves", positions)


def _card_values_many(kind: str, positions: Sequence[Position]) -> list[dict[Card, int]]:
    """Every card's value in each position by the engine's batch call of ``kind`` (``"moves"``:
    ``moves_many``, ``"selfish"``: ``selfish_many``), through the memo."""
    out: list[dict[Card, int]] = [{} for _ in positions]
    todo = _unknown(kind, positions, out)
    e = engine()
    call = e.moves_many if kind == "moves" else e.selfish_many
    keep = _memo() is not None
    for idx in _groups(positions, todo):
        rows = call(**_batch_args(positions, idx))
        for i, row in zip(idx, rows, strict=True):
            out[i] = {Card(c): v for c, v in sorted(row)}
            if keep:
                _remember((kind, positions[i]), dict(out[i]))
    return out


def selfish_moves_many(positions: Sequence[Position]) -> list[dict[Card, int]]:
    """On an all-pass, each position's tricks for its player (``declarer``) after each legal
    card of the player to move, when each of the three plays for his own fewest tricks
    (max-n) — not, as :func:`best_moves_many` has it, the other two for his most.

    Of cards equal for the player to move, he plays the one that leaves the player after him
    the most tricks.  Only for all-passes with no talon card left to lead (from the third
    trick on, or no talon leads at all; rules.md §8.2).

    Here leading the queen of spades costs first hand two tricks if the other two play to
    give him tricks, one if each keeps his own fewest:

    >>> p = Position.parse("♠Q ♣7 ♥A / ♠J ♣8 ♦K / ♣9 ♦Q ♥8 | allpass player=0 leader=0")
    >>> best_moves_many([p])[0][Card.parse("Q♠")], selfish_moves_many([p])[0][Card.parse("Q♠")]
    (2, 1)
    """
    for p in positions:
        if p.goal != "allpass" or p.talon:
            what = f"the goal is {p.goal!r}" if p.goal != "allpass" else "a talon card still leads"
            raise SolverError(f"selfish search is for an all-pass with no talon card to lead: {what}")
    return _card_values_many("selfish", positions)
