"""What one player may know: the per-seat view of a deal.

:func:`observe` builds an :class:`Observation` — own cards, the talon once
shown, cards lying face up, every call and every played card, the discard only
for the declarer — and nothing else.  Bots, UIs, the server and the RL
environment see a deal only through this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from ..actions import Action, Contract
from ..cards import SUIT_MASKS, Card, Mask, cards_of
from ..seats import Seat
from ._state import AT_DISCARD, AT_TALON, PUBLIC, DealFields, Phase, Sight, Trick
from .standing import Standing

__all__ = ["Observation", "Phase", "observe"]


@dataclass(frozen=True)
class Observation:
    """One seat's knowledge of a deal at one moment.

    * ``seat`` — whose view this is; ``-1`` for the public view (spectators).
    * ``hand`` — the seat's own cards now (a mask).
    * ``known_hands`` — other seats' whole hands that this seat knows now: hands
      lying face up (open defence, misère catchers, a checked 10-game, the
      3.3.16.3 assessment), and for the 4-handed dealer the hand of a player who
      invited him to a misère «пополам» for as long as no card left it unseen.
    * ``talon`` — the cards of the current talon this seat has seen (``None`` for
      unseen).
    * ``discard`` — the discard cards this seat saw go (the declarer's side), else 0.
    * ``moves`` — every action as (seat, action); a card that moved face down
      out of this seat's sight (a discard, a 3.3.17 redraw) shows as ``None``;
      ``move_phases`` the phase each was made in (a ``pass`` in ``whist`` is no
      auction pass).
    * ``highest_bid`` / ``bidder`` — the auction's highest bid so far and the seat
      holding it (after a «здесь» the senior who said it); ``winning_bid`` — the
      auction's final bid, the lowest contract the declarer may name.
    * ``defenders`` — the declarer's opponents in seat order (the гусарик dummy
      among them); ``whisters`` — those of them who whist, as called so far;
      ``catcher`` — against a misère, the catcher who plays both hands («ловлю»).
    * ``standing`` — the pulka's public standing before this deal (pools and their
      target, mountains, whists, the all-pass series, bombs: :class:`~preferans.engine.standing.Standing`),
      the same for every seat; ``None`` when the deal stands alone (the arena, a bare deal).
    """

    seat: Seat
    players: int
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    to_play: Seat | None
    hand: Mask
    known_hands: Mapping[Seat, Mask]
    talon: tuple[Card | None, Card | None]
    discard: Mask
    moves: tuple[tuple[Seat, Action | None], ...]
    declarer: Seat | None
    contract: Contract | None
    open_play: bool
    trick: Trick
    completed_tricks: tuple[tuple[Trick, Seat], ...]
    tricks_won: tuple[int, ...]
    legal_actions: tuple[Action, ...] = field(default=())
    move_phases: tuple[Phase, ...] = ()
    highest_bid: Contract | None = None
    bidder: Seat | None = None
    winning_bid: Contract | None = None
    defenders: tuple[Seat, ...] = ()
    whisters: tuple[Seat, ...] = ()
    catcher: Seat | None = None
    standing: Standing | None = None

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

    def __reduce__(self) -> tuple[Callable[..., Observation], tuple[object, ...]]:
        """Pickled as its fields, ``known_hands`` as a dict (a mapping proxy does not pickle), so
        an observation can go to another process (a bot thinking in a worker).

        >>> import pickle
        >>> from preferans import Deal, Rules
        >>> o = Deal.new(Rules.preset("sochi"), players=3, seed=1).observation(0)
        >>> back = pickle.loads(pickle.dumps(o))
        >>> back == o, type(back.known_hands).__name__
        (True, 'mappingproxy')
        """
        values = (getattr(self, f.name) for f in fields(self))
        return _observation, tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form with cards in text (``A♥``), for protocols and the web."""
        def hand_text(mask: int) -> list[str]:
            return [str(c) for c in cards_of(mask)]

        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": str(self.phase),
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
            "move_phases": [str(p) for p in self.move_phases],
            "highest_bid": _text(self.highest_bid),
            "bidder": self.bidder,
            "winning_bid": _text(self.winning_bid),
            "defenders": list(self.defenders),
            "whisters": list(self.whisters),
            "catcher": self.catcher,
            "standing": self.standing.to_dict() if self.standing is not None else None,
        }


def _observation(*values: Any) -> Observation:
    """An observation from its pickled fields, ``known_hands`` frozen again."""
    obs = Observation(*values)
    object.__setattr__(obs, "known_hands", MappingProxyType(dict(obs.known_hands)))
    return obs


