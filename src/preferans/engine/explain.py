"""Why an action is illegal: messages that name the rule.

Only called on the error path, so it may be slow and thorough.
"""

from __future__ import annotations

from ..actions import (
    BIDS,
    DARK_PASS_ID,
    HALF_WHIST_ID,
    HERE_ID,
    INVITE_ID,
    TAKE_TALON_ID,
    Action,
)
from ..cards import SUIT_SYMBOLS, Card, format_hand
from ._state import DealFields
from .ladder import MISERE_KINDS, ladder_positions

__all__ = ["explain_illegal"]


def _legal_text(deal: DealFields) -> str:
    legal = deal.legal_actions()
    shown = ", ".join(str(a) for a in legal[:12])
    more = f", … ({len(legal)} in all)" if len(legal) > 12 else ""
    return f"legal now: {shown}{more}"


def explain_illegal(deal: DealFields, a: Action) -> str:
    phase = deal.phase.value
    seat = deal.to_act
    if phase == "play":
        return _explain_card(deal, a)
    if phase == "discard":
        if a.is_card:
            return (
                f"cannot discard {a}: the declarer (seat {seat}) does not hold it; "
                f"his cards: {format_hand(deal.hand(seat or 0))}"
            )
        return f"{a}: the declarer must now discard two cards face down (seed-002 p.21); {_legal_text(deal)}"
    if phase == "bidding":
        return _explain_call(deal, a)
    if phase == "declare" and a.is_bid:
        win = deal.winning_bid
        return (
            f"cannot declare {a}: the contract may not be lower than the winning bid {win} "
            f"(Kodeks 3.3.11, seed-002 p.21); {_legal_text(deal)}"
        )
    if phase == "whist" and a == HALF_WHIST_ID:
        return (
            "half-whist is only for the second defender after the first passed, on levels "
            f"{sorted(deal.rules.half_whist_levels)} (half_whist_levels, rules.md §5.4); {_legal_text(deal)}"
        )
    return f"{a} is not legal in the {phase} phase (seat {seat} to act); {_legal_text(deal)}"


def _explain_card(deal: DealFields, a: Action) -> str:
    seat = deal.to_play
    assert seat is not None
    if not a.is_card:
        return f"{a}: cards are being played now (seat {seat} to play); {_legal_text(deal)}"
    card = Card(a)
    hand = deal.hand(seat)
    if not hand >> card & 1:
        return f"seat {seat} does not hold {card}; cards: {format_hand(hand)}"
    led = deal.trick[0][1].suit
    if hand & (0xFF << (8 * led)):
        return f"seat {seat} must follow suit {SUIT_SYMBOLS[led]}: {card} is illegal (rules.md §6, Kodeks 3.6.7)"
    trump = deal.trump
    return (
        f"seat {seat} has no {SUIT_SYMBOLS[led]} and must trump with {SUIT_SYMBOLS[trump or 0]} (rules.md §6)"
    )


def _explain_call(deal: DealFields, a: Action) -> str:
    seat = deal.to_act
    assert seat is not None
    rules = deal.rules
    view = deal._auction_view(seat)
    best = deal.highest_bid
    legal_bids = view.legal_bids()
    if a == HERE_ID:
        if best is None:
            return "here: there is no bid to hold yet (Kodeks 3.3.8)"
        who = {
            "first_hand_only": "only first hand holds (Kodeks 3.3.8)",
            "senior_only": "only the senior of two contenders holds (Kodeks 3.3.8)",
            "after_pass_any": "a bid may be held only after somebody passed (seed 002 p.19)",
            "via_passed_player": "only the senior holds, across a passed player, never on 6♠ (club rules)",
        }[rules.hold_rule]
        return (
            f"here: seat {seat} may not hold {best} under hold_rule={rules.hold_rule!r}: {who}; "
            "a held bid must be overcalled (rules.md §3.2.6)"
        )
    if a == TAKE_TALON_ID:
        return "talon: only third hand, after first and second hand passed, may take the talon unbid (Kodeks 3.3.15)"
    if a == INVITE_ID:
        return "invite: misère «пополам» is for 4 players, once per deal, as the player's first call (Kodeks 3.6.9)"
    if a == DARK_PASS_ID or (a.is_bid and a.is_dark):
        if not rules.dark_bids:
            return f"{a}: dark calls need the table agreement dark_bids=True (Kodeks 3.3.19)"
        return f"{a}: a dark call is made before looking at the cards, so only as a player's first call (Kodeks 3.3.19)"
    c = a.contract
    if c is None:
        return f"{a} is not a call of the auction; {_legal_text(deal)}"
    bid = BIDS.index(c)
    if bid in MISERE_KINDS:
        if view.has_called:
            return (
                f"misère must be a player's first call: seat {seat} has already bid "
                "(Kodeks 3.3.9, «мизер кабальный»)"
            )
        if view.misere_taken:
            return "misère has already been bid in this auction; only a 9-level game overcalls it (Kodeks 3.6.4)"
        if c.without_talon and not rules.without_talon_bids:
            return f"{a}: bids without the talon need without_talon_bids=True (seed-002 p.17)"
        return f"{a} is not above the current bid {best} (Kodeks 3.3.8); {_legal_text(deal)}"
    if c.without_talon and not rules.without_talon_bids:
        return f"{a}: bids without the talon need without_talon_bids=True (seed-002 p.17)"
    if view.is_misere_bidder and not rules.misere_bidder_may_continue:
        return f"{a}: after bidding misère a player may only pass (misere_bidder_may_continue=False, rules.md §3.2.7)"
    low = view.lowest_trick_level()
    if c.level < low:
        if view.dark_passes:
            return (
                f"{a}: after {view.dark_passes} dark pass(es) only a {6 + view.dark_passes}-level game "
                f"or higher overcalls (Kodeks 3.3.19)"
            )
        return f"{a}: after the all-pass series the lowest game is {low} (raspas_exit_levels)"
    pos = ladder_positions(rules.misere_rank, rules.without_talon_bids)
    if best is not None and pos[bid] <= pos[BIDS.index(best)]:
        if best.is_misere:
            return f"{a}: only a 9-level game overcalls misère (Kodeks 3.6.4)"
        lowest = next((str(BIDS[b]) for b in legal_bids if b not in MISERE_KINDS), None)
        hint = f"the lowest legal bid is {lowest}" if lowest else "no higher bid is possible"
        return f"insufficient bid {a}: the current bid is {best}; {hint} (Kodeks 3.3.8, 3.3.11)"
    if not rules.jump_bids:
        nxt = next((str(BIDS[b]) for b in legal_bids if b not in MISERE_KINDS), None)
        return (
            f"jump bid {a} is not allowed with jump_bids=False: bids go up one step, "
            f"the next is {nxt} (Kodeks 3.3.8)"
        )
    return f"{a} is not legal now; {_legal_text(deal)}"
