"""The scoring options of test_program_options.py played out in the engine: each deal is
dealt, bid, whisted and played card by card to the worked example's tricks, written on a
Pulka, kept as a game record, saved as text and JSON, read back and replayed — the sheet
lines are the hand-computed ones every time."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from preferans import Deal, Phase, Rules
from preferans.record import dumps, loads, record_from_pulka, replay
from preferans.scoring.pulka import Pulka
from scoring_helpers import expected_lines, lines_of

from helpers import deal_with, play

SOCHI = Rules.preset("sochi")
LENINGRAD = Rules.preset("leningrad")


def steer(deal: Deal, target: dict[int, int], budget: int = 3_000) -> bool:
    """Play ``deal`` out (depth first, with undo) so that each seat takes ``target[seat]``
    tricks; a lone whister's choice is answered ``closed``.  A player who still needs tricks
    tries his high cards first, one who needs none his low cards.  False if no line was
    found within ``budget`` positions."""
    nodes = 0

    def ok() -> bool:
        left = 10 - len(deal.completed_tricks)
        return all(deal.tricks_won[s] <= t <= deal.tricks_won[s] + left for s, t in target.items())

    def walk() -> bool:
        nonlocal nodes
        if deal.is_over:
            return all(deal.tricks_won[s] == t for s, t in target.items())
        nodes += 1
        if nodes > budget:
            return False
        if deal.phase is Phase.DEFENCE:
            options = [a for a in deal.legal_actions() if str(a) == "closed"] or list(deal.legal_actions())
        else:
            seat = deal.to_play if deal.to_play is not None else deal.to_act
            wants = seat is not None and target.get(seat, 0) > deal.tricks_won[seat]
            options = sorted(deal.legal_actions(), key=lambda a: a % 8, reverse=wants)
        for a in options:
            deal.apply(a)
            if ok() and walk():
                return True
            deal.undo()
        return False

    return walk()


def played(rules: Rules, players: int, contract: str, calls: str, target: dict[int, int], *,
           hand: str = "", talon: str | None = None) -> Deal:  # fmt: skip
    """A deal where seat 0 (first hand) buys ``contract`` at once, puts the talon back, declares,
    hears ``calls`` and plays to ``target`` (seat → tricks)."""
    dealer = players - 1
    for extra in range(200):  # the free cards go round in a different order each try
        d = deal_with(rules, players=players, dealer=dealer, fixed={0: hand} if hand else None, talon=talon)
        if extra:
            d = _rotated(d, rules, players, dealer, hand, extra)
        play(d, [contract, "pass", "pass"])
        play(d, [str(c) for c in d.talon])  # discard the talon: the hands stay as dealt
        play(d, contract)
        if calls:
            play(d, calls)
        if steer(d, target):
            return d
    raise AssertionError(f"no layout found for {contract} {target}")


def _rotated(d: Deal, rules: Rules, players: int, dealer: int, hand: str, k: int) -> Deal:
    """Another layout with the same fixed hand and talon: the other hands' cards shuffled."""
    import random

    from preferans.cards import cards_of

    rng = random.Random(k)
    fixed = d.hands[0] if hand else 0
    others = [s for s in d.active if s != 0 or not hand]
    pool = [c for s in others for c in cards_of(d.hands[s])]
    rng.shuffle(pool)
    hands = list(d.hands)
    for i, s in enumerate(others):
        hands[s] = sum(1 << c for c in pool[10 * i : 10 * i + 10])
    if hand:
        hands[0] = fixed
    return Deal(rules, hands, d.talon, dealer=dealer, players=players)


def recorded(rules: Rules, deals: list[Deal]) -> Pulka:
    """Write ``deals`` on a Pulka, record them, and check the text and JSON records replay
    to the same sheet lines."""
    names = tuple("ABCD"[: deals[0].players])
    pulka = Pulka(rules, names, first_dealer=deals[0].dealer)
    for d in deals:
        pulka.record(d.result)
    record = record_from_pulka(pulka, deals)
    for fmt in ("text", "json"):
        again = loads(dumps(record, format=fmt))
        replayed = replay(again)
        assert replayed.pulka is not None
        assert [h.entries for h in replayed.pulka.sheet.history] == [h.entries for h in pulka.sheet.history]
    return pulka


def last_lines(pulka: Pulka) -> list[tuple[str, int, int, Fraction]]:
    return lines_of(list(pulka.sheet.history[-1].entries))


def test_checked_ten_failed_remiz_only_in_play() -> None:
    """ten_mode="checked_remiz_only": A's checked 10♠ (no whist calls) played to 9 tricks, B 1,
    C 0 → only A mount +10 (test_checked_ten_failed_writes_the_remiz_only)."""
    rules = SOCHI.replace(ten_mode="checked_remiz_only")
    d = played(rules, 3, "10♠", "", {0: 9, 1: 1, 2: 0}, hand="♠A K Q J 10 9 8 7 ♥A ♦7")
    assert d.result.ten_checked
    assert last_lines(recorded(rules, [d])) == expected_lines("A mount +10")


