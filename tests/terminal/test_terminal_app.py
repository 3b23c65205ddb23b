"""The full-screen interface driven by Textual's pilot: a whole deal by keyboard, checked on screen."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path

import pytest
from textual.content import Content

from preferans import Rules
from preferans.table import Table
from preferans.terminal.fullscreen import PlayApp


def screen_text(app: PlayApp) -> str:
    """Everything on the screen as plain text (the widgets' rendered content)."""
    parts = []
    for wid in ("#status", "#seats", "#trick", "#prompt", "#hand", "#calls", "#keys"):
        parts.append(str(app.query_one(wid).render()))
    log = app.query_one("#log")
    parts.extend(str(line.text) for line in log.lines)  # type: ignore[attr-defined]
    return "\n".join(parts)


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


def test_a_whole_deal_by_keyboard(tmp_path: Path) -> None:
    """Seed 12: you bid 10NT over the bots, take the talon, discard two, declare and play all ten tricks."""
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=12)
    app = PlayApp(table, delay=0, quit_save=tmp_path / "q.prf")

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Deal 1 — Sochi, pool 20 — dealer: You" in text
            assert "Your call" in text and "pass" in text and "10NT" in text
            assert "q quit" in text  # the key help is on screen
            # Bid: the cursor starts on «pass»; one step right is the lowest bid.
            await pilot.press("right", "enter")
            await pilot.pause()
            assert table.deal.phase.value == "discard" and table.deal.declarer == 0
            text = screen_text(app)
            assert "Discard two cards: Enter marks a card" in text
            assert "Talon: " in text
            await pilot.press("enter")  # the first card is marked, nothing is sent
            await pilot.pause()
            assert "Discard: " in screen_text(app) and "and one more card" in screen_text(app)
            await pilot.press("enter")  # Enter again on it: no longer marked
            await pilot.pause()
            assert app.marked == [] and table.deal.hands[0].bit_count() == 12
            await pilot.press("enter", "right", "enter")  # two marked: asked to confirm
            await pilot.pause()
            assert len(app.marked) == 2 and "Enter discards them, Esc chooses again" in screen_text(app)
            assert table.deal.hands[0].bit_count() == 12  # still nothing sent
            await pilot.press("escape")  # choose again
            await pilot.pause()
            assert app.marked == []
            await pilot.press("enter", "right", "enter", "enter")  # mark two, then discard them
            await pilot.pause()
            assert table.deal.phase.value == "declare"
            assert "Name your contract" in screen_text(app)
            await pilot.press("enter")  # the lowest legal contract: 10NT
            await pilot.pause()
            assert str(table.deal.contract) == "10NT"
            # Play to the end: Enter plays the highlighted legal card.
            for _ in range(40):
                if table.deal.is_over:
                    break
                assert table.human_to_act == 0
                await pilot.press("enter")
                await pilot.pause()
            assert table.deal.is_over
            text = screen_text(app)
            assert "Result: You 10NT" in text
            assert "Press Enter for the next deal" in text
            assert len(table.pulka.results) == 1
            # The last trick and the cards played so far on a key.
            await pilot.press("l")
            await pilot.pause()
            page = str(app.screen.query_one("#page").render())
            assert "Cards played: ♠" in page and "take" in page
            await pilot.press("escape")
            # The sheet on a key, then the next deal.
            await pilot.press("s")
            await pilot.pause()
            page = str(app.screen.query_one("#page").render())
            assert "pool" in page and "mountain" in page and "You" in page
            await pilot.press("escape")
            await pilot.press("enter")
            await pilot.pause()
            assert table.deal_number == 2
            # Quit saves the game for --resume.
            await pilot.press("q")
            await pilot.pause()
        assert (tmp_path / "q.prf").exists()
        assert Table.load(tmp_path / "q.prf").deal_number == 2

    run(drive())


def test_illegal_cards_are_dimmed_and_undo_in_practice() -> None:
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=12, practice=True)
    app = PlayApp(table, delay=0)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("right", "enter", "enter", "right", "enter", "enter", "enter")
            await pilot.pause()
            assert table.deal.phase.value in ("play", "over")
            # Find a trick where you must follow suit: illegal cards are dimmed.
            for _ in range(12):
                legal = table.deal.legal_actions()
                if table.human_to_act == 0 and len(legal) < table.deal.hands[0].bit_count():
                    break
                await pilot.press("enter")
                await pilot.pause()
            hand = app.query_one("#hand").render()
            assert isinstance(hand, Content)
            styles = {str(hand)[span.start : span.end]: str(span.style) for span in hand.spans}
            dim = [card for card, style in styles.items() if "dim" in style]
            assert dim and all(table.deal.parse_action(c) not in table.deal.legal_actions() for c in dim)
            before = len(table.deal.moves)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("u")
            await pilot.pause()
            assert len(table.deal.moves) == before
            # Last trick and hint keys answer without leaving the game.
            await pilot.press("h")
            await app.workers.wait_for_complete()  # the hint is thought out in a worker thread
            await pilot.pause()
            assert "Hint (expert bot)" in screen_text(app)

    run(drive())


def test_russian_interface_and_undo_refused_outside_practice() -> None:
    table = Table(Rules.preset("leningrad"), ["human", "bot:random", "bot:random", "bot:random"], seed=2, lang="ru")
    app = PlayApp(table, delay=0, lang="ru")

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Сдача 1" in text and "q выход" in text
            await pilot.press("u")
            await pilot.pause()
            assert "тренировк" in screen_text(app)

    run(drive())


