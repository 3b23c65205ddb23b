"""The paper pulka drawn as SVG, by plain string building (no dependencies).

The sheet is drawn as at a real table: a rectangle (3 players) or a square
(4 players) with the pool size in a circle in the middle, lines from the
corners dividing it among the players, and around the circle, for each
player, three bands — the mountain (гора) nearest the circle, then the pool
(пуля), then the whists (висты) on the edge, split into one part per
opponent.  Each band shows its running totals the way they are written on
paper (``2.6.10``).  With 3 players the left and right players' whists on
each other run along the bottom edge.  Below the sheet: the totals and the
settlement in whole whists (the exact results beside them when they differ).

Two layouts: ``wide`` (about 1,000 units across, for a screen or a print) and ``phone``
(440 across, its words and numbers large relative to the drawing, so that the sheet
shown 360 px wide on a phone, or in a 330 px side panel, has labels of 10 px and more,
the running totals of 13 px and more).

>>> from preferans.scoring.pulka import Pulka
>>> p = Pulka(players=3)
>>> _ = p.game("A", "6H", defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 2, "C": 2})
>>> svg = sheet_svg(p.sheet, p.settlement(), pool_target=p.rules.pool_target)
>>> svg.startswith("<svg") and "+6" in svg and "5⅓" in svg and "pool" in svg and "16/3" not in svg
True
>>> phone = sheet_svg(p.sheet, p.settlement(), pool_target=20, lang="ru", layout="phone")
>>> "пуля" in phone and 'width="440"' in phone
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple
from xml.sax.saxutils import escape

from ..i18n import Translator
from .settlement import Settlement
from .sheet import Sheet, paper_amount, signed_amount
from .text_sheet import running_text

__all__ = ["LAYOUTS", "Layout", "sheet_svg"]

INK = "#1d3a8a"  # ballpoint blue
LINE = "#2b2b2b"
PAPER = "#fbf8ef"
GRID = "#d9e3f0"
GREY = "#6b6f78"
FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif"
HAND = "'DejaVu Sans Mono', 'Liberation Mono', monospace"

Layout = Literal["wide", "phone"]
LAYOUTS: tuple[Layout, ...] = ("wide", "phone")

_BANDS = (("whists", 0.0, 0.42), ("pool", 0.42, 0.70), ("mountain", 0.70, 1.0))
_CHAR = 0.62  # width of a monospace digit per unit of font size
_LETTER = 0.6  # average width of a letter of the sans font per unit of font size


@dataclass(frozen=True)
class _Style:
    """The sizes of one layout (in the drawing's units)."""

    margin: float  # left and right of the sheet (the names of the side players stand in it)
    sizes: dict[int, tuple[float, float, float]]  # players → sheet width, height, band depth
    caption: float  # the grey words of a strip (pool, mountain, → name)
    value: float  # the running totals
    min_value: float  # the smallest a long running total may shrink to
    name: float  # the players' names around the sheet
    title: float
    head: float  # the totals' column heads
    row: float  # the totals' rows
    stacked: bool  # the whists' caption above their totals (else before them)
    columns: tuple[float, ...]  # the totals' columns (player, pool, mountain, whists ±, result, exact)
    pairs_per_row: int
    min_label: float = 0.0  # no word smaller (phone: 15 units, ≥ 12 px when 440 units are 366 px wide)


_STYLES: dict[str, _Style] = {
    "wide": _Style(60, {2: (900, 560, 200), 3: (900, 620, 230), 4: (760, 760, 250)}, 11, 15, 9, 20, 18, 13, 16,
                   False, (0, 170, 270, 390, 530, 660), 3),
    "phone": _Style(30, {2: (380, 420, 150), 3: (380, 500, 130), 4: (380, 380, 140)}, 15, 20, 15, 22, 17, 15, 18,
                    True, (0, 104, 150, 234, 312), 2, 15),
}  # fmt: skip


def _fit_run(text: str, fit: float, min_size: float) -> str:
    """Running totals that fit in ``fit`` units at the smallest font: the earliest are
    dropped (``…``) when a strip fills up — the last total always shows."""
    limit = int(fit / (min_size * _CHAR))
    if len(text) <= limit:
        return text
    parts = text.split(".")
    while len(parts) > 1 and len("…" + ".".join(parts)) > limit:
        parts.pop(0)
    return "…" + ".".join(parts)


def _cut(text: str, fit: float, size: float) -> str:
    """A word cut to ``fit`` units at ``size`` (``Александр…``)."""
    limit = max(2, int(fit / (size * _LETTER)))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _wrap(text: str, fit: float, size: float) -> list[str]:
    """Words wrapped into lines of at most ``fit`` units at ``size``."""
    limit = max(8, int(fit / (size * _LETTER)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


class _Canvas:
    def __init__(self, style: _Style) -> None:
        self.parts: list[str] = []
        self.style = style

    def line(self, x1: float, y1: float, x2: float, y2: float, w: float = 1.6) -> None:
        self.parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{LINE}" stroke-width="{w}" stroke-linecap="round"/>'
        )

    def rect(self, x: float, y: float, w: float, h: float, stroke: float = 1.6,
             fill: str = "none") -> None:  # fmt: skip
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" '
            f'stroke="{LINE}" stroke-width="{stroke}"/>'
        )

    def text(
        self,
        x: float,
        y: float,
        body: str,
        *,
        size: float = 15,
        angle: float = 0,
        fill: str = INK,
        anchor: str = "middle",
        fit: float | None = None,
        weight: str = "normal",
        family: str = HAND,
        min_size: float | None = None,
    ) -> None:
        """Text centred on (x, y); a smaller font when it would not fit in ``fit`` units."""
        per = _CHAR if family == HAND else _LETTER
        if fit is not None and len(body) * size * per > fit:
            size = max(min_size or self.style.min_value, fit / (len(body) * per))
        rot = f' transform="rotate({angle:.0f} {x:.1f} {y:.1f})"' if angle else ""
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{fill}" '
            f'font-family="{family}" font-weight="{weight}" text-anchor="{anchor}" '
            f'dominant-baseline="central"{rot}>{escape(body)}</text>'
        )


