"""Retention (issue 25): finished tables past ``retain_finished`` and tables nobody played at
for ``retain_idle`` lose their live state (seats, tokens, deals, moves); their record and
final sheet stay, readable by the table's id.  Swept a bounded batch at a time, never a
table in play (in memory here, or leased by another process of a cluster), idempotently."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pg_helpers import throwaway_postgresql
from preferans.record import dumps
from preferans.rules import Rules
from preferans.server.archive import Archive, RetentionRule
from preferans.server.game import TableConfig, TableGame
from preferans.server.hub import Hub
from preferans.server.records import record_of
from preferans.server.settings import ServerConfig
from preferans.server.storage import Storage
from server_helpers import make_client

DAY = 86400.0
BOTS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def _play(g: TableGame, rng: random.Random, moves: int) -> None:
    """The person in seat 0 moves at random, the bots answer; ``moves`` of the person's at most."""
    for _ in range(400):
        assert g.deal is not None
        if g.deal.is_over:
            return
        if g.bot_seat_to_act() is not None:
            g.bot_act()
        elif moves == 0:
            return
        else:
            g.act(0, int(rng.choice(g.deal.legal_actions())))
            moves -= 1


def _tables(storage: Storage, config: TableConfig | None = None) -> dict[str, str]:
    """A table in play (oldest), a finished one, an abandoned one mid-deal, one nobody joined."""
    config = config or TableConfig(Rules.preset("sochi"), 3, spectators=True, lang="ru")
    rng = random.Random(5)
    ids = {}
    for name in ("playing", "finished", "abandoned"):
        g, _ = TableGame.create(storage, config, BOTS, "Аня")
        _play(g, rng, 1000 if name == "finished" else 3)
        if name == "finished":
            g.vote_stop(0)
        ids[name] = g.id
    g, _ = TableGame.create(storage, config, [{"kind": "human"}] * 3, "Боря")
    ids["waiting"] = g.id
    return ids


def _call(client: TestClient, fn: Any, *args: Any) -> Any:
    portal = client.portal
    assert portal is not None
    return portal.call(fn, *args)


def test_old_tables_are_archived_their_records_and_sheets_stay(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    storage = Storage(f"sqlite:///{db}")
    ids = _tables(storage)
    finished_record = storage.record(ids["finished"])
    assert finished_record is not None
    now = time.time()
    with make_client(str(db), retain_finished=7 * DAY, retain_idle=30 * DAY, retention_batch=2) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{ids['playing']}").status_code == 200  # in memory: in play
        sheet_before = client.get(f"/api/tables/{ids['finished']}/sheet.svg?lang=ru").text
        phone_before = client.get(f"/api/tables/{ids['finished']}/sheet.svg?lang=ru&layout=phone").text
        assert phone_before != sheet_before
        _call(client, hub.evict, hub.live[ids["finished"]])
        assert _call(client, hub.retain, now + 6 * DAY) == 0  # not yet
        assert _call(client, hub.retain, now + 8 * DAY) == 1  # the finished table
        assert _call(client, hub.retain, now + 8 * DAY) == 0  # idempotent: nothing left to do
        r = client.get(f"/api/tables/{ids['finished']}")
        assert r.status_code == 410 and r.json()["error"] == "archived" and r.json()["reason"] == "finished"
        assert r.json()["record"] == f"/api/tables/{ids['finished']}/record"
        assert client.get(f"/api/tables/{ids['finished']}/record?format=json").json() == finished_record
        assert client.get(f"/api/tables/{ids['finished']}/record").text == dumps(record_of(finished_record))
        assert client.get(f"/api/tables/{ids['finished']}/sheet.svg?lang=ru").text == sheet_before
        # the phone's layout is kept too (it was the wide sheet only, its words ~4 px on a phone)
        assert client.get(f"/api/tables/{ids['finished']}/sheet.svg?lang=ru&layout=phone").text == phone_before
        assert storage.seats(ids["finished"]) == [] and storage.deals(ids["finished"]) == []
        # 31 days on: a batch is two tables; the one in play is never swept
        assert _call(client, hub.retain, now + 31 * DAY) == 1  # [playing, abandoned]: the abandoned one
        assert _call(client, hub.retain, now + 31 * DAY) == 1  # [playing, waiting]
        assert _call(client, hub.retain, now + 31 * DAY) == 0  # [playing]
        assert client.get(f"/api/tables/{ids['playing']}").status_code == 200
        r = client.get(f"/api/tables/{ids['abandoned']}")
        assert r.status_code == 410 and r.json()["reason"] == "abandoned"
        kept = client.get(f"/api/tables/{ids['abandoned']}/record?format=json").json()
        assert kept["headers"]["termination"] == "abandoned" and kept["deals"]  # the deal so far
        assert "termination: abandoned" in client.get(f"/api/tables/{ids['abandoned']}/record").text
        r = client.get(f"/api/tables/{ids['waiting']}")
        assert r.status_code == 410 and r.json()["record"] is None
        assert client.get(f"/api/tables/{ids['waiting']}/record").json()["error"] == "no_record"
        assert client.get(f"/api/tables/{ids['waiting']}/sheet.svg").status_code == 200
        assert client.get("/api/tables/nosuchtable").status_code == 404


def test_a_table_without_spectators_keeps_its_record_for_its_players(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    storage = Storage(f"sqlite:///{db}")
    g, token = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3, spectators=False), BOTS, "Ann")
    _play(g, random.Random(2), 5)
    assert Archive(storage).archive(g.id, "abandoned", RetentionRule(idle=1), time.time() + 2)
    with make_client(str(db)) as client:
        assert client.get(f"/api/tables/{g.id}/record").status_code == 403
        r = client.get(f"/api/tables/{g.id}/record", headers={"cookie": f"pref_{g.id}={token}"})
        assert r.status_code == 200 and "termination: abandoned" in r.text


