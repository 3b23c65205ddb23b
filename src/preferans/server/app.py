"""The HTTP and WebSocket application (FastAPI on uvicorn).

Routes:

* ``GET /`` — the lobby page (create a table); ``GET /t/{id}`` — a table's page
  (the invitation link); ``/static/…`` — the browser client; ``GET /cards/{card}.svg``;
  ``GET /cards/sprite.svg`` — every card as a ``<symbol>`` (the client draws cards from it).
* ``GET /healthz`` — 200 when the database answers, 503 otherwise.
* ``GET /api/i18n/{lang}`` — the client's words (``en``, ``ru``): the gettext catalog as JSON.
* ``GET /api/presets`` — the rules presets and bot levels.
* ``POST /api/tables`` — create a table; the creator's seat token comes back
  as an HttpOnly cookie ``pref_{id}``.
* ``GET /api/tables/{id}`` — seats and status (no cards).
* ``POST /api/tables/{id}/seats/{seat}`` — take a free seat (sets the cookie).
* ``GET /api/tables/{id}/sheet.svg`` — the score sheet drawn as a pulka.
* ``GET /api/tables/{id}/record`` — the finished game's record (JSON download);
  ``?format=json`` for the JSON twin; ``GET /api/tables/{id}/analysis`` — the
  double-dummy analysis of every deal (:func:`preferans.rulings.analysis.analyze`; ``?format=text``).
* ``WS /ws/{id}`` — the game (see :mod:`preferans.server.hub`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..errors import PreferansError
from ..i18n import LANGS, catalog_json
from ..rules import Rules
from .cardsvg import card_back_svg, card_sprite_svg, card_svg
from .game import GameError, TableConfig, TableGame, bot_levels
from .hub import Hub, RateLimiter
from .records import record_of
from .sheetsvg import sheet_svg
from .storage import Storage

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
COOKIE_MAX_AGE = 60 * 60 * 24 * 90


def cookie_name(table_id: str) -> str:
    return f"pref_{table_id}"


def create_app(
    db: str | None = None,
    *,
    storage: Storage | None = None,
    bot_delay: float = 0.6,
    rate: float = 10.0,
    burst: float = 20.0,
    http_rate: float = 1.0,
    secure_cookies: bool = False,
    tune_gc: bool = False,
    bot_programs: Mapping[str, str] | None = None,
) -> FastAPI:
    """Build the application.  ``db`` is a SQLAlchemy URL (default: SQLite in the user's data dir).

    ``bot_programs`` maps level names to commands of bot programs (``docs/bot-protocol.md``)
    that tables may seat beside our own levels.
    """
    store = storage if storage is not None else Storage(db)
    hub = Hub(store, bot_delay=bot_delay, rate=rate, burst=burst, programs=bot_programs)
    http_limits: dict[str, RateLimiter] = {}
    lags: collections.deque[float] = collections.deque(maxlen=600)  # event-loop lag, last minute

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Tables in play come back after a restart; bots resume their turns.
        for table_id in store.table_ids("playing"):
            hub.game(table_id)
        if tune_gc:
            # Long-lived objects (tables, deals, connections) leave the collector's generations and
            # full collections become rare, so their pauses stay out of the action latency.  Nearly
            # all garbage here is acyclic and freed by reference counting anyway.
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 20, 100)
        watch = asyncio.create_task(_watch_loop(lags))
        yield
        watch.cancel()
        hub.shutdown()

    app = FastAPI(title="preferans", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.storage = store

    def limited(request: Request) -> bool:
        """Per-address limit on creating tables and taking seats (``http_rate`` a second, bursts of 20)."""
        if http_rate <= 0:
            return False
        host = request.client.host if request.client else "?"
        lim = http_limits.get(host)
        if lim is None:
            if len(http_limits) > 10000:
                http_limits.clear()
            lim = http_limits[host] = RateLimiter(rate=http_rate, burst=20.0)
        return not lim.allow()

    def error(status: int, code: str, message: str) -> JSONResponse:
        return JSONResponse({"error": code, "message": message}, status_code=status)

    def set_cookie(resp: Response, table_id: str, token: str) -> None:
        resp.set_cookie(cookie_name(table_id), token, max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="lax", secure=secure_cookies, path="/")  # fmt: skip

    # -- pages ---------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/cards/sprite.svg", include_in_schema=False)
    async def card_sprite() -> Response:
        cache = {"Cache-Control": "public, max-age=86400"}
        return Response(card_sprite_svg(), media_type="image/svg+xml", headers=cache)

    @app.get("/cards/{name}.svg", include_in_schema=False)
    async def card(name: str) -> Response:
        try:
            body = card_back_svg() if name == "back" else card_svg(name)
        except PreferansError as e:
            return error(404, "no_card", str(e))
        return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/api/i18n/{lang}")
    async def catalog(lang: str) -> Response:
        """The words of the client in ``lang`` (the gettext catalog as JSON, :func:`preferans.i18n.catalog_json`)."""
        if lang not in LANGS:
            return error(404, "no_language", f"lang: choose {' or '.join(LANGS)}, not {lang!r}")
        return JSONResponse(catalog_json(lang), headers={"Cache-Control": "no-cache"})

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        ok = await asyncio.to_thread(store.ping)
        recent = sorted(lags)
        body = {
            "ok": ok,
            "db": store.engine.dialect.name,
            "tables": len(hub.games),
            "connections": sum(len(c) for c in hub.clients.values()),
            "loop_lag_ms": {
                "p50": round(recent[len(recent) // 2] * 1000, 1) if recent else 0.0,
                "p99": round(recent[int(len(recent) * 0.99)] * 1000, 1) if recent else 0.0,
                "max": round(recent[-1] * 1000, 1) if recent else 0.0,
            },
        }
        return JSONResponse(body, status_code=200 if ok else 503)

    # -- tables ---------------------------------------------------------------------------------
    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": {name: Rules.preset(name).to_dict() for name in Rules.PRESET_NAMES},
            "bot_levels": bot_levels(hub.programs),
        }

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        if limited(request):
            return error(429, "rate_limited", "too many requests; slow down")
        try:
            body = await request.json()
        except ValueError:
            return error(400, "bad_json", "the body must be a JSON object")
        if not isinstance(body, dict):
            return error(400, "bad_json", "the body must be a JSON object")
        try:
            config, specs, seat = _table_request(body)
            game, token = TableGame.create(store, config, specs, str(body.get("name", "")), seat,
                                           programs=hub.programs)  # fmt: skip
        except PreferansError as e:
            return error(400, getattr(e, "code", "bad_table"), str(e))
        hub.add(game)
        hub.seated(game)
        resp = JSONResponse({"id": game.id, "url": f"/t/{game.id}", "seat": seat}, status_code=201)
        set_cookie(resp, game.id, token)
        return resp

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> Response:
        g = hub.game(table_id)
        if g is None:
            return error(404, "no_table", f"no table {table_id!r}")
        info = hub.table_info(g)
        info["you"] = g.seat_of(request.cookies.get(cookie_name(table_id)))
        return JSONResponse(info)

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, request: Request) -> Response:
        if limited(request):
            return error(429, "rate_limited", "too many requests; slow down")
        g = hub.game(table_id)
        if g is None:
            return error(404, "no_table", f"no table {table_id!r}")
        if g.seat_of(request.cookies.get(cookie_name(table_id))) is not None:
            return error(409, "already_seated", "you already have a seat at this table")
        try:
            body = await request.json()
        except ValueError:
            body = {}
        name = body.get("name", "") if isinstance(body, dict) else ""
        try:
            token = g.sit(seat, str(name))
        except GameError as e:
            return error(409, e.code, str(e))
        hub.seated(g)
        resp = JSONResponse({"seat": seat})
        set_cookie(resp, table_id, token)
        return resp

    @app.get("/api/tables/{table_id}/sheet.svg")
    async def sheet(table_id: str, lang: str = "en") -> Response:
        g = hub.game(table_id)
        if g is None:
            return error(404, "no_table", f"no table {table_id!r}")
        return Response(sheet_svg(g, lang), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, format: str = "text") -> Response:
        g = hub.game(table_id)
        if g is None:
            return error(404, "no_table", f"no table {table_id!r}")
        if not g.finished:
            return error(409, "not_finished", "the record is available when the game is over")
        stored = g.record or g.game_record()
        if format == "json":
            disposition = f'attachment; filename="preferans-{table_id}.json"'
            return JSONResponse(stored, headers={"Content-Disposition": disposition})
        from ..record import dumps

        text = dumps(record_of(stored))
        disposition = f'attachment; filename="preferans-{table_id}.prf"'
        return Response(text, media_type="text/plain; charset=utf-8", headers={"Content-Disposition": disposition})

    @app.get("/api/tables/{table_id}/analysis")
    async def analysis(table_id: str, tables: bool = False, format: str = "json") -> Response:
        g = hub.game(table_id)
        if g is None:
            return error(404, "no_table", f"no table {table_id!r}")
        if not g.finished:
            return error(409, "not_finished", "analysis is available when the game is over")
        from ..rulings.analysis import analyze

        rec = record_of(g.record or g.game_record())
        result = await asyncio.to_thread(analyze, rec, contract_table=tables)
        if format == "text":
            return Response(result.text(all_cards=False), media_type="text/plain; charset=utf-8")
        return JSONResponse(result.to_dict())

    # -- the game -----------------------------------------------------------------------------------
    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(code=4403)  # another site's page must not act with our cookie
            return
        await websocket.accept()
        g = hub.game(table_id)
        if g is None:
            await websocket.send_json({"type": "error", "code": "no_table", "message": f"no table {table_id!r}"})
            await websocket.close(code=4404)
            return
        seat = g.seat_of(websocket.cookies.get(cookie_name(table_id)))
        client = hub.connect(table_id, seat, websocket.send_text)
        pump = asyncio.create_task(client.pump())
        closers: set[asyncio.Task[None]] = set()

        def pump_done(_: object) -> None:
            # The pump stops when the client is dropped (too slow to read its frames): hang up.
            if client.closed:
                task = asyncio.ensure_future(_close_quietly(websocket, 1013))
                closers.add(task)
                task.add_done_callback(closers.discard)

        pump.add_done_callback(pump_done)
        hub.broadcast(g)  # the newcomer gets the state; the others see him online
        try:
            while not client.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    hub.reject(client, "bad_message", "send JSON in text frames, not binary ones")
                else:
                    hub.receive(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=1.0)
            pump.cancel()
        with contextlib.suppress(Exception):
            await websocket.close()

    app.state.started = time.time()
    return app


async def _close_quietly(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code)


def _same_origin(origin: str | None, host: str | None) -> bool:
    """A browser's WebSocket must come from a page of this server (scripts send no Origin).

    >>> _same_origin("http://h:8000", "h:8000"), _same_origin("https://evil.example", "h:8000")
    (True, False)
    >>> _same_origin(None, "h:8000")
    True
    """
    if origin is None:
        return True
    netloc = origin.split("://", 1)[-1].rstrip("/")
    return host is not None and netloc.lower() == host.lower()


async def _watch_loop(lags: collections.deque[float], every: float = 0.1) -> None:
    """Record how late the event loop wakes up (a stalled loop delays every table)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        lags.append(max(0.0, loop.time() - t - every))


def _table_request(body: dict[str, Any]) -> tuple[TableConfig, list[dict[str, Any]], int]:
    """Read a create-table request: preset, option changes, players, pool, seats, spectators."""
    preset = str(body.get("rules", "sochi"))
    rules = Rules.preset(preset)
    options = body.get("options", [])
    if isinstance(options, dict):
        options = [f"{k}={v}" for k, v in options.items()]
    if not isinstance(options, list) or len(options) > 100:
        raise GameError("bad_table", "options: a list of 'FIELD=VALUE' texts")
    changes: dict[str, str] = {}
    for o in options:
        key, sep, value = str(o).partition("=")
        if not sep:
            raise GameError("bad_table", f"options: expected FIELD=VALUE, got {o!r}")
        changes[key.strip()] = value.strip()
    if changes:
        rules = rules.replace(**changes)  # all at once: some fields only make sense together
    pool = body.get("pool")
    if pool not in (None, ""):
        try:
            pool_target = int(pool)
        except (TypeError, ValueError):
            raise GameError("bad_table", f"pool: a whole number of points, not {pool!r}") from None
        if not 1 <= pool_target <= 1000:
            raise GameError("bad_table", f"pool: 1..1000, not {pool_target}")
        rules = rules.replace(pool_target=pool_target)
    players = body.get("players", 3)
    if players not in (3, 4):
        raise GameError("bad_table", f"players: 3 or 4, not {players!r}")
    specs = body.get("seats")
    if specs is None:
        specs = [{"kind": "human"}] * players
    if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
        raise GameError("bad_table", "seats: a list of {kind: 'human'|'bot', level}")
    seat = body.get("seat", 0)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise GameError("bad_table", f"seat: a seat number, not {seat!r}")
    spectators = bool(body.get("spectators", True))
    return TableConfig(rules, players, spectators), list(specs), seat
