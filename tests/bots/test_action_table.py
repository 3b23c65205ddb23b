"""The action-id table of ``docs/bot-protocol.md`` and ``preferans bot --ids``: generated from
:mod:`preferans.actions`, and exact — random walks over every preset and option that opens a
phase see each (phase, action) the table lists, and nothing it does not."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from preferans import Deal, Rules
from preferans.actions import (
    IRREGULAR_END,
    NUM_ALL_ACTIONS,
    OUT_OF_TURN_BASE,
    TALON_SEEN_ID,
    Action,
    action_phases,
    action_table,
)
from preferans.cli import main
from preferans.cli.bot import ids_text
from preferans.errors import IllegalAction

DOC = Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md"

# Options that open phases and choices the presets alone do not reach.
VARIANTS: list[dict[str, Any]] = [
    {},
    {"za_svoimi": True, "bez_trekh": True, "concede_all": True},
    {"misere_winner_must_play_misere": False, "without_talon_bids": True},
    {"open_timing": "before_first_lead", "ten_mode": "whisted"},
    {"irregularity_reports": True, "claims": True},
    {"dark_bids": True, "jump_bids": True, "without_talon_bids": True, "totus": True},
    {"misere_catchers": "one_for_both", "first_defender_second_call": True, "misere_bidder_may_continue": True},
]


def _weight(a: Action) -> float:
    """Low games and misère often enough to reach half-whists, «за своими» and the misère choices."""
    c = a.contract
    if c is None:
        return 2.0 if int(a) == 61 else 1.0
    return 3.0 if c.is_misere else 4.0 / (c.level - 5) ** 2


def _walk(rules: Rules, players: int, rng: random.Random, seen: set[tuple[str, int]]) -> None:
    deal = Deal.new(rules, players=players, dealer=rng.randrange(players), seed=rng.getrandbits(32))
    while not deal.is_over:
        phase = deal.phase.value
        legal = deal.legal_actions()
        for a in legal:
            seen.add((phase, int(a)))
        if phase == "bidding" and rng.random() < 0.15:
            # A call out of turn by a bidder other than the one to act (Kodeks 3.3.18).
            bidders = [s for s in deal.active if s != deal.to_act]
            call = OUT_OF_TURN_BASE + rng.randrange(26)
            try:
                deal.report(Action(call), rng.choice(bidders))
                continue
            except IllegalAction:
                pass
        if phase == "play" and rng.random() < 0.05:
            try:
                deal.claim(rng.choice(deal.active), rng.randrange(deal.tricks_remaining() + 1))
                continue
            except IllegalAction:
                pass
        deal.apply(rng.choices(legal, [_weight(a) for a in legal])[0])


def test_every_legal_action_is_in_the_table_and_every_entry_is_reached() -> None:
    """Rounds of walks (one per preset, option set and table size, гусарик included) until every
    entry was seen; no table size offers an action in a phase the table does not list."""
    rng = random.Random(19)
    seen: set[tuple[str, int]] = set()
    listed = {(p, i) for i in range(NUM_ALL_ACTIONS) for p in action_phases(i)}
    tables = [(Rules.preset(name).replace(**extra), players)
              for name in Rules.PRESET_NAMES for extra in VARIANTS for players in (2, 3, 4)]  # fmt: skip
    for _ in range(60):
        for rules, players in tables:
            _walk(rules, players, rng, seen)
        assert seen - listed == set(), "legal actions the table does not list"
        if listed <= seen:
            break
    assert listed - seen == set(), "table entries no walk reached"


def test_reported_actions_are_never_legal() -> None:
    assert all(action_phases(i) == () for i in range(TALON_SEEN_ID, IRREGULAR_END))
    assert all(action_phases(i) for i in (*range(TALON_SEEN_ID), *range(IRREGULAR_END, NUM_ALL_ACTIONS)))


def test_the_document_shows_the_generated_tables() -> None:
    """``preferans bot --ids markdown`` is the tables in ``docs/bot-protocol.md`` (regenerate them with it)."""
    assert ids_text("markdown") in DOC.read_text(encoding="utf-8")


def test_ids_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--ids"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + NUM_ALL_ACTIONS
    assert lines[1 + 95].split()[:3] == ["95", "half-whist", "half-whist"]
    assert main(["bot", "--ids", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == list(range(NUM_ALL_ACTIONS))
    here = {"id": 62, "text": "here", "ascii": "here", "phases": ["bidding"], "meaning": action_table()[62][4]}
    assert rows[62] == here
    for r in rows:  # every text form reads back as its id (bids read as bids)
        assert int(Action.parse(r["text"], bid=True)) == r["id"] or r["id"] < 32
        assert int(Action.parse(r["ascii"])) == r["id"] or Action.parse(r["ascii"]).is_card