def test_a_table_played_at_after_the_look_is_not_archived(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    g, _ = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3), BOTS, "Ann")
    _play(g, random.Random(3), 2)
    archive, rule, later = Archive(storage), RetentionRule(), time.time() + 31 * DAY
    assert archive.due(rule, later) == [(g.id, "abandoned")]
    monkeypatch.setattr(time, "time", lambda: later - 10)  # somebody comes back, 30 days on, and moves
    _play(g, random.Random(4), 1)
    assert not archive.archive(g.id, "abandoned", rule, later)
    assert archive.due(rule, later) == [] and storage.deals(g.id) and archive.get(g.id) is None


def test_retention_settings() -> None:
    assert RetentionRule(0, 0).active is False and RetentionRule().active
    cfg = ServerConfig()
    assert (cfg.retain_finished, cfg.retain_idle) == (7 * DAY, 30 * DAY)


def test_retention_flags_and_their_refusals() -> None:
    """`preferans serve`'s retention flags reach the server's settings; a bad one is refused
    naming the flag, before the database is touched."""
    from preferans.cli import build_parser
    from preferans.cli.serve import server_config
    from preferans.errors import PreferansError

    def config(*flags: str) -> ServerConfig:
        return server_config(build_parser().parse_args(["serve", *flags]))

    cfg = config("--retain-finished", "1d", "--retention-interval", "2m", "--retention-batch", "5")
    assert (cfg.retain_finished, cfg.retention_interval, cfg.retention_batch) == (DAY, 120.0, 5)
    assert (config().retention_interval, config().retention_batch) == (600.0, 20)
    for flags, words in ((("--retention-interval", "0"), "--retention-interval"),
                         (("--retention-interval", "5"), "--retention-interval"),
                         (("--retention-batch", "0"), "--retention-batch"),
                         (("--retain-idle", "7"), "--retain-idle")):  # fmt: skip
        with pytest.raises(PreferansError, match=words):
            config(*flags)


def test_the_first_sweep_comes_soon_after_the_start(tmp_path: Path) -> None:
    """A server restarted more often than the interval still sweeps: the first sweep comes
    `retention_first` after the start (a minute), then one each `retention_interval`."""
    hub = Hub(Storage(f"sqlite:///{tmp_path / 'r.db'}"), ServerConfig(idle_timeout=0.2, retention_interval=3600.0,
                                                                     retention_first=0.3))  # fmt: skip
    sweeps: list[float] = []

    async def counted(now: float | None = None) -> int:
        sweeps.append(time.monotonic())
        return 0

    hub.retain = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        task = asyncio.create_task(hub.run())
        start = time.monotonic()
        await asyncio.sleep(1.0)
        task.cancel()
        assert len(sweeps) == 1 and 0.25 <= sweeps[0] - start < 0.9, (start, sweeps)

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.subprocess
def test_two_cluster_processes_sweep_at_once_on_postgresql() -> None:
    from preferans.server.cluster import Cluster

    with throwaway_postgresql() as url:
        ids = _tables(Storage(url))
        now = time.time() + 31 * DAY

        async def scenario() -> tuple[int, int]:
            hubs = []
            for port in (1, 2):
                storage = Storage(url)
                hub = Hub(storage, ServerConfig(), owners=Cluster(storage, f"http://127.0.0.1:{port}"))
                await hub.owners.start(hub)
                hubs.append(hub)
            try:
                assert await hubs[0].table(ids["playing"]) is not None  # the first process plays it
                a, b = await asyncio.gather(hubs[0].retain(now), hubs[1].retain(now))
                again = await hubs[1].retain(now)
                return a + b, again
            finally:
                for hub in hubs:
                    await hub.aclose(1.0)
                    await hub.owners.stop()

        done, again = asyncio.run(scenario())
        storage = Storage(url)
        archive = Archive(storage)
        assert done == 3 and again == 0  # each once, whoever came first; the one in play left alone
        assert sorted(archive.ids()) == sorted([ids["finished"], ids["abandoned"], ids["waiting"]])
        assert storage.table(ids["playing"]).status == "playing"  # type: ignore[union-attr]
        assert storage.deals(ids["playing"]) and not storage.deals(ids["abandoned"])
        kept = archive.get(ids["abandoned"])
        assert kept is not None and kept.record is not None and json.dumps(kept.record)
        storage.close()
