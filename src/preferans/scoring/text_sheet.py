"""The sheet as plain text for the terminal: the deals, the running totals, the settlement.

>>> from preferans.scoring import DealScore, Entry, Sheet, settle
>>> s = Sheet("ABC")
>>> s.write(DealScore(1, (Entry("pool", 0, 2), Entry("whists", 1, 4, 0), Entry("whists", 2, 4, 0)),
...                   dealer=2, label="A 6♥ made"))
>>> print(render_text(s, Rules(), settle(s, Rules())))  # doctest: +ELLIPSIS
Pulka: sochi, 3 players, pool 20, 1 deal
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

from ..rules import Rules
from .settlement import Settlement
from .sheet import Amount, Entry, Sheet, amount_text

__all__ = ["entry_text", "render_text", "running_text"]


def entry_text(e: Entry, names: tuple[str, ...]) -> str:
    """``A pool 2``, ``B mount 4``, ``C→A 12``; help and write-off are marked."""
    amount = amount_text(e.amount)
    note = f" ({e.why})" if e.why in ("help", "write-off") else ""
    if e.column == "whists":
        return f"{names[e.player]}→{names[e.on]} {amount}{note}"
    return f"{names[e.player]} {'pool' if e.column == 'pool' else 'mount'} {amount}{note}"


def running_text(values: list[Amount]) -> str:
    """Running totals written as on paper: ``2.6.10``."""
    return ".".join(amount_text(v) for v in values) if values else "—"


def _decimal(x: Fraction) -> str:
    return f"{float(x):.2f}" if x.denominator != 1 else str(x.numerator)


def render_text(
    sheet: Sheet, rules: Rules, settlement: Settlement, *, price: Fraction | None = None
) -> str:
    """The whole sheet as text."""
    names = sheet.names
    n = len(names)
    deals = len(sheet.history)
    out = [f"Pulka: {rules.name}, {n} players, pool {rules.pool_target}, "
           f"{deals} deal{'s' if deals != 1 else ''}", ""]  # fmt: skip
    if sheet.history:
        width = max(len(d.label) for d in sheet.history)
        out.append(f"  #  dealer  {'deal'.ljust(width)}   written")
        for d in sheet.history:
            written = " · ".join(entry_text(e, names) for e in d.entries) or "—"
            step = f" (step {d.raspas_step})" if d.raspas_step > 1 else ""
            out.append(
                f"{d.number:3}  {names[d.dealer]:<6}  {(d.label + step).ljust(width)}   {written}"
            )
        out.append("")
    col = max(7, *(len(x) + 2 for x in names))
    label_w = max(11, *(len(f"whists on {x}") + 1 for x in names))  # long names stay aligned

    def row(label: str, cells: list[str]) -> str:
        return label.ljust(label_w) + "".join(c.rjust(col) for c in cells)

    out.append(row("", list(names)))
    out.append(row("pool", [amount_text(x) for x in sheet.pool]))
    out.append(row("mountain", [amount_text(x) for x in sheet.mountain]))
    for j in range(n):
        cells = ["—" if i == j else amount_text(sheet.whists[i][j]) for i in range(n)]
        out.append(row(f"whists on {names[j]}", cells))
    out.append("(whists: each column is the player who wrote them)")
    out.append("")
    out.append("Running totals (as on paper)")
    for i in range(n):
        parts = [f"pool {running_text(sheet.running('pool', i))}",
                 f"mountain {running_text(sheet.running('mountain', i))}"]  # fmt: skip
        for j in range(n):
            if j != i:
                parts.append(f"on {names[j]} {running_text(sheet.running('whists', i, j))}")
        out.append(f"  {names[i]}: " + "; ".join(parts))
    out.append("")
    out.append(f"Settlement in whists (k_pool {rules.k_pool}, k_mount {rules.k_mount}, "
               f"both methods of rules.md §11 agree)")  # fmt: skip
    out.append(row("net", [amount_text(x) for x in settlement.net]))
    if any(x.denominator != 1 for x in settlement.net):
        out.append(row("≈", [_decimal(x) for x in settlement.net]))
    if settlement.rounded != settlement.net:
        out.append(row(f"{rules.rounding}", [amount_text(x) for x in settlement.rounded]))
    if price is not None:
        out.append(row(f"money ×{amount_text(price)}",
                       [_decimal(x) for x in settlement.money(price)]))  # fmt: skip
    return "\n".join(out)
