# mypy: disable-error-code="comparison-overlap"
# (the sheet holds exact Fractions; the hand-computed figures are written as ints)
"""Spec §12.1 and §12.2 worked examples, table-driven, each with its id and rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from preferans.engine.result import DealResult
from preferans.rules import Rules
from preferans.scoring import Sheet, procedural, round_nets, score_deal, settle
from preferans.scoring.pulka import Pulka
from scoring_helpers import all_pass, expected_lines, expected_nets, game, lines_of, nets

SOCHI = Rules.preset("sochi")
LENINGRAD = Rules.preset("leningrad")
CLASSIC = Rules.preset("classic")

# (id, rules, players, outcome, sheet lines, nets, citation)
CASES: list[tuple[str, Rules, int, DealResult, str, str, str]] = [
    # -- §12.2 computed single hands ------------------------------------------------------
    ("C1", SOCHI, 3, game("6H", "A6 B2 C2", "Bw Cw"),
     "A pool +2; B→A 4; C→A 4", "A 16/3, B -8/3, C -8/3", "rules.md §9.2"),
    ("C2", SOCHI, 3, game("7S", "A6 B2 C2", "Bw Cw"),
     "A mount +4; B→A 12; C→A 12", "A -152/3, B 76/3, C 76/3", "rules.md §9.2 consolation"),
    ("C3", SOCHI, 3, game("6S", "A7 B2 C1", "Bw Cp"),
     "A pool +2; B mount +2; B→A 6", "A 14, B -14, C 0", "rules.md §5.2 lone quota"),
    ("C4", SOCHI, 3, game("6S", "A4 B4 C2", "Bw Cp"),
     "A mount +4; B→A 16; C→A 4", "A -140/3, B 88/3, C 52/3", "rules.md §5.4 greedy Lesnoy on Sochi"),
    ("C5", LENINGRAD, 3, game("6S", "A4 B4 C2", "Bw Cp"),
     "A mount +8; B→A 20; C→A 20", "A -280/3, B 140/3, C 140/3", "rules.md §5.4 gentleman Leningrad descriptions"),
    ("C6", SOCHI, 3, game("6S", "A7 B0 C3", "Bw Cw"),
     "A pool +2; B mount +2; C→A 6", "A 14, B -20, C 6", "rules.md §5.2 allocation"),
    ("C7", SOCHI, 3, game("6S", "A8 B1 C1", "Bw Cw"),
     "A pool +2; B mount +2; C mount +2; B→A 2; C→A 2", "A 68/3, B -34/3, C -34/3",
     "rules.md §5.2 both below half"),
    ("C8", SOCHI, 3, game("7S", "A9 B0 C1", "Bw Cw"),
     "A pool +4; B mount +4; C→A 4", "A 36, B -40, C 4", "rules.md §5.2"),
    ("C9", SOCHI, 3, game("7S", "A7 B0 C3", "Bw Cw"),
     "A pool +4; C→A 12", "A 44/3, B -40/3, C -4/3", "rules.md §5.2 quota met"),
    ("C10a", SOCHI, 3, game("8S", "A10 B0 C0", "Bw Cw"),
     "A pool +6; B mount +6; C mount +6", "A 80, B -40, C -40", "rules.md §5.2 norm1 both_full"),
    ("C10b", SOCHI.replace(norm1_both_fail="half_each"), 3, game("8S", "A10 B0 C0", "Bw Cw"),
     "A pool +6; B mount +3; C mount +3", "A 60, B -30, C -30", "rules.md §5.2 norm1 half_each"),
    ("C11", SOCHI, 3, game("6S", "A10 B0 C0", "Bw Cp"),
     "A pool +2; B mount +8", "A 40, B -60, C 20", "rules.md §5.3 ответственный вист"),
    ("C12", SOCHI, 3, game("8S", "", "Bp Cp"),
     "A pool +6", "A 40, B -20, C -20", "seed-002 p.25"),
    ("C13a", SOCHI, 3, game("6S", "", "Bp Ch"),
     "A pool +2; C→A 4", "A 28/3, B -20/3, C -8/3", "rules.md §5.4 полвиста"),
    ("C13b", SOCHI, 3, game("7S", "", "Bp Ch"),
     "A pool +4; C→A 4", "A 68/3, B -40/3, C -28/3", "rules.md §5.4 полвиста"),
    ("C13c", LENINGRAD, 3, game("6S", "", "Bp Ch"),
     "A pool +2; C→A 8", "A 56/3, B -40/3, C -16/3", "rules.md §5.4 полвиста"),
    ("C13d", LENINGRAD, 3, game("7S", "", "Bp Ch"),
     "A pool +4; C→A 8", "A 136/3, B -80/3, C -56/3", "rules.md §5.4 полвиста"),
    ("C14", SOCHI.replace(ten_mode="whisted"), 3, game("10S", "A9 B1 C0", "Bw Cp"),
     "A mount +10; B→A 20; C→A 10", "A -290/3, B 160/3, C 130/3", "rules.md §5.2 ten_mode"),
    ("C15a", SOCHI, 3, game("misere", "A0 B4 C6"),
     "A pool +10", "A 200/3, B -100/3, C -100/3", "rules.md §7 the Leningrad table; Lesnoy"),
    ("C15b", SOCHI, 3, game("misere", "A2 B4 C4"),
     "A mount +20", "A -400/3, B 200/3, C 200/3", "rules.md §7"),
    ("C15c", LENINGRAD, 3, game("misere", "A2 B4 C4"),
     "A mount +40", "A -800/3, B 400/3, C 400/3", "rules.md §7 Leningrad 20"),
    ("C16a", SOCHI, 4, game("misere", "A1 B4 C5", n=4, misere_half=True),
     "A mount +5; D mount +5", "A -25, B 25, C 25, D -25", "Kodeks 3.6.9"),
    ("C16b", SOCHI, 4, game("misere", "A0 B4 C6", n=4, misere_half=True),
     "A pool +5; D pool +5", "A 25, B -25, C -25, D 25", "Kodeks 3.6.9"),
    ("C17", SOCHI, 3, all_pass("A0 B4 C6"),
     "A pool +1; B mount +4; C mount +6", "A 40, B -10, C -30", "Kodeks 3.7.2.1"),
    # -- §12.1 examples from sources ----------------------------------------------------------
    ("E-S1 (9 made)", SOCHI, 4, game("9S", "A9 B1 C0", "Bw Cw", n=4, declarer="A"),
     "A pool +8; B→A 8", "A 52, B -12, C -20, D -20", "Kodeks 3.3.16.3"),
    ("E-S1 (6 down one)", SOCHI, 4, game("6S", "A5 B3 C2", "Bw Cw", n=4),
     "A mount +2; B→A 8; C→A 6; D→A 2", "A -31, B 13, C 11, D 7", "Kodeks 3.3.16.3, 3.8.1.2"),
    ("E-S2", LENINGRAD, 4, game("6S", "A6 B2 C2", "Bw Cw", n=4),
     "A pool +2; B→A 8; C→A 8", "A 14, B -2, C -2, D -10", "Skuratov +14"),
    ("E-S3", LENINGRAD, 4, game("6S", "A7 B0 C3", "Bw Cw", n=4),
     "A pool +2; B mount +2; C→A 12", "A 23, B -25, C 7, D -5", "Skuratov +23"),
    ("E-S4 (down one)", LENINGRAD, 4, game("6S", "A5 B3 C2", "Bw Cw", n=4),
     "A mount +4; B→A 16; C→A 12; D→A 4", "A -62, B 26, C 22, D 14", "a published Leningrad example 62"),
    ("E-S4 (down two)", LENINGRAD, 4, game("6S", "A4 B3 C3", "Bw Cw", n=4),
     "A mount +8; B→A 20; C→A 20; D→A 8", "A -108, B 40, C 40, D 28", "a published Leningrad example 108"),
    ("E-S7 (6)", SOCHI, 3, game("6S", "", "Bw Cp"),
     "A pool +2; B→A 4", "A 28/3, B -8/3, C -20/3", "seed-002 p.27 за своими"),
    ("E-S7 (7)", SOCHI, 3, game("7S", "", "Bp Cw"),
     "A pool +4; C→A 4", "A 68/3, B -40/3, C -28/3", "seed-002 p.27 за своими"),
    ("E-S13 (8 down one)", LENINGRAD, 3, game("8S", "A7 B2 C1", "Bw Cw"),
     "A mount +12; B→A 36; C→A 24", "A -140, B 76, C 64", "the Leningrad table"),
    ("E-S13 (short on 9)", LENINGRAD, 3, game("9S", "A10 B0 C0", "Bw Cp"),
     "A pool +8; B mount +8", "A 400/3, B -320/3, C -80/3", "the Leningrad table"),
    ("E-S13 (misère 1)", LENINGRAD, 3, game("misere", "A1 B4 C5"),
     "A mount +20", "A -400/3, B 200/3, C 200/3", "the Leningrad table"),
]


@pytest.mark.parametrize(
    ("case", "rules", "n", "result", "lines", "net", "rule"), CASES, ids=[c[0] for c in CASES]
)
def test_worked_example(
    case: str, rules: Rules, n: int, result: DealResult, lines: str, net: str, rule: str
) -> None:
    entries = score_deal(result, rules)
    assert lines_of(entries) == expected_lines(lines), f"{case} ({rule})"
    got = nets(entries, rules, n)
    assert got == expected_nets(net, n), f"{case} ({rule})"
    assert sum(got) == 0


def test_es1_printed_numbers() -> None:
    """E-S1, Kodeks 3.3.16.3: «52» for the 9 and «7» for the dealer's consolation."""
    nine = nets(score_deal(game("9S", "A9 B1 C0", "Bw Cw", n=4), SOCHI), SOCHI, 4)
    assert nine[0] - Fraction(-8) == 60  # 10·(8 − 8/4) = 60 before the defender's 8 whists
    assert nine[0] == 52
    six = nets(score_deal(game("6S", "A5 B3 C2", "Bw Cw", n=4), SOCHI), SOCHI, 4)
    assert six[3] == 7


