"""The sheet as plain text for the terminal: the deals, the running totals, the settlement.

>>> from preferans.scoring import DealScore, Entry, Sheet, settle
>>> s = Sheet("ABC")
>>> s.write(DealScore(1, (Entry("pool", 0, 2), Entry("whists", 1, 4, 0), Entry("whists", 2, 4, 0)),
...                   dealer=2, label="A 6♥ made"))
>>> print(render_text(s, Rules(), settle(s, Rules())))  # doctest: +ELLIPSIS
Pulka: Sochi, 3 players, pool 20, 1 deal
<BLANKLINE>
  #  dealer  deal        written
  1  C       A 6♥ made   A pool 2 · B→A 4 · C→A 4
<BLANKLINE>
               A      B      C
pool           2      0      0
mountain       0      0      0
whists on A    —      4      4
...
net         16/3   -8/3   -8/3
...
"""

from __future__ import annotations

from fractions import Fraction

from ..i18n import Translator, preset_name
from ..rules import Rules
from .settlement import Settlement
from .sheet import Amount, Entry, Sheet, amount_text

__all__ = ["entry_text", "render_text", "running_text"]


def entry_text(e: Entry, names: tuple[str, ...], lang: str = "en") -> str:
    """``A pool 2``, ``B mount 4``, ``C→A 4``; help and write-off are marked.

    >>> entry_text(Entry("mountain", 1, 4), ("A", "B", "C"), "ru")
    'B гора 4'
    >>> entry_text(Entry("pool", 0, 2, why="help"), ("A", "B"))
    'A pool 2 (help)'
    """
    t = Translator(lang)
    amount = amount_text(e.amount)
    note = " (" + t.p("entry", e.why) + ")" if e.why in ("help", "write-off") else ""
    if e.column == "whists":
        return f"{names[e.player]}→{names[e.on]} {amount}{note}"
    column = t.p("entry", "pool") if e.column == "pool" else t.p("entry", "mount")
    return f"{names[e.player]} {column} {amount}{note}"


def running_text(values: list[Amount]) -> str:
    """Running totals written as on paper: ``2.6.10``."""
    return ".".join(amount_text(v) for v in values) if values else "—"


def _decimal(x: Fraction) -> str:
    return f"{float(x):.2f}" if x.denominator != 1 else str(x.numerator)


def render_text(
    sheet: Sheet, rules: Rules, settlement: Settlement, *, price: Fraction | None = None, lang: str = "en"
) -> str:
    """The whole sheet as text, in English or Russian."""
    t = Translator(lang)
    names = sheet.names
    n = len(names)
    deals = len(sheet.history)
    out = [t("Pulka: {rules}, {players} players, pool {pool}, {deals}", rules=preset_name(rules.name, lang), players=n,
             pool=rules.pool_target, deals=t.n("{n} deal", "{n} deals", deals)), ""]  # fmt: skip
    if sheet.history:
        labels = [t.text(d.label) + (t(" (step {n})", n=d.raspas_step) if d.raspas_step > 1 else "")
                  for d in sheet.history]  # fmt: skip
        head_deal, head_dealer, head_written = t.p("sheet", "deal"), t.p("sheet", "dealer"), t.p("sheet", "written")
        width = max(len(head_deal), *(len(x) for x in labels))
        dealer_w = max(6, len(head_dealer), *(len(x) for x in names))
        out.append(f"  #  {head_dealer.ljust(dealer_w)}  {head_deal.ljust(width)}   {head_written}")
        for d, label in zip(sheet.history, labels, strict=True):
            written = " · ".join(entry_text(e, names, lang) for e in d.entries) or "—"
            out.append(f"{d.number:3}  {names[d.dealer]:<{dealer_w}}  {label.ljust(width)}   {written}")
        out.append("")
    cells = [amount_text(x) for x in (*sheet.pool, *sheet.mountain, *settlement.net, *settlement.rounded)]
    cells += [amount_text(x) for row in sheet.whists for x in row] + [_decimal(x) for x in settlement.net]
    col = max(7, *(len(x) + 2 for x in (*names, *cells)))  # every column keeps a gap, long fractions too
    label_w = max(11, *(len(t("whists on {name}", name=x)) + 1 for x in names))  # long names stay aligned

    def row(label: str, cells: list[str]) -> str:
        return label.ljust(label_w) + "".join(c.rjust(col) for c in cells)

    out.append(row("", list(names)))
    out.append(row(t.p("sheet", "pool"), [amount_text(x) for x in sheet.pool]))
    out.append(row(t.p("sheet", "mountain"), [amount_text(x) for x in sheet.mountain]))
    for j in range(n):
        cells = ["—" if i == j else amount_text(sheet.whists[i][j]) for i in range(n)]
        out.append(row(t("whists on {name}", name=names[j]), cells))
    out.append(t("(whists: each column is the player who wrote them)"))
    out.append("")
    out.append(t("Running totals (as on paper)"))
    for i in range(n):
        parts = [t("pool {totals}", totals=running_text(sheet.running("pool", i))),
                 t("mountain {totals}", totals=running_text(sheet.running("mountain", i)))]  # fmt: skip
        for j in range(n):
            if j != i:
                parts.append(t("on {name} {totals}", name=names[j], totals=running_text(sheet.running("whists", i, j))))
        out.append(f"  {names[i]}: " + "; ".join(parts))
    out.append("")
    out.append(t("Settlement in whists (k_pool {k_pool}, k_mount {k_mount}; both methods of rules.md §11 agree)",
                 k_pool=rules.k_pool, k_mount=rules.k_mount))  # fmt: skip
    out.append(row(t.p("sheet", "net"), [amount_text(x) for x in settlement.net]))
    if any(x.denominator != 1 for x in settlement.net):
        out.append(row("≈", [_decimal(x) for x in settlement.net]))
    if settlement.rounded != settlement.net:
        out.append(row(t.p("rounding", rules.rounding), [amount_text(x) for x in settlement.rounded]))
    if price is not None:
        out.append(row(t("money ×{price}", price=amount_text(price)),
                       [_decimal(x) for x in settlement.money(price)]))  # fmt: skip
    return "\n".join(out)
