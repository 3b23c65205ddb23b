"""The study pages' own rows: uploaded records and the analyses priced in whists (issue 27).

Two tables beside :mod:`.storage`'s, on the same database (created with them when the server
starts): ``pref_study_records`` holds each uploaded record (its JSON twin, keyed by a digest of
it, so the same upload gets the same link) and ``pref_study_analyses`` each finished analysis,
keyed by its source (``t:{table id}`` for a finished table, ``r:{record id}`` for an upload).
Blocking calls, made from threads.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, Text, insert, select

from .storage import Storage

__all__ = ["StudyStore", "record_id"]

metadata = MetaData()

records = Table(
    "pref_study_records",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("name", String(128), nullable=False),
    Column("record", Text, nullable=False),  # the JSON twin
    Column("problems", Text, nullable=False),  # JSON list: what the lenient reader found
)

analyses = Table(
    "pref_study_analyses",
    metadata,
    Column("source", String(48), primary_key=True),  # t:{table id} | r:{record id}
    Column("created", Float, nullable=False),
    Column("body", Text, nullable=False),  # JSON: Analysis.to_dict()
)


def record_id(record_json: str) -> str:
    """An uploaded record's id: a digest of its JSON twin (16 hex digits).

    >>> record_id('{"a": 1}')
    'f9d86028c6e0d64e'
    """
    return hashlib.sha256(record_json.encode()).hexdigest()[:16]


class StudyStore:
    """Uploaded records and finished analyses in ``storage``'s database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        with storage.engine.begin() as c:
            metadata.create_all(c)

    def add_record(self, record_json: str, name: str, problems: list[dict[str, Any]]) -> str:
        """Keep an uploaded record; its id (the same record twice: the same id)."""
        rid = record_id(record_json)
        with self.storage.engine.connect() as c:
            if c.execute(select(records.c.id).where(records.c.id == rid)).first() is not None:
                return rid
        # Storage's write turn: SQLite takes one writer at a time (see Storage._write).
        with self.storage._write() as c:
            if c.execute(select(records.c.id).where(records.c.id == rid)).first() is None:
                c.execute(insert(records).values(id=rid, created=time.time(), name=name[:128], record=record_json,
                                                 problems=json.dumps(problems)))  # fmt: skip
        return rid

    def record(self, rid: str) -> tuple[str, str, list[dict[str, Any]]] | None:
        """``(record JSON, name, problems)`` of an upload, or ``None``."""
        with self.storage.engine.connect() as c:
            row = c.execute(select(records.c.record, records.c.name, records.c.problems)
                            .where(records.c.id == rid)).first()  # fmt: skip
        return None if row is None else (row.record, row.name, list(json.loads(row.problems)))

    def analysis(self, source: str) -> dict[str, Any] | None:
        with self.storage.engine.connect() as c:
            row = c.execute(select(analyses.c.body).where(analyses.c.source == source)).first()
        return None if row is None else dict(json.loads(row.body))

    def save_analysis(self, source: str, body: dict[str, Any]) -> None:
        with self.storage._write() as c:
            c.execute(analyses.delete().where(analyses.c.source == source))
            c.execute(insert(analyses).values(source=source, created=time.time(), body=json.dumps(body)))
