"""The analysis as people read it, in English or Russian: whists written as players write them.

A cost is never a fraction such as ``32/3``: whole whists where the price is whole, else one
decimal (``10.7 whists``, «10,7 виста»), always with a minus for a loss.

>>> from fractions import Fraction
>>> whists_text(Fraction(32, 3), "ru"), whists_text(14, "ru"), whists_text(1, "ru"), whists_text(2.04, "en")
('10,7 виста', '14 вистов', '1 вист', '2 whists')
>>> loss_text(Fraction(-32, 3) * -1, "en"), loss_text(0, "ru")
('−10.7 whists', '0 вистов')
"""

from __future__ import annotations

from typing import Any

from ..i18n import Translator, call_name
from ..scoring.sheet import Amount

# The analysis's values are typed Any here: preferans.rulings.analysis imports this module to
# write itself, and the layers' check counts type-only imports as a cycle too.

__all__ = ["analysis_text", "choice_text", "loss_text", "whists_text"]


def whists_text(x: Amount | float, lang: str = "en") -> str:
    """``x`` whists as players write them: ``14 вистов``, ``10,7 виста``, ``−1 whist``."""
    t = Translator(lang)
    value = round(float(x), 1)
    sign = "−" if value < 0 else ""
    value = abs(value)
    if value == int(value):
        return sign + t.n("{n} whist", "{n} whists", int(value))
    number = f"{value:.1f}"
    if lang == "ru":
        number = number.replace(".", ",")
    return sign + t("{x} whists", x=number)


def loss_text(cost: Amount | float, lang: str = "en") -> str:
    """A cost as a loss: ``−10,7 виста`` (``0 …`` when it cost nothing)."""
    return whists_text(-float(cost) if round(float(cost), 1) else 0, lang)


def choice_text(d: Any, choice: tuple[str, ...], lang: str = "en") -> str:
    """A choice in the player's words: a call (``пас``), a card, or a discard with the contract."""
    t = Translator(lang)
    if d.kind == "contract":
        cards = " ".join(choice[:2])
        if len(choice) > 2:
            return t("discard {cards}, contract {contract}", cards=cards, contract=call_name(choice[2], lang))
        return t("discard {cards}", cards=cards)
    return ", ".join(call_name(c, lang) for c in choice)


def _basis(d: Any, lang: str) -> str:
    t = Translator(lang)
    return t("with all hands open") if d.basis == "open" else t("on average over the layouts")


def _who(names: tuple[str, ...], seat: int, lang: str) -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return Translator(lang).p("seat", "dummy")


def _deal_head(d: Any, names: tuple[str, ...], lang: str) -> str:
    t = Translator(lang)
    if d.kind == "all_pass":
        what = t.p("deal kind", "all_pass")
    elif d.declarer is not None and d.contract is not None:
        what = f"{_who(names, d.declarer, lang)} {call_name(_contract_call(d), lang)}"
        if d.kind == "not_played":
            what += " " + t("(not played)")
    else:
        what = t.p("deal kind", d.kind) if d.kind in _KINDS else d.kind
    head = t("Deal {n} (dealer {name}): {what}", n=d.number, name=_who(names, d.dealer, lang), what=what)
    if d.tricks:
        parts = ", ".join(f"{_who(names, s, lang)} {n}" for s, n in sorted(d.tricks.items()))
        head += "; " + t("tricks {list}", list=parts)
    return head


_KINDS = frozenset({"game", "misere", "all_pass", "not_played", "void", "penalty", "sheet", "broken", "unfinished"})


def _contract_call(d: Any) -> str:
    c = d.contract
    assert c is not None
    if c.is_misere:
        return "misere"
    return str(c).split(" ")[0]


def _card_line(c: Any, names: tuple[str, ...], width: int, lang: str) -> str:
    t = Translator(lang)
    who = _who(names, c.seat, lang)
    if c.player != c.seat:
        who += " " + t("(by {name})", name=_who(names, c.player, lang))
    line = t("trick {n}", n=f"{c.trick:2}")
    line = f"  {line}  {who:<{width}}  {c.card!s:>3}   {_who(names, c.focus, lang)} {c.before} → {c.after}"
    if c.loss:
        best = " ".join(str(b) for b in c.best)
        line += "   ? −" + t.n("{n} trick", "{n} tricks", c.loss)
        line += ", " + loss_text(c.whists, lang) if c.whists else ""
        line += " (" + t("best {cards}", cards=best) + ")"
    return line


def _decision_line(d: Any, names: tuple[str, ...], lang: str) -> str:
    t = Translator(lang)
    best = "; ".join(choice_text(d, b, lang) for b in d.best[:3])
    return "  " + t("{name}: {choice} — {loss} {basis} (best: {best})", name=_who(names, d.player, lang),
                    choice=choice_text(d, d.chosen, lang), loss=loss_text(d.cost, lang), basis=_basis(d, lang),
                    best=best)  # fmt: skip


def analysis_text(a: Any, *, all_cards: bool = True, lang: str = "en") -> str:
    """The report: each deal (its costly decisions; every card or only the costly ones) and the summary."""
    t = Translator(lang)
    names = a.players
    width = max(len(n) for n in names)
    lines: list[str] = []
    for d in a.deals:
        lines.append(_deal_head(d, names, lang))
        if d.skipped:
            lines.append("  " + t("not analysed: {why}", why=t(d.skipped)))
        table = d.table
        if table is not None and d.table_seat is not None:
            row = ", ".join(f"{s} {table.tricks[i]}" for i, s in enumerate(("♠", "♣", "♦", "♥", t.p("strain", "NT"))))
            lines.append("  " + t("contract table of {name} (tricks with the best discard): {row}; misère {n}",
                                  name=_who(names, d.table_seat, lang), row=row, n=table.misere))  # fmt: skip
        for c in d.cards:
            if all_cards or c.loss:
                lines.append(_card_line(c, names, width, lang))
        for x in d.decisions:
            if x.kind != "card" and x.is_mistake:
                lines.append(_decision_line(x, names, lang))
        lines.append("")
    lines.append(t("Summary (cards chosen, errors, tricks lost, whists lost at cards; every decision):"))
    for s in a.summary:
        lines.append(
            f"  {s.name:<{width}}  {t.n('{n} card', '{n} cards', s.cards):>9}  {_padded(t, s.errors, 'error')}"
            f"  {_padded(t, s.tricks_lost, 'trick')}  {whists_text(s.whists_lost, lang):>13}"
        )
        lines.append("  " + " " * width + "  " + t(
            "decisions {n}, mistakes {m}: {loss} ({open} with all hands open, {average} on average)",
            n=s.decisions, m=s.mistakes, loss=loss_text(s.cost, lang), open=loss_text(s.cost_open, lang),
            average=loss_text(s.cost_average, lang)))  # fmt: skip
        for number, x in s.biggest:
            indent = "  " + " " * width + "    "
            lines.append(indent + t("deal {n}", n=number) + ":" + _decision_line(x, names, lang)[1:])
    return "\n".join(lines)


def _padded(t: Translator, n: int, word: str) -> str:
    """``1 error`` / ``2 errors`` padded so the columns stay (issue 16)."""
    text = t.n("{n} error", "{n} errors", n) if word == "error" else t.n("{n} trick", "{n} tricks", n)
    return f"{text:>10}"
