"""The score keeper of a real table in the browser: the ``/score`` pages and their API.

Pages (one HTML file, ``static/score.html``): ``GET /score`` a new sheet; ``GET /score/{id}``
the editor (the key comes as ``?key=`` once, or as the cookie ``score_{id}`` set when the sheet
was made); ``GET /score/{id}/view`` the read-only link for the other players.

API (no account needed; every word of an answer in ``?lang=``):

* ``POST /api/score`` — ``{"players": ["Аня", "Боря", "Вася"], "rules": "sochi", "pool": 20,
  "set": ["field=value", ...], "first_dealer": "Аня"}`` → ``{"id", "key", "edit", "view"}``.
* ``GET /api/score/{id}`` — the sheet (:func:`.scoresheets.sheet_state`); with ``?since=V``
  only ``{"version": V}`` while nothing changed (the view polls it).
* ``POST /api/score/{id}/check`` — ``{"text", "quota", "index"}``: what the line would write.
* ``POST /api/score/{id}/deals`` — ``{"text", "quota", "version"}``: add a deal.
* ``PUT`` / ``DELETE /api/score/{id}/deals/{n}`` — correct (``{"text", "quota", "version"}``) or
  take out (``{"version"}``) deal ``n`` (from 0); every later deal is written again.
* ``GET /api/score/{id}/sheet.svg?lang=&layout=phone|wide`` and ``/game.jsonl`` (the saved game,
  which ``preferans score`` reads).

A change names the version it was made on; a sheet that moved on meanwhile (another phone, or
this one's request whose answer was lost) answers 409 ``stale`` with the sheet as it is.  A line
the keeper cannot read answers 400 with its reason in the page's language; a lone whist without
tricks answers 409 ``confirm`` («за своими»?) until it is sent again with ``quota``.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from ..errors import ConfirmationNeeded, PreferansError, ScoreError
from ..i18n import LANGS, Msg, text
from ..rules import Rules
from ..scoring.scorekeeper import ScoreKeeper
from ..scoring.svg_sheet import Layout
from ..scoring.text_sheet import entry_text
from .api import COOKIE_MAX_AGE, _limited, error, json_object
from .hub import store_failure
from .scoresheets import MAX_DEALS, MAX_LINE, ScoreSheets, SheetRow, keeper_of, new_keeper, sheet_state
from .settings import MAX_OPTION, MAX_OPTIONS, MAX_POOL
from .site import STATIC

__all__ = ["router"]

router = APIRouter()
MAX_NAME = 24
_made = threading.Lock()


def _sheets(request: Request) -> ScoreSheets:
    """The sheets' store of this application (its table made on first use)."""
    state = request.app.state
    with _made:
        sheets: ScoreSheets | None = getattr(state, "score_sheets", None)
        if sheets is None:
            sheets = state.score_sheets = ScoreSheets(state.storage)
    return sheets


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def _cookie(sheet_id: str) -> str:
    return f"score_{sheet_id}"


def _key(request: Request, sheet_id: str) -> str | None:
    return request.headers.get("x-score-key") or request.cookies.get(_cookie(sheet_id))


def _page() -> FileResponse:
    return FileResponse(STATIC / "score.html", headers={"Cache-Control": "no-cache"})


@router.get("/score", include_in_schema=False)
async def new_sheet_page() -> FileResponse:
    return _page()


@router.get("/score/{sheet_id}", include_in_schema=False)
async def editor_page(sheet_id: str) -> FileResponse:
    return _page()


@router.get("/score/{sheet_id}/view", include_in_schema=False)
async def view_page(sheet_id: str) -> FileResponse:
    return _page()


def _said(e: BaseException, lang: str, status: int = 400, code: str = "bad_line") -> JSONResponse:
    """A keeper's error: its reason in the page's language (``message``) and in every language."""
    body: dict[str, Any] = {"error": code, "message": text(e, lang), "texts": {x: text(e, x) for x in LANGS}}
    return JSONResponse(body, status_code=status)


