"""Post-game analysis (разбор): what every card was worth with all hands open.

For each deal whose cards are all known, every card played is checked with
the double-dummy solver (:mod:`preferans.solver`): the value before the card
(what best play from there gives) and after it.  A card that lowers its
player's value *cost tricks*; the loss is also priced in whists under the
record's own conventions (the deal scored as it would have ended with best
play, minus as it would have ended after the card, each player's balance
settled as the table settles — rules.md §9, §11).  The declarer's contract table
(what he could have made with the talon, Kodeks 3.3.16.3) and a per-player
summary complete the report.

Values count *tricks of the focus player* over the whole deal: the declarer
in a game or misère, and on all-pass the player to move (each plays for
himself, rules.md §8).  In a game the declarer wants more, his defenders fewer;
in misère and all-pass the focus player wants fewer.

>>> from preferans import Deal, Rules
>>> deal = Deal.from_cards(Rules.preset("sochi"), hands=[
...     "♠A K Q J 10 9 ♣A K ♦A 7", "♣Q J 10 9 ♦K Q J 10 ♥A K", "♣8 7 ♦9 8 ♥Q J 10 9 ♠8 7"],
...     talon="♥8 7", dealer=2)
>>> for a in ("8♠", "pass", "pass", "7♥", "8♥", "8♠", "whist", "whist"):
...     deal.apply(a)
>>> while not deal.is_over:
...     deal.apply(deal.legal_actions()[0])   # the lowest legal card each time
>>> a = analyze_deal(deal, contract_table=False)
>>> c = a.cards[0]
>>> str(c.card), c.before, c.after, c.loss    # the declarer leads 9♠: nine tricks with best play
('9♠', 9, 9, 0)
>>> [(c.trick, str(c.card), c.before, c.after, c.loss) for c in a.errors]   # the diamond guard thrown
[(7, 'Q♦', 9, 10, 1)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..actions import Contract
from ..cards import Card
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind, DealResult
from ..errors import PreferansError
from ..record.build import dealt_talon
from ..record.model import seat_names
from ..rules import Rules
from ..scoring import amount_text, deal_net
from ..scoring.sheet import Amount
from ..solver import ContractTable, Position, best_moves, contract_table

__all__ = ["Analysis", "CardAnalysis", "DealAnalysis", "PlayerSummary", "analyze", "analyze_deal"]

STRAINS = ("♠", "♣", "♦", "♥", "NT")


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card played.

    ``seat`` played it; ``player`` chose it (in open play the whister plays his
    partner's cards).  ``focus`` is the seat whose tricks ``before`` / ``after``
    count (the declarer; on all-pass the player to move), over the whole deal.
    ``best`` are the cards that keep the value; ``loss`` is what the card cost
    the player's side in tricks and ``whists`` in whists (0 when nothing).
    """

    trick: int
    seat: int
    player: int
    card: Card
    focus: int
    before: int
    after: int
    best: tuple[Card, ...]
    loss: int
    whists: Amount = 0

    @property
    def is_error(self) -> bool:
        return self.loss > 0


@dataclass(frozen=True)
class DealAnalysis:
    """The analysis of one deal (``skipped`` says why a deal was not analysed)."""

    number: int
    dealer: int
    kind: str
    declarer: int | None = None
    contract: Contract | None = None
    tricks: dict[int, int] = field(default_factory=dict)
    cards: tuple[CardAnalysis, ...] = ()
    table: ContractTable | None = None
    table_seat: int | None = None
    skipped: str = ""

    @property
    def errors(self) -> tuple[CardAnalysis, ...]:
        return tuple(c for c in self.cards if c.loss)


@dataclass
class PlayerSummary:
    """Per player over the analysed deals: cards chosen, errors, tricks and whists lost."""

    name: str
    cards: int = 0
    errors: int = 0
    tricks_lost: int = 0
    whists_lost: Amount = 0


@dataclass
class Analysis:
    """The analysis of a record: each deal, and a summary per player."""

    players: tuple[str, ...]
    deals: list[DealAnalysis]
    rules: Rules

    @property
    def summary(self) -> list[PlayerSummary]:
        out = [PlayerSummary(n) for n in self.players]
        for d in self.deals:
            for c in d.cards:
                s = out[c.player]
                s.cards += 1
                if c.loss:
                    s.errors += 1
                    s.tricks_lost += c.loss
                    s.whists_lost += c.whists
        return out

    # -- output ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        names = seat_names(self.players)  # гусарик: a card of the dummy's is the dummy's seat (rules.md §16)
        return {
            "rules": self.rules.name,
            "players": list(self.players),
            "deals": [_deal_dict(d, names) for d in self.deals],
            "summary": [
                {
                    "player": s.name,
                    "cards": s.cards,
                    "errors": s.errors,
                    "tricks_lost": s.tricks_lost,
                    "whists_lost": _json_amount(s.whists_lost),
                }
                for s in self.summary
            ],
        }

    def text(self, *, all_cards: bool = True) -> str:
        """A plain-text report: every card (or only the costly ones) and the summary."""
        names = seat_names(self.players)
        lines: list[str] = []
        for d in self.deals:
            lines.extend(_deal_text(d, names, all_cards))
            lines.append("")
        lines.append("Summary (cards chosen, errors, tricks lost, whists lost):")
        width = max(len(n) for n in names)
        def n(count: int, word: str) -> str:  # "1 error", "2 errors", padded so the columns stay
            return f"{word} " if count == 1 else f"{word}s"

        for s in self.summary:
            lines.append(
                f"  {s.name:<{width}}  {s.cards:3} {n(s.cards, 'card')}  {s.errors:2} {n(s.errors, 'error')}  "
                f"{s.tricks_lost:2} {n(s.tricks_lost, 'trick')}  {amount_text(s.whists_lost):>6} whists"
            )
        return "\n".join(lines)


