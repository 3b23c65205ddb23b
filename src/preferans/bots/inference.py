"""How likely a sampled layout makes what the other players did (inference).

A layout of the hidden cards agrees with every *hard* fact a seat saw (voids,
seen cards: :mod:`.knowledge`); the calls and cards of the others say more.
:func:`layout_weight` scores a layout by the likelihood of their observed
actions under a simple model of a sensible player, each factor floored so
that a layout contradicting it is improbable, never impossible:

* **Auction** (each other seat's ten cards as dealt): a bid up to level ``L``
  is likely when the hand's best estimated contract (:func:`.evaluate.strain_tricks`)
  reaches ``L``; a pass when it falls short of the lowest bid he could have
  made; misère when the hand has at most one hole.
* **Contract**: the declarer's chosen strain against his best one, from his
  twelve cards (dealt ten and the talon).
* **Whisting**: a whist when the defender's likely tricks
  (:func:`.evaluate.defence_tricks`) reach his share of the quota, a pass or
  half-whist when they fall short.
* **Card play** in trick games: a player who follows suit without taking
  the trick plays his lowest card (a card of his with a live card of
  another hand between it and his lowest is less likely); a player who
  discards does so from a long suit rather than a short one.

The same rules are what the expert defender follows when the solver finds
the cards equal (:meth:`.expert.ExpertBot`), so a partner's reading of them
is right: signals made and read the same way.

>>> from preferans import Deal, Rules
>>> from preferans.bots.knowledge import Knowledge
>>> from preferans.bots.sampling import sample_layouts
>>> import random
>>> deal = Deal.new(Rules(), seed=3)
>>> for a in ("6♠", "pass", "pass"):
...     deal.apply(a)
>>> obs = deal.observation(1)
>>> k = Knowledge.of(obs)
>>> ws = [layout_weight(obs, k, lay) for lay in sample_layouts(k, 4, random.Random(1))]
>>> all(0 < w <= 1 for w in ws)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..actions import HALF_WHIST, MISERE, PASS, WHIST, Action
from ..cards import SUIT_MASKS
from ..engine.observation import Observation
from ..scoring import QUOTA
from .evaluate import defence_tricks, misere_holes, misere_keep, strain_tricks
from .knowledge import OUT, Knowledge, active_seats

__all__ = [
    "FLOOR", "MISERE_FLOOR", "MISERE_KEPT", "Evidence", "bid_odds", "evidence_of", "layout_weight", "misere_odds",
    "true_layout", "true_layout_rank", "whist_odds",
]

FLOOR = 0.05
"""The least any one observed action may weigh: improbable, not impossible.  (Sharper — 0.01,
with the calls' softness 0.4 — made a defender's layouts half a trick nearer the declarer's
true strength and scored no more: ``docs/bots.md``, issue 29's fifteenth step.)"""

_TEMPER = 0.8  # tricks: how sharply a sensible player's calls follow his estimate


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x / _TEMPER))


def bid_odds(best: float, level: int) -> float:
    """How likely the model's sensible player bids a game of ``level`` when his ten cards'
    best estimate (:func:`.evaluate.strain_tricks`) is ``best`` tricks: even odds half a
    trick below the level, rising as softly as a whist does; a pass is the rest, whatever
    was bid before it.

    ``python benchmarks/call_odds.py`` sets this against the bots' first calls: they are
    sharper (opening, hands of 5 and 7 tricks bid 16 % and 91 % of the time, the model
    35 % and 87 %), and over another player's game a hand of 6.5 tricks passes half the
    time, where the model gives its pass 22 %.  Counted odds in its place did not play
    better (``docs/bots.md``, «Issue 29, eighth step»).

    >>> [round(bid_odds(b, 6), 2) for b in (5.0, 5.5, 6.0, 6.5, 7.0)]
    [0.35, 0.5, 0.65, 0.78, 0.87]
    """
    return _sigmoid(best + 0.5 - level)


