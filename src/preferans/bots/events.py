"""What a bot is told between its decisions: a game begins, a deal begins, a deal's outcome, the end.

A bot decides from one :class:`~preferans.Observation` at a time, but one bot
serves many deals (and, in the arena, many seatings).  Every part that seats
bots — the arena, :class:`preferans.table.Table`, the web server — tells each
bot of these events through :meth:`~preferans.bots.Bot.tell_game`,
:meth:`~preferans.bots.Bot.tell_deal`, :meth:`~preferans.bots.Bot.tell_result`
and :meth:`~preferans.bots.Bot.tell_end`; our own bots ignore them, a bot
program receives them as the protocol's ``game``, ``deal``, ``result`` and
``end`` messages (``docs/bot-protocol.md``).

>>> from preferans import Deal, Rules
>>> rules = Rules()
>>> deal = Deal.new(rules, seed=3)
>>> for a in ("pass", "pass", "pass"):
...     deal.apply(a)
>>> deal.phase.value
'play'
>>> while not deal.is_over:
...     deal.apply(deal.legal_actions()[0])
>>> outcome = deal_outcome(1, deal.result, rules)
>>> outcome.summary, outcome.tricks(), outcome.to_dict()["written"]
('all-pass A3 B4 C3', [3, 4, 3], [{'column': 'mountain', 'player': 1, 'amount': 1, 'on': None, 'why': 'all-pass'}])
>>> outcome.to_dict()["net_exact"], sum(outcome.net)
(['10/3', '-20/3', '10/3'], Fraction(0, 1))
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine.result import DealResult
from ..rules import Rules
from ..scoring import Amount, DealScore, Entry, deal_label, entries_net, score_deal
from ..seats import seat_count

__all__ = ["DealOutcome", "DealStart", "GameEnd", "GameStart", "deal_outcome", "number", "rules_digest"]


def rules_digest(rules: Rules) -> str:
    """A short fingerprint of every field of ``rules`` (16 hex digits of SHA-256).

    Two tables with the same digest play by the same conventions; a bot may
    cache what it derives from a ``rules`` message under it.

    >>> rules_digest(Rules()) == rules_digest(Rules.preset("sochi")) != rules_digest(Rules.preset("kodeks"))
    True
    """
    text = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def number(x: Amount) -> int | float:
    """An amount as a JSON number: exact when whole (and for halves), else the nearest float."""
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else float(x)
    return x


def _exact(x: Amount) -> str:
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else str(f)


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game begins: a pulka (``scoring="pulka"``) or a run of deals each scored alone
    (``scoring="deals"``, the arena).  ``seat`` is the bot's seat for the whole game,
    or ``None`` when it changes from deal to deal (the arena's seatings)."""

    players: int
    rules_digest: str
    scoring: str = "pulka"
    seat: int | None = None
    names: tuple[str, ...] = ()
    first_dealer: int = 0
    max_deals: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "seat": self.seat, "names": list(self.names),
            "scoring": self.scoring, "first_dealer": self.first_dealer, "max_deals": self.max_deals,
            "rules_digest": self.rules_digest,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class DealStart:
    """Deal ``number`` (from 1) begins with the bot in ``seat``.

    ``min_level`` is the lowest game allowed (after an all-pass series, spec §8.3);
    ``raspas_step`` the step an all-pass of this deal would have in its series
    (1 = the first, priced ``raspas_price``).
    """

    number: int
    seat: int
    dealer: int
    players: int
    rules_digest: str
    min_level: int = 6
    raspas_step: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "seat": self.seat, "dealer": self.dealer, "players": self.players,
            "first_hand": (self.dealer + 1) % self.players, "min_level": self.min_level,
            "raspas_step": self.raspas_step, "rules_digest": self.rules_digest,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """Deal ``number`` is over: what happened (``result``), what it wrote on the sheet
    (``written``, help and closing moves of a pulka included) and what that is worth
    to each seat (``net``, whists by the closed formula of spec §11.2; sums to zero)."""

    number: int
    result: DealResult
    written: tuple[Entry, ...]
    net: tuple[Fraction, ...]
    summary: str

    def tricks(self) -> list[int]:
        """Tricks per seat (the 4-handed dealer's talon tricks on an all-pass included; in гусарик
        the dummy's as seat 2, counting for the whister)."""
        out = [self.result.tricks.get(s, 0) for s in range(seat_count(self.result.players))]
        if self.result.players == 4:
            out[self.result.dealer] += self.result.dealer_tricks
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "summary": self.summary,
            "tricks": self.tricks(),
            "written": [_entry(e) for e in self.written],
            "net": [number(x) for x in self.net],
            "net_exact": [_exact(x) for x in self.net],
            "result": self.result.to_dict(),
        }


def _entry(e: Entry) -> dict[str, Any]:
    on = e.on if e.column == "whists" else None
    return {"column": e.column, "player": e.player, "amount": number(e.amount), "on": on, "why": e.why}


def deal_outcome(
    number: int, result: DealResult, rules: Rules, *, score: DealScore | None = None,
    names: Sequence[str] = (), raspas_step: int = 1,
) -> DealOutcome:
    """The outcome of a finished deal: ``score`` is what a pulka wrote for it
    (:meth:`preferans.scoring.pulka.Pulka.record`); without one the deal is scored
    alone (:func:`preferans.scoring.score_deal`), as the arena scores it."""
    entries = score.entries if score is not None else tuple(score_deal(result, rules, raspas_step=raspas_step))
    net = tuple(entries_net(entries, result.players, rules))
    labels = tuple(names) if len(names) == result.players else tuple("ABCD"[: result.players])
    summary = score.label if score is not None and score.label else deal_label(result, labels)
    return DealOutcome(number, result, tuple(entries), net, summary)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The game is over after ``deals`` deals: ``reason`` is ``pool_closed``,
    ``stopped`` (by agreement), ``max_deals`` or ``finished`` (the arena's run);
    ``net`` is each seat's settlement of a pulka (``None`` in the arena)."""

    deals: int
    reason: str
    net: tuple[Fraction, ...] | None = None
    sheet: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals, "reason": self.reason,
            "net": None if self.net is None else [number(x) for x in self.net],
            "net_exact": None if self.net is None else [_exact(x) for x in self.net],
            "sheet": self.sheet,
        }  # fmt: skip
