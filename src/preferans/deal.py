"""One deal of Preferans as a state machine: legal actions, apply, undo.

A :class:`Deal` runs the whole life of one deal (spec §11.5): the auction,
the talon and discard, the declaration, whisting, the defence's choices, and
trick play — or the all-pass (распасовка) — for 3 players or for 4 with the
dealer sitting out.  Every decision is an :class:`~preferans.actions.Action`.

>>> from preferans import Rules, Deal
>>> deal = Deal.new(Rules.preset("sochi"), players=3, dealer=0, seed=7)
>>> deal.phase, deal.to_act, [str(a) for a in deal.legal_actions()][:4]
(<Phase.BIDDING: 'bidding'>, 1, ['pass', '6♠', '6♣', '6♦'])
>>> deal.apply("6♠"); deal.apply("pass"); deal.apply("pass")
>>> deal.phase, deal.declarer, [str(c) for c in deal.talon]
(<Phase.DISCARD: 'discard'>, 1, ['K♥', 'J♦'])
>>> deal.undo()
Action('pass')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from .actions import (
    ACCEPT_ID,
    BID_BASE,
    BIDS,
    CLOSED_ID,
    CONCEDE_ALL_ID,
    CONCEDE_THREE_ID,
    DARK_BASE,
    DARK_PASS_ID,
    HALF_WHIST_ID,
    HERE_ID,
    INVITE_ID,
    MISERE_BID,
    NO_TRUMP,
    OPEN_ID,
    PASS_ID,
    PLAY_ID,
    QUOTA_ID,
    REFUSE_ID,
    TAKE_TALON_ID,
    WHIST_ID,
    Action,
    Contract,
)
from .auction import MISERE_KINDS, AuctionView, ladder_positions
from .cards import (
    _BYTE_CARDS_UP,
    ALL_CARDS_MASK,
    DECK,
    SUIT_MASKS,
    Card,
    cards_of,
    format_hand,
    parse_cards,
    parse_hand,
)
from .errors import CardError, IllegalAction
from .explain import explain_illegal
from .observation import Observation, observe
from .result import DealKind, DealResult, DefenceCall
from .rules import Rules

__all__ = ["Deal", "Phase"]

_A = tuple(Action(i) for i in range(105))
_CARD_ACTIONS = _A[:32]


class Phase(StrEnum):
    """The phases of a deal (spec §11.5)."""

    BIDDING = "bidding"
    MISERE_INVITE = "misere_invite"  # the 4-handed dealer answers «приглашаю» (Kodeks 3.6.9)
    DISCARD = "discard"  # the declarer discards two cards face down
    DECLARE = "declare"  # the declarer names the contract
    WHIST = "whist"  # defenders call whist / pass / half-whist
    CONCESSION = "concession"  # the declarer may concede (без трёх / без всех)
    DEFENCE = "defence"  # a lone whister chooses open or closed (or «за своими»)
    QUOTA_ANSWER = "quota_answer"  # the declarer consents to «за своими» or not
    PLAY = "play"
    OVER = "over"


_PHASES = tuple(Phase)
BIDDING, MISERE_INVITE, DISCARD, DECLARE, WHIST, CONCESSION, DEFENCE, QUOTA_ANSWER, PLAY, OVER = range(10)

# Whist calls as small ints in ``_calls``.
_NONE, _PASSED, _WHISTED, _HALF = -1, 0, 1, 2

CardsLike = int | str | Iterable[int]


def _to_mask(cards: CardsLike | None, what: str) -> int:
    if cards is None:
        return 0
    if isinstance(cards, str):
        try:
            return parse_hand(cards)
        except CardError as e:
            raise CardError(f"{what}: {e}") from None
    if isinstance(cards, int) and not isinstance(cards, Card):
        if cards < 0 or cards > ALL_CARDS_MASK:
            raise CardError(f"{what}: a mask must fit in 32 bits")
        return cards
    m = 0
    for c in cards:  # type: ignore[union-attr]
        b = 1 << Card(c)
        if m & b:
            raise CardError(f"{what}: card {Card(c)} appears twice")
        m |= b
    return m


def _talon_cards(talon: CardsLike) -> tuple[Card, ...]:
    """The talon in its order (the order of the all-pass leads, Kodeks 3.7.6)."""
    if isinstance(talon, str):
        try:
            return parse_cards(talon)
        except CardError as e:
            raise CardError(f"talon: {e}") from None
    if isinstance(talon, int) and not isinstance(talon, Card):
        return cards_of(_to_mask(talon, "talon"))
    return tuple(Card(c) for c in talon)  # type: ignore[union-attr]


class Deal:
    """The state of one deal.  Mutable, with exact :meth:`undo`.

    Seats are absolute (0 … players-1), clockwise.  First hand is the
    dealer's left (``dealer + 1``); with 4 players the dealer holds no cards.
    """

    __slots__ = (
        "_best",
        "_best_held",
        "_best_seat",
        "_called",
        "_calls",
        "_completed",
        "_conceded",
        "_contract",
        "_dark_bidders",
        "_dark_passers",
        "_declarer",
        "_discard",
        "_exposed",
        # talon, declaration, whisting
        "_hands",
        "_invited",
        "_kind",
        "_ladder_pos",
        "_leader",
        "_legal",
        "_lone",
        "_misere_half",
        "_misere_seat",
        # history
        "_moves",
        "_open",
        "_open_pending",
        "_order",
        "_passed",
        # auction
        "_phase",
        "_quota_refused",
        "_raspas_talon",
        "_talon_taken",
        "_ten_checked",
        "_to_act",
        "_to_play",
        # play
        "_trick",
        "_tricks_won",
        "_undo",
        "_winning_bid",
        "_za_svoimi",
        "active",
        "dealer",
        "first_hand",
        "initial_hands",
        "min_level",
        "players",
        # fixed for the deal
        "rules",
        "talon",
    )

    # ------------------------------------------------------------------ creation
    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        talon: Sequence[int],
        *,
        dealer: int = 0,
        players: int = 3,
        min_level: int = 6,
    ) -> None:
        if players not in (3, 4):
            raise IllegalAction(f"players: Preferans is played by 3 or 4, not {players}")
        if not 0 <= dealer < players:
            raise IllegalAction(f"dealer: seat must be 0..{players - 1}, not {dealer}")
        if not 6 <= min_level <= 10:
            raise IllegalAction(f"min_level: must be 6..10, not {min_level}")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.active: tuple[int, ...] = tuple((dealer + i) % players for i in range(1, 4))
        self.first_hand = self.active[0]
        self.min_level = min_level
        order = [-1] * players
        for i, s in enumerate(self.active):
            order[s] = i
        self._order = tuple(order)
        self._ladder_pos = ladder_positions(rules.misere_rank, rules.without_talon_bids)
        self._raspas_talon = rules.raspas_talon_for(players)
        self._check_cards(hands, talon)
        self.initial_hands: tuple[int, ...] = tuple(hands)
        self.talon: tuple[Card, ...] = tuple(Card(c) for c in talon)
        self._moves: list[tuple[int, Action]] = []
        self._undo: list[tuple[object, ...]] = []
        self._legal: tuple[Action, ...] | None = None
        self._phase = BIDDING
        self._to_act = self.first_hand  # spec §3.2.1: first hand speaks first
        self._best = -1
        self._best_seat = -1
        self._best_held = False
        self._passed = 0
        self._called = 0
        self._misere_seat = -1
        self._dark_passers = 0
        self._dark_bidders = 0
        self._invited = False
        self._misere_half = False
        self._winning_bid = -1
        self._hands: tuple[int, ...] = tuple(hands)
        self._declarer = -1
        self._contract: Contract | None = None
        self._kind: DealKind | None = None
        self._discard = 0
        self._talon_taken = False
        self._calls: tuple[int, int] = (_NONE, _NONE)
        self._lone = -1
        self._open = False
        self._za_svoimi = False
        self._conceded = 0
        self._exposed = 0  # bit per seat whose hand lies face up
        self._ten_checked = False
        self._open_pending = False
        self._quota_refused = False
        self._trick: tuple[tuple[int, Card], ...] = ()
        self._leader = -1
        self._to_play = -1
        self._tricks_won: tuple[int, ...] = (0,) * players
        self._completed: tuple[tuple[tuple[tuple[int, Card], ...], int], ...] = ()

    def _check_cards(self, hands: Sequence[int], talon: Sequence[int]) -> None:
        if len(hands) != self.players:
            raise CardError(f"hands: give one hand per seat ({self.players}), not {len(hands)}")
        if len(talon) != 2:
            raise CardError(f"talon: must hold exactly 2 cards, not {len(talon)}")
        seen = 0
        for s, h in enumerate(hands):
            want = 0 if (self.players == 4 and s == self.dealer) else 10
            if h.bit_count() != want:
                who = "the dealer (who sits out)" if want == 0 else f"seat {s}"
                raise CardError(f"hands: {who} must hold {want} cards, not {h.bit_count()}")
            if seen & h:
                raise CardError(f"hands: card {cards_of(seen & h)[0]} is dealt twice")
            seen |= h
        for c in talon:
            if seen >> c & 1:
                raise CardError(f"talon: card {Card(c)} is also in a hand")
            seen |= 1 << c
        if seen != ALL_CARDS_MASK:
            raise CardError(f"cards: missing {format_hand(ALL_CARDS_MASK & ~seen)}")

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        players: int = 3,
        dealer: int = 0,
        seed: int | None = None,
        min_level: int = 6,
    ) -> Deal:
        """A freshly shuffled deal; the same ``seed`` always gives the same cards."""
        rng = random.Random(seed)
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [0] * players
        active = [(dealer + i) % players for i in range(1, 4)]
        for i, s in enumerate(active):
            for c in deck[10 * i : 10 * i + 10]:
                hands[s] |= 1 << c
        return cls(rules, hands, deck[30:], dealer=dealer, players=players, min_level=min_level)

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        *,
        hands: Sequence[CardsLike | None] | Mapping[int, CardsLike],
        talon: CardsLike,
        dealer: int = 0,
        players: int = 3,
        min_level: int = 6,
    ) -> Deal:
        """A deal from given cards.

        ``hands`` is one entry per seat (text such as ``"A♠ K♠ …"``, a mask or
        card ids), or a mapping seat → cards; with 4 players the dealer's entry
        is empty or omitted, or give just the three active hands in order
        first, second, third hand.
        """
        if isinstance(hands, Mapping):
            seq: list[CardsLike | None] = [hands.get(s) for s in range(players)]
        else:
            seq = list(hands)
            if players == 4 and len(seq) == 3:
                full: list[CardsLike | None] = [None] * 4
                for i in range(3):
                    full[(dealer + 1 + i) % 4] = seq[i]
                seq = full
        masks = [_to_mask(h, f"hand of seat {s}") for s, h in enumerate(seq)]
        return cls(rules, masks, _talon_cards(talon), dealer=dealer, players=players, min_level=min_level)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        *,
        hands: Sequence[CardsLike | None] | Mapping[int, CardsLike],
        talon: CardsLike,
        actions: Iterable[Action | int | str],
        dealer: int = 0,
        players: int = 3,
        min_level: int = 6,
    ) -> Deal:
        """Rebuild a deal from its cards and its actions (texts or ids)."""
        deal = cls.from_cards(
            rules, hands=hands, talon=talon, dealer=dealer, players=players, min_level=min_level
        )
        for i, a in enumerate(actions):
            try:
                deal.apply(deal.parse_action(a) if isinstance(a, str) else Action(a))
            except IllegalAction as e:
                raise IllegalAction(f"action {i + 1} ({a}): {e}") from None
        return deal

    def copy(self) -> Deal:
        """An independent copy with the same history (so it can be undone too)."""
        new = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(new, name, getattr(self, name))
        new._moves = list(self._moves)
        new._undo = list(self._undo)
        return new

    # ------------------------------------------------------------------ public state
    @property
    def phase(self) -> Phase:
        return _PHASES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is (in open play the whister acts for his partner)."""
        return None if self._phase == OVER else self._to_act

    @property
    def to_play(self) -> int | None:
        """During play, the seat whose card is played next (may differ from ``to_act``)."""
        return self._to_play if self._phase == PLAY else None

    @property
    def hands(self) -> tuple[int, ...]:
        """Current cards of each seat as masks (the declarer's include the talon once taken)."""
        return self._hands

    def hand(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far as (seat who acted, action)."""
        return tuple(self._moves)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(a for _, a in self._moves)

    @property
    def declarer(self) -> int | None:
        return None if self._declarer < 0 else self._declarer

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @property
    def kind(self) -> DealKind | None:
        return self._kind

    @property
    def trump(self) -> int | None:
        c = self._contract
        return c.trump if c is not None else None

    @property
    def winning_bid(self) -> Contract | None:
        """The auction's final bid (the lowest contract the declarer may name)."""
        return BIDS[self._winning_bid] if self._winning_bid >= 0 else None

    @property
    def highest_bid(self) -> Contract | None:
        return BIDS[self._best] if self._best >= 0 else None

    @property
    def discard(self) -> int:
        return self._discard

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """Cards on the table in the current trick as (seat, card).

        On all-pass the talon card leading tricks 1 and 2 appears with seat -1
        when it only names the suit (3 players) and with the dealer's seat when
        it takes part (4 players), Kodeks 3.7.6.
        """
        return self._trick

    @property
    def completed_tricks(self) -> tuple[tuple[tuple[tuple[int, Card], ...], int], ...]:
        """Finished tricks as (cards, winner seat or -1 when nobody took it)."""
        return self._completed

    @property
    def trick_number(self) -> int:
        return len(self._completed)

    @property
    def leader(self) -> int | None:
        return self._leader if self._phase == PLAY else None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return self._tricks_won

    @property
    def exposed(self) -> tuple[int, ...]:
        """Seats whose cards lie face up for everybody."""
        return tuple(s for s in range(self.players) if self._exposed >> s & 1)

    @property
    def open_play(self) -> bool:
        return self._open

    @property
    def defenders(self) -> tuple[int, ...]:
        if self._declarer < 0:
            return ()
        i = self._order[self._declarer]
        return (self.active[(i + 1) % 3], self.active[(i + 2) % 3])

    @property
    def whisters(self) -> tuple[int, ...]:
        d = self.defenders
        return tuple(s for s, c in zip(d, self._calls, strict=False) if c == _WHISTED)

    @property
    def talon_taken(self) -> bool:
        """Has the declarer taken the talon into his hand?"""
        return self._talon_taken

    @property
    def talon_shown(self) -> int:
        """How many talon cards everybody has seen (0, 1 or 2)."""
        if self._kind == DealKind.ALL_PASS:
            # Kodeks 3.7.6: turned up one at a time; never on Rostov all-pass (3.7.6.2).
            return 0 if self._raspas_talon == "unused" else min(2, len(self._completed) + 1)
        if self._talon_taken and not self._dark_misere():
            return 2  # shown to all, seed-002 p.21; Kodeks 3.6.6 for misère
        return 0

    def _dark_misere(self) -> bool:
        """Kodeks 3.6.5: a misère bid in the dark is caught in the dark, talon unseen."""
        c = self._contract
        return c is not None and c.is_misere and bool(self._dark_bidders >> self._declarer & 1)

    @property
    def multiplier(self) -> int:
        """The deal's coefficient (Kodeks 3.3.19): dark game ×2; all-pass ×2 per dark pass."""
        if self._kind == DealKind.ALL_PASS:
            return min(1 << self._dark_passers.bit_count(), self.rules.bomb_limit)
        if self._declarer >= 0 and self._dark_bidders >> self._declarer & 1:
            return 2
        return 1

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action now, in a fixed order (cards ascending, then calls)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def is_legal(self, action: Action | int) -> bool:
        return action in self.legal_actions()

    can_apply = is_legal

    def verify(self, action: Action | int, seat: int | None = None) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is not legal now."""
        if self._phase == OVER:
            raise IllegalAction(f"{Action(action)}: the deal is over")
        if seat is not None and seat != self._to_act:
            raise IllegalAction(
                f"seat {seat} acted out of turn: it is seat {self._to_act}'s turn "
                f"to act ({self.phase.value}); Kodeks 3.3.18"
            )
        if action not in self.legal_actions():
            raise IllegalAction(self._explain(Action(action)))

    def parse_action(self, text: str) -> Action:
        """Read action text in the context of the phase: ``7♠`` is a bid in the
        auction and at the declaration, and a card in the discard and play."""
        return Action.parse(text, bid=self._phase in (BIDDING, DECLARE))

    def apply(self, action: Action | int | str, seat: int | None = None) -> None:
        """Make the move; an illegal action raises and changes nothing."""
        if isinstance(action, str):
            action = self.parse_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal or (seat is not None and seat != self._to_act):
            self.verify(action, seat)
        a = _A[action]
        self._undo.append(self._save())
        self._moves.append((self._to_act, a))
        self._legal = None
        p = self._phase
        if p == PLAY:
            self._play_card(a)
        elif p == BIDDING:
            self._bid(a)
        elif p == DISCARD:
            self._discard_card(a)
        elif p == DECLARE:
            self._declare(a)
        elif p == WHIST:
            self._whist(a)
        elif p == DEFENCE:
            self._defence(a)
        elif p == QUOTA_ANSWER:
            self._quota_answer(a)
        elif p == CONCESSION:
            self._concession(a)
        elif p == MISERE_INVITE:
            self._invite_answer(a)

    push = apply

    def undo(self) -> Action:
        """Take back the last action exactly; returns it."""
        if not self._undo:
            raise IllegalAction("nothing to undo: no action has been made in this deal")
        self._restore(self._undo.pop())
        self._legal = None
        return self._moves.pop()[1]

    pop = undo

    # ------------------------------------------------------------------ undo support
    def _save(self) -> tuple[object, ...]:
        return (
            self._phase, self._to_act, self._best, self._best_seat, self._best_held,
            self._passed, self._called, self._misere_seat, self._dark_passers,
            self._dark_bidders, self._invited, self._misere_half, self._winning_bid,
            self._hands, self._declarer, self._contract, self._kind, self._discard,
            self._talon_taken, self._calls, self._lone, self._open, self._za_svoimi,
            self._conceded, self._exposed, self._ten_checked, self._open_pending, self._quota_refused,
            self._trick, self._leader, self._to_play, self._tricks_won, self._completed,
        )  # fmt: skip

    def _restore(self, s: tuple[object, ...]) -> None:
        (
            self._phase, self._to_act, self._best, self._best_seat, self._best_held,
            self._passed, self._called, self._misere_seat, self._dark_passers,
            self._dark_bidders, self._invited, self._misere_half, self._winning_bid,
            self._hands, self._declarer, self._contract, self._kind, self._discard,
            self._talon_taken, self._calls, self._lone, self._open, self._za_svoimi,
            self._conceded, self._exposed, self._ten_checked, self._open_pending, self._quota_refused,
            self._trick, self._leader, self._to_play, self._tricks_won, self._completed,
        ) = s  # type: ignore[assignment]  # fmt: skip

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> tuple[Action, ...]:
        p = self._phase
        if p == PLAY:
            return self._legal_cards()
        if p == BIDDING:
            return self._legal_calls()
        if p == DISCARD:
            return tuple(_CARD_ACTIONS[c] for c in cards_of(self._hands[self._declarer]))
        if p == DECLARE:
            return tuple(_A[BID_BASE + b] for b in self._declarable())
        if p == WHIST:
            return self._legal_whists()
        if p == DEFENCE:
            return self._legal_defence()
        if p in (QUOTA_ANSWER, MISERE_INVITE):
            return (_A[ACCEPT_ID], _A[REFUSE_ID])
        if p == CONCESSION:
            out = [_A[PLAY_ID]]
            if self.rules.bez_trekh:
                out.append(_A[CONCEDE_THREE_ID])
            if self.rules.concede_all:
                out.append(_A[CONCEDE_ALL_ID])
            return tuple(out)
        return ()

    def _legal_cards(self) -> tuple[Action, ...]:
        hand = self._hands[self._to_play]
        trick = self._trick
        if trick:
            led = trick[0][1] >> 3
            follow = hand & SUIT_MASKS[led]
            if follow:
                hand = follow
            else:
                trump = self._contract.trump if self._contract is not None else None
                if trump is not None and hand & SUIT_MASKS[trump]:
                    hand &= SUIT_MASKS[trump]  # spec §6: a void player must trump
        t = _BYTE_CARDS_UP
        return t[0][hand & 0xFF] + t[1][hand >> 8 & 0xFF] + t[2][hand >> 16 & 0xFF] + t[3][hand >> 24]  # type: ignore[return-value]

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
        seat = self._to_act
        view = self._auction_view(seat)
        bids = view.legal_bids()
        out = [_A[PASS_ID]]
        if view.can_hold():
            out.append(_A[HERE_ID])
        out.extend(_A[BID_BASE + b] for b in bids)
        r = self.rules
        if r.third_hand_takes_talon and self._third_hand_may_take_talon(seat):
            out.append(_A[TAKE_TALON_ID])  # Kodeks 3.3.15
        if r.dark_bids and not self._has_spoken(seat):
            # Kodeks 3.3.19: dark calls, made before looking, so only as a first call.
            out.append(_A[DARK_PASS_ID])
            out.extend(_A[DARK_BASE + b] for b in bids)
        if (
            self.players == 4
            and r.misere_half_with_dealer
            and not self._invited
            and MISERE_BID in bids
        ):
            out.append(_A[INVITE_ID])  # Kodeks 3.6.9
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

    def _declarable(self) -> list[int]:
        """Contracts (bid indices) the declarer may name: not lower than the winning bid.

        seed-002 p.21, Kodeks 3.3.11: "bought at 7♦ → 7♠ and 7♣ are not allowed".
        """
        win = self._winning_bid
        if win in MISERE_KINDS:
            # spec §4.4: a misère winner may switch to a game of 9 or more (option).
            return [MISERE_BID, *list(range(15, 25))]
        wb = BIDS[win]
        if wb.without_talon:
            # «9/10 без прикупа»: any game of that level or higher, talon unseen.
            return list(range((wb.level - 6) * 5, 25))
        pos = self._ladder_pos
        return [b for b in range(25) if pos[b] >= pos[win]]

    def _legal_whists(self) -> tuple[Action, ...]:
        level = self._contract.level if self._contract else 0
        d1, d2 = self.defenders
        c1, c2 = self._calls
        seat = self._to_act
        if self.rules.stalingrad and self._contract == BIDS[0]:
            return (_A[WHIST_ID],)  # «сталинград»: 6♠ must be whisted [K]
        if seat == d1 and c2 == _HALF:
            return (_A[PASS_ID], _A[WHIST_ID])  # answer to half-whist
        out = [_A[PASS_ID], _A[WHIST_ID]]
        if seat == d2 and c1 == _PASSED and level in self.rules.half_whist_levels:
            out.append(_A[HALF_WHIST_ID])
        return tuple(out)

    def _legal_defence(self) -> tuple[Action, ...]:
        if self._open_pending:
            return (_A[OPEN_ID], _A[CLOSED_ID])
        out = []
        if self.rules.open_timing == "before_first_lead":
            out += [_A[OPEN_ID], _A[CLOSED_ID]]
        else:
            out.append(_A[PLAY_ID])
        if self._quota_possible():
            out.append(_A[QUOTA_ID])
        return tuple(out)

    def _quota_possible(self) -> bool:
        c = self._contract
        # seed-002 p.27: «за своими» — 2 tricks on a 6, 1 on a 7.
        return self.rules.za_svoimi and c is not None and c.level in (6, 7) and not self._quota_refused


    # ------------------------------------------------------------------ transitions: auction
    def _next_bidder(self, seat: int) -> int:
        i = self._order[seat]
        for k in range(1, 4):
            s = self.active[(i + k) % 3]
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
        elif a == TAKE_TALON_ID:
            # Kodeks 3.3.15: no bid named; the declarer must then name some game.
            low = max(self.min_level, 6 + self._dark_passers.bit_count())
            self._best = (low - 6) * 5
            self._best_seat = seat
            self._called |= bit
            self._end_auction(seat)
            return
        elif a == INVITE_ID:
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
            if bid in MISERE_KINDS:
                self._misere_seat = seat
        self._after_call(seat)

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
            self._after_call(inviter)

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
        h = list(self._hands)
        h[seat] |= (1 << self.talon[0]) | (1 << self.talon[1])
        self._hands = tuple(h)
        self._phase = DISCARD
        self._to_act = seat

    def _discard_card(self, a: Action) -> None:
        seat = self._declarer
        h = list(self._hands)
        h[seat] &= ~(1 << a)
        self._hands = tuple(h)
        self._discard |= 1 << a
        if self._discard.bit_count() < 2:
            return
        if self._kind == DealKind.MISERE and self.rules.misere_winner_must_play_misere:
            self._start_play()
        else:
            self._phase = DECLARE

    def _declare(self, a: Action) -> None:
        bid = a - BID_BASE
        c = BIDS[bid]
        wt = BIDS[self._winning_bid].without_talon
        if c.is_misere:
            self._kind = DealKind.MISERE
            self._contract = Contract(0, NO_TRUMP, wt)
            self._start_play()
            return
        self._kind = DealKind.GAME
        self._contract = Contract(c.level, c.strain, wt)
        if c.level == 10 and self.rules.ten_mode == "checked":
            # seed-002 p.26: no whist on a 10; all cards are opened and the game is checked.
            self._ten_checked = True
            self._start_play()
            return
        self._phase = WHIST
        self._to_act = self.defenders[0]  # spec §5.1: the declarer's left speaks first

    # ------------------------------------------------------------------ transitions: whisting
    def _whist(self, a: Action) -> None:
        d1, d2 = self.defenders
        c1, c2 = self._calls
        seat = self._to_act
        call = _WHISTED if a == WHIST_ID else _HALF if a == HALF_WHIST_ID else _PASSED
        if seat == d1 and c2 == _HALF:
            if call == _WHISTED:
                # The first defender takes the whist back; the half-whister becomes a passer.
                self._calls = (_WHISTED, _PASSED)
                self._after_whisting()
            else:
                self._calls = (_PASSED, _HALF)
                self._finish_not_played()  # half-whist: no play (spec §5.4)
            return
        if seat == d1:
            self._calls = (call, _NONE)
            self._to_act = d2
            return
        self._calls = (c1, call)
        if call == _HALF:
            self._to_act = d1
            return
        self._after_whisting()

    def _after_whisting(self) -> None:
        whisters = self._calls.count(_WHISTED)
        if whisters == 0:
            self._finish_not_played()  # seed-002 p.25: both pass, the game is written without play
            return
        if whisters == 1:
            d1, d2 = self.defenders
            self._lone = d1 if self._calls[0] == _WHISTED else d2
        if self.rules.bez_trekh or self.rules.concede_all:
            self._phase = CONCESSION
            self._to_act = self._declarer
            return
        self._after_concession()

    def _concession(self, a: Action) -> None:
        if a == PLAY_ID:
            self._after_concession()
            return
        self._conceded = 3 if a == CONCEDE_THREE_ID else 10
        self._finish()

    def _after_concession(self) -> None:
        if self._lone >= 0:
            r = self.rules
            if r.open_timing == "before_first_lead" or self._quota_possible():
                self._phase = DEFENCE
                self._to_act = self._lone
                return
            self._open_pending = True  # seed-002 p.28: decided after the first lead
        self._start_play()

    def _defence(self, a: Action) -> None:
        if a == QUOTA_ID:
            self._phase = QUOTA_ANSWER
            self._to_act = self._declarer
            return
        if a == PLAY_ID:
            self._open_pending = True
            self._start_play()
            return
        if self._open_pending:
            # Mid-trick choice after the first lead: play goes on.
            self._open_pending = False
            self._set_open(a == OPEN_ID)
            self._phase = PLAY
            self._to_act = self._controller(self._to_play)
            return
        self._set_open(a == OPEN_ID)
        self._start_play()

    def _set_open(self, is_open: bool) -> None:
        self._open = is_open
        if is_open:
            for d in self.defenders:
                self._exposed |= 1 << d

    def _quota_answer(self, a: Action) -> None:
        if a == ACCEPT_ID:
            self._za_svoimi = True
            self._finish_not_played()
            return
        self._quota_refused = True
        self._phase = DEFENCE
        self._to_act = self._lone

    # ------------------------------------------------------------------ transitions: play
    def _start_all_pass(self) -> None:
        self._kind = DealKind.ALL_PASS
        self._phase = PLAY
        fh = self.first_hand
        if self._raspas_talon == "unused":
            self._leader = self._to_play = self._to_act = fh
            return
        self._lead_talon_card(0)

    def _lead_talon_card(self, i: int) -> None:
        # Kodeks 3.7.6.1/3.7.6.3: the talon card leads; first hand plays first.
        seat = self.dealer if self._raspas_talon == "participates" else -1
        self._trick = ((seat, self.talon[i]),)
        self._leader = self._to_play = self._to_act = self.first_hand

    def _start_play(self) -> None:
        self._phase = PLAY
        fh = self.first_hand  # spec §2: first hand leads in every kind of deal
        self._leader = self._to_play = fh
        c = self._contract
        if self._ten_checked:
            for s in self.active:
                self._exposed |= 1 << s
        elif c is not None and c.is_misere and not self._dark_misere() and fh != self._declarer:
            self._expose_misere_defenders()  # Kodeks 3.6.6: before the first lead
        self._to_act = self._controller(fh)

    def _expose_misere_defenders(self) -> None:
        for d in self.defenders:
            self._exposed |= 1 << d

    def _controller(self, seat: int) -> int:
        """Who decides for a hand: in open play the whister plays his partner's cards."""
        if self._open and self._lone >= 0 and seat != self._declarer and seat != self._lone:
            return self._lone
        return seat

    def _talon_leads(self) -> bool:
        """Is a talon card leading the current trick?  All-pass tricks 1–2 (Kodeks 3.7.6)."""
        return (
            self._kind == DealKind.ALL_PASS
            and self._raspas_talon != "unused"
            and len(self._completed) < 2
        )

    def _play_card(self, a: Action) -> None:
        seat = self._to_play
        h = self._hands
        if seat == 0:
            self._hands = (h[0] & ~(1 << a), *h[1:])
        else:
            lst = list(h)
            lst[seat] &= ~(1 << a)
            self._hands = tuple(lst)
        trick = (*self._trick, (seat, DECK[a]))
        self._trick = trick
        played = len(trick) - 1 if self._talon_leads() else len(trick)
        if played < 3:
            nxt = self.active[(self._order[seat] + 1) % 3]
            self._to_play = nxt
            if played == 1 and not self._completed:
                self._after_first_card()
            if self._phase == PLAY:
                self._to_act = self._controller(nxt)
            return
        self._finish_trick(trick)

    def _after_first_card(self) -> None:
        c = self._contract
        if c is not None and c.is_misere and self._declarer == self.first_hand and not self._dark_misere():
            self._expose_misere_defenders()  # Kodeks 3.6.6: after the declarer's lead
        if self._open_pending:
            self._phase = DEFENCE
            self._to_act = self._lone

    def _finish_trick(self, trick: tuple[tuple[int, Card], ...]) -> None:
        led = trick[0][1] >> 3
        trump = self._contract.trump if self._contract is not None else None
        best_seat, best_key = -1, -1
        for s, c in trick:
            if s < 0:
                continue  # a suit-only talon card cannot win (Kodeks 3.7.6.3)
            suit = c >> 3
            if trump is not None and suit == trump:
                key = 16 + (c & 7)
            elif suit == led:
                key = 8 + (c & 7)
            else:
                continue
            if key > best_key:
                best_seat, best_key = s, key
        won = list(self._tricks_won)
        if best_seat >= 0:
            won[best_seat] += 1
        self._tricks_won = tuple(won)
        self._completed = (*self._completed, (trick, best_seat))
        self._trick = ()
        n = len(self._completed)
        if n == 10:
            self._finish()
            return
        if self._kind == DealKind.ALL_PASS and self._raspas_talon != "unused" and n < 3:
            if n == 1:
                self._lead_talon_card(1)
                return
            # Kodeks 3.7.6.1: trick 3 is led by first hand, whoever won trick 2.
            self._leader = self._to_play = self.first_hand
            self._to_act = self.first_hand
            return
        # spec §6: the winner leads (from trick 3 on only players can win).
        self._leader = self._to_play = best_seat
        self._to_act = self._controller(best_seat)

    # ------------------------------------------------------------------ the end
    def _finish_not_played(self) -> None:
        self._kind = DealKind.NOT_PLAYED
        self._finish()

    def _finish(self) -> None:
        self._phase = OVER
        self._to_act = -1
        self._to_play = -1

    @property
    def result(self) -> DealResult:
        """The outcome for scoring; raises while the deal is still going on."""
        if self._phase != OVER:
            raise IllegalAction(f"the deal is not over yet (phase: {self.phase.value})")
        kind = self._kind
        assert kind is not None
        dark_passers = tuple(s for s in self.active if self._dark_passers >> s & 1)
        bombs: tuple[int, ...] = ()
        if kind == DealKind.ALL_PASS and self.rules.bombs and dark_passers:
            # Kodeks 3.3.19 a): dark passers earn a bomb; the 4-handed dealer too.
            bombs = dark_passers + ((self.dealer,) if self.players == 4 else ())
        common: dict[str, object] = {
            "players": self.players,
            "dealer": self.dealer,
            "multiplier": self.multiplier,
            "dark_passers": dark_passers,
            "bombs_earned": bombs,
            "talon": tuple(int(c) for c in self.talon),
        }
        if kind == DealKind.ALL_PASS:
            won = self._tricks_won
            return DealResult(
                kind,
                tricks={s: won[s] for s in self.active},
                dealer_tricks=won[self.dealer] if self.players == 4 else 0,
                **common,  # type: ignore[arg-type]
            )
        defence: dict[int, DefenceCall] = {}
        if kind != DealKind.MISERE and not self._ten_checked:
            names = {_PASSED: DefenceCall.PASS, _WHISTED: DefenceCall.WHIST, _HALF: DefenceCall.HALF}
            for d, c in zip(self.defenders, self._calls, strict=False):
                if c != _NONE:
                    defence[d] = names[c]
        tricks: dict[int, int] = {}
        if self._conceded == 3:
            assert self._contract is not None
            tricks = {self._declarer: self._contract.level - 3}
        elif self._conceded == 10:
            # Kodeks 3.5.4 «без всех»: the declarer takes no trick; the defence all ten.
            ws = self.whisters
            tricks = {self._declarer: 0}
            for d in self.defenders:
                tricks[d] = (10 if len(ws) == 1 else 5) if d in ws else 0
        elif kind != DealKind.NOT_PLAYED:
            tricks = {s: self._tricks_won[s] for s in self.active}
        return DealResult(
            kind,
            declarer=self._declarer,
            contract=self._contract,
            defence=defence,
            open_play=self._open,
            tricks=tricks,
            ten_checked=self._ten_checked,
            za_svoimi=self._za_svoimi,
            conceded=self._conceded,
            # Kodeks 3.6.9: «пополам» only when the misère itself was played, not when it was overcalled.
            misere_half=self._misere_half and kind == DealKind.MISERE,
            dark_game=bool(self._dark_bidders >> self._declarer & 1),
            **common,  # type: ignore[arg-type]
        )

    # ------------------------------------------------------------------ messages
    def _explain(self, a: Action) -> str:
        return explain_illegal(self, a)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, and nothing more (see :class:`Observation`)."""
        return observe(self, seat)

    def __repr__(self) -> str:
        return f"<Deal players={self.players} dealer={self.dealer} phase={self.phase.value} moves={len(self._moves)}>"

