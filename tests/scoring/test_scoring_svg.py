"""The paper pulka as SVG and as text: every number on the sheet is drawn."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from preferans.rules import Rules
from preferans.scoring.pulka import Pulka
from preferans.scoring.sheet import amount_text
from preferans.scoring.text_sheet import render_text


def sochi_three() -> Pulka:
    p = Pulka(Rules.preset("sochi").replace(pool_target=10), "ABC")
    p.game("B", "6S", defence={"C": "whist", "A": "whist"}, tricks={"B": 6, "C": 2, "A": 2})
    p.all_pass({"A": 2, "B": 3, "C": 5})
    p.game("A", "8H", defence={"B": "whist", "C": "pass"}, tricks={"A": 8, "B": 1, "C": 1})
    p.misere("C", 0)
    p.game("C", "7NT", defence={"A": "pass", "B": "pass"})
    p.game("B", "9D", defence={"C": "pass", "A": "whist"}, tricks={"B": 9, "A": 1, "C": 0})
    return p


def leningrad_four() -> Pulka:
    p = Pulka(Rules.preset("leningrad").replace(end_condition="agreement"), "ABCD")
    p.game("B", "7C", defence={"C": "whist", "D": "whist"}, tricks={"B": 7, "C": 2, "D": 1})
    p.all_pass({"C": 4, "D": 1, "A": 3}, dealer_tricks=2)
    p.game("D", "7H", defence={"A": "whist", "B": "pass"}, tricks={"D": 6, "A": 3, "B": 1})
    p.misere("A", 1, half_with_dealer=True)
    p.game("C", "6D", defence={"D": "pass", "B": "half"})
    return p


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def _numbers_of(p: Pulka) -> set[str]:
    s = p.sheet
    n = p.players
    nums = {amount_text(x) for x in (*s.pool, *s.mountain, *p.settlement().net)}
    nums |= {amount_text(s.whists[i][j]) for i in range(n) for j in range(n) if i != j}
    return nums


@pytest.mark.parametrize("make", [sochi_three, leningrad_four])
def test_every_number_is_on_the_svg(make: type[Pulka], tmp_path: Path) -> None:
    p = make()
    svg = p.svg()
    texts = _texts(svg)  # well-formed XML
    tokens = {tok for t in texts for tok in re.split(r"[\s·→]+|(?<=\d)\.(?=\d)", t) if tok}
    tokens |= {t.strip() for t in texts}
    missing = {x for x in _numbers_of(p) if x not in tokens}
    assert not missing
    # the running totals of every pool and mountain, as written on paper
    for i in range(p.players):
        for column in ("pool", "mountain"):
            run = p.sheet.running(column, i)
            if run:
                assert ".".join(amount_text(v) for v in run) in texts
    assert str(p.rules.pool_target) in texts and "pool" in texts
    # The same sheet in Russian: the paper's own words, every number unchanged.
    ru = _texts(p.svg("ru"))
    assert {"пуля", "гора"} <= set(ru) and any(x.startswith("на ") for x in ru) and "Итог" not in " ".join(texts)
    ru_tokens = {tok for t in ru for tok in re.split(r"[\s·→]+|(?<=\d)\.(?=\d)", t) if tok} | {t.strip() for t in ru}
    assert not {x for x in _numbers_of(p) if x not in ru_tokens}
    cairosvg = pytest.importorskip("cairosvg")
    png = tmp_path / "sheet.png"
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_text_sheet() -> None:
    p = sochi_three()
    text = render_text(p.sheet, p.rules, p.settlement())
    assert "B 6♠ made" in text and "C misère clean" in text and "all-pass A2 B3 C5" in text
    assert "-80/3" in text and "82/3" in text
    assert "A: pool 6.10" in text  # running totals as on paper
