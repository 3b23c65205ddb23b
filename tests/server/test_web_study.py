"""Study in the browser (issue 27), in Russian, at 1280×800 and on a phone at 390×844: a recorded
game uploaded (a .prf file chosen, a JSON record pasted) and stepped through (buttons, the arrow
keys, a shared link), the analysis's cost marks and summary, a position set up by hand and solved on
the board, a puzzle answered, and the deal just finished looked at after «Next deal».  Every page is
checked for Latin words (russian_only) and whists written as fractions."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from preferans.record import load
from preferans.rulings.puzzles import record_puzzles, shipped
from web_helpers import browser, click_something, lang_context, play_until_over, russian_only, server, shot

__all__ = ["browser", "server"]  # the fixtures

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).parents[1] / "golden" / "records"
SIZES: dict[str, dict[str, Any]] = {"1280": {"viewport": {"width": 1280, "height": 800}},
         "390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}  # fmt: skip
# The golden Sochi pulka as a Russian club would write it: the players' names and the event in Russian.
RUSSIAN = {"Friday club": "Пятничный клуб", "Sochi": "Сочи", "Anna": "Аня", "Boris": "Борис", "Vera": "Вера"}
THIRDS = re.compile(r"\d+/\d")  # whists are never written as fractions such as -32/3


def russian_record(suffix: str) -> str:
    text = (GOLDEN / f"sochi-pulka.{suffix}").read_text(encoding="utf-8")
    for en, ru in RUSSIAN.items():
        text = text.replace(en, ru)
    return text


def step_of(page: Page) -> int:
    m = re.search(r"Шаг (\d+) из (\d+)", page.locator("#step-text").inner_text())
    assert m, page.locator("#step-text").inner_text()
    return int(m.group(1))


def shown_step(page: Page, k: int) -> None:
    page.wait_for_function(f"document.querySelector('#step-text').textContent.startsWith('Шаг {k} ')")


def clean(page: Page) -> None:
    russian_only(page)
    body = page.evaluate("document.body.innerText")
    assert not THIRDS.search(body), THIRDS.findall(body)
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_recorded_game_stepped_through_with_its_cost_marks(server: str, browser: Browser, request: Any,
                                                             size: str, tmp_path: Path) -> None:  # fmt: skip
    page = lang_context(browser, "ru", **SIZES[size])
    page.goto(server + "/study")
    page.wait_for_function("document.title.startsWith('Разбор')")
    clean(page)
    if size == "1280":  # the record's file (.prf) chosen
        chosen = tmp_path / "пулька.prf"
        chosen.write_text(russian_record("prf"), encoding="utf-8")
        page.set_input_files("#file", chosen)
        assert page.locator("#file-name").inner_text() == "пулька.prf"
    else:  # the record for programs (JSON) pasted
        page.fill("#record-text", russian_record("json"))
    page.click("#open-record")
    page.wait_for_url("**/study/record/**")
    shown_step(page, 0)
    assert "Пятничный клуб" in page.locator("#title").inner_text()
    clean(page)
    # Forward and back with the arrow keys, the buttons and the ends: the URL keeps the step.
    felt = page.locator("#felt").inner_text()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        shown_step(page, k)
    assert page.url.endswith("#deal=1&step=3") and page.locator("#felt").inner_text() != felt
    page.keyboard.press("ArrowLeft")
    shown_step(page, 2)
    page.click("#next")
    shown_step(page, 3)
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#next').disabled")
    assert page.locator("#felt .status").inner_text().startswith("Сдача 1 · ")
    page.click("#first")
    shown_step(page, 0)
    # The analysis arrives deal by deal: every move marked (✓ a best choice, −N the whists it cost).
    page.wait_for_selector("#moves .mark.bad", timeout=60_000)
    page.wait_for_selector("#summary-box:not([hidden])", timeout=60_000)
    marks = page.locator("#moves .mark").all_inner_texts()
    assert "✓" in marks and all(m == "✓" or m == "·" or re.fullmatch(r"−\d+(,\d)?", m) for m in marks), marks
    summary = page.locator("#summary").inner_text()
    assert all(name in summary for name in ("Аня", "Борис", "Вера")) and "виста" in summary, summary
    # A costly decision from the list: the step it was taken at, what it cost and the best choice.
    page.locator("#analysis .biggest a").first.click()
    page.wait_for_selector("#note .cost.bad")
    note = page.locator("#note").inner_text()
    assert "Лучше: " in note and "вист" in note, note
    shot(request, page, f"study-viewer-ru-{size}")
    clean(page)
    # The link as it stands opens the same deal at the same step for somebody else.
    link, step = page.url, step_of(page)
    other = lang_context(browser, "ru", **SIZES[size])
    other.goto(link)
    shown_step(other, step)
    assert other.locator("#deal-pick").input_value() == page.locator("#deal-pick").input_value()
    clean(other)
    # Another deal from the list, stepped to its end: the sheet after it.
    page.select_option("#deal-pick", "2")
    shown_step(page, 0)
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#next').disabled")
    assert "after=2" in (page.locator("#sheet").get_attribute("src") or "")
    clean(page)
    other.context.close()
    # The game's own puzzles (the positions where one card decides), from the viewer's link.
    expected = record_puzzles(load(GOLDEN / "sochi-pulka.prf"))
    to_puzzles = page.locator("#to-puzzles")
    expect(to_puzzles).to_be_visible()
    assert to_puzzles.inner_text().startswith(f"{len(expected)} задач") and "из этой партии" in to_puzzles.inner_text()
    to_puzzles.click()
    page.wait_for_url("**/puzzles")
    page.wait_for_selector("#felt .sseat.acting .scard.legal")
    assert page.locator("#title").inner_text() == f"Задачи этой партии: 1 из {len(expected)}"
    page.click(f"#felt .sseat.acting .scard:has(svg[data-card='{expected[0][1].best}'])")
    page.wait_for_selector("#answer .verdict.right")
    shot(request, page, f"study-own-puzzle-ru-{size}")
    clean(page)
    page.click("#back-to-game")
    page.wait_for_url("**/study/record/*")
    shown_step(page, 0)
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_position_set_by_hand_is_solved_and_played(server: str, browser: Browser, request: Any, size: str) -> None:
    page = lang_context(browser, "ru", **SIZES[size])
    page.goto(server + "/study/board")
    page.wait_for_selector("#picker [data-card]")
    # An etude of three cards each: the first hand plays with trumps ♠, the third hand leads.
    hands = [["A♠", "K♠", "7♥"], ["J♠", "10♠", "A♥"], ["9♠", "8♠", "K♥"]]
    for place, cards in enumerate(hands):
        page.click(f"#places [data-place='{place}']")
        for c in cards:
            page.click(f"#picker [data-card='{c}']")
    page.select_option("#leader", "2")
    assert page.locator("#picker [data-card='A♠']").inner_text() == "Т♠"  # Russian rank letters
    clean(page)
    page.click("#solve")
    page.wait_for_selector("#felt .badge")
    # Each playable card of the third hand says how many tricks the declarer ends with after it.
    assert sorted(page.locator("#felt .sseat.acting .badge").all_inner_texts()) == ["2", "2", "2"]
    assert "при лучшей игре — 2 взятки" in page.locator("#note").inner_text()
    shot(request, page, f"study-board-ru-{size}")
    clean(page)
    # Play out the K♥, then take it back.
    page.click("#felt .sseat.acting .scard:has(svg[data-card='K♥'])")
    page.wait_for_selector("#played li")
    assert page.locator("#played li").inner_text().endswith("К♥")
    assert page.locator("#felt .sseat.acting .badge").all_inner_texts() == ["2"]  # the first hand's 7♥ only
    clean(page)
    page.click("#undo")
    page.wait_for_function("!document.querySelector('#played li')")
    assert len(page.locator("#felt .sseat.acting .badge").all_inner_texts()) == 3
    # A position that cannot be: the problem named in Russian.
    page.click("#edit")
    page.click("#places [data-place='1']")
    page.click("#picker [data-card='A♥']")  # out of the second hand: 2 cards against 3
    page.click("#solve")
    page.wait_for_selector("#problems li")
    assert "поровну" in page.locator("#problems").inner_text()
    clean(page)
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_puzzle_is_answered(server: str, browser: Browser, request: Any, size: str) -> None:
    puzzles = shipped()
    page = lang_context(browser, "ru", **SIZES[size])
    page.goto(server + "/study/puzzles#1")
    page.wait_for_selector("#felt .sseat.acting .scard.legal")
    assert page.locator("#title").inner_text() == f"Задача 1 из {len(puzzles)}"
    clean(page)
    page.click(f"#felt .sseat.acting .scard:has(svg[data-card='{puzzles[0].best}'])")
    page.wait_for_selector("#answer .verdict.right")
    assert page.locator("#felt .sseat.acting .badge.best").count() == 1
    shot(request, page, f"study-puzzle-ru-{size}")
    clean(page)
    # The next one answered wrong: the card it was, and every card's value.
    page.click("#next")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('Задача 2 ')")
    wrong = next(c for c in page.locator("#felt .sseat.acting .scard.legal svg").evaluate_all(
        "xs => xs.map(x => x.dataset.card)") if c != puzzles[1].best)  # fmt: skip
    page.click(f"#felt .sseat.acting .scard:has(svg[data-card='{wrong}'])")
    page.wait_for_selector("#answer .verdict.wrong")
    best = page.evaluate("PREF.cardLabel(arguments[0])".replace("arguments[0]", repr(puzzles[1].best)))
    assert page.locator("#answer .verdict").inner_text() == f"Нужно было {best}."
    clean(page)
    page.context.close()


def test_the_deal_just_finished_then_the_game_in_the_viewer(server: str, browser: Browser, request: Any) -> None:
    page = lang_context(browser, "ru", **SIZES["390"])
    page.goto(server + "/")
    r = page.request.post(server + "/api/tables", data={
        "name": "Аня", "rules": "sochi", "players": 3, "lang": "ru", "options": ["end_condition=deals", "max_deals=2"],
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2})  # fmt: skip
    assert r.status == 201, r.text()
    page.goto(server + r.json()["url"])
    page.wait_for_selector("#status:not(:empty)")
    play_until_over(page, random.Random(27))
    result = page.locator("#review h2").inner_text()
    page.click("#next-deal")
    page.wait_for_selector("#previous-open")
    assert result in page.locator("#result-box").inner_text()
    page.click("#previous-open")
    page.wait_for_selector("#previous-dialog[open]")
    box = page.locator("#previous-dialog")
    assert page.locator("#previous-title").inner_text() == "Сдача 1"
    assert result in box.inner_text() and box.locator(".hand-row").count() >= 3
    shot(request, page, "study-previous-deal-ru-390")
    russian_only(page, ["Аня"])
    page.click("#previous-close")
    page.wait_for_selector("#previous-dialog", state="hidden")
    # The last deal played, the pulka is over: «Replay and analysis» opens the game in the viewer.
    rng, end = random.Random(28), time.monotonic() + 90
    while not page.locator("#study-link").count():
        assert time.monotonic() < end, page.locator("#status").inner_text()
        if not click_something(page, rng):
            page.wait_for_timeout(60)
    assert page.errors == []  # type: ignore[attr-defined]
    page.click("#study-link")
    page.wait_for_url("**/study/game/**")
    shown_step(page, 0)
    assert page.locator("#deal-pick option").count() == 2
    page.wait_for_selector("#summary-box:not([hidden])", timeout=60_000)
    assert "Аня" in page.locator("#summary").inner_text()
    russian_only(page, ["Аня"])
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# Every step of every deal of the other golden records (four players with the dealer out, гусарик
# with the dummy, dark games and bombs, a record with unknown cards), with its analysis, in Russian.
OTHERS = {"leningrad-4p": "Ленинградка вчетвером", "gusarik": "", "classic-dark": "Классика с тёмными",
          "vera-view": "Пятничный клуб"}  # fmt: skip


@pytest.mark.parametrize("name", list(OTHERS))
def test_every_step_of_a_record_is_russian(server: str, browser: Browser, name: str) -> None:
    text = (GOLDEN / f"{name}.prf").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^event: .*$", f"event: {OTHERS[name]}", text)
    for en, ru in {**RUSSIAN, "Gleb": "Глеб"}.items():
        text = text.replace(en, ru)
    page = lang_context(browser, "ru", **SIZES["1280"])
    page.goto(server + "/study")
    r = page.request.post(server + "/api/study/records", data={"name": "запись.prf", "text": text})
    assert r.status == 201, r.text()
    page.goto(server + r.json()["urls"][0])
    shown_step(page, 0)
    page.wait_for_selector("#summary-box:not([hidden])", timeout=60_000)  # the analysis is done
    deals = page.locator("#deal-pick option").count()
    for n in range(1, deals + 1):
        page.select_option("#deal-pick", str(n))
        # The deal is fetched before it is drawn: wait until the page says it shows deal n.
        page.wait_for_function(f"location.hash === '#deal={n}' || location.hash.startsWith('#deal={n}&')")
        if not page.locator("#step-text").count() or not page.locator("#slider").is_visible():
            clean(page)
            continue
        last = int(page.locator("#slider").get_attribute("max") or 0)
        for k in range(last + 1):  # the auction to the first cards step by step, then the play now and then
            shown_step(page, k)
            if k < 14 or k % 5 == 0 or k == last:
                clean(page)
            page.keyboard.press("ArrowRight")
    page.context.close()


def test_the_deal_picked_last_is_the_one_shown(server: str, browser: Browser) -> None:
    """Deals are fetched as they are picked: when an earlier pick's answer comes late, the page
    still shows the deal picked last (and the arrow keys step through that one)."""
    page = lang_context(browser, "ru", **SIZES["1280"])
    text = (GOLDEN / "leningrad-4p.prf").read_text(encoding="utf-8")
    r = page.request.post(server + "/api/study/records", data={"name": "запись.prf", "text": text})
    assert r.status == 201, r.text()

    def late(route: Any) -> None:
        time.sleep(1.0)
        route.continue_()

    page.route("**/deals/3", late)
    page.goto(server + r.json()["urls"][0])
    shown_step(page, 0)
    page.select_option("#deal-pick", "3")
    page.select_option("#deal-pick", "4")
    page.wait_for_function("location.hash.startsWith('#deal=4&')")
    page.wait_for_timeout(1500)  # deal 3's late answer has come and gone
    assert page.evaluate("location.hash") == "#deal=4&step=0"
    assert page.locator("#slider").get_attribute("max") == "8", page.locator("#step-text").inner_text()
    assert page.locator("#step-text").inner_text().startswith("Шаг 0 из 8")
    page.keyboard.press("ArrowRight")
    shown_step(page, 1)
    assert page.locator("#step-text").inner_text().startswith("Шаг 1 из 8")
    page.context.close()


def test_lines_written_by_hand_show_no_controls_of_another_deal(server: str, browser: Browser) -> None:
    """An entry of lines written on the sheet by hand has no steps: picked after a played deal,
    it shows no step bar, no solver-board link and no «cards unknown» note of that deal, and a
    link to it (``#deal=n``) opens it."""
    text = russian_record("prf").replace(
        "\nstopped", "\ndeal 7\nsheet: by hand\nscore: Аня pool 2 sheet\n\nstopped")  # fmt: skip
    page = lang_context(browser, "ru", **SIZES["390"])
    r = page.request.post(server + "/api/study/records", data={"name": "запись.prf", "text": text})
    assert r.status == 201 and r.json()["problems"] == [[]], r.text()
    url = server + r.json()["urls"][0]
    page.goto(url + "#deal=1&step=30")
    shown_step(page, 30)
    assert page.locator(".stepper").is_visible()
    page.select_option("#deal-pick", "7")
    page.wait_for_function("location.hash === '#deal=7'")
    assert not page.locator(".stepper").is_visible() and not page.locator("#to-board").is_visible()
    assert "Сдача 7: записано вручную" in page.locator("#felt").inner_text()
    page.wait_for_selector("#summary-box:not([hidden])", timeout=60_000)  # the analysis is done
    assert "не все карты известны" not in page.locator("#analysis").inner_text()
    clean(page)
    other = page.context.new_page()
    other.goto(url + "#deal=7")
    other.wait_for_function("document.querySelector('#deal-pick').value === '7'")
    assert not other.locator(".stepper").is_visible()
    page.context.close()
