"""The pages, the browser client's files and words, the card pictures and ``/healthz``."""

from __future__ import annotations

import asyncio
import collections
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
async def card_sprite() -> Response:
    """Every card as a ``<symbol>`` (the client draws cards from it)."""
    cache = {"Cache-Control": "public, max-age=86400"}
    return Response(card_sprite_svg(), media_type="image/svg+xml", headers=cache)


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
async def healthz(request: Request) -> JSONResponse:
    """200 when the database takes a write within the health timeout, else 503 with the reason."""
    hub: Hub = request.app.state.hub
    ok, why = await hub.health()
    recent = sorted(request.app.state.lags)
    body = {
        "ok": ok,
        "db": hub.storage.engine.dialect.name,
        "server": hub.server_id,
        "tables": len(hub.live),
        "connections": sum(len(live.clients) for live in hub.live.values()),
        "cpu_jobs": hub.workers.jobs,
        "loop_lag_ms": {
            "p50": round(recent[len(recent) // 2] * 1000, 1) if recent else 0.0,
            "p99": round(recent[int(len(recent) * 0.99)] * 1000, 1) if recent else 0.0,
            "max": round(recent[-1] * 1000, 1) if recent else 0.0,
        },
    }
    if not ok:
        body["error"] = why
    return JSONResponse(body, status_code=200 if ok else 503)


async def watch_loop(lags: collections.deque[float], every: float = 0.1) -> None:
    """Record how late the event loop wakes up (a stalled loop delays every table)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        lags.append(max(0.0, loop.time() - t - every))
