"""What a server operator sets (``preferans serve`` options) and the limits every request meets.

Every limit is checked before the input is parsed, and documented in ``docs/web.md``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "MAX_BODY", "MAX_FRAME", "MAX_OPTION", "MAX_OPTIONS", "MAX_POOL", "MAX_WS_BYTES", "ServerConfig",
    "default_allowed_hosts", "host_allowed",
]  # fmt: skip

MAX_BODY = 16 * 1024
"""Bytes in a request body (creating a table, taking a seat); more is refused with 413 unread."""

MAX_FRAME = 4096
"""Characters in a WebSocket message from a client; no legal message comes near it."""

MAX_WS_BYTES = 16 * 1024
"""Bytes of a WebSocket frame the server reads at all (uvicorn closes the connection, code 1009)."""

MAX_OPTIONS = 64
"""Rule options (``FIELD=VALUE``) in one table's request."""

MAX_OPTION = 200
"""Characters in one rule option."""

MAX_POOL = 1000
"""The largest pool a table of this server plays to (however it is given: ``pool`` or an option)."""


@dataclass(frozen=True)
class ServerConfig:
    """The operator's settings; the defaults suit a server on the open internet.

    ``allowed_hosts``: the names this server answers to in the ``Host`` header
    (``None``: localhost and any IP address — a DNS name needs ``--allowed-host``;
    ``"*"`` allows every name).  ``grace``: seconds a person must have been away
    before a bot may take his seat.  ``idle_timeout``: seconds a table nobody is
    connected to stays in memory.  ``push_delay``: seconds state pushes of a table
    are gathered into one.  ``stop_timeout``: seconds each step of stopping may take
    (ending the background tasks, the worker jobs, the cluster's lease session).
    """

    bot_delay: float = 0.6
    rate: float = 10.0
    burst: float = 20.0
    http_rate: float = 1.0
    http_burst: float = 20.0
    secure_cookies: bool = False
    allowed_hosts: tuple[str, ...] | None = None
    allowed_origins: tuple[str, ...] | None = None  # behind a proxy that ends TLS: the pages' origins
    grace: float = 60.0
    idle_timeout: float = 120.0
    push_delay: float = 0.02
    max_table_connections: int = 64
    max_address_connections: int = 32
    max_sockets: int = 0  # open sockets in all (0: as many as the file limit allows, less a reserve)
    max_address_sockets: int = 64  # open sockets from one address (HTTP and WebSocket alike)
    header_timeout: float = 10.0  # seconds a request's head may take to arrive
    body_timeout: float = 10.0  # seconds a request's body may take to arrive
    keep_alive_timeout: float = 5.0  # seconds an idle kept-alive HTTP connection stays open
    ws_ping_interval: float = 20.0  # seconds between the server's pings on a WebSocket
    ws_ping_timeout: float = 20.0  # seconds a WebSocket may take to answer a ping before it is closed
    workers: int | None = None
    cpu_rate: float = 0.5  # claims, reports, analyses a second per address (worker pool), bursts of cpu_burst
    cpu_burst: float = 8.0
    table_cpu_rate: float = 0.5  # the same per table
    table_cpu_burst: float = 4.0
    warm_workers: bool = False  # start the worker processes with the server, not on the first job
    health_timeout: float = 1.0  # a write waiting longer means the database cannot write: 503
    health_wait: float = 0.05  # how long /healthz waits for its own write before it answers
    connect_rate: float = 1.0  # WebSocket connections a second per address, bursts of connect_burst
    connect_burst: float = 10.0
    cluster: bool = False
    advertise: str = ""  # cluster: the URL peers reach this process at (http://host:port)
    proxy_connections: int = 32  # cluster: requests passed on to the other processes at once (one client)
    proxy_timeout: float = 10.0  # cluster: seconds a peer has to answer a passed-on request
    proxy_websockets: int = 2000  # cluster: client WebSockets carried to the other processes at once
    stop_timeout: float = 3.0
    session_secret: str = ""  # signs the account sessions' cookies ("": a secret kept in the database)
    login_rate: float = 0.2  # sign-in and registration attempts a second per address, bursts of login_burst
    login_burst: float = 10.0
    max_bot_programs: int = 16  # bot programs (--bot-program) running at once (0: no cap)
    bot_program_memory_mb: int = 2048  # each program's address space, MB (0: no limit)
    bot_program_cpu_seconds: int = 1800  # each program's CPU time for its whole game, s (0: no limit)
    retain_finished: float = 7 * 86400.0  # s after its end a finished table keeps its live state (0: forever)
    retain_idle: float = 30 * 86400.0  # s without a move before an unfinished table is archived (0: forever)
    retention_batch: int = 20  # tables archived at most per sweep
    retention_interval: float = 600.0  # s between sweeps
    retention_first: float = 60.0  # s from the start to the first sweep (a server restarted often still sweeps)


def default_allowed_hosts(bound: str) -> tuple[str, ...] | None:
    """The bound host and localhost (``None`` — also every IP address — for a wildcard bind).

    >>> default_allowed_hosts("127.0.0.1")
    ('127.0.0.1', 'localhost', '::1')
    >>> default_allowed_hosts("0.0.0.0") is None
    True
    """
    if bound in ("0.0.0.0", "::", ""):
        return None
    out = [bound.lower()]
    for name in ("127.0.0.1", "localhost", "::1"):
        if name not in out:
            out.append(name)
    return tuple(out)


def host_allowed(host_header: str | None, allowed: Sequence[str] | None) -> bool:
    """Is the ``Host`` header one of ours?  (DNS rebinding sends an attacker's name.)

    >>> host_allowed("localhost:8000", None), host_allowed("10.0.0.5:80", None)
    (True, True)
    >>> host_allowed("evil.example:8000", None), host_allowed("pref.example", ["pref.example"])
    (False, True)
    >>> host_allowed("[::1]:8000", ("127.0.0.1",)), host_allowed(None, None)
    (False, False)
    """
    if not host_header:
        return False
    name = _hostname(host_header)
    if allowed is not None:
        return "*" in allowed or name in (a.lower() for a in allowed)
    if name in ("localhost", "localhost."):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True  # an IP literal cannot be rebound to another address


def _hostname(host_header: str) -> str:
    h = host_header.strip().lower()
    if h.startswith("["):  # [::1]:8000
        return h[1:].split("]", 1)[0]
    if h.count(":") == 1:
        return h.split(":", 1)[0]
    return h
