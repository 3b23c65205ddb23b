"""``preferans replay FILE``: step through a game record in the terminal.

Interactive by default — Enter or ``n`` shows the next action, ``p`` the
previous one, ``d N`` jumps to deal N, ``e`` to the end of the deal, ``q``
quits — or, with ``--all``, the whole record printed at once (every action,
each trick's winner, each deal's result and sheet lines, the final sheet).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..actions import Action
from ..cards import format_hand
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind
from ..i18n import N_
from ..record import GameRecord, RecordError, load_all
from ..record.build import dealt_talon
from ..record.model import DealRecord, seat_names
from ..record.playback import Replay, replay
from ..scoring.sheet import Entry, paper_amount, signed_amount


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help=N_("step through a game record (Enter/n next, p previous, q quit)"))
    p.add_argument("file", help="a record: text (.prf) or its JSON twin (.json)")
    p.add_argument("--all", action="store_true", help="print the whole record at once, without stopping")
    p.add_argument("--deal", type=int, default=1, metavar="N", help="start at deal N (1-based)")
    p.add_argument("--seat", metavar="NAME", help="watch from one player's seat: others' cards stay hidden until shown")
    add_record_options(p)
    p.set_defaults(func=run)


def add_record_options(p: argparse.ArgumentParser) -> None:
    """``--record N`` and ``--lenient``, shared with ``preferans analyze``."""
    p.add_argument("--record", type=int, default=1, metavar="N", help="the N-th record of a file holding several")
    p.add_argument("--lenient", action="store_true",
                   help="read a damaged record: report its problems on stderr and go on")


def open_record(args: argparse.Namespace) -> tuple[GameRecord, list[RecordError] | None]:
    """The record chosen by ``--record`` (problems printed when ``--lenient``)."""
    records = load_all(args.file, lenient=args.lenient, check=False)
    if not 1 <= args.record <= len(records):
        raise RecordError(f"--record: the file holds {len(records)} record(s), not {args.record}", source=args.file)
    if len(records) > 1:
        print(f"{args.file}: record {args.record} of {len(records)}", file=sys.stderr)
    record = records[args.record - 1]
    errors: list[RecordError] | None = None
    if args.lenient:
        errors = record.errors
    return record, errors


def warn(errors: list[RecordError] | None) -> None:
    for e in errors or ():
        print(f"warning: {e}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    record, errors = open_record(args)
    rep = replay(record, source=args.file, errors=errors)
    warn(errors)
    if not record.deals:
        print(_header(record))
        print("(no deals)")
        return 0
    if not 1 <= args.deal <= len(record.deals):
        print(f"preferans replay: error: --deal must be 1..{len(record.deals)}", file=sys.stderr)
        return 2
    view = None if args.seat is None else record.seat(args.seat)
    if args.all:
        print(_header(record))
        for i in range(args.deal - 1, len(record.deals)):
            print()
            print(dump_deal(record, rep, i, view=view))
        if rep.pulka is not None:
            print()
            print(_totals(rep))
        return 0
    return Stepper(record, rep, args.deal - 1, input_fn=input, out=print, view=view).loop()


def _header(record: GameRecord) -> str:
    h = record.headers
    bits = [h[k] for k in ("event", "site", "date") if k in h]
    title = " · ".join(bits) if bits else "Preferans game"
    return (
        f"{title}\nplayers: {', '.join(record.players)}; rules: {record.rules.name}; "
        f"{len(record.deals)} deal{'s' if len(record.deals) != 1 else ''}"
    )


def _who(record: GameRecord, seat: int) -> str:
    names = seat_names(record.players)  # гусарик: the dummy is seat 2 (rules.md §16)
    return names[seat] if 0 <= seat < len(names) else "talon"


def _hand(d: DealRecord, seat: int, mask: int) -> str:
    """Cards a seat holds, unknown ones (``??`` in the record) as ``??``."""
    talon = 0
    for c in d.talon:
        if c is not None:
            talon |= 1 << c
    known = mask & (d.hands[seat] | talon)  # cards filled in for ?? stay hidden
    hidden = (mask & ~known).bit_count()
    text = format_hand(known, grouped=True) if known else ""
    return " ".join(filter(None, [text, " ".join(["??"] * hidden)])) or "-"


def _result_text(record: GameRecord, deal: Deal) -> str:
    r = deal.result
    names = seat_names(record.players)
    if r.kind is DealKind.ALL_PASS:
        text = "all-pass"
    elif r.kind is DealKind.VOID:
        text = f"void: {names[r.offender]} dealt out of turn" if r.offender is not None else "void"
    elif r.kind is DealKind.PENALTY:
        text = f"talon exposed by {names[r.offender]}: assessed (Kodeks 3.3.16.3)" if r.offender is not None \
            else "talon exposed: assessed (Kodeks 3.3.16.3)"
    elif r.declarer is None:
        text = str(r.kind)
    else:
        text = f"{names[r.declarer]} {r.contract}"
        if r.kind is DealKind.NOT_PLAYED:
            text += ", not played"
    if r.tricks:
        text += "; tricks " + ", ".join(f"{names[s]} {t}" for s, t in sorted(r.tricks.items()))
    return text


def _hidden(mask: int) -> str:
    return " ".join(["??"] * mask.bit_count()) or "-"


def dump_deal(record: GameRecord, rep: Replay, index: int, *, view: int | None = None) -> str:
    """One deal as text: cards, every action, tricks, result and sheet lines."""
    d = record.deals[index]
    names = seat_names(record.players)
    low = f", lowest game {d.min_level}" if d.min_level != 6 else ""
    out = [f"Deal {index + 1} — dealer {names[d.dealer]}{low}"]
    deal = rep.deal(index + 1)
    if deal is None:
        out.append("  (does not replay)")
        return "\n".join(out)
    for s in d.active:
        shown = _hand(d, s, deal.initial_hands[s]) if view in (None, s) else _hidden(deal.initial_hands[s])
        out.append(f"  {names[s]:<8} {shown}")
    out.append("  talon    " + " ".join("??" if c is None else str(c) for c in d.talon))
    replayed = Deal(deal.rules, deal.initial_hands, dealt_talon(deal), dealer=deal.dealer, players=deal.players,
                    min_level=deal.min_level)
    for i, (seat, a) in enumerate(deal.moves):
        stage = d.stages[i] if i < len(d.stages) else ""
        done = len(replayed.completed_tricks)
        text = "??" if d.actions[i] is None else str(a)
        if stage == "play" and a < 32:
            owner = replayed.to_play if replayed.to_play is not None else seat
            who = names[owner] + ("" if owner == seat else f" (played by {names[seat]})")
            out.append(f"  trick {done + 1:2}  {who:<8} {text}")
        else:
            out.append(f"  {stage:<9} {names[seat]:<8} {text}")
        replayed.replay_move(seat, a)
        if len(replayed.completed_tricks) > done:
            _, winner = replayed.completed_tricks[-1]
            out.append(f"           → {_who(record, winner) if winner >= 0 else 'nobody'} takes trick {done + 1}")
    if deal.is_over:
        out.append("  result: " + _result_text(record, deal))
        if d.entries:
            out.append("  sheet: " + "; ".join(_entry(record, e) for e in d.entries))
    else:
        out.append("  (the deal is not finished)")
    return "\n".join(out)


def _entry(record: GameRecord, e: Entry) -> str:
    names = seat_names(record.players)
    target = f" on {names[e.on]}" if e.column == "whists" else ""
    return f"{names[e.player]} {e.column}{target} {paper_amount(e.amount)}" + (f" ({e.why})" if e.why else "")


def _totals(rep: Replay) -> str:
    assert rep.pulka is not None
    sheet = rep.pulka.sheet
    names = sheet.names
    lines = ["Sheet after the record:"]
    w = max(len(n) for n in names)
    for i, n in enumerate(names):
        whists = ", ".join(f"{names[j]} {paper_amount(sheet.whists[i][j])}" for j in range(len(names)) if j != i)
        lines.append(f"  {n:<{w}}  pool {paper_amount(sheet.pool[i]):>4}  mountain {paper_amount(sheet.mountain[i]):>4}"
                     f"  whists on {whists}")
    net = rep.pulka.settlement().net
    whole = rep.pulka.settlement().whole
    lines.append("  settlement: " + ", ".join(f"{names[i]} {signed_amount(whole[i])} ({paper_amount(net[i])})"
                                              for i in range(len(names))))  # fmt: skip
    return "\n".join(lines)


class Stepper:
    """The interactive stepper: one position per action, moved with n / p / d N / e / q."""

    def __init__(
        self, record: GameRecord, rep: Replay, deal_index: int, *,
        input_fn: Callable[[str], str], out: Callable[[str], None], view: int | None = None,
    ) -> None:  # fmt: skip
        self.view = view  # the seat watched from (others' cards hidden until they lie open)
        self.record = record
        self.rep = rep
        self.input = input_fn
        self.out = out
        self.index = deal_index
        self.step = 0  # actions applied in the current deal
        self.owners: list[int] = []  # whose card (or call) each action was
        self.deal = self._fresh(deal_index)

    def _fresh(self, index: int) -> Deal | None:
        src = self.rep.deal(index + 1)
        if src is None:
            return None
        return Deal(src.rules, src.initial_hands, dealt_talon(src), dealer=src.dealer, players=src.players,
                    min_level=src.min_level)

    def _moves(self) -> tuple[tuple[int, Action], ...]:
        src = self.rep.deal(self.index + 1)
        return src.moves if src is not None else ()

    def show(self) -> None:
        record, deal = self.record, self.deal
        names = seat_names(record.players)
        d = record.deals[self.index]
        moves = self._moves()
        self.out(f"— deal {self.index + 1}/{len(record.deals)}, dealer {names[d.dealer]}, "
                 f"action {self.step}/{len(moves)} —")
        if deal is None:
            self.out("  (this deal does not replay)")
            return
        if self.step:
            seat, a = deal.moves[-1]
            shown = "??" if d.actions[self.step - 1] is None else str(a)
            owner = self.owners[self.step - 1]
            by = "" if owner == seat else f" (played by {names[seat]})"
            self.out(f"  last: {names[owner]} {shown}{by}")
        for s in deal.active:
            marks = []
            if s == deal.declarer:
                marks.append(f"declarer {deal.contract}" if deal.contract else "declarer")
            if s in deal.whisters:
                marks.append("whist")
            if deal.phase is Phase.PLAY or deal.is_over:
                marks.append(f"{deal.tricks_won[s]} tricks")
            turn = "▶ " if s == deal.to_act else "  "
            extra = f"  ({', '.join(marks)})" if marks else ""
            visible = self.view in (None, s) or s in deal.exposed or deal.is_over
            cards = _hand(d, s, deal.hands[s]) if visible else _hidden(deal.hands[s])
            self.out(f"  {turn}{names[s]:<8} {cards}{extra}")
        if deal.talon_shown or deal.is_over:
            self.out("    talon    " + " ".join(str(c) for c in deal.talon))
        if deal.discard and self.view in (None, deal.declarer):
            shown_discard = " ".join("??" if a is None else str(a) for a, st in zip(d.actions, d.stages, strict=False)
                                     if st == "discard")
            self.out(f"    discard  {shown_discard or format_hand(deal.discard)}")
        if deal.trick:
            self.out("    on table " + "  ".join(f"{_who(record, s)} {c}" for s, c in deal.trick))
        if deal.is_over:
            self.out("  result: " + _result_text(record, deal))
            if d.entries:
                self.out("  sheet: " + "; ".join(_entry(record, e) for e in d.entries))
        else:
            self.out(f"  phase: {deal.phase.value}")

    def forward(self) -> bool:
        moves = self._moves()
        if self.deal is not None and self.step < len(moves):
            seat, a = moves[self.step]
            owner = self.deal.to_play if self.deal.phase is Phase.PLAY and a < 32 else seat
            self.owners[self.step :] = [owner if owner is not None else seat]
            self.deal.replay_move(seat, a)
            self.step += 1
            return True
        if self.index + 1 < len(self.record.deals):
            self.goto(self.index + 1)
            return True
        return False

    def back(self) -> bool:
        if self.deal is not None and self.step > 0:
            self.deal.undo()
            self.step -= 1
            return True
        if self.index > 0:
            self.goto(self.index - 1)
            while self.deal is not None and self.step < len(self._moves()):
                self.forward()
            return True
        return False

    def goto(self, index: int) -> None:
        self.index = index
        self.step = 0
        self.owners = []
        self.deal = self._fresh(index)

    def loop(self) -> int:
        self.out(_header(self.record))
        self.out("Enter/n next · p previous · e end of deal · d N deal N · q quit")
        self.show()
        while True:
            try:
                cmd = self.input("> ").strip().lower()
            except EOFError:
                return 0
            if cmd in ("q", "quit", "exit"):
                return 0
            if cmd in ("", "n", "next"):
                if not self.forward():
                    self.out("(end of the record)")
                    continue
            elif cmd in ("p", "prev", "previous"):
                if not self.back():
                    self.out("(start of the record)")
                    continue
            elif cmd in ("e", "end"):
                while self.step < len(self._moves()) and self.forward():
                    pass
            elif cmd.startswith("d"):
                arg = cmd[1:].strip()
                if not arg.isdigit() or not 1 <= int(arg) <= len(self.record.deals):
                    self.out(f"(deal numbers are 1..{len(self.record.deals)})")
                    continue
                self.goto(int(arg) - 1)
            else:
                self.out("Enter/n next · p previous · e end of deal · d N deal N · q quit")
                continue
            self.show()

