"""One deal of Preferans as a state machine: legal actions, apply, undo.

A :class:`Deal` runs the whole life of one deal (rules.md §11.5): the auction,
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
from operator import attrgetter

from ..actions import (
    ACCEPT_ID,
    BID_BASE,
    BIDS,
    CONCEDE_ALL_ID,
    CONCEDE_THREE_ID,
    FORBID_ID,
    PLAY_ID,
    PROVEN_CLAIM_BASE,
    REFUSE_ID,
    REQUIRE_ID,
    WAIVE_ID,
    Action,
    Contract,
    SeatedAction,
)
from ..cards import (
    ALL_CARDS_MASK,
    Card,
    CardsLike,
    Mask,
    cards_of,
    format_hand,
    layout_problem,
    mask_of,
    parse_cards,
    to_mask,
)
from ..errors import CardError, ConfigError, IllegalAction, UndoError
from ..rules import Rules
from ..seats import DUMMY, Seat, active_seats, defenders_of, seat_count
from ._auction import AuctionMixin
from ._declaring import DeclaringMixin
from ._irregular import IrregularMixin
from ._state import (
    ACTIONS,
    AT_DECK,
    AT_TALON,
    BIDDING,
    CARD_ACTIONS,
    CLAIM_ANSWER,
    CONCESSION,
    DECLARE,
    DEFENCE,
    DISCARD,
    HALF,
    LEAD_PENALTY,
    MISERE_CATCH,
    MISERE_INVITE,
    NONE,
    OVER,
    PASSED,
    PHASES,
    PLAY,
    QUOTA_ANSWER,
    REDRAW,
    SAVED_FIELDS,
    WHIST,
    WHISTED,
    DealFields,
    Ledger,
    Phase,
    Trick,
)
from ._trickplay import PlayMixin
from .explain import explain_illegal
from .ladder import ladder_positions
from .observation import Observation, observe
from .result import DealKind, DealResult, DefenceCall
from .standing import Standing

__all__ = ["Deal", "Phase", "Trick"]

_SAVE = attrgetter(*SAVED_FIELDS)
# Legal auction calls by the small values they depend on, one table per Rules (see bidding).
_CALLS_CACHES: dict[Rules, dict[tuple[object, ...], tuple[Action, ...]]] = {}

def _talon_cards(talon: CardsLike) -> tuple[Card, ...]:
    """The talon in its order (the order of the all-pass leads, Kodeks 3.7.6)."""
    if isinstance(talon, str):
        try:
            return parse_cards(talon)
        except CardError as e:
            raise CardError(f"talon: {e}") from None
    if isinstance(talon, int) and not isinstance(talon, Card):
        return cards_of(to_mask(talon, "talon"))
    return tuple(Card(c) for c in talon)  # type: ignore[union-attr]

def _check_standing(standing: Standing, rules: Rules, players: int) -> None:
    """A standing that belongs to this table: a type, a pool per player, the rules' target."""
    if not isinstance(standing, Standing):
        raise ConfigError(f"standing: give a Standing value (Pulka.standing()), not {type(standing).__name__}")
    if standing.players != players:
        raise ConfigError(f"standing: it has {standing.players} players, the deal {players}")
    if standing.pool_target != rules.pool_target:
        raise ConfigError(f"standing: pool_target {standing.pool_target} differs from the rules' {rules.pool_target}")
    if standing.bombs and not rules.bombs:
        raise ConfigError("standing: bombs given, but the rules play without bombs (bombs=false)")