def _new_keeper(body: dict[str, Any]) -> ScoreKeeper:
    """The game a new sheet's form asks for; a bad field is a :class:`ScoreError` naming it."""
    players = body.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(isinstance(p, str) for p in players):
        raise ScoreError(Msg("players: give 2, 3 or 4 names"))
    names = [" ".join(p.split()) for p in players]
    for name in names:
        if not name or len(name) > MAX_NAME:
            raise ScoreError(Msg("players: a name of 1 to {max} letters, not «{name}»", max=MAX_NAME,
                                 name=name[:MAX_NAME + 8]))  # fmt: skip
    if len({n.casefold() for n in names}) != len(names):
        raise ScoreError(Msg("players: two players with the same name"))
    preset = body.get("rules", "sochi")
    if preset not in Rules.PRESET_NAMES:
        raise ScoreError(Msg("rules: choose {presets}", presets=", ".join(Rules.PRESET_NAMES)))
    rules = Rules.preset(str(preset))
    changes = body.get("set") or []
    if not isinstance(changes, list) or len(changes) > MAX_OPTIONS:
        raise ScoreError(Msg("set: a list of at most {n} options field=value", n=MAX_OPTIONS))
    for change in changes:
        if not isinstance(change, str) or len(change) > MAX_OPTION:
            raise ScoreError(Msg("set: a list of at most {n} options field=value", n=MAX_OPTIONS))
        rules = rules.set_from_text(change)
    pool = body.get("pool")
    if pool is not None:
        if not isinstance(pool, int) or isinstance(pool, bool) or not 1 <= pool <= MAX_POOL:
            raise ScoreError(Msg("pool: a whole number from 1 to {max}", max=MAX_POOL))
        rules = rules.replace(pool_target=pool)
    first = body.get("first_dealer") or names[0]
    if not isinstance(first, str):
        raise ScoreError(Msg("players: give 2, 3 or 4 names"))
    return ScoreKeeper(rules, names, first)


@router.post("/api/score")
async def create(request: Request, lang: str = "en") -> Response:
    lang = _lang(lang)
    if _limited(request):
        return error(429, "rate_limited", "too many requests; slow down")
    body = await json_object(request)
    if isinstance(body, Response):
        return body
    try:
        keeper = _new_keeper(body)
    except PreferansError as e:
        return _said(e, lang, code="bad_sheet")
    sheets = _sheets(request)
    try:
        sheet_id, key = await asyncio.to_thread(sheets.create, keeper.header())
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the sheet"))
    resp = JSONResponse({"id": sheet_id, "key": key, "edit": f"/score/{sheet_id}?key={key}",
                         "view": f"/score/{sheet_id}/view"}, status_code=201)  # fmt: skip
    resp.set_cookie(_cookie(sheet_id), key, max_age=COOKIE_MAX_AGE, httponly=True, samesite="lax",
                    secure=request.app.state.config.secure_cookies, path="/")  # fmt: skip
    return resp


async def _row(request: Request, sheet_id: str) -> SheetRow | Response:
    try:
        row = await asyncio.to_thread(_sheets(request).get, sheet_id)
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the sheet"))
    if row is None:
        return error(404, "no_sheet", f"no score sheet {sheet_id[:32]!r}")
    return row


async def _state(request: Request, row: SheetRow, lang: str, status: int = 200, **extra: Any) -> JSONResponse:
    can_edit = ScoreSheets.may_edit(row, _key(request, row.id))
    state = await asyncio.to_thread(sheet_state, row, lang, can_edit=can_edit)
    return JSONResponse({**state, **extra}, status_code=status, headers={"Cache-Control": "no-store"})


@router.get("/api/score/{sheet_id}")
async def read(sheet_id: str, request: Request, lang: str = "en", since: int | None = None) -> Response:
    if since is not None:  # the view's poll: the sheet only when it changed
        try:
            version = await asyncio.to_thread(_sheets(request).version, sheet_id)
        except SQLAlchemyError as e:
            return error(503, "db_unavailable", store_failure(e).replace("the move", "the sheet"))
        if version == since:
            return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})
    row = await _row(request, sheet_id)
    if isinstance(row, Response):
        return row
    return await _state(request, row, _lang(lang))


async def _line(request: Request) -> tuple[str, bool, int | None] | Response:
    """The typed line, «за своими» and the version it was typed on, from the body."""
    body = await json_object(request)
    if isinstance(body, Response):
        return body
    line, quota, version = body.get("text", ""), body.get("quota", False), body.get("version")
    if not isinstance(line, str) or not isinstance(quota, bool) or not (version is None or isinstance(version, int)):
        return error(400, "bad_json", "text: a string; quota: true or false; version: a number")
    return " ".join(line.split())[: MAX_LINE + 1], quota, version


def _added(row: SheetRow, line: str, quota: bool) -> None:
    _rewritten(row, list(row.lines)).enter(line, quota=quota)


def _rewritten(row: SheetRow, lines: list[tuple[str, bool]]) -> ScoreKeeper:
    """The sheet with these lines (each written again); the keeper's error names the deal."""
    keeper = new_keeper(row.header)
    keeper.replay(lines)
    return keeper


