"""How much the inference of the expert bot tells about the hidden cards.

    python benchmarks/inference.py [--deals 200] [--samples 100] [--players-level medium]

Seeded deals are played by one level (``medium`` by default, or ``hard``);
at chosen moments — a bid after others have called, whisting, the lead
to tricks 1, 4 and 7 of a game — the true layout of the cards that seat
cannot see is weighted by :func:`preferans.bots.inference.layout_weight`
against ``--samples`` layouts sampled without inference
(:func:`preferans.bots.sampling.sample_layouts`, what ``hard`` uses).
Printed per moment: how many, and the true layout's mean rank among the
samples (the share it outweighs, ties half): uniform sampling gives 0.500.
"""

from __future__ import annotations

import argparse
import statistics

from preferans import Deal, Rules
from preferans.bots import make_bot
from preferans.bots.inference import true_layout, true_layout_rank
from preferans.bots.knowledge import Knowledge


def moment(obs_phase: str, tricks: int, trick_open: bool, moves: int) -> str | None:
    if obs_phase == "bidding" and moves >= 2:
        return "bidding (after 2+ calls)"
    if obs_phase == "whist" and not tricks:
        return "whisting"
    if obs_phase == "play" and not trick_open and tricks in (0, 3, 6):
        return f"lead to trick {tricks + 1}"
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--players-level", default="medium")
    ap.add_argument("--rules", default="sochi")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    ranks: dict[str, list[float]] = {}
    for seed in range(args.deals):
        deal = Deal.new(rules, seed=seed)
        bots = [make_bot(args.players_level, rules, seed=s) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            name = moment(obs.phase, len(obs.completed_tricks), bool(obs.trick), len(obs.moves))
            if name and len(obs.legal_actions) > 1:
                k = Knowledge.of(obs)
                if k.places():
                    r = true_layout_rank(obs, true_layout(k, deal.hands), args.samples, seed)
                    ranks.setdefault(name, []).append(r)
            deal.apply(bots[seat].act(obs), seat=seat)
    print(f"{args.deals} deals ({rules.name}) played by {args.players_level}; true layout against "
          f"{args.samples} uniform samples; rank 0.500 = no better than uniform")
    every: list[float] = []
    for name, rs in sorted(ranks.items()):
        every += rs
        print(f"  {name:<26} n={len(rs):5}  mean rank {statistics.mean(rs):.3f}")
    print(f"  {'all':<26} n={len(every):5}  mean rank {statistics.mean(every):.3f}")


if __name__ == "__main__":
    main()