def _text(contract: Contract | None) -> str | None:
    return str(contract) if contract is not None else None


_NOTHING_SEEN: Sight = ((0,) * 8, (0,) * 8, 0, 0)


def _knowledge(deal: DealFields, bits: int) -> Sight:
    """Replay the visibility ledger for an observer who sees entries marked with ``bits``.

    Returns, per place (seat, talon, discard, table, deck), the cards the observer
    knows to lie there now and how many cards lie there (counts are public); the
    cards he has seen as the current talon; and a bit per move whose card he saw.
    A face-down movement out of a place leaves him unsure of every card he knew
    there: he cannot tell which one went.

    The deal keeps what each observer knew after the ledger's newest entry, so the next
    call reads only the entries added since (one or two a move) instead of the whole
    ledger; after an ``undo`` that entry is no longer in the chain and the ledger is
    read from its start.
    """
    head = deal._ledger
    cached = deal._sight.get(bits)
    entries = []
    chain = head
    upto = cached[0] if cached is not None else None
    while chain is not None and chain is not upto:
        entries.append(chain[0])
        chain = chain[1]
    state = cached[1] if cached is not None and chain is not None else _NOTHING_SEEN
    if not entries:
        return state
    known = list(state[0])
    count = list(state[1])
    talon_seen, seen_moves = state[2], state[3]
    for cards, source, to, seen, move in reversed(entries):
        saw = seen & bits
        if source == to:
            if saw:
                known[to] |= cards
                if to == AT_TALON:
                    talon_seen |= cards
            continue
        n = cards.bit_count()
        if to == AT_TALON and count[AT_TALON] == 0:
            talon_seen = 0  # a new talon is being formed (the deal, or the 3.3.17 redraw)
        count[source] -= n
        count[to] += n
        if saw:
            known[source] &= ~cards
            known[to] |= cards
            if to == AT_TALON or source == AT_TALON:
                talon_seen |= cards
            if move >= 0:
                seen_moves |= 1 << move
        else:
            known[source] = 0
    state = (tuple(known), tuple(count), talon_seen, seen_moves)
    deal._sight[bits] = (head, state)
    return state


def observe(deal: DealFields, seat: int | None) -> Observation:
    """Build ``seat``'s observation of ``deal`` (``None``: what everybody sees, for spectators).

    Everything comes from the deal's visibility ledger (who saw each card
    movement), never from positions in the history.
    """
    if seat is not None and not 0 <= seat < deal.players:
        from ..errors import IllegalAction

        raise IllegalAction(f"seat must be 0..{deal.players - 1}, not {seat}")
    bits = PUBLIC if seat is None else PUBLIC | 1 << seat
    known, count, talon_seen, seen_moves = _knowledge(deal, bits)
    # A hand is known when every card in it is: laid face up, or seen and not touched unseen since.
    known_hands = {
        s: known[s]
        for s in range(deal.seats)
        if s != seat and known[s] and known[s].bit_count() == count[s]
    }
    cards = deal.talon
    talon = tuple(
        cards[i] if i < len(cards) and talon_seen >> cards[i] & 1 else None for i in range(2)
    )
    moves = tuple(
        (s, a) if a >= 32 or seen_moves >> i & 1 else (s, None) for i, (s, a) in enumerate(deal.moves)
    )
    phase = deal.phase
    return Observation(
        seat=-1 if seat is None else seat,
        players=deal.players,
        dealer=deal.dealer,
        phase=phase,
        to_act=deal.to_act,
        to_play=deal.to_play,
        hand=0 if seat is None else deal.hands[seat],
        known_hands=MappingProxyType(known_hands),
        talon=(talon[0], talon[1]),
        discard=known[AT_DISCARD],
        moves=moves,
        declarer=deal.declarer,
        contract=deal.contract,
        open_play=deal.open_play,
        trick=deal.trick,
        completed_tricks=deal.completed_tricks,
        tricks_won=deal.tricks_won,
        # The dealer redraws face down (Kodeks 3.3.17): the offender's cards are not his to see.
        legal_actions=(
            deal.legal_actions() if seat is not None and deal.to_act == seat and phase != Phase.REDRAW else ()
        ),
        move_phases=deal.move_phases,
        highest_bid=deal.highest_bid,
        bidder=deal.bidder,
        winning_bid=deal.winning_bid,
        defenders=deal.defenders,
        whisters=deal.whisters,
        catcher=deal.catcher,
        standing=deal.standing,
    )
