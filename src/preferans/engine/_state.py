"""The fields of a deal's state and its phases, shared by the phase modules.

:class:`~preferans.engine.deal.Deal` is assembled from one mixin per group of phases
(:mod:`.bidding`, :mod:`.declaring`, :mod:`.trickplay`, :mod:`.irregular`);
this module declares the state they all read and write, so each mixin is
type-checked against the same fields.  Everything listed in
:data:`SAVED_FIELDS` is saved before each action and restored by ``undo``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from ..actions import NUM_ALL_ACTIONS, Action, Contract
from ..cards import Card
from ..rules import Rules, TalonUse
from .result import DealKind
from .standing import Standing

if TYPE_CHECKING:
    from .ladder import AuctionView

__all__ = [
    "AT_DECK", "AT_DISCARD", "AT_TABLE", "AT_TALON", "FIXED_FIELDS", "PUBLIC", "SAVED_FIELDS",
    "DealFields", "Ledger", "Phase", "Sight", "Trick",
]  # fmt: skip

ACTIONS: tuple[Action, ...] = tuple(Action(i) for i in range(NUM_ALL_ACTIONS))
CARD_ACTIONS = ACTIONS[:32]


class Phase(StrEnum):
    """The phases of a deal (rules.md §11.5)."""

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
    REDRAW = "redraw"  # Kodeks 3.3.17: the dealer draws two cards back into the talon
    LEAD_PENALTY = "lead_penalty"  # Kodeks 3.3.18: the declarer requires or forbids a suit
    CLAIM_ANSWER = "claim_answer"  # the opponents accept or refuse a claim
    MISERE_CATCH = "misere_catch"  # misère catchers: «ловлю» (whist) / «доверяю» (accept), option misere_catchers


PHASES = tuple(Phase)
(
    BIDDING, MISERE_INVITE, DISCARD, DECLARE, WHIST, CONCESSION, DEFENCE, QUOTA_ANSWER, PLAY, OVER,
    REDRAW, LEAD_PENALTY, CLAIM_ANSWER, MISERE_CATCH,
) = range(14)  # fmt: skip

# Whist calls as small ints in ``_calls``.
NONE, PASSED, WHISTED, HALF = -1, 0, 1, 2

Trick = tuple[tuple[int, Card], ...]
"""The cards of one trick as (seat, card) in the order played (seat -1: an all-pass talon lead)."""

# The visibility ledger (issue 14): every card movement as (cards, from, to, seen by, move).
# ``from``/``to`` are a seat (0–3) or one of the places below; ``from == to`` records a look
# (cards shown where they lie, e.g. a hand laid face up).  ``seen by`` has a bit per seat
# that saw the faces, and PUBLIC for everybody (spectators included).  ``move`` is the index
# in the history of the action that moved the cards, or -1.  The ledger is a chain of
# immutable pairs (newest entry, older chain), so saving it for ``undo`` is free.
AT_TALON, AT_DISCARD, AT_TABLE, AT_DECK = 4, 5, 6, 7
PUBLIC = 1 << 4
LedgerEntry = tuple[int, int, int, int, int]
Ledger = tuple[LedgerEntry, "Ledger"] | None
Sight = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""An observer's knowledge after some ledger entries: per place the cards he knows lie there and
how many lie there, the cards he saw as the current talon, and a bit per move whose card he saw."""

SAVED_FIELDS = (
    "_phase", "_to_act", "_best", "_best_seat", "_best_held", "_passed", "_called",
    "_misere_seat", "_dark_passers", "_dark_bidders", "_invited", "_misere_half",
    "_winning_bid", "_last_bid", "_hands", "_talon", "_declarer", "_contract", "_kind",
    "_discard", "_talon_taken", "_calls", "_lone", "_open", "_za_svoimi", "_conceded",
    "_exposed", "_ten_checked", "_open_pending", "_quota_refused", "_trick", "_leader",
    "_to_play", "_tricks_won", "_completed", "_talon_seen_by", "_out_of_turn", "_lead_rule",
    "_claim", "_claim_answer_by", "_final_claim", "_offender", "_claimants", "_resume_to_act",
    "_dealer_whist", "_talon_shown_by_dealer", "_totus_seat", "_ledger", "_catcher", "_catch_offer",
    "_catch_done",
)  # fmt: skip


# Fixed when the deal is made (not saved for undo).
FIXED_FIELDS = (
    "rules", "players", "seats", "dealer", "active", "first_hand", "min_level", "standing", "initial_hands",
    "initial_talon",
    "_order", "_ladder_pos", "_raspas_talon", "_calls_cache", "_moves", "_move_phases", "_undo", "_legal",
    "_sight",
)  # fmt: skip


