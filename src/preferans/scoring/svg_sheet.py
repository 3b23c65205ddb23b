"""The paper pulka drawn as SVG, by plain string building (no dependencies).

The sheet is drawn as at a real table: a rectangle (3 players) or a square
(4 players) with the pool size in a circle in the middle, lines from the
corners dividing it among the players, and around the circle, for each
player, three bands — the mountain (гора) nearest the circle, then the pool
(пуля), then the whists (висты) on the edge, split into one part per
opponent.  Each band shows its running totals the way they are written on
paper (``2.6.10``).  With 3 players the left and right players' whists on
each other run along the bottom edge.  Below the sheet: the totals and the
settlement.

>>> from preferans.scoring.pulka import Pulka
>>> p = Pulka(players=3)
>>> _ = p.game("A", "6H", defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 2, "C": 2})
>>> svg = sheet_svg(p.sheet, p.settlement(), pool_target=p.rules.pool_target)
>>> svg.startswith("<svg") and "16/3" in svg and "pool" in svg
True
>>> "пуля" in sheet_svg(p.sheet, p.settlement(), pool_target=20, lang="ru")
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple
from xml.sax.saxutils import escape

from ..i18n import Translator
from .settlement import Settlement
from .sheet import Sheet, amount_text
from .text_sheet import running_text

__all__ = ["sheet_svg"]

INK = "#1d3a8a"  # ballpoint blue
LINE = "#2b2b2b"
PAPER = "#fbf8ef"
GRID = "#d9e3f0"
FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif"
HAND = "'DejaVu Sans Mono', 'Liberation Mono', monospace"

_BANDS = (("whists", 0.0, 0.42), ("pool", 0.42, 0.70), ("mountain", 0.70, 1.0))
_CHAR = 0.62  # width of a monospace digit per unit of font size
_MIN_FONT = 9.0


def _fit_run(text: str, fit: float, size: float = 15.0) -> str:
    """Running totals that fit in ``fit`` pixels at the smallest font: the earliest are
    dropped (``…``) when a strip fills up — the last total always shows."""
    limit = int(fit / (_MIN_FONT * _CHAR))
    if len(text) <= limit:
        return text
    parts = text.split(".")
    while len(parts) > 1 and len("…" + ".".join(parts)) > limit:
        parts.pop(0)
    return "…" + ".".join(parts)


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

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
        caption: str = "",
    ) -> None:
        """Text centred on (x, y); a smaller font when it would not fit in ``fit`` pixels."""
        shown = escape(body)
        chars = len(body) + len(caption) + (1 if caption else 0)
        if fit is not None and chars * size * _CHAR > fit:
            size = max(_MIN_FONT, fit / (chars * _CHAR))
        rot = f' transform="rotate({angle:.0f} {x:.1f} {y:.1f})"' if angle else ""
        cap = (
            f'<tspan fill="#8a8f99" font-size="{size * 0.72:.1f}" font-family="{FONT}">'
            f"{escape(caption)} </tspan>"
            if caption
            else ""
        )
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{fill}" '
            f'font-family="{family}" font-weight="{weight}" text-anchor="{anchor}" '
            f'dominant-baseline="central"{rot}>{cap}{shown}</text>'
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
    sheet: Sheet, settlement: Settlement, *, pool_target: int, title: str = "", lang: str = "en"
) -> str:
    """Draw a sheet and its settlement, its words in ``lang``."""
    tr = Translator(lang)
    n = sheet.players
    four = n == 4
    w, h = (760.0, 760.0) if four else (900.0, 560.0) if n == 2 else (900.0, 620.0)
    x0, y0 = 60.0, 96.0
    depth = 250.0 if four else 200.0 if n == 2 else 230.0
    insets = tuple(depth * b for _, _, b in _BANDS)
    radius = min(w - 2 * insets[-1], h - 2 * insets[-1]) / 2 - 12
    g = _Geometry(x0, y0, w, h, depth, insets, radius)
    c = _Canvas()
    rows = 3 + n + (n * (n - 1) + 2) // 3
    total_w, total_h = x0 * 2 + w, y0 + h + 90 + 26 * rows
    _paper(c, total_w, total_h, title)
    if n == 2:
        _frame_two(c, g, pool_target, tr)
    else:
        _frame(c, g, four, pool_target, tr)
    sides = ("bottom", "left", "top", "right") if four else ("bottom", "top") if n == 2 else ("left", "top", "right")
    for i in range(n):
        _player(c, g, sheet, i, sides[i], tr)
    _totals(c, g, sheet, settlement, tr)
    body = "\n".join(c.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}">\n{body}\n</svg>\n'
    )


def _paper(c: _Canvas, total_w: float, total_h: float, title: str) -> None:
    """The page: faint squared paper and the title."""
    c.parts.append(f'<rect x="0" y="0" width="{total_w:.0f}" height="{total_h:.0f}" fill="{PAPER}"/>')
    step = 20
    for gx in range(0, int(total_w), step):
        c.parts.append(f'<line x1="{gx}" y1="0" x2="{gx}" y2="{total_h:.0f}" stroke="{GRID}" '
                       'stroke-width="0.5"/>')  # fmt: skip
    for gy in range(0, int(total_h), step):
        c.parts.append(f'<line x1="0" y1="{gy}" x2="{total_w:.0f}" y2="{gy}" stroke="{GRID}" '
                       'stroke-width="0.5"/>')  # fmt: skip
    if title:
        c.text(total_w / 2, 30, title, size=18, family=FONT, weight="bold", fill=LINE)


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
    c.text(cx, cy - radius * 0.28, tr.p("sheet", "pool"), size=13, family=FONT, fill="#6b6f78")
    c.text(cx, cy + radius * 0.12, str(pool_target), size=min(40, radius * 0.8), weight="bold")


def _band(c: _Canvas, g: _Geometry, side: str, inset: float, t0: float, t1: float, caption: str,
          value: str) -> None:  # fmt: skip
    """A caption at the start of a strip and the running totals centred after it.

    A strip runs along its band's centre line between the lines that close it (corner
    diagonals, separators), which cross the centre line exactly at its ends."""
    x, y, ang, length = _slot(side, inset, t0, t1, g.w, g.h, g.x0, g.y0)
    half = length / 2 - 12

    def at(s: float) -> tuple[float, float]:  # s runs from -half (start) to +half
        return (x + s, y) if ang == 0 else ((x, y - s) if ang < 0 else (x, y + s))

    cx_, cy_ = at(-half + 4)
    c.text(cx_, cy_, caption, size=11, angle=ang, anchor="start", family=FONT, fill="#8a8f99")
    start = -half + len(caption) * 11 * 0.6 + 12  # after the caption
    fit = max(40.0, half - start - 6)
    vx, vy = at((start + half) / 2)
    c.text(vx, vy, _fit_run(value, fit), angle=ang, fit=fit)


def _player(c: _Canvas, g: _Geometry, sheet: Sheet, i: int, side: str, tr: Translator) -> None:
    """One player's mountain, pool and whists on his side of the sheet, and his name."""
    names, n = sheet.names, sheet.players
    four = n == 4
    x0, y0, w, h, insets = g.x0, g.y0, g.w, g.h, g.insets
    others = [(i + k) % n for k in range(1, n)]
    for name, a, b in _BANDS:
        mid = g.depth * (a + b) / 2
        if name != "whists":
            column = "pool" if name == "pool" else "mountain"
            _band(c, g, side, mid, 0.0, 1.0, tr.p("sheet", "pool") if name == "pool" else tr.p("sheet", "mountain"),
                  running_text(sheet.running(column, i)))  # fmt: skip
            continue
        if n == 2:  # гусарик: the whists on the one opponent, across the whole edge
            other = 1 - i
            _band(c, g, side, mid, 0.0, 1.0, tr("on {name}", name=names[other]),
                  running_text(sheet.running("whists", i, other)))  # fmt: skip
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
                _band(c, g, side, mid, t0, t1, tr("on {name}", name=names[o]),
                      running_text(sheet.running("whists", i, o)))  # fmt: skip
        elif side == "top":
            for o, t0, t1 in ((0, 0.0, 0.5), (2, 0.5, 1.0)):
                _band(c, g, "top", mid, t0, t1, tr("on {name}", name=names[o]),
                      running_text(sheet.running("whists", i, o)))  # fmt: skip
        else:
            _band(c, g, side, mid, 0.0, 1.0, tr("on {name}", name=names[1]),
                  running_text(sheet.running("whists", i, 1)))  # fmt: skip
            other = 2 if i == 0 else 0
            t0, t1 = (0.0, 0.5) if side == "left" else (0.5, 1.0)
            _band(c, g, "bottom", mid, t0, t1, tr("on {name}", name=names[other]),
                  running_text(sheet.running("whists", i, other)))  # fmt: skip
    nx, ny, ang, _ = _slot(side, -26, 0.0, 1.0, w, h, x0, y0)
    c.text(nx, ny, names[i], size=20, angle=ang, weight="bold", family=FONT, fill=LINE)