def test_norm1_second_in_play() -> None:
    """norm1_both_fail="second": 8♠ made with all ten, both whist: C mount +6 only."""
    rules = SOCHI.replace(norm1_both_fail="second")
    d = played(rules, 3, "8♠", "whist, whist", {0: 10, 1: 0, 2: 0}, hand="♠A K Q J 10 9 8 7 ♥A K")
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +6; C mount +6")


def test_own_quota_in_play() -> None:
    """whister_quota="own": 6♠ made exactly, B 0, C 4 → B mount +4; C→A 8."""
    rules = SOCHI.replace(whister_quota="own")
    d = played(rules, 3, "6♠", "whist, whist", {0: 6, 1: 0, 2: 4})
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; B mount +4; C→A 8")


def test_own_last_and_own_if_short_in_play() -> None:
    """whister_quota="own_last": 8♠ made with A 9, B 1, C 0 — the side has its trick, nobody
    pays (``own`` would charge C); "own_if_short": 6♠ made with A 7, B 0, C 3 — the side is one
    short and B pays his own deficit of 2 (``shared``: the side's 1).  rules.md §5.2."""
    rules = SOCHI.replace(whister_quota="own_last")
    d = played(rules, 3, "8♠", "whist, whist", {0: 9, 1: 1, 2: 0}, hand="♠A K Q J 10 9 8 7 ♥K Q",
               talon="♦7 ♦8")
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +6; B→A 6")
    rules = SOCHI.replace(whister_quota="own_if_short")
    d = played(rules, 3, "6♠", "whist, whist", {0: 7, 1: 0, 2: 3})
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; B mount +4; C→A 6")


