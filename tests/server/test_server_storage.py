"""Server storage against SQLite and a real PostgreSQL server (a throwaway cluster started here)."""

from __future__ import annotations

import concurrent.futures
import random
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError
from starlette.testclient import TestClient

from preferans.server.app import create_app
from preferans.server.storage import SeatRow, Storage


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: Any, tmp_path: Any) -> Iterator[Storage]:
    url = f"sqlite:///{tmp_path / 'games.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    st = Storage(url)
    yield st
    if request.param == "postgresql":
        from preferans.server.storage import metadata

        metadata.drop_all(st.engine)
    st.close()


def test_storage_round_trip(storage: Storage) -> None:
    assert storage.ping()
    tid = f"t{random.randrange(10**9)}"
    seats = [SeatRow(0, "Ann", "human", "", "h0"), SeatRow(1, "", "human", "", ""),
             SeatRow(2, "Bot", "bot", "easy", "")]  # fmt: skip
    storage.create_table(tid, {"players": 3, "rules": {"name": "sochi"}, "spectators": True}, seats)
    row = storage.table(tid)
    assert row is not None and row.status == "waiting" and row.config["players"] == 3
    assert storage.take_seat(tid, 1, "Bob", "h1")
    assert not storage.take_seat(tid, 1, "Eve", "h2")  # taken
    assert not storage.take_seat(tid, 2, "Eve", "h2")  # a bot's seat
    assert [s.name for s in storage.seats(tid)] == ["Ann", "Bob", "Bot"]
    storage.start_deal(tid, 1, 0, 1234, 6)
    assert storage.table(tid).status == "playing"  # type: ignore[union-attr]
    for n, (seat, a) in enumerate([(1, 61), (2, 32), (0, 61)]):
        storage.add_move(tid, 1, n, seat, a)
    with pytest.raises(IntegrityError):
        storage.add_move(tid, 1, 2, 0, 61)  # the same move index twice
    storage.start_deal(tid, 2, 1, 99, 7)
    storage.add_move(tid, 2, 0, 2, 61)
    deals = storage.deals(tid)
    assert [(d.number, d.dealer, d.seed, d.min_level, d.moves) for d in deals] == [
        (1, 0, 1234, 6, ((1, 61), (2, 32), (0, 61))), (2, 1, 99, 7, ((2, 61),))]
    assert tid in storage.table_ids("playing")
    storage.save_record(tid, {"format": "x", "deals": []})
    assert storage.record(tid) == {"format": "x", "deals": []}
    assert storage.table(tid).status == "finished"  # type: ignore[union-attr]
    assert tid in dict(storage.iter_records())


@pytest.mark.subprocess
def test_a_game_on_postgresql_survives_a_restart(pg_url: str) -> None:
    """The whole server on PostgreSQL: play a deal with two bots, restart, resume."""
    store = Storage(pg_url)
    try:
        with TestClient(create_app(storage=store, bot_delay=0.0, allowed_hosts=("testserver",))) as client:
            seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
            r = client.post("/api/tables", json={"name": "Ann", "seats": seats})
            tid = r.json()["id"]
            headers = {"cookie": f"pref_{tid}={r.cookies[f'pref_{tid}']}"}
            client.cookies.clear()
            health = client.get("/healthz").json()
            assert health["ok"] is True and health["db"] == "postgresql"
            with client.websocket_connect(f"/ws/{tid}", headers=headers) as ws:
                rng = random.Random(1)
                while True:
                    f = ws.receive_json()
                    if f["type"] != "state":
                        continue
                    if f["view"]["phase"] == "over":
                        break
                    if f["view"]["to_act"] == 0 and f["n"] > 3:
                        last = f
                        break
                    if f["view"]["to_act"] == 0:
                        ws.send_json({"type": "act", "action": rng.choice(f["view"]["legal"])[0], "n": f["n"]})
        with (
            TestClient(create_app(storage=Storage(pg_url), bot_delay=0.0, allowed_hosts=("testserver",))) as client,
            client.websocket_connect(f"/ws/{tid}", headers=headers) as ws,
        ):
            f = ws.receive_json()
            assert f["type"] == "state" and f["you"] == 0
            assert (f["deal"], f["n"], f["view"]) == (last["deal"], last["n"], last["view"])
    finally:
        store.close()


@pytest.mark.subprocess
def test_one_solo_server_or_one_cluster_per_postgresql_database(pg_url: str) -> None:
    """Two servers on one database diverged silently: a solo server claims it alone, a cluster's
    processes share it, and neither starts beside the other (one line saying why)."""
    from preferans.errors import DatabaseInUse
    from preferans.server.owner import claim_database

    solo = claim_database(Storage(pg_url))
    with pytest.raises(DatabaseInUse, match="in use by another preferans server"):
        claim_database(Storage(pg_url))
    with pytest.raises(DatabaseInUse, match="not part of a cluster"):
        claim_database(Storage(pg_url), cluster=True)
    solo.release()
    members = [claim_database(Storage(pg_url), cluster=True) for _ in range(2)]
    with pytest.raises(DatabaseInUse, match="--cluster"):
        claim_database(Storage(pg_url))
    for m in members:
        m.release()
    claim_database(Storage(pg_url)).release()


