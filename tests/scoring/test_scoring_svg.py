"""The paper pulka as SVG and as text: every number on the sheet is drawn, as paper writes it,
in both languages and both layouts, and the phone layout is legible at a phone's width."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from preferans.rules import Rules
from preferans.scoring.pulka import Pulka
from preferans.scoring.scorekeeper import ScoreKeeper
from preferans.scoring.sheet import paper_amount, signed_amount
from preferans.scoring.text_sheet import render_text

SVG = "{http://www.w3.org/2000/svg}"


def sochi_three(names: tuple[str, ...] | list[str] = ("A", "B", "C")) -> Pulka:
    a, b, c = names
    p = Pulka(Rules.preset("sochi").replace(pool_target=10), list(names))
    p.game(b, "6S", defence={c: "whist", a: "whist"}, tricks={b: 6, c: 2, a: 2})
    p.all_pass({a: 2, b: 3, c: 5})
    p.game(a, "8H", defence={b: "whist", c: "pass"}, tricks={a: 8, b: 1, c: 1})
    p.misere(c, 0)
    p.game(c, "7NT", defence={a: "pass", b: "pass"})
    p.game(b, "9D", defence={c: "pass", a: "whist"}, tricks={b: 9, a: 1, c: 0})
    return p


def leningrad_four(names: tuple[str, ...] | list[str] = ("A", "B", "C", "D")) -> Pulka:
    a, b, c, d = names
    p = Pulka(Rules.preset("leningrad").replace(end_condition="agreement"), list(names))
    p.game(b, "7C", defence={c: "whist", d: "whist"}, tricks={b: 7, c: 2, d: 1})
    p.all_pass({c: 4, d: 1, a: 3}, dealer_tricks=2)
    p.game(d, "7H", defence={a: "whist", b: "pass"}, tricks={d: 6, a: 3, b: 1})
    p.misere(a, 1, half_with_dealer=True)
    p.game(c, "6D", defence={d: "pass", b: "half"})
    return p


def gusarik(names: tuple[str, ...] | list[str] = ("A", "B")) -> Pulka:
    a, b = names
    k = ScoreKeeper(Rules.preset("sochi"), list(names))
    k.enter(f"{a} 7S {b}:w {a}6")
    k.enter(f"allpass {a}4 {b}6")
    return k.pulka


MAKERS: list[Callable[..., Pulka]] = [gusarik, sochi_three, leningrad_four]
RU_NAMES = {2: ["Аня", "Боря"], 3: ["Аня", "Боря", "Вася"], 4: ["Аня", "Боря", "Вася", "Галя"]}


def _texts(svg: str) -> list[tuple[str, float]]:
    root = ET.fromstring(svg)
    return [("".join(t.itertext()), float(t.get("font-size", "0"))) for t in root.iter(SVG + "text")]


def _tokens(texts: list[str]) -> set[str]:
    out = {tok for t in texts for tok in re.split(r"[\s·→]+|(?<=[\d½⅓⅔¼¾])\.(?=[\d-])", t) if tok}
    return out | {t.strip() for t in texts} | {tok.lstrip("…") for tok in out}


def _numbers_of(p: Pulka) -> set[str]:
    s = p.sheet
    n = p.players
    nums = {paper_amount(x) for x in (*s.pool, *s.mountain)}
    nums |= {paper_amount(s.whists[i][j]) for i in range(n) for j in range(n) if i != j}
    return nums | {signed_amount(x) for x in p.settlement().whole}


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("layout", ["wide", "phone"])
def test_every_number_is_on_the_svg(make: Callable[..., Pulka], layout: str, tmp_path: Path) -> None:
    p = make()
    svg = p.svg("en", layout)  # type: ignore[arg-type]
    texts = [t for t, _ in _texts(svg)]  # well-formed XML
    missing = {x for x in _numbers_of(p) if x not in _tokens(texts)}
    assert not missing
    # the running totals of every pool and mountain, as written on paper, a half as ½
    for i in range(p.players):
        for column in ("pool", "mountain"):
            run = p.sheet.running(column, i)
            if run:
                assert any(t.endswith(".".join(paper_amount(v) for v in run)[-8:]) for t in texts)
    assert str(p.rules.pool_target) in texts and "pool" in texts
    assert not any(re.search(r"\d/\d|rules\.md|k_pool|k_mount|≈", t) for t in texts), texts
    cairosvg = pytest.importorskip("cairosvg")
    png = tmp_path / "sheet.png"
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("layout", ["wide", "phone"])
def test_the_russian_sheet_has_no_latin_word(make: Callable[..., Pulka], layout: str) -> None:
    """Every word on a Russian sheet is Russian: only the players' names could be Latin
    (here they are not), and suits are symbols."""
    names = RU_NAMES[len(make.__defaults__[0])]  # type: ignore[index]
    p = make(names)
    texts = [t for t, _ in _texts(p.svg("ru", layout))]  # type: ignore[arg-type]
    assert {"пуля", "гора"} <= set(texts)
    assert not [t for t in texts if re.search(r"[A-Za-z]", t)]
    assert not {x for x in _numbers_of(p) if x not in _tokens(texts)}


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_phone_sheet_is_legible_on_a_phone(make: Callable[..., Pulka], lang: str) -> None:
    """Shown 360 px wide (a 390 px phone less the page's margins), every word and number of the
    phone layout is at least 10 px, the running totals at least 13 px (the wide sheet's were ~4 px)."""
    p = make(RU_NAMES[len(make.__defaults__[0])] if lang == "ru" else make.__defaults__[0])  # type: ignore[index]
    svg = p.svg(lang, "phone")
    width = float(ET.fromstring(svg).get("width", "0"))
    scale = 360 / width
    sizes = [size * scale for _, size in _texts(svg)]
    assert min(sizes) >= 10, sorted(sizes)[:5]
    values = [size * scale for t, size in _texts(svg) if re.fullmatch(r"[\d.½…—]+", t)]
    assert min(values) >= 13
    wide = p.svg(lang, "wide")
    assert min(size for _, size in _texts(wide)) * 360 / float(ET.fromstring(wide).get("width", "0")) < 5


def test_text_sheet() -> None:
    p = sochi_three()
    text = render_text(p.sheet, p.rules, p.settlement())
    assert "B 6♠ made" in text and "C misère clean" in text and "all-pass A2 B3 C5" in text
    assert "A: pool 6.10" in text  # running totals as on paper
    exact = [paper_amount(x) for x in p.settlement().net]
    assert exact == ["-26⅔", "-⅔", "27⅓"]
    assert re.search(r"on paper\s+-26⅔\s+-⅔\s+27⅓", text) and re.search(r"by the formula\s+-26⅔\s+-⅔\s+27⅓", text)
    assert re.search(r"in whole whists\s+-27\s+0\s+\+27", text)
    assert "/3" not in text and "k_pool" not in text and "rules.md" not in text
