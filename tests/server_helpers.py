"""Helpers for the web server tests: a test app, players over the test client, frame checks."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from preferans.cards import Card
from preferans.engine.deal import Deal
from preferans.engine.result import DealKind
from preferans.engine.standing import Standing
from preferans.rules import Rules
from preferans.rulings.assessment import assess_exposed_talon
from preferans.scoring.pulka import Pulka
from preferans.server.app import create_app

CARD_FIELDS = ("hand", "discard")


def make_client(db_path: str, **kwargs: Any) -> TestClient:
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("allowed_hosts", ("testserver",))  # the test client's name
    kwargs.setdefault("push_delay", 0.0)  # states at once (test_state_pushes_are_gathered sets one)
    kwargs.setdefault("connect_burst", 1000.0)  # every test connects from one address
    # A scripted player answers every state at once, faster than the 10 messages a second a person
    # is allowed: with the default burst a long deal was sometimes cut off mid-way (one dropped move,
    # and the test waited for a state that never came).  test_a_flood_is_rate_limited sets its own.
    kwargs.setdefault("burst", 1000.0)
    return TestClient(create_app(f"sqlite:///{db_path}", **kwargs))


def create_table(client: TestClient, **body: Any) -> tuple[str, str]:
    """Create a table; returns (table id, the creator's token)."""
    body.setdefault("name", "Ann")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    token = r.cookies[f"pref_{tid}"]
    client.cookies.clear()
    return tid, token


def join(client: TestClient, tid: str, seat: int, name: str) -> str:
    r = client.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name})
    assert r.status_code == 200, r.text
    token = str(r.cookies[f"pref_{tid}"])
    client.cookies.clear()
    return token


def cookie(tid: str, token: str | None) -> dict[str, str]:
    return {"cookie": f"pref_{tid}={token}"} if token else {}


def cards_in_view(view: dict[str, Any]) -> set[str]:
    """Every card text a view shows, read field by field (bids are not cards)."""
    out: set[str] = set(view["hand"]) | set(view["discard"])
    for cards in view["known_hands"].values():
        out |= set(cards)
    out |= {c for c in view["talon"] if c}
    for (_, text), i in zip(view["moves"], view["move_ids"], strict=True):
        if i is not None and i < 32:
            out.add(text)
    out |= {c for _, c in view["trick"]}
    for t in view["completed_tricks"]:
        out |= {c for _, c in t["cards"]}
    return out


def mask_texts(mask: int) -> set[str]:
    return {str(Card(c)) for c in range(32) if mask >> c & 1}


class Replayer:
    """Rebuilds the server's deals from storage to check frames against the engine."""

    def __init__(self, client: TestClient, tid: str) -> None:
        app: Any = client.app
        self.storage = app.state.storage
        self.tid = tid
        row = self.storage.table(tid)
        self.rules = Rules.from_dict(row.config["rules"])
        self.players = row.config["players"]
        self.spectators = row.config["spectators"]
        self._cache: dict[tuple[int, int], Deal] = {}

    def deal_at(self, number: int, n: int) -> Deal:
        key = (number, n)
        if key not in self._cache:
            d = next(d for d in self.storage.deals(self.tid) if d.number == number)
            deal = Deal.new(self.rules, players=self.players, dealer=d.dealer, seed=d.seed, min_level=d.min_level,
                            standing=self.standing_before(number))
            for seat, a in d.moves[:n]:
                deal.replay_move(seat, a)
            self._cache[key] = deal
        return self._cache[key]

    def standing_before(self, number: int) -> Standing:
        """The pulka's standing when deal ``number`` began: the deals before it replayed and recorded."""
        pulka = Pulka(self.rules, self.players)
        for d in sorted(self.storage.deals(self.tid), key=lambda d: d.number):
            if d.number >= number:
                break
            deal = Deal.new(self.rules, players=self.players, dealer=d.dealer, seed=d.seed, min_level=d.min_level)
            for seat, a in d.moves:
                deal.replay_move(seat, a)
            result = deal.result
            if result.kind is DealKind.PENALTY:
                result = assess_exposed_talon(deal)
            pulka.record(result)
        return pulka.standing()

    def check_frame(self, frame: dict[str, Any]) -> None:
        """The frame shows exactly the engine's observation for its receiver, and nothing more."""
        assert frame["type"] == "state"
        table_text = json.dumps(frame["table"], ensure_ascii=False)
        for word in ('"hand"', '"talon"', '"known_hands"', '"discard"', '"cards"'):
            assert word not in table_text
        view = frame["view"]
        if frame["deal"] == 0:
            assert view is None
            return
        deal = self.deal_at(frame["deal"], frame["n"])
        seat = frame["you"]
        if seat is None:
            if not self.spectators:
                assert view is None
                return
            public = deal.public_observation()
            expected = public.to_dict() | {"seat": None}
            for k, v in expected.items():
                assert view[k] == v, k
            assert cards_in_view(view) <= mask_texts(public.visible_cards())
            assert view["hand"] == [] and view["discard"] == [] and view["legal"] == []
            return
        obs = deal.observation(seat)
        expected = obs.to_dict()
        assert set(view) == set(expected) | {"legal", "move_ids", "forced"}
        for k, v in expected.items():
            assert view[k] == v, k
        assert [a for a, _ in view["legal"]] == [int(a) for a in obs.legal_actions]
        legal = obs.legal_actions  # the one card left to play (bots/automatic.py), and only then
        single = deal.phase.value == "play" and len(legal) == 1 and legal[0] < 32 and deal.to_act == seat
        assert view["forced"] == (int(legal[0]) if single else None)
        assert cards_in_view(view) <= mask_texts(obs.visible_cards())


def pick(view: dict[str, Any], rng: random.Random) -> int:
    return int(rng.choice(view["legal"])[0])
