"""Retention of tables (issue 25): finished and abandoned tables leave the live storage.

A server keeps every table's seats, tokens, deals and moves so that it can replay the
table after a restart.  Once a game is over (``--retain-finished``, default 7 days after
its end) or nobody has played at a table for a long time (``--retain-idle``, default 30
days), that live state is removed; what players come back for stays: the game record
(a finished game's in ``pref_records``; an abandoned game's record so far, marked
``termination: abandoned``, here) and the final score sheet (drawn once, in every
language).  ``GET /api/tables/{id}`` then answers 410 ``archived``, the table page says
so with the downloads, and ``/record`` and ``/sheet.svg`` answer as before.

The server sweeps now and then (:meth:`preferans.server.hub.Hub.retain`), a bounded batch
of tables each time, in its database threads.  Sweeping is idempotent (a table is archived
only from the status it was found in, in one transaction) and, in a cluster, a process
archives a table only while it holds the table's lease: never one another process plays.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, MetaData, Select, String, Table, Text, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import PreferansError
from ..i18n import LANGS
from .game import TableGame
from .sheetsvg import sheet_svg
from .storage import Storage, deals, moves, records, seats, tables

__all__ = ["ARCHIVED", "Archive", "ArchivedTable", "RetentionRule", "archived_table", "parse_age"]

ARCHIVED = "archived"  # the status of a table whose live state is gone
LIVE = ("waiting", "playing")  # the statuses of a game not over

_meta = MetaData()
archive = Table(
    "pref_archive",
    _meta,
    Column("table_id", String(32), primary_key=True),
    Column("archived", Float, nullable=False),
    Column("reason", String(16), nullable=False),  # finished | abandoned
    Column("last_played", Float, nullable=False),  # the game's end, or the last move of an abandoned one
    Column("members", Text, nullable=False),  # JSON: the seats' token hashes (a table without spectators)
    Column("record", Text, nullable=True),  # JSON: an abandoned game's record so far (none: nobody played)
    Column("sheets", Text, nullable=False),  # JSON: {"ru": the final sheet's SVG, "ru:phone": …}
)

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_AGE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhd])\s*")


def parse_age(value: str, what: str = "retention") -> float:
    """Seconds in ``30s``, ``15m``, ``12h`` or ``7d``; ``0`` keeps tables forever.

    A bare number other than 0 is refused: ``7`` could mean seconds or days.

    >>> parse_age("7d"), parse_age("15m"), parse_age("12h"), parse_age("30s"), parse_age("0")
    (604800.0, 900.0, 43200.0, 30.0, 0.0)
    >>> parse_age("7", "--retain-idle")
    Traceback (most recent call last):
    ...
    preferans.errors.PreferansError: --retain-idle: a time such as 30s, 15m, 12h or 7d (0: keep forever), not '7'
    """
    if value.strip() in ("0", "0s", "0d"):
        return 0.0
    m = _AGE.fullmatch(value)
    if m is None:
        raise PreferansError(f"{what}: a time such as 30s, 15m, 12h or 7d (0: keep forever), not {value!r}")
    return float(m.group(1)) * _UNITS[m.group(2)]


@dataclass(frozen=True, slots=True)
class RetentionRule:
    """How long tables keep their live state, in seconds (0: forever); ``batch``: tables a sweep."""

    finished: float = 7 * 86400.0
    idle: float = 30 * 86400.0
    batch: int = 20

    @property
    def active(self) -> bool:
        return bool(self.finished or self.idle) and self.batch > 0


@dataclass(frozen=True)
class ArchivedTable:
    """What stays of an archived table."""

    id: str
    reason: str  # finished | abandoned
    archived: float
    last_played: float
    spectators: bool
    members: tuple[str, ...]
    record: dict[str, Any] | None
    sheets: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        """The table page's answer (410 ``archived``): why, when, and where the downloads are."""
        base = f"/api/tables/{self.id}"
        return {"id": self.id, "reason": self.reason, "archived": self.archived, "last_played": self.last_played,
                "record": f"{base}/record" if self.record is not None else None,
                "sheet": f"{base}/sheet.svg"}  # fmt: skip


