"""Durable storage of tables, seats, deals and moves (SQLAlchemy 2 Core).

The server keeps no state that is not here: a table is rebuilt after a restart
by replaying its deals (each deal is a seed and its moves) through the engine.
Every accepted move is committed by :meth:`Storage.add_move` *before* the
server acknowledges it, so a crash (even SIGKILL) never loses an action a
player saw accepted.

SQLite (the default, in the user's data directory) and PostgreSQL share the
same schema and code: ``Storage("sqlite:///games.db")`` or
``Storage("postgresql://user@host/db")``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from ..errors import StorageError

__all__ = ["DealRow", "SeatRow", "Storage", "StorageError", "TableRow", "default_db_url", "move_row", "normalize_url"]

metadata = MetaData()

tables = Table(
    "pref_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("config", Text, nullable=False),  # JSON: rules, players, spectators
    Column("status", String(16), nullable=False),  # waiting | playing | finished
)

seats = Table(
    "pref_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("pref_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("level", String(16), nullable=False, default=""),
    Column("token_hash", String(64), nullable=False, default=""),
)

deals = Table(
    "pref_deals",
    metadata,
    Column("table_id", String(32), ForeignKey("pref_tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("min_level", Integer, nullable=False),
    Column("started", Float, nullable=False),
)

moves = Table(
    "pref_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("pref_tables.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),  # index of the move within its deal
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

analyses = Table(
    "pref_analysis",
    metadata,
    Column("table_id", String(32), ForeignKey("pref_tables.id"), primary_key=True),
    Column("variant", String(16), primary_key=True),  # json | tables (with contract tables)
    Column("body", Text, nullable=False),  # JSON: {"json": …, "text": …}
)

servers = Table(
    "pref_servers",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("url", String(255), nullable=False),  # where its peers reach it (cluster mode)
    Column("backend", Integer, nullable=False, default=0),  # its lock session's backend pid (PostgreSQL)
    Column("started", Float, nullable=False),
    Column("beat", Float, nullable=False),  # last health check that could write
)

records = Table(
    "pref_records",
    metadata,
    Column("table_id", String(32), ForeignKey("pref_tables.id"), primary_key=True),
    Column("finished", Float, nullable=False),
    Column("record", Text, nullable=False),  # JSON game record
)


_INSERT_MOVE = moves.insert()


def move_row(table_id: str, deal: int, n: int, seat: int, action: int) -> dict[str, Any]:
    """The row of one accepted move, as :meth:`Storage.add_moves` takes it.

    (A parameter dict, not ``.values()``, keeps SQLAlchemy on its compiled-statement cache.)
    """
    return {"table_id": table_id, "deal": deal, "n": n, "seat": seat, "action": action, "at": time.time()}


class _PendingMove:
    """A move waiting in :meth:`Storage.add_move` for its batch to be committed."""

    __slots__ = ("done", "error", "params", "wake")

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params
        self.wake = threading.Event()
        self.done = False
        self.error: BaseException | None = None


@dataclass(frozen=True)
class TableRow:
    id: str
    created: float
    config: dict[str, Any]
    status: str


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    kind: str
    level: str
    token_hash: str


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: int
    seed: int
    min_level: int
    moves: tuple[tuple[int, int], ...]  # (seat, action id) in order


def default_db_url() -> str:
    """SQLite in the user's data directory (``platformdirs``)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("preferans", appauthor=False)) / "games.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def normalize_url(url: str) -> str:
    """``postgresql://`` means psycopg 3; a bare path means SQLite.

    >>> normalize_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalize_url("/tmp/x.db")
    'sqlite:////tmp/x.db'
    """
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url).absolute()}"
    return url


