"""Irregularities and claims at a web table, behind the table options (issue 10)."""

from __future__ import annotations

from typing import Any

from test_server import Conn, make_client

from server_helpers import Replayer, create_table, join

OPTIONS = {"irregularity_reports": "true", "claims": "true"}


def _three_people(client: Any, options: dict[str, str] | None = None) -> tuple[str, Conn, Conn, Conn]:
    tid, t0 = create_table(client, options=OPTIONS if options is None else options)
    t1, t2 = join(client, tid, 1, "B"), join(client, tid, 2, "C")
    a, b, c = Conn(client, tid, t0), Conn(client, tid, t1), Conn(client, tid, t2)
    b.until(lambda f: f["type"] == "state" and f["view"] is not None)
    return tid, a, b, c


def test_reports_are_refused_when_the_option_is_off(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        _, a, _, _ = _three_people(client, options={})
        a.send({"type": "report", "what": "misdeal", "offender": 2})
        assert a.until(lambda f: f["type"] == "error")["code"] == "option_off"
        a.send({"type": "claim", "tricks": 3})
        assert a.until(lambda f: f["type"] == "error")["code"] in ("option_off", "no_deal", "illegal")


def test_talon_exposed_is_stored_replayed_and_scored(tmp_path: Any) -> None:
    db = str(tmp_path / "g.db")
    with make_client(db) as client:
        tid, a, b, c = _three_people(client)
        assert b.last is not None and b.last["table"]["options"]["claims"] is True
        b.send({"type": "act", "action": "6♠"})
        b.until(lambda f: f["type"] == "ack")
        c.send({"type": "act", "action": "pass"})
        c.until(lambda f: f["type"] == "ack")
        a.send({"type": "act", "action": "6♣"})
        a.until(lambda f: f["type"] == "ack")
        # Kodeks 3.3.16.2: first hand (seat 1) opens the talon; seat 0 gets it at 6♣.
        c.send({"type": "report", "what": "talon-exposed", "offender": 1, "id": "r"})
        ack = c.until(lambda f: f["type"] == "ack")
        assert ack["ref"] == "r" and ack["pending"] and ack["n"] == 3  # an accusation, not yet a fact
        f = b.until(lambda f: f["type"] == "state" and f["table"]["accusation"] is not None)
        assert f["table"]["accusation"]["offender"] == 1 and f["table"]["accusation"]["waiting"] == [1]
        b.send({"type": "answer", "agree": True, "id": "y"})  # the accused confirms it
        assert b.until(lambda f: f["type"] == "ack")["pending"] is False
        state = a.until(lambda f: f["type"] == "state" and f["n"] == 4)
        assert state["view"]["phase"] == "discard" and state["view"]["declarer"] == 0
        Replayer(client, tid).check_frame(state)
        storage = client.app.state.storage
        assert [m[1] for m in storage.deals(tid)[0].moves][-1] == 109
    with make_client(db) as client:  # a restart replays the report from storage
        game = client.portal.call(client.app.state.hub.table, tid).game
        assert game.deal.phase.value == "discard" and game.deal.declarer == 0


def test_bad_report_frames(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        _, a, _, _ = _three_people(client)
        for msg, code in [
            ({"type": "report", "what": 5, "offender": 1}, "bad_report"),
            ({"type": "report", "what": "dance", "offender": 1}, "illegal"),
            ({"type": "report", "what": "misdeal", "offender": 9}, "bad_seat"),
            ({"type": "claim", "tricks": "all"}, "bad_claim"),
            ({"type": "claim", "tricks": 3}, "illegal"),  # no play yet
        ]:
            a.send(msg)
            assert a.until(lambda f: f["type"] == "error")["code"] == code, msg


def test_the_face_down_redraw_is_the_tables_and_nobody_chooses_it(tmp_path: Any) -> None:
    """One game loop: the server's automatic moves are the Table's (seeded by the deal), and a
    person cannot pick the dealer's face-down redraw (Kodeks 3.3.17)."""
    from preferans.rules import Rules
    from preferans.table import Table

    with make_client(str(tmp_path / "g.db"), bot_delay=0.5) as client:
        tid, a, b, _c = _three_people(client)
        assert b.last is not None and b.last["view"]["dealer"] == 0
        b.send({"type": "report", "what": "talon-taken", "offender": 2, "id": "r"})
        assert b.until(lambda f: f["type"] == "ack")["ref"] == "r"
        c = _c
        c.send({"type": "answer", "agree": True})  # C admits it
        assert c.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        f = a.until(lambda f: f["type"] == "state" and f["n"] == 1)
        assert f["view"]["phase"] == "redraw" and f["view"]["to_act"] == 0
        a.send({"type": "act", "action": f["view"]["legal"][0][0] if f["view"]["legal"] else 0, "n": 1})
        err = a.until(lambda f: f["type"] in ("error", "ack"))
        assert err["type"] == "error" and err["code"] == "not_your_turn", err
        f = a.until(lambda f: f["type"] == "state" and f["n"] == 3)
        assert f["view"]["phase"] == "bidding"
        storage = client.app.state.storage
        (stored,) = storage.deals(tid)
    rules = Rules.preset("sochi").replace(**OPTIONS)
    table = Table(rules, ["human"] * 3, names=["Ann", "B", "C"], start=False)
    table.next_deal(seed=stored.seed)
    table.move(*stored.moves[0])
    drawn = []
    for _ in range(2):
        auto = table.automatic_move()
        assert auto is not None
        table.move(*auto)
        drawn.append((auto[0], int(auto[1])))
    assert list(stored.moves[1:3]) == drawn



def _play_deal(conns: dict[int, Conn], rng: Any, number: int, penalty: bool) -> None:
    """Play deal ``number`` out: with ``penalty`` first and second hand bid and third hand
    (still bidding) says he opened the talon (Kodeks 3.3.16.3); else random legal moves."""
    from server_helpers import pick

    watch = conns[0]
    done: tuple[int, int] | None = None
    f = watch.last
    while True:
        if f is None or f["deal"] != number or (f["deal"], f["n"]) == done:
            f = watch.until(lambda g: g["type"] == "state")
            continue
        view = f["view"]
        if view["phase"] == "over":
            return
        k = (number, f["n"])
        actor = view["to_act"]
        mine = conns[actor]
        last = mine.last
        if last is None or (last["deal"], last["n"]) != k:
            last = mine.until(lambda g, k=k: g["type"] == "state" and (g["deal"], g["n"]) == k)
        v = last["view"]
        done, f = k, None
        n = k[1]
        if penalty and n == 2:  # a report about oneself takes effect at once
            mine.send({"type": "report", "what": "talon-exposed", "offender": actor, "id": "p"})
        elif penalty:
            mine.send({"type": "act", "action": ["6♠", "6♣"][n], "n": n})
        elif not v["legal"]:
            continue  # a move nobody chooses (the 3.3.17 redraw)
        else:
            mine.send({"type": "act", "action": pick(v, rng), "n": n})
        ack = mine.until(lambda g: g["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack


def test_a_whole_game_with_penalty_deals_and_a_restart(tmp_path: Any) -> None:
    """Kodeks 3.3.16.3 deals are first-class: written on the sheet with the assessment, kept
    through a restart, in the record and the analysis, and the game closes on one."""
    import random

    from preferans.record import loads

    db = str(tmp_path / "g.db")
    rng = random.Random(5)
    options = {**OPTIONS, "end_condition": "deals", "max_deals": "3"}
    with make_client(db) as client:
        tid, t0 = create_table(client, options=options)
        tokens = {0: t0, 1: join(client, tid, 1, "B"), 2: join(client, tid, 2, "C")}
        conns = {s: Conn(client, tid, t) for s, t in tokens.items()}
        _play_deal(conns, rng, 1, penalty=True)
        game = client.app.state.hub.live[tid].game
        (first,) = game.pulka.results
        assert first.kind.value == "penalty" and first.penalty  # assessed: whists on the offender
        conns[0].send({"type": "next", "id": "n1"})
        conns[0].until(lambda f: f["type"] == "ack")
    with make_client(db) as client:  # the server restarts in the middle of the game
        # loaded from storage on demand (the deal's assessment worked out again in a worker process)
        game = client.portal.call(client.app.state.hub.table, tid).game
        assert list(game.pulka.results) == [first]
        conns = {s: Conn(client, tid, t) for s, t in tokens.items()}
        _play_deal(conns, rng, 2, penalty=False)
        conns[0].send({"type": "next", "id": "n2"})
        conns[0].until(lambda f: f["type"] == "ack")
        _play_deal(conns, rng, 3, penalty=True)  # the game closes on a penalty deal
        f = conns[1].until(lambda f: f["type"] == "state" and f["table"]["status"] == "finished")
        assert len(f["table"]["settlement"]) == 3
        rec = client.get(f"/api/tables/{tid}/record")
        assert rec.status_code == 200
        record = loads(rec.text)  # replays every deal and the sheet, penalty lines included
        assert len(record.deals) == 3
        entries = record.deals[0].entries
        assert entries and {e.why for e in entries} == {"penalty"}
        assert loads(client.get(f"/api/tables/{tid}/record?format=json").text) == record
        analysis = client.get(f"/api/tables/{tid}/analysis")
        assert analysis.status_code == 200 and len(analysis.json()["deals"]) == 3
    with make_client(db) as client:  # and it stays over
        assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"



def test_an_accusation_the_accused_denies_is_not_stored(tmp_path: Any) -> None:
    """An accusation is not a fact: B says C saw the talon, C denies it, nothing happened."""
    with make_client(str(tmp_path / "g.db")) as client:
        tid, a, b, c = _three_people(client)
        b.send({"type": "report", "what": "misdeal", "offender": 2, "id": "r"})
        assert b.until(lambda f: f["type"] == "ack")["pending"] is True
        a.send({"type": "answer", "agree": True, "id": "x"})  # not A's to answer
        assert a.until(lambda f: f["type"] == "error")["code"] == "bad_seat"
        c.send({"type": "answer", "agree": "maybe"})
        assert c.until(lambda f: f["type"] == "error")["code"] == "bad_answer"
        c.send({"type": "answer", "agree": False, "id": "n"})
        ack = c.until(lambda f: f["type"] == "ack")
        assert ack["pending"] is False and ack["action"] is None and ack["n"] == 0
        f = a.until(lambda f: f["type"] == "state" and f["table"]["accusation"] is None)
        assert f["view"]["phase"] == "bidding"
        storage = client.app.state.storage
        assert list(storage.deals(tid)[0].moves) == []