class Deal(AuctionMixin, DeclaringMixin, PlayMixin, IrregularMixin):
    """The state of one deal.  Mutable, with exact :meth:`undo`.

    Seats are absolute (0 … players-1), clockwise.  First hand is the
    dealer's left (``dealer + 1``); with 4 players the dealer holds no cards.
    """

    __slots__ = ()  # every field is a slot of DealFields

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
        standing: Standing | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise ConfigError(f"rules: give a Rules value (Rules.preset('sochi')), not {type(rules).__name__}")
        if players not in (2, 3, 4):
            raise ConfigError(f"players: Preferans is played by 3 or 4, or by 2 (гусарик), not {players}")
        if not 0 <= dealer < players:
            raise ConfigError(f"dealer: seat must be 0..{players - 1}, not {dealer}")
        if not 6 <= min_level <= 10:
            raise ConfigError(f"min_level: must be 6..10, not {min_level}")
        if standing is not None:
            _check_standing(standing, rules, players)
        self.rules = rules
        self.players = players
        self.seats = seats = seat_count(players)  # гусарик: the dummy is seat 2 (rules.md §16)
        self.dealer = dealer
        self.active: tuple[int, ...] = active_seats(dealer, players)
        self.first_hand = self.active[0]
        self.min_level = min_level
        self.standing = standing
        order = [-1] * seats
        for i, s in enumerate(self.active):
            order[s] = i
        self._order = tuple(order)
        self._ladder_pos = ladder_positions(rules.misere_rank, rules.without_talon_bids)
        self._raspas_talon = rules.raspas_talon_for(players)
        self._calls_cache = _CALLS_CACHES.setdefault(rules, {})
        self._check_cards(hands, talon)
        self.initial_hands: tuple[int, ...] = tuple(hands)
        self._talon: tuple[Card, ...] = tuple(Card(c) for c in talon)
        self.initial_talon: tuple[Card, ...] = self._talon  # as dealt (a redraw may change the talon)
        self._moves: list[tuple[int, Action]] = []
        self._move_phases: list[int] = []
        self._undo: list[tuple[object, ...]] = []
        self._legal: tuple[Action, ...] | None = None
        self._sight = {}
        self._phase = BIDDING
        self._to_act = self.first_hand  # rules.md §3.2.1: first hand speaks first
        self._best = -1
        self._best_seat = -1
        self._best_held = False
        self._passed = 0 if players != 2 else 1 << DUMMY  # the dummy never bids: it always passes
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
        self._calls: tuple[int, int] = (NONE, NONE)
        self._lone = -1
        self._open = False
        self._za_svoimi = False
        self._conceded = 0
        self._exposed = 0  # bit per seat whose hand lies face up
        self._ten_checked = False
        self._open_pending = False
        self._quota_refused = False
        self._dealer_whist = -1
        self._talon_shown_by_dealer = False
        self._totus_seat = -1
        self._catcher = -1
        self._catch_offer = -1
        self._catch_done = False
        self._last_bid: tuple[int, ...] = (-1,) * seats
        self._talon_seen_by = 0
        self._out_of_turn: tuple[tuple[int, int], ...] = ()
        self._lead_rule: tuple[int, int, bool] | None = None
        self._claim: tuple[int, int] | None = None
        self._claim_answer_by: tuple[int, ...] = ()
        self._final_claim: tuple[int, int] | None = None
        self._offender = -1
        self._claimants: tuple[tuple[int, str], ...] = ()
        self._resume_to_act = -1
        self._trick: tuple[tuple[int, Card], ...] = ()
        self._leader = -1
        self._to_play = -1
        self._tricks_won: tuple[int, ...] = (0,) * seats
        self._completed: tuple[tuple[tuple[tuple[int, Card], ...], int], ...] = ()
        # The deal itself opens the ledger: each hand seen by its holder, the talon by nobody.
        ledger: Ledger = None
        for s in self.active:
            ledger = ((hands[s], AT_DECK, s, 1 << s, -1), ledger)
        self._ledger: Ledger = ((mask_of(self._talon), AT_DECK, AT_TALON, 0, -1), ledger)

    def _check_cards(self, hands: Sequence[int], talon: Sequence[int]) -> None:
        if len(hands) != self.seats:
            dummy = " and the dummy's" if self.players == 2 else ""
            raise CardError(f"hands: give one hand per seat ({self.seats}: the players'{dummy}), not {len(hands)}")
        sizes = [0 if (self.players == 4 and s == self.dealer) else 10 for s in range(self.seats)]
        names = ["the dealer (who sits out)" if want == 0 else f"seat {s}" for s, want in enumerate(sizes)]
        problem = layout_problem(hands, talon, sizes, names)
        if problem is not None:
            raise CardError(problem)
        seen = mask_of(talon)
        for h in hands:
            seen |= h
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
        standing: Standing | None = None,
    ) -> Deal:
        """A freshly shuffled deal; the same ``seed`` always gives the same cards.

        ``standing`` is the pulka's public standing when the deal is played inside one
        (:meth:`preferans.scoring.pulka.Pulka.standing`); every observation shows it.
        """
        deck = list(range(32))
        random.Random(seed).shuffle(deck)
        return cls.from_deck(rules, deck, players=players, dealer=dealer, min_level=min_level, standing=standing)

    @classmethod
    def from_deck(
        cls, rules: Rules, deck: Sequence[int], *, players: int = 3, dealer: int = 0, min_level: int = 6,
        standing: Standing | None = None,
    ) -> Deal:
        """A deal of the 32 cards in ``deck`` order: ten each to first, second and
        third hand (the dealer's left first), the last two to the talon."""
        if sorted(deck) != list(range(32)):
            raise CardError("deck: give each of the 32 cards once")
        hands = [0] * seat_count(players)
        if players in (2, 3, 4):
            for i, s in enumerate(active_seats(dealer, players)):
                hands[s] = mask_of(deck[10 * i : 10 * i + 10])
        return cls(rules, hands, deck[30:], dealer=dealer, players=players, min_level=min_level, standing=standing)

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
        standing: Standing | None = None,
    ) -> Deal:
        """A deal from given cards.

        ``hands`` is one entry per seat (text such as ``"A♠ K♠ …"``, a mask or
        card ids), or a mapping seat → cards; with 4 players the dealer's entry
        is empty or omitted, or give just the three active hands in order
        first, second, third hand.
        """
        if isinstance(hands, Mapping):
            seq: list[CardsLike | None] = [hands.get(s) for s in range(seat_count(players))]
        else:
            seq = list(hands)
            if players == 4 and len(seq) == 3:
                full: list[CardsLike | None] = [None] * 4
                for s, h in zip(active_seats(dealer, 4), seq, strict=True):
                    full[s] = h
                seq = full
        masks = [to_mask(h, f"hand of seat {s}") for s, h in enumerate(seq)]
        return cls(rules, masks, _talon_cards(talon), dealer=dealer, players=players, min_level=min_level,
                   standing=standing)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        *,
        hands: Sequence[CardsLike | None] | Mapping[int, CardsLike],
        talon: CardsLike,
        actions: Iterable[Action | int | str | tuple[int, Action | int | str]],
        dealer: int = 0,
        players: int = 3,
        min_level: int = 6,
        standing: Standing | None = None,
    ) -> Deal:
        """Rebuild a deal from its cards and its moves.

        Each move is an action (text or id), a ``(seat, action)`` pair as in
        :attr:`moves`, or an entry of :attr:`actions` (or its text) — reports and
        claims are made by a seat rather than offered as legal actions, so they
        carry it: ``deal.actions`` always replays ``deal``.
        """
        deal = cls.from_cards(
            rules, hands=hands, talon=talon, dealer=dealer, players=players, min_level=min_level,
            standing=standing,
        )
        for i, move in enumerate(actions):
            seat, a = move if isinstance(move, tuple) else (None, move)
            try:
                deal.replay_move(seat, a)
            except IllegalAction as e:
                raise IllegalAction(f"action {i + 1} ({a}): {e}") from None
        return deal

    def replay_move(self, seat: Seat | None, action: Action | int | str) -> None:
        """Make one stored move ``(seat, action)`` as :attr:`moves` lists it.

        The one replay step of records, tables and the server: an ordinary
        action is applied for ``seat`` (``None``: whoever is to act); a report
        names its offender in ``seat`` and a claim its claimer (see
        :meth:`report`, :meth:`claim`), or its text names it: ``"0:!talon-seen"``
        (:class:`SeatedAction`).
        """
        seated = SeatedAction.parse(action) if isinstance(action, str) else None
        if seated is not None:
            if seat is not None and seat != seated.seat:
                raise IllegalAction(f"{action}: names seat {seated.seat}, but the move is seat {seat}'s")
            seat, a = seated
        else:
            a = self.parse_action(action) if isinstance(action, str) else Action(action)
        if not a.is_irregular:
            self.apply(a, seat)
        elif seat is None:
            raise IllegalAction(f"{a}: a report or a claim needs the seat that made it")
        elif a.claim_tricks is not None:
            self.claim(seat, a.claim_tricks, proven=a >= PROVEN_CLAIM_BASE)
        else:
            self.report(a, seat)

    def copy(self) -> Deal:
        """An independent copy with the same history (so it can be undone too)."""
        new = Deal.__new__(Deal)
        for name in DealFields.__slots__:
            setattr(new, name, getattr(self, name))
        new._moves = list(self._moves)
        new._move_phases = list(self._move_phases)
        new._undo = list(self._undo)
        return new

    # ------------------------------------------------------------------ public state
    @property
    def phase(self) -> Phase:
        return PHASES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision it is (in open play the whister acts for his partner)."""
        return None if self._phase == OVER else self._to_act

    @property
    def to_play(self) -> Seat | None:
        """During play, the seat whose card is played next (may differ from ``to_act``)."""
        return self._to_play if self._phase == PLAY else None

    @property
    def hands(self) -> tuple[Mask, ...]:
        """Current cards of each seat as masks (the declarer's include the talon once taken)."""
        return self._hands

    def hand(self, seat: Seat) -> Mask:
        return self._hands[seat]

    @property
    def moves(self) -> tuple[tuple[Seat, Action], ...]:
        """Every action so far as (seat who acted, action)."""
        return tuple(self._moves)

    @property
    def actions(self) -> tuple[Action | SeatedAction, ...]:
        """Every action so far, enough to replay the deal (:meth:`replay`): an ordinary action
        as itself, a report or a claim with the seat that made it (:class:`SeatedAction`)."""
        return tuple(SeatedAction(s, a) if a.is_irregular else a for s, a in self._moves)

    @property
    def declarer(self) -> Seat | None:
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
        """The auction's highest bid so far (a «здесь» holds it, Kodeks 3.3.8)."""
        return BIDS[self._best] if self._best >= 0 else None

    @property
    def bidder(self) -> Seat | None:
        """The seat holding :attr:`highest_bid` (after «здесь», the senior who said it)."""
        return self._best_seat if self._best >= 0 else None

    @property
    def catcher(self) -> Seat | None:
        """Against a misère, the catcher who plays both hands («ловлю», misere_catchers one_for_both)."""
        return self._catcher if self._catcher >= 0 else None

    @property
    def move_phases(self) -> tuple[Phase, ...]:
        """The phase each of :attr:`moves` was made in.

        >>> d = Deal.new(Rules(), seed=1)
        >>> for a in ("pass", "pass", "pass"):
        ...     d.apply(a)
        >>> [str(p) for p in d.move_phases]
        ['bidding', 'bidding', 'bidding']
        """
        return tuple(PHASES[p] for p in self._move_phases)

    @property
    def discard(self) -> Mask:
        return self._discard

    @property
    def trick(self) -> Trick:
        """Cards on the table in the current trick as (seat, card).

        On all-pass the talon card leading tricks 1 and 2 appears with seat -1
        when it only names the suit (3 players) and with the dealer's seat when
        it takes part (4 players), Kodeks 3.7.6.
        """
        return self._trick

    @property
    def completed_tricks(self) -> tuple[tuple[Trick, Seat], ...]:
        """Finished tricks as (cards, winner seat or -1 when nobody took it)."""
        return self._completed

    @property
    def trick_number(self) -> int:
        return len(self._completed)

    @property
    def leader(self) -> Seat | None:
        return self._leader if self._phase == PLAY else None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return self._tricks_won

    @property
    def exposed(self) -> tuple[Seat, ...]:
        """Seats whose cards lie face up for everybody."""
        return tuple(s for s in range(self.seats) if self._exposed >> s & 1)

    @property
    def open_play(self) -> bool:
        return self._open

    @property
    def defenders(self) -> tuple[Seat, ...]:
        if self._declarer < 0:
            return ()
        return defenders_of(self.active, self._declarer)

    @property
    def whisters(self) -> tuple[Seat, ...]:
        d = self.defenders
        return tuple(s for s, c in zip(d, self._calls, strict=False) if c == WHISTED)

    @property
    def talon(self) -> tuple[Card, ...]:
        """The two talon cards, in the order they lead an all-pass (Kodeks 3.7.6)."""
        return self._talon

    @property
    def talon_seen_by(self) -> int:
        """Bit per seat that saw the talon during the auction (Kodeks 3.3.16)."""
        return self._talon_seen_by

    @property
    def talon_taken(self) -> bool:
        """Has the declarer taken the talon into his hand?"""
        return self._talon_taken

    @property
    def talon_shown(self) -> int:
        """How many talon cards everybody has seen (0, 1 or 2)."""
        if self._talon_shown_by_dealer:
            return 2  # the 4-handed dealer showed it to everybody (dealer_shown_talon_whists)
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

    def verify(self, action: Action | int, seat: Seat | None = None) -> None:
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

    def apply(self, action: Action | int | str, seat: Seat | None = None) -> None:
        """Make the move; an illegal action raises and changes nothing."""
        if isinstance(action, str):
            action = self.parse_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal or (seat is not None and seat != self._to_act):
            self.verify(action, seat)
        a = ACTIONS[action]
        self._undo.append(self._save())
        self._moves.append((self._to_act, a))
        p = self._phase
        self._move_phases.append(p)
        self._legal = None
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
        elif p == REDRAW:
            self._redraw(a)
        elif p == LEAD_PENALTY:
            self._lead_penalty(a)
        elif p == MISERE_CATCH:
            self._catch(a)
        elif p == CLAIM_ANSWER:
            self._claim_answer(a)

    push = apply

    def undo(self) -> Action:
        """Take back the last action exactly; returns it."""
        if not self._undo:
            raise UndoError("nothing to undo: no action has been made in this deal")
        self._restore(self._undo.pop())
        self._legal = None
        self._move_phases.pop()
        return self._moves.pop()[1]

    pop = undo

    # ------------------------------------------------------------------ undo support
    def _record(self, cards: int, source: int, to: int, seen: int, move: int = -1) -> None:
        """Write one card movement (or a look, ``source == to``) in the visibility ledger."""
        self._ledger = ((cards, source, to, seen, move), self._ledger)

    def _save(self) -> tuple[object, ...]:
        saved: tuple[object, ...] = _SAVE(self)
        return saved

    def _restore(self, saved: tuple[object, ...]) -> None:
        for name, value in zip(SAVED_FIELDS, saved, strict=True):
            setattr(self, name, value)

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> tuple[Action, ...]:
        p = self._phase
        if p == PLAY:
            return self._legal_cards()
        if p == BIDDING:
            return self._legal_calls()
        if p == DISCARD:
            return tuple(CARD_ACTIONS[c] for c in cards_of(self._hands[self._declarer]))
        if p == DECLARE:
            return tuple(ACTIONS[BID_BASE + b] for b in self._declarable())
        if p == WHIST:
            return self._legal_whists()
        if p == DEFENCE:
            return self._legal_defence()
        if p in (QUOTA_ANSWER, MISERE_INVITE, CLAIM_ANSWER):
            return (ACTIONS[ACCEPT_ID], ACTIONS[REFUSE_ID])
        if p == MISERE_CATCH:
            return self._legal_catch()
        if p == REDRAW:
            return tuple(CARD_ACTIONS[c] for c in cards_of(self._hands[self._offender]))
        if p == LEAD_PENALTY:
            return (ACTIONS[REQUIRE_ID], ACTIONS[FORBID_ID], ACTIONS[WAIVE_ID])
        if p == CONCESSION:
            out = [ACTIONS[PLAY_ID]]
            c = self._contract
            if self.rules.bez_trekh and c is not None and c.level <= self.rules.bez_trekh_max_level:
                out.append(ACTIONS[CONCEDE_THREE_ID])
            if self.rules.concede_all:
                out.append(ACTIONS[CONCEDE_ALL_ID])
            return tuple(out)
        return ()

    # ------------------------------------------------------------------ the end

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
            "talon": tuple(int(c) for c in self._talon),
        }
        if kind in (DealKind.VOID, DealKind.PENALTY):
            # seed-002 p.12 (re-deal), Kodeks 3.3.16.3 (assessed as whists on the offender).
            return DealResult(
                kind, offender=self._offender, claimants=self._claimants, **common  # type: ignore[arg-type]
            )
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
            names = {PASSED: DefenceCall.PASS, WHISTED: DefenceCall.WHIST, HALF: DefenceCall.HALF}
            for d, c in zip(self.defenders, self._calls, strict=False):
                if c != NONE:
                    defence[d] = names[c]
        tricks: dict[int, int] = {}
        if self._conceded == 3:
            assert self._contract is not None
            tricks = {self._declarer: self._contract.level - 3}
        elif self._conceded == 10:
            # Kodeks 3.5.4 «без всех»: the declarer takes no trick; the defence all ten.
            ws = self.whisters or ((self._lone,) if self._lone >= 0 else self.defenders)
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
            dealer_whist=self._dealer_whist == 1,
            talon_shown_by_dealer=self._talon_shown_by_dealer,
            dark_game=bool(self._dark_bidders >> self._declarer & 1),
            claim=self._final_claim,
            **common,  # type: ignore[arg-type]
        )

    # ------------------------------------------------------------------ messages
    def _explain(self, a: Action) -> str:
        return explain_illegal(self, a)

    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` may know now, and nothing more (see :class:`Observation`)."""
        return observe(self, seat)

    def public_observation(self) -> Observation:
        """What everybody at the table sees (for spectators): ``seat`` is -1, no hand."""
        return observe(self, None)

    def __repr__(self) -> str:
        return f"<Deal players={self.players} dealer={self.dealer} phase={self.phase.value} moves={len(self._moves)}>"

