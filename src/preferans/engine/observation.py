"""What one player may know: the per-seat view of a deal.

:func:`observe` builds an :class:`Observation` — own cards, the talon once
shown, cards lying face up, every call and every played card, the discard only
for the declarer — and nothing else.  Bots, UIs, the server and the RL
environment see a deal only through this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..actions import INVITE_ID, Action, Contract
from ..cards import SUIT_MASKS, Card, cards_of
from ._state import DealFields, Phase

__all__ = ["Observation", "observe"]


@dataclass(frozen=True)
class Observation:
    """One seat's knowledge of a deal at one moment.

    * ``hand`` — the seat's own cards now (a mask).
    * ``known_hands`` — other seats' cards this seat can see now: hands lying
      face up (open defence, misère catchers, a checked 10-game), and for the
      4-handed dealer the hand of a player who invited him to a misère «пополам».
    * ``talon`` — the talon cards this seat has seen (``None`` for unseen).
    * ``discard`` — the discard, only for the declarer (else 0).
    * ``moves`` — every action as (seat, action); another player's discarded
      card shows as ``None`` (discards are face down).
    """

    seat: int
    players: int
    dealer: int
    phase: str
    to_act: int | None
    to_play: int | None
    hand: int
    known_hands: Mapping[int, int]
    talon: tuple[Card | None, Card | None]
    discard: int
    moves: tuple[tuple[int, Action | None], ...]
    declarer: int | None
    contract: Contract | None
    open_play: bool
    trick: tuple[tuple[int, Card], ...]
    completed_tricks: tuple[tuple[tuple[tuple[int, Card], ...], int], ...]
    tricks_won: tuple[int, ...]
    legal_actions: tuple[Action, ...] = field(default=())

    def visible_cards(self) -> int:
        """Every card this observation shows, as one mask (for leak checks)."""
        m = self.hand | self.discard
        for h in self.known_hands.values():
            m |= h
        for c in self.talon:
            if c is not None:
                m |= 1 << c
        for _, a in self.moves:
            if a is not None and a.is_card:
                m |= 1 << a
        return m

    def shown_voids(self) -> dict[int, int]:
        """Cards each player can no longer hold, shown by not following suit (rules.md §6).

        A player who did not follow the led suit is void in it, and in a trump
        game one who played neither the led suit nor a trump is void in trumps
        too.  Returns seat → mask of those suits' cards (talon leads excluded).
        """
        trump = self.contract.trump if self.contract is not None else None
        voids: dict[int, int] = {}
        tricks = [cards for cards, _ in self.completed_tricks]
        if self.trick:
            tricks.append(self.trick)
        for cards in tricks:
            led = cards[0][1] >> 3
            for s, c in cards:
                if s < 0 or c >> 3 == led:
                    continue
                v = voids.get(s, 0) | SUIT_MASKS[led]  # he had to follow suit
                if trump is not None and c >> 3 != trump:
                    v |= SUIT_MASKS[trump]  # … and then to trump
                voids[s] = v
        return voids

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form with cards in text (``A♥``), for protocols and the web."""
        def hand_text(mask: int) -> list[str]:
            return [str(c) for c in cards_of(mask)]

        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "to_play": self.to_play,
            "hand": hand_text(self.hand),
            "known_hands": {str(s): hand_text(m) for s, m in self.known_hands.items()},
            "talon": [str(c) if c is not None else None for c in self.talon],
            "discard": hand_text(self.discard),
            "moves": [[s, str(a) if a is not None else None] for s, a in self.moves],
            "declarer": self.declarer,
            "contract": str(self.contract) if self.contract else None,
            "open_play": self.open_play,
            "trick": [[s, str(c)] for s, c in self.trick],
            "completed_tricks": [
                {"cards": [[s, str(c)] for s, c in cards], "winner": w}
                for cards, w in self.completed_tricks
            ],
            "tricks_won": list(self.tricks_won),
            "legal_actions": [str(a) for a in self.legal_actions],
        }


def observe(deal: DealFields, seat: int) -> Observation:
    """Build ``seat``'s observation of ``deal``."""
    if not 0 <= seat < deal.players:
        from ..errors import IllegalAction

        raise IllegalAction(f"seat must be 0..{deal.players - 1}, not {seat}")
    hands = deal.hands
    known: dict[int, int] = {}
    for s in deal.exposed:
        if s != seat:
            known[s] = hands[s]
    if seat == deal.dealer and deal.players == 4:
        # Kodeks 3.6.9: the dealer looked at the inviter's cards.
        for i, (s, a) in enumerate(deal.moves):
            if a == INVITE_ID:
                accepted = i + 1 < len(deal.moves) and str(deal.moves[i + 1][1]) == "accept"
                seen = hands[s] if accepted else hands[s] & deal.initial_hands[s]
                known[s] = known.get(s, 0) | seen
    declarer = deal.declarer
    is_declarer = declarer == seat
    talon: tuple[Card | None, Card | None]
    if (is_declarer and deal.talon_taken) or (deal.talon_seen_by >> seat & 1 and len(deal.talon) == 2):
        talon = (deal.talon[0], deal.talon[1])  # in his hand, or seen (Kodeks 3.3.16)
    else:
        shown = deal.talon_shown
        talon = (deal.talon[0] if shown >= 1 else None, deal.talon[1] if shown >= 2 else None)
    # Discards happen before any card is played, so they are the first card moves.
    hidden = 0 if is_declarer else deal.discard.bit_count()
    moves_list: list[tuple[int, Action | None]] = []
    for s, a in deal.moves:
        if hidden and a < 32:
            hidden -= 1
            moves_list.append((s, None))
        else:
            moves_list.append((s, a))
    moves = tuple(moves_list)
    return Observation(
        seat=seat,
        players=deal.players,
        dealer=deal.dealer,
        phase=deal.phase.value,
        to_act=deal.to_act,
        to_play=deal.to_play,
        hand=hands[seat],
        known_hands=MappingProxyType(known),
        talon=talon,
        discard=deal.discard if is_declarer else 0,
        moves=moves,
        declarer=declarer,
        contract=deal.contract,
        open_play=deal.open_play,
        trick=deal.trick,
        completed_tricks=deal.completed_tricks,
        tricks_won=deal.tricks_won,
        # The dealer redraws face down (Kodeks 3.3.17): the offender's cards are not his to see.
        legal_actions=deal.legal_actions() if deal.to_act == seat and deal.phase is not Phase.REDRAW else (),
    )
