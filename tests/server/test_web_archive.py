"""An archived table's page (issue 25, server/archive.py): «Игра сдана в архив» with the record's
downloads and the final sheet, instead of "No such table"."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from preferans.rules import Rules
from preferans.server.archive import Archive, RetentionRule
from preferans.server.game import TableConfig, TableGame
from preferans.server.storage import Storage
from web_helpers import browser, lang_context, running_server, russian_only, shot

__all__ = ["browser"]  # a fixture: used by name

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def archived(tmp_path_factory: Any) -> Iterator[tuple[str, dict[str, str]]]:
    """A server whose database holds an archived finished game and an archived abandoned one."""
    db = tmp_path_factory.mktemp("archive") / "games.db"
    storage = Storage(f"sqlite:///{db}")
    rng = random.Random(4)
    ids = {}
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    for reason in ("finished", "abandoned"):
        g, _ = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3, lang="ru"), seats, "Аня")
        for _ in range(400):
            assert g.deal is not None
            if g.deal.is_over or (reason == "abandoned" and len(g.deal.actions) > 4):
                break
            if g.bot_seat_to_act() is not None:
                g.bot_act()
            else:
                g.act(0, int(rng.choice(g.deal.legal_actions())))
        if reason == "finished":
            g.vote_stop(0)
        assert Archive(storage).archive(g.id, reason, RetentionRule(finished=1, idle=1), time.time() + 2)
        ids[reason] = g.id
    storage.close()
    with running_server(Path(db)) as base:
        yield base, ids


@pytest.mark.parametrize("reason", ["finished", "abandoned"])
def test_an_archived_table_page_says_so_with_its_downloads(archived: tuple[str, dict[str, str]], browser: Browser,
                                                            request: Any, reason: str) -> None:  # fmt: skip
    base, ids = archived
    tid = ids[reason]
    page = lang_context(browser, "ru", viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#archived:not([hidden])")
    page.wait_for_function("document.querySelector('#archived-sheet').complete")
    assert page.locator("#archived h1").inner_text() == "Игра сдана в архив"
    assert page.locator("#missing").is_hidden() and page.locator("#table").is_hidden()
    text = page.locator("#archived-text").inner_text()
    assert ("Игра закончилась" if reason == "finished" else "недоигранным") in text
    links = page.locator("#archived-links a")
    assert links.all_inner_texts() == ["Просмотр и разбор", "Скачать запись", "Запись для программ"]
    record = httpx.get(base + str(links.nth(1).get_attribute("href")))
    assert record.status_code == 200 and record.text.startswith("%preferans-record")
    assert page.evaluate("document.querySelector('#archived-sheet').naturalWidth") > 0  # the sheet is drawn
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    russian_only(page, ["Аня"])
    shot(request, page, f"archived-{reason}-ru-phone")
    page.click("#lang")  # English
    page.wait_for_function("document.querySelector('#archived h1').textContent === 'This game is archived'")
    assert page.locator("#archived-links a").nth(1).inner_text() == "Download record"
    # the viewer replays the kept record, with its analysis
    page.click("#study-link")
    page.wait_for_url(f"**/study/game/{tid}")
    page.wait_for_selector("#viewer:not([hidden]) #felt .card", timeout=30_000)
    assert page.errors == []  # type: ignore[attr-defined]
