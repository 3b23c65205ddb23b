"""Actions of a deal and their stable integer encoding.

Every decision in a deal is an :class:`Action`: an ``int`` with a fixed id, so
bots, the solver and RL environments share one action space (cards first, then
calls, as in OpenSpiel's Skat):

======== ==============================================================
ids      meaning
======== ==============================================================
0–31     a card (played, or discarded during the discard phase)
32–60    a bid or a declared contract: 6♠ … 10NT, misère, 9/10 and
         misère without the talon (see :data:`BIDS`)
61       pass (in the auction and in whisting)
62       here — hold the current bid (здесь / мои, Kodeks 3.3.8)
63       talon — third hand takes the talon silently (Kodeks 3.3.15)
64       dark pass (пас втёмную, Kodeks 3.3.19)
65–93    dark bids: the bids above made without looking
94       whist (вист)
95       half-whist (полвиста)
96, 97   open / closed defence (лёжа / стоя)
98       invite — misère «пополам» with the 4-handed dealer (Kodeks 3.6.9)
99, 100  accept / refuse (the dealer's answer; the declarer's consent)
101      quota — a lone whister writes his quota without play («за своими»)
102      play — the declarer plays on (declines to concede)
103      concede-3 («без трёх», option ``bez_trekh``)
104      concede-all («без всех», Kodeks 3.5.4)
105–107  require / forbid / waive — the declarer's choice after a call out
         of turn (Kodeks 3.3.18)
108–111  irregularities reported at the table: talon seen, talon exposed,
         talon taken (Kodeks 3.3.16–3.3.17), misdeal (seed-002 p.12)
112–141  a call made out of turn (a bid, or pass), Kodeks 3.3.18
142–163  claims: ``claim N`` (the claimer's side takes N of the remaining
         tricks) and ``claim N proven`` (proved by the solver)
164      totus — the dedicated 10-trick bid above misère (option ``totus``);
         an ordinary legal call when offered, outside the RL action space
======== ==============================================================

``NUM_ACTIONS`` (105) is the size of the play action space used by bots and
RL environments; ids from 105 on belong to irregularities and claims, which
are made through :meth:`preferans.Deal.report` and :meth:`preferans.Deal.claim`
(the answers ``require``/``forbid``/``waive`` and ``accept``/``refuse`` are
ordinary legal actions when they are due).

>>> Action.parse("6♠"), Action.parse("pass"), Action.parse("A♥")
(Action('6♠'), Action('pass'), Action('A♥'))
>>> int(Action.parse("misere")), Action.parse("пас") is PASS
(57, True)
>>> Action.parse("7NT").contract
Contract(level=7, strain=4, without_talon=False, totus=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, Suit
from .errors import ActionError, CardError

__all__ = [
    "ACCEPT",
    "BIDS",
    "CLOSED",
    "CONCEDE_ALL",
    "CONCEDE_THREE",
    "DARK_PASS",
    "HALF_WHIST",
    "HERE",
    "INVITE",
    "MISERE",
    "NUM_ACTIONS",
    "NUM_ALL_ACTIONS",
    "OPEN",
    "PASS",
    "PLAY",
    "QUOTA",
    "REFUSE",
    "TAKE_TALON",
    "WHIST",
    "Action",
    "Contract",
    "SeatedAction",
    "action_meaning",
    "action_phases",
    "action_table",
]

STRAIN_NAMES = ("♠", "♣", "♦", "♥", "NT")
STRAIN_ASCII = ("S", "C", "D", "H", "NT")
NO_TRUMP = 4


@dataclass(frozen=True, slots=True)
class Contract:
    """A game: level 6–10 and strain 0–3 (a trump suit) or 4 (no-trump), or misère.

    ``level == 0`` marks misère.  ``without_talon`` is a game bid «без прикупа».
    """

    level: int
    strain: int = NO_TRUMP
    without_talon: bool = False
    totus: bool = False  # a 10 declared after the dedicated totus bid (option ``totus``)

    @property
    def is_misere(self) -> bool:
        return self.level == 0

    @property
    def trump(self) -> int | None:
        """The trump suit, or ``None`` for no-trump and misère (Kodeks 3.6.7)."""
        return None if self.level == 0 or self.strain == NO_TRUMP else self.strain

    def __str__(self) -> str:
        base = "misere" if self.level == 0 else f"{self.level}{STRAIN_NAMES[self.strain]}"
        return base + (" without talon" if self.without_talon else "") + (" totus" if self.totus else "")

    def ascii(self) -> str:
        base = "misere" if self.level == 0 else f"{self.level}{STRAIN_ASCII[self.strain]}"
        return base + ("-WT" if self.without_talon else "") + ("-totus" if self.totus else "")

    @classmethod
    def parse(cls, text: str) -> Contract:
        """The one reader of a contract as players write it, on a score line or a bid.

        Level then strain (``7♠``, ``7S``, ``7 пики``, ``6 Ч``, ``8NT``, ``10БК``),
        misère (``misere``, ``мизер``), and a game «без прикупа» (``9H-WT``,
        ``9 без прикупа``, ``10бп``, ``misere-no-talon``).

        >>> [str(Contract.parse(t)) for t in ("7s", "7♠", "8nt", "10БК", "6 Ч", "мизер", "9H-WT")]
        ['7♠', '7♠', '8NT', '10NT', '6♥', 'misere', '9♥ without talon']
        >>> Contract.parse("11S")
        Traceback (most recent call last):
        ...
        preferans.errors.ActionError: cannot read contract '11S': write 6S … 10NT (or 7♠, 8БК, 7 пики), misere, 9H-WT
        """
        if not isinstance(text, str):
            raise ActionError(f"contract: give text such as '7♠' or 'misere', not {type(text).__name__} {text!r}")
        key = "".join(text.strip().lower().split())
        if key in _TOTUS_WORDS:
            return Contract(10, NO_TRUMP, False, True)
        totus = False
        for suffix in _TOTUS_WORDS:
            if key.endswith(suffix) and len(key) > len(suffix):
                key, totus = key[: -len(suffix)].rstrip("-"), True
                break
        if totus:
            c = Contract.parse(key)
            if c.level != 10 or c.without_talon:
                raise ActionError(f"cannot read contract {text!r}: a totus is a 10, e.g. 10S-totus")
            return Contract(10, c.strain, False, True)
        wt = False
        for suffix in _WITHOUT_TALON:
            if key.endswith(suffix) and len(key) > len(suffix):
                key, wt = key[: -len(suffix)], True
                break
        if key in _MISERE_WORDS:
            return Contract(0, NO_TRUMP, wt)
        level = key[:2] if key.startswith("10") else key[:1]
        rest = key[len(level) :]
        strain: int | None = NO_TRUMP if rest in _NO_TRUMP_WORDS or (wt and not rest) else None
        if strain is None and rest:
            try:
                strain = int(Suit.parse(rest))
            except CardError:
                strain = None
        if level in ("6", "7", "8", "9", "10") and strain is not None:
            return Contract(int(level), strain, wt)
        raise ActionError(
            f"cannot read contract {text!r}: write 6S … 10NT (or 7♠, 8БК, 7 пики), misere, 9H-WT"
        )


_TOTUS_WORDS = ("totus", "тотус")
_WITHOUT_TALON = ("-wt", "withouttalon", "-no-talon", "безприкупа", "бп")
_MISERE_WORDS = frozenset(("misere", "misère", "мизер", "m", "mis"))
_NO_TRUMP_WORDS = frozenset(("nt", "n", "бк", "безкозыря", "notrump", "notrumps"))


# The bids (ids 32..60): the 25 trick games, misère, then the «без прикупа» bids.
BIDS: tuple[Contract, ...] = (
    *(Contract(level, strain) for level in range(6, 11) for strain in range(5)),
    Contract(0),
    Contract(9, NO_TRUMP, True),  # «9 без прикупа»: any 9-level game, talon unseen
    Contract(10, NO_TRUMP, True),  # «10 без прикупа»
    Contract(0, NO_TRUMP, True),  # «мизер без прикупа»
)
BID_BASE = 32
MISERE_BID = 25
NUM_BIDS = len(BIDS)
PASS_ID = 61
HERE_ID = 62
TAKE_TALON_ID = 63
DARK_PASS_ID = 64
DARK_BASE = 65
WHIST_ID = 94
HALF_WHIST_ID = 95
OPEN_ID = 96
CLOSED_ID = 97
INVITE_ID = 98
ACCEPT_ID = 99
REFUSE_ID = 100
QUOTA_ID = 101
PLAY_ID = 102
CONCEDE_THREE_ID = 103
CONCEDE_ALL_ID = 104
NUM_ACTIONS = 105
REQUIRE_ID = 105
FORBID_ID = 106
WAIVE_ID = 107
TALON_SEEN_ID = 108
TALON_EXPOSED_ID = 109
TALON_TAKEN_ID = 110
MISDEAL_ID = 111
OUT_OF_TURN_BASE = 112  # + bid index; OUT_OF_TURN_BASE + NUM_BIDS is a pass out of turn
CLAIM_BASE = 142  # + tricks claimed (0..10)
PROVEN_CLAIM_BASE = 153
IRREGULAR_END = 164  # reports and claims are TALON_SEEN_ID … IRREGULAR_END − 1
TOTUS_ID = 164
NUM_ALL_ACTIONS = 165

_CALL_NAMES = {
    PASS_ID: "pass",
    HERE_ID: "here",
    TAKE_TALON_ID: "talon",
    DARK_PASS_ID: "dark pass",
    WHIST_ID: "whist",
    HALF_WHIST_ID: "half-whist",
    OPEN_ID: "open",
    CLOSED_ID: "closed",
    INVITE_ID: "invite",
    ACCEPT_ID: "accept",
    REFUSE_ID: "refuse",
    QUOTA_ID: "quota",
    PLAY_ID: "play",
    CONCEDE_THREE_ID: "concede-3",
    CONCEDE_ALL_ID: "concede-all",
    REQUIRE_ID: "require",
    FORBID_ID: "forbid",
    WAIVE_ID: "waive",
    TALON_SEEN_ID: "!talon-seen",
    TALON_EXPOSED_ID: "!talon-exposed",
    TALON_TAKEN_ID: "!talon-taken",
    MISDEAL_ID: "!misdeal",
}


def _bid_text(c: Contract, ascii: bool) -> str:
    if c.level == 0:
        return "misere-no-talon" if c.without_talon else "misere"
    if c.without_talon:
        return f"{c.level}-no-talon"
    return f"{c.level}{(STRAIN_ASCII if ascii else STRAIN_NAMES)[c.strain]}"


def _name(i: int, ascii: bool) -> str:
    if i < 32:
        card = Card(i)
        return card.ascii() if ascii else str(card)
    if i < DARK_PASS_ID and i >= BID_BASE and i < BID_BASE + NUM_BIDS:
        return _bid_text(BIDS[i - BID_BASE], ascii)
    if DARK_BASE <= i < DARK_BASE + NUM_BIDS:
        return "dark " + _bid_text(BIDS[i - DARK_BASE], ascii)
    if OUT_OF_TURN_BASE <= i < OUT_OF_TURN_BASE + NUM_BIDS:
        return "!out-of-turn " + _bid_text(BIDS[i - OUT_OF_TURN_BASE], ascii)
    if i == OUT_OF_TURN_BASE + NUM_BIDS:
        return "!out-of-turn pass"
    if CLAIM_BASE <= i < PROVEN_CLAIM_BASE:
        return f"claim {i - CLAIM_BASE}"
    if PROVEN_CLAIM_BASE <= i < IRREGULAR_END:
        return f"claim {i - PROVEN_CLAIM_BASE} proven"
    if i == TOTUS_ID:
        return "totus"
    return _CALL_NAMES[i]


class Action(int):
    """One decision in a deal; an ``int`` id in ``range(NUM_ACTIONS)``.

    Instances are interned: compare with ``is`` or ``==`` as you like.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Action:
        try:
            if value < 0:
                raise IndexError
            return _ACTIONS[value]
        except (IndexError, TypeError):
            raise ActionError(f"action id must be an integer 0..{NUM_ALL_ACTIONS - 1}, not {value!r}") from None

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Action('{_TEXT[self]}')"

    def ascii(self) -> str:
        """ASCII text, the form used in records: ``AH``, ``6S``, ``7NT``."""
        return _ASCII[self]

    @property
    def is_irregular(self) -> bool:
        """An irregularity or a claim (ids 108 and up), reported with ``Deal.report``/``Deal.claim``."""
        return TALON_SEEN_ID <= self < IRREGULAR_END

    @property
    def claim_tricks(self) -> int | None:
        """For a claim, the tricks claimed; else ``None``."""
        if CLAIM_BASE <= self < PROVEN_CLAIM_BASE:
            return self - CLAIM_BASE
        if PROVEN_CLAIM_BASE <= self < IRREGULAR_END:
            return self - PROVEN_CLAIM_BASE
        return None

    @property
    def is_card(self) -> bool:
        return self < 32

    @property
    def card(self) -> Card | None:
        return Card(self) if self < 32 else None

    @property
    def is_bid(self) -> bool:
        """A bid in the auction or a declared contract (light or dark)."""
        return BID_BASE <= self < BID_BASE + NUM_BIDS or DARK_BASE <= self < DARK_BASE + NUM_BIDS

    @property
    def is_dark(self) -> bool:
        return self == DARK_PASS_ID or DARK_BASE <= self < DARK_BASE + NUM_BIDS

    @property
    def contract(self) -> Contract | None:
        """The bid's contract (for bids and dark bids), else ``None``."""
        if BID_BASE <= self < BID_BASE + NUM_BIDS:
            return BIDS[self - BID_BASE]
        if DARK_BASE <= self < DARK_BASE + NUM_BIDS:
            return BIDS[self - DARK_BASE]
        return None

    @classmethod
    def from_card(cls, card: int) -> Action:
        return _ACTIONS[Card(card)]

    @classmethod
    def bid(cls, contract: Contract, *, dark: bool = False) -> Action:
        """The bid action of a contract."""
        try:
            i = _BID_INDEX[contract]
        except KeyError:
            raise ActionError(f"{contract} is not a bid") from None
        return _ACTIONS[(DARK_BASE if dark else BID_BASE) + i]

    @classmethod
    def parse(cls, text: str, *, bid: bool = False) -> Action:
        """Read any ``str(action)`` or ``action.ascii()`` form, and Russian words.

        ``7♠`` … ``10♥`` name both a card and a bid: they read as the card
        unless ``bid=True`` (or written ``bid 7♠``).  A :class:`~preferans.Deal`
        reads text in the context of its phase, so ``deal.apply("7♠")`` bids
        during the auction and plays the card during play.

        >>> [str(Action.parse(t)) for t in ("7s", "здесь", "вист", "dark 6S", "10NT", "мизер")]
        ['7♠', 'here', 'whist', 'dark 6♠', '10NT', 'misere']
        >>> Action.parse("7♠").is_card, Action.parse("7♠", bid=True).is_bid, Action.parse("bid 7♠").is_bid
        (True, True, True)
        """
        if not isinstance(text, str):
            raise ActionError(f"action: give text such as 'pass' or '7♠', not {type(text).__name__} {text!r}")
        key = " ".join(text.strip().lower().split())
        if key.startswith("bid "):
            return cls.parse(key[4:], bid=True)
        if key.startswith("card "):
            return _ACTIONS[Card.parse(key[5:])]
        hit = _PARSE.get(key)
        if hit is not None and (bid or key not in _AMBIGUOUS):
            return hit
        if key.startswith("dark ") or key.startswith("втёмную ") or key.startswith("втемную "):
            inner = cls.parse(key.split(" ", 1)[1], bid=True)
            if inner == PASS_ID:
                return _ACTIONS[DARK_PASS_ID]
            if BID_BASE <= inner < BID_BASE + NUM_BIDS:
                return _ACTIONS[DARK_BASE + inner - BID_BASE]
        if bid:
            contract = _contract_or_none(key)
            if contract is not None:
                return contract
        try:
            return _ACTIONS[Card.parse(key)]
        except CardError:
            pass
        contract = _contract_or_none(key)
        if contract is not None:
            return contract
        raise ActionError(
            f"cannot read action {text!r}: write a card (A♥, TS), a bid (6♠, 7NT, misere), "
            "or a call (pass, here, whist, half-whist, open, closed, …)"
        )


