"""Load test of ``preferans serve``: N tables of scripted players over real WebSockets, with attacks.

Starts the server on loopback (SQLite in a temporary directory unless ``--db``),
creates N tables of three people, connects 3·N WebSocket clients and lets each act
about once a second when it is its turn (random legal actions; the first seat deals
the next hand after a deal ends).  Prints actions per second and the p50 / p99
latency from sending an action to receiving its acknowledgement (the action is
committed to the database before the ack).  The players connect from up to 1,000 loopback
addresses (127.0.1.x–127.0.4.x), so the per-address connection limits stay on.  The clients run
in this process, on the same machine: the figures include their own scheduling.

    python benchmarks/server_load.py --tables 500 --seconds 30

``--attacks`` then runs each attack of issue 15 in turn against tables of its own
(from addresses 127.0.2.x and up, bounded, loopback only) while the players play on,
and prints for every phase the players' p99 action→ack and the p99 of ``/healthz``
(polled ten times a second):

* ``bodies`` — 20 MB request bodies (with and without a length) and 16 KiB of nested JSON;
* ``claims`` — eight tables claiming every trick at every turn and refusing each other's
  claims (each claim asks for a solver proof);
* ``analysis`` — eight clients asking for the analysis of finished games, new ones each time;
* ``storm`` — spectators connecting and leaving a table as fast as they can, and 4 KB junk frames;
* ``dblock`` — another process holding SQLite's write lock two seconds in every three
  (every table's writes wait: this one is not "against another table");
* ``slowloris`` — 1,100 sockets from 4 addresses, half idle, half sending a request head a
  byte every two seconds, each opened again when the server closes it (issue 25).

Every phase also probes ``/healthz`` four times a second on a new connection each time (a new
visitor's first request: ``new-conn``), which is what running out of sockets stops first.
``--server-nofile 1024`` runs the server with a default machine's limit on open files.

``--proxy-flood`` runs two ``--cluster`` processes on a throwaway PostgreSQL and probes the
second's ``/healthz`` without and then during 600 GETs at a time for the first's tables (each
passed on by the second to the first, issue 25).

``--cluster 1,3`` instead runs the players against 1 and then 3 ``--cluster`` processes on
a throwaway PostgreSQL (started here, as the tests do), connecting round robin to the
processes (most connections are then proxied to the table's owner), prints actions/s
and p99 for each, then SIGKILLs one of the 3 processes and prints how long its tables
took to get their next acknowledgement (the clients reconnect to the others).

``--restart-tables 3000`` writes that many tables in play into a fresh database, starts the
server on it and prints how long it took to answer ``/healthz`` and then a table's first
request (tables are loaded when asked for, not at start).

``--repeat R`` repeats everything and prints the median of each figure (the machine is shared).

    python benchmarks/server_load.py --tables 500 --seconds 20 --attacks --repeat 3
    python benchmarks/server_load.py --tables 150 --seconds 20 --cluster 1,3 --repeat 3
    python benchmarks/server_load.py --restart-tables 3000 --repeat 3
    python benchmarks/server_load.py --tables 200 --seconds 15 --attacks slowloris --server-nofile 1024 --repeat 3
    python benchmarks/server_load.py --proxy-flood --seconds 15 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def run_queue_wait(pid: int) -> float:
    """Seconds the process's threads have waited for a CPU while runnable (Linux schedstat)."""
    total = 0.0
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[1]) / 1e9
    return total


def listen_overflows() -> int:
    """The kernel's count of connections dropped because a listen queue was full (ListenOverflows)."""
    with contextlib.suppress(OSError, ValueError, StopIteration), open("/proc/net/netstat") as f:
        lines = [line.split() for line in f if line.startswith("TcpExt:")]
        names, values = lines[0], lines[1]
        return int(values[names.index("ListenOverflows")])
    return 0


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.actions = 0
        self.measuring = False
        self.last_ack: dict[str, float] = {}  # table → time of its latest ack

    def take(self) -> tuple[list[float], int, int]:
        out = (self.latencies, self.actions, self.errors)
        self.latencies, self.actions, self.errors = [], 0, 0
        return out


# -- the server --------------------------------------------------------------------------------------
SERVER_NOFILE: list[int] = []  # --server-nofile: the server's limit on open files (a default machine's 1024)


def start_server(db: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    args = ["serve", "--port", str(port), "--db", db, "--http-rate", "0", "--log-level", "warning", *extra]
    code = f"import sys; from preferans.cli import main; sys.exit(main({args!r}))"

    def limit_files() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (SERVER_NOFILE[0], SERVER_NOFILE[0]))

    return subprocess.Popen([sys.executable, "-c", code], preexec_fn=limit_files if SERVER_NOFILE else None)