def test_the_servers_own_sqlite_writes_never_wait_for_each_other_in_sqlite(tmp_path: Any) -> None:
    """SQLite takes one writer at a time; a writer that finds the lock taken sleeps in SQLite's busy
    handler (1, 2, 5 … 100 ms).  The server's database threads writing at once did that to each
    other (about one move in seven under the load benchmark).  With no busy timeout at all, a
    collision is an error at once: eight threads writing moves and heartbeats together never
    collide now, because this process's writes take turns (before: "database is locked")."""
    st = Storage(f"sqlite:///{tmp_path / 'g.db'}", busy_timeout=0.0)
    ids = [f"t{k}" for k in range(8)]
    for tid in ids:
        st.create_table(tid, {"players": 3}, [SeatRow(s, "", "human", "", "") for s in range(3)])
        st.start_deal(tid, 1, 0, 1, 6)

    def writer(k: int) -> None:
        for n in range(150):
            st.add_move(ids[k], 1, n, n % 3, 1)
            if n % 10 == 0:
                st.check_write(f"server{k}")

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(writer, k) for k in range(8)]:
            f.result()  # raises OperationalError("database is locked") on a collision
    assert [len(d.moves) for tid in ids for d in st.deals(tid)] == [150] * 8
    st.close()


def test_a_write_waits_for_another_process_only_the_busy_timeout(tmp_path: Any) -> None:
    """Taking turns does not lengthen the wait for another process's lock: a write behind a lock
    held elsewhere fails after about the busy timeout, and the next one gets its turn."""
    path = tmp_path / "g.db"
    st = Storage(f"sqlite:///{path}", busy_timeout=0.3)
    st.create_table("t", {"players": 3}, [SeatRow(s, "", "human", "", "") for s in range(3)])
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        with pytest.raises(OperationalError, match="locked"):
            st.set_status("t", "playing")
        assert time.monotonic() - t0 < 2.0
    finally:
        other.execute("ROLLBACK")
        other.close()
    st.set_status("t", "playing")
    row = st.table("t")
    assert row is not None and row.status == "playing"
    st.close()


def test_moves_that_arrive_together_are_committed_together(tmp_path: Any) -> None:
    """Group commit: each move was its own transaction, and under load the server's database
    threads queued on SQLite's one writer.  Moves arriving while a write waits (here: for
    another process's lock) are committed together — the first move's transaction, then one
    for all queued behind it — and each caller returns only once its move is committed.  A
    duplicate in a batch is refused alone; the others are stored."""
    import sqlite3
    import threading
    import time

    from sqlalchemy.exc import IntegrityError

    from preferans.server.storage import Storage

    path = tmp_path / "g.db"
    storage = Storage(f"sqlite:///{path}", busy_timeout=10.0)
    storage.create_table("t", {}, [])
    storage.start_deal("t", 1, 0, 1, 6)
    errors: dict[int, BaseException] = {}

    def add(n: int, index: int) -> None:
        try:
            storage.add_move("t", 1, index, 0, n)
        except IntegrityError as e:
            errors[n] = e

    def round_of(moves: list[tuple[int, int]]) -> int:
        """The moves (action, index) sent while another process holds the lock; transactions used."""
        lock = sqlite3.connect(path, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        threads = [threading.Thread(target=add, args=m) for m in moves]
        threads[0].start()
        while not storage._leading:
            time.sleep(0.01)
        for t in threads[1:]:
            t.start()
        while len(storage._queue) < len(moves) - 1:
            time.sleep(0.01)
        before = storage.batches
        lock.execute("ROLLBACK")
        lock.close()
        for t in threads:
            t.join(timeout=20)
        return storage.batches - before

    assert round_of([(n, n) for n in range(6)]) == 2  # move 0, then the five queued behind it
    assert [a for _, a in storage.deals("t")[0].moves] == [0, 1, 2, 3, 4, 5]
    assert round_of([(6, 6), (7, 7), (8, 2), (9, 8)]) == 1 + 2  # move 6; the batch again one by one
    assert list(errors) == [8]  # the duplicate of move 2 alone
    assert [a for _, a in storage.deals("t")[0].moves] == [0, 1, 2, 3, 4, 5, 6, 7, 9]
    storage.close()


def test_cluster_processes_starting_together_on_a_new_postgresql_database() -> None:
    """Every store of a process (games, club, archive, study, score sheets) creates its tables at start; the
    processes of a cluster start together, and two ``CREATE TABLE`` of one name at once fail on
    PostgreSQL (the study store's did: ``pg_type_typname_nsp_index``, the load benchmark's cluster
    exited) — all of them create under one lock (:meth:`Storage.create_tables`)."""
    import threading

    import sqlalchemy

    from pg_helpers import throwaway_postgresql
    from preferans.server.archive import Archive
    from preferans.server.club_storage import ClubStorage
    from preferans.server.scoresheets import ScoreSheets
    from preferans.server.studystore import StudyStore

    with throwaway_postgresql() as url:
        admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
        for round_ in range(4):
            with admin.connect() as c:
                c.execute(sqlalchemy.text(f"CREATE DATABASE fresh{round_}"))
            fresh = url.replace("/postgres?", f"/fresh{round_}?")
            start, failures = threading.Barrier(4), list[str]()

            def process(fresh: str = fresh, start: threading.Barrier = start, failures: list[str] = failures) -> None:
                start.wait()
                try:
                    storage = Storage(fresh)
                    ClubStorage(storage), Archive(storage), StudyStore(storage), ScoreSheets(storage)
                    storage.engine.dispose()
                except Exception as e:  # the test reports every failure
                    failures.append(repr(e)[:200])

            threads = [threading.Thread(target=process) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert failures == [], failures
        admin.dispose()
