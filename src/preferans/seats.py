"""Seat arithmetic: who holds cards, who defends, who plays next.

Seats are absolute numbers ``0 … players-1`` going clockwise.  Three seats
hold cards in every deal: first, second and third hand, starting at the
dealer's left (first hand, «первая рука», speaks and leads first, Kodeks
3.2.1).  With three players the dealer is third hand; with four he sits out
(rules.md §2).

>>> active_seats(dealer=0, players=3)
(1, 2, 0)
>>> active_seats(dealer=2, players=4)
(3, 0, 1)
>>> defenders_of((3, 0, 1), declarer=0)
(1, 3)
>>> relative_seat(0, viewer=2, players=4)
2
"""

from __future__ import annotations

__all__ = ["MAX_NAME", "Seat", "active_seats", "defenders_of", "name_problem", "next_active", "relative_seat"]

Seat = int
"""A seat number, ``0 … players-1`` clockwise."""


def active_seats(dealer: Seat, players: int) -> tuple[Seat, Seat, Seat]:
    """The seats dealt cards, in turn order: first, second and third hand."""
    return (dealer + 1) % players, (dealer + 2) % players, (dealer + 3) % players


def next_active(active: tuple[Seat, ...], seat: Seat, step: int = 1) -> Seat:
    """The card-holding seat ``step`` places after ``seat`` in turn order."""
    return active[(active.index(seat) + step) % 3]


def defenders_of(active: tuple[Seat, ...], declarer: Seat) -> tuple[Seat, Seat]:
    """The declarer's two opponents in turn order, his left first (rules.md §5.1)."""
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def relative_seat(seat: Seat, viewer: Seat, players: int) -> int:
    """Where ``seat`` sits as seen from ``viewer``: 0 himself, 1 his left, …"""
    return (seat - viewer) % players


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
