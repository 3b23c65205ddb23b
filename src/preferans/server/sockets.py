"""The server's sockets: caps and timeouts that hold before any HTTP is read (``preferans serve``).

uvicorn reads a connection's request head without a time limit and takes every connection it
is offered, so ~1,100 idle or slowly-sending sockets used up the process's file descriptors and
nobody else could connect (issue 25).  :func:`uvicorn_config` gives uvicorn protocols that add:

* a cap on open sockets in all (``max_sockets``, kept below the process's file-descriptor limit)
  and from one address (``max_address_sockets``; the cluster's own processes are exempt, as they
  carry many players' connections): a socket over a cap is closed at once, before a byte is read;
* a **header timeout**: the request head must arrive within ``header_timeout`` seconds of the
  connection opening (or of the previous response on a kept-alive connection), else the
  socket is closed — a client sending a byte now and then no longer holds it;
* the **idle timeout** of a kept-alive HTTP connection (``keep_alive_timeout``) and of a
  WebSocket that stops answering the server's pings (``ws_ping_interval``, ``ws_ping_timeout``);
  a request body must arrive within ``body_timeout`` (:mod:`.guard`).

Everything is counted per transport, so a socket upgraded to a WebSocket stays counted until
it closes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import resource
from collections.abc import Iterable
from typing import Any

from .settings import MAX_WS_BYTES, ServerConfig

__all__ = ["SocketGate", "file_limit", "uvicorn_config"]

RESERVED_FILES = 64
"""File descriptors kept for what is not a client's socket (the database, workers, logs)."""


def file_limit() -> int:
    """Raise this process's soft limit on open files to the hard one; the limit now.

    >>> file_limit() > 0
    True
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65_536 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


class SocketGate:
    """Counts the open sockets, in all and per address, and says who may open another.

    >>> gate = SocketGate(max_sockets=3, max_address_sockets=2)
    >>> [gate.admit(k, "10.0.0.1") for k in "abc"], gate.admit("d", "10.0.0.2")
    ([True, True, False], True)
    >>> gate.admit("e", "10.0.0.3"), gate.release("a"), gate.admit("e", "10.0.0.3")
    (False, None, True)
    >>> gate.exempt = {"10.0.0.9"}; gate.admit("f", "10.0.0.9")  # a process of the cluster: no caps
    True
    """

    def __init__(self, max_sockets: int, max_address_sockets: int, exempt: Iterable[str] = ()) -> None:
        self.max_sockets, self.max_address_sockets = max_sockets, max_address_sockets
        self.exempt = set(exempt)
        self.refused = 0  # sockets closed at once for a cap (for /healthz and the benchmarks)
        self.timed_out = 0  # sockets closed for sending no request head in time
        self._open: dict[object, str] = {}
        self._per_address: collections.Counter[str] = collections.Counter()

    @property
    def open(self) -> int:
        return len(self._open)

    def admit(self, key: object, address: str) -> bool:
        """Count the socket ``key`` from ``address`` as open, if the caps allow it."""
        if address not in self.exempt and (
            (self.max_sockets and len(self._open) >= self.max_sockets)
            or (self.max_address_sockets and self._per_address[address] >= self.max_address_sockets)
        ):
            self.refused += 1
            return False
        self._open[key] = address
        self._per_address[address] += 1
        return True

    def release(self, key: object) -> None:
        """The socket ``key`` closed (a second call does nothing)."""
        address = self._open.pop(key, None)
        if address is not None:
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]


_BUSY = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 5\r\n\r\n"


def _gated_http(base: type[Any], gate: SocketGate, header_timeout: float) -> type[Any]:
    """``base`` (uvicorn's HTTP protocol) with the gate and the header timeout."""

    class GatedHTTP(base):  # type: ignore[misc]
        _head_timer: asyncio.TimerHandle | None = None
        _tail = b""

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            if not gate.admit(transport, peer[0] if peer else "?"):
                # Over a cap: a short answer and the socket is closed before anything is read.
                with contextlib.suppress(Exception):
                    transport.write(_BUSY)
                transport.close()
                self.transport = transport
                self._refused = True
                return
            self._refused = False
            super().connection_made(transport)
            self._await_head()

        def _await_head(self) -> None:
            self._tail = b""
            self._head_timer = asyncio.get_running_loop().call_later(header_timeout, self._head_too_slow)

        def _head_too_slow(self) -> None:
            self._head_timer = None
            gate.timed_out += 1
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._head_timer is not None:
                # The head ends with an empty line; keep the last bytes in case it is split.
                seen = self._tail + data
                if b"\r\n\r\n" in seen:
                    self._head_timer.cancel()
                    self._head_timer = None
                else:
                    self._tail = seen[-3:]
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._head_timer is None:
                self._await_head()  # kept alive: the next request's head has the same time

        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            if not self._refused:
                super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().handle_websocket_upgrade()

    return GatedHTTP


def _gated_ws(base: type[Any], gate: SocketGate) -> type[Any]:
    """``base`` (uvicorn's WebSocket protocol): the socket stays counted until it closes."""

    class GatedWS(base):  # type: ignore[misc]
        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)

    return GatedWS


def uvicorn_config(app: Any, config: ServerConfig, *, host: str, port: int, log_level: str = "info",
                   gate: SocketGate | None = None) -> Any:  # fmt: skip
    """The uvicorn configuration of ``preferans serve`` (and of the tests that run a real server):
    the gated protocols, the timeouts, and the frame and head sizes."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    if gate is None:
        gate = SocketGate(socket_cap(config.max_sockets), config.max_address_sockets)
    app.state.sockets = gate
    return uvicorn.Config(
        app, host=host, port=port, log_level=log_level,
        http=_gated_http(AutoHTTPProtocol, gate, config.header_timeout),
        ws=_gated_ws(AutoWebSocketsProtocol, gate),  # type: ignore[arg-type]
        timeout_keep_alive=max(1, round(config.keep_alive_timeout)),
        ws_max_size=MAX_WS_BYTES, ws_ping_interval=config.ws_ping_interval, ws_ping_timeout=config.ws_ping_timeout,
        h11_max_incomplete_event_size=16 * 1024, ws_per_message_deflate=False,
        # on SIGTERM: connections are closed (1012) and whatever still runs after 5 s is cancelled
        timeout_graceful_shutdown=5,
    )  # fmt: skip


def socket_cap(wanted: int) -> int:
    """The cap on open sockets: ``wanted`` (0: as many as the file limit allows), never more
    than the process's file-descriptor limit less :data:`RESERVED_FILES`.

    >>> 0 < socket_cap(0) <= file_limit() - RESERVED_FILES
    True
    """
    room = max(16, file_limit() - RESERVED_FILES)
    return min(wanted, room) if wanted > 0 else room
