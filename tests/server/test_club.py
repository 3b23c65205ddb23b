"""The club through the test client: accounts, seats held by accounts, history, ratings, the lobby,
duplicate matches — and the refusals (docs/club.md)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

from club_helpers import ONE_DEAL, cookies, create, play_out, register, seat_cookie, session
from server_helpers import make_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: Any) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("club") / "club.db"
    with make_client(str(db), login_burst=1000.0, rate=1e6, burst=1e6) as c:
        yield c


# -- accounts ------------------------------------------------------------------------------------------
def test_register_sign_in_and_out(client: TestClient) -> None:
    s = register(client, "Анна")
    assert client.get("/api/me", headers=session(s)).json()["account"]["name"] == "Анна"
    assert client.get("/api/me").json()["account"] is None  # a guest
    r = client.post("/api/account/signin", json={"name": "аННа", "password": "correct horse"})  # any case
    assert r.status_code == 200 and r.json()["account"]["name"] == "Анна"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "correct horse" not in cookie
    second = str(r.cookies["pref_session"])
    client.cookies.clear()
    r = client.post("/api/account/signout", json={}, headers=session(second))
    assert r.status_code == 200
    assert client.get("/api/me", headers=session(second)).json()["account"] is None  # that session is gone
    assert client.get("/api/me", headers=session(s)).json()["account"]["name"] == "Анна"  # the other holds
    assert client.get("/api/me", headers=session(s[:-2] + "xx")).json()["account"] is None  # forged


@pytest.mark.parametrize(("name", "code"), [("ab", "bad_name"), ("9lives", "bad_name"), ("a b c", "bad_name"),
                                            ("x" * 21, "bad_name"), (None, "bad_name"), ("ok__no", "bad_name")])
def test_bad_names_are_refused_in_both_languages(client: TestClient, name: Any, code: str) -> None:
    r = client.post("/api/account/register", json={"name": name, "password": "long enough"})
    assert r.status_code == 400 and r.json()["error"] == code
    texts = r.json()["texts"]
    assert texts["en"].startswith("name:") and texts["ru"].startswith("имя:"), texts


def test_duplicate_names_whatever_the_case(client: TestClient) -> None:
    register(client, "Boris")
    for spelling in ("boris", "BORIS", "Ｂｏｒｉｓ"):
        r = client.post("/api/account/register", json={"name": spelling, "password": "another one"})
        assert r.status_code == 409 and r.json()["error"] == "name_taken", r.text
        assert "taken" in r.json()["texts"]["en"] and "занято" in r.json()["texts"]["ru"]


def test_wrong_passwords_and_short_ones(client: TestClient) -> None:
    register(client, "Vera")
    r = client.post("/api/account/signin", json={"name": "Vera", "password": "not her password"})
    assert r.status_code == 401 and r.json()["error"] == "wrong_password"
    assert "not her password" not in r.text
    r = client.post("/api/account/signin", json={"name": "Nobody", "password": "whatever it is"})
    assert r.status_code == 401 and r.json()["error"] == "wrong_password"  # the same answer: names are not told
    r = client.post("/api/account/register", json={"name": "Gleb", "password": "short"})
    assert r.status_code == 400 and r.json()["error"] == "bad_password" and "short" not in r.text


def test_one_megabyte_fields_are_refused_before_parsing(client: TestClient) -> None:
    huge = "я" * (1 << 20)
    for path in ("/api/account/register", "/api/account/signin", "/api/matches", "/api/tables"):
        r = client.post(path, json={"name": huge, "password": huge})
        assert r.status_code == 413 and r.json()["error"] == "too_big", (path, r.text[:200])
    # under the body limit, a field over its own limit is named
    r = client.post("/api/account/register", json={"name": "x" * 2000, "password": "long enough"})
    assert r.status_code == 400 and r.json()["error"] == "bad_name"
    r = client.post("/api/account/register", json={"name": "Longpass", "password": "p" * 5000})
    assert r.status_code == 400 and r.json()["error"] == "bad_password"


def test_wrong_passwords_are_limited_per_account(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "limit.db"), login_burst=1000.0) as c:
        register(c, "Dmitri")
        codes = [c.post("/api/account/signin", json={"name": "Dmitri", "password": f"guess {k}"}).status_code
                 for k in range(12)]  # fmt: skip
        assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
        r = c.post("/api/account/signin", json={"name": "Dmitri", "password": "correct horse"})
        assert r.status_code == 429 and "minute" in r.json()["texts"]["en"]  # even the right one, for a while
    with make_client(str(tmp_path / "limit2.db"), login_burst=3.0) as c:  # and per address
        codes = [c.post("/api/account/signin", json={"name": f"N{k}xx", "password": "whatever it is"}).status_code
                 for k in range(5)]  # fmt: skip
        assert codes == [401, 401, 401, 429, 429]


# -- seats held by accounts; nobody acts for another -------------------------------------------------
def test_an_account_holds_its_seat_from_any_browser_and_nobody_else_does(client: TestClient) -> None:
    ann, eve = register(client, "Ann_2"), register(client, "Eve")
    tid, token = create(client, session(ann), name="typed name is ignored", seats=[
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}], spectators=False)  # fmt: skip
    info = client.get(f"/api/tables/{tid}", headers=session(ann)).json()
    assert info["you"] == 0 and info["seats"][0]["name"] == "Ann_2"  # another browser: no seat cookie, signed in
    assert client.get(f"/api/tables/{tid}", headers=session(eve)).json()["you"] is None
    # Eve cannot take Ann's seat, and with the free one she is at seat 1 only
    r = client.post(f"/api/tables/{tid}/seats/0", json={"name": "Eve"}, headers=session(eve))
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = client.post(f"/api/tables/{tid}/seats/1", json={"name": "Ann_2"}, headers=session(eve))
    assert r.status_code == 200
    client.cookies.clear()
    info = client.get(f"/api/tables/{tid}", headers=session(eve)).json()
    assert info["you"] == 1 and info["seats"][1]["name"] == "Eve"  # as herself, whatever she typed
    r = client.post(f"/api/tables/{tid}/seats/1", json={}, headers=session(ann))
    assert r.status_code == 409 and r.json()["error"] == "already_seated"
    # over the WebSocket each is his own seat: Eve's session never shows Ann's hand nor acts for her
    with client.websocket_connect(f"/ws/{tid}", headers=session(eve)) as ws:
        f = ws.receive_json()
        assert f["you"] == 1 and f["view"]["seat"] == 1
        ann_view = client.websocket_connect(f"/ws/{tid}", headers=session(ann))
        with ann_view as other:
            g = other.receive_json()
            assert g["you"] == 0 and set(g["view"]["hand"]).isdisjoint(f["view"]["hand"])
        if f["view"]["to_act"] == 0:
            ws.send_json({"type": "act", "action": f["view"]["legal"][0][0] if f["view"]["legal"] else 0})
            assert ws.receive_json()["code"] in ("not_your_turn", "illegal")
    # a visitor with Ann's session but nothing else is Ann; with a forged session he is nobody
    with client.websocket_connect(f"/ws/{tid}", headers=session(ann[:-3] + "abc")) as ws:
        assert ws.receive_json()["you"] is None
    # the table has no spectators: a stranger gets no view
    with client.websocket_connect(f"/ws/{tid}") as ws:
        assert ws.receive_json()["view"] is None
    assert token


# -- history and ratings ------------------------------------------------------------------------------------
def test_a_pulka_with_a_bot_goes_into_both_histories_and_moves_the_ratings(client: TestClient) -> None:
    ann, ben = register(client, "Anya"), register(client, "Benedikt")
    tid, _ = create(client, session(ann), rules="sochi", options=ONE_DEAL, seats=[
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])  # fmt: skip
    assert client.post(f"/api/tables/{tid}/seats/1", json={}, headers=session(ben)).status_code == 200
    client.cookies.clear()
    before = client.get("/api/ratings?pool=sochi-3").json()["players"]
    assert not [p for p in before if p["name"] in ("Anya", "Benedikt")]
    table = play_out(client, tid, {0: session(ann), 1: session(ben)})
    assert table["status"] == "finished"
    for name, seat in (("Anya", 0), ("Benedikt", 1)):
        prof = client.get(f"/api/users/{name.lower()}").json()  # profiles are public; any case finds them
        assert prof["name"] == name and prof["total"] == 1
        entry = prof["history"][0]
        assert entry["table"] == tid and entry["seat"] == seat and entry["rated"] == "sochi-3"
        assert entry["result"] == table["settlement"][seat]
        # what the profile shows: whole whists as paper settles them, the same as the table's result panel
        assert entry["whole"] == int(table["settlement_whole"][seat])
        assert [s["whole"] for s in entry["seats"]] == [int(w) for w in table["settlement_whole"]]
        assert [s["name"] for s in entry["seats"]] == ["Anya", "Benedikt", "Bot 3"]
        assert entry["seats"][2]["level"] == "easy" and entry["seats"][0]["profile"] == "Anya"
        (rating,) = prof["ratings"]
        assert rating["pool"] == "sochi-3" and rating["games"] == 1 and rating["provisional"]
    board = client.get("/api/ratings?pool=sochi-3").json()["players"]
    by_name = {p["name"]: p for p in board}
    assert {"Anya", "Benedikt", "bot:easy"} <= set(by_name) and by_name["bot:easy"]["bot"]
    results = [Fraction(x) for x in table["settlement"]]
    if len(set(results)) > 1:  # somebody won: the ratings moved apart
        assert len({by_name[n]["mu"] for n in ("Anya", "Benedikt", "bot:easy")}) > 1
    svg = client.get("/api/users/Anya/rating.svg?pool=sochi-3&lang=ru").text
    assert svg.startswith("<svg") and "Рейтинг" in svg and "<polyline" in svg
    # the club's own copy of the record and the sheet
    rec = client.get(f"/api/club/games/{tid}/record")
    assert rec.status_code == 200 and "Anya" in rec.text
    assert client.get(f"/api/club/games/{tid}/sheet.svg?lang=ru").text.startswith("<svg")
    # the end is written once, whoever asks again
    club = client.app.state.club  # type: ignore[attr-defined]
    live = client.app.state.hub.live[tid]  # type: ignore[attr-defined]
    assert club.game_finished(live.game) is False
    assert client.get("/api/users/Anya").json()["total"] == 1


def test_another_persons_private_game_and_unknown_ids(client: TestClient) -> None:
    ann, eve = register(client, "Annika"), register(client, "Evelina")
    tid, _ = create(client, session(ann), options=ONE_DEAL, spectators=False, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])  # fmt: skip
    play_out(client, tid, {0: session(ann)})
    assert client.get(f"/api/club/games/{tid}/record", headers=session(ann)).status_code == 200
    for who in (session(eve), {}):
        r = client.get(f"/api/club/games/{tid}/record", headers=who)
        assert r.status_code == 403 and r.json()["error"] == "players_only"
        assert client.get(f"/api/club/games/{tid}/sheet.svg", headers=who).status_code == 403
    # the profile lists it (profiles are public) but not its record
    assert client.get("/api/users/Annika").json()["history"][0]["table"] == tid
    for path in ("/api/club/games/nosuchgame/record", "/api/club/games/" + "x" * 300, "/api/users/nobody_here",
                 "/api/matches/nosuchmatch"):  # fmt: skip
        r = client.get(path)
        assert r.status_code == 404 and r.json()["texts"]["ru"], path


def test_a_guest_at_the_table_keeps_it_unrated_and_agreement_too(client: TestClient) -> None:
    ann = register(client, "Arkady")
    tid, _ = create(client, session(ann), options=ONE_DEAL, seats=[
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])  # fmt: skip
    r = client.post(f"/api/tables/{tid}/seats/1", json={"name": "Guest"})
    guest = str(r.cookies[f"pref_{tid}"])
    client.cookies.clear()
    play_out(client, tid, {0: session(ann), 1: seat_cookie(tid, guest)})
    entry = client.get("/api/users/Arkady").json()["history"][0]
    assert entry["rated"] == "" and entry["seats"][1]["name"] == "Guest"
    assert client.get("/api/users/Arkady").json()["ratings"] == []


# -- the lobby ----------------------------------------------------------------------------------------------
def test_the_lobby_lists_open_public_tables_only(client: TestClient) -> None:
    ann = register(client, "Lobbyist")
    open_id, _ = create(client, session(ann), seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    private_id, token = create(client, {}, private=True, seats=[{"kind": "human"}, {"kind": "human"},
                                                                 {"kind": "bot"}])  # fmt: skip
    full_id, _ = create(client, {}, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    listed = {t["id"]: t for t in client.get("/api/open-tables").json()["tables"]}
    assert open_id in listed and private_id not in listed and full_id not in listed
    t = listed[open_id]
    assert t["rules"] == "sochi" and t["players"] == 3 and t["pool"] == 20
    assert [s["name"] for s in t["seats"]] == ["Lobbyist", "", "Bot 3"] and [s["taken"] for s in t["seats"]] == [
        True, False, True]  # fmt: skip
    # the private table's link works: a visitor sits down and the game starts
    assert client.post(f"/api/tables/{private_id}/seats/1", json={"name": "Friend"}).status_code == 200
    client.cookies.clear()
    assert client.get(f"/api/tables/{private_id}", headers=cookies(seat_cookie(private_id, token))).json()["you"] == 0
    r = client.post("/api/tables", json={"private": "yes", "seats": [{"kind": "human"}] * 3})
    assert r.status_code == 400 and "private" in r.json()["message"]


# -- duplicate matches ---------------------------------------------------------------------------------------
def test_a_duplicate_match_deals_the_same_cards_and_compares_them(client: TestClient) -> None:
    ann, ben = register(client, "Matchmaker"), register(client, "Rival")
    body = {"rules": "leningrad", "options": ["end_condition=deals", "max_deals=2"], "players": 3,
            "tables": [[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}],
                       [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}],
                       [{"kind": "bot", "level": "easy"}] * 3]}  # fmt: skip
    r = client.post("/api/matches", json=body, headers=session(ann))
    assert r.status_code == 201, r.text
    match_id, urls = r.json()["id"], r.json()["tables"]
    ids = [u.rsplit("/", 1)[1] for u in urls]
    token = str(r.cookies[f"pref_{ids[0]}"])
    client.cookies.clear()
    # Matchmaker sits at table 1 and may not take a seat at table 2 (he has seen the cards)
    r = client.post(f"/api/tables/{ids[1]}/seats/0", json={}, headers=session(ann))
    assert r.status_code == 409 and r.json()["error"] == "same_match"
    r = client.post(f"/api/tables/{ids[1]}/seats/0", json={"name": "x"}, headers=seat_cookie(ids[0], token))
    assert r.status_code == 409 and r.json()["error"] == "same_match"  # a guest's seat cookie tells it too
    assert client.post(f"/api/tables/{ids[1]}/seats/0", json={}, headers=session(ben)).status_code == 200
    client.cookies.clear()
    play_out(client, ids[0], {0: session(ann)}, seed=3)
    play_out(client, ids[1], {0: session(ben)}, seed=4)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for tid in ids:  # the same seeds in the same order, the same dealers
        assert [(d.seed, d.dealer) for d in hub.storage.deals(tid)][:2] == \
            [(d.seed, d.dealer) for d in hub.storage.deals(ids[0])][:2]  # fmt: skip
    import time as _time

    end = _time.monotonic() + 60
    while _time.monotonic() < end:  # the bots' table plays by itself
        m = client.get(f"/api/matches/{match_id}").json()
        if m["compared"] == 2:
            break
        _time.sleep(0.2)
    assert m["compared"] == 2 and len(m["tables"]) == 3 and m["tables"][2]["status"] == "finished"
    first = m["deals"][0]
    assert first["complete"] and first["same_cards"] and len(first["tables"]) == 3 and len(first["gains"]) == 3
    # the gains of each seat sum to zero over the tables: the cards' luck is taken out
    for s in range(3):
        assert abs(sum(row[s] for row in m["gain_values"])) < 1e-9
    hands = [hub.storage.deals(t)[0].seed for t in ids]
    assert len(set(hands)) == 1
    # both players' histories have their own table of the match
    assert client.get("/api/users/Rival").json()["history"][0]["table"] == ids[1]
    # a week on, the retention rule archives the tables (issue 25): the match still compares them
    portal = client.portal
    assert portal is not None
    for tid in ids:
        if tid in hub.live:
            portal.call(hub.evict, hub.live[tid])
    assert portal.call(hub.retain, _time.time() + 8 * 86400) == 3
    assert all(hub.storage.deals(t) == [] for t in ids)
    _time.sleep(1.1)  # the comparison is worked out at most once a second
    after = client.get(f"/api/matches/{match_id}").json()
    assert after["deals"] == m["deals"] and after["gain_values"] == m["gain_values"]
    assert [t["status"] for t in after["tables"]] == ["finished"] * 3


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"tables": [[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]]}, "bad_match", "2 to 4 tables"),
    ({"tables": [[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]] * 5}, "bad_match", "2 to 4 tables"),
    ({"tables": [[{"kind": "bot"}] * 3] * 2}, "bad_match", "seat 1 is yours"),
    ({"tables": [[{"kind": "human"}, {"kind": "bot"}]] * 2}, "bad_match", "one seat per player"),
    ({"rules": "nonsense"}, "bad_match", "unknown rules preset"),
])  # fmt: skip
def test_bad_matches_are_refused(client: TestClient, change: dict[str, Any], code: str, words: str) -> None:
    body = {"players": 3, "tables": [[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]] * 2, **change}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400 and r.json()["error"] == code and words in r.json()["message"], r.text
