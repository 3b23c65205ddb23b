"""Does the expert's «defence together» (``partner_view``) choose better cards?

    python benchmarks/defence.py [--deals 300] [--rules leningrad] [--seed 0]

Seeded deals are played by ``hard`` bots.  At every decision of a defender in a
closed defence where the partner plays next in the trick in the last five
tricks (where ``ExpertBot(partner_view=True)`` asks the partner's view), the
expert is asked with the option on and off (``think=60, max_layouts=16``: no
clock, the same layouts).  Where the two cards differ the deal is played out
from there twice, once with each card, by the same bots (the defenders the
expert as it plays by default, the declarer ``hard``), the real cards deciding:
the paired difference of the declarer's tricks (off − on: positive when the
option's card gives the declarer fewer) is printed with its 95 % interval,
and how often the contract's fate (made / set) changed either way.  The
benchmark sees the deal; the bots, as ever, only their observations.
"""

from __future__ import annotations

import argparse
import math
import statistics

from preferans import Deal, Rules
from preferans.bots import Bot, make_bot
from preferans.bots.expert import ExpertBot
from preferans.bots.knowledge import Knowledge, deal_kind
from preferans.engine.observation import Phase


def _finish(deal: Deal, bots: list[Bot]) -> None:
    while not deal.is_over:
        s = deal.to_act
        assert s is not None
        deal.apply(bots[s].act(deal.observation(s)), seat=s)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--rules", default="leningrad")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rules = Rules.preset(args.rules)
    points = 0
    diffs: list[int] = []
    fate = {"on sets, off lets make": 0, "on lets make, off sets": 0}
    for i in range(args.deals):
        deal = Deal.new(rules, dealer=i % 3, seed=args.seed * 100_003 + i)
        hard = [make_bot("hard", rules, seed=s) for s in range(3)]
        while not deal.is_over:
            s = deal.to_act
            assert s is not None
            obs = deal.observation(s)
            if deal.phase is Phase.PLAY and len(obs.legal_actions) > 1:
                k = Knowledge.of(obs)
                probe = ExpertBot(rules, seed=s, think=60.0, max_layouts=16, partner_view=True)
                if probe._partner_next(obs, k, deal_kind(obs)) is not None:
                    points += 1
                    off = ExpertBot(rules, seed=s, think=60.0, max_layouts=16, partner_view=False).act(obs)
                    on = probe.act(obs)
                    if on != off:
                        tricks = {}
                        for name, card in (("on", on), ("off", off)):
                            branch = deal.copy()
                            branch.apply(card, seat=s)
                            bots: list[Bot] = [
                                hard[x] if x == deal.declarer else ExpertBot(rules, seed=x, think=60.0, max_layouts=16)
                                for x in range(3)
                            ]
                            _finish(branch, bots)
                            decl = branch.declarer
                            assert decl is not None and branch.contract is not None
                            t = branch.result.tricks.get(decl, 0)
                            tricks[name] = (t, t >= branch.contract.level)
                        diffs.append(tricks["off"][0] - tricks["on"][0])
                        if tricks["off"][1] and not tricks["on"][1]:
                            fate["on sets, off lets make"] += 1
                        if tricks["on"][1] and not tricks["off"][1]:
                            fate["on lets make, off sets"] += 1
            deal.apply(hard[s].act(obs), seat=s)
    print(f"{args.deals} deals ({rules.name}, played by hard, seed {args.seed}): {points} decisions where the"
          f" partner's view is asked, {len(diffs)} where it changes the card")
    if len(diffs) >= 2:
        m = statistics.mean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(f"declarer's tricks, off - on: mean {m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"
              f" (better for the option {sum(d > 0 for d in diffs)}, worse {sum(d < 0 for d in diffs)},"
              f" equal {sum(d == 0 for d in diffs)})")
    print(", ".join(f"{k}: {v}" for k, v in fate.items()))


if __name__ == "__main__":
    main()
