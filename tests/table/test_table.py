"""The table: a whole pulka of people and bots, save and resume, undo in practice mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from preferans import Deal, Rules
from preferans.engine.result import DealKind
from preferans.errors import IllegalAction, PreferansError
from preferans.record import dumps
from preferans.record import load as load_record
from preferans.table import SaveError, Table, parse_seats

PRESETS = ("sochi", "leningrad", "rostov", "classic", "kodeks")


def play_out(t: Table) -> None:
    while True:
        t.run_bots()
        if t.is_over:
            return
        t.next_deal()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [3, 4])
def test_bots_only_pulka_runs_to_its_end(preset: str, players: int) -> None:
    rules = Rules.preset(preset).replace(pool_target=4)
    t = Table(rules, ["bot:random"] * players, seed=11)
    play_out(t)
    assert t.pulka.is_over and all(p >= 4 for p in t.pulka.sheet.pool)
    assert len(t.pulka.results) == t.deal_number
    assert sum(t.pulka.settlement().net) == 0
    # The dealer and the lowest game of every deal come from the pulka (Kodeks 3.2.2, rules.md §8.3).
    first = t.log[0]
    assert (first.dealer, first.min_level) == (0, 6)


def test_easy_bots_pulka() -> None:
    t = Table(Rules.preset("sochi").replace(pool_target=3), ["bot:easy"] * 3, seed=2, max_deals=6)
    play_out(t)
    assert t.is_over


def test_seeded_games_repeat_exactly() -> None:
    a = Table(Rules.preset("classic"), ["bot:random"] * 3, seed=5, max_deals=4)
    b = Table(Rules.preset("classic"), ["bot:random"] * 3, seed=5, max_deals=4)
    play_out(a)
    play_out(b)
    assert a.to_dict() == b.to_dict()


def test_human_acts_and_bots_answer() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=1)
    assert t.names == ["You", "Left", "Right"]
    t.run_bots()
    assert t.human_to_act == 0
    with pytest.raises(IllegalAction):
        t.act("A♠" if t.deal.phase.value != "bidding" else "whist")
    t.act("pass")
    t.run_bots()
    while not t.deal.is_over:
        assert t.human_to_act == 0
        t.act(t.deal.legal_actions()[0])
        t.run_bots()
    assert len(t.scores) == 1 and t.pulka.results[-1] == t.deal.result


@pytest.mark.parametrize("name", ["game.prf", "game.json"])
def test_save_as_you_go_and_resume(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    t = Table(Rules.preset("leningrad"), ["human", "bot:random", "bot:random"], seed=3, save_path=path,
              practice=True)  # fmt: skip
    for _ in range(40):
        t.run_bots()
        if t.deal.is_over:
            t.next_deal()
            continue
        t.act(t.deal.legal_actions()[-1])
    text = path.read_text()
    assert text.startswith("{" if name.endswith(".json") else "%preferans-record")
    rec = load_record(path)  # the save is a game record that replays on its own
    assert rec.headers["seats"] == "human,bot:random,bot:random" and rec.headers["practice"] == "yes"
    r = Table.load(path)
    assert r.to_dict() == t.to_dict()
    assert r.deal.moves == t.deal.moves and r.pulka.sheet.pool == t.pulka.sheet.pool
    assert r.save_path == path and r.practice


def test_resume_a_record_made_elsewhere(tmp_path: Path) -> None:
    """A record of deals not dealt from this table's seed plays on with its own cards."""
    t = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=1, max_deals=2)
    play_out(t)
    rec = t.to_record()
    foreign = rec.replace(headers={})
    path = tmp_path / "x.prf"
    path.write_text(dumps(foreign))
    r = Table.load(path)
    assert r.seats == ["human", "bot:medium", "bot:medium"]
    assert [d.cards is not None for d in r.log] == [True, True]
    assert r.pulka.sheet.pool == t.pulka.sheet.pool and r.deal.moves == t.deal.moves
    r.next_deal()
    assert r.deal_number == 3


def test_resume_rejects_bad_files(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no saved game"):
        Table.load(tmp_path / "missing.prf")
    bad = tmp_path / "bad.prf"
    bad.write_text("{not a record")
    with pytest.raises(SaveError, match="not a game record"):
        Table.load(bad)
    t = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=1, max_deals=1)
    play_out(t)
    d = t.to_dict()
    d["deals"][0]["actions"][0] = "10NT"
    d["deals"][0]["actions"].insert(0, "whist")
    with pytest.raises(SaveError, match="deal 1, action"):
        Table.from_dict(d)


def test_undo_only_in_practice() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=4)
    t.run_bots()
    t.act("pass")
    with pytest.raises(PreferansError, match="practice"):
        t.undo()
    p = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=4, practice=True)
    p.run_bots()
    before = p.deal.moves
    p.act("pass")
    p.run_bots()
    p.undo()
    assert p.deal.moves == before and p.human_to_act == 0


def test_undo_after_the_last_card_takes_the_deal_off_the_sheet() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=8, practice=True)
    t.run_bots()
    while not t.deal.is_over:
        t.act(t.deal.legal_actions()[0])
        t.run_bots()
    assert len(t.pulka.results) == 1
    t.undo()
    assert not t.deal.is_over and t.pulka.results == [] and t.scores == []


def test_auto_single_plays_forced_cards() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=8, auto_single=True)
    t.run_bots()
    while not t.deal.is_over:
        assert len(t.deal.legal_actions()) > 1 or t.deal.phase.value != "play"
        t.act(t.deal.legal_actions()[0])
        t.run_bots()


def test_hint_names_a_legal_action() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=8, hint_level="easy")
    t.run_bots()
    h = t.hint()
    assert h.action in t.deal.legal_actions() and h.reason


def test_parse_seats() -> None:
    assert parse_seats("bot:hard,bot:medium,bot:easy") == ["bot:hard", "bot:medium", "bot:easy"]
    with pytest.raises(PreferansError, match="neither"):
        parse_seats("human,robot,bot")
    with pytest.raises(PreferansError, match="3 or 4, not 5"):
        parse_seats("human,bot,bot,bot,bot")
    assert parse_seats("human,bot") == ["human", "bot:medium"]  # гусарик (rules.md §16)


def test_overcalled_misere_invitation_is_not_half() -> None:
    """Kodeks 3.6.9: an invitation accepted, then overcalled by a game, leaves a plain game."""
    rules = Rules.preset("sochi")
    deal = Deal.new(rules, players=4, dealer=1, seed=3427635)
    for a in ["invite", "accept", "9NT", "10D", "pass", "pass"]:
        deal.apply(a)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result.kind is DealKind.GAME and not deal.result.misere_half
