"""``docs/bot-protocol.md`` is enough to write a bot: its examples are run here.

The observation example is a real deal replayed; the ``game``/``deal``/``result``/``end``
examples carry exactly the fields the table sends; every observation field is in the field
table and every phase in the phase table; the Python bot of the document passes
``bot-check``; every ``preferans`` command line it shows is accepted by the command-line
parser; and it names no file a user of the package does not have.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from preferans import Deal, Rules, Standing
from preferans.bots.events import DealStart, GameEnd, GameStart, deal_outcome
from preferans.bots.protocol import hello, message
from preferans.cli import build_parser, main
from preferans.engine.observation import Phase

DOC = (Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.S)


def _json_objects(block: str) -> list[dict[str, object]]:
    """The JSON objects of a block, each possibly over several lines."""
    out, start = [], 0
    decoder = json.JSONDecoder()
    text = block.strip()
    while start < len(text):
        obj, end = decoder.raw_decode(text, start)
        out.append(obj)
        start = end
        while start < len(text) and text[start].isspace():
            start += 1
    return out


def test_the_observation_example_is_a_real_deal() -> None:
    """Sochi, ``seed=1``, seat 0 deals, the fifth deal of a pulka (its standing as shown).  The
    document's moves replayed (the two discarded cards, ``null`` to seat 2, were 8♠ and J♠) give
    exactly the observation it shows seat 2."""
    (example,) = [o for b in _blocks("json") for o in _json_objects(b) if "legal_actions" in o]
    standing = Standing.from_dict(example["standing"])  # type: ignore[arg-type]
    deal = Deal.new(Rules.preset("sochi"), seed=1, standing=standing)
    discards = iter(["8♠", "J♠"])
    for seat, text in example["moves"]:  # type: ignore[attr-defined]
        deal.apply(deal.parse_action(text if text is not None else next(discards)), seat=seat)
    assert message(deal.observation(2))["observation"] == example


def test_the_messages_around_the_deals_have_the_fields_sent() -> None:
    objects = {o["type"]: o for b in _blocks("json") for o in _json_objects(b) if "type" in o}
    assert set(objects) == {"game", "deal", "result", "end"}
    game = GameStart(players=3, rules_digest="x", scoring="pulka", seat=1, names=("A", "B", "C"))
    assert set(objects["game"]) - {"type"} == set(game.to_dict())
    assert set(objects["deal"]) - {"type"} == set(DealStart(1, 1, 0, 3, "x").to_dict())
    deal = Deal.new(Rules(), seed=1)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    outcome = deal_outcome(1, deal.result, deal.rules).to_dict()
    assert set(objects["result"]) - {"type"} == set(outcome) | {"seat"}
    assert set(objects["end"]) - {"type"} == set(GameEnd(12, "pool_closed").to_dict())
    assert json.dumps(hello(), ensure_ascii=False) in DOC  # the greeting as the table sends it


def test_every_field_and_phase_is_explained() -> None:
    """Each key of the observation has a row of the field table; each phase a row of the phase table."""
    rows = set(re.findall(r"^\| `([a-z_]+)`", DOC, flags=re.M)) | {
        m for row in re.findall(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)+) \|", DOC, flags=re.M)
        for m in re.findall(r"`([a-z_]+)`", row)
    }
    fields = set(message(Deal.new(Rules(), seed=1).observation(1))["observation"])
    assert fields - rows == set()
    assert {str(p) for p in Phase} - rows == set()


@pytest.mark.subprocess
def test_the_documents_python_bot_passes_bot_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (source,) = _blocks("python")
    bot = tmp_path / "first_legal.py"
    bot.write_text(source, encoding="utf-8")
    command = f"cmd:{sys.executable} {bot}"
    assert main(["bot-check", command, "--presets", "sochi", "--no-progress"]) == 0, capsys.readouterr().out


def test_every_command_line_shown_parses() -> None:
    """Each ``preferans …`` line of the shell blocks is one the command-line parser accepts."""
    parser = build_parser()
    lines = [line for b in _blocks("sh") for line in b.splitlines()]
    parts = [c.strip() for line in lines for c in line.split("#")[0].split("&&")]
    commands = [c for c in parts if c.startswith("preferans")]
    assert len(commands) >= 8
    for command in commands:
        parser.parse_args(shlex.split(command)[1:])


def test_no_file_a_user_lacks() -> None:
    """The document stands alone: no project spec, no source file to read instead."""
    for word in ("spec §", "../shared", "src/preferans", "actions.py", "rules.md §"):
        assert word not in DOC, word
