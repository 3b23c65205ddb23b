"""A deal's result explaining itself: how it ended, and what each sheet line comes from.

One line a newcomer understands for each thing the deal wrote (``Anna: pool 2 — made 6♠``,
``Boris → Anna: whists 4 — whist: 2 tricks taken``), and, when the deal ended in an
unusual way — without play, by a concession, a claim, a check of the ten, a misdeal, an
exposed talon, an all-pass — one line saying why first, with the rule.  Every line is a
:class:`~preferans.i18n.Msg` (English as a ``str``; ``text(line, "ru")`` in Russian), so the
terminal, the web page and the deal log all say the same.  Names stay in the nominative
case (they are written after a colon or an arrow), so any name reads right in Russian.

>>> from preferans.actions import Contract
>>> from preferans.engine.result import DealKind, DealResult, DefenceCall as D
>>> from preferans.i18n import text
>>> from preferans.rules import Rules
>>> from preferans.scoring import DealScore, score_deal
>>> r = DealResult(DealKind.GAME, 3, dealer=2, declarer=0, contract=Contract(6, 0),
...                defence={1: D.WHIST, 2: D.WHIST}, tricks={0: 6, 1: 2, 2: 2})
>>> score = DealScore(1, tuple(score_deal(r, Rules())), dealer=2)
>>> for line in deal_story(r, score, Rules(), ("Аня", "Боря", "Вера")):
...     print(text(line, "ru"))
Аня: в пулю 2 — сыграна 6♠
Боря → Аня: висты 4 — вист: взяты 2 взятки
Вера → Аня: висты 4 — вист: взяты 2 взятки
>>> r = DealResult(DealKind.NOT_PLAYED, 3, dealer=2, declarer=0, contract=Contract(7, 3),
...                defence={1: D.PASS, 2: D.PASS})
>>> score = DealScore(1, tuple(score_deal(r, Rules())), dealer=2)
>>> [str(line) for line in deal_story(r, score, Rules(), ("Ann", "Bob", "Vera"))]  # doctest: +NORMALIZE_WHITESPACE
['Both defenders passed: 7♥ is written as made, without play (seed 002 p.25)',
 'Ann: pool 4 — 7♥ without play']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Contract
from ..engine.result import DealKind, DealResult, DefenceCall
from ..i18n import Call, Msg
from ..rules import Rules
from .contract_deal import QUOTA
from .sheet import DealScore, Entry, paper_amount

__all__ = ["deal_story", "ending_reason", "entry_reason"]


def deal_story(result: DealResult, score: DealScore | None, rules: Rules, names: Sequence[str]) -> list[Msg]:
    """Why the deal ended as it did (when that needs saying), then one line per sheet line."""
    lines: list[Msg] = []
    why = ending_reason(result, rules, score.raspas_step if score is not None else 0)
    if why is not None:
        lines.append(why)
    entries = score.entries if score is not None else ()
    for e in entries:
        lines.append(entry_reason(e, result, rules, names, entries))
    return lines


def _contract(result: DealResult) -> Call | Msg:
    c = result.contract
    assert c is not None
    call = Call(str(Action.bid(Contract(c.level, c.strain)))) if c.level else Call("misere")
    return Msg("{contract} totus", contract=call) if c.totus else call


def _undertricks(result: DealResult) -> int:
    c = result.contract
    if c is None or not c.level:
        return 0
    if result.conceded == 3:
        return 3
    if result.conceded == 10:
        return c.level - result.tricks.get(result.declarer or 0, 0) if result.tricks else c.level
    return max(0, c.level - result.tricks.get(result.declarer or 0, 0)) if result.tricks else 0


def ending_reason(result: DealResult, rules: Rules, raspas_step: int = 0) -> Msg | None:
    """Why the deal ended without play, or how its play ended when that is not the obvious way
    (a concession, a claim, a checked ten); the all-pass and its price.  ``None``: nothing to say."""
    kind = result.kind
    if kind is DealKind.VOID:
        return Msg("Misdeal: the same dealer deals again and nothing is written (seed 002 p.12)")
    if kind is DealKind.PENALTY:
        return Msg("The talon was exposed during the auction: the deal stops and the offender pays each player "
                   "what he could have won (Kodeks 3.3.16.3)")  # fmt: skip
    if kind is DealKind.SHEET:
        return Msg("Written on the sheet by hand")
    if kind is DealKind.ALL_PASS:
        if rules.raspas_scoring == "whists":
            return Msg("Everybody passed: an all-pass, written as whists by the player with the fewest tricks "
                       "(Kodeks 3.7.2.2)")  # fmt: skip
        price = rules.raspas_price_at(max(1, raspas_step)) * result.multiplier
        if raspas_step > 1:
            return Msg("All-pass {n} in a row: each trick costs {price} in the mountain (Kodeks 3.7.4)",
                       "All-pass {n} in a row: each trick costs {price} in the mountain (Kodeks 3.7.4)",
                       n=raspas_step, price=price)  # fmt: skip
        return Msg("Everybody passed: an all-pass, each trick costs {price} in the mountain (Kodeks 3.3.12, 3.7.2)",
                   price=price)  # fmt: skip
    if result.contract is None:
        return None
    contract = _contract(result)
    if result.conceded == 3:
        return Msg("The declarer conceded three down without play («без трёх», Kodeks 3.5.4)")
    if result.conceded == 10:
        return Msg("The declarer conceded that he takes no trick («без всех», Kodeks 3.5.4)")
    if kind is DealKind.NOT_PLAYED:
        calls = [result.defence.get(d, DefenceCall.PASS) for d in result.defenders]
        if DefenceCall.HALF in calls:
            return Msg("Half-whist after a pass: {contract} is not played; the half-whister writes half the quota "
                       "(rules.md §5.4)", contract=contract)  # fmt: skip
        if DefenceCall.WHIST in calls:
            return Msg("The lone whister stayed «за своими» with the declarer's consent: no play, he writes his "
                       "quota (seed 002 p.27)")  # fmt: skip
        return Msg("Both defenders passed: {contract} is written as made, without play (seed 002 p.25)",
                   contract=contract)  # fmt: skip
    if result.ten_checked:
        return Msg("The ten was checked: all cards laid open and the tricks counted (seed 002 p.26)")
    if result.claim is not None:
        _, tricks = result.claim
        return Msg("Play ended by a claim of {n} of the remaining tricks, accepted",
                   "Play ended by a claim of {n} of the remaining tricks, accepted", n=tricks)  # fmt: skip
    if result.dealer_whist:
        return Msg("The dealer whisted and played both defending hands (rules.md §5.6)")
    if result.misere_half:
        return Msg("Misère played half and half with the dealer (Kodeks 3.6.9)")
    return None


def _head(e: Entry, names: Sequence[str]) -> Msg:
    amount = paper_amount(e.amount)  # 2½ as paper writes it, never 5/2
    if e.column == "pool":
        return Msg("{name}: pool {amount}", name=names[e.player], amount=amount)
    if e.column == "mountain":
        return Msg("{name}: mountain {amount}", name=names[e.player], amount=amount)
    return Msg("{name} → {other}: whists {amount}", name=names[e.player], other=names[e.on], amount=amount)


def entry_reason(
    e: Entry, result: DealResult, rules: Rules, names: Sequence[str], entries: Sequence[Entry] = ()
) -> Msg:
    """One sheet line and where it comes from: ``Boris → Anna: whists 4 — whist: 2 tricks taken``;
    ``entries`` are the deal's other lines (who helped whom is told by the pair of them)."""
    return Msg("{entry} — {why}", entry=_head(e, names), why=_why(e, result, rules, names, entries))


