"""The misère and all-pass bounds of the C search (``never_wins`` and ``wins_all`` in
``_solver.c``) against the reference minimax, on positions built to meet them and
to miss them by little.

The bounds, restated from the rules here without the solver's code: in one suit
(no trumps), a player *can stay under* a set of leads when, pairing his cards and
the leads lowest with lowest, each of his cards is below its partner (up to the
shorter of the two).  The misère declarer who can stay under the defenders' cards
in every suit takes no more tricks (on lead he needs a card below all of theirs
in a suit, whose removal keeps the pairing); the declarer on lead whose
defenders can each stay under his cards in every suit takes every trick.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from preferans.solver import Position, best_moves, solve, solve_at_least
from preferans.solver.search import engine, engine_args

sys.path.insert(0, str(Path(__file__).parents[1]))
from solver_reference import reference_value

GOALS = ("misere", "allpass")


def _suit(hand: int, s: int) -> list[int]:
    return [r for r in range(8) if hand >> (8 * s + r) & 1]


def stays_under(mine: list[int], leads: list[int]) -> bool:
    """Each of my cards, lowest with lowest, below its partner among the leads."""
    return all(m < t for m, t in zip(sorted(mine), sorted(leads), strict=False))


def declarer_ducks_all(pos: Position) -> bool:
    """The misère declarer can stay under the others in every suit (and on lead
    has a card below all of theirs in a suit whose removal keeps that)."""
    f = pos.hands[pos.declarer]
    o = pos.hands[(pos.declarer + 1) % 3] | pos.hands[(pos.declarer + 2) % 3]
    exit_lead = pos.leader != pos.declarer
    for s in range(4):
        mine, theirs = _suit(f, s), _suit(o, s)
        if not mine or not theirs:
            continue
        if not stays_under(mine, theirs):
            return False
        if any(d < min(theirs) and stays_under([x for x in mine if x != d], theirs) for d in mine):
            exit_lead = True
    return exit_lead


def defenders_duck_all(pos: Position) -> bool:
    """The declarer is on lead and each opponent can stay under his cards in every suit."""
    if pos.leader != pos.declarer:
        return False
    f = pos.hands[pos.declarer]
    return all(
        stays_under(_suit(pos.hands[(pos.declarer + i) % 3], s), _suit(f, s))
        for s in range(4)
        for i in (1, 2)
        if _suit(f, s)
    )


def plain_never_wins(pos: Position) -> bool:
    """The bound before issue 18: all his cards below all of theirs in every suit."""
    f = pos.hands[pos.declarer]
    o = pos.hands[(pos.declarer + 1) % 3] | pos.hands[(pos.declarer + 2) % 3]
    shared = [s for s in range(4) if _suit(f, s) and _suit(o, s)]
    return all(max(_suit(f, s)) < min(_suit(o, s)) for s in shared) and (
        pos.leader != pos.declarer or bool(shared)
    )


def plain_wins_all(pos: Position) -> bool:
    """The bound before issue 18: on lead, all his cards above all of theirs in their suits."""
    f = pos.hands[pos.declarer]
    o = pos.hands[(pos.declarer + 1) % 3] | pos.hands[(pos.declarer + 2) % 3]
    return all(min(_suit(f, s)) > max(_suit(o, s)) for s in range(4) if _suit(f, s) and _suit(o, s))


def skewed_position(rng: random.Random, goal: str, low: bool) -> Position:
    """Up to 4 cards a hand from 2-3 suits; the declarer's cards drawn towards the
    low ranks (``low``) or the high ones, so the bounds often nearly hold."""
    n = rng.randint(2, 4)
    suits = rng.sample(range(4), rng.randint(2, 3))
    deck = [s * 8 + r for s in suits for r in range(8)]
    while len(deck) < 3 * n:
        deck.append(rng.choice([s * 8 + r for s in range(4) if s not in suits for r in range(8)]))
        deck = sorted(set(deck))
    weights = [(8 - c % 8 if low else 1 + c % 8) ** 3 for c in deck]
    mine: set[int] = set()
    while len(mine) < n:
        mine.add(rng.choices(deck, weights)[0])
    rest = [c for c in deck if c not in mine]
    rng.shuffle(rest)
    declarer = rng.randrange(3)
    hands = [0, 0, 0]
    hands[declarer] = sum(1 << c for c in mine)
    others = [p for p in range(3) if p != declarer]
    hands[others[0]] = sum(1 << c for c in rest[:n])
    hands[others[1]] = sum(1 << c for c in rest[n : 2 * n])
    return Position((hands[0], hands[1], hands[2]), leader=rng.randrange(3), declarer=declarer, goal=goal)


def check(pos: Position, *, cards: bool = True) -> int:
    """solve and every threshold (and with ``cards`` every card's value) agree
    with the reference; the value."""
    value = reference_value(pos)
    assert solve(pos) == value, str(pos)
    for t in range(pos.tricks_left + 2):
        assert solve_at_least(pos, t) == (value >= t), f"{pos}: t={t}"
    if cards:
        for card, v in best_moves(pos).items():
            assert v == reference_value(pos.play(card)), f"{pos}: {card}"
    return value


def searched_nodes(pos: Position) -> int:
    """Nodes of a cold solve: 0 when a bound decides the position at once."""
    e = engine()
    e.reset()
    n0 = e.nodes
    e.solve(**engine_args(pos))
    return e.nodes - n0


CHECKS = 120
"""Positions checked of each kind (met, missed) per test: the reference is the dear part."""


def met_and_missed(
    make: Callable[[], Position], holds: Callable[[Position], bool]
) -> tuple[list[Position], list[Position]]:
    """``CHECKS`` positions from ``make`` where the bound ``holds`` and as many where not."""
    met: list[Position] = []
    missed: list[Position] = []
    while len(met) < CHECKS or len(missed) < CHECKS:
        pos = make()
        side = met if holds(pos) else missed
        if len(side) < CHECKS:
            side.append(pos)
    return met, missed


@pytest.mark.parametrize("goal", GOALS)
def test_the_declarer_who_stays_under_everywhere_takes_nothing(goal: str) -> None:
    rng = random.Random(f"ducks-{goal}")
    met, missed = met_and_missed(lambda: skewed_position(rng, goal, low=True), declarer_ducks_all)
    for i, pos in enumerate(met):
        assert check(pos, cards=i % 4 == 0) == 0, str(pos)
        assert searched_nodes(pos) == 0, f"the C bound does not see {pos}"
    # missed: some suit where his cards cannot all stay under, or no exit lead
    caught = sum(check(pos, cards=i % 4 == 0) > 0 for i, pos in enumerate(missed))
    # met well beyond the plain case, and many near misses do take tricks
    beyond_plain = sum(not plain_never_wins(pos) for pos in met)
    assert beyond_plain >= 20 and caught >= 30, (beyond_plain, caught)


def on_lead(pos: Position) -> Position:
    return Position(pos.hands, leader=pos.declarer, declarer=pos.declarer, goal=pos.goal)


@pytest.mark.parametrize("goal", GOALS)
def test_the_declarer_whose_opponents_stay_under_takes_every_trick(goal: str) -> None:
    rng = random.Random(f"wins-all-{goal}")
    met, missed = met_and_missed(lambda: on_lead(skewed_position(rng, goal, low=False)), defenders_duck_all)
    for i, pos in enumerate(met):
        assert check(pos, cards=i % 4 == 0) == pos.tricks_left, str(pos)
        assert searched_nodes(pos) == 0, f"the C bound does not see {pos}"
    short = sum(check(pos, cards=i % 4 == 0) < pos.tricks_left for i, pos in enumerate(missed))
    beyond_plain = sum(not plain_wins_all(pos) for pos in met)
    assert beyond_plain >= 20 and short >= 30, (beyond_plain, short)


def test_cards_that_can_always_be_ducked_are_no_bound() -> None:
    """The count of the declarer's cards not below all the others' in their suit
    (here ♥A K: 2) is no upper bound on his misère tricks: second hand throws ♠8,
    so his ♠7 is left alone in its suit; he must take the ♥ lead and then lead
    ♠7 or ♥A — he takes all 3.  A sure-loser bound must count such endings."""
    pos = Position.parse("♠7 ♥A K / ♥7 8 9 / ♠8 ♦7 8 | misere declarer=0 leader=1")
    assert check(pos) == 3
    assert not declarer_ducks_all(pos)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # ♠7 9 against ♠8 10: 7 under 8, 9 under 10 — whoever leads what, he stays under
        ("♠7 9 / ♠8 ♥7 / ♠10 ♥8 | misere declarer=0 leader=1", 0),
        # the same with ♠10 and ♠8 swapped between the defenders
        ("♠7 9 / ♠10 ♥7 / ♠8 ♥8 | misere declarer=0 leader=2", 0),
        # on lead ♠7 exits, but the bound keeps both their spades after it (9 above 8)
        # and leaves this one to the search
        ("♠7 9 / ♠8 ♥7 / ♠10 ♥8 | misere declarer=0 leader=0", 0),
        # ♠9 10 against ♠8 J: no pairing (9 above 8), yet the ♠8 lead forces ♠J over him
        ("♠9 10 / ♠8 ♥7 / ♠J ♥8 | misere declarer=0 leader=1", 0),
        # ... unless the partner is void: then ♠8 catches him, and he must lead ♠10
        ("♠9 10 / ♠8 ♥7 / ♥8 ♥9 | misere declarer=0 leader=1", 2),
        # on lead with ♠A K against ♠7 (first defender) and ♠8 9 (second): both stay under
        ("♠A K / ♠7 ♥7 / ♠8 9 | misere declarer=0 leader=0", 2),
        # ♠A 8 against ♠7 and ♠9 10: the ♠8 lead forces the second defender over
        ("♠A 8 / ♠7 ♥7 / ♠9 10 | misere declarer=0 leader=0", 1),
    ],
)
def test_hand_made_bound_positions(text: str, value: int) -> None:
    assert check(Position.parse(text)) == value
