"""What an outcome is worth to one seat, in net whists under the table's rules.

A deal's sheet lines are settled alone by the closed formula of rules.md §11.2
(it is linear, so a game's total is the sum of its deals): that is the one
measure the bots optimise and the arena reports.  Inside a pulka every function
takes the deal's ``standing`` (:class:`~preferans.engine.standing.Standing`, from the
observation): an outcome is then worth the change of the final settlement it makes
on that sheet (:func:`preferans.scoring.pulka.standing_net`: the all-pass at the
series' step, the declarer's bomb, help and write-offs past the pool's target);
``standing=None`` is the deal alone, exactly as before.

>>> from preferans.actions import Contract
>>> from preferans.rules import Rules
>>> u = game_utility(Rules(), players=3, dealer=2, seat=0, declarer=0,
...                  contract=Contract(6, 0), calls=("whist", "whist"))
>>> [round(u[t], 2) for t in (5, 6, 10)]
[-27.33, 5.33, 40.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from ..actions import Contract
from ..engine.result import DealKind, DealResult, DefenceCall
from ..engine.standing import Standing
from ..rules import Rules
from ..scoring import Entry, deal_net, entries_net
from ..scoring.pulka import standing_net
from ..seats import DUMMY, active_seats, defenders_of

__all__ = [
    "allpass_utility",
    "expected",
    "game_utility",
    "misere_utility",
    "net_whists",
    "result_value",
    "settled_utility",
]


def net_whists(entries: Iterable[Entry], rules: Rules, players: int) -> list[float]:
    """Each seat's net whists from these sheet lines alone (rules.md §11.2)."""
    return [float(x) for x in entries_net(entries, players, rules)]


def result_value(result: DealResult, rules: Rules, *, standing: Standing | None = None) -> list[float]:
    """Net whists of every seat for a finished deal: alone, or written on a pulka standing as ``standing``."""
    if standing is None:
        return [float(x) for x in deal_net(result, rules)]
    return [float(x) for x in standing_net(result, rules, standing)]


_CALLS = {"whist": DefenceCall.WHIST, "pass": DefenceCall.PASS, "half": DefenceCall.HALF}


def _defenders(players: int, dealer: int, declarer: int) -> tuple[int, int]:
    return defenders_of(active_seats(dealer, players), declarer)


def _defence(players: int, d1: int, d2: int, calls: tuple[str, str]) -> tuple[dict[int, DefenceCall], tuple[str, str]]:
    """The defence's calls as a result holds them; in гусарик the dummy always passes."""
    if players == 2:
        calls = ("pass" if d1 == DUMMY else calls[0], "pass" if d2 == DUMMY else calls[1])
    return {d: _CALLS[c] for d, c in zip((d1, d2), calls, strict=True)}, calls


@lru_cache(maxsize=1 << 14)
def game_utility(
    rules: Rules,
    *,
    players: int,
    dealer: int,
    seat: int,
    declarer: int,
    contract: Contract,
    calls: tuple[str, str],
    open_play: bool = False,
    split: tuple[int, int] = (0, 0),
    standing: Standing | None = None,
) -> tuple[float, ...]:
    """``seat``'s net whists for each number of declarer's tricks 0–10 in a trick game.

    ``calls`` are the two defenders' calls (first the declarer's left);
    ``split`` the tricks each defender has already taken: the rest of the
    defence's tricks are shared evenly (the solver counts only the side's).
    """
    return _game_values(rules, players, dealer, declarer, contract, calls, open_play, split, standing)[seat]