class Storage:
    """All reads and writes of the server; every write is its own committed transaction.

    The methods block (they wait for the database): the server calls them from
    worker threads, never from its event loop.  ``busy_timeout`` is how long an
    SQLite write waits for another process's lock before it fails.

    SQLite takes one writer at a time, and a writer that finds the lock taken sleeps
    in SQLite's busy handler (1, 2, 5, 10 … 100 ms, then 100 ms again): under the load
    benchmark about one move in seven found the lock taken by another thread of the
    same server.  So this process's writes to SQLite take turns on a lock of their own
    (the next one starts as soon as the last one ends); only another process's lock
    is waited for SQLite's way.
    """

    def __init__(self, url: str | None = None, *, busy_timeout: float = 5.0) -> None:
        self.url = normalize_url(url or default_db_url())
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        # SQLite: one write at a time in this process (PostgreSQL locks rows, not the database).
        self._turn: threading.Lock | None = threading.Lock() if self.url.startswith("sqlite") else None
        self._turn_wait = max(1.0, busy_timeout)
        # Group commit of moves (add_move): the moves waiting, and whether a caller is writing.
        self._queue: list[_PendingMove] = []
        self._queue_lock = threading.Lock()
        self._leading = False
        self.batches = 0  # move transactions committed (tests and the load benchmark read it)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            with self.engine.begin() as c:
                if self.engine.dialect.name == "postgresql":  # processes of a cluster start together
                    c.execute(text("SELECT pg_advisory_xact_lock(7365, 1)"))
                metadata.create_all(c)
        except SQLAlchemyError as e:
            self.engine.dispose()
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
            raise StorageError(f"database {self.display_url}: cannot be used ({reason})") from None

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction, committed at the end (SQLite: after this process's other writes)."""
        turn = self._turn
        if turn is None:
            with self.engine.begin() as c:
                yield c
            return
        if not turn.acquire(timeout=self._turn_wait):
            raise OperationalError("write", None, sqlite3.OperationalError(
                f"database is locked (this server's other writes took over {self._turn_wait:g} s)"))  # fmt: skip
        try:
            with self.engine.begin() as c:
                yield c
        finally:
            turn.release()

    @property
    def display_url(self) -> str:
        """The URL without its password."""
        return self.engine.url.render_as_string(hide_password=True)

    @property
    def sqlite_path(self) -> Path | None:
        """The database file of SQLite (``None`` for PostgreSQL or an in-memory database)."""
        if self.engine.dialect.name != "sqlite" or not self.engine.url.database:
            return None
        return Path(self.engine.url.database)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        """Can the database be reached?"""
        try:
            with self.engine.connect() as c:
                c.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    # -- servers --------------------------------------------------------------------------
    def register_server(self, server_id: str, host: str, pid: int, url: str, *, backend: int = 0) -> None:
        now = time.time()
        with self._write() as c:
            # Also forget servers silent for a day (killed ones never unregister).
            c.execute(servers.delete().where((servers.c.id == server_id) | (servers.c.beat < now - 86400)))
            c.execute(insert(servers).values(id=server_id, host=host, pid=pid, url=url, backend=backend,
                                             started=now, beat=now))  # fmt: skip

    def unregister_server(self, server_id: str) -> None:
        with self._write() as c:
            c.execute(servers.delete().where(servers.c.id == server_id))

    def server_urls(self) -> list[str]:
        """Where each registered server process is reached (its peers' proxy targets)."""
        with self.engine.connect() as c:
            return [str(u) for u in c.execute(select(servers.c.url)).scalars()]

    def server_rows(self) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            return [dict(r._mapping) for r in c.execute(select(servers).order_by(servers.c.beat.desc()))]

    def check_write(self, server_id: str) -> None:
        """Write this server's heartbeat: raises when the database cannot take a write."""
        with self._write() as c:
            done = c.execute(update(servers).where(servers.c.id == server_id).values(beat=time.time())).rowcount
            if not done:
                c.execute(insert(servers).values(id=server_id, host="", pid=0, url="", backend=0,
                                                 started=time.time(), beat=time.time()))  # fmt: skip

    # -- tables and seats -------------------------------------------------------------
    def create_table(self, table_id: str, config: dict[str, Any], seat_rows: list[SeatRow]) -> None:
        with self._write() as c:
            c.execute(insert(tables).values(id=table_id, created=time.time(),
                                            config=json.dumps(config), status="waiting"))  # fmt: skip
            for s in seat_rows:
                c.execute(insert(seats).values(table_id=table_id, seat=s.seat, name=s.name, kind=s.kind,
                                               level=s.level, token_hash=s.token_hash))  # fmt: skip

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(tables).where(tables.c.id == table_id)).first()
        if row is None:
            return None
        return TableRow(row.id, row.created, json.loads(row.config), row.status)

    def table_ids(self, status: str | None = None) -> list[str]:
        q = select(tables.c.id).order_by(tables.c.created)
        if status is not None:
            q = q.where(tables.c.status == status)
        with self.engine.connect() as c:
            return [r.id for r in c.execute(q)]

    def set_status(self, table_id: str, status: str) -> None:
        with self._write() as c:
            c.execute(update(tables).where(tables.c.id == table_id).values(status=status))

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as c:
            rows = c.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            return [SeatRow(r.seat, r.name, r.kind, r.level, r.token_hash) for r in rows]

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Claim a free human seat; False when somebody took it first."""
        with self._write() as c:
            res = c.execute(
                update(seats)
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.kind == "human",
                    seats.c.token_hash == "",
                )
                .values(name=name, token_hash=token_hash)
            )
            return bool(res.rowcount)

    def seat_to_bot(self, table_id: str, seat: int, level: str) -> None:
        """A bot plays on for a person (his token hash stays: with it he takes the seat back)."""
        with self._write() as c:
            c.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(kind="bot", level=level))  # fmt: skip

    def seat_to_person(self, table_id: str, seat: int) -> None:
        """The person whose seat a bot played takes it back."""
        with self._write() as c:
            c.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(kind="human", level=""))  # fmt: skip

    # -- deals and moves ----------------------------------------------------------------
    def start_deal(self, table_id: str, number: int, dealer: int, seed: int, min_level: int) -> None:
        with self._write() as c:
            c.execute(insert(deals).values(table_id=table_id, number=number, dealer=dealer, seed=seed,
                                           min_level=min_level, started=time.time()))  # fmt: skip
            if number == 1:
                c.execute(update(tables).where(tables.c.id == table_id).values(status="playing"))

    def add_move(self, table_id: str, deal: int, n: int, seat: int, action: int) -> None:
        """Commit one accepted move (the primary key rejects a duplicate index); returns once it is
        committed.

        Moves that arrive while another is being written are committed together, in one
        transaction (group commit): under load the server's database threads queued here one
        behind another on SQLite's single writer, each commit waiting its turn and the GIL.  The
        first caller leads: it writes what is queued, its own move among it, then hands the lead
        to the next one waiting.  A batch refused by a constraint is written again move by move,
        so only the duplicate's caller gets the error; one refused by the database (locked,
        unreachable) gives every caller in it that error.
        """
        move = _PendingMove(move_row(table_id, deal, n, seat, action))
        with self._queue_lock:
            self._queue.append(move)
            lead = not self._leading
            self._leading = True
        if not lead:
            move.wake.wait()  # written by the leader, or handed the lead
        if not move.done:
            self._write_queued()
        if move.error is not None:
            raise move.error

    def _write_queued(self) -> None:
        """The leader's turn: write every queued move in one transaction, then pass the lead on."""
        with self._queue_lock:
            batch, self._queue = self._queue, []
        for m, error in zip(batch, self.add_moves([m.params for m in batch]), strict=True):
            m.error = error
            m.done = True
            m.wake.set()
        with self._queue_lock:
            if self._queue:
                self._queue[0].wake.set()  # not done: it leads the next batch
            else:
                self._leading = False

    def add_moves(self, rows: Sequence[dict[str, Any]]) -> list[BaseException | None]:
        """Commit accepted moves (:func:`move_row`) in one transaction; for each, ``None`` or the
        error that refused it.  A batch refused by a constraint is written again move by move, so
        only a duplicate is refused; one refused by the database (locked, unreachable) gives every
        move that error.  Never raises for a move's sake."""
        errors: list[BaseException | None] = [None] * len(rows)
        if not rows:
            return errors
        try:
            with self._write() as c:
                c.execute(_INSERT_MOVE, list(rows) if len(rows) > 1 else rows[0])
            self.batches += 1
        except IntegrityError as e:
            if len(rows) == 1:
                errors[0] = e
            else:
                for i, row in enumerate(rows):  # one by one: the duplicate alone is refused
                    try:
                        with self._write() as c:
                            c.execute(_INSERT_MOVE, row)
                        self.batches += 1
                    except SQLAlchemyError as each:
                        errors[i] = each
        except BaseException as e:  # every move of the batch gets the failure
            errors = [e] * len(rows)
        return errors

    def deals(self, table_id: str) -> list[DealRow]:
        with self.engine.connect() as c:
            drows = c.execute(select(deals).where(deals.c.table_id == table_id).order_by(deals.c.number)).all()
            mrows = c.execute(
                select(moves.c.deal, moves.c.seat, moves.c.action)
                .where(moves.c.table_id == table_id)
                .order_by(moves.c.deal, moves.c.n)
            ).all()
        by_deal: dict[int, list[tuple[int, int]]] = {}
        for m in mrows:
            by_deal.setdefault(m.deal, []).append((m.seat, m.action))
        return [DealRow(d.number, d.dealer, d.seed, d.min_level, tuple(by_deal.get(d.number, ()))) for d in drows]

    # -- finished games --------------------------------------------------------------------
    def save_record(self, table_id: str, record: dict[str, Any]) -> None:
        with self._write() as c:
            c.execute(insert(records).values(table_id=table_id, finished=time.time(), record=json.dumps(record)))
            c.execute(update(tables).where(tables.c.id == table_id).values(status="finished"))

    def record(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(select(records.c.record).where(records.c.table_id == table_id)).first()
        return None if row is None else dict(json.loads(row.record))

    def analysis(self, table_id: str, variant: str) -> dict[str, Any] | None:
        """The stored analysis of a finished table (``variant``: ``json`` or ``tables``)."""
        with self.engine.connect() as c:
            row = c.execute(select(analyses.c.body).where(analyses.c.table_id == table_id,
                                                           analyses.c.variant == variant)).first()  # fmt: skip
        return None if row is None else dict(json.loads(row.body))

    def save_analysis(self, table_id: str, variant: str, body: dict[str, Any]) -> None:
        with self._write() as c:
            c.execute(analyses.delete().where(analyses.c.table_id == table_id, analyses.c.variant == variant))
            c.execute(insert(analyses).values(table_id=table_id, variant=variant, body=json.dumps(body)))

    def iter_records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        with self.engine.connect() as c:
            for row in c.execute(select(records.c.table_id, records.c.record).order_by(records.c.finished)):
                yield row.table_id, json.loads(row.record)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + synchronous=NORMAL: a commit survives a killed process (not a power cut).
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