def _slot(
    side: str, inset: float, t0: float, t1: float, w: float, h: float, x0: float, y0: float
) -> tuple[float, float, float, float]:
    """Centre, angle and length of a strip at ``inset`` from one side, between fractions t0–t1."""
    if side in ("bottom", "top"):
        a, b = x0 + inset + (w - 2 * inset) * t0, x0 + inset + (w - 2 * inset) * t1
        y = y0 + h - inset if side == "bottom" else y0 + inset
        return (a + b) / 2, y, 0, b - a
    a, b = y0 + inset + (h - 2 * inset) * t0, y0 + inset + (h - 2 * inset) * t1
    x = x0 + inset if side == "left" else x0 + w - inset
    return x, (a + b) / 2, (-90 if side == "left" else 90), b - a


class _Geometry(NamedTuple):
    """Where the sheet lies on the page: the outer box, the band depth and the circle."""

    x0: float
    y0: float
    w: float
    h: float
    depth: float  # from the edge to the inner box
    insets: tuple[float, ...]  # each band's outer edge, measured from the sheet's edge
    radius: float  # of the pool circle in the middle

    @property
    def centre(self) -> tuple[float, float]:
        return self.x0 + self.w / 2, self.y0 + self.h / 2


def sheet_svg(
    sheet: Sheet, settlement: Settlement, *, pool_target: int, title: str = "", lang: str = "en",
    layout: Layout = "wide",
) -> str:  # fmt: skip
    """Draw a sheet and its settlement, its words in ``lang``, in a ``wide`` or ``phone`` layout."""
    if layout not in _STYLES:
        raise ValueError(f"layout: {' or '.join(LAYOUTS)}, not {layout!r}")
    style = _STYLES[layout]
    tr = Translator(lang)
    n = sheet.players
    w, h, depth = style.sizes[n]
    x0 = style.margin
    total_w = x0 * 2 + w
    title_lines = _wrap(title, (total_w - 16) * _LETTER / 0.7, style.title) if title else []  # bold: wider
    y0 = 18 + style.title * 1.3 * len(title_lines) + style.name * 1.6
    insets = tuple(depth * b for _, _, b in _BANDS)
    radius = min(w - 2 * insets[-1], h - 2 * insets[-1]) / 2 - (12 if layout == "wide" else 8)
    g = _Geometry(x0, y0, w, h, depth, insets, radius)
    c = _Canvas(style)
    if n == 2:
        _frame_two(c, g, pool_target, tr)
    else:
        _frame(c, g, n == 4, pool_target, tr)
    sides = ("bottom", "left", "top", "right") if n == 4 else ("bottom", "top") if n == 2 else ("left", "top", "right")
    for i in range(n):
        _player(c, g, sheet, i, sides[i], tr)
    bottom = _totals(c, g, sheet, settlement, tr, total_w)
    total_h = bottom + 16
    page = _Canvas(style)
    _paper(page, total_w, total_h, title_lines)
    body = "\n".join(page.parts + c.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}">\n{body}\n</svg>\n'
    )


