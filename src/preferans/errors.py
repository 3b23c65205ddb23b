"""The error hierarchy: every bad input raises a :class:`PreferansError`.

``PreferansError`` is also a :class:`ValueError`, so callers that only know
about ``ValueError`` still catch it.  Subclasses name the kind of mistake and
their messages say what was wrong and what would have been right.
"""

from __future__ import annotations

from typing import Any


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


class ConfigError(PreferansError):
    """A bad argument when setting something up — a deal's number of players, its
    dealer, its lowest level: nothing was made."""


class UndoError(IllegalAction):
    """``undo()`` with nothing to undo: no action has been made yet."""


class ScoreError(PreferansError):
    """A deal outcome that cannot be written on the sheet, or a bad score-keeper line.

    Nothing is written when it is raised: the sheet stays as it was.
    """


class ConfirmationNeeded(ScoreError):
    """A score-keeper line that means something only the players can confirm (a lone whist
    without tricks: «за своими»?).  Nothing is written; the interactive keeper asks, a file
    says it with a word (``quota``)."""


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


class SolverError(PreferansError):
    """A position the solver cannot accept: impossible cards, sizes or settings."""


class RecordError(PreferansError):
    """A record that cannot be read or does not replay.

    ``source`` is the file (``<string>`` for text given directly, empty when the
    error is not about a text, e.g. building a record), ``line`` the 1-based line
    of the text form (0 when unknown, e.g. in JSON), ``reason`` what is wrong.
    ``str(error)`` is ``source:line: reason``.
    """

    def __init__(self, reason: str, *, source: str = "", line: int = 0, deal: int = 0) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.deal = deal  # 1-based deal number, 0 for the header
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {reason}" if where else reason)

    def __reduce__(self) -> tuple[Any, ...]:  # keep the fields through pickling
        return (_rebuild_error, (self.reason, self.source, self.line, self.deal))


def _rebuild_error(reason: str, source: str, line: int, deal: int) -> RecordError:
    return RecordError(reason, source=source, line=line, deal=deal)


class BotProtocolError(PreferansError):
    """A bot program broke the protocol: no answer in time, an unreadable or illegal
    answer, a version the table does not speak, or it exited.

    ``kind`` says which: ``timeout``, ``crash`` (exited, or cannot start), ``unreadable``,
    ``illegal``, ``greeting`` (a bad greeting, a version not spoken), ``protocol`` (a line
    unasked).
    """

    def __init__(self, message: str, kind: str = "protocol") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:  # keep the kind through pickling
        return (type(self), (str(self), self.kind))


class ArenaError(PreferansError):
    """A bad arena set-up: unknown bot, too many bots for the table, bad counts."""


class SaveError(PreferansError):
    """A saved game that cannot be read or resumed."""


class GameError(TableError):
    """A request the table cannot accept (seat taken, no deal, …); nothing changed.

    ``reason``: the cause as a message players read in their language (a refused rule option),
    when there is one."""

    def __init__(self, code: str, message: str, reason: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason


class InputError(PreferansError):
    """Typed input that names no legal action; the message says what would be right."""


class EnvError(PreferansError):
    """A bad environment option (the message names it)."""


class StorageError(PreferansError):
    """A database the server cannot use (not a database, unreachable, refused)."""


class DatabaseInUse(PreferansError):
    """Another server runs on this database."""


class Busy(TableError):
    """Too much CPU work asked for at once (by this table, this address, or everyone); nothing changed."""

    code = "busy"


class Elsewhere(PreferansError):
    """The table is played on another server process of the cluster (``url``): the request
    is sent on there (the server catches it; a caller never sees it)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


class AccountError(PreferansError):
    """A club account's refusal (``bad_name``, ``name_taken``, ``bad_password``, ``wrong_password``,
    ``rate_limited``) with its HTTP status and its reason in every language (``msg``, an
    :class:`preferans.i18n.Msg`)."""

    def __init__(self, code: str, message: Any, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.msg = message