async def wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        for _ in range(1200):
            if proc.poll() is not None:
                raise SystemExit(f"the server exited ({proc.returncode})")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.05)
    raise SystemExit("the server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def create_tables(bases: list[str], n: int, body: dict[str, Any] | None = None) -> list[tuple[str, list[str]]]:
    """``n`` tables of three people (created round robin on ``bases``); their tokens."""
    out = []
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(n):
            base = bases[i % len(bases)]
            payload = {"name": f"a{i}", "seats": [{"kind": "human"}] * 3, "options": ["end_condition=agreement"]}
            r = await http.post(base + "/api/tables", json={**payload, **(body or {})})
            r.raise_for_status()
            tid = r.json()["id"]
            tokens = [r.cookies[f"pref_{tid}"]]
            http.cookies.clear()
            for s in (1, 2):
                rr = await http.post(f"{base}/api/tables/{tid}/seats/{s}", json={"name": f"p{s}"})
                rr.raise_for_status()
                tokens.append(rr.cookies[f"pref_{tid}"])
                http.cookies.clear()
            out.append((tid, tokens))
    return out


def address(block: int, i: int) -> str:
    """A loopback source address: 127.0.<block>.<1..250> (blocks 1–4 players, 5 and up attackers)."""
    return f"127.0.{block}.{1 + i % 250}"


async def open_ws(url: str, token: str | None, tid: str, local: str, **kw: Any) -> ClientConnection:
    headers = {"Cookie": f"pref_{tid}={token}"} if token else {}
    return await connect(url, additional_headers=headers, max_size=1 << 20, local_addr=(local, 0),
                         open_timeout=10, **kw)  # fmt: skip


# -- the players ---------------------------------------------------------------------------------------
async def player(ports: list[int], first: int, tid: str, token: str, seat: int, stats: Stats, stop: asyncio.Event,
                 rng: random.Random, think: float, local: str) -> None:  # fmt: skip
    """One person: acts about ``think`` seconds after his turn comes; reconnects to the next
    process when his connection drops (a cluster's process was killed)."""
    at = first
    while not stop.is_set():
        try:
            ws = await open_ws(f"ws://127.0.0.1:{ports[at % len(ports)]}/ws/{tid}", token, tid, local)
        except (OSError, WebSocketException, TimeoutError):
            at += 1
            await asyncio.sleep(0.25)
            continue
        try:
            await play_on(ws, tid, seat, stats, stop, rng, think)
        except (ConnectionClosed, OSError):
            at += 1
            await asyncio.sleep(0.05)
        finally:
            with contextlib.suppress(Exception):
                await ws.close()


async def play_on(ws: ClientConnection, tid: str, seat: int, stats: Stats, stop: asyncio.Event,
                  rng: random.Random, think: float) -> None:  # fmt: skip
    pending: dict[int, float] = {}
    next_id = 0
    last_n = (-1, -1)
    acting = False
    background: set[asyncio.Future[None]] = set()

    async def act_later(msg: dict[str, Any], delay: float) -> None:
        nonlocal next_id
        await asyncio.sleep(delay)
        if stop.is_set():
            return
        next_id += 1
        msg["id"] = next_id
        pending[next_id] = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(msg))

    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
        except TimeoutError:
            continue
        f = orjson.loads(raw)  # the clients parse every state: orjson keeps their CPU off the server
        kind = f["type"]
        if kind == "ack":
            t0 = pending.pop(f["ref"], None)
            if t0 is not None:
                stats.last_ack[tid] = time.monotonic()
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - t0)
                    stats.actions += 1
            acting = False
        elif kind == "error":
            if stats.measuring:
                stats.errors += 1
            pending.pop(f.get("ref"), None)
            acting = False
        elif kind == "state":
            v = f["view"]
            key = (f["deal"], f["n"])
            if v is None or key == last_n or acting:
                continue
            last_n = key
            delay = think * rng.uniform(0.8, 1.2)
            if v["phase"] == "over" and seat == 0 and f["table"]["status"] != "finished":
                acting = True
                background.add(asyncio.ensure_future(act_later({"type": "next"}, delay)))
            elif v["to_act"] == seat and v["legal"]:
                acting = True
                msg = {"type": "act", "action": rng.choice(v["legal"])[0], "n": f["n"]}
                background.add(asyncio.ensure_future(act_later(msg, delay)))


async def health_prober(base: str, out: list[float], stop: asyncio.Event, every: float = 0.1,
                        fresh: bool = False, failed: list[int] | None = None) -> None:  # fmt: skip
    """``/healthz`` ten times a second on one kept-alive connection, or (``fresh``) each time on a
    new one — as a new visitor comes — counting the probes that got no answer in ``failed``."""
    limits = httpx.Limits(max_keepalive_connections=0) if fresh else httpx.Limits()
    async with httpx.AsyncClient(base_url=base, timeout=5 if fresh else 30, limits=limits) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                ok = (await http.get("/healthz")).status_code == 200
            except httpx.HTTPError:
                ok = False
            out.append(time.perf_counter() - t0)
            if not ok and failed is not None:
                failed[0] += 1
            await asyncio.sleep(every)


