"""Three server processes on one PostgreSQL (``--cluster``); one is killed mid-deal.

Tables are created on every process and their players connect to every process
(so most connections are proxied to the table's owner).  After SIGKILL of one
process its tables go on on another within seconds, every acknowledged action is in
storage in order, and no table is ever played by two processes at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from preferans.server.storage import Storage

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

MOVES_BEFORE, MOVES_AFTER = 6, 6


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    args = ["serve", "--cluster", "--port", str(port), "--db", db, "--bot-delay", "0", "--rate", "1000",
            "--http-rate", "0", "--max-address-connections", "0", "--workers", "1", "--log-level", "warning"]
    code = f"import sys; from preferans.cli import main; sys.exit(main({args!r}))"
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise AssertionError(f"a cluster process exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    raise AssertionError("a cluster process did not start")


class Player:
    """One seat's connection, moving to another process when its own goes away."""

    def __init__(self, tid: str, seat: int, token: str, ports: list[int], first: int) -> None:
        self.tid, self.seat, self.token, self.ports, self.at = tid, seat, token, ports, first
        self.ws: ClientConnection | None = None
        self.last: dict[str, Any] | None = None

    def connect(self) -> None:
        for _ in range(3 * len(self.ports)):
            port = self.ports[self.at % len(self.ports)]
            try:
                opened = connect(f"ws://127.0.0.1:{port}/ws/{self.tid}", open_timeout=5,
                                 additional_headers={"Cookie": f"pref_{self.tid}={self.token}"})  # fmt: skip
                # Entered as websockets asks (17.1 deprecates a bare connect()); reconnect() closes it.
                self.ws = opened.__enter__()
                return
            except (OSError, ConnectionClosed, TimeoutError):
                self.at += 1
                time.sleep(0.2)
        raise AssertionError(f"table {self.tid}: no process took the connection")

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        assert self.ws is not None
        f: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if f["type"] == "state":
            self.last = f
        return f

    def state(self) -> dict[str, Any]:
        """The latest state (reconnecting if the connection dropped)."""
        while True:
            try:
                if self.last is None:
                    self.recv()
                    continue
                # take whatever is waiting without blocking long
                with contextlib.suppress(TimeoutError):
                    while True:
                        self.recv(timeout=0.05)
                return self.last
            except (ConnectionClosed, OSError):
                self.reconnect()

    def reconnect(self) -> None:
        with contextlib.suppress(Exception):
            if self.ws is not None:
                self.ws.close()
        self.at += 1
        self.last = None
        self.connect()

    def send_and_wait(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``msg``; its ack or error, or ``None`` if the connection dropped first."""
        try:
            assert self.ws is not None
            self.ws.send(json.dumps(msg))
            while True:
                f = self.recv()
                if f["type"] in ("ack", "error") and f.get("ref") == msg["id"]:
                    return f
        except (ConnectionClosed, OSError, TimeoutError):
            self.reconnect()
            return None


def peer_tables(ports: list[int], secret: str) -> dict[int, set[str]]:
    out = {}
    for port in ports:
        with contextlib.suppress(httpx.HTTPError):
            r = httpx.get(f"http://127.0.0.1:{port}/api/cluster/tables", headers={"x-preferans-peer": secret},
                          timeout=2)  # fmt: skip
            out[port] = set(r.json()["tables"])
    return out


def test_three_processes_one_killed_mid_deal(pg_url: str) -> None:
    ports = [free_port() for _ in range(3)]
    procs = [start(pg_url, p) for p in ports]
    try:
        for port, proc in zip(ports, procs, strict=True):
            wait_up(port, proc)
        storage = Storage(pg_url)
        with storage.engine.connect() as c:
            secret = str(c.execute(text("SELECT value FROM pref_cluster WHERE key = 'peer_secret'")).scalar())
        tables: dict[str, list[Player]] = {}
        owner_port: dict[str, int] = {}
        for i in range(6):
            home = ports[i % 3]
            r = httpx.post(f"http://127.0.0.1:{home}/api/tables", json={"name": "A", "seats": [{"kind": "human"}] * 3})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            owner_port[tid] = home
            tokens = [r.cookies[f"pref_{tid}"]]
            for s in (1, 2):  # taken through another process: proxied to the owner
                other = ports[(i + s) % 3]
                j = httpx.post(f"http://127.0.0.1:{other}/api/tables/{tid}/seats/{s}", json={"name": f"P{s}"})
                assert j.status_code == 200, j.text
                tokens.append(j.cookies[f"pref_{tid}"])
            tables[tid] = [Player(tid, s, tokens[s], ports, i + s) for s in range(3)]
            for p in tables[tid]:
                p.connect()
        # Lobby and presence travel by LISTEN/NOTIFY: another process knows who sits at a table.
        deadline = time.monotonic() + 10
        for tid, home in owner_port.items():
            other = next(p for p in ports if p != home)
            while True:
                entry = httpx.get(f"http://127.0.0.1:{other}/api/lobby?ids={tid}").json()["tables"][tid]
                if entry["online"] == [0, 1, 2] and entry["status"] == "playing":
                    break
                assert time.monotonic() < deadline, (tid, entry)
                time.sleep(0.1)
        rng = random.Random(7)
        acked: dict[str, list[tuple[int, int, int, int]]] = {tid: [] for tid in tables}
        lists = peer_tables(ports, secret)
        assert all(sum(tid in s for s in lists.values()) == 1 for tid in tables), lists

        def play(tid: str, moves: int, deadline: float) -> float | None:
            """Make ``moves`` acknowledged moves at ``tid``; seconds from starting to the first ack."""
            started, first = time.monotonic(), None
            players = tables[tid]
            done = 0
            while done < moves:
                assert time.monotonic() < deadline, f"table {tid} did not go on"
                state = players[0].state()
                view = state["view"]
                if view["phase"] == "over":
                    msg: dict[str, Any] = {"type": "next", "id": f"next{state['deal']}"}
                    players[0].send_and_wait(msg)
                    continue
                actor = players[view["to_act"]]
                mine = actor.state()
                if (mine["deal"], mine["n"]) != (state["deal"], state["n"]):
                    continue
                action = rng.choice(mine["view"]["legal"])[0]
                ref = f"{state['deal']}.{state['n']}"
                answer = actor.send_and_wait({"type": "act", "action": action, "n": state["n"], "id": ref})
                if answer is not None and answer["type"] == "ack":
                    acked[tid].append((state["deal"], state["n"], view["to_act"], action))
                    done += 1
                    if first is None:
                        first = time.monotonic() - started
            return first

        for tid in tables:
            play(tid, MOVES_BEFORE, time.monotonic() + 60)
        killed = ports[0]
        os.kill(procs[0].pid, signal.SIGKILL)  # mid-deal: a deal has some thirty moves
        procs[0].wait(timeout=10)
        t_kill = time.monotonic()
        failover: dict[str, float] = {}
        for tid in tables:
            first = play(tid, MOVES_AFTER, t_kill + 60)
            if owner_port[tid] == killed and first is not None:
                failover[tid] = first
            lists = peer_tables(ports[1:], secret)
            twice = [t for t in tables if sum(t in s for s in lists.values()) > 1]
            assert not twice, f"tables played by two processes at once: {twice}"
        assert len(failover) == 2 and max(failover.values()) < 10, failover
        print(f"failover after SIGKILL: {sorted(round(v, 2) for v in failover.values())} s to the first ack; "
              f"every table went on within {time.monotonic() - t_kill:.1f} s")
        for tid, moves in acked.items():  # nothing acknowledged was lost, in order
            stored = [(d.number, n, seat, action)
                      for d in storage.deals(tid) for n, (seat, action) in enumerate(d.moves)]  # fmt: skip
            assert [m for m in stored if m in set(moves)] == moves and set(moves) <= set(stored), tid
        storage.close()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=15)
            if proc.poll() is None:
                proc.kill()
