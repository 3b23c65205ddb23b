"""A lean encoder for self-play: the observation vector read straight from a :class:`Deal`.

:func:`preferans.env.encoding.encode_bits` builds the vector from an
:class:`~preferans.Observation`, walking the whole history every time.  For
throughput, :class:`FastEncoder` keeps what the history adds (each seat's
calls, the auction's latest bid) as the deal goes, and reads the rest —
hands, tricks, talon — from the deal's current state.  It gives exactly the
same bits as the Observation path (tested move by move under every preset);
the states it does not cover (a misère invitation, a report or a claim, a deal
that had moves before the encoder was attached) fall back to the Observation path.
"""

from __future__ import annotations

from ..actions import BID_BASE, DARK_BASE, INVITE_ID, NUM_ACTIONS, NUM_BIDS
from ..engine._state import BIDDING, MISERE_INVITE, PLAY
from ..engine.deal import Deal
from ..engine.result import DealKind
from .encoding import (
    _PHASE_INDEX,
    CALL_BASE,
    NUM_CALLS,
    O_CALLS,
    O_DEALER,
    O_DECLARER,
    O_DISCARD,
    O_FOUR,
    O_HAND,
    O_KNOWN,
    O_LAST_BID,
    O_MIN_LEVEL,
    O_OPEN,
    O_PHASE,
    O_PLAYED,
    O_TALON,
    O_TO_ACT,
    O_TO_PLAY,
    O_TRICK,
    O_TRICK_TALON,
    O_TRICKS,
    O_TWO,
    contract_bits,
    encode_bits,
)

__all__ = ["FastEncoder"]

_DARK_END = DARK_BASE + NUM_BIDS
_BID_END = BID_BASE + NUM_BIDS


def _shifts(base: int, width: int, n: int) -> tuple[tuple[int, ...], ...]:
    """``[observer][seat]``: the offset of ``seat``'s slot in ``observer``'s vector."""
    return tuple(tuple(base + width * ((s - o) % n) for s in range(n)) for o in range(n))


_SHIFTS = {
    n: {
        "known": _shifts(O_KNOWN - 32, 32, n),
        "played": _shifts(O_PLAYED, 32, n),
        "trick": _shifts(O_TRICK, 32, n),
        "calls": _shifts(O_CALLS - CALL_BASE, NUM_CALLS, n),
        "tricks": _shifts(O_TRICKS, 11, n),
        "seat": _shifts(0, 1, n),
    }
    for n in (3, 4)
}
_SMALL_CACHE: dict[tuple[object, ...], int] = {}