class SeatedAction(NamedTuple):
    """A report or a claim as ``Deal.actions`` lists it: the seat that made it, and the action.

    An ordinary action is made by whoever is to act, so its id says all; a report names its
    offender and a claim its claimer, who may be anyone at the table (Kodeks 3.3.16: any bidder
    may have seen the talon), so the seat goes with it.  Its text is ``SEAT:action``, which
    ``Deal.replay_move`` reads back (issue 29).

    >>> m = SeatedAction.parse("0:!talon-seen")
    >>> m, str(m), m.ascii(), m.action.is_irregular
    (SeatedAction(seat=0, action=Action('!talon-seen')), '0:!talon-seen', '0:!talon-seen', True)
    >>> SeatedAction.parse("pass") is None
    True
    """

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"

    def ascii(self) -> str:
        """The record's ASCII form: ``1:!out-of-turn 7S``."""
        return f"{self.seat}:{self.action.ascii()}"

    @classmethod
    def parse(cls, text: str) -> SeatedAction | None:
        """Read ``SEAT:action``; ``None`` when the text names no seat (an ordinary action)."""
        seat_text, sep, rest = text.strip().partition(":")
        if not (sep and seat_text.isdigit()):
            return None
        return cls(int(seat_text), Action.parse(rest, bid=True))