@lru_cache(maxsize=1 << 14)
def _game_values(
    rules: Rules, players: int, dealer: int, declarer: int, contract: Contract,
    calls: tuple[str, str], open_play: bool, split: tuple[int, int], standing: Standing | None = None,
) -> tuple[tuple[float, ...], ...]:
    """:func:`game_utility` of every seat at once (one scoring of each outcome serves all)."""
    d1, d2 = _defenders(players, dealer, declarer)
    defence, calls = _defence(players, d1, d2, calls)
    whisted = [c for c in calls if c == "whist"]
    rows: list[list[float]] = []
    for t in range(11):
        side = 10 - t
        if not whisted:
            r = DealResult(DealKind.NOT_PLAYED, players, dealer, declarer=declarer,
                           contract=contract, defence=defence)
            rows.append(result_value(r, rules, standing=standing))
            continue
        a, b = split
        rest = max(0, side - a - b)
        t1 = min(side, a + (rest + 1) // 2)
        t2 = side - t1
        r = DealResult(DealKind.GAME, players, dealer, declarer=declarer, contract=contract,
                       defence=defence, open_play=open_play, tricks={declarer: t, d1: t1, d2: t2})
        rows.append(result_value(r, rules, standing=standing))
    return tuple(tuple(row[s] for row in rows) for s in range(len(rows[0])))


@lru_cache(maxsize=1024)
def misere_utility(
    rules: Rules, *, players: int, dealer: int, seat: int, declarer: int, standing: Standing | None = None
) -> tuple[float, ...]:
    """``seat``'s net whists for each number of tricks 0–10 the misère declarer takes."""
    d1, d2 = _defenders(players, dealer, declarer)
    out = []
    for t in range(11):
        r = DealResult(DealKind.MISERE, players, dealer, declarer=declarer, contract=Contract(0),
                       tricks={declarer: t, d1: (10 - t + 1) // 2, d2: (10 - t) // 2})
        out.append(result_value(r, rules, standing=standing)[seat])
    return tuple(out)


@lru_cache(maxsize=1024)
def allpass_utility(
    rules: Rules, *, players: int, dealer: int, seat: int, others: tuple[int, int] = (0, 0),
    standing: Standing | None = None,
) -> tuple[float, ...]:
    """``seat``'s net whists for each number of tricks 0–10 it takes on all-pass.

    The others share what is left evenly beyond ``others`` (their tricks so far).
    """
    act = [s for s in active_seats(dealer, players) if s != seat and not (players == 2 and s == DUMMY)]
    out = []
    for t in range(11):
        rest = 10 - t
        a, b = others
        free = max(0, rest - a - b)
        ta = min(rest, a + (free + 1) // 2)
        # гусарик's all-pass: the other player takes the rest, the dummy takes no part.
        tricks = {seat: t, act[0]: rest} if players == 2 else {seat: t, act[0]: ta, act[1]: rest - ta}
        r = DealResult(DealKind.ALL_PASS, players, dealer, tricks=tricks)
        out.append(result_value(r, rules, standing=standing)[seat])
    return tuple(out)


@lru_cache(maxsize=1024)
def settled_utility(
    rules: Rules,
    *,
    players: int,
    dealer: int,
    seat: int,
    declarer: int,
    contract: Contract,
    calls: tuple[str, str],
    za_svoimi: bool = False,
    conceded: int = 0,
    standing: Standing | None = None,
) -> float:
    """``seat``'s net whists for a game settled without play: «за своими» (seed-002
    p.27), «без трёх» or «без всех» (Kodeks 3.5.4)."""
    d1, d2 = _defenders(players, dealer, declarer)
    defence, calls = _defence(players, d1, d2, calls)
    if za_svoimi:
        r = DealResult(DealKind.NOT_PLAYED, players, dealer, declarer=declarer, contract=contract,
                       defence=defence, za_svoimi=True)
    elif conceded == 3:
        r = DealResult(DealKind.GAME, players, dealer, declarer=declarer, contract=contract,
                       defence=defence, conceded=3, tricks={declarer: contract.level - 3})
    else:
        r = DealResult(DealKind.GAME, players, dealer, declarer=declarer, contract=contract,
                       defence=defence, conceded=10)
    return result_value(r, rules, standing=standing)[seat]


def expected(utility: tuple[float, ...], mean: float, spread: float = 1.0) -> float:
    """Expected value of a per-tricks utility when the tricks are about ``mean``."""
    weights = [math.exp(-((t - mean) ** 2) / (2 * spread * spread)) for t in range(11)]
    total = sum(weights)
    return sum(w * u for w, u in zip(weights, utility, strict=True)) / total
