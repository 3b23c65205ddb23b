"""The HTTP API of tables: presets, creating a table, its seats, sheet, record and analysis.

Every body is at most :data:`.settings.MAX_BODY` bytes (checked by :mod:`.guard`
before it is read), JSON nested too deep is a 400, every field is checked
(names, options through :class:`~preferans.rules.Rules`), and nothing waits on
the event loop: storage runs in threads and the analysis in the worker pool.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from ..errors import PreferansError, TableError
from ..i18n import LANGS, Translator, text
from ..option_words import GROUPS, WORDS
from ..rules import CHOICES, Rules
from .archive import ArchivedTable
from .buckets import Buckets
from .club import account_of
from .club_storage import Account
from .game import GameError, TableConfig, bot_levels, hash_token
from .guard import PEER_HEADER, client_address
from .hub import Elsewhere, Hub, LiveTable, store_failure
from .records import record_of
from .settings import MAX_OPTION, MAX_OPTIONS, MAX_POOL
from .sheetsvg import sheet_svg
from .work import Busy

__all__ = ["AddressLimits", "cookie_name", "error", "json_object", "router", "table_request"]

router = APIRouter()
COOKIE_MAX_AGE = 60 * 60 * 24 * 90


def cookie_name(table_id: str) -> str:
    return f"pref_{table_id}"


def error(status: int, code: str, message: str, cause: BaseException | None = None) -> JSONResponse:
    """An error answer; with the ``cause`` whose reason is a message (:class:`~preferans.i18n.Msg`),
    ``texts`` has it in every language (a bad rule option named in the player's words)."""
    body: dict[str, Any] = {"error": code, "message": message}
    reason = getattr(cause, "reason", None) or (cause.args[0] if cause is not None and cause.args else None)
    if callable(getattr(reason, "tr", None)):
        body["texts"] = {lang: text(reason, lang) for lang in LANGS}
    return JSONResponse(body, status_code=status)


class AddressLimits:
    """Per-address limit on creating tables and taking seats (``rate`` a second, bursts of ``burst``),
    in bounded memory (:class:`.buckets.Buckets`)."""

    def __init__(self, rate: float, burst: float = 20.0) -> None:
        self.rate, self.burst = rate, burst
        self._buckets = Buckets(rate, burst)

    def limited(self, address: str) -> bool:
        return not self._buckets.take(address)


def _id(account: Account | None) -> int | None:
    return None if account is None else account.id


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _set_cookie(request: Request, resp: Response, table_id: str, token: str) -> None:
    resp.set_cookie(cookie_name(table_id), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="lax",
                    secure=request.app.state.config.secure_cookies, path="/")  # fmt: skip


async def _json_body(request: Request) -> Any:
    """The body as JSON; ``ValueError`` for anything else (too deep included)."""
    raw = await request.body()  # at most MAX_BODY bytes: the guard refused longer ones unread
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


async def json_object(request: Request) -> dict[str, Any] | JSONResponse:
    """The body as a JSON object, or the 400 answer to send instead."""
    try:
        body = await _json_body(request)
    except ValueError as e:
        return error(400, "bad_json", f"the body must be a JSON object ({e})")
    if not isinstance(body, dict):
        return error(400, "bad_json", "the body must be a JSON object")
    return body


async def _live(request: Request, table_id: str) -> LiveTable | Response:
    """The table, or the response to send instead (404, 503, or the owner's answer in a cluster)."""
    try:
        live = await _hub(request).table(table_id)
    except Elsewhere as e:
        response: Response = await request.app.state.forward(request, e.url)
        return response
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the table"))
    if live is None:
        return await _gone(request, table_id)
    return live


async def _gone(request: Request, table_id: str) -> Response:
    """No table in play: 410 ``archived`` with what stays of an archived one (``server/archive.py``),
    else 404 ``no_table``."""
    hub = _hub(request)
    try:
        archived = await hub.db(hub.archive.get, table_id[:32])
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the table"))
    if archived is None:
        return error(404, "no_table", f"no table {table_id[:32]!r}")
    body = {"error": "archived", "message": f"table {table_id!r}: this game is archived (its record and sheet stay)",
            **archived.to_dict()}  # fmt: skip
    return JSONResponse(body, status_code=410)


async def _archived(request: Request, table_id: str, what: str) -> ArchivedTable | Response:
    """An archived table whose ``what`` this visitor may see (its players only, when spectators are off)."""
    hub = _hub(request)
    try:
        archived = await hub.db(hub.archive.get, table_id)
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the table"))
    if archived is None:  # archived a moment ago, and then? say so rather than guess
        return error(404, "no_table", f"no table {table_id[:32]!r}")
    token = request.cookies.get(cookie_name(table_id))
    if not archived.spectators and not (token and hash_token(token) in archived.members):
        return error(403, "players_only", f"this table does not allow spectators: the {what} is for its players")
    return archived


def _limited(request: Request) -> bool:
    limits: AddressLimits = request.app.state.http_limits
    return limits.limited(client_address(request))


@router.get("/api/presets")
async def presets(request: Request) -> dict[str, Any]:
    """The presets' values, the bot levels, and the options form: every option with its group, kind
    and words (English message ids: the client shows them through the catalog)."""
    return {
        "presets": {name: Rules.preset(name).to_dict() for name in Rules.PRESET_NAMES},
        "bot_levels": bot_levels(_hub(request).programs),
        "groups": [list(g) for g in GROUPS],
        "options": option_fields(),
    }


FORM_LEFT_OUT = frozenset(("name", "pool_target"))
"""Options the create form does not list among the rule options: the preset's label, and the
pool, which has a field of its own."""


def option_fields() -> list[dict[str, Any]]:
    """Every option the create form offers: ``field``, ``group``, ``kind`` (``bool``, ``choice``,
    ``int``, ``fraction`` or ``levels``), ``name``, ``help`` and, for a choice, ``choices``
    (``[value, label]``), in the order of :class:`~preferans.rules.Rules`."""
    defaults = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        words = WORDS.get(f.name)
        if f.name in FORM_LEFT_OUT or words is None:
            continue
        value = getattr(defaults, f.name)
        if f.name in CHOICES:
            kind = "choice"
        elif isinstance(value, bool):
            kind = "bool"
        elif isinstance(value, int):
            kind = "int"
        elif isinstance(value, tuple | frozenset):
            kind = "levels"
        else:
            kind = "fraction"
        item: dict[str, Any] = {"field": f.name, "group": words.group, "kind": kind, "name": words.name,
                                "help": words.help}  # fmt: skip
        if kind == "choice":
            item["choices"] = [[c, words.choices.get(c, c)] for c in CHOICES[f.name]]
        out.append(item)
    return out


@router.get("/api/lobby")
async def lobby(request: Request, ids: str = "") -> Response:
    """Status, seats taken and who is online at up to 50 tables (``?ids=a,b,c``), from what this
    process heard from each table's owner (in a cluster, by LISTEN/NOTIFY)."""
    wanted = [t for t in ids.split(",") if t][:50]
    return JSONResponse({"tables": await _hub(request).lobby_entries(wanted)})


@router.get("/api/cluster/tables", include_in_schema=False)
async def cluster_tables(request: Request) -> Response:
    """The tables this process plays now — for the other processes of its cluster only."""
    secret = request.app.state.peer_secret
    if not secret or not secrets.compare_digest(request.headers.get(PEER_HEADER, ""), secret):
        return error(403, "peers_only", "for the processes of this server's cluster")
    hub = _hub(request)
    return JSONResponse({"server": hub.server_id, "tables": sorted(hub.live)})


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    if _limited(request):
        return error(429, "rate_limited", "too many requests; slow down")
    body = await json_object(request)
    if isinstance(body, Response):
        return body
    account = await account_of(request)
    private = body.get("private", False)
    if not isinstance(private, bool):
        return error(400, "bad_table", "private: true (not listed in the lobby; the link still works) or false")
    club = getattr(request.app.state, "club", None)
    try:
        config, specs, seat = table_request(body)
        # Signed in, you sit as yourself (your account holds the seat); a guest sits under the name he gives.
        name = account.name if account is not None else body.get("name")
        live, token = await _hub(request).create(config, specs, name, seat, None if account is None else account.id,
                                                 None if club is None else club.registrar(private))  # fmt: skip
    except PreferansError as e:
        return error(400, getattr(e, "code", "bad_table"), str(e), e)
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the table"))
    resp = JSONResponse({"id": live.id, "url": f"/t/{live.id}", "seat": seat}, status_code=201)
    _set_cookie(request, resp, live.id, token)
    return resp


@router.get("/api/tables/{table_id}")
async def table_info(table_id: str, request: Request) -> Response:
    live = await _live(request, table_id)
    if isinstance(live, Response):
        return live
    account = await account_of(request)
    info = await _hub(request).info(live, request.cookies.get(cookie_name(table_id)), _id(account))
    return JSONResponse(info)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def take_seat(table_id: str, seat: int, request: Request) -> Response:
    if _limited(request):
        return error(429, "rate_limited", "too many requests; slow down")
    live = await _live(request, table_id)
    if isinstance(live, Response):
        return live
    account = await account_of(request)
    if live.game.is_member(request.cookies.get(cookie_name(table_id)), _id(account)):
        return error(409, "already_seated", "you already have a seat at this table")
    try:
        body = await _json_body(request)
    except ValueError as e:
        return error(400, "bad_json", f"the body must be a JSON object ({e})")
    name = body.get("name") if isinstance(body, dict) else None
    if account is not None:
        name = account.name  # signed in, you sit as yourself
    elsewhere = await _other_match_table(request, table_id, _id(account))
    if elsewhere is not None:
        return elsewhere
    try:
        token = await _hub(request).sit(live, seat, name, _id(account))
    except TableError as e:
        return error(400 if e.code == "bad_name" else 409, e.code, str(e))
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the seat"))
    resp = JSONResponse({"seat": seat})
    _set_cookie(request, resp, table_id, token)
    return resp


@router.get("/api/tables/{table_id}/sheet.svg")
async def sheet(table_id: str, request: Request, lang: str = "en", layout: str = "wide") -> Response:
    live = await _live(request, table_id)
    if isinstance(live, Response):
        if live.status_code != 410:
            return live
        archived = await _archived(request, table_id, "sheet")
        if isinstance(archived, Response):
            return archived
        # (tables archived before the phone layout was kept have the wide sheet only)
        body = archived.sheets.get(f"{lang}:phone" if layout == "phone" else lang) or archived.sheets.get(
            lang, archived.sheets["en"])
        return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
    async with live.lock:
        body = sheet_svg(live.game, lang[:8], "phone" if layout == "phone" else "wide")
    return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


async def _other_match_table(request: Request, table_id: str, account: int | None) -> Response | None:
    """A 409 when the table is a duplicate match's and this visitor sits at another of its tables
    (by a seat cookie or his account): he would play cards he has seen."""
    club = getattr(request.app.state, "club", None)
    if club is None:
        return None
    hub = _hub(request)
    row = await hub.db(club.store.club_table, table_id)
    if row is None or not row["match_id"]:
        return None
    found = await hub.db(club.store.match, row["match_id"])
    if found is None:
        return None
    others = [t for t in found[1] if t != table_id]
    tokens = [hash_token(request.cookies[cookie_name(t)]) for t in others if request.cookies.get(cookie_name(t))]
    there = await hub.db(club.store.seated_in, others, tokens, account)
    if there is None:
        return None
    number = found[1].index(there) + 1
    return error(409, "same_match", f"you play at table {number} of this duplicate match: the same cards are dealt "
                 "here, so you cannot sit at another of its tables")  # fmt: skip


async def _finished(request: Request, table_id: str, what: str) -> LiveTable | Response:
    """A finished table whose record this visitor may see (its players only, when spectators are off)."""
    live = await _live(request, table_id)
    if isinstance(live, Response):
        return live
    g = live.game
    if not g.finished:
        return error(409, "not_finished", f"the {what} is available when the game is over")
    account = await account_of(request) if not g.config.spectators else None
    if not g.config.spectators and not g.is_member(request.cookies.get(cookie_name(table_id)), _id(account)):
        return error(403, "players_only", f"this table does not allow spectators: the {what} is for its players")
    return live


async def kept_record(request: Request, table_id: str, what: str) -> dict[str, Any] | Response:
    """The record (JSON form) of a finished table, or the one kept of an archived table, if this
    visitor may see it (its players only, when spectators are off); else the response to send."""
    live = await _finished(request, table_id, what)
    if isinstance(live, Response):
        if live.status_code != 410:
            return live
        archived = await _archived(request, table_id, what)
        if isinstance(archived, Response):
            return archived
        if archived.record is None:
            return error(404, "no_record", "nobody played at this table before it was archived: there is no record")
        return archived.record
    async with live.lock:
        return live.game.record or live.game.game_record()


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, request: Request, format: str = "text", lang: str = "") -> Response:
    """The finished game's record; ``?lang=ru`` writes it in the downloader's language (its ``lang``
    header — a resumed game speaks it — and the event's words)."""
    stored = await kept_record(request, table_id, "record")
    if isinstance(stored, Response):
        return stored
    if lang in LANGS:
        stored = in_language(stored, lang)
    if format == "json":
        disposition = f'attachment; filename="preferans-{table_id}.json"'
        return JSONResponse(stored, headers={"Content-Disposition": disposition})
    from ..record import dumps

    text = dumps(record_of(stored))
    disposition = f'attachment; filename="preferans-{table_id}.prf"'
    return Response(text, media_type="text/plain; charset=utf-8", headers={"Content-Disposition": disposition})


