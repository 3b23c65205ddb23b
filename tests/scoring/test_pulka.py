"""The pulka as a whole game: rotation, all-pass series, exit levels, closing, help, end."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from preferans.errors import ScoreError
from preferans.rules import Rules
from preferans.scoring import closed_formula, procedural
from preferans.scoring.pulka import Pulka

SOCHI = Rules.preset("sochi")
LENINGRAD = Rules.preset("leningrad")
ROSTOV = Rules.preset("rostov")


def both_methods(p: Pulka) -> list[Fraction]:
    s, r = p.sheet, p.rules
    a = closed_formula(s.pool, s.mountain, s.whists, r.k_pool, r.k_mount)
    b = procedural(s.pool, s.mountain, s.whists, r.k_pool, r.k_mount)
    assert list(b.net) == a and sum(a) == 0
    assert list(p.settlement().net) == a
    return a


# -- three full pulkas, computed by hand ------------------------------------------------------


def test_full_pulka_sochi_three_to_a_closed_pool() -> None:
    """3-handed Sochi, pool 10, played until every pool is closed (rules.md §10, «Преферанс во всех видах»)."""
    p = Pulka(SOCHI.replace(pool_target=10), "ABC")
    # 1 (A deals): B 6♠, both whist, B 6 C 2 A 2 — rules.md §9.2
    p.game("B", "6S", defence={"C": "whist", "A": "whist"}, tricks={"B": 6, "C": 2, "A": 2})
    # 2 (B deals): all-pass #1, A 2 B 3 C 5 → amnesty of 2 (Kodeks 3.7.3)
    p.all_pass({"A": 2, "B": 3, "C": 5})
    assert p.sheet.mountain == [0, 1, 3] and p.raspas_series == 1
    # 3 (C deals): A 8♥, B whists alone, side 2 tricks (quota 1 met)
    p.game("A", "8H", defence={"B": "whist", "C": "pass"}, tricks={"A": 8, "B": 1, "C": 1})
    assert p.raspas_series == 0
    # 4 (A deals): C misère clean → C closes (10)
    p.misere("C", 0)
    assert p.closed("C") and not p.is_over
    # 5 (B deals): C makes 7NT; closed, he helps the lowest pool, B (Kodeks help, rules.md §10)
    p.game("C", "7NT", defence={"A": "pass", "B": "pass"})
    assert p.sheet.pool == [6, 6, 10] and p.sheet.whists[2][1] == 4 + 40
    # 6 (C deals): B 9♦ made with A alone: B fills to 10 and helps A with the other 4
    p.game("B", "9D", defence={"C": "pass", "A": "whist"}, tricks={"B": 9, "A": 1, "C": 0})
    assert p.sheet.pool == [10, 10, 10] and p.is_over
    assert p.sheet.mountain == [0, 1, 3]
    assert p.sheet.whists == [[0, 12, 0], [52, 0, 0], [0, 44, 0]]
    assert both_methods(p) == [Fraction(-80, 3), Fraction(-2, 3), Fraction(82, 3)]
    with pytest.raises(ScoreError, match="over"):
        p.all_pass({"A": 2, "B": 3, "C": 5})


def test_full_pulka_leningrad_four_stopped_by_agreement() -> None:
    """4-handed Leningrad ended by agreement with unequal pools (rules.md §10, §11.1 step 1)."""
    rules = LENINGRAD.replace(end_condition="agreement")
    p = Pulka(rules, "ABCD")
    # 1 (A deals, sits out): B 7♣, C and D whist; quota 2 met
    p.game("B", "7C", defence={"C": "whist", "D": "whist"}, tricks={"B": 7, "C": 2, "D": 1})
    # 2 (B deals): all-pass; B takes 2 talon tricks (Kodeks 3.7.6.1); amnesty 1
    p.all_pass({"C": 4, "D": 1, "A": 3}, dealer_tricks=2)
    assert p.sheet.mountain == [2, 1, 3, 0] and p.min_level == 7  # «выход семериком» «питер» descriptions
    with pytest.raises(ScoreError, match="lowest game is 7"):
        p.game("D", "6H", defence={"A": "pass", "B": "pass"})
    # 3 (C deals): D 7♥ down one, A whists alone, gentleman split; dealer C consoles
    p.game("D", "7H", defence={"A": "whist", "B": "pass"}, tricks={"D": 6, "A": 3, "B": 1})
    assert p.sheet.mountain[3] == 8
    assert [p.sheet.whists[i][3] for i in range(3)] == [24, 24, 8]
    # 4 (D deals): A misère «пополам» with D, caught one trick (Kodeks 3.6.9)
    p.misere("A", 1, half_with_dealer=True)
    # 5 (A deals): C 6♦, D passes, B half-whists (rules.md §5.4)
    p.game("C", "6D", defence={"D": "pass", "B": "half"})
    assert not p.is_over
    p.stop()
    assert p.is_over
    s = p.sheet
    assert s.pool == [0, 4, 2, 0] and s.mountain == [12, 1, 3, 18]
    assert both_methods(p) == [-41, 133, 81, -173]


def test_full_pulka_rostov_three() -> None:
    """3-handed Rostov: all-pass on whists (Kodeks 3.7.2.2), no progression."""
    p = Pulka(ROSTOV.replace(end_condition="agreement"), "ABC")
    p.all_pass({"A": 2, "B": 2, "C": 6})  # A, B share the minimum: 15 each on C
    p.all_pass({"A": 0, "B": 3, "C": 7})  # A alone: 5 per trick on each; 1 in the pool
    assert p.sheet.whists[0] == [0, 15, 50] and p.sheet.pool == [1, 0, 0]
    p.game("A", "6S", defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 3, "C": 1})
    p.game("B", "7H", defence={"C": "whist", "A": "pass"}, tricks={"B": 5, "C": 3, "A": 2})
    p.stop()
    assert p.sheet.pool == [3, 0, 0] and p.sheet.mountain == [0, 8, 0]
    assert both_methods(p) == [Fraction(335, 3), Fraction(-280, 3), Fraction(-55, 3)]


# -- the state between deals ------------------------------------------------------------------


def test_dealer_rotation_and_sliding_all_pass() -> None:
    """Kodeks 3.2.2 and 3.7.7: the deal passes clockwise, after an all-pass too; keeping the
    dealer after an all-pass is a house agreement (deal_moves_after_raspas=False)."""
    p = Pulka(SOCHI, 4, first_dealer="C")
    assert p.next_dealer == 2
    p.all_pass({"D": 3, "A": 3, "B": 4})
    assert p.next_dealer == 3
    q = Pulka(SOCHI.replace(deal_moves_after_raspas=False), 3)
    q.all_pass({"A": 3, "B": 3, "C": 4})
    assert q.next_dealer == 0
    q.misere("B", 0)
    assert q.next_dealer == 1


@pytest.mark.parametrize("preset", Rules.PRESET_NAMES)
def test_sliding_all_pass_and_the_dealers_zero_against_the_seed(preset: str) -> None:
    """Checked against the seed (issue 29), four players, A deals an all-pass B 4, C 6, D 0.

    Kodeks 3.7.7 «Скользящая распасовка. После распасовки сдача переходит к следующему игроку по
    кругу»: every preset passes the deal on to B.  Kodeks 3.7.6.2 «В „ростовской“ разновидности
    (распасовка на висты) прикуп в игре не участвует … Сдающий пишет себе единичку в пульку за
    ноль взяток»: in Rostov A writes 1 in his pool (D too, for his own zero, 3.7.2.2); the rule
    speaks of Rostov only, so on the mountain (3.7.2.1) the dealer writes no zero bonus.
    """
    rules = Rules.preset(preset)
    p = Pulka(rules, 4, first_dealer="A")
    score = p.all_pass({"B": 4, "C": 6, "D": 0})
    assert p.next_dealer == 1
    pools = {e.player: e.amount for e in score.entries if e.column == "pool"}
    assert pools == ({0: 1, 3: 1} if preset == "rostov" else {3: 1})
    assert rules.dealer_zero_bonus is (preset == "rostov")
    assert rules.raspas_talon_for(4) == ("unused" if preset == "rostov" else "participates")


def test_exit_levels_and_whisted_exit() -> None:
    """rules.md §8.3 «выход»: 6-7-7; with exit_requires_whisted_game an unwhisted game keeps the series."""
    rules = SOCHI.replace(raspas_exit_levels=(6, 7, 7), exit_requires_whisted_game=True,
                          pool_target=50)  # fmt: skip
    p = Pulka(rules)
    p.all_pass({"A": 3, "B": 3, "C": 4})
    assert p.min_level == 6 and p.raspas_step == 2
    p.game("B", "6S", defence={"C": "pass", "A": "pass"})  # not whisted: series goes on
    assert p.raspas_series == 1
    p.all_pass({"A": 3, "B": 3, "C": 4})
    assert p.min_level == 7
    score = p.all_pass({"A": 0, "B": 3, "C": 7})
    assert score.raspas_step == 3 and p.sheet.pool[0] == 3  # the bonus is the price (3.7.2.1)
    with pytest.raises(ScoreError):
        p.game("A", "6NT", defence={"B": "whist", "C": "pass"}, tricks={"A": 6, "B": 2, "C": 2})
    p.game("A", "7NT", defence={"B": "whist", "C": "pass"}, tricks={"A": 7, "B": 2, "C": 1})
    assert p.raspas_series == 0 and p.min_level == 6


def test_misere_ends_series_option() -> None:
    for ends, series in ((True, 0), (False, 1)):
        p = Pulka(SOCHI.replace(misere_ends_series=ends))
        p.all_pass({"A": 3, "B": 3, "C": 4})
        p.misere("B", 0)
        assert p.raspas_series == series


def test_writeoff_when_nobody_to_help() -> None:
    """«питер» descriptions: surplus with everybody closed writes off the own mountain (Leningrad ×2)."""
    p = Pulka(LENINGRAD.replace(pool_target=4, end_condition="agreement"), "ABC")
    p.game("A", "7S", defence={"B": "pass", "C": "pass"})
    p.game("B", "7S", defence={"C": "pass", "A": "pass"})
    p.game("C", "7S", defence={"A": "whist", "B": "pass"}, tricks={"C": 5, "A": 3, "B": 2})
    assert p.sheet.mountain == [0, 0, 16]
    before = p.settlement().net
    p.game("C", "8S", defence={"A": "pass", "B": "pass"})  # 6: 4 close C, 2 write off 2×2
    assert p.sheet.pool == [4, 4, 4] and p.sheet.mountain == [0, 0, 12]
    assert p.settlement().net[2] - before[2] == 6 * 20 * Fraction(2, 3)  # worth 6 pool points


def test_help_by_choice() -> None:
    p = Pulka(SOCHI.replace(pool_target=4, help_target="choice"), "ABC")
    p.game("A", "7S", defence={"B": "pass", "C": "pass"})
    p.game("A", "6S", defence={"B": "pass", "C": "pass"}, help_to="C")
    assert p.sheet.pool == [4, 0, 2] and p.sheet.whists[0][2] == 20


def test_end_conditions() -> None:
    p = Pulka(SOCHI.replace(end_condition="deals", max_deals=2))
    p.all_pass({"A": 3, "B": 3, "C": 4})
    assert not p.is_over
    p.all_pass({"A": 3, "B": 3, "C": 4})
    assert p.is_over
    q = Pulka(SOCHI.replace(end_condition="pool_sum", pool_target=2))
    q.game("A", "9S", defence={"B": "pass", "C": "pass"})  # 8: helps B and C, 2 left over
    assert q.is_over and q.sheet.pool == [4, 2, 2] and q.sheet.mountain == [0, 0, 0]


def test_undo_and_atomic_errors() -> None:
    p = Pulka(SOCHI)
    p.game("A", "6S", defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 2, "C": 2})
    snapshot = (list(p.sheet.pool), [list(r) for r in p.sheet.whists], p.next_dealer)
    with pytest.raises(ScoreError, match="tricks"):
        p.game("A", "6S", defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 2, "C": 3})
    assert (p.sheet.pool, p.sheet.whists, p.next_dealer) == snapshot
    p.all_pass({"A": 3, "B": 3, "C": 4})
    p.undo()
    assert (p.sheet.pool, p.sheet.whists, p.next_dealer) == snapshot
    assert p.raspas_series == 0 and len(p.sheet.history) == 1
    p.undo()
    with pytest.raises(ScoreError, match="undo"):
        p.undo()


def test_bad_tables() -> None:
    with pytest.raises(ScoreError):
        Pulka(SOCHI, 5)
    with pytest.raises(ScoreError):
        Pulka(SOCHI, ["A", "A", "B"])
    with pytest.raises(ScoreError, match="not at this table"):
        Pulka(SOCHI).game("Z", "6S")


# -- the engine's deals, end to end --------------------------------------------------------------


@pytest.mark.parametrize(("preset", "n"), [("sochi", 3), ("leningrad", 4), ("rostov", 3),
                                           ("classic", 3), ("kodeks", 4)])  # fmt: skip
def test_engine_deals_into_a_pulka(preset: str, n: int) -> None:
    """Random legal play by the deal engine, recorded deal after deal (rules.md §11.5)."""
    from preferans.engine.deal import Deal

    rules = Rules.preset(preset).replace(
        pool_target=10, end_condition="deals", max_deals=30, bez_trekh=True, za_svoimi=True,
        concede_all=True, dealer_talon_whists="aces",
    )  # fmt: skip
    p = Pulka(rules, n)
    rng = random.Random(7)
    seed = 0
    while not p.is_over:
        deal = Deal.new(rules, players=n, dealer=p.next_dealer, seed=seed, min_level=p.min_level)
        seed += 1
        while not deal.is_over:
            legal = deal.legal_actions()
            passes = [a for a in legal if str(a) == "pass"]
            deal.apply(passes[0] if passes and rng.random() < 0.6 else rng.choice(legal))
        p.record(deal.result)
        assert p.next_dealer == (deal.dealer + 1) % n
    assert len(p.sheet.history) == 30
    both_methods(p)


def test_void_and_penalty_deals() -> None:
    """A void deal is re-dealt by the same dealer (Kodeks 3.2.2); an exposed talon writes the
    assessed whists on the offender (Kodeks 3.3.16.3, E-S1: 52 and 7)."""
    from preferans.engine.result import DealKind, DealResult

    p = Pulka(SOCHI, "ABCD", first_dealer="D")
    void = DealResult(DealKind.VOID, 4, 3)
    p.record(void)
    assert p.next_dealer == 3 and p.sheet.history[-1].entries == ()
    extra: dict[str, Any] = {"offender": 0, "penalty": {1: Fraction(52), 3: Fraction(7)}}
    penalty = DealResult(DealKind.PENALTY, 4, 3, **extra)
    p.record(penalty)
    assert p.sheet.whists[1][0] == 52 and p.sheet.whists[3][0] == 7 and p.next_dealer == 0
