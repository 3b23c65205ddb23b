"""The bot protocol: subprocess bots, our own bot served over it, and every failure
(timeout, illegal or unreadable answer, exit) raising a clear error with the deal
left as it was."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot_helpers import messages as _messages
from bot_helpers import recorder_bot
from preferans import Action, Deal, Rules
from preferans.bots import make_bot
from preferans.bots.events import deal_outcome
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
            bot.tell_result(deal_outcome(seed + 1, deal.result, rules))
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


# -- versions ------------------------------------------------------------------------------
GREETER = textwrap.dedent(
    """
    import json, sys
    greeting = sys.argv[1]
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(greeting, flush=True)
        elif msg["type"] == "observation":
            moves = msg["observation"]["moves"]
            # Version 1 bots read moves as [seat, text] pairs; version 2 adds fields, and only to v2.
            assert all(isinstance(m, list) and len(m) == 2 for m in moves), moves
            v2 = greeting.endswith("preferans-bot/2")
            if ("move_phases" in msg["observation"]) != v2:
                sys.exit(5)
            print(msg["observation"]["legal_actions"][0], flush=True)
        elif msg["type"] == "quit":
            break
    """
)


@pytest.mark.parametrize(
    ("greeting", "version", "error"),
    [
        ("ok old-bot", "preferans-bot/1", None),
        ("ok new bot preferans-bot/2", "preferans-bot/2", None),
        ("ok future preferans-bot/7", None, "protocol version: the bot speaks preferans-bot/7"),
        ("no protocol version: I speak preferans-bot/7 only", None, "protocol version: the bot speaks none"),
    ],
)
@pytest.mark.subprocess
def test_the_greeting_names_the_version(tmp_path: Path, greeting: str, version: str | None, error: str | None) -> None:
    """A bare ``ok NAME`` is version 1 and keeps working; an unknown version is a clear error."""
    path = tmp_path / "greeter.py"
    path.write_text(GREETER)
    rules = Rules()
    bot = SubprocessBot([sys.executable, str(path), greeting], rules, timeout=10)
    try:
        if error is not None:
            with pytest.raises(BotProtocolError, match=error):
                bot.start()
            assert not bot.running  # the program is not left behind
            return
        deal = Deal.new(rules, seed=4)
        play(deal, {0: bot, 1: bot, 2: bot})
        assert bot.protocol == version
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("offered", "answer", "code"),
    [
        ({"protocol": "preferans-bot/1"}, "ok preferans", 0),  # an old table: version 1
        ({"protocol": PROTOCOL, "versions": ["preferans-bot/1", PROTOCOL]}, f"ok preferans {PROTOCOL}", 0),
        ({"protocol": "preferans-bot/9", "versions": ["preferans-bot/9"]}, "no protocol version", 2),
    ],
)
def test_serve_answers_the_version_offered(offered: dict[str, object], answer: str, code: int) -> None:
    out = io.StringIO()
    lines = json.dumps({"type": "hello", **offered}) + "\n" + json.dumps({"type": "quit"}) + "\n"
    assert serve(lambda r: make_bot("random", r), io.StringIO(lines), out) == code
    assert out.getvalue().startswith(answer)


# -- the messages around deals ---------------------------------------------------------------
@pytest.fixture()
def recorder(tmp_path: Path) -> tuple[list[str], Path]:
    return recorder_bot(tmp_path)


def _check_deal_frames(msgs: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Every observation lies between its deal's ``deal`` and ``result``; returns the results."""
    kinds = [m["type"] for m in msgs]
    assert kinds[:3] == ["hello", "rules", "game"]
    assert kinds[-2:] == ["end", "quit"]
    results = []
    open_deal = None
    for m in msgs[3:-2]:
        if m["type"] == "deal":
            assert open_deal is None
            open_deal = m
            assert m["players"] == players and m["first_hand"] == (m["dealer"] + 1) % players
        elif m["type"] == "observation":
            assert open_deal is not None
            obs = m["observation"]
            assert obs["seat"] == open_deal["seat"] and obs["dealer"] == open_deal["dealer"]
        elif m["type"] == "result":
            assert open_deal is not None and m["number"] == open_deal["number"] and m["seat"] == open_deal["seat"]
            assert sum(m["net"]) == pytest.approx(0, abs=1e-9)
            assert sum(m["tricks"]) in (0, 10)
            open_deal = None
            results.append(m)
    assert open_deal is None
    return results


