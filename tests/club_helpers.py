"""Helpers for the club's tests: accounts over the test client, a pulka played out over WebSockets."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from starlette.testclient import TestClient

from server_helpers import cookie

ONE_DEAL = ["end_condition=deals", "max_deals=1"]  # a pulka of one deal: it ends (closed by the rules) fast


def register(client: TestClient, name: str, password: str = "correct horse") -> str:
    """A new account; returns its session cookie (the client's cookies are left empty)."""
    r = client.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    session = str(r.cookies["pref_session"])
    client.cookies.clear()
    return session


def session(value: str) -> dict[str, str]:
    return {"cookie": f"pref_session={value}"}


def cookies(*parts: dict[str, str]) -> dict[str, str]:
    """Headers with several cookies."""
    return {"cookie": "; ".join(p["cookie"] for p in parts if p)}


def create(client: TestClient, headers: dict[str, str], **body: Any) -> tuple[str, str]:
    """Create a table as ``headers`` says (a session or none); returns (id, seat token)."""
    body.setdefault("name", "Guest")
    r = client.post("/api/tables", json=body, headers=headers)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    token = str(r.cookies[f"pref_{tid}"])
    client.cookies.clear()
    return tid, token


def play_out(client: TestClient, tid: str, seats: dict[int, dict[str, str]], seed: int = 1,
             limit: float = 60.0) -> dict[str, Any]:  # fmt: skip
    """Play random legal moves for the people in ``seats`` (seat → headers with their cookies) until
    the pulka is over (bots play by themselves); returns the last table info."""
    rng = random.Random(seed)
    conns = {s: client.websocket_connect(f"/ws/{tid}", headers=h) for s, h in seats.items()}
    sockets = {s: cm.__enter__() for s, cm in conns.items()}
    end = time.monotonic() + limit
    try:
        while time.monotonic() < end:
            states = {}
            for s, ws in sockets.items():
                ws.send_text(json.dumps({"type": "state"}))
                while True:
                    f = ws.receive_json()
                    if f["type"] == "state":
                        break
                assert f["you"] == s, (f["you"], s)
                states[s] = f
            first = next(iter(states.values()))
            if first["table"]["status"] == "finished":
                return dict(first["table"])
            view = first["view"]
            if view is not None and view["phase"] == "over":
                sockets[next(iter(sockets))].send_text(json.dumps({"type": "next"}))
                continue
            acted = False
            for s, f in states.items():
                v = f["view"]
                if v is not None and v["to_act"] == s and v["legal"]:
                    action = rng.choice(v["legal"])[0]
                    sockets[s].send_text(json.dumps({"type": "act", "action": action, "n": f["n"]}))
                    acted = True
            if not acted:
                time.sleep(0.01)
        raise AssertionError("the pulka did not end")
    finally:
        for cm in conns.values():
            cm.__exit__(None, None, None)


def seat_cookie(tid: str, token: str) -> dict[str, str]:
    return cookie(tid, token)
