"""How far real card play lands from double-dummy: the table behind ``ExpertBot(dd_bias=True)``.

    python benchmarks/dd_bias.py tmp/final-sochi.jsonl tmp/final-leningrad.jsonl            # the figures
    python benchmarks/dd_bias.py tmp/final-*.jsonl --write src/preferans/bots/dd_bias_table.py
    python benchmarks/dd_bias.py tmp/tune-*.jsonl --defence-write src/preferans/bots/defence_mix_table.py

Reads ``preferans arena --per-deal`` files.  Every trick game played (whisted,
ten tricks played out) is replayed to its first card; the declarer's tricks
with all cards open from there (first hand leading, the real discard) are
solved and set against the tricks he took at the table.  The differences
``real − double-dummy`` are counted by the defence's situation — closed or
open (лёжа), one whister or two — and by the double-dummy margin over the
contract (``dd − level``, clipped to −3…+2), the things that decide how often
a defence that cannot see its cards lets a trick through or a declarer loses
one.  A misère is counted as situation ``misere`` by the tricks double-dummy
gives its declarer (the catchers seeing his cards, which at the table they do
not), its margin.  ``--write`` stores the counts as a Python module (standard library only)
for :mod:`preferans.bots.expert`.

``--defence-write`` stores instead how the games were defended: per rules preset,
table size and contract level, how many trick games met each situation (no solving).
The expert weighs the situations' rows by it in the auction, where the defence is not
known yet: under Leningrad a 6 is defended by one open whister nine times in ten, under
Sochi a 7 or more by two closed whisters.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

from preferans import Deal, Rules
from preferans.bots.expert import MARGIN_RANGE, margin_of
from preferans.engine.observation import Phase
from preferans.solver import Position, solve_many

SHIFTS = range(-3, 4)
"""Real − double-dummy tricks counted (clipped)."""


def situation(open_play: bool, whisters: int) -> str:
    """The row key's defence part: ``open`` or ``closed``, with one or two whisters."""
    return f"{'open' if open_play else 'closed'}{whisters}"


def games(path: Path, rules: Rules) -> list[tuple[str, int, int, int]]:
    """(situation, level, double-dummy tricks, real tricks) of every trick game and misère played
    in ``path`` (a misère's level 0)."""
    rows: list[tuple[str, int, Position, int]] = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for play in rec["plays"]:
            if play["kind"] not in ("game", "misere") or sum(play["tricks"].values()) != 10:
                continue
            deal = Deal.new(rules, players=3, dealer=rec["dealer"], seed=rec["seed"])
            for seat, action, _ in play["moves"]:
                if deal.phase is Phase.PLAY:
                    break
                deal.apply(action, seat=seat)
            if deal.phase is not Phase.PLAY or deal.contract is None or deal.declarer is None:
                continue
            real = play["tricks"][str(deal.declarer)]
            if play["kind"] == "misere":  # the margin is the tricks he cannot shed
                rows.append(("misere", 0, Position.from_deal(deal), real))
                continue
            # the open-or-closed choice comes after the first lead (Sochi): read it from the moves
            opened = any(phase == "defence" and action == "open" for _, action, phase in play["moves"])
            key = situation(opened, len(deal.whisters))
            rows.append((key, deal.contract.level, Position.from_deal(deal), real))
    tricks = solve_many([pos for _, _, pos, _ in rows])
    return [(key, level, dd, real) for (key, level, _, real), dd in zip(rows, tricks, strict=True)]


def defences(path: Path) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str, str]]]:
    """From ``path``'s records alone: (players, level, situation) of every trick game played
    out — the whisters' calls and whether the defence was laid open — and (players, level,
    first defender's call, second's) of every game whisted or passed by both defenders."""
    games_of, calls_of = [], []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for play in rec["plays"]:
            if play["kind"] not in ("game", "not_played") or not play["contract"]:
                continue
            level = re.match(r"\d+", play["contract"])
            if level is None:
                raise SystemExit(f"{path}: deal {rec['index']}: a game's contract {play['contract']!r} has no level")
            players = len(play["seating"])
            said = [action for _, action, phase in play["moves"] if phase == "whist"]
            if len(said) >= 2:
                calls_of.append((players, int(level.group()), said[0], said[1]))
            if play["kind"] != "game" or sum(play["tricks"].values()) != 10:
                continue
            whisters = sum(1 for call in play["defence"].values() if call == "whist")
            opened = any(phase == "defence" and action == "open" for _, action, phase in play["moves"])
            games_of.append((players, int(level.group()), situation(opened, whisters)))
    return games_of, calls_of


def defence_table(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, dict[int, dict[int, dict[str, Any]]]]:
    """Counts: rules preset → players → level → the rest of each row (a situation, or the first
    call and then the second) → games."""
    out: dict[str, Any] = {}
    for name, rows_of in sorted(rows.items()):
        for players, level, *keys in rows_of:
            row = out.setdefault(name, {}).setdefault(players, {}).setdefault(level, {})
            for key in keys[:-1]:
                row = row.setdefault(key, {})
            row[keys[-1]] = row.get(keys[-1], 0) + 1

    def tidy(x: Any) -> Any:
        return {k: tidy(v) for k, v in sorted(x.items())} if isinstance(x, dict) else x

    return tidy(out)  # type: ignore[no-any-return]


