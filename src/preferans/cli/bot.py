"""``preferans bot``: serve one of our bots over the bot protocol (stdin/stdout).

    preferans bot --level hard
    preferans bot --ids              # every action id: text, ASCII, phases, meaning
    preferans bot --ids markdown     # the same as the tables of docs/bot-protocol.md

A table (``preferans arena --bots cmd:"preferans bot --level hard"``, or a
program in any language) talks to it as ``docs/bot-protocol.md`` describes.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..actions import (
    BID_BASE,
    BIDS,
    CLAIM_BASE,
    DARK_BASE,
    IRREGULAR_END,
    OUT_OF_TURN_BASE,
    PROVEN_CLAIM_BASE,
    TALON_SEEN_ID,
    TOTUS_ID,
    WHIST_ID,
    Action,
    action_table,
)
from ..bots.base import Bot
from ..bots.levels import LEVELS, make_bot
from ..bots.protocol import serve
from ..cards import RANK_NAMES, SUIT_SYMBOLS
from ..i18n import N_
from ..rules import Rules


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help=N_("serve a bot over the line protocol on stdin/stdout (docs/bot-protocol.md)"))
    p.add_argument("--level", default="medium", choices=LEVELS, help="the bot's level (default medium)")
    p.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    p.add_argument("--ids", nargs="?", const="text", choices=("text", "json", "markdown"), default=None,
                   help="print every action id (text, ASCII, phases where legal, meaning), then exit")  # fmt: skip
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ids is not None:
        print(ids_text(args.ids), end="")
        return 0
    level, seed = args.level, args.seed

    def make(rules: Rules) -> Bot:
        return make_bot(level, rules, seed=seed)

    return serve(make, sys.stdin, sys.stdout, name=f"preferans-{level}")


def ids_text(fmt: str = "text") -> str:
    """The action ids as ``text`` (one line each), ``json`` or ``markdown`` (the document's tables).

    >>> print(ids_text().splitlines()[62])
     61  pass             pass             bidding, whist, misere_catch                 pass: in the auction (final, Kodeks 3.3.10), in whisting (no whist), or not catching for both
    """  # noqa: E501
    rows = action_table()
    if fmt == "json":
        items = [{"id": i, "text": t, "ascii": a, "phases": list(p), "meaning": m} for i, t, a, p, m in rows]
        return json.dumps(items, ensure_ascii=False, indent=1) + "\n"
    if fmt == "markdown":
        return _markdown()
    head = f"{'id':>3}  {'text':<16} {'ascii':<16} {'phases':<44} meaning\n"
    return head + "".join(
        f"{i:>3}  {t:<16} {a:<16} {', '.join(p) or '(reported)':<44} {m}\n" for i, t, a, p, m in rows
    )


def _markdown() -> str:
    rows = {i: (t, a, p, m) for i, t, a, p, m in action_table()}
    out = ["**Cards 0–31**: id = 8 × suit + rank (suits ♠ 0, ♣ 1, ♦ 2, ♥ 3; ranks 7 8 9 10 J Q K A = 0 … 7). "
           "Legal in `discard` and `play`.", "",
           "| | " + " | ".join(RANK_NAMES) + " |", "|---" * 9 + "|"]  # fmt: skip
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        out.append(f"| {symbol} | " + " | ".join(str(8 * suit + r) for r in range(8)) + " |")
    out += ["", "**Bids and contracts 32–60**: the same id is a bid in `bidding` and the contract named in "
            "`declare` (misère and the trick games; the «без прикупа» bids only in `bidding`).", "",
            "| level | ♠ | ♣ | ♦ | ♥ | NT |", "|---" * 6 + "|"]  # fmt: skip
    for level in range(6, 11):
        first = BID_BASE + (level - 6) * 5
        out.append(f"| {level} | " + " | ".join(str(first + k) for k in range(5)) + " |")
    out += ["", "| id | text | legal in | meaning |", "|---|---|---|---|"]
    for i in range(BID_BASE + 25, BID_BASE + len(BIDS)):
        out.append(_row(i, rows[i]))
    out += ["", "**Calls 61–64 and 94–107** (a whist-phase `pass` is the same 61 as an auction `pass`; "
            "the phase tells them apart):", "", "| id | text | legal in | meaning |", "|---|---|---|---|"]  # fmt: skip
    for i in [*range(BID_BASE + len(BIDS), DARK_BASE), *range(WHIST_ID, TALON_SEEN_ID)]:
        out.append(_row(i, rows[i]))
    dark_misere, dark_last = DARK_BASE + 25, DARK_BASE + len(BIDS) - 1
    out += ["", f"**Dark bids {DARK_BASE}–{DARK_BASE + len(BIDS) - 1}** (option `dark_bids`, legal in `bidding`): "
            f"`dark X` is the id of the bid X plus {DARK_BASE - BID_BASE} — {DARK_BASE} `{Action(DARK_BASE)}`, "
            f"{dark_misere} `{Action(dark_misere)}`, {dark_last} `{Action(dark_last)}`.",
            "", f"**Totus {TOTUS_ID}** (option `totus`, legal in `bidding`): `{Action(TOTUS_ID)}` — "
            f"{rows[TOTUS_ID][3]}.",
            "", f"**Reported, never legal, {TALON_SEEN_ID}–{IRREGULAR_END - 1}** (`Deal.report`, `Deal.claim`; you "
            "see them in `moves`, you never answer with them):", "",
            "| id | text | meaning |", "|---|---|---|"]  # fmt: skip
    for i in range(TALON_SEEN_ID, OUT_OF_TURN_BASE):
        out.append(f"| {i} | `{rows[i][0]}` | {rows[i][3]} |")
    last_bid = OUT_OF_TURN_BASE + len(BIDS)
    out += [
        f"| {OUT_OF_TURN_BASE}–{last_bid - 1} | `!out-of-turn X` | a call X out of turn: {OUT_OF_TURN_BASE} + "
        f"(id of X − {BID_BASE}) (Kodeks 3.3.18) |",
        f"| {last_bid} | `{rows[last_bid][0]}` | a pass out of turn (Kodeks 3.3.18) |",
        f"| {CLAIM_BASE}–{PROVEN_CLAIM_BASE - 1} | `claim N` | {CLAIM_BASE} + N: the claimer's side takes N of "
        "the remaining tricks; the opponents answer |",
        f"| {PROVEN_CLAIM_BASE}–{IRREGULAR_END - 1} | `claim N proven` | {PROVEN_CLAIM_BASE} + N: a claim the "
        "solver proved; play ends |",
    ]
    return "\n".join(out) + "\n"


def _row(i: int, row: tuple[str, str, tuple[str, ...], str]) -> str:
    text, ascii, phases, meaning = row
    forms = f"`{text}`" if text == ascii else f"`{text}` `{ascii}`"
    return f"| {i} | {forms} | {', '.join(f'`{p}`' for p in phases)} | {meaning} |"
