"""Whole games under --lang ru, in the line mode and full-screen, show no Latin word but cards and the
players' names (tests/latin_helpers.py): a person choosing at random among the listed choices, typing
the table's words, asking for hints, the sheet, the last trick, help, undo, claims and reports, wrong
input and illegal cards — every line of the plain mode and every screen of the full-screen one, to the
final settlement.  Cards are in Т К Д В, the Russian default."""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from latin_helpers import assert_russian
from preferans import Rules
from preferans.table import Table
from preferans.terminal.fullscreen import PlayApp
from preferans.terminal.plain import PlainGame

_MAIN = "import sys; from preferans.cli import main; sys.exit(main())"

# What the person types now and then: the commands, the table's words, typos, wrong cards, claims and
# reports (some refused), answers to a report.
TYPED = ["помощь", "пуля", "последняя", "стол", "подсказка", "отмена", "автоход", "карты", "абвг", "5ч", "пас",
         "Т♠", "тп", "туз пик", "заявка 3", "заявка остальные", "заявка x", "нарушение прикуп-видел Левый",
         "нарушение не-в-очередь Правый пас", "нарушение пересдача Никто", "признаю", "отрицаю", "нет"]  # fmt: skip


class RandomPerson(PlainGame):
    """The plain game with a person who answers each prompt with one of its listed choices (and types
    one of :data:`TYPED` now and then)."""

    def __init__(self, table: Table, rng: random.Random, out: io.StringIO) -> None:
        super().__init__(table, lang="ru", out=out, inp=io.StringIO(""))
        self.rng, self.typed, self.prompts = rng, rng.sample(TYPED, len(TYPED)), 0

    def _read(self, prompt: str) -> str | None:
        print(self.cards(prompt), end="", file=self.out)
        self.prompts += 1
        if self.prompts > 4000:
            return None
        m = re.search(r"\[(.*)\]: $", prompt)
        assert m, prompt
        line = self.typed.pop(0) if self.typed and self.rng.random() < 0.3 else self.rng.choice(m.group(1).split(", "))
        self.say(line)
        return line


PLAIN = [
    ("sochi", ["human", "bot:random", "bot:random"], {"claims": True, "irregularity_reports": True,
                                                      "za_svoimi": True, "bez_trekh": True}),
    ("leningrad", ["human", "bot:random", "bot:random", "bot:random"], {"dealer_whist": True}),
    ("classic", ["human", "bot:random", "bot:random"], {"without_talon_bids": True}),
    ("kodeks", ["human", "bot:random"], {}),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "seats", "options"), PLAIN, ids=[p[0] + str(len(p[1])) for p in PLAIN])
def test_plain_russian_games_show_no_latin_word(preset: str, seats: list[str], options: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**options)
    for seed in (1, 2, 3):
        table = Table(rules, seats, seed=seed, lang="ru", max_deals=4, practice=True, hint_level="medium")
        out = io.StringIO()
        assert RandomPerson(table, random.Random(seed), out).run() == 0
        text = out.getvalue()
        assert table.is_over and "Итоговый расчёт" in text and "Записано:" in text
        assert_russian(text, table.names, f"{preset}, seed {seed}")


@pytest.mark.subprocess
def test_the_plain_command_in_russian(tmp_path: Path) -> None:
    """``preferans play --plain --lang ru``: a bots-only pulka to its end, then a person's game quit
    and resumed — the one Latin text is the command that resumes it."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PREFERANS_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", _MAIN, "play", "--plain", "--lang", "ru", "--rules", "leningrad",
                        "--seats", "bot:random,bot:easy,bot:random,bot:easy", "--deals", "4", "--seed", "5"],
                       capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "=== Сдача 4" in r.stdout and "Итог: " in r.stdout and "Итоговый расчёт" in r.stdout
    assert_russian(r.stdout, ["Анна", "Борис", "Вера", "Глеб"], "bots only")
    r = subprocess.run([sys.executable, "-c", _MAIN, "play", "--plain", "--lang", "ru", "--seed", "3",
                        "--level", "easy"], input="подсказка\nпас\nвыход\n", capture_output=True, text=True, env=env,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0 and "preferans play --resume " in r.stdout, r.stderr
    assert_russian(r.stdout, where="quit")


FULL = [
    ("leningrad", ("human", "bot:random", "bot:random", "bot:random"), {}),
    ("kodeks", ("human", "bot:random"), {}),
    ("sochi", ("human", "bot:random", "bot:random"), {"claims": True, "irregularity_reports": True}),
]


@pytest.mark.parametrize(("preset", "seats", "options"), FULL, ids=[p[0] + str(len(p[1])) for p in FULL])
def test_full_screen_russian_games_show_no_latin_word(preset: str, seats: tuple[str, ...],
                                                      options: dict[str, Any]) -> None:  # fmt: skip
    """80×24, a person pressing keys at random (choices, Enter, the sheet, the last trick, help, a hint,
    a key that does nothing, typing a card): every screen, every page over it, the final settlement."""
    rules = Rules.preset(preset).replace(**options)
    table = Table(rules, list(seats), seed=3, lang="ru", max_deals=3, practice=True, hint_level="easy")
    app = PlayApp(table, delay=0, lang="ru")
    rng = random.Random(3)
    seen: list[str] = []

    def screen() -> str:
        main = app._main
        parts = [str(main.query_one(f"#{w}").render()) for w in ("status", "seats", "trick", "prompt", "hand",
                                                                  "calls", "keys")]  # fmt: skip
        parts += [str(line.text) for line in main.query_one("#log").lines]  # type: ignore[attr-defined]
        if app.screen is not main:
            parts.append(str(app.screen.query_one("#page").render()))
        return "\n".join(parts)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(600):
                await pilot.pause()
                if table.is_over:
                    break
                seen.append(screen())
                if app.screen is not app._main:
                    await pilot.press("escape")
                    continue
                r = rng.random()
                if r < 0.12:
                    key = rng.choice(["question_mark", "s", "l", "x", "ы", "h", "a", "a"])
                    await pilot.press(key)
                    if key == "h":
                        await pilot.app.workers.wait_for_complete()
                elif r < 0.15:
                    await pilot.press("colon", *"пас", "enter")
                else:
                    await pilot.press(*["right"] * rng.randrange(6), "enter")
            await pilot.pause()
            seen.append(screen())  # the final settlement over the table
            await pilot.press("escape")

    asyncio.run(drive())
    assert table.is_over and len(seen) > 20
    text = "\n".join(seen)
    assert "Итог:" in text and "Расчёт в вистах" in text
    assert_russian(text, table.names, preset)
