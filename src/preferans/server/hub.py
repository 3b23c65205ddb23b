"""The live side of the server: tables in memory, connections, frames, bots, limits.

Everything here runs on one asyncio loop, which never waits: database calls run
in worker threads and CPU work (claim proofs, assessments, analyses, the hard bot)
in worker processes (:mod:`.work`).  Each table in memory is a :class:`LiveTable`
with a lock: whatever reads or changes its game holds the lock, so a move being
stored in a thread is never seen half made.  Each connection has an outgoing queue
drained by its own task, so one slow client never delays the others.

Frames the server sends (JSON objects with a ``type``):

* ``state`` — the table (seats, who is online), the deal number and the
  receiver's view: ``deal.observation(seat).to_dict()`` for a player,
  :func:`~preferans.server.views.public_view` for a spectator (no view at all
  when the table does not allow spectators), the sheet totals and the last result.
  Changes are gathered for ``push_delay`` seconds and sent as one state.
* ``presence`` — who is online (``online``: the seats with a connection;
  ``spectators``): sent when a seat's player comes or goes, instead of the whole state;
* ``ack`` — an action was stored and applied (``ref`` echoes the client's ``id``);
* ``error`` — ``code`` and ``message``; nothing changed.

Frames a client sends: ``{"type": "act", "action": <id or text>, "id": ...}``,
``{"type": "next"}`` (deal the next hand), ``{"type": "ping"}`` and the rest listed
in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import functools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import orjson
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..actions import Action
from ..bots import LEVELS
from ..bots.pimc import PimcBot
from ..bots.sandbox import ProgramLimits, ProgramSlots
from ..errors import Elsewhere, PreferansError, TableError
from ..i18n import LANGS, text
from ..scoring.sheet import paper_amount, signed_amount
from ..seats import DUMMY
from ..table import BotThought, FixedMove
from .archive import Archive, RetentionRule
from .game import GameError, TableConfig, TableGame, rule_changes
from .settings import MAX_FRAME, ServerConfig
from .storage import Storage
from .views import deal_review, public_view, seat_view
from .work import Busy, PoolRulings, Workers, analyze_job, prove_job

__all__ = ["MAX_FRAME", "Client", "Elsewhere", "Hub", "LiveTable", "Owners", "RateLimiter", "Solo"]

QUEUE_LIMIT = 256  # frames waiting for one client before it is dropped as too slow
RELEASE = 16  # movers of a written batch woken in one turn of the event loop (MoveWriter)
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
log = logging.getLogger("preferans.server")
T = TypeVar("T")


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``.

    >>> r = RateLimiter(rate=1, burst=2, clock=lambda: 0.0)
    >>> r.allow(), r.allow(), r.allow()
    (True, True, False)
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float = 10.0, burst: float = 20.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (``None`` for a spectator) and outgoing queue."""

    table_id: str
    seat: int | None
    send: Callable[[str], Any]  # async callable sending one text frame
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    limiter: RateLimiter = field(default_factory=RateLimiter)
    address: str = ""
    limited_since: float = 0.0
    dropped: int = 0
    received_at: float = 0.0  # when the frame being handled arrived (frames are handled one at a time)
    closed: bool = False
    # The connection's task while it waits for the client's next frame: closing the client cancels
    # that wait, so the reader stops when the server hangs up, not only when the client does.
    # (Waiting on a second "gone" future beside every read cost a task, a waiter and their callbacks
    # per frame, alive until the next frame: a third of what the collector had to walk.)
    reader: asyncio.Task[Any] | None = None

    def put(self, frame: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        self.closed = True
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.cancel()
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued frames in order until closed."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            try:
                await self.send(frame)
            except Exception:
                self.close()
                return


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its game, the lock every reader and writer holds, its connections."""

    game: TableGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    away_since: dict[int, float] = field(default_factory=dict)  # seat → since when nobody is connected for it
    dirty: bool = False  # the state changed since it was last sent
    presence_changed: bool = False
    flush: asyncio.Task[None] | None = None
    bot_pending: bool = False
    idle_since: float = field(default_factory=time.monotonic)

    @property
    def id(self) -> str:
        return self.game.id

    def online(self) -> set[int]:
        return {c.seat for c in self.clients if c.seat is not None}


def to_json(value: Any) -> str:
    """A frame's JSON text (UTF-8 as it is, no spaces), by orjson: a state is serialised once per
    seat at every change, and the standard library's encoder took a fifth of the event loop.

    >>> to_json({"type": "ack", "ref": 7, "text": "7♠"})
    '{"type":"ack","ref":7,"text":"7♠"}'
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def error_frame(code: str, message: str, ref: object = None, error: BaseException | None = None) -> str:
    """An error frame; with the ``error`` that caused it, when its reason is a message players read
    (:class:`~preferans.i18n.Msg`: the engine's reasons, the table's refusals), ``texts`` has it in
    every language (otherwise the client words the ``code`` itself)."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
    reason = getattr(error, "reason", None) or (error.args[0] if error is not None and error.args else None)
    if callable(getattr(reason, "tr", None)):
        frame["texts"] = {lang: text(reason, lang) for lang in LANGS}
    return to_json(frame)


class Owners(Protocol):
    """Who plays which table: this process alone (:class:`Solo`), or a cluster's leases
    (:class:`preferans.server.cluster.Cluster`)."""

    secret: str  # the cluster's secret that forwarded requests carry ("" alone)

    async def start(self, hub: Hub) -> None: ...

    async def stop(self) -> None: ...

    async def acquire(self, table_id: str) -> str | None:
        """Own ``table_id`` (``None``), or the URL of the process that owns it."""

    async def release(self, table_id: str) -> None: ...

    def publish(self, table_id: str, what: dict[str, Any]) -> None:
        """Tell the other processes about a table's status or presence (lobby)."""


class ClubHooks(Protocol):
    """What the hub asks of the club (:class:`preferans.server.club.Club`): the accounts holding a
    table's seats, and the end of a pulka (history, ratings).  Blocking: called from threads."""

    def seat_accounts(self, table_id: str) -> dict[int, int]: ...

    def bind(self, game: TableGame, seat: int, account: int) -> None: ...

    def game_finished(self, game: TableGame) -> bool: ...

    def was_recorded(self, table_id: str) -> bool: ...


class Solo:
    """A server alone on its database: it owns every table."""

    secret = ""

    def __init__(self) -> None:
        self._hub: Hub | None = None

    async def start(self, hub: Hub) -> None:
        self._hub = hub

    async def stop(self) -> None:
        return None

    async def acquire(self, table_id: str) -> str | None:
        return None

    async def release(self, table_id: str) -> None:
        return None

    def publish(self, table_id: str, what: dict[str, Any]) -> None:
        if self._hub is not None:
            self._hub.heard(table_id, what)


class MoveWriter:
    """Stores the players' moves from the event loop: one database thread of its own writes
    whatever moves are waiting, in one transaction (group commit, issue 15).

    The moves are verified and made on the loop — a few microseconds of engine work each;
    only the writing leaves it.  While a batch is being written the next one gathers, so
    under load a commit carries many moves and one thread never waits for another: with a
    move's whole verify-store-make in a pool of database threads, the threads queued on
    the GIL behind each other and the loop, and a busy loop (a storm of connections) made
    acks of 250 ms.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pref-moves")
        self._waiting: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writing = False

    async def store(self, row: dict[str, Any]) -> None:
        """Return once ``row`` (:func:`~preferans.server.storage.move_row`) is committed; raise the
        database's error if it was refused (a duplicate, a locked or unreachable database)."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((row, done))
        if not self._writing:
            self._write_next()
        await done

    def _write_next(self) -> None:
        batch, self._waiting = self._waiting, []
        self._writing = True
        rows = [row for row, _ in batch]
        try:
            writing = asyncio.get_running_loop().run_in_executor(self._thread, self.storage.add_moves, rows)
        except RuntimeError as e:  # the thread is shut down: the server is stopping
            self._writing = False
            for _, done in batch:
                if not done.done():
                    done.set_exception(e)
            return
        writing.add_done_callback(lambda f: self._written(batch, f))

    def _written(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]],
                 writing: asyncio.Future[list[BaseException | None]]) -> None:  # fmt: skip
        self._writing = False
        if writing.cancelled():  # the thread was shut down before writing them: the server is stopping
            for _, done in batch:
                done.cancel()
            errors: list[BaseException | None] = []
        elif writing.exception() is not None:
            errors = [writing.exception()] * len(batch)
        else:
            errors = writing.result()
        if errors:
            self._release(list(zip((done for _, done in batch), errors, strict=True)))
        if self._waiting:
            self._write_next()

    def _release(self, written: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
        """Wake the movers of a written batch, ``RELEASE`` at a time, one loop turn apart: after a
        long wait (a locked database) a batch holds hundreds of moves, and making them all in one
        turn of the loop stopped it for over 100 ms (/healthz with it)."""
        for done, error in written[:RELEASE]:
            if done.done():  # its mover was cancelled (the server stopping)
                continue
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)
        if len(written) > RELEASE:
            asyncio.get_running_loop().call_soon(self._release, written[RELEASE:])

    def shutdown(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)