def _contract_or_none(text: str) -> Action | None:
    """The bid of a contract text (read by :meth:`Contract.parse`), or ``None``."""
    try:
        return Action.bid(Contract.parse(text))
    except ActionError:
        return None


def _try_card(text: str) -> bool:
    try:
        Card.parse(text)
    except CardError:
        return False
    return True


_ACTIONS: tuple[Action, ...] = tuple(int.__new__(Action, i) for i in range(NUM_ALL_ACTIONS))
_TEXT = tuple(_name(i, False) for i in range(NUM_ALL_ACTIONS))
_ASCII = tuple(_name(i, True) for i in range(NUM_ALL_ACTIONS))
_BID_INDEX = {c: i for i, c in enumerate(BIDS)}

_PARSE: dict[str, Action] = {}
for _i in range(32, NUM_ALL_ACTIONS):
    _PARSE[_TEXT[_i].lower()] = _ACTIONS[_i]
    _PARSE[_ASCII[_i].lower()] = _ACTIONS[_i]
_PARSE.update(
    {
        "пас": _ACTIONS[PASS_ID],
        "здесь": _ACTIONS[HERE_ID],
        "мои": _ACTIONS[HERE_ID],
        "hold": _ACTIONS[HERE_ID],
        "mine": _ACTIONS[HERE_ID],
        "прикуп": _ACTIONS[TAKE_TALON_ID],
        "take talon": _ACTIONS[TAKE_TALON_ID],
        "take-talon": _ACTIONS[TAKE_TALON_ID],
        "dark-pass": _ACTIONS[DARK_PASS_ID],
        "пас втёмную": _ACTIONS[DARK_PASS_ID],
        "пас втемную": _ACTIONS[DARK_PASS_ID],
        "вист": _ACTIONS[WHIST_ID],
        "ловлю": _ACTIONS[WHIST_ID],  # the misère catcher's «ловлю» (misere_catchers)
        "misere_catch": _ACTIONS[WHIST_ID],
        "доверяю": _ACTIONS[ACCEPT_ID],  # his partner's «доверяю»
        "trust": _ACTIONS[ACCEPT_ID],
        "полвиста": _ACTIONS[HALF_WHIST_ID],
        "half": _ACTIONS[HALF_WHIST_ID],
        "halfwhist": _ACTIONS[HALF_WHIST_ID],
        "лёжа": _ACTIONS[OPEN_ID],
        "лежа": _ACTIONS[OPEN_ID],
        "в светлую": _ACTIONS[OPEN_ID],
        "стоя": _ACTIONS[CLOSED_ID],
        "втёмную": _ACTIONS[CLOSED_ID],
        "приглашаю": _ACTIONS[INVITE_ID],
        "согласен": _ACTIONS[ACCEPT_ID],
        "отказ": _ACTIONS[REFUSE_ID],
        "за своими": _ACTIONS[QUOTA_ID],
        "играю": _ACTIONS[PLAY_ID],
        "без трёх": _ACTIONS[CONCEDE_THREE_ID],
        "без трех": _ACTIONS[CONCEDE_THREE_ID],
        "без всех": _ACTIONS[CONCEDE_ALL_ID],
        "тотус": _ACTIONS[TOTUS_ID],
    }
)

