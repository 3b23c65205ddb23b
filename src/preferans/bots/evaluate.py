"""Hand evaluation without search: tricks per strain, misère danger, discards.

Everything here reads card masks only (no observation, no deal), so the
heuristic bot, the sampling bot and tests share one set of estimates.

A suit is judged by a small simulation of playing it out from the top: our
highest card against the defenders' highest; when ours is higher the two
defenders follow low, when theirs is higher we duck our lowest card.  What
is left after the defenders run out wins too (always for trumps, partly for
a side suit).

>>> from preferans.cards import parse_hand
>>> suit_tricks(0b11110011, trump=True)     # ♠A K Q J 8 7 as trumps: all six
6.0
>>> suit_tricks(0b01110000, trump=True)     # K Q J: the ace takes one
2.0
>>> round(strain_tricks(parse_hand("♠A K Q J 9 ♣A K ♦A ♥A K"), 0), 1)
10.0
>>> misere_holes(parse_hand("♠7 9 J ♣7 ♦8 ♥7 9 J K A"))   # only ♦8 alone is a hole
1
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import SUIT_MASKS, cards_of

__all__ = [
    "TALON_GAIN",
    "best_strain",
    "choose_discard",
    "defence_tricks",
    "misere_holes",
    "misere_keep",
    "strain_tricks",
    "suit_tricks",
]

TALON_GAIN = 0.0
"""Tricks credited for the unseen talon when bidding.  Against the solver's
contract table (talon and best discard, first hand leading) the estimate is
0.25 trick low on average, but a set game costs far more than a made one
earns: in the arena, crediting 0.6 lost 3.8 whists a deal to crediting 0,
and -0.3 / -0.9 did no better (300 duplicate deals each, Sochi)."""

NT = 4


def _ranks_desc(bits: int) -> list[int]:
    return [r for r in range(7, -1, -1) if bits >> r & 1]


@lru_cache(maxsize=1024)
def _simulate(bits: int) -> tuple[int, int]:
    """(tricks won while the defenders still hold the suit, cards left over)."""
    ours = _ranks_desc(bits)
    theirs = _ranks_desc(~bits & 0xFF)
    won = 0
    while ours and theirs:
        if ours[0] > theirs[0]:
            won += 1
            ours.pop(0)
            del theirs[-2:]  # both defenders follow low
        else:
            theirs.pop(0)  # their high card wins …
            if theirs:
                theirs.pop()  # … the other defender follows low
            ours.pop()  # we duck our lowest
    return won, len(ours)


def suit_tricks(bits: int, *, trump: bool) -> float:
    """Expected tricks from one suit (an 8-bit rank mask) as the declarer."""
    if not bits:
        return 0.0
    won, left = _simulate(bits)
    if trump:
        return float(won + left)
    # A side suit: long cards win only if the suit is not ruffed / we regain the lead.
    return won + 0.6 * left


_SIDE = tuple(suit_tricks(b, trump=False) for b in range(256))
_TRUMP = tuple(suit_tricks(b, trump=True) for b in range(256))
_TOP = tuple(_simulate(b)[0] if b else 0 for b in range(256))
_UNSTOPPED = tuple(not b & 0x80 and not (b & 0x40 and b.bit_count() >= 2) and b.bit_count() < 4
                   for b in range(256))
# Tables of the per-suit terms: strain_tricks adds the same floats in the same
# order as computing them afresh, so its values are the same to the last bit.


@lru_cache(maxsize=1 << 16)  # bots judge the same hands again and again (layouts, seatings)
def strain_tricks(hand: int, strain: int) -> float:
    """Estimated tricks of ``hand`` (10 cards) as the declarer in ``strain`` (0–3, 4 = NT)."""
    total = 0.0
    suits = (hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF)
    if strain >= NT:
        for bits in suits:
            t = _SIDE[bits]
            if _UNSTOPPED[bits]:
                t -= 1.0  # an unstopped suit at no-trump: the defenders run it
            total += t
        return max(0.0, min(10.0, total))
    trump_len = suits[strain].bit_count()
    for s, bits in enumerate(suits):
        if s == strain:
            total += _TRUMP[bits]
            continue
        t = _SIDE[bits]
        # Beyond the second round a side suit is ruffed unless our trumps are long.
        if trump_len < 5 and bits:
            t = min(t, _TOP[bits])
        total += t
    # Ruffs: short side suits with spare trumps.
    spare = trump_len - 3
    if spare > 0:
        for s, bits in enumerate(suits):
            if s != strain:
                n = bits.bit_count()
                if n <= 1:
                    total += min(spare, 2 - n) * 0.5
    return max(0.0, min(10.0, total))


def best_strain(hand: int) -> tuple[int, float]:
    """The strain with the most estimated tricks, and that estimate."""
    best = max(range(5), key=lambda s: (strain_tricks(hand, s), -s if s < NT else -9))
    return best, strain_tricks(hand, best)


def _suit_holes(ranks_up: list[int]) -> int:
    """Cards to shed from the top so that a suit is safe on misère.

    Safe: our i-th lowest card is at most the i-th «ladder» rank 7, 9, J, K
    (the defenders hold a card between each pair, so we can always go under).
    """
    for k in range(len(ranks_up) + 1):
        kept = ranks_up[: len(ranks_up) - k]
        if all(r <= 2 * i for i, r in enumerate(kept)):
            return k
    return len(ranks_up)  # pragma: no cover - k = len always passes


_HOLES = tuple(_suit_holes([r for r in range(8) if bits >> r & 1]) for bits in range(256))
"""The holes of each suit's eight-bit rank mask (misère inference scores thousands of hands)."""