def test_es5_all_pass_costs() -> None:
    """E-S5 Skuratov; a published 2-4-6 example: 4 tricks → −30 (own mountain); 2-4-6 step 2, 6 tricks → −140."""
    sheet = Sheet("ABCD")
    sheet.mountain[0] = 4
    assert settle(sheet, LENINGRAD).net[0] == -30
    rules = LENINGRAD.replace(raspas_price=2)
    entries = score_deal(all_pass("A6 B2 C2", n=4), rules, raspas_step=2)
    assert lines_of(entries) == expected_lines("A mount +24; B mount +8; C mount +8")
    assert nets(entries, rules, 4)[0] == -140


def test_es6_dark_game_on_double_bomb() -> None:
    """E-S6 Lesnoy fn. 33: 8-game × double bomb 4 × dark 2 = 48 in the pool and per trick."""
    r = game("8S", "A8 B1 C1", "Bw Cw", multiplier=2, dark_game=True)
    entries = score_deal(r, CLASSIC, bomb=4)
    assert lines_of(entries) == expected_lines("A pool +48; B→A 48; C→A 48")
    assert nets(entries, CLASSIC, 3) == expected_nets("A 224, B -112, C -112", 3)


def test_es6_bombs_through_the_pulka() -> None:
    """E-S6/E-S12 Kodeks 3.3.19: two dark passes give bomb 4, spent on the holder's game."""
    p = Pulka(CLASSIC.replace(pool_target=100), "ABC", first_dealer=2)
    p.all_pass({"A": 2, "B": 4, "C": 4}, multiplier=4, bombs_earned=["A"])
    assert p.bombs == [4, 1, 1]
    assert p.sheet.mountain == [0, 8, 8]  # price 1 × 4 per trick, less the amnesty of 2
    p.game("A", "8S", tricks={"A": 8, "B": 1, "C": 1}, defence={"B": "whist", "C": "whist"},
           multiplier=2)  # fmt: skip
    assert p.sheet.pool[0] == 48 and p.sheet.whists[1][0] == 48
    assert p.bombs == [1, 1, 1]