def _totals(c: _Canvas, g: _Geometry, sheet: Sheet, settlement: Settlement, tr: Translator) -> None:
    """Below the sheet: each player's totals and result, then every pair's whists."""
    names, n = sheet.names, sheet.players
    x0 = g.x0
    ty = g.y0 + g.h + 76
    cols = [x0 + 10, x0 + 150, x0 + 250, x0 + 370, x0 + 520, x0 + 650]
    heads = (tr.p("sheet", "player"), tr.p("sheet", "pool"), tr.p("sheet", "mountain"), tr("whists ±"),
             tr("net (whists)"), "≈")  # fmt: skip
    for x, head in zip(cols, heads, strict=True):
        c.text(x, ty, head, size=13, anchor="start", family=FONT, fill="#6b6f78")
    for i in range(n):
        y = ty + 26 * (i + 1)
        balance = sum((sheet.whists[i][j] - sheet.whists[j][i] for j in range(n)), start=Fraction(0))
        net = settlement.rounded[i]
        cells = (
            names[i], amount_text(sheet.pool[i]), amount_text(sheet.mountain[i]),
            amount_text(balance), amount_text(net),
            f"{float(net):+.2f}" if Fraction(net).denominator != 1 else "",
        )  # fmt: skip
        for k, (x, cell) in enumerate(zip(cols, cells, strict=True)):
            c.text(x, y, cell, size=16, anchor="start", weight="bold" if k in (0, 4) else "normal",
                   family=FONT if k == 0 else HAND, fill=LINE if k == 0 else INK)  # fmt: skip
    y = ty + 26 * (n + 1) + 8
    pairs = [f"{names[i]}→{names[j]} {amount_text(sheet.whists[i][j])}"
             for i in range(n) for j in range(n) if i != j]  # fmt: skip
    for r in range(0, len(pairs), 3):
        c.text(x0 + 10, y, "  ·  ".join(pairs[r:r + 3]), size=14, anchor="start")
        y += 24
    c.text(x0 + 10, y + 4, tr("settlement: {deals}; both methods agree (rules.md §11.1 = §11.2); Σ net = 0",
                            deals=tr.n("{n} deal", "{n} deals", len(sheet.history))),
           size=12, anchor="start", family=FONT, fill="#6b6f78")  # fmt: skip
