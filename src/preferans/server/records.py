"""Finished games kept as game records (:mod:`preferans.record`).

The server builds the record from its table
(:meth:`preferans.table.Table.to_record`) and stores the JSON twin; it is
downloaded as the text form (``.prf``) or JSON and can be replayed
(``preferans replay``) and analysed (``preferans analyze``, or the server's
``/api/tables/{id}/analysis``).
"""

from __future__ import annotations

from typing import Any

from ..record import from_json
from ..record.model import GameRecord

__all__ = ["record_of"]


def record_of(stored: dict[str, Any]) -> GameRecord:
    """The :class:`GameRecord` of a stored JSON twin."""
    return from_json(stored)
