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
