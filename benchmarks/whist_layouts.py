"""How strong the defenders' sampled layouts make the declarer, against the truth.

    python benchmarks/whist_layouts.py run-leningrad.jsonl [--rules leningrad] [--games 80]
    python benchmarks/whist_layouts.py tune-leningrad.jsonl tune-sochi.jsonl --games 200 \
        --write src/preferans/bots/whist_margin_table.py

Reads ``preferans arena --per-deal`` files (the rules from each file's name, or
``--rules``).  For the first seating of each deal that went to a trick game, the deal is
replayed to the first defender's whisting call; there the declarer's double-dummy tricks
are solved on the layouts ``expert`` and ``hard`` sample for that call (what their
whisting is judged on), and on the true layout (his real hand after his real discard,
first hand leading).  Printed per file: the mean of each over the games (the expert's
layouts as drawn, and as its ``declarer_margin`` option weighs them), the true tricks'
margin over the contract, and per margin (double-dummy tricks less the contract, clipped
−3…+2) the share of the true layouts and of the expert's drawn ones.  A defender whose
layouts make the declarer weaker than he is whists games the declarer makes.

``--write`` stores those margin counts per rules preset as a Python module: the table
behind ``ExpertBot(declarer_margin=True)``, which weighs each drawn layout by how much
likelier its margin is among true declarers than among drawn ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import textwrap
from collections import Counter
from pathlib import Path

from preferans import Deal, Rules
from preferans.bots.expert import MARGIN_RANGE, ExpertBot, margin_of
from preferans.bots.pimc import PimcBot
from preferans.engine.observation import Phase
from preferans.solver import Position, solve_many


def first_whists(path: Path, rules: Rules, games: int) -> list[tuple[int, int, list[int], float, float]]:
    """(contract level, true double-dummy tricks, those of each layout the expert draws,
    their mean as ``declarer_margin`` weighs them, the mean over hard's) at the first
    whisting call of up to ``games`` deals."""
    rows: list[tuple[int, int, list[int], float, float]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        play = rec["plays"][0]
        moves = play["moves"]
        at = next((i for i, (_, _, phase) in enumerate(moves) if phase == "whist"), None)
        if play["kind"] != "game" or at is None:
            continue
        deal = Deal.new(rules, players=len(play["seating"]), dealer=rec["dealer"], seed=rec["seed"])
        for seat, action, _ in moves[:at]:
            deal.apply(action, seat=seat)
        seat = moves[at][0]
        obs = deal.observation(seat)  # a snapshot: the deal goes on to its first card below
        assert deal.contract is not None
        level = deal.contract.level
        for s, action, _ in moves[at:]:
            if deal.phase is Phase.PLAY:
                break
            deal.apply(action, seat=s)
        truth = solve_many([Position.from_deal(deal)])[0]
        drawn = ExpertBot(rules, seed=seat, declarer_margin=False)
        weighed = ExpertBot(rules, seed=seat, declarer_margin=True)
        rows.append((level, truth, drawn._declarer_tricks(obs, drawn.whist_samples),
                     weighed.declarer_estimate(obs), PimcBot(rules, seed=seat).declarer_estimate(obs)))
        if len(rows) >= games:
            break
    return rows


def margin_counts(rows: list[tuple[int, int, list[int], float, float]]) -> dict[str, dict[int, int]]:
    """Per margin: true layouts (one a game) and the expert's drawn layouts."""
    true = Counter(margin_of(t, level) for level, t, _, _, _ in rows)
    drawn = Counter(margin_of(t, level) for level, _, tricks, _, _ in rows for t in tricks)
    return {"true": dict(sorted(true.items())), "drawn": dict(sorted(drawn.items()))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--rules", help="the rules of every file (default: from each file's name)")
    ap.add_argument("--games", type=int, default=80, help="first whisting calls read from each file")
    ap.add_argument("--write", type=Path, help="store the margin counts per rules preset as a Python module here")
    args = ap.parse_args()
    tables: dict[str, dict[str, Counter[int]]] = {}
    for f in args.files:
        name = args.rules or next((p for p in Rules.PRESET_NAMES if p in f.name), None)
        if name is None:
            raise SystemExit(f"{f}: name the rules with --rules (the file name does not say them)")
        rows = first_whists(f, Rules.preset(name), args.games)
        if not rows:
            raise SystemExit(f"{f}: no trick game reached the whisting")
        true = statistics.fmean(t for _, t, _, _, _ in rows)
        weighed = statistics.fmean(w for _, _, _, w, _ in rows)
        hard = statistics.fmean(h for _, _, _, _, h in rows)
        drawn = statistics.fmean(t for r in rows for t in r[2])
        margin = statistics.fmean(r[1] - r[0] for r in rows)
        print(f"{f.name}: {len(rows)} first whisting calls ({name}): the declarer's double-dummy tricks "
              f"true {true:.2f}, expert's layouts {drawn:.2f} (weighed by margin {weighed:.2f}), "
              f"hard's {hard:.2f}; true − contract {margin:+.2f}")
        counts = margin_counts(rows)
        n_true, n_drawn = len(rows), sum(counts["drawn"].values())
        print("  margin " + "  ".join(f"{m:+d}: true {counts['true'].get(m, 0) / n_true:.2f} "
                                       f"drawn {counts['drawn'].get(m, 0) / n_drawn:.2f}" for m in MARGIN_RANGE))
        table = tables.setdefault(name, {"true": Counter(), "drawn": Counter()})
        for key in ("true", "drawn"):
            table[key].update(counts[key])
    if args.write:
        sources = ", ".join(f.name for f in args.files)
        body = "".join(f"    {name!r}: {{\n" + "".join(
            f"        {key!r}: {dict(sorted(t[key].items()))!r},\n" for key in ("true", "drawn")) + "    },\n"
            for name, t in sorted(tables.items()))
        args.write.write_text(
            '"""The declarer\'s double-dummy margin at the first whisting call, counted: written by\n'
            + textwrap.fill(f"``benchmarks/whist_layouts.py --write`` from {sources} (do not edit by hand).", 100)
            + "\n\n"
            "``MARGINS[rules]['true'][margin]``: games whose declarer's true double-dummy tricks were\n"
            "``margin`` over his contract (clipped −3…+2); ``MARGINS[rules]['drawn'][margin]``: the\n"
            "layouts the expert drew for those calls with that margin.\n"
            '"""\n\n'
            "MARGINS: dict[str, dict[str, dict[int, int]]] = {\n" + body + "}\n", encoding="utf-8")
        print(f"written {args.write}")


if __name__ == "__main__":
    main()
