"""Slow and idle clients against a real server (issue 25, server/sockets.py).

~1,100 idle or slowly-sending sockets used up the server's file descriptors: uvicorn read a
request head without a time limit and took every connection.  These tests run the server as
``preferans serve`` runs it (uvicorn with :func:`preferans.server.sockets.uvicorn_config`) on
loopback, with small caps so the attacks stay small, and check that idle and slow sockets are
closed, the caps hold, and everybody else is still served meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from preferans.server.app import create_app
from preferans.server.settings import ServerConfig
from preferans.server.sockets import uvicorn_config

pytestmark = pytest.mark.subprocess

CONFIG = ServerConfig(max_sockets=60, max_address_sockets=10, header_timeout=1.0, body_timeout=1.0,
                      keep_alive_timeout=1.0, bot_delay=0.0, connect_burst=1000.0)  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(tmp_path: Any) -> Iterator[tuple[int, Any]]:
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", config=CONFIG)
    port = _free_port()
    server = uvicorn.Server(uvicorn_config(app, CONFIG, host="0.0.0.0", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port, app.state.sockets
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def raw(port: int, source: str = "127.0.0.1", data: bytes = b"") -> socket.socket:
    """A socket from ``source`` (any 127.x.y.z is this machine) that sends ``data`` and waits."""
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    if data:
        s.sendall(data)
    return s


def closed_by_server(s: socket.socket, within: float) -> bool:
    """Whether the server closes ``s`` (maybe after a short answer) within ``within`` seconds."""
    s.settimeout(within)
    try:
        while s.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def closed_now(s: socket.socket) -> bool:
    """Whether the server has closed ``s`` already (without waiting)."""
    s.setblocking(False)
    try:
        while s.recv(4096):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


def healthz(port: int, source: str) -> float:
    """Seconds ``/healthz`` took from ``source`` (it must answer 200)."""
    t = time.monotonic()
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=5) as c:
        assert c.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    return time.monotonic() - t


def test_idle_and_slow_sockets_are_closed_and_the_caps_hold(tmp_path: Any) -> None:
    with served(tmp_path) as (port, gate):
        # An address opens more idle sockets than it may: those over its cap are closed at once.
        idle = [raw(port, "127.0.9.1") for _ in range(15)]
        time.sleep(0.3)
        assert sum(closed_now(s) for s in idle) == 5
        assert healthz(port, "127.0.9.2") < 1.0  # another address is served meanwhile
        # A slowloris: a head sent a few bytes at a time never completes; it is closed after the header timeout.
        slow = raw(port, "127.0.9.3", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        while time.monotonic() - started < 3:
            try:
                slow.sendall(b"X")
            except OSError:
                break
            time.sleep(0.2)
        took = time.monotonic() - started
        assert closed_by_server(slow, 0.5) and took < 2.5, took
        # The idle ones went the same way, and the server counts none of them any more.
        assert all(closed_by_server(s, 1.5) for s in idle)
        deadline = time.monotonic() + 3
        while gate.open and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gate.open == 0 and gate.refused >= 5 and gate.timed_out >= 11
        # Many addresses together: never more than max_sockets open at once.
        crowd = [raw(port, f"127.0.{10 + i // 8}.{1 + i % 8}") for i in range(70)]
        time.sleep(0.3)
        assert gate.open <= CONFIG.max_sockets
        assert sum(closed_now(s) for s in crowd) >= 10
        for s in crowd:
            s.close()
        time.sleep(1.5)
        assert healthz(port, "127.0.9.4") < 1.0  # and served again once they are gone
        for s in (*idle, slow):
            s.close()


def test_a_slow_body_is_refused_and_a_websocket_stays_counted_until_it_closes(tmp_path: Any) -> None:
    with served(tmp_path) as (port, gate):
        head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{\"name\":")  # fmt: skip
        s = raw(port, "127.0.8.1", head)
        s.settimeout(3)
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408") and b"too_slow" in answer, answer
        s.close()
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"name": "Ann"}, timeout=5)
        assert r.status_code == 201
        tid, token = r.json()["id"], r.cookies[f"pref_{r.json()['id']}"]
        deadline = time.monotonic() + 3
        while gate.open > 0 and time.monotonic() < deadline:  # the server sees httpx's close a moment later
            time.sleep(0.05)
        before = gate.open
        with connect(f"ws://127.0.0.1:{port}/ws/{tid}", additional_headers={"Cookie": f"pref_{tid}={token}"}) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
            time.sleep(1.5)  # longer than the header timeout: an upgraded socket is not timed out
            assert gate.open >= before + 1
            ws.send('{"type": "ping"}')
        deadline = time.monotonic() + 3
        while gate.open > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gate.open <= before
