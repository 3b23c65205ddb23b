"""The conventions other Preferans programs score by (rules.md §13, issue 17), one worked
example each, computed by hand in the docstring.

Every example goes through the score keeper as compact lines, again as the JSON lines the
keeper saves, through a save/load round trip, and through :class:`Pulka` directly; the
options that change play are also played out in the engine (test_program_options_engine.py).
Nets are by the closed formula (rules.md §11.2): ``k_pool·(P − mean P) − k_mount·(M − mean M)
+ whists written − whists received``.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from preferans.errors import ScoreError
from preferans.rules import Rules
from preferans.scoring.pulka import Pulka
from preferans.scoring.scorekeeper import ScoreKeeper
from scoring_helpers import expected_lines, expected_nets, lines_of

SOCHI = Rules.preset("sochi")
LENINGRAD = Rules.preset("leningrad")


def through_keeper(rules: Rules, players: int, lines: list[str]) -> ScoreKeeper:
    """Enter ``lines``; check that the JSON form, a save/load and a bare Pulka agree."""
    names = list("ABCD"[:players])
    keeper = ScoreKeeper(rules, names)
    for line in lines:
        keeper.enter(line)
    sheet = keeper.pulka.sheet
    # The same deals as the JSON lines the keeper writes.
    again = ScoreKeeper(rules, names)
    for r, h in zip(keeper.pulka.results, keeper.pulka.help_choices, strict=True):
        again.enter(json.dumps(keeper.to_json(r, h)))
    # A saved game loads to the same sheet.
    loaded = ScoreKeeper.from_lines(keeper.lines())
    # The results written straight on a Pulka.
    pulka = Pulka(rules, names)
    for r, h in zip(keeper.pulka.results, keeper.pulka.help_choices, strict=True):
        pulka.record(r, help_to=h)
    for other in (again.pulka.sheet, loaded.pulka.sheet, pulka.sheet):
        assert (other.pool, other.mountain, other.whists) == (sheet.pool, sheet.mountain, sheet.whists)
        assert [d.entries for d in other.history] == [d.entries for d in sheet.history]
    return keeper


def check(rules: Rules, players: int, lines: list[str], last: str, net: str) -> ScoreKeeper:
    """The last line writes ``last``; the whole sheet settles to ``net``."""
    keeper = through_keeper(rules, players, lines)
    assert lines_of(list(keeper.pulka.sheet.history[-1].entries)) == expected_lines(last)
    assert list(keeper.pulka.settlement().net) == expected_nets(net, players)
    return keeper


# -- 3. a failed checked 10 written as remiz only --------------------------------------------


def test_checked_ten_failed_writes_the_remiz_only() -> None:
    """ten_mode="checked_remiz_only", Sochi, 3 players: A's checked 10♠ takes 9 (B 1, C 0).

    Remiz: remiz_mult·V(10)·1 = 10 into A's mountain; no whists for B's trick and no
    consolation.  Nets: A −10·(10 − 10/3) = −200/3; B and C +10·10/3 = +100/3 each.
    With plain ``checked`` the same deal also writes B→A 10 + 10 = 20 and C→A 10.
    """
    rules = SOCHI.replace(ten_mode="checked_remiz_only")
    check(rules, 3, ["A 10S A9 B1 C0"], "A mount +10", "A -200/3, B 100/3, C 100/3")
    check(SOCHI, 3, ["A 10S A9 B1 C0"], "A mount +10; B→A 20; C→A 10", "A -290/3, B 160/3, C 130/3")


def test_checked_ten_made_is_unchanged() -> None:
    """A made checked 10 writes V(10) = 10 in the pool under either checked mode."""
    rules = SOCHI.replace(ten_mode="checked_remiz_only")
    check(rules, 3, ["A 10S A10"], "A pool +10", "A 200/3, B -100/3, C -100/3")


# -- 4. norm1_both_fail="second" -----------------------------------------------------------


def test_norm1_second_whister_answers() -> None:
    """norm1_both_fail="second", Sochi: A makes 8♠ with all ten; B (first whister, A's left)
    and C both took nothing.  Only C, the second whister, is charged pen_mult·V(8) = 6.

    Nets: pool A +6 → A 10·(6 − 2) = 40, B −20, C −20; mountain C +6 → C −40, A +20, B +20.
    A 60, B 0, C −60.
    """
    rules = SOCHI.replace(norm1_both_fail="second")
    check(rules, 3, ["A 8S B:w C:w A10"], "A pool +6; C mount +6", "A 60, B 0, C -60")


# -- 5. the Leningrad table's talon bonus ---------------------------------------------------


def test_leningrad_talon_bonus_on_a_made_six() -> None:
    """dealer_talon_whists="leningrad", Leningrad, 4 players (D deals): A makes 6♠ (B 2, C 2);
    the talon was A♥ K♥ — an ace and king of one suit: 2 whist prices of 2·V(6) = 4, so
    D→A 8.  The game: A pool +2, B→A 8, C→A 8.

    Nets (k_pool 20): pool A 20·(2 − 1/2) = 30, others −10; whists A −24, B, C, D +8 each.
    A +6, B −2, C −2, D −2.
    """
    rules = LENINGRAD.replace(dealer_talon_whists="leningrad")
    check(rules, 4, ["A 6S B:w C:w A6 B2 talon=AH,KH @D"], "A pool +2; B→A 8; C→A 8; D→A 8",
          "A 6, B -2, C -2, D -2")  # fmt: skip


def test_leningrad_talon_bonus_on_a_failed_six() -> None:
    """The bonus is written on a failure too: 6♠ one down (B 3, C 2), talon A♠ A♦ — two aces:
    3 × 4 = 12 more from D.  Without it this is E-S4 (A −62, B +26, C +22, D +14); D's 12 whists
    move A to −74 and D to +26.
    """
    rules = LENINGRAD.replace(dealer_talon_whists="leningrad")
    check(rules, 4, ["A 6S B:w C:w A5 B3 talon=AS,AD @D"], "A mount +4; B→A 16; C→A 12; D→A 16",
          "A -74, B 26, C 22, D 26")  # fmt: skip


@pytest.mark.parametrize(("talon", "units"), [("AS AD", 3), ("AH KH", 2), ("KC QC", 1), ("AS 7D", 1),
                                              ("KS QH", 0), ("AS KD", 1)])  # fmt: skip
def test_leningrad_talon_scale(talon: str, units: int) -> None:
    """Two aces 3, ace-king of a suit 2, king-queen of a suit 1, one ace 1, else nothing."""
    from preferans.cards import parse_cards
    from preferans.scoring.contract_deal import sold_aces
    from scoring_helpers import game

    r = game("6S", "A6 B2 C2", "Bw Cw", n=4, talon=tuple(int(c) for c in parse_cards(talon)))
    assert sold_aces(r, LENINGRAD.replace(dealer_talon_whists="leningrad")) == units


# -- 8. each whister answers for his own quota ------------------------------------------------


def test_own_quota_on_a_six() -> None:
    """whister_quota="own", Sochi: A makes 6♠ exactly; B took 0, C 4.  The side met its
    quota of 4, so the shared rule charges nobody; with own quotas B owes 2 himself:
    pen_mult·V(6)·2 = 4 into B's mountain.  C→A 4·2 = 8.

    Nets: pool A 10·(2 − 2/3) = 40/3, B, C −20/3; mountain B −10·(4 − 4/3) = −80/3, A, C
    +40/3; whists A −8, C +8.  A 56/3, B −100/3, C 44/3.
    """
    rules = SOCHI.replace(whister_quota="own")
    check(rules, 3, ["A 6S B:w C:w A6 B0"], "A pool +2; B mount +4; C→A 8", "A 56/3, B -100/3, C 44/3")
    check(SOCHI, 3, ["A 6S B:w C:w A6 B0"], "A pool +2; C→A 8", "A 16/3, B -20/3, C 4/3")


def test_own_quota_on_an_eight_falls_on_the_second() -> None:
    """whister_quota="own": on 8–10 the second whister needs the trick himself.  A makes 8♠
    (A 9, B 1, C 0): the side has its one trick, but C took none: C mountain +6; B→A 6.

    Nets: pool A 40, B −20, C −20; mountain C −40, A +20, B +20; whists A −6, B +6.
    A 54, B 6, C −60.
    """
    rules = SOCHI.replace(whister_quota="own")
    check(rules, 3, ["A 8S B:w C:w A9 B1"], "A pool +6; B→A 6; C mount +6", "A 54, B 6, C -60")


# -- 8b. two whisters' quotas: own on 6/7 with the last whister on 8–10; own deficits when short --

# Sochi, three players, A declares, B whists first (A's left), C second.  V(6) = 2, V(7) = 4,
# V(8) = 6; quota 4 on a 6, 2 on a 7, 1 on 8–10 (Kodeks 3.8.2, rules.md §5.2).  A short trick
# costs its whister pen_mult·V; each trick a whister took writes V whists on A.
QUOTA_ROWS = [
    # own_last: 6 and 7 each his own half; 8–10 the side's one trick, and only the last whister
    # (the second to whist) pays when it is missing (rules.md §5.2).
    ("own_last", "A 6S B:w C:w A6 B0", "A pool +2; B mount +4; C→A 8"),  # B owes his own 2
    ("own_last", "A 6S B:w C:w A6 B1", "A pool +2; B mount +2; B→A 2; C→A 6"),  # B owes 1
    ("own_last", "A 7S B:w C:w A8 B0", "A pool +4; B mount +4; C→A 8"),  # 1 each on a 7
    ("own_last", "A 8S B:w C:w A9 B1", "A pool +6; B→A 6"),  # the side has its trick
    ("own_last", "A 8S B:w C:w A10", "A pool +6; C mount +6"),  # only the last whister pays
    # own_if_short: nobody pays while the side has its quota; when it is short, each whister
    # below his half pays his own deficit (half − his tricks), not the side's shortfall.
    ("own_if_short", "A 6S B:w C:w A6 B0", "A pool +2; C→A 8"),  # side 4: nobody pays
    ("own_if_short", "A 6S B:w C:w A7 B0", "A pool +2; B mount +4; C→A 6"),  # short 1, B owes 2
    ("own_if_short", "A 6S B:w C:w A7 B1", "A pool +2; B mount +2; B→A 2; C→A 4"),  # B owes 1
    ("own_if_short", "A 6S B:w C:w A8 B1", "A pool +2; B mount +2; C mount +2; B→A 2; C→A 2"),
    ("own_if_short", "A 7S B:w C:w A9 B0", "A pool +4; B mount +4; C→A 4"),  # short 1, B owes 1
    ("own_if_short", "A 8S B:w C:w A10", "A pool +6; B mount +6; C mount +6"),  # norm1_both_fail
    # The same deals under the older values, for contrast.
    ("shared", "A 6S B:w C:w A7 B0", "A pool +2; B mount +2; C→A 6"),  # B for the side's 1
    ("own", "A 8S B:w C:w A9 B1", "A pool +6; B→A 6; C mount +6"),  # C needs the trick himself
]


@pytest.mark.parametrize(("quota", "line", "written"), QUOTA_ROWS)
def test_two_whisters_quota_settings(quota: str, line: str, written: str) -> None:
    """whister_quota (rules.md §5.2): each row written through the score keeper, its JSON form,
    a save/load and a bare Pulka; the result sums to zero."""
    keeper = through_keeper(SOCHI.replace(whister_quota=quota), 3, [line])
    assert lines_of(list(keeper.pulka.sheet.history[-1].entries)) == expected_lines(written)
    assert sum(keeper.pulka.settlement().net) == 0


# -- 10. help to the highest open pool ---------------------------------------------------------

HELP_DEALS = ["A 9S B:p C:p", "C 8S A:p B:p", "B 6S C:p A:p", "A 7S B:p C:p"]


def test_help_goes_to_the_highest_open_pool() -> None:
    """help_target="highest_pool", Sochi, pool 10: A 8, C 6, B 2 in the pool; A's 7 (+4)
    keeps 2 and closes, the surplus 2 goes to C (the highest open pool), who gets 2 pool
    points, and A writes 2·10 = 20 whists on him.

    Pools A 10, B 2, C 8 (mean 20/3): A 100/3, B −140/3, C 40/3; A's whists on C: A +20,
    C −20.  A 160/3, B −140/3, C −20/3.  lowest_pool would help B instead — another sheet,
    the same nets, since help at k_pool whists a point is value-neutral (rules.md §11.4).
    """
    rules = SOCHI.replace(pool_target=10, help_target="highest_pool", end_condition="agreement")
    check(rules, 3, HELP_DEALS, "A pool +2; C pool +2; A→C 20", "A 160/3, B -140/3, C -20/3")
    lowest = SOCHI.replace(pool_target=10, end_condition="agreement")
    check(lowest, 3, HELP_DEALS, "A pool +2; B pool +2; A→B 20", "A 160/3, B -140/3, C -20/3")


def test_highest_pool_ties_go_clockwise_from_the_helper() -> None:
    """Pool 6: B and C at 2 each when A's 9 (+8) closes him with 2 to spare: the tie goes to
    B, the first open player clockwise from the helper A."""
    rules = SOCHI.replace(pool_target=6, help_target="highest_pool", end_condition="agreement")
    k = through_keeper(rules, 3, ["B 6S C:p A:p", "C 6S A:p B:p", "A 9S B:p C:p"])
    last = k.pulka.sheet.history[-1].entries
    helped = [e.player for e in last if e.why == "help" and e.column == "pool"]
    assert helped == [1]


# -- 11. surplus lost ------------------------------------------------------------------------

SURPLUS_DEALS = ["allpass A1 B4 C5", "B 7S C:p A:p", "C 7S A:p B:p", "A 8S B:p C:p"]


def test_surplus_beyond_the_mountain_is_lost() -> None:
    """surplus_lost=True, Sochi, pool 4, no amnesty: all-pass A1 B4 C5 (mountains 1, 4, 5),
    then B and C close with a 7 each.  A's 8 (+6) keeps 4; nobody is open, so the surplus 2
    writes off A's mountain 1 (one pool point per mountain point) and the last point is lost.

    Pools 4, 4, 4 (no pool term); mountains 0, 4, 5 (mean 3): A +30, B −10, C −20.
    When it stays (the default) A's pool is 5: A 110/3, B −40/3, C −70/3.
    """
    base = SOCHI.replace(pool_target=4, amnesty=False, end_condition="agreement")
    check(base.replace(surplus_lost=True), 3, SURPLUS_DEALS, "A pool +4; A mount -1", "A 30, B -10, C -20")
    check(base, 3, SURPLUS_DEALS, "A pool +5; A mount -1", "A 110/3, B -40/3, C -70/3")


# -- 12. the mountain shared among the n − 1 others -------------------------------------------


def test_mountain_shared_among_the_others() -> None:
    """mountain_shared_among="others", Sochi, 4 players: A's misère caught once writes 10 in
    his mountain.  Each of the three others writes 10·10/3 = 100/3 on A: A −100, B, C, D
    +100/3 each — the closed formula with k_mount·4/3 = 40/3.  The paper method at n = 4
    gives A −75 and 25 to each other.
    """
    rules = SOCHI.replace(mountain_shared_among="others")
    check(rules, 4, ["A misere 1 @D"], "A mount +10", "A -100, B 100/3, C 100/3, D 100/3")
    check(SOCHI, 4, ["A misere 1 @D"], "A mount +10", "A -75, B 25, C 25, D 25")
    check(SOCHI.replace(k_mount="40/3"), 4, ["A misere 1 @D"], "A mount +10", "A -100, B 100/3, C 100/3, D 100/3")


# -- 13. rounding per transfer -----------------------------------------------------------------


def test_rounding_per_transfer() -> None:
    """rounding="per_transfer", Sochi, 3 players: all-pass A0 B4 C6 (A pool +1), then A's misère
    caught once (mountain +10).  Paper method: pools to the top (B and C +1 mountain each):
    mountains A 10, B 5, C 7; amnesty 5 → 5, 0, 2; shares 50/3 and 20/3, rounded to 17 and 7
    before netting: B→A 17, C→A 17, A→C 7, B→C 7.  A −34 + 7 = −27, B +24, C +3.
    Exact: −80/3, 70/3, 10/3; half_up rounds those instead: −26, 23, 3.
    """
    lines = ["allpass A0 B4 C6", "A misere 1"]
    keeper = check(SOCHI.replace(rounding="per_transfer"), 3, lines, "A mount +10", "A -80/3, B 70/3, C 10/3")
    assert list(keeper.pulka.settlement().rounded) == [-27, 24, 3]
    half = through_keeper(SOCHI.replace(rounding="half_up"), 3, lines)
    assert list(half.pulka.settlement().rounded) == [-26, 23, 3]


def test_rounding_per_transfer_rounds_pool_and_mountain_shares_apart() -> None:
    """rounding="per_transfer" rounds each pool share and each mountain share on its own (issue 29).

    Sochi, 3 players, one all-pass A0 B1 C9: pools A 1, B 0, C 0; mountains A 0, B 1, C 9.
    Exact (closed formula): A 10·(1 − 1/3) + 10·(10/3) = 40; B −10/3 − 10·(1 − 10/3) = 20;
    C −10/3 − 10·(9 − 10/3) = −60.
    Per transfer: pool shares (1 − P)·10/3: A 0, B 10/3 → 3, C 10/3 → 3; mountain shares (after
    the amnesty of 0) M·10/3: A 0, B 10/3 → 3, C 30.  Each player writes B 3 + 3 = 6 and C 3 + 30 =
    33 on the owner: net_i = Σ shares − 3·share_i with Σ = 39: A +39, B +21, C −60.
    Adding B's pool difference into his mountain first (2 points → 20/3 → 7) gave A +40, B +19,
    C −59 — one whist off B's own roundings.
    """
    rules = SOCHI.replace(rounding="per_transfer")
    keeper = check(rules, 3, ["allpass A0 B1 C9"], "A pool +1; B mount +1; C mount +9", "A 40, B 20, C -60")
    settlement = keeper.pulka.settlement()
    assert list(settlement.rounded) == [39, 21, -60]
    assert sum(settlement.rounded) == 0
    assert list(settlement.procedure.mountain_whists) == [0, 6, 33]


# -- 14. the all-pass series broken only by a made game; «без трёх» up to a level ----------------


def test_all_pass_series_goes_on_after_a_failed_game() -> None:
    """exit_requires_made_game=True, Sochi (1, 2, 3): an all-pass, then B's 6♠ one down (B 5,
    C 3, A 2, both whist) leaves the series at one, so the next all-pass is priced 2 a trick:
    A 0 → A pool +2; B 4 → mountain 8; C 6 → 12.  A made game ends the series.
    """
    rules = SOCHI.replace(exit_requires_made_game=True)
    k = through_keeper(rules, 3, ["allpass A0 B4 C6", "B 6S C:w A:w B5 C3", "allpass A0 B4 C6"])
    assert lines_of(list(k.pulka.sheet.history[-1].entries)) == expected_lines(
        "A pool +2; B mount +8; C mount +12")
    assert k.pulka.raspas_series == 2
    k.enter("B 6S C:w A:w B6 C2")  # made
    assert k.pulka.raspas_series == 0
    plain = through_keeper(SOCHI, 3, ["allpass A0 B4 C6", "B 6S C:w A:w B5 C3"])
    assert plain.pulka.raspas_series == 0


@pytest.mark.parametrize(("line", "series"), [("B 6S C:p A:p", 1), ("B misere 1", 1), ("B misere 0", 0),
                                              ("B 7S C:w A:p B7", 0)])  # fmt: skip
def test_what_breaks_the_series_with_made_games_only(line: str, series: int) -> None:
    """An unwhisted game and a caught misère leave the series; a clean misère and a made game end it."""
    k = through_keeper(SOCHI.replace(exit_requires_made_game=True), 3, ["allpass A0 B4 C6", line])
    assert k.pulka.raspas_series == series


def test_bez_trekh_forbidden_above_a_level() -> None:
    """bez_trekh_max_level=7: «без трёх» on a 7 writes the remiz for 3 (V 4 · 3 = 12) and each
    opponent's consolation 12: A −10·(12 − 4) − 24 = −104, B and C 40 + 12 = 52.  On an 8 it is
    refused and nothing is written."""
    rules = SOCHI.replace(bez_trekh=True, bez_trekh_max_level=7)
    check(rules, 3, ["A 7S -3"], "A mount +12; B→A 12; C→A 12", "A -104, B 52, C 52")
    k = ScoreKeeper(rules, ["A", "B", "C"])
    with pytest.raises(ScoreError, match="bez_trekh_max_level"):
        k.enter("A 8S -3")
    assert k.pulka.results == []


def test_fraction_k_mount_reads_and_saves() -> None:
    """k_mount accepts an exact fraction on the command line and in a saved game."""
    rules = SOCHI.set_from_text("k_mount=40/3")
    assert rules.k_mount == Fraction(40, 3)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


# -- 2. half-whist by the first defender ---------------------------------------------------------


def test_first_defender_falls_back_to_half_whist() -> None:
    """first_defender_half_whist=True, Sochi: on A's 6♠ B whists, C passes, and B falls back to
    half-whist: not played, A pool +2, B writes half the quota, 2 tricks × 2 = 4 on A.
    Nets: pool A 40/3, B, C −20/3; whists B +4, A −4 → A 28/3, B −8/3, C −20/3 (C13a with B
    as the half-whister).  Without the option "half then pass" is refused.
    """
    rules = SOCHI.replace(first_defender_half_whist=True)
    check(rules, 3, ["A 6S B:h C:p"], "A pool +2; B→A 4", "A 28/3, B -8/3, C -20/3")
    with pytest.raises(ScoreError, match="first_defender_half_whist"):
        ScoreKeeper(SOCHI, ["A", "B", "C"]).enter("A 6S B:h C:p")


# -- 9. a played half-whist ------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "last", "net"), [
    # A 7, side 3: C credited min(3, 2) × 2 = 4, no shortfall.
    ("A 6S B:p C:h A7", "A pool +2; C→A 4", "A 28/3, B -20/3, C -8/3"),
    # A 9, side 1: credited 1 × 2 = 2, charged (2 − 1) × 2 = 2 in the mountain:
    # A 40/3 + 20/3 − 2 = 18, B −20/3 + 20/3 = 0, C −20/3 − 40/3 + 2 = −18.
    ("A 6S B:p C:h A9", "A pool +2; C→A 2; C mount +2", "A 18, B 0, C -18"),
    # A 5, one down: remiz 2; C credited 2 × 2 = 4 plus consolation 2, B consolation 2:
    # A −40/3 − 8 = −64/3, B 20/3 + 2 = 26/3, C 20/3 + 6 = 38/3.
    ("A 6S B:p C:h A5", "A mount +2; B→A 2; C→A 6", "A -64/3, B 26/3, C 38/3"),
])  # fmt: skip
def test_played_half_whist(line: str, last: str, net: str) -> None:
    """half_whist_played=True, Sochi, A's 6♠: B passes, C half-whists, B passes again — the
    half-whister plays alone for half the quota (2 tricks): credited min(side, 2) × 2 whists,
    charged (2 − side) × 2 into his mountain when short."""
    check(SOCHI.replace(half_whist_played=True), 3, [line], last, net)


# -- 1. the 4-handed dealer's whist ---------------------------------------------------------------


@pytest.mark.parametrize(("line", "last", "net"), [
    # A 6, side 4: D writes 4 × 2 = 8: pool A 10·(2 − 1/2) = 15, others −5; A −8, D +8.
    ("A 6S B:p C:p D:w A6 @D", "A pool +2; D→A 8", "A 7, B -5, C -5, D 3"),
    # A 8, side 2: D writes 4 and answers for the quota's 2 missing tricks: mountain 2 × 2 = 4:
    # pool A 15, others −5; mountain D −10·(4 − 1) = −30, others +10; whists A −4, D +4.
    ("A 6S B:p C:p D:w A8 @D", "A pool +2; D→A 4; D mount +4", "A 21, B 5, C 5, D -31"),
    # A 5, one down: remiz 2; c = 2; D writes 5 × 2 + 2 × 2 (both defenders' consolations) + 2
    # (his own) = 16: mountain A −15, others +5; A −16, D +16 → the declarer pays 31 as in E-S1.
    ("A 6S B:p C:p D:w A5 @D", "A mount +2; D→A 16", "A -31, B 5, C 5, D 21"),
])  # fmt: skip
def test_dealer_whist(line: str, last: str, net: str) -> None:
    """dealer_whist=True, Sochi, 4 players (D deals): both defenders pass A's 6♠, the dealer
    whists and plays both defending hands; he takes the whists, both consolations and the
    responsibility for the quota of 4."""
    check(SOCHI.replace(dealer_whist=True), 4, [line], last, net)


def test_dealer_whist_in_json_and_refused_without_the_option() -> None:
    """The JSON key is "dealer_whist": true; a dealer's whist needs the option and a passed 6 or 7."""
    rules = SOCHI.replace(dealer_whist=True)
    k = ScoreKeeper(rules, ["A", "B", "C", "D"])
    k.enter('{"game": "6S", "declarer": "A", "defence": {"B": "pass", "C": "pass"}, "dealer_whist": true,'
            ' "tricks": {"A": 6, "B": 2, "C": 2}, "dealer": "D"}')  # fmt: skip
    assert k.to_json(k.pulka.results[0])["dealer_whist"] is True
    for bad_rules, line, match in ((SOCHI, "A 6S B:p C:p D:w A6 @D", "dealer_whist=true"),
                                   (rules, "A 8S B:p C:p D:w A8 @D", "passed 6 or 7")):  # fmt: skip
        with pytest.raises(ScoreError, match=match):
            ScoreKeeper(bad_rules, ["A", "B", "C", "D"]).enter(line)


