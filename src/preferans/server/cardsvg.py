"""Playing cards drawn as SVG by plain string building (no images shipped).

A 32-card Preferans pack: 7 to ace in four suits, drawn in four colours
(♠ black, ♣ green, ♦ blue, ♥ red) so suits are told apart at a glance on a
phone.  Number cards show their pips; J, Q, K and A a large letter and suit —
or, with ``ranks="ru"``, В, Д, К and Т (валет, дама, король, туз) as Russian packs print them.

>>> svg = card_svg("10♥")
>>> svg.startswith("<svg") and "10" in svg and "♥" in svg
True
>>> card_svg("QS") == card_svg("Q♠"), ">Д<" in card_svg("Q♠", "ru")
(True, True)
"""

from __future__ import annotations

from functools import cache

from ..cards import RANKS, Card, rank_text

__all__ = ["SUIT_COLOURS", "card_back_svg", "card_sprite_svg", "card_svg"]

SUIT_COLOURS = ("#111111", "#137a2f", "#1650b4", "#c8102e")  # ♠ ♣ ♦ ♥
W, H = 60, 90
FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif"

# Pip centres (x, y, upside-down) for 7, 8, 9 and 10 on a 60×90 card.
_COLS = (19.0, 30.0, 41.0)
_PIPS: dict[int, tuple[tuple[float, float, bool], ...]] = {
    7: ((19, 22, False), (41, 22, False), (30, 34, False), (19, 45, False), (41, 45, False),
        (19, 68, True), (41, 68, True)),
    8: ((19, 22, False), (41, 22, False), (30, 34, False), (19, 45, False), (41, 45, False),
        (30, 56, True), (19, 68, True), (41, 68, True)),
    9: ((19, 22, False), (41, 22, False), (19, 37, False), (41, 37, False), (30, 45, False),
        (19, 53, True), (41, 53, True), (19, 68, True), (41, 68, True)),
    10: ((19, 22, False), (41, 22, False), (30, 30, False), (19, 37, False), (41, 37, False),
         (19, 53, True), (41, 53, True), (30, 60, True), (19, 68, True), (41, 68, True)),
}  # fmt: skip


@cache
def card_svg(text: str, ranks: str = "en") -> str:
    """The SVG of one card given in any text form ``Card.parse`` reads, its rank in the letters of
    ``ranks`` (``en`` A K Q J, ``ru`` Т К Д В)."""
    card = Card.parse(text)
    label = rank_text(card, ranks if ranks in RANKS else "en")
    rank, suit = label[:-1], label[-1]
    colour = SUIT_COLOURS[card // 8]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-label="{label}">',
        f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="5" fill="#fffefa" '
        f'stroke="#8a8a8a" stroke-width="1.2"/>',
        f'<g fill="{colour}" font-family="{FONT}" text-anchor="middle">',
        _corner(rank, suit, False),
        _corner(rank, suit, True),
    ]
    n = {"7": 7, "8": 8, "9": 9, "10": 10}.get(rank)
    if n is not None:
        for x, y, flip in _PIPS[n]:
            rot = f' transform="rotate(180 {x} {y})"' if flip else ""
            parts.append(f'<text x="{x}" y="{y + 5}" font-size="14"{rot}>{suit}</text>')
    else:
        parts.append(f'<rect x="13" y="17" width="34" height="56" rx="3" fill="none" stroke="{colour}" '
                     f'stroke-opacity="0.35"/>')  # fmt: skip
        parts.append(f'<text x="30" y="46" font-size="24" font-weight="bold">{rank}</text>')
        parts.append(f'<text x="30" y="67" font-size="18">{suit}</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def _corner(rank: str, suit: str, flip: bool) -> str:
    rot = f' transform="rotate(180 {W / 2} {H / 2})"' if flip else ""
    size = 11 if len(rank) == 2 else 12
    return (f'<g{rot}><text x="8" y="13" font-size="{size}" font-weight="bold" '
            f'letter-spacing="-1">{rank}</text><text x="8" y="24" font-size="10">{suit}</text></g>')  # fmt: skip


@cache
def card_back_svg() -> str:
    """The back of a card: a lattice in deep blue."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        'role="img" aria-label="card back">'
        '<defs><pattern id="p" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#23408e"/><rect width="3" height="6" fill="#2d52ad"/></pattern></defs>'
        f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="5" fill="#fffefa" stroke="#8a8a8a" '
        'stroke-width="1.2"/>'
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="3" fill="url(#p)"/></svg>'
    )


@cache
def card_sprite_svg(ranks: str = "en") -> str:
    """Every card and the back as ``<symbol>`` elements of one SVG (``id`` = ``card-0`` … ``card-31``,
    ``card-back``): the client loads it once and draws each card with ``<use>``, so no card ever
    waits for its own image (no blank flash while a picture loads)."""
    # No style attribute (a strict Content-Security-Policy refuses inline styles) and not display:none
    # (patterns inside a hidden SVG are not drawn where they are used): an SVG of no size.
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true">']
    for ident, svg in [*((str(c), card_svg(str(Card(c)), ranks)) for c in range(32)), ("back", card_back_svg())]:
        inner = svg[svg.index(">") + 1 : svg.rindex("</svg>")]
        if ident == "back":
            inner = inner.replace('id="p"', 'id="card-back-lattice"').replace("url(#p)", "url(#card-back-lattice)")
        parts.append(f'<symbol id="card-{ident}" viewBox="0 0 {W} {H}">{inner}</symbol>')
    parts.append("</svg>")
    return "".join(parts)
