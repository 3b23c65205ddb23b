"""The score keeper in the browser (/score), as a table of friends uses it on one phone: a real game of
six deals entered in Russian at 390×844 — with the buttons and typed as the table says it, a mistake
shown and fixed, an earlier deal corrected, a reload — the read-only link following it, the paper
sheet readable (labels ≥ 12 px) and enlarged, and the settlement in whole whists the same as
``preferans score`` gives for the same lines."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from web_helpers import browser, lang_context, russian_only, server, shot  # noqa: F401

pytestmark = pytest.mark.browser

NAMES = ["Аня", "Боря", "Вася"]
PHONE = {"width": 390, "height": 844}


def chip(page: Page, row: str, label: str) -> None:
    """Press the builder's button ``label`` in the row captioned ``row``."""
    page.locator(".b-row", has=page.locator(".b-label", has_text=re.compile(f"^{re.escape(row)}$"))).locator(
        ".chip", has_text=re.compile(f"^{re.escape(label)}$")).click()  # fmt: skip


def write(page: Page, line: str | None = None) -> None:
    """Write the deal (typing ``line`` first, if given) and wait for the sheet to take it."""
    before = page.locator("#deals li").count()
    if line is not None:
        page.fill("#line", line)
    page.click("#write")
    page.wait_for_function(f"document.querySelectorAll('#deals li').length > {before}")


def whole_row(page: Page) -> list[str]:
    return [c.strip() for c in page.locator("#settle tr.whole td").all_inner_texts()]


def cli_whole(lines: list[str]) -> list[str]:
    """The same lines through ``preferans score --lang ru``: its row «в целых вистах»."""
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from preferans.cli import main; sys.exit(main())",
         "score", "--players", ",".join(NAMES), "--lang", "ru", "-"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, check=True,
    )  # fmt: skip
    row = next(x for x in proc.stdout.splitlines() if x.startswith("в целых вистах"))
    return row.removeprefix("в целых вистах").split()


