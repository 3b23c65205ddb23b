"""A whole game under --lang ru, in the line mode and full-screen, shows no English word a player
could read (the word list is every word of the English catalog; tests/words_helpers.py)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from preferans import Rules
from preferans.table import Table
from preferans.terminal.fullscreen import PlayApp
from words_helpers import english_words

_MAIN = "import sys; from preferans.cli import main; sys.exit(main())"


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("rules", "seats"),
    [("sochi", "bot:random,bot:easy,bot:random"), ("leningrad", "bot:random,bot:easy,bot:random,bot:easy")],
)
def test_plain_bots_only_game_in_russian(rules: str, seats: str) -> None:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    r = subprocess.run(
        [sys.executable, "-c", _MAIN, "play", "--plain", "--lang", "ru", "--rules", rules, "--seats", seats,
         "--deals", "4", "--seed", "5"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "=== Сдача 4" in out and "Итог: " in out and "Записано: " in out and "Итоговый расчёт" in out
    assert not english_words(out), sorted(english_words(out))


def test_full_screen_bots_only_game_in_russian() -> None:
    table = Table(Rules.preset("leningrad"), ["bot:random", "bot:easy", "bot:random", "bot:easy"], seed=4,
                  lang="ru", max_deals=3)  # fmt: skip
    app = PlayApp(table, delay=0, lang="ru")
    seen: list[str] = []

    def screen() -> str:
        parts = [str(app.screen.query_one(f"#{w}").render()) for w in ("status", "seats", "trick", "prompt", "hand",
                                                                       "calls", "keys")]  # fmt: skip
        parts += [str(line.text) for line in app.screen.query_one("#log").lines]  # type: ignore[attr-defined]
        return "\n".join(parts)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(20):
                await pilot.pause()
                if table.is_over:
                    break
                seen.append(screen())
                await pilot.press("enter")
            await pilot.pause()
            seen.append(str(app.screen.query_one("#page").render()))  # the final settlement
            await pilot.press("escape")

    asyncio.run(drive())
    assert table.is_over and len(seen) >= 3
    text = "\n".join(seen)
    assert "Итог:" in text and "Записано:" in text and "Расчёт в вистах" in text
    assert not english_words(text), sorted(english_words(text))