class DealFields:
    """Declarations of a deal's state, and its slots.

    The phase mixins and :class:`~preferans.engine.deal.Deal` declare empty
    ``__slots__``, so a deal has no ``__dict__``: a mistyped field name raises
    instead of escaping ``undo`` and ``copy``.
    """

    __slots__ = FIXED_FIELDS + SAVED_FIELDS

    # fixed for the deal
    rules: Rules
    players: int
    seats: int  # the seats at the table: the players, and the dummy when two play (гусарик)
    dealer: int
    active: tuple[int, ...]
    first_hand: int
    min_level: int
    standing: Standing | None  # the pulka's public standing before this deal; None for a deal alone
    initial_hands: tuple[int, ...]
    initial_talon: tuple[Card, ...]
    _order: tuple[int, ...]
    _ladder_pos: tuple[int, ...]
    _raspas_talon: TalonUse
    _calls_cache: dict[tuple[object, ...], tuple[Action, ...]]
    # history
    _moves: list[tuple[int, Action]]
    _move_phases: list[int]  # the phase each move was made in (kept beside _moves, undone with it)
    _undo: list[tuple[object, ...]]
    _legal: tuple[Action, ...] | None
    # What each observer knows, by observer bits: (the ledger node it was read up to, the
    # knowledge then).  The knowledge is a function of the ledger chain alone, so copies of
    # the deal may share this (observation.py reads it).
    _sight: dict[int, tuple[Ledger, Sight]]
    # auction
    _phase: int
    _to_act: int
    _best: int
    _best_seat: int
    _best_held: bool
    _passed: int
    _called: int
    _misere_seat: int
    _dark_passers: int
    _dark_bidders: int
    _invited: bool
    _misere_half: bool
    _winning_bid: int
    _last_bid: tuple[int, ...]
    # cards, talon, declaration, whisting
    _hands: tuple[int, ...]
    _talon: tuple[Card, ...]
    _declarer: int
    _contract: Contract | None
    _kind: DealKind | None
    _discard: int
    _talon_taken: bool
    _calls: tuple[int, int]
    _lone: int
    _open: bool
    _za_svoimi: bool
    _conceded: int
    _exposed: int
    _ten_checked: bool
    _open_pending: bool
    _quota_refused: bool
    _dealer_whist: int  # -1 not asked, 0 passed, 1 whisted (dealer_whist)
    _talon_shown_by_dealer: bool  # dealer_shown_talon_whists
    _totus_seat: int  # who bid the dedicated totus, or -1 (option totus)
    _catcher: int  # misere_catchers: the catcher playing both hands, else -1
    _catch_offer: int  # the catcher who said «ловлю» and waits for his partner's answer, else -1
    _catch_done: bool  # the catchers have settled who plays (or there was nothing to settle)
    # play
    _trick: Trick
    _leader: int
    _to_play: int
    _tricks_won: tuple[int, ...]
    _completed: tuple[tuple[Trick, int], ...]
    # irregularities and claims
    _talon_seen_by: int
    _out_of_turn: tuple[tuple[int, int], ...]
    _lead_rule: tuple[int, int, bool] | None
    _claim: tuple[int, int] | None
    _claim_answer_by: tuple[int, ...]
    _final_claim: tuple[int, int] | None
    _offender: int
    _claimants: tuple[tuple[int, str], ...]
    _resume_to_act: int
    # who saw which card (see Ledger)
    _ledger: Ledger

    if TYPE_CHECKING:
        # Transitions that one phase module calls in another.
        @property
        def defenders(self) -> tuple[int, ...]: ...
        def _start_play(self) -> None: ...
        def _start_all_pass(self) -> None: ...
        def _finish(self) -> None: ...
        def _finish_not_played(self) -> None: ...
        def _controller(self, seat: int) -> int: ...
        def _after_call(self, seat: int) -> None: ...
        def _end_auction(self, seat: int) -> None: ...
        def _dark_misere(self) -> bool: ...
        def _maybe_lead_penalty(self) -> None: ...
        def _quota_possible(self) -> bool: ...
        def _restricted_lead(self, hand: int) -> int: ...
        def _save(self) -> tuple[object, ...]: ...
        def _record(self, cards: int, source: int, to: int, seen: int, move: int = -1) -> None: ...
        def _expose(self, seat: int) -> None: ...
        def _declarer_side(self) -> int: ...
        def _auction_view(self, seat: int) -> AuctionView: ...
        # The public state, read by the per-seat view and the error messages.
        @property
        def phase(self) -> Phase: ...
        @property
        def to_act(self) -> int | None: ...
        @property
        def to_play(self) -> int | None: ...
        @property
        def hands(self) -> tuple[int, ...]: ...
        def hand(self, seat: int) -> int: ...
        @property
        def moves(self) -> tuple[tuple[int, Action], ...]: ...
        @property
        def declarer(self) -> int | None: ...
        @property
        def contract(self) -> Contract | None: ...
        @property
        def trump(self) -> int | None: ...
        @property
        def winning_bid(self) -> Contract | None: ...
        @property
        def highest_bid(self) -> Contract | None: ...
        @property
        def bidder(self) -> int | None: ...
        @property
        def move_phases(self) -> tuple[Phase, ...]: ...
        @property
        def whisters(self) -> tuple[int, ...]: ...
        @property
        def catcher(self) -> int | None: ...
        @property
        def discard(self) -> int: ...
        @property
        def trick(self) -> Trick: ...
        @property
        def completed_tricks(self) -> tuple[tuple[Trick, int], ...]: ...
        @property
        def tricks_won(self) -> tuple[int, ...]: ...
        @property
        def exposed(self) -> tuple[int, ...]: ...
        @property
        def open_play(self) -> bool: ...
        @property
        def talon(self) -> tuple[Card, ...]: ...
        @property
        def talon_seen_by(self) -> int: ...
        @property
        def talon_taken(self) -> bool: ...
        @property
        def talon_shown(self) -> int: ...
        def legal_actions(self) -> tuple[Action, ...]: ...
