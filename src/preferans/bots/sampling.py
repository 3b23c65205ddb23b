"""Sampling hidden layouts consistent with everything a seat has observed.

A *layout* gives every unknown card a place (a hidden hand or «out»), with
each place holding exactly its number of cards, no hand holding a card of a
suit it has shown void in, and talon cards only with the declarer or out.
Cards are dealt most-constrained first, each to a place chosen in proportion
to its free room; a dead end restarts the deal (a few tries, then the void
constraints are dropped rather than fail).

>>> import random
>>> from preferans import Deal, Rules
>>> deal = Deal.new(Rules(), seed=3)
>>> k = Knowledge.of(deal.observation(1))
>>> layout = sample_layout(k, random.Random(1))
>>> sorted((s, m.bit_count()) for s, m in layout.items())
[(-1, 2), (0, 10), (2, 10)]
"""

from __future__ import annotations

import random

from ..cards import cards_of
from .knowledge import Knowledge

__all__ = ["sample_layout", "sample_layouts"]

_TRIES = 20


def sample_layout(k: Knowledge, rng: random.Random) -> dict[int, int]:
    """One layout: place → mask of the unknown cards it holds."""
    places = k.places()
    if not places:
        return {}
    if len(places) == 1:
        return {places[0]: k.unknown}
    cards = list(cards_of(k.unknown))
    allowed = k.allowed
    options = {c: [p for p in places if allowed[p] >> c & 1] for c in cards}
    for attempt in range(_TRIES + 1):
        strict = attempt < _TRIES
        room = dict(k.sizes)
        out = dict.fromkeys(places, 0)
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(options[c])) if strict else cards
        ok = True
        for c in order:
            opts = [p for p in (options[c] if strict else places) if room[p] > 0]
            if not opts:
                ok = False
                break
            total = sum(room[p] for p in opts)
            r = rng.randrange(total)
            for p in opts:
                r -= room[p]
                if r < 0:
                    break
            room[p] -= 1
            out[p] |= 1 << c
        if ok:
            return out
    raise AssertionError("unreachable: the last try ignores constraints")  # pragma: no cover


def sample_layouts(k: Knowledge, n: int, rng: random.Random) -> list[dict[int, int]]:
    """``n`` layouts (one when nothing is hidden)."""
    if not k.places():
        return [{}]
    return [sample_layout(k, rng) for _ in range(n)]
