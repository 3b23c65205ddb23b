"""A server killed with SIGKILL mid-game loses nothing a player saw acknowledged."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from preferans.engine.deal import Deal
from preferans.rules import Rules
from preferans.server.storage import Storage

pytestmark = pytest.mark.subprocess


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    code = ("import sys; from preferans.cli import main; "
            f"sys.exit(main(['serve', '--port', '{port}', '--db', {db!r}, '--bot-delay', '0', "
            "'--rate', '1000', '--log-level', 'warning']))")  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def recv_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        f: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if f["type"] == kind:
            return f


LATEST: dict[int, dict[str, Any]] = {}


def state_at(ws: Any, n: int) -> dict[str, Any]:
    """Read ``ws`` until the state after move ``n`` (it may have been read already)."""
    f = LATEST.get(id(ws))
    while f is None or f["n"] != n:
        f = LATEST[id(ws)] = recv_until(ws, "state")
    return f


def test_sigkill_loses_no_acknowledged_action(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 'g.db'}"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    try:
        r = httpx.post(f"{base}/api/tables", json={"name": "A", "seats": [{"kind": "human"}] * 3})
        tid = r.json()["id"]
        tokens = [r.cookies[f"pref_{tid}"]]
        for s in (1, 2):
            joined = httpx.post(f"{base}/api/tables/{tid}/seats/{s}", json={"name": f"P{s}"})
            tokens.append(joined.cookies[f"pref_{tid}"])
        stack = contextlib.ExitStack()
        socks = [stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{tid}",
                                             additional_headers={"Cookie": f"pref_{tid}={t}"}))
                 for t in tokens]  # fmt: skip
        to_act = state_at(socks[0], 0)["view"]["to_act"]
        rng = random.Random(3)
        acked: list[tuple[int, int]] = []
        for n in range(12):
            ws = socks[to_act]
            action = rng.choice(state_at(ws, n)["view"]["legal"])[0]
            ws.send(json.dumps({"type": "act", "action": action, "n": n}))
            recv_until(ws, "ack")
            acked.append((to_act, action))
            to_act = state_at(ws, n + 1)["view"]["to_act"]
        # One more action in flight, then SIGKILL: the acknowledged ones must all survive.
        last = state_at(socks[to_act], len(acked))
        socks[to_act].send(json.dumps({"type": "act", "action": last["view"]["legal"][0][0], "n": last["n"]}))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        with contextlib.suppress(Exception):
            stack.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    stored = Storage(db).deals(tid)
    assert len(stored) == 1
    assert list(stored[0].moves[: len(acked)]) == acked
    assert len(stored[0].moves) in (len(acked), len(acked) + 1)

    proc = start_server(db, port)  # restart: the players come back to the same point
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/{tid}", additional_headers={"Cookie": f"pref_{tid}={tokens[0]}"}) as ws:
            f = recv_until(ws, "state")
            assert f["you"] == 0 and f["n"] == len(stored[0].moves)
            d = stored[0]
            deal = Deal.new(Rules.preset("sochi"), dealer=d.dealer, seed=d.seed, min_level=d.min_level)
            for seat, a in d.moves:
                deal.apply(a, seat)
            assert f["view"]["hand"] == deal.observation(0).to_dict()["hand"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; from preferans.cli import main; sys.exit(main(['serve', *{list(args)!r}]))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_a_second_server_on_the_database_refuses_in_one_line(tmp_path: Any) -> None:
    """Two servers on one database diverged silently (one showed a table waiting, the other playing)."""
    db = f"sqlite:///{tmp_path / 'g.db'}"
    port = _free_port()
    proc = start_server(db, port)
    try:
        second = _serve("--port", str(_free_port()), "--db", db)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1 and "in use by another preferans server" in second.stderr, second.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Any) -> None:
    """Starting on a file that is not a database printed a 116-line traceback."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 50)
    r = _serve("--port", str(_free_port()), "--db", str(notes))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a database" in r.stderr, r.stderr


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"  # a zombie has ended
    except OSError:
        return False


@pytest.mark.subprocess
def test_a_killed_server_leaves_no_worker_or_fork_server_behind() -> None:
    """SIGKILL the server: its worker processes and their fork server end too.  (They used to
    wait for each other for ever: each worker held the fork server's "alive" pipe and watched
    only for its parent, the fork server, to go.)"""
    code = (
        "import os, sys, time\n"
        "from preferans.server.work import Workers\n"
        "w = Workers(2)\n"
        "pids = {w._submit(os.getpid).result() for _ in range(8)}\n"
        "print(*sorted(pids), flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    workers = [int(x) for x in proc.stdout.readline().split()]
    forkserver = {int(Path(f"/proc/{pid}/stat").read_text().split()[3]) for pid in workers}
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 15
    left = [*workers, *forkserver]
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = [pid for pid in left if _running(pid)]
    assert not left, f"still running after the server was killed: {left}"


def test_a_refused_body_closes_the_connection(tmp_path: Any) -> None:
    """A 413 used to keep the connection alive, so uvicorn read and dropped the whole refused
    body before the next request: the bodies attack made the event loop parse 570 MB a second.
    Now the refusal closes the connection, and the client sees the end of it at once."""
    port = _free_port()
    proc = start_server(f"sqlite:///{tmp_path / 'g.db'}", port)
    try:
        for head in (b"content-length: 20971520\r\n", b"transfer-encoding: chunked\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                             b"content-type: application/json\r\n" + head + b"\r\n")  # fmt: skip
                if b"chunked" in head:
                    sock.sendall(b"10000\r\n" + b"x" * 0x10000 + b"\r\n")
                else:
                    sock.sendall(b"x" * 0x10000)
                received = b""
                with contextlib.suppress(ConnectionResetError):
                    while chunk := sock.recv(65536):  # the server's end of the connection, not a timeout
                        received += chunk
            assert received.startswith(b"HTTP/1.1 413"), received[:80]
            assert b"connection: close" in received.lower()
    finally:
        proc.kill()
        proc.wait()
