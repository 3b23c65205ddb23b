"""In the browser: the discard chosen and then confirmed, the end by agreement asked first, a forced card
played by itself (a setting), the rule-options form, and whole games in Russian — every page state of
them scanned for a Latin word (tests/latin_helpers.py)."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from web_helpers import browser, click_something, create_table, lang_context, new_page, russian_only, server, shot

__all__ = ["browser", "server"]  # fixtures: used by name, not in the code

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def click_first(page: Page, selector: str) -> bool:
    items = page.locator(selector)
    if not items.count():
        return False
    try:
        items.first.click(timeout=1000)
    except Exception:  # re-rendered under the pointer: the next round looks again
        return False
    return True


def chosen(page: Page) -> list[str]:
    return list(page.evaluate("[...document.querySelectorAll('.hand svg.card.chosen')].map(c => c.dataset.card)"))


def hand(page: Page) -> list[str]:
    return list(page.evaluate("[...document.querySelectorAll('#hand svg.card')].map(c => c.dataset.card)"))


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("ru", PHONE)])
def test_the_discard_is_two_cards_chosen_then_confirmed(server: str, browser: Browser, request: Any, lang: str,
                                                        size: dict[str, Any]) -> None:  # fmt: skip
    """Ann bids the lowest bid whenever she may and her two friends pass: she takes the talon.  A tap
    chooses a card (again: puts it back), at most two; nothing is sent until «Discard»; «Choose again»
    starts over; then the two go, in order, and the declaration follows."""
    ann = lang_context(browser, lang, **size)
    invite = create_table(ann, server, ["human", "human"], name="Ann" if lang == "en" else "Аня")
    friends = []
    for name in ("Boris", "Vera"):
        p = new_page(browser, viewport={"width": 800, "height": 700})
        p.goto(invite)
        p.fill("#join-name", name)
        p.locator("#free-seats button").first.click()
        p.wait_for_selector("#join", state="hidden")
        friends.append(p)
    end = time.monotonic() + 60
    while not ann.locator("#discard-note").count():
        assert time.monotonic() < end, ann.locator("#status").inner_text()
        acted = click_first(ann, "#bidding .ladder button:not([disabled])") or click_first(
            ann, "#bidding button[data-action='talon']")
        for p in friends:
            acted = click_first(p, "#bidding button[data-action='pass']") or acted
        if not acted:
            ann.wait_for_timeout(60)
    cards = ann.locator(".hand svg.card.legal")
    assert len(hand(ann)) == 12 and cards.count() == 12 and ann.locator("#discard-confirm").is_disabled()
    first, second, third = (str(cards.nth(k).get_attribute("data-card")) for k in (0, 5, 9))
    ann.click(f".hand svg.card[data-card='{first}']")
    assert chosen(ann) == [first] and ann.locator("#discard-confirm").is_disabled()
    ann.click(f".hand svg.card[data-card='{first}']")  # put back
    assert chosen(ann) == []
    for c in (first, second, third):  # a third card is not taken while two are chosen
        ann.click(f".hand svg.card[data-card='{c}']")
    assert sorted(chosen(ann)) == sorted([first, second]) and ann.locator("#discard-confirm").is_enabled()
    ann.wait_for_timeout(400)
    assert len(hand(ann)) == 12  # nothing was sent
    ann.click("#discard-cancel")
    assert chosen(ann) == []
    ann.click(f".hand svg.card[data-card='{second}']")
    ann.click(f".hand svg.card[data-card='{third}']")
    note = ann.locator("#discard-note").inner_text()
    assert ("Discard" if lang == "en" else "Снести") in note
    shot(request, ann, f"discard-confirm-{lang}-{size['viewport']['width']}")
    if lang == "ru":
        russian_only(ann, ["Boris", "Vera"])
    ann.click("#discard-confirm")
    ann.wait_for_function("document.querySelectorAll('#hand svg.card').length === 10")
    left = hand(ann)
    assert second not in left and third not in left and first in left
    lines = ann.locator("#log li.discard-line").all_inner_texts()
    assert len(lines) == 2 and all(("discards" if lang == "en" else "сносит") in x for x in lines)
    for p in (ann, *friends):
        assert not p.errors, p.errors  # type: ignore[attr-defined]


def test_ending_the_game_by_agreement_asks_first(server: str, browser: Browser, request: Any) -> None:
    page = new_page(browser, **DESKTOP)
    create_table(page, server, ["bot:random", "bot:random"])
    rng = random.Random(5)
    end = time.monotonic() + 90
    while not page.locator("#next-deal").count():
        assert time.monotonic() < end, page.locator("#status").inner_text()
        if not click_something(page, rng):
            page.wait_for_timeout(60)
    page.click("#stop-game")
    dialog = page.locator("#stop-dialog")
    assert dialog.is_visible() and "settled as they stand" in dialog.inner_text()
    shot(request, page, "stop-dialog-en-1280")
    page.click("#stop-no")  # «Play on»: nothing is sent
    page.wait_for_timeout(300)
    assert not dialog.is_visible() and page.locator("#stop-game").inner_text() == "End the game by agreement"
    assert page.locator("#next-deal").count() and not page.locator("#result-box .settle").count()
    page.click("#stop-game")
    page.click("#stop-yes")
    page.wait_for_selector("#result-box .settle")  # the only person agreed: the game is over and settled
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_forced_card_is_played_by_itself_when_the_player_asks(server: str, browser: Browser, request: Any) -> None:
    """With «Auto-play» on (kept in this browser), the one card the player may play is marked, said in
    a line, and played after a moment without a click; the same definition of «forced» as the terminal's
    --auto-play (bots/automatic.forced_card), sent by the server as the view's ``forced``."""
    page = new_page(browser, **DESKTOP)
    create_table(page, server, ["bot:random", "bot:random"])
    page.check("#autoplay")
    assert page.evaluate("localStorage.getItem('pref_autoplay')") == "1"
    rng = random.Random(11)
    end = time.monotonic() + 120
    seen = "[(document.querySelector('.hand svg.card.auto') || {dataset: {}}).dataset.card || null, " \
           "(document.querySelector('#auto-note') || {}).textContent || null]"  # fmt: skip
    while True:
        card, note = page.evaluate(seen)  # in one look: the card is marked for a moment only
        if card:
            break
        assert time.monotonic() < end, "no forced card came"
        if page.locator("#next-deal").count():
            page.click("#next-deal")
            continue
        # Only the auction and the discard are clicked: every card in play is left to the setting.
        items = page.locator("#bidding button:not([disabled]), .controls button:not([disabled]):not(#stop-game)")
        if page.locator("#discard-note").count() and len(chosen(page)) < 2:
            items = page.locator(".hand svg.card.legal:not(.chosen)")
        if items.count():
            with contextlib.suppress(Exception):
                items.nth(rng.randrange(items.count())).click(timeout=500)
        elif page.locator(".hand svg.card.legal").count() and not page.locator(".hand svg.card.auto").count():
            with contextlib.suppress(Exception):  # a real choice: the player makes it
                page.locator(".hand svg.card.legal").first.click(timeout=500)
        else:
            page.wait_for_timeout(50)
    assert note and ("Played by itself" in note), note
    shot(request, page, "auto-play-en-1280")
    page.wait_for_function(f"!document.querySelector('#hand svg.card[data-card=\"{card}\"]')", timeout=5000)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_options_form_makes_the_table_with_the_chosen_options(server: str, browser: Browser,
                                                                  request: Any) -> None:  # fmt: skip
    """Russian, on a phone: the form shows the chosen preset's values; a wrong value is refused naming
    the option in Russian; the changed ones are sent and the table plays by them (its house rules)."""
    page = lang_context(browser, "ru", **PHONE)
    page.goto(server + "/")
    page.fill("#name", "Аня")
    page.select_option("#rules", "leningrad")
    page.click("#options-box summary")
    page.wait_for_selector("details.opt-group")
    assert page.locator("#opt-misere_trick").input_value() == "20"  # Leningrad's, not Sochi's 10
    page.click("details.opt-group[data-group='bidding'] summary")
    page.fill("#opt-bomb_limit", "3")
    page.click("#create-form button[type=submit]")
    page.wait_for_function("document.querySelector('#create-error').textContent.length > 0")
    error = page.locator("#create-error").inner_text()
    assert "«Предел бомбы»" in error and "степень двойки" in error, error
    russian_only(page, ["Аня"])
    page.fill("#opt-bomb_limit", "8")
    page.click("details.opt-group[data-group='whisting'] summary")
    page.check("#opt-za_svoimi")
    page.click("details.opt-group[data-group='misere'] summary")
    page.fill("#opt-misere_pool", "12")
    page.click("details.opt-group[data-group='all_pass'] summary")
    page.select_option("#opt-raspas_progression", "geometric")
    assert "изменено: 1" in page.locator("details.opt-group[data-group='whisting'] .opt-count").inner_text()
    page.locator("#opt-za_svoimi").scroll_into_view_if_needed()
    shot(request, page, "options-form-ru-390")
    russian_only(page, ["Аня"])
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#rules-box .changes li")
    tid = page.url.rsplit("/", 1)[-1]
    info = httpx.get(f"{server}/api/tables/{tid}").json()
    assert info["rules"] == "leningrad"
    assert {c["field"] for c in info["changes"]} == {"za_svoimi", "misere_pool", "raspas_progression"}
    shown = page.locator("#rules-box").inner_text()
    assert "Ленинград" in shown and "«За своими»: да" in shown and "1, 2, 4" in shown
    russian_only(page, ["Аня"])
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_options_form_in_english(server: str, browser: Browser, request: Any) -> None:
    page = new_page(browser, **DESKTOP)
    page.goto(server + "/")
    page.click("#options-box summary")
    page.click("details.opt-group[data-group='bidding'] summary")
    page.select_option("#opt-hold_rule", "first_hand_only")
    assert page.locator("#opt-hold_rule option[value='first_hand_only']").inner_text() == "first hand only (Kodeks)"
    assert page.locator(".opt.changed").count() == 1
    assert page.locator("details.opt-group[data-group='bidding'] .opt-count").inner_text() == "1 changed"
    shot(request, page, "options-form-en-1280")
    page.select_option("#rules", "kodeks")  # the changed option stays, the others follow the preset
    assert page.locator("#opt-hold_rule").input_value() == "first_hand_only"
    assert page.locator("#opt-jump_bids").is_checked() is False  # the Kodeks: no jumps
    assert page.errors == []  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------ whole Russian games
