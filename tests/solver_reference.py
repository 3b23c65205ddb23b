"""A plain minimax over every card, the reference the C search must agree with.

Written from the rules (rules.md §6–§8), sharing no code with the solver.
"""

from __future__ import annotations

import random
from functools import cache

from preferans.cards import Card
from preferans.solver import Position


def _suit(c: int) -> int:
    return c // 8


def _winner(
    plays: tuple[tuple[int, int], ...], trump: int | None, talon: int | None, participates: bool
) -> int | None:
    """Who takes the trick; None when nobody does (an all-pass talon trick)."""
    led = _suit(talon) if talon is not None else _suit(plays[0][1])
    best_key, who = -1, None
    if talon is not None and participates:
        best_key = 100 + talon % 8  # Kodeks 3.7.6.1: the dealer's talon card competes
    for p, c in plays:
        if trump is not None and _suit(c) == trump:
            key = 200 + c % 8  # rules.md §6: any trump beats the led suit
        elif _suit(c) == led:
            key = 100 + c % 8
        else:
            continue  # a discard never wins; Kodeks 3.7.6.3: the talon only names the suit
        if key > best_key:
            best_key, who = key, p
    return who


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _legal(hand: int, led: int | None, trump: int | None) -> list[int]:
    if led is None:
        return _cards(hand)
    follow = hand & (0xFF << (8 * led))
    if follow:
        return _cards(follow)  # rules.md §6: follow suit
    if trump is not None and hand & (0xFF << (8 * trump)):
        return _cards(hand & (0xFF << (8 * trump)))  # rules.md §6: trump when void
    return _cards(hand)


def reference_value(pos: Position) -> int:
    """The focus player's tricks from here, by full minimax (memoised, no pruning)."""
    focus, goal, trump = pos.declarer, pos.goal, pos.trump
    participates = pos.talon_mode == "participates"

    def maximiser(p: int) -> bool:
        # Tricks: the declarer maximises; misère and all-pass: his opponents do.
        return (p == focus) == (goal == "tricks")

    @cache
    def value(
        hands: tuple[int, int, int],
        leader: int,
        plays: tuple[tuple[int, int], ...],
        talon: tuple[int, ...],
    ) -> int:
        talon_card = talon[0] if talon else None
        if len(plays) == 3:
            w = _winner(plays, trump, talon_card, participates)
            # rules.md §8.2: tricks 1-2 are led by the talon, first hand plays first,
            # and first hand leads trick 3; rules.md §6: then the winner leads.
            nxt = 0 if talon or w is None else w
            return (w == focus) + value(hands, nxt, (), talon[1:])
        if not any(hands):
            return 0
        first = 0 if talon else leader
        p = (first + len(plays)) % 3
        if talon_card is not None:
            led: int | None = _suit(talon_card)
        else:
            led = _suit(plays[0][1]) if plays else None
        results = []
        for c in _legal(hands[p], led, trump):
            hs = list(hands)
            hs[p] = hands[p] & ~(1 << c)
            results.append(value((hs[0], hs[1], hs[2]), leader, (*plays, (p, c)), talon))
        return max(results) if maximiser(p) else min(results)

    first = 0 if pos.talon else pos.leader
    plays = tuple(((first + i) % 3, int(c)) for i, c in enumerate(pos.trick))
    return value(pos.hands, pos.leader, plays, tuple(int(c) for c in pos.talon))


def random_position(rng: random.Random, goal: str, max_cards: int = 5) -> Position:
    """A random position of up to ``max_cards`` cards a hand, sometimes mid-trick.

    Cards come from few suits now and then, so following, ruffing and voids all occur.
    """
    n = rng.randint(1, max_cards)
    suits = rng.sample(range(4), rng.randint(2, 4))
    deck = [s * 8 + r for s in suits for r in range(8)]
    rng.shuffle(deck)
    talon: list[int] = []
    mode = "suit_only"
    if goal == "allpass" and rng.random() < 0.5:
        talon = [deck.pop() for _ in range(rng.randint(1, 2))]
        mode = rng.choice(("suit_only", "participates"))
    need = 3 * n
    if len(deck) < need:
        deck += [s * 8 + r for s in range(4) if s not in suits for r in range(8)]
    hands = [set(deck[i * n : (i + 1) * n]) for i in range(3)]
    trump = rng.choice((None, *range(4))) if goal == "tricks" else None
    leader = 0 if talon else rng.randrange(3)
    pos = Position(
        hands=tuple(sum(1 << c for c in h) for h in hands),  # type: ignore[arg-type]
        leader=leader,
        declarer=rng.randrange(3),
        goal=goal,
        trump=trump,
        talon=tuple(Card(c) for c in talon),
        talon_mode=mode,
    )
    # Play 0-2 random legal cards of the first trick to start mid-trick.
    for _ in range(rng.randint(0, 2) if n > 1 or rng.random() < 0.5 else 0):
        if len(pos.trick) == 2:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
        if not pos.trick:
            break
    return pos


def reference_selfish(pos: Position) -> dict[int, int]:
    """An all-pass with no talon lead left, each player for his own fewest tricks (max-n):
    each legal card of the player to move and the focus player's tricks after it.

    Every card is searched (no equal-card shortcut); of cards equal for the player to move he
    takes the one that leaves the next player the most tricks, as the solver documents.
    """
    assert pos.goal == "allpass" and not pos.talon

    @cache
    def value(hands: tuple[int, int, int], leader: int, plays: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        if len(plays) == 3:
            w = _winner(plays, None, None, False)
            assert w is not None
            rest = list(value(hands, w, ()))
            rest[w] += 1
            return tuple(rest)
        if not any(hands):
            return (0, 0, 0)
        return choose(hands, leader, plays)[1]

    def after(hands: tuple[int, int, int], leader: int, plays: tuple[tuple[int, int], ...], c: int) -> tuple[int, ...]:
        p = (leader + len(plays)) % 3
        hs = list(hands)
        hs[p] &= ~(1 << c)
        return value((hs[0], hs[1], hs[2]), leader, (*plays, (p, c)))

    def choose(
        hands: tuple[int, int, int], leader: int, plays: tuple[tuple[int, int], ...]
    ) -> tuple[int, tuple[int, ...]]:
        p = (leader + len(plays)) % 3
        led = _suit(plays[0][1]) if plays else None
        options = [(c, after(hands, leader, plays, c)) for c in _legal(hands[p], led, None)]
        return min(options, key=lambda o: (o[1][p], -o[1][(p + 1) % 3]))

    plays = tuple(((pos.leader + i) % 3, int(c)) for i, c in enumerate(pos.trick))
    p = pos.to_play
    led = _suit(plays[0][1]) if plays else None
    return {c: after(pos.hands, pos.leader, plays, c)[pos.declarer] for c in _legal(pos.hands[p], led, None)}
