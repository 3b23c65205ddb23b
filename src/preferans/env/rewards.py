"""Rewards: each player's net whists under the table's convention.

A deal is written on a sheet by :mod:`preferans.scoring` (through
:class:`preferans.scoring.pulka.Pulka`, so help and write-offs are applied as at a
real table) and the sheet is settled (rules.md §11): the reward of a seat is its
net result in whists, which sums to zero over the table.  In a whole pulka
the reward of a deal is the change in each player's settlement, so the
rewards of an episode add up to the final settlement.

>>> from preferans import Deal, Rules
>>> rules = Rules.preset("sochi")
>>> deal = Deal.new(rules, seed=3)
>>> while not deal.is_over:
...     deal.apply(deal.legal_actions()[0])
>>> r = deal_returns(deal.result, rules)
>>> len(r), abs(sum(r)) < 1e-9
(3, True)
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.result import DealResult
from ..rules import Rules
from ..scoring import closed_formula
from ..scoring.pulka import Pulka

__all__ = ["PulkaRewards", "deal_returns", "reward_scale"]

_CACHES: dict[int, tuple[Rules, dict[tuple[object, ...], tuple[float, ...]]]] = {}
_CACHE_LIMIT = 100_000


def _key(result: DealResult, with_talon: bool) -> tuple[object, ...]:
    """The outcome with seats counted from the dealer: the score does not depend on where he sits
    (in гусарик the dummy stays seat 2, so the seats are kept as they are and the dealer named)."""
    n = result.players
    d, m = (result.dealer, n) if n != 2 else (0, 3)

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - d) % m

    return (
        result.kind, n, rel(result.declarer), result.contract,
        tuple(sorted(((s - d) % m, v) for s, v in result.defence.items())), result.open_play,
        tuple(sorted(((s - d) % m, t) for s, t in result.tricks.items())),
        result.dealer_tricks, result.ten_checked, result.za_svoimi, result.conceded, result.misere_half,
        result.multiplier, result.dark_game, tuple(sorted((s - d) % m for s in result.bombs_earned)),
        result.talon if with_talon else (), result.dealer if n == 2 else None,
    )  # fmt: skip


def deal_returns(result: DealResult, rules: Rules) -> tuple[float, ...]:
    """Net whists of every seat for one deal played on its own (a fresh sheet).

    Exact settlement (rules.md §11.2) converted to floats.  Cached by the outcome
    seen from the dealer's seat, since many deals end the same way and the
    score is the same whoever deals.
    """
    entry = _CACHES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_CACHES) > 64:
            _CACHES.clear()
        entry = _CACHES[id(rules)] = (rules, {})
    cache = entry[1]
    key = _key(result, rules.dealer_talon_whists != "none")  # «проданные тузы» look at the talon
    n = result.players
    d = result.dealer if n != 2 else 0  # гусарик: kept as seated (see _key)
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        net = _settled(rules, n, result.dealer, result)
        hit = cache[key] = tuple(float(net[(r + d) % n]) for r in range(n))
    return tuple(hit[(s - d) % n] for s in range(n))


def _settled(rules: Rules, players: int, dealer: int, result: DealResult) -> list[Fraction]:
    """Spec §11.2 on a fresh sheet holding this one deal (``settle`` also runs §11.1 to cross-check)."""
    pulka = Pulka(rules, players, first_dealer=dealer)
    pulka.record(result)
    sheet = pulka.sheet
    return closed_formula(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, rules.mountain_factor(players))


def reward_scale(rules: Rules) -> float:
    """The normaliser: the value of a made 10-game in whists (``k_pool × V(10)``).

    Rewards divided by it are mostly within [-1, 1]; a badly failed misère or
    a long all-pass series can go beyond.
    """
    return float(rules.k_pool * rules.game_values[-1])


class PulkaRewards:
    """A whole pulka; :meth:`record` returns the change of every settlement.

    >>> from preferans import Deal, Rules
    >>> rules = Rules.preset("sochi")
    >>> pr = PulkaRewards(rules, 3)
    >>> deal = Deal.new(rules, dealer=pr.pulka.next_dealer, min_level=pr.pulka.min_level, seed=5)
    >>> while not deal.is_over:
    ...     deal.apply(deal.legal_actions()[-1])
    >>> step = pr.record(deal.result)
    >>> abs(sum(step)) < 1e-9, [round(x, 6) for x in step] == [round(x, 6) for x in pr.total]
    (True, True)
    """

    def __init__(self, rules: Rules, players: int, *, first_dealer: int = 0) -> None:
        self.pulka = Pulka(rules, players, first_dealer=first_dealer)
        self._net: tuple[Fraction, ...] = (Fraction(0),) * players

    def record(self, result: DealResult) -> tuple[float, ...]:
        """Write the deal; each seat's change in net whists."""
        self.pulka.record(result)
        sheet = self.pulka.sheet
        rules = self.pulka.rules
        k_mount = rules.mountain_factor(sheet.players)
        net = tuple(closed_formula(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, k_mount))
        step = tuple(float(a - b) for a, b in zip(net, self._net, strict=True))
        self._net = net
        return step

    @property
    def total(self) -> tuple[float, ...]:
        """The settlement so far (exact net whists as floats)."""
        return tuple(float(x) for x in self._net)

    @property
    def is_over(self) -> bool:
        return self.pulka.is_over