# Texts that read both as a card and as a bid (7♠ … 10♥, 7S … 10H).
_AMBIGUOUS = frozenset(k for k in _PARSE if _try_card(k))

PASS = _ACTIONS[PASS_ID]
HERE = _ACTIONS[HERE_ID]
TAKE_TALON = _ACTIONS[TAKE_TALON_ID]
DARK_PASS = _ACTIONS[DARK_PASS_ID]
MISERE = _ACTIONS[BID_BASE + MISERE_BID]
WHIST = _ACTIONS[WHIST_ID]
HALF_WHIST = _ACTIONS[HALF_WHIST_ID]
OPEN = _ACTIONS[OPEN_ID]
CLOSED = _ACTIONS[CLOSED_ID]
INVITE = _ACTIONS[INVITE_ID]
ACCEPT = _ACTIONS[ACCEPT_ID]
REFUSE = _ACTIONS[REFUSE_ID]
QUOTA = _ACTIONS[QUOTA_ID]
PLAY = _ACTIONS[PLAY_ID]
CONCEDE_THREE = _ACTIONS[CONCEDE_THREE_ID]
CONCEDE_ALL = _ACTIONS[CONCEDE_ALL_ID]


# --------------------------------------------------------------------------- the table of ids
_BID_PHASES = ("bidding", "declare")
_CALL_ROWS: dict[int, tuple[tuple[str, ...], str]] = {
    PASS_ID: (("bidding", "whist", "misere_catch"),
              "pass: in the auction (final, Kodeks 3.3.10), in whisting (no whist), or not catching for both"),
    HERE_ID: (("bidding",), "here (здесь/мои): hold the current highest bid, Kodeks 3.3.8 (option hold_rule)"),
    TAKE_TALON_ID: (("bidding",), "talon: third hand takes the talon silently, then names a game (Kodeks 3.3.15)"),
    DARK_PASS_ID: (("bidding",), "dark pass (пас втёмную), before looking at one's cards (Kodeks 3.3.19)"),
    WHIST_ID: (("whist", "misere_catch"),
               "whist (вист): defend and count one's tricks; in misere_catch «ловлю»: play both hands"),
    HALF_WHIST_ID: (("whist",), "half-whist (полвиста): second defender after a pass, on levels half_whist_levels"),
    OPEN_ID: (("defence",), "open (лёжа): the lone whister plays with both defenders' cards face up"),
    CLOSED_ID: (("defence",), "closed (стоя): each defender plays his own hand unseen"),
    INVITE_ID: (("bidding",), "invite: misère «пополам» with the 4-handed dealer (Kodeks 3.6.9)"),
    ACCEPT_ID: (("misere_invite", "quota_answer", "claim_answer", "misere_catch"),
                "accept: the dealer shares the misère; the declarer lets «за своими» stand; a claim is conceded; "
                "«доверяю»: the partner who said «ловлю» plays both hands"),
    REFUSE_ID: (("misere_invite", "quota_answer", "claim_answer", "misere_catch"),
                "refuse: the same four questions, answered no"),
    QUOTA_ID: (("defence",), "quota («за своими»): the lone whister writes his quota without play (za_svoimi)"),
    PLAY_ID: (("concession", "defence"), "play: the declarer plays on; the lone whister plays, open or closed later"),
    CONCEDE_THREE_ID: (("concession",), "concede-3 («без трёх»): the declarer admits three down (option bez_trekh)"),
    CONCEDE_ALL_ID: (("concession",), "concede-all («без всех»): the declarer admits every trick (Kodeks 3.5.4)"),
    TOTUS_ID: (("bidding",), "totus: the dedicated 10-trick bid above misère, any 10 named at the declaration "
                             "(option totus); outside the RL action space"),
    REQUIRE_ID: (("lead_penalty",), "require: the declarer requires the suit of a call out of turn (Kodeks 3.3.18)"),
    FORBID_ID: (("lead_penalty",), "forbid: the declarer forbids that suit to the next lead (Kodeks 3.3.18)"),
    WAIVE_ID: (("lead_penalty",), "waive: the declarer lets the call out of turn pass (Kodeks 3.3.18)"),
}


