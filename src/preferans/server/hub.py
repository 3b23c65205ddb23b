"""The live side of the server: connections per table, frames, bots, rate limits.

Everything runs on one asyncio loop; a :class:`TableGame` is only touched
from it, so no locks are needed.  Each connection has an outgoing queue
drained by its own task, so one slow client never delays the others.

Frames the server sends (JSON objects with a ``type``):

* ``state`` — the table (seats, who is online), the deal number and the
  receiver's view: ``deal.observation(seat).to_dict()`` for a player,
  :func:`~preferans.server.views.public_view` for a spectator (no view at all
  when the table does not allow spectators), the sheet totals and the last result;
* ``ack`` — an action was stored and applied (``ref`` echoes the client's ``id``);
* ``error`` — ``code`` and ``message``; nothing changed.

Frames a client sends: ``{"type": "act", "action": <id or text>, "id": ...}``,
``{"type": "next"}`` (deal the next hand), ``{"type": "ping"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..cards import cards_of
from ..errors import PreferansError, TableError
from ..i18n import LANGS, text
from .game import GameError, TableGame
from .storage import Storage
from .views import public_view, seat_view

__all__ = ["MAX_FRAME", "Client", "Hub", "RateLimiter"]

MAX_FRAME = 4096  # characters; no legal message comes near it
QUEUE_LIMIT = 256  # frames waiting for one client before it is dropped as too slow


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``.

    >>> r = RateLimiter(rate=1, burst=2, clock=lambda: 0.0)
    >>> r.allow(), r.allow(), r.allow()
    (True, True, False)
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float = 10.0, burst: float = 20.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (``None`` for a spectator) and outgoing queue."""

    table_id: str
    seat: int | None
    send: Callable[[str], Any]  # async callable sending one text frame
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    limiter: RateLimiter = field(default_factory=RateLimiter)
    limited_since: float = 0.0
    dropped: int = 0
    closed: bool = False

    def put(self, frame: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(frame)

    async def pump(self) -> None:
        """Send queued frames in order until closed."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            try:
                await self.send(frame)
            except Exception:
                self.closed = True
                return


def error_frame(code: str, message: str, ref: object = None, error: BaseException | None = None) -> str:
    """An error frame; with the ``error`` that caused it, ``texts`` has its reason in every language."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
    if error is not None:
        frame["texts"] = {lang: text(error, lang) for lang in LANGS}
    return json.dumps(frame, ensure_ascii=False)


class Hub:
    """All tables the server has in memory and the clients connected to them."""

    def __init__(
        self, storage: Storage, *, bot_delay: float = 0.6, rate: float = 10.0, burst: float = 20.0,
        programs: Mapping[str, str] | None = None,
    ) -> None:
        self.storage = storage
        self.programs = dict(programs or {})  # bot programs offered as levels (--bot-program)
        self.bot_delay = bot_delay
        self.rate, self.burst = rate, burst
        self.games: dict[str, TableGame] = {}
        self.clients: dict[str, set[Client]] = {}
        self._bot_pending: set[str] = set()
        self._bot_tasks: set[asyncio.Task[None]] = set()

    # -- tables ---------------------------------------------------------------------------
    def game(self, table_id: str) -> TableGame | None:
        """The table, loaded from storage (and replayed) on first use."""
        g = self.games.get(table_id)
        if g is None:
            g = TableGame.load(self.storage, table_id, programs=self.programs)
            if g is not None:
                self.games[table_id] = g
                self.schedule_bot(g)
        return g

    def add(self, game: TableGame) -> None:
        self.games[game.id] = game

    # -- clients --------------------------------------------------------------------------
    def connect(self, table_id: str, seat: int | None, send: Callable[[str], Any]) -> Client:
        c = Client(table_id, seat, send, limiter=RateLimiter(self.rate, self.burst))
        self.clients.setdefault(table_id, set()).add(c)
        return c

    def disconnect(self, client: Client) -> None:
        client.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            client.queue.put_nowait(None)
        group = self.clients.get(client.table_id)
        if group is not None:
            group.discard(client)
            if not group:
                del self.clients[client.table_id]
        g = self.games.get(client.table_id)
        if g is None:
            return
        if client.table_id not in self.clients and g.id not in self._bot_pending:
            del self.games[g.id]  # nobody is watching and no bot is thinking: storage has it all
            g.close()
            return
        self.broadcast(g)

    def online(self, table_id: str) -> set[int]:
        return {c.seat for c in self.clients.get(table_id, ()) if c.seat is not None}

    # -- frames ------------------------------------------------------------------------------
    def table_info(self, g: TableGame) -> dict[str, Any]:
        online = self.online(g.id)
        pulka = g.pulka
        info: dict[str, Any] = {
            "id": g.id,
            "players": g.players,
            "rules": g.rules.name,
            "options": {"irregularity_reports": g.rules.irregularity_reports, "claims": g.rules.claims},
            "pool": g.rules.pool_target,
            "spectators": g.config.spectators,
            "status": "finished" if g.finished else ("playing" if g.deal is not None else "waiting"),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "taken": s.taken,
                    "online": s.kind == "bot" or s.seat in online,
                }
                for s in g.seats
            ],
            "deal": g.deal_no,
            "stop_votes": sorted(g.stop_votes),
            "accusation": None,
        }
        table = g.table
        if table is not None and table.accusation is not None:
            info["accusation"] = {**table.accusation.to_dict(), "waiting": table.answering()}
        if pulka is not None:
            sheet = pulka.sheet
            info["sheet"] = {
                "names": list(sheet.names),
                "pool": [str(x) for x in sheet.pool],
                "mountain": [str(x) for x in sheet.mountain],
                "whists": [[str(x) for x in row] for row in sheet.whists],
                "labels": [h.label for h in sheet.history],
            }
            if g.deal is not None and g.deal.is_over:
                deal, last = g.deal, sheet.history[-1]
                result = deal.result.to_dict()
                result.pop("talon", None)  # not public (Rostov all-pass, dark misère)
                info["result"] = {
                    "label": last.label, **result,
                    "labels": {lang: text(last.label, lang) for lang in LANGS},
                    # what the deal wrote on the sheet: [column, player, amount, on (whists), why]
                    "written": [[e.column, e.player, str(e.amount), e.on, e.why] for e in last.entries],
                    # the hands as dealt, face up for the review after the deal
                    "hands": {str(s): [str(c) for c in cards_of(deal.initial_hands[s])] for s in deal.active},
                }  # fmt: skip
            if g.finished:
                st = pulka.settlement()
                info["settlement"] = [str(x) for x in st.rounded]
        return info

    def state_frames(self, g: TableGame) -> dict[int | None, str]:
        """One frame per seat (and ``None`` for spectators), built once per change."""
        info = json.dumps(self.table_info(g), ensure_ascii=False)
        out: dict[int | None, str] = {}
        deal = g.deal
        n = len(deal.moves) if deal is not None else 0
        head = f'{{"type": "state", "deal": {g.deal_no}, "n": {n}, "table": {info}, '
        seats_needed = {c.seat for c in self.clients.get(g.id, ())}
        for seat in seats_needed:
            view: dict[str, Any] | None
            if deal is None:
                view = None
            elif seat is None:
                view = public_view(deal) if g.config.spectators else None
            else:
                view = seat_view(deal, seat)
            you = "null" if seat is None else str(seat)
            out[seat] = f'{head}"you": {you}, "view": {json.dumps(view, ensure_ascii=False)}}}'
        return out

    def broadcast(self, g: TableGame) -> None:
        frames = self.state_frames(g)
        for c in list(self.clients.get(g.id, ())):
            c.put(frames[c.seat])

    def send_state(self, client: Client) -> None:
        g = self.games.get(client.table_id)
        if g is not None:
            client.put(self.state_frames(g)[client.seat])

    # -- messages ------------------------------------------------------------------------------
    def _limited(self, client: Client) -> bool:
        """Charge one message to the client's bucket; True (and a notice) when it is empty."""
        if client.limiter.allow():
            return False
        client.dropped += 1
        now = time.monotonic()
        if now - client.limited_since >= 1.0:  # at most one notice a second
            client.limited_since = now
            client.put(error_frame("rate_limited", "too many messages; slow down"))
        return True

    def reject(self, client: Client, code: str, message: str) -> None:
        """A frame that cannot be read at all (binary): an error, rate-limited like any other."""
        if not self._limited(client):
            client.put(error_frame(code, message))

    def receive(self, client: Client, text: str) -> None:
        """Handle one text frame from a client; bad input gets an error frame and changes nothing."""
        if self._limited(client):
            return
        if len(text) > MAX_FRAME:
            client.put(error_frame("too_big", f"frame of {len(text)} characters; the limit is {MAX_FRAME}"))
            return
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            client.put(error_frame("bad_json", "the frame is not valid JSON"))
            return
        if not isinstance(msg, dict):
            client.put(error_frame("bad_message", "a message must be a JSON object with a 'type'"))
            return
        ref = msg.get("id")
        if not isinstance(ref, (str, int)) or isinstance(ref, bool):
            ref = None
        kind = msg.get("type")
        g = self.games.get(client.table_id)
        if g is None:
            client.put(error_frame("no_table", "no such table", ref))
            return
        if kind == "ping":
            client.put(json.dumps({"type": "pong", "ref": ref}))
        elif kind == "state":
            self.send_state(client)
        elif kind == "act":
            self._act(g, client, msg, ref)
        elif kind == "next":
            self._next(g, client, ref)
        elif kind == "stop":
            self._stop(g, client, ref)
        elif kind == "bot":
            self._to_bot(g, client, msg, ref)
        elif kind in ("report", "claim", "answer"):
            self._irregular(g, client, msg, ref)
        else:
            known = "act, next, stop, bot, report, answer, claim, state or ping"
            client.put(error_frame("unknown_type", f"unknown message type {kind!r}: {known}", ref))

    def _act(self, g: TableGame, client: Client, msg: dict[str, Any], ref: object) -> None:
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot act", ref))
            return
        action = msg.get("action")
        too_long = isinstance(action, str) and len(action) > 20
        if not isinstance(action, int | str) or isinstance(action, bool) or too_long:
            client.put(error_frame("bad_action", "'action' must be an action id or its text", ref))
            return
        expect = msg.get("n")
        deal = g.deal
        if isinstance(expect, int) and deal is not None and expect != len(deal.moves):
            client.put(error_frame("stale", f"the deal has moved on (move {len(deal.moves)}, not {expect})", ref))
            return
        seat = client.seat
        self._do(g, client, ref, lambda: g.act(seat, action))

    def _do(self, g: TableGame, client: Client, ref: object, move: Callable[[], Action | None]) -> None:
        """Make a move; acknowledge it once stored and applied, then show everybody the new state."""
        try:
            a = move()
        except TableError as e:
            client.put(error_frame(e.code, str(e), ref))
            return
        except PreferansError as e:
            client.put(error_frame("illegal", str(e), ref, e))
            return
        # A report about another player waits for an answer (an accusation is not a fact): "pending".
        pending = g.table is not None and g.table.accusation is not None
        client.put(json.dumps({"type": "ack", "ref": ref, "deal": g.deal_no, "n": len(g.deal.moves) if g.deal else 0,
                               "action": None if a is None else int(a), "pending": pending}))  # fmt: skip
        self.broadcast(g)
        self.schedule_bot(g)

    def _irregular(self, g: TableGame, client: Client, msg: dict[str, Any], ref: object) -> None:
        """``{"type": "report", "what": "talon-seen", "offender": 2, "call": "7♦"}``,
        ``{"type": "answer", "agree": true}`` (the accused, or another player, answers a report)
        or ``{"type": "claim", "tricks": 3}`` — behind the table options (issue 10)."""
        seat = client.seat
        if seat is None:
            client.put(error_frame("not_seated", "spectators cannot report or claim", ref))
            return

        def move() -> Action | None:
            if msg.get("type") == "answer":
                agree = msg.get("agree")
                if not isinstance(agree, bool):
                    raise GameError("bad_answer", "'agree' must be true (it happened) or false (it did not)")
                return g.answer(seat, agree)
            if msg.get("type") == "claim":
                tricks = msg.get("tricks")
                if not isinstance(tricks, int) or isinstance(tricks, bool):
                    raise GameError("bad_claim", "'tricks' must be a whole number of tricks")
                return g.claim(seat, tricks)
            what, offender, call = msg.get("what"), msg.get("offender"), msg.get("call", "pass")
            if not isinstance(what, str) or len(what) > 20 or not isinstance(offender, int):
                raise GameError("bad_report", "'what' (e.g. talon-seen) and 'offender' (a seat) are needed")
            if not isinstance(call, str) or len(call) > 20:
                raise GameError("bad_report", "'call' must be a call's text such as 7♦")
            what = what.lstrip("!")
            return g.report(f"!{what}" + (f" {call}" if what == "out-of-turn" else ""), offender, seat)

        self._do(g, client, ref, move)

    def _next(self, g: TableGame, client: Client, ref: object) -> None:
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot deal", ref))
            return
        try:
            g.start_deal()
        except TableError as e:
            client.put(error_frame(e.code, str(e), ref))
            return
        client.put(json.dumps({"type": "ack", "ref": ref, "deal": g.deal_no, "n": 0}))
        self.broadcast(g)
        self.schedule_bot(g)

    def _stop(self, g: TableGame, client: Client, ref: object) -> None:
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot end the game", ref))
            return
        try:
            g.vote_stop(client.seat)
        except TableError as e:
            client.put(error_frame(e.code, str(e), ref))
            return
        n = len(g.deal.moves) if g.deal else 0
        client.put(json.dumps({"type": "ack", "ref": ref, "deal": g.deal_no, "n": n}))
        self.broadcast(g)

    def _to_bot(self, g: TableGame, client: Client, msg: dict[str, Any], ref: object) -> None:
        """``{"type": "bot", "seat": k, "level": "easy"}``: a bot plays for a person who left."""
        seat, level = msg.get("seat"), msg.get("level", "easy")
        if client.seat is None:
            client.put(error_frame("not_seated", "spectators cannot change the seats", ref))
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(level, str):
            client.put(error_frame("bad_message", "'seat' must be a seat number and 'level' a bot level", ref))
            return
        if seat == client.seat or seat in self.online(g.id):
            client.put(error_frame("bad_seat", "only the seat of a person who is offline can be given to a bot", ref))
            return
        try:
            g.hand_to_bot(seat, level)
        except GameError as e:
            client.put(error_frame(e.code, str(e), ref))
            return
        client.put(json.dumps({"type": "ack", "ref": ref, "deal": g.deal_no}))
        self.broadcast(g)
        self.schedule_bot(g)

    def seated(self, g: TableGame) -> None:
        """Somebody took a seat (maybe starting the game)."""
        self.broadcast(g)
        self.schedule_bot(g)

    # -- bots ---------------------------------------------------------------------------------------
    def schedule_bot(self, g: TableGame) -> None:
        if g.bot_seat_to_act() is None or g.id in self._bot_pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._bot_pending.add(g.id)
        task = loop.create_task(self._bot_turn(g))
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    async def _bot_turn(self, g: TableGame) -> None:
        """The bot thinks in a worker thread (a strong bot searches), then acts like a person."""
        try:
            await asyncio.sleep(self.bot_delay)
            turn = g.bot_turn()
            if turn is None:
                return
            seat, think, n = turn
            action = await asyncio.to_thread(think)
            try:
                if g.play_for(seat, action, n) is None:
                    return  # the table moved on meanwhile (a seat given back, a restart)
            except PreferansError:
                return
            self.broadcast(g)
        finally:
            self._bot_pending.discard(g.id)
        self.schedule_bot(g)

    def shutdown(self) -> None:
        for g in self.games.values():
            g.close()  # bot programs end with the server
        for group in list(self.clients.values()):
            for c in list(group):
                c.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    c.queue.put_nowait(None)
