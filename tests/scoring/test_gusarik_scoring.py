"""Scoring гусарик, Preferans for two (rules.md §16, Kodeks 3.7.6.4): worked examples by hand.

Two players A and B; the third hand is the dummy (seat 2), a passed partner of whoever
defends: its tricks count for the whister and nothing is written for it.  At n = 2 the closed
formula is ``net_A = k_pool·(P_A − P_B)/2 − k_mount·(M_A − M_B)/2 + W_AB − W_BA``.
"""

from __future__ import annotations

import pytest
from test_program_options import through_keeper

from preferans.errors import ScoreError
from preferans.rules import Rules
from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.seats import DUMMY, active_seats
from scoring_helpers import expected_lines, expected_nets, lines_of

SOCHI = Rules.preset("sochi")
ROSTOV = Rules.preset("rostov")

CASES = [
    # A's 7♠ made (A 7; B and the dummy 3): pool 4 → A +20, B −20; B→A 4·3 = 12 → A 8, B −8.
    ("made", SOCHI, ["A 7S B:w A7"], "A pool +4; B→A 12", "A 8, B -8"),
    # A's 6♠ one down: remiz 2 → A −10, B +10; B writes his side's 5 tricks · 2 and his own
    # consolation 2 — the dummy writes none: B→A 12 → A −22, B +22.
    ("one down", SOCHI, ["A 6S B:w A5"], "A mount +2; B→A 12", "A -22, B 22"),
    # The dummy's tricks given apart count for the whister: the same as B 3.
    ("dummy's tricks", SOCHI, ["A 7S B:w A7 B1 dummy2"], "A pool +4; B→A 12", "A 8, B -8"),
    # B's 6♠ passed by A: written unplayed (Kodeks 4.2.3.2): B pool 2 → B +10, A −10.
    ("not whisted", SOCHI, ["B 6S A:p"], "B pool +2", "A -10, B 10"),
    # All-pass A 4, B 6 (ten tricks of two, the talon and the dummy out): amnesty by 4 →
    # B mountain 2 → A +10, B −10.
    ("all-pass", SOCHI, ["allpass A4 B6"], "B mount +2", "A 10, B -10"),
    # A takes none: A pool +1 (5 to A), B mountain 10 (50 to A): A 55, B −55.
    ("all-pass clean", SOCHI, ["allpass A0 B10"], "A pool +1; B mount +10", "A 55, B -55"),
    # Rostov: the one with fewer tricks writes 5 whists per trick of the other: A→B 30.
    ("rostov all-pass", ROSTOV, ["allpass A4 B6"], "A→B 30", "A 30, B -30"),
    # B's misère clean: B pool 10 → B 50, A −50.
    ("misère", SOCHI, ["B misere 0"], "B pool +10", "A -50, B 50"),
    # «Неделимая гора»: each mountain point is 10 whists to the other: A −20 − 12, B +20 + 12.
    ("indivisible mountain", SOCHI.replace(mountain_divisible=False), ["A 6S B:w A5"], "A mount +2; B→A 12",
     "A -32, B 32"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "rules", "lines", "last", "net"), CASES, ids=[c[0] for c in CASES])
def test_gusarik_worked_example(case: str, rules: Rules, lines: list[str], last: str, net: str) -> None:
    keeper = through_keeper(rules, 2, lines)
    assert lines_of(list(keeper.pulka.sheet.history[-1].entries)) == expected_lines(last), case
    assert list(keeper.pulka.settlement().net) == expected_nets(net, 2), case


def test_rostov_five_five_writes_nothing() -> None:
    keeper = through_keeper(ROSTOV, 2, ["allpass A5 B5"])
    assert keeper.pulka.sheet.history[-1].entries == ()


def test_the_dummy_sits_between_the_players() -> None:
    """The dealer is always a player; first hand never falls on the dummy (rules.md §16)."""
    assert active_seats(0, 2) == (1, DUMMY, 0)
    assert active_seats(1, 2) == (0, 1, DUMMY)
    keeper = through_keeper(SOCHI, 2, ["A 7S B:w A7", "B 6S A:p"])
    assert [r.dealer for r in keeper.pulka.results] == [0, 1] and keeper.pulka.next_dealer == 0


@pytest.mark.parametrize(("line", "match"), [
    ("A 6S B:h", "no half-whist in гусарик"),
    ('{"game": "6S", "declarer": "A", "defence": {"B": "pass"}, "tricks": {"A": 6, "dummy": 4}, "dealer": "C"}',
     "not a player"),
    ("allpass A4 B5", "sum to 10"),
])  # fmt: skip
def test_bad_two_handed_lines_change_nothing(line: str, match: str) -> None:
    k = ScoreKeeper(SOCHI, ["A", "B"])
    with pytest.raises(ScoreError, match=match):
        k.enter(line)
    assert k.pulka.results == []


def test_half_whist_with_the_option() -> None:
    """half_whist_two_handed: B half-whists A's 6♠ and, with nobody to confirm it, writes half
    the quota: 2 × 2 = 4 whists.  A pool 2 → A +10 − 4 = 6, B −6."""
    keeper = through_keeper(SOCHI.replace(half_whist_two_handed=True), 2, ["A 6S B:h"])
    assert lines_of(list(keeper.pulka.sheet.history[-1].entries)) == expected_lines("A pool +2; B→A 4")
    assert list(keeper.pulka.settlement().net) == expected_nets("A 6, B -6", 2)


def test_score_command_for_two(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``preferans score --players A,B``: the made 7♠ and the all-pass above, as text and JSON."""
    from preferans.cli import main

    path = tmp_path / "g.txt"
    path.write_text("A 7S B:w A7\nallpass A4 B6\n", encoding="utf-8")
    assert main(["score", "--players", "A,B", str(path), "--format", "json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["pool"] == {"A": 4, "B": 0} and out["mountain"] == {"A": 0, "B": 2}
    assert out["net"] == {"A": "18", "B": "-18"}
    assert main(["score", "--players", "A,B", str(path), "--svg", str(tmp_path / "s.svg")]) == 0
    svg = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count(">A<") + svg.count(">B<") >= 2