@router.get("/api/tables/{table_id}/analysis")
async def analysis(table_id: str, request: Request, tables: bool = False, format: str = "json") -> Response:
    """The double-dummy analysis of every deal, worked out once per finished table (in the worker
    pool, charged to the table's and the address's quota) and kept in storage."""
    live = await _finished(request, table_id, "analysis")
    if isinstance(live, Response):
        return live
    hub = _hub(request)
    variant = "tables" if tables else "json"
    try:
        data, text = await hub.analysis(live, variant, client_address(request))
    except Busy as e:
        return error(429, e.code, str(e))
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the analysis"))
    if format == "text":
        return Response(text, media_type="text/plain; charset=utf-8")
    return Response(data, media_type="application/json")


def in_language(stored: dict[str, Any], lang: str) -> dict[str, Any]:
    """A stored record (the JSON twin) with its player-facing header words in ``lang``: the
    ``lang`` header and the server's own event line; the moves and the rules are the format's."""
    headers = dict(stored.get("headers") or {})
    headers["lang"] = lang
    ours = {event_words(x) for x in LANGS} | {"preferans serve"}
    if headers.get("event") in ours:
        headers["event"] = event_words(lang)
    return {**stored, "headers": headers}


def event_words(lang: str) -> str:
    """The event line of a record the server writes, in ``lang``."""
    t = Translator(lang)
    return t("A game on the Preferans server")