def _json_amount(x: Amount) -> int | str:
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else str(x)
    return x


def _deal_dict(d: DealAnalysis, names: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": d.number,
        "dealer": names[d.dealer],
        "kind": d.kind,
        "declarer": None if d.declarer is None else names[d.declarer],
        "contract": None if d.contract is None else str(d.contract),
        "tricks": {names[s]: t for s, t in sorted(d.tricks.items())},
        "skipped": d.skipped or None,
        "cards": [
            {
                "trick": c.trick,
                "seat": names[c.seat],
                "player": names[c.player],
                "card": str(c.card),
                "focus": names[c.focus],
                "before": c.before,
                "after": c.after,
                "best": [str(b) for b in c.best],
                "loss_tricks": c.loss,
                "loss_whists": _json_amount(c.whists),
            }
            for c in d.cards
        ],
        "contract_table": None,
    }
    t = d.table
    if t is not None and d.table_seat is not None:
        out["contract_table"] = {
            "player": names[d.table_seat],
            "tricks": {STRAINS[s]: t.tricks[s] for s in range(5)},
            "discards": {STRAINS[s]: [str(c) for c in t.discards[s]] for s in range(5)},
            "misere": t.misere,
            "misere_discard": [str(c) for c in t.misere_discard],
        }
    return out


def _deal_text(d: DealAnalysis, names: tuple[str, ...], all_cards: bool) -> list[str]:
    head = f"Deal {d.number} (dealer {names[d.dealer]}): "
    if d.kind == "all_pass":
        head += "all-pass"
    elif d.declarer is not None and d.contract is not None:
        head += f"{names[d.declarer]} {d.contract}" + (" (not played)" if d.kind == "not_played" else "")
    else:
        head += d.kind
    if d.tricks:
        head += "; tricks " + ", ".join(f"{names[s]} {t}" for s, t in sorted(d.tricks.items()))
    out = [head]
    if d.skipped:
        out.append(f"  not analysed: {d.skipped}")
    t = d.table
    if t is not None and d.table_seat is not None:
        row = ", ".join(f"{STRAINS[s]} {t.tricks[s]}" for s in range(5))
        out.append(f"  contract table of {names[d.table_seat]} (tricks with the best discard): {row}; "
                   f"misère {t.misere}")
    width = max(len(n) for n in names)
    for c in d.cards:
        if not all_cards and not c.loss:
            continue
        who = names[c.seat] + ("" if c.player == c.seat else f" (by {names[c.player]})")
        line = f"  trick {c.trick:2}  {who:<{width}}  {c.card!s:>3}   {names[c.focus]} {c.before} → {c.after}"
        if c.loss:
            best = " ".join(str(b) for b in c.best)
            line += f"   ? −{c.loss} trick{'s' if c.loss > 1 else ''}"
            line += f", −{amount_text(c.whists)} whists" if c.whists else ""
            line += f" (best {best})"
        out.append(line)
    return out


# ---------------------------------------------------------------------------- analysing
def analyze_deal(
    deal: Deal,
    *,
    number: int = 1,
    contract_table: bool = True,
    raspas_step: int = 1,
    bomb: int = 1,
) -> DealAnalysis:
    """Analyse one deal (played through, all cards known): every card, and the contract table.

    ``raspas_step`` and ``bomb`` price an all-pass or a bombed game as the
    pulka did (see :func:`preferans.scoring.score_deal`).
    """
    replay = Deal(
        deal.rules, deal.initial_hands, dealt_talon(deal), dealer=deal.dealer, players=deal.players,
        min_level=deal.min_level,
    )  # fmt: skip
    result = deal.result if deal.is_over else None
    kind = deal.kind.value if deal.kind is not None else "unfinished"
    cards: list[CardAnalysis] = []
    for seat, a in deal.moves:
        if replay.phase is Phase.PLAY and a < 32:
            cards.append(_card(replay, Card(a), result, raspas_step, bomb))
        replay.replay_move(seat, a)
    table = None
    table_seat = deal.declarer
    if contract_table and table_seat is not None:
        table = _table(deal, table_seat)
    tricks = dict(result.tricks) if result is not None else {}
    return DealAnalysis(
        number=number,
        dealer=deal.dealer,
        kind=kind,
        declarer=deal.declarer,
        contract=deal.contract,
        tricks=tricks,
        cards=tuple(cards),
        table=table,
        table_seat=table_seat if table is not None else None,
    )


