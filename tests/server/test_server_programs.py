"""Bot programs on the web server: the operator offers them as levels (``--bot-program NAME=COMMAND``);
a table seats one like any bot, it is told the game, each deal and its outcome, and a restarted
server tells it only the game and the deal in progress."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot_helpers import messages, recorder_bot
from preferans.errors import PreferansError
from preferans.rules import Rules
from preferans.server.game import GameError, TableConfig, TableGame, parse_programs
from preferans.server.storage import Storage
from server_helpers import make_client


def _play_person(g: TableGame, rng: random.Random, moves: int) -> None:
    """The person in seat 0 answers at random; bots move; ``moves`` of the person's at most."""
    for _ in range(400):
        if g.deal is None or g.deal.is_over:
            return
        if g.bot_seat_to_act() is not None:
            g.bot_act()
            continue
        if moves == 0:
            return
        g.act(0, int(rng.choice(g.deal.legal_actions())))
        moves -= 1


@pytest.mark.subprocess
def test_a_program_seat_on_the_server(tmp_path: Path) -> None:
    command, log = recorder_bot(tmp_path)
    programs = {"recorder": " ".join(command)}
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    config = TableConfig(Rules.preset("sochi"), 3)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "recorder"}, {"kind": "bot", "level": "random"}]
    g, _ = TableGame.create(storage, config, seats, "Ann", programs=programs)
    rng = random.Random(3)
    try:
        _play_person(g, rng, 1000)
        assert g.deal is not None and g.deal.is_over
        g.start_deal()
        _play_person(g, rng, 2)  # deal 2 under way
    finally:
        g.close()
    first = messages(log)
    assert [m["type"] for m in first[:3]] == ["hello", "rules", "game"] and first[2]["seat"] == 1
    assert [m["number"] for m in first if m["type"] == "deal"] == [1, 2]
    assert [m["number"] for m in first if m["type"] == "result"] == [1]
    log.write_text("")
    again = TableGame.load(storage, g.id, programs=programs)  # the server restarted
    assert again is not None
    try:
        _play_person(again, rng, 1000)
    finally:
        again.close()
    after = messages(log)
    assert [m["type"] for m in after[:4]] == ["hello", "rules", "game", "deal"]
    assert [m["number"] for m in after if m["type"] == "deal"] == [2]  # deal 1 is not told again
    assert [m["number"] for m in after if m["type"] == "result"] == [2]


def test_programs_are_offered_as_levels(tmp_path: Path) -> None:
    with make_client(str(tmp_path / "g.db"), bot_programs={"mine": "/bin/false"}) as client:
        assert client.get("/api/presets").json()["bot_levels"][-1] == "mine"
        r = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"},
                        {"kind": "bot", "level": "nobody"}, {"kind": "bot", "level": "random"}]})  # fmt: skip
        assert r.status_code == 400 and "'nobody'" in r.json()["message"] and "mine" in r.json()["message"]
    storage = Storage(f"sqlite:///{tmp_path / 'h.db'}")
    with pytest.raises(GameError, match="level: one of random"):
        TableGame.create(storage, TableConfig(Rules(), 3), [{"kind": "human"}, {"kind": "bot", "level": "mine"},
                         {"kind": "bot", "level": "random"}], "Ann")  # fmt: skip  # not offered here


@pytest.mark.parametrize(("text", "match"), [("medium=./x", "one of our levels"), ("noequals", "NAME=COMMAND"),
                                             ("a b=./x", "NAME=COMMAND"), ("x=", "NAME=COMMAND")])  # fmt: skip
def test_bad_program_options(text: str, match: str) -> None:
    with pytest.raises(PreferansError, match=match):
        parse_programs([text])
