"""The sheet as plain text for the terminal: the deals, the running totals, the settlement.

Amounts are written as on paper (:func:`~preferans.scoring.sheet.paper_amount`: ``2½``, never
``5/2`` or ``2.5``), and the settlement shows both methods of rules.md §11 agreeing, then the
result in whole whists.

>>> from preferans.scoring import DealScore, Entry, Sheet, settle
>>> s = Sheet("ABC")
>>> s.write(DealScore(1, (Entry("pool", 0, 2), Entry("whists", 1, 4, 0), Entry("whists", 2, 4, 0)),
...                   dealer=2, label="A 6♥ made"))
>>> print(render_text(s, Rules(), settle(s, Rules())))
Pulka: Sochi, 3 players, pool 20, 1 deal
<BLANKLINE>
  #  dealer  deal        written
  1  C       A 6♥ made   A pool 2 · B→A 4 · C→A 4
<BLANKLINE>
                  A      B      C
pool              2      0      0
mountain          0      0      0
whists → A        —      4      4
whists → B        0      —      0
whists → C        0      0      —
(whists: each column is the player who wrote them)
<BLANKLINE>
Running totals (as on paper)
  A: pool 2; mountain —; → B —; → C —
  B: pool —; mountain —; → A 4; → C —
  C: pool —; mountain —; → A 4; → B —
<BLANKLINE>
Settlement in whists (a pool point is worth 10 whists, a mountain point 10)
                                           A      B      C
mountain, the pools brought up to 2        0      2      2
each of the others writes on him           0     6⅔     6⅔
  (mountain × 10 / 3)
for the pool short of 2, in whole whists   0      7      7
  (shortfall × 10 / 3, halves up)
whists won (+) or lost (−)                -8      4      4
on paper                                  5⅓    -2⅔    -2⅔
by the formula                            5⅓    -2⅔    -2⅔
in whole whists                           +6     -3     -3
Both methods agree; the results sum to 0.
"""

from __future__ import annotations

from fractions import Fraction

from ..i18n import Translator, preset_name
from ..rules import Rules
from .settlement import Settlement
from .sheet import Amount, Entry, Sheet, paper_amount, signed_amount

__all__ = ["entry_text", "render_text", "running_text", "settlement_rows"]


def entry_text(e: Entry, names: tuple[str, ...], lang: str = "en") -> str:
    """``A pool 2``, ``B mount 4``, ``C→A 4``; help and write-off are marked.

    >>> entry_text(Entry("mountain", 1, 4), ("A", "B", "C"), "ru")
    'B гора 4'
    >>> entry_text(Entry("pool", 0, 2, why="help"), ("A", "B"))
    'A pool 2 (help)'
    """
    t = Translator(lang)
    amount = paper_amount(e.amount)
    note = " (" + t.p("entry", e.why) + ")" if e.why in ("help", "write-off") else ""
    if e.column == "whists":
        return f"{names[e.player]}→{names[e.on]} {amount}{note}"
    column = t.p("entry", "pool") if e.column == "pool" else t.p("entry", "mount")
    return f"{names[e.player]} {column} {amount}{note}"


def running_text(values: list[Amount]) -> str:
    """Running totals written as on paper: ``2.6.10`` (a half as ``2½.6``).

    >>> running_text([2, 6, 10]), running_text([Fraction(5, 2), 6]), running_text([])
    ('2.6.10', '2½.6', '—')
    """
    return ".".join(paper_amount(v) for v in values) if values else "—"


