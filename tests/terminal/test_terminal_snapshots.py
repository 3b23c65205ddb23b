"""The full-screen game drawn at 80×24 (and 100×30), English and Russian, in every phase:
Textual snapshot tests (pytest-textual-snapshot).  A changed screen fails until its new picture
is looked at and accepted with ``pytest tests/terminal/test_terminal_snapshots.py --snapshot-update``
(the pictures are the SVG files under ``__snapshots__``; the failure report shows both)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from preferans import Action, Rules
from preferans.table import Hint, Table
from preferans.terminal.fullscreen import PlayApp

LANGS = ["en", "ru"]


def app(seed: int, lang: str, *, seats: tuple[str, ...] = ("human", "bot:random", "bot:random"),
        rules: str = "sochi") -> PlayApp:  # fmt: skip
    table = Table(Rules.preset(rules), list(seats), seed=seed, lang=lang, hint_level="hard")
    return PlayApp(table, delay=0, lang=lang)


async def until_over(pilot: Pilot[Any]) -> None:
    table = pilot.app.table  # type: ignore[attr-defined]
    for _ in range(60):
        if table.deal.is_over:
            break
        await pilot.press("enter")
        await pilot.pause()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("phase", "seed", "press"),
    [
        ("bidding", 12, ()),
        ("discard", 12, ("right", "enter")),  # the lowest bid wins the talon: two cards to discard
        ("discard_confirm", 12, ("right", "enter", "enter", "right", "enter")),  # two marked: discard them?
        ("declare", 12, ("right", "enter", "enter", "right", "enter", "enter")),
        ("play", 12, ("right", "enter", "enter", "right", "enter", "enter", "enter", "enter", "enter")),
        ("help", 12, ("question_mark",)),
        ("unknown_key", 12, ("x",)),
    ],
)  # fmt: skip
def test_phases(snap_compare: Callable[..., bool], phase: str, seed: int, press: tuple[str, ...], lang: str) -> None:
    assert snap_compare(app(seed, lang), press=press, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_whisting(snap_compare: Callable[..., bool], lang: str) -> None:
    """Seed 2: you pass, an easy bot plays 6♥ and you are asked to whist."""
    assert snap_compare(app(2, lang, seats=("human", "bot:easy", "bot:easy")), press=("enter",))


@pytest.mark.parametrize("lang", LANGS)
def test_the_hint_marks_its_choice_and_leaves_the_cursor(snap_compare: Callable[..., bool], lang: str) -> None:
    """The case of the report: the cursor on «pass», the hint says «whist» — it is underlined and the
    prompt says the cursor stays; Enter would still send «pass»."""
    game = app(2, lang, seats=("human", "bot:easy", "bot:easy"))

    def whist(seat: int | None = None) -> Hint:
        return Hint(Action.parse("whist"), {Action.parse("whist"): 1.5, Action.parse("pass"): -0.5})

    game.table.hint = whist  # type: ignore[method-assign]

    async def ask(pilot: Pilot[Any]) -> None:
        await pilot.press("enter")  # pass in the auction: now whist or pass
        await pilot.pause()
        await pilot.press("h")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(game, run_before=ask)


@pytest.mark.parametrize("lang", LANGS)
def test_after_the_deal(snap_compare: Callable[..., bool], lang: str) -> None:
    assert snap_compare(app(12, lang), run_before=until_over)


@pytest.mark.parametrize("lang", LANGS)
def test_four_handed_dealer_sits_out(snap_compare: Callable[..., bool], lang: str) -> None:
    """Leningrad, four players: you deal and sit out; the bots play the deal to its result."""
    seats = ("human", "bot:random", "bot:random", "bot:random")
    assert snap_compare(app(2, lang, seats=seats, rules="leningrad"))


@pytest.mark.parametrize("lang", LANGS)
def test_play_at_100_by_30(snap_compare: Callable[..., bool], lang: str) -> None:
    press = ("right", "enter", "enter", "right", "enter", "enter", "enter", "enter", "enter")
    assert snap_compare(app(12, lang), press=press, terminal_size=(100, 30))


@pytest.mark.parametrize("lang", LANGS)
def test_gusarik_dummy_face_down(snap_compare: Callable[..., bool], lang: str) -> None:
    """гусарик (rules.md §16), seed 2: two players; the dummy is a third row, dealt face down."""
    assert snap_compare(app(2, lang, seats=("human", "bot:easy")), terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_gusarik_the_whister_plays_the_dummy(snap_compare: Callable[..., bool], lang: str) -> None:
    """Seed 2: you pass, the bot plays 6♥, you whist: the dummy is laid down beside your hand
    and it is its card you choose now (its row is marked, the prompt names it)."""
    assert snap_compare(app(2, lang, seats=("human", "bot:easy")), press=("enter", "right", "enter"),
                        terminal_size=(80, 24))  # fmt: skip
