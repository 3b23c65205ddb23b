"""The club's routes: accounts, profiles and their history, ratings, the lobby's open tables,
duplicate matches — the JSON API and the pages (docs/club.md lists them).

Every refusal is ``{"error": code, "message": English, "texts": {"en": …, "ru": …}}``
with the HTTP status saying its kind; bodies are limited by the guard (16 KiB, 413
``too_big`` before a byte is parsed) and every field by its own limit.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from ..errors import AccountError, PreferansError
from ..i18n import LANGS, Msg, Translator, text
from .accounts import SESSION_COOKIE, SESSION_MAX_AGE
from .api import COOKIE_MAX_AGE, cookie_name, error, table_request
from .club import Club, account_of, club_of
from .club_storage import Account
from .game import clean_name
from .guard import client_address
from .hub import Hub, store_failure
from .matches import comparison, match_tables
from .ratings import PROVISIONAL, pool_name, rating_svg, shown
from .site import page

__all__ = ["router"]

router = APIRouter()
PAGE_SIZE = 20
_compared: dict[str, tuple[float, dict[str, Any]]] = {}  # match id → (when, comparison): polled pages share it


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def refuse(status: int, code: str, message: Msg) -> JSONResponse:
    """A refusal with its reason in every language."""
    texts = {lang: text(message, lang) for lang in LANGS}
    return JSONResponse({"error": code, "message": str(message), "texts": texts}, status_code=status)


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    raw = await request.body()  # at most MAX_BODY bytes: the guard refused longer ones unread
    try:
        body = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        return refuse(400, "bad_json", Msg("the body must be a JSON object"))
    if not isinstance(body, dict):
        return refuse(400, "bad_json", Msg("the body must be a JSON object"))
    return body


def _session_response(request: Request, account: Account, cookie: str, status: int = 200) -> JSONResponse:
    resp = JSONResponse({"account": {"id": account.id, "name": account.name}}, status_code=status)
    resp.set_cookie(SESSION_COOKIE, cookie, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax",
                    secure=request.app.state.config.secure_cookies, path="/")  # fmt: skip
    return resp


# -- pages ------------------------------------------------------------------------------------------
@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return page("account.html")


@router.get("/u/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return page("profile.html")


@router.get("/ratings", include_in_schema=False)
async def ratings_page() -> FileResponse:
    return page("ratings.html")


@router.get("/match", include_in_schema=False)
async def new_match_page() -> FileResponse:
    return page("match.html")


@router.get("/match/{match_id}", include_in_schema=False)
async def match_page(match_id: str) -> FileResponse:
    return page("match.html")


# -- accounts -----------------------------------------------------------------------------------------
@router.get("/api/me")
async def me(request: Request) -> Response:
    account = await account_of(request)
    return JSONResponse({"account": None if account is None else {"id": account.id, "name": account.name}},
                        headers={"Cache-Control": "no-store"})  # fmt: skip


async def _sign(request: Request, register: bool) -> Response:
    club = club_of(request)
    try:
        club.accounts.attempts.address(client_address(request))
    except AccountError as e:
        return refuse(e.status, e.code, e.msg)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    call = club.accounts.register if register else club.accounts.sign_in
    try:
        account, cookie = await _hub(request).db(call, body.get("name"), body.get("password"))
    except AccountError as e:
        return refuse(e.status, e.code, e.msg)
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the account"))
    return _session_response(request, account, cookie, 201 if register else 200)


@router.post("/api/account/register")
async def register(request: Request) -> Response:
    """``{"name", "password"}`` → 201 and the session cookie; 409 ``name_taken`` (whatever the case)."""
    return await _sign(request, register=True)


@router.post("/api/account/signin")
async def sign_in(request: Request) -> Response:
    """``{"name", "password"}`` → 200 and the session cookie; 401 ``wrong_password``; 429 when limited."""
    return await _sign(request, register=False)


@router.post("/api/account/signout")
async def sign_out(request: Request) -> Response:
    await _hub(request).db(club_of(request).accounts.sign_out, request.cookies.get(SESSION_COOKIE))
    resp = JSONResponse({"account": None})
    resp.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                       secure=request.app.state.config.secure_cookies)  # fmt: skip
    return resp


# -- profiles, history, ratings -------------------------------------------------------------------------
def _rating(row: Any, t: Translator) -> dict[str, Any]:
    return {"pool": row.pool, "pool_name": pool_name(row.pool, t), "rating": shown(row.mu),
            "mu": round(row.mu, 3), "sigma": round(row.sigma, 3), "games": row.games,
            "provisional": row.games < PROVISIONAL}  # fmt: skip


@router.get("/api/users/{name}")
async def profile(name: str, request: Request, offset: int = 0, limit: int = PAGE_SIZE, lang: str = "en") -> Response:
    """A player's public profile: ratings per pool and finished pulkas, newest first (paged)."""
    club, hub = club_of(request), _hub(request)
    account = await hub.db(club.store.account_named, name[:64])
    if account is None:
        return refuse(404, "no_player", Msg("no player named «{name}»", name=name[:32]))
    offset, limit = max(0, offset), min(max(1, limit), 50)
    t = Translator(_lang(lang))
    ratings = await hub.db(club.store.ratings_of, account.identity)
    entries, total = await hub.db(club.store.history, account.id, offset, limit)
    return JSONResponse({
        "name": account.name, "ratings": [_rating(r, t) for r in ratings], "total": total, "offset": offset,
        "limit": limit,
        "history": [{"table": e.table_id, "seat": e.seat, "finished": e.finished, "result": e.result,
                     "whole": e.seats[e.seat].get("whole") if e.seat < len(e.seats) else None,
                     "rules": e.rules, "players": e.players, "pool": e.pool, "deals": e.deals, "ending": e.ending,
                     "rated": e.rated, "seats": [{k: s.get(k) for k in SEAT_FIELDS} for s in e.seats]}
                    for e in entries],
    })  # fmt: skip


