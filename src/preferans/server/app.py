"""The HTTP and WebSocket application (FastAPI on uvicorn).

Routes (each group in its own module):

* :mod:`.site` — ``GET /`` the lobby page; ``GET /t/{id}`` a table's page (the
  invitation link); ``/static/…`` the browser client; ``GET /cards/{card}.svg`` and
  ``/cards/sprite.svg``; ``GET /api/i18n/{lang}`` the client's words; ``GET /healthz``
  (200 when the database takes a write, 503 otherwise).
* :mod:`.api` — ``GET /api/presets``; ``POST /api/tables`` (create; the creator's
  seat token comes back as an HttpOnly cookie ``pref_{id}``); ``GET /api/tables/{id}``;
  ``POST /api/tables/{id}/seats/{seat}``; ``GET /api/tables/{id}/sheet.svg``;
  ``GET /api/tables/{id}/record`` and ``/analysis`` of a finished game.
* :mod:`.play` — ``WS /ws/{id}``, the game (see :mod:`preferans.server.hub`).
* :mod:`.club_api` — the club: accounts, profiles ``/u/{name}`` and their history, ratings,
  the lobby's open tables, duplicate matches (docs/club.md).

Every request first passes :mod:`.guard` (allowed hosts, same origin, body size,
security headers).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import gc
import os
import socket
import sys
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from . import api, club_api, play, site
from .api import AddressLimits, error
from .club import Club
from .guard import Guard
from .hub import Hub, Owners
from .settings import ServerConfig
from .storage import Storage
from .work import Workers

__all__ = ["GC_THRESHOLDS", "create_app"]

GC_THRESHOLDS = (2_000, 2, 1_000)  # gc.set_threshold of ``preferans serve`` (young, middle, full): see below


def create_app(
    db: str | None = None,
    *,
    storage: Storage | None = None,
    config: ServerConfig | None = None,
    owners: Owners | None = None,
    bot_programs: Mapping[str, str] | None = None,
    claim: bool = True,
    tune_gc: bool = False,
    **settings: Any,
) -> FastAPI:
    """Build the application.  ``db`` is a SQLAlchemy URL (default: SQLite in the user's data dir);
    ``settings`` are :class:`~preferans.server.settings.ServerConfig` fields (``bot_delay=0`` …).

    ``bot_programs`` maps level names to commands of bot programs (``docs/bot-protocol.md``)
    that tables may seat beside our own levels.  Unless ``claim`` is false (the caller
    claimed it), the application claims its database while it runs (:mod:`.owner`): a
    second server on it refuses to start.
    """
    cfg = dataclasses.replace(config or ServerConfig(), **settings)
    store = storage if storage is not None else Storage(db)
    workers = Workers(cfg.workers, table_rate=cfg.table_cpu_rate, table_burst=cfg.table_cpu_burst,
                      address_rate=cfg.cpu_rate, address_burst=cfg.cpu_burst)  # fmt: skip
    hub = Hub(store, cfg, workers=workers, owners=owners, programs=bot_programs)
    lags: collections.deque[tuple[float, float]] = collections.deque(maxlen=600)  # event-loop lag, last minute
    gc_pauses: collections.deque[tuple[float, float]] = collections.deque(maxlen=10_000)  # collector pauses

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from .owner import claim_database

        held = claim_database(store) if claim else None
        with contextlib.suppress(Exception):
            await hub.db(store.register_server, hub.server_id, socket.gethostname(), os.getpid(), cfg.advertise)
        if tune_gc:
            # What the server holds at start (modules, the app) leaves the collector's generations.
            gc.collect()
            gc.freeze()
            # Small young generations, so that no collection stops the loop for long: a collection's
            # pause grows with the young objects it walks (about 3 µs each here: deals' undo states,
            # connections' pending reads), and the old 50,000 gave pauses of 80–150 ms, each one
            # delaying every ack in flight (issue 15: it was the storm's p99).  Now a young
            # collection takes a few ms and a middle one 10–30 ms; a full one (about 0.3 s with 500
            # tables and 1,500 connections) comes after 1,000 middle ones, some 15 minutes under
            # that load.  (``benchmarks/server_load.py`` prints the pauses: /healthz ``gc_ms``.)
            gc.set_threshold(*GC_THRESHOLDS)
            # A database thread back from SQLite waits for the event loop to let go of the GIL: at
            # most the switch interval (5 ms by default), several times per move.  1 ms keeps the
            # moves' trips through their threads short while the loop is busy.
            sys.setswitchinterval(0.001)
        await hub.owners.start(hub)
        app.state.peer_secret = hub.owners.secret
        proxy = None
        if hub.owners.secret:  # a cluster: requests for another process's tables are passed on to it
            from .cluster import Proxy

            proxy = Proxy(connections=cfg.proxy_connections, timeout=cfg.proxy_timeout,
                          websockets=cfg.proxy_websockets)  # fmt: skip
            app.state.forward, app.state.forward_ws = proxy.http, proxy.ws
            gate = getattr(app.state, "sockets", None)
            if gate is not None:  # the other processes carry many players' sockets: no per-address cap
                gate.exempt = getattr(hub.owners, "peer_addresses", set())
        background = [asyncio.create_task(site.watch_loop(lags)), asyncio.create_task(hub.run())]
        if cfg.warm_workers:
            background.append(asyncio.create_task(asyncio.to_thread(hub.workers.warm)))
        try:
            with site.watch_collector(gc_pauses):
                yield
        finally:
            # Whatever is pending (worker jobs, gathered pushes, bot turns, database calls), the server
            # stops within a few seconds: each step below is bounded.
            for task in background:
                task.cancel()
            await asyncio.wait(background, timeout=cfg.stop_timeout)
            await hub.aclose(cfg.stop_timeout)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(hub.owners.stop(), timeout=cfg.stop_timeout)
            if proxy is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(proxy.aclose(), timeout=cfg.stop_timeout)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.to_thread(store.unregister_server, hub.server_id),
                                       timeout=cfg.stop_timeout)  # fmt: skip
            if held is not None:
                held.release()

    app = FastAPI(title="preferans", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.storage = store
    app.state.config = cfg
    app.state.lags = lags
    app.state.gc_pauses = gc_pauses
    app.state.http_limits = AddressLimits(cfg.http_rate, cfg.http_burst)

    app.state.peer_secret = ""
    app.state.forward = _not_here
    app.state.forward_ws = _not_here_ws
    app.state.started = time.time()
    app.include_router(site.router)
    app.include_router(api.router)
    app.include_router(play.router)
    club_api.install(app, Club(store, cfg))  # accounts, history, ratings, the lobby, matches (docs/club.md)
    app.mount("/static", StaticFiles(directory=site.STATIC), name="static")
    app.add_middleware(Guard, allowed_hosts=cfg.allowed_hosts, allowed_origins=cfg.allowed_origins,
                       body_timeout=cfg.body_timeout,
                       connect_limited=AddressLimits(cfg.connect_rate, cfg.connect_burst).limited)  # fmt: skip
    return app


async def _not_here(request: Request, url: str) -> Response:
    return error(503, "elsewhere", f"this table is played at {url}")


async def _not_here_ws(websocket: WebSocket, url: str) -> None:
    await websocket.close(code=1013)
