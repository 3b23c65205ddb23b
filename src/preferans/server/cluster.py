"""Several server processes on one PostgreSQL database (``preferans serve --cluster``).

PostgreSQL is the only coordinator; there is no consensus of our own:

* **A lease per table.**  A process plays a table only while it holds the table's
  session advisory lock (``pg_try_advisory_lock(NAMESPACE, hash(id))``) on its own
  lock connection.  PostgreSQL grants it to one session at a time and drops it when
  the session ends — when the process dies, even by SIGKILL, its leases go with it.
  Every move is still stored before it is made, and the moves' primary key
  (table, deal, index) refuses a second writer, so even a process that lost its
  lease without noticing cannot write a move another one wrote.
* **Who owns a table** is read from ``pg_locks`` joined with ``pref_servers`` (each
  process's URL and lock session's backend pid).  A request that reaches another
  process is **proxied** to the owner (HTTP and WebSocket), so a reverse proxy in front
  may send any request anywhere; routing by table (sticky) only saves the extra hop.
  Forwarded requests carry the cluster's secret (kept in ``pref_cluster``), which is
  how the owner knows the client's address came from a peer.
* **Lobby and presence** travel by ``LISTEN/NOTIFY`` (channel ``preferans_lobby``):
  whoever owns a table announces its status and who is online, and every process
  answers ``GET /api/lobby`` from what it heard.
* **Failover.**  When a process dies, its clients' connections drop; they reconnect
  (to any process), which takes the free lease and loads the table from the stored
  actions.  A process that loses its lock connection gives up all its tables at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, MetaData, String, Table, select, text

from .storage import Storage

if TYPE_CHECKING:
    import psycopg
    from fastapi import Request, WebSocket
    from fastapi.responses import Response

    from .hub import Hub

__all__ = ["CHANNEL", "NAMESPACE", "Cluster", "Proxy", "forward_ws", "table_key"]

log = logging.getLogger("preferans.cluster")
NAMESPACE = 0x70726566  # "pref": the first key of every table's advisory lock
CHANNEL = "preferans_lobby"

_meta = MetaData()
cluster_rows = Table(
    "pref_cluster",
    _meta,
    Column("key", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)


def table_key(table_id: str) -> int:
    """The second key of ``table_id``'s advisory lock (32 bits, signed as PostgreSQL's int4).

    Two tables sharing a key only means one process plays both.

    >>> table_key("abc") == table_key("abc"), -2**31 <= table_key("x") < 2**31
    (True, True)
    """
    return int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=4).digest(), "big", signed=True)


def _libpq_url(storage: Storage) -> str:
    url = storage.engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Cluster:
    """This process's part in a cluster: its leases, its peers, the lobby channel."""

    def __init__(self, storage: Storage, advertise: str, *, watch_every: float = 1.0) -> None:
        if storage.engine.dialect.name != "postgresql":
            from ..errors import DatabaseInUse

            raise DatabaseInUse("--cluster needs PostgreSQL (--db postgresql://…)")
        self.storage = storage
        self.advertise = advertise.rstrip("/")
        self.server_id = secrets.token_hex(8)
        self.watch_every = watch_every
        self.secret = ""
        self._conn: psycopg.Connection[Any] | None = None  # the lock session
        self._exec = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pref-lease")
        self._held: dict[str, int] = {}  # table → times acquired (advisory locks count)
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._hub: Hub | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: asyncio.Task[None] | None = None
        # The addresses of the cluster's processes (refreshed by the watchdog): they carry many
        # players' connections, so the per-address socket cap does not apply to them (.sockets).
        self.peer_addresses: set[str] = set()

    # -- the lock session -------------------------------------------------------------------
    def _connect(self) -> None:
        import psycopg

        conn = psycopg.connect(_libpq_url(self.storage), autocommit=True)
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert backend is not None
        self.storage.register_server(self.server_id, socket.gethostname(), os.getpid(), self.advertise,
                                     backend=int(backend[0]))  # fmt: skip
        self._conn = conn
        self._held.clear()

    def _session(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._connect()
        assert self._conn is not None
        return self._conn

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._exec, functools.partial(fn, *args))

    # -- Owners -------------------------------------------------------------------------------
    async def start(self, hub: Hub) -> None:
        self._hub = hub
        self._loop = asyncio.get_running_loop()
        self.secret = await self._run(self._shared_secret)
        await self._run(self._session)
        self._listener = threading.Thread(target=self._listen, name="pref-listen", daemon=True)
        self._listener.start()
        self._watch = asyncio.create_task(self._watchdog())

    async def stop(self) -> None:
        self._stop.set()
        if self._watch is not None:
            self._watch.cancel()
        with contextlib.suppress(Exception):
            await self._run(self._close)
        self._exec.shutdown(wait=False)

    def _close(self) -> None:
        with contextlib.suppress(Exception):
            self.storage.unregister_server(self.server_id)
        if self._conn is not None:
            self._conn.close()

    async def acquire(self, table_id: str) -> str | None:
        for _ in range(3):
            url = await self._run(self._acquire, table_id)
            if url != "":
                return None if url is None else str(url)
            await asyncio.sleep(0.05)  # the owner was just leaving: try again
        raise RuntimeError(f"table {table_id}: neither this process nor another holds its lease")

    def _acquire(self, table_id: str) -> str | None:
        """``None``: ours now; else the owner's URL, or ``""`` when nobody seems to hold it."""
        if table_id in self._held:
            self._held[table_id] += 1
            return None
        key = table_key(table_id)
        conn = self._session()
        row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (NAMESPACE, key)).fetchone()
        if row is not None and row[0]:
            self._held[table_id] = 1
            return None
        owner = conn.execute(
            "SELECT s.url FROM pg_locks l JOIN pref_servers s ON s.backend = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = %s "
            "AND l.objid::bigint = %s AND l.objsubid = 2 LIMIT 1",
            (NAMESPACE & 0xFFFFFFFF, key & 0xFFFFFFFF),
        ).fetchone()
        return "" if owner is None else str(owner[0])

    async def release(self, table_id: str) -> None:
        await self._run(self._release, table_id)

    def _release(self, table_id: str) -> None:
        n = self._held.get(table_id)
        if n is None:
            return
        if n > 1:
            self._held[table_id] = n - 1
            return
        del self._held[table_id]
        with contextlib.suppress(Exception):
            self._session().execute("SELECT pg_advisory_unlock(%s, %s)", (NAMESPACE, table_key(table_id)))

    def publish(self, table_id: str, what: dict[str, Any]) -> None:
        payload = json.dumps({"table": table_id, "from": self.server_id, **what})
        if len(payload) > 7000:  # NOTIFY payloads stop at 8,000 bytes
            return
        if self._hub is not None:
            self._hub.heard(table_id, what)
        self._exec.submit(self._notify, payload)

    def _notify(self, payload: str) -> None:
        with contextlib.suppress(Exception):
            self._session().execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    # -- watching ---------------------------------------------------------------------------------
    async def _watchdog(self) -> None:
        """The lock session must stay alive: losing it loses every lease at once.  Every few
        rounds it also learns the other processes' addresses."""
        rounds = 0
        while True:
            if rounds % 5 == 0:
                with contextlib.suppress(Exception):
                    self.peer_addresses.clear()
                    self.peer_addresses.update(await self._run(self._peer_addresses))
            rounds += 1
            await asyncio.sleep(self.watch_every)
            try:
                await self._run(self._ping)
            except Exception as e:
                log.warning("cluster: the lock connection failed (%s): giving up every table", e)
                if self._hub is not None:
                    await self._hub.lost_everything()
                with contextlib.suppress(Exception):
                    await self._run(self._reconnect)

    def _peer_addresses(self) -> set[str]:
        """The IP addresses of the processes in ``pref_servers`` (their URLs' hosts, resolved)."""
        from urllib.parse import urlsplit

        out: set[str] = set()
        for url in self.storage.server_urls():
            host = urlsplit(url).hostname
            if host:
                with contextlib.suppress(OSError):
                    out.update(str(info[4][0]) for info in socket.getaddrinfo(host, None))
        return out

    def _ping(self) -> None:
        conn = self._conn
        if conn is None or conn.closed:
            raise ConnectionError("no lock connection")
        conn.execute("SELECT 1")

    def _reconnect(self) -> None:
        with contextlib.suppress(Exception):
            if self._conn is not None:
                self._conn.close()
        self._conn = None
        self._session()

    def _listen(self) -> None:
        """A connection of its own LISTENs; what it hears goes to the hub's lobby."""
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(_libpq_url(self.storage), autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._heard(note.payload)
            except Exception as e:  # the database went away: listen again in a moment
                log.warning("cluster: LISTEN failed (%s); again in 1 s", e)
                time.sleep(1.0)

    def _heard(self, payload: str) -> None:
        try:
            what = json.loads(payload)
        except ValueError:
            return
        if not isinstance(what, dict) or what.get("from") == self.server_id:
            return
        table_id = what.pop("table", None)
        what.pop("from", None)
        if isinstance(table_id, str) and self._hub is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._hub.heard, table_id, what)

    # -- the cluster's secret ------------------------------------------------------------------------
    def _shared_secret(self) -> str:
        """One secret for the cluster, made by the first process and read by the others."""
        with self.storage.engine.begin() as c:
            c.execute(text("SELECT pg_advisory_xact_lock(7365, 1)"))  # the others start at the same time
            _meta.create_all(c)
            row = c.execute(select(cluster_rows.c.value).where(cluster_rows.c.key == "peer_secret")).first()
            if row is None:
                from sqlalchemy.dialects.postgresql import insert as pg_insert

                stmt = pg_insert(cluster_rows).values(key="peer_secret", value=secrets.token_urlsafe(32))
                c.execute(stmt.on_conflict_do_nothing())
                row = c.execute(select(cluster_rows.c.value).where(cluster_rows.c.key == "peer_secret")).first()
        assert row is not None
        return str(row.value)


