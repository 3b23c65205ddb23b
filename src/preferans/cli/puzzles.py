"""``preferans puzzles``: make a set of puzzles (one card decides) from played deals, and verify it.

From records (``--from FILE_OR_DIR``, repeatable: ``.prf`` and ``.json`` records, every deal
whose cards are all known) or from deals played by bots (``--deals N --seed S --bots LEVEL``).
Each position where the solver proves one card at least a trick better than every other is a
candidate; at most one per deal is kept (the one with the most legal cards, then the earliest),
each is solved again (:func:`preferans.rulings.puzzles.verify`) and the set written as JSON
(``--out``).  ``--verify FILE`` checks a set that exists.  The set the server serves was made by

    preferans puzzles --deals 600 --seed 27 --out src/preferans/rulings/puzzles.json
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from ..engine.deal import Deal
from ..i18n import N_
from ..record import load_all, replay
from ..rules import Rules
from ..rulings.puzzles import Puzzle, deal_puzzle, load, save, verify
from ._rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("puzzles", help=N_("make puzzles (one card decides) from records or bot games, and verify them"))
    p.add_argument("--from", dest="sources", action="append", metavar="PATH",
                   help="a record or a directory of records (.prf, .json); repeatable")  # fmt: skip
    p.add_argument("--deals", type=int, default=0, metavar="N", help="play N deals with bots and look in them")
    p.add_argument("--seed", type=int, default=1, help="the first bot deal's seed (default 1)")
    p.add_argument("--bots", default="medium", metavar="LEVEL", help="the bots that play them (default medium)")
    add_rules_arguments(p)  # the bot deals' rules
    p.add_argument("--max", type=int, default=200, metavar="N", help="keep at most N puzzles (default 200)")
    p.add_argument("--out", metavar="FILE", help="write the set here (JSON)")
    p.add_argument("--verify", metavar="FILE", help="solve every puzzle of a set again and report")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def _records(paths: list[str]) -> list[tuple[str, Deal, tuple[str, ...]]]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files.extend(sorted(f for f in path.rglob("*") if f.suffix in (".prf", ".json")) if path.is_dir() else [path])
    out = []
    for f in files:
        for k, record in enumerate(load_all(f, lenient=True), 1):
            rep = replay(record, errors=[])
            for n, d in zip(rep.numbers, rep.deals, strict=True):
                if record.deals[n - 1].complete and d.is_over:
                    out.append((f"{f.name} record {k}, deal {n}", d, record.players))
    return out


def _bot_deals(n: int, seed: int, level: str, rules: Rules, quiet: bool) -> list[tuple[str, Deal, tuple[str, ...]]]:
    from ..bots import make_bot

    out: list[tuple[str, Deal, tuple[str, ...]]] = []
    for i in range(n):
        s = seed + i
        deal = Deal.new(rules, dealer=s % 3, seed=s)
        bots = [make_bot(level, rules, seed=s * 10 + k) for k in range(3)]
        rng = random.Random(s)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            action = bots[seat].act(deal.observation(seat))
            deal.apply(action if action is not None else rng.choice(deal.legal_actions()), seat=seat)
        out.append((f"{level} bots, seed {s}", deal, ()))
        if not quiet and (i + 1) % 50 == 0:
            print(f"played {i + 1}/{n} deals", file=sys.stderr, flush=True)
    return out


def run(args: argparse.Namespace) -> int:
    if args.verify:
        puzzles = load(args.verify)
        problems = [p for z in puzzles for p in verify(z)]
        for line in problems:
            print(line)
        print(f"{args.verify}: {len(puzzles)} puzzles, {len(problems)} problems")
        return 1 if problems else 0
    deals = _records(args.sources or [])
    if args.deals:
        deals += _bot_deals(args.deals, args.seed, args.bots, rules_from_args(args), args.quiet)
    if not deals:
        print("preferans puzzles: error: give --from PATH or --deals N (or --verify FILE)", file=sys.stderr)
        return 2
    candidates: list[Puzzle] = []
    seen: set[str] = set()
    for source, deal, names in deals:
        best = deal_puzzle(deal, source=source, names=names, seen=seen)
        if best is not None:
            seen.add(best.position)
            candidates.append(best)
    # All-passes are the commonest deals of bots' games: at most a third of the set.
    played = [p for p in candidates if p.contract != "all-pass"][: args.max]
    all_pass = [p for p in candidates if p.contract == "all-pass"][: max(1, len(played) // 2)]
    keep = {id(p) for p in (*played, *all_pass)}
    chosen = [p for p in candidates if id(p) in keep][: args.max]
    bad = [line for p in chosen for line in verify(p)]
    if bad:  # pragma: no cover - the finder and the verifier solve the same positions
        print("\n".join(bad), file=sys.stderr)
        return 1
    misere = sum(p.contract == "misere" for p in chosen)
    all_passes = sum(p.contract == "all-pass" for p in chosen)
    print(f"{len(chosen)} puzzles from {len(deals)} deals (games {len(chosen) - misere - all_passes}, "
          f"misères {misere}, all-passes {all_passes}), every one verified")
    if args.out:
        save(chosen, args.out)
        print(f"written to {args.out}")
    return 0