# -- 6. the talon shown by the 4-handed dealer ------------------------------------------------------


def test_talon_shown_by_the_dealer() -> None:
    """dealer_shown_talon_whists=2, Leningrad, 4 players: D showed the talon during the auction;
    A then makes 6♠ (B 2, C 2, both whist) and writes 2 × 4 = 8 whists on D.

    Nets (k_pool 20): pool A 30, others −10; whists A −16 + 8, B +8, C +8, D −8.
    A 22, B −2, C −2, D −18.
    """
    rules = LENINGRAD.replace(dealer_shown_talon_whists=2)
    keeper = check(rules, 4, ["A 6S B:w C:w A6 B2 shown @D"], "A pool +2; B→A 8; C→A 8; A→D 8",
                   "A 22, B -2, C -2, D -18")  # fmt: skip
    assert keeper.to_json(keeper.pulka.results[0])["talon_shown_by_dealer"] is True
    with pytest.raises(ScoreError, match="dealer_shown_talon_whists"):
        ScoreKeeper(LENINGRAD, ["A", "B", "C", "D"]).enter("A 6S B:w C:w A6 B2 shown @D")


# -- 7. a dedicated totus ------------------------------------------------------------------------


def test_totus_made_writes_the_bonus() -> None:
    """totus=True, Sochi (10s checked): A's totus declared 10♠ takes all ten: V(10) = 10 and
    totus_bonus 5 in the pool: A 10·(15 − 5) = 100, B and C −50.  A failed totus is a failed 10:
    one down writes A mount +10 (and the checked 10's whists), no bonus."""
    rules = SOCHI.replace(totus=True)
    check(rules, 3, ["A 10S-totus A10"], "A pool +15", "A 100, B -50, C -50")
    keeper = check(rules, 3, ["A 10S-totus A9 B1"], "A mount +10; B→A 20; C→A 10", "A -290/3, B 160/3, C 130/3")
    assert keeper.to_json(keeper.pulka.results[0])["game"] == "10S-totus"
    with pytest.raises(ScoreError, match="totus=true"):
        ScoreKeeper(SOCHI, ["A", "B", "C"]).enter("A 10S-totus A10")


