"""The all-pass (распасы) played out by a rule of thumb on one open layout.

The expert values an all-pass card two ways on its sampled layouts: the solver's
worst case (the other two both giving me tricks, :func:`preferans.solver.best_moves`)
and a *play-out*: every player, me included, goes on by the rule of thumb players
use on the all-pass, each looking only at his own hand and the trick on the table:

* following suit, duck under the highest card on the table with my highest card
  below it; if every card I hold in the suit is above it, take the trick with my
  highest when I play last, else play my lowest (a later player may still go over);
* void in the suit, throw my highest card (of my shortest suit among equals);
* leading, lead my lowest card (from my shortest suit among equals).

The first two are ``medium``'s all-pass and misère play (:class:`.heuristic.HeuristicBot`
calls :func:`all_pass_card`); its lead counts the cards still out, which a play-out's
players are not given.

The worst case overstates what a seat takes at the table by more than a trick
(:data:`.expert.ALLPASS_PESSIMISM`): the others do not see my cards and play for
themselves, not together against me.  The play-out is the other error — everybody
plays plainly — and the two together rank cards better than either alone
(docs/bots.md «Issue 29, thirteenth step»).

>>> from preferans.solver import Position
>>> pos = Position.parse("♠A 7 ♣8 / ♠K 8 ♣7 / ♠Q 9 ♣A | allpass player=0 leader=0")
>>> tricks, cards = play_out(pos, Card.parse("7♠"))
>>> tricks, " ".join(str(Card(c)) for c in cards)   # third hand must take ♠Q, leads his 9♠ into my ace
(1, '7♠ 8♠ Q♠ 9♠ A♠ K♠ 8♣ 7♣ A♣')
"""

from __future__ import annotations

from ..cards import SUIT_MASKS, Card, cards_of
from ..solver import Position

__all__ = ["all_pass_card", "play_out"]

def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def all_pass_card(hand: int, led: int | None, top: int | None, last: bool) -> int:
    """The rule of thumb's card from ``hand`` (a card mask) on the all-pass.

    ``led``: the suit of the trick (``None``: I lead); ``top``: the highest card of
    that suit on the table that can take the trick (``None``: none yet); ``last``:
    I play the trick's last card.  Cards are ids (``Card``), so within a suit a
    higher id is a higher card.

    >>> from preferans.cards import parse_cards, to_mask
    >>> hand = to_mask(parse_cards("♠A 9 7 ♥K"))
    >>> str(Card(all_pass_card(hand, 0, Card.parse("10♠"), last=False)))   # duck under 10♠
    '9♠'
    >>> str(Card(all_pass_card(hand, 0, Card.parse("8♠"), last=False)))    # duck with 7♠
    '7♠'
    >>> str(Card(all_pass_card(hand, 1, None, last=False)))                # void in ♣: throw A♠
    'A♠'
    >>> str(Card(all_pass_card(hand, None, None, last=False)))             # lead 7♠
    '7♠'
    """
    if led is not None:
        follow = hand & SUIT_MASKS[led]
        if follow:
            below = follow & ((1 << top) - 1) if top is not None else 0
            if below:
                return _high(below)
            # every card of mine goes over: the trick is mine if I play last, so shed the top
            return _high(follow) if last else _low(follow)
        # void: the highest card, of the shortest suit among cards of equal rank
        return max(cards_of(hand), key=lambda c: (c & 7, -(hand & SUIT_MASKS[c >> 3]).bit_count()))
    return min(cards_of(hand), key=lambda c: (c & 7, (hand & SUIT_MASKS[c >> 3]).bit_count()))


def play_out(pos: Position, card: int) -> tuple[int, tuple[int, ...]]:
    """The focus's tricks from here (the current trick included) when the player to
    move plays ``card`` and then everybody plays :func:`all_pass_card`, and the cards
    played from ``card`` on, in order.

    The order of play is the solver's (rules.md §6, §8.2): a talon card leads
    tricks 1–2 with first hand playing first, first hand leads trick 3, then the
    winner leads; with ``suit_only`` the talon card only names the suit (Kodeks
    3.7.6.3), with ``participates`` it can take the trick, for nobody (3.7.6.1).
    """
    if pos.goal != "allpass":
        raise ValueError(f"a play-out is of an all-pass, not a {pos.goal!r} position")
    if card not in pos.legal_moves():
        raise ValueError(f"player {pos.to_play} cannot play {Card(card)} here")
    hands = list(pos.hands)
    focus = pos.declarer
    talon = [int(c) for c in pos.talon]
    competes = pos.talon_mode == "participates"
    leader = 0 if talon else pos.leader
    table = [int(c) for c in pos.trick]
    played: list[int] = []
    won = 0
    nxt: int | None = int(card)
    while True:
        if len(table) == 3:
            led = talon[0] >> 3 if talon else table[0] >> 3
            best = talon[0] if talon and competes else -1
            who: int | None = None
            for i, c in enumerate(table):
                if c >> 3 == led and c > best:
                    best, who = c, (leader + i) % 3
            won += who == focus
            # rules.md §8.2: after a talon trick first hand plays first again; rules.md §6: else the winner leads
            leader = 0 if talon or who is None else who
            talon = talon[1:]
            table = []
        p = (leader + len(table)) % 3
        if not hands[p]:
            return won, tuple(played)
        if nxt is None:
            led_suit = talon[0] >> 3 if talon else (table[0] >> 3 if table else None)
            top = None
            if led_suit is not None:
                on = [c for c in table if c >> 3 == led_suit]
                if talon and competes:
                    on.append(talon[0])
                top = max(on) if on else None
            nxt = all_pass_card(hands[p], led_suit, top, last=len(table) == 2)
        hands[p] &= ~(1 << nxt)
        table.append(nxt)
        played.append(nxt)
        nxt = None