def _table(deal: Deal, seat: int) -> ContractTable | None:
    try:
        return contract_table(deal, seat)
    except PreferansError:
        return None


def _card(deal: Deal, card: Card, result: DealResult | None, raspas_step: int, bomb: int) -> CardAnalysis:
    seat = deal.to_play
    player = deal.to_act
    assert seat is not None and player is not None
    all_pass = deal.kind == DealKind.ALL_PASS
    focus = seat if all_pass else deal.declarer
    assert focus is not None
    values = best_moves(Position.from_deal(deal, player=seat if all_pass else None))
    # In a game the declarer maximises; in misère and all-pass the focus player minimises.
    wants_max = (deal.kind == DealKind.GAME) == (seat == focus)
    best_value = max(values.values()) if wants_max else min(values.values())
    value = values[card]
    loss = best_value - value if wants_max else value - best_value
    won = deal.tricks_won[focus]
    before, after = won + best_value, won + value
    best = tuple(c for c, v in values.items() if v == best_value)
    whists: Amount = 0
    if loss and result is not None:
        whists = _whist_loss(result, deal.rules, focus, before, after, player, raspas_step, bomb)
    return CardAnalysis(
        trick=deal.trick_number + 1, seat=seat, player=player, card=card, focus=focus,
        before=before, after=after, best=best, loss=loss, whists=whists,
    )  # fmt: skip


def _with_tricks(result: DealResult, focus: int, total: int, decider: int) -> DealResult:
    """The result as if ``focus`` had taken ``total`` tricks; the others give or take the
    difference, the player who decided first (the rest in seat order)."""
    tricks = dict(result.tricks)
    delta = total - tricks.get(focus, 0)
    tricks[focus] = total
    others = [s for s in result.active if s != focus]
    others.sort(key=lambda s: (s != decider, s))
    for s in others:
        if delta == 0:
            break
        take = min(delta, tricks.get(s, 0)) if delta > 0 else max(delta, tricks.get(s, 0) - 10)
        tricks[s] = tricks.get(s, 0) - take
        delta -= take
    return dataclasses.replace(result, tricks=tricks)


def _whist_loss(
    result: DealResult, rules: Rules, focus: int, before: int, after: int, decider: int,
    raspas_step: int, bomb: int,
) -> Amount:  # fmt: skip
    """What the card cost ``decider`` in whists: his settled balance with best play minus after the card."""
    try:
        good, bad = (
            deal_net(_with_tricks(result, focus, t, decider), rules, raspas_step=raspas_step, bomb=bomb, check=False)
            for t in (before, after)
        )
    except PreferansError:
        return 0
    diff = good[decider] - bad[decider]
    if isinstance(diff, Fraction) and diff.denominator == 1:
        return diff.numerator
    return diff


def analyze(
    record: Any,
    *,
    contract_table: bool = True,
    progress: Callable[[int, int], None] | None = None,
    deals: Sequence[int] | None = None,
    errors: list[Any] | None = None,
    source: str = "<string>",
) -> Analysis:
    """Analyse every deal of a :class:`~preferans.record.GameRecord` whose cards are all known.

    ``deals`` picks deal numbers (1-based); ``progress(done, total)`` is called
    after each deal.  With ``errors`` (a list) a record that does not replay
    everywhere is analysed where it does, its problems appended to the list.
    """
    from ..record import replay

    rep = replay(record, source=source, errors=errors)
    pulka = rep.pulka
    chosen = set(deals) if deals is not None else None
    out: list[DealAnalysis] = []
    total = len(record.deals)
    for i, drec in enumerate(record.deals, 1):
        if chosen is not None and i not in chosen:
            continue
        deal = rep.deal(i)
        if deal is None:
            out.append(DealAnalysis(i, drec.dealer, "broken", skipped="the deal does not replay"))
            if progress is not None:
                progress(i, total)
            continue
        step, bomb = 1, 1
        if pulka is not None and i <= len(pulka.sheet.history):
            step = max(1, pulka.sheet.history[i - 1].raspas_step)
        if not drec.complete:
            kind = deal.kind.value if deal.kind is not None else "unfinished"
            out.append(DealAnalysis(i, deal.dealer, kind, deal.declarer, deal.contract,
                                    skipped="some cards are unknown (??)"))
        else:
            out.append(analyze_deal(deal, number=i, contract_table=contract_table, raspas_step=step, bomb=bomb))
        if progress is not None:
            progress(i, total)
    return Analysis(tuple(record.players), out, record.rules)
