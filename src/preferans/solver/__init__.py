"""Double-dummy solver (решатель): exact play with all cards open, searched in C.

>>> from preferans.solver import Position, solve
>>> solve(Position.parse("♠A K / ♠Q J / ♠10 9 | tricks trump=NT declarer=1 leader=0"))
0
"""

from .contracts import ContractTable, contract_table, discard_table
from .position import GOALS, TALON_MODES, Position, SolverError
from .search import (
    DEFAULT_TABLE_MB,
    best_moves,
    best_moves_many,
    memo,
    memo_stats,
    selfish_moves_many,
    set_table_size,
    solve,
    solve_at_least,
    solve_many,
)

__all__ = [
    "DEFAULT_TABLE_MB",
    "GOALS",
    "TALON_MODES",
    "ContractTable",
    "Position",
    "SolverError",
    "best_moves",
    "best_moves_many",
    "contract_table",
    "discard_table",
    "memo",
    "memo_stats",
    "selfish_moves_many",
    "set_table_size",
    "solve",
    "solve_at_least",
    "solve_many",
]
