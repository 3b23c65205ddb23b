"""Every parser meets bad input with a PreferansError naming the problem, never a crash (issue 14).

Each test feeds text (or JSON values) built around the parser's own vocabulary
— real tokens mixed with junk, truncated and mutated records — and asserts
that nothing but :class:`~preferans.errors.PreferansError` escapes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans import Action, Card, Contract, Deal, PreferansError, Rules
from preferans.record import dumps, loads, record_from_deal, replay
from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.solver.position import Position

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = [
    "A♠", "K♥", "10♦", "7♣", "9s", "QH", "??", "6♠", "7NT", "misere", "мизер", "pass", "пас", "here",
    "whist", "half-whist", "open", "closed", "dark", "dark 6♠", "invite", "accept", "refuse", "quota",
    "play", "concede-3", "require", "waive", "!talon-seen", "!talon-exposed", "!talon-taken", "!misdeal",
    "!out-of-turn 7♦", "claim 3", "claim 3 proven", "talon", "-", "/", "|", "=", ":", ",", "0", "-1",
    "99999999999999999999", "1e9", "nan", "inf", "\n", "\x00", "\u2028", "#", "A", "B", "C", "D",
]
JUNK = st.text(max_size=12)
TOKEN = st.one_of(st.sampled_from(WORDS), JUNK)
LINE = st.lists(TOKEN, max_size=8).map(" ".join)
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(
        ["game", "dealer", "declarer", "tricks", "whists", "defence", "penalty", "offender", "kind", "cards",
         "players", "rules", "deals", "hands", "talon", "actions", "name", "pen_mult", "format", "seat"]),
        inner, max_size=4),
    max_leaves=12,
)


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> None:
    with contextlib.suppress(PreferansError):
        fn(*args, **kwargs)


@FUZZ
@given(st.one_of(JSON_VALUE, LINE))
def test_card_action_contract_parsing(value: Any) -> None:
    for fn in (Card.parse, Contract.parse, Action.parse, lambda v: Action.parse(v, bid=True)):
        _quiet(fn, value)


@FUZZ
@given(LINE)
def test_position_parsing(text: Any) -> None:
    _quiet(Position.parse, text)
    _quiet(Position.parse, "A♠ K♠/Q♠ J♠/10♠ 9♠ | " + text)


@FUZZ
@given(JSON_VALUE)
def test_rules_from_dict(data: Any) -> None:
    _quiet(Rules.from_dict, data)
    if isinstance(data, dict):
        _quiet(Rules.from_dict, {"name": "sochi", **{k: v for k, v in data.items() if isinstance(k, str)}})


FIELDS = list(Rules().to_dict())


@FUZZ
@given(st.sampled_from(FIELDS), JSON_VALUE)
def test_rules_fields(field: Any, value: Any) -> None:
    _quiet(Rules.from_dict, {field: value})
    _quiet(Rules().set_from_text, f"{field}={value}")


@FUZZ
@given(st.lists(LINE, min_size=1, max_size=4), st.sampled_from([3, 4]))
def test_score_keeper_lines(lines: Any, players: Any) -> None:
    keeper = ScoreKeeper(Rules.preset("sochi"), "ABCD"[:players])
    for line in lines:
        _quiet(keeper.enter, line)
        _quiet(keeper.enter, "A " + line)
        _quiet(keeper.enter, "game 7♠ A " + line)


@FUZZ
@given(st.lists(JSON_VALUE, min_size=1, max_size=3))
def test_score_keeper_json(objects: Any) -> None:
    keeper = ScoreKeeper(Rules.preset("sochi"), "ABC")
    for obj in objects:
        _quiet(keeper.enter_json, obj)
        if isinstance(obj, dict):
            _quiet(keeper.enter_json, {"game": "7S", "declarer": "A", **obj})


def _sample_record_texts() -> list[str]:
    out = []
    for seed, (preset, players) in enumerate([("sochi", 3), ("rostov", 4), ("classic", 3)]):
        d = Deal.new(Rules.preset(preset).replace(irregularity_reports=True), players=players, seed=seed)
        if seed == 0:
            d.report("!talon-seen", seat=1)
        while not d.is_over:
            d.apply(d.legal_actions()[-1] if seed % 2 else d.legal_actions()[0])
        rec = record_from_deal(d)
        out += [dumps(rec), dumps(rec, format="json")]
    return out


UNKNOWN = """%preferans-record 1
players: A, B, C
first_dealer: A
scoring: none
rules: sochi

