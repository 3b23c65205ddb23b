"""The error hierarchy: every bad input raises a :class:`PreferansError`.

``PreferansError`` is also a :class:`ValueError`, so callers that only know
about ``ValueError`` still catch it.  Subclasses name the kind of mistake and
their messages say what was wrong and what would have been right.
"""

from __future__ import annotations


class PreferansError(ValueError):
    """Root of every error raised by this package for bad input."""


class CardError(PreferansError):
    """Malformed card text or an impossible set of cards."""


class RulesError(PreferansError):
    """An unknown ``Rules`` field, a bad value, or an impossible combination."""


class ActionError(PreferansError):
    """Malformed action text or an unknown action id."""


class IllegalAction(PreferansError):
    """An action that the rules do not allow in the current state of a deal.

    The deal is left exactly as it was before the attempt.
    """


class ScoreError(PreferansError):
    """A deal outcome that cannot be written on the sheet, or a bad score-keeper line.

    Nothing is written when it is raised: the sheet stays as it was.
    """


class TableError(PreferansError):
    """A move a table cannot take now (the deal is over, not this seat's turn, an option off).

    Nothing changed.  ``code`` names the kind for front ends that answer with a
    code (the web server's error frames).
    """

    code = "table"


class NotYourTurn(TableError):
    """A seat tried to act when the decision is another seat's (or nobody's: a face-down draw)."""

    code = "not_your_turn"


class BadSeat(TableError):
    """A seat number that is not at this table, or a seat that cannot be used so."""

    code = "bad_seat"


class OptionOff(TableError):
    """A report or a claim at a table whose option for it is off (``irregularity_reports``, ``claims``)."""

    code = "option_off"


class DealOver(TableError):
    """An action after the deal ended: the next deal must be dealt first."""

    code = "deal_over"


class DealInProgress(TableError):
    """Something done only between deals (the next deal, ending the game) while a deal is in play."""

    code = "deal_in_progress"


class GameOver(TableError):
    """Anything but looking at the sheet after the pulka ended."""

    code = "game_over"
