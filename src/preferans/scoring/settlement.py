"""Final settlement (расчёт, роспись пульки) by both methods of rules.md §11.

* :func:`procedural` — the "first method" (§11.1) as done on paper: unclosed
  pools are brought to the largest and the difference goes to the mountain
  (× k_pool / k_mount: ×1 Sochi, ×2 Leningrad); the smallest mountain is
  amnestied; every remaining mountain × k_mount / n is written as whists on
  its owner by every other player; whists cancel pairwise.
* :func:`closed_formula` — the "second method" (§11.2)::

      net_i = k_pool·(P_i − mean P) − k_mount·(M_i − mean M) + Σ_j (W_ij − W_ji)

Both are exact (:class:`fractions.Fraction`) and always agree; the sum of the
results is exactly zero.

>>> closed_formula([2, 0, 0], [0, 0, 0], [[0, 0, 0], [4, 0, 0], [4, 0, 0]], 10, 10)  # §12.2 C1
[Fraction(16, 3), Fraction(-8, 3), Fraction(-8, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..errors import ScoreError
from ..rules import Rounding, Rules
from .sheet import Amount, Entry, Sheet

__all__ = ["Settlement", "closed_formula", "entries_net", "paper_whole", "procedural", "round_nets", "settle"]


def closed_formula(
    pool: Sequence[Amount],
    mountain: Sequence[Amount],
    whists: Sequence[Sequence[Amount]],
    k_pool: Amount,
    k_mount: Amount,
) -> list[Fraction]:
    """Spec §11.2: each player's result in whists."""
    n = len(pool)
    sp = sum(pool, start=Fraction(0))
    sm = sum(mountain, start=Fraction(0))
    out = []
    for i in range(n):
        w = sum((whists[i][j] - whists[j][i] for j in range(n) if j != i), start=Fraction(0))
        out.append(Fraction(k_pool * (n * pool[i] - sp) - k_mount * (n * mountain[i] - sm)) / n + w)
    return out


def entries_net(entries: Iterable[Entry], players: int, rules: Rules) -> list[Fraction]:
    """What some sheet lines alone are worth to each player (rules.md §11.2), e.g. one deal's.

    >>> entries_net([Entry("pool", 0, 2), Entry("whists", 1, 4, 0), Entry("whists", 2, 4, 0)],
    ...             3, Rules())  # rules.md §12.2 C1
    [Fraction(16, 3), Fraction(-8, 3), Fraction(-8, 3)]
    """
    pool: list[Amount] = [Fraction(0)] * players
    mountain: list[Amount] = [Fraction(0)] * players
    whists: list[list[Amount]] = [[Fraction(0)] * players for _ in range(players)]
    for e in entries:
        if e.column == "whists":
            whists[e.player][e.on] += e.amount
        elif e.column == "pool":
            pool[e.player] += e.amount
        else:
            mountain[e.player] += e.amount
    return closed_formula(pool, mountain, whists, rules.k_pool, rules.mountain_factor(players))


@dataclass(frozen=True, slots=True)
class Procedure:
    """The stages of the first method (rules.md §11.1), for showing the working."""

    mountain: tuple[Fraction, ...]  # after converting pools (step 1)
    amnesty: Fraction  # the smallest mountain, subtracted (step 2)
    mountain_whists: tuple[Fraction, ...]  # remaining mountain × k_mount / n (step 3)
    whists: tuple[tuple[Fraction, ...], ...]  # whists after step 3
    pairs: tuple[tuple[Fraction, ...], ...]  # pairs[i][j]: i's balance against j (step 4)
    net: tuple[Fraction, ...]  # step 5
    # With whole transfers (rules.md §11.3), the two shares each player's column is written
    # with, each a whole number of whists: for his pool's shortfall, for his mountain.
    pool_shares: tuple[int, ...] = ()
    mountain_shares: tuple[int, ...] = ()
    smallest_mountain: Fraction = Fraction(0)  # what the mountain shares are counted above


