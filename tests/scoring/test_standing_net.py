"""What a deal is worth on a pulka's standing (:func:`standing_net`): the same lines
:meth:`Pulka.record` writes, so it is exactly the change of the final settlement."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans import Deal, Rules, Standing
from preferans.actions import Contract
from preferans.bots import make_bot
from preferans.engine.result import DealKind, DealResult
from preferans.engine.result import DefenceCall as D
from preferans.scoring import deal_net
from preferans.scoring.pulka import Pulka, standing_net

PRESETS = ["sochi", "leningrad", "rostov", "classic"]
HOUSE: dict[str, dict[str, object]] = {  # options under which a closed pool is no longer neutral
    "help10": {"help_whists_per_point": 10, "k_pool": 20},
    "lost": {"surplus_lost": True, "end_condition": "deals", "max_deals": 40},
    "writeoff1": {"writeoff_mountain_mult": 1, "k_pool": 20, "help_whists_per_point": 20},
}


def _rules(name: str) -> Rules:
    if name in HOUSE:
        base = Rules.preset("leningrad" if name != "lost" else "sochi")
        return base.replace(**{"pool_target": 6, **HOUSE[name]})
    return Rules.preset(name).replace(pool_target=6)


@pytest.mark.parametrize("name", [*PRESETS, *HOUSE])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_standing_net_is_the_change_of_the_settlement(name: str, players: int) -> None:
    """A short pulka (target 6, so pools close, help and write off) played by bots: before each
    deal is recorded, its value on the standing equals what recording it changes in the settlement."""
    rules = _rules(name)
    pulka = Pulka(rules, players)
    bots = [make_bot("medium", rules, seed=s) for s in range(4)]
    rng = random.Random(f"{name}{players}")
    helped = 0
    for _ in range(14):
        if pulka.is_over:
            break
        standing = pulka.standing()
        deal = Deal.new(rules, players=players, dealer=pulka.next_dealer, seed=rng.getrandbits(32),
                        min_level=pulka.min_level, standing=standing)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].act(deal.observation(seat)), seat=seat)
        before = pulka.settlement().net
        value = standing_net(deal.result, rules, standing)
        score = pulka.record(deal.result)
        after = pulka.settlement().net
        assert value == [a - b for a, b in zip(after, before, strict=True)]
        helped += any(e.why in ("help", "write-off") for e in score.entries)
    assert pulka.standing().deals == len(pulka.results)
    if players > 2:
        assert helped, "the pulka should have closed a pool and moved points past it"


def _outcomes(players: int) -> list[DealResult]:
    """A made 7♠ by seat 1 (pool 4), a clean misère (pool 10) and an all-pass in which seat 1
    takes nothing (the zero-trick bonus is pool too)."""
    d = 0
    a = [s for s in range(players) if not (players == 4 and s == d)]
    decl, others = 1, [s for s in a if s != 1]
    return [
        DealResult(DealKind.GAME, players, d, declarer=decl, contract=Contract(7, 0),
                   defence={others[0]: D.WHIST, others[1]: D.WHIST}, tricks={decl: 7, others[0]: 2, others[1]: 1}),
        DealResult(DealKind.MISERE, players, d, declarer=decl, contract=Contract(0), tricks={decl: 0}),
        DealResult(DealKind.ALL_PASS, players, d, tricks={decl: 0, others[0]: 4, others[1]: 6}),
    ]  # fmt: skip


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [3, 4])
def test_a_closed_pool_is_neutral_in_every_preset(name: str, players: int) -> None:
    """rules.md §10, §11.4: help at ``help_whists_per_point = k_pool`` (Sochi, Rostov, Classic 10,
    Leningrad 20) and a write-off at ``k_pool / k_mount`` are worth exactly what the pool would be.
    So seat 1 with his pool closed (the others open, or all closed with a mountain to write off)
    gains from a made game, a clean misère or an all-pass bonus what he gains alone."""
    rules = Rules.preset(name)
    t = rules.pool_target
    n = players
    open_others = Standing((5, t, 12, 3)[:n], (0,) * n, ((0,) * n,) * n, pool_target=t,
                           bombs=(1,) * n if rules.bombs else ())
    all_closed = Standing((t,) * n, (0, 40, 0, 0)[:n], ((0,) * n,) * n, pool_target=t,
                          bombs=(1,) * n if rules.bombs else ())
    for r in _outcomes(players):
        assert standing_net(r, rules, open_others) == deal_net(r, rules), r.kind
        assert standing_net(r, rules, all_closed) == deal_net(r, rules), r.kind


def test_house_rules_make_a_closed_pool_worth_less() -> None:
    """Sochi, target 20, seat 1 closed makes 7♠ (4 pool points), both whisting 2 + 1 tricks
    (4 × 2 + 4 × 1 = 12 whists on him).  Alone: 10 × (4 − 4/3) − 12 = +14⅔.
    * help at 5 whists a point (a house rule): he writes 20 whists on A, whose pool goes up 4:
      20 − 10 × 4/3 − 12 = −5⅓;
    * everybody closed, no mountain, ``surplus_lost``: the points are lost: −12;
    * everybody closed, a mountain of 40: the 4 points write off 4 mountain, 10 × (4 − 4/3) − 12 = +14⅔."""
    game = _outcomes(3)[0]
    sochi = Rules.preset("sochi")
    none = ((0, 0, 0),) * 3
    one_closed = Standing((5, 20, 12), (0, 0, 0), none, pool_target=20)
    assert deal_net(game, sochi)[1] == Fraction(44, 3)
    assert standing_net(game, sochi.replace(help_whists_per_point=5), one_closed)[1] == Fraction(-16, 3)
    lost = sochi.replace(surplus_lost=True, end_condition="deals", max_deals=30)
    assert standing_net(game, lost, Standing((20, 20, 20), (0, 0, 0), none, pool_target=20))[1] == -12
    assert standing_net(game, lost, Standing((20, 20, 20), (0, 40, 0), none, pool_target=20))[1] == Fraction(44, 3)


@pytest.mark.parametrize(("name", "factor"), [("sochi", 3), ("leningrad", 3), ("classic", 3), ("rostov", 1)])
def test_the_series_makes_the_all_pass_dearer(name: str, factor: int) -> None:
    """Kodeks 3.7.4: arithmetic 1–2–3 (Sochi, Leningrad, Classic) — the third all-pass of a
    series costs three times the first, its zero-trick bonus too; Rostov has no progression."""
    rules = Rules.preset(name)
    ap = _outcomes(3)[2]
    third = Standing((0, 0, 0), (0, 0, 0), ((0, 0, 0),) * 3, pool_target=20, raspas_step=3,
                     bombs=(1, 1, 1) if rules.bombs else ())
    assert standing_net(ap, rules, third) == [factor * x for x in deal_net(ap, rules)]


def test_a_bomb_doubles_its_holders_game() -> None:
    """Classic, Kodeks 3.3.19: seat 1 holds a bomb (×2): his game writes everything twice; an
    all-pass is not his game and is not doubled."""
    rules = Rules.preset("classic")
    game, _, ap = _outcomes(3)
    bomb = Standing((0, 0, 0), (0, 0, 0), ((0, 0, 0),) * 3, pool_target=20, bombs=(1, 2, 1))
    assert standing_net(game, rules, bomb) == [2 * x for x in deal_net(game, rules)]
    assert standing_net(ap, rules, bomb) == deal_net(ap, rules)
