"""One database, one server — or one cluster: a server claims its database while it runs.

Two servers that each keep tables in memory on one database diverge silently, so a
server refuses to start on a database another one uses:

* SQLite: an exclusive ``flock`` on the database file (the operating system drops
  it when the process ends, even by SIGKILL);
* PostgreSQL: a session advisory lock (dropped when the server's connection ends).
  A solo server takes it exclusively; the processes of a cluster (``--cluster``)
  take it shared, so they run together but never beside a solo server.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from sqlalchemy import text

from ..errors import DatabaseInUse
from .storage import Storage

__all__ = ["Claim", "DatabaseInUse", "claim_database"]

LOCK_KEY = 0x707265660001  # "pref" + 1: the whole database


class Claim:
    """A held claim on a database; :meth:`release` gives it up (so does the process ending)."""

    def __init__(self, release: Any) -> None:
        self._release = release

    def release(self) -> None:
        if self._release is not None:
            with contextlib.suppress(Exception):
                self._release()
            self._release = None


def claim_database(storage: Storage, *, cluster: bool = False) -> Claim:
    """Claim ``storage``'s database for this process; :class:`DatabaseInUse` (one line) when another has it."""
    if storage.engine.dialect.name == "postgresql":
        return _claim_postgresql(storage, cluster)
    if cluster:
        raise DatabaseInUse("--cluster needs PostgreSQL (--db postgresql://…): "
                            "processes cannot share one SQLite file")  # fmt: skip
    path = storage.sqlite_path
    if path is None or not path.exists():
        return Claim(None)  # in memory: nobody else can open it
    import fcntl

    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseInUse(f"{path} is in use by another preferans server{_who(storage)}; "
                            "stop it first (one server per SQLite database)") from None  # fmt: skip
    return Claim(lambda: os.close(fd))


def _claim_postgresql(storage: Storage, cluster: bool) -> Claim:
    conn = storage.engine.connect()
    conn.detach()  # its own session: closing it really closes it (and drops the lock), not back to the pool
    fn = "pg_try_advisory_lock_shared" if cluster else "pg_try_advisory_lock"
    got = conn.execute(text(f"SELECT {fn}(:k)"), {"k": LOCK_KEY}).scalar()
    conn.commit()
    if not got:
        conn.close()
        if cluster:
            raise DatabaseInUse(f"{storage.display_url} is in use by a preferans server that is not part of a "
                                f"cluster{_who(storage)}; stop it first")  # fmt: skip
        raise DatabaseInUse(f"{storage.display_url} is in use by another preferans server{_who(storage)}; "
                            "stop it, or run every server with --cluster")  # fmt: skip
    return Claim(conn.close)  # closing the session drops the lock


def _who(storage: Storage) -> str:
    try:
        rows = storage.server_rows()
    except Exception:
        return ""
    if not rows:
        return ""
    r = rows[0]
    return f" (pid {r['pid']} on {r['host']})"