def table_request(body: dict[str, Any]) -> tuple[TableConfig, list[dict[str, Any]], int]:
    """Read a create-table request: preset, option changes, players, pool, seats, spectators.

    Every option goes through :class:`~preferans.rules.Rules` (the pool too), so
    whatever a table can be created with, the rules accept.
    """
    preset = body.get("rules", "sochi")
    if not isinstance(preset, str) or len(preset) > 32:
        raise GameError("bad_table", "rules: the name of a preset")
    rules = Rules.preset(preset)
    options = body.get("options", [])
    if isinstance(options, dict):
        options = [f"{k}={v}" for k, v in options.items()]
    if not isinstance(options, list) or len(options) > MAX_OPTIONS:
        raise GameError("bad_table", f"options: a list of at most {MAX_OPTIONS} 'FIELD=VALUE' texts")
    changes: dict[str, str] = {}
    for o in options:
        if not isinstance(o, str) or len(o) > MAX_OPTION:
            raise GameError("bad_table", f"options: each a 'FIELD=VALUE' text of at most {MAX_OPTION} characters")
        key, sep, value = o.partition("=")
        if not sep:
            raise GameError("bad_table", f"options: expected FIELD=VALUE, got {o!r}")
        changes[key.strip()] = value.strip()
    pool = body.get("pool")
    if pool not in (None, ""):
        if isinstance(pool, bool) or not isinstance(pool, int | str) or (isinstance(pool, str) and len(pool) > 8):
            raise GameError("bad_table", f"pool: a whole number of points, not {str(pool)[:20]!r}")
        changes["pool_target"] = str(pool)
    if changes:
        try:
            rules = rules.replace(**changes)  # all at once: some fields only make sense together
        except PreferansError as e:
            raise _bad_option(e) from None
    if not 1 <= rules.pool_target <= MAX_POOL:  # however it was given: pool or options
        raise GameError("bad_table", f"pool (pool_target): 1..{MAX_POOL} points, not {rules.pool_target}")
    players = body.get("players", 3)
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise GameError("bad_table", f"players: 2 (гусарик, with the dummy), 3 or 4, not {str(players)[:20]!r}")
    try:
        rules.check_players(players)  # e.g. a talon that takes all-pass tricks needs four
    except PreferansError as e:
        raise _bad_option(e) from None
    lang = body.get("lang", "en")
    if lang not in LANGS:
        raise GameError("bad_table", f"lang: {' or '.join(LANGS)}, not {str(lang)[:20]!r}")
    specs = body.get("seats")
    if specs is None:
        specs = [{"kind": "human"}] * players
    if not isinstance(specs, list) or len(specs) > 4 or not all(isinstance(s, dict) for s in specs):
        raise GameError("bad_table", "seats: a list of {kind: 'human'|'bot', level}, one per player")
    seat = body.get("seat", 0)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise GameError("bad_table", f"seat: a seat number, not {str(seat)[:20]!r}")
    spectators = body.get("spectators", True)
    if not isinstance(spectators, bool):
        raise GameError("bad_table", "spectators: true or false")
    return TableConfig(rules, players, spectators, lang), list(specs), seat


def _bad_option(e: PreferansError) -> GameError:
    """A refused option as the table's error, its reason kept (named in the player's words)."""
    return GameError("bad_table", str(e).replace("pool_target", "pool (pool_target)"), e.args[0] if e.args else None)
