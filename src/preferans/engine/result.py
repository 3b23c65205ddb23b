"""The outcome of one deal: everything scoring needs, nothing about the sheet.

A :class:`DealResult` is produced by :attr:`preferans.Deal.result` when a deal
is over, and can also be built by hand from an outcome entered at a real table
(the score keeper).  It says *what happened* — who declared what, who whisted,
how many tricks each player took — and leaves pool, mountain and whists to
:mod:`preferans.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from ..actions import Contract
from ..seats import active_seats, defenders_of

__all__ = ["DealKind", "DealResult", "DefenceCall"]


class DealKind(StrEnum):
    """What kind of deal it was."""

    GAME = "game"  # a trick contract that was played (or conceded, or checked)
    MISERE = "misere"
    ALL_PASS = "all_pass"  # распасовка
    NOT_PLAYED = "not_played"  # a trick contract with no play: both passed, half-whist, «за своими»
    VOID = "void"  # no score, the same dealer deals again (a misdeal, seed-002 p.12)
    PENALTY = "penalty"  # Kodeks 3.3.16.3: the talon exposed during bidding; whists on the offender
    SHEET = "sheet"  # not a deal: pool, mountain or whists written by hand (the score keeper)


class DefenceCall(StrEnum):
    """A defender's final whisting position (rules.md §5)."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"  # полвиста, confirmed by the other defender's pass


def _frozen(d: Mapping[int, int] | None) -> Mapping[int, int]:
    return MappingProxyType(dict(d or {}))


