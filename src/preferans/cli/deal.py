"""``preferans deal``: deal the cards and play one deal out, move by move.

A quick look at the engine: a seeded deal played by random legal moves (or
by the moves you give), printed as a transcript with the outcome.
"""

from __future__ import annotations

import argparse
import random

from ..cards import format_hand
from ..engine.deal import Deal, Phase
from ..i18n import N_
from ._rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("deal", help=N_("deal and play out one deal (random legal moves), print the transcript"))
    add_rules_arguments(p)
    p.add_argument("--players", type=int, default=3, choices=(3, 4))
    p.add_argument("--dealer", type=int, default=0)
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffle and of the random moves")
    p.add_argument("--moves", default="", help="comma-separated moves to make first (e.g. '6♠,pass,pass')")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    deal = Deal.new(rules, players=args.players, dealer=args.dealer, seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{rules.name}, {deal.players} players, dealer: seat {deal.dealer}")
    for s in range(deal.players):
        role = " (dealer, sits out)" if deal.players == 4 and s == deal.dealer else ""
        print(f"  seat {s}: {format_hand(deal.hands[s])}{role}")
    print(f"  talon: {' '.join(str(c) for c in deal.talon)}")
    given = [m.strip() for m in args.moves.split(",") if m.strip()]
    for text in given:
        seat = deal.to_act
        deal.apply(text)
        print(f"  seat {seat}: {deal.actions[-1]}")
    while not deal.is_over:
        seat = deal.to_act
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        label = "discards" if deal.phase in (Phase.DISCARD, Phase.DECLARE) and action.is_card else ""
        print(f"  seat {seat}: {label + ' ' if label else ''}{action}")
    r = deal.result
    print(f"result: {r.kind.value}", end="")
    if r.contract is not None:
        print(f", {r.contract} by seat {r.declarer}", end="")
    if r.tricks:
        print(", tricks " + ", ".join(f"seat {s}: {n}" for s, n in sorted(r.tricks.items())), end="")
    print()
    return 0