def procedural(
    pool: Sequence[Amount],
    mountain: Sequence[Amount],
    whists: Sequence[Sequence[Amount]],
    k_pool: Amount,
    k_mount: Amount,
    *,
    whole_transfers: bool = False,
) -> Procedure:
    """Rules.md §11.1, step by step.  ``k_mount`` is the closed formula's factor
    (:meth:`Rules.mountain_factor`); ``whole_transfers`` rounds each mountain share a
    player writes on another to a whole whist, halves up, before the netting
    (``rounding="per_transfer"``): the share for his pool's difference and the share for his
    own mountain apart, as two transfers."""
    n = len(pool)
    top = max(pool)
    # 1. Bring every pool to the largest; the difference goes to the mountain.
    m1 = [Fraction(mountain[i]) + Fraction(top - pool[i]) * k_pool / k_mount for i in range(n)]
    # 2. Amnesty (cosmetic).
    low = min(m1)
    m2 = [m - low for m in m1]
    # 3. The remaining mountain × k_mount / n as whists of every other player on its owner.
    mw = [m * k_mount / n for m in m2]
    pool_shares: tuple[int, ...] = ()
    mountain_shares: tuple[int, ...] = ()
    low_m = Fraction(0)
    if whole_transfers:
        # A pool share (the pool's difference × k_pool / n) and a mountain share (the amnestied
        # mountain × k_mount / n) are two transfers, each rounded on its own (issue 29).
        low_m = min(Fraction(m) for m in mountain)
        pool_shares = tuple(_half_up(Fraction(top - pool[i]) * k_pool / n) for i in range(n))
        mountain_shares = tuple(_half_up((Fraction(mountain[i]) - low_m) * k_mount / n) for i in range(n))
        mw = [Fraction(p + m) for p, m in zip(pool_shares, mountain_shares, strict=True)]
    w = [[Fraction(whists[i][j]) + (mw[j] if i != j else 0) for j in range(n)] for i in range(n)]
    # 4. Pairwise cancellation; 5. the sum of the balances.
    pairs = tuple(tuple(w[i][j] - w[j][i] for j in range(n)) for i in range(n))
    net = tuple(sum(row, start=Fraction(0)) for row in pairs)
    return Procedure(tuple(m1), low, tuple(mw), tuple(tuple(r) for r in w), pairs, net,
                     pool_shares, mountain_shares, low_m)  # fmt: skip


def _half_up(x: Fraction) -> int:
    """The nearest whole number, halves up."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def round_nets(
    net: Sequence[Fraction], mode: Rounding, mountain: Sequence[Amount] = ()
) -> list[Fraction]:
    """Round results to whole whists keeping the sum zero (rules.md §11.3).

    * ``exact`` — unchanged;
    * ``half_up`` — to the nearest whole (halves up), then the rounding
      residue is given back by largest remainder so the sum stays zero;
    * ``kodeks_shift`` — the book's trick for a 4-handed table «Преферанс во всех видах»: when all
      results end in a half, one player (the first with an odd mountain, else
      the first) moves +3/2 and the others −1/2 (E-S8); otherwise ``half_up``.

    >>> e_s8 = [Fraction(55, 2), Fraction(-205, 2), Fraction(-25, 2), Fraction(175, 2)]
    >>> [str(x) for x in round_nets(e_s8, "kodeks_shift", [1, 2, 2, 2])]
    ['29', '-103', '-13', '87']
    """
    if mode == "exact":
        return list(net)
    n = len(net)
    if mode == "kodeks_shift" and n == 4 and all(x.denominator == 2 for x in net):
        odd = [i for i, m in enumerate(mountain) if Fraction(m).denominator == 1 and int(m) % 2]
        who = odd[0] if odd else 0
        return [x + (Fraction(3, 2) if i == who else Fraction(-1, 2)) for i, x in enumerate(net)]
    out = [Fraction(_half_up(x)) for x in net]
    residue = sum(out) - sum(net)  # an integer when the exact sum is zero
    if residue:
        step = -1 if residue > 0 else 1
        # Adjust the players whose rounding moved them most in the residue's direction.
        order = sorted(range(n), key=lambda i: (out[i] - net[i]) * -step, reverse=True)
        for i in order[: abs(int(residue))]:
            out[i] += step
    return out


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of a pulka: exact whists per player, how they were reached, and money.

    ``net`` is exact; ``rounded`` follows ``rules.rounding``; :attr:`whole` is what
    paper players write, whole whists; :meth:`money` converts at a price per whist.
    """

    names: tuple[str, ...]
    net: tuple[Fraction, ...]
    rounded: tuple[Fraction, ...]
    procedure: Procedure
    whole: tuple[int, ...] = ()
    """The results in whole whists, as a paper sheet is settled (:func:`paper_whole`)."""
    on_paper: Procedure | None = None
    """The first method with each share written as whole whists (``whole_transfers``), when
    :attr:`whole` comes from it: the working a paper player follows to the whole results."""

    def money(self, price_per_whist: Fraction | int | str) -> tuple[Fraction, ...]:
        """Each player's win (+) or loss (−) in money, on the results in whole whists (what
        the table pays: the exact results times the price are :attr:`net` × price)."""
        price = Fraction(price_per_whist)
        return tuple(x * price for x in self.whole)

    def as_dict(self) -> dict[str, Fraction]:
        return dict(zip(self.names, self.rounded, strict=True))


