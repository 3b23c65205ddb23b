"""The record of a game: a whole pulka (or a set of deals) as plain values.

A :class:`GameRecord` holds the header (players, the complete
:class:`~preferans.rules.Rules`, event, date …) and one :class:`DealRecord`
per deal: the dealer, the cards as dealt (``??`` — unknown — allowed), every
action in order with the *stage* (the line of the text form) it belongs to,
and the sheet entries the deal wrote.  Records are values: two records are
equal when their content is, whatever text or JSON they were read from.

>>> from preferans.rules import Rules
>>> rec = GameRecord(players=("A", "B", "C"), rules=Rules.preset("sochi"))
>>> rec.players, rec.deals, rec.scored
(('A', 'B', 'C'), (), True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..cards import Card
from ..errors import RecordError
from ..rules import Rules
from ..scoring.sheet import Entry
from ..seats import active_seats, name_problem, seat_count

__all__ = [
    "HEADER_ORDER",
    "STAGES",
    "DealRecord",
    "GameRecord",
    "RecordError",
]

STAGES = ("auction", "discard", "contract", "whist", "defence", "play", "redraw", "report", "claim")
"""The stages of a deal as the record writes them, one kind of line each:

* ``auction`` — bids, passes, здесь/мои, the silent talon, dark calls,
  misère «пополам» invitation and the dealer's answer (rules.md §3, Kodeks 3.6.9);
* ``discard`` — the two cards laid away (``??`` when unseen);
* ``contract`` — the declaration (rules.md §4);
* ``whist`` — whist / pass / half-whist and the answer to a half-whist (rules.md §5);
* ``defence`` — the declarer's concession or play-on, the lone whister's
  open / closed / «за своими» and the declarer's answer;
