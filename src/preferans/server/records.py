"""Finished games kept as game records (:mod:`preferans.record`).

The server builds the record from its pulka and the deals it replayed
(:func:`preferans.record.record_from_pulka`) and stores the JSON twin; it is
downloaded as the text form (``.prf``) or JSON and can be replayed
(``preferans replay``) and analysed (``preferans analyze``, or the server's
``/api/tables/{id}/analysis``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ..record import from_json, record_from_pulka, to_json
from ..record.model import GameRecord

if TYPE_CHECKING:
    from .game import TableGame

__all__ = ["game_record", "record_of"]


def game_record(game: TableGame) -> dict[str, Any]:
    """The game as the JSON twin of a :class:`~preferans.record.GameRecord`."""
    pulka = game.pulka
    assert pulka is not None, "a game record needs a pulka"
    deals = [d for _, d in game.past]
    if game.deal is not None and game.deal not in deals and game.deal.moves:
        deals.append(game.deal)
    headers = {
        "event": "preferans serve",
        "date": dt.datetime.now(dt.UTC).strftime("%Y.%m.%d"),
        "table": game.id,
    }
    return to_json(record_from_pulka(pulka, deals, headers=headers))


def record_of(stored: dict[str, Any]) -> GameRecord:
    """The :class:`GameRecord` of a stored JSON twin."""
    return from_json(stored)
