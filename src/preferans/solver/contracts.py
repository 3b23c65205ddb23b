"""What a player could make with the talon: the contract table (Kodeks 3.3.16.3).

For a player who takes the talon, every distinct discard is tried for each
denomination (♠ ♣ ♦ ♥ NT, first hand leading, rules.md §2) and for misère; the
table keeps the best.  Discards of cards that are interchangeable (adjacent
in rank with no other player's card between them) are tried once, and a
discard is solved exactly only when a null-window test shows it beats the
best found so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, cards_of, layout_problem, mask_of
from .position import SolverError
from .search import EngineArgs, engine

if TYPE_CHECKING:
    from ..engine.deal import Deal

__all__ = ["ContractTable", "contract_table", "discard_table"]

STRAINS = ("♠", "♣", "♦", "♥", "NT")


@dataclass(frozen=True, slots=True)
class ContractTable:
    """Best discards and results for one player taking the talon.

    ``tricks[s]`` and ``discards[s]`` are for strain ``s`` (0–3 a trump suit,
    4 no-trump); ``misere`` is the fewest tricks the player can be held to on
    misère, with ``misere_discard``.
    """

    player: int
    tricks: tuple[int, int, int, int, int]
    discards: tuple[tuple[Card, Card], ...]
    misere: int
    misere_discard: tuple[Card, Card]

    @property
    def misere_clean(self) -> bool:
        """Misère is clean (чистый): the declarer takes no trick with best play."""
        return self.misere == 0

    def __str__(self) -> str:
        rows = [
            f"{STRAINS[s]:>2}: {self.tricks[s]:2} tricks, discard {self.discards[s][0]} {self.discards[s][1]}"
            for s in range(5)
        ]
        m = self.misere_discard
        rows.append(f"misère: {self.misere} tricks, discard {m[0]} {m[1]}")
        return "\n".join(rows)


def contract_table(deal: Deal, seat: int) -> ContractTable:
    """The contract table for ``seat`` (absolute) taking the talon of ``deal``.

    Uses the cards as dealt (``deal.initial_hands`` and ``deal.talon``).
    """
    active = tuple(deal.active)
    if seat not in active:
        raise SolverError(f"seat {seat} does not play this deal (active seats: {active})")
    hands = (
        deal.initial_hands[active[0]],
        deal.initial_hands[active[1]],
        deal.initial_hands[active[2]],
    )
    return discard_table(hands, tuple(deal.talon), active.index(seat))


def discard_table(
    hands: tuple[int, int, int], talon: tuple[int, ...], player: int
) -> ContractTable:
    """The contract table from cards: three 10-card hands (first hand first), the
    two talon cards and the player (0–2) who takes the talon."""
    if not 0 <= player <= 2:
        raise SolverError(f"player must be 0, 1 or 2, not {player!r}")
    problem = layout_problem(hands, talon, (10, 10, 10), ("hand 0", "hand 1", "hand 2"))
    if problem is not None:
        raise SolverError(problem)
    seen = hands[0] | hands[1] | hands[2] | mask_of(talon)
    full = hands[player] | (1 << talon[0]) | (1 << talon[1])
    discards = _distinct_discards(full, seen)
    eng = engine()
    tricks: list[int] = []
    best_discards: list[tuple[Card, Card]] = []
    for strain in range(5):
        trump = strain if strain < 4 else -1
        order = sorted(discards, key=lambda d: _keep_score(full, d, trump))
        best, best_d = -1, order[0]
        for d in order:
            hm = list(hands)
            hm[player] = full & ~d
            args = _args(hm, trump, 0, player)
            if best >= 0 and not eng.solve(**args, target=best + 1):
                continue
            v = eng.solve(**args)
            if v > best:
                best, best_d = v, d
                if best == 10:
                    break
        tricks.append(best)
        best_discards.append(_pair(best_d))
    order = sorted(discards, key=lambda d: -_danger(d))
    worst, worst_d = 11, order[0]
    for d in order:
        hm = list(hands)
        hm[player] = full & ~d
        args = _args(hm, -1, 1, player)
        if worst <= 10 and eng.solve(**args, target=worst):
            continue  # not fewer than the best discard so far
        v = eng.solve(**args)
        if v < worst:
            worst, worst_d = v, d
            if worst == 0:
                break
    return ContractTable(
        player=player,
        tricks=(tricks[0], tricks[1], tricks[2], tricks[3], tricks[4]),
        discards=tuple(best_discards),
        misere=worst,
        misere_discard=_pair(worst_d),
    )


def _args(h: list[int], trump: int, goal: int, player: int) -> EngineArgs:
    return {
        "hands": (h[0], h[1], h[2]),
        "leader": 0,  # rules.md §2: first hand leads in every deal
        "trick": (),
        "trump": trump,
        "goal": goal,
        "focus": player,
        "talon": (),
        "participates": False,
    }


def _pair(d: int) -> tuple[Card, Card]:
    a, b = cards_of(d)
    return a, b


def _distinct_discards(hand: int, live: int) -> list[int]:
    """One discard (a 2-card mask) per class of interchangeable discards.

    Cards of ``hand`` adjacent in rank within their suit, with no other live card
    between them, form a run; discarding any j cards of a run is the same.
    """
    runs: list[list[int]] = []
    for s in range(4):
        run: list[int] = []
        for r in range(8):
            c = s * 8 + r
            if hand >> c & 1:
                run.append(c)
            elif live >> c & 1 and run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    out = []
    for i, a in enumerate(runs):
        if len(a) >= 2:
            out.append(1 << a[0] | 1 << a[1])  # the two lowest: any two are the same
        for b in runs[i + 1 :]:
            out.append(1 << a[0] | 1 << b[0])
    return out


def _keep_score(hand: int, d: int, trump: int) -> int:
    """Discards that look better come first: low cards of short side suits."""
    score = 0
    for c in cards_of(d):
        s = c >> 3
        length = (hand >> (8 * s) & 0xFF).bit_count()
        score += (c & 7) + 2 * length + (30 if s == trump else 0)
    return score


def _danger(d: int) -> int:
    """Misère: discarding high cards comes first."""
    return sum(c & 7 for c in cards_of(d))


