"""Shared builders for the deal tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from preferans import Deal, Rules
from preferans.cards import ALL_CARDS_MASK, cards_of, parse_hand
from preferans.seats import active_seats, seat_count


def deal_with(
    rules: Rules | str = "sochi",
    *,
    fixed: dict[int, str] | None = None,
    talon: str | None = None,
    dealer: int = 0,
    players: int = 3,
    min_level: int = 6,
) -> Deal:
    """A deal in which some seats hold the given cards; the rest is filled in order."""
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    fixed = fixed or {}
    hands = [parse_hand(fixed.get(s, "")) for s in range(seat_count(players))]
    tal = parse_hand(talon or "")
    used = tal
    for h in hands:
        used |= h
    free = list(cards_of(ALL_CARDS_MASK & ~used))
    active = active_seats(dealer, players)
    for s in active:
        while hands[s].bit_count() < 10:
            hands[s] |= 1 << free.pop(0)
    while tal.bit_count() < 2:
        tal |= 1 << free.pop(0)
    return Deal(rules, hands, cards_of(tal), dealer=dealer, players=players, min_level=min_level)


def play(deal: Deal, actions: Iterable[str] | str) -> Deal:
    if isinstance(actions, str):
        actions = [a.strip() for a in actions.split(",")]
    for a in actions:
        deal.apply(a)
    return deal


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def state_signature(deal: Deal) -> tuple[object, ...]:
    """Everything that defines a deal's state, for exact undo checks."""
    return (deal._save(), tuple(deal.moves), deal.legal_actions())


def seats(seq: Sequence[int]) -> list[int]:
    return list(seq)
