"""``preferans serve``: run the web server (play in a browser with friends and bots)."""

from __future__ import annotations

import argparse

from ..errors import PreferansError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the web game server (needs the [web] extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None,
                   help="database URL: sqlite:///path.db or postgresql://user:pass@host/db "
                        "(default: SQLite in the user's data directory)")  # fmt: skip
    p.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before acting (default 0.6)")
    p.add_argument("--rate", type=float, default=10.0, help="messages a second allowed per connection (default 10)")
    p.add_argument("--http-rate", type=float, default=1.0,
                   help="tables created / seats taken a second per address (default 1; 0 = no limit)")
    p.add_argument("--secure-cookies", action="store_true", help="mark seat cookies Secure (behind HTTPS)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.add_argument("--bot-program", action="append", default=[], metavar="NAME=COMMAND",
                   help="offer a bot program (docs/bot-protocol.md) as the bot level NAME; repeatable")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.game import parse_programs
        from ..server.storage import Storage
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise PreferansError(f"the web server needs the [web] extra: pip install 'preferans[web]' ({e})") from None
    programs = parse_programs(args.bot_program)
    storage = Storage(args.db)
    app = create_app(storage=storage, bot_delay=args.bot_delay, rate=args.rate, burst=args.rate * 2,
                     http_rate=args.http_rate, secure_cookies=args.secure_cookies, tune_gc=True,
                     bot_programs=programs)  # fmt: skip
    print(f"preferans: serving on http://{args.host}:{args.port}/  (database: {storage.engine.url!r})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=1 << 16,
                ws_ping_interval=20, ws_ping_timeout=30)  # fmt: skip
    return 0