def _floor(p: float) -> float:
    return FLOOR + (1.0 - FLOOR) * p


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the others did, read once from an observation (then scored per layout).

    ``calls`` — seat → the auction calls in order; ``declared`` — the
    declarer's contract after the talon; ``whists`` — defender → call;
    ``follows`` — (seat, card, cards of that seat already played before it,
    live cards then, led suit) for each card a seat played following suit
    without taking the trick; ``discards`` — the same for cards thrown on a
    void (no trump); ``played`` — seat → every card it has played.
    """

    seat: int
    active: tuple[int, int, int]
    calls: dict[int, tuple[Action, ...]]
    declarer: int | None
    strain: int | None
    level: int
    whists: dict[int, str]
    follows: tuple[tuple[int, int, int, int], ...]
    discards: tuple[tuple[int, int, int, int], ...]
    played: dict[int, int]
    talon: int
    kind: str


def evidence_of(obs: Observation) -> Evidence:
    """Read the others' calls and cards from ``obs`` (see :class:`Evidence`)."""
    from .knowledge import deal_kind

    active = active_seats(obs)
    calls: dict[int, list[Action]] = {}
    whists: dict[int, str] = {}
    in_auction = True
    for s, a in obs.moves:
        if a is None or int(a) < 32:
            in_auction = False
            if a is None or s not in active:
                continue
        if in_auction and s != obs.seat:
            calls.setdefault(s, []).append(a)
        elif a is not None and s != obs.seat and s != obs.declarer and a in (WHIST, PASS, HALF_WHIST):
            whists[s] = {WHIST: "whist", PASS: "pass", HALF_WHIST: "half"}[a]
    kind = deal_kind(obs)
    trump = obs.contract.trump if obs.contract is not None else None
    follows: list[tuple[int, int, int, int]] = []
    discards: list[tuple[int, int, int, int]] = []
    played: dict[int, int] = dict.fromkeys(active, 0)
    gone = 0
    tricks = [cards for cards, _ in obs.completed_tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for cards in tricks:
        led = cards[0][1] >> 3
        best = -1  # the card taking the trick so far (spec §6)
        for s, c in cards:
            beats = best < 0 or (c >> 3 == best >> 3 and c > best) or (c >> 3 == trump and best >> 3 != trump)
            if s in played and s != obs.seat and kind == "game":
                row = (s, int(c), played[s], gone)
                if c >> 3 == led and not beats:
                    follows.append(row)
                elif c >> 3 != led and c >> 3 != trump:
                    discards.append(row)
            if beats:
                best = c
            if s in played:
                played[s] |= 1 << c
            gone |= 1 << c
    talon = 0
    for t in obs.talon:
        if t is not None:
            talon |= 1 << t
    contract = obs.contract
    return Evidence(
        obs.seat, active, {s: tuple(v) for s, v in calls.items()}, obs.declarer,
        None if contract is None or contract.is_misere else contract.strain,
        0 if contract is None else contract.level, whists,
        tuple(follows), tuple(discards), played, talon, kind,
    )


@lru_cache(maxsize=1 << 14)  # the same dealt hands recur over the layouts and seatings
def _bid_factor(hand10: int, calls: tuple[Action, ...]) -> float:
    """Likelihood of one seat's auction calls from its ten dealt cards."""
    p = 1.0
    best = max(strain_tricks(hand10, s) for s in range(5))
    top = 0
    for a in calls:
        if a == MISERE:
            p *= misere_odds(misere_holes(hand10))
        elif a.is_bid and a.contract is not None and a.contract.level:
            top = max(top, a.contract.level)
            p *= _floor(bid_odds(best, a.contract.level))
        elif a == PASS:  # 1 − bid_odds(best, max(6, top + 1)), as the sigmoid's mirror
            p *= _floor(_sigmoid(max(6, top + 1) - 0.5 - best))
    return p


MISERE_FLOOR = 1e-4
"""The least a misère call weighs a hand (:func:`misere_odds`): far below :data:`FLOOR`."""


MISERE_KEPT = 0.03
"""How much less likely a misère declarer kept ten cards with one hole more than his
cleanest ten (:func:`.evaluate.misere_keep`).  Kodeks 3.6.6: the talon is shown, the
catchers lie open, the discard is hidden; so the catchers know his twelve cards and
guess only the two he threw.  Of the 66 ways to throw two, few leave the cleanest ten,
and a declarer keeps a hole he could throw as rarely as he bids misère on one hole more
(:func:`misere_odds`).  Softer (0.3), most of the weight stayed on discards that keep
holes, and the catchers played against misères weaker than those at the table."""


def misere_odds(holes: int) -> float:
    """How likely a sensible player bids misère on ten dealt cards with ``holes`` holes
    (:func:`.evaluate.misere_holes`): 1 with at most one, 0.4 with two, then
    :data:`MISERE_KEPT` (a thirtieth) as likely for each hole more, never below :data:`MISERE_FLOOR`.

    Counted over the bots' misère declarers of the tuning runs (seed 7002): 6, 36 and 27
    of 69 held 0, 1 and 2 holes, none more, where a random hand holds them 1, 10 and 18
    times in 1,300 and three holes 37 times.  So two holes are 0.4 as likely to be bid as
    one, and three below 0.02 (at that, about three of the 69 would have had them).  The
    common :data:`FLOOR` would not do: hands with three holes or more outnumber those with
    at most two by twenty to one, so at 0.05 they kept most of the weight.  (In the play
    the catchers' cards are open, Kodeks 3.6.6, so the declarer's twelve are known and
    this weighs only the auction's layouts; his discard is weighed by :data:`MISERE_KEPT`.)

    >>> [round(misere_odds(h), 4) for h in range(6)]
    [1.0, 1.0, 0.4, 0.012, 0.0004, 0.0001]
    """
    if holes <= 1:
        return 1.0
    return max(MISERE_FLOOR, 0.4 * MISERE_KEPT ** (holes - 2))


def whist_odds(hand: int, trump: int | None, level: int) -> float:
    """How likely a sensible defender holding ``hand`` whists a game of ``level`` in ``trump``:
    likely when his defensive tricks (:func:`.evaluate.defence_tricks`) reach half the quota."""
    return _sigmoid(defence_tricks(hand, trump) - QUOTA[level] / 2 + 0.5)


def layout_weight(obs: Observation, k: Knowledge, layout: dict[int, int], ev: Evidence | None = None) -> float:
    """The likelihood of the others' observed calls and cards if the hidden cards
    lie as in ``layout`` (a product of floored factors, in (0, 1])."""
    ev = ev if ev is not None else evidence_of(obs)
    held: dict[int, int] = {}  # what each seat has held during the play
    for s in ev.active:
        held[s] = k.hands.get(s, layout.get(s, 0)) | ev.played.get(s, 0)
    hands = dict(held)  # the ten cards each was dealt
    decl = ev.declarer
    out = layout.get(OUT, 0)
    if decl is not None and decl in hands:
        # The declarer held twelve once he took the talon: his ten dealt cards are
        # those less the talon (when seen), the discard being out.
        twelve = held[decl] | out
        if ev.talon and twelve & ev.talon == ev.talon and twelve.bit_count() == 12:
            hands[decl] = twelve & ~ev.talon
    w = 1.0
    for s, calls in ev.calls.items():
        h = hands.get(s, 0)
        if h.bit_count() == 10:
            w *= _bid_factor(h, calls)
    if decl is not None and decl != obs.seat and ev.kind == "misere" and decl in held:
        # He kept ten of his twelve: the cleanest ten, as a misère declarer would.
        twelve = held[decl] | out
        if twelve.bit_count() == 12:
            best = misere_holes(twelve & ~misere_keep(twelve))
            w *= max(MISERE_FLOOR, MISERE_KEPT ** (misere_holes(held[decl]) - best))
    if decl is not None and decl != obs.seat and ev.strain is not None:
        twelve = hands[decl] | ev.talon | (0 if ev.talon else out)
        est = [strain_tricks(twelve, s) for s in range(5)]
        w *= _floor(math.exp((est[ev.strain] - max(est)) / _TEMPER))
    if ev.strain is not None and ev.level:
        trump = None if ev.strain == 4 else ev.strain
        for s, call in ev.whists.items():
            p = whist_odds(hands.get(s, 0), trump, ev.level)
            w *= _floor(p if call == "whist" else 1.0 - p)
    for s, c, before, gone in ev.follows:
        h = held.get(s, 0) & ~before
        suit = h & SUIT_MASKS[c >> 3]
        lower = suit & ((1 << c) - 1)
        if lower:
            low = lower & -lower
            between = ((1 << c) - 1) & ~((low << 1) - 1) & SUIT_MASKS[c >> 3]
            live_between = between & ~gone & ~h
            if live_between:
                w *= 0.35  # a sensible player follows low when he cannot take the trick
    for s, c, before, _gone in ev.discards:
        h = held.get(s, 0) & ~before
        lens = [(h & SUIT_MASKS[t]).bit_count() for t in range(4)]
        total = sum(lens)
        if total:
            w *= _floor(min(1.0, 2 * lens[c >> 3] / total))  # twice the average length or more: 1
    return w


def true_layout_rank(obs: Observation, truth: dict[int, int], samples: int, seed: int) -> float:
    """Where the true layout ranks by weight among ``samples`` layouts sampled
    without inference: the share of them it outweighs (ties count half).
    Uniform weights give 0.5, chance."""
    import random

    from .sampling import sample_layouts

    k = Knowledge.of(obs)
    ev = evidence_of(obs)
    lays = sample_layouts(k, samples, random.Random(seed))
    wt = layout_weight(obs, k, truth, ev)
    ws = [layout_weight(obs, k, lay, ev) for lay in lays]
    return sum(1.0 if w < wt else 0.5 if w == wt else 0.0 for w in ws) / len(ws)


def true_layout(k: Knowledge, hands: tuple[int, ...]) -> dict[int, int]:
    """The layout the real hands (by seat, as a referee knows them) give: for
    measuring the inference against the truth, never for playing."""
    out = {p: hands[p] & k.unknown for p in k.sizes if p != OUT}
    if OUT in k.sizes:
        held = 0
        for m in out.values():
            held |= m
        out[OUT] = k.unknown & ~held
    return out
