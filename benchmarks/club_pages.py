"""How long the club's pages take to answer on a database with a history behind it.

``python benchmarks/club_pages.py --games 2000 --tables 200`` fills a SQLite database (in a temporary
directory) with one player's ``--games`` finished pulkas (rated, with their records), ``--tables``
public tables waiting in the lobby and a password, then asks each route 50 times through the
application (the framework's test client: no network) and prints the median and p90 in ms.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from preferans.server.app import create_app
from preferans.server.club_storage import FinishedGame
from preferans.server.ratings import rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        app = create_app(f"sqlite:///{Path(d) / 'bench.db'}", allowed_hosts=("testserver",), login_burst=1e6,
                         http_rate=0)
        with TestClient(app) as client:
            r = client.post("/api/account/register", json={"name": "Bench", "password": "benchmark!"})
            cookie = {"cookie": f"pref_session={r.cookies['pref_session']}"}
            client.cookies.clear()
            club = app.state.club
            record = {"format": "preferans-record", "deals": [{"n": k} for k in range(20)]}
            for k in range(args.games):
                seats = [{"name": "Bench", "kind": "human", "level": "", "account": 1, "profile": "Bench",
                          "identity": "a:1", "result": str(k % 7 - 3)},
                         {"name": "Bot 2", "kind": "bot", "level": "easy", "account": None, "profile": "",
                          "identity": "bot:easy", "result": str(3 - k % 7)},
                         {"name": "Bot 3", "kind": "bot", "level": "hard", "account": None, "profile": "",
                          "identity": "bot:hard", "result": "0"}]  # fmt: skip
                club.store.finish(FinishedGame(f"g{k}", "sochi", 3, 20, 12, "closed", "sochi-3", True, seats, record),
                                  rate)  # fmt: skip
            for _ in range(args.tables):
                client.post("/api/tables", json={"name": "Guest", "seats": [{"kind": "human"}, {"kind": "human"},
                                                                            {"kind": "bot"}]})  # fmt: skip
            client.cookies.clear()
            routes = {
                "profile (20 newest of the history)": ("/api/users/Bench", {}),
                "profile, page 50": ("/api/users/Bench?offset=1000", {}),
                "rating chart (SVG)": ("/api/users/Bench/rating.svg?pool=sochi-3", {}),
                "ratings table": ("/api/ratings?pool=sochi-3", {}),
                "open tables (lobby)": ("/api/open-tables", {}),
                "who am I (session)": ("/api/me", cookie),
            }
            print(f"{args.games} pulkas in the history, {args.tables} open tables; {args.repeat} requests each")
            for name, (path, headers) in routes.items():
                times = []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    assert client.get(path, headers=headers).status_code == 200
                    times.append((time.perf_counter() - t) * 1000)
                times.sort()
                p90 = times[int(len(times) * 0.9)]
                print(f"{name:38} median {statistics.median(times):7.1f} ms   p90 {p90:7.1f} ms")


if __name__ == "__main__":
    main()
