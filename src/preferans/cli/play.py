"""``preferans play``: a whole pulka against the computer, full-screen or in plain lines.

The game itself is :class:`preferans.table.Table`; this module only reads the
options and starts a front end — the Textual interface (``[tui]`` extra) or
the line mode (``--plain``, also used when Textual is missing or the output
is not a terminal).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..bots import LEVELS
from ..bots.expert import parse_think
from ..errors import PreferansError
from ..i18n import LANGS, N_, system_language
from ..table import Table, default_names, parse_seats
from ._rules_args import add_rules_arguments, rules_from_args


def default_save_path() -> Path:
    """Where a game is saved on quit when no ``--save`` file was given."""
    base = os.environ.get("PREFERANS_HOME") or os.path.join(os.path.expanduser("~"), ".preferans")
    return Path(base) / "last-game.prf"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help=N_("play a whole pulka against the computer (full-screen, or --plain lines)"),
        description=N_("Play a pulka of Preferans against bots until the pool closes, then settle."),
    )
    add_rules_arguments(p)
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help=N_("2 (гусарик: the dummy is a third hand), 3, or 4 (the dealer sits out)"))
    p.add_argument("--pool", type=int, default=None, metavar="N", help=N_("pool target (default: the rules', 20)"))
    p.add_argument("--level", choices=LEVELS, default="medium", help=N_("strength of the bots"))
    p.add_argument("--seats", default=None, metavar="SPECS",
                   help=N_("comma-separated seats: human, bot:LEVEL or cmd:PROGRAM (default: you and bots)"))
    p.add_argument("--names", default=None, metavar="NAMES", help=N_("comma-separated player names"))
    p.add_argument("--deals", type=int, default=None, metavar="N", help=N_("stop after N deals"))
    p.add_argument("--seed", type=int, default=None, help=N_("seed of every shuffle and bot (a replayable game)"))
    p.add_argument("--lang", choices=LANGS, default=None,
                   help=N_("language of the interface: en or ru (default: the system's; a resumed game keeps its own)"))
    p.add_argument("--ranks", choices=("ru", "en"), default=None,
                   help=N_("card ranks: ru = Т К Д В, en = A K Q J (default: the language's)"))
    p.add_argument("--plain", action="store_true", help=N_("line mode for screen readers and pipes"))
    p.add_argument("--practice", action="store_true", help=N_("practice mode: undo your last action"))
    p.add_argument("--auto-play", action="store_true", help=N_("play a forced single card by itself"))
    p.add_argument("--hint-level", choices=LEVELS, default="expert", help=N_("the bot that gives hints"))
    p.add_argument("--think", default=None, metavar="TIME",
                   help=N_("thinking time of the expert bots and hints per decision (1s, 250ms; default 1s)"))
    p.add_argument("--save", default=None, metavar="FILE", help=N_("write the game to FILE as it goes"))
    p.add_argument("--resume", default=None, metavar="FILE", help=N_("go on with a saved game"))
    p.add_argument("--light", action="store_true", help=N_("colours for a light background (key t toggles)"))
    p.add_argument("--delay", type=float, default=0.5, help=N_("seconds between bot moves (full-screen)"))
    p.set_defaults(func=run)


def _with_think(spec: str, think: str | None) -> str:
    """``expert`` (as a seat ``bot:expert``) with the --think time."""
    if think is None:
        return spec
    if spec == "expert":
        return f"expert:{think}"
    if spec == "bot:expert":
        return f"bot:expert:{think}"
    return spec


def build_table(args: argparse.Namespace) -> Table:
    think = getattr(args, "think", None)
    if think is not None:
        try:
            parse_think(think)
        except ValueError as e:
            raise PreferansError(f"--think: {e}") from None
    args.hint_level = _with_think(args.hint_level, think)
    save = Path(args.save) if args.save else None
    if args.resume:
        kept = {"save_path": save} if save else {}
        table = Table.load(args.resume, **kept)
        if args.lang is not None and args.lang != table.lang:
            # The default names are the interface's words (You, Left, Right): they change with it.
            default = table.names == default_names(table.seats, table.lang)
            renamed: dict[str, object] = {"names": default_names(table.seats, args.lang)} if default else {}
            table = Table.load(args.resume, lang=args.lang, **renamed, **kept)
        if args.deals is not None:
            table.max_deals = args.deals
        if args.practice:
            table.practice = True
        if args.auto_play:
            table.auto_single = True
        table.hint_level = args.hint_level
        return table
    rules = rules_from_args(args)
    if args.pool is not None:
        if args.pool < 1:
            raise PreferansError(f"--pool: the pool target must be at least 1, not {args.pool}")
        rules = rules.replace(pool_target=args.pool)
    if args.seats:
        seats = parse_seats(args.seats, args.players)
    else:
        n = args.players or 3
        seats = ["human"] + [f"bot:{args.level}"] * (n - 1)
    seats = [_with_think(s, think) for s in seats]
    lang = args.lang or system_language()
    names = [x.strip() for x in args.names.split(",")] if args.names else default_names(seats, lang)
    if save is None and "human" in seats:
        save = default_save_path()  # a person's game is always saved as it goes
    return Table(
        rules, seats, names=names, seed=args.seed, practice=args.practice, auto_single=args.auto_play,
        max_deals=args.deals, save_path=save, hint_level=args.hint_level, lang=lang,
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    table = build_table(args)
    try:
        return _play(args, table)
    finally:
        table.close()  # bot programs (cmd: seats) end with the program


def _play(args: argparse.Namespace, table: Table) -> int:
    plain = args.plain or not table.humans or not (sys.stdin.isatty() and sys.stdout.isatty())
    if not plain:
        try:
            from ..terminal.fullscreen import PlayApp
        except ImportError:
            print("preferans play: the full-screen interface needs Textual: pip install 'preferans[tui]'; "
                  "playing in plain lines", file=sys.stderr)  # fmt: skip
            plain = True
    if plain:
        from ..terminal.plain import run_plain

        return run_plain(table, lang=table.lang, quit_save=default_save_path() if table.humans else None,
                         ranks=getattr(args, "ranks", None))  # fmt: skip
    app = PlayApp(table, lang=table.lang, delay=args.delay, quit_save=default_save_path(), light=args.light,
                  ranks=getattr(args, "ranks", None))  # fmt: skip
    app.run()
    if app.exit_message:
        print(app.exit_message)
    if table.is_over:
        from ..scoring.text_sheet import render_text

        print(render_text(table.pulka.sheet, table.rules, table.pulka.settlement(), lang=table.lang))
    return app.return_code or 0
