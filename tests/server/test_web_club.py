"""The club end to end in headless Chromium: two people register, play a pulka with a bot, find it in
both histories and see the ratings move; a duplicate match of two tables compares its deals; every new
page at 1280×800 and 390×844 in English and Russian (screenshots in tmp/artifacts/web/club-*)."""

from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from web_helpers import (  # the module's server and browser fixtures, and the helpers every page test uses
    ARTIFACTS,
    browser,
    click_something,
    lang_context,
    russian_only,
    server,
)

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # fixtures
SEEN: dict[str, str] = {}  # what the first test made, for the screenshots of the second


def new_page(browser: Browser, lang: str, **kwargs: Any) -> Page:
    return lang_context(browser, lang, **kwargs)


def register(page: Page, base: str, name: str) -> None:
    """Sign up through the form (real clicks); the page lands on the new profile."""
    page.goto(base + "/account")
    page.fill("#register-name", name)
    page.fill("#register-password", "a long secret")
    page.click("#register-form button[type=submit]")
    page.wait_for_url("**/u/**")
    page.wait_for_selector("#me")
    assert page.inner_text("#me") == name


def status(base: str, tid: str) -> str:
    return str(httpx.get(f"{base}/api/tables/{tid}").json()["status"])


def test_two_people_a_bot_their_histories_ratings_and_a_duplicate_match(server: str, browser: Browser) -> None:
    ann = new_page(browser, "ru", viewport={"width": 1280, "height": 800})
    boris = new_page(browser, "en", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    register(ann, server, "Аня")
    register(boris, server, "Боря")
    r = ann.request.post(server + "/api/account/register", data={"name": "аня", "password": "another secret"})
    assert r.status == 409 and "занято" in r.json()["texts"]["ru"]  # the name is hers whatever the case
    assert ann.request.post(server + "/api/account/signin",
                            data={"name": "Аня", "password": "wrong one!"}).status == 401  # fmt: skip
    # Ann opens a table (a pulka of one deal) for a friend and a bot; Boris finds it in the lobby.
    r = ann.request.post(server + "/api/tables", data={
        "rules": "sochi", "options": ["end_condition=deals", "max_deals=1"],
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy", "name": "R2"}]})  # fmt: skip
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    boris.goto(server + "/")
    row = boris.locator(f"#open-list li[data-table='{tid}']")
    row.wait_for()
    assert "Аня" in row.inner_text() and "free seat" in row.inner_text()
    assert boris.locator("#guest-name-row").is_hidden()  # signed in: he sits as himself
    row.locator("button.join-open").click()
    boris.wait_for_url(f"**/t/{tid}")
    ann.goto(f"{server}/t/{tid}")
    for p in (ann, boris):
        p.wait_for_function("document.querySelectorAll('.hand .card').length === 10")
    rng = random.Random(5)
    end = time.monotonic() + 120
    while status(server, tid) != "finished":
        assert time.monotonic() < end, "the pulka did not end"
        if not (click_something(ann, rng) or click_something(boris, rng)):
            ann.wait_for_timeout(60)
    table = httpx.get(f"{server}/api/tables/{tid}").json()
    settlement = table["settlement"]
    # both find it in their histories
    for page, name in ((ann, "Аня"), (boris, "Боря")):
        page.goto(f"{server}/u/{name}")
        entry = page.locator(f"tr[data-table='{tid}']")
        entry.wait_for()
        assert "Аня" in entry.inner_text() and "Боря" in entry.inner_text() and "R2" in entry.inner_text()
        assert entry.locator(f"a[href='/study/game/{tid}']").count() == 1  # the replay viewer
        assert entry.locator(f"a[href='/api/club/games/{tid}/record']").count() == 1
        # the result in whole whists, as the table's result panel settled it (never 274.7)
        seat = 0 if name == "Аня" else 1
        assert entry.locator("td.num").inner_text().replace("−", "-") == table["settlement_whole"][seat]
    # the ratings moved: each has one pulka; whoever did better is above 1500, whoever did worse below
    boris.goto(server + "/ratings?pool=sochi-3")
    boris.wait_for_selector("tr[data-name='Аня']")
    shown = {n: boris.locator(f"tr[data-name='{n}'] td.num b").inner_text() for n in ("Аня", "Боря", "bot:easy")}
    assert all(v.endswith("?") for v in shown.values())  # provisional: one pulka
    for name, seat in (("Аня", 0), ("Боря", 1)):
        value = int(shown[name].rstrip("?"))
        whists = Fraction(settlement[seat])
        others = [Fraction(x) for i, x in enumerate(settlement) if i != seat]
        if all(whists > o for o in others):
            assert value > 1500, (name, value, settlement)
        if all(whists < o for o in others):
            assert value < 1500, (name, value, settlement)
    ann.goto(f"{server}/u/Аня")
    ann.wait_for_function("[...document.querySelectorAll('img.chart')].some(i => i.naturalWidth > 0)")
    # the study home lists her pulkas from her account, not only from this browser's memory
    ann.evaluate("localStorage.removeItem('pref_tables')")
    ann.goto(server + "/study")
    kept = ann.locator(f"#recent-list li[data-table='{tid}']")
    kept.wait_for()
    assert "Аня" in kept.inner_text() and "вист" in kept.inner_text()
    assert kept.locator(f"a[href='/study/game/{tid}']").count() == 1
    assert ann.locator("#recent-more").get_attribute("href") == "/u/%D0%90%D0%BD%D1%8F"
    # a duplicate match of two tables: Ann at the first, bots at the second
    ann.goto(server + "/match")
    ann.wait_for_selector("select[data-key='1:0']")
    ann.select_option("#match-rules", "leningrad")
    ann.select_option("select[data-key='1:0']", "bot:easy")
    ann.click("#match-form button[type=submit]")
    ann.wait_for_url("**/match/**")
    match_id = ann.url.rsplit("/", 1)[1]
    ann.locator("#match-table-list a").first.click()
    ann.wait_for_url("**/t/**")
    while not ann.locator("#next-deal").count():
        assert time.monotonic() < end + 120, "the match's first deal did not end"
        if not click_something(ann, rng):
            ann.wait_for_timeout(60)
    end = time.monotonic() + 90
    while httpx.get(f"{server}/api/matches/{match_id}").json()["compared"] < 1:
        assert time.monotonic() < end, "the bots' table did not finish its first deal"
        time.sleep(0.3)
    ann.goto(f"{server}/match/{match_id}")
    block = ann.locator(".deal-block[data-deal='1']")
    block.wait_for()
    assert block.locator("tbody tr").count() == 2 and "Δ" in block.inner_text()
    assert ann.locator(".totals tbody tr").count() == 2
    SEEN.update(table=tid, match=match_id)
    for p in (ann, boris):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_every_club_page_in_both_languages_and_sizes(server: str, browser: Browser, request: Any,
                                                     lang: str, size: tuple[int, int]) -> None:  # fmt: skip
    # Never skipped: the pages show the games the test above played (run the module, not this test alone).
    assert "match" in SEEN, "the pulka and the match of test_two_people_a_bot_their_histories... did not run first"
    w, h = size
    phone = w < 500
    page = new_page(browser, lang, viewport={"width": w, "height": h}, is_mobile=phone, has_touch=phone)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    request.config.preferans_artifacts = ARTIFACTS
    # a table waiting in the lobby, so that the list is not empty
    page.request.post(server + "/api/tables", data={"name": "Гость", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "medium", "name": "R2"}]})  # fmt: skip
    page.context.clear_cookies()
    pages = [("account", "/account", "#register-form"), ("lobby", "/", "#open-list li")]
    signed = [("profile", "/u/Аня", "tr[data-table]"), ("ratings", "/ratings", "tr[data-name]"),
              ("match-new", "/match", "select[data-key]"), ("match", f"/match/{SEEN['match']}", ".deal-block"),
              ("study", "/study", "#recent-list li[data-table]")]
    for i, (name, path, ready) in enumerate(pages + signed):
        if i == len(pages):  # the rest signed in
            assert page.request.post(server + "/api/account/signin",
                                     data={"name": "Аня", "password": "a long secret"}).status == 200  # fmt: skip
        page.goto(server + path)
        page.wait_for_selector(ready)
        page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"club-{name}-{w}x{h}-{lang}.png"), full_page=True)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth + 1"), name
        if lang == "ru":
            russian_only(page, names=["R2"])
        if phone:  # everything to tap at least 44 px
            small = page.evaluate(
                "sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent).map(e => {"
                " const r = e.getBoundingClientRect(); return [e.id || e.textContent.trim(), r.width, r.height]; })"
                ".filter(([, w, h]) => w < 44 || h < 44)",
                "main button, main a.button, main select, .topbar a, .topbar button")  # fmt: skip
            assert not small, (name, small)
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