def misere_holes(hand: int) -> int:
    """How many cards make ``hand`` unsafe on misère (0 = a clean misère)."""
    return _HOLES[hand & 0xFF] + _HOLES[hand >> 8 & 0xFF] + _HOLES[hand >> 16 & 0xFF] + _HOLES[hand >> 24 & 0xFF]


@lru_cache(maxsize=1 << 14)  # a catcher scores the same twelve cards over many layouts
def misere_keep(hand: int) -> int:
    """Misère discard from 12 cards: the two that leave the fewest holes (a mask)."""
    cards = cards_of(hand)
    best = -1
    best_key: tuple[int, int] = (99, 0)
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            d = 1 << a | 1 << b
            key = (misere_holes(hand & ~d), -((a & 7) + (b & 7)))
            if key < best_key:
                best, best_key = d, key
    return best


@lru_cache(maxsize=1 << 14)
def choose_discard(hand: int, strain: int) -> int:
    """Two cards to discard from 12 for a game in ``strain`` (mask), by estimate.

    Keeps the trump suit and aces; among the rest the pair whose removal
    leaves the highest estimate, ties to the lowest cards.
    """
    cards = cards_of(hand)
    best = -1
    best_key: tuple[float, int] = (-1.0, 0)
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            d = 1 << a | 1 << b
            key = (strain_tricks(hand & ~d, strain), -((a & 7) + (b & 7)))
            if key > best_key:
                best, best_key = d, key
    return best


def defence_tricks(hand: int, trump: int | None) -> float:
    """Tricks a defender's ``hand`` is likely to take against a game in ``trump``.

    Aces, guarded kings, and trumps that are not under the declarer's long suit.
    """
    total = 0.0
    for s in range(4):
        bits = hand >> (8 * s) & 0xFF
        n = bits.bit_count()
        if trump is not None and s == trump:
            # Trumps of a defender: the top ones, and length against a 5-card trump suit.
            total += (1.0 if bits & 0x80 else 0) + (0.6 if bits & 0x40 and n >= 2 else 0)
            total += (0.5 if bits & 0x20 and n >= 3 else 0) + max(0, n - 3) * 0.5
            continue
        if bits & 0x80:
            total += 1.0
            if bits & 0x40:
                total += 0.7 if trump is None or n <= 4 else 0.4
        elif bits & 0x40 and n >= 2:
            total += 0.5
        if trump is None and n >= 4 and bits & 0xC0:
            total += (n - 3) * 0.4
        if trump is not None and n <= 1:
            total += 0.3 * ((hand & SUIT_MASKS[trump]).bit_count() >= 2)
    return total
