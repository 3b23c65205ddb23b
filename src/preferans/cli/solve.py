"""``preferans solve``: the double-dummy value of a position and of every legal card.

Hands are written first hand, second, third, separated by ``/`` (or ``|``),
each in any card form (``♠A K 7 ♥10`` or ``AS KS 7S TH``); players are
numbered 1–3 in that order.  Example::

    preferans solve "♠A K Q ♥7 / ♠J 10 7 ♥A / ♠9 8 ♥K Q" --trump S --leader 2
"""

from __future__ import annotations

import argparse

from ..cards import Card, Suit, parse_cards
from ..errors import CardError
from ..i18n import N_
from ..solver import Position, SolverError, best_moves, solve

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "solve",
        help=N_("double-dummy value of a position and of every legal card"),
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hands", help='three hands, first hand first: "♠A K ♥7 / ♠Q J ♥A / ♠10 9 ♥K"')
    p.add_argument("--trump", default="NT", help="trump suit (♠ ♣ ♦ ♥ or S C D H) or NT (default)")
    p.add_argument("--leader", type=int, default=1, help="who leads the trick, 1-3 (default 1)")
    p.add_argument("--declarer", type=int, default=1, help="declarer, 1-3 (default 1)")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--misere", action="store_true", help="misère: the declarer avoids tricks")
    kind.add_argument(
        "--allpass", action="store_true",
        help="all-pass: the --declarer player's fewest tricks against the other two",
    )
    p.add_argument("--trick", default="", help="cards already on the table this trick, in order")
    p.add_argument("--talon", default="", help="all-pass: talon cards still to lead tricks")
    p.add_argument(
        "--talon-mode", default="suit_only", choices=("suit_only", "participates"),
        help="all-pass talon: names the suit (3 players) or can take the trick (4 players)",
    )
    p.set_defaults(func=run)


def _player(value: int, what: str) -> int:
    if not 1 <= value <= 3:
        raise SolverError(f"--{what} must be a player 1, 2 or 3, not {value}")
    return value - 1


def _cards(text: str, what: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except CardError as e:
        raise SolverError(f"{what}: {e}") from None


def build_position(args: argparse.Namespace) -> Position:
    """The position described by the command line, checked with 1-based messages."""
    parts = args.hands.replace("|", "/").split("/")
    if len(parts) != 3:
        raise SolverError(
            f"give three hands separated by '/', found {len(parts)}: {args.hands!r}"
        )
    hands: list[int] = []
    owner: dict[Card, str] = {}
    for i, part in enumerate(parts, 1):
        mask = 0
        for c in _cards(part, f"hand {i}"):
            if c in owner:
                raise SolverError(f"card {c} is in {owner[c]} and again in hand {i}")
            owner[c] = f"hand {i}"
            mask |= 1 << c
        hands.append(mask)
    trick = _cards(args.trick, "--trick")
    talon = _cards(args.talon, "--talon")
    for what, cards in (("--trick", trick), ("--talon", talon)):
        for c in cards:
            if c in owner:
                raise SolverError(f"card {c} is in {owner[c]} and in {what}")
            owner[c] = what
    counts = [h.bit_count() for h in hands]
    if not trick and len(set(counts)) != 1:
        listing = ", ".join(f"hand {i} has {n}" for i, n in enumerate(counts, 1))
        raise SolverError(f"the hands must hold the same number of cards: {listing}")
    trump = None
    if args.trump.upper() not in ("NT", "БК"):
        try:
            trump = int(Suit.parse(args.trump))
        except CardError as e:
            raise SolverError(f"--trump: {e} (or NT)") from None
    goal = "misere" if args.misere else "allpass" if args.allpass else "tricks"
    if goal != "tricks" and trump is not None:
        raise SolverError(f"{goal} is played without trumps (Kodeks 3.6.7, 3.7.5): drop --trump")
    leader = _player(args.leader, "leader")
    declarer = _player(args.declarer, "declarer")
    try:
        return Position(
            hands=(hands[0], hands[1], hands[2]),
            leader=0 if talon else leader,
            declarer=declarer,
            goal=goal,
            trump=trump,
            trick=trick,
            talon=talon,
            talon_mode=args.talon_mode,
        )
    except SolverError as e:
        # The position numbers players 0-2; the command line 1-3.
        msg = str(e)
        for i in (2, 1, 0):
            msg = msg.replace(f"hand {i}", f"hand {i + 1}").replace(f"player {i}", f"player {i + 1}")
        raise SolverError(msg) from None


def run(args: argparse.Namespace) -> int:
    pos = build_position(args)
    if pos.tricks_left == 0:
        print("no cards left to play")
        return 0
    value = solve(pos)
    n = f"{value} trick" + ("" if value == 1 else "s")
    who = f"player {pos.declarer + 1}"
    if pos.goal == "tricks":
        print(f"{who} (declarer) takes {n} of {pos.tricks_left} with best play")
    elif pos.goal == "misere":
        state = "clean" if value == 0 else f"caught for {value}"
        print(f"{who} (misère) takes {n} with best play: {state}")
    else:
        print(f"{who} takes {n} on all-pass against the other two together")
    moves = best_moves(pos)
    mover = pos.to_play
    maximising = (mover == pos.declarer) == (pos.goal == "tricks")
    print(f"player {mover + 1} to play; {who}'s tricks after each card:")
    for card in sorted(moves, key=lambda c: (-moves[c] if maximising else moves[c], -c)):
        mark = "  best" if moves[card] == value else ""
        print(f"  {card!s:>4} {moves[card]:3}{mark}")
    return 0
