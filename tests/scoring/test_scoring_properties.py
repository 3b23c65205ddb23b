"""Invariants of scoring and settlement (rules.md §11.4), checked with hypothesis."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.engine.result import DealKind
from preferans.rules import Rules
from preferans.scoring import Sheet, closed_formula, deal_net, procedural, score_deal, settle
from preferans.scoring.pulka import Pulka
from preferans.scoring.sample import random_outcome
from scoring_helpers import nets

PRESETS = st.sampled_from(Rules.PRESET_NAMES).map(Rules.preset)
SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from((3, 4))
SOCHI = Rules.preset("sochi")
LENINGRAD = Rules.preset("leningrad")


def _sheet_of(rng: random.Random, n: int) -> Sheet:
    sheet = Sheet("ABCD"[:n])
    for i in range(n):
        sheet.pool[i] = rng.randint(0, 40)
        sheet.mountain[i] = rng.choice((rng.randint(0, 200), Fraction(rng.randint(0, 400), 2)))
        for j in range(n):
            if i != j:
                sheet.whists[i][j] = rng.randint(0, 500)
    return sheet


@given(PRESETS, SEEDS, PLAYERS)
def test_every_deal_nets_to_zero(rules: Rules, seed: int, n: int) -> None:
    """rules.md §11.4: Σ net = 0 for every hand."""
    rng = random.Random(seed)
    rules = rules.replace(bez_trekh=rng.random() < 0.5, dealer_talon_whists="aces")
    result = random_outcome(rng, rules, n)
    net = nets(score_deal(result, rules), rules, n)
    assert sum(net) == 0
    assert deal_net(result, rules) == net


@given(PRESETS, SEEDS, PLAYERS)
def test_two_methods_agree(rules: Rules, seed: int, n: int) -> None:
    """rules.md §11.4: the procedural method (§11.1) equals the closed formula (§11.2)."""
    sheet = _sheet_of(random.Random(seed), n)
    a = closed_formula(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, rules.k_mount)
    b = procedural(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, rules.k_mount)
    assert list(b.net) == a and sum(a) == 0


@given(SEEDS, PLAYERS, st.sampled_from(("sochi", "leningrad", "classic")))
def test_amnesty_never_changes_net(seed: int, n: int, preset: str) -> None:
    """Kodeks 3.7.3 / rules.md §11.4: amnesty is cosmetic."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    result = random_outcome(rng, rules, n)
    while result.kind is not DealKind.ALL_PASS:
        result = random_outcome(rng, rules, n)
    step = rng.randint(1, 5)
    with_amnesty = nets(score_deal(result, rules, raspas_step=step), rules, n)
    without = rules.replace(amnesty=False)
    assert with_amnesty == nets(score_deal(result, without, raspas_step=step), without, n)


@given(SEEDS, PLAYERS, st.sampled_from(("sochi", "leningrad", "rostov", "classic")),
       st.sampled_from(("lowest_pool", "next")))  # fmt: skip
@settings(max_examples=60, deadline=None)
def test_help_at_k_pool_is_neutral(seed: int, n: int, preset: str, target: str) -> None:
    """rules.md §11.4: help at k_pool whists per point (and write-off at k_pool/10) is neutral."""
    rules = Rules.preset(preset).replace(pool_target=10, help_target=target,
                                         end_condition="agreement")  # fmt: skip
    free = rules.replace(pool_target=10**6)
    rng = random.Random(seed)
    a, b = Pulka(rules, n), Pulka(free, n)
    for _ in range(rng.randint(1, 40)):
        result = random_outcome(rng, rules, n, dealer=a.next_dealer)
        c = result.contract
        if c is not None and not c.is_misere and c.level < a.min_level:
            continue
        a.record(result)
        b.record(result)
    assert a.settlement().net == b.settlement().net
    assert all(p <= 10 for p in a.sheet.pool) or all(p >= 10 for p in a.sheet.pool)


@given(SEEDS, PLAYERS)
def test_leningrad_is_sochi_doubled(seed: int, n: int) -> None:
    """rules.md §11.4: a Leningrad hand nets twice the Sochi hand, except the whister's
    short-trick penalty (not doubled) — compared here with Sochi at half penalty —
    and the all-pass price (not doubled).  Lone-whister style and the 10-game mode are
    table choices, not prices, so both tables use Leningrad's."""
    rng = random.Random(seed)
    leningrad = LENINGRAD
    sochi = SOCHI.replace(lone_fail_style="gentleman", ten_mode="whisted", pen_mult=Fraction(1, 2))
    result = random_outcome(rng, leningrad, n)
    if result.kind is DealKind.ALL_PASS:
        # Not doubled: the same mountain; the pool bonus is worth k_pool (×2).
        s = nets(score_deal(result, sochi.replace(raspas_zero_bonus="none")), sochi, n)
        l_ = nets(score_deal(result, leningrad.replace(raspas_zero_bonus="none")), leningrad, n)
        assert s == l_
        return
    ln = nets(score_deal(result, leningrad), leningrad, n)
    sn = nets(score_deal(result, sochi), sochi, n)
    assert ln == [2 * x for x in sn]


@given(SEEDS)
@settings(max_examples=30, deadline=None)
def test_settlement_rounding_keeps_zero_sum(seed: int) -> None:
    """rules.md §11.3: rounding keeps the sum zero and moves nobody by a whist or more."""
    rng = random.Random(seed)
    for n in (3, 4):
        sheet = _sheet_of(rng, n)
        for mode in ("half_up", "kodeks_shift"):
            s = settle(sheet, SOCHI.replace(rounding=mode))
            assert sum(s.rounded) == 0
            assert all(x.denominator == 1 for x in s.rounded)
            assert all(abs(a - b) < 2 for a, b in zip(s.rounded, s.net, strict=True))


@given(PRESETS, SEEDS, PLAYERS, st.sampled_from(("exact", "per_transfer")))
def test_whole_whists_follow_from_the_whole_shares_shown(rules: Rules, seed: int, n: int, rounding: str) -> None:
    """rules.md §11.3: the whole-whist result is what paper gets from the whole shares the
    settlement shows (each player's column written by every other one) and the whists, when
    no halves are left on the sheet itself."""
    rng = random.Random(seed)
    sheet = _sheet_of(rng, n)
    sheet.mountain[:] = [Fraction(int(m)) for m in sheet.mountain]
    st_ = settle(sheet, rules.replace(rounding=rounding))
    paper = st_.on_paper
    if paper is None:  # the exact results are already whole: nothing to round
        assert all(x.denominator == 1 for x in st_.net) and st_.whole == tuple(int(x) for x in st_.net)
        return
    share = [p + m for p, m in zip(paper.pool_shares, paper.mountain_shares, strict=True)]
    for i in range(n):
        whists = sum(Fraction(sheet.whists[i][j]) - sheet.whists[j][i] for j in range(n))
        written = sum(share[j] for j in range(n) if j != i) - (n - 1) * share[i]
        assert st_.whole[i] == whists + written