def settle(sheet: Sheet, rules: Rules) -> Settlement:
    """Settle a sheet by both methods; they must agree and sum to zero (rules.md §11.4)."""
    k_pool, k_mount = rules.k_pool, rules.mountain_factor(sheet.players)
    net = closed_formula(sheet.pool, sheet.mountain, sheet.whists, k_pool, k_mount)
    proc = procedural(sheet.pool, sheet.mountain, sheet.whists, k_pool, k_mount)
    if list(proc.net) != net or sum(net) != 0:  # pragma: no cover - an invariant
        raise ScoreError(f"settlement: the two methods disagree ({proc.net} vs {net})")
    if rules.rounding == "per_transfer":
        # Each mountain share rounded before netting; netting pairwise keeps the sum at zero.
        proc = procedural(sheet.pool, sheet.mountain, sheet.whists, k_pool, k_mount, whole_transfers=True)
        return Settlement(sheet.names, tuple(net), proc.net, proc, paper_whole(proc.net, proc.net), proc)
    rounded = tuple(round_nets(net, rules.rounding, sheet.mountain))
    if rules.rounding == "exact":
        on_paper = procedural(sheet.pool, sheet.mountain, sheet.whists, k_pool, k_mount, whole_transfers=True)
        whole = paper_whole(rounded, on_paper.net)
        used = None if _all_whole(rounded) else on_paper  # what paper_whole settled from
        return Settlement(sheet.names, tuple(net), rounded, proc, whole, used)
    return Settlement(sheet.names, tuple(net), rounded, proc, paper_whole(rounded, rounded))


def _all_whole(xs: Sequence[Fraction]) -> bool:
    return all(Fraction(x).denominator == 1 for x in xs)


def paper_whole(rounded: Sequence[Fraction], on_paper: Sequence[Fraction]) -> tuple[int, ...]:
    """The results in whole whists, as a paper sheet is settled (rules.md §11.1, §11.3).

    The table's own rounding (``rules.rounding``) when it gives whole whists; with ``exact``
    (every preset) the paper's way: at step 3 each player writes his share of a mountain on
    its owner as a whole number of whists (``on_paper``: ``M × 10 / 3 = 13⅓`` is written 13,
    a half is written up), so two players in the same position get the same result and the
    results sum to zero.  Whatever is still a fraction (halves written on the sheet itself)
    goes to the nearest whole whist, the residue handed back by largest remainder.

    Three players, B's mountain 4 after the amnesty: A and C each write 40/3 = 13⅓ whists on
    B — 13 on paper — so A and C win 13 each and B loses 26 (exactly +13⅓, −26⅔, +13⅓):

    >>> from preferans.rules import Rules
    >>> s = Sheet("ABC"); s.mountain[:] = [0, 4, 0]
    >>> st = settle(s, Rules())
    >>> [str(x) for x in st.net], st.whole
    (['40/3', '-80/3', '40/3'], (13, -26, 13))
    """
    chosen = rounded if _all_whole(rounded) else on_paper
    return tuple(int(x) for x in round_nets(chosen, "half_up"))