def _paper(c: _Canvas, total_w: float, total_h: float, title: list[str]) -> None:
    """The page: faint squared paper and the title."""
    c.parts.append(f'<rect x="0" y="0" width="{total_w:.0f}" height="{total_h:.0f}" fill="{PAPER}"/>')
    step = 20
    for gx in range(0, int(total_w), step):
        c.parts.append(f'<line x1="{gx}" y1="0" x2="{gx}" y2="{total_h:.0f}" stroke="{GRID}" '
                       'stroke-width="0.5"/>')  # fmt: skip
    for gy in range(0, int(total_h), step):
        c.parts.append(f'<line x1="0" y1="{gy}" x2="{total_w:.0f}" y2="{gy}" stroke="{GRID}" '
                       'stroke-width="0.5"/>')  # fmt: skip
    size = c.style.title
    for k, line in enumerate(title):
        c.text(total_w / 2, 14 + size * (0.65 + 1.3 * k), line, size=size, family=FONT, weight="bold", fill=LINE)


def _frame(c: _Canvas, g: _Geometry, four: bool, pool_target: int, tr: Translator) -> None:
    """The outer box, the band boxes, the lines dividing the players and the pool circle."""
    x0, y0, w, h, insets, radius = g.x0, g.y0, g.w, g.h, g.insets, g.radius
    c.rect(x0, y0, w, h, stroke=2.4, fill="#fffdf6")
    for k, d in enumerate(insets):
        c.rect(x0 + d, y0 + d, w - 2 * d, h - 2 * d, stroke=2.0 if k == 2 else 1.4)
    cx, cy = g.centre
    inner = insets[-1]
    corners = {
        "tl": (x0, y0, 1, 1), "tr": (x0 + w, y0, -1, 1),
        "bl": (x0, y0 + h, 1, -1), "br": (x0 + w, y0 + h, -1, -1),
    }  # fmt: skip
    for key in ("tl", "tr", "bl", "br") if four else ("tl", "tr"):
        px, py, sx, sy = corners[key]
        ix, iy = px + sx * inner, py + sy * inner
        c.line(px, py, ix, iy, 2.0)
        dx, dy = cx - ix, cy - iy  # on to the circle
        dist = (dx * dx + dy * dy) ** 0.5
        c.line(ix, iy, cx - dx / dist * radius, cy - dy / dist * radius, 1.4)
    if not four:
        c.line(cx, y0 + h, cx, cy + radius, 2.0)  # the bottom divides left and right
        # left / right whists: the vertical part (on the top player) and the bottom part
        d0 = insets[0]
        c.line(x0, y0 + h, x0 + d0, y0 + h - d0, 1.4)
        c.line(x0 + w, y0 + h, x0 + w - d0, y0 + h - d0, 1.4)
        c.line(cx, y0, cx, y0 + d0, 1.4)  # the top player's whists: on left | on right
    _pool_circle(c, g, pool_target, tr)


def _frame_two(c: _Canvas, g: _Geometry, pool_target: int, tr: Translator) -> None:
    """гусарик (rules.md §16): the two players face each other, each with his half of the
    sheet — three strips across it, the mountain nearest the pool circle in the middle."""
    x0, y0, w, h, insets, radius = g.x0, g.y0, g.w, g.h, g.insets, g.radius
    c.rect(x0, y0, w, h, stroke=2.4, fill="#fffdf6")
    for k, d in enumerate(insets):
        for y in (y0 + d, y0 + h - d):
            c.line(x0, y, x0 + w, y, 2.0 if k == 2 else 1.4)
    cx, cy = g.centre
    c.line(x0, cy, cx - radius, cy, 2.0)
    c.line(cx + radius, cy, x0 + w, cy, 2.0)
    _pool_circle(c, g, pool_target, tr)


