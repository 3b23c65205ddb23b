"""The bidding ladder and which calls are legal in an auction (rules.md §3).

Kept apart from the deal state machine because the ladder depends only on the
rules: :func:`ladder` orders the bids for a table's conventions, and
:class:`AuctionView` answers "which bids may this player make now?" from a few
integers describing the auction so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..actions import BIDS, MISERE_BID, Contract
from ..rules import MisereRank, Rules

__all__ = ["AuctionView", "ladder", "ladder_positions"]

NINE_NO_TALON = 26
TEN_NO_TALON = 27
MISERE_NO_TALON = 28
MISERE_KINDS = (MISERE_BID, MISERE_NO_TALON)


@lru_cache(maxsize=64)
def ladder(misere_rank: MisereRank, without_talon_bids: bool) -> tuple[int, ...]:
    """Bid indices (into :data:`~preferans.actions.BIDS`) from lowest to highest.

    Kodeks 3.6.4 puts misère between 8NT and 9♠ (only a 9-level game overcalls
    it); Benyakova (seed-002 p.17) puts it on top.  «Без прикупа» bids follow
    the no-trump bid of their level; misère without the talon overcalls the
    9-level games and is overcalled by 9 without the talon (rules.md §3.1, Lesnoy's dictionary).

    >>> [str(BIDS[i]) for i in ladder("after_8nt", False)][13:17]
    ['8♥', '8NT', 'misere', '9♠']
    """
    wt = without_talon_bids
    low = list(range(15))  # 6♠ … 8NT
    nines = list(range(15, 20)) + ([MISERE_NO_TALON, NINE_NO_TALON] if wt else [])
    tens = list(range(20, 25)) + ([TEN_NO_TALON] if wt else [])
    if misere_rank == "after_8nt":
        return tuple([*low, MISERE_BID, *nines, *tens])
    nines = list(range(15, 20)) + ([NINE_NO_TALON] if wt else [])
    return tuple(low + nines + tens + [MISERE_BID] + ([MISERE_NO_TALON] if wt else []))


@lru_cache(maxsize=64)
def ladder_positions(misere_rank: MisereRank, without_talon_bids: bool) -> tuple[int, ...]:
    """Position on the ladder of every bid index; -1 for bids not on it."""
    pos = [-1] * len(BIDS)
    for i, b in enumerate(ladder(misere_rank, without_talon_bids)):
        pos[b] = i
    return tuple(pos)


def bid_level(bid: int) -> int:
    """Level of a bid index (misère kinds count as 0)."""
    return BIDS[bid].level


@dataclass(frozen=True, slots=True)
class AuctionView:
    """What the legality of a call depends on, as plain values.

    ``order`` is the seat's place among the active players (0 = first hand),
    ``best_order`` the place of the holder of the highest bid.
    """

    rules: Rules
    best: int  # bid index of the highest bid, -1 if none
    best_held: bool  # the highest bid was a hold («здесь»), so it must be overcalled
    order: int
    best_order: int
    has_called: bool  # this player already made a bid or a hold (Kodeks 3.3.9)
    is_misere_bidder: bool
    misere_taken: bool  # someone bid misère in this auction
    anyone_passed: bool
    dark_passes: int
    min_level: int

    def lowest_trick_level(self) -> int:
        # Kodeks 3.3.19: after one dark pass only a 7-level game overcalls, after two only 8.
        return max(self.min_level, 6 + self.dark_passes)

    def legal_bids(self) -> list[int]:
        """Bid indices this player may bid now, in ladder order."""
        r = self.rules
        lad = ladder(r.misere_rank, r.without_talon_bids)
        pos = ladder_positions(r.misere_rank, r.without_talon_bids)
        p = pos[self.best] if self.best >= 0 else -1
        low = self.lowest_trick_level()
        out: list[int] = []
        trick_allowed = not self.is_misere_bidder or r.misere_bidder_may_continue
        first_step_taken = False
        for b in lad[p + 1 :]:
            if b in MISERE_KINDS:
                if self._misere_allowed(b):
                    out.append(b)
                continue
            if not trick_allowed or bid_level(b) < low:
                continue
            if not r.jump_bids:
                # Kodeks 3.3.8: bids go up one step at a time.
                if first_step_taken:
                    continue
                first_step_taken = True
            out.append(b)
        return out

    def _misere_allowed(self, b: int) -> bool:
        if b == MISERE_NO_TALON:
            if not self.rules.without_talon_bids:
                return False
            # Lesnoy's dictionary: the misère bidder overcalled by a 9 may go on to misère without the talon.
            return self.is_misere_bidder or (not self.has_called and not self.misere_taken)
        # Kodeks 3.3.9: misère only as a first call; one misère per auction (common practice).
        return not self.has_called and not self.misere_taken

    def can_hold(self) -> bool:
        """May this player say «здесь» (hold the current bid)?  Kodeks 3.3.8, rules.md §3.2.6."""
        if self.best < 0 or self.best_held or self.best in MISERE_KINDS or self.is_misere_bidder:
            return False
        if self.order == self.best_order:
            return False
        if self.best_order_below_min():
            return False
        senior = self.order < self.best_order
        rule = self.rules.hold_rule
        if rule == "first_hand_only":
            # Kodeks 3.3.8 word for word: «игрок, находящийся на первой руке» may hold.
            return self.order == 0
        if rule == "senior_only":
            return senior  # the earlier of the two contenders: second hand too, against third
        if rule == "after_pass_any":
            return self.anyone_passed  # seed 002 p.19: «мои» after a pass
        # via_passed_player (club rules): senior, across a passed player, never on 6♠.
        return senior and self.anyone_passed and self.best != 0

    def best_order_below_min(self) -> bool:
        """A held bid must itself be high enough after dark passes or an exit level."""
        return bid_level(self.best) != 0 and bid_level(self.best) < self.lowest_trick_level()


def contract_of_bid(bid: int) -> Contract:
    return BIDS[bid]
