"""End to end in headless Chromium (Debian's package, driven by Playwright; no browser download)."""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
CLICKABLE = ".controls button, .hand .card.legal, #next-deal"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "games.db"
    port = _free_port()
    code = ("import sys; from preferans.cli import main; "
            f"sys.exit(main(['serve', '--port', '{port}', '--db', 'sqlite:///{db}', '--bot-delay', '0.05', "
            "'--log-level', 'warning']))")  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: scripts/test installs it (scripts/apt-packages.txt)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_page(browser: Browser, **kwargs: Any) -> Page:
    page = browser.new_context(**kwargs).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def create_table(page: Page, base: str, seats: list[str], name: str = "Ann") -> str:
    page.goto(base + "/")
    page.fill("#name", name)
    for i, value in enumerate(seats, start=1):
        page.select_option(f"select[data-seat='{i}']", value)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#status:not(:empty)")
    return str(page.input_value("#invite"))


def click_something(page: Page, rng: random.Random) -> bool:
    """Click one of the offered choices (a legal card or a call), if any."""
    items = page.locator(".controls button:not(#next-deal):not(#stop-game), .hand .card.legal")
    n = items.count()
    if not n:
        return False
    try:
        items.nth(rng.randrange(n)).click(timeout=2000)
    except Exception:  # re-rendered under the pointer by a new state: try again
        return False
    return True


def deal_over(page: Page) -> bool:
    return bool(page.locator("#next-deal").count())


def play_until_over(page: Page, rng: random.Random, limit: float = 90.0) -> None:
    """Click legal choices until the deal is over (bots play their turns meanwhile)."""
    end = time.monotonic() + limit
    while not deal_over(page):
        if time.monotonic() > end:
            page.screenshot(path="/tmp/web-test-failure.png", full_page=True)
            raise AssertionError(f"the deal did not end; status: {page.locator('#status').inner_text()!r}")
        if not click_something(page, rng):
            page.wait_for_timeout(60)


def test_one_person_plays_a_deal_against_two_bots(server: str, browser: Browser) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 860})
    create_table(page, server, ["bot:easy", "bot:random"])
    rng = random.Random(1)
    play_until_over(page, rng)
    assert page.locator("#result-box .res").inner_text()
    assert page.locator("#log li").count() >= 3  # the calls, then a line per trick
    assert page.locator("#log li.trick-line").count() in (0, 10)  # 0: the game was not played
    assert page.locator("#sheet").get_attribute("src")
    # every card was drawn by the server as SVG
    assert page.evaluate("[...document.querySelectorAll('img.card')].every(i => i.complete && i.naturalWidth > 0)")
    page.click("#next-deal")
    page.wait_for_function("document.querySelector('#status').textContent.includes('2')")
    table_url = page.url
    page.goto(server + "/")  # the lobby lists the tables you sit at
    page.wait_for_selector("#recent-list li a")
    assert table_url.endswith(str(page.get_attribute("#recent-list li a", "href")))
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_lobby_fits_a_phone(server: str, browser: Browser) -> None:
    page = new_page(browser, viewport={"width": 360, "height": 740}, is_mobile=True)
    page.goto(server + "/")
    page.select_option("#rules", "leningrad")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.click("#lang")
    assert page.locator("#create-form button[type=submit]").inner_text() in ("Create table", "Создать стол")
    assert page.errors == []  # type: ignore[attr-defined]


def test_three_pages_play_a_deal_together(server: str, browser: Browser) -> None:
    pages = [new_page(browser, viewport={"width": 1100, "height": 800})]
    invite = create_table(pages[0], server, ["human", "human"])
    for name in ("Boris", "Vera"):
        p = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        p.goto(invite)
        p.fill("#join-name", name)
        p.locator("#free-seats button").first.click()
        p.wait_for_selector("#join", state="hidden")
        pages.append(p)
    for p in pages:
        p.wait_for_function("document.querySelectorAll('.hand .card').length === 10")
    rng = random.Random(2)
    for _ in range(600):
        if all(deal_over(p) for p in pages):
            break
        if not any(click_something(p, rng) for p in pages):
            pages[0].wait_for_timeout(60)
    assert all(deal_over(p) for p in pages)
    labels = {p.locator("#result-box .res").inner_text() for p in pages}
    assert len(labels) == 1
    # the phone layout does not scroll sideways
    assert pages[1].evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    for p in pages:
        assert p.errors == []  # type: ignore[attr-defined]


def test_reload_mid_deal_resumes(server: str, browser: Browser) -> None:
    page = new_page(browser)
    create_table(page, server, ["bot:random", "bot:random"])
    rng = random.Random(3)
    clicks = 0
    while clicks < 6 and not deal_over(page):
        if click_something(page, rng):
            clicks += 1
        else:
            page.wait_for_timeout(60)
    page.wait_for_timeout(300)  # the bots finish their turns
    before_hand = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")
    before_log = page.locator("#log li").all_inner_texts()
    page.reload()
    page.wait_for_function(f"document.querySelectorAll('#log li').length >= {len(before_log)}")
    page.wait_for_timeout(200)
    after_log = page.locator("#log li").all_inner_texts()
    assert after_log[: len(before_log)] == before_log
    if len(after_log) == len(before_log):
        assert page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)") == before_hand
    play_until_over(page, rng)  # and the game goes on from there


def test_the_accused_answers_a_report_in_the_browser(server: str, browser: Browser) -> None:
    """Issue 14: a report about another player waits for him; he sees it and answers (en, ru, phone)."""
    pages = {s: new_page(browser, viewport={"width": 1280, "height": 800}) for s in (0, 1)}
    r = pages[0].request.post(server + "/api/tables", data={
        "name": "Ann", "players": 3, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
        "options": ["irregularity_reports=true"]})  # fmt: skip
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    assert pages[1].request.post(f"{server}/api/tables/{tid}/seats/1", data={"name": "Boris"}).status == 200
    for p in pages.values():
        p.goto(f"{server}/t/{tid}")
        p.wait_for_selector("#status:not(:empty)")
    answers = iter(["talon-seen", "2"])  # Ann says Boris (seat 2 of the page's numbering) saw the talon
    pages[0].on("dialog", lambda d: d.accept(next(answers)))
    pages[0].click("#report")
    boris = pages[1]
    boris.wait_for_selector("#accusation")
    assert "Ann" in boris.inner_text("#accusation") and "!talon-seen" in boris.inner_text("#accusation")
    boris.screenshot(path="/tmp/accusation-en-1280.png")
    boris.click("#lang")
    boris.wait_for_selector("#deny")
    assert "говорит" in boris.inner_text("#accusation")
    boris.screenshot(path="/tmp/accusation-ru-1280.png")
    boris.set_viewport_size({"width": 390, "height": 844})
    boris.screenshot(path="/tmp/accusation-ru-390.png", full_page=True)
    boris.click("#agree")  # «да, было»: the report takes effect
    boris.wait_for_selector("#accusation", state="detached")
    assert pages[0].locator("#accusation").count() == 0
    for p in pages.values():
        assert not p.errors, p.errors  # type: ignore[attr-defined]