SEAT_FIELDS = ("name", "kind", "level", "profile", "result", "whole")
"""What a profile shows of each seat of a kept pulka (``whole``: its result in whole whists)."""


@router.get("/api/users/{name}/rating.svg")
async def rating_chart(name: str, request: Request, pool: str = "", lang: str = "en") -> Response:
    """The player's rating in ``pool`` over his rated pulkas, drawn by the server."""
    club, hub = club_of(request), _hub(request)
    account = await hub.db(club.store.account_named, name[:64])
    if account is None:
        return refuse(404, "no_player", Msg("no player named «{name}»", name=name[:32]))
    points = (await hub.db(club.store.rating_points, account.identity)).get(pool[:32], [])
    t = Translator(_lang(lang))
    title = f"{account.name} — {pool_name(pool, t)}" if pool else account.name
    return Response(rating_svg(points, _lang(lang), title), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-cache"})  # fmt: skip


@router.get("/api/ratings")
async def leaderboard(request: Request, pool: str = "", lang: str = "en") -> Response:
    """The rated players and bots of a pool, best first (every pool when none is named)."""
    club, hub = club_of(request), _hub(request)
    t = Translator(_lang(lang))
    rows = await hub.db(club.store.leaderboard, pool[:32] or None)
    pools = await hub.db(club.store.rating_pools)
    return JSONResponse({"pool": pool, "pools": [{"pool": p, "name": pool_name(p, t)} for p in pools],
                         "players": [{**_rating(r, t), "name": r.name, "bot": r.identity.startswith("bot:"),
                                      "level": r.identity[4:] if r.identity.startswith("bot:") else None}
                                     for r in rows]})  # fmt: skip


async def _game(request: Request, table_id: str) -> dict[str, Any] | Response:
    """A finished pulka the club keeps, if this visitor may see it (at a table without spectators:
    only the accounts that played it)."""
    club, hub = club_of(request), _hub(request)
    game = await hub.db(club.store.finished, table_id[:32])
    if game is None:
        return refuse(404, "no_game", Msg("no finished game «{id}» in the club's history", id=table_id[:32]))
    if not game["spectators"]:
        account = await account_of(request)
        if account is None or account.id not in {s.get("account") for s in game["seats"]}:
            return refuse(403, "players_only", Msg("this game was played without spectators: it is for its players"))
    return game


@router.get("/api/club/games/{table_id}")
async def club_game(table_id: str, request: Request) -> Response:
    game = await _game(request, table_id)
    if isinstance(game, Response):
        return game
    return JSONResponse({k: v for k, v in game.items() if k != "record"})


@router.get("/api/club/games/{table_id}/record")
async def club_record(table_id: str, request: Request, format: str = "text") -> Response:
    """The club's own copy of the record (it outlives the table's live state)."""
    game = await _game(request, table_id)
    if isinstance(game, Response):
        return game
    if format == "json":
        disposition = f'attachment; filename="preferans-{table_id}.json"'
        return JSONResponse(game["record"], headers={"Content-Disposition": disposition})
    from ..record import dumps
    from .records import record_of

    return Response(dumps(record_of(game["record"])), media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="preferans-{table_id}.prf"'})  # fmt: skip


@router.get("/api/club/games/{table_id}/sheet.svg")
async def club_sheet(table_id: str, request: Request, lang: str = "en") -> Response:
    """The final sheet of a kept pulka, replayed from the club's copy of its record."""
    game = await _game(request, table_id)
    if isinstance(game, Response):
        return game
    from ..record import replay
    from .records import record_of

    done = await _hub(request).db(replay, record_of(game["record"]))
    if done.pulka is None:
        return refuse(404, "no_sheet", Msg("this record has no sheet"))
    return Response(done.pulka.svg(_lang(lang)), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


# -- the lobby ------------------------------------------------------------------------------------------------
@router.get("/api/open-tables")
async def open_tables(request: Request) -> Response:
    """Public tables waiting for players, newest first (at most 50): rules, pool, seats and who sits."""
    club = club_of(request)
    rows = await _hub(request).db(club.store.open_tables)
    return JSONResponse({"tables": rows}, headers={"Cache-Control": "no-store"})


# -- duplicate matches -------------------------------------------------------------------------------------
@router.post("/api/matches")
async def create_match(request: Request) -> Response:
    """``{"rules", "pool", "options", "players", "spectators", "private", "name", "tables": [[seat…]…]}``:
    2–4 tables dealt the same cards; you take seat 1 at the first.  201 ``{"id", "url", "tables"}``."""
    limits = request.app.state.http_limits
    if limits.limited(client_address(request)):
        return error(429, "rate_limited", "too many requests; slow down")
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    club, hub = club_of(request), _hub(request)
    account = await account_of(request)
    private = body.get("private", False)
    if not isinstance(private, bool):
        return error(400, "bad_match", "private: true or false")
    try:
        config, _, _ = table_request({k: v for k, v in body.items() if k not in ("seats", "seat")})
        specs = match_tables(body, config.players)
        # Signed in, you sit as yourself; a guest's name is refused, never cut (issue 25).
        name = account.name if account is not None else clean_name(body.get("name"), "", "name")
    except PreferansError as e:
        return error(400, getattr(e, "code", "bad_match"), str(e))
    match_id = secrets.token_urlsafe(8)
    config = dataclasses.replace(config, deal_seed=secrets.randbelow(2**31))
    summary = {"rules": config.rules.name, "players": config.players, "pool": config.rules.pool_target,
               "tables": len(specs), "creator": name}  # fmt: skip
    try:
        await hub.db(club.store.create_match, match_id, summary)
        ids, token = [], ""
        for number, seats in enumerate(specs, 1):
            first = number == 1
            live, made = await hub.create(config, seats, name, 0 if first else None,
                                          None if account is None or not first else account.id,
                                          club.registrar(private, (match_id, number)))  # fmt: skip
            ids.append(live.id)
            token = made if first else token
    except PreferansError as e:
        return error(400, getattr(e, "code", "bad_match"), str(e))
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the match"))
    resp = JSONResponse({"id": match_id, "url": f"/match/{match_id}", "tables": [f"/t/{t}" for t in ids]},
                        status_code=201)  # fmt: skip
    resp.set_cookie(cookie_name(ids[0]), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="lax",
                    secure=request.app.state.config.secure_cookies, path="/")  # fmt: skip
    return resp


@router.get("/api/matches/{match_id}")
async def match(match_id: str, request: Request) -> Response:
    """The match's tables and its comparison deal by deal (:func:`.matches.comparison`); worked out
    at most once a second per match, however many pages poll it."""
    club, hub = club_of(request), _hub(request)
    cached = _compared.get(match_id)
    if cached is not None and time.monotonic() - cached[0] < 1.0:
        return JSONResponse(cached[1], headers={"Cache-Control": "no-store"})
    found = await hub.db(club.store.match, match_id[:32])
    if found is None:
        return refuse(404, "no_match", Msg("no duplicate match «{id}»", id=match_id[:32]))
    config, tables = found
    body = {"id": match_id, **await hub.slow(comparison, hub.storage, config, tables)}
    _compared[match_id] = (time.monotonic(), body)
    while len(_compared) > 256:
        _compared.pop(next(iter(_compared)))
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def install(app: Any, club: Club) -> None:
    """Give the application its club (the hub's hooks) and the club's routes."""
    app.state.club = club
    app.state.hub.club = club
    app.include_router(router)
