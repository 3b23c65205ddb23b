"""What a seat knows about the hidden cards, read from its observation alone.

:class:`Knowledge` lists the cards this seat cannot see, the places they may
be (each other active hand that is not face up, and «out»: the discard and an
unseen talon), how many cards each place holds, and the suits each hand has
shown void in by not following (rules.md §6).  The talon cards are known to lie
in the declarer's hand or his discard once he took them.

>>> from preferans import Deal, Rules
>>> deal = Deal.new(Rules(), seed=3)
>>> k = Knowledge.of(deal.observation(1))
>>> k.unknown.bit_count(), sorted(k.sizes.items())
(22, [(-1, 2), (0, 10), (2, 10)])
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import seats
from ..cards import ALL_CARDS_MASK
from ..engine.observation import Observation, Phase

__all__ = ["OUT", "Knowledge", "deal_kind", "first_hand_of"]

OUT = -1
"""The place of cards out of play: the declarer's discard and a talon nobody saw."""


def first_hand_of(obs: Observation) -> int:
    return seats.active_seats(obs.dealer, obs.players)[0]  # never the dummy (гусарик)


def active_seats(obs: Observation) -> tuple[int, int, int]:
    return seats.active_seats(obs.dealer, obs.players)


def deal_kind(obs: Observation) -> str:
    """``"game"``, ``"misere"`` or ``"allpass"`` (``"auction"`` before anything is decided)."""
    if obs.contract is not None:
        return "misere" if obs.contract.is_misere else "game"
    if obs.declarer is None and obs.phase == Phase.PLAY:
        return "allpass"
    return "auction"


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden cards from one seat's point of view.

    * ``unknown`` — mask of cards whose place this seat does not know;
    * ``sizes`` — place → number of unknown cards it holds (``OUT`` = -1);
    * ``allowed`` — place → mask of cards that may be there (voids, talon);
    * ``hands`` — seat → the cards known to be there now (own hand, hands face up);
    * ``played`` — every card already played (talon leads included).
    """

    seat: int
    active: tuple[int, int, int]
    unknown: int
    sizes: dict[int, int]
    allowed: dict[int, int]
    hands: dict[int, int]
    played: int

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        active = active_seats(obs)
        played = 0
        count = dict.fromkeys(active, 0)
        shown = obs.shown_voids()  # rules.md §6: not following shows a void
        void = {s: shown.get(s, 0) for s in active}
        tricks = [cards for cards, _ in obs.completed_tricks]
        if obs.trick:
            tricks.append(obs.trick)
        for cards in tricks:
            for s, c in cards:
                played |= 1 << c
                if s in count:  # not a talon card leading an all-pass trick
                    count[s] += 1
        hands: dict[int, int] = {obs.seat: obs.hand}
        for s, h in obs.known_hands.items():
            hands[s] = h
        seen = played | obs.discard
        for h in hands.values():
            seen |= h
        talon_known = 0
        for t in obs.talon:
            if t is not None:
                talon_known |= 1 << t
        unknown = ALL_CARDS_MASK & ~seen
        sizes: dict[int, int] = {}
        allowed: dict[int, int] = {}
        declarer = obs.declarer
        held = 0
        for s in active:
            if s in hands:
                continue
            n = _hand_size(obs, s, count[s])
            sizes[s] = n
            held += n
            allowed[s] = unknown & ~void[s]
        out = unknown.bit_count() - held
        if out > 0:
            sizes[OUT] = out
            allowed[OUT] = unknown
        if talon_known & unknown:
            # Talon cards seen but not in sight now: in the declarer's hand or his discard.
            for s in list(allowed):
                if s != declarer and s != OUT:
                    allowed[s] &= ~talon_known
        return cls(obs.seat, active, unknown, sizes, allowed, hands, played)

    def places(self) -> list[int]:
        return list(self.sizes)


def _hand_size(obs: Observation, seat: int, played: int) -> int:
    """Cards ``seat`` holds now: 10 less those played, 12 for a declarer about to discard."""
    n = 10 - played
    if seat == obs.declarer and obs.phase == Phase.DISCARD:
        n += 2 - obs.discard.bit_count()  # only the declarer is in this phase
    return n
