"""The pages, the browser client's files and words, the card pictures and ``/healthz``."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import itertools
import time
from collections.abc import Iterator
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ..errors import PreferansError
from ..i18n import LANGS, catalog_json
from .api import error
from .cardsvg import card_back_svg, card_sprite_svg, card_svg
from .hub import Hub

__all__ = ["STATIC", "router", "watch_loop"]

STATIC = Path(__file__).parent / "static"
router = APIRouter()


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/cards/sprite.svg", include_in_schema=False)
async def card_sprite(ranks: str = "en") -> Response:
    """Every card as a ``<symbol>`` (the client draws cards from it); ``?ranks=ru`` in the Russian
    rank letters Т К Д В."""
    cache = {"Cache-Control": "public, max-age=86400"}
    return Response(card_sprite_svg("ru" if ranks == "ru" else "en"), media_type="image/svg+xml", headers=cache)


@router.get("/api/i18n/{lang}")
async def catalog(lang: str) -> Response:
    """The words of the client in ``lang`` (the gettext catalog as JSON, :func:`preferans.i18n.catalog_json`)."""
    if lang not in LANGS:
        return error(404, "no_language", f"lang: choose {' or '.join(LANGS)}, not {lang[:8]!r}")
    return JSONResponse(catalog_json(lang), headers={"Cache-Control": "no-cache"})


@router.get("/cards/{name}.svg", include_in_schema=False)
async def card(name: str) -> Response:
    try:
        body = card_back_svg() if name == "back" else card_svg(name[:8])
    except PreferansError as e:
        return error(404, "no_card", str(e))
    return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


@router.get("/healthz")
async def healthz(request: Request, window: float | None = None) -> JSONResponse:
    """200 when the database takes a write within the health timeout, else 503 with the reason
    (answered at once: :meth:`Hub.health`; ``write_wait_ms`` says how long the heartbeat write
    on its way has waited, 0 when none is).

    Also how late the event loop woke up in the last minute (``loop_lag_ms``) and how long
    the garbage collector stopped it (``gc_ms``, with ``count`` collections); the sockets open
    now and those refused or closed for a slow head since the start (``sockets``); with
    ``?window=S`` (1–60 seconds), in the last S seconds, and how long the moves
    acknowledged then took from the frame's arrival to the ack (``ack_ms``)."""
    hub: Hub = request.app.state.hub
    ok, why = await hub.health()
    since = time.monotonic() - min(60.0, max(1.0, window or 60.0))
    lags = [lag for t, lag in request.app.state.lags if t >= since]
    pauses = [pause for t, pause in request.app.state.gc_pauses if t >= since]
    body = {
        "ok": ok,
        "db": hub.storage.engine.dialect.name,
        "server": hub.server_id,
        "tables": len(hub.live),
        "connections": sum(len(live.clients) for live in hub.live.values()),
        "cpu_jobs": hub.workers.jobs,
        "loop_lag_ms": percentiles(lags),
        "gc_ms": {**percentiles(pauses), "count": len(pauses)},
        "write_wait_ms": round(hub.health_write_wait() * 1000, 1),
    }
    gate = getattr(request.app.state, "sockets", None)
    if gate is not None:  # served by ``preferans serve`` (server/sockets.py)
        body["sockets"] = {"open": gate.open, "refused": gate.refused, "timed_out": gate.timed_out}
    if window is not None:  # the acks of the window (only when asked: a prober polls this often)
        acks = [dt for _, dt in itertools.takewhile(lambda a: a[0] >= since, reversed(hub.ack_times))]
        body["ack_ms"] = {**percentiles(acks), "count": len(acks)}
    if not ok:
        body["error"] = why
    return JSONResponse(body, status_code=200 if ok else 503)


def percentiles(seconds: list[float]) -> dict[str, float]:
    """p50, p99 and max in milliseconds (zeros for none).

    >>> percentiles([0.001 * k for k in range(1, 101)])
    {'p50': 51.0, 'p99': 100.0, 'max': 100.0}
    """
    if not seconds:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    v = sorted(seconds)
    return {"p50": round(v[len(v) // 2] * 1000, 1), "p99": round(v[int(len(v) * 0.99)] * 1000, 1),
            "max": round(v[-1] * 1000, 1)}  # fmt: skip


@contextlib.contextmanager
def watch_collector(pauses: collections.deque[tuple[float, float]]) -> Iterator[None]:
    """Record (when, how long) each garbage collection stopped the process while inside.

    >>> pauses = collections.deque()
    >>> with watch_collector(pauses):
    ...     _ = gc.collect()
    >>> len(pauses), pauses[0][1] >= 0
    (1, True)
    """
    started = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((time.monotonic(), time.perf_counter() - started[0]))

    gc.callbacks.append(timed)
    try:
        yield
    finally:
        gc.callbacks.remove(timed)


async def watch_loop(lags: collections.deque[tuple[float, float]], every: float = 0.1) -> None:
    """Record (when, how late) the event loop woke up (a stalled loop delays every table)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        lags.append((time.monotonic(), max(0.0, loop.time() - t - every)))
