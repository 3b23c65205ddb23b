"""A throwaway PostgreSQL cluster for the tests and the benchmarks (``initdb`` and ``pg_ctl``)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

__all__ = ["throwaway_postgresql"]


def _pg_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    assert initdb, "PostgreSQL is not installed: scripts/test installs it (scripts/apt-packages.txt)"
    return os.path.dirname(initdb)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def throwaway_postgresql(max_connections: int = 100) -> Iterator[str]:
    """A private PostgreSQL cluster on its own socket directory and port, stopped afterwards
    (Debian's binaries; as the ``postgres`` user when run as root).  Yields its URL."""
    bindir = _pg_bin()
    root = tempfile.mkdtemp(prefix="pref-pg-")
    data, sock = os.path.join(root, "data"), os.path.join(root, "sock")
    os.mkdir(sock)
    as_root = os.geteuid() == 0
    if as_root:  # initdb refuses to run as root: run the cluster as the postgres user
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
        os.chmod(root, 0o755)
    port = _free_port()

    def run(*cmd: str) -> None:
        full = ["runuser", "-u", "postgres", "--", *cmd] if as_root else list(cmd)
        subprocess.run(full, check=True, capture_output=True, timeout=120)

    run(f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
    opts = f"-p {port} -k {sock} -c listen_addresses='' -c fsync=off -c max_connections={max_connections}"
    run(f"{bindir}/pg_ctl", "-D", data, "-o", opts, "-l", os.path.join(root, "log"), "-w", "start")
    try:
        yield f"postgresql://postgres@/postgres?host={sock}&port={port}"
    finally:
        run(f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