class Hub:
    """All tables the server has in memory and the clients connected to them."""

    def __init__(
        self,
        storage: Storage,
        config: ServerConfig | None = None,
        *,
        workers: Workers | None = None,
        owners: Owners | None = None,
        programs: Mapping[str, str] | None = None,
    ) -> None:
        self.storage = storage
        self.programs = dict(programs or {})  # bot programs offered as levels (--bot-program)
        self.config = config or ServerConfig()
        self.program_slots = ProgramSlots(self.config.max_bot_programs, ProgramLimits(
            self.config.bot_program_memory_mb, self.config.bot_program_cpu_seconds))  # fmt: skip
        self.workers = workers or Workers(self.config.workers)
        self.rulings = PoolRulings(self.workers)
        self.owners: Owners = owners or Solo()
        self.server_id = secrets.token_hex(8)
        self.live: dict[str, LiveTable] = {}
        self.by_address: collections.Counter[str] = collections.Counter()
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # Database calls; moves that may wait for the worker pool (reports, replays) have their own
        # threads, so a burst of them never holds up the plain moves of other tables.
        self._db = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="pref-db")
        self._slow = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="pref-replay")
        self._health = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pref-health")
        self.moves = MoveWriter(storage)  # the players' moves (the hot path)
        self._health_future: asyncio.Future[None] | None = None
        self._health_started = 0.0
        self._health_last: tuple[bool, str] = (True, "")  # the server wrote when it started
        self.analyses: dict[tuple[str, str], asyncio.Future[tuple[bytes, str]]] = {}
        # the review of each table's previous deal, rebuilt once per deal: table id → (deal number, review)
        self._previous: collections.OrderedDict[str, tuple[int, dict[str, Any]]] = collections.OrderedDict()
        self._analysis_cache: collections.OrderedDict[tuple[str, str], tuple[bytes, str]] = collections.OrderedDict()
        self.lobby: collections.OrderedDict[str, dict[str, Any]] = collections.OrderedDict()
        # (when, seconds from the frame's arrival to its ack) of the latest acks, for /healthz
        self.ack_times: collections.deque[tuple[float, float]] = collections.deque(maxlen=100_000)
        self.closing = False  # shutting down: nothing new is started
        self.club: ClubHooks | None = None  # accounts, history and ratings (set by create_app)
        self.archive = Archive(storage)  # tables whose live state the retention rule removed
        self.retention = RetentionRule(self.config.retain_finished, self.config.retain_idle,
                                       self.config.retention_batch)  # fmt: skip
        self._archiving: dict[str, asyncio.Future[None]] = {}  # tables being archived now: loads wait

    # -- the lobby ---------------------------------------------------------------------------
    def heard(self, table_id: str, what: dict[str, Any]) -> None:
        """News of a table (its status, who is online) from its owner, maybe another process."""
        entry = self.lobby.pop(table_id, {})
        entry.update({k: v for k, v in what.items() if k in ("status", "online", "seats")})
        self.lobby[table_id] = entry
        while len(self.lobby) > 20_000:  # the most recently heard of
            self.lobby.popitem(last=False)

    async def lobby_entries(self, ids: list[str]) -> dict[str, dict[str, Any] | None]:
        """What the lobby shows of each table: status, seats taken, who is online (``None``: no such table)."""
        out: dict[str, dict[str, Any] | None] = {}
        for tid in ids:
            entry = self.lobby.get(tid)
            if entry is None or "seats" not in entry:
                row = await self.db(self.storage.table, tid) if TABLE_ID.fullmatch(tid) else None
                if row is None:
                    out[tid] = None
                    continue
                seats = await self.db(self.storage.seats, tid)
                entry = {"status": row.status, "online": [], **(entry or {}),
                         "seats": [bool(s.kind == "bot" or s.token_hash) for s in seats]}  # fmt: skip
                self.heard(tid, entry)
            out[tid] = {"online": [], **entry}
        return out

    async def lost_everything(self) -> None:
        """The cluster lease connection failed: every table may be another process's now."""
        for live in list(self.live.values()):
            if self.live.get(live.id) is live:
                del self.live[live.id]
                for c in list(live.clients):
                    c.close()
                live.game.close()

    # -- threads ----------------------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a (blocking) storage call in a database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, functools.partial(fn, *args))

    async def slow(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a call that may wait for the worker pool (replaying, judging) in its own threads."""
        return await asyncio.get_running_loop().run_in_executor(self._slow, functools.partial(fn, *args))

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; :meth:`aclose` cancels and awaits whatever is left."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._spawned_done)
        return task

    def _spawned_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # -- tables ---------------------------------------------------------------------------
    async def table(self, table_id: str) -> LiveTable | None:
        """The table in memory, loaded from storage (and replayed) on first use.

        Raises :class:`Elsewhere` when another process of the cluster owns it, and the
        database's error when it cannot be read.
        """
        live = self.live.get(table_id)
        if live is not None:
            return live
        if not TABLE_ID.fullmatch(table_id):
            return None
        archiving = self._archiving.get(table_id)
        if archiving is not None:  # then it is loaded as it is left: archived (None), or as it was
            await asyncio.shield(archiving)
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            live = await self._load(table_id)
            future.set_result(live)
            return live
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: the waiters (if any) get it too
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> LiveTable | None:
        owner = await self.owners.acquire(table_id)
        if owner is not None:
            raise Elsewhere(owner)
        try:
            game = await self.slow(self._load_game, table_id)
        except BaseException:
            await self.owners.release(table_id)
            raise
        if game is None:
            await self.owners.release(table_id)
            return None
        live = self.add(game)
        async with live.lock:
            self.schedule_bot(live)
        return live

    def _load_game(self, table_id: str) -> TableGame | None:
        """Load a table from storage with the accounts holding its seats (in a thread)."""
        game = TableGame.load(self.storage, table_id, self.rulings, self.programs, self.program_slots)
        club = self.club
        if game is not None and club is not None:
            game.accounts = club.seat_accounts(table_id)
            if game.finished and not club.was_recorded(table_id):
                # Over, but its end never reached the club (the server stopped in between): now.
                self._finished(game)
        return game

    def _finished(self, game: TableGame) -> None:
        """The pulka is over: its history and ratings (in the thread that saved the record)."""
        if self.club is None:
            return
        try:
            self.club.game_finished(game)
        except Exception:  # the move is made and stored: a failure here costs the history, not the game
            log.exception("table %s: the end of the pulka could not be written to the club", game.id)

    def add(self, game: TableGame) -> LiveTable:
        game.finished_hook = self._finished
        live = LiveTable(game)
        now = time.monotonic()
        live.away_since = {s.seat: now for s in game.seats if s.token_hash}
        self.live[game.id] = live
        return live

    async def create(self, config: TableConfig, specs: list[dict[str, Any]], name: object, seat: int | None,
                     account: int | None = None, club: Callable[[TableGame], None] | None = None,
                     ) -> tuple[LiveTable, str]:  # fmt: skip
        """Create a table (stored first) and own it; ``account`` holds the creator's seat, and
        ``club`` (the lobby's registration) is called with the new game in the same thread."""

        def make() -> tuple[TableGame, str]:
            game, token = TableGame.create(self.storage, config, specs, name, seat, self.rulings, self.programs,
                                              self.program_slots)  # fmt: skip
            if account is not None and seat is not None:
                game.accounts[seat] = account
            if club is not None:
                club(game)
            return game, token

        game, token = await self.db(make)
        owner = await self.owners.acquire(game.id)
        if owner is not None:  # cannot happen for a new id; be safe
            raise Elsewhere(owner)
        live = self.add(game)
        async with live.lock:
            self.changed(live)
            self.schedule_bot(live)
        self.owners.publish(game.id, lobby_news(game))
        return live, token

    async def evict(self, live: LiveTable) -> None:
        """Forget a table (its storage has it all): close its connections, give up its lease."""
        if self.live.get(live.id) is not live:
            return
        del self.live[live.id]
        for c in list(live.clients):
            c.close()
        await self.slow(live.game.close)  # its bot programs end with it
        await self.owners.release(live.id)

    async def sweep(self) -> int:
        """Evict the tables nobody has been connected to for ``idle_timeout`` seconds."""
        now = time.monotonic()
        idle = [
            live for live in self.live.values()
            if not live.clients and not live.bot_pending and live.flush is None and not live.lock.locked()
            and now - live.idle_since >= self.config.idle_timeout
        ]  # fmt: skip
        for live in idle:
            await self.evict(live)
        return len(idle)

    async def retain(self, now: float | None = None) -> int:
        """Archive the tables the retention rule says are due (a batch at most); returns how many.

        A table this process has in memory, or is loading, is left for a later sweep; one whose
        lease another process holds is that process's (it plays it).  While a table is being
        archived, a request for it waits, then finds it archived.
        """
        if not self.retention.active or self.closing:
            return 0
        done = 0
        for table_id, reason in await self.db(self.archive.due, self.retention, now):
            if table_id in self.live or table_id in self._loading or table_id in self._archiving:
                continue
            future = self._archiving[table_id] = asyncio.get_running_loop().create_future()
            try:
                owner = await self.owners.acquire(table_id)
                if owner is not None:
                    continue  # another process plays it
                try:
                    done += await self.slow(self.archive.archive, table_id, reason, self.retention, now)
                finally:
                    await self.owners.release(table_id)
            except (SQLAlchemyError, PreferansError, RuntimeError) as e:  # the next sweep tries again
                log.warning("table %s: not archived: %s", table_id, e)
            finally:
                del self._archiving[table_id]
                future.set_result(None)
        if done:
            log.info("archived %d tables", done)
        return done

    # -- seats ------------------------------------------------------------------------------------
    async def sit(self, live: LiveTable, seat: int, name: object, account: int | None = None) -> str:
        """Take a free seat (for the signed-in ``account``, which then holds it from any browser)."""

        def sit() -> str:
            token = live.game.sit(seat, name)
            if account is not None and self.club is not None:
                self.club.bind(live.game, seat, account)
            return token

        async with live.lock:
            token = await self.db(sit)
            live.away_since[seat] = time.monotonic()
            live.idle_since = time.monotonic()
            self.changed(live)
            self.schedule_bot(live)
        self.owners.publish(live.id, lobby_news(live.game))
        return token

    async def info(self, live: LiveTable, token: str | None, account: int | None = None) -> dict[str, Any]:
        async with live.lock:
            info = self.table_info(live)
            info["you"] = live.game.seat_of(token, account)
        return info

    # -- clients --------------------------------------------------------------------------
    def admit(self, live: LiveTable, address: str, seated: bool) -> str | None:
        """Why a new connection is refused (too many from this address or at this table), else ``None``."""
        cfg = self.config
        if cfg.max_address_connections and self.by_address[address] >= cfg.max_address_connections:
            return f"too many connections from your address (at most {cfg.max_address_connections})"
        watchers = sum(1 for c in live.clients if c.seat is None)
        if not seated and cfg.max_table_connections and watchers >= cfg.max_table_connections:
            return f"this table has as many spectators as it takes ({cfg.max_table_connections})"
        return None

    async def connect(self, live: LiveTable, token: str | None, address: str, send: Callable[[str], Any],
                      account: int | None = None) -> Client:  # fmt: skip
        """A new connection: its seat (by the seat cookie, or the signed-in account that holds it; a
        person back at a seat a bot played takes it back), its first state; the others see him
        come online."""
        async with live.lock:
            g = live.game
            seat = g.seat_of(token, account)
            if seat is None and g.is_member(token, account):
                seat = await self.db(g.take_back, token, account)
                if seat is not None:
                    self.changed(live)
            c = Client(live.id, seat, send, limiter=RateLimiter(self.config.rate, self.config.burst), address=address)
            first = seat is not None and seat not in live.online()
            live.clients.add(c)
            self.by_address[address] += 1
            if seat is not None:
                live.away_since.pop(seat, None)
            c.put(self.state_frames(live, {seat})[seat])
        if first:
            self.presence(live)
        return c

    async def disconnect(self, client: Client) -> None:
        client.close()
        live = self.live.get(client.table_id)
        self.by_address[client.address] -= 1
        if self.by_address[client.address] <= 0:
            del self.by_address[client.address]
        if live is None or client not in live.clients:
            return
        live.clients.discard(client)
        if client.seat is not None and client.seat not in live.online():
            live.away_since[client.seat] = time.monotonic()
            self.presence(live)
        if not live.clients:
            live.idle_since = time.monotonic()

    # -- frames ------------------------------------------------------------------------------
    def table_info(self, live: LiveTable) -> dict[str, Any]:
        """The table as everybody may see it (hold the lock)."""
        g = live.game
        online = live.online()
        now = time.monotonic()
        pulka = g.pulka
        info: dict[str, Any] = {
            "id": g.id,
            "players": g.players,
            "rules": g.rules.name,
            "options": {"irregularity_reports": g.rules.irregularity_reports, "claims": g.rules.claims},
            "changes": rule_changes(g.rules),  # the house rules: options changed from the preset, in words
            "pool": g.rules.pool_target,
            "spectators": g.config.spectators,
            "watching": sum(1 for c in live.clients if c.seat is None),
            "status": live_status(g),
            "grace": self.config.grace,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "taken": s.taken,
                    "online": s.kind == "bot" or s.seat in online,
                    "away": None
                    if s.seat in online or s.seat not in live.away_since
                    else round(now - live.away_since[s.seat]),
                }
                for s in g.seats
            ]
            # гусарик (docs/rules.md §16): the dummy is a third seat nobody sits at or plays for himself.
            + ([{"seat": DUMMY, "name": "", "kind": "dummy", "level": None, "taken": True, "online": True,
                 "away": None}] if g.players == 2 else []),
            "deal": g.deal_no,
            "stop_votes": sorted(g.stop_votes),
            "accusation": None,
        }
        table = g.table
        if table is not None and table.accusation is not None:
            info["accusation"] = {**table.accusation.to_dict(), "waiting": table.answering()}
        if pulka is not None:
            sheet = pulka.sheet
            info["sheet"] = {
                "names": list(sheet.names),
                "pool": [str(x) for x in sheet.pool],
                "mountain": [str(x) for x in sheet.mountain],
                "whists": [[str(x) for x in row] for row in sheet.whists],
                "labels": [h.label for h in sheet.history],
            }
            if g.deal is not None and g.deal.is_over:
                info["result"] = deal_review(g.deal, sheet.history[-1], g.deal_no, g.rules, sheet.names)
            elif table is not None and g.deal_no >= 2 and len(sheet.history) >= g.deal_no - 1:
                # The deal before this one stays open to everybody after «next deal» (issue 27).
                info["previous"] = self.previous(live, g.deal_no - 1)
            if g.finished:
                st = pulka.settlement()
                info["settlement"] = [str(x) for x in st.rounded]  # exact (data: the club's history)
                # what a player reads: whole whists as paper settles them (+6, never 16/3), the exact as 5⅓
                info["settlement_whole"] = [signed_amount(w) for w in st.whole]
                info["settlement_paper"] = [paper_amount(x) for x in st.rounded]
        return info

    def previous(self, live: LiveTable, number: int) -> dict[str, Any]:
        """The review of deal ``number`` (finished: the one before the deal in progress), rebuilt
        from the game's log once and kept (hold the lock)."""
        kept = self._previous.get(live.id)
        if kept is not None and kept[0] == number:
            self._previous.move_to_end(live.id)
            return kept[1]
        g = live.game
        assert g.table is not None and g.pulka is not None
        review = deal_review(g.table.past_deal(number), g.pulka.sheet.history[number - 1], number, g.rules,
                             g.pulka.sheet.names)
        self._previous[live.id] = (number, review)
        while len(self._previous) > 512:
            self._previous.popitem(last=False)
        return review

    def state_frames(self, live: LiveTable, seats: set[int | None] | None = None) -> dict[int | None, str]:
        """One frame per seat (and ``None`` for spectators), built once per change (hold the lock)."""
        g = live.game
        info = to_json(self.table_info(live))
        out: dict[int | None, str] = {}
        deal = g.deal
        n = len(deal.moves) if deal is not None else 0
        head = f'{{"type":"state","deal":{g.deal_no},"n":{n},"table":{info},'
        needed = {c.seat for c in live.clients} if seats is None else seats
        for seat in needed:
            view: dict[str, Any] | None
            if deal is None:
                view = None
            elif seat is None:
                view = public_view(deal) if g.config.spectators else None
            else:
                view = seat_view(deal, seat)
            you = "null" if seat is None else str(seat)
            out[seat] = f'{head}"you":{you},"view":{to_json(view)}}}'
        return out

    def changed(self, live: LiveTable) -> None:
        """The table's state changed: everybody gets one new state after ``push_delay``."""
        live.dirty = True
        self._schedule_flush(live)

    def presence(self, live: LiveTable) -> None:
        """A seat's player came or went: everybody gets a small presence frame (gathered likewise)."""
        live.presence_changed = True
        self._schedule_flush(live)

    def _schedule_flush(self, live: LiveTable) -> None:
        if live.flush is None and not self.closing:
            live.flush = self.spawn(self._flush(live))

    async def _flush(self, live: LiveTable) -> None:
        try:
            while live.dirty or live.presence_changed:
                await asyncio.sleep(self.config.push_delay)
                if live.dirty:
                    async with live.lock:
                        came_or_went = live.presence_changed
                        live.dirty = live.presence_changed = False
                        frames = self.state_frames(live)
                    for c in list(live.clients):
                        c.put(frames[c.seat])
                    if came_or_went:  # the state says who is online; the lobby hears it too
                        self.owners.publish(live.id, {"online": sorted(live.online())})
                elif live.presence_changed:
                    live.presence_changed = False
                    online = sorted(live.online())
                    watching = sum(1 for c in live.clients if c.seat is None)
                    frame = to_json({"type": "presence", "online": online, "spectators": watching})
                    for c in list(live.clients):
                        c.put(frame)
                    self.owners.publish(live.id, {"online": online})
        finally:
            live.flush = None

    async def send_state(self, client: Client, live: LiveTable) -> None:
        async with live.lock:
            client.put(self.state_frames(live, {client.seat})[client.seat])

    # -- messages ------------------------------------------------------------------------------
    def _limited(self, client: Client) -> bool:
        """Charge one message to the client's bucket; True (and a notice) when it is empty."""
        if client.limiter.allow():
            return False
        client.dropped += 1
        now = time.monotonic()
        if now - client.limited_since >= 1.0:  # at most one notice a second
            client.limited_since = now
            client.put(error_frame("rate_limited", "too many messages; slow down"))
        return True

    def reject(self, client: Client, code: str, message: str) -> None:
        """A frame that cannot be read at all (binary): an error, rate-limited like any other."""
        if not self._limited(client):
            client.put(error_frame(code, message))

    async def receive(self, client: Client, text: str) -> None:
        """Handle one text frame from a client; bad input gets an error frame and changes nothing."""
        client.received_at = time.monotonic()
        if self._limited(client):
            return
        if len(text) > MAX_FRAME:  # before parsing
            client.put(error_frame("too_big", f"frame of {len(text)} characters; the limit is {MAX_FRAME}"))
            return
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            client.put(error_frame("bad_json", "the frame is not valid JSON"))
            return
        if not isinstance(msg, dict):
            client.put(error_frame("bad_message", "a message must be a JSON object with a 'type'"))
            return
        ref = msg.get("id")
        if not isinstance(ref, (str, int)) or isinstance(ref, bool) or (isinstance(ref, str) and len(ref) > 64):
            ref = None
        kind = msg.get("type")
        live = self.live.get(client.table_id)
        if live is None:
            client.put(error_frame("no_table", "the table is not here any more; reconnect", ref))
            client.close()
            return
        if kind == "ping":
            client.put(to_json({"type": "pong", "ref": ref}))
        elif kind == "state":
            await self.send_state(client, live)
        elif kind == "act":
            await self._act(live, client, msg, ref)
        elif kind == "next":
            await self._seated(live, client, ref, "deal", lambda g, seat: g.start_deal())
        elif kind == "stop":
            await self._seated(live, client, ref, "end the game", lambda g, seat: g.vote_stop(seat))
        elif kind == "bot":
            await self._to_bot(live, client, msg, ref)
        elif kind in ("report", "claim", "answer"):
            await self._irregular(live, client, msg, ref)
        else:
            known = "act, next, stop, bot, report, answer, claim, state or ping"
            client.put(error_frame("unknown_type", f"unknown message type {str(kind)[:32]!r}: {known}", ref))

    async def _act(self, live: LiveTable, client: Client, msg: dict[str, Any], ref: object) -> None:
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot act", ref))
            return
        action = msg.get("action")
        too_long = isinstance(action, str) and len(action) > 20
        if not isinstance(action, int | str) or isinstance(action, bool) or too_long:
            client.put(error_frame("bad_action", "'action' must be an action id or its text", ref))
            return
        expect = msg.get("n")
        seat = client.seat

        async def move(g: TableGame) -> Action:
            # On the loop: verify (raises and changes nothing), store in the writer's thread, make.
            deal = g.deal
            if isinstance(expect, int) and deal is not None and expect != len(deal.moves):
                raise GameError("stale", f"the deal has moved on (move {len(deal.moves)}, not {expect})")
            planned = g.plan_act(seat, action)
            await self.moves.store(planned.row(g.id))
            made = g.make_stored(planned)
            if g.finished:
                await self.db(g.save_record)
            return made

        await self._do(live, client, ref, move, on_loop=True)

    async def _do(
        self,
        live: LiveTable,
        client: Client,
        ref: object,
        move: Callable[[TableGame], Any],
        *,
        slow: bool = False,
        on_loop: bool = False,
        before: Callable[[TableGame], Awaitable[Any]] | None = None,
    ) -> None:
        """Make a move under the table's lock (verified, stored, then made: in a thread, or with
        ``on_loop`` by ``move`` itself, a coroutine function); acknowledge it, then everybody gets
        the new state.  Any refusal is an error frame and changes nothing."""
        g = live.game
        async with live.lock:
            try:
                if before is not None:
                    await before(g)
                made = await move(g) if on_loop else await (self.slow if slow else self.db)(move, g)
            except TableError as e:
                client.put(error_frame(e.code, str(e), ref, e))
                return
            except PreferansError as e:
                client.put(error_frame("illegal", str(e), ref, e))
                return
            except SQLAlchemyError as e:
                client.put(error_frame("store_failed", store_failure(e), ref))
                if isinstance(e, IntegrityError):  # storage is ahead of memory (another process wrote)
                    self.spawn(self.evict(live))
                return
            except Exception:
                # A fault of ours (or of the worker pool): the move may be stored and half made, so the
                # table leaves memory and is loaded again from storage, the one truth, when its players
                # reconnect.
                log.exception("table %s: a move failed", live.id)
                client.put(error_frame("internal", "the server failed to make this move; reconnect", ref))
                self.spawn(self.evict(live))
                return
            n = len(g.deal.moves) if g.deal else 0
            ack: dict[str, Any] = {"type": "ack", "ref": ref, "deal": g.deal_no, "n": n}
            if isinstance(made, Action) or made is None:
                ack["action"] = None if made is None else int(made)
                # A report about another player waits for an answer (an accusation is not a fact).
                ack["pending"] = g.table is not None and g.table.accusation is not None
            client.put(to_json(ack))
            live.idle_since = now = time.monotonic()
            self.ack_times.append((now, now - client.received_at))
            self.changed(live)
            self.schedule_bot(live)
        if g.finished or g.deal_no == 1:
            self.owners.publish(live.id, lobby_news(g))

    async def _seated(self, live: LiveTable, client: Client, ref: object, what: str,
                      move: Callable[[TableGame, int], Any]) -> None:  # fmt: skip
        seat = client.seat
        if seat is None:
            client.put(error_frame("not_seated", f"spectators cannot {what}", ref))
            return
        await self._do(live, client, ref, lambda g: move(g, seat))

    async def _irregular(self, live: LiveTable, client: Client, msg: dict[str, Any], ref: object) -> None:
        """``{"type": "report", "what": "talon-seen", "offender": 2, "call": "7♦"}``,
        ``{"type": "answer", "agree": true}`` (the accused, or another player, answers a report)
        or ``{"type": "claim", "tricks": 3}`` — behind the table options (issue 10).

        Both may need the solver (a claim's proof, the 3.3.16.3 assessment): they are
        charged to the table's and the address's quota of the worker pool.
        """
        seat = client.seat
        if seat is None:
            client.put(error_frame("not_seated", "spectators cannot report or claim", ref))
            return
        if msg.get("type") == "answer":
            agree = msg.get("agree")
            if not isinstance(agree, bool):
                client.put(error_frame("bad_answer", "'agree' must be true (it happened) or false (it did not)", ref))
                return
            await self._irregular_move(live, client, ref, lambda g: g.answer(seat, agree))
            return
        if msg.get("type") == "claim":
            tricks = msg.get("tricks")
            if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 10:
                client.put(error_frame("bad_claim", "'tricks' must be a whole number of tricks", ref))
                return
            proof: list[bool] = []

            async def prove(g: TableGame) -> None:
                position = g.claim_position(seat, tricks)  # cheap checks first: a refused claim costs no CPU
                with self._charged(live, client):
                    proof.append(await self.workers.run(prove_job, position, seat, tricks))

            await self._do(live, client, ref, lambda g: g.claim(seat, tricks, proof[0]), before=prove)
            return
        what, offender, call = msg.get("what"), msg.get("offender"), msg.get("call", "pass")
        if not isinstance(what, str) or len(what) > 20 or not isinstance(offender, int) or isinstance(offender, bool):
            client.put(error_frame("bad_report", "'what' (e.g. talon-seen) and 'offender' (a seat) are needed", ref))
            return
        if not isinstance(call, str) or len(call) > 20:
            client.put(error_frame("bad_report", "'call' must be a call's text such as 7♦", ref))
            return
        what = what.lstrip("!")
        text = f"!{what}" + (f" {call}" if what == "out-of-turn" else "")
        await self._irregular_move(live, client, ref, lambda g: g.report(text, offender, seat))

    async def _irregular_move(self, live: LiveTable, client: Client, ref: object, move: Callable[[TableGame], Any]
                              ) -> None:  # fmt: skip
        """A report or its answer: it may end the deal with the 3.3.16.3 assessment (the solver), so it
        is charged to the table's and the address's quota and waits in threads of its own."""
        try:
            release = self.workers.admit(table=live.id, address=client.address)
        except Busy as e:
            client.put(error_frame(e.code, str(e), ref))
            return
        try:
            await self._do(live, client, ref, move, slow=True)
        finally:
            release()

    @contextlib.contextmanager
    def _charged(self, live: LiveTable, client: Client) -> Any:
        release = self.workers.admit(table=live.id, address=client.address)
        try:
            yield
        finally:
            release()

    async def _to_bot(self, live: LiveTable, client: Client, msg: dict[str, Any], ref: object) -> None:
        """``{"type": "bot", "seat": k, "level": "easy"}``: a bot plays for a person who has been away
        for the grace period (his token takes the seat back)."""
        seat, level = msg.get("seat"), msg.get("level", "easy")
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot change the seats", ref))
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(level, str):
            client.put(error_frame("bad_message", "'seat' must be a seat number and 'level' a bot level", ref))
            return
        if level not in LEVELS:
            client.put(error_frame("bad_seat", f"level: one of {', '.join(LEVELS)}, not {level[:20]!r}", ref))
            return
        if seat == client.seat or seat in live.online():
            client.put(error_frame("bad_seat", "only the seat of a person who is offline can be given to a bot", ref))
            return
        away = time.monotonic() - live.away_since.get(seat, time.monotonic())
        if away < self.config.grace:
            client.put(error_frame("too_soon", f"seat {seat + 1} has been away {away:.0f} s; a bot may take it "
                                   f"after {self.config.grace:.0f} s", ref))  # fmt: skip
            return
        await self._do(live, client, ref, lambda g: g.hand_to_bot(seat, level))

    # -- bots ---------------------------------------------------------------------------------------
    def schedule_bot(self, live: LiveTable) -> None:
        """Start the automatic move due now, if any (hold the lock); at a table of bots only (a
        duplicate match's), deal the next hand when a deal is over."""
        g = live.game
        if live.bot_pending or self.closing:
            return
        if g.bots_only and g.deal is not None and g.deal.is_over and not g.finished:
            live.bot_pending = True
            self.spawn(self._bots_deal(live))
            return
        if g.bot_seat_to_act() is None:
            return
        live.bot_pending = True
        self.spawn(self._bot_turn(live))

    async def _bots_deal(self, live: LiveTable) -> None:
        """The next deal at a table of bots only (the same game loop: :meth:`TableGame.start_deal`)."""
        failed = False
        try:
            await asyncio.sleep(self.config.bot_delay)
            async with live.lock:
                g = live.game
                if g.deal is not None and g.deal.is_over and not g.finished:
                    await self.db(g.start_deal)
                    live.idle_since = time.monotonic()
                    self.changed(live)
        except (PreferansError, SQLAlchemyError) as e:
            log.warning("table %s: the next deal of the bots could not be dealt (%s); trying again", live.id, e)
            failed = True
        finally:
            live.bot_pending = False
            if self.live.get(live.id) is live and not self.closing:
                if failed:
                    await asyncio.sleep(1.0)
                async with live.lock:
                    self.schedule_bot(live)

    async def _bot_turn(self, live: LiveTable) -> None:
        """The bot thinks (the hard one in a worker process), then its move is stored and made."""
        g = live.game
        retry = False
        try:
            await asyncio.sleep(self.config.bot_delay)
            async with live.lock:
                turn = g.bot_turn()
            if turn is None:
                return
            seat, think, n = turn
            try:
                if isinstance(think, BotThought) and isinstance(think.bot, PimcBot):  # hard, expert: seconds
                    action = await self.workers.run(think)
                elif isinstance(think, FixedMove) or (isinstance(think, BotThought) and type(think) is BotThought):
                    action = think()  # our quick bots: about a millisecond
                else:  # a bot program answers over a pipe: wait for it in a thread
                    action = await asyncio.to_thread(think)
            except Exception:  # the worker pool broke (a worker was killed): think again in a moment
                if self.closing:
                    return
                log.exception("table %s: a bot's thinking failed; trying again", g.id)
                retry = True
                return
            async with live.lock:
                try:
                    made = await self.db(g.play_for, seat, action, n)
                except SQLAlchemyError as e:
                    log.warning("table %s: a bot's move could not be stored (%s); trying again", g.id, e)
                    retry = True
                    return
                except PreferansError:
                    return
                except Exception:
                    # Stored but not made (TableGame.make_stored): the table is loaded again from storage.
                    log.exception("table %s: a bot's move failed", g.id)
                    self.spawn(self.evict(live))
                    return
                if made is not None:
                    live.idle_since = time.monotonic()
                    self.changed(live)
        finally:
            live.bot_pending = False
            if self.live.get(live.id) is live and not self.closing:
                if retry:
                    await asyncio.sleep(1.0)
                async with live.lock:
                    self.schedule_bot(live)

    # -- analysis ----------------------------------------------------------------------------------------
    async def analysis(self, live: LiveTable, variant: str, address: str) -> tuple[bytes, str]:
        """The analysis of a finished table as JSON bytes and text: from memory or storage, else
        worked out once in the worker pool (charged to the table's and the address's quota;
        asking again meanwhile waits for it)."""
        key = (live.id, variant)
        done = self._analysis_cache.get(key)
        if done is not None:
            self._analysis_cache.move_to_end(key)
            return done
        pending = self.analyses.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[bytes, str]] = asyncio.get_running_loop().create_future()
        self.analyses[key] = future
        try:
            body = await self.db(self.storage.analysis, live.id, variant)
            if body is None:
                release = self.workers.admit(table=live.id, address=address)
                try:
                    async with live.lock:
                        record = live.game.record or live.game.game_record()
                    body = await self.workers.run(analyze_job, record, variant == "tables", batch=True)
                finally:
                    release()
                await self.db(self.storage.save_analysis, live.id, variant, body)
            out = (json.dumps(body["json"], ensure_ascii=False).encode(), str(body["text"]))
            self._analysis_cache[key] = out
            while len(self._analysis_cache) > 64:
                self._analysis_cache.popitem(last=False)
            future.set_result(out)
            return out
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: waiters (if any) get it too
            raise
        finally:
            del self.analyses[key]

    # -- health ---------------------------------------------------------------------------------------
    async def health(self) -> tuple[bool, str]:
        """Can the database take a write (within ``health_timeout``)?  Answered within
        ``health_wait``, never after the timeout: a health check that waited for a locked
        database took 1 s each time, and the checks of a load balancer piled up.

        Each check writes the heartbeat unless a write is already on its way; it waits up to
        ``health_wait`` for it.  A write still on its way answers by how long it has waited:
        the last write's result until ``health_timeout``, then "cannot write".
        """
        timeout = self.config.health_timeout
        pending = self._health_future
        if pending is not None and not pending.done():
            waited = time.monotonic() - self._health_started
            if waited >= timeout:
                return False, f"a write has waited {waited:.1f} s for the database (the limit is {timeout:g} s)"
            return self._health_last
        loop = asyncio.get_running_loop()
        future = self._health_future = loop.run_in_executor(self._health, self.storage.check_write, self.server_id)
        self._health_started = time.monotonic()
        future.add_done_callback(self._health_written)
        with contextlib.suppress(TimeoutError, SQLAlchemyError):
            await asyncio.wait_for(asyncio.shield(future), timeout=min(self.config.health_wait, timeout))
        if not future.done() and timeout <= self.config.health_wait:
            return False, f"a write did not finish within {timeout:g} s"
        return self._health_last

    def health_write_wait(self) -> float:
        """Seconds the heartbeat write on its way has waited (0.0 when none is)."""
        pending = self._health_future
        return 0.0 if pending is None or pending.done() else time.monotonic() - self._health_started

    def _health_written(self, future: asyncio.Future[None]) -> None:
        """The heartbeat write ended: its result stands until the next one."""
        if future.cancelled():
            return
        e = future.exception()
        if e is None:
            self._health_last = (True, "")
        elif isinstance(e, SQLAlchemyError):
            self._health_last = (False, store_failure(e))
        else:
            self._health_last = (False, f"the health write failed: {e!r}")

    async def run(self) -> None:
        """Background work: evicting idle tables, and now and then archiving old ones (:meth:`retain`)."""
        every = max(0.05, min(5.0, self.config.idle_timeout / 4))
        # the first retention sweep soon after the start (a minute; not a whole interval: a server
        # restarted every few minutes would never sweep), then every retention_interval
        first = min(self.config.retention_first, self.config.retention_interval)
        retained = time.monotonic() - self.config.retention_interval + first
        while True:
            await asyncio.sleep(every)
            await self.sweep()
            if time.monotonic() - retained >= self.config.retention_interval:
                retained = time.monotonic()
                try:
                    await self.retain()
                except SQLAlchemyError as e:  # the database is away: the next sweep tries again
                    log.warning("the retention sweep failed: %s", e)

    async def aclose(self, timeout: float = 5.0) -> None:
        """Stop within about ``timeout`` seconds, whatever is pending.

        Every connection is closed (its reader stops), the background tasks (bot turns,
        gathered pushes, evictions) are cancelled and awaited, the worker processes are
        ended with the jobs they run (a claim or an assessment not finished was not
        acknowledged: a restarted server works it out again from storage), and the
        database threads get no new calls; a call already running ends with the
        database's own timeout.  Nothing stored is lost: every acknowledged move was
        stored before its ack.
        """
        self.closing = True
        for live in list(self.live.values()):
            for c in list(live.clients):
                c.close()
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        self.workers.shutdown()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout)
            if late:
                log.warning("%d background tasks did not end within %g s", len(late), timeout)
        for pool in (self._db, self._slow, self._health):
            pool.shutdown(wait=False, cancel_futures=True)
        self.moves.shutdown()
        ending = [asyncio.ensure_future(asyncio.to_thread(live.game.close)) for live in list(self.live.values())]
        if ending:  # bot programs end with the server (each is given a moment, then killed)
            await asyncio.wait(ending, timeout=timeout)


def lobby_news(g: TableGame) -> dict[str, Any]:
    return {"status": live_status(g), "seats": [s.taken for s in g.seats]}


def live_status(g: TableGame) -> str:
    return "finished" if g.finished else ("playing" if g.deal is not None else "waiting")


def store_failure(e: Exception) -> str:
    """What a player reads when the database refused a write."""
    reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0][:200]
    return f"the move could not be stored ({reason}); nothing changed — try again"
