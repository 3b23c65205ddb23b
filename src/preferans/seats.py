"""Seat arithmetic: who holds cards, who defends, who plays next.

Seats are absolute numbers going clockwise.  Three seats hold cards in every
deal: first, second and third hand, starting at the dealer's left (first hand,
«первая рука», speaks and leads first, Kodeks 3.2.1).  With three players the
dealer is third hand; with four he sits out (rules.md §2).  With two
(«гусарик», rules.md §16) the third hand is the dummy («болван»), seat 2,
dealt between the two players: the players are seats 0 and 1, the dealer is
always one of them, and when first hand would fall on the dummy the next
player is first hand.

>>> active_seats(dealer=0, players=3)
(1, 2, 0)
>>> active_seats(dealer=2, players=4)
(3, 0, 1)
>>> active_seats(dealer=0, players=2), active_seats(dealer=1, players=2)
((1, 2, 0), (0, 1, 2))
>>> defenders_of((3, 0, 1), declarer=0)
(1, 3)
>>> relative_seat(0, viewer=2, players=4)
2
>>> seat_count(2), dummy_seat(2), dummy_seat(3)
(3, 2, None)
"""

from __future__ import annotations

__all__ = [
    "DUMMY", "MAX_NAME", "Seat", "active_seats", "defenders_of", "dummy_seat", "name_problem", "next_active",
    "relative_seat", "seat_count",
]  # fmt: skip

Seat = int
"""A seat number, ``0 … players-1`` clockwise."""


DUMMY: Seat = 2
"""The dummy's seat in a two-handed game (гусарик): a third hand that never acts on its own."""


def seat_count(players: int) -> int:
    """The seats at the table: the players, and the dummy when two play."""
    return 3 if players == 2 else players


def dummy_seat(players: int) -> Seat | None:
    """The dummy's seat (two players), else ``None``."""
    return DUMMY if players == 2 else None


def active_seats(dealer: Seat, players: int) -> tuple[Seat, Seat, Seat]:
    """The seats dealt cards, in turn order: first, second and third hand."""
    if players == 2:
        first = (dealer + 1) % 3
        if first == DUMMY:
            first = 0  # first hand never falls on the dummy (rules.md §16)
        return first, (first + 1) % 3, (first + 2) % 3
    return (dealer + 1) % players, (dealer + 2) % players, (dealer + 3) % players


def next_active(active: tuple[Seat, ...], seat: Seat, step: int = 1) -> Seat:
    """The card-holding seat ``step`` places after ``seat`` in turn order."""
    return active[(active.index(seat) + step) % 3]


def defenders_of(active: tuple[Seat, ...], declarer: Seat) -> tuple[Seat, Seat]:
    """The declarer's two opponents in turn order, his left first (rules.md §5.1)."""
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def relative_seat(seat: Seat, viewer: Seat, players: int) -> int:
    """Where ``seat`` sits as seen from ``viewer``: 0 himself, 1 his left, … (the dummy
    counts as a seat when two play)."""
    return (seat - viewer) % seat_count(players)



MAX_NAME = 32


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name on a sheet and in a record, or ``None``.

    A name is 1–32 printable characters (no control character, line or
    paragraph separator), without a comma or a colon (they separate the names
    and the keys of a record's lines) and not starting with ``#`` or a space.

    >>> name_problem("Anna") is None, name_problem("Anna, Boris")
    (True, "'Anna, Boris' has a comma or a colon, or starts with '#'")
    >>> name_problem("A" + chr(0x2028) + "players: X")  # a line separator  # doctest: +ELLIPSIS
    "...has a character that is not printable"
    """
    if not isinstance(name, str):
        return f"a name is text, not {type(name).__name__}"
    if not name or name != name.strip():
        return f"{name!r} is empty or starts or ends with a space"
    if len(name) > MAX_NAME:
        return f"{name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters"
    if not name.isprintable():
        return f"{name!r} has a character that is not printable"
    if "," in name or ":" in name or name.startswith("#"):
        return f"{name!r} has a comma or a colon, or starts with '#'"
    return None