# -- proxying to the owner ------------------------------------------------------------------------------
_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length", "te", "trailer"}


class Proxy:
    """Passes requests for another process's tables on to their owner (HTTP and WebSocket).

    One HTTP client for the whole process, made on first use and closed with the server: at most
    ``connections`` requests in flight to the peers (more wait up to ``pool_timeout`` seconds for
    a connection, then get a 503), each answered within ``timeout`` seconds; at most
    ``websockets`` client connections carried to the peers at once (more are closed with 1013,
    "try again later").  Issue 25: a client built for every request cost the event loop ~20 ms of
    set-up each, and 600 forwarded GETs stalled a process's ``/healthz`` for 14 s.
    """

    def __init__(self, *, connections: int = 32, timeout: float = 10.0, pool_timeout: float = 2.0,
                 websockets: int = 2000, transport: Any = None) -> None:  # fmt: skip
        self.connections, self.timeout, self.pool_timeout = connections, timeout, pool_timeout
        self.websockets = websockets
        self._transport = transport  # tests give an httpx mock transport
        self._client: Any = None  # httpx.AsyncClient, made in the event loop that uses it
        self._slots: asyncio.Semaphore | None = None  # requests in flight (httpx's own pool wait is not bounded)
        self._carried = 0

    def client(self) -> Any:
        if self._client is None:
            import httpx

            limits = httpx.Limits(max_connections=self.connections, max_keepalive_connections=self.connections)
            timeout = httpx.Timeout(self.timeout, pool=self.pool_timeout)
            # The peers are plain HTTP on the cluster's network: no TLS context to build.
            self._client = httpx.AsyncClient(limits=limits, timeout=timeout, verify=False, trust_env=False,
                                             transport=self._transport)  # fmt: skip
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()

    async def http(self, request: Request, url: str) -> Response:
        """Answer ``request`` with the owner's answer (passed on with the peer secret)."""
        import httpx
        from fastapi.responses import Response

        from .api import error
        from .guard import PEER_HEADER, client_address

        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        headers[PEER_HEADER] = request.app.state.peer_secret
        headers["x-forwarded-for"] = client_address(request)
        headers["x-forwarded-host"] = request.headers.get("host", "")
        target = url + request.url.path + (f"?{request.url.query}" if request.url.query else "")
        body = await request.body()
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.connections)
        try:
            await asyncio.wait_for(self._slots.acquire(), self.pool_timeout)
        except TimeoutError:
            return error(503, "busy", "too many requests are being passed on to other processes; try again")
        try:
            r = await self.client().request(request.method, target, headers=headers, content=body)
        except httpx.HTTPError as e:
            return error(503, "owner_unreachable", f"the process playing this table did not answer ({e}); try again")
        finally:
            self._slots.release()
        keep = {k: v for k, v in r.headers.items() if k.lower() not in _HOP and k.lower() != "content-encoding"}
        return Response(r.content, status_code=r.status_code, headers=keep)

    async def ws(self, websocket: WebSocket, url: str) -> None:
        """Carry a client's WebSocket to the owner (:func:`forward_ws`), at most ``websockets`` at once."""
        if self._carried >= self.websockets:
            await websocket.accept()
            await websocket.close(code=1013)
            return
        self._carried += 1
        try:
            await forward_ws(websocket, url)
        finally:
            self._carried -= 1