GAMES = [
    # preset, players, page size, options, deals (0: ended by agreement after two)
    ("sochi", 3, DESKTOP, ["claims=true", "irregularity_reports=true", "end_condition=deals", "max_deals=3"], 3),
    ("leningrad", 4, PHONE, ["end_condition=deals", "max_deals=4"], 4),
    ("kodeks", 2, DESKTOP, [], 0),
]


@pytest.mark.parametrize(("preset", "players", "size", "options", "deals"), GAMES)
def test_a_russian_game_shows_no_latin_word(server: str, browser: Browser, request: Any, preset: str, players: int,
                                            size: dict[str, Any], options: list[str], deals: int) -> None:  # fmt: skip
    """A person and random bots play a whole pulka in Russian (3 players with claims and reports, 4 with
    the sitting-out dealer on a phone, гусарик with the dummy), choosing at random; every state of the
    page — the auction, the talon, the discard, whisting, play, results, errors, the end — shows no
    Latin word but cards and names (the bots are «Бот 2», the table speaks its creator's language)."""
    page = lang_context(browser, "ru", **size)
    page.goto(server + "/")  # the page's own origin for the request below (and its cookie)
    r = page.request.post(server + "/api/tables", data={
        "name": "Аня", "rules": preset, "players": players, "lang": "ru", "options": options,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)})  # fmt: skip
    assert r.status == 201, r.text()
    page.goto(server + r.json()["url"])
    page.wait_for_selector("#status:not(:empty)")
    rng = random.Random(players)
    played, checked, end = 0, 0, time.monotonic() + 240
    while True:
        assert time.monotonic() < end, page.locator("#status").inner_text()
        russian_only(page)
        checked += 1
        if page.locator("#result-box .settle").count():
            break
        if page.locator("#next-deal").count():
            played += 1
            if deals == 0 and played == 2:  # the end by agreement: asked first, in Russian
                page.click("#stop-game")
                page.wait_for_selector("#stop-dialog[open]")
                russian_only(page)
                shot(request, page, f"stop-dialog-ru-{size['viewport']['width']}")
                page.click("#stop-yes")
                page.wait_for_selector("#result-box .settle")
                continue
            page.click("#next-deal")
            page.wait_for_timeout(100)
            continue
        if not click_something(page, rng):
            page.wait_for_timeout(60)
    tid = page.url.rsplit("/", 1)[-1]
    info = httpx.get(f"{server}/api/tables/{tid}").json()
    assert info["status"] == "finished" and info["deal"] == (deals or 2) and checked >= 3 * (deals or 2)
    assert [s["name"] for s in info["seats"] if s["kind"] == "bot"] == [f"Бот {k}" for k in range(2, players + 1)]
    shot(request, page, f"russian-{preset}-{players}-{size['viewport']['width']}-end")
    russian_only(page)
    assert page.errors == []  # type: ignore[attr-defined]
