"""Random but possible deal outcomes, for property tests and the scoring benchmark.

>>> import random
>>> r = random_outcome(random.Random(1), Rules(), players=4)
>>> r.players, sum(r.tricks.values()) + r.dealer_tricks in (0, 10) or r.kind is DealKind.MISERE
(4, True)
"""

from __future__ import annotations

import random

from ..actions import Contract
from ..engine.result import DealKind, DealResult, DefenceCall
from ..rules import Rules
from ..seats import active_seats, defenders_of

__all__ = ["random_outcome"]

_W, _P, _H = DefenceCall.WHIST, DefenceCall.PASS, DefenceCall.HALF


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def random_outcome(
    rng: random.Random, rules: Rules, players: int = 3, dealer: int | None = None
) -> DealResult:
    """An outcome that :func:`~preferans.scoring.score_deal` accepts under ``rules``."""
    n = players
    d = rng.randrange(n) if dealer is None else dealer
    active = active_seats(d, n)
    roll = rng.random()
    if roll < 0.15:  # all-pass
        dealer_tricks = 0
        if n == 4 and rules.raspas_talon_for(4) == "participates":
            dealer_tricks = rng.choice((0, 0, 0, 1, 2))
        t = _split(rng, 10 - dealer_tricks, 3)
        return DealResult(
            DealKind.ALL_PASS, n, d, tricks=dict(zip(active, t, strict=True)),
            dealer_tricks=dealer_tricks,
        )  # fmt: skip
    decl = rng.choice(active)
    d1, d2 = defenders_of(active, decl)
    if roll < 0.25:  # misère
        dt = rng.choice((0, 0, 0, 1, 2, 3))
        a, b = _split(rng, 10 - dt, 2)
        half = n == 4 and rules.misere_half_with_dealer and rng.random() < 0.2
        return DealResult(
            DealKind.MISERE, n, d, decl, Contract(0), tricks={decl: dt, d1: a, d2: b},
            misere_half=half,
        )  # fmt: skip
    level = rng.choice((6, 6, 6, 7, 7, 7, 8, 8, 9, 10))
    contract = Contract(level, rng.randrange(5))
    if level == 10 and rules.tens_checked:
        dt = rng.choice((10, 10, 9, 8))
        a, b = _split(rng, 10 - dt, 2)
        return DealResult(
            DealKind.GAME, n, d, decl, contract, tricks={decl: dt, d1: a, d2: b}, ten_checked=True
        )
    pattern = rng.random()
    if pattern < 0.12:
        return DealResult(DealKind.NOT_PLAYED, n, d, decl, contract, defence={d1: _P, d2: _P})
    if pattern < 0.2 and level in rules.half_whist_levels:
        return DealResult(DealKind.NOT_PLAYED, n, d, decl, contract, defence={d1: _P, d2: _H})
    if pattern < 0.25:
        w = rng.choice((d1, d2))
        return DealResult(
            DealKind.NOT_PLAYED, n, d, decl, contract,
            defence={d1: _W if w == d1 else _P, d2: _W if w == d2 else _P}, za_svoimi=True,
        )  # fmt: skip
    if pattern < 0.28 and rules.bez_trekh:
        return DealResult(
            DealKind.GAME, n, d, decl, contract, defence={d1: _W, d2: _W}, conceded=3
        )
    calls = rng.choice(((_W, _W), (_W, _P), (_P, _W), (_W, _W)))
    dt = max(0, min(10, level + rng.choice((-3, -2, -1, -1, 0, 0, 0, 0, 1, 1, 2))))
    a, b = _split(rng, 10 - dt, 2)
    return DealResult(
        DealKind.GAME, n, d, decl, contract, defence={d1: calls[0], d2: calls[1]},
        tricks={decl: dt, d1: a, d2: b}, open_play=calls[0] != calls[1] and rng.random() < 0.5,
    )  # fmt: skip