async def forward_ws(websocket: WebSocket, url: str) -> None:
    """Carry a client's WebSocket to the owner and back; when the owner goes, so does the client
    (close 1012: it reconnects, and the table's lease is free for whoever it reaches)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    from .guard import PEER_HEADER, client_address
    from .settings import MAX_WS_BYTES

    headers = {PEER_HEADER: websocket.app.state.peer_secret, "x-forwarded-for": client_address(websocket),
               "x-forwarded-host": websocket.headers.get("host", "")}  # fmt: skip
    if "cookie" in websocket.headers:
        headers["cookie"] = websocket.headers["cookie"]
    target = "ws" + url[4:] + websocket.url.path if url.startswith("http") else url + websocket.url.path
    try:
        upstream = await connect(target, additional_headers=headers, max_size=MAX_WS_BYTES, open_timeout=5)
    except (OSError, WebSocketException, TimeoutError):
        await websocket.accept()
        await websocket.close(code=1013)
        return
    await websocket.accept()

    async def down() -> None:
        async for frame in upstream:
            await websocket.send_text(frame if isinstance(frame, str) else frame.decode())

    async def up() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") is not None:
                await upstream.send(message["text"])

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        with contextlib.suppress(Exception):
            await upstream.close()
        with contextlib.suppress(Exception):
            await websocket.close(code=1012)