def settlement_rows(
    sheet: Sheet, rules: Rules, settlement: Settlement, lang: str = "en", *, price: Fraction | None = None
) -> tuple[str, list[tuple[str, list[str]]], str]:
    """The settlement as a paper player works it out (rules.md §11): a heading, the rows
    ``(label, one cell per player)`` and a closing line, in ``lang``.

    The first method on paper — the pools brought up to the largest (the difference into the
    mountain), the smallest mountain taken off, each mountain written as whists on its owner
    by every other player — and the closed formula give the same exact results; the last row
    is the result in whole whists (:attr:`Settlement.whole`).
    """
    t = Translator(lang)
    n = sheet.players
    proc = settlement.procedure
    k_pool, k_mount = Fraction(rules.k_pool), rules.mountain_factor(n)
    head = t("Settlement in whists (a pool point is worth {k_pool} whists, a mountain point {k_mount})",
             k_pool=paper_amount(k_pool), k_mount=paper_amount(k_mount))  # fmt: skip
    rows: list[tuple[str, list[str]]] = []
    top = max(sheet.pool) if sheet.pool else 0
    if any(p != top for p in sheet.pool):
        rows.append((t("mountain, the pools brought up to {pool}", pool=paper_amount(top)),
                     [paper_amount(x) for x in proc.mountain]))  # fmt: skip
    else:
        rows.append((t.p("sheet", "mountain"), [paper_amount(x) for x in proc.mountain]))
    if proc.amnesty:
        rows.append((t("less the smallest mountain, {low}", low=paper_amount(proc.amnesty)),
                     [paper_amount(x - proc.amnesty) for x in proc.mountain]))  # fmt: skip
    rows.append((t("each of the others writes on him") + "\n  "
                 + t("(mountain × {k} / {n})", k=paper_amount(k_mount), n=n),
                 [paper_amount(x) for x in proc.mountain_whists]))  # fmt: skip
    paper = settlement.on_paper
    if paper is not None and paper.pool_shares and paper.mountain_whists != proc.mountain_whists:
        # The whole results are worked out from whole shares (rules.md §11.3), the pool's and
        # the mountain's apart: show them, so that the last row can be followed on paper.
        low, k, k_m = paper_amount(paper.smallest_mountain), paper_amount(k_pool), paper_amount(k_mount)
        if any(paper.pool_shares):
            rows.append((t("for the pool short of {pool}, in whole whists", pool=paper_amount(top)) + "\n  "
                         + t("(shortfall × {k} / {n}, halves up)", k=k, n=n),
                         [paper_amount(x) for x in paper.pool_shares]))  # fmt: skip
        if any(paper.mountain_shares):
            # counted above the smallest mountain (that part cancels out), when there is one
            if paper.smallest_mountain:
                label = t("for the mountain above {low}, in whole whists", low=low)
                formula = t("((mountain − {low}) × {k} / {n}, halves up)", low=low, k=k_m, n=n)
            else:
                label = t("for the mountain, in whole whists")
                formula = t("(mountain × {k} / {n}, halves up)", k=k_m, n=n)
            rows.append((label + "\n  " + formula, [paper_amount(x) for x in paper.mountain_shares]))
    balance = [sum((Fraction(sheet.whists[i][j]) - sheet.whists[j][i] for j in range(n)), start=Fraction(0))
               for i in range(n)]  # fmt: skip
    rows.append((t("whists won (+) or lost (−)"), [paper_amount(x) for x in balance]))
    rows.append((t("on paper"), [paper_amount(x) for x in proc.net]))
    rows.append((t("by the formula"), [paper_amount(x) for x in settlement.net]))
    if list(settlement.rounded) != list(settlement.net) and any(x.denominator != 1 for x in settlement.rounded):
        rows.append((t.p("rounding", rules.rounding), [paper_amount(x) for x in settlement.rounded]))
    rows.append((t("in whole whists"), [signed_amount(x) for x in settlement.whole]))
    if price is not None:
        rows.append((t("money ×{price}", price=paper_amount(price)),
                     [_money(x) for x in settlement.money(price)]))  # fmt: skip
    agree = proc.net == settlement.net and sum(settlement.net) == 0
    foot = t("Both methods agree; the results sum to 0.") if agree else ""
    return head, rows, foot


def _money(x: Fraction) -> str:
    """Money as written: whole units, or with two decimals (``2.50``, ``-1.33``)."""
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"


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
    cells = [paper_amount(x) for x in (*sheet.pool, *sheet.mountain)]
    cells += [paper_amount(x) for row in sheet.whists for x in row]
    head, rows, foot = settlement_rows(sheet, rules, settlement, lang, price=price)
    cells += [c for _, r in rows for c in r]
    col = max(7, *(len(x) + 2 for x in (*names, *cells)))  # every column keeps a gap, long fractions too
    labels = [line for label, _ in rows for line in label.split("\n")]
    label_w = max(14, *(len(t("whists → {name}", name=x)) + 1 for x in names))  # long names stay aligned

    def row(label: str, cells: list[str]) -> str:
        return (label.ljust(label_w) + "".join(c.rjust(col) for c in cells)).rstrip()

    out.append(row("", list(names)))
    out.append(row(t.p("sheet", "pool"), [paper_amount(x) for x in sheet.pool]))
    out.append(row(t.p("sheet", "mountain"), [paper_amount(x) for x in sheet.mountain]))
    for j in range(n):
        cells = ["—" if i == j else paper_amount(sheet.whists[i][j]) for i in range(n)]
        out.append(row(t("whists → {name}", name=names[j]), cells))
    out.append(t("(whists: each column is the player who wrote them)"))
    out.append("")
    out.append(t("Running totals (as on paper)"))
    for i in range(n):
        parts = [t("pool {totals}", totals=running_text(sheet.running("pool", i))),
                 t("mountain {totals}", totals=running_text(sheet.running("mountain", i)))]  # fmt: skip
        for j in range(n):
            if j != i:
                parts.append(t("→ {name} {totals}", name=names[j], totals=running_text(sheet.running("whists", i, j))))
        out.append(f"  {names[i]}: " + "; ".join(parts))
    out.append("")
    out.append(head)
    wide = max(label_w, *(len(x) + 2 for x in labels if not x.startswith(" ")))
    out.append((" " * wide + "".join(x.rjust(col) for x in names)).rstrip())
    for label, cells in rows:
        first, *more = label.split("\n")
        out.append((first.ljust(wide) + "".join(c.rjust(col) for c in cells)).rstrip())
        out.extend(more)
    if foot:
        out.append(foot)
    return "\n".join(out)
