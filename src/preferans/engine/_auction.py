"""The auction phase of a deal: calls, holds, dark calls, the misère invitation (rules.md §3).

Kodeks 3.3.8–3.3.15 and 3.3.19, seed-002 pp.16–23.  The ladder itself and the
legality of a bid live in :mod:`.auction`; this mixin moves the deal's state.
"""

from __future__ import annotations

from ..actions import (
    ACCEPT_ID,
    BID_BASE,
    BIDS,
    DARK_BASE,
    DARK_PASS_ID,
    HERE_ID,
    INVITE_ID,
    MISERE_BID,
    NO_TRUMP,
    PASS_ID,
    TAKE_TALON_ID,
    TOTUS_ID,
    Action,
    Contract,
)
from ..cards import mask_of
from ..seats import next_active
from ._state import ACTIONS, AT_TALON, BIDDING, DECLARE, DISCARD, MISERE_INVITE, PUBLIC, DealFields
from .ladder import MISERE_KINDS, AuctionView
from .result import DealKind

__all__ = ["AuctionMixin"]


class AuctionMixin(DealFields):
    """Transitions and legal calls of the auction."""

    __slots__ = ()  # the slots live on Deal; none here, so a Deal has no __dict__

    def _auction_view(self, seat: int) -> AuctionView:
        return AuctionView(
            rules=self.rules,
            best=self._best,
            best_held=self._best_held,
            order=self._order[seat],
            best_order=self._order[self._best_seat] if self._best_seat >= 0 else -1,
            has_called=bool(self._called >> seat & 1),
            is_misere_bidder=self._misere_seat == seat,
            misere_taken=self._misere_seat >= 0,
            anyone_passed=self._passed != 0,
            dark_passes=self._dark_passers.bit_count(),
            min_level=self.min_level,
        )

    def _legal_calls(self) -> tuple[Action, ...]:
        # The calls depend only on a few small values of the auction: cache them per Rules.
        seat = self._to_act
        best_seat = self._best_seat
        key = (
            self._best, self._best_held, self._order[seat], self._order[best_seat] if best_seat >= 0 else -1,
            (self._called | self._passed << 4) >> seat & 0x11, self._misere_seat == seat, self._misere_seat >= 0,
            self._passed != 0, self._dark_passers.bit_count(), self.min_level,
            self._third_hand_may_take_talon(seat), self.players, self._invited, self._totus_seat >= 0,
        )  # fmt: skip
        cache = self._calls_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) > 50_000:
                cache.clear()
            hit = cache[key] = self._compute_calls(seat)
        return hit

    def _compute_calls(self, seat: int) -> tuple[Action, ...]:
        if self._totus_seat >= 0:
            return (ACTIONS[PASS_ID],)  # nothing overcalls a totus (option totus)
        view = self._auction_view(seat)
        bids = view.legal_bids()
        out = [ACTIONS[PASS_ID]]
        if view.can_hold():
            out.append(ACTIONS[HERE_ID])
        out.extend(ACTIONS[BID_BASE + b] for b in bids)
        r = self.rules
        if r.third_hand_takes_talon and self._third_hand_may_take_talon(seat):
            out.append(ACTIONS[TAKE_TALON_ID])  # Kodeks 3.3.15
        if r.dark_bids and not self._has_spoken(seat):
            # Kodeks 3.3.19: dark calls, made before looking, so only as a first call.  A dark pass
            # stakes the all-pass and is overcalled only by a seven: none after a game was bid.
            if self._best < 0:
                out.append(ACTIONS[DARK_PASS_ID])
            out.extend(ACTIONS[DARK_BASE + b] for b in bids)
        if r.totus and (not view.is_misere_bidder or r.misere_bidder_may_continue) and (
            r.jump_bids or not bids or self._best == 24
        ):
            out.append(ACTIONS[TOTUS_ID])  # the dedicated totus, above every game and misère
        if (
            self.players == 4
            and r.misere_half_with_dealer
            and not self._invited
            and MISERE_BID in bids
        ):
            out.append(ACTIONS[INVITE_ID])  # Kodeks 3.6.9
        return tuple(out)

    def _has_spoken(self, seat: int) -> bool:
        return bool((self._called | self._passed) >> seat & 1)

    def _third_hand_may_take_talon(self, seat: int) -> bool:
        # Kodeks 3.3.15: after first and second hand passed, third hand may take the talon.
        return (
            self._best < 0
            and seat == self.active[2]
            and self._passed == (1 << self.active[0]) | (1 << self.active[1])
        )

    def _next_bidder(self, seat: int) -> int:
        for k in range(1, 4):
            s = next_active(self.active, seat, k)
            if not self._passed >> s & 1:
                return s
        return -1

    def _bid(self, a: Action) -> None:
        seat = self._to_act
        bit = 1 << seat
        if a in (PASS_ID, DARK_PASS_ID):
            self._passed |= bit  # Kodeks 3.3.10: a pass is final
            if a == DARK_PASS_ID:
                self._dark_passers |= bit
        elif a == HERE_ID:
            self._best_seat = seat
            self._best_held = True
            self._called |= bit
            self._set_last_bid(seat, self._best)
        elif a == TAKE_TALON_ID:
            # Kodeks 3.3.15: no bid named; the declarer must then name some game.
            low = max(self.min_level, 6 + self._dark_passers.bit_count())
            self._best = (low - 6) * 5
            self._best_seat = seat
            self._called |= bit
            self._end_auction(seat)
            return
        elif a == TOTUS_ID:
            # A 10 in a strain named at the declaration (option totus): held as 10NT's place.
            self._totus_seat = seat
            self._best = 24
            self._best_seat = seat
            self._best_held = False
            self._called |= bit
            self._set_last_bid(seat, 24)
        elif a == INVITE_ID:
            # Kodeks 3.6.9: the dealer looks at the inviter's cards before he answers.
            self._record(self._hands[seat], seat, seat, 1 << self.dealer)
            self._invited = True
            self._phase = MISERE_INVITE
            self._to_act = self.dealer
            return
        else:
            bid = a - DARK_BASE if a >= DARK_BASE else a - BID_BASE
            if a >= DARK_BASE:
                self._dark_bidders |= bit
            self._best = bid
            self._best_seat = seat
            self._best_held = False
            self._called |= bit
            self._set_last_bid(seat, bid)
            if bid in MISERE_KINDS:
                self._misere_seat = seat
        self._after_call(seat)

    def _set_last_bid(self, seat: int, bid: int) -> None:
        """Remember each player's last bid: Kodeks 3.3.16.2 makes it final."""
        last = list(self._last_bid)
        last[seat] = bid
        self._last_bid = tuple(last)

    def _after_call(self, seat: int) -> None:
        remaining = [s for s in self.active if not self._passed >> s & 1]
        if not remaining:
            self._start_all_pass()  # Kodeks 3.3.12
            return
        if len(remaining) == 1 and self._best_seat == remaining[0]:
            self._end_auction(remaining[0])  # Kodeks 3.3.13
            return
        self._to_act = self._next_bidder(seat)

    def _invite_answer(self, a: Action) -> None:
        inviter = self._moves[-2][0]
        self._to_act = inviter
        self._phase = BIDDING
        if a == ACCEPT_ID:
            # Kodeks 3.6.9: the companions declare misère together, the dealt player formally.
            self._misere_half = True
            self._best = MISERE_BID
            self._best_seat = inviter
            self._best_held = False
            self._called |= 1 << inviter
            self._misere_seat = inviter
            self._set_last_bid(inviter, MISERE_BID)
            self._after_call(inviter)

    def _declarer_side(self) -> int:
        """Seen-by bits of the declarer and of a dealer playing misère «пополам» with him (3.6.9)."""
        bits = 1 << self._declarer
        if self._misere_half and self._declarer == self._misere_seat:
            bits |= 1 << self.dealer
        return bits

    def _end_auction(self, seat: int) -> None:
        self._declarer = seat
        self._winning_bid = self._best
        win = BIDS[self._best]
        if win.is_misere:
            self._kind = DealKind.MISERE
            self._contract = Contract(0, NO_TRUMP, win.without_talon)
        else:
            self._kind = DealKind.GAME
        if win.without_talon:
            # Without the talon nobody sees it; a misère goes straight to play.
            if win.is_misere:
                self._start_play()
            else:
                self._phase = DECLARE
                self._to_act = seat
            return
        # Kodeks 3.3.13–3.3.14, 3.6.6: the declarer takes the talon (shown to all).
        self._talon_taken = True
        talon = mask_of(self._talon)
        h = list(self._hands)
        h[seat] |= talon
        self._hands = tuple(h)
        # Shown to all (seed-002 p.21), except a misère bid in the dark (Kodeks 3.6.5).
        self._record(talon, AT_TALON, seat, self._declarer_side() if self._dark_misere() else PUBLIC)
        self._phase = DISCARD
        self._to_act = seat