class FastEncoder:
    """Follows one deal; :meth:`bits` is a seat's vector as an integer.

    Call :meth:`before` with each action just before applying it.  Reads the
    deal's state fields directly (they are declared in :mod:`preferans.engine._state`).
    """

    __slots__ = (
        "_calls_at", "_contract", "_contract_bits", "_hist", "_known_at", "_last_bid", "_n",
        "_participates", "_played_at", "_seat_at", "_slow", "_talon_unused", "_trick_at", "_tricks_at", "deal",
    )  # fmt: skip

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        n = self._n = deal.seats  # гусарик: the dummy is a third seat
        shift = _SHIFTS[n]
        self._known_at = shift["known"]
        self._played_at = shift["played"]
        self._trick_at = shift["trick"]
        self._calls_at = shift["calls"]
        self._tricks_at = shift["tricks"]
        self._seat_at = shift["seat"]
        self._hist = [0] * n  # per observer: every call and every card played so far, already rotated
        self._last_bid = -1
        self._slow = bool(deal.talon_seen_by) or bool(deal.moves)
        self._contract: object = None
        self._contract_bits = 0
        talon_use = deal.rules.raspas_talon_for(deal.players)
        self._participates = talon_use == "participates"
        self._talon_unused = talon_use == "unused"

    def before(self, action: int) -> None:
        """Note an action about to be applied by the seat to act."""
        deal = self.deal
        if action < 32:
            if deal._phase == PLAY:
                owner = deal._to_play  # in open play the whister may act for his partner
                hist = self._hist
                at = self._played_at
                for o in range(self._n):
                    hist[o] |= 1 << (at[o][owner] + action)
            return
        if action < NUM_ACTIONS:
            seat = deal._to_act
            hist = self._hist
            at = self._calls_at
            for o in range(self._n):
                hist[o] |= 1 << (at[o][seat] + action)
            if deal._phase == BIDDING:
                if BID_BASE <= action < _BID_END:
                    self._last_bid = action - BID_BASE
                elif DARK_BASE <= action < _DARK_END:
                    self._last_bid = action - DARK_BASE
            if action == INVITE_ID:
                # Kodeks 3.6.9: the dealer looks at the inviter's cards; what he may see from
                # then on is the visibility ledger's business, so read the Observation path.
                self._slow = True
        else:
            self._slow = True  # a report or a claim: the Observation path covers them

    def bits(self, seat: int) -> int:
        """``seat``'s observation vector, equal to ``encode_bits(deal.observation(seat))``."""
        deal = self.deal
        if self._slow or deal._talon_seen_by:
            return encode_bits(deal.observation(seat), min_level=deal.min_level)
        hands = deal._hands
        bits = hands[seat] << O_HAND | self._hist[seat]  # calls and cards played, rotated
        exposed = deal._exposed
        if exposed:
            known = self._known_at[seat]
            for s in range(self._n):
                if exposed >> s & 1 and s != seat:
                    bits |= hands[s] << known[s]
        # The talon as this seat has seen it (Deal.talon_shown, inlined); the declarer's discard.
        talon = deal._talon
        contract = deal._contract
        if deal._kind is DealKind.ALL_PASS:
            # Kodeks 3.7.6: turned up one at a time; never on Rostov all-pass (3.7.6.2).
            shown = 0 if self._talon_unused else min(2, len(deal._completed) + 1)
            if shown and self._participates:
                # Kodeks 3.7.6.1: the talon cards leading an all-pass take part, as the dealer's.
                led = 1 << talon[0] if shown == 1 else 1 << talon[0] | 1 << talon[1]
                bits |= led << self._played_at[seat][deal.dealer]
        elif deal._talon_taken:
            if deal._declarer == seat:
                shown = 2
            else:  # Kodeks 3.6.5: a dark misère is caught in the dark, talon unseen
                shown = 0 if contract is not None and contract.level == 0 and deal._dark_misere() else 2
        else:
            shown = 0
        if deal._declarer == seat:
            bits |= deal._discard << O_DISCARD
        if shown == 2:
            bits |= (1 << talon[0] | 1 << talon[1]) << O_TALON
        elif shown == 1:
            bits |= 1 << (O_TALON + talon[0])
        trick = deal._trick
        if trick:
            trick_at = self._trick_at[seat]
            for s, c in trick:
                bits |= 1 << (trick_at[s] + c if s >= 0 else O_TRICK_TALON + c)
        if contract is not self._contract:
            self._contract = contract
            self._contract_bits = contract_bits(contract)
        return bits | self._contract_bits | self._small(seat)

    def _small(self, seat: int) -> int:
        """Phase, seats to act and play, dealer, declarer, tricks, flags: cached by their values."""
        deal = self.deal
        phase = deal._phase
        last_bid = self._last_bid if phase in (BIDDING, MISERE_INVITE) else -1
        key = (
            deal.players, seat, phase, deal._to_act, deal._to_play, deal._declarer, deal.dealer, deal._tricks_won,
            deal._open, last_bid, deal.min_level,
        )  # fmt: skip
        hit = _SMALL_CACHE.get(key)
        if hit is not None:
            return hit
        if len(_SMALL_CACHE) > 200_000:
            _SMALL_CACHE.clear()
        n = self._n
        rel = self._seat_at[seat]
        bits = 1 << (O_PHASE + _PHASE_INDEX[deal.phase.value]) | 1 << (O_DEALER + rel[deal.dealer])
        if last_bid >= 0:
            bits |= 1 << (O_LAST_BID + last_bid)
        to_act, to_play, declarer = deal.to_act, deal.to_play, deal.declarer
        if to_act is not None:
            bits |= 1 << (O_TO_ACT + rel[to_act])
        if to_play is not None:
            bits |= 1 << (O_TO_PLAY + rel[to_play])
        if declarer is not None:
            bits |= 1 << (O_DECLARER + rel[declarer])
        tricks_at = self._tricks_at[seat]
        won = deal.tricks_won
        for s in range(n):
            bits |= 1 << (tricks_at[s] + won[s])
        if deal.open_play:
            bits |= 1 << O_OPEN
        if n == 4:
            bits |= 1 << O_FOUR
        elif deal.players == 2:
            bits |= 1 << O_TWO
        bits |= 1 << (O_MIN_LEVEL + deal.min_level - 6)
        _SMALL_CACHE[key] = bits
        return bits
