"""``preferans score`` — keep the score of a game at a real table.

Reads deal outcomes (compact lines or JSON lines, see :mod:`preferans.scoring.scorekeeper`)
from a file or interactively, and prints the sheet and the settlement as text,
as JSON (``--format json``) or as a picture (``--svg out.svg``).
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from ..errors import ConfirmationNeeded, PreferansError, ScoreError
from ..i18n import LANGS, N_, Msg, Translator, system_language
from ..rules import Rules
from ..scoring.scorekeeper import ScoreKeeper
from ..scoring.sheet import amount_text, paper_amount, signed_amount
from ..scoring.text_sheet import entry_text, render_text
from ._rules_args import add_rules_arguments

HELP = N_("""\
Enter one deal per line (players {names}):
  A 7S B:w C:p B2        A declares 7♠; B whists and takes 2, C passes
  A 6H B:w C:w B2 C2     both whist; the declarer's tricks are the rest
  A 8NT B:p C:p          not whisted (written as made)
  A 6S B:p C:h           half-whist;  A 7D B:w C:p quota  «за своими» (za_svoimi)
  A 10H A10              a checked 10 (no calls)
  A misere 0             misère (add 'half' for «пополам» with the dealer)
  allpass A3 B5 C2       all-pass (4 players: add the dealer's talon tricks)
  A pool +3; C whists B +10   lines written by hand (a sheet in progress, a correction)
  options: @D dealer, x2 multiplier, -3 без трёх, -10 без всех, open, help=C
  or a JSON object: {{"game": "7S", "declarer": "A", "defence": {{...}}, "tricks": {{...}}}}
Commands: undo, show, settle, save FILE, load FILE, svg FILE, help, quit""")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help=N_("keep the score of a game played at a real table"),
        description=N_("Score keeper: enter each deal's outcome; see the sheet and the settlement."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=Msg(HELP, names="A, B, C"),  # in the language of the help
    )
    p.add_argument("file", nargs="?", help=N_("deals, one per line (compact or JSON); '-' = stdin"))
    add_rules_arguments(p, default=None)
    p.add_argument("--players", help=N_("names, comma-separated: A,B,C or A,B,C,D"))
    p.add_argument("--first-dealer", help=N_("who deals first (default: the first player)"))
    p.add_argument("--pool", type=int, help=N_("pool size to close (pool_target)"))
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--svg", metavar="OUT", help=N_("also draw the sheet as SVG"))
    p.add_argument("--price", help=N_("money per whist, e.g. 0.5 or 1/2"))
    p.add_argument("-i", "--interactive", action="store_true",
                   help=N_("enter deals line by line (after reading FILE, if given)"))  # fmt: skip
    p.add_argument("--save", metavar="FILE", help=N_("save the game (JSON lines) at the end"))
    p.add_argument("--lang", choices=LANGS, default=system_language(),
                   help=N_("language of the sheet, the settlement, the SVG and the messages: en or ru "
                           "(default: the system's)"))
    p.set_defaults(func=run)


def _keeper(args: argparse.Namespace, lines: list[str]) -> ScoreKeeper:
    rules = Rules.preset(args.rules) if args.rules else None
    overrides = list(args.set)
    if args.pool is not None:
        overrides.append(f"pool_target={args.pool}")
    players = None
    if args.players:
        players = [x.strip() for x in args.players.split(",")]
    _check_options(args, rules, overrides, players)
    return ScoreKeeper.from_lines(
        lines, rules=rules, players=players, first_dealer=args.first_dealer, overrides=overrides
    )


def _check_options(args: argparse.Namespace, rules: Rules | None, overrides: list[str],
                   players: list[str] | None) -> None:  # fmt: skip
    """A mistake on the command line is named by its option, not as a line of the input."""
    r = rules or Rules()
    for o in overrides:
        try:
            r = r.set_from_text(o)
        except PreferansError as e:
            pool = o == f"pool_target={args.pool}" and args.pool is not None and o == overrides[-1]
            raise ScoreError(f"--pool {args.pool}: {e}" if pool else f"--set {o}: {e}") from None
    if players is not None:
        try:
            ScoreKeeper(r, players)
        except PreferansError as e:
            raise ScoreError(f"--players {args.players}: {e}") from None
    if args.first_dealer is not None:
        try:
            ScoreKeeper(r, players if players is not None else 3, args.first_dealer)
        except PreferansError as e:
            raise ScoreError(f"--first-dealer {args.first_dealer}: {e}") from None


def _price(text: str | None) -> Fraction | None:
    if text is None:
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ScoreError(f"--price: {text!r} is not a number") from None


def _json(keeper: ScoreKeeper, price: Fraction | None) -> str:
    settlement = keeper.pulka.settlement()
    out: dict[str, Any] = keeper.pulka.sheet.to_dict()
    out["net"] = {n: amount_text(x) for n, x in zip(keeper.names, settlement.rounded, strict=True)}
    if price is not None:
        money = settlement.money(price)
        out["money"] = {n: amount_text(x) for n, x in zip(keeper.names, money, strict=True)}
    return json.dumps(out, ensure_ascii=False)


def _show(keeper: ScoreKeeper, fmt: str, price: Fraction | None, lang: str = "en") -> str:
    if fmt == "json":
        return _json(keeper, price)
    p = keeper.pulka
    return render_text(p.sheet, p.rules, p.settlement(), price=price, lang=lang)


def _write_svg(keeper: ScoreKeeper, path: str, lang: str = "en") -> None:
    Path(path).write_text(keeper.pulka.svg(lang), encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    price = _price(args.price)
    lines: list[str] = []
    interactive = args.interactive
    if args.file and args.file != "-":
        try:
            lines = Path(args.file).read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise ScoreError(f"{args.file}: {e.strerror}") from None
    elif not interactive:
        if sys.stdin.isatty():
            interactive = True
        else:
            lines = sys.stdin.read().splitlines()
    keeper = _keeper(args, lines)
    if interactive:
        keeper = _interact(keeper, sys.stdin, sys.stdout, args, price)
    print(_show(keeper, args.format, price, args.lang))
    if args.svg:
        _write_svg(keeper, args.svg, args.lang)
    if args.save:
        keeper.save(args.save)
    return 0


def _status(keeper: ScoreKeeper, t: Translator) -> str:
    p = keeper.pulka
    bits = [t("deal {n}", n=len(p.results) + 1), t("dealer {name}", name=p.names[p.next_dealer])]
    if p.raspas_series:
        bits.append(t("all-pass step {n}", n=p.raspas_step))
    if p.min_level > 6:
        bits.append(t("min game {n}", n=p.min_level))
    if p.is_over:
        bits.append(t("pulka over"))
    return ", ".join(bits)


def _interact(
    keeper: ScoreKeeper, inp: TextIO, out: TextIO, args: argparse.Namespace, price: Fraction | None
) -> ScoreKeeper:
    """The line-by-line loop: every line is a deal or a command; errors change nothing."""
    lang = getattr(args, "lang", "en")  # a caller's own Namespace may not say it
    t = Translator(lang)
    print(t(HELP, names=", ".join(keeper.names)).splitlines()[0] + t("  ('help' for more)"),
          file=out)  # fmt: skip
    while True:
        print(f"[{_status(keeper, t)}]> ", end="", file=out, flush=True)
        raw = inp.readline()
        if not raw:
            print(file=out)
            break
        line = raw.strip()
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        try:
            if not line or line.startswith("#"):
                continue
            if cmd in ("quit", "exit", "q"):
                print(file=out)
                break
            if cmd in ("help", "?"):
                print(t(HELP, names=", ".join(keeper.names)), file=out)
            elif cmd == "undo":
                keeper.undo()
                print(t("took back the last deal; {status}", status=_status(keeper, t)), file=out)
            elif cmd == "show":
                print(_show(keeper, "text", price, lang), file=out)
            elif cmd == "settle":
                s = keeper.pulka.settlement()  # whole whists as paper writes them; the exact beside
                print("  ".join(f"{n} {signed_amount(w)} ({paper_amount(x)})"
                                for n, w, x in zip(keeper.names, s.whole, s.rounded, strict=True)), file=out)
            elif cmd == "save":
                target = rest.strip() or args.save
                if not target:
                    raise ScoreError(t("save: give a file name: save game.jsonl"))
                keeper.save(target)
                print(t.n("saved {n} deal to {target}", "saved {n} deals to {target}", len(keeper.pulka.results),
                          target=target), file=out)  # fmt: skip
            elif cmd == "load":
                source = rest.strip()
                if not source:
                    raise ScoreError(t("load: give a file name: load game.jsonl"))
                try:
                    text = Path(source).read_text(encoding="utf-8")
                except OSError as e:
                    raise ScoreError(f"load: {source}: {e.strerror}") from None
                keeper = ScoreKeeper.from_lines(text.splitlines())
                print(t.n("loaded {n} deal; {status}", "loaded {n} deals; {status}", len(keeper.pulka.results),
                          status=_status(keeper, t)), file=out)  # fmt: skip
            elif cmd == "svg":
                if not rest.strip():
                    raise ScoreError(t("svg: give a file name: svg sheet.svg"))
                _write_svg(keeper, rest.strip(), lang)
                print(t("wrote {path}", path=rest.strip()), file=out)
            else:
                try:
                    score = keeper.enter(line)
                except ConfirmationNeeded as e:  # a lone whist without tricks: ask, do not guess
                    print(f"  {t.text(e)}", file=out)
                    print(t("  «за своими»: the lone whister writes his quota without play? [y/N] "), end="",
                          file=out, flush=True)  # fmt: skip
                    if inp.readline().strip().lower() not in ("y", "yes", "д", "да"):
                        print(t("  nothing written: write the tricks"), file=out)
                        continue
                    score = keeper.enter(line, quota=True)
                written = " · ".join(entry_text(e, keeper.names, lang) for e in score.entries) or "—"
                print(f"  {score.number}. {t.text(score.label)}: {written}", file=out)
                if keeper.pulka.is_over:
                    print(t("  the pulka is over ('undo' to take the last deal back)"), file=out)
        except PreferansError as e:
            print(t("  error: {reason} (nothing written)", reason=t.text(e)), file=out)
    return keeper