def test_a_six_deal_game_on_a_phone_in_russian(server: str, browser: Browser, request: Any) -> None:  # noqa: F811
    page = lang_context(browser, "ru", viewport=PHONE, device_scale_factor=1, has_touch=True)
    page.goto(server + "/score")
    for i, name in enumerate(NAMES):
        page.locator("#names input").nth(i).fill(name)
    shot(request, page, "score-new-ru-390")
    russian_only(page, NAMES)
    page.click("#new-form button[type=submit]")
    page.wait_for_url(re.compile(r"/score/[0-9a-f]+$"))
    page.wait_for_selector("#editor:not([hidden])")
    sheet_id = page.url.rstrip("/").split("/")[-1]

    # 1: with the buttons — Аня 6♠, Боря вистует и берёт 4, Вася пасует.
    chip(page, "Играет", "Аня")
    chip(page, "Игра", "6")
    chip(page, "Козырь", "♠")
    chip(page, "Боря", "вист")
    chip(page, "Вася", "пас")
    chip(page, "Боря: взятки", "4")
    assert page.input_value("#line") == "Аня 6♠ Боря вист Вася пас Боря 4"
    write(page)
    # The read-only link, opened on another phone, follows the sheet from here on.
    viewer = lang_context(browser, "ru", viewport=PHONE)
    viewer.goto(page.input_value("#view-link"))
    viewer.wait_for_selector("#deals li")
    assert viewer.locator("#editor").is_hidden() and not viewer.locator("#deals button").count()

    # 2: typed as said, names in small letters.
    write(page, "боря 7 треф, оба вистуют, Вася 2 Аня 1")
    # 3: a mistake is shown in Russian, nothing is written; then the right line.
    page.fill("#line", "Гена 6♠ пас пас")
    page.click("#write")
    page.wait_for_selector("#line-error:not(:empty)")
    assert "Гена" in page.inner_text("#line-error") and page.locator("#deals li").count() == 2
    shot(request, page, "score-error-ru-390")
    write(page, "распасы ан3 б5 в2")
    # 4: misère with the buttons.
    page.click(".kind[data-kind=misere]")
    chip(page, "Мизер играет", "Вася")
    chip(page, "его взятки", "0")
    write(page)
    # 5 and 6 typed; the page is reloaded between them (nothing lost).
    write(page, "Аня 8 бк пас пас")
    page.reload()
    page.wait_for_selector("#deals li")
    assert page.locator("#deals li").count() == 5
    # 6 with the connection dropped: kept on the phone, said so, and sent when it is back.
    page.context.set_offline(True)
    page.fill("#line", "Б 6 червей вист Аня пас Вася без одной")
    page.click("#write")
    page.wait_for_function("document.getElementById('pending').textContent.includes('Нет связи')")
    assert page.locator("#pending").is_visible() and page.locator("#deals li").count() == 5
    assert page.evaluate(f"localStorage.getItem('score_pending_{sheet_id}')")
    page.context.set_offline(False)
    page.wait_for_function("document.querySelectorAll('#deals li').length === 6")
    assert page.locator("#pending").is_hidden()

    # An earlier deal corrected: Боря took 3 in the first deal, not 4.
    page.locator("#deals li").nth(0).get_by_role("button", name="Исправить").click()
    assert page.input_value("#line") == "Аня 6♠ Боря вист Вася пас Боря 4"
    page.fill("#line", "Аня 6♠ Боря вист Вася пас Боря 3")
    page.click("#write")
    page.wait_for_function("document.querySelector('#deals li .typed').textContent.includes('Боря 3')")
    lines = ["Аня 6♠ Боря вист Вася пас Боря 3", "боря 7 треф, оба вистуют, Вася 2 Аня 1", "распасы ан3 б5 в2",
             "Вася мизер 0", "Аня 8 бк пас пас", "Б 6 червей вист Аня пас Вася без одной"]  # fmt: skip
    typed = [t.strip("«»") for t in page.locator("#deals .typed").all_inner_texts()]
    assert typed == lines
    stored = httpx.get(f"{server}/api/score/{sheet_id}?lang=ru").json()
    assert [d["text"] for d in stored["deals"]] == lines

    # The settlement in whole whists: as `preferans score` settles the same lines.
    assert whole_row(page) == cli_whole(lines)
    assert sum(int(x) for x in whole_row(page)) == 0
    assert not re.search(r"\d/\d", page.inner_text("#settle"))  # no 82/3 reaches a player
    # The viewer caught up by itself.
    viewer.wait_for_function("document.querySelectorAll('#deals li').length === 6")
    viewer.wait_for_function(f"[...document.querySelectorAll('#settle tr.whole td')].map(x => x.textContent)"
                             f".join(' ') === {' '.join(whole_row(page))!r}")  # fmt: skip

    # The paper sheet fills the phone's width and its smallest label is at least 12 px there.
    page.wait_for_function("(i => i.complete && i.naturalWidth > 0)(document.getElementById('pulka'))")
    shown = page.evaluate("document.getElementById('pulka').getBoundingClientRect().width")
    svg = httpx.get(f"{server}/api/score/{sheet_id}/sheet.svg?lang=ru&layout=phone").text
    view_w = float(re.search(r'viewBox="0 0 ([\d.]+)', svg).group(1))  # type: ignore[union-attr]
    smallest = min(float(x) for x in re.findall(r'font-size="([\d.]+)"', svg))
    assert shown >= 340 and smallest * shown / view_w >= 12, (shown, view_w, smallest)
    page.click("#bigger")
    assert page.evaluate("document.getElementById('pulka').getBoundingClientRect().width") >= 1.9 * shown
    assert page.inner_text("#bigger") == "Мельче"
    page.click("#bigger")

    russian_only(page, NAMES)
    russian_only(viewer, NAMES)
    page.evaluate("window.scrollTo(0, 0)")
    shot(request, page, "score-editor-ru-390")
    page.locator("#pulka").scroll_into_view_if_needed()
    shot(request, page, "score-sheet-ru-390")
    page.locator("#settle").scroll_into_view_if_needed()
    shot(request, page, "score-settle-ru-390")
    shot(request, viewer, "score-view-ru-390")
    assert not page.errors and not viewer.errors  # type: ignore[attr-defined]
    page.context.close()
    viewer.context.close()


def test_the_sheet_in_english_on_a_desktop(server: str, browser: Browser, request: Any) -> None:  # noqa: F811
    r = httpx.post(server + "/api/score", json={"players": ["Ann", "Bob", "Cy", "Dan"], "rules": "leningrad"},
                   headers={"origin": server})  # fmt: skip
    assert r.status_code == 201, r.text
    made = r.json()
    page = lang_context(browser, "en", viewport={"width": 1280, "height": 800})
    page.goto(server + made["edit"])
    page.wait_for_selector("#editor:not([hidden])")
    assert "key=" not in page.url  # the key leaves the address bar, kept on this device
    assert page.locator(".b-row").nth(0).locator(".chip").all_inner_texts() == ["Bob", "Cy", "Dan"]  # Ann deals
    write(page, "Bob 6S Cy whist Dan pass Cy 4")
    write(page, "allpass Ann 4 Cy 4 Dan 2")
    assert page.locator("#deals li").count() == 2
    shot(request, page, "score-editor-en-1280")
    ru = lang_context(browser, "ru", viewport={"width": 1280, "height": 800})
    ru.goto(server + made["view"])
    ru.wait_for_selector("#deals li")
    russian_only(ru, ["Ann", "Bob", "Cy", "Dan"])
    shot(request, ru, "score-view-ru-1280")
    assert not page.errors and not ru.errors  # type: ignore[attr-defined]
    page.context.close()
    ru.context.close()