def _why(e: Entry, result: DealResult, rules: Rules, names: Sequence[str], entries: Sequence[Entry]) -> Msg:
    why = e.why
    tricks = result.tricks
    if why == "sheet":
        return Msg("written by hand")
    if why == "help":
        if e.column == "pool":
            helper = next((x.player for x in entries if x.why == "help" and x.column == "whists" and x.on == e.player),
                          None)  # fmt: skip
            if helper is None:
                return Msg("help from a player who closed his pool")
            return Msg("help from {name}, who closed his pool", name=names[helper])
        return Msg("for helping {name} close the pool", name=names[e.on])
    if why == "write-off":
        return Msg("pool past the target, written off the mountain")
    if why == "bonus":
        return Msg("all-pass without a trick")
    if why == "all-pass":
        if e.column == "whists":
            return Msg("all-pass on whists, the fewest tricks pay: {name} took {n}",
                       "all-pass on whists, the fewest tricks pay: {name} took {n}", n=tricks.get(e.on, 0),
                       name=names[e.on])  # fmt: skip
        n = result.dealer_tricks if result.players == 4 and e.player == result.dealer else tricks.get(e.player, 0)
        return Msg("all-pass: {n} trick taken", "all-pass: {n} tricks taken", n=n)
    if why == "misere":
        half = result.misere_half
        n = tricks.get(result.declarer or 0, 0)
        if n == 0:
            return Msg("clean misère, half and half") if half else Msg("clean misère")
        if half:
            return Msg("misère caught: {n} trick, half and half", "misère caught: {n} tricks, half and half", n=n)
        return Msg("misère caught: {n} trick", "misère caught: {n} tricks", n=n)
    if why == "penalty" and e.column == "whists":
        return Msg("for the talon exposed in the auction (Kodeks 3.3.16.3)")
    if result.contract is None:
        return Msg(why) if why else Msg("written")
    contract = _contract(result)
    level = result.contract.level
    quota = QUOTA[level] if level else 0
    u = _undertricks(result)
    if why == "game":
        if result.kind is DealKind.NOT_PLAYED:
            return Msg("{contract} without play", contract=contract)
        if result.ten_checked:
            return Msg("{contract} checked and made", contract=contract)
        return Msg("made {contract}", contract=contract)
    if why == "totus":
        return Msg("the bonus for a made totus")
    if why == "remiz":
        if result.conceded == 3:
            return Msg("remiz for three tricks («без трёх»)")
        return Msg("remiz: {contract} down {n}", "remiz: {contract} down {n}", n=u, contract=contract)
    if why == "consolation":
        return Msg("consolation: {contract} down {n}", "consolation: {contract} down {n}", n=u, contract=contract)
    if why == "penalty":  # a whister's mountain for tricks short of the quota (rules.md §5.3)
        side = sum(tricks.get(d, 0) for d in result.defenders)
        return Msg("short on whist: the quota is {quota}, the defence took {n}",
                   "short on whist: the quota is {quota}, the defence took {n}", n=side, quota=quota)  # fmt: skip
    if why == "half-whist":
        if result.kind is DealKind.NOT_PLAYED:
            return Msg("half-whist: half of the quota of {quota}", quota=quota)
        side = sum(tricks.get(d, 0) for d in result.defenders)
        base = Msg("half-whist played: the defence took {n}", "half-whist played: the defence took {n}", n=side)
        return _with_consolation(base, u, contract)
    if why == "za-svoimi":
        return Msg("«за своими»: as for {n} trick", "«за своими»: as for {n} tricks", n=quota // 2)
    if why == "sold-aces":
        return Msg("aces «sold» in the talon")
    if why == "talon-shown":
        return Msg("the dealer showed the talon")
    if why == "whist":
        whisters = result.whisters
        if len(whisters) == 1 and u and rules.lone_fail_style == "gentleman" and result.players > 2 \
                and not result.dealer_whist and not result.ten_checked:
            return Msg("half of the defence's whists and consolation (gentleman's whist)")
        return _with_consolation(_whist_base(e, result), u, contract)
    return Msg(why) if why else Msg("written")


def _whist_base(e: Entry, result: DealResult) -> Msg:
    tricks = result.tricks
    side = sum(tricks.get(d, 0) for d in result.defenders)
    if result.dealer_whist:
        return Msg("the dealer's whist: the defence took {n}", "the dealer's whist: the defence took {n}", n=side)
    whisters = result.whisters if not result.ten_checked else result.defenders
    if len(whisters) == 1:
        return Msg("whist alone: the defence took {n}", "whist alone: the defence took {n}", n=side)
    n = tricks.get(e.player, 0)
    return Msg("whist: {n} trick taken", "whist: {n} tricks taken", n=n)


def _with_consolation(base: Msg, u: int, contract: Call | Msg) -> Msg:
    if not u:
        return base
    return Msg("{base}, and the consolation for {contract} down {n}",
               "{base}, and the consolation for {contract} down {n}", n=u, base=base, contract=contract)  # fmt: skip

