"""CPU work off the event loop: a bounded pool of worker processes with quotas.

Claim proofs (the solver over every layout the claimer cannot see), the Kodeks
3.3.16.3 assessment, post-game analysis and the hard bot's thinking can take
seconds of CPU.  They run in worker processes (so the GIL does not matter and the
event loop never waits), at most ``processes`` at a time; the analyses in a pool of
their own at the lowest priority, so they never hold up a bot or a claim.  What people ask for
(claims, reports, analyses) is also limited per table and per address: a token
bucket each, and at most a few jobs in flight per address; beyond that the
request is refused with :class:`Busy` and nothing changes.  The server's own work
(bots, replaying a stored deal) waits its turn instead.

>>> q = Quota(rate=1.0, burst=2.0, concurrent=1, clock=lambda: 0.0)
>>> q.take("a"), q.take("a")
(True, False)
>>> q.done("a"); q.take("a"), q.take("a")
(True, False)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..engine.deal import Deal
from ..engine.result import DealResult
from ..errors import Busy
from ..table import Rulings
from .buckets import Buckets

__all__ = ["Busy", "PoolRulings", "Quota", "Workers", "analyze_job", "assess_job", "default_processes", "prove_job"]

T = TypeVar("T")


def default_processes() -> int:
    """One worker per core but one (the event loop has a core), at least one, at most eight."""
    return max(1, min(8, (os.cpu_count() or 2) - 1))


class Quota:
    """Token buckets per key (``rate`` jobs a second, bursts of ``burst``, :class:`.buckets.Buckets`)
    and jobs in flight per key."""

    def __init__(self, rate: float, burst: float, concurrent: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.concurrent, self.clock = rate, burst, concurrent, clock
        self._buckets = Buckets(rate, burst, clock=clock)
        self._running: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        """Charge one job to ``key``; ``False`` (and nothing charged) when it has none left."""
        with self._lock:
            if not self._buckets.take(key, allowed=self._running.get(key, 0) < self.concurrent):
                return False
            self._running[key] = self._running.get(key, 0) + 1
            return True

    def done(self, key: str) -> None:
        with self._lock:
            n = self._running.get(key, 0) - 1
            if n > 0:
                self._running[key] = n
            else:
                self._running.pop(key, None)


def _worker_start(server: int, niceness: int = 10) -> None:
    # A worker runs at a lower priority than the server, so on a busy machine the event loop
    # (every table's acks) gets the CPU first and the long calculations wait.
    with contextlib.suppress(OSError):
        os.nice(niceness)
    # And it ends with the server (pid ``server``), also when the server is killed.  Not "when the
    # parent goes": the parent is the fork server, which stays as long as any worker holds its
    # "alive" pipe — each worker does — so worker and fork server would wait for each other forever.

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # the pid was reused by someone else's process
                os._exit(0)

    threading.Thread(target=watch, name="pref-orphan-watch", daemon=True).start()


class _Pool:
    """One pool of worker processes at one niceness, started on first use."""

    def __init__(self, processes: int, niceness: int) -> None:
        self.processes, self.niceness = processes, niceness
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # forkserver: workers are forked from a clean process, not from this one with its
                # threads and event loop.
                ctx = multiprocessing.get_context("forkserver")
                # The fork server imports what the jobs need once (not the main module: it may be a
                # script without a __main__ guard); each worker is forked from it ready.
                ctx.set_forkserver_preload(["preferans.rulings.analysis", "preferans.bots.pimc"])
                self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=max(1, self.processes), mp_context=ctx,
                                                                    initializer=_worker_start,
                                                                    initargs=(os.getpid(), self.niceness))  # fmt: skip
            return self._pool

    def submit(self, fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        try:
            return self._executor().submit(fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            with self._lock:  # a worker died (killed, out of memory): start a fresh pool
                self._pool = None
            return self._executor().submit(fn, *args)

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        running = getattr(pool, "_processes", None)  # the executor's workers by pid (shutdown forgets them)
        processes = list(running.values()) if isinstance(running, dict) else []
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            with contextlib.suppress(Exception):
                p.terminate()
        for p in processes:
            p.join(timeout=2.0)
            if p.is_alive():
                p.kill()


class Workers:
    """The pools of worker processes (started on first use) and the quotas of people's requests.

    Two pools: the work somebody at a table waits for (a bot's move, a claim's proof, an
    assessment) at niceness 10, and the post-game analyses (``batch=True``) in a pool of their
    own at niceness 19, so a flood of analyses neither queues ahead of the bots of other tables
    nor takes the CPU from them: it gets what the rest leaves.
    """

    def __init__(
        self,
        processes: int | None = None,
        *,
        table_rate: float = 0.5,
        table_burst: float = 4.0,
        address_rate: float = 0.5,
        address_burst: float = 8.0,
        address_concurrent: int = 2,
        queue: int | None = None,
    ) -> None:
        self.processes = default_processes() if processes is None else processes
        self.per_table = Quota(table_rate, table_burst, concurrent=1)
        self.per_address = Quota(address_rate, address_burst, concurrent=address_concurrent)
        self.queue = queue if queue is not None else 4 * max(1, self.processes)
        self._interactive = _Pool(self.processes, niceness=10)
        self._batch = _Pool(self.processes, niceness=19)
        self._lock = threading.Lock()
        self._in_flight = 0
        self.jobs = 0  # finished jobs, for /healthz

    # -- the pools ----------------------------------------------------------------------------
    def _submit(self, fn: Callable[..., T], *args: Any, batch: bool = False) -> concurrent.futures.Future[T]:
        return (self._batch if batch else self._interactive).submit(fn, *args)

    def warm(self) -> None:
        """Start the interactive workers now (so the first job does not wait for them, nor slow
        the server); the analysis pool starts with the first analysis."""
        if self.processes > 0:
            with contextlib.suppress(Exception):  # the server stopped meanwhile
                for f in [self._submit(os.getpid) for _ in range(self.processes)]:
                    f.result()

    def shutdown(self) -> None:
        """End the pools now: jobs not started are cancelled and the workers are ended with the
        jobs they run (an analysis may take many seconds; the server must stop at once).  Whoever
        waits for one gets :class:`~concurrent.futures.process.BrokenProcessPool`; a job asked for
        later starts a fresh pool."""
        self._interactive.shutdown()
        self._batch.shutdown()

    # -- admission ------------------------------------------------------------------------------
    def admit(self, *, table: str | None = None, address: str | None = None) -> Callable[[], None]:
        """Charge a person's request to its table and address; returns the release to call when done.

        Raises :class:`Busy` (and charges nothing) when the table, the address or the
        whole pool has no room.
        """
        with self._lock:
            if self._in_flight >= self.queue:
                raise Busy("the server is busy with other calculations; try again in a few seconds")
            self._in_flight += 1
        taken: list[tuple[Quota, str]] = []
        for quota, key, what in ((self.per_table, table, "this table"), (self.per_address, address, "your address")):
            if key is None:
                continue
            if not quota.take(key):
                for q, k in taken:
                    q.done(k)
                self._release_slot()
                raise Busy(f"too many calculations asked for by {what}; try again in a few seconds")
            taken.append((quota, key))

        def release() -> None:
            for q, k in taken:
                q.done(k)
            self._release_slot()

        return release

    def _release_slot(self) -> None:
        with self._lock:
            self._in_flight -= 1

    # -- running ----------------------------------------------------------------------------------
    async def run(self, fn: Callable[..., T], *args: Any, batch: bool = False) -> T:
        """Run ``fn(*args)`` in a worker process (``batch``: in the analysis pool); the event loop
        goes on meanwhile."""
        if self.processes <= 0:
            return await asyncio.to_thread(fn, *args)
        result = await asyncio.wrap_future(self._submit(fn, *args, batch=batch))
        self.jobs += 1
        return result

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker process and wait (from a worker thread, never the event loop)."""
        if _on_event_loop():  # it would stop every table for the length of a solver search
            raise RuntimeError("Workers.call waits for a worker process: call it from a thread, not the event loop")
        if self.processes <= 0:
            return fn(*args)
        result = self._submit(fn, *args).result()
        self.jobs += 1
        return result


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class PoolRulings(Rulings):
    """A table's claim proofs and exposed-talon assessments, worked out in the worker pool."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    def prove_claim(self, deal: Deal, seat: int, tricks: int) -> bool:
        return self.workers.call(prove_job, deal, seat, tricks)

    def assess(self, deal: Deal) -> DealResult:
        return self.workers.call(assess_job, deal)


def prove_job(deal: Deal, seat: int, tricks: int) -> bool:
    return Rulings().prove_claim(deal, seat, tricks)


def assess_job(deal: Deal) -> DealResult:
    return Rulings().assess(deal)


def analyze_job(record: dict[str, Any], tables: bool) -> dict[str, Any]:
    """The analysis of a stored record (its JSON twin): the JSON form and the readable text."""
    from ..record import from_json
    from ..rulings.analysis import analyze

    result = analyze(from_json(record), contract_table=tables)
    return {"json": result.to_dict(), "text": result.text(all_cards=False)}
