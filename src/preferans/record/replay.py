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

from ..actions import Action
from ..cards import ALL_CARDS_MASK, SUIT_MASKS, Card, cards_of
from ..deal import Deal
from ..errors import IllegalAction, PreferansError
from ..pulka import Pulka
from ..rules import Rules
from ..scoring.sheet import Entry, amount_text
from .model import DealRecord, GameRecord, RecordError

__all__ = ["Replay", "complete_cards", "replay", "replay_deal", "states"]

_STAGE_PHASES = {
    "auction": ("bidding", "misere_invite"),
    "discard": ("discard",),
    "contract": ("declare",),
    "whist": ("whist",),
    "defence": ("concession", "defence", "quota_answer"),
    "play": ("play", "defence"),
}
_PHASE_WORDS = {
    "bidding": "in the auction",
    "misere_invite": "waiting for the dealer's answer to a misère invitation",
    "discard": "at the discard",
    "declare": "at the declaration of the contract",
    "whist": "at whisting",
    "concession": "at the declarer's concession",
    "defence": "at the defence's choice (open, closed, quota)",
    "quota_answer": "at the declarer's answer to «за своими»",
    "play": "in the play",
    "over": "over",
}


@dataclass
class Replay:
    """A replayed record: the deals as the engine rebuilt them, and the pulka (if scored)."""

    record: GameRecord
    deals: list[Deal]
    pulka: Pulka | None


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
        phase = deal.phase.value
        stage = stages[i]
        if phase not in _STAGE_PHASES[stage] and phase in _PHASE_WORDS:
            raise _err(
                d, i,
                f"{a} stands on the {stage} line, but the deal is {_PHASE_WORDS[phase]}",
                source, number,
            )  # fmt: skip
        if stage == "play" and phase == "defence" and not deal.completed_tricks and not deal.trick:
            raise _err(d, i, f"{a}: the defence chooses before the first lead on a 'defence' line", source, number)
        try:
            deal.apply(a)
        except PreferansError as e:
            raise _err(d, i, f"{a}: {e}", source, number) from None
    return deal


def states(d: DealRecord, rules: Rules) -> Iterator[Deal]:
    """The deal after each action (the same object, advanced one action at a time)."""
    hands, talon, actions = complete_cards(d, rules)
    deal = Deal(rules, hands, talon, dealer=d.dealer, players=d.players, min_level=d.min_level)
    yield deal
    for a in actions:
        deal.apply(a)
        yield deal


# ---------------------------------------------------------------------------- unknown cards
def complete_cards(
    d: DealRecord, rules: Rules, *, source: str = "<string>", number: int = 0
) -> tuple[tuple[int, ...], tuple[Card, ...], tuple[Action, ...]]:
    """Hands, talon and actions with every ``??`` replaced by a card consistent with the play.

    The auction does not depend on the cards; in the play every card played is
    given to its player and a seat that failed to follow suit (or to trump) is
    given no card of that suit.  Deals that are not played accept any filling.
    """
    if d.complete:
        return d.hands, tuple(c for c in d.talon if c is not None), tuple(a for a in d.actions if a is not None)
    pinned = list(d.hands)  # cards each seat is known to hold
    voids = [0] * d.players  # suit masks a seat cannot hold among its unknown cards
    kept = 0  # cards the declarer plays, so they were not discarded
    known = 0
    for h in d.hands:
        known |= h
    for c in d.talon:
        if c is not None:
            known |= 1 << c
    for _ in range(80):
        hands, talon = _fill(d, pinned, voids, known)
        if hands is None or talon is None:
            break
        deal = _new_deal(d, rules, hands, talon, source, number)
        actions: list[Action] = []
        restart = False
        for i, a in enumerate(d.actions):
            if a is None:  # an unseen discard: a card the declarer is not seen to play
                seat = deal.declarer
                assert seat is not None
                h = deal.hands[seat]
                free = h & ~kept & ~(pinned[seat] & ~_unknown_mask(d, pinned, seat))
                choice = free or (h & ~kept) or h
                a = Action(cards_of(choice)[0])
            else:
                seat = _actor(deal, a)
            if a < 32 and seat is not None and seat >= 0 and not deal.hands[seat] >> a & 1:
                if known >> a & 1 and not _pinned_anywhere(d, a, seat):
                    # the card is in the talon the declarer took, or known elsewhere
                    if deal.phase.value == "play" and deal.declarer == seat and a in deal.talon:
                        kept |= 1 << a
                        restart = True
                        break
                    raise _err(d, i, f"{Card(a)} is not in that player's hand", source, number)
                if deal.phase.value == "play" and deal.declarer == seat and deal.discard >> a & 1:
                    kept |= 1 << a
                    restart = True
                    break
                pinned[seat] |= 1 << a
                known |= 1 << a
                restart = True
                break
            try:
                deal.apply(a)
            except IllegalAction as e:
                if deal.phase.value == "play" and a < 32 and seat is not None and seat >= 0:
                    extra = _void_needed(deal, a, seat)
                    if extra & ~voids[seat]:
                        voids[seat] |= extra
                        restart = True
                        break
                raise _err(d, i, f"{a}: {e}", source, number) from None
            actions.append(a)
        if not restart:
            return hands, talon, tuple(actions)
    raise RecordError(
        "the unknown cards (??) cannot be filled in consistently with the play",
        source=source, line=d.line, deal=number,
    )  # fmt: skip