# -- the attacks (each bounded by the phase's stop event; loopback only) ----------------------------------------
async def attack_bodies(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """20 MB bodies, announced and streamed, and nested JSON, from two clients."""
    big = b"x" * (20 << 20)

    async def stream() -> Any:
        for _ in range(20):
            yield b"x" * (1 << 20)

    async def one(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address(5, i))
        async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
            while not stop.is_set():
                for kind, content in (("announced", big), ("streamed", None), ("nested", b"[" * 16000)):
                    body = stream() if content is None else content
                    try:
                        r = await http.post("/api/tables", content=body, headers={"content-type": "application/json"})
                        outcome = str(r.status_code)
                    except httpx.HTTPError:  # the server refused and closed while the body was still going
                        outcome = "closed"
                    counts[f"{kind} {outcome}"] = counts.get(f"{kind} {outcome}", 0) + 1

    await asyncio.gather(one(0), one(1))


async def drive_table(port: int, tid: str, tokens: list[str], block: int, stop: asyncio.Event,
                      on_state: Callable[[int, dict[str, Any], Callable[[dict[str, Any]], Awaitable[None]]],
                                         Awaitable[None]],
                      counts: dict[str, int]) -> None:  # fmt: skip
    """Three attacker connections at one table; ``on_state`` decides what to send."""
    socks = [await open_ws(f"ws://127.0.0.1:{port}/ws/{tid}", t, tid, address(block, s))
             for s, t in enumerate(tokens)]  # fmt: skip

    async def reader(seat: int) -> None:
        ws = socks[seat]

        async def send(msg: dict[str, Any]) -> None:
            await ws.send(json.dumps(msg))

        while not stop.is_set():
            try:
                f = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))
            except TimeoutError:
                continue
            if f["type"] == "error":
                counts[f"error {f['code']}"] = counts.get(f"error {f['code']}", 0) + 1
            elif f["type"] == "ack":
                counts["ack"] = counts.get("ack", 0) + 1
            elif f["type"] == "state" and f["view"] is not None:
                await on_state(seat, f, send)

    try:
        await asyncio.gather(*(reader(s) for s in range(3)))
    except (ConnectionClosed, OSError):
        pass
    finally:
        for ws in socks:
            with contextlib.suppress(Exception):
                await ws.close()


def to_play_choice(view: dict[str, Any]) -> int | None:
    """Bid 6♠ (the first bidder), pass (the others), whist, else the first legal action."""
    texts = {t: a for a, t in view["legal"]}
    bid = any(t == "6♠" for _, t in view["moves"])
    for t in ("whist", "pass" if bid else "6♠"):
        if t in texts:
            return int(texts[t])
    return int(view["legal"][0][0]) if view["legal"] else None