@pytest.mark.parametrize("quota", ["own_last", "own_if_short"])
def test_new_quotas_reach_the_score_cli_and_the_bots(quota: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """`preferans score --set whister_quota=…` writes the rule's lines, and the bots' whisting
    evaluation (bots.value, scoring's own entries) prices the deal under it: only a call into
    scoring, so a whister who took nothing on a made 6 pays under own_last and not under
    own_if_short when his partner took the side's four."""
    from preferans.actions import Contract
    from preferans.bots.levels import make_bot
    from preferans.bots.value import game_utility
    from preferans.cli import main

    path = tmp_path / "deals.txt"
    path.write_text("A 6S B:w C:w A6 B0\n", encoding="utf-8")
    assert main(["score", str(path), "--set", f"whister_quota={quota}", "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["mountain"]["B"] == (4 if quota == "own_last" else 0)
    rules = SOCHI.replace(whister_quota=quota)
    values = game_utility(rules, players=3, dealer=2, seat=1, declarer=0, contract=Contract(6, 0),
                          calls=("whist", "whist"), split=(0, 0))  # fmt: skip
    assert len(values) == 11
    d = deal_with(rules)
    bots = [make_bot("medium", rules, seed=s) for s in range(3)]
    while not d.is_over:
        seat = d.to_act
        assert seat is not None
        d.apply(bots[seat].act(d.observation(seat)), seat)
    pulka = Pulka(rules, ("A", "B", "C"), first_dealer=d.dealer)
    pulka.record(d.result)
    assert sum(pulka.settlement().net) == 0


def test_leningrad_talon_bonus_in_play() -> None:
    """dealer_talon_whists="leningrad", 4 players: talon A♥ K♥ → D→A 2 × 4 = 8 besides the game."""
    rules = LENINGRAD.replace(dealer_talon_whists="leningrad")
    d = played(rules, 4, "6♠", "whist, whist", {0: 6, 1: 2, 2: 2}, talon="A♥ K♥")
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; B→A 8; C→A 8; D→A 8")


def test_bez_trekh_not_offered_above_its_level() -> None:
    """bez_trekh_max_level=7: the declarer of a 7 may concede three; of an 8 he must play."""
    rules = SOCHI.replace(bez_trekh=True, bez_trekh_max_level=7)
    for contract, offered in (("7♠", True), ("8♠", False)):
        d = deal_with(rules)
        play(d, [contract, "pass", "pass"])
        play(d, [str(c) for c in d.talon])
        play(d, [contract, "whist", "pass"])
        assert ("concede-3" in [str(a) for a in d.legal_actions()]) is offered
        if not offered:
            assert d.phase is not Phase.CONCESSION


@pytest.mark.parametrize("made", [False, True])
def test_series_after_a_failed_game_in_play(made: bool) -> None:
    """exit_requires_made_game: an all-pass (dealer B), then A's 6♠ failed (5 tricks) or made
    (6) with C dealing: the series goes on only after the failure."""
    rules = SOCHI.replace(exit_requires_made_game=True)
    first = deal_with(rules, dealer=1)
    play(first, "pass, pass, pass")
    while not first.is_over:
        first.apply(first.legal_actions()[0])
    second = played(rules, 3, "6♠", "whist, whist", {0: 6 if made else 5, 1: 2, 2: 2 if made else 3})
    pulka = recorded(rules, [first, second])
    assert pulka.raspas_series == (0 if made else 1)


def unwhisted(rules: Rules, dealer: int, declarer: int, contract: str) -> Deal:
    """A deal where ``declarer`` buys ``contract`` and both opponents pass it (no play)."""
    d = deal_with(rules, dealer=dealer)
    while d.phase is Phase.BIDDING:
        play(d, contract if d.to_act == declarer else "pass")
    play(d, [str(c) for c in d.talon])
    play(d, [contract, "pass", "pass"])
    return d


@pytest.mark.parametrize("target", ["highest_pool", "lowest_pool"])
def test_help_target_through_a_record(target: str) -> None:
    """test_help_goes_to_the_highest_open_pool played in the engine: A 9♠, C 8♠, B 6♠, A 7♠,
    none whisted (dealers C, A, B, C): A's surplus 2 helps C (highest) or B (lowest)."""
    rules = SOCHI.replace(pool_target=10, help_target=target, end_condition="agreement")
    deals = [unwhisted(rules, 2, 0, "9♠"), unwhisted(rules, 0, 2, "8♠"), unwhisted(rules, 1, 1, "6♠"),
             unwhisted(rules, 2, 0, "7♠")]  # fmt: skip
    helped = "C" if target == "highest_pool" else "B"
    assert last_lines(recorded(rules, deals)) == expected_lines(f"A pool +2; {helped} pool +2; A→{helped} 20")


def test_first_defender_half_whist_in_play() -> None:
    """first_defender_half_whist: A's 6♠, B (first defender) whists, C passes; B is asked again
    and falls back: not played, B→A 4 (test_first_defender_falls_back_to_half_whist)."""
    rules = SOCHI.replace(first_defender_half_whist=True)
    d = deal_with(rules, dealer=2)
    play(d, ["6♠", "pass", "pass"])
    play(d, [str(c) for c in d.talon])
    play(d, "6♠, whist, pass")
    assert d.phase is Phase.WHIST and d.to_act == 1
    assert [str(a) for a in d.legal_actions()] == ["whist", "half-whist"]
    play(d, "half-whist")
    assert d.is_over
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; B→A 4")


def test_played_half_whist_in_play() -> None:
    """half_whist_played: pass, half-whist, pass on A's 6♠ — C defends alone (he chooses open
    or closed), A takes 9: C→A 2, C mount +2 (test_played_half_whist)."""
    rules = SOCHI.replace(half_whist_played=True)
    d = played(rules, 3, "6♠", "pass, half-whist, pass", {0: 9, 1: 0, 2: 1})
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; C→A 2; C mount +2")


@pytest.mark.parametrize(("tricks", "written"), [(6, "A pool +2; D→A 8"), (5, "A mount +2; D→A 16")])
def test_dealer_whist_in_play(tricks: int, written: str) -> None:
    """dealer_whist, 4 players: B and C pass A's 6♠, D (the dealer) whists; both defending
    hands lie open and D plays them (test_dealer_whist)."""
    rules = SOCHI.replace(dealer_whist=True)
    d = deal_with(rules, players=4, dealer=3)
    play(d, ["6♠", "pass", "pass"])
    play(d, [str(c) for c in d.talon])
    play(d, "6♠, pass, pass")
    assert d.phase is Phase.WHIST and d.to_act == 3 and [str(a) for a in d.legal_actions()] == ["pass", "whist"]
    play(d, "whist")
    assert set(d.exposed) == {1, 2}
    d.apply(d.legal_actions()[0])  # A leads
    assert d.to_play == 1 and d.to_act == 3  # the dealer plays B's card
    d = played(rules, 4, "6♠", "pass, pass, whist", {0: tricks, 1: 2, 2: 8 - tricks})
    assert d.result.dealer_whist
    assert last_lines(recorded(rules, [d])) == expected_lines(written)


def test_dealer_may_pass_and_the_game_is_written_unplayed() -> None:
    """dealer_whist: the dealer passes too — the game is written as made without play."""
    rules = SOCHI.replace(dealer_whist=True)
    d = deal_with(rules, players=4, dealer=3)
    play(d, ["7♠", "pass", "pass"])
    play(d, [str(c) for c in d.talon])
    play(d, "7♠, pass, pass, pass")
    assert d.is_over and not d.result.dealer_whist
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +4")


def test_talon_shown_by_the_dealer_in_play() -> None:
    """dealer_shown_talon_whists=2: the dealer D reports showing the talon during the auction;
    everybody sees it, the auction goes on, and A's 6♠ made writes A→D 8 besides the game."""
    rules = LENINGRAD.replace(dealer_shown_talon_whists=2, irregularity_reports=True)
    layout = played(rules, 4, "6♠", "whist, whist", {0: 6, 1: 2, 2: 2})  # cards that make the 6 6-2-2
    hands, talon = layout.initial_hands, layout.initial_talon
    d = Deal(rules, hands, talon, dealer=3, players=4)
    d.report("!talon-exposed", seat=3)
    assert d.phase is Phase.BIDDING and d.to_act == 0  # the deal goes on
    assert all(d.observation(s).talon == tuple(talon) for s in range(4))
    play(d, ["6♠", "pass", "pass"])
    play(d, [str(c) for c in d.talon])
    play(d, "6♠, whist, whist")
    assert steer(d, {0: 6, 1: 2, 2: 2})
    assert d.result.talon_shown_by_dealer
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +2; B→A 8; C→A 8; A→D 8")
    d.undo()
    while d.moves:
        d.undo()
    assert not d._talon_shown_by_dealer and d.talon_shown == 0  # undo takes it back


def test_totus_in_play() -> None:
    """totus=True: first hand bids totus; the others may only pass; he declares any 10 (here
    10♠, checked in Sochi), takes all ten: A pool +10 +5 (test_totus_made_writes_the_bonus)."""
    rules = SOCHI.replace(totus=True)
    d = deal_with(rules, dealer=2, fixed={0: "♠A K Q J 10 9 8 7 ♥A K"})
    assert "totus" in [str(a) for a in d.legal_actions()]
    play(d, "totus")
    assert [str(a) for a in d.legal_actions()] == ["pass"]
    play(d, "pass, pass")
    play(d, [str(c) for c in d.talon])
    assert [str(a) for a in d.legal_actions()] == ["10♠", "10♣", "10♦", "10♥", "10NT"]
    play(d, "10♠")
    assert d.contract is not None and d.contract.totus and str(d.contract) == "10♠ totus"
    assert steer(d, {0: 10})
    assert last_lines(recorded(rules, [d])) == expected_lines("A pool +15")
    assert "totus" not in [str(a) for a in deal_with(SOCHI).legal_actions()]


def test_sheet_lines_go_into_records() -> None:
    """Lines written by hand between two engine deals are kept in the record (``sheet: by
    hand`` in the text form, ``"sheet": true`` in JSON) and replay onto the same sheet; the
    second deal is dealt by the next dealer as if the lines were not there."""
    rules = SOCHI
    first = unwhisted(rules, 2, 0, "7♠")
    second = unwhisted(rules, 0, 1, "6♠")
    pulka = Pulka(rules, "ABC", first_dealer=2)
    pulka.record(first.result)
    pulka.write([("pool", "B", 3), ("whists", "C", "7/2", "A")])
    pulka.record(second.result)
    record = record_from_pulka(pulka, [first, second])
    text = dumps(record)
    assert "sheet: by hand" in text and "score: C whists on A 7/2 sheet" in text
    for fmt in ("text", "json"):
        again = replay(loads(dumps(record, format=fmt)))
        assert again.pulka is not None
        assert [h.entries for h in again.pulka.sheet.history] == [h.entries for h in pulka.sheet.history]
        assert len(again.deals) == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [("surplus_lost", True), ("mountain_shared_among", "others"), ("rounding", "per_transfer"),
     ("k_mount", "40/3")],
)  # fmt: skip
@pytest.mark.parametrize("players", [3, 4])
def test_settlement_options_go_through_records(field: str, value: object, players: int) -> None:
    """The options that change only the settlement (items 11–13; their worked examples are in
    test_program_options.py) through records: a pulka of random bots under the option is saved
    as text and as JSON, read back and replayed — the record names the option's value, and the
    replayed sheet settles to the same exact and rounded nets as the table's."""
    from preferans.table import Table

    rules = SOCHI.replace(pool_target=3, **{field: value})
    table = Table(rules, ["bot:random"] * players, seed=3, max_deals=12)
    while not table.is_over:
        table.run_bots()
        if table.deal.is_over and not table.is_over:
            table.next_deal()
    expected = table.pulka.settlement()
    for fmt in ("text", "json"):
        again = loads(dumps(table.to_record(), format=fmt))
        assert getattr(again.rules, field) == getattr(rules, field)
        replayed = replay(again).pulka
        assert replayed is not None
        got = replayed.settlement()
        assert (got.net, got.rounded) == (expected.net, expected.rounded)
