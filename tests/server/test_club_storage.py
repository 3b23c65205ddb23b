"""The club's storage on SQLite and on a real PostgreSQL (the cluster's database): a pulka kept once
in the histories and rated, whichever process writes it; one session secret for every process."""

from __future__ import annotations

import concurrent.futures
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from club_helpers import ONE_DEAL, create, play_out, register, session
from preferans.server.app import create_app
from preferans.server.club_storage import ClubStorage, FinishedGame, club_metadata
from preferans.server.ratings import rate
from preferans.server.storage import Storage, metadata

pytestmark = pytest.mark.subprocess


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: Any, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.db'}"
        return
    pg: str = request.getfixturevalue("pg_url")
    yield pg
    st = Storage(pg)
    club_metadata.drop_all(st.engine)
    metadata.drop_all(st.engine)
    st.close()


def _game(tid: str, accounts: list[int], results: list[str]) -> FinishedGame:
    seats = [{"name": f"P{a}", "kind": "human", "level": "", "account": a, "profile": f"P{a}", "identity": f"a:{a}",
              "result": r} for a, r in zip(accounts, results, strict=False)]  # fmt: skip
    seats.append({"name": "Bot", "kind": "bot", "level": "easy", "account": None, "profile": "",
                  "identity": "bot:easy", "result": results[-1]})  # fmt: skip
    return FinishedGame(tid, "sochi", 3, 10, 1, "closed", "sochi-3", True, seats, {"deals": []})


def test_the_end_of_a_pulka_is_written_once_and_rated_under_concurrency(url: str) -> None:
    st = Storage(url)
    club = ClubStorage(st)
    again = ClubStorage(Storage(url))  # another process of the cluster
    assert club.secret() == again.secret() and len(club.secret()) > 40
    a = club.create_account("Ann", "ann", "hash")
    b = club.create_account("Bob", "bob", "hash")
    assert a is not None and b is not None and club.create_account("ANN", "ann", "hash") is None
    tid = f"t{random.randrange(10**9)}"
    game = _game(tid, [a.id, b.id], ["20", "-10", "-10"])
    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # two processes finishing the same table
        done = list(pool.map(lambda store: store.finish(game, rate), [club, again, club, again]))
    assert sorted(done) == [False, False, False, True]
    entries, total = club.history(a.id)
    assert total == 1 and entries[0].result == "20" and entries[0].rated == "sochi-3"
    # two tables ending at once, the same bot at both: both changes are kept (rows locked on PostgreSQL)
    games = [_game(f"u{k}{random.randrange(10**6)}", [a.id, b.id], ["-5", "-5", "10"]) for k in range(6)]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        assert all(pool.map(lambda g: again.finish(g, rate), games))
    (bot,) = [r for r in club.ratings_of("bot:easy") if r.pool == "sochi-3"]
    assert bot.games == 7 and len(club.rating_points("bot:easy")["sochi-3"]) == 7
    assert club.leaderboard("sochi-3")[0].name == "bot:easy"  # it won six of seven
    st.close()


def test_a_pulka_played_on_the_server_is_kept(url: str) -> None:
    app = create_app(url, bot_delay=0.0, allowed_hosts=("testserver",), push_delay=0.0, connect_burst=1000.0,
                     rate=1e6, burst=1e6, login_burst=1000.0)  # fmt: skip
    with TestClient(app) as client:
        ann = register(client, "Арина")
        tid, _ = create(client, session(ann), options=ONE_DEAL, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}])  # fmt: skip
        play_out(client, tid, {0: session(ann)})
        prof = client.get("/api/users/арина").json()
        assert prof["total"] == 1 and prof["history"][0]["table"] == tid
        assert {r["pool"] for r in prof["ratings"]} == {"sochi-3"}


def test_wrong_passwords_are_counted_for_every_process_and_a_flood_lifts_nothing(url: str) -> None:
    """Two processes of a cluster share one count of wrong passwords per name (it used to be each
    process's own: ten tries more per process), and a restart keeps it; 10,001 other addresses
    leave an address's limit in place (the table used to be emptied at 10,000)."""
    from preferans.errors import AccountError
    from preferans.server.accounts import Attempts

    now = [1000.0]
    one, two = (Attempts(ClubStorage(Storage(url)), clock=lambda: now[0]) for _ in range(2))
    key = f"dmitri{random.randrange(10**9)}"
    for k in range(10):
        (one if k % 2 else two).failed(key)
    assert one.name_blocked(key) and two.name_blocked(key)
    assert Attempts(ClubStorage(Storage(url)), clock=lambda: now[0]).name_blocked(key)  # a restarted process
    now[0] += 61  # a minute later: one more try, for every process
    assert not two.name_blocked(key)
    one.failed(key)
    assert two.name_blocked(key)
    now[0] += 3600  # an hour later the name is as new, and its row forgotten by the next failure
    one.failed("somebody else")
    assert not one.name_blocked(key) and two.store.sign_in_tokens(key, 1 / 60, 10, now[0]) == 10
    for _ in range(10):
        one.address("192.0.2.1")
    for k in range(10_001):
        one.address(f"10.{k >> 16}.{(k >> 8) & 255}.{k & 255}")
    with pytest.raises(AccountError):
        one.address("192.0.2.1")