async def _change(request: Request, sheet_id: str, lang: str, n: int | None, how: str) -> Response:
    """Add (``n`` None), correct or take out a deal, if the editor's key and version allow."""
    lang = _lang(lang)
    row = await _row(request, sheet_id)
    if isinstance(row, Response):
        return row
    if not ScoreSheets.may_edit(row, _key(request, sheet_id)):
        return error(403, "not_editor", "only the editor's link may change this sheet (this one is to read)")
    got = await _line(request)
    if isinstance(got, Response):
        return got
    line, quota, version = got
    if how != "delete":
        if not line:
            return _said(ScoreError(Msg("line: write the deal, e.g. «{example}»",
                                        example=f"{row.header['players'][0]} 6♠ пас пас")), lang)  # fmt: skip
        if len(line) > MAX_LINE:
            return _said(ScoreError(Msg("line: at most {n} characters", n=MAX_LINE)), lang)
    if version is not None and version != row.version:
        return await _state(request, row, lang, 409, error="stale")
    lines = list(row.lines)
    if n is not None and not 0 <= n < len(lines):
        return _said(ScoreError(Msg("deal {number}: there is no such deal ({count} written)", number=n + 1,
                                    count=len(lines))), lang, 404, "no_deal")  # fmt: skip
    if how == "add":
        if len(lines) >= MAX_DEALS:
            return _said(ScoreError(Msg("a sheet holds at most {n} deals", n=MAX_DEALS)), lang)
        lines.append((line, quota))
    elif how == "edit" and n is not None:
        lines[n] = (line, quota)
    elif n is not None:
        del lines[n]
    try:  # a new deal is read after the others (its mistake said as such); a correction rewrites them all
        await asyncio.to_thread(_added, row, line, quota) if how == "add" else await asyncio.to_thread(
            _rewritten, row, lines)
    except ConfirmationNeeded as e:
        return _said(e, lang, 409, "confirm")
    except PreferansError as e:
        return _said(e, lang)
    try:
        done = await asyncio.to_thread(_sheets(request).put, sheet_id, lines, row.version)
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the sheet"))
    fresh = await _row(request, sheet_id)
    if isinstance(fresh, Response):
        return fresh
    return await _state(request, fresh, lang, 200 if done else 409, **({} if done else {"error": "stale"}))


@router.post("/api/score/{sheet_id}/deals")
async def add_deal(sheet_id: str, request: Request, lang: str = "en") -> Response:
    return await _change(request, sheet_id, lang, None, "add")


@router.put("/api/score/{sheet_id}/deals/{n}")
async def edit_deal(sheet_id: str, n: int, request: Request, lang: str = "en") -> Response:
    return await _change(request, sheet_id, lang, n, "edit")


@router.delete("/api/score/{sheet_id}/deals/{n}")
async def delete_deal(sheet_id: str, n: int, request: Request, lang: str = "en") -> Response:
    return await _change(request, sheet_id, lang, n, "delete")


@router.post("/api/score/{sheet_id}/check")
async def check(sheet_id: str, request: Request, lang: str = "en") -> Response:
    """What a line would write as the next deal (or as deal ``index``), without writing it."""
    lang = _lang(lang)
    row = await _row(request, sheet_id)
    if isinstance(row, Response):
        return row
    got = await _line(request)
    if isinstance(got, Response):
        return got
    line, quota, _ = got

    def preview() -> dict[str, Any]:
        keeper = _rewritten(row, list(row.lines))
        score = keeper.check(line, quota=quota)
        return {"label": text(score.label, lang),
                "written": " · ".join(entry_text(e, keeper.names, lang) for e in score.entries) or "—"}

    try:
        return JSONResponse(await asyncio.to_thread(preview))
    except ConfirmationNeeded as e:
        return _said(e, lang, 409, "confirm")
    except PreferansError as e:
        return _said(e, lang)


@router.get("/api/score/{sheet_id}/sheet.svg")
async def sheet_picture(sheet_id: str, request: Request, lang: str = "en", layout: str = "phone") -> Response:
    row = await _row(request, sheet_id)
    if isinstance(row, Response):
        return row
    shape: Layout = "wide" if layout == "wide" else "phone"
    body = await asyncio.to_thread(lambda: keeper_of(row).pulka.svg(_lang(lang), shape))
    return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@router.get("/api/score/{sheet_id}/game.jsonl")
async def saved_game(sheet_id: str, request: Request) -> Response:
    """The game as ``preferans score`` saves and reads it (a header, then one JSON line per deal)."""
    row = await _row(request, sheet_id)
    if isinstance(row, Response):
        return row
    body = "\n".join(await asyncio.to_thread(lambda: keeper_of(row).lines())) + "\n"
    return Response(body, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="pulka-{row.id}.jsonl"'})  # fmt: skip
