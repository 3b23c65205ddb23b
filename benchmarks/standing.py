"""What judging by the pulka's standing is worth to the expert, in the final settlement.

    python benchmarks/standing.py [--positions 150] [--rules sochi] [--players 3] [--seed 0]
                                  [--series mix|1|2|3] [--all-pass-standing] [--set help_whists_per_point=10 ...]

Seeded pulka positions near the end of a pulka: a sheet written by hand (pools 10 or fewer
points short of the target, some closed, never all; mountains 0–40; whists), the all-pass
series at step 1, 2 or 3 (probabilities 0.6, 0.25, 0.15; the series' all-passes are
recorded, so the dealer's rotation and the lowest game follow from them; ``--series 3``
puts every position at step 3) and, in the
classic game, bombs (×2 for a player with probability 0.2).  On each position a seeded
deal is played once for each seat X: X is the expert judging by the standing (``aware``;
with ``--all-pass-standing`` in its last-bidder all-pass comparison too)
or blind to it (``blind``), the others ``hard`` blind to it.  At each of X's decisions
both are asked; where they first differ the deal is played out from there twice, once
with each, and the paired difference of X's change of the final settlement
(:func:`preferans.scoring.pulka.standing_net`, the real cards deciding) is counted;
where they never differ it is 0 and nothing is played twice (in card play the blind expert
is asked only where the two utilities are not proportional: scaled, they choose the same
card).  The experts sample a fixed number of layouts (16 a card, 25 for the auction and
whisting), no clock, so a run repeats exactly.

``--calibrate N`` measures instead what the expert's all-pass estimate is off by: on N
seeded deals the first two hands pass, the last to speak solves the all-pass over his
sampled layouts as the expert does (the others both giving him tricks), then passes and the
all-pass is played out by ``hard`` (``--calibrate-player expert``: that seat by the expert at
its default second); the mean of solved − taken tricks is
:data:`preferans.bots.expert.ALLPASS_PESSIMISM`.

Printed: the mean gain per seat per deal with its 95 % interval (normal, over the
seat-deals), the decisions that differed and by phase, their mean, and the baseline of
the same run — the blind expert's own mean change of the settlement per seat-deal on the
same positions.  The bots see only their observations; the benchmark sees the deal.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter

from preferans import Deal, Rules
from preferans.actions import PASS
from preferans.bots import Bot, make_bot
from preferans.bots.expert import ExpertBot
from preferans.bots.knowledge import deal_kind
from preferans.bots.pimc import PimcBot
from preferans.cli._rules_args import add_rules_arguments, rules_from_args
from preferans.engine.observation import Phase
from preferans.engine.standing import Standing
from preferans.scoring.pulka import Pulka, standing_net

MIX = (1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3)  # the series' step: ≈ 0.6 / 0.25 / 0.15


def position(rules: Rules, players: int, rng: random.Random, steps: tuple[int, ...] = MIX) -> Pulka:
    """A pulka near its end: pools, mountains and whists written by hand, then the series."""
    p = Pulka(rules, players, first_dealer=rng.randrange(players))
    t = rules.pool_target
    closed = [rng.random() < 0.3 for _ in range(players)]
    closed[rng.randrange(players)] = False  # never all closed: the pulka would be over
    lines: list[tuple[str, int | str, int] | tuple[str, int | str, int, int | str]] = []
    for s in range(players):
        pool = t if closed[s] else rng.randint(max(0, t - 10), t - 1)
        if pool:
            lines.append(("pool", s, pool))
        mountain = rng.randint(0, 40)
        if mountain:
            lines.append(("mountain", s, mountain))
        for o in range(players):
            if o != s and rng.random() < 0.7:
                lines.append(("whists", s, rng.randint(1, 60), o))
    p.write(lines)
    for _ in range(rng.choice(steps) - 1):
        active = [s for s in range(players) if not (players == 4 and s == p.next_dealer)]
        tricks = [3, 3, 4] if rng.random() < 0.5 else [2, 4, 4]
        rng.shuffle(tricks)
        p.all_pass(dict(zip((p.names[s] for s in active), tricks, strict=True)))
    if rules.bombs:
        p.bombs = [2 if rng.random() < 0.2 else 1 for _ in range(players)]
    return p


ALL_PASS_STANDING = False  # --all-pass-standing: the aware expert weighs the last bidder's all-pass on it too


def expert(rules: Rules, seed: int, aware: bool) -> ExpertBot:
    return ExpertBot(rules, seed=seed, think=0.05, min_layouts=16, max_layouts=16, standing=aware,
                     all_pass_standing=aware and ALL_PASS_STANDING)


def finish(deal: Deal, bots: list[Bot]) -> None:
    while not deal.is_over:
        s = deal.to_act
        assert s is not None
        deal.apply(bots[s].act(deal.observation(s)), seat=s)


def duel(rules: Rules, deal: Deal, x: int) -> tuple[float, float, str | None]:
    """Seat ``x`` aware and blind on one deal: (aware's value, blind's value, the phase where
    they first differed or None)."""
    standing = deal.standing
    assert standing is not None
    others = {s: PimcBot(rules, seed=s, standing=False) for s in range(deal.seats)}
    aware, blind = expert(rules, x, True), expert(rules, x, False)
    while not deal.is_over:
        s = deal.to_act
        assert s is not None
        obs = deal.observation(s)
        if s != x:
            deal.apply(others[s].act(obs), seat=s)
            continue
        if deal.phase is Phase.PLAY and _proportional(aware._utility(obs, deal_kind(obs)),
                                                       blind._utility(obs, deal_kind(obs))):
            # A card is chosen by the best mean utility: scaled by a positive factor (an all-pass
            # at a later step, a bomb), the same card — so the blind one need not be asked.
            deal.apply(aware.act(obs), seat=s)
            continue
        a, b = aware.act(obs), blind.act(obs)
        if a == b:
            deal.apply(a, seat=s)
            continue
        phase = str(deal.phase)
        other = deal.copy()
        deal.apply(a, seat=s)
        other.apply(b, seat=s)
        finish(deal, [aware if i == x else others[i] for i in range(deal.seats)])
        finish(other, [blind if i == x else others[i] for i in range(deal.seats)])
        return (float(standing_net(deal.result, rules, standing)[x]),
                float(standing_net(other.result, rules, standing)[x]), phase)
    v = float(standing_net(deal.result, rules, standing)[x])
    return v, v, None


def _proportional(u: tuple[float, ...], v: tuple[float, ...]) -> bool:
    """Is ``u`` a positive multiple of ``v``?"""
    i = max(range(len(v)), key=lambda k: abs(v[k]))
    if v[i] == 0:
        return all(x == 0 for x in u)
    c = u[i] / v[i]
    return c > 0 and all(abs(x - c * y) <= 1e-9 * max(1.0, abs(x)) for x, y in zip(u, v, strict=True))


def calibrate(rules: Rules, deals: int, seed: int, player: str = "hard") -> None:
    """Solved − taken all-pass tricks of the last to speak (see the module doc), who plays
    the all-pass as ``player`` (a level: ``hard`` or ``expert``), the two others as ``hard``."""
    diffs: list[float] = []
    for i in range(deals):
        deal = Deal.new(rules, dealer=i % 3, seed=10_000 * (seed + 1) + i)
        deal.apply(PASS)
        deal.apply(PASS)
        seat = deal.to_act
        assert seat is not None
        bot = expert(rules, 1, True)
        solved = bot.all_pass_tricks(deal.observation(seat))
        deal.apply(PASS)
        bots: list[Bot] = [PimcBot(rules, seed=s, standing=False) for s in range(3)]
        if player != "hard":
            bots[seat] = make_bot(player, rules, seed=seat)
        finish(deal, bots)
        diffs.append(statistics.fmean(solved) - deal.result.tricks.get(seat, 0))
    m, lo, hi = interval(diffs)
    print(f"{rules.name}, {deals} deals: solved − taken all-pass tricks of the last to speak ({player}): "
          f"mean {m:+.3f} [95 % CI {lo:+.3f}, {hi:+.3f}], median {statistics.median(diffs):+.2f}")


def interval(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - 1.96 * se, m + 1.96 * se


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=150)
    p.add_argument("--players", type=int, default=3, choices=(3, 4))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--calibrate", type=int, default=0, metavar="N",
                   help="measure the all-pass estimate's pessimism on N deals instead")
    p.add_argument("--calibrate-player", default="hard", choices=("hard", "expert"),
                   help="who plays the last to speak's all-pass in --calibrate (the others: hard)")
    p.add_argument("--all-pass-standing", action="store_true",
                   help="the aware expert with all_pass_standing (the series' price and a bomb in its all-pass "
                   "comparison)")
    p.add_argument("--series", default="mix", help="the all-pass series' step: mix (0.6 / 0.25 / 0.15 of "
                   "steps 1 / 2 / 3) or one step, e.g. 3")
    add_rules_arguments(p)
    args = p.parse_args()
    rules = rules_from_args(args)
    global ALL_PASS_STANDING
    ALL_PASS_STANDING = args.all_pass_standing
    if args.calibrate:
        calibrate(rules, args.calibrate, args.seed, args.calibrate_player)
        return
    rng = random.Random(f"standing:{args.seed}")
    gains: list[float] = []
    blind_values: list[float] = []
    phases: Counter[str] = Counter()
    changed: list[float] = []
    by_step: dict[int, list[float]] = {}
    start = time.perf_counter()
    for i in range(args.positions):
        pulka = position(rules, args.players, rng, MIX if args.series == "mix" else (int(args.series),))
        standing: Standing = pulka.standing()
        seed = rng.getrandbits(32)
        for x in range(args.players):
            if args.players == 4 and x == pulka.next_dealer:
                continue  # the 4-handed dealer holds no cards
            deal = Deal.new(rules, players=args.players, dealer=pulka.next_dealer, seed=seed,
                            min_level=pulka.min_level, standing=standing)
            va, vb, phase = duel(rules, deal, x)
            gains.append(va - vb)
            blind_values.append(vb)
            by_step.setdefault(standing.raspas_step, []).append(va - vb)
            if phase is not None:
                phases[phase] += 1
                changed.append(va - vb)
        if (i + 1) % 25 == 0:
            m, lo, hi = interval(gains)
            print(f"  {i + 1} positions, {len(gains)} seat-deals: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]  "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    m, lo, hi = interval(gains)
    bm, blo, bhi = interval(blind_values)
    label = (args.rules + "".join(f" {s}" for s in args.set) + f", series {args.series}"
             + (", all_pass_standing" if args.all_pass_standing else ""))
    print(f"\n{label}, {args.players} players, {args.positions} positions, seed {args.seed}: "
          f"{len(gains)} seat-deals in {time.perf_counter() - start:.0f} s")
    print(f"aware − blind, whists per seat-deal: mean {m:+.3f} [95 % CI {lo:+.3f}, {hi:+.3f}]")
    print(f"baseline (blind expert's own change of the settlement): mean {bm:+.2f} [{blo:+.2f}, {bhi:+.2f}], "
          f"median {statistics.median(blind_values):+.2f}")
    print(f"decisions that differed: {len(changed)} ({', '.join(f'{k} {v}' for k, v in phases.most_common())})")
    if changed:
        cm, clo, chi = interval(changed)
        print(f"  where they differed: mean {cm:+.2f} [{clo:+.2f}, {chi:+.2f}], "
              f"median {statistics.median(changed):+.2f}, better {sum(d > 0 for d in changed)}, "
              f"worse {sum(d < 0 for d in changed)}, equal {sum(d == 0 for d in changed)}")
    for step in sorted(by_step):
        sm, slo, shi = interval(by_step[step])
        print(f"  series step {step}: {len(by_step[step])} seat-deals, {sm:+.3f} [{slo:+.3f}, {shi:+.3f}]")


if __name__ == "__main__":
    main()