* ``play`` — the cards trick by trick (a defence choice made after the first
  lead is written inside the first trick, where it was made; so are the
  declarer's require / forbid / waive of Kodeks 3.3.18 and the answers to a claim);
* ``redraw`` — the cards the dealer draws back into the talon (Kodeks 3.3.17);
* ``report`` — an irregularity reported at the table (``!talon-seen``,
  ``!talon-exposed``, ``!talon-taken``, ``!misdeal``, ``!out-of-turn …``), made by a
  named player (Kodeks 3.3.16–3.3.18, seed-002 p.12);
* ``claim`` — a claim of the remaining tricks by a named player.

Reports and claims are not made by the player whose turn it is; the record keeps
who made them (:attr:`DealRecord.reporters`).
"""

HEADER_ORDER = ("event", "site", "date", "round", "time", "table", "annotator")
"""Headers written first, in this order (like PGN's seven-tag roster); others follow as given."""


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as recorded.  Seats are absolute (0 … players-1).

    * ``players`` (3 or 4) and ``dealer``; ``min_level`` — the lowest game
      allowed (after a series of all-passes, rules.md §8.3).
    * ``hands`` — the known cards of each seat as dealt (masks; the
      4-handed dealer holds none); ``unknown`` — how many of a seat's cards
      are unknown (``??``), per seat.
    * ``talon`` — the two talon cards in order (the order of the all-pass
      leads, Kodeks 3.7.6); ``None`` for an unknown card.
    * ``actions`` — every action in order; ``None`` only for an unseen
      discarded card.  ``stages`` — the stage of each action (:data:`STAGES`).
    * ``entries`` — the lines the deal wrote on the sheet (``None`` when the
      record keeps no score); ``help_to`` — the player helped when
      ``help_target="choice"``.
    * ``comment`` — free text kept with the deal.
    * ``sheet`` — not a deal but lines written on the sheet by hand (a paper
      sheet entered in progress, a correction): ``entries`` only, no cards.
    * ``reporters`` — (action index, seat) of each irregularity reported and
      each claim: the player who made it.

    ``line``, ``action_lines`` and ``key_lines`` (the first line of each key:
    ``dealer``, ``min_level``, ``score`` …) are where the deal, each action and
    each kind of line stood in the text it was read from; they are not part of
    the value.
    """

    players: int
    dealer: int
    hands: tuple[int, ...]
    talon: tuple[Card | None, ...]
    actions: tuple[Action | None, ...] = ()
    stages: tuple[str, ...] = ()
    entries: tuple[Entry, ...] | None = None
    unknown: tuple[int, ...] = ()
    min_level: int = 6
    help_to: int | None = None
    comment: str = ""
    reporters: tuple[tuple[int, int], ...] = ()
    sheet: bool = False
    line: int = field(default=0, compare=False, repr=False)
    action_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)
    key_lines: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.unknown:
            object.__setattr__(self, "unknown", (0,) * seat_count(self.players))

    @property
    def active(self) -> tuple[int, ...]:
        """The seats holding cards: first, second and third hand (the dealer's left first)."""
        return active_seats(self.dealer, self.players)

    @property
    def complete(self) -> bool:
        """Are all cards known (hands, talon and discard)?"""
        return (
            not any(self.unknown)
            and None not in self.talon
            and all(a is not None for a in self.actions)
        )

    def actor(self, index: int) -> int | None:
        """The seat that made action ``index`` when it was a report or a claim, else ``None``."""
        for i, seat in self.reporters:
            if i == index:
                return seat
        return None

    def line_of_key(self, key: str) -> int:
        """The text line of the first ``key:`` line of the deal (the deal's line when unknown)."""
        for k, n in self.key_lines:
            if k == key:
                return n
        return self.line

    def line_of(self, index: int) -> int:
        """The text line of action ``index`` (the deal's line when unknown)."""
        if 0 <= index < len(self.action_lines):
            return self.action_lines[index]
        return self.line


DUMMY_NAME = "dummy"
"""How records name the dummy's seat in гусарик (rules.md §16): ``hand dummy: …``."""


def seat_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The name of every seat: the players, and the dummy when two play."""
    return (*names, DUMMY_NAME) if len(names) == 2 else names


@dataclass(frozen=True)
class GameRecord:
    """A whole game: header and deals.

    * ``players`` — the names, in seat order (3 or 4);
    * ``rules`` — the complete table conventions, so the record replays on its
      own whatever the defaults become;
    * ``headers`` — ``event``, ``site``, ``date`` … (see :data:`HEADER_ORDER`),
      and any other ``key: value`` the writer wanted kept;
    * ``first_dealer`` — the seat who dealt first;
    * ``scored`` — the deals form one pulka: each deal's sheet entries are
      kept and a replay checks them (``False`` for independent deals, e.g. a
      single deal or an arena match);
    * ``stopped`` — the pulka was ended by agreement (rules.md §10);
    * ``errors`` — what a lenient reader found wrong (not part of the value).
    """

    players: tuple[str, ...]
    rules: Rules
    deals: tuple[DealRecord, ...] = ()
    headers: dict[str, str] = field(default_factory=dict)
    first_dealer: int = 0
    scored: bool = True
    stopped: bool = False
    errors: list[RecordError] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        names = self.players
        if len(names) not in (2, 3, 4) or len(set(names)) != len(names):
            raise RecordError(f"players: give 2 (гусарик), 3 or 4 distinct names, not {list(names)}")
        if len(names) == 2 and DUMMY_NAME in names:
            raise RecordError(f"players: {DUMMY_NAME!r} names the dummy in a two-handed record")
        for n in names:
            problem = name_problem(n)
            if problem is not None:
                raise RecordError(f"players: {problem}, so it cannot be written in a record")
        if not 0 <= self.first_dealer < len(names):
            raise RecordError(f"first_dealer: seat {self.first_dealer} is not at a table of {len(names)}")

    def seat(self, name: str) -> int:
        """The seat of a player's name."""
        try:
            return self.players.index(name)
        except ValueError:
            raise RecordError(f"player {name!r} is not at this table ({', '.join(self.players)})") from None

    def replace(self, **changes: Any) -> GameRecord:
        """A copy with some fields changed."""
        from dataclasses import replace

        return replace(self, **changes)
