"""Claims (заявка): is a claim safe against every layout the claimer cannot see?

A claim the solver proves against every layout of the unseen cards,
consistent with what the claimer has seen (voids shown in play included),
ends the play at once; otherwise the opponents answer.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from math import comb

from ..cards import cards_of
from ..engine.deal import Deal
from ..engine.result import DealKind
from ..solver import Position, solve_at_least

__all__ = ["claim_layouts", "prove_claim"]


def claim_layouts(deal: Deal, seat: int, limit: int = 20_000) -> Iterator[tuple[int, int, int]] | None:
    """Every layout of the three active hands consistent with what ``seat`` knows.

    Returns ``None`` when there are more than ``limit`` layouts (too many to
    check).  Voids shown in play (a player who did not follow suit) are
    respected; cards the claimer saw (his own, hands lying face up, played
    cards, the talon when shown, his discard) are fixed.
    """
    obs = deal.observation(seat)
    active = deal.active
    known = {seat: deal.hands[seat]}
    for s, m in obs.known_hands.items():
        if s in active:
            known[s] = m
    hidden = [s for s in active if s not in known]
    if not hidden:
        return iter([(deal.hands[active[0]], deal.hands[active[1]], deal.hands[active[2]])])
    sizes = {s: deal.hands[s].bit_count() for s in hidden}
    seen = obs.visible_cards()
    pool = [c for c in cards_of(0xFFFFFFFF & ~seen)]
    voids = obs.shown_voids()
    out_of_play = len(pool) - sum(sizes.values())
    if out_of_play < 0:  # pragma: no cover - the engine keeps the counts right
        return None
    count = 1
    left = len(pool)
    for s in hidden:
        count *= _comb(left, sizes[s])
        left -= sizes[s]
    if count > limit:
        return None

    def layouts() -> Iterator[tuple[int, int, int]]:
        first = hidden[0]
        allowed_first = [c for c in pool if not voids.get(first, 0) >> c & 1]
        for combo in itertools.combinations(allowed_first, sizes[first]):
            m1 = sum(1 << c for c in combo)
            hands = dict(known)
            hands[first] = m1
            if len(hidden) == 2:
                second = hidden[1]
                rest = [c for c in pool if not m1 >> c & 1 and not voids.get(second, 0) >> c & 1]
                for combo2 in itertools.combinations(rest, sizes[second]):
                    hands[second] = sum(1 << c for c in combo2)
                    yield (hands[active[0]], hands[active[1]], hands[active[2]])
            else:
                yield (hands[active[0]], hands[active[1]], hands[active[2]])

    return layouts()


def _comb(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def prove_claim(deal: Deal, seat: int, tricks: int, *, limit: int = 20_000) -> bool:
    """Does ``seat``'s side take ``tricks`` of the remaining tricks whatever the layout?

    Checked with the solver against every layout consistent with the
    claimer's knowledge; ``False`` when it fails on one, or when there are
    more than ``limit`` layouts to check.
    """
    deal.verify_claim(seat, tricks)
    layouts = claim_layouts(deal, seat, limit)
    if layouts is None:
        return False
    base = Position.from_deal(deal)
    left = deal.tricks_remaining()
    declarer_side = seat == deal.declarer
    misere = deal.kind == DealKind.MISERE
    for hands in layouts:
        pos = dataclasses.replace(base, hands=hands)
        if misere:
            # The declarer minimises: he proves "at most n"; the defenders "at least left - n".
            ok = not solve_at_least(pos, tricks + 1) if declarer_side else solve_at_least(pos, left - tricks)
        else:
            ok = solve_at_least(pos, tricks) if declarer_side else not solve_at_least(pos, left - tricks + 1)
        if not ok:
            return False
    return True
