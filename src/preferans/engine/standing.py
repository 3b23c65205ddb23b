"""The standing of a pulka before a deal: what the open score sheet shows everybody.

At a real table the sheet (пулька) lies open, so every player knows each
player's pool (пуля) against its target, his mountain (гора), the whists
(висты) written, how far the all-pass series (распасы) has gone and, in the
classic game, the bombs.  A deal played inside a pulka carries this as a
:class:`Standing`, and every seat's :class:`~preferans.Observation` shows it
(``None`` when a deal stands alone: the arena, an environment of single
deals, a bare :class:`~preferans.Deal`).  What a deal written on it is worth
is :func:`preferans.scoring.pulka.standing_net`.

>>> s = Standing(pool=(20, 12, 7), mountain=(4, 0, 9), whists=((0, 30, 12), (8, 0, 0), (40, 6, 0)),
...              pool_target=20, raspas_step=2)
>>> s.closed(0), s.closed(1), s.players
(True, False, 3)
>>> Standing.from_dict(s.to_dict()) == s
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import ConfigError

__all__ = ["Standing"]

Amount = int | Fraction
"""Points and whists as the sheet holds them: integers, or exact fractions."""


@dataclass(frozen=True, slots=True)
class Standing:
    """The public standing of a pulka when a deal begins, one entry per player (seat).

    * ``pool``, ``mountain`` — each player's pool and mountain so far;
    * ``whists`` — ``whists[i][j]``: what player *i* has written on player *j*;
    * ``pool_target`` — the pool a player closes at (``Rules.pool_target``);
    * ``raspas_step`` — the step an all-pass of this deal would have in its series
      (1 = the first; a later one costs more under ``raspas_progression``, Kodeks 3.7.4);
    * ``bombs`` — each player's bomb coefficient (classic, Kodeks 3.3.19; ``()`` without bombs);
    * ``deals`` — the deals written so far.

    Immutable and hashable (bots cache by it); it pickles with the deal that holds it.
    """

    pool: tuple[Amount, ...]
    mountain: tuple[Amount, ...]
    whists: tuple[tuple[Amount, ...], ...]
    pool_target: int
    raspas_step: int = 1
    bombs: tuple[int, ...] = ()
    deals: int = 0

    def __post_init__(self) -> None:
        n = len(self.pool)
        if n not in (2, 3, 4):
            raise ConfigError(f"standing: a pulka has 2, 3 or 4 players, not {n} pools")
        if len(self.mountain) != n or len(self.whists) != n or any(len(row) != n for row in self.whists):
            raise ConfigError(f"standing: give a mountain and a row of whists for each of the {n} players")
        if self.bombs and len(self.bombs) != n:
            raise ConfigError(f"standing: bombs are one per player ({n}), not {len(self.bombs)}")
        if any(b < 1 for b in self.bombs):
            raise ConfigError(f"standing: a bomb coefficient is at least 1, not {min(self.bombs)}")
        if self.pool_target < 1:
            raise ConfigError(f"standing: pool_target must be at least 1, not {self.pool_target}")
        if self.raspas_step < 1:
            raise ConfigError(f"standing: raspas_step is 1 for the first all-pass of a series, not {self.raspas_step}")
        if self.deals < 0:
            raise ConfigError(f"standing: deals cannot be negative ({self.deals})")

    @property
    def players(self) -> int:
        return len(self.pool)

    def closed(self, seat: int) -> bool:
        """Has this player filled his pool to the target (закрыл пулю)?"""
        return self.pool[seat] >= self.pool_target

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: amounts as numbers, a fraction as text (``"7/2"``); ``closed`` per player."""
        return {
            "pool": [_json(x) for x in self.pool],
            "mountain": [_json(x) for x in self.mountain],
            "whists": [[_json(x) for x in row] for row in self.whists],
            "pool_target": self.pool_target,
            "closed": [self.closed(s) for s in range(self.players)],
            "raspas_step": self.raspas_step,
            "bombs": list(self.bombs),
            "deals": self.deals,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Standing:
        """The inverse of :meth:`to_dict` (``closed`` is derived, so it is not read)."""
        try:
            return cls(
                pool=_amounts(d["pool"]), mountain=_amounts(d["mountain"]),
                whists=tuple(_amounts(row) for row in d["whists"]), pool_target=int(d["pool_target"]),
                raspas_step=int(d.get("raspas_step", 1)), bombs=tuple(int(b) for b in d.get("bombs", ())),
                deals=int(d.get("deals", 0)),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as e:
            if isinstance(e, ConfigError):
                raise
            raise ConfigError(f"standing: missing or bad field {e}") from None


def _json(x: Amount) -> int | str:
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else str(x)
    return x


def _amounts(xs: Sequence[Any]) -> tuple[Amount, ...]:
    out: list[Amount] = []
    for x in xs:
        f = Fraction(str(x))
        out.append(f.numerator if f.denominator == 1 else f)
    return tuple(out)
