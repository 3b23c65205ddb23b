"""Study in the browser (issue 27): the replay viewer, the analysis priced in whists, the solver
board and puzzles.

Pages (each its own HTML and script under ``static/``):

* ``GET /study`` — open a record (upload a ``.prf`` or JSON record), your finished tables, the
  board, the puzzles;
* ``GET /study/game/{table_id}`` — a finished table in the viewer; ``GET /study/record/{id}`` — an
  uploaded record (a link to share); ``#deal=3&step=17`` opens a deal at a step;
* ``GET /study/board`` — the solver board (``#pos=…`` opens a position); ``GET /study/puzzles``.

The JSON API (``{source}`` is ``tables/{table_id}`` or ``records/{id}``):

* ``GET /api/study/{source}`` — players, rules, the deals (kind, contract, label, steps);
* ``GET /api/study/{source}/deals/{n}`` — deal ``n`` step by step, every state worked out by the
  engine (:func:`.studyview.deal_steps`);
* ``GET /api/study/{source}/sheet.svg?after=N&lang=ru`` — the pulka after its first N deals;
* ``GET /api/study/{source}/analysis`` — the analysis priced in whists: started on first request,
  worked out deal by deal in the analysis pool (``{"status": "running", "done", "total", "ready"}``
  meanwhile, then the summary); ``?deal=N`` one deal's decisions (that deal is worked out next);
* ``POST /api/study/records`` — ``{"name", "text"}``: a record read leniently, kept, ``{"ids": […]}``;
* ``POST /api/study/board`` — a position (and a card to play): each legal card's value;
* ``GET /api/study/puzzles``, ``GET /api/study/puzzles/{n}``, ``POST /api/study/puzzles/{n}``
  (``{"card"}``: the verdict and the solver's line).

A table's record and analysis are for whoever may see its record (its players only when it has no
spectators).  Everything that costs CPU runs in the worker processes; the answers are kept in
memory (and a finished analysis in the database, :mod:`.studystore`).
"""

from __future__ import annotations

import asyncio
import collections
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from ..errors import PreferansError
from ..rulings.analysis import Analysis, DealAnalysis, deal_dict
from ..rulings.puzzles import Puzzle, shipped
from ..solver import Position
from .api import error, kept_record
from .guard import client_address
from .hub import Hub, store_failure
from .site import page
from .studystore import StudyStore
from .studyview import (
    analysis_job,
    board_job,
    board_spec,
    deal_steps,
    game_overview,
    game_puzzles,
    read_upload_body,
    sheet_after,
)
from .work import Busy, Quota

__all__ = ["MAX_UPLOAD", "UPLOAD_PATH", "Study", "router"]

T = TypeVar("T")
router = APIRouter()
UPLOAD_PATH = "/api/study/records"
MAX_UPLOAD = 1024 * 1024
"""Bytes an uploaded record may have (a long pulka's JSON twin is about 100 KB)."""

_NO_CACHE = {"Cache-Control": "no-cache"}


# ---------------------------------------------------------------------------- pages
@router.get("/study", include_in_schema=False)
async def study_page() -> FileResponse:
    return page("study.html")


@router.get("/study/game/{table_id}", include_in_schema=False)
async def viewer_table(table_id: str) -> FileResponse:
    return page("viewer.html")


@router.get("/study/record/{record_id}", include_in_schema=False)
async def viewer_record(record_id: str) -> FileResponse:
    return page("viewer.html")


@router.get("/study/board", include_in_schema=False)
async def board_page() -> FileResponse:
    return page("board.html")


