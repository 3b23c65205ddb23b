"""The score sheet (пулька): pool, mountain and whists, with the history of every deal.

A :class:`Sheet` is what the players see on paper: for every player a pool
(пуля), a mountain (гора) and the whists (висты) he wrote on each of the
others.  Every deal adds a few :class:`Entry` lines, kept together as one
:class:`DealScore` so that the sheet can show running totals and undo a deal.

>>> sheet = Sheet(("A", "B", "C"))
>>> lines = (Entry("pool", 0, 2, why="game"), Entry("whists", 1, 4, on=0, why="whist"))
>>> sheet.write(DealScore(1, lines))
>>> sheet.pool, sheet.mountain, sheet.whists[1][0]
([2, 0, 0], [0, 0, 0], 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

__all__ = ["COLUMNS", "Amount", "DealScore", "Entry", "Sheet", "amount_text", "paper_amount", "signed_amount"]

Amount = int | Fraction
"""Points and whists: integers, or exact fractions (halves from splits)."""

COLUMNS = ("pool", "mountain", "whists")


class Entry(NamedTuple):
    """One line written on the sheet.

    ``column`` is ``"pool"`` (пуля), ``"mountain"`` (гора) or ``"whists"`` (висты);
    ``player`` is the seat who writes it; for whists, ``on`` is the seat written
    on.  ``why`` is a short tag (``game``, ``whist``, ``remiz``, ``consolation``,
    ``penalty``, ``half-whist``, ``misere``, ``all-pass``, ``bonus``, ``help``,
    ``write-off``, ``sold-aces``) for rendering and debugging.
    """

    column: str
    player: int
    amount: Amount
    on: int = -1
    why: str = ""


def amount_text(x: Amount) -> str:
    """Exact text: ``12``, ``-7/2``."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return str(x.numerator)
    return str(x)


_VULGAR = {
    (1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖",
    (3, 5): "⅗", (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝",
    (7, 8): "⅞",
}  # fmt: skip
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def paper_amount(x: Amount) -> str:
    """An amount as a player writes it on the sheet: whole numbers as they are, a fraction as
    a whole part and a small fraction — ``2½``, ``27⅓``, ``-3½`` — never ``5/2`` nor ``2.5``:
    on paper a dot separates the running totals (``2.5`` reads «2, then 5», rules.md §11.1).

    >>> [paper_amount(x) for x in (12, Fraction(5, 2), Fraction(82, 3), Fraction(-7, 2), Fraction(1, 2))]
    ['12', '2½', '27⅓', '-3½', '½']
    >>> paper_amount(Fraction(29, 12)), paper_amount(Fraction(-8, 1))
    ('2⁵⁄₁₂', '-8')
    """
    f = Fraction(x)
    if f.denominator == 1:
        return str(f.numerator)
    sign = "-" if f < 0 else ""
    whole, rest = divmod(abs(f.numerator), f.denominator)
    part = _VULGAR.get((rest, f.denominator))
    if part is None:
        part = str(rest).translate(_SUP) + "⁄" + str(f.denominator).translate(_SUB)
    return f"{sign}{whole or ''}{part}"


def signed_amount(x: Amount) -> str:
    """A result as the settlement writes it: ``+27``, ``-14``, ``0``, ``+27⅓``.

    >>> signed_amount(27), signed_amount(Fraction(-41, 3)), signed_amount(0)
    ('+27', '-13⅔', '0')
    """
    return ("+" if x > 0 else "") + paper_amount(x)


@dataclass(frozen=True, slots=True)
class DealScore:
    """Everything one deal wrote on the sheet.

    ``number`` counts deals from 1; ``dealer`` is the seat that dealt; ``label``
    is a human summary (``"A 7♠ made"``); ``entries`` are the lines written,
    including help (помощь) moved by the pulka; ``raspas_step`` is the step of
    the all-pass series (0 when the deal was not an all-pass).
    """

    number: int
    entries: tuple[Entry, ...]
    dealer: int = 0
    label: str = ""
    raspas_step: int = 0


class Sheet:
    """Pool, mountain and whists of every player, and the deals that wrote them.

    ``whists[i][j]`` is what player *i* wrote on player *j*.
    """

    __slots__ = ("history", "mountain", "names", "pool", "whists")

    def __init__(self, names: Sequence[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        n = len(self.names)
        self.pool: list[Amount] = [0] * n
        self.mountain: list[Amount] = [0] * n
        self.whists: list[list[Amount]] = [[0] * n for _ in range(n)]
        self.history: list[DealScore] = []

    @property
    def players(self) -> int:
        return len(self.names)

    def apply(self, entries: Iterable[Entry]) -> None:
        """Add entries to the totals (without recording a deal)."""
        pool, mountain, whists = self.pool, self.mountain, self.whists
        for e in entries:
            col = e.column
            if col == "whists":
                whists[e.player][e.on] += e.amount
            elif col == "pool":
                pool[e.player] += e.amount
            else:
                mountain[e.player] += e.amount

    def write(self, deal: DealScore) -> None:
        """Record one deal: its entries go into the totals and the history."""
        self.apply(deal.entries)
        self.history.append(deal)

    def copy(self) -> Sheet:
        other = Sheet(self.names)
        other.pool = list(self.pool)
        other.mountain = list(self.mountain)
        other.whists = [list(row) for row in self.whists]
        other.history = list(self.history)
        return other

    def whists_on(self, player: int) -> Amount:
        """Total whists the others wrote on ``player``."""
        return sum((row[player] for row in self.whists), start=0)

    def running(self, column: str, player: int, on: int = -1) -> list[Amount]:
        """The running totals of one column as they are written on paper, one per change.

        >>> s = Sheet("ABC")
        >>> for k in (2, 4, -1):
        ...     s.write(DealScore(len(s.history) + 1, (Entry("pool", 0, k),)))
        >>> s.running("pool", 0)
        [2, 6, 5]
        """
        total: Amount = 0
        out: list[Amount] = []
        for deal in self.history:
            changed = False
            for e in deal.entries:
                if e.column == column and e.player == player and (column != "whists" or e.on == on):
                    total += e.amount
                    changed = True
            if changed:
                out.append(total)
        return out

    def to_dict(self) -> dict[str, object]:
        """Totals keyed by player name; amounts are ints or fraction strings."""

        def j(x: Amount) -> int | str:
            if isinstance(x, Fraction):
                return x.numerator if x.denominator == 1 else str(x)
            return x

        names = self.names
        return {
            "pool": {names[i]: j(self.pool[i]) for i in range(len(names))},
            "mountain": {names[i]: j(self.mountain[i]) for i in range(len(names))},
            "whists": {
                names[i]: {names[k]: j(self.whists[i][k]) for k in range(len(names)) if k != i}
                for i in range(len(names))
            },
        }
