"""Ratings of the club's players and bots (``openskill``'s Plackett–Luce model).

A finished pulka ranks its players by their settlement in whists (the most whists first;
equal whists, equal rank) and each rated player's ``mu`` and ``sigma`` move by
:func:`rate`.  Ratings are kept per **pool** (:func:`rating_pool`): the rules family
(Sochi, Leningrad, Rostov, Classic — the 1996 Kodeks is the strict Classic) and the
table's size, since three- and four-handed Preferans are different games; гусарик
(two players with a dummy) is a pool of its own.  Players read the rating as
:func:`shown` (1500 at the start, 40 points to one ``mu``), provisional (``?``) for
their first :data:`PROVISIONAL` pulkas of a pool.

>>> rating_pool("kodeks", 3), rating_pool("sochi", 4), rating_pool("leningrad", 2), rating_pool("mine", 3)
('classic-3', 'sochi-4', 'gusarik', '')
>>> after = rate("sochi-3", [("a:1", "Ann", START_MU, START_SIGMA, "30"), ("a:2", "Boris", START_MU, START_SIGMA, "0"),
...                          ("bot:easy", "bot:easy", START_MU, START_SIGMA, "-30")])
>>> [shown(mu) for mu, _ in after]
[1615, 1529, 1357]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction
from xml.sax.saxutils import escape

from openskill.models import PlackettLuce

from ..i18n import Translator

__all__ = ["PROVISIONAL", "START_MU", "START_SIGMA", "pool_name", "rate", "rating_pool", "rating_svg", "shown"]

MODEL = PlackettLuce()
START_MU, START_SIGMA = 25.0, 25.0 / 3
PROVISIONAL = 5  # pulkas of a pool before a rating is no longer provisional
FAMILIES = {"sochi": "sochi", "leningrad": "leningrad", "rostov": "rostov", "classic": "classic", "kodeks": "classic"}
POOLS = ("sochi-3", "leningrad-3", "rostov-3", "classic-3", "sochi-4", "leningrad-4", "rostov-4", "classic-4",
         "gusarik")  # fmt: skip


def rating_pool(rules_name: str, players: int) -> str:
    """The pool a pulka is rated in ('' for rules that are no preset's: unrated)."""
    family = FAMILIES.get(rules_name)
    if family is None:
        return ""
    return "gusarik" if players == 2 else f"{family}-{players}"


def pool_name(pool: str, t: Translator) -> str:
    """>>> pool_name("leningrad-4", Translator("ru")), pool_name("gusarik", Translator("en"))
    ('Ленинград, 4 игрока', 'гусарик (2 players)')
    """
    if pool == "gusarik":
        return t("гусарик (2 players)")
    family, _, n = pool.rpartition("-")
    return t.n("{rules}, {n} player", "{rules}, {n} players", int(n), rules=t.p("preset", family))


def rate(pool: str, players: Sequence[tuple[str, str, float, float, str]]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each ``(identity, name, mu, sigma, whists)`` after a pulka: ranked by whists."""
    whists = [Fraction(p[4]) for p in players]
    ranks = [1 + sum(1 for other in whists if other > w) for w in whists]
    teams = [[MODEL.create_rating([mu, sigma], name=ident)] for ident, _, mu, sigma, _ in players]
    out = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in out]


def shown(mu: float) -> int:
    """The rating players read: 1500 at the start, 40 points to one ``mu``."""
    return round(1500 + 40 * (mu - START_MU))


def rating_svg(points: Sequence[tuple[float, float, float]], lang: str, title: str) -> str:
    """The rating over time as an SVG chart: one point per rated pulka (``(when, mu, sigma)``),
    the band of ±1 sigma around it, the axes labelled in ``lang``; it scales to the page's width.

    >>> svg = rating_svg([(0.0, 25.0, 8.3), (86400.0, 27.0, 7.9)], "ru", "Сочи")
    >>> svg.startswith("<svg") and "Рейтинг" in svg and "Сыграно пуль" in svg
    True
    """
    t = Translator(lang)
    w, h, left, right, top, bottom = 640, 300, 58, 16, 34, 46
    start = [(0.0, START_MU, START_SIGMA)] if points else []
    series = [*start, *points]
    ys = [shown(mu) for _, mu, _ in series]
    lows = [shown(mu - s) for _, mu, s in series]
    highs = [shown(mu + s) for _, mu, s in series]
    lo = min([*lows, 1400]) if series else 1400
    hi = max([*highs, 1600]) if series else 1600
    step = 100 if hi - lo <= 800 else 200
    lo, hi = (lo // step) * step, -(-hi // step) * step
    n = max(1, len(series) - 1)

    def x(i: int) -> float:
        return left + (w - left - right) * i / n

    def y(v: float) -> float:
        return top + (h - top - bottom) * (hi - v) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" role="img" '
           f'aria-label="{escape(title)}" font-family="DejaVu Sans, sans-serif" font-size="14">',
           f'<rect width="{w}" height="{h}" fill="#fff"/>',
           f'<text x="{left}" y="22" font-size="16" font-weight="bold">{escape(title)}</text>']  # fmt: skip
    for v in range(lo, hi + 1, step):
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e5e7eb"/>'
                   f'<text x="{left - 6}" y="{y(v) + 5:.1f}" text-anchor="end" fill="#374151">{v}</text>')  # fmt: skip
    out.append(f'<text transform="translate(14 {(top + h - bottom) / 2:.0f}) rotate(-90)" text-anchor="middle" '
               f'fill="#374151">{escape(t("Rating"))}</text>')  # fmt: skip
    out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 8}" text-anchor="middle" fill="#374151">'
               f'{escape(t("Pulkas played"))}</text>')  # fmt: skip
    out.append(f'<line x1="{left}" x2="{w - right}" y1="{h - bottom}" y2="{h - bottom}" stroke="#6b7280"/>')
    if len(series) > 1:
        ticks = sorted({0, n, *range(0, n + 1, max(1, n // 5))})
        for i in ticks:
            out.append(f'<text x="{x(i):.1f}" y="{h - bottom + 18}" text-anchor="middle" fill="#374151">{i}</text>')
        band = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
        band += [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))]
        out.append(f'<polygon points="{" ".join(band)}" fill="#1f6b4322"/>')
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ys))
        out.append(f'<polyline points="{line}" fill="none" stroke="#1f6b43" stroke-width="3"/>')
        for i, v in enumerate(ys):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="#1f6b43"/>')
        last = points[-1][0]
        if last > 0:
            when = dt.datetime.fromtimestamp(last, dt.UTC).strftime("%Y-%m-%d")
            out.append(f'<text x="{w - right}" y="22" text-anchor="end" fill="#374151">{shown(points[-1][1])} · '
                       f"{when}</text>")  # fmt: skip
    else:
        out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h / 2:.0f}" text-anchor="middle" fill="#6b7280">'
                   f'{escape(t("No rated pulka yet"))}</text>')  # fmt: skip
    out.append("</svg>")
    return "\n".join(out)
