"""The cluster's proxy (issue 25): one shared, bounded HTTP client per process.

A request for a table another process plays is passed on to it.  The proxy used to build an
HTTP client for every such request (~20 ms of the event loop each: 600 forwarded GETs stalled a
process's ``/healthz`` for 14 s); now one client per process carries at most ``connections``
requests at once, and the rest wait a bounded time for a connection, then get a 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.requests import Request

from preferans.server.cluster import Proxy


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SlowPeer:
    """Another process of the cluster: answers every request after ``delay`` seconds, counting
    how many it held at once."""

    def __init__(self, delay: float) -> None:
        self.delay, self.now, self.most, self.seen = delay, 0, 0, 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        self.now += 1
        self.seen += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(self.delay)
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"owner"})
        finally:
            self.now -= 1


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the peer did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class _App:
    class state:
        peer_secret = "s3cret"


def _request(path: str = "/api/tables/x") -> Request:
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"node-b:8000")], "client": ("10.1.2.3", 5555), "app": _App()}  # fmt: skip
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    return Request(scope, receive)


def test_one_client_for_every_forwarded_request(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    original = httpx.AsyncClient.__init__

    def counted(self: httpx.AsyncClient, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(httpx.AsyncClient, "__init__", counted)
    peer = SlowPeer(0.0)
    with serving(peer) as url:

        async def flood() -> list[int]:
            proxy = Proxy(connections=8)
            try:
                answers = await asyncio.gather(*(proxy.http(_request(), url) for _ in range(200)))
            finally:
                await proxy.aclose()
            return [a.status_code for a in answers]

        assert asyncio.run(flood()) == [200] * 200
    assert len(made) == 1 and peer.seen == 200


def test_the_peers_are_asked_a_bounded_number_at_once_and_the_rest_wait_then_hear_503() -> None:
    peer = SlowPeer(0.3)
    with serving(peer) as url:

        async def flood() -> list[Any]:
            proxy = Proxy(connections=4, pool_timeout=0.5)
            try:
                return await asyncio.gather(*(proxy.http(_request(), url) for _ in range(40)))
            finally:
                await proxy.aclose()

        started = time.monotonic()
        answers = asyncio.run(flood())
        took = time.monotonic() - started
    codes = [a.status_code for a in answers]
    assert peer.most <= 4, peer.most  # never more than the pool's connections at the peer
    assert codes.count(200) >= 4 and codes.count(503) >= 20, codes  # the rest refused, not queued forever
    assert all(b"busy" in a.body for a in answers if a.status_code == 503)
    assert took < 5, took


def test_an_unreachable_owner_is_a_503_at_once() -> None:
    async def ask() -> Any:
        proxy = Proxy()
        try:
            return await proxy.http(_request(), f"http://127.0.0.1:{_free_port()}")
        finally:
            await proxy.aclose()

    answer = asyncio.run(ask())
    assert answer.status_code == 503 and b"owner_unreachable" in answer.body
