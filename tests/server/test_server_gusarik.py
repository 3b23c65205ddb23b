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