async def attack_claims(port: int, tables: list[tuple[str, list[str]]], stop: asyncio.Event,
                        counts: dict[str, int]) -> None:  # fmt: skip
    """Claim every remaining trick at every turn in play; refuse each other's claims."""

    async def on_state(seat: int, f: dict[str, Any], send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        v = f["view"]
        if v["to_act"] != seat:
            if v["phase"] == "over" and seat == 0:
                await send({"type": "next"})
            return
        if v["phase"] == "claim_answer":
            await send({"type": "act", "action": "refuse", "n": f["n"]})
        elif v["phase"] == "play" and f["table"]["options"]["claims"]:
            counts["claims sent"] = counts.get("claims sent", 0) + 1
            await send({"type": "claim", "tricks": 10 - len(v["completed_tricks"])})
            await asyncio.sleep(0.3)
            await send({"type": "act", "action": v["legal"][0][0], "n": f["n"]})
        else:
            choice = to_play_choice(v)
            if choice is not None:
                await send({"type": "act", "action": choice, "n": f["n"]})

    await asyncio.gather(*(drive_table(port, tid, tokens, 10 + i, stop, on_state, counts)
                           for i, (tid, tokens) in enumerate(tables)))  # fmt: skip


async def finish_tables(port: int, tables: list[tuple[str, list[str]]]) -> None:
    """Play the attacker's one-deal tables to their end (setup for the analysis attack)."""
    done = asyncio.Event()
    left = {tid for tid, _ in tables}

    async def finish(tid: str, tokens: list[str]) -> None:
        local = asyncio.Event()
        rng = random.Random(tid)

        async def on_state(seat: int, f: dict[str, Any], send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
            if f["table"]["status"] == "finished":
                local.set()
                return
            v = f["view"]
            if v["to_act"] == seat and v["legal"]:
                await send({"type": "act", "action": rng.choice(v["legal"])[0], "n": f["n"]})

        block = 100 + sum(1 for t, _ in tables if t < tid)  # an address block per table: under the connect limit
        task = asyncio.ensure_future(drive_table(port, tid, tokens, block, local, on_state, {}))
        await asyncio.wait_for(local.wait(), timeout=120)
        left.discard(tid)
        await task

    await asyncio.gather(*(finish(tid, tokens) for tid, tokens in tables))
    done.set()


async def attack_analysis(base: str, tids: list[str], stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Eight clients asking for analyses of finished games, moving on to another one each time."""

    async def one(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address(30, i))
        async with httpx.AsyncClient(base_url=base, timeout=60, transport=transport) as http:
            k = i
            while not stop.is_set():
                tid = tids[k % len(tids)]
                variant = "?tables=true" if (k // len(tids)) % 2 else ""
                k += 1
                with contextlib.suppress(httpx.HTTPError):
                    r = await http.get(f"/api/tables/{tid}/analysis{variant}")
                    counts[f"analysis {r.status_code}"] = counts.get(f"analysis {r.status_code}", 0) + 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(i) for i in range(8)))


async def attack_storm(port: int, tid: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """400 spectators of one table from 10 addresses, each staying one to three seconds and coming
    back (issue 15: 400 idle spectators with churn), a tenth of them sending 4 KB junk frames.
    A refused one tries again as the browser client does (backoff 0.5, 1, 2, 4, 5, 5 … s)."""

    async def churn(i: int) -> None:
        rng = random.Random(i)
        retry = 0
        while not stop.is_set():
            try:
                ws = await open_ws(f"ws://127.0.0.1:{port}/ws/{tid}", None, tid, address(40, i % 10))
                f = json.loads(await ws.recv())
                counts[f["type"]] = counts.get(f["type"], 0) + 1
                if i % 10 == 0:
                    for _ in range(5):
                        await ws.send("{" + "x" * 4096)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), timeout=rng.uniform(1, 3))  # idle, then leave
                await ws.close()
                retry = 0
            except (OSError, WebSocketException, TimeoutError):
                counts["refused"] = counts.get("refused", 0) + 1
                retry = min(retry + 1, 6)
                await asyncio.sleep(min(0.25 * 2**retry, 5.0))

    await asyncio.gather(*(churn(i) for i in range(400)))


async def attack_dblock(db_path: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Another process's write lock on the SQLite file, two seconds in every three."""

    def hold() -> None:
        con = sqlite3.connect(db_path, isolation_level=None, timeout=10)
        while not stop.is_set():
            con.execute("BEGIN IMMEDIATE")
            counts["locks"] = counts.get("locks", 0) + 1
            stop_wait = time.monotonic() + 2.0
            while time.monotonic() < stop_wait and not stop.is_set():
                time.sleep(0.05)
            con.execute("ROLLBACK")
            time.sleep(1.0)
        con.close()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    while thread.is_alive():
        await asyncio.sleep(0.1)


async def attack_slowloris(port: int, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """1,100 sockets from 4 addresses held open as long as the server lets them: half send nothing,
    half send a request head a byte every two seconds (issue 25: they used up the file descriptors);
    a socket the server closes is opened again a moment later."""

    async def hold(i: int) -> None:
        local = address(70, i % 4)
        slow = i % 2 == 1
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))
            except OSError:
                counts["refused at connect"] = counts.get("refused at connect", 0) + 1
                await asyncio.sleep(1.0)
                continue
            counts["opened"] = counts.get("opened", 0) + 1
            try:
                if slow:
                    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while not stop.is_set():
                    if slow:
                        writer.write(b"X-Slow: x\r\n"[:1])
                        await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        if not await asyncio.wait_for(reader.read(1024), timeout=2.0):
                            counts["closed by the server"] = counts.get("closed by the server", 0) + 1
                            break
            except OSError:
                counts["closed by the server"] = counts.get("closed by the server", 0) + 1
            finally:
                writer.close()
            await asyncio.sleep(0.5)

    await asyncio.gather(*(hold(i) for i in range(1100)))


async def attack_proxy(bases: list[str], tids: list[str], stop: asyncio.Event, counts: dict[str, int]) -> None:
    """600 GETs at once to the second process for tables the first one plays (each is proxied),
    again and again (issue 25: a client built per forwarded request stalled /healthz for 14 s)."""
    async with httpx.AsyncClient(base_url=bases[1], timeout=30, limits=httpx.Limits(max_connections=600)) as http:

        async def one(i: int) -> None:
            try:
                r = await http.get(f"/api/tables/{tids[i % len(tids)]}")
                key = str(r.status_code)
            except httpx.HTTPError:
                key = "failed"
            counts[key] = counts.get(key, 0) + 1

        while not stop.is_set():
            await asyncio.gather(*(one(i) for i in range(600)))


ATTACKS = ("bodies", "claims", "analysis", "storm", "dblock", "slowloris")


def attack_process(name: str, spec: dict[str, Any], seconds: float, results: Any, niceness: int) -> None:
    """Run one attack for ``seconds`` (in a process of its own, niced below the players: an attacker's
    CPU is not the server's on the internet); put what it counted on ``results``."""
    os.nice(niceness)

    async def run() -> dict[str, int]:
        halt = asyncio.Event()
        counts: dict[str, int] = {}
        asyncio.get_running_loop().call_later(seconds, halt.set)
        if name == "bodies":
            await attack_bodies(spec["base"], halt, counts)
        elif name == "claims":
            await attack_claims(spec["port"], spec["claim_tables"], halt, counts)
        elif name == "analysis":
            await attack_analysis(spec["base"], spec["done"], halt, counts)
        elif name == "storm":
            await attack_storm(spec["port"], spec["storm"], halt, counts)
        elif name == "dblock":
            await attack_dblock(spec["db_path"], halt, counts)
        elif name == "slowloris":
            await attack_slowloris(spec["port"], halt, counts)
        elif name == "proxy":
            await attack_proxy(spec["bases"], spec["tids"], halt, counts)
        return counts

    try:
        counts = asyncio.run(run())
    except Exception as e:  # report, do not hang the parent
        counts = {f"attack failed: {e!r}": 1}
    results.put(counts)


# -- the players in a process of their own ------------------------------------------------------------------
def players_process(conn: Any, ports: list[int], tables: list[tuple[str, list[str]]], think: float, seed: int,
                    niceness: int) -> None:  # fmt: skip
    """The players' clients, niced, on a loop of their own: they compete with the server they measure
    for the same two cores, so they must not take its CPU.  Answers ``begin`` / ``end`` on ``conn``."""
    os.nice(niceness)
    with contextlib.suppress(ImportError):
        import uvloop  # the clients' own cost, halved

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

    async def run() -> None:
        stats, stop_all = Stats(), asyncio.Event()
        lags: list[float] = []
        tasks = await start_players(ports, tables, stats, stop_all, argparse.Namespace(think=think), seed)
        watcher = asyncio.ensure_future(loop_lags(lags))
        gc.freeze()  # the clients' own collector pauses stay out of what they measure
        gc.set_threshold(50_000, 20, 100)
        conn.send(len(tasks))
        cpu0 = 0.0
        while True:
            cmd = await asyncio.to_thread(conn.recv)
            if cmd == "begin":
                stats.take()
                lags.clear()
                stats.measuring = True
                cpu0 = time.process_time()
                conn.send(None)
            elif cmd == "end":
                stats.measuring = False
                lat, actions, errors = stats.take()
                conn.send((lat, actions, errors, time.process_time() - cpu0, quantile(lags, 0.99)))
            else:
                break
        watcher.cancel()
        stop_all.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())


async def loop_lags(out: list[float], every: float = 0.05) -> None:
    """How late this (client) loop wakes up: a late client adds its lateness to every latency it measures."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        out.append(max(0.0, loop.time() - t - every))


class RemotePlayers:
    """The parent's handle on :func:`players_process`."""

    def __init__(self, ports: list[int], tables: list[tuple[str, list[str]]], args: argparse.Namespace,
                 seed: int) -> None:  # fmt: skip
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=players_process, args=(child, ports, tables, args.think, seed, args.nice))
        self.proc.start()

    async def ask(self, cmd: str) -> Any:
        self.conn.send(cmd)
        return await asyncio.to_thread(self.conn.recv)

    async def opened(self) -> int:
        return int(await asyncio.to_thread(self.conn.recv))

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send("stop")
        await asyncio.to_thread(self.proc.join, 30)
        if self.proc.is_alive():
            self.proc.kill()


