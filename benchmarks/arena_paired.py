"""What a change to a bot is worth: two arena runs of the same deals, compared deal by deal.

    preferans arena --bots expert:50ms,hard --deals 400 --seed 7002 --per-deal new.jsonl   # the changed bot
    preferans arena --bots expert:50ms,hard --deals 400 --seed 7002 --per-deal base.jsonl  # the bot before
    python benchmarks/arena_paired.py new.jsonl base.jsonl

Both runs play the same deals (same ``--seed``, same table) against the same opponent, so
the luck of the cards is the same in both and cancels deal by deal.  Printed: the deals
both files have, the first bot's mean net whists a deal in each run, and the difference
(new − base) with its 95 % interval over the deals.  A deal whose cards differ between the
files (another seed or table) is refused, naming its index.
"""

from __future__ import annotations

import argparse
import json
import math
import sys


def load(path: str) -> dict[int, tuple[int, float]]:
    """Deal index → (the deal's seed, the first bot's net whists in it)."""
    out: dict[int, tuple[int, float]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                out[rec["index"]] = (rec["seed"], rec["values"][0])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new")
    ap.add_argument("base")
    args = ap.parse_args()
    new, base = load(args.new), load(args.base)
    both = sorted(set(new) & set(base))
    if len(both) < 2:
        sys.exit(f"arena_paired: only {len(both)} deal(s) in both files")
    for i in both:
        if new[i][0] != base[i][0]:
            sys.exit(f"arena_paired: deal {i} is not the same deal in both files (another --seed or table?)")
    d = [new[i][1] - base[i][1] for i in both]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    a = sum(new[i][1] for i in both) / n
    b = sum(base[i][1] for i in both) / n
    half = 1.96 * sd / math.sqrt(n)
    print(f"{n} deals: new {a:+.2f}, base {b:+.2f} whists a deal; new − base {mean:+.2f} ± {half:.2f}")


if __name__ == "__main__":
    main()
