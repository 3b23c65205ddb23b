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
        assert ack["ref"] == "r"
        state = a.until(lambda f: f["type"] == "state" and f["n"] == 4)
        assert state["view"]["phase"] == "discard" and state["view"]["declarer"] == 0
        Replayer(client, tid).check_frame(state)
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert [m[1] for m in storage.deals(tid)[0].moves][-1] == 109
    with make_client(db) as client:  # a restart replays the report from storage
        game = client.app.state.hub.game(tid)  # type: ignore[attr-defined]
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
        tid, a, b, _ = _three_people(client)
        assert b.last is not None and b.last["view"]["dealer"] == 0
        b.send({"type": "report", "what": "talon-taken", "offender": 2, "id": "r"})
        assert b.until(lambda f: f["type"] == "ack")["ref"] == "r"
        f = a.until(lambda f: f["type"] == "state" and f["n"] == 1)
        assert f["view"]["phase"] == "redraw" and f["view"]["to_act"] == 0
        a.send({"type": "act", "action": f["view"]["legal"][0][0] if f["view"]["legal"] else 0, "n": 1})
        err = a.until(lambda f: f["type"] in ("error", "ack"))
        assert err["type"] == "error" and err["code"] == "not_your_turn", err
        f = a.until(lambda f: f["type"] == "state" and f["n"] == 3)
        assert f["view"]["phase"] == "bidding"
        storage = client.app.state.storage  # type: ignore[attr-defined]
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
