"""``preferans play --plain`` driven through a subprocess with scripted input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from preferans import Action, Card, Rules
from preferans.table import Table

pytestmark = pytest.mark.subprocess

_MAIN = "import sys; from preferans.cli import main; sys.exit(main())"


def play(
    args: list[str], stdin: str = "", home: Path | None = None, hash_seed: str = "0"
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONHASHSEED=hash_seed)
    if home is not None:
        env["PREFERANS_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-c", _MAIN, "play", "--plain", *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def test_bots_only_demo_prints_deals_and_the_sheet() -> None:
    r = play(["--seats", "bot:hard,bot:medium,bot:easy", "--deals", "5", "--seed", "1"])
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for n in range(1, 6):
        assert f"=== Deal {n} — Sochi" in out
    assert "=== Deal 6" not in out
    assert "seat 0: Anna (bot, hard), seat 1: Boris (bot, medium), seat 2: Vera (bot, easy)" in out
    assert out.count("Result: ") == 5
    # Deal 1 is an all-pass: each talon card is told as it leads its trick (Kodeks 3.7.6).
    assert "the talon card K♥ leads\nTrick 1: talon K♥," in out
    assert "Anna A♥ — Anna takes the trick\nthe talon card Q♦ leads\nTrick 2: talon Q♦," in out
    # --deals 5 stopped the game: it says so, and does not claim the pulka was over.
    assert "The game stopped after 5 deals (--deals)" in out and "The pulka is over." not in out
    assert "Settlement in whists" in out
    # The sheet's columns stay aligned with names longer than one letter.
    rows = [line for line in out.splitlines() if line.startswith(("pool ", "mountain ", "whists on "))][-5:]
    assert len({len(r) for r in rows}) == 1, rows
    # The same seed gives the same game, whatever the process's string hashing.
    again = play(["--seats", "bot:hard,bot:medium,bot:easy", "--deals", "5", "--seed", "1"], hash_seed="12345")
    assert again.stdout == out


def scripted_first_deal(seed: int) -> tuple[Table, list[str], int, str]:
    """What a person could type in the first deal of ``seed`` (the first legal action each time),
    the index of the first card typed in play, and a card that is illegal there."""
    t = Table(Rules.preset("sochi"), ["human", "bot:medium", "bot:medium"], seed=seed)
    typed: list[str] = []
    first_card, wrong = -1, ""
    t.run_bots()
    while not t.deal.is_over:
        legal = t.deal.legal_actions()
        if first_card < 0 and t.deal.phase.value == "play":
            first_card = len(typed)
            wrong = str(Card(next(c for c in range(32) if c not in legal)))
        discard = t.deal.phase.value == "discard"
        typed.append(Action(legal[0]).ascii())
        t.act(legal[0])
        if discard and t.deal.phase.value != "discard":
            typed.append("yes")  # the second card chosen: the discard is confirmed
        t.run_bots()
    return t, typed, first_card, wrong


def test_wrong_input_gets_a_message_and_a_new_prompt(tmp_path: Path) -> None:
    table, typed, first_card, wrong = scripted_first_deal(seed=4)
    assert first_card >= 0, "the scripted deal reaches play"
    script = ["help", "", "misre", *typed[:first_card], wrong, *typed[first_card:]]
    r = play(["--seed", "4", "--level", "medium", "--deals", "1"], "\n".join(script) + "\n", home=tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in out + r.stderr
    assert "Commands:" in out
    assert "cannot read 'misre'" in out and "did you mean misère?" in out
    assert "Your card [" in out
    assert f"{wrong}: ! " in out or f"{wrong}\n! " in out  # the engine's reason for the illegal card
    assert out.count("Result: ") == 1 and "The game stopped after 1 deal (--deals)" in out
    score = table.scores[-1]  # an all-pass says its tricks on the next line, not packed as ``A5 B5 C0``
    # (an all-pass says why it is one first: everybody passed, and the price of a trick)
    head = "all-pass\nEverybody passed: an all-pass" if score.label.startswith("all-pass") else score.label
    assert "Result: " + head in out


def test_russian_words_and_quit_saves_for_resume(tmp_path: Path) -> None:
    r = play(["--seed", "3", "--lang", "ru", "--level", "easy"], "подсказка\nпас\nвыход\n", home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Сдача 1" in r.stdout and "Ваши карты" in r.stdout
    assert "Подсказка (бот «эксперт»)" in r.stdout and "ожидаемые взятки по мастям: ♠" in r.stdout
    saved = tmp_path / "last-game.prf"
    assert saved.exists()
    before = Table.load(saved)
    assert before.deal.moves and "pass" in [str(a) for s, a in before.deal.moves if s == 0]
    r2 = play(["--resume", str(saved), "--lang", "ru"], "выход\n", home=tmp_path)
    assert r2.returncode == 0 and "Traceback" not in r2.stderr
    assert Table.load(saved).to_dict() == before.to_dict()


def test_end_of_input_never_crashes(tmp_path: Path) -> None:
    r = play(["--seed", "5", "--players", "4"], "", home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Resume with" in r.stdout or "The pulka is over" in r.stdout


def test_save_writes_as_it_goes(tmp_path: Path) -> None:
    f = tmp_path / "game.prf"
    r = play(["--seats", "bot:easy,bot:easy,bot:easy", "--deals", "2", "--seed", "9", "--save", str(f)])
    assert r.returncode == 0, r.stderr
    t = Table.load(f)
    assert t.deal_number == 2 and len(t.pulka.results) == 2 and t.is_over


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov", "classic", "kodeks"])
def test_bots_only_pulka_ends_under_every_preset(preset: str) -> None:
    r = play(["--rules", preset, "--seats", "random,random,easy,easy", "--pool", "3", "--seed", "2"])
    assert r.returncode == 0, r.stderr
    assert "The pulka is over." in r.stdout


def test_bad_options_are_reported_cleanly() -> None:
    r = play(["--seats", "human,robot,bot"])
    assert r.returncode == 2 and "neither 'human' nor 'bot:LEVEL'" in r.stderr and "Traceback" not in r.stderr
    r = play(["--set", "pool_target=banana"])
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_a_lone_open_whister_plays_his_partners_cards(tmp_path: Path) -> None:
    """Spec §5: after «лёжа» the whister plays both hands; the prompt says whose cards."""
    r = play(["--seed", "1", "--level", "random"], "pass\nвист\nлёжа\n", home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Right lies down: ♠K J 9 ♣J 10 9 7 ♦8 ♥9 7" in r.stdout
    assert "Right's hand: ♠K J 9 ♣J 10 9 7 ♦8 ♥9 7" in r.stdout
    assert "Playing for Right [9♥, 7♥]: " in r.stdout
