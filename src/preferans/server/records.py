"""Finished games kept as game records (:mod:`preferans.record`).

The server builds the record from its pulka and the deals it replayed
(:func:`preferans.record.record_from_pulka`) and stores the JSON twin; it is
downloaded as the text form (``.prf``) or JSON and can be replayed
(``preferans replay``) and analysed (``preferans analyze``, or the server's
``/api/tables/{id}/analysis``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from ..engine.deal import Deal
from ..record import from_json, record_from_pulka, to_json
from ..record.model import GameRecord
from ..scoring.pulka import Pulka

__all__ = ["game_record", "record_of"]


def game_record(table_id: str, pulka: Pulka, past: Sequence[Deal], current: Deal | None) -> dict[str, Any]:
    """The game as the JSON twin of a :class:`~preferans.record.GameRecord`: the
    finished deals ``past`` and the deal in play ``current`` once it has a move."""
    deals = list(past)
    if current is not None and current not in deals and current.moves:
        deals.append(current)
    headers = {
        "event": "preferans serve",
        "date": dt.datetime.now(dt.UTC).strftime("%Y.%m.%d"),
        "table": table_id,
    }
    return to_json(record_from_pulka(pulka, deals, headers=headers))


def record_of(stored: dict[str, Any]) -> GameRecord:
    """The :class:`GameRecord` of a stored JSON twin."""
    return from_json(stored)
