"""Post-game analysis: values checked against the brute-force reference, losses, whists, CLI."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from preferans import Deal, Rules
from preferans.cli import main
from preferans.engine.result import DealKind
from preferans.record import load, record_from_deals
from preferans.rulings.analysis import analyze, analyze_deal
from preferans.scoring.pulka import Pulka
from preferans.solver import Position
from solver_reference import reference_value

GOLDEN = Path(__file__).parents[1] / "golden" / "records"


def played(rules: Rules, seed: int, players: int = 3, opening: tuple[str, ...] = ()) -> Deal:
    rng = random.Random(seed)
    d = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
    for a in opening:
        d.apply(a)
    while not d.is_over:
        d.apply(rng.choice(d.legal_actions()))
    return d


def deals_with_play(kind: DealKind, n: int, rules: Rules, players: int = 3) -> list[Deal]:
    opening = {DealKind.ALL_PASS: ("pass",) * 3, DealKind.MISERE: ("misere", "pass", "pass")}.get(kind, ())
    out: list[Deal] = []
    seed = 0
    while len(out) < n:
        seed += 1
        d = played(rules, seed, players, opening)
        if d.kind == kind and len(d.completed_tricks) == 10:
            out.append(d)
    return out


@pytest.mark.parametrize(
    "kind, preset, players",
    [
        (DealKind.GAME, "sochi", 3),
        (DealKind.MISERE, "sochi", 3),
        (DealKind.ALL_PASS, "sochi", 3),  # talon leads name the suit
        (DealKind.ALL_PASS, "leningrad", 4),  # the talon card takes part
        (DealKind.ALL_PASS, "rostov", 3),  # no talon leads
    ],
)
def test_values_agree_with_the_reference_minimax(kind: DealKind, preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    for deal in deals_with_play(kind, 4, rules, players):
        a = analyze_deal(deal, contract_table=False)
        assert len(a.cards) == 30
        # replay and check every card of the last five tricks against plain minimax
        d = Deal(rules, deal.initial_hands, deal.talon, dealer=deal.dealer, players=players)
        i = 0
        for seat, act in deal.moves:
            if d.phase.value == "play" and act < 32:
                c = a.cards[i]
                i += 1
                assert int(c.card) == int(act) and c.seat == d.to_play
                if d.trick_number >= 5:
                    pos = Position.from_deal(d, player=c.focus if kind == DealKind.ALL_PASS else None)
                    assert c.before == d.tricks_won[c.focus] + reference_value(pos)
            d.apply(act, seat)
        # the value after a card is the value before the next one (same focus player)
        if kind != DealKind.ALL_PASS:
            for x, y in zip(a.cards, a.cards[1:], strict=False):
                assert x.after == y.before
            assert deal.declarer is not None
            assert a.cards[-1].after == deal.result.tricks[deal.declarer]
        for c in a.cards:
            assert (c.loss == 0) == (c.card in c.best)
            assert c.loss >= 0 and c.whists >= 0
            assert c.loss or not c.whists


def _eight_spades() -> Deal:
    deal = Deal.from_cards(
        Rules.preset("sochi"),
        hands=["♠A K Q J 10 9 ♣A K ♦A 7", "♣Q J 10 9 ♦K Q J 10 ♥A K", "♣8 7 ♦9 8 ♥Q J 10 9 ♠8 7"],
        talon="♥8 7",
        dealer=2,
    )
    for a in ("8♠", "pass", "pass", "7♥", "8♥", "8♠", "whist", "whist"):
        deal.apply(a)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_a_defender_throwing_his_guard_loses_a_trick_and_its_whists() -> None:
    deal = _eight_spades()
    a = analyze_deal(deal)
    [err] = a.errors
    assert (err.trick, err.seat, str(err.card), err.before, err.after, err.loss) == (7, 1, "Q♦", 9, 10, 1)
    assert {str(c) for c in err.best} == {"K♥", "A♥"}
    # the whists: Boris's settled balance if the declarer had made 9, minus with 10 — through a Pulka
    rules = deal.rules

    def net(declarer_tricks: int) -> Fraction:
        p = Pulka(rules, 3)
        boris = 10 - declarer_tricks  # the lost trick was Boris's
        r = dataclasses.replace(deal.result, tricks={0: declarer_tricks, 1: boris, 2: 0})
        p.record(r)
        return p.settlement().net[1]

    assert err.whists == net(9) - net(10) > 0
    # the contract table: 8♠ was what he could make at most in spades with this talon
    assert a.table is not None and a.table_seat == 0 and a.table.tricks[0] == 9


def test_analyze_a_record_skips_deals_with_unknown_cards() -> None:
    view = analyze(load(GOLDEN / "vera-view.prf"), contract_table=False)
    assert [d.skipped for d in view.deals] == ["some cards are unknown (??)"] * 2
    done: list[tuple[int, int]] = []
    full = analyze(load(GOLDEN / "sochi-pulka.prf"), contract_table=False, progress=lambda i, n: done.append((i, n)))
    assert done == [(i, 6) for i in range(1, 7)]
    kinds = [d.kind for d in full.deals]
    assert kinds == ["game", "not_played", "not_played", "misere", "all_pass", "game"]
    assert [len(d.cards) for d in full.deals] == [30, 0, 0, 30, 30, 30]
    summary = {s.name: s for s in full.summary}
    assert sum(s.cards for s in summary.values()) == 120
    assert sum(s.errors for s in summary.values()) == sum(len(d.errors) for d in full.deals)
    data = json.loads(json.dumps(full.to_dict(), ensure_ascii=False))
    assert data["deals"][0]["cards"][0]["card"] == "A♠" and data["summary"][0]["player"] == "Anna"
    text = full.text(all_cards=False)
    assert "Deal 4 (dealer Anna): Boris misère" in text and "Summary" in text
    for s in summary.values():  # plural forms: "1 error", "0 errors" (issue 16)
        line = next(x for x in text.splitlines() if x.strip().startswith(s.name + " "))
        assert f" {s.errors} {'error' if s.errors == 1 else 'errors'} " in line, line
    assert " 1 errors" not in text and " 1 tricks" not in text


def test_independent_deals_are_priced_by_score_deal() -> None:
    rules = Rules.preset("leningrad")
    deals = deals_with_play(DealKind.GAME, 2, rules)
    a = analyze(record_from_deals(deals), contract_table=False)
    assert all(c.whists > 0 for d in a.deals for c in d.cards if c.loss)


# ------------------------------------------------------------------------------ command line
def test_cli_analyze_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(GOLDEN / "classic-dark.prf")
    assert main(["analyze", path, "--deal", "2", "--errors-only"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("Deal 2 (dealer Boris): Vera 6♠") and "contract table of Vera" in out.out
    assert "analysing: deal" in out.err
    assert main(["analyze", path, "--format", "json", "--no-table", "--quiet"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert [d["kind"] for d in data["deals"]] == ["all_pass", "game", "game"] and out.err == ""
    assert main(["analyze", path, "--deal", "9"]) == 2


def test_cli_replay_all_and_stepping(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(GOLDEN / "leningrad-4p.prf")
    assert main(["replay", path, "--all"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1 — dealer Anna" in out and "auction   Boris    invite" in out and "→ nobody takes" not in out
    assert "sheet: Boris mountain 40 (misere); Anna mountain 40 (misere)" in out
    assert "Sheet after the record:" in out and "settlement:" in out
    commands = iter(["n", "n", "p", "e", "d 2", "", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(commands))
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "action 1/" in out and "last: Boris invite" in out and "last: Anna accept" in out
    assert "result: Boris misere" in out and "— deal 2/4" in out


def test_cli_replay_reports_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.prf"
    bad.write_text("%preferans-record 1\nplayers: A\n", encoding="utf-8")
    assert main(["replay", str(bad), "--all"]) == 2
    assert f"{bad}:2: players: give 2, 3 or 4 distinct names" in capsys.readouterr().err


def test_cli_lenient_and_several_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (GOLDEN / "sochi-pulka.prf").read_text(encoding="utf-8")
    broken = text.replace("trick 2: 9♥ A♥ K♥", "trick 2: 9♥ K♥ A♥", 1)  # Anna cannot follow with K♥ … it is Vera's
    path = tmp_path / "two.prf"
    path.write_text(broken + "\n" + (GOLDEN / "classic-dark.prf").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["analyze", str(path), "--no-table", "--quiet"]) == 2
    assert f"{path}:" in capsys.readouterr().err
    assert main(["analyze", str(path), "--no-table", "--quiet", "--lenient", "--format", "json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["deals"][0]["skipped"] == "the deal does not replay" and len(data["deals"]) == 6
    assert "warning: " in out.err and "record 1 of 2" in out.err
    assert main(["replay", str(path), "--record", "2", "--all"]) == 0
    assert "Classic with dark games" in capsys.readouterr().out
    assert main(["replay", str(path), "--record", "3", "--all"]) == 2


def test_cli_replay_from_one_seat_hides_the_others(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(GOLDEN / "sochi-pulka.prf")
    assert main(["replay", path, "--all", "--seat", "Anna", "--deal", "2"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1 " not in out and "Anna     ♠J 10 9 ♣A 9 ♦A K ♥10 9 8" in out
    assert "Vera     ?? ?? ?? ?? ?? ?? ?? ?? ?? ??" in out
    commands = iter(["n"] * 12 + ["q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(commands))
    assert main(["replay", path, "--seat", "Anna"]) == 0
    out = capsys.readouterr().out
    assert "Vera     ?? ?? ?? ?? ?? ?? ?? ?? ?? ??  (whist)" in out  # before she lies down
    assert "▶ Vera     ♠9 8 ♣Q J 10 9 ♦K Q J ♥A  (whist, 0 tricks)" in out  # after: open play (seed-002 p.28)
