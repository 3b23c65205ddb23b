"""How often players bid a game for the strength of their hand: the counts behind
:func:`preferans.bots.inference.bid_odds`.

    python benchmarks/call_odds.py tmp/base-leningrad.jsonl [more.jsonl …] [--rules leningrad]

Reads ``preferans arena --per-deal`` files.  Each deal is dealt again from its seed;
every player's *first* call of an auction is counted by the best estimate of his ten
cards (:func:`preferans.bots.evaluate.strain_tricks`, to the half trick) and by whether
another player had bid a game before it (``open`` or ``over``): how many calls, how many
were a game bid, how many a misère, and what the inference's model gives a game bid
(:func:`~preferans.bots.inference.bid_odds` of the lowest game, level 6; the model does
not tell an opening call from one over another's game).  The bots in the file are
pooled: a seat reading the others cannot tell which bot sits there.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from preferans import Deal, Rules
from preferans.actions import MISERE, Action
from preferans.bots.evaluate import strain_tricks
from preferans.bots.inference import bid_odds

Row = tuple[str, float]
"""(``open`` or ``over``, the best estimate to the half trick)."""


def first_calls(path: Path, rules: Rules) -> dict[Row, list[int]]:
    """``{(context, estimate): [calls, game bids, misères]}`` over every seating of every deal."""
    out: dict[Row, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        players = len(rec["plays"][0]["seating"])  # a file's lines do not name it: a seating does
        deal = Deal.new(rules, players=players, dealer=rec["dealer"], seed=rec["seed"])
        best = {s: round(2 * max(strain_tricks(int(deal.hands[s]), t) for t in range(5))) / 2
                for s in range(len(deal.hands))}
        for play in rec["plays"]:
            spoken: set[int] = set()
            bid = False
            for seat, text, phase in play["moves"]:
                if phase != "bidding":
                    break
                action = Action.parse(text, bid=True)
                game = action.is_bid and action.contract is not None and not action.contract.is_misere
                if seat not in spoken:
                    spoken.add(seat)
                    row = out[("over" if bid else "open", best[seat])]
                    row[0] += 1
                    row[1] += game
                    row[2] += action == MISERE
                bid = bid or game
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path, help="per-deal files (rules from the name)")
    ap.add_argument("--rules", help="the rules of every file (default: from each file's name)")
    ap.add_argument("--least", type=int, default=20, help="print rows of at least this many calls")
    args = ap.parse_args(argv)
    counts: dict[Row, list[int]] = defaultdict(lambda: [0, 0, 0])
    for f in args.files:
        name = args.rules or next((p for p in Rules.PRESET_NAMES if p in f.name), None)
        if name is None:
            raise SystemExit(f"{f}: name the rules with --rules (the file name does not say them)")
        for key, (n, games, miseres) in first_calls(f, Rules.preset(name)).items():
            row = counts[key]
            row[0] += n
            row[1] += games
            row[2] += miseres
    print(f"{'first call':<10} {'estimate':>8} {'calls':>6} {'game bid':>9} {'misère':>7} {'model':>6}")
    for (context, best), (n, games, miseres) in sorted(counts.items()):
        if n >= args.least:
            model = bid_odds(best, 6)
            print(f"{context:<10} {best:>8.1f} {n:>6} {games / n:>9.2f} {miseres / n:>7.2f} {model:>6.2f}")


if __name__ == "__main__":
    main()