class InlinePlayers:
    """Players on this process's loop (the cluster runs, which follow their acks for the failover)."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.cpu0 = 0.0

    async def ask(self, cmd: str) -> Any:
        if cmd == "begin":
            self.stats.take()
            self.stats.measuring = True
            self.cpu0 = time.process_time()
            return None
        self.stats.measuring = False
        lat, actions, errors = self.stats.take()
        return lat, actions, errors, time.process_time() - self.cpu0, float("nan")


def profile_summary(path: str, top: int = 6) -> str:
    """The server's main thread in a py-spy raw profile: its busy samples, and the innermost
    functions of ours it was busy in (none: uvloop, uvicorn, starlette — polling, sockets, framing)."""
    counts: collections.Counter[str] = collections.Counter()
    main = total = 0
    with contextlib.suppress(OSError), open(path) as f:
        for line in f:
            stack, _, n = line.rstrip().rpartition(" ")
            frames = stack.split(";")
            total += int(n)
            if not any(fr.startswith("<module> (<string>") for fr in frames):
                continue  # a thread (database calls)
            main += int(n)
            ours = [fr for fr in frames if "preferans/" in fr and "preferans/cli/" not in fr]
            counts[ours[-1].split(" (")[0] if ours else "uvloop, uvicorn, starlette"] += int(n)
    if not main:
        return "no samples"
    best = ", ".join(f"{name} {n / main * 100:.0f}%" for name, n in counts.most_common(top))
    return f"main thread {main} of {total} samples: {best}"


# -- one run -----------------------------------------------------------------------------------------------
async def measure(players: RemotePlayers | InlinePlayers, seconds: float, base: str, server_pid: int,
                  profile: str | None = None, all_pids: list[int] | None = None) -> dict[str, float]:  # fmt: skip
    """One phase's figures; ``all_pids``: the cluster's processes (their CPU and waits summed)."""
    pids = all_pids or [server_pid]
    health: list[float] = []
    fresh: list[float] = []
    fresh_failed = [0]
    hstop = asyncio.Event()
    prober = asyncio.ensure_future(health_prober(base, health, hstop))
    fresh_prober = asyncio.ensure_future(health_prober(base, fresh, hstop, every=0.25, fresh=True,
                                                       failed=fresh_failed))  # fmt: skip
    spy = None
    if profile:
        # --native stops the server for each sample (the phase's latencies suffer): without it, py-spy's
        # stacks read from the running process mostly ended in uvloop's C code, saying nothing.
        spy = subprocess.Popen(["py-spy", "record", "--pid", str(server_pid), "--duration", str(int(seconds)),
                                "--rate", "50", "--native", "--format", "raw", "-o", profile],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    await players.ask("begin")
    srv0 = sum(cpu_seconds(p) for p in pids)
    wait0, lost0 = sum(run_queue_wait(p) for p in pids), listen_overflows()
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    lat, actions, errors, client_cpu, client_lag = await players.ask("end")
    elapsed = time.perf_counter() - t0
    srv_cpu = sum(cpu_seconds(p) for p in pids) - srv0
    srv_wait = sum(run_queue_wait(p) for p in pids) - wait0
    lost = listen_overflows() - lost0
    inside: dict[str, Any] = {}
    with contextlib.suppress(httpx.HTTPError, ValueError):
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            inside = (await http.get("/healthz", params={"window": seconds})).json()
    hstop.set()
    await prober
    await fresh_prober
    if spy is not None:
        await asyncio.to_thread(spy.wait)
    return {
        "actions/s": actions / elapsed,
        "ack p50 ms": quantile(lat, 0.5) * 1000,
        "ack p99 ms": quantile(lat, 0.99) * 1000,
        "healthz p50 ms": quantile(health, 0.5) * 1000,
        "healthz p99 ms": quantile(health, 0.99) * 1000,
        "new-conn healthz p99 ms": quantile(fresh, 0.99) * 1000,  # a new visitor's first request
        "new-conn failed": float(fresh_failed[0]),
        "server ack p99 ms": float(inside.get("ack_ms", {}).get("p99", "nan")),
        "server lag p99 ms": float(inside.get("loop_lag_ms", {}).get("p99", "nan")),
        "server gc max ms": float(inside.get("gc_ms", {}).get("max", "nan")),  # the longest collection
        "server CPU %": srv_cpu / elapsed * 100,
        "server waited %": srv_wait / elapsed * 100,  # runnable but not running: the CPU was taken
        "clients CPU %": client_cpu / elapsed * 100,
        "client lag p99 ms": client_lag * 1000,
        "listen drops": float(lost),
        "errors": float(errors),
    }


async def start_players(ports: list[int], tables: list[tuple[str, list[str]]], stats: Stats, stop: asyncio.Event,
                        args: argparse.Namespace, seed: int) -> list[asyncio.Future[None]]:  # fmt: skip
    rng = random.Random(seed)
    tasks: list[asyncio.Future[None]] = []
    for i, (tid, tokens) in enumerate(tables):
        for seat, token in enumerate(tokens):
            k = len(tasks)
            task = player(ports, i + seat, tid, token, seat, stats, stop, random.Random(rng.random()), args.think,
                          address(1 + k // 250 % 4, k))  # fmt: skip
            tasks.append(asyncio.ensure_future(task))
            if len(tasks) % 100 == 0:
                await asyncio.sleep(0.05)  # connect in waves
    return tasks


async def run_attacks(args: argparse.Namespace, seed: int) -> dict[str, dict[str, float]]:
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="pref-load-")
    db_path = f"{tmp}/load.db"
    db = args.db or f"sqlite:///{db_path}"
    server = start_server(db, port, "--workers", str(args.workers))
    base = f"http://127.0.0.1:{port}"
    out: dict[str, dict[str, float]] = {}
    try:
        await wait_up(base, server)
        t0 = time.perf_counter()
        tables = await create_tables([base], args.tables)
        claim_tables = await create_tables([base], 8, {"options": ["claims=true", "end_condition=agreement"]})
        done_tables = await create_tables([base], 16, {"options": ["end_condition=deals", "max_deals=1"]})
        storm_table = (await create_tables([base], 1))[0]
        print(f"created {len(tables) + 25} tables in {time.perf_counter() - t0:.1f} s", flush=True)
        if args.attacks:
            await finish_tables(port, done_tables)
        players = RemotePlayers([port], tables, args, seed)
        try:
            print(f"{await players.opened()} players connecting (nice {args.nice}); warming up {args.warmup} s",
                  flush=True)  # fmt: skip
            await asyncio.sleep(args.warmup)
            await attack_phases(args, players, server, base, port, db_path, claim_tables, done_tables,
                                storm_table, seed, out)  # fmt: skip
        finally:
            await players.close()
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)  # the database of the run
    return out


async def attack_phases(args: argparse.Namespace, players: RemotePlayers, server: subprocess.Popen[bytes],
                        base: str, port: int, db_path: str, claim_tables: Any, done_tables: Any,
                        storm_table: Any, seed: int, out: dict[str, dict[str, float]]) -> None:  # fmt: skip
    """The baseline, then each attack in turn, while the players play on."""

    def spy(phase: str) -> str | None:
        return os.path.join(args.profile, f"run{seed}-{phase}.raw") if args.profile else None

    out["baseline"] = await measure(players, args.seconds, base, server.pid, spy("baseline"))
    print_row("baseline", out["baseline"], {})
    if args.profile:
        print("    py-spy:", profile_summary(spy("baseline") or ""), flush=True)
    spec = {"base": base, "port": port, "claim_tables": claim_tables, "done": [t for t, _ in done_tables],
            "storm": storm_table[0], "db_path": db_path}  # fmt: skip
    names = [n for n in args.attacks if n != "dblock" or not args.db]
    for name in names:
        # The attacker is a process of its own, so its work does not slow the players' clients.
        ctx = multiprocessing.get_context("spawn")
        results: multiprocessing.Queue[dict[str, int]] = ctx.Queue()
        attack = (name, spec, args.seconds + 2.0, results, args.attacker_nice)
        attacker = ctx.Process(target=attack_process, args=attack)
        attacker.start()
        await asyncio.sleep(1.5)  # under way
        a0 = cpu_seconds(attacker.pid or 0)
        out[name] = await measure(players, args.seconds, base, server.pid, spy(name))
        out[name]["attacker CPU %"] = (cpu_seconds(attacker.pid or 0) - a0) / args.seconds * 100
        counts = await asyncio.to_thread(results.get, True, 60)
        attacker.join(timeout=30)
        if attacker.is_alive():
            attacker.kill()
        print_row(name, out[name], counts)
        if args.profile:
            print("    py-spy:", profile_summary(spy(name) or ""), flush=True)
        await asyncio.sleep(2.0)  # settle


async def run_cluster(args: argparse.Namespace, seed: int, pg: str) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for n in args.cluster:
        ports = [free_port() for _ in range(n)]
        extra = ["--cluster", "--workers", "1", "--max-address-connections", "0"]
        procs = [start_server(pg, p, *extra) for p in ports]
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        try:
            for base, proc in zip(bases, procs, strict=True):
                await wait_up(base, proc)
            tables = await create_tables(bases, args.tables)
            stats, stop_all = Stats(), asyncio.Event()
            tasks = await start_players(ports, tables, stats, stop_all, args, seed)
            await asyncio.sleep(args.warmup)
            row = await measure(InlinePlayers(stats), args.seconds, bases[-1], procs[-1].pid,
                                all_pids=[p.pid for p in procs])  # fmt: skip
            if n > 1:  # SIGKILL one process: how long until each of its tables is acknowledged again
                owned = [tid for i, (tid, _) in enumerate(tables) if i % n == 0]
                os.kill(procs[0].pid, signal.SIGKILL)
                t_kill = time.monotonic()
                deadline = t_kill + 60
                while time.monotonic() < deadline and any(stats.last_ack.get(t, 0) < t_kill for t in owned):
                    await asyncio.sleep(0.05)
                gaps = [stats.last_ack.get(t, deadline) - t_kill for t in owned]
                row["failover median s"] = statistics.median(gaps)
                row["failover max s"] = max(gaps)
            out[f"{n} process{'es' if n > 1 else ''}"] = row
            print_row(f"{n} process{'es' if n > 1 else ''}", row, {})
            stop_all.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for proc in procs:
                stop(proc)
        await asyncio.sleep(1.0)
    return out


async def run_proxy_flood(args: argparse.Namespace, pg: str) -> dict[str, dict[str, float]]:
    """Two ``--cluster`` processes; the second one's ``/healthz`` (kept-alive and new connections)
    without and then during the proxy flood (:func:`attack_proxy`) for the first one's tables."""
    ports = [free_port() for _ in range(2)]
    procs = [start_server(pg, p, "--cluster", "--workers", "1", "--max-address-connections", "0") for p in ports]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    out: dict[str, dict[str, float]] = {}
    try:
        for base, proc in zip(bases, procs, strict=True):
            await wait_up(base, proc)
        tids = [tid for tid, _ in await create_tables(bases[:1], 20)]
        async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
            for tid in tids:  # loaded, so the first process holds their leases
                (await http.get(f"/api/tables/{tid}")).raise_for_status()
        for phase in ("baseline", "proxy"):
            attacker = None
            if phase == "proxy":
                ctx = multiprocessing.get_context("spawn")
                results: multiprocessing.Queue[dict[str, int]] = ctx.Queue()
                spec = {"bases": bases, "tids": tids}
                attacker = ctx.Process(target=attack_process,
                                       args=("proxy", spec, args.seconds + 2.0, results, args.attacker_nice))
                attacker.start()
                await asyncio.sleep(1.5)
            kept: list[float] = []
            fresh: list[float] = []
            failed = [0]
            halt = asyncio.Event()
            probes = [asyncio.ensure_future(health_prober(bases[1], kept, halt)),
                      asyncio.ensure_future(health_prober(bases[1], fresh, halt, every=0.25, fresh=True,
                                                          failed=failed))]  # fmt: skip
            await asyncio.sleep(args.seconds)
            halt.set()
            await asyncio.gather(*probes)
            counts: dict[str, int] = {}
            if attacker is not None:
                counts = await asyncio.to_thread(results.get, True, 60)
                attacker.join(timeout=30)
                if attacker.is_alive():
                    attacker.kill()
            out[phase] = {"healthz p50 ms": quantile(kept, 0.5) * 1000, "healthz p99 ms": quantile(kept, 0.99) * 1000,
                          "healthz max ms": max(kept) * 1000, "new-conn healthz p99 ms": quantile(fresh, 0.99) * 1000,
                          "new-conn failed": float(failed[0])}  # fmt: skip
            print_row(phase, out[phase], counts)
    finally:
        for proc in procs:
            stop(proc)
    return out


