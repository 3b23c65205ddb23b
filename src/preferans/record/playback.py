"""Replaying a record through the engine: every deal action by action, and the sheet.

:func:`replay_deal` rebuilds a :class:`~preferans.Deal` from a
:class:`DealRecord`; unknown cards (``??``) are filled in consistently with
the play (every card a seat plays is his; a seat that did not follow suit
holds none of it; an unseen discard is two cards the declarer never plays).
:func:`replay` replays a whole record and, for a pulka, writes every deal on
a :class:`~preferans.Pulka` and compares the sheet entries with the record's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..actions import Action
from ..cards import Card
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind, DealResult
from ..errors import PreferansError, ScoreError
from ..rules import Rules
from ..scoring.pulka import Pulka
from ..scoring.score import penalty_from_entries
from ..scoring.sheet import Entry, amount_text
from .model import DealRecord, GameRecord, RecordError
from .unknown import complete_cards

__all__ = ["Replay", "complete_cards", "replay", "replay_deal", "states"]

_STAGE_PHASES: dict[str, tuple[Phase, ...]] = {
    "auction": (Phase.BIDDING, Phase.MISERE_INVITE),
    "discard": (Phase.DISCARD,),
    "contract": (Phase.DECLARE,),
    "whist": (Phase.WHIST,),
    "defence": (Phase.CONCESSION, Phase.DEFENCE, Phase.QUOTA_ANSWER, Phase.MISERE_CATCH),
    "play": (Phase.PLAY, Phase.DEFENCE, Phase.LEAD_PENALTY, Phase.CLAIM_ANSWER),
    "redraw": (Phase.REDRAW,),
}
_PHASE_WORDS: dict[Phase, str] = {
    Phase.BIDDING: "in the auction",
    Phase.MISERE_INVITE: "waiting for the dealer's answer to a misère invitation",
    Phase.DISCARD: "at the discard",
    Phase.DECLARE: "at the declaration of the contract",
    Phase.WHIST: "at whisting",
    Phase.CONCESSION: "at the declarer's concession",
    Phase.DEFENCE: "at the defence's choice (open, closed, quota)",
    Phase.QUOTA_ANSWER: "at the declarer's answer to «за своими»",
    Phase.PLAY: "in the play",
    Phase.OVER: "over",
    Phase.REDRAW: "at the dealer's redraw of the talon",
    Phase.LEAD_PENALTY: "at the declarer's choice of a lead penalty",
    Phase.CLAIM_ANSWER: "at the answer to a claim",
    Phase.MISERE_CATCH: "at the misère catchers' «ловлю» / «доверяю»",
}


@dataclass
class Replay:
    """A replayed record: the deals as the engine rebuilt them, and the pulka (if scored).

    ``numbers`` are the (1-based) numbers of the deals in ``deals``: after a lenient
    replay a deal that did not replay is missing.
    """

    record: GameRecord
    deals: list[Deal]
    pulka: Pulka | None
    numbers: list[int]

    def deal(self, number: int) -> Deal | None:
        """Deal ``number`` (1-based) as replayed, or ``None`` if it did not replay."""
        try:
            return self.deals[self.numbers.index(number)]
        except ValueError:
            return None


def _err(d: DealRecord, index: int, reason: str, source: str, number: int) -> RecordError:
    return RecordError(reason, source=source, line=d.line_of(index), deal=number)


def replay_deal(d: DealRecord, rules: Rules, *, source: str = "<string>", number: int = 0) -> Deal:
    """The deal rebuilt from its record; raises :class:`RecordError` at the first bad action."""
    hands, talon, actions = complete_cards(d, rules, source=source, number=number)
    return _run(d, rules, hands, talon, actions, source, number)


def _new_deal(d: DealRecord, rules: Rules, hands: tuple[int, ...], talon: tuple[Card, ...],
              source: str, number: int) -> Deal:
    try:
        return Deal(rules, hands, talon, dealer=d.dealer, players=d.players, min_level=d.min_level)
    except PreferansError as e:
        raise RecordError(f"deal {number}: {e}", source=source, line=d.line, deal=number) from None


def _run(d: DealRecord, rules: Rules, hands: tuple[int, ...], talon: tuple[Card, ...],
         actions: tuple[Action, ...], source: str, number: int) -> Deal:
    deal = _new_deal(d, rules, hands, talon, source, number)
    stages = d.stages
    for i, a in enumerate(actions):
        phase = deal.phase
        stage = stages[i]
        if stage in _STAGE_PHASES and phase not in _STAGE_PHASES[stage] and phase in _PHASE_WORDS:
            raise _err(
                d, i,
                f"{a} stands on the {stage} line, but the deal is {_PHASE_WORDS[phase]}",
                source, number,
            )  # fmt: skip
        if stage == "play" and phase == Phase.DEFENCE and not deal.completed_tricks and not deal.trick:
            raise _err(d, i, f"{a}: the defence chooses before the first lead on a 'defence' line", source, number)
        actor = d.actor(i)
        try:
            deal.replay_move(actor, a)
        except PreferansError as e:
            raise _err(d, i, f"{a}: {e}", source, number) from None
    return deal


def states(d: DealRecord, rules: Rules) -> Iterator[Deal]:
    """The deal after each action (the same object, advanced one action at a time)."""
    hands, talon, actions = complete_cards(d, rules)
    deal = Deal(rules, hands, talon, dealer=d.dealer, players=d.players, min_level=d.min_level)
    yield deal
    for i, a in enumerate(actions):
        deal.replay_move(d.actor(i), a)
        yield deal


# ---------------------------------------------------------------------------- whole records
def replay(
    record: GameRecord, *, source: str = "<string>", errors: list[RecordError] | None = None
) -> Replay:
    """Replay every deal; for a pulka, write each on a :class:`Pulka` and check the sheet.

    Strict when ``errors`` is ``None`` (the first problem raises); otherwise
    problems are appended to ``errors`` and the replay goes on with the next
    deal (the sheet is no longer checked after a deal that does not replay).
    """
    rules = record.rules
    pulka = Pulka(rules, record.players, first_dealer=record.first_dealer) if record.scored else None
    deals: list[Deal] = []
    numbers: list[int] = []
    sheet_ok = True
    n = len(record.deals)

    def fail(e: RecordError) -> None:
        if errors is None:
            raise e
        errors.append(e)

    for number, d in enumerate(record.deals, 1):
        if d.sheet:  # lines written by hand: onto the sheet as they stand
            if pulka is not None and sheet_ok:
                try:
                    written = pulka.record(_sheet_result(d, pulka))
                except PreferansError as e:
                    fail(RecordError(f"score: {e}", source=source, line=d.line, deal=number))
                    sheet_ok = False
                    continue
                if tuple(written.entries) != d.entries:  # pragma: no cover - written as they stand
                    fail(RecordError(f"score: deal {number} was not written as recorded", source=source,
                                     line=d.line, deal=number))  # fmt: skip
            continue
        if d.players != len(record.players):
            fail(RecordError(f"deal {number} is for {d.players} players, the record has {len(record.players)}",
                             source=source, line=d.line, deal=number))
            sheet_ok = False
            continue
        if pulka is not None and sheet_ok:
            names = record.players
            if d.dealer != pulka.next_dealer:
                fail(RecordError(
                    f"dealer: {names[d.dealer]} deals, but the deal passes to {names[pulka.next_dealer]} "
                    "(Kodeks 3.2.2, 3.7.7)", source=source, line=d.line_of_key("dealer"), deal=number))
            if d.min_level != pulka.min_level:
                fail(RecordError(
                    f"min_level: the record says {d.min_level}, but after {pulka.raspas_series} all-pass(es) "
                    f"the lowest game is {pulka.min_level} (rules.md §8.3)", source=source,
                    line=d.line_of_key("min_level"), deal=number))
        try:
            deal = replay_deal(d, rules, source=source, number=number)
        except RecordError as e:
            fail(e)
            sheet_ok = False
            continue
        deals.append(deal)
        numbers.append(number)
        if not deal.is_over:
            if number < n:
                fail(RecordError(f"deal {number} is not finished, but another deal follows",
                                 source=source, line=d.line, deal=number))
                sheet_ok = False
            elif d.entries:
                fail(RecordError(f"deal {number} is not finished but has score lines",
                                 source=source, line=d.line_of_key("score"), deal=number))
            continue
        if pulka is None or not sheet_ok:
            continue
        result = deal.result
        try:
            if result.kind is DealKind.PENALTY:
                if d.entries is None:
                    raise ScoreError(
                        "a deal ended by an exposed talon (Kodeks 3.3.16.3) needs its score lines: "
                        "they hold the assessment of what each player would have played"
                    )
                result = penalty_from_entries(result, d.entries)
            score = pulka.record(result, help_to=d.help_to)
        except PreferansError as e:
            fail(RecordError(f"score: {e}", source=source, line=d.line_of_key("score"), deal=number))
            sheet_ok = False
            continue
        if d.entries is not None and tuple(score.entries) != d.entries:
            fail(RecordError(
                f"score: deal {number} writes {_entries_text(score.entries, record.players)}, "
                f"the record says {_entries_text(d.entries, record.players)}",
                source=source, line=d.line_of_key("score"), deal=number))  # fmt: skip
    if pulka is not None and record.stopped and sheet_ok:
        pulka.stop()
    return Replay(record, deals, pulka, numbers)


def _sheet_result(d: DealRecord, pulka: Pulka) -> DealResult:
    lines = tuple((e.column, e.player, Fraction(e.amount), e.on) for e in d.entries or ())
    return DealResult(DealKind.SHEET, d.players, pulka.next_dealer, sheet=lines)


def _entries_text(entries: tuple[Entry, ...] | list[Entry], names: tuple[str, ...]) -> str:
    parts = []
    for e in entries:
        on = f" on {names[e.on]}" if e.column == "whists" else ""
        parts.append(f"{names[e.player]} {e.column}{on} {amount_text(e.amount)} {e.why}".rstrip())
    return "; ".join(parts) or "nothing"
