"""Helpers shared by the scoring tests: build outcomes and read expected sheet lines."""

from __future__ import annotations

import re
from fractions import Fraction

from preferans.actions import Contract
from preferans.engine.result import DealKind, DealResult, DefenceCall
from preferans.rules import Rules
from preferans.scoring import Entry, Sheet, closed_formula

NAMES = "ABCD"
CALLS = {"w": DefenceCall.WHIST, "p": DefenceCall.PASS, "h": DefenceCall.HALF}


def seat(c: str) -> int:
    return NAMES.index(c)


def game(
    contract: str,
    tricks: str = "",
    defence: str = "",
    *,
    n: int = 3,
    declarer: str = "A",
    **kw: object,
) -> DealResult:
    """``game("6H", "A6 B2 C2", "Bw Cw")``; 4-handed tables have D as the dealer."""
    t = {seat(x[0]): int(x[1:]) for x in tricks.split()}
    d = {seat(x[0]): CALLS[x[1]] for x in defence.split()}
    c = Contract.parse(contract)
    if c.is_misere:
        kind = DealKind.MISERE
    elif t or kw.get("conceded"):
        kind = DealKind.GAME
    else:
        kind = DealKind.NOT_PLAYED
    return DealResult(
        kind, n, dealer=3 if n == 4 else 2, declarer=seat(declarer), contract=c,
        defence=d, tricks=t, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def all_pass(tricks: str, *, n: int = 3, dealer_tricks: int = 0, multiplier: int = 1) -> DealResult:
    t = {seat(x[0]): int(x[1:]) for x in tricks.split()}
    return DealResult(
        DealKind.ALL_PASS, n, dealer=3 if n == 4 else 2, tricks=t,
        dealer_tricks=dealer_tricks, multiplier=multiplier,
    )  # fmt: skip


_LINE = re.compile(r"^([A-D])(?:→([A-D])| (pool|mount)) \+?(-?[\d/]+)$")


def expected_lines(text: str) -> list[tuple[str, int, int, Fraction]]:
    """``"A pool +2; B→A 4"`` as sorted (column, player, on, amount)."""
    out = []
    for part in text.split(";"):
        m = _LINE.match(part.strip())
        assert m, part
        who, on, col, amount = m.groups()
        if on:
            out.append(("whists", seat(who), seat(on), Fraction(amount)))
        else:
            out.append(("pool" if col == "pool" else "mountain", seat(who), -1, Fraction(amount)))
    return sorted(out)


def lines_of(entries: list[Entry]) -> list[tuple[str, int, int, Fraction]]:
    """Entries summed per (column, player, on), zero lines dropped."""
    acc: dict[tuple[str, int, int], Fraction] = {}
    for e in entries:
        key = (e.column, e.player, e.on)
        acc[key] = acc.get(key, Fraction(0)) + e.amount
    return sorted((k[0], k[1], k[2], v) for k, v in acc.items() if v)


def nets(entries: list[Entry], rules: Rules, n: int) -> list[Fraction]:
    sheet = Sheet(NAMES[:n])
    sheet.apply(entries)
    return closed_formula(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, rules.mountain_factor(n))


def expected_nets(text: str, n: int) -> list[Fraction]:
    out = [Fraction(0)] * n
    for part in text.split(","):
        who, value = part.split()
        out[seat(who)] = Fraction(value.replace("−", "-"))
    return out