@router.get("/study/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return page("puzzles.html")


@router.get("/study/game/{table_id}/puzzles", include_in_schema=False)
async def game_puzzles_page(table_id: str) -> FileResponse:
    return page("puzzles.html")  # the puzzles of one game (puzzles.js reads which from the path)


@router.get("/study/record/{record_id}/puzzles", include_in_schema=False)
async def record_puzzles_page(record_id: str) -> FileResponse:
    return page("puzzles.html")


# ---------------------------------------------------------------------------- the state of the study pages
@dataclass
class Progress:
    """An analysis being worked out: the deals done, and those still to do (first: the one a
    viewer waits for)."""

    names: tuple[str, ...]
    rules: Any
    total: int
    queue: list[int]
    done: dict[int, DealAnalysis] = field(default_factory=dict)
    failed: str = ""


class Study:
    """What the study pages keep in memory: the answers of the CPU work (by source), the analyses
    being worked out, and the limits (``app.state.study``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = StudyStore(hub.storage)
        self.cache: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()
        self.running: dict[str, Progress] = {}
        self.analyses: collections.OrderedDict[str, dict[str, Any]] = collections.OrderedDict()
        # Viewing, solving and uploading: per address, a few a second (each is a worker job).
        self.per_address = Quota(rate=5.0, burst=40.0, concurrent=4)

    async def cached(self, key: tuple[Any, ...], address: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, its answer kept under ``key`` (the last 256)."""
        if key in self.cache:
            self.cache.move_to_end(key)
            found: T = self.cache[key]
            return found
        if not self.per_address.take(address):
            raise Busy("too many requests from your address; try again in a few seconds")
        try:
            value = await self.hub.workers.run(fn, *args)
        finally:
            self.per_address.done(address)
        self.cache[key] = value
        while len(self.cache) > 256:
            self.cache.popitem(last=False)
        return value


def _study(request: Request) -> Study:
    study: Study = request.app.state.study
    return study


async def _guarded(call: Awaitable[T]) -> T | Response:
    try:
        return await call
    except Busy as e:
        return error(429, "busy", str(e))
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the record"))
    except PreferansError as e:
        return error(404, "no_deal", str(e))


# ---------------------------------------------------------------------------- puzzles
_PUZZLES: list[Puzzle] = []


def _puzzles() -> list[Puzzle]:
    if not _PUZZLES:
        _PUZZLES.extend(shipped())
    return _PUZZLES


def _puzzle_view(n: int, count: int, z: Puzzle) -> dict[str, Any]:
    p = Position.parse(z.position)
    return {"number": n, "count": count, "id": z.id, "position": board_spec(p), "text": z.position,
            "contract": z.contract, "declarer": z.declarer, "taken": list(z.taken), "to_play": p.to_play,
            "legal": [str(c) for c in p.legal_moves()], "names": list(z.names), "source": z.source}  # fmt: skip


def _numbered(found: list[Puzzle], number: int) -> Puzzle | Response:
    if not 1 <= number <= len(found):
        if not found:
            return error(404, "no_puzzle", "this game has no position where one card decides")
        return error(404, "no_puzzle", f"puzzle: 1..{len(found)}, not {number}")
    return found[number - 1]


async def _answer(found: list[Puzzle], number: int, request: Request) -> Response:
    """``{"card"}``: right or not, every card's value and the solver's line (kept with the puzzle:
    it was solved when it was found, so nothing is solved here)."""
    z = _numbered(found, number)
    if isinstance(z, Response):
        return z
    try:
        body = json.loads(await request.body() or b"{}")
    except (ValueError, RecursionError):
        return error(400, "bad_json", "the body must be a JSON object")
    card = str(body.get("card", ""))[:4] if isinstance(body, dict) else ""
    if card not in z.values:
        return error(400, "not_legal", f"{card!r} is not a card the player may play here: {' '.join(z.values)}")
    return JSONResponse({**_puzzle_view(number, len(found), z), "card": card, "right": card == z.best, "best": z.best,
                         "values": z.values, "gain": z.gain, "line": list(z.line)})  # fmt: skip


@router.get("/api/study/puzzles")
async def puzzles_list() -> Response:
    return JSONResponse({"count": len(await asyncio.to_thread(_puzzles))})


@router.get("/api/study/puzzles/{number}")
async def puzzle(number: int) -> Response:
    """Puzzle ``number`` (1-based) of the shipped set, without its answer."""
    found = await asyncio.to_thread(_puzzles)
    z = _numbered(found, number)
    return z if isinstance(z, Response) else JSONResponse(_puzzle_view(number, len(found), z))


@router.post("/api/study/puzzles/{number}")
async def answer(number: int, request: Request) -> Response:
    return await _answer(await asyncio.to_thread(_puzzles), number, request)


# ---------------------------------------------------------------------------- records: tables and uploads
# (after the puzzles' routes: /api/study/puzzles/{n} is not a source)
async def _record(request: Request, kind: str, ident: str) -> tuple[str, str] | Response:
    """``(source key, record JSON)`` of a finished table or an upload, or the response to send."""
    study = _study(request)
    if kind == "tables":
        key = f"t:{ident[:32]}"
        # Who may see it is asked every time (a private table's players only), the cache after.
        stored = await kept_record(request, ident, "study")
        if isinstance(stored, Response):
            return stored
        if ("json", key) in study.cache:
            return key, study.cache[("json", key)]
        text = json.dumps(stored, ensure_ascii=False)
    elif kind == "records":
        key = f"r:{ident[:32]}"
        if ("json", key) in study.cache:
            return key, study.cache[("json", key)]
        try:
            row = await study.hub.db(study.store.record, ident[:32])
        except SQLAlchemyError as e:
            return error(503, "db_unavailable", store_failure(e).replace("the move", "the record"))
        if row is None:
            return error(404, "no_record", f"no record {ident[:32]!r}")
        text = row[0]
    else:
        return error(404, "not_found", "study sources are tables/{id} and records/{id}")
    study.cache[("json", key)] = text
    return key, text


@router.get("/api/study/{kind}/{ident}")
async def game(kind: str, ident: str, request: Request) -> Response:
    found = await _record(request, kind, ident)
    if isinstance(found, Response):
        return found
    key, text = found
    out = await _guarded(_study(request).cached(("game", key), client_address(request), game_overview, text))
    if isinstance(out, Response):
        return out
    if kind == "records":
        row = await _study(request).hub.db(_study(request).store.record, ident[:32])
        if row is not None:
            out = {**out, "name": row[1], "problems": [p.get("reason", "") for p in row[2]] + out["problems"]}
    return JSONResponse(out, headers=_NO_CACHE)


@router.get("/api/study/{kind}/{ident}/deals/{number}")
async def deal(kind: str, ident: str, number: int, request: Request) -> Response:
    found = await _record(request, kind, ident)
    if isinstance(found, Response):
        return found
    key, text = found
    out = await _guarded(_study(request).cached(("deal", key, number), client_address(request), deal_steps, text,
                                                number))  # fmt: skip
    if isinstance(out, Response):
        return out
    return JSONResponse(out)


@router.get("/api/study/{kind}/{ident}/sheet.svg")
async def sheet(kind: str, ident: str, request: Request, after: int = 0, lang: str = "en") -> Response:
    found = await _record(request, kind, ident)
    if isinstance(found, Response):
        return found
    key, text = found
    lang = lang[:8]
    out = await _guarded(_study(request).cached(("sheet", key, after, lang), client_address(request), sheet_after,
                                                text, after, lang))  # fmt: skip
    if isinstance(out, Response):
        return out
    return Response(out, media_type="image/svg+xml", headers=_NO_CACHE)


# ---------------------------------------------------------------------------- a game's own puzzles
async def _game_puzzles(request: Request, kind: str, ident: str) -> list[tuple[int, Puzzle]] | Response:
    """``(deal, puzzle)`` of a finished table or an upload (found once in a worker, then kept),
    if this visitor may see the game."""
    found = await _record(request, kind, ident)
    if isinstance(found, Response):
        return found
    key, text = found
    return await _guarded(_study(request).cached(("puzzles", key), client_address(request), game_puzzles, text))


@router.get("/api/study/{kind}/{ident}/puzzles")
async def game_puzzles_list(kind: str, ident: str, request: Request) -> Response:
    """How many puzzles the game gives (one a deal at most) and from which deals."""
    found = await _game_puzzles(request, kind, ident)
    if isinstance(found, Response):
        return found
    return JSONResponse({"count": len(found), "deals": [n for n, _ in found]}, headers=_NO_CACHE)


@router.get("/api/study/{kind}/{ident}/puzzles/{number}")
async def game_puzzle(kind: str, ident: str, number: int, request: Request) -> Response:
    found = await _game_puzzles(request, kind, ident)
    if isinstance(found, Response):
        return found
    z = _numbered([z for _, z in found], number)
    return z if isinstance(z, Response) else JSONResponse(_puzzle_view(number, len(found), z))


@router.post("/api/study/{kind}/{ident}/puzzles/{number}")
async def game_puzzle_answer(kind: str, ident: str, number: int, request: Request) -> Response:
    found = await _game_puzzles(request, kind, ident)
    if isinstance(found, Response):
        return found
    return await _answer([z for _, z in found], number, request)


# ---------------------------------------------------------------------------- the analysis
@router.get("/api/study/{kind}/{ident}/analysis")
async def analysis(kind: str, ident: str, request: Request, deal: int | None = None) -> Response:
    found = await _record(request, kind, ident)
    if isinstance(found, Response):
        return found
    key, text = found
    study = _study(request)
    out = await _guarded(_analysis(study, key, text, client_address(request), deal))
    if isinstance(out, Response):
        return out
    return JSONResponse(out, headers=_NO_CACHE)


async def _analysis(study: Study, key: str, text: str, address: str, deal: int | None) -> dict[str, Any]:
    done = study.analyses.get(key)
    if done is None:
        stored = await study.hub.db(study.store.analysis, key)
        if stored is not None:
            done = study.analyses[key] = stored
    if done is not None:
        study.analyses.move_to_end(key)
        while len(study.analyses) > 32:
            study.analyses.popitem(last=False)
        if deal is not None:
            found = next((d for d in done["deals"] if d["number"] == deal), None)
            return {"status": "done", "deal": found}
        return {"status": "done", "done": len(done["deals"]), "total": len(done["deals"]),
                "ready": [d["number"] for d in done["deals"]], "summary": done["summary"], "players": done["players"]}
    progress = study.running.get(key)
    if progress is None:
        release = study.hub.workers.admit(table=key, address=address)
        try:
            record, numbers = await asyncio.to_thread(_plan, text)
        except BaseException:
            release()
            raise
        progress = study.running[key] = Progress(tuple(record.players), record.rules, len(record.deals), numbers)
        study.hub.spawn(_work(study, key, text, progress, record, release))
    if deal is not None:
        if deal in progress.done:
            return {"status": "running", "deal": deal_dict(progress.done[deal], progress.names)}
        if deal in progress.queue:  # the deal a viewer waits for comes next
            progress.queue.remove(deal)
            progress.queue.insert(0, deal)
        return {"status": "failed" if progress.failed else "running", "deal": None, "error": progress.failed}
    return {"status": "failed" if progress.failed else "running", "done": len(progress.done), "total": progress.total,
            "ready": sorted(progress.done), "error": progress.failed}  # fmt: skip


def _plan(text: str) -> tuple[Any, list[int]]:
    from ..record import from_json

    record = from_json(json.loads(text))
    return record, list(range(1, len(record.deals) + 1))


async def _work(
    study: Study, key: str, text: str, progress: Progress, record: Any, release: Callable[[], None]
) -> None:
    """Every deal's analysis in turn (one job each, in the analysis pool), then the summary, kept."""
    try:
        while progress.queue:
            number = progress.queue.pop(0)
            progress.done[number] = await study.hub.workers.run(analysis_job, text, number, batch=True)
        deals = [progress.done[n] for n in sorted(progress.done)]
        body = Analysis(progress.names, deals, progress.rules).to_dict()
        await study.hub.db(study.store.save_analysis, key, body)
        study.analyses[key] = body
    except asyncio.CancelledError:
        raise
    except Exception as e:  # a worker that died, a database that refused: say so, let a later request retry
        progress.failed = str(e) or type(e).__name__
        await asyncio.sleep(30)
    finally:
        release()
        if study.running.get(key) is progress:
            del study.running[key]


# ---------------------------------------------------------------------------- uploads
@router.post(UPLOAD_PATH)
async def upload(request: Request) -> Response:
    """``{"name", "text"}``: a record (text or JSON, several records one after another) read leniently
    and kept; ``{"ids": [...], "problems": [[...], ...]}``, or 400 naming the line or field."""
    study = _study(request)
    address = client_address(request)
    raw = await request.body()  # at most MAX_UPLOAD bytes (the guard's limit for this path)
    out = await _guarded(study.cached(("upload", raw), address, read_upload_body, raw))
    if isinstance(out, Response):
        return out
    if "error" in out:
        return JSONResponse({"error": "bad_record", **out["error"], "message": _upload_error(out["error"])},
                            status_code=400)  # fmt: skip
    ids = []
    try:
        for record, problems in zip(out["records"], out["problems"], strict=True):
            text = json.dumps(record, ensure_ascii=False)
            ids.append(await study.hub.db(study.store.add_record, text, out["name"], problems))
    except SQLAlchemyError as e:
        return error(503, "db_unavailable", store_failure(e).replace("the move", "the record"))
    return JSONResponse({"ids": ids, "urls": [f"/study/record/{i}" for i in ids], "problems": out["problems"]},
                        status_code=201)  # fmt: skip


def _upload_error(e: dict[str, Any]) -> str:
    where = f"{e.get('source') or 'record'}:{e['line']}" if e.get("line") else (e.get("source") or "record")
    return f"{where}: {e['reason']}"


# ---------------------------------------------------------------------------- the solver board
@router.post("/api/study/board")
async def board(request: Request) -> Response:
    """``{"position": {...} | "text form", "play": card | null, "taken": [a, b, c]}``: the position
    (after the card), each legal card's value and the best ones; or ``{"problems": [...]}`` (400)."""
    try:
        body = json.loads(await request.body() or b"{}")
    except (ValueError, RecursionError):
        return error(400, "bad_json", "the body must be a JSON object")
    if not isinstance(body, dict):
        return error(400, "bad_json", "the body must be a JSON object")
    spec = body.get("position")
    play = body.get("play")
    taken = body.get("taken") or [0, 0, 0]
    if not isinstance(taken, list) or not all(isinstance(x, int) and 0 <= x <= 10 for x in taken[:3]):
        taken = [0, 0, 0]
    if isinstance(spec, str):
        spec = spec[:400]
    key = ("board", json.dumps(spec, sort_keys=True, ensure_ascii=False), str(play)[:8], tuple(taken[:3]))
    out = await _guarded(_study(request).cached(key, client_address(request), board_job, spec,
                                                None if play is None else str(play), taken[:3]))  # fmt: skip
    if isinstance(out, Response):
        return out
    return JSONResponse(out, status_code=400 if "problems" in out else 200)
