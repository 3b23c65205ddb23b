"""Card-play facts a bot reads from an observation: who is winning the trick,
which cards are still out, which cards are masters, who is on whose side.

>>> from preferans import Deal, Rules
>>> deal = Deal.new(Rules(), seed=5)
>>> for a in ("pass", "pass", "pass"):
...     deal.apply(a)
>>> v = TrickView.of(deal.observation(deal.to_act))
>>> v.kind, v.winner, v.last_to_play
('allpass', None, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASKS, Card
from ..engine.observation import Observation
from ..seats import next_active
from .knowledge import active_seats, deal_kind

__all__ = ["TrickView"]


@dataclass(frozen=True, slots=True)
class TrickView:
    """One card decision: the hand to play from and what lies on the table."""

    seat: int  # who decides (the lone open whister decides for his partner)
    player: int  # whose card is played
    hand: int  # that player's cards
    kind: str  # "game", "misere" or "allpass"
    trump: int | None
    declarer: int | None
    led: int | None  # the suit of this trick, if any card leads it
    winner: int | None  # the seat now winning the trick (None: nobody yet)
    winning_card: Card | None
    played_here: int  # players' cards already in this trick
    last_to_play: bool
    out: int  # cards not played and not in ``hand`` (the others' and unseen)
    active: tuple[int, int, int]

    @classmethod
    def of(cls, obs: Observation) -> TrickView:
        player = obs.to_play if obs.to_play is not None else obs.seat
        hand = obs.hand if player == obs.seat else obs.known_hands.get(player, 0)
        kind = deal_kind(obs)
        trump = obs.contract.trump if obs.contract is not None else None
        active = active_seats(obs)
        played = 0
        for cards, _ in obs.completed_tricks:
            for _, c in cards:
                played |= 1 << c
        for _, c in obs.trick:
            played |= 1 << c
        led: int | None = None
        winner: int | None = None
        best: Card | None = None
        players_here = 0
        if obs.trick:
            led = obs.trick[0][1] >> 3
            for s, c in obs.trick:
                if s in active:
                    players_here += 1
                elif s < 0:
                    continue  # a talon card naming the suit (Kodeks 3.7.6.3)
                if best is None:
                    wins = c >> 3 == led
                elif c >> 3 == best >> 3:
                    wins = c > best
                else:
                    wins = trump is not None and c >> 3 == trump
                if wins:
                    best, winner = c, s
        return cls(
            seat=obs.seat,
            player=player,
            hand=hand,
            kind=kind,
            trump=trump,
            declarer=obs.declarer,
            led=led,
            winner=winner,
            winning_card=best,
            played_here=players_here,
            last_to_play=players_here == 2,
            out=0xFFFFFFFF & ~played & ~hand,
            active=active,
        )

    def partners(self, a: int, b: int) -> bool:
        """Are seats ``a`` and ``b`` on the same side in this deal?"""
        if a == b:
            return True
        if self.kind == "allpass" or self.declarer is None:
            return False
        return a != self.declarer and b != self.declarer

    def beats(self, card: int) -> bool:
        """Would ``card`` take the lead of the trick from the current winner?"""
        best = self.winning_card
        if best is None:
            return self.led is None or card >> 3 == self.led
        if card >> 3 == best >> 3:
            return card > best
        return self.trump is not None and card >> 3 == self.trump

    def is_master(self, card: int) -> bool:
        """No card still out ranks ``card`` in its suit."""
        above = SUIT_MASKS[card >> 3] & ~((2 << card) - 1)
        return not self.out & above

    def next_player(self) -> int:
        return next_active(self.active, self.player)