_REPORTS = {
    TALON_SEEN_ID: "a player saw the talon during the auction (Kodeks 3.3.16)",
    TALON_EXPOSED_ID: "the talon was shown to all during the auction (Kodeks 3.3.16.3)",
    TALON_TAKEN_ID: "a player took the talon into his hand; the dealer draws two back (Kodeks 3.3.17)",
    MISDEAL_ID: "a wrong deal: the same dealer deals again (seed 002 p.12)",
}


def action_phases(action: int) -> tuple[str, ...]:
    """The phases in which ``action`` can be among the legal actions (empty: only reported).

    >>> action_phases(Action.parse("pass")), action_phases(Action.parse("A♥")), action_phases(MISDEAL_ID)
    (('bidding', 'whist', 'misere_catch'), ('discard', 'play'), ())
    """
    a = Action(action)
    if a < 32:
        return ("discard", "play")
    if BID_BASE <= a < BID_BASE + NUM_BIDS:
        c = BIDS[a - BID_BASE]
        return ("bidding",) if c.without_talon else _BID_PHASES  # «без прикупа»: never declared as such
    if DARK_BASE <= a < DARK_BASE + NUM_BIDS:
        return ("bidding",)
    row = _CALL_ROWS.get(a)
    return row[0] if row is not None else ()


