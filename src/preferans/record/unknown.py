"""Filling in unknown cards (``??``) so that a record kept from one player's view replays.

The auction does not depend on the cards.  The play does, and it also tells
where the cards were: every card played belongs to the seat that played it,
and a seat that did not follow suit (or did not trump) held no other card of
that suit.  So:

1. the auction (and the discard) is replayed with any cards, to learn the
   declarer, the trump and who leads;
2. the play is followed trick by trick (rules.md §6, Kodeks 3.7.6 for the
   all-pass talon leads) to learn who played each card and who was void;
3. the remaining cards are matched to the remaining places (a bipartite
   matching that respects the voids; an unseen discard may take any card);
4. an unseen discard is two cards of the declarer's twelve that he never
   plays, voids first.

A fully played deal has only one answer for the hands; a deal that was not
played accepts any consistent filling.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import ALL_CARDS_MASK, SUIT_MASKS, Card, cards_of
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind
from ..errors import PreferansError
from ..rules import Rules
from ..seats import next_active, seat_count
from .model import DealRecord, RecordError

__all__ = ["complete_cards"]

Cards = tuple[tuple[int, ...], tuple[Card, ...], tuple[Action, ...]]


def complete_cards(d: DealRecord, rules: Rules, *, source: str = "<string>", number: int = 0) -> Cards:
    """Hands, talon and actions with every ``??`` replaced, consistently with the play."""
    if d.complete:
        return d.hands, tuple(c for c in d.talon if c is not None), tuple(a for a in d.actions if a is not None)

    def fail(reason: str) -> RecordError:
        return RecordError(reason, source=source, line=d.line, deal=number)

    # 1. the auction, the discard and the declaration, with any cards
    pinned = list(d.hands)
    start = _to_play(d, rules, pinned, fail)
    if start is None:  # no card was played: any filling will do
        hands, talon = _match(d, pinned, [0] * seat_count(d.players), -1, 0, fail)
        return _with_discard(d, rules, hands, talon, 0, fail)
    deal, first_play = start
    declarer = deal.declarer if deal.declarer is not None else -1
    # 2. who played what, and who was void
    played, voids = _follow_play(deal, d.actions[first_play:], d.stages[first_play:], rules)
    talon_known = 0
    for c in d.talon:
        if c is not None:
            talon_known |= 1 << c
    for s, m in enumerate(played):
        extra = m & ~pinned[s]
        if s == declarer and deal.talon_taken:
            extra &= ~talon_known
        pinned[s] |= extra
    unseen = sum(1 for a in d.actions if a is None)
    # 3. the rest of the cards to the rest of the places
    hands, talon = _match(d, pinned, voids, declarer, unseen, fail)
    # 4. the discard: cards of the declarer's twelve he never plays (void suits first)
    return _with_discard(d, rules, hands, talon, played[declarer] if declarer >= 0 else 0, fail,
                         voids=voids[declarer] if declarer >= 0 else 0)


def _to_play(d: DealRecord, rules: Rules, pinned: list[int], fail: object) -> tuple[Deal, int] | None:
    """Replay up to the first card of the play; returns the deal there and the action index."""
    for _ in range(4):
        hands, talon = _match(d, pinned, [0] * seat_count(d.players), -1, 0, fail)
        deal = Deal(rules, hands, talon, dealer=d.dealer, players=d.players, min_level=d.min_level)
        retry = False
        for i, a in enumerate(d.actions):
            if deal.phase is Phase.PLAY:
                return deal, i
            if a is None:
                if deal.phase is not Phase.DISCARD or deal.declarer is None:
                    raise fail(  # type: ignore[operator]
                        f"an unseen card (??) as action {i + 1}, where the deal is in its {deal.phase} "
                        "phase: only the declarer's discard may be unseen"
                    )
                a = Action(cards_of(deal.hands[deal.declarer])[0])
            elif a < 32 and deal.phase is Phase.DISCARD and deal.declarer is not None \
                    and not deal.hands[deal.declarer] >> a & 1:
                if any(p >> a & 1 for p in pinned) or any(int(a) == int(c) for c in talon):
                    break  # the replay will name the problem
                pinned[deal.declarer] |= 1 << a  # a discarded card was in his hand
                retry = True
                break
            try:
                deal.replay_move(d.actor(i), a)
            except PreferansError:
                return None  # the replay will name the problem
        if not retry:
            return (deal, len(d.actions)) if deal.phase is Phase.PLAY else None
    return None


def _follow_play(
    deal: Deal, actions: tuple[Action | None, ...], stages: tuple[str, ...], rules: Rules
) -> tuple[list[int], list[int]]:
    """Who played each card, and the suits each seat showed out of (rules.md §6)."""
    n = deal.players
    played, voids = [0] * deal.seats, [0] * deal.seats
    active = deal.active
    trump = deal.trump
    kind = deal.kind
    mode = rules.raspas_talon_for(n)
    talon_leads = list(deal.talon) if kind == DealKind.ALL_PASS and mode != "unused" else []
    leader = deal.to_play if deal.to_play is not None else active[0]
    first_hand = deal.first_hand
    trick: list[tuple[int, int]] = []
    tricks_done = 0
    for a, st in zip(actions, stages, strict=False):
        if a is None or a >= 32 or st != "play":
            continue
        seat = next_active(active, leader, len(trick))
        played[seat] |= 1 << a
        lead_card = talon_leads[tricks_done] if tricks_done < len(talon_leads) else None
        led = (lead_card >> 3) if lead_card is not None else (trick[0][1] >> 3 if trick else a >> 3)
        if (trick or lead_card is not None) and a >> 3 != led:
            voids[seat] |= SUIT_MASKS[led]
            if trump is not None and a >> 3 != trump:
                voids[seat] |= SUIT_MASKS[trump]
        trick.append((seat, a))
        if len(trick) < 3:
            continue
        best_seat, best_key = -1, -1
        for s, c in trick:
            key = 16 + (c & 7) if trump is not None and c >> 3 == trump else 8 + (c & 7) if c >> 3 == led else -1
            if key > best_key:
                best_seat, best_key = s, key
        tricks_done += 1
        # Kodeks 3.7.6.1: first hand plays first on the talon tricks and leads trick 3.
        leader = first_hand if tricks_done <= len(talon_leads) else best_seat
        trick = []
    return played, voids


def _match(
    d: DealRecord, pinned: list[int], voids: list[int], declarer: int, unseen: int, fail: object
) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """Give the free cards to the free places: hands (outside their voids), talon, unseen discards."""
    known = 0
    for h in pinned:
        known |= h
    for c in d.talon:
        if c is not None:
            known |= 1 << c
    free = cards_of(ALL_CARDS_MASK & ~known)
    slots: list[tuple[int, int]] = []  # (seat or -1 for the talon, allowed mask)
    for s in d.active:
        need = 10 - pinned[s].bit_count()
        if need < 0:
            raise fail(f"{_name(s)} would hold {pinned[s].bit_count()} cards")  # type: ignore[operator]
        open_ = min(need, unseen) if s == declarer else 0
        slots += [(s, ALL_CARDS_MASK)] * open_ + [(s, ALL_CARDS_MASK & ~voids[s])] * (need - open_)
    slots += [(-1, ALL_CARDS_MASK)] * sum(1 for c in d.talon if c is None)
    if len(slots) != len(free):
        raise fail("the unknown cards (??) do not add up to a deck of 32")  # type: ignore[operator]
    owner = _kuhn(free, slots)
    if owner is None:
        raise fail("the unknown cards (??) cannot be filled in consistently with the play")  # type: ignore[operator]
    hands = list(pinned)
    talon_fill: list[Card] = []
    for c, k in zip(free, owner, strict=True):
        s = slots[k][0]
        if s < 0:
            talon_fill.append(c)
        else:
            hands[s] |= 1 << c
    it = iter(talon_fill)
    return tuple(hands), tuple(c if c is not None else next(it) for c in d.talon)


def _kuhn(cards: tuple[Card, ...], slots: list[tuple[int, int]]) -> list[int] | None:
    """A perfect matching of cards to slots (augmenting paths); ``None`` if there is none."""
    slot_of: list[int] = [-1] * len(slots)  # slot -> card index

    def augment(ci: int, seen: list[bool]) -> bool:
        c = cards[ci]
        for k, (_, allowed) in enumerate(slots):
            if seen[k] or not allowed >> c & 1:
                continue
            seen[k] = True
            if slot_of[k] < 0 or augment(slot_of[k], seen):
                slot_of[k] = ci
                return True
        return False

    for ci in range(len(cards)):
        if not augment(ci, [False] * len(slots)):
            return None
    owner = [0] * len(cards)
    for k, ci in enumerate(slot_of):
        owner[ci] = k
    return owner


def _with_discard(
    d: DealRecord, rules: Rules, hands: tuple[int, ...], talon: tuple[Card, ...], played: int, fail: object,
    voids: int = 0,
) -> Cards:
    """The actions with each unseen discard replaced by a card the declarer never plays."""
    if all(a is not None for a in d.actions):
        return hands, talon, tuple(a for a in d.actions if a is not None)
    deal = Deal(rules, hands, talon, dealer=d.dealer, players=d.players, min_level=d.min_level)
    out: list[Action] = []
    for i, a in enumerate(d.actions):
        if a is None and deal.declarer is not None:
            h = deal.hands[deal.declarer]
            later = sum(1 << x for x in d.actions if x is not None and x < 32) & h
            spare = h & ~played & ~later
            a = Action(cards_of((spare & voids) or spare or h)[0])
        if a is None:
            raise fail("an unseen discard (??) before anybody took the talon")  # type: ignore[operator]
        out.append(a)
        try:
            deal.replay_move(d.actor(i), a)
        except PreferansError:
            break  # the replay will name the problem
    out.extend(a for a in d.actions[len(out):] if a is not None)
    return hands, talon, tuple(out)


def _name(seat: int) -> str:
    return f"seat {seat}"
