"""Why an action is illegal, in the player's words, with the rule in brackets.

The reason is a :class:`~preferans.i18n.Msg`: ``str()`` of the error is
English as before; a front end shows it in the player's language with
``preferans.i18n.text(error, lang)``.  It is addressed to the player who tried
the action ("You have no ♠, so you must trump with ♥").  Only called on the
error path, so it may be slow and thorough.
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
from ..i18n import Call, Joined, Msg
from ..option_words import Option, OptionValue
from ._state import DealFields, Phase
from .ladder import MISERE_KINDS, ladder_positions

__all__ = ["explain_illegal"]


def _call(a: int) -> Call:
    return Call(str(Action(a)))


def _legal_text(deal: DealFields) -> Msg:
    legal = deal.legal_actions()
    shown = Joined([_call(a) for a in legal[:12]])
    if len(legal) > 12:
        return Msg("you may: {actions}, … ({n} in all)", "you may: {actions}, … ({n} in all)", n=len(legal),
                   actions=shown)  # fmt: skip
    return Msg("you may: {actions}", actions=shown)


def explain_illegal(deal: DealFields, a: Action) -> Msg:
    phase = deal.phase
    if phase == Phase.PLAY:
        return _explain_card(deal, a)
    if phase == Phase.DISCARD:
        if a.is_card:
            return Msg("You cannot discard {card}: you do not hold it; your cards: {hand}",
                       card=str(a), hand=format_hand(deal.hand(deal.to_act or 0)))  # fmt: skip
        return Msg("{action}: now you discard two cards face down (seed 002 p.21); {legal}",
                   action=_call(a), legal=_legal_text(deal))  # fmt: skip
    if phase == Phase.BIDDING:
        return _explain_call(deal, a)
    if phase == Phase.DECLARE and a.is_bid:
        return Msg("You cannot declare {action}: the contract may not be lower than the winning bid {bid} "
                   "(Kodeks 3.3.11, seed 002 p.21); {legal}",
                   action=_call(a), bid=Call(str(Action.bid(deal.winning_bid))) if deal.winning_bid else "—",
                   legal=_legal_text(deal))  # fmt: skip
    if phase == Phase.WHIST and a == HALF_WHIST_ID:
        levels = ", ".join(str(x) for x in sorted(deal.rules.half_whist_levels)) or "—"
        return Msg("Half-whist is only for the second defender after the first passed, on levels {levels} "
                   "(table option {option}); {legal}", levels=levels, option=Option("half_whist_levels"),
                   legal=_legal_text(deal))  # fmt: skip
    return Msg("{action} is not possible now ({phase}); {legal}",
               action=_call(a), phase=Msg(phase.value, context="phase"), legal=_legal_text(deal))  # fmt: skip


def _explain_card(deal: DealFields, a: Action) -> Msg:
    seat = deal.to_play
    assert seat is not None
    if not a.is_card:
        return Msg("{action}: cards are being played now; {legal}", action=_call(a), legal=_legal_text(deal))
    card = Card(a)
    hand = deal.hand(seat)
    own = seat == deal.to_act
    if not hand >> card & 1:
        if own:
            return Msg("You do not hold {card}; your cards: {hand}", card=str(card), hand=format_hand(hand))
        return Msg("{card} is not in the hand you play from: {hand}", card=str(card), hand=format_hand(hand))
    led = deal.trick[0][1].suit
    if hand & (0xFF << (8 * led)):
        return Msg("You must follow suit {suit}: {card} cannot be played while you hold {suit} "
                   "(Kodeks 3.6.7, 3.7.5)", suit=SUIT_SYMBOLS[led], card=str(card))  # fmt: skip
    trump = SUIT_SYMBOLS[deal.trump or 0]
    return Msg("You have no {suit}, so you must trump with {trump}", suit=SUIT_SYMBOLS[led], trump=trump)


def _explain_call(deal: DealFields, a: Action) -> Msg:
    seat = deal.to_act
    assert seat is not None
    rules = deal.rules
    view = deal._auction_view(seat)
    best = deal.highest_bid
    best_call = Call(str(Action.bid(best))) if best is not None else Call("—")
    legal_bids = view.legal_bids()
    if a == HERE_ID:
        if best is None:
            return Msg("«Here» holds a bid, and nobody has bid yet (Kodeks 3.3.8)")
        who = {
            "first_hand_only": Msg("only first hand holds (Kodeks 3.3.8)"),
            "senior_only": Msg("only the senior of two contenders holds (Kodeks 3.3.8)"),
            "after_pass_any": Msg("a bid may be held only after somebody passed (seed 002 p.19)"),
            "via_passed_player": Msg("only the senior holds, across a passed player, never on 6♠ (club rules)"),
        }[rules.hold_rule]
        return Msg("You may not hold {bid} with «here» at this table ({option}={rule}): {who}; a held bid must be "
                   "overcalled (rules.md §3.2.6)", bid=best_call, option=Option("hold_rule"),
                   rule=OptionValue("hold_rule", rules.hold_rule), who=who)  # fmt: skip
    if a == TAKE_TALON_ID:
        return Msg("Only third hand, after first and second hand passed, may take the talon unbid (Kodeks 3.3.15)")
    if a == INVITE_ID:
        return Msg("Misère «пополам» is for 4 players, once per deal, as the player's first call (Kodeks 3.6.9)")
    if a == DARK_PASS_ID or (a.is_bid and a.is_dark):
        if not rules.dark_bids:
            return Msg("{action}: dark calls need the table agreement {option}=True (Kodeks 3.3.19)",
                       action=_call(a), option=Option("dark_bids"))
        if a == DARK_PASS_ID and view.best >= 0 and not view.has_called:
            return Msg("{action}: a game has been bid, so no all-pass can follow for a dark pass to double, and "
                       "only a seven overcalls a dark pass (Kodeks 3.3.19 a)); pass, or bid", action=_call(a))
        if view.has_called or a == DARK_PASS_ID:
            return Msg("{action}: a dark call is made before looking at the cards, so only as a player's first call "
                       "(Kodeks 3.3.19)", action=_call(a))  # fmt: skip
        # A first call in the dark: it must still be a sufficient bid (Kodeks 3.3.8), checked below.
    c = a.contract
    if c is None:
        return Msg("{action} is not a call of the auction; {legal}", action=_call(a), legal=_legal_text(deal))
    bid = BIDS.index(c)
    if bid in MISERE_KINDS:
        if view.has_called:
            return Msg("Misère must be a player's first call, and you have already bid (Kodeks 3.3.9)")
        if view.misere_taken:
            return Msg("Misère has already been bid in this auction; only a 9-level game overcalls it (Kodeks 3.6.4)")
        if c.without_talon and not rules.without_talon_bids:
            return Msg("{action}: bids without the talon need the table option {option}=True (seed 002 p.17)",
                       action=_call(a), option=Option("without_talon_bids"))
        return Msg("{action} is not above the current bid {bid} (Kodeks 3.3.8); {legal}",
                   action=_call(a), bid=best_call, legal=_legal_text(deal))  # fmt: skip
    if c.without_talon and not rules.without_talon_bids:
        return Msg("{action}: bids without the talon need the table option {option}=True (seed 002 p.17)",
                   action=_call(a), option=Option("without_talon_bids"))
    if view.is_misere_bidder and not rules.misere_bidder_may_continue:
        return Msg("{action}: after bidding misère you may only pass (table option {option})",
                   action=_call(a), option=Option("misere_bidder_may_continue"))
    low = view.lowest_trick_level()
    if c.level < low:
        if view.dark_passes:
            return Msg("{action}: after a dark pass only a {level}-level game or higher overcalls (Kodeks 3.3.19)",
                       "{action}: after {n} dark passes only a {level}-level game or higher overcalls (Kodeks 3.3.19)",
                       n=view.dark_passes, action=_call(a), level=6 + view.dark_passes)  # fmt: skip
        return Msg("{action}: after the all-pass series the lowest game is {level} (table option {option})",
                   action=_call(a), level=low, option=Option("raspas_exit_levels"))
    pos = ladder_positions(rules.misere_rank, rules.without_talon_bids)
    if best is not None and pos[bid] <= pos[BIDS.index(best)]:
        if best.is_misere:
            return Msg("{action}: only a 9-level game overcalls misère (Kodeks 3.6.4)", action=_call(a))
        lowest = next((_call(32 + b) for b in legal_bids if b not in MISERE_KINDS), None)
        if lowest is None:
            return Msg("insufficient bid {action}: the current bid is {bid}; no higher bid is possible "
                       "(Kodeks 3.3.8, 3.3.11)", action=_call(a), bid=best_call)  # fmt: skip
        return Msg("insufficient bid {action}: the current bid is {bid}; the lowest legal bid is {lowest} "
                   "(Kodeks 3.3.8, 3.3.11)", action=_call(a), bid=best_call, lowest=lowest)  # fmt: skip
    if not rules.jump_bids:
        nxt = next((_call(32 + b) for b in legal_bids if b not in MISERE_KINDS), Call("—"))
        return Msg("jump bid {action}: bids go up one step at this table ({option}=False), the next is {next} "
                   "(Kodeks 3.3.8)", action=_call(a), next=nxt, option=Option("jump_bids"))  # fmt: skip
    return Msg("{action} is not legal now; {legal}", action=_call(a), legal=_legal_text(deal))
