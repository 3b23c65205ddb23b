"""Game records: round trips, replay of every state and the sheet, unknown cards, lenient reading."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans import Deal, Rules
from preferans.record import (
    GameRecord,
    RecordError,
    deal_record,
    dump,
    dumps,
    from_json,
    load,
    loads,
    loads_all,
    record_from_deal,
    record_from_deals,
    record_from_pulka,
    record_from_table,
    replay,
    replay_deal,
    states,
    to_json,
)
from preferans.scoring.pulka import Pulka

PRESETS = Rules.PRESET_NAMES


def random_deal(rules: Rules, players: int, dealer: int, seed: int, *, finish: bool = True,
                min_level: int = 6) -> Deal:
    rng = random.Random(seed)
    d = Deal.new(rules, players=players, dealer=dealer, seed=seed, min_level=min_level)
    stop = None if finish else rng.randrange(0, 45)
    while not d.is_over and (stop is None or len(d.moves) < stop):
        d.apply(rng.choice(d.legal_actions()))
    return d


def random_pulka(preset: str, players: int, seed: int, deals: int = 8) -> tuple[Pulka, list[Deal]]:
    rules = Rules.preset(preset)
    p = Pulka(rules, ("Anna", "Boris", "Vera", "Gleb")[:players], first_dealer=seed % players)
    rng = random.Random(seed)
    played: list[Deal] = []
    for _ in range(deals):
        if p.is_over:
            break
        d = random_deal(rules, players, p.next_dealer, rng.randrange(1 << 30), min_level=p.min_level)
        p.record(d.result)
        played.append(d)
    return p, played


def signature(deal: Deal) -> tuple[object, ...]:
    return (deal._save(), deal.moves, deal.legal_actions())


# ------------------------------------------------------------------------------ round trips
@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    players=st.sampled_from((3, 4)),
    seed=st.integers(0, 10**6),
    finish=st.booleans(),
)
def test_deal_round_trip_and_every_state(preset: str, players: int, seed: int, finish: bool) -> None:
    rules = Rules.preset(preset)
    deal = random_deal(rules, players, seed % players, seed, finish=finish)
    rec = record_from_deal(deal, headers={"event": "hypothesis", "date": "2026-11-29"})
    text = dumps(rec)
    back = loads(text)
    assert back == rec
    assert dumps(back) == text  # writing is canonical
    assert loads(dumps(rec, format="json")) == rec
    # every state along the way is the engine's own
    original = Deal(rules, deal.initial_hands, deal.talon, dealer=deal.dealer, players=players)
    sigs = [signature(original)]
    for seat, a in deal.moves:
        original.apply(a, seat)
        sigs.append(signature(original))
    assert [signature(s) for s in states(back.deals[0], back.rules)] == sigs
    rebuilt = replay_deal(back.deals[0], back.rules)
    assert rebuilt.moves == deal.moves
    if deal.is_over:
        assert rebuilt.result == deal.result


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.sampled_from((3, 4)), seed=st.integers(0, 10**6))
def test_pulka_round_trip_reproduces_the_sheet(preset: str, players: int, seed: int) -> None:
    pulka, deals = random_pulka(preset, players, seed)
    rec = record_from_pulka(pulka, deals, headers={"event": "club", "site": "Sochi", "extra tag": "kept"})
    back = loads(dumps(rec))
    assert back == rec
    assert loads(dumps(rec, format="json")) == rec
    rep = replay(back)
    assert rep.pulka is not None
    assert rep.pulka.sheet.pool == pulka.sheet.pool
    assert rep.pulka.sheet.mountain == pulka.sheet.mountain
    assert rep.pulka.sheet.whists == pulka.sheet.whists
    assert [h.entries for h in rep.pulka.sheet.history] == [h.entries for h in pulka.sheet.history]
    assert rep.pulka.settlement().net == pulka.settlement().net
    assert [d.result for d in rep.deals] == [d.result for d in deals]


def test_records_follow_one_another_in_a_file(tmp_path: object) -> None:
    a = record_from_deal(random_deal(Rules.preset("sochi"), 3, 0, 1))
    b = record_from_deal(random_deal(Rules.preset("rostov"), 4, 2, 2))
    both = loads_all(dumps(a) + "\n" + dumps(b))
    assert both == [a, b]
    assert loads_all(json.dumps([to_json(a), to_json(b)])) == [a, b]


def test_dump_and_load_files(tmp_path: object) -> None:
    from pathlib import Path

    base = Path(str(tmp_path))
    rec = record_from_deals([random_deal(Rules.preset("kodeks"), 3, i, i) for i in range(3)],
                            names=("Анна", "Борис", "Вера"))
    dump(rec, base / "g.prf")
    dump(rec, base / "g.json")
    assert (base / "g.json").read_text(encoding="utf-8").startswith("{")
    assert load(base / "g.prf") == load(base / "g.json") == rec
    with open(base / "g.prf", encoding="utf-8") as f:
        assert load(f) == rec


def test_names_with_spaces_and_prefixes_of_each_other() -> None:
    pulka, deals = random_pulka("sochi", 3, 11)
    names = ("Ann", "Ann Maria", "Vera")
    p2 = Pulka(pulka.rules, names, first_dealer=pulka.first_dealer)
    for d in deals:
        p2.record(d.result)
    rec = record_from_pulka(p2, deals)
    assert loads(dumps(rec)) == rec


def test_rules_are_complete_in_the_record() -> None:
    rules = Rules.preset("classic").replace(pool_target=30, half_whist_levels=frozenset(), game_values=(2, 4, 6, 8, 12))
    rec = GameRecord(players=("A", "B", "C"), rules=rules)
    text = dumps(rec)
    assert "rule half_whist_levels: -" in text and "rule pool_target: 30" in text
    assert loads(text).rules == rules
    # a record replays on its own whatever the preset's defaults become
    text2 = text.replace("rules: classic", "rules: sochi")
    assert loads(text2).rules == rules.replace(name="sochi")


def test_deal_record_keeps_stages() -> None:
    d = Deal.new(Rules.preset("sochi"), seed=7)
    for a in ("6♠", "pass", "pass", "K♥", "J♦", "6♠", "whist", "pass", "A♠", "open"):
        d.apply(a)
    r = deal_record(d)
    assert r.stages[-2:] == ("play", "play")  # «open» after the first lead stands in the trick
    text = dumps(record_from_deal(d))
    assert "trick 1: A♠ open" in text


# ------------------------------------------------------------------------------ unknown cards
@settings(max_examples=100, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.sampled_from((3, 4)), seed=st.integers(0, 10**6),
       viewer=st.integers(0, 3))
def test_unknown_cards_are_filled_in_from_the_play(preset: str, players: int, seed: int, viewer: int) -> None:
    rules = Rules.preset(preset)
    deal = random_deal(rules, players, seed % players, seed)
    full = deal_record(deal)
    viewer %= players
    hidden_discard = deal.declarer != viewer
    masked = dataclasses.replace(
        full,
        hands=tuple(h if s == viewer else 0 for s, h in enumerate(full.hands)),
        unknown=tuple(0 if s == viewer or s not in full.active else 10 for s in range(players)),
        actions=tuple(None if st == "discard" and hidden_discard else a
                      for a, st in zip(full.actions, full.stages, strict=True)),
    )
    rec = GameRecord(players=tuple("ABCD"[:players]), rules=rules, deals=(masked,), scored=False)
    back = loads(dumps(rec))
    assert back == rec
    rebuilt = replay_deal(back.deals[0], rules)
    assert rebuilt.result == deal.result
    played = [(s, a) for s, a in rebuilt.moves if rebuilt.phase.value]  # every seat as in the game
    assert [s for s, _ in played] == [s for s, _ in deal.moves]


# ------------------------------------------------------------------------------ errors
def _base_text() -> str:
    pulka, deals = random_pulka("sochi", 3, 5, deals=3)
    return dumps(record_from_pulka(pulka, deals))


def _line_of(text: str, start: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith(start):
            return i
    raise AssertionError(start)


def test_lenient_reader_collects_errors_and_goes_on() -> None:
    text = _base_text()
    lines = text.splitlines()
    first_hand = _line_of(text, "hand ")
    lines[first_hand - 1] = lines[first_hand - 1] + " ♠Z"
    bad_rule = _line_of(text, "rule pool_target")
    lines[bad_rule - 1] = "rule pool_target: lots"
    lines.insert(_line_of(text, "deal 2"), "colour: blue")
    bad = "\n".join(lines) + "\n"
    rec = loads(bad, lenient=True, source="club.prf")
    reasons = [str(e) for e in rec.errors]
    assert any(f"club.prf:{bad_rule}: pool_target" in r for r in reasons), reasons
    assert any(f"club.prf:{first_hand}: hand of" in r for r in reasons), reasons
    assert any("unknown line 'colour'" in r for r in reasons), reasons
    assert len(rec.deals) == 3  # the reader went on
    try:
        loads(bad, source="club.prf")
    except RecordError as e:
        assert e.source == "club.prf" and e.line == bad_rule
    else:  # pragma: no cover
        raise AssertionError("the strict reader must raise")


def test_lenient_check_skips_a_broken_deal_and_stops_checking_the_sheet() -> None:
    text = _base_text()
    line = _line_of(text, "score: ")
    lines = text.splitlines()
    lines[line - 1] = lines[line - 1].rsplit(" ", 2)[0] + " 99 game"
    rec = loads("\n".join(lines), lenient=True)
    assert len(rec.errors) == 1 and "score:" in rec.errors[0].reason and "the record says" in rec.errors[0].reason


def test_json_errors_name_the_field() -> None:
    rec = record_from_deal(random_deal(Rules.preset("sochi"), 3, 0, 3))
    data = to_json(rec)
    data["deals"][0]["actions"][0]["stage"] = "bidding"
    try:
        from_json(data, source="g.json")
    except RecordError as e:
        assert str(e).startswith("g.json: deals[0]: actions[0].stage: 'bidding' is not one of auction")
    else:  # pragma: no cover
        raise AssertionError
    try:
        loads('{"format": "preferans-record", ', source="g.json")
    except RecordError as e:
        assert "not valid JSON" in str(e) and e.line == 1


# ------------------------------------------------------------------------------ irregularities and claims
def _irregular_deals() -> list[Deal]:
    rules = Rules.preset("kodeks")
    seen = Deal.new(rules, seed=3)
    seen.report("!talon-seen", 2)  # Kodeks 3.3.16: seat 2 loses the right to bid
    seen.report("!out-of-turn 7♦", 0)  # Kodeks 3.3.18
    for a in ("6♠", "pass", "8♠", "10♠", "6♠", "whist", "whist", "play"):
        seen.apply(a)
    while seen.trick_number < 1 or seen.phase.value == "lead_penalty":
        seen.apply(seen.legal_actions()[0])
    claimer = seen.to_play
    assert claimer is not None
    seen.claim(claimer, 2)
    while not seen.is_over:
        seen.apply(seen.legal_actions()[0])
    taken = Deal.new(rules, seed=4)
    taken.report("!talon-taken", 1)  # Kodeks 3.3.17: the dealer draws two cards back
    while not taken.is_over:
        taken.apply(taken.legal_actions()[0])
    misdeal = Deal.new(rules, seed=5)
    misdeal.report("!misdeal", 2)
    return [seen, taken, misdeal]


def test_irregularities_and_claims_are_recorded_with_who_made_them() -> None:
    deals = _irregular_deals()
    rec = record_from_deals(deals, names=("Anna", "Boris", "Vera"))
    text = dumps(rec)
    for line in ("report: Vera talon-seen", "report: Anna out-of-turn 7♦", "claim: Vera 2",
                 "report: Boris talon-taken", "report: Vera misdeal"):
        assert line in text, line
    assert "redraw: " in text and "trick 2: require" in text and "trick 2: accept" in text
    back = loads(text)
    assert back == rec and loads(dumps(rec, format="json")) == rec
    for d, r in zip(deals, back.deals, strict=True):
        rebuilt = replay_deal(r, back.rules)
        assert rebuilt.moves == d.moves and rebuilt.result == d.result
        assert [signature(s) for s in states(r, back.rules)][-1] == signature(d)


def test_a_report_names_a_player_and_an_irregularity() -> None:
    text = dumps(record_from_deals(_irregular_deals()[:1]))
    with pytest.raises(RecordError, match="report: 'talon-sneaked' is not an irregularity"):
        loads(text.replace("report: C talon-seen", "report: C talon-sneaked"))
    with pytest.raises(RecordError, match="report: expected a player's name"):
        loads(text.replace("report: C talon-seen", "report: Z talon-seen"))
    with pytest.raises(RecordError, match="claim: write 'NAME TRICKS'"):
        loads(text.replace("claim: C 2", "claim: C two"))


def test_a_deal_that_wrote_nothing_keeps_its_empty_score() -> None:
    rules = Rules.preset("kodeks")
    p = Pulka(rules, ("Anna", "Boris", "Vera"))
    void = Deal.new(rules, seed=5, dealer=p.next_dealer)
    void.report("!misdeal", 2)  # seed-002 p.12: no score, the same dealer deals again
    p.record(void.result)
    again = random_deal(rules, 3, p.next_dealer, 6)
    p.record(again.result)
    rec = record_from_pulka(p, [void, again])
    text = dumps(rec)
    assert "report: Vera misdeal\nscore: -\n" in text
    assert loads(text) == rec and rec.deals[0].entries == ()
    assert rec.deals[1].dealer == 0  # the same dealer deals again


def test_a_table_game_saves_as_a_record() -> None:
    from preferans.table import Table

    table = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=11, max_deals=5)
    table.run_bots()
    while not table.is_over:
        table.next_deal()
        table.run_bots()
    rec = record_from_table(table, headers={"event": "bots"})
    assert len(rec.deals) == len(table.pulka.results) == 5
    back = loads(dumps(rec))
    assert back == rec and back.players == tuple(table.names)
    rep = replay(back)
    assert rep.pulka is not None and rep.pulka.sheet.pool == table.pulka.sheet.pool


# ------------------------------------------------------------------------------ robustness
_BASE_RECORD: list[str] = []


def _base_lines() -> list[str]:
    if not _BASE_RECORD:
        pulka, deals = random_pulka("sochi", 3, 21, deals=3)
        _BASE_RECORD.extend(dumps(record_from_pulka(pulka, deals)).splitlines())
    return list(_BASE_RECORD)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_damaged_records_raise_record_errors_only(data: st.DataObject) -> None:
    lines = _base_lines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["drop", "dup", "swap", "cut", "noise", "token"]))
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif kind == "noise":
            lines[i] = data.draw(st.text(max_size=30))
        else:
            words = lines[i].split(" ")
            k = data.draw(st.integers(0, len(words) - 1))
            words[k] = data.draw(st.sampled_from(["??", "-", "10", "A♠", "7♠", "pass", "whist", "open", "Anna", "",
                                                  "on", "[7♦]", "dark-pass", "claim", "0/0", "1/2"]))
            lines[i] = " ".join(words)
    text = "\n".join(lines) + "\n"
    try:
        loads(text, source="fuzz.prf")
    except RecordError as e:
        assert e.source == "fuzz.prf" and e.reason
    try:
        rec = loads(text, source="fuzz.prf", lenient=True)
    except RecordError:
        return  # some damage is fatal even to the lenient reader (no magic line, no players)
    assert all(isinstance(e, RecordError) and e.source == "fuzz.prf" for e in rec.errors)


@pytest.mark.parametrize(
    "names", [("A",), ("A", "dummy"), ("A", "B,C", "D"), ("A", "B:", "C"), (" A", "B", "C"), ("A", "A", "B")]
)
def test_names_a_record_cannot_hold_are_refused(names: tuple[str, ...]) -> None:
    with pytest.raises(RecordError, match="^players: "):
        GameRecord(players=names, rules=Rules.preset("sochi"))


def test_a_table_of_its_own_names_its_rules_and_the_record_reads_back() -> None:
    """Issue 25: a table whose conventions have a name of their own wrote a record that no reader
    took ("unknown preset"); every rule line is written, so the name is only a name."""
    rules = Rules.preset("leningrad").replace(name="Дома у Пети", za_svoimi=True)
    d = Deal.new(rules, seed=4)
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    assert loads(dumps(record_from_deal(d))).rules == rules
    # A hand-written record that leaves rule lines out: a preset fills them, an unknown name cannot.
    head = "%preferans-record 1\nplayers: A, B, C\nscoring: none\nrules: {}\nrule za_svoimi: true\n"
    assert loads(head.format("rostov")).rules == Rules.preset("rostov").replace(za_svoimi=True)
    lenient = loads(head.format("Дома"), lenient=True)
    assert lenient.rules == Rules.preset("sochi").replace(name="Дома", za_svoimi=True)
    assert "'Дома' is not a preset" in str(lenient.errors[0]) and "take sochi's values" in str(lenient.errors[0])
