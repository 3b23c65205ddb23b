"""The server stops within seconds, whatever is pending (a server on the open internet is
restarted while strangers hold connections open and calculations run)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from typing import Any

import httpx

from preferans.server.app import create_app


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_server_stops_within_seconds_whatever_is_pending(tmp_path: Any) -> None:
    """Pending at once: a worker job of a minute, a connection whose client neither reads nor hangs
    up, a gathered state push due in a minute, a database call waiting for another process's write
    lock.  Stopping takes a few seconds (each step is bounded by ``stop_timeout``), the
    connection's handler ends, and the worker process is gone."""
    db = tmp_path / "g.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, allowed_hosts=("testserver",), push_delay=60.0,
                     workers=1, stop_timeout=1.0)  # fmt: skip
    never = asyncio.Event()  # the stuck client: nothing it is sent is ever read

    async def main() -> tuple[float, asyncio.Future[Any], asyncio.Task[Any], int]:
        async with app.router.lifespan_context(app):
            hub: Any = app.state.hub
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
                r = await http.post("/api/tables", json={"name": "A"})
                assert r.status_code == 201, r.text
                tid, token = r.json()["id"], r.cookies[f"pref_{r.json()['id']}"]
            connected = asyncio.Event()

            async def receive() -> dict[str, Any]:
                if not connected.is_set():
                    connected.set()
                    return {"type": "websocket.connect"}
                await never.wait()
                raise AssertionError("unreachable")

            async def send(message: Any) -> None:
                if message["type"] != "websocket.accept":
                    await never.wait()

            scope = {"type": "websocket", "path": f"/ws/{tid}", "raw_path": f"/ws/{tid}".encode(),
                     "query_string": b"", "root_path": "", "scheme": "ws", "subprotocols": [],
                     "headers": [(b"host", b"testserver"), (b"cookie", f"pref_{tid}={token}".encode())],
                     "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
                     "asgi": {"version": "3.0"}}  # fmt: skip
            session = asyncio.ensure_future(app(scope, receive, send))
            pid = await hub.workers.run(os.getpid)
            job = asyncio.ensure_future(hub.workers.run(time.sleep, 60.0))
            holder = sqlite3.connect(db)
            holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            write = asyncio.ensure_future(hub.db(hub.storage.check_write, "probe"))
            await asyncio.sleep(0.5)  # the job runs, the connection is open, the write waits
            live = hub.live[tid]
            assert live.clients and not job.done() and not write.done()
            hub.changed(live)  # a state push gathered for a minute
            assert live.flush is not None
            t0 = time.monotonic()
        stopped = time.monotonic() - t0
        write.cancel()  # it ends with the database's busy timeout, in its thread
        holder.rollback()
        holder.close()
        await asyncio.wait_for(session, timeout=1.0)  # the handler had ended already
        return stopped, job, session, pid

    stopped, job, session, pid = asyncio.run(main())
    assert stopped < 8.0, f"stopping took {stopped:.1f} s"
    assert job.done() and session.done()
    assert not _alive(pid), "the worker process outlived the server"