@dataclass(frozen=True)
class DealResult:
    """The outcome of a deal.  Seats are absolute: 0 … players-1.

    Fields:

    * ``kind`` — :class:`DealKind`.
    * ``players`` (3 or 4), ``dealer``.
    * ``declarer`` and ``contract`` — ``None`` for all-pass.
    * ``defence`` — each defender's :class:`DefenceCall` (empty for misère,
      all-pass and a checked 10-game).
    * ``open_play`` — a lone whister played open (лёжа).
    * ``tricks`` — tricks taken by each *active* player (all-pass, played
      games and misère); empty when there was no play.
    * ``dealer_tricks`` — 4-handed all-pass: tricks the dealer took with the
      talon cards (Kodeks 3.7.6.1); 0 otherwise.
    * ``ten_checked`` — a 10-game checked rather than whisted (``ten_mode``).
    * ``za_svoimi`` — the lone whister wrote his quota without play (seed-002 p.27).
    * ``conceded`` — 3 for «без трёх», 10 for «без всех» (Kodeks 3.5.4), else 0.
    * ``misere_half`` — misère «пополам» with the 4-handed dealer (Kodeks 3.6.9).
    * ``dealer_whist`` — the 4-handed dealer whisted a game both defenders passed (or
      half-whisted) and played both defending hands (``dealer_whist``).
    * ``talon_shown_by_dealer`` — the 4-handed dealer showed the talon during the
      auction; the declarer writes ``dealer_shown_talon_whists`` whist prices on him.
    * ``multiplier`` — the deal's own coefficient: 2 for a dark game, and on
      all-pass 2 per dark pass (Kodeks 3.3.19), capped by ``bomb_limit``.
    * ``dark_game`` — the declarer bid in the dark.
    * ``dark_passers`` — players who passed in the dark; with ``bombs_earned``
      (on all-pass: the dark passers, and the 4-handed dealer) for the pulka.
    * ``talon`` — the two talon cards (ids), for the «проданные тузы» option.
    * ``offender`` — who committed the irregularity that ended the deal
      (``VOID``, ``PENALTY``), else ``None``.
    * ``penalty`` — ``PENALTY`` deals: whists each player writes on the
      offender (Kodeks 3.3.16.3), as assessed with the solver by
      :func:`preferans.rulings.assessment.assess_exposed_talon`; empty until assessed.
    * ``claimants`` — ``PENALTY`` deals: (seat, last bid text) of each player
      who had not finished bidding when the talon was exposed.
    * ``claim`` — (claimer, tricks) when play ended by an accepted claim.
    * ``sheet`` — ``SHEET`` results: the lines written by hand, each
      ``(column, player, amount, on)`` with ``on`` the seat written on for whists,
      else -1 (a paper sheet entered in progress, a correction, an adjustment).
    """

    kind: DealKind
    players: int
    dealer: int
    declarer: int | None = None
    contract: Contract | None = None
    defence: Mapping[int, DefenceCall] = field(default_factory=lambda: MappingProxyType({}))
    open_play: bool = False
    tricks: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    dealer_tricks: int = 0
    ten_checked: bool = False
    za_svoimi: bool = False
    conceded: int = 0
    misere_half: bool = False
    dealer_whist: bool = False
    talon_shown_by_dealer: bool = False
    multiplier: int = 1
    dark_game: bool = False
    dark_passers: tuple[int, ...] = ()
    bombs_earned: tuple[int, ...] = ()
    talon: tuple[int, ...] = ()
    offender: int | None = None
    penalty: Mapping[int, Fraction] = field(default_factory=lambda: MappingProxyType({}))
    claimants: tuple[tuple[int, str], ...] = ()
    claim: tuple[int, int] | None = None
    sheet: tuple[tuple[str, int, Fraction, int], ...] = ()

    def __post_init__(self) -> None:
        # Freeze mappings so a result can be shared safely.
        object.__setattr__(self, "defence", MappingProxyType(dict(self.defence)))
        object.__setattr__(self, "tricks", _frozen(self.tricks))
        object.__setattr__(self, "penalty", MappingProxyType({k: Fraction(v) for k, v in self.penalty.items()}))

    def __reduce__(self) -> tuple[type[DealResult], tuple[object, ...]]:
        """Pickled as its fields, the frozen mappings as dicts (a mapping proxy does not pickle), so a
        result can come back from another process (the server's 3.3.16.3 assessments).

        >>> import pickle
        >>> r = DealResult(DealKind.PENALTY, 3, 0, offender=1, penalty={0: 4})
        >>> pickle.loads(pickle.dumps(r)) == r
        True
        """
        values = (getattr(self, f.name) for f in fields(self))
        return type(self), tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values)

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that held cards: all of them with 3 players, all but the dealer with 4."""
        return active_seats(self.dealer, self.players)

    @property
    def defenders(self) -> tuple[int, ...]:
        """The declarer's opponents in whisting order (his left first)."""
        if self.declarer is None:
            return ()
        return defenders_of(self.active, self.declarer)

    @property
    def whisters(self) -> tuple[int, ...]:
        return tuple(s for s in self.defenders if self.defence.get(s) == DefenceCall.WHIST)

    def declarer_tricks(self) -> int:
        return self.tricks.get(self.declarer, 0) if self.declarer is not None else 0

    def to_dict(self) -> dict[str, object]:
        """JSON-able form (seats as ints, contract in ASCII)."""
        return {
            "kind": self.kind.value,
            "players": self.players,
            "dealer": self.dealer,
            "declarer": self.declarer,
            "contract": self.contract.ascii() if self.contract else None,
            "defence": {str(k): v.value for k, v in self.defence.items()},
            "open_play": self.open_play,
            "tricks": {str(k): v for k, v in self.tricks.items()},
            "dealer_tricks": self.dealer_tricks,
            "ten_checked": self.ten_checked,
            "za_svoimi": self.za_svoimi,
            "conceded": self.conceded,
            "misere_half": self.misere_half,
            "dealer_whist": self.dealer_whist,
            "talon_shown_by_dealer": self.talon_shown_by_dealer,
            "multiplier": self.multiplier,
            "dark_game": self.dark_game,
            "dark_passers": list(self.dark_passers),
            "bombs_earned": list(self.bombs_earned),
            "talon": list(self.talon),
            "offender": self.offender,
            "penalty": {str(k): str(v) for k, v in self.penalty.items()},
            "claimants": [list(c) for c in self.claimants],
            "claim": list(self.claim) if self.claim else None,
            "sheet": [[c, p, str(a), on] for c, p, a, on in self.sheet],
        }