deal 1
dealer: A
hand B: ?? ?? ?? ?? ?? ?? ?? ?? ?? ??
hand C: ?? ?? ?? ?? ?? ?? ?? ?? ?? ??
hand A: ?? ?? ?? ?? ?? ?? ?? ?? ?? ??
talon: ?? ??
auction: 6♠ pass pass
discard: ?? ??
contract: 6♠
"""
SAMPLES = [*_sample_record_texts(), UNKNOWN]


@FUZZ
@given(st.sampled_from(range(len(SAMPLES))), st.integers(0, 10_000), st.integers(0, 40), LINE)
def test_records_text_and_json_mutated(which: Any, at: Any, cut: Any, insert: Any) -> None:
    text = SAMPLES[which]
    at %= len(text) + 1
    for mutated in (text[:at], text[:at] + insert + text[at + cut:], text[:at] + text[at + cut:]):
        _quiet(loads, mutated)
        _quiet(loads, mutated, lenient=True)


@FUZZ
@given(JSON_VALUE)
def test_records_json_values(value: Any) -> None:
    _quiet(loads, json.dumps(value))
    if isinstance(value, dict):
        base = json.loads(SAMPLES[1])
        _quiet(loads, json.dumps({**base, **value}))
        if isinstance(base.get("deals"), list) and base["deals"]:
            deal = {**base["deals"][0], **value}
            _quiet(loads, json.dumps({**base, "deals": [deal]}))


@FUZZ
@given(st.lists(LINE, max_size=6))
def test_records_text_lines(lines: Any) -> None:
    head = "%preferans-record 1\nplayers: A, B, C\nfirst_dealer: A\nscoring: none\nrules: sochi\n\ndeal 1\n"
    _quiet(loads, head + "\n".join(lines))
    _quiet(loads, head + "dealer: A\n" + "\n".join(f"{k}: {v}" for k, v in zip(
        ["hand A", "hand B", "hand C", "talon", "auction", "discard", "contract", "whist", "play", "score"],
        lines, strict=False)))


# ---------------------------------------------------------------- the crashes listed in issue 14
def test_unseen_discard_before_any_auction_is_a_record_error() -> None:

    from preferans.errors import RecordError

    text = UNKNOWN.replace("auction: 6♠ pass pass\n", "").replace("contract: 6♠\n", "")
    with pytest.raises(RecordError, match=r":7: an unseen card \(\?\?\) as action 1, where the deal is in its bidding"):
        loads(text)
    assert loads(UNKNOWN).deals[0].actions[-1] is not None  # the contract line


def test_truncated_json_is_a_record_error() -> None:

    from preferans.errors import RecordError
    from preferans.record import loads_all

    for fn in (loads, loads_all):
        with pytest.raises(RecordError, match="not valid JSON"):
            fn(SAMPLES[1][:50])


def test_non_text_card_and_infinite_rules_values_are_named() -> None:

    from preferans.errors import CardError, RulesError

    for bad in (None, 0, 1.5):
        with pytest.raises(CardError, match="card: give text"):
            Card.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="pen_mult"):
        Rules.from_dict({"pen_mult": float("inf")})


@FUZZ
@given(st.text(max_size=40))
def test_names_are_checked_where_they_enter(name: Any) -> None:
    """A name a record could not read back never gets in: the pulka and the record refuse it."""
    from preferans.record import GameRecord
    from preferans.scoring.pulka import Pulka

    try:
        rec = GameRecord(players=(name, "B", "C"), rules=Rules())
    except PreferansError:
        try:
            Pulka(Rules(), [name, "B", "C"])
        except PreferansError:
            return
        raise AssertionError(f"the pulka took {name!r}") from None
    assert loads(dumps(rec)) == rec and loads(dumps(rec, format="json")) == rec
    Pulka(Rules(), [name, "B", "C"])


# ---------------------------------------------------------------- the crash listed in issue 25
GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden" / "records").glob("*.prf"))
STEPS = st.lists(st.sampled_from(["n", "p", "e", "d1", "d2", "d9", "x", ""]), max_size=40)


@FUZZ
@given(st.sampled_from(range(len(GOLDEN))), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3), LINE),
                                                      min_size=1, max_size=3), STEPS)  # fmt: skip
def test_replay_of_a_damaged_record_is_a_clear_error(which: Any, damage: Any, steps: Any) -> None:
    """`preferans replay` of a damaged record prints the deals or one clear error (the гусарик dummy's
    seat raised IndexError where a name was looked up: issue 25)."""
    from preferans.cli import replay as replay_cli

    lines = GOLDEN[which].read_text(encoding="utf-8").split("\n")
    for at, kind, text in damage:
        k = at % len(lines)
        if kind == 0:
            del lines[k]
        elif kind == 1:
            lines[k] = lines[k][: at % (len(lines[k]) + 1)] + text
        elif kind == 2:
            lines.insert(k, text)
        else:
            lines.insert(k, lines[(at * 7) % len(lines)])
    try:
        record = loads("\n".join(lines), lenient=True)
    except PreferansError:
        return
    out: list[str] = []
    rep = replay(record, errors=[])
    with contextlib.suppress(PreferansError):
        for i in range(len(record.deals)):
            out.append(replay_cli.dump_deal(record, rep, i))
        for view in (None, 0):
            feed = iter([*steps, "q"])

            def ask(_: str, feed: Iterator[str] = feed) -> str:
                return next(feed)

            replay_cli.Stepper(record, rep, 0, input_fn=ask, out=out.append, view=view).loop()