def test_es8_rounding_kodeks_shift() -> None:
    """E-S8 «Преферанс во всех видах»: +27.5, −102.5, −12.5, +87.5 → +29, −103, −13, +87."""
    net = [Fraction(55, 2), Fraction(-205, 2), Fraction(-25, 2), Fraction(175, 2)]
    assert round_nets(net, "kodeks_shift", [3, 0, 0, 0]) == [29, -103, -13, 87]
    half_up = round_nets(net, "half_up")
    assert sum(half_up) == 0 and all(abs(a - b) <= 1 for a, b in zip(half_up, net, strict=True))


def test_es9_mountain_whists() -> None:
    """E-S9 a published settlement example: the smallest mountain 42 is amnestied; 54 → 180, 90 → 300 whists."""
    zero = [[0] * 3 for _ in range(3)]
    proc = procedural([20, 20, 20], [42, 96, 132], zero, 10, 10)
    assert proc.amnesty == 42
    assert proc.mountain_whists == (0, 180, 300)


def test_es10_whist_netting() -> None:
    """E-S10 «Преферанс для всех» Table 8: A −84, B −40, C +124."""
    w = [[0, 70, 100], [114, 0, 96], [140, 180, 0]]
    proc = procedural([0, 0, 0], [0, 0, 0], w, 10, 10)
    assert proc.pairs[1][0] == 44 and proc.pairs[2][1] == 84 and proc.pairs[2][0] == 40
    assert proc.net == (-84, -40, 124)


