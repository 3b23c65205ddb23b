"""How strong the defenders' sampled layouts make the declarer, against the truth.

    python benchmarks/whist_layouts.py run-leningrad.jsonl --rules leningrad [--games 80]

Reads a ``preferans arena --per-deal`` file.  For the first seating of each deal that
went to a trick game, the deal is replayed to the first defender's whisting call; there
the declarer's double-dummy tricks are solved on the layouts ``expert`` and ``hard``
sample for that call (what their whisting is judged on), and on the true layout (his real
hand after his real discard, first hand leading).  Printed: the mean of each over the
games, and the true tricks' margin over the contract.  A defender whose layouts make the
declarer weaker than he is whists games the declarer makes.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
from pathlib import Path

from preferans import Deal, Rules
from preferans.bots.expert import ExpertBot
from preferans.bots.pimc import PimcBot
from preferans.engine.observation import Phase
from preferans.solver import Position, solve_many


def first_whists(path: Path, rules: Rules, games: int) -> list[tuple[int, int, float, float]]:
    """(contract level, true double-dummy tricks, mean over the expert's layouts, mean over
    hard's) at the first whisting call of up to ``games`` deals."""
    rows: list[tuple[int, int, float, float]] = []
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
        obs = deal.observation(seat)
        assert deal.contract is not None
        played = copy.deepcopy(deal)
        for s, action, _ in moves[at:]:
            if played.phase is Phase.PLAY:
                break
            played.apply(action, seat=s)
        truth = solve_many([Position.from_deal(played)])[0]
        expert, hard = ExpertBot(rules, seed=seat), PimcBot(rules, seed=seat)
        rows.append((deal.contract.level, truth, expert.declarer_estimate(obs), hard.declarer_estimate(obs)))
        if len(rows) >= games:
            break
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", type=Path)
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--games", type=int, default=80)
    args = ap.parse_args()
    rows = first_whists(args.file, Rules.preset(args.rules), args.games)
    if not rows:
        raise SystemExit(f"{args.file}: no trick game reached the whisting")
    true, expert, hard = (statistics.fmean(r[i] for r in rows) for i in (1, 2, 3))
    margin = statistics.fmean(r[1] - r[0] for r in rows)
    print(f"{len(rows)} first whisting calls ({args.rules}): the declarer's double-dummy tricks "
          f"true {true:.2f}, expert's layouts {expert:.2f}, hard's {hard:.2f}; true − contract {margin:+.2f}")


if __name__ == "__main__":
    main()
