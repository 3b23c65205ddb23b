"""The bot protocol: subprocess bots, our own bot served over it, and every failure
(timeout, illegal or unreadable answer, exit) raising a clear error with the deal
left as it was."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path

import pytest

from preferans import Deal, Rules
from preferans.bots import make_bot
from preferans.bots.protocol import (
    PROTOCOL,
    BotProtocolError,
    SubprocessBot,
    message,
    observation_from_dict,
    serve,
)

# A bot in plain Python that knows nothing of our package: it answers the first
# legal action, and misbehaves on request (argv[1]).
SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print("ok script-bot", flush=True)
        elif msg["type"] == "observation":
            legal = msg["observation"]["legal_actions"]
            if mode == "slow":
                time.sleep(30)
            elif mode == "illegal":
                print("whist", flush=True)  # never legal in the auction
            elif mode == "garbage":
                print("banana", flush=True)
            elif mode == "exit":
                sys.exit(3)
            else:
                print(legal[0], flush=True)
        elif msg["type"] == "quit":
            break
    """
)


CLI = "import sys; from preferans.cli import main; sys.exit(main())"


@pytest.fixture()
def script(tmp_path: Path) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text(SCRIPT)
    return [sys.executable, str(path)]


def play(deal: Deal, bots: dict[int, object], default: str = "medium") -> None:
    rules = deal.rules
    others = {s: make_bot(default, rules, seed=s) for s in range(deal.players)}
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        bot = bots.get(seat, others[seat])
        deal.apply(bot.act(deal.observation(seat)), seat=seat)  # type: ignore[attr-defined]


def test_observation_round_trip() -> None:
    rules = Rules()
    for seed in range(5):
        deal = Deal.new(rules, seed=seed)
        bots = [make_bot("medium", rules, seed=s) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            wire = json.loads(json.dumps(message(obs), ensure_ascii=False))
            assert observation_from_dict(wire) == obs
            deal.apply(bots[seat].act(obs), seat=seat)


@pytest.mark.subprocess
def test_subprocess_bot_plays_whole_deals(script: list[str]) -> None:
    rules = Rules()
    bot = SubprocessBot(script, rules, timeout=10)
    try:
        for seed in range(3):
            deal = Deal.new(rules, seed=seed)
            play(deal, {1: bot})
            bot.tell_result(deal.result.to_dict())
        assert bot.bot_name == "script-bot"
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("mode", "match"),
    [
        ("slow", "no answer within 0.5 s"),
        ("illegal", "illegal answer"),
        ("garbage", "cannot read the answer 'banana'"),
        ("exit", "the bot exited"),
    ],
)
@pytest.mark.subprocess
def test_failures_are_clear_and_leave_the_deal_alone(script: list[str], mode: str, match: str) -> None:
    rules = Rules()
    deal = Deal.new(rules, seed=1)
    seat = deal.to_act
    assert seat is not None
    before = (deal.actions, deal.hands, deal.phase)
    bot = SubprocessBot([*script, mode], rules, timeout=0.5)
    try:
        with pytest.raises(BotProtocolError, match=match):
            bot.act(deal.observation(seat))
    finally:
        bot.close()
    assert (deal.actions, deal.hands, deal.phase) == before
    # The deal goes on with another player in that seat.
    play(deal, {})
    assert deal.is_over


@pytest.mark.subprocess
def test_missing_program() -> None:
    bot = SubprocessBot(["/nonexistent/bot"], Rules())
    with pytest.raises(BotProtocolError, match="cannot start the bot"):
        bot.act(Deal.new(Rules(), seed=1).observation(1))


@pytest.mark.subprocess
def test_bad_greeting(tmp_path: Path) -> None:
    path = tmp_path / "rude.py"
    path.write_text("import sys\nfor line in sys.stdin:\n    print('hello?', flush=True)\n")
    bot = SubprocessBot([sys.executable, str(path)], Rules(), timeout=5)
    try:
        with pytest.raises(BotProtocolError, match="expected 'ok NAME'"):
            bot.act(Deal.new(Rules(), seed=1).observation(1))
    finally:
        bot.close()


def test_serve_answers_like_the_bot_itself() -> None:
    """``serve`` (what ``preferans bot`` runs) gives the same actions as the bot in-process."""
    rules = Rules.preset("leningrad")
    deal = Deal.new(rules, seed=9)
    lines = [json.dumps({"type": "hello", "protocol": PROTOCOL}),
             json.dumps({"type": "rules", "rules": rules.to_dict()})]
    local = make_bot("hard", rules, seed=2)
    expected = []
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        obs = deal.observation(seat)
        a = local.act(obs)
        if seat == 1:
            lines.append(json.dumps(message(obs), ensure_ascii=False))
            expected.append(str(a))
        deal.apply(a, seat=seat)
    lines.append(json.dumps({"type": "quit"}))
    out = io.StringIO()
    serve(lambda r: make_bot("hard", r, seed=2), io.StringIO("\n".join(lines) + "\n"), out)
    answers = out.getvalue().splitlines()
    assert answers[0].startswith("ok")
    assert answers[1:] == expected


@pytest.mark.subprocess
def test_preferans_bot_command_over_a_pipe() -> None:
    rules = Rules.preset("rostov")
    bot = SubprocessBot([sys.executable, "-c", CLI, "bot", "--level", "medium"], rules, timeout=30)
    try:
        deal = Deal.new(rules, seed=5)
        play(deal, {0: bot, 2: make_bot("easy", rules)})
        assert deal.is_over
        assert bot.bot_name == "preferans-medium"
    finally:
        bot.close()