class Archive:
    """The archived tables of one database, and the sweep that archives them."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        storage.create_tables(_meta)

    def due(self, rule: RetentionRule, now: float | None = None) -> list[tuple[str, str]]:
        """Up to ``rule.batch`` tables to archive now: ``(id, "finished" | "abandoned")``, oldest first."""
        now = time.time() if now is None else now
        out: list[tuple[str, str]] = []
        with self.storage.engine.connect() as c:
            if rule.finished:
                out += [(r.id, "finished") for r in c.execute(_due("finished", rule, now).limit(rule.batch))]
            if rule.idle and len(out) < rule.batch:
                q = _due("abandoned", rule, now).limit(rule.batch - len(out))
                out += [(r.id, "abandoned") for r in c.execute(q)]
        return out

    def archive(self, table_id: str, reason: str, rule: RetentionRule, now: float | None = None) -> bool:
        """Archive one table found :meth:`due`; false when it no longer is (another sweep archived
        it, or somebody played meanwhile).  The caller holds the table's lease."""
        now = time.time() if now is None else now
        with self.storage.engine.connect() as c:  # still due? (played at since the look, or archived)
            if c.execute(_due(reason, rule, now).where(tables.c.id == table_id)).first() is None:
                return False
        row = self.storage.table(table_id)
        game = TableGame.load(self.storage, table_id)  # no bot programs: nothing is started
        if row is None or game is None:
            return False
        record: dict[str, Any] | None = None
        with self.storage.engine.connect() as c:
            if reason == "finished":
                last = c.execute(select(records.c.finished).where(records.c.table_id == table_id)).scalar()
            else:
                last = c.execute(select(func.max(moves.c.at)).where(moves.c.table_id == table_id)).scalar()
        if reason == "abandoned" and game.table is not None and game.table.log:
            record = game.game_record()
            record["headers"] = {**record.get("headers", {}), "termination": "abandoned"}
        # both layouts: the wide sheet, and the phone's (its words readable at 390 px, issue 28)
        sheets = {lang: sheet_svg(game, lang) for lang in LANGS} | {
            f"{lang}:phone": sheet_svg(game, lang, "phone") for lang in LANGS}
        members = [s.token_hash for s in game.seats if s.token_hash]
        game.close()
        values = {"table_id": table_id, "archived": now, "reason": reason, "last_played": last or row.created,
                  "members": json.dumps(members), "record": None if record is None else json.dumps(record),
                  "sheets": json.dumps(sheets)}  # fmt: skip
        try:
            with self.storage.transaction() as c:
                # Only from the status it was found in, and only if nothing was played since (one transaction).
                if c.execute(_due(reason, rule, now).where(tables.c.id == table_id)).first() is None:
                    raise _Changed
                moved = c.execute(update(tables).where(tables.c.id == table_id, tables.c.status == row.status)
                                  .values(status=ARCHIVED)).rowcount  # fmt: skip
                if moved != 1:
                    raise _Changed
                c.execute(insert(archive).values(**values))
                for live_rows in (moves, deals, seats):
                    c.execute(delete(live_rows).where(live_rows.c.table_id == table_id))
        except (_Changed, IntegrityError):  # archived by another sweep, or changed meanwhile: rolled back
            return False
        return True

    def get(self, table_id: str) -> ArchivedTable | None:
        """The archived table ``table_id`` (``None``: no such table, or not archived)."""
        return archived_table(self.storage, table_id)

    def ids(self) -> Sequence[str]:
        """Every archived table, the first archived first."""
        with self.storage.engine.connect() as c:
            return [r.table_id for r in c.execute(select(archive.c.table_id).order_by(archive.c.archived))]


def _due(reason: str, rule: RetentionRule, now: float) -> Select[tuple[str]]:
    """The tables due for archiving for ``reason``, oldest first: finished ``rule.finished`` ago, or
    not finished and without a move, a deal or a creation for ``rule.idle``."""
    if reason == "finished":
        return (select(tables.c.id).join(records, records.c.table_id == tables.c.id)
                .where(tables.c.status == "finished", records.c.finished < now - rule.finished)
                .order_by(records.c.finished))  # fmt: skip
    cutoff = now - rule.idle
    last_move = select(func.max(moves.c.at)).where(moves.c.table_id == tables.c.id).scalar_subquery()
    last_deal = select(func.max(deals.c.started)).where(deals.c.table_id == tables.c.id).scalar_subquery()
    return (select(tables.c.id).where(tables.c.status.in_(LIVE), tables.c.created < cutoff,
                                      func.coalesce(last_move, 0.0) < cutoff, func.coalesce(last_deal, 0.0) < cutoff)
            .order_by(tables.c.created))  # fmt: skip


class _Changed(Exception):
    """The table's status changed between the look and the write."""


def archived_table(storage: Storage, table_id: str) -> ArchivedTable | None:
    """What stays of the archived table ``table_id`` (``None``: no such table, or not archived); a
    read only — the archive's table exists once the server's :class:`Archive` was made."""
    with storage.engine.connect() as c:
        row = c.execute(select(archive, tables.c.config).join(tables, tables.c.id == archive.c.table_id)
                        .where(archive.c.table_id == table_id)).first()  # fmt: skip
    if row is None:
        return None
    record = json.loads(row.record) if row.record is not None else storage.record(table_id)
    return ArchivedTable(row.table_id, row.reason, row.archived, row.last_played,
                         bool(json.loads(row.config).get("spectators", True)), tuple(json.loads(row.members)),
                         record, dict(json.loads(row.sheets)))  # fmt: skip
