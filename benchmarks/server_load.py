"""Load test of ``preferans serve``: N tables of scripted players over real WebSockets.

Starts the server on loopback (SQLite in a temporary directory unless ``--db``),
creates N tables of three people, connects 3·N WebSocket clients and lets each
act about once a second when it is its turn (random legal actions; the first
seat deals the next hand after a deal ends).  Prints actions per second and the
p50 / p99 latency from sending an action to receiving its acknowledgement (the
action is committed to the database before the ack).  The clients run in this
process, on the same machine: the figures include their own scheduling delays.

    python benchmarks/server_load.py --tables 500 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


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


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.actions = 0
        self.measuring = False


async def player(url: str, cookie: str, seat: int, stats: Stats, stop: asyncio.Event, rng: random.Random,
                 think: float) -> None:  # fmt: skip
    async with connect(url, additional_headers={"Cookie": cookie}, max_size=1 << 20) as ws:
        pending: dict[int, float] = {}
        next_id = 0
        last_n = (-1, -1)
        acting = False
        background: set[asyncio.Future[None]] = set()

        async def act_later(msg: dict[str, Any], delay: float) -> None:
            nonlocal acting, next_id
            await asyncio.sleep(delay)
            if stop.is_set():
                return
            next_id += 1
            msg["id"] = next_id
            pending[next_id] = time.perf_counter()
            await ws.send(json.dumps(msg))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            f = json.loads(raw)
            kind = f["type"]
            if kind == "ack":
                t0 = pending.pop(f["ref"], None)
                if t0 is not None and stats.measuring:
                    stats.latencies.append(time.perf_counter() - t0)
                    stats.actions += 1
                acting = False
            elif kind == "error":
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
                    action = rng.choice(v["legal"])[0]
                    msg = {"type": "act", "action": action, "n": f["n"]}
                    background.add(asyncio.ensure_future(act_later(msg, delay)))


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="pref-load-")
    db = args.db or f"sqlite:///{tmp}/load.db"
    code = ("import sys; from preferans.cli import main; "
            f"sys.exit(main(['serve', '--port', '{port}', '--db', {db!r}, '--http-rate', '0', "
            "'--log-level', 'warning']))")  # fmt: skip
    server = subprocess.Popen([sys.executable, "-c", code])
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.05)
            seats: list[tuple[str, str, int]] = []
            t0 = time.perf_counter()
            for i in range(args.tables):
                r = await http.post("/api/tables", json={"name": f"a{i}", "seats": [{"kind": "human"}] * 3,
                                                         "options": ["end_condition=agreement"]})  # fmt: skip
                tid = r.json()["id"]
                seats.append((tid, r.cookies[f"pref_{tid}"], 0))
                http.cookies.clear()
                for s in (1, 2):
                    rr = await http.post(f"/api/tables/{tid}/seats/{s}", json={"name": f"p{s}"})
                    seats.append((tid, rr.cookies[f"pref_{tid}"], s))
                    http.cookies.clear()
            print(f"created {args.tables} tables in {time.perf_counter() - t0:.1f} s", flush=True)
        stats, stop = Stats(), asyncio.Event()
        rng = random.Random(args.seed)
        tasks = []
        for tid, token, seat in seats:
            url = f"ws://127.0.0.1:{port}/ws/{tid}"
            tasks.append(asyncio.ensure_future(player(url, f"pref_{tid}={token}", seat, stats, stop,
                                                      random.Random(rng.random()), args.think)))  # fmt: skip
            if len(tasks) % 100 == 0:
                await asyncio.sleep(0.05)  # connect in waves
        print(f"{len(tasks)} connections open; warming up {args.warmup} s", flush=True)
        # The clients are the measuring instrument: keep the collector's pauses out of their figures.
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        t_start = time.perf_counter()
        srv0, cli0 = cpu_seconds(server.pid), time.process_time()
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - t_start
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            health = (await http.get("/healthz")).json()
        srv_cpu = (cpu_seconds(server.pid) - srv0) / elapsed
        cli_cpu = (time.process_time() - cli0) / elapsed
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(stats.latencies)
        if not lat:
            print("no actions measured")
            return
        q = statistics.quantiles(lat, n=100, method="inclusive")
        print(f"tables {args.tables}, connections {len(seats)}, measured {elapsed:.0f} s")
        print(f"actions/s {stats.actions / elapsed:.0f}   acks {len(lat)}   errors {stats.errors}")
        print(f"latency action->ack  p50 {q[49] * 1000:.1f} ms   p99 {q[98] * 1000:.1f} ms   "
              f"max {lat[-1] * 1000:.1f} ms")  # fmt: skip
        lag = health["loop_lag_ms"]
        print(f"server event-loop lag (last minute): p50 {lag['p50']} ms, p99 {lag['p99']} ms, max {lag['max']} ms")
        print(f"CPU: server {srv_cpu:.0%} of a core, clients {cli_cpu:.0%} of a core; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring time (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0, help="seconds a client waits before acting (default 1)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary directory)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with contextlib.suppress(ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