# -- 15. lines written by hand ------------------------------------------------------------------


def test_sheet_lines_written_by_hand() -> None:
    """A paper sheet entered in progress: ``A pool +3; B mountain +5`` and ``C whists A +10``
    (the JSON ``"sheet"`` form saved), then a deal scored as usual.  The hand-written lines move
    neither the dealer (A deals the 6♠ game after them) nor help anybody.

    Sheet after the lines: pools 3, 0, 0; B mountain 5; C→A 10.  Then B's 6♠ (C 2, A 2, both
    whist, B 6): B pool +2, C→B 4, A→B 4.  Nets: pools 3, 2, 0 (mean 5/3) → A 40/3, B 10/3,
    C −50/3; mountain B 5 (mean 5/3) → B −100/3, A and C +50/3; whists count for the writer:
    A −10 + 4, B −8, C +14.  A 24, B −38, C 14.
    """
    keeper = check(SOCHI, 3, ["A pool +3; B mountain +5", "C whists A +10", "B 6S C:w A:w B6 C2"],
                   "B pool +2; C→B 4; A→B 4", "A 24, B -38, C 14")  # fmt: skip
    history = keeper.pulka.sheet.history
    assert lines_of(list(history[0].entries)) == expected_lines("A pool +3; B mount +5")
    assert keeper.pulka.results[2].dealer == 0  # the lines did not move the deal
    saved = keeper.lines()[1]
    assert json.loads(saved) == {"sheet": [{"player": "A", "column": "pool", "amount": 3},
                                           {"player": "B", "column": "mountain", "amount": 5}]}  # fmt: skip
    keeper.undo()
    keeper.undo()
    assert keeper.pulka.sheet.whists[2][0] == 0 and keeper.pulka.sheet.pool == [3, 0, 0]


@pytest.mark.parametrize(("line", "match"), [("A pool", "cannot read"), ("C whists +10", "whose whists"),
                                             ("C whists C +10", "whose whists"), ("A pool 0", "not 0"),
                                             ("A pool x", "a number")])  # fmt: skip
def test_bad_sheet_lines_change_nothing(line: str, match: str) -> None:
    k = ScoreKeeper(SOCHI, ["A", "B", "C"])
    with pytest.raises(ScoreError, match=match):
        k.enter(line)
    assert k.pulka.results == []
