"""The study API (issue 27): records uploaded and of finished tables, every state of a deal worked
out by the engine, the sheet after a deal, the analysis with its progress, the solver board, the
puzzles, and the previous deal kept on the table page after «next deal»."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server import Conn, play_game
from test_server import make_client as closing_client

from preferans.engine.deal import Deal
from preferans.record import load, states
from preferans.rulings.puzzles import shipped
from preferans.solver import Position, best_moves
from server_helpers import cookie, create_table, join, make_client

GOLDEN = Path(__file__).parents[1] / "golden" / "records"


@pytest.fixture(scope="module")
def client(tmp_path_factory: Any) -> Any:
    db = tmp_path_factory.mktemp("study") / "s.db"
    with make_client(str(db), workers=0) as c:
        yield c


def upload(client: TestClient, name: str = "sochi-pulka.prf") -> str:
    r = client.post("/api/study/records", json={"name": name, "text": (GOLDEN / name).read_text(encoding="utf-8")})
    assert r.status_code == 201, r.text
    return str(r.json()["ids"][0])


def test_an_uploaded_record_step_by_step(client: TestClient) -> None:
    rid = upload(client)
    assert upload(client) == rid  # the same record: the same link
    game = client.get(f"/api/study/records/{rid}").json()
    assert game["players"] == ["Anna", "Boris", "Vera"] and game["name"] == "sochi-pulka.prf" and game["scored"]
    record = load(GOLDEN / "sochi-pulka.prf")
    for number, d in enumerate(record.deals, 1):
        steps = client.get(f"/api/study/records/{rid}/deals/{number}").json()
        assert len(steps["states"]) == len(steps["moves"]) + 1 == game["deals"][number - 1]["steps"]
        # every state is the engine's deal after k moves, every hand open
        for k, deal in enumerate(states(d, record.rules)):
            st = steps["states"][k]
            assert st["phase"] == deal.phase.value and st["tricks_won"] == list(deal.tricks_won)
            held = {s: deal.hands[s].bit_count() for s in deal.active}
            assert {int(s): len(h) for s, h in st["hands"].items()} == held
        assert steps["result"]["labels"]["ru"] and steps["states"][-1]["phase"] == "over"
    assert client.get(f"/api/study/records/{rid}/deals/9").status_code == 404
    # the same game as a record for programs (JSON) is the same record: the same link
    assert upload(client, "sochi-pulka.json") == rid
    svg = client.get(f"/api/study/records/{rid}/sheet.svg?after=2&lang=ru")
    assert svg.status_code == 200 and "пуля" in svg.text.lower()


def test_the_analysis_runs_with_progress_and_is_kept(client: TestClient) -> None:
    rid = upload(client, "classic-dark.prf")
    first = client.get(f"/api/study/records/{rid}/analysis").json()
    assert first["status"] in ("running", "done") and first["total"] == 3
    for _ in range(300):
        a = client.get(f"/api/study/records/{rid}/analysis").json()
        if a["status"] == "done":
            break
        time.sleep(0.1)
    assert a["status"] == "done" and a["ready"] == [1, 2, 3]
    assert {s["player"] for s in a["summary"]} == {"Anna", "Boris", "Vera"}
    deal = client.get(f"/api/study/records/{rid}/analysis?deal=2").json()["deal"]
    kinds = {x["kind"] for x in deal["decisions"]}
    assert {"bid", "contract", "card"} <= kinds
    costly = [x for x in deal["decisions"] if x["mistake"]]
    assert costly and all(x["cost"] > 0 and x["best"] for x in costly)
    study = client.app.state.study  # type: ignore[attr-defined]
    assert study.store.analysis(f"r:{rid}")["deals"][1]["decisions"] == deal["decisions"]


def test_bad_uploads_name_the_line_or_field(client: TestClient) -> None:
    r = client.post("/api/study/records", json={"name": "bad.prf", "text": "%preferans-record 1\nplayers: A\n"})
    assert r.status_code == 400 and r.json()["line"] == 2 and "players" in r.json()["reason"]
    empty = '{"format": "preferans-record", "version": 1}'
    r = client.post("/api/study/records", json={"name": "x.json", "text": empty})
    assert r.status_code == 400 and "players" in r.json()["reason"]
    broken = (GOLDEN / "sochi-pulka.prf").read_text(encoding="utf-8").replace("trick 2: 9♥ A♥ K♥", "trick 2: 9♥ K♥ A♥")
    r = client.post("/api/study/records", json={"name": "broken.prf", "text": broken})
    assert r.status_code == 201 and r.json()["problems"][0][0]["line"] > 0  # read leniently: the problem named
    huge = client.post("/api/study/records", content=b'{"text": "' + b"x" * (1024 * 1024 + 10) + b'"}',
                       headers={"content-type": "application/json"})  # fmt: skip
    assert huge.status_code == 413
    assert client.get("/api/study/records/nothing").status_code == 404


def test_the_board_solves_checks_and_plays(client: TestClient) -> None:
    pos = {"hands": [["A♠", "K♠", "7♥"], ["J♠", "10♠", "A♥"], ["9♠", "8♠", "K♥"]], "goal": "tricks", "trump": "♠",
           "declarer": 0, "leader": 2}  # fmt: skip
    r = client.post("/api/study/board", json={"position": pos}).json()
    assert r["to_play"] == 2 and r["values"] == {"8♠": 2, "9♠": 2, "K♥": 2} and r["value"] == 2
    after = client.post("/api/study/board", json={"position": r["text"], "play": "K♥", "taken": [0, 0, 0]}).json()
    assert after["to_play"] == 0 and after["position"]["trick"] == ["K♥"] and set(after["values"]) == {"7♥"}
    bad = client.post("/api/study/board", json={"position": {**pos, "hands": [["A♠", "K♠"], ["A♠"], []]}})
    assert bad.status_code == 400
    assert [p["ru"] for p in bad.json()["problems"]] == ["Карта A♠ сдана дважды"]
    uneven = client.post("/api/study/board", json={"position": {**pos, "hands": [["A♠", "K♠"], ["Q♠"], ["7♠"]]}})
    assert "поровну" in uneven.json()["problems"][0]["ru"]
    wrong = client.post("/api/study/board", json={"position": r["text"], "play": "A♠"})
    assert wrong.status_code == 400 and "K♥" in wrong.json()["problems"][0]["en"]
    misere = client.post("/api/study/board", json={"position": {**pos, "goal": "misere", "leader": 0}}).json()
    assert misere["focus"] == 0 and set(misere["best"]) <= set(misere["values"])
    all_pass = {"hands": [["A♠", "7♥"], ["J♠", "A♥"], ["9♠", "K♥"]], "goal": "allpass", "talon": ["8♠"]}
    ap = client.post("/api/study/board", json={"position": all_pass}).json()
    assert ap["focus"] == ap["to_play"] == 0  # each plays for himself: the values are the mover's own tricks


def test_puzzles_are_served_without_their_answer(client: TestClient) -> None:
    count = client.get("/api/study/puzzles").json()["count"]
    assert count == len(shipped()) >= 50
    p = client.get("/api/study/puzzles/1").json()
    assert "best" not in p and "values" not in p and "line" not in p
    pos = Position.parse(p["text"])
    if pos.goal == "allpass":
        pos = Position(pos.hands, pos.leader, pos.to_play, pos.goal, pos.trump, pos.trick, pos.talon, pos.talon_mode)
    values = best_moves(pos)
    want_more = (pos.goal == "tricks") == (pos.to_play == pos.declarer)
    best = (max if want_more else min)(values, key=lambda c: values[c])
    right = client.post("/api/study/puzzles/1", json={"card": str(best)}).json()
    assert right["right"] and right["best"] == str(best) and right["line"][0] == str(best)
    other = next(c for c in p["legal"] if c != str(best))
    assert not client.post("/api/study/puzzles/1", json={"card": other}).json()["right"]
    assert client.post("/api/study/puzzles/1", json={"card": "7♣x"}).status_code == 400
    assert client.get(f"/api/study/puzzles/{count + 1}").status_code == 404


def test_a_games_own_puzzles(client: TestClient) -> None:
    """The positions of a player's own game where one card decides, as puzzles (one a deal at
    most): found by the solver, served without their answer, the answer checked."""
    from preferans.rulings.puzzles import record_puzzles, verify

    rid = upload(client)
    listed = client.get(f"/api/study/records/{rid}/puzzles").json()
    expected = record_puzzles(load(GOLDEN / "sochi-pulka.prf"))
    assert listed == {"count": len(expected), "deals": [n for n, _ in expected]} and listed["count"] >= 1
    assert len(set(listed["deals"])) == len(listed["deals"])  # one a deal at most
    for k, (deal_no, z) in enumerate(expected, 1):
        assert verify(z) == [] and z.source.startswith(f"deal {deal_no}, trick ")
        p = client.get(f"/api/study/records/{rid}/puzzles/{k}").json()
        assert p["number"] == k and p["count"] == len(expected) and "best" not in p and p["text"] == z.position
        right = client.post(f"/api/study/records/{rid}/puzzles/{k}", json={"card": z.best}).json()
        assert right["right"] and right["line"][0] == z.best
        wrong = next(c for c in z.values if c != z.best)
        assert not client.post(f"/api/study/records/{rid}/puzzles/{k}", json={"card": wrong}).json()["right"]
    assert client.get(f"/api/study/records/{rid}/puzzles/{len(expected) + 1}").json()["error"] == "no_puzzle"
    assert client.post(f"/api/study/records/{rid}/puzzles/1", json={"card": "X"}).json()["error"] == "not_legal"
    assert client.get("/api/study/records/nosuch/puzzles").json()["error"] == "no_record"
    assert client.get(f"/study/record/{rid}/puzzles").status_code == 200


def test_a_finished_table_in_the_viewer_and_the_previous_deal(tmp_path: Any) -> None:
    limits = {"burst": 100000, "table_cpu_burst": 1000.0, "cpu_burst": 1000.0}  # a whole game played at once
    with closing_client(str(tmp_path / "t.db"), workers=0, **limits) as client:
        tid, t0 = create_table(client, players=3, spectators=False, options=["end_condition=deals", "max_deals=2"])
        tokens = {0: t0, 1: join(client, tid, 1, "Борис"), 2: join(client, tid, 2, "Вера")}
        conns = {s: Conn(client, tid, tok) for s, tok in tokens.items()}
        mine = cookie(tid, t0)
        assert client.get(f"/api/study/tables/{tid}", headers=mine).json()["error"] == "not_finished"
        rng = random.Random(5)
        assert play_game(client, tid, conns, [], rng) == 2
        # after «next deal» the deal before stays in every state of the next one
        prev = next(f["table"]["previous"] for f in conns[0].frames if f["type"] == "state" and f["deal"] == 2)
        assert prev["deal"] == 1 and prev["labels"]["ru"] and len(prev["hands"]) == 3 and prev["written"] is not None
        assert client.get(f"/api/study/tables/{tid}").json()["error"] == "players_only"
        game = client.get(f"/api/study/tables/{tid}", headers=mine).json()
        assert game["players"][1:] == ["Борис", "Вера"] and len(game["deals"]) == 2
        steps = client.get(f"/api/study/tables/{tid}/deals/1", headers=mine).json()
        # what a player has opened is kept, but never shown to a stranger for that
        for path in ("", "/deals/1", "/analysis", "/sheet.svg?after=1", "/puzzles", "/puzzles/1"):
            assert client.get(f"/api/study/tables/{tid}{path}").json()["error"] == "players_only", path
        table = client.app.state.hub.live[tid].game.table
        deal: Deal = table.past_deal(1)
        assert [m["action"] for m in steps["moves"]] == [str(a) for _, a in deal.moves]
        for c in conns.values():
            c.close()


def test_the_study_pages_are_served(client: TestClient) -> None:
    for path in ("/study", "/study/game/x", "/study/record/x", "/study/board", "/study/puzzles"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"], path
    assert json.loads(client.get("/api/i18n/ru").text)["messages"]["Study"] == "Разбор"


def test_an_archived_table_stays_in_the_viewer_for_the_same_people(tmp_path: Any) -> None:
    """Retention (issue 25) keeps a finished table's record: the viewer reads it from the archive,
    for its players only at a table without spectators."""
    from preferans.rules import Rules
    from preferans.server.archive import Archive, RetentionRule
    from preferans.server.game import TableConfig, TableGame
    from preferans.server.storage import Storage

    db = tmp_path / "a.db"
    storage = Storage(f"sqlite:///{db}")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    g, token = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3, spectators=False), seats, "Аня")
    rng = random.Random(3)
    while g.deal is not None and not g.deal.is_over:
        if g.bot_seat_to_act() is not None:
            g.bot_act()
        else:
            g.act(0, int(rng.choice(g.deal.legal_actions())))
    g.vote_stop(0)
    assert g.finished
    assert Archive(storage).archive(g.id, "finished", RetentionRule(finished=1), time.time() + 2)
    with make_client(str(db), workers=0) as client:
        assert client.get(f"/api/tables/{g.id}").status_code == 410
        assert client.get(f"/api/study/tables/{g.id}").json()["error"] == "players_only"
        mine = cookie(g.id, token)
        game = client.get(f"/api/study/tables/{g.id}", headers=mine).json()
        assert game["players"][0] == "Аня" and len(game["deals"]) == 1
        steps = client.get(f"/api/study/tables/{g.id}/deals/1", headers=mine).json()
        assert steps["states"][-1]["phase"] == "over"
        assert client.get(f"/api/study/tables/{g.id}/deals/1").json()["error"] == "players_only"
