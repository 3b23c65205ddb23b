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
    return _deal(k, places, list(cards_of(k.unknown)), _options(k, places), rng)


def _options(k: Knowledge, places: list[int]) -> dict[int, list[int]]:
    """The places each unknown card may go to (the same for every layout of ``k``)."""
    allowed = k.allowed
    return {c: [p for p in places if allowed[p] >> c & 1] for c in cards_of(k.unknown)}


def _deal(
    k: Knowledge, places: list[int], cards: list[int], options: dict[int, list[int]], rng: random.Random,
) -> dict[int, int]:
    # The generator is asked exactly as before this was made faster (one shuffle,
    # then one randrange a card), so seeded bots keep their layouts.
    for attempt in range(_TRIES + 1):
        strict = attempt < _TRIES
        room = dict(k.sizes)
        out = dict.fromkeys(places, 0)
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(options[c])) if strict else cards  # stable: ties keep the shuffle
        ok = True
        for c in order:
            opts = [p for p in (options[c] if strict else places) if room[p] > 0]
            if not opts:
                ok = False
                break
            if len(opts) == 1:
                p = opts[0]
                rng.randrange(room[p])  # keeps the generator's sequence (see above)
            else:
                r = rng.randrange(sum(room[p] for p in opts))
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
    places = k.places()
    if not places:
        return [{}]
    if len(places) == 1:
        return [{places[0]: k.unknown} for _ in range(n)]
    options = _options(k, places)
    cards = list(cards_of(k.unknown))
    return [_deal(k, places, list(cards), options, rng) for _ in range(n)]
