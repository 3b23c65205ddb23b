"""``preferans analyze FILE``: every decision of every deal of a record, priced in whists.

For each deal whose cards are all known: the value before and after every
card, the cards that cost tricks (with the loss in tricks and in whists under
the record's conventions), the discard and the contract (all hands open), the
auction's calls and whist/pass (on average over the layouts the player could
not see: the bots' sampling, unless ``--no-calls``), the declarer's contract
table, and a summary per player.  Text in English or Russian (``--lang ru``),
``--format json`` for programs; progress goes to stderr when the record has
more than one deal (``--quiet`` silences it).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import LANGS, N_, system_language
from ..rulings.analysis import analyze
from .replay import add_record_options, open_record, warn


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyze", help=N_("double-dummy analysis of a record: costly cards, contract tables, summary"))
    p.add_argument("file", help="a record: text (.prf) or its JSON twin (.json)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--deal", type=int, action="append", metavar="N", help="analyse only deal N (repeatable)")
    p.add_argument("--errors-only", action="store_true", help="text: list only the cards that cost tricks")
    p.add_argument("--no-table", action="store_true", help="skip the declarer's contract table (faster)")
    p.add_argument("--no-calls", action="store_true",
                   help="do not price the auction's calls and whist/pass (the sampling takes most of the time)")
    p.add_argument("--lang", choices=LANGS, default=system_language(),
                   help="the report's language (text; default: the system's)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_record_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record, errors = open_record(args)
    total = len(record.deals)
    tty = sys.stderr.isatty()
    show = not args.quiet and total > 1

    def progress(done: int, of: int) -> None:
        if not show:
            return
        msg = f"analysing: deal {done}/{of}"  # stderr, for the one who ran the command
        if tty:
            end = "\n" if done == of else ""
            print(f"\r{msg}", end=end, file=sys.stderr, flush=True)
        else:
            print(msg, file=sys.stderr, flush=True)

    if args.deal:
        bad = [n for n in args.deal if not 1 <= n <= total]
        if bad:
            print(f"preferans analyze: error: --deal must be 1..{total}, not {bad[0]}", file=sys.stderr)
            return 2
    calls = None
    if not args.no_calls:
        from ..bots.appraisal import CallAppraiser

        calls = CallAppraiser(record.rules)
    result = analyze(record, contract_table=not args.no_table, progress=progress, deals=args.deal,
                     source=args.file, errors=errors, calls=calls)
    warn(errors)
    if args.format == "json":
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    else:
        print(result.text(all_cards=not args.errors_only, lang=args.lang))
    return 0