def _unknown_mask(d: DealRecord, pinned: list[int], seat: int) -> int:
    """Cards pinned to a seat beyond what the record shows (learnt from the play)."""
    return pinned[seat] & ~d.hands[seat]


def _pinned_anywhere(d: DealRecord, card: int, seat: int) -> bool:
    return any(h >> card & 1 for s, h in enumerate(d.hands) if s != seat)


def _actor(deal: Deal, a: Action) -> int | None:
    if deal.phase.value == "play":
        return deal.to_play
    if deal.phase.value == "discard":
        return deal.declarer
    return deal.to_act


def _void_needed(deal: Deal, a: int, seat: int) -> int:
    """The suits a seat must lack for card ``a`` to be legal (follow suit, then trump: spec §6)."""
    trick = deal.trick
    if not trick:
        return 0
    led = trick[0][1] >> 3
    mask = SUIT_MASKS[led] if a >> 3 != led else 0
    trump = deal.trump
    if trump is not None and a >> 3 != trump and a >> 3 != led:
        mask |= SUIT_MASKS[trump]
    return mask


def _fill(
    d: DealRecord, pinned: list[int], voids: list[int], known: int
) -> tuple[tuple[int, ...] | None, tuple[Card, ...] | None]:
    """Give the cards nobody is known to hold to the unknown places, respecting voids."""
    free = list(cards_of(ALL_CARDS_MASK & ~known))
    hands = list(pinned)
    need = {s: 10 - pinned[s].bit_count() for s in d.active}
    if any(v < 0 for v in need.values()):
        return None, None
    talon_known = [c for c in d.talon if c is not None]
    talon_need = 2 - len(talon_known)
    # Most constrained seats first; each takes cards outside its void suits.
    for s in sorted(d.active, key=lambda s: -voids[s].bit_count()):
        n = need[s]
        take = [c for c in free if not voids[s] >> c & 1][:n]
        if len(take) < n:
            return None, None
        for c in take:
            hands[s] |= 1 << c
            free.remove(c)
    if len(free) != talon_need:
        return None, None
    it = iter(free)
    talon = tuple(c if c is not None else next(it) for c in d.talon)
    return tuple(hands), talon


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
    sheet_ok = True
    n = len(record.deals)

    def fail(e: RecordError) -> None:
        if errors is None:
            raise e
        errors.append(e)

    for number, d in enumerate(record.deals, 1):
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
                    "(Kodeks 3.2.2, 3.7.7)", source=source, line=d.line, deal=number))
            if d.min_level != pulka.min_level:
                fail(RecordError(
                    f"min_level: the record says {d.min_level}, but after {pulka.raspas_series} all-pass(es) "
                    f"the lowest game is {pulka.min_level} (spec §8.3)", source=source, line=d.line, deal=number))
        try:
            deal = replay_deal(d, rules, source=source, number=number)
        except RecordError as e:
            fail(e)
            sheet_ok = False
            continue
        deals.append(deal)
        if not deal.is_over:
            if number < n:
                fail(RecordError(f"deal {number} is not finished, but another deal follows",
                                 source=source, line=d.line, deal=number))
                sheet_ok = False
            elif d.entries:
                fail(RecordError(f"deal {number} is not finished but has score lines",
                                 source=source, line=d.line, deal=number))
            continue
        if pulka is None or not sheet_ok:
            continue
        try:
            score = pulka.record(deal.result, help_to=d.help_to)
        except PreferansError as e:
            fail(RecordError(f"score: {e}", source=source, line=d.line, deal=number))
            sheet_ok = False
            continue
        if d.entries is not None and tuple(score.entries) != d.entries:
            fail(RecordError(
                f"score: deal {number} writes {_entries_text(score.entries, record.players)}, "
                f"the record says {_entries_text(d.entries, record.players)}",
                source=source, line=d.line, deal=number))  # fmt: skip
    if pulka is not None and record.stopped and sheet_ok:
        pulka.stop()
    return Replay(record, deals, pulka)


def _entries_text(entries: tuple[Entry, ...] | list[Entry], names: tuple[str, ...]) -> str:
    parts = []
    for e in entries:
        on = f" on {names[e.on]}" if e.column == "whists" else ""
        parts.append(f"{names[e.player]} {e.column}{on} {amount_text(e.amount)} {e.why}".rstrip())
    return "; ".join(parts) or "nothing"