def _pool_circle(c: _Canvas, g: _Geometry, pool_target: int, tr: Translator) -> None:
    cx, cy = g.centre
    radius = g.radius
    c.parts.append(
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="#fffdf6" '
        f'stroke="{LINE}" stroke-width="2.2"/>'
    )
    word = tr.p("sheet", "pool")
    c.text(cx, cy - radius * 0.42, word, size=c.style.caption, family=FONT, fill=GREY,
           fit=radius * 1.5, min_size=c.style.min_value)  # fmt: skip
    c.text(cx, cy + radius * 0.2, str(pool_target), size=min(40, radius * 0.6), weight="bold")


def _band(c: _Canvas, g: _Geometry, side: str, inset: float, t0: float, t1: float, caption: str,
          value: str, *, stacked: bool = False, depth: float = 0) -> None:  # fmt: skip
    """A caption and the running totals of one strip: the caption at the strip's start and
    the totals after it, or (``stacked``) the caption above the totals, both centred.

    A strip runs along its band's centre line between the lines that close it (corner
    diagonals, separators), which cross the centre line exactly at its ends."""
    st = c.style
    x, y, ang, length = _slot(side, inset, t0, t1, g.w, g.h, g.x0, g.y0)
    half = length / 2 - 10

    def at(s: float, up: float = 0) -> tuple[float, float]:
        """The point ``s`` along the strip (from -half at its start) and ``up`` above its centre
        line, as the text reads."""
        if ang == 0:
            return x + s, y - up
        return (x - up, y - s) if ang < 0 else (x + up, y + s)

    if stacked:
        gap = min(depth * 0.22, st.caption * 0.8)
        cx_, cy_ = at(0, gap)
        c.text(cx_, cy_, _cut(caption, 2 * half, st.caption), size=st.caption, angle=ang, family=FONT, fill=GREY)
        vx, vy = at(0, -gap * 0.9)
        c.text(vx, vy, _fit_run(value, 2 * half, st.min_value), size=st.value, angle=ang, fit=2 * half)
        return
    cx_, cy_ = at(-half + 4)
    c.text(cx_, cy_, caption, size=st.caption, angle=ang, anchor="start", family=FONT, fill="#8a8f99")
    start = -half + len(caption) * st.caption * _LETTER + 12  # after the caption
    fit = max(40.0, half - start - 6)
    vx, vy = at((start + half) / 2)
    c.text(vx, vy, _fit_run(value, fit, st.min_value), size=st.value, angle=ang, fit=fit)


def _player(c: _Canvas, g: _Geometry, sheet: Sheet, i: int, side: str, tr: Translator) -> None:
    """One player's mountain, pool and whists on his side of the sheet, and his name."""
    names, n = sheet.names, sheet.players
    four = n == 4
    x0, y0, w, h, insets = g.x0, g.y0, g.w, g.h, g.insets
    others = [(i + k) % n for k in range(1, n)]
    stacked = c.style.stacked
    whist_depth = g.depth * (_BANDS[0][2] - _BANDS[0][1])

    def whists(side: str, mid: float, t0: float, t1: float, on: int) -> None:
        _band(c, g, side, mid, t0, t1, tr("→ {name}", name=names[on]),
              running_text(sheet.running("whists", i, on)), stacked=stacked, depth=whist_depth)  # fmt: skip

    for name, a, b in _BANDS:
        mid = g.depth * (a + b) / 2
        if name != "whists":
            column = "pool" if name == "pool" else "mountain"
            _band(c, g, side, mid, 0.0, 1.0, tr.p("sheet", "pool") if name == "pool" else tr.p("sheet", "mountain"),
                  running_text(sheet.running(column, i)))  # fmt: skip
            continue
        if n == 2:  # гусарик: the whists on the one opponent, across the whole edge
            whists(side, mid, 0.0, 1.0, 1 - i)
        elif four:
            edge = w if side in ("top", "bottom") else h
            for k in (1, 2):  # separators between the three opponents' whists
                t = k / 3
                if side in ("top", "bottom"):
                    yy = y0 + h if side == "bottom" else y0
                    dy = -insets[0] if side == "bottom" else insets[0]
                    c.line(x0 + w * t, yy, x0 + w * t, yy + dy, 1.2)
                else:
                    xx = x0 if side == "left" else x0 + w
                    dx = insets[0] if side == "left" else -insets[0]
                    c.line(xx, y0 + h * t, xx + dx, y0 + h * t, 1.2)
            for k, o in enumerate(others):
                # thirds of the whole edge, measured along the strip
                t0 = max(0.0, (edge * k / 3 - mid) / (edge - 2 * mid))
                t1 = min(1.0, (edge * (k + 1) / 3 - mid) / (edge - 2 * mid))
                whists(side, mid, t0, t1, o)
        elif side == "top":
            for o, t0, t1 in ((0, 0.0, 0.5), (2, 0.5, 1.0)):
                whists("top", mid, t0, t1, o)
        else:
            whists(side, mid, 0.0, 1.0, 1)
            other = 2 if i == 0 else 0
            t0, t1 = (0.0, 0.5) if side == "left" else (0.5, 1.0)
            whists("bottom", mid, t0, t1, other)
    size = c.style.name
    nx, ny, ang, length = _slot(side, -size * 0.8, 0.0, 1.0, w, h, x0, y0)
    c.text(nx, ny, _cut(names[i], length, size), size=size, angle=ang, weight="bold", family=FONT, fill=LINE)


