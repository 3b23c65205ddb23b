"""Records from games played through the library: a :class:`Deal`, a :class:`Pulka`, a table.

>>> from preferans import Deal, Rules
>>> deal = Deal.new(Rules.preset("sochi"), seed=7)
>>> for a in ("6♠", "pass", "pass", "K♥", "J♦", "6♠", "pass", "pass"):
...     deal.apply(a)
>>> rec = record_from_deal(deal)
>>> d = rec.deals[0]
>>> d.stages
('auction', 'auction', 'auction', 'discard', 'discard', 'contract', 'whist', 'whist')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import CLAIM_BASE, Action
from ..cards import Card
from ..engine.deal import Deal
from ..engine.result import DealKind
from ..scoring.pulka import Pulka
from ..scoring.sheet import Entry
from .model import DealRecord, GameRecord, RecordError

__all__ = [
    "deal_record",
    "dealt_talon",
    "default_names",
    "record_from_deal",
    "record_from_deals",
    "record_from_pulka",
    "record_from_table",
]

_STAGE_OF_PHASE = {
    "bidding": "auction",
    "misere_invite": "auction",
    "discard": "discard",
    "declare": "contract",
    "whist": "whist",
    "concession": "defence",
    "defence": "defence",
    "quota_answer": "defence",
    "play": "play",
    "redraw": "redraw",
    "lead_penalty": "play",
    "claim_answer": "play",
    "misere_catch": "defence",
}


def dealt_talon(deal: Deal) -> tuple[Card, ...]:
    """The talon as dealt (after a redraw, Kodeks 3.3.17, ``deal.talon`` holds other cards)."""
    return tuple(getattr(deal, "initial_talon", None) or deal.talon)


def default_names(players: int) -> tuple[str, ...]:
    """``A B C`` (and ``D``): the names of a record made without names."""
    return tuple("ABCD"[:players])


def stage_of(deal: Deal) -> str:
    """The record stage of the next action of ``deal`` (see :data:`~preferans.record.model.STAGES`)."""
    started = bool(deal.completed_tricks) or any(s >= 0 and s in deal.active for s, _ in deal.trick)
    if started:
        return "play"  # a defence choice during play is written in the trick (seed 002 p.28)
    return _STAGE_OF_PHASE.get(deal.phase.value, "defence")


def deal_record(
    deal: Deal,
    *,
    entries: Sequence[Entry] | None = None,
    help_to: int | None = None,
    comment: str = "",
) -> DealRecord:
    """The record of one deal (finished or not), with all cards known."""
    replay = Deal(
        deal.rules,
        deal.initial_hands,
        dealt_talon(deal),
        dealer=deal.dealer,
        players=deal.players,
        min_level=deal.min_level,
    )
    actions: list[Action | None] = []
    stages: list[str] = []
    reporters: list[tuple[int, int]] = []
    for seat, a in deal.moves:
        if a.is_irregular:  # reported by a player, not made in turn
            stages.append("claim" if a >= CLAIM_BASE else "report")
            reporters.append((len(actions), seat))
        else:
            stages.append(stage_of(replay))
        actions.append(a)
        replay.replay_move(seat, a)
    return DealRecord(
        players=deal.players,
        dealer=deal.dealer,
        hands=tuple(deal.initial_hands),
        talon=dealt_talon(deal),
        actions=tuple(actions),
        stages=tuple(stages),
        entries=None if entries is None else tuple(entries),
        min_level=deal.min_level,
        help_to=help_to,
        comment=comment,
        reporters=tuple(reporters),
    )


def record_from_deal(
    deal: Deal, *, names: Sequence[str] | None = None, headers: Mapping[str, str] | None = None
) -> GameRecord:
    """A record holding one deal and no score (``scoring: none``)."""
    return record_from_deals([deal], names=names, headers=headers)


def record_from_deals(
    deals: Sequence[Deal], *, names: Sequence[str] | None = None, headers: Mapping[str, str] | None = None
) -> GameRecord:
    """A record of independent deals (an arena match, a problem set): no sheet."""
    if not deals:
        raise RecordError("record_from_deals: give at least one deal")
    rules = deals[0].rules
    players = deals[0].players
    for i, d in enumerate(deals, 1):
        if d.rules != rules or d.players != players:
            raise RecordError(f"deal {i}: all deals of a record share the rules and the number of players")
    return GameRecord(
        players=_names(names, players),
        rules=rules,
        deals=tuple(deal_record(d) for d in deals),
        headers=dict(headers or {}),
        first_dealer=deals[0].dealer,
        scored=False,
    )


def record_from_pulka(
    pulka: Pulka,
    deals: Sequence[Deal],
    *,
    headers: Mapping[str, str] | None = None,
) -> GameRecord:
    """The record of a pulka played through the engine: ``deals`` are its deals in order.

    Every deal written on the pulka's sheet must be among ``deals`` (its result
    is compared); a last, unfinished deal may follow.
    """
    # Lines written by hand (DealKind.SHEET) stand between the deals without one of ``deals``.
    played = [i for i, r in enumerate(pulka.results) if r.kind is not DealKind.SHEET]
    finished = [d for d in deals if d.is_over]
    if len(finished) != len(played) or any(not d.is_over for d in deals[: len(played)]):
        raise RecordError(
            f"record_from_pulka: the sheet holds {len(played)} deals but {len(finished)} finished "
            "deals were given; give every deal of the pulka in order (an unfinished one last)"
        )
    if len(deals) > len(played) + 1:
        raise RecordError("record_from_pulka: only the last deal may be unfinished")
    helps = pulka.help_choices
    history = pulka.sheet.history
    out: list[DealRecord] = []
    given = iter(deals)
    for i, r in enumerate(pulka.results):
        if r.kind is DealKind.SHEET:
            n = pulka.players
            out.append(DealRecord(players=n, dealer=0, hands=(0,) * n, talon=(), sheet=True,
                                  entries=history[i].entries))  # fmt: skip
            continue
        d = next(given)
        if r.kind is DealKind.PENALTY:
            r = dataclasses.replace(r, penalty={})  # Kodeks 3.3.16.3: the sheet holds the assessment
        if d.result != r:
            raise RecordError(f"deal {i + 1}: its result differs from deal {i + 1} on the pulka's sheet")
        out.append(deal_record(d, entries=history[i].entries, help_to=helps[i]))
    out.extend(deal_record(d) for d in given)
    return GameRecord(
        players=tuple(pulka.names),
        rules=pulka.rules,
        deals=tuple(out),
        headers=dict(headers or {}),
        first_dealer=pulka.first_dealer,
        scored=True,
        stopped=bool(getattr(pulka, "_stopped", False)),
    )


def record_from_table(table: Any, *, headers: Mapping[str, str] | None = None) -> GameRecord:
    """The record of a :class:`preferans.table.Table` game (terminal, web): its pulka and deals."""
    deals: list[Deal] = []
    for log in table.log:
        d = Deal.new(table.rules, players=table.players, dealer=log.dealer, seed=log.seed, min_level=log.min_level)
        for text in log.actions:
            d.apply(d.parse_action(text) if isinstance(text, str) else Action(text))
        deals.append(d)
    if deals and not deals[-1].moves and not deals[-1].is_over:
        deals.pop()  # a deal dealt but not begun is not part of the game yet
    return record_from_pulka(table.pulka, deals, headers=headers)


def _names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if names is None:
        return default_names(players)
    out = tuple(names)
    if len(out) != players:
        raise RecordError(f"names: give {players} names, not {len(out)}")
    return out