async def run_restart(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """A restart with ``--restart-tables`` tables in play: seconds until ``/healthz`` answers,
    then until a table's first state (it is loaded when asked for)."""
    from preferans.rules import Rules
    from preferans.server.game import TableConfig, TableGame
    from preferans.server.storage import Storage

    tmp = tempfile.mkdtemp(prefix="pref-restart-")
    db = f"sqlite:///{tmp}/restart.db"
    storage = Storage(db)
    rng = random.Random(args.seed)
    first = ""
    t0 = time.perf_counter()
    for i in range(args.restart_tables):  # tables in play, written straight into storage
        g, _ = TableGame.create(storage, TableConfig(Rules.preset("sochi")), [{"kind": "human"}] * 3, f"a{i}")
        for s in (1, 2):
            g.sit(s, f"p{s}")
        for _ in range(8):
            assert g.deal is not None
            g.act(g.deal.to_act or 0, int(rng.choice(g.deal.legal_actions())))
        first = first or g.id
        del g
    storage.close()
    print(f"wrote {args.restart_tables} tables in play in {time.perf_counter() - t0:.1f} s", flush=True)
    port = free_port()
    t0 = time.perf_counter()
    server = start_server(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_up(base, server)
        up = time.perf_counter() - t0
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            t1 = time.perf_counter()
            r = await http.get(f"/api/tables/{first}")
            r.raise_for_status()
            table = time.perf_counter() - t1
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)  # the database of the run
    row = {"healthz after s": up, "first table s": table}
    print_row(f"restart {args.restart_tables}", row, {})
    return {f"restart {args.restart_tables}": row}


def print_row(name: str, row: dict[str, float], counts: dict[str, int]) -> None:
    figures = "  ".join(f"{k} {v:.1f}" for k, v in row.items())
    extra = ("   [" + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + "]") if counts else ""
    print(f"  {name:<12} {figures}{extra}", flush=True)


def medians(runs: list[dict[str, dict[str, float]]]) -> None:
    print(f"\nmedians of {len(runs)} run(s) ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}):")
    for phase in runs[0]:
        rows = [r[phase] for r in runs if phase in r]
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print_row(phase, med, {})
    for figure in ("ack p99 ms", "healthz p99 ms"):
        if figure not in runs[0].get("baseline", {}):
            continue
        base = statistics.median(r["baseline"][figure] for r in runs)
        for phase in runs[0]:
            p99 = statistics.median(r[phase][figure] for r in runs)
            print(f"  {phase:<12} {figure.replace(' ms', '')} / baseline = {p99 / base:.2f}")


async def main_async(args: argparse.Namespace) -> None:
    runs = []
    if args.proxy_flood:
        sys.path.insert(0, os.path.join(HERE, "..", "tests"))
        from pg_helpers import throwaway_postgresql  # the tests' throwaway PostgreSQL

        with throwaway_postgresql(max_connections=300) as pg:
            for r in range(args.repeat):
                print(f"run {r + 1} of {args.repeat}", flush=True)
                runs.append(await run_proxy_flood(args, pg))
                _drop_all(pg)
    elif args.cluster:
        sys.path.insert(0, os.path.join(HERE, "..", "tests"))
        from pg_helpers import throwaway_postgresql  # the tests' throwaway PostgreSQL

        with throwaway_postgresql(max_connections=300) as pg:
            for r in range(args.repeat):
                print(f"run {r + 1} of {args.repeat}", flush=True)
                runs.append(await run_cluster(args, args.seed + r, pg))
                await asyncio.sleep(1.0)
                _drop_all(pg)
    elif args.restart_tables:
        for _ in range(args.repeat):
            runs.append(await run_restart(args))
    else:
        for r in range(args.repeat):
            print(f"run {r + 1} of {args.repeat}", flush=True)
            runs.append(await run_attacks(args, args.seed + r))
    medians(runs)


def _drop_all(pg: str) -> None:
    from preferans.server.storage import Storage, metadata

    st = Storage(pg)
    metadata.drop_all(st.engine)
    st.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring time per phase (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0, help="seconds a client waits before acting (default 1)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary directory)")
    ap.add_argument("--workers", type=int, default=1, help="the server's worker processes (default 1)")
    ap.add_argument("--attacks", nargs="?", const=",".join(ATTACKS), default="",
                    type=lambda s: [a for a in s.split(",") if a],
                    help=f"run each attack (or those named: {','.join(ATTACKS)}) against tables of its own")
    ap.add_argument("--nice", type=int, default=10,
                    help="niceness of the players' process (default 10: below the server)")
    ap.add_argument("--attacker-nice", type=int, default=19,
                    help="niceness of the attackers' processes (default 19: an attacker's CPU is not the "
                         "server's machine's; at 10 the bodies attacker took 43-72 %% of a core here)")
    ap.add_argument("--profile", metavar="DIR", default=None,
                    help="record the server with py-spy --native during each phase (raw profiles in DIR; the "
                         "sampling stops the server, so that run's latencies are not figures) and summarise")
    ap.add_argument("--cluster", type=lambda s: [int(x) for x in s.split(",")], default=None,
                    help="process counts to compare on PostgreSQL, e.g. 1,3")  # fmt: skip
    ap.add_argument("--proxy-flood", action="store_true",
                    help="instead: two --cluster processes; the second's /healthz without and during 600 "
                         "forwarded GETs at a time for the first's tables")  # fmt: skip
    ap.add_argument("--server-nofile", type=int, default=0,
                    help="the server's limit on open files (e.g. 1024, a default machine's; default: this "
                         "process's, raised to 16,384)")  # fmt: skip
    ap.add_argument("--restart-tables", type=int, default=0,
                    help="instead: restart a server with this many tables in play and time it")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=1, help="runs; the medians are printed (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if isinstance(args.attacks, str):
        args.attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(args.attacks) - set(ATTACKS)
    if unknown:
        ap.error(f"--attacks: no attack {', '.join(sorted(unknown))} (choose from {', '.join(ATTACKS)})")
    if args.profile:
        os.makedirs(args.profile, exist_ok=True)
    with contextlib.suppress(ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 16384)), hard))
    if args.server_nofile:
        SERVER_NOFILE.append(args.server_nofile)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
