"""гусарик on the web server (docs/rules.md §16): a table of two players and the dummy.

The create request takes ``players: 2`` and a seat spec per player; the seat list every frame
carries has the dummy as a third entry (``kind: "dummy"``, always taken, nobody's); the
dummy's cards reach nobody's view until the whister lays it down, and the whister is asked to
play its cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server_helpers import cards_in_view, cookie, create_table, make_client, pick


def frames_of_a_deal(client: Any, tid: str, token: str, seed: int) -> list[dict[str, Any]]:
    """Play seat 0 at random (whisting whenever he may) until the deal is over; every state frame."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{tid}", headers=cookie(tid, token)) as ws:
        while True:
            f = ws.receive_json()
            if f.get("type") != "state":
                continue
            out.append(f)
            v = f["view"]
            if v["phase"] == "over":
                return out
            if v["to_act"] == 0:
                whist = [a for a, text in v["legal"] if text == "whist"]
                ws.send_json({"type": "act", "action": whist[0] if whist else pick(v, rng), "n": f["n"]})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_two_player_table_with_the_dummy(tmp_path: Any, seed: int) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        frames = frames_of_a_deal(client, tid, tok, seed)
        seats = frames[-1]["table"]["seats"]
        assert [(s["seat"], s["kind"], s["taken"]) for s in seats] == [(0, "human", True), (1, "bot", True),
                                                                      (2, "dummy", True)]  # fmt: skip
        assert frames[-1]["table"]["players"] == 2
        result = frames[-1]["table"]["result"]
        dummy = set(result["hands"]["2"])  # as dealt, shown after the deal
        assert len(dummy) == 10
        for f in frames:
            v = f["view"]
            shown = "2" in v["known_hands"]
            if shown:
                # laid down to whist or to catch a misère, never in the auction
                assert v["contract"] is not None and v["phase"] in ("play", "over"), v["phase"]
            else:  # face down: of the dummy's cards the view holds only those it played
                played = {c for s, c in v["trick"] if s == 2} | {c for t in v["completed_tricks"]
                                                                 for s, c in t["cards"] if s == 2}  # fmt: skip
                assert cards_in_view(v) & dummy <= played
            if v["phase"] == "play" and v["to_play"] == 2 and v["contract"] is not None:
                assert v["to_act"] in (0, 1) and shown  # the whister plays the dummy open
        assert len(frames[-1]["table"]["sheet"]["pool"]) == 2


@pytest.mark.parametrize("body", [{"players": 5}, {"players": 2, "seats": [{"kind": "human"}] * 3}])
def test_bad_two_player_tables_are_refused(tmp_path: Any, body: dict[str, Any]) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        r = client.post("/api/tables", json={"name": "Ann", **body})
        assert r.status_code == 400 and ("players" in r.text or "seats" in r.text), r.text


def test_a_claim_between_two_people_is_answered_and_the_table_reloads(tmp_path: Any) -> None:
    """Issue 25: the declarer's claim was put to the dummy (nobody sits there), so the table froze
    and every reload failed.  The whister answers for his side (rules.md §16); after a restart the
    table loads, and the game's record replays and is analysed with the dummy's cards in it."""
    from test_server import Conn

    from preferans.cli import main
    from preferans.record import loads
    from preferans.rulings.analysis import analyze
    from server_helpers import join

    db = str(tmp_path / "g.db")
    with make_client(db) as client:
        tid, t0 = create_table(client, players=2, options=["claims=true"],
                               seats=[{"kind": "human"}, {"kind": "human"}])  # fmt: skip
        t1 = join(client, tid, 1, "Bob")
        conns = {0: Conn(client, tid, t0), 1: Conn(client, tid, t1)}
        cur = conns[1].until(lambda f: f["type"] == "state" and f["view"] is not None)
        claimed = False
        while cur["view"]["phase"] != "over":
            seat = cur["view"]["to_act"]
            me = conns[seat]
            v = me.state_at(cur["deal"], cur["n"])["view"]
            texts = {text: a for a, text in v["legal"]}
            if v["phase"] == "play" and not claimed and seat == v["declarer"]:
                claimed = True
                me.send({"type": "claim", "tricks": 10 - len(v["completed_tricks"])})
            elif v["phase"] == "bidding":
                me.send({"type": "act", "action": texts.get("6♠") if not v["moves"] else texts["pass"]})
            else:  # the talon, the discard and the contract as they come; the defender whists; accept
                me.send({"type": "act", "action": texts.get("accept", texts.get("whist", v["legal"][0][0]))})
            assert me.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
            cur = me.state_at(cur["deal"], cur["n"] + 1)
        view = cur["view"]
        assert claimed and view["phase"] == "over"
        for c in conns.values():
            c.send({"type": "stop"})
        conns[0].until(lambda f: f["type"] == "state" and f["table"]["status"] == "finished")
        for c in conns.values():
            c.close()
    with make_client(db) as client:  # a restart loads the table from its stored moves
        assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"
        text = client.get(f"/api/tables/{tid}/record").text
        analysis = client.get(f"/api/tables/{tid}/analysis")
        assert analysis.status_code == 200, analysis.text
    record = loads(text)
    assert "dummy" in analyze(record).text()
    path = tmp_path / "g.prf"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", "--all", str(path)]) in (0, None)