@pytest.mark.parametrize(
    ("progression", "prices"), [("arithmetic", [1, 2, 3, 3, 3]), ("geometric", [1, 2, 4, 4, 4])]
)
def test_es11_progression(progression: str, prices: list[int]) -> None:
    """E-S11 Kodeks 3.7.4: 1-2-3 (or 1-2-4) and then the last price for every further all-pass."""
    rules = SOCHI.replace(raspas_progression=progression, pool_target=100)
    p = Pulka(rules, "ABC")
    for price in prices:
        assert p.raspas_step == len(p.results) + 1
        score = p.all_pass({"A": 1, "B": 4, "C": 5})
        # amnesty takes A's 1 trick off everybody: B writes 3 tricks, C 4 at the price
        assert {(e.player, e.amount) for e in score.entries} == {(1, 3 * price), (2, 4 * price)}


def test_es12_dark_pass_price() -> None:
    """E-S12 Kodeks 3.3.19: one dark pass doubles the all-pass, two quadruple it."""
    for mult in (2, 4):
        entries = score_deal(all_pass("A0 B4 C6", multiplier=mult), CLASSIC)
        assert lines_of(entries) == expected_lines(f"A pool +{mult}; B mount +{4 * mult}; "
                                                   f"C mount +{6 * mult}")  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "talon", "whists"),
    [("none", "AS KS", 0), ("aces", "AS 7D", 2), ("aces", "AS AH", 4), ("sure_tricks", "AH KH", 4),
     ("sure_tricks", "KH AS", 2)],
)  # fmt: skip
def test_sold_aces(mode: str, talon: str, whists: int) -> None:
    """«Проданные тузы» (seed-002 p.14, rules.md §9.3 (house agreement)): the 4-handed dealer writes the whist
    price per ace (or sure trick) in the talon on the declarer."""
    from preferans.cards import parse_cards

    rules = SOCHI.replace(dealer_talon_whists=mode)
    r = game("6S", "A6 B2 C2", "Bw Cw", n=4, talon=tuple(int(c) for c in parse_cards(talon)))
    entries = score_deal(r, rules)
    assert sum(e.amount for e in entries if e.player == 3 and e.on == 0) == whists
    assert sum(nets(entries, rules, 4)) == 0


def test_sold_aces_from_a_json_line() -> None:
    from preferans.scoring.scorekeeper import ScoreKeeper

    k = ScoreKeeper(SOCHI.replace(dealer_talon_whists="aces"), ["A", "B", "C", "D"],
                    first_dealer="D")  # fmt: skip
    k.enter('{"game": "7S", "declarer": "A", "defence": {"B": "pass", "C": "pass"}, '
            '"talon": "AS AD"}')  # fmt: skip
    assert k.pulka.sheet.whists[3][0] == 8
    assert k.to_json(k.pulka.results[0])["talon"] == "AS AD"
