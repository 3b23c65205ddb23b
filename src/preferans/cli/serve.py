"""``preferans serve``: run the web server (play in a browser with friends and bots)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import PreferansError
from ..i18n import N_

if TYPE_CHECKING:
    from ..server.settings import ServerConfig


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=N_("run the web game server (needs the [web] extra)"))
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None,
                   help="database URL: sqlite:///path.db or postgresql://user:pass@host/db "
                        "(default: SQLite in the user's data directory)")  # fmt: skip
    p.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before acting (default 0.6)")
    p.add_argument("--rate", type=float, default=10.0, help="messages a second allowed per connection (default 10)")
    p.add_argument("--http-rate", type=float, default=1.0,
                   help="tables created / seats taken a second per address (default 1; 0 = no limit)")
    p.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                   help="a name this server answers to in the Host header (repeat; default: the --host "
                        "address and localhost, or any IP address when bound to 0.0.0.0; '*' = any)")  # fmt: skip
    p.add_argument("--allowed-origin", action="append", default=None, metavar="URL",
                   help="behind a proxy that ends TLS: the origin of the pages (https://pref.example; repeat); "
                        "default: the scheme, name and port the request came to")  # fmt: skip
    p.add_argument("--grace", type=float, default=60.0,
                   help="seconds a player must be away before a bot may take his seat (default 60)")
    p.add_argument("--idle-timeout", type=float, default=120.0,
                   help="seconds a table nobody is connected to stays in memory (default 120)")
    p.add_argument("--max-table-connections", type=int, default=64,
                   help="spectators at one table (default 64; 0 = no limit)")
    p.add_argument("--max-address-connections", type=int, default=32,
                   help="WebSocket connections from one address (default 32; 0 = no limit)")
    p.add_argument("--max-sockets", type=int, default=0,
                   help="open sockets in all (default 0: as many as the file limit allows, less 64)")
    p.add_argument("--max-address-sockets", type=int, default=64,
                   help="open sockets from one address, HTTP and WebSocket alike (default 64; 0 = no limit)")
    p.add_argument("--header-timeout", type=float, default=10.0,
                   help="seconds a request's head may take to arrive before the socket is closed (default 10)")
    p.add_argument("--body-timeout", type=float, default=10.0,
                   help="seconds a request's body may take to arrive (default 10)")
    p.add_argument("--keep-alive-timeout", type=float, default=5.0,
                   help="seconds an idle kept-alive HTTP connection stays open (default 5)")
    p.add_argument("--ws-ping-timeout", type=float, default=20.0,
                   help="seconds a WebSocket may take to answer the server's ping (sent every 20 s) before "
                        "it is closed (default 20)")  # fmt: skip
    p.add_argument("--proxy-connections", type=int, default=32,
                   help="cluster: requests passed on to the other processes at once (default 32)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes for claim proofs, assessments, analyses and the hard bot "
                        "(default: one per core but one)")  # fmt: skip
    p.add_argument("--cluster", action="store_true",
                   help="one of several server processes on one PostgreSQL database (see docs/web.md)")
    p.add_argument("--advertise", default="", metavar="URL",
                   help="cluster: the URL the other processes reach this one at (default http://HOST:PORT)")
    p.add_argument("--secure-cookies", action="store_true", help="mark seat cookies Secure (behind HTTPS)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.add_argument("--bot-program", action="append", default=[], metavar="NAME=COMMAND",
                   help="offer a bot program (docs/bot-protocol.md) as the bot level NAME; repeatable")
    p.add_argument("--max-bot-programs", type=int, default=16, metavar="N",
                   help="bot programs running at once; a table that would need more is refused (default 16; "
                        "0 = no cap)")  # fmt: skip
    p.add_argument("--bot-program-memory", type=int, default=2048, metavar="MB",
                   help="each bot program's address space in MB (default 2048; node needs about 1000; 0 = no limit)")
    p.add_argument("--bot-program-cpu", type=int, default=1800, metavar="SECONDS",
                   help="each bot program's CPU time for its whole game (default 1800; 0 = no limit)")
    p.add_argument("--retain-finished", default="7d", metavar="AGE",
                   help="archive a finished table this long after its end: its seats, tokens and moves go, its "
                        "record and sheet stay (30s, 15m, 12h, 7d; default 7d; 0 = keep forever)")  # fmt: skip
    p.add_argument("--retain-idle", default="30d", metavar="AGE",
                   help="archive an unfinished table nobody has played at for this long, keeping its record so "
                        "far marked abandoned (default 30d; 0 = keep forever)")  # fmt: skip
    p.add_argument("--retention-interval", default="10m", metavar="AGE",
                   help="time between two retention sweeps, the first a minute after the start (default 10m)")
    p.add_argument("--retention-batch", type=int, default=20, metavar="N",
                   help="tables archived at most per sweep (default 20)")
    p.set_defaults(func=run)


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The :class:`~preferans.server.settings.ServerConfig` the flags ask for; a clear error
    naming the flag for a bad value."""
    from ..server.archive import parse_age
    from ..server.settings import ServerConfig, default_allowed_hosts

    for flag, value in (("--max-bot-programs", args.max_bot_programs),
                        ("--bot-program-memory", args.bot_program_memory),
                        ("--bot-program-cpu", args.bot_program_cpu)):  # fmt: skip
        if value < 0:
            raise PreferansError(f"{flag}: 0 (none) or more, not {value}")
    retain_finished = parse_age(args.retain_finished, "--retain-finished")
    retain_idle = parse_age(args.retain_idle, "--retain-idle")
    retention_interval = parse_age(args.retention_interval, "--retention-interval")
    if retention_interval <= 0:
        raise PreferansError(f"--retention-interval: a time such as 30s, 15m or 1h, not {args.retention_interval!r}")
    if args.retention_batch < 1:
        raise PreferansError(f"--retention-batch: 1 or more tables a sweep, not {args.retention_batch}")
    return ServerConfig(
        bot_delay=args.bot_delay, rate=args.rate, burst=args.rate * 2, http_rate=args.http_rate,
        secure_cookies=args.secure_cookies,
        allowed_hosts=tuple(args.allowed_host) if args.allowed_host else default_allowed_hosts(args.host),
        allowed_origins=tuple(args.allowed_origin) if args.allowed_origin else None,
        grace=args.grace, idle_timeout=args.idle_timeout, max_table_connections=args.max_table_connections,
        max_address_connections=args.max_address_connections, workers=args.workers, warm_workers=True,
        max_sockets=args.max_sockets, max_address_sockets=args.max_address_sockets,
        header_timeout=args.header_timeout, body_timeout=args.body_timeout,
        keep_alive_timeout=args.keep_alive_timeout, ws_ping_timeout=args.ws_ping_timeout,
        proxy_connections=args.proxy_connections,
        max_bot_programs=args.max_bot_programs, bot_program_memory_mb=args.bot_program_memory,
        bot_program_cpu_seconds=args.bot_program_cpu, retain_finished=retain_finished, retain_idle=retain_idle,
        retention_interval=retention_interval, retention_batch=args.retention_batch, cluster=args.cluster,
        advertise=args.advertise or f"http://{args.host}:{args.port}",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.game import parse_programs
        from ..server.owner import claim_database
        from ..server.sockets import uvicorn_config
        from ..server.storage import Storage
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise PreferansError(f"the web server needs the [web] extra: pip install 'preferans[web]' ({e})") from None
    programs = parse_programs(args.bot_program)
    config = server_config(args)  # PreferansError (one line) for a bad flag, before the database is touched
    storage = Storage(args.db)  # StorageError (one line) for a file that is not a database
    claim = claim_database(storage, cluster=args.cluster)  # DatabaseInUse (one line) when another has it
    owners = None
    if args.cluster:
        from ..server.cluster import Cluster

        owners = Cluster(storage, config.advertise)
    app = create_app(storage=storage, config=config, owners=owners, bot_programs=programs, claim=False,
                     tune_gc=True)  # fmt: skip
    mode = "cluster process" if args.cluster else "serving"
    print(f"preferans: {mode} on http://{args.host}:{args.port}/  (database: {storage.display_url})", flush=True)
    try:
        uvicorn.Server(uvicorn_config(app, config, host=args.host, port=args.port, log_level=args.log_level)).run()
    finally:
        claim.release()
    return 0
