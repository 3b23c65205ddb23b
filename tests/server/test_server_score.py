"""The score keeper's pages and API (/score): a sheet made without an account, deals entered as
the table says them, mistakes named in the page's language, corrections, the read-only link, the
versions that keep a lost answer from writing a deal twice, and the same settlement as
``preferans score``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.server.app import create_app
from server_helpers import create_table, make_client

GAME = [
    "Аня 6♠ вист Боря пас Вася, 6 взяток",
    "боря 7 треф, оба вистуют, Вася 2 Аня 1",
    "распасы ан3 б5 в2",
    "Вася мизер чистый",
    "Аня 8 бк пас пас",
    "Б 6 червей вист Аня пас Вася без одной",
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: Any) -> Iterator[TestClient]:
    with make_client(str(tmp_path_factory.mktemp("score") / "s.db")) as c:
        yield c


def new_sheet(client: TestClient, **body: Any) -> tuple[str, str]:
    body.setdefault("players", ["Аня", "Боря", "Вася"])
    r = client.post("/api/score", json=body)
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return r.json()["id"], r.json()["key"]


def add(client: TestClient, sid: str, key: str, line: str, version: int | None = None, **kw: Any) -> Any:
    body = {"text": line, **({"version": version} if version is not None else {}), **kw}
    return client.post(f"/api/score/{sid}/deals?lang=ru", json=body, headers={"x-score-key": key})


def test_a_game_entered_as_said_settles_as_the_command_does(client: TestClient, tmp_path: Path) -> None:
    sid, key = new_sheet(client, rules="sochi", pool=10)
    for v, line in enumerate(GAME):
        r = add(client, sid, key, line, v)
        assert r.status_code == 200, r.text
    state = client.get(f"/api/score/{sid}?lang=ru").json()
    assert state["version"] == 6 and len(state["deals"]) == 6 and not state["can_edit"]
    assert state["deals"][0]["label"] == "Аня 6♠ сыграна" and state["deals"][2]["text"] == "распасы ан3 б5 в2"
    whole = {t["name"]: t["whole"] for t in state["totals"]}
    # The same lines through `preferans score` (the keeper's own reader): the same whole whists.
    keeper = ScoreKeeper.from_lines(GAME, players=["Аня", "Боря", "Вася"],
                                    overrides=["pool_target=10"])  # fmt: skip
    s = keeper.pulka.settlement()
    assert whole == {n: ("+" if w > 0 else "") + str(w) for n, w in zip(keeper.names, s.whole, strict=True)}
    assert sum(s.whole) == 0
    words = " ".join(label for label, _ in state["settlement"]["rows"])
    assert "в целых вистах" in words and "/3" not in str(state["settlement"])
    saved = client.get(f"/api/score/{sid}/game.jsonl").text.splitlines()
    again = ScoreKeeper.from_lines(saved)
    assert again.pulka.settlement().whole == s.whole
    svg = client.get(f"/api/score/{sid}/sheet.svg?lang=ru&layout=phone")
    assert svg.status_code == 200 and "пуля" in svg.text and "<svg" in svg.text


def test_mistakes_are_named_in_the_pages_language_and_change_nothing(client: TestClient) -> None:
    sid, key = new_sheet(client, set=["za_svoimi=true"])
    r = add(client, sid, key, "Гена 6♠ пас пас", 0)
    assert r.status_code == 400 and "Гена" in r.json()["message"] and r.json()["texts"]["en"] != r.json()["message"]
    r = add(client, sid, key, "Аня 6♠ вист Боря пас Вася", 0)  # a lone whist, no tricks: «за своими»?
    assert r.status_code == 409 and r.json()["error"] == "confirm"
    assert client.get(f"/api/score/{sid}").json()["version"] == 0
    r = add(client, sid, key, "Аня 6♠ вист Боря пас Вася", 0, quota=True)
    assert r.status_code == 200 and r.json()["deals"][0]["quota"] is True
    r = client.post(f"/api/score/{sid}/check?lang=ru", json={"text": "Боря 7♥ пас пас"})
    assert r.status_code == 200 and r.json()["label"] == "Боря 7♥ без вистов" and "Боря пуля 4" in r.json()["written"]


def test_an_earlier_deal_corrected_or_taken_out_rewrites_the_later_ones(client: TestClient) -> None:
    sid, key = new_sheet(client)
    for v, line in enumerate(GAME[:3]):
        assert add(client, sid, key, line, v).status_code == 200
    h = {"x-score-key": key}
    r = client.put(f"/api/score/{sid}/deals/0?lang=ru", json={"text": "Аня 7♠ пас пас", "version": 3}, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["deals"][0]["label"] == "Аня 7♠ без вистов" and r.json()["version"] == 4
    r = client.put(f"/api/score/{sid}/deals/1?lang=ru", json={"text": "Боря 7 треф пас пас Аня 9", "version": 4},
                   headers=h)  # fmt: skip
    assert r.status_code == 400 and r.json()["message"].startswith("сдача 2")
    r = client.request("DELETE", f"/api/score/{sid}/deals/0?lang=ru", json={"version": 4}, headers=h)
    assert r.status_code == 200 and len(r.json()["deals"]) == 2 and r.json()["deals"][0]["dealer"] == "Аня"
    assert client.request("DELETE", f"/api/score/{sid}/deals/7", json={"version": 5}, headers=h).status_code == 404


def test_the_read_link_cannot_write_and_a_repeated_deal_is_not_written_twice(client: TestClient) -> None:
    sid, key = new_sheet(client)
    assert add(client, sid, "wrong", GAME[0], 0).status_code == 403
    assert client.post(f"/api/score/{sid}/deals", json={"text": GAME[0]}).status_code == 403
    assert add(client, sid, key, GAME[0], 0).status_code == 200
    again = add(client, sid, key, GAME[0], 0)  # the answer was lost; the phone sends it again
    assert again.status_code == 409 and again.json()["error"] == "stale" and len(again.json()["deals"]) == 1
    assert client.get(f"/api/score/{sid}?since=1").json() == {"version": 1}
    assert "deals" in client.get(f"/api/score/{sid}?since=0").json()
    assert client.get("/api/score/nope").status_code == 404


def test_a_new_sheet_checks_its_fields(client: TestClient) -> None:
    for body, word in [({"players": ["Аня"]}, "players"), ({"players": ["Аня", "аня", "Вася"]}, "players"),
                       ({"players": ["A", "B", "C"], "rules": "moscow"}, "rules"),
                       ({"players": ["A", "B", "C"], "pool": 0}, "pool"),
                       ({"players": ["A", "B", "C"], "set": ["pool_targt=5"]}, "pool_targt")]:  # fmt: skip
        r = client.post("/api/score?lang=ru", json=body)
        assert r.status_code == 400 and word in r.json()["texts"]["en"], (body, r.text)
    r = client.post("/api/score", json={"players": ["Аня", "Боря", "Вася"]})
    sid = r.json()["id"]
    assert r.cookies[f"score_{sid}"] == r.json()["key"]  # the creator's phone edits without the key in the URL
    assert client.get(f"/api/score/{sid}").json()["can_edit"] is True
    client.cookies.clear()
    for path in ("/score", f"/score/{sid}", f"/score/{sid}/view"):
        assert client.get(path).status_code == 200


def test_a_tables_sheet_comes_in_the_phone_layout_too(client: TestClient) -> None:
    """The table page asks a phone's sheet in the phone layout (its words ≥ 12 px at 390 wide)."""
    tid, _ = create_table(client, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    wide = client.get(f"/api/tables/{tid}/sheet.svg?lang=ru").text
    phone = client.get(f"/api/tables/{tid}/sheet.svg?lang=ru&layout=phone").text
    assert 'viewBox="0 0 440 ' in phone and 'viewBox="0 0 440 ' not in wide and "пуля" in phone


def test_the_sheets_live_on_postgresql_too(pg_url: str) -> None:
    """The same sheet on PostgreSQL: written, stale changes refused, read back by a second server."""
    with TestClient(create_app(pg_url, allowed_hosts=("testserver",), bot_delay=0.0)) as first:
        sid, key = new_sheet(first)
        assert add(first, sid, key, GAME[0], 0).status_code == 200
        assert add(first, sid, key, GAME[1], 0).status_code == 409  # made on version 0: the sheet is at 1
    with TestClient(create_app(pg_url, allowed_hosts=("testserver",), bot_delay=0.0)) as second:
        state = second.get(f"/api/score/{sid}?lang=ru").json()
        assert [d["text"] for d in state["deals"]] == GAME[:1] and state["version"] == 1