def test_bots_think_in_a_worker_between_your_moves() -> None:
    """With a delay the bots move one by one from a worker thread; the game still reaches its end."""
    table = Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=4, max_deals=1)
    app = PlayApp(table, delay=0.001)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")  # the sheet lies over the table while the bots go on
            for i in range(3000):
                if table.deal.is_over:
                    break
                if i == 5:
                    await pilot.press("escape")
                await app.workers.wait_for_complete()
                await pilot.pause(0.002)
                if table.human_to_act == 0 and not app._busy and i > 5:
                    await pilot.press("enter")
            assert table.deal.is_over and table.is_over
            await pilot.pause()
            # The final settlement is on screen at the end of the pulka.
            assert "Final settlement" in str(app.screen.query_one("VerticalScroll").border_title)

    run(drive())


def test_a_long_list_of_calls_scrolls_with_the_cursor() -> None:
    """Classic with jump bids: every bid and every dark bid (Kodeks 3.3.19) do not fit 3 lines."""
    rules = Rules.preset("classic").replace(jump_bids=True)
    table = Table(rules, ["human", "bot:easy", "bot:easy"], seed=5)
    app = PlayApp(table, delay=0)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            calls = str(app.query_one("#calls").render())
            assert "pass" in calls and "↓…" in calls and "dark 10NT" not in calls
            await pilot.press("end")
            await pilot.pause()
            calls = str(app.query_one("#calls").render())
            assert "dark 10NT" in calls and "↑…" in calls
            await pilot.press("enter")
            await pilot.pause()
            assert any(s == 0 and str(a) == "dark 10NT" for s, a in table.deal.moves)

    run(drive())


def test_typing_an_action() -> None:
    """``:`` opens a line for the engine's text or Russian words; wrong text gets a message."""
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=12)
    app = PlayApp(table, delay=0)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("colon", *"pas", "enter")
            await pilot.pause()
            assert "cannot read 'pas'" in str(app.query_one("#prompt").render())
            assert not table.deal.moves or table.deal.moves[-1][0] != 0
            await pilot.press("colon", *"пас", "enter")
            await pilot.pause()
            assert any(s == 0 and str(a) == "pass" for s, a in table.deal.moves)

    run(drive())


def test_the_hint_never_moves_the_cursor_and_the_cursor_stops_at_the_ends() -> None:
    """The reported case: the cursor on «pass», the hint says «whist»; Enter sends «pass»."""
    from preferans import Action
    from preferans.table import Hint

    table = Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=2)
    table.hint = lambda seat=None: Hint(Action.parse("whist"))  # type: ignore[method-assign]
    app = PlayApp(table, delay=0)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")  # pass in the auction; now whisting: [pass, whist]
            await pilot.pause()
            assert table.deal.phase.value == "whist" and [str(a) for a in app.choices()] == ["pass", "whist"]
            await pilot.press("left", "left")  # stops at the first choice, no wrapping round to «whist»
            await pilot.pause()
            assert app.cursor == 0
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.cursor == 0 and str(app.hinted) == "whist"
            assert "the cursor stays on pass" in str(app.query_one("#prompt").render())
            await pilot.press("right", "right", "right")  # stops at the last
            await pilot.pause()
            assert app.cursor == 1
            await pilot.press("left", "enter")
            await pilot.pause()
            assert [str(a) for s, a in table.deal.moves if s == 0][-1] == "pass"

    run(drive())


def test_resumed_game_shows_its_log_and_unknown_keys_are_answered(tmp_path: Path) -> None:
    save = tmp_path / "g.prf"
    first = Table(Rules.preset("sochi"), ["human", "bot:easy", "bot:easy"], seed=2, lang="ru", save_path=save)
    first.run_bots()
    first.act("pass")
    first.run_bots()
    table = Table.load(save)
    app = PlayApp(table, delay=0, lang=table.lang)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Вы: пас" in text and "Левый: 6♠" in text  # the auction is back in the log
            await pilot.press("z")
            await pilot.pause()
            assert "Клавиша z здесь ничего не делает" in str(app.query_one("#prompt").render())

    run(drive())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_open_hands_never_break_inside_a_suit(size: tuple[int, int]) -> None:
    """Seed 12: you play 10NT and both defenders lie down; no line of the log ends inside a suit
    of a hand whose next card starts the following line."""
    end_of_suit = re.compile(r"[♠♣♦♥](?:10|[7-9AKQJ])(?: (?:10|[7-9AKQJ]))*$")
    starts_with_rank = re.compile(r"^(?:10|[7-9AKQJ])(?: |$)")
    table = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], seed=12)
    app = PlayApp(table, delay=0)

    async def drive() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.press("right", "enter", "enter", "right", "enter", "enter", "enter", "enter")
            await pilot.pause()
            assert len(table.deal.exposed) >= 2
            log = [str(line.text).rstrip() for line in app.query_one("#log").lines]  # type: ignore[attr-defined]
            assert sum("lies down" in x for x in log) == 2
            broken = [(a, b) for a, b in itertools.pairwise(log) if end_of_suit.search(a) and starts_with_rank.match(b)]
            assert not broken, broken

    run(drive())