@pytest.mark.subprocess
def test_the_arena_frames_every_deal(recorder: tuple[list[str], Path]) -> None:
    """The arena tells a bot program the game, each deal (its seat) and each outcome, then the end."""
    from preferans.bots.arena import run_arena

    command, log = recorder
    run_arena(["random", "cmd:" + " ".join(command)], deals=2, rules=Rules(), seed=3)
    by_process: dict[object, list[dict[str, Any]]] = {}
    for m in _messages(log):
        by_process.setdefault(m["pid"], []).append(m)
    # seatings(2, 3): the program sits in 1 or 2 seats of each of 6 seatings, one process per seat.
    assert len(by_process) == 2
    results = []
    for msgs in by_process.values():
        game = msgs[2]
        assert game["scoring"] == "deals" and game["seat"] is None and game["players"] == 3
        results += _check_deal_frames(msgs, 3)
    assert len(results) == 2 * (3 * 2 + 3 * 1)  # per deal: 3 seatings with the program twice, 3 once
    assert {r["number"] for r in results} == {1, 2}
    for r in results:
        if r["result"]["kind"] in ("game", "misere", "all_pass"):
            assert r["written"], r  # something was written on the sheet


@pytest.mark.subprocess
def test_the_table_frames_a_pulka(recorder: tuple[list[str], Path], tmp_path: Path) -> None:
    """``Table`` tells a program seat the game, every deal and its outcome (as the sheet wrote it), the end;
    a game resumed in the middle of deal 2 tells the new program that deal again, and not deal 1."""
    from preferans.table import Table

    command, log = recorder
    seats = ["bot:random", "cmd:" + " ".join(command), "bot:random"]
    save = tmp_path / "game.prf"
    t = Table(Rules.preset("sochi").replace(pool_target=100), seats, seed=5, max_deals=3, save_path=save)
    try:
        t.run_bots()
        t.next_deal()
        for _ in range(5):
            t.bot_step()
        t.save()
    finally:
        t.close()
    before = _messages(log)
    assert [m["type"] for m in before][:3] == ["hello", "rules", "game"]
    assert before[2]["seat"] == 1 and before[2]["scoring"] == "pulka" and before[2]["names"] == t.names
    assert [m["number"] for m in before if m["type"] == "deal"] == [1, 2]
    results = [m for m in before if m["type"] == "result"]
    assert [r["number"] for r in results] == [1]
    sheet = t.scores[0]
    assert results[0]["summary"] == sheet.label and len(results[0]["written"]) == len(sheet.entries)
    log.write_text("")
    resumed = Table.load(save)
    try:
        while not resumed.is_over:
            resumed.run_bots()
            if resumed.deal.is_over and not resumed.is_over:
                resumed.next_deal()
    finally:
        resumed.close()
    after = _messages(log)
    assert [m["number"] for m in after if m["type"] == "deal"] == [2, 3]
    assert [m["number"] for m in after if m["type"] == "result"] == [2, 3]
    end = [m for m in after if m["type"] == "end"]
    assert len(end) == 1 and end[0]["reason"] == "max_deals" and end[0]["deals"] == 3
    assert sum(end[0]["net"]) == pytest.approx(0, abs=1e-9)


@pytest.mark.subprocess
def test_a_line_written_unasked_is_refused(recorder: tuple[list[str], Path]) -> None:
    """A bot that answers a message needing no answer would desynchronise: the next question says so."""
    command, _ = recorder
    rules = Rules()
    bot = SubprocessBot([*command, "chatty"], rules, timeout=10)
    try:
        deal = Deal.new(rules, seed=2)
        play(deal, {1: bot})
        bot.tell_result(deal_outcome(1, deal.result, rules))
        import time

        time.sleep(0.5)  # let the unasked line arrive
        with pytest.raises(BotProtocolError, match="wrote 'thanks' unasked \\(after a 'result' message"):
            bot.act(Deal.new(rules, seed=3).observation(1))
    finally:
        bot.close()


@pytest.mark.subprocess
def test_a_failing_program_at_a_table_is_replaced(script: list[str]) -> None:
    """At a ``Table`` a program that breaks the protocol leaves the deal untouched; the medium bot plays on."""
    from preferans.table import Table

    t = Table(Rules(), ["bot:random", "cmd:" + " ".join([*script, "garbage"]), "bot:random"], seed=1, max_deals=1)
    try:
        t.run_bots()
    finally:
        t.close()
    assert t.deal.is_over
    assert t.seats[1] == "bot:medium"
    assert t.notices and "cannot read the answer 'banana'" in t.notices[0]


@pytest.mark.subprocess
def test_a_program_answers_a_claim_itself(recorder: tuple[list[str], Path]) -> None:
    """Our bots refuse a claim automatically; a bot program is asked (phase ``claim_answer``)."""
    from preferans.table import Table

    command, log = recorder
    rules = Rules().replace(claims=True)
    t = Table(rules, ["human", "cmd:" + " ".join(command), "bot:random"], seed=4, max_deals=1)
    try:
        for _ in range(200):
            t.run_bots()
            if t.deal.phase.value == "play" and t.human_to_act == 0 and t.deal.trick_number >= 1:
                break
            t.act(t.deal.legal_actions()[0], 0)
        assert t.deal.phase.value == "play"
        assert not t.claim(0, t.deal.tricks_remaining())  # not proved (seed 4): the opponents answer
        assert t.deal.phase.value == "claim_answer" and t.deal.to_act == 1
        t.run_bots()
    finally:
        t.close()
    asked = [m["observation"]["phase"] for m in _messages(log) if m["type"] == "observation"]
    assert "claim_answer" in asked


