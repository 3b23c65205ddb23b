"""The server on the open internet, HTTP side: sizes, validation, hosts, origins, headers, records.

Each test here failed before issue 15 (the finding it checks is named in its docstring).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from preferans.server.settings import MAX_BODY
from server_helpers import cookie, create_table, make_client

JSON = {"content-type": "application/json"}


def test_bodies_over_the_limit_are_refused_unread(tmp_path: Any) -> None:
    """A 60 MB rules name was accepted (201) and re-sent in every frame; now any body over
    MAX_BODY is a 413, whether it announces its length or streams without one."""
    with make_client(str(tmp_path / "g.db")) as client:
        big = {"name": "A", "options": ["name=" + "x" * MAX_BODY]}
        r = client.post("/api/tables", json=big)
        assert r.status_code == 413 and r.json()["error"] == "too_big"

        def chunks() -> Any:
            yield b'{"name": "'
            for _ in range(40):
                yield b"x" * 1024
            yield b'"}'

        r = client.post("/api/tables", content=chunks(), headers=JSON)
        assert r.status_code == 413
        assert client.app.state.storage.table_ids() == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"options": ["name=" + "x" * 100]}, "name"),  # the rules name: at most 64 characters
        ({"options": ["pool_target=5000"]}, "pool"),  # options went around the pool's 1..1000 check
        ({"pool": 100000}, "pool"),
        ({"options": ["k_pool=" + "9" * 30]}, "k_pool"),
        ({"options": ["raspas_exit_levels=" + ",".join(["6"] * 40)]}, "raspas_exit_levels"),
        ({"options": ["x" * 300]}, "options"),
        ({"options": ["claims=true"] * 100}, "options"),
        ({"seats": [{"kind": "human"}] * 50}, "seats"),
        ({"rules": ["sochi"]}, "rules"),
        ({"spectators": "no"}, "spectators"),
    ],
)
def test_every_field_is_checked_through_the_rules(tmp_path: Any, body: dict[str, Any], field: str) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        r = client.post("/api/tables", json={"name": "A", **body})
        assert r.status_code == 400 and field in r.json()["message"], r.text


def test_deeply_nested_json_is_a_400(tmp_path: Any) -> None:
    """A deeply nested body raised RecursionError: a 500."""
    with make_client(str(tmp_path / "g.db")) as client:
        for raw in ("[" * 5000 + "]" * 5000, '{"a":' * 2500 + "1" + "}" * 2500):
            r = client.post("/api/tables", content=raw.encode(), headers=JSON)
            assert r.status_code == 400 and r.json()["error"] == "bad_json", r.text
        tid, _ = create_table(client)
        r = client.post(f"/api/tables/{tid}/seats/1", content=("[" * 5000).encode(), headers=JSON)
        assert r.status_code == 400


def test_posts_must_be_json_from_our_own_pages(tmp_path: Any) -> None:
    """Any Content-Type and any Origin used to be accepted, so a hostile page could seat a visitor."""
    with make_client(str(tmp_path / "g.db")) as client:
        body = json.dumps({"name": "A"}).encode()
        r = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
        assert r.status_code == 415
        r = client.post("/api/tables", content=body, headers={**JSON, "origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "cross_origin"
        r = client.post("/api/tables", content=body, headers={**JSON, "sec-fetch-site": "cross-site"})
        assert r.status_code == 403
        r = client.post("/api/tables", content=body, headers={**JSON, "origin": "http://testserver"})
        assert r.status_code == 201


def test_the_host_header_must_be_ours(tmp_path: Any) -> None:
    """DNS rebinding: a page of evil.example resolving to our address passed the Origin check."""
    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client)
        assert client.get("/healthz", headers={"host": "evil.example"}).status_code == 400
        assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 400
        assert client.get("/healthz").status_code == 200
        headers = {**cookie(tid, tok), "host": "evil.example", "origin": "http://evil.example"}
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{tid}", headers=headers) as ws:
            ws.receive_json()
    with make_client(str(tmp_path / "g.db"), allowed_hosts=None) as client:  # the default: localhost, IPs
        assert client.get("/healthz", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert client.get("/healthz", headers={"host": "localhost"}).status_code == 200
        assert client.get("/healthz", headers={"host": "rebind.evil.example"}).status_code == 400


def test_security_headers_on_every_response(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        for path in ("/", "/static/app.js", "/api/presets", "/api/tables/nope", "/cards/back.svg"):
            h = client.get(path).headers
            assert "frame-ancestors 'none'" in h["content-security-policy"], path
            assert "script-src 'self'" in h["content-security-policy"]
            assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff", path


def test_the_record_of_a_table_without_spectators_is_for_its_players(tmp_path: Any) -> None:
    """The full record of a finished game was public even at tables with spectators off."""
    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client, spectators=False, options=["end_condition=deals", "max_deals=1"],
                                seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])  # fmt: skip
        with client.websocket_connect(f"/ws/{tid}", headers=cookie(tid, tok)) as ws:
            import random

            rng = random.Random(2)
            while True:
                f = ws.receive_json()
                if f["type"] == "state" and f["table"]["status"] == "finished":
                    break
                if f["type"] == "state" and f["view"] and f["view"]["to_act"] == 0 and f["view"]["legal"]:
                    ws.send_json({"type": "act", "action": rng.choice(f["view"]["legal"])[0], "n": f["n"]})
        assert client.get(f"/api/tables/{tid}/record").status_code == 403
        assert client.get(f"/api/tables/{tid}/record", headers=cookie(tid, "forged")).status_code == 403
        assert client.get(f"/api/tables/{tid}/record", headers=cookie(tid, tok)).status_code == 200
        assert client.get(f"/api/tables/{tid}/sheet.svg").status_code == 200  # the score is public


def test_the_origin_must_match_the_scheme_too(tmp_path: Any) -> None:
    """Issue 25: a WebSocket (and a POST) with an https Origin was accepted by an http server —
    only the host and port were compared.  Behind a proxy that ends TLS the operator names the
    pages' origin (``--allowed-origin``)."""
    body = json.dumps({"name": "A"}).encode()
    with make_client(str(tmp_path / "g.db")) as client:
        tid, tok = create_table(client)
        for origin in ("https://testserver", "http://testserver:8443", "null"):
            r = client.post("/api/tables", content=body, headers={**JSON, "origin": origin})
            assert r.status_code == 403 and r.json()["error"] == "cross_origin", origin
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                    f"/ws/{tid}", headers={**cookie(tid, tok), "origin": origin}) as ws:  # fmt: skip
                ws.receive_json()
            assert closed.value.code == 4403
        with client.websocket_connect(f"/ws/{tid}", headers={**cookie(tid, tok), "origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "state"
    with make_client(str(tmp_path / "g.db"), allowed_origins=("https://pref.example",)) as client:
        r = client.post("/api/tables", content=body, headers={**JSON, "origin": "https://pref.example"})
        assert r.status_code == 201
        r = client.post("/api/tables", content=body, headers={**JSON, "origin": "http://testserver"})
        assert r.status_code == 403


@pytest.mark.parametrize("name", ["A" * 5000, "A" * 33, "Anna\nplayers: X", "Anna, Boris", "#1"])
def test_a_bad_name_is_refused_not_cut(tmp_path: Any, name: str) -> None:
    """Issue 25: a 5,000-character name was cut to 32 and taken; now it is refused with the field
    and what is wrong — creating a table, naming a bot, taking a seat — and nothing is stored."""
    with make_client(str(tmp_path / "g.db")) as client:
        r = client.post("/api/tables", json={"name": name})
        assert r.status_code == 400 and r.json()["error"] == "bad_name", r.text
        assert r.json()["message"].startswith("name: ") and len(r.text) < 300
        seats = [{"kind": "human"}, {"kind": "bot", "level": "easy", "name": name}, {"kind": "human"}]
        r = client.post("/api/tables", json={"name": "Ann", "seats": seats})
        assert r.status_code == 400 and r.json()["message"].startswith("seats[1].name: ")
        assert client.app.state.storage.table_ids() == []  # type: ignore[attr-defined]
        tid, _ = create_table(client)
        r = client.post(f"/api/tables/{tid}/seats/1", json={"name": name})
        assert r.status_code == 400 and r.json()["error"] == "bad_name"
        assert client.get(f"/api/tables/{tid}").json()["seats"][1]["taken"] is False


def test_a_flood_of_addresses_never_lifts_an_address_limit() -> None:
    """Issue 25: the per-address limits forgot every address once they held 10,000 (the worker
    quotas at 50,000), so an attacker with many addresses lifted everybody's limit, his own
    included.  Now the address used longest ago is forgotten, never all, and the flood's
    memory is bounded."""
    from preferans.server.api import AddressLimits
    from preferans.server.buckets import MAX_KEYS
    from preferans.server.work import Quota

    limits = AddressLimits(rate=0.01, burst=2)
    assert [limits.limited("10.0.0.1") for _ in range(3)] == [False, False, True]
    for i in range(60_000):
        limits.limited(f"2001:db8::{i:x}")
        if i % 10_000 == 0:
            assert limits.limited("10.0.0.1"), i  # still out of tokens, whatever the others do
    assert limits.limited("10.0.0.1")
    quota = Quota(rate=0.01, burst=1, concurrent=8)
    assert quota.take("attacker") and not quota.take("attacker")
    for i in range(60_000):
        quota.take(f"a{i}")
        quota.done(f"a{i}")
        quota.take("attacker")  # kept busy: used lately, so never the one forgotten
    assert not quota.take("attacker")
    assert len(limits._buckets) <= MAX_KEYS