def write_defence(path: Path, mix: dict[str, Any], calls: dict[str, Any], sources: str) -> None:
    """Store :func:`defence_table`'s counts of situations and of calls as a Python module
    (standard library only)."""

    def lines(counts: dict[str, Any]) -> str:
        return "".join(
            f"    {name!r}: {{\n" + "".join(
                f"        {players}: {{\n" + "".join(f"            {level}: {row!r},\n" for level, row in by.items())
                + "        },\n" for players, by in t.items()) + "    },\n"
            for name, t in counts.items())

    path.write_text(
        '"""How trick games were defended, counted: written by ``benchmarks/dd_bias.py --defence-write``\n'
        + textwrap.fill(f"from {sources} (do not edit by hand).", 100) + "\n\n"
        "``DEFENCE[rules][players][level][situation]``: trick games played out under the rules preset\n"
        "``rules`` at a table of ``players`` whose contract was of ``level`` and whose defence was\n"
        "``situation`` (as in :data:`.dd_bias_table.COUNTS`).  ``CALLS[rules][players][level][first][second]``:\n"
        "games whose first defender called ``first`` and the second then ``second``.\n"
        '"""\n\n'
        "DEFENCE: dict[str, dict[int, dict[int, dict[str, int]]]] = {\n" + lines(mix) + "}\n\n"
        "CALLS: dict[str, dict[int, dict[int, dict[str, dict[str, int]]]]] = {\n" + lines(calls) + "}\n")


def table(samples: list[tuple[str, int, int, int]]) -> dict[str, dict[int, dict[int, int]]]:
    """Counts: situation → margin → shift → games."""
    out: dict[str, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for key, level, dd, real in samples:
        margin = margin_of(dd, level)
        shift = max(SHIFTS[0], min(SHIFTS[-1], real - dd))
        out[key][margin][shift] += 1
    return {k: {m: dict(sorted(v.items())) for m, v in sorted(rows.items())} for k, rows in sorted(out.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path, help="per-deal files (rules from the name)")
    ap.add_argument("--rules", help="the rules of every file (default: from each file's name)")
    ap.add_argument("--write", type=Path, help="store the counts as a Python module here")
    ap.add_argument("--defence-write", type=Path, help="store how the games were defended as a Python module here")
    args = ap.parse_args()
    names: list[str] = []
    for f in args.files:
        name = args.rules or next((p for p in Rules.PRESET_NAMES if p in f.name), None)
        if name is None:
            raise SystemExit(f"{f}: name the rules with --rules (the file name does not say them)")
        names.append(name)
    if args.defence_write:
        rows: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        call_rows: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for f, name in zip(args.files, names, strict=True):
            games_of, calls_of = defences(f)
            rows[name] += games_of
            call_rows[name] += calls_of
        mix, calls = defence_table(rows), defence_table(call_rows)
        for name, t in mix.items():
            for players, by in t.items():
                for level, row in by.items():
                    n = sum(row.values())
                    shares = ", ".join(f"{k} {v / n:.0%}" for k, v in row.items())
                    print(f"{name:<10} {players} players, level {level:>2}: {n:>5} games  {shares}")
        for name, t in calls.items():
            for players, by in t.items():
                for level, firsts in by.items():
                    said = "; ".join(f"after {first}: " + ", ".join(f"{k} {v}" for k, v in seconds.items())
                                     for first, seconds in firsts.items())
                    print(f"{name:<10} {players} players, level {level:>2}, the second defender {said}")
        write_defence(args.defence_write, mix, calls, ", ".join(f.name for f in args.files))
        print(f"written {args.defence_write}")
        return
    samples: list[tuple[str, int, int, int]] = []
    for f, name in zip(args.files, names, strict=True):
        samples += games(f, Rules.preset(name))
    counts = table(samples)
    print(f"{len(samples)} trick games played out")
    print(f"{'situation':<9} {'margin':>6} {'games':>6} {'mean real-dd':>13}  shifts")
    for key, by_margin in counts.items():
        for m, shifts in by_margin.items():
            n = sum(shifts.values())
            mean = sum(s * c for s, c in shifts.items()) / n
            print(f"{key:<9} {m:>+6} {n:>6} {mean:>+13.3f}  {shifts}")
    if args.write:
        sources = ", ".join(f.name for f in args.files)
        args.write.write_text(
            '"""Real − double-dummy declarer tricks, counted: written by ``benchmarks/dd_bias.py``\n'
            f"from {sources} (do not edit by hand).\n\n"
            "``COUNTS[situation][margin][shift]``: games whose defence was ``situation`` (open or closed,\n"
            "one or two whisters), whose double-dummy tricks were ``margin`` over the contract (clipped\n"
            f"{MARGIN_RANGE[0]}…{MARGIN_RANGE[-1]}) and in which the declarer took ``shift`` tricks more "
            "than double-dummy\n"
            f'(clipped {SHIFTS[0]}…{SHIFTS[-1]}).\n"""\n\n'
            "COUNTS: dict[str, dict[int, dict[int, int]]] = {\n"
            + "".join(
                f"    {key!r}: {{\n" + "".join(f"        {m}: {shifts!r},\n" for m, shifts in rows.items()) + "    },\n"
                for key, rows in counts.items()
            )
            + "}\n"
        )
        print(f"written {args.write}")


if __name__ == "__main__":
    main()