def _totals(c: _Canvas, g: _Geometry, sheet: Sheet, settlement: Settlement, tr: Translator,
            total_w: float) -> float:  # fmt: skip
    """Below the sheet: each player's totals and result in whole whists (the exact result
    beside it when it differs), every pair's whists, and how it was settled.  Returns the
    bottom of what was drawn."""
    st = c.style
    names, n = sheet.names, sheet.players
    x0 = g.x0
    ty = g.y0 + g.h + st.name * 2.4
    exact = [Fraction(x) for x in settlement.net]
    differs = any(x != w for x, w in zip(exact, settlement.whole, strict=True))
    cols = [x0 + 4 + x for x in st.columns]
    heads = [tr.p("sheet", "player"), tr.p("sheet", "pool"), tr.p("sheet", "mountain"), tr("whists ±"),
             tr("result")]  # fmt: skip
    wide = len(cols) > 5
    if wide and differs:
        heads.append(tr("exactly"))
    widths = [b - a - 6 for a, b in zip(cols, [*cols[1:], x0 + g.w], strict=True)]
    for x, head, fit in zip(cols, heads, widths, strict=False):
        c.text(x, ty, _cut(head, fit, st.head), size=st.head, anchor="start", family=FONT, fill=GREY)
    step = st.row * 1.6
    for i in range(n):
        y = ty + step * (i + 1)
        balance = sum((sheet.whists[i][j] - sheet.whists[j][i] for j in range(n)), start=Fraction(0))
        cells = [names[i], paper_amount(sheet.pool[i]), paper_amount(sheet.mountain[i]),
                 paper_amount(balance), signed_amount(settlement.whole[i])]  # fmt: skip
        if wide and differs:
            cells.append(signed_amount(exact[i]))
        for k, (x, cell, fit) in enumerate(zip(cols, cells, widths, strict=False)):
            c.text(x, y, _cut(cell, fit, st.row * 1.25) if k == 0 else cell, size=st.row, anchor="start",
                   weight="bold" if k in (0, 4) else "normal", family=FONT if k == 0 else HAND,
                   fill=LINE if k == 0 else GREY if k == 5 else INK, fit=fit if k else None)  # fmt: skip
    y = ty + step * (n + 1) + 4
    small = st.head
    if differs and not wide:
        line = tr("exactly: {results}", results=" · ".join(f"{names[i]} {signed_amount(exact[i])}" for i in range(n)))
        for part in _wrap(line, g.w, small):
            c.text(x0 + 4, y, part, size=small, anchor="start", family=FONT, fill=GREY)
            y += small * 1.4
        y += 4
    pairs = [f"{names[i]}→{names[j]} {paper_amount(sheet.whists[i][j])}"
             for i in range(n) for j in range(n) if i != j]  # fmt: skip
    per = st.pairs_per_row
    for r in range(0, len(pairs), per):
        c.text(x0 + 4, y, "  ·  ".join(pairs[r:r + per]), size=st.head * 1.05, anchor="start", fit=g.w - 8,
               min_size=max(st.head * 0.8, st.min_label))  # fmt: skip
        y += st.head * 1.6
    note = tr("{deals}; settled on paper and by the formula alike; the results sum to 0.",
              deals=tr.n("{n} deal", "{n} deals", len(sheet.history)))  # fmt: skip
    for part in _wrap(note, total_w - x0 - 12, small):
        c.text(x0 + 4, y + 2, part, size=small, anchor="start", family=FONT, fill=GREY)
        y += small * 1.4
    return y
