"""The observation vector: one seat's :class:`~preferans.Observation` as fixed-size bits.

Every feature is 0 or 1, so a vector is built as one Python integer (bit ``i``
is feature ``i``) and unpacked to numpy in one call.  Seats are *relative* to
the observer — slot 0 is the observer, slot 1 his left, slot 2 the next, slot 3
the fourth seat at a 4-handed table — so one policy serves every seat.

The blocks, in order (``LAYOUT`` holds the offsets; docs/env.md explains them):

>>> [name for name, _ in BLOCKS][:6]
['hand', 'known_hands', 'talon', 'discard', 'played', 'trick']
>>> OBS_SIZE
960

:func:`encode_bits` reads only an :class:`~preferans.Observation`, so the
vector can hold nothing the seat may not know; :func:`encode` returns it as a
numpy ``int8`` array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import BID_BASE, DARK_BASE, NUM_ACTIONS, NUM_BIDS, Contract
from ..engine.observation import Observation, Phase
from ..scoring.pulka import Pulka
from ..seats import seat_count

__all__ = [
    "BLOCKS",
    "CALL_BASE",
    "LAYOUT",
    "NUM_CALLS",
    "OBS_BYTES",
    "OBS_SIZE",
    "PHASES",
    "bits_to_array",
    "describe",
    "encode",
    "encode_bits",
    "feature_names",
    "sheet_bits",
]

CALL_BASE = BID_BASE  # calls are the action ids 32 … 104
NUM_CALLS = NUM_ACTIONS - CALL_BASE
SEATS = 4  # relative seat slots: self, left, across/next, fourth
PHASES = (
    "bidding", "misere_invite", "discard", "declare", "whist",
    "concession", "defence", "quota_answer", "play", "over",
    "redraw", "lead_penalty", "claim_answer",  # irregularities: reached only through Deal.report / claim
    "misere_catch",  # the misère catchers' «ловлю» / «доверяю» (misere_catchers)
)  # fmt: skip
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
MIN_LEVELS = (6, 7, 8, 9, 10)

BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", 32),  # own cards now
    ("known_hands", 32 * 3),  # cards seen face up, relative seats 1..3
    ("talon", 32),  # talon cards this seat has seen
    ("discard", 32),  # own discard (declarer only)
    ("played", 32 * SEATS),  # cards played so far by each relative seat (tricks done + current)
    ("trick", 32 * SEATS),  # the current trick's cards by relative seat
    ("trick_talon", 32),  # a talon card leading the trick and naming only the suit (3p all-pass)
    ("calls", NUM_CALLS * SEATS),  # every call (ids 32..104) each relative seat has made
    ("last_bid", NUM_BIDS),  # during the auction: its latest bid (index into BIDS, light or dark)
    ("phase", len(PHASES)),
    ("to_act", SEATS),  # relative seat whose decision it is
    ("to_play", SEATS),  # relative seat whose card is played next (play phase)
    ("dealer", SEATS),
    ("declarer", SEATS),
    ("contract_level", 6),  # misère, 6, 7, 8, 9, 10
    ("contract_strain", 5),  # ♠ ♣ ♦ ♥ NT (misère: none)
    ("without_talon", 1),
    ("tricks_won", 11 * SEATS),  # one-hot 0..10 per relative seat
    ("open_play", 1),
    ("four_players", 1),
    ("min_level", len(MIN_LEVELS)),  # lowest game allowed this deal (after all-passes)
    # The sheet, in pulka episodes only (zero for a single deal): public at the table.
    ("pool", 8 * SEATS),  # per relative seat: pool ≥ k/8 of the target, k = 1..8 (thermometer)
    ("mountain", 7 * SEATS),  # per relative seat: mountain above the lowest ≥ k/4 of the target, k = 1..7
    ("raspas_series", 4),  # all-passes in a row before this deal: 0, 1, 2, 3 or more
    # гусарик (two players, rules.md §16): the dummy is relative seat (2 - me) % 3 of three.
    ("two_players", 1),
)
LAYOUT: dict[str, tuple[int, int]] = {}
_o = 0
for _name, _size in BLOCKS:
    LAYOUT[_name] = (_o, _size)
    _o += _size
USED_BITS = _o
OBS_SIZE = (USED_BITS + 63) // 64 * 64  # padded with zeros to whole 64-bit words
OBS_BYTES = OBS_SIZE // 8

O_HAND = LAYOUT["hand"][0]
O_KNOWN = LAYOUT["known_hands"][0]
O_TALON = LAYOUT["talon"][0]
O_DISCARD = LAYOUT["discard"][0]
O_PLAYED = LAYOUT["played"][0]
O_TRICK = LAYOUT["trick"][0]
O_TRICK_TALON = LAYOUT["trick_talon"][0]
O_CALLS = LAYOUT["calls"][0]
O_LAST_BID = LAYOUT["last_bid"][0]
O_PHASE = LAYOUT["phase"][0]
O_TO_ACT = LAYOUT["to_act"][0]
O_TO_PLAY = LAYOUT["to_play"][0]
O_DEALER = LAYOUT["dealer"][0]
O_DECLARER = LAYOUT["declarer"][0]
O_LEVEL = LAYOUT["contract_level"][0]
O_STRAIN = LAYOUT["contract_strain"][0]
O_WT = LAYOUT["without_talon"][0]
O_TRICKS = LAYOUT["tricks_won"][0]
O_OPEN = LAYOUT["open_play"][0]
O_FOUR = LAYOUT["four_players"][0]
O_TWO = LAYOUT["two_players"][0]
O_MIN_LEVEL = LAYOUT["min_level"][0]
O_POOL = LAYOUT["pool"][0]
O_MOUNTAIN = LAYOUT["mountain"][0]
O_RASPAS = LAYOUT["raspas_series"][0]


# _REL[n][me][s]: seat s relative to observer me, with s = -1 (a suit-naming talon card) mapped to 4.
_REL = {n: tuple((*((s - me) % n for s in range(n)), 4) for me in range(n)) for n in (3, 4)}
_CALLS_AT = {
    n: tuple(tuple(O_CALLS + NUM_CALLS * ((s - me) % n) - CALL_BASE for s in range(n)) for me in range(n))
    for n in (3, 4)
}


def contract_bits(c: Contract | None) -> int:
    """The contract blocks (level, strain, without talon) as bits."""
    if c is None:
        return 0
    bits = 1 << O_LEVEL if c.level == 0 else 1 << (O_LEVEL + c.level - 5) | 1 << (O_STRAIN + c.strain)
    if c.without_talon:
        bits |= 1 << O_WT
    return bits


def sheet_bits(pulka: Pulka, seat: int) -> int:
    """The ``pool``, ``mountain`` and ``raspas_series`` blocks for ``seat`` (the sheet is public).

    >>> from preferans.scoring.pulka import Pulka
    >>> from preferans import Rules
    >>> p = Pulka(Rules.preset("sochi"))
    >>> _ = p.game("A", "8♠", defence={"B": "pass", "C": "pass"})   # 6 in A's pool of 20
    >>> bin(sheet_bits(p, 0) >> O_POOL & 0xFF), bin(sheet_bits(p, 1) >> (O_POOL + 16) & 0xFF)
    ('0b11', '0b11')
    """
    sheet = pulka.sheet
    n = len(sheet.pool)
    target = pulka.rules.pool_target
    low = min(sheet.mountain)
    bits = 1 << (O_RASPAS + min(pulka.raspas_series, 3))
    for s in range(n):
        r = (s - seat) % n
        k = min(8, int(sheet.pool[s] * 8 // target)) if sheet.pool[s] > 0 else 0
        bits |= ((1 << k) - 1) << (O_POOL + 8 * r)
        m = min(7, int((sheet.mountain[s] - low) * 4 // target))
        bits |= ((1 << m) - 1) << (O_MOUNTAIN + 7 * r)
    return bits


def encode_bits(obs: Observation, *, min_level: int = 6, sheet: int = 0) -> int:
    """The observation vector as an integer: bit ``i`` is feature ``i``.

    Reads nothing but ``obs`` (and the deal's ``min_level`` and, in a pulka,
    the :func:`sheet_bits` — both public at the table).
    """
    me = obs.seat
    n = seat_count(obs.players)  # гусарик: the dummy is a third seat
    rel = _REL[n][me]  # rel[s]: seat s counted from the observer
    bits = obs.hand << O_HAND | obs.discard << O_DISCARD
    for s, h in obs.known_hands.items():
        bits |= h << (O_KNOWN + 32 * (rel[s] - 1))
    for c in obs.talon:
        if c is not None:
            bits |= 1 << (O_TALON + c)
    played = [0, 0, 0, 0, 0]  # index -1 (a talon card naming the suit) lands in the spare slot
    for cards, _ in obs.completed_tricks:
        for s, c in cards:
            played[rel[s]] |= 1 << c
    for s, c in obs.trick:
        if s >= 0:
            r = rel[s]
            played[r] |= 1 << c
            bits |= 1 << (O_TRICK + 32 * r + c)
        else:
            bits |= 1 << (O_TRICK_TALON + c)
    for r in range(n):
        bits |= played[r] << (O_PLAYED + 32 * r)
    last_bid = -1
    auction = obs.phase in (Phase.BIDDING, Phase.MISERE_INVITE)
    calls_at = _CALLS_AT[n][me]
    for s, a in obs.moves:
        if a is not None and CALL_BASE <= a < NUM_ACTIONS:  # reports and claims (ids ≥ 105) are not encoded
            bits |= 1 << (calls_at[s] + a)
            if auction:  # every move so far is an auction call
                if BID_BASE <= a < BID_BASE + NUM_BIDS:
                    last_bid = a - BID_BASE
                elif DARK_BASE <= a < DARK_BASE + NUM_BIDS:
                    last_bid = a - DARK_BASE
    return bits | _state_bits(obs, me, n, last_bid, min_level) | sheet


def _state_bits(obs: Observation, me: int, n: int, last_bid: int, min_level: int) -> int:
    bits = 1 << (O_PHASE + _PHASE_INDEX[obs.phase]) | 1 << (O_DEALER + (obs.dealer - me) % n)
    if last_bid >= 0:
        bits |= 1 << (O_LAST_BID + last_bid)
    if obs.to_act is not None:
        bits |= 1 << (O_TO_ACT + (obs.to_act - me) % n)
    if obs.to_play is not None:
        bits |= 1 << (O_TO_PLAY + (obs.to_play - me) % n)
    if obs.declarer is not None:
        bits |= 1 << (O_DECLARER + (obs.declarer - me) % n)
    bits |= contract_bits(obs.contract)
    won = obs.tricks_won
    for s in range(n):
        bits |= 1 << (O_TRICKS + 11 * ((s - me) % n) + won[s])
    if obs.open_play:
        bits |= 1 << O_OPEN
    if n == 4:
        bits |= 1 << O_FOUR
    elif obs.players == 2:
        bits |= 1 << O_TWO
    return bits | 1 << (O_MIN_LEVEL + min_level - 6)


def bits_to_array(bits: int) -> npt.NDArray[np.int8]:
    """One vector (``int8``, length :data:`OBS_SIZE`) from its integer form."""
    raw = np.frombuffer(bits.to_bytes(OBS_BYTES, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").view(np.int8)


def encode(obs: Observation, *, min_level: int = 6, sheet: int = 0) -> npt.NDArray[np.int8]:
    """The observation vector of ``obs`` (see :data:`BLOCKS`).

    >>> from preferans import Deal, Rules
    >>> deal = Deal.new(Rules.preset("sochi"), seed=1)
    >>> v = encode(deal.observation(1))
    >>> v.shape, int(v[:32].sum()), int(v[LAYOUT["to_act"][0]])   # ten cards; seat 1 acts
    ((960,), 10, 1)
    """
    return bits_to_array(encode_bits(obs, min_level=min_level, sheet=sheet))


def describe(vector: npt.ArrayLike) -> list[str]:
    """The names of the features set in a vector, for reading one by eye.

    >>> from preferans import Deal, Rules
    >>> deal = Deal.new(Rules.preset("sochi"), seed=1)
    >>> [f for f in describe(encode(deal.observation(1))) if not f.startswith("hand:")]
    ['phase:bidding', 'to_act:+0', 'dealer:+2', 'tricks_won:+0:0', 'tricks_won:+1:0', 'tricks_won:+2:0', 'min_level:6']
    """
    names = _names()
    return [names[i] for i in np.flatnonzero(np.asarray(vector))]


def _names() -> list[str]:
    global _NAMES
    if _NAMES is None:
        _NAMES = feature_names()
    return _NAMES


_NAMES: list[str] | None = None


def feature_names() -> list[str]:
    """A readable name for every feature (``hand:A♠``, ``calls:+1:whist``, …)."""
    from ..actions import BIDS, Action
    from ..cards import Card

    cards = [str(Card(c)) for c in range(32)]
    calls = [str(Action(a)) for a in range(CALL_BASE, NUM_ACTIONS)]
    out: list[str] = []

    def seats(name: str, items: list[str], slots: range) -> None:
        out.extend(f"{name}:+{r}:{x}" for r in slots for x in items)

    for name, size in BLOCKS:
        cats: Any
        if name in ("hand", "talon", "discard", "trick_talon"):
            out.extend(f"{name}:{c}" for c in cards)
        elif name == "known_hands":
            seats(name, cards, range(1, 4))
        elif name in ("played", "trick"):
            seats(name, cards, range(4))
        elif name == "calls":
            seats(name, calls, range(4))
        elif name == "last_bid":
            out.extend(f"{name}:{b}" for b in BIDS)
        elif name == "tricks_won":
            seats(name, [str(k) for k in range(11)], range(4))
        elif name == "pool":
            seats(name, [f"{k}/8" for k in range(1, 9)], range(4))
        elif name == "mountain":
            seats(name, [f"{k}/4" for k in range(1, 8)], range(4))
        else:
            cats = {
                "phase": PHASES,
                "contract_level": ("misere", "6", "7", "8", "9", "10"),
                "contract_strain": ("♠", "♣", "♦", "♥", "NT"),
                "min_level": tuple(str(x) for x in MIN_LEVELS),
                "raspas_series": ("0", "1", "2", "3+"),
            }.get(name)
            if cats is None and size == SEATS:
                cats = tuple(f"+{r}" for r in range(SEATS))
            out.extend(f"{name}:{c}" for c in cats) if cats else out.append(name)
    out.extend(f"pad:{i}" for i in range(OBS_SIZE - USED_BITS))
    return out
