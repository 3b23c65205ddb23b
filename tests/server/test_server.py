"""The web server through the framework's test client (HTTP and WebSocket)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from preferans.record import loads
from preferans.rules import Rules
from preferans.server.cardsvg import card_sprite_svg, card_svg
from preferans.server.hub import MAX_FRAME, RateLimiter
from server_helpers import Replayer, cookie, create_table, join, pick
from server_helpers import make_client as _make_client

OPEN: list[Conn] = []
JSON = {"content-type": "application/json"}


@contextlib.contextmanager
def make_client(db: str, **kwargs: Any) -> Iterator[Any]:
    """A test client whose WebSockets are all closed on the way out (even after a failure).

    The test client's portal waits for every WebSocket session it runs: one left open
    would keep the test waiting for ever, so each is closed even when another fails to."""
    with _make_client(db, **kwargs) as client:
        try:
            yield client
        finally:
            while OPEN:
                with contextlib.suppress(Exception):  # a session the server ended with an error re-raises it
                    OPEN.pop().close()


class Conn:
    """A WebSocket client that records every frame it receives."""

    def __init__(self, client: Any, tid: str, token: str | None) -> None:
        self.cm = client.websocket_connect(f"/ws/{tid}", headers=cookie(tid, token))
        self.ws = self.cm.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        self.closed = False
        OPEN.append(self)

    @property
    def latest(self) -> dict[str, Any]:
        """The last state received (once one was read)."""
        assert self.last is not None, "no state received yet"
        return self.last

    def recv(self) -> dict[str, Any]:
        f: dict[str, Any] = self.ws.receive_json()
        self.frames.append(f)
        if f["type"] == "state":
            self.last = f
        return f

    def until(self, pred: Any) -> dict[str, Any]:
        while True:
            f = self.recv()
            if pred(f):
                return f

    def state_at(self, deal: int, n: int) -> dict[str, Any]:
        """The first state frame at move ``n`` of deal ``deal`` or later (moves nobody chooses
        may follow one another in a single frame)."""
        if self.last is not None and (self.last["deal"], self.last["n"]) >= (deal, n):
            return self.last
        return self.until(lambda f: f["type"] == "state" and (f["deal"], f["n"]) >= (deal, n))

    def send(self, msg: Any) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.cm.__exit__(None, None, None)


_REPORTS = ["talon-seen", "talon-exposed", "talon-taken", "out-of-turn", "talon-seen", "talon-taken", "misdeal"]


def irregular_message(rng: random.Random, players: int) -> dict[str, Any]:
    """A random report or claim, legal or not (the server answers ``illegal`` to the rest)."""
    if rng.random() < 0.4:
        return {"type": "claim", "tricks": rng.randrange(11), "id": "c"}
    what = rng.choice(_REPORTS[:-1] if rng.random() < 0.7 else _REPORTS)
    return {"type": "report", "what": what, "offender": rng.randrange(players), "call": "7♦", "id": "r"}


IRREGULAR_ACKS: list[int] = []


def play_game(
    client: Any, tid: str, conns: dict[int, Conn], watchers: list[Conn], rng: random.Random,
    irregular: bool = False,
) -> int:
    """Play random legal moves from whoever is to act until the game ends; returns deals played.

    With ``irregular``, seated players now and then report irregularities and claim tricks."""
    everyone = [*conns.values(), *watchers]
    first = next(iter(conns.values()))
    state = first.last or first.until(lambda f: f["type"] == "state")
    deal, n = state["deal"], state["n"]
    for c in everyone:
        c.state_at(deal, n)
    while True:
        table = first.latest["table"]
        if table["status"] == "finished":
            return int(deal)
        view = first.latest["view"]
        if view["phase"] == "over":
            first.send({"type": "next", "id": "nx"})
            deal, n = deal + 1, 0
        elif irregular and rng.random() < 0.08:
            sender = conns[rng.randrange(len(conns))]
            sender.send(irregular_message(rng, len(conns)))
            ack = sender.until(lambda f: f["type"] in ("ack", "error"))
            # busy: the table's quota of calculations (claim proofs, assessments) is used up for now
            assert ack["type"] == "ack" or ack["code"] in ("illegal", "busy"), ack
            if ack["type"] == "ack" and ack["pending"]:  # the accused answers
                accused = conns[first.until(lambda f: f["type"] == "state" and f["table"]["accusation"])[
                    "table"]["accusation"]["offender"]]
                accused.send({"type": "answer", "agree": rng.random() < 0.7, "id": "a"})
                ack = accused.until(lambda f: f["type"] in ("ack", "error"))
                assert ack["type"] == "ack", ack
            if ack["type"] == "ack":
                n = ack["n"]
                IRREGULAR_ACKS.append(ack["action"])
        elif not conns[view["to_act"]].latest["view"]["legal"]:
            n += 1  # a move nobody chooses (the 3.3.17 redraw): the server makes it
        else:
            actor = conns[view["to_act"]]
            actor.send({"type": "act", "action": pick(actor.latest["view"], rng), "id": n, "n": n})
            ack = actor.until(lambda f: f["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            n += 1
        for c in everyone:
            c.state_at(deal, n)


@pytest.mark.parametrize(
    ("players", "preset", "spectators", "irregular"),
    [(3, "sochi", True, False), (4, "rostov", True, False), (3, "leningrad", False, False),
     (3, "classic", True, True), (4, "sochi", True, True)],
)
def test_every_frame_shows_only_the_receivers_view(
    tmp_path: Any, players: int, preset: str, spectators: bool, irregular: bool
) -> None:
    """Whole games of people: every frame to every client equals the engine's observation
    of its seat (spectators: the engine's public observation).  With ``irregular`` the table
    has ``irregularity_reports`` and ``claims`` on and the players use them."""
    # The table's conventions have a name of their own (issue 25: its record said "unknown preset").
    options = ["end_condition=deals", "max_deals=3", "name=Дома у Пети"]
    if irregular:
        options += ["irregularity_reports=true", "claims=true"]
    # the claims of a random walk come faster than the quota of calculations a table (and an address) has
    with make_client(str(tmp_path / "g.db"), burst=100000, table_cpu_burst=1000.0, cpu_burst=1000.0) as client:
        tid, t0 = create_table(client, players=players, rules=preset, spectators=spectators, options=options)
        tokens = {0: t0}
        for s in range(1, players):
            tokens[s] = join(client, tid, s, f"P{s}")
        conns = {s: Conn(client, tid, tok) for s, tok in tokens.items()}
        watcher = Conn(client, tid, None)
        IRREGULAR_ACKS.clear()
        deals = play_game(client, tid, conns, [watcher], random.Random(players), irregular)
        assert deals == 3
        assert bool(IRREGULAR_ACKS) == irregular  # reports and claims were made and taken
        rep = Replayer(client, tid)
        total = 0
        for c in [*conns.values(), watcher]:
            for f in c.frames:
                if f["type"] == "state":
                    rep.check_frame(f)
                    total += 1
        assert total > 100
        assert watcher.latest["view"] is None if not spectators else watcher.latest["view"]["hand"] == []
        if not spectators:  # the finished game is its players' only
            for what in ("record", "record?format=json", "analysis"):
                refused = client.get(f"/api/tables/{tid}/{what}")
                assert refused.status_code == 403 and refused.json()["error"] == "players_only"
        mine = cookie(tid, tokens[1])
        rec = client.get(f"/api/tables/{tid}/record", headers=mine)
        assert rec.status_code == 200 and ".prf" in rec.headers["content-disposition"]
        record = loads(rec.text)  # replays every deal and the sheet through the engine
        assert len(record.deals) == 3 and len(record.players) == players
        assert record.rules == Rules.preset(preset).replace(**dict(o.split("=") for o in options))
        assert loads(client.get(f"/api/tables/{tid}/record?format=json", headers=mine).text) == record
        analysis = client.get(f"/api/tables/{tid}/analysis", headers=mine).json()
        assert "deals" in analysis, analysis
        assert len(analysis["deals"]) == 3
        text = client.get(f"/api/tables/{tid}/analysis?format=text", headers=mine)
        assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
        for c in [*conns.values(), watcher]:
            c.close()


def test_one_person_and_two_bots_play_a_deal(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                               {"kind": "bot", "level": "random"}])  # fmt: skip
        me = Conn(client, tid, tok)
        rng = random.Random(5)
        while True:
            f = me.until(lambda f: f["type"] == "state")
            v = f["view"]
            if v["phase"] == "over":
                break
            if v["to_act"] == 0:
                me.send({"type": "act", "action": pick(v, rng), "n": f["n"]})
        result = f["table"]["result"]
        assert result["label"]
        assert f["table"]["sheet"]["labels"] == [result["label"]]
        # The after-deal panel's facts: the label in each language, what was written, the hands as dealt.
        assert result["labels"]["en"] == result["label"] and result["labels"]["ru"]
        pulka = client.app.state.hub.live[tid].game.pulka
        assert result["written"] == [[e.column, e.player, str(e.amount), e.on, e.why]
                                     for e in pulka.sheet.history[-1].entries]  # fmt: skip
        deal = client.app.state.hub.live[tid].game.deal
        assert {int(s): len(h) for s, h in result["hands"].items()} == dict.fromkeys(deal.active, 10)
        Replayer(client, tid).check_frame(f)
        me.close()


def test_bad_input_gets_an_error_frame_and_changes_nothing(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db"), burst=1000) as client:
        tid, t0 = create_table(client)
        t1, t2 = join(client, tid, 1, "B"), join(client, tid, 2, "C")
        a, b = Conn(client, tid, t0), Conn(client, tid, t1)
        Conn(client, tid, t2)
        start = b.until(lambda f: f["type"] == "state" and f["view"] is not None)
        assert start["view"]["to_act"] == 1  # first hand: the dealer's left
        storage = client.app.state.storage

        def moves() -> int:
            return sum(len(d.moves) for d in storage.deals(tid))

        bad: list[tuple[Conn, Any, str]] = [
            (b, "{not json", "bad_json"),
            (b, "[1, 2]", "bad_message"),
            (b, {"type": "shout"}, "unknown_type"),
            (b, {"no": "type"}, "unknown_type"),
            (b, {"type": "act"}, "bad_action"),
            (b, {"type": "act", "action": True}, "bad_action"),
            (b, {"type": "act", "action": [61]}, "bad_action"),
            (b, {"type": "act", "action": 999}, "illegal"),
            (b, {"type": "act", "action": "A♥"}, "illegal"),  # a card in the auction
            (b, {"type": "act", "action": "here"}, "illegal"),  # nothing to hold: the reason in both languages
            (b, {"type": "act", "action": "dance"}, "illegal"),
            (a, {"type": "act", "action": "pass"}, "not_your_turn"),
            (b, {"type": "act", "action": "pass", "n": 7}, "stale"),
            (b, {"type": "next"}, "deal_in_progress"),
            (b, "x" * (MAX_FRAME + 1), "too_big"),
            (b, json.dumps({"type": "act", "action": "pass", "pad": "x" * MAX_FRAME}), "too_big"),
            (b, "[" * 100000, "too_big"),
        ]
        for conn, msg, code in bad:
            conn.send(msg)
            err = conn.until(lambda f: f["type"] == "error")
            assert err["code"] == code, (msg if isinstance(msg, dict) else msg[:30], err)
            if isinstance(msg, dict) and msg.get("action") == "here":
                assert err["texts"]["en"] == err["message"] and "заявок ещё не было" in err["texts"]["ru"]
            assert moves() == 0
        b.ws.send_bytes(b'{"type": "act", "action": 61}')
        assert b.until(lambda f: f["type"] == "error")["code"] == "bad_message"
        assert moves() == 0
        b.send({"type": "state"})
        again = b.until(lambda f: f["type"] == "state")
        assert again["view"] == start["view"]
        b.send({"type": "act", "action": "pass", "id": "ok"})
        assert b.until(lambda f: f["type"] in ("ack", "error"))["ref"] == "ok"
        assert moves() == 1


def test_a_flood_is_rate_limited(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db"), rate=0.001, burst=5) as client:
        tid, t0 = create_table(client)
        a = Conn(client, tid, t0)
        a.until(lambda f: f["type"] == "state")
        for i in range(40):
            a.send({"type": "ping", "id": i})
        a.send({"type": "ping", "id": "last"})  # also dropped: the bucket is empty
        got: list[dict[str, Any]] = []
        while len([f for f in got if f["type"] == "pong"]) < 5:
            got.append(a.recv())
        limited = a.until(lambda f: f["type"] == "error")
        assert limited["code"] == "rate_limited"
        assert [f["ref"] for f in got if f["type"] == "pong"] == [0, 1, 2, 3, 4]


def test_rate_limiter_refills() -> None:
    now = [0.0]
    r = RateLimiter(rate=2, burst=2, clock=lambda: now[0])
    assert [r.allow() for _ in range(3)] == [True, True, False]
    now[0] = 0.5
    assert r.allow() and not r.allow()


def test_seat_tokens_reconnect_and_restart(tmp_path: Any) -> None:
    """The seat cookie is the only way to act for a seat; a reload or a server restart resumes."""
    db = str(tmp_path / "g.db")
    with make_client(db) as client:
        tid, _ = create_table(client)
        t1, t2 = join(client, tid, 1, "B"), join(client, tid, 2, "C")
        r = client.post(f"/api/tables/{tid}/seats/1", json={"name": "Eve"})
        assert r.status_code == 409 and r.json()["error"] == "seat_taken"
        eve = Conn(client, tid, "forged-token")
        f = eve.until(lambda f: f["type"] == "state")
        assert f["you"] is None and f["view"]["hand"] == []
        eve.send({"type": "act", "action": "pass"})
        assert eve.until(lambda f: f["type"] == "error")["code"] == "not_seated"
        b = Conn(client, tid, t1)
        v = b.until(lambda f: f["type"] == "state")["view"]
        b.send({"type": "act", "action": v["legal"][0][0]})
        b.until(lambda f: f["type"] == "ack")
        before = b.until(lambda f: f["type"] == "state" and f["n"] == 1)
        b.close()
        b2 = Conn(client, tid, t1)  # a reload
        again = b2.until(lambda f: f["type"] == "state")
        assert again["you"] == 1 and again["view"] == before["view"]
        b2.close()
        eve.close()
        info = client.get(f"/api/tables/{tid}", headers=cookie(tid, t2)).json()
        assert info["you"] == 2 and "hand" not in json.dumps(info)
    with make_client(db) as client:  # the server restarted
        b3 = Conn(client, tid, t1)
        resumed = b3.until(lambda f: f["type"] == "state")
        assert resumed["view"] == before["view"]
        c = Conn(client, tid, t2)
        v = c.until(lambda f: f["type"] == "state")["view"]
        assert v["to_act"] == 2
        c.send({"type": "act", "action": v["legal"][0][0], "n": 1})
        assert c.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        Replayer(client, tid).check_frame(c.until(lambda f: f["type"] == "state" and f["n"] == 2))


def test_spectators_off_see_no_cards(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        tid, _ = create_table(client, spectators=False, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
        w = Conn(client, tid, None)
        f = w.until(lambda f: f["type"] == "state")
        assert f["view"] is None and f["table"]["spectators"] is False


def test_http_api(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/").status_code == 200 and "app.js" in client.get("/").text
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/t/abc").status_code == 200
        svg = client.get("/cards/10%E2%99%A5.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert client.get("/cards/back.svg").status_code == 200
        assert client.get("/cards/sprite.svg").text.count("<symbol") == 33
        assert client.get("/cards/11X.svg").status_code == 404
        assert client.get("/api/tables/nope").status_code == 404
        presets = client.get("/api/presets").json()
        assert "kodeks" in presets["presets"] and "hard" in presets["bot_levels"]
        cases: list[tuple[dict[str, Any], str]] = [
            ({"players": 5}, "players"), ({"rules": "moscow"}, "moscow"), ({"options": ["no_such=1"]}, "no_such"),
            ({"pool": "x"}, "pool"), ({"seats": [{"kind": "alien"}] * 3}, "kind"),
            ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}, {"kind": "bot"}]}, "level"),
        ]
        for body, field in cases:
            r = client.post("/api/tables", json={"name": "A", **body})
            assert r.status_code == 400 and field in r.json()["message"], (body, r.text)
        assert client.post("/api/tables", content=b"{oops", headers=JSON).status_code == 400
        r = client.post("/api/tables", json={"name": "Ann", "rules": "leningrad", "pool": 30, "players": 4,
                                             "options": ["za_svoimi=true"]})  # fmt: skip
        assert r.status_code == 201
        cookie_header = r.headers["set-cookie"]
        assert "HttpOnly" in cookie_header and "SameSite=lax" in cookie_header
        tid = r.json()["id"]
        sheet = client.get(f"/api/tables/{tid}/sheet.svg")
        assert sheet.status_code == 200 and sheet.text.startswith("<svg")
        assert client.get(f"/api/tables/{tid}/record").status_code == 409
        row = client.app.state.storage.table(tid)
        assert row.config["rules"]["pool_target"] == 30 and row.config["rules"]["za_svoimi"] is True


def test_healthz_fails_without_a_database(tmp_path: Any) -> None:
    from sqlalchemy import create_engine

    with make_client(str(tmp_path / "g.db"), health_wait=5.0) as client:
        client.app.state.storage.engine = create_engine("sqlite:////nonexistent/dir/x.db")
        assert client.get("/healthz").status_code == 503


def test_card_svgs() -> None:
    for c in range(32):
        from preferans.cards import Card

        svg = card_svg(str(Card(c)))
        assert svg.startswith("<svg") and str(Card(c))[-1] in svg
    # One sprite holds them all (the client draws every card from it, with no image to wait for).
    import xml.etree.ElementTree as ET

    sprite = ET.fromstring(card_sprite_svg())
    ids = [e.get("id") for e in sprite if e.tag.endswith("symbol")]
    assert ids == [f"card-{c}" for c in range(32)] + ["card-back"]


def test_the_game_ends_by_agreement_between_deals(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        tid, t0 = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
        t1 = join(client, tid, 1, "B")
        a, b = Conn(client, tid, t0), Conn(client, tid, t1)
        a.send({"type": "stop"})
        assert a.until(lambda f: f["type"] == "error")["code"] == "deal_in_progress"
        a.send({"type": "state"})  # the states before the error were read while waiting for it
        rng = random.Random(7)
        seen = -1
        while True:  # play the deal out (the bot plays its seat)
            f = a.until(lambda f, seen=seen: f["type"] == "state" and f["n"] != seen)
            seen = f["n"]
            if f["view"]["phase"] == "over":
                break
            seat = f["view"]["to_act"]
            if seat == 0:
                a.send({"type": "act", "action": pick(f["view"], rng), "n": f["n"]})
            elif seat == 1:
                v = b.until(lambda g, n=f["n"]: g["type"] == "state" and g["n"] == n)["view"]
                b.send({"type": "act", "action": pick(v, rng), "n": f["n"]})
        a.send({"type": "stop"})
        f = a.until(lambda f: f["type"] == "state" and f["table"]["stop_votes"] == [0])
        assert f["table"]["status"] != "finished"
        b.send({"type": "stop"})
        f = b.until(lambda f: f["type"] == "state" and f["table"]["status"] == "finished")
        assert len(f["table"]["settlement"]) == 3
        record = loads(client.get(f"/api/tables/{tid}/record").text)
        assert len(record.deals) == 1
    with make_client(str(tmp_path / "g.db")) as client:  # still over after a restart
        assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"


def test_websockets_from_other_sites_are_refused(tmp_path: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client)
        headers = {**cookie(tid, tok), "origin": "https://evil.example"}
        with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(f"/ws/{tid}", headers=headers) as ws:
            ws.receive_json()
        assert e.value.code == 4403
        ok = Conn(client, tid, tok)
        ok.ws.send_json({"type": "ping"})
        assert ok.until(lambda f: f["type"] == "pong")


def test_a_bot_plays_on_for_a_person_who_left(tmp_path: Any) -> None:
    """A bot may take a seat only after its person has been away for the grace period (also a
    seat that never connected); the person's token takes the seat back at any time."""
    import time

    db = str(tmp_path / "g.db")
    with make_client(db, grace=1.0) as client:
        tid, t0 = create_table(client)
        t1, t2 = join(client, tid, 1, "B"), join(client, tid, 2, "C")
        a, b = Conn(client, tid, t0), Conn(client, tid, t1)
        a.send({"type": "bot", "seat": 1})
        assert a.until(lambda f: f["type"] == "error")["code"] == "bad_seat"  # B is online
        a.send({"type": "bot", "seat": 2})  # C took his seat but has not connected yet
        assert a.until(lambda f: f["type"] == "error")["code"] == "too_soon"
        b.close()
        left = time.monotonic()
        refusals: list[tuple[dict[str, Any], str]] = [
            ({"seat": 1}, "too_soon"), ({"seat": "x"}, "bad_message"),
            ({"seat": 2, "level": "god"}, "bad_seat"), ({"seat": 0}, "bad_seat")]  # fmt: skip
        for bad, code in refusals:
            a.send({"type": "bot", **bad})
            assert a.until(lambda f: f["type"] == "error")["code"] == code
        time.sleep(max(0.0, 1.1 - (time.monotonic() - left)))
        a.send({"type": "bot", "seat": 1, "level": "random"})
        a.until(lambda f: f["type"] == "ack")
        # the bot (first hand) acts at once
        f = a.until(lambda f: f["type"] == "state" and f["table"]["seats"][1]["kind"] == "bot" and f["n"] >= 1)
        assert f["table"]["seats"][1]["name"] == "B"
        back = Conn(client, tid, t1)  # B comes back with his cookie: the seat is his again
        f = back.until(lambda f: f["type"] == "state")
        assert f["you"] == 1 and f["table"]["seats"][1]["kind"] == "human" and f["view"]["hand"]
        assert t2
    with make_client(db) as client:  # kept after a restart
        assert client.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "human"


def test_a_client_too_slow_to_read_is_dropped() -> None:
    import asyncio

    from preferans.server.hub import QUEUE_LIMIT, Client

    async def scenario() -> tuple[bool, int]:
        stuck = asyncio.Event()

        async def send(_: str) -> None:
            await stuck.wait()  # never reads

        c = Client("t", 0, send)
        pump = asyncio.create_task(c.pump())
        for i in range(QUEUE_LIMIT + 5):
            c.put(f"frame {i}")
        await asyncio.sleep(0)
        pump.cancel()
        return c.closed, c.queue.qsize()

    closed, queued = asyncio.run(scenario())
    assert closed and queued <= QUEUE_LIMIT + 1


def test_the_catalog_and_the_sheet_speak_russian(tmp_path: Any) -> None:
    """The client's words come from the gettext catalog (preferans.i18n) as JSON; the sheet follows ?lang."""
    with make_client(str(tmp_path / "g.db")) as client:
        ru = client.get("/api/i18n/ru")
        assert ru.status_code == 200
        body = ru.json()
        assert body["nplurals"] == 3 and "n%10==1" in body["plural"]
        assert body["messages"]["call\u0004pass"] == "пас" and body["messages"]["{n} deal"][2] == "{n} сдач"
        assert client.get("/api/i18n/en").json()["messages"]["call\u0004misere"] == "misère"
        assert client.get("/api/i18n/de").status_code == 404
        tid = client.post("/api/tables", json={"name": "Ann"}).json()["id"]
        assert "пуля" in client.get(f"/api/tables/{tid}/sheet.svg?lang=ru").text
        en = client.get(f"/api/tables/{tid}/sheet.svg").text
        assert "пуля" not in en and "pool" in en
