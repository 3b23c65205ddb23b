"""The conformance kit (``preferans bot-check``): clean for our bots, and each kind of broken bot
caught where it breaks — an unreadable or illegal answer (with the observation that got it), a
timeout, a crash (the program is restarted), a line written unasked — with exit status 1."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from preferans.bots.conformance import PHASES_ASKED, Scenario, check_bot, scenarios
from preferans.bots.levels import make_bot
from preferans.cli import main
from preferans.rules import Rules

BROKEN = textwrap.dedent(
    """
    import json, sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            greeting = {"v1": "ok broken", "v7": "ok broken preferans-bot/7"}.get(mode, "ok broken preferans-bot/2")
            print(greeting, flush=True)
        elif kind == "observation":
            obs = msg["observation"]
            phase = obs["phase"]
            if mode == "garbage-in-whist" and phase == "whist":
                print("banana", flush=True)
            elif mode == "illegal-claim-answer" and phase == "claim_answer":
                print("whist", flush=True)
            elif mode == "refuse-claims" and phase == "claim_answer":
                print("refuse", flush=True)
            elif mode == "slow-lead-penalty" and phase == "lead_penalty":
                time.sleep(5)
            elif mode == "crash-in-misere" and phase == "play" and obs["contract"] == "misere":
                sys.exit(3)
            else:
                print(obs["legal_actions"][0], flush=True)
        elif kind == "result" and mode == "chatty":
            print("thanks", flush=True)
        elif kind == "quit":
            break
    """
)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bots") / "broken.py"
    path.write_text(BROKEN)
    return path


def _program(path: Path, mode: str, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    return lambda rules: make_bot(f"cmd:{sys.executable} {path} {mode}", rules, timeout=timeout)


def _some(*words: str) -> list[Scenario]:
    """The 3-player Sochi scenarios whose names contain one of ``words``."""
    return [s for s in scenarios(("sochi",), (3,)) if any(w in s.name for w in words)]


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert:20ms"])
def test_every_level_answers_the_conventions(level: str) -> None:
    """Our bots answer the questions the options of other engines add (issue 17 and 19)."""
    words = ("you may still whist", "fall back", "play a half-whist", "whist a game both passed", "bid a nine",
             "«ловлю»", "one catcher")
    only = [s for s in scenarios(("sochi",), (3, 4)) if any(w in s.name for w in words)]
    report = check_bot(lambda rules: make_bot(level, rules, seed=3), only=only)
    assert report.clean and report.scenarios == len(only) == 15, report.text()


def test_an_unreached_expectation_is_not_clean() -> None:
    """The kit reports what it could not ask: a scenario whose script never reaches its phase."""
    sc = Scenario("all-pass expecting a whist", Rules(), 3, 1, expect=("whist",))
    report = check_bot(lambda rules: make_bot("random", rules, seed=1), only=[sc])
    assert not report.clean and report.unreached == ["[all-pass expecting a whist] the bot was not asked 'whist'"]


@pytest.mark.subprocess
def test_preferans_bot_is_clean_over_the_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    """``preferans bot-check`` on our own ``preferans bot`` (version 2) exits 0."""
    command = f"{sys.executable} -m preferans bot --level medium"
    assert main(["bot-check", f"cmd:{command}", "--presets", "sochi,classic", "--no-progress", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["clean"] and not report["failures"] and not report["unreached"]
    assert all(report["phases"][p]["asked"] == report["phases"][p]["answered"] > 0 for p in PHASES_ASKED)


@pytest.mark.subprocess
def test_a_version_1_bot_still_passes(broken: Path) -> None:
    report = check_bot(_program(broken, "v1"), only=_some("you declare a game", "you catch a misère"))
    assert report.clean, report.text()


@pytest.mark.subprocess
def test_a_wrong_version_stops_the_kit_at_once(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A program greeting with a version the table does not speak can answer nothing: one failure
    naming the versions, the kit stops (not a restart per question), exit status 1."""
    code = main(["bot-check", f"{sys.executable} {broken} v7", "--presets", "sochi", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1 and "NOT clean" in out
    assert out.count("protocol version: the bot speaks preferans-bot/7; this table speaks") == 1
    assert "the rest: stopped, the program's greeting was refused" in out
    assert ": 1 scenario deals" in out  # the first deal, played on without it


@pytest.mark.subprocess
def test_a_bot_refusing_every_claim_is_clean(broken: Path) -> None:
    """Refusing is a legal answer: play goes on and the claim is not made again in that deal."""
    report = check_bot(_program(broken, "refuse-claims"), only=_some("claims"))
    assert report.clean, report.text()
    assert report.asked["claim_answer"] == report.answered["claim_answer"] == 2


@pytest.mark.subprocess
def test_an_unreadable_answer_is_caught_with_its_observation(broken: Path) -> None:
    report = check_bot(_program(broken, "garbage-in-whist"), only=_some("two whisters", "you declare a game"))
    assert not report.clean
    bad = [f for f in report.failures if f.kind == "unreadable"]
    assert bad and all(f.phase == "whist" for f in bad)
    assert bad[0].observation is not None and bad[0].observation["observation"]["phase"] == "whist"
    assert "cannot read the answer 'banana'" in bad[0].message
    assert report.answered["play"] == report.asked["play"] > 0  # the deal went on


@pytest.mark.subprocess
def test_an_illegal_answer_and_the_exit_status(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bot-check", f"{sys.executable} {broken} illegal-claim-answer", "--presets", "sochi",
                 "--players", "3", "--no-progress"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1 and "NOT clean" in out
    row = next(line for line in out.splitlines() if line.startswith("claim_answer"))
    asked, legal, illegal = (int(x) for x in row.split()[1:4])
    assert asked == illegal >= 2 and legal == 0  # every claim answer illegal
    assert "illegal answer 'whist' in phase claim_answer" in out and '"phase": "claim_answer"' in out


@pytest.mark.subprocess
def test_a_timeout_is_counted_and_the_program_restarted(broken: Path) -> None:
    only = _some("called out of turn", "you declare a game")
    report = check_bot(_program(broken, "slow-lead-penalty", timeout=0.5), only=only)
    assert [f.kind for f in report.failures] == ["timeout"]
    assert report.failures[0].phase == "lead_penalty" and "no answer within 0.5 s" in report.failures[0].message
    assert report.answered["play"] == report.asked["play"] > 0  # restarted, it plays on


@pytest.mark.subprocess
def test_a_crash_is_counted_and_the_program_restarted(broken: Path) -> None:
    only = _some("you play misère", "you catch a misère", "you declare a game")
    report = check_bot(_program(broken, "crash-in-misere"), only=only)
    crashes = [f for f in report.failures if f.kind == "crash"]
    # One crash per misère deal: the program is not asked again in that deal, and restarted for the next.
    assert len(crashes) == 2 and all("the bot exited (code 3)" in f.message for f in crashes)
    assert report.asked["declare"] == report.answered["declare"] == 1  # the game after the crashes


@pytest.mark.subprocess
def test_a_bot_that_always_times_out_is_given_up(broken: Path) -> None:
    """After ten crashes and timeouts the kit stops rather than wait for hours."""
    only = [s for s in scenarios(("sochi",), (3,)) if "out of turn" in s.name] * 12
    report = check_bot(_program(broken, "slow-lead-penalty", timeout=0.5), only=only)
    # (on a loaded machine an ordinary answer may time out too: then it stops sooner)
    assert report.count("timeout") + report.count("crash") == 10 and report.scenarios <= 10
    assert report.unreached == ["the rest: stopped after 10 crashes and timeouts"]


@pytest.mark.subprocess
def test_a_line_written_unasked_is_caught(broken: Path) -> None:
    report = check_bot(_program(broken, "chatty"), only=_some("you declare a game", "two whisters"), settle=1.0)
    assert any(f.kind == "protocol" and "wrote 'thanks' unasked" in f.message for f in report.failures)


# Phases each table size can ask (who is asked what: docs/bot-protocol.md, "The course of a deal").
# гусарик has no misère «пополам» (no 4-handed dealer), no «ловлю» (its one catcher plays the dummy
# already) and no call out of turn to answer (the offender's partner is the dummy); a table of
# three has no 4-handed dealer to invite.
PHASES_AT = {
    2: set(PHASES_ASKED) - {"misere_invite", "misere_catch", "lead_penalty"},
    3: set(PHASES_ASKED) - {"misere_invite"},
    4: set(PHASES_ASKED),
}


def test_every_table_size_is_asked_its_phases() -> None:
    """Counted per table size in one run of every preset: 2 (гусарик), 3 and 4 players each ask
    exactly the phases that size can ask, and the гусарик whister plays the dummy's cards."""
    report = check_bot(lambda rules: make_bot("medium", rules, seed=2))
    assert report.clean, report.text()
    assert all(report.asked[p] > 0 for p in PHASES_ASKED) and report.asked == report.answered
    assert sorted(report.asked_at) == [2, 3, 4]
    for n, phases in PHASES_AT.items():
        asked = {p for p, k in report.asked_at[n].items() if k}
        assert asked == phases, (n, asked ^ phases)
    assert "гусарик: you play the dummy's cards" in report.situations
    assert sum(sum(a.values()) for a in report.asked_at.values()) == sum(report.asked.values())
    # Every scenario of every preset asked the bot something; each preset × size its core deals.
    every = scenarios()
    assert report.scenarios == len(every) and set(report.asked_in) == {s.name for s in every}
    for name in Rules.PRESET_NAMES:
        for n in (2, 3, 4):
            core = [s.name for s in every if s.name.startswith(f"{name}, {n} players:")]
            assert len(core) >= 8 and all(report.asked_in[c] > 0 for c in core), (name, n)


def test_a_two_handed_run_asks_only_what_гусарик_can() -> None:
    """``--players 2`` alone is clean: nothing only a table of 3 or 4 can ask is missed."""
    report = check_bot(lambda rules: make_bot("medium", rules, seed=1), presets=("sochi",), players=(2,))
    assert report.clean, report.text()
    assert set(report.asked_at) == {2} and report.asked_at[2]["whist"] > 0 and report.asked_at[2]["defence"] > 0
    assert len({s.players for s in scenarios()}) == 3