def test_an_answer_may_be_the_action_id() -> None:
    from preferans.bots.protocol import parse_answer

    obs = Deal.new(Rules(), seed=1).observation(1)
    assert parse_answer("61", obs) == 61 and parse_answer(" 32\n", obs) == Action.parse("6♠", bid=True)
    with pytest.raises(BotProtocolError, match="cannot read the answer '999'") as e:
        parse_answer("999", obs)
    assert e.value.kind == "unreadable"
    with pytest.raises(BotProtocolError, match="illegal answer '94' in phase bidding") as e:
        parse_answer("94", obs)  # whist, by id
    assert e.value.kind == "illegal"


# -- version 2's observation: each move's phase and the derived facts ---------------------------
def test_each_move_has_its_phase_and_the_facts_are_fields() -> None:
    """Seat 1 bids 6♠, both others pass; it discards two cards and names 7♦; seat 2 passes,
    seat 0 whists.  By hand: defenders are the declarer's left (2) then 0; the winning bid 6♠
    bounds the declaration while ``contract`` is still null; the whist-phase ``pass`` is told
    from the auction's passes by its phase; the one whister is seat 0."""
    deal = Deal.new(Rules.preset("sochi"), seed=1)
    for seat, text in [(1, "6♠"), (2, "pass"), (0, "pass")]:
        deal.apply(text, seat=seat)
    v = message(deal.observation(1))["observation"]
    assert (v["phase"], v["contract"], v["winning_bid"], v["highest_bid"], v["bidder"]) == (
        "discard", None, "6♠", "6♠", 1)  # fmt: skip
    assert v["defenders"] == [2, 0] and v["whisters"] == [] and v["catcher"] is None
    first, second = deal.legal_actions()[:2]
    deal.apply(first, seat=1)
    deal.apply(second, seat=1)
    assert message(deal.observation(1))["observation"]["contract"] is None  # declare: not named yet
    deal.apply("7♦", seat=1)
    deal.apply("pass", seat=2)
    deal.apply("whist", seat=0)
    v = message(deal.observation(2))["observation"]
    assert v["move_phases"] == ["bidding"] * 3 + ["discard", "discard", "declare", "whist", "whist"]
    assert [m[1] for m in v["moves"]] == ["6♠", "pass", "pass", None, None, "7♦", "pass", "whist"]
    assert (v["contract"], v["winning_bid"], v["whisters"], v["defenders"]) == ("7♦", "6♠", [0], [2, 0])


def test_here_holds_the_highest_bid_for_the_senior() -> None:
    """First hand 6♠, second hand 6♣, first hand «здесь» (Kodeks 3.3.8): the highest bid is still
    6♣ and first hand holds it; ``here`` is a bidding-phase move."""
    deal = Deal.new(Rules.preset("sochi"), seed=2)
    for seat, text in [(1, "6♠"), (2, "6♣"), (0, "pass"), (1, "here")]:
        deal.apply(text, seat=seat)
    v = message(deal.observation(2))["observation"]
    assert (v["highest_bid"], v["bidder"], v["winning_bid"], v["move_phases"][-1]) == ("6♣", 1, None, "bidding")


def test_a_version_1_observation_is_the_first_published_form() -> None:
    """A version-1 bot gets exactly the observation fields of version 1 (it never sees the new ones)."""
    obs = Deal.new(Rules(), seed=1).observation(1)
    v1 = {"seat", "players", "dealer", "phase", "to_act", "to_play", "hand", "known_hands", "talon", "discard",
          "moves", "declarer", "contract", "open_play", "trick", "completed_tricks", "tricks_won", "legal_actions"}
    assert set(message(obs, "preferans-bot/1")["observation"]) == v1
    assert set(message(obs)["observation"]) - v1 == {
        "move_phases", "highest_bid", "bidder", "winning_bid", "defenders", "whisters", "catcher",
        "standing"}  # fmt: skip


def test_гусарик_observation_names_the_dummy_among_the_defenders() -> None:
    """Two players (seat 0 deals, seat 1 first hand, seat 2 the dummy that never bids): seat 1 bids
    6♠, seat 0 passes, so the defenders are seat 2 (the dummy, on the declarer's left) and seat 0."""
    deal = Deal.new(Rules.preset("sochi"), players=2, seed=3)
    deal.apply("6♠", seat=1)
    deal.apply("pass", seat=0)
    v = message(deal.observation(1))["observation"]
    assert (v["players"], v["phase"], v["winning_bid"], v["defenders"]) == (2, "discard", "6♠", [2, 0])
    assert len(v["tricks_won"]) == 3 and v["moves"] == [[1, "6♠"], [0, "pass"]]