def action_meaning(action: int) -> str:
    """What ``action`` means, in a few words, with the rule it comes from.

    >>> action_meaning(Action.parse("7♠", bid=True))
    'bid 7♠ in the auction, or name it as the contract (declare)'
    """
    a = Action(action)
    if a < 32:
        return f"the card {Card(a)}: played (play) or laid away face down (discard)"
    c = a.contract
    if c is not None and not a.is_dark:
        if c.without_talon:
            what = "misère" if c.is_misere else f"any {c.level}-level game"
            return f"bid {what} without the talon («без прикупа», option without_talon_bids)"
        if c.is_misere:
            return "bid misère (first call only, Kodeks 3.3.9), or name misère as the contract (declare)"
        return f"bid {a} in the auction, or name it as the contract (declare)"
    if c is not None:
        return f"{a} before looking at one's cards (Kodeks 3.3.19, option dark_bids)"
    row = _CALL_ROWS.get(a)
    if row is not None:
        return row[1]
    if TALON_SEEN_ID <= a <= MISDEAL_ID:
        return _REPORTS[a]
    if OUT_OF_TURN_BASE <= a < CLAIM_BASE:
        return "report a call out of turn (Kodeks 3.3.18): Deal.report, never a legal action"
    n = a.claim_tricks
    proven = "proved by the solver" if a >= PROVEN_CLAIM_BASE else "to be answered by the opponents"
    return f"claim {n} of the remaining tricks, {proven}: Deal.claim, never a legal action"


def action_table() -> list[tuple[int, str, str, tuple[str, ...], str]]:
    """Every action id: (id, text, ASCII text, phases where it can be legal, meaning)."""
    return [
        (i, _TEXT[i], _ASCII[i], action_phases(i), action_meaning(i)) for i in range(NUM_ALL_ACTIONS)
    ]
