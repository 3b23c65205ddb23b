"""What the browser tests share: a server and a headless Chromium per module, pages, clicking legal
choices, screenshots, measuring boxes, and the Russian-only check of a page.

Chromium is Debian's package driven by Playwright (never ``playwright install``); the launch flags
are the CI's.  Screenshots go to ``tmp/artifacts/web`` of the checkout, or ``$PREFERANS_ARTIFACTS``.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from latin_helpers import assert_russian

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
CLICKABLE = "#bidding button:not([disabled]), .controls button, .hand .card.legal, #next-deal"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "games.db") as base:
        yield base


@contextlib.contextmanager
def running_server(db: Path, *flags: str) -> Iterator[str]:
    """``preferans serve`` on the SQLite file ``db`` (with ``flags``) in a process of its own: its URL."""
    port = _free_port()
    args = ["serve", "--port", str(port), "--db", f"sqlite:///{db}", "--bot-delay", "0.05", "--log-level", "warning",
            *flags]  # fmt: skip
    code = f"import sys; from preferans.cli import main; sys.exit(main({args!r}))"
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
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: scripts/test installs it (scripts/apt-packages.txt)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_page(browser: Browser, **kwargs: Any) -> Page:
    # The tests' own wait conditions are JavaScript strings, which the server's Content-Security-
    # Policy forbids to the page; test_the_client_runs_under_the_servers_csp keeps the policy on.
    kwargs.setdefault("bypass_csp", True)
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
    items = page.locator("#bidding button:not([disabled]), .controls button:not(#stop-game):not([disabled]), "
                         ".hand .card.legal")  # fmt: skip
    n = items.count()
    if not n:
        return False
    try:
        items.nth(rng.randrange(n)).click(timeout=500)
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


# Screenshots: under tmp/artifacts/web of the checkout unless PREFERANS_ARTIFACTS says where.
_ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("PREFERANS_ARTIFACTS", _ROOT / "tmp" / "artifacts")) / "web"


def shot(request: Any, page: Page, name: str) -> None:
    """Save a screenshot as a test artifact (the directory is printed at the end of the run)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    request.config.preferans_artifacts = ARTIFACTS


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    """The boxes of the elements matching the CSS ``selector``, measured in one script run.

    Not ``eval_on_selector_all``: it finds the elements and measures them in two round trips, and
    an element the page re-rendered in between is detached by then and measures 0×0 (the phone
    test's old flake: three "0×0 cards" that were simply no longer on the page)."""
    return list(page.evaluate(
        "sel => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect(); "
        "return {x: r.left, y: r.top, w: r.width, h: r.height, text: e.textContent, "
        "action: e.dataset.action || ''}; })", selector))  # fmt: skip


def inside_viewport(page: Page, selector: str) -> list[dict[str, Any]]:
    """The elements of ``selector`` that stick out of the window (should be none)."""
    vw, vh = page.evaluate("[innerWidth, innerHeight]")
    return [b for b in boxes(page, selector) if b["x"] < 0 or b["y"] < 0 or b["x"] + b["w"] > vw + 0.5
            or b["y"] + b["h"] > vh + 0.5]  # fmt: skip


def lang_context(browser: Browser, lang: str, **kwargs: Any) -> Page:
    page = new_page(browser, **kwargs)
    page.context.add_init_script(f"localStorage.setItem('pref_lang', '{lang}')")
    return page


def russian_only(page: Page, names: Sequence[str] = ()) -> None:
    """The page shows no Latin word but the players' own ``names`` and cards (latin_helpers), its
    cards in the Russian rank letters unless the player chose A K Q J."""
    ranks = page.evaluate("PREF.ranks")
    assert_russian(page.evaluate("document.body.innerText"), names, page.url, ranks=ranks)
