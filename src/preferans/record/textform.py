"""The text form of a record: writing and a line-by-line reader (docs/record-format.md).

The reader is strict by default — the first problem raises
:class:`~preferans.errors.RecordError` with the file, the line and the
reason — or lenient: every problem is collected on ``record.errors`` and the
reader goes on with the next line or the next deal, as python-chess's PGN
reader does.

>>> from preferans.rules import Rules
>>> rec = read_text('''%preferans-record 1
... players: A, B, C
... rules: sochi
... ''')
>>> rec.players, rec.rules.name
(('A', 'B', 'C'), 'sochi')
>>> read_text("players: A, B", source="bad.prf")
Traceback (most recent call last):
...
preferans.errors.RecordError: bad.prf:1: the record must start with '%preferans-record 1', not 'players: A, B'
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import fields
from fractions import Fraction
from typing import Any

from ..actions import (
    ACCEPT_ID,
    BID_BASE,
    CLAIM_BASE,
    CLOSED_ID,
    DARK_PASS_ID,
    HALF_WHIST_ID,
    NUM_ALL_ACTIONS,
    NUM_BIDS,
    OPEN_ID,
    OUT_OF_TURN_BASE,
    PASS_ID,
    PLAY_ID,
    PROVEN_CLAIM_BASE,
    REFUSE_ID,
    REQUIRE_ID,
    TALON_SEEN_ID,
    TOTUS_ID,
    WAIVE_ID,
    WHIST_ID,
    Action,
)
from ..cards import Card, format_hand, to_mask
from ..errors import PreferansError
from ..rules import PRESETS, Rules
from ..scoring.sheet import COLUMNS, Entry, amount_text
from ..seats import active_seats
from .model import HEADER_ORDER, DealRecord, GameRecord, RecordError, seat_names

__all__ = ["MAGIC", "read_text", "read_texts", "write_text"]

MAGIC = "%preferans-record 1"
_DARK_PASS = Action(DARK_PASS_ID)
_RULE_FIELDS = tuple(f.name for f in fields(Rules) if f.name != "name")

# ---------------------------------------------------------------------------- tokens
# An action's token: its text with spaces turned into '-' (``dark-pass``, ``dark-7♠``),
# so a line is a plain list of tokens.  Cards and bids share 7♠ … 10♥: a line's stage
# says which (bids on auction and contract lines, cards on discard and trick lines).
_TOKEN: tuple[str, ...] = tuple(str(Action(i)).replace(" ", "-") for i in range(NUM_ALL_ACTIONS))
_BID_CONTEXT = frozenset(("auction", "contract"))


def _token_table(bid: bool) -> dict[str, Action]:
    table: dict[str, Action] = {}
    for i in range(NUM_ALL_ACTIONS - 1, -1, -1):  # cards last, so that in card context they win
        a = Action(i)
        if bid and a.is_card:
            continue
        if not bid and BID_BASE <= i < BID_BASE + NUM_BIDS:
            continue
        for t in (_TOKEN[i], a.ascii().replace(" ", "-")):
            table[t] = a
            table[t.lower()] = a
    return table


_LOOKUP = {True: _token_table(True), False: _token_table(False)}
_CARD_TOKENS: dict[str, Action] = {t: a for t, a in _LOOKUP[False].items() if a < 32}


def _action(token: str, stage: str) -> Action:
    bid = stage in _BID_CONTEXT
    table = _LOOKUP[bid]
    a = table.get(token)
    if a is not None:
        return a
    text = token.replace("-", " ") if token.lower().startswith(("dark-", "втёмную-")) else token
    try:
        a = Action.parse(text, bid=bid)
    except PreferansError:
        raise RecordError(f"cannot read {token!r} as an action") from None
    table[token] = a
    return a


# What may stand on each kind of line (a first, cheap check; the replay checks the rest).
# pass, here, talon, dark pass, invite, accept, refuse
_AUCTION_CALLS = frozenset((PASS_ID, 62, 63, DARK_PASS_ID, 98, 99, 100))
# … and the misère catchers' «ловлю» (whist) or pass, «доверяю» (accept) or refuse (misere_catchers)
_DEFENCE_CALLS = frozenset((OPEN_ID, CLOSED_ID, 99, 100, 101, PLAY_ID, 103, 104, PASS_ID, WHIST_ID))
_WHIST_CALLS = frozenset((WHIST_ID, PASS_ID, HALF_WHIST_ID))


# In a trick: the lone whister's open/closed choice (after the declarer's first card: in
# trick 1, or before trick 2 when the declarer is third hand), the declarer's choice of a
# lead penalty (Kodeks 3.3.18) and the opponents' answers to a claim.
_TRICK_CALLS = frozenset((OPEN_ID, CLOSED_ID, REQUIRE_ID, REQUIRE_ID + 1, WAIVE_ID, ACCEPT_ID, REFUSE_ID))


def _fits(a: Action, stage: str) -> bool:
    if stage == "play":
        return a < 32 or a in _TRICK_CALLS
    if stage in ("discard", "redraw"):
        return a < 32
    if stage == "contract":
        return BID_BASE <= a < BID_BASE + NUM_BIDS
    if stage == "whist":
        return a in _WHIST_CALLS
    if stage == "auction":
        return ((a.is_bid or a in _AUCTION_CALLS) and a < TALON_SEEN_ID) or a == TOTUS_ID
    return a in _DEFENCE_CALLS


def _hand_text(mask: int, unknown: int) -> str:
    known = format_hand(mask, grouped=True) if mask else ""
    if not unknown:
        return known or "-"
    return (known + " " if known else "") + " ".join(["??"] * unknown)


def _rule_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, frozenset):
        return " ".join(str(x) for x in sorted(v)) or "-"
    if isinstance(v, tuple):
        return " ".join(str(x) for x in v) or "-"
    return str(v)


def _clean(text: str) -> str:
    """One-line text for a header value or a comment."""
    return " ".join(str(text).split())


# ---------------------------------------------------------------------------- writing
def write_text(record: GameRecord) -> str:
    """The record in the text form (see docs/record-format.md)."""
    names = record.players
    out = [MAGIC]
    headers = record.headers
    for key in HEADER_ORDER:
        if key in headers:
            out.append(f"{key}: {_clean(headers[key])}")
    for key, value in headers.items():
        if key not in HEADER_ORDER:
            out.append(f"{key}: {_clean(value)}")
    out.append("players: " + ", ".join(names))
    out.append(f"first_dealer: {names[record.first_dealer]}")
    out.append("scoring: " + ("pulka" if record.scored else "none"))
    rules = record.rules
    out.append(f"rules: {rules.name}")
    for name in _RULE_FIELDS:
        out.append(f"rule {name}: {_rule_value(getattr(rules, name))}")
    for number, deal in enumerate(record.deals, 1):
        out.append("")
        _write_deal(out, deal, number, names, rules)
    if record.stopped:
        out.append("")
        out.append("stopped")
    return "\n".join(out) + "\n"


def _write_deal(out: list[str], d: DealRecord, number: int, names: tuple[str, ...], rules: Rules) -> None:
    out.append(f"deal {number}")
    if d.sheet:  # lines written by hand: no cards
        out.append("sheet: by hand")
        _write_score(out, d, names)
        return
    out.append(f"dealer: {names[d.dealer]}")
    if d.min_level != 6:
        out.append(f"min_level: {d.min_level}")
    for s in d.active:
        out.append(f"hand {seat_names(names)[s]}: {_hand_text(d.hands[s], d.unknown[s])}")
    out.append("talon: " + " ".join("??" if c is None else str(c) for c in d.talon))
    actions, stages = d.actions, d.stages
    n = len(actions)
    i = 0
    cards = 0  # cards played so far
    # All-pass talon leads (Kodeks 3.7.6) are shown in brackets for the reader's eye.
    leads = _talon_leads(d, rules)
    size = _trick_size(d.players, actions, stages)
    while i < n:
        stage = stages[i]
        if stage == "play":
            trick = cards // size
            parts: list[str] = []
            if trick < len(leads) and cards % size == 0:
                parts.append(f"[{leads[trick]}]")
            while i < n and stages[i] == "play":
                a = actions[i]
                parts.append("??" if a is None else _TOKEN[a])
                i += 1
                if a is not None and a < 32:
                    cards += 1
                    if cards % size == 0:
                        break
            out.append(f"trick {trick + 1}: " + " ".join(parts))
            continue
        if stage in ("report", "claim"):
            a = actions[i]
            who = names[d.actor(i) if d.actor(i) is not None else 0]  # type: ignore[index]
            out.append(f"{stage}: {who} {_reported_text(a)}")
            i += 1
            continue
        j = i
        while j < n and stages[j] == stage:
            j += 1
        out.append(stage + ": " + " ".join("??" if a is None else _TOKEN[a] for a in actions[i:j]))
        i = j
    _write_score(out, d, names)


def _write_score(out: list[str], d: DealRecord, names: tuple[str, ...]) -> None:
    if d.entries is not None:
        if not d.entries:
            out.append("score: -")  # the deal wrote nothing (a misdeal, an all-pass under amnesty …)
        for e in d.entries:
            on = f" on {names[e.on]}" if e.column == "whists" else ""
            why = f" {e.why}" if e.why else ""
            out.append(f"score: {names[e.player]} {e.column}{on} {amount_text(e.amount)}{why}")
    if d.help_to is not None:
        out.append(f"help: {names[d.help_to]}")
    if d.comment:
        out.append(f"comment: {_clean(d.comment)}")


def _reported_text(a: Action | None) -> str:
    """``talon-seen``, ``out-of-turn 6♠`` (a report); ``5``, ``5 proven`` (a claim)."""
    assert a is not None
    if a >= PROVEN_CLAIM_BASE:
        return f"{a - PROVEN_CLAIM_BASE} proven"
    if a >= CLAIM_BASE:
        return str(a - CLAIM_BASE)
    return str(a).lstrip("!")


def _read_reported(text: str, stage: str) -> Action:
    if stage == "claim":
        words = text.split()
        if not words or not words[0].isdigit() or int(words[0]) > 10 or words[1:] not in ([], ["proven"]):
            raise RecordError(f"claim: write 'NAME TRICKS' or 'NAME TRICKS proven', not {text!r}")
        return Action((PROVEN_CLAIM_BASE if words[1:] else CLAIM_BASE) + int(words[0]))
    try:
        a = Action.parse("!" + text, bid=True)
    except PreferansError:
        a = None
    if a is None or not TALON_SEEN_ID <= a <= OUT_OF_TURN_BASE + NUM_BIDS:
        raise RecordError(
            f"report: {text!r} is not an irregularity: talon-seen, talon-exposed, talon-taken, "
            "misdeal or out-of-turn CALL"
        )
    return a


def _all_passed(actions: Sequence[Action | None], stages: Sequence[str]) -> bool:
    """Every call of the auction so far was a pass: an all-pass once play begins."""
    for a, st in zip(actions, stages, strict=False):
        if st in ("report", "redraw"):
            continue
        if st != "auction":
            break
        if a != PASS_ID and a != DARK_PASS_ID:
            return False
    return True


def _trick_size(players: int, actions: Sequence[Action | None], stages: Sequence[str]) -> int:
    """Cards in a trick: three, but two in гусарик's all-pass, where the dummy takes no part
    (Kodeks 3.7.6.4, docs/rules.md §16)."""
    return 2 if players == 2 and _all_passed(actions, stages) else 3


def _talon_leads(d: DealRecord, rules: Rules) -> tuple[str, ...]:
    """The talon cards that lead tricks 1 and 2 of an all-pass, as text."""
    if rules.raspas_talon_for(d.players) == "unused" or None in d.talon:
        return ()
    if not _all_passed(d.actions, d.stages) or "play" not in d.stages:
        return ()
    redrawn = [a for a, st in zip(d.actions, d.stages, strict=False) if st == "redraw"]
    if redrawn:  # Kodeks 3.3.17: the dealer drew these back into the talon
        return tuple("??" if a is None else str(a) for a in redrawn)
    return tuple(str(c) for c in d.talon)


# ---------------------------------------------------------------------------- reading
_KEYED = frozenset(("dealer", "min_level", "talon", "score", "help"))
_RULES_CACHE: dict[tuple[str, tuple[tuple[str, str], ...]], Rules] = {}


class _Reader:
    """One pass over the lines of a text; builds :class:`GameRecord` values."""

    def __init__(self, text: str, source: str, lenient: bool) -> None:
        self.lines = text.splitlines()
        self.source = source
        self.lenient = lenient
        self.errors: list[RecordError] = []
        self.pos = 0  # index of the next line
        self.deal_no = 0

    def fail(self, line: int, reason: str) -> None:
        err = RecordError(reason, source=self.source, line=line, deal=self.deal_no)
        if not self.lenient:
            raise err
        self.errors.append(err)

    def next_line(self) -> tuple[int, str] | None:
        """The next meaningful line (blank lines and ``#`` comments skipped)."""
        lines = self.lines
        while self.pos < len(lines):
            raw = lines[self.pos]
            self.pos += 1
            s = raw.strip()
            if s and s[0] != "#":
                return self.pos, s
        return None

    def peek_magic(self) -> bool:
        """Is there another record (its magic line) ahead?"""
        while self.pos < len(self.lines):
            s = self.lines[self.pos].strip()
            if s and s[0] != "#":
                return s.startswith("%preferans-record")
            self.pos += 1
        return False

    # -- a whole record ---------------------------------------------------------------
    def record(self) -> GameRecord:
        self.errors = []
        self.deal_no = 0
        first = self.next_line()
        if first is None:
            raise RecordError("empty input: no record", source=self.source, line=0)
        no, s = first
        if s != MAGIC:
            if s.startswith("%preferans-record"):
                msg = f"unsupported record version {s.split()[-1]!r}: this reader reads version 1"
            else:
                msg = f"the record must start with {MAGIC!r}, not {s[:40]!r}"
            raise RecordError(msg, source=self.source, line=no)
        headers: dict[str, str] = {}
        players: tuple[str, ...] = ()
        first_dealer_name = ""
        first_dealer_line = 0
        scored = True
        rules_name = "sochi"
        rule_values: dict[str, str] = {}
        rule_lines: dict[str, int] = {}
        deals: list[DealRecord] = []
        stopped = False
        pending: tuple[int, str] | None = None
        while True:
            item = pending or self.next_line()
            pending = None
            if item is None:
                break
            no, s = item
            if s.startswith("%preferans-record"):
                self.pos -= 1  # the next record starts here
                break
            if s.startswith("deal ") or s == "deal":
                if not players:
                    raise RecordError(
                        "deal before the 'players:' line: the header must name the players",
                        source=self.source,
                        line=no,
                    )
                if not deals:
                    rules = self.rules(rules_name, rule_values, rule_lines)
                deal, pending = self.deal(no, s, players, rules, len(deals) + 1)
                if deal is not None:
                    deals.append(deal)
                continue
            if s == "stopped":
                stopped = True
                continue
            key, sep, value = s.partition(":")
            key = key.strip()
            value = value.strip()
            if not sep:
                self.fail(no, f"expected 'key: value', a 'deal N' line or 'stopped', not {s[:40]!r}")
                continue
            if deals:
                self.fail(no, f"header line {key!r} after the first deal: headers come before the deals")
                continue
            if key == "players":
                names = tuple(n.strip() for n in value.split(","))
                if len(names) not in (2, 3, 4) or any(not n for n in names) or len(set(names)) != len(names):
                    raise RecordError(
                        f"players: give 2, 3 or 4 distinct names separated by commas, not {value!r}",
                        source=self.source,
                        line=no,
                    )
                players = names
            elif key == "first_dealer":
                first_dealer_name, first_dealer_line = value, no
            elif key == "scoring":
                if value not in ("pulka", "none"):
                    self.fail(no, f"scoring: write 'pulka' or 'none', not {value!r}")
                scored = value != "none"
            elif key == "rules":
                rules_name = value
                rule_lines["name"] = no
            elif key.startswith("rule "):
                field = key[5:].strip()
                rule_values[field] = value
                rule_lines[field] = no
            else:
                headers[key] = value
        if not players:
            raise RecordError("the header has no 'players:' line", source=self.source, line=no)
        if not deals:
            rules = self.rules(rules_name, rule_values, rule_lines)
        first_dealer = 0
        if first_dealer_name:
            if first_dealer_name in players:
                first_dealer = players.index(first_dealer_name)
            else:
                self.fail(first_dealer_line, f"first_dealer: {first_dealer_name!r} is not a player "
                          f"({', '.join(players)})")
        elif deals:
            first_dealer = deals[0].dealer
        for d in deals:
            if d.players != len(players):  # pragma: no cover - built from players
                self.fail(d.line, "deal for another number of players")
        return GameRecord(
            players=players,
            rules=rules,
            deals=tuple(deals),
            headers=headers,
            first_dealer=first_dealer,
            scored=scored,
            stopped=stopped,
            errors=list(self.errors),
        )

    def rules(self, name: str, values: dict[str, str], lines: dict[str, int]) -> Rules:
        key = (name, tuple(values.items()))
        cached = _RULES_CACHE.get(key)
        if cached is not None:
            return cached  # the same conventions as a record read before (Rules are immutable)
        errors_before = len(self.errors)
        rules = self._rules(name, values, lines)
        if len(self.errors) == errors_before and len(_RULES_CACHE) < 256:
            _RULES_CACHE[key] = rules
        return rules

    def _rules(self, name: str, values: dict[str, str], lines: dict[str, int]) -> Rules:
        # The name is the table's own (a preset's, or one the table chose: "Дома у Пети"); the
        # conventions are the rule lines, which a record written here lists in full.  A preset
        # fills only the fields a hand-written record leaves out.
        missing = [f for f in _RULE_FIELDS if f not in values]
        if name not in PRESETS and missing:
            self.fail(lines.get("name", 0), f"rules: {name!r} is not a preset, so the fields not listed "
                      f"({', '.join(missing[:3])}{', …' if len(missing) > 3 else ''}) take sochi's values "
                      f"(presets: {', '.join(PRESETS)})")  # fmt: skip
        base = PRESETS.get(name, PRESETS["sochi"])
        if name:
            try:
                base = base.replace(name=name)
            except PreferansError as e:
                self.fail(lines.get("name", 0), str(e))
        data: dict[str, Any] = {}
        for k, v in values.items():
            if k not in _RULE_FIELDS:
                close = difflib.get_close_matches(k, _RULE_FIELDS, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                self.fail(lines[k], f"unknown rules field {k!r}{hint}")
                continue
            data[k] = "" if v == "-" else v
        # Apply field by field, so a bad value names its own line.
        try:
            return base.replace(**data)
        except PreferansError:
            pass
        rules = base
        for k, v in data.items():
            try:
                rules = rules.replace(**{k: v})
            except PreferansError as e:
                self.fail(lines[k], str(e))
        try:
            return rules.replace(**data)
        except PreferansError as e:
            line = max(lines.values()) if lines else 0
            self.fail(line, str(e))
            return rules

    # -- one deal -------------------------------------------------------------------------
    def deal(
        self, line: int, head: str, names: tuple[str, ...], rules: Rules, number: int
    ) -> tuple[DealRecord | None, tuple[int, str] | None]:
        """Read one deal; returns it (``None`` if broken beyond use) and the line after it.

        Each ``key: value`` line goes to the :class:`_DealLines` handler of its key.
        """
        self.deal_no = number
        if head[5:].strip() != str(number):
            self.fail(line, f"deal number: expected 'deal {number}', found {head!r}")
        d = _DealLines(names, number)
        item: tuple[int, str] | None
        while True:
            item = self.next_line()
            if item is None:
                break
            no, s = item
            if s.startswith("deal ") or s == "deal" or s == "stopped" or s.startswith("%preferans-record"):
                break
            key, sep, value = s.partition(":")
            if not sep:
                self.fail(no, f"expected 'key: value' in deal {number}, not {s[:40]!r}")
                continue
            key = key.rstrip()
            if key in _KEYED:
                d.key_lines.setdefault(key, no)
            try:
                if key.startswith("trick"):  # the commonest line first
                    d.trick(no, key, value.strip())
                elif key.startswith("hand "):
                    d.hand(no, key[5:].strip(), value.strip())
                else:
                    handler = _DEAL_KEYS.get(key)
                    if handler is None:
                        raise RecordError(
                            f"unknown line {key!r} in deal {number}: expected dealer, min_level, hand NAME, talon, "
                            "auction, discard, contract, whist, defence, trick N, redraw, report, claim, score, "
                            "help, comment or sheet"
                        )
                    misplaced = handler(d, no, key, value.strip())
                    if misplaced:
                        self.fail(no, misplaced)  # reported, and the line is still used
            except RecordError as e:
                self.fail(no, e.reason)
        return self._deal_record(d, line), item

    def _deal_record(self, d: _DealLines, line: int) -> DealRecord | None:
        """Check the cards of a deal read line by line and make its record."""
        names, number = d.names, d.number
        n = len(names)
        if d.sheet:
            if d.actions or d.hands or d.talon or d.dealer >= 0:
                self.fail(line, f"deal {number}: lines written by hand have no dealer, cards or actions")
            return DealRecord(players=n, dealer=0, hands=(0,) * n, talon=(), sheet=True,
                              entries=tuple(d.entries or ()), comment=d.comment, line=line,
                              key_lines=tuple(d.key_lines.items()))  # fmt: skip
        if d.dealer < 0:
            self.fail(line, f"deal {number} has no 'dealer:' line")
            return None
        active = active_seats(d.dealer, n)
        hands = d.hands
        names = seat_names(names)
        masks = [0] * len(names)
        unknown = [0] * len(names)
        seen = 0
        for seat in range(len(names)):
            if seat not in active:
                if seat in hands and hands[seat] != (0, 0):
                    self.fail(d.hand_lines.get(seat, line),
                              f"hand of {names[seat]}: the 4-handed dealer holds no cards")
                continue
            if seat not in hands:
                self.fail(line, f"deal {number} has no hand line for {names[seat]}")
                hands[seat] = (0, 10)  # lenient: unknown
            m, u = hands[seat]
            if m.bit_count() + u != 10:
                self.fail(d.hand_lines.get(seat, line),
                          f"hand of {names[seat]}: 10 cards (?? for unseen ones), not {m.bit_count() + u}")
            if seen & m:
                self.fail(d.hand_lines.get(seat, line), f"hand of {names[seat]}: {format_hand(seen & m)} dealt twice")
            seen |= m
            masks[seat], unknown[seat] = m, u
        if not d.talon:
            self.fail(line, f"deal {number} has no 'talon:' line")
            return None
        for c in d.talon:
            if c is not None and seen >> c & 1:
                self.fail(d.key_lines.get("talon", line), f"talon: {c} is also in a hand")
        # A broken deal is kept as read when lenient; the replay check skips it.
        return DealRecord(
            players=n,
            dealer=d.dealer,
            hands=tuple(masks),
            talon=d.talon,
            actions=tuple(d.actions),
            stages=tuple(d.stages),
            entries=None if d.entries is None else tuple(d.entries),
            unknown=tuple(unknown),
            min_level=d.min_level,
            help_to=d.help_to,
            comment=d.comment,
            reporters=tuple(d.reporters),
            line=line,
            action_lines=tuple(d.action_lines),
            key_lines=tuple(d.key_lines.items()),
        )


class _DealLines:
    """What the lines of one deal have said so far, with one handler per key.

    Each handler reads the value of its line and raises :class:`RecordError`
    (its reason is reported with the line's number) when the value is bad; a
    handler may instead return the reason a readable line is out of place.
    """

    def __init__(self, names: tuple[str, ...], number: int) -> None:
        self.names = names
        self.number = number
        self.dealer = -1
        self.min_level = 6
        self.hands: dict[int, tuple[int, int]] = {}
        self.hand_lines: dict[int, int] = {}
        self.talon: tuple[Card | None, ...] = ()
        self.actions: list[Action | None] = []
        self.stages: list[str] = []
        self.action_lines: list[int] = []
        self.reporters: list[tuple[int, int]] = []
        self.key_lines: dict[str, int] = {}
        self.entries: list[Entry] | None = None
        self.help_to: int | None = None
        self.comment = ""
        self.sheet = False  # "sheet: by hand": lines written on the sheet by hand, no deal
        self.cards_played = 0

    def _add(self, a: Action | None, stage: str, no: int) -> None:
        self.actions.append(a)
        self.stages.append(stage)
        self.action_lines.append(no)

    def _player(self, name: str, what: str) -> int:
        if name not in self.names:
            raise RecordError(f"{what}: {name!r} is not a player ({', '.join(self.names)})")
        return self.names.index(name)

    def trick(self, no: int, key: str, value: str) -> None:
        """``trick N: cards`` (and the calls made inside a trick)."""
        want = self.cards_played // _trick_size(len(self.names), self.actions, self.stages) + 1
        if key[5:].strip() != str(want):
            raise RecordError(f"expected 'trick {want}:', found {key!r}")
        toks = value.split()
        fast = [_CARD_TOKENS.get(t) for t in toks]
        if None not in fast:
            k = len(fast)  # the common line: cards only
            self.actions.extend(fast)
            self.stages.extend(["play"] * k)
            self.action_lines.extend([no] * k)
            self.cards_played += k
            return
        card_table = _LOOKUP[False]
        for tok in toks:
            a: Action | None = card_table.get(tok)
            if a is None:
                if tok[0] == "[":
                    continue  # an all-pass talon lead, shown for the eye
                a = _action(tok, "play")
            if a < 32:
                self.cards_played += 1
            elif a not in _TRICK_CALLS:
                raise RecordError(f"{_TOKEN[a]!r} cannot stand in a trick")
            self._add(a, "play", no)

    def reported(self, no: int, key: str, value: str) -> None:
        """``report: NAME WHAT`` and ``claim: NAME N``: made by a named player."""
        seat, rest = _name_at(value, self.names, key)
        self.reporters.append((len(self.actions), seat))
        self._add(_read_reported(rest, key), key, no)

    def stage(self, no: int, key: str, value: str) -> str | None:
        """``auction``, ``discard``, ``contract``, ``whist``, ``defence``, ``redraw``: actions."""
        misplaced = self.entries is not None
        for tok in value.split():
            if tok == "??":
                if key != "discard":
                    raise RecordError("'??' (an unseen card) may only stand for a discarded card")
                a = None
            else:
                a = _action(tok, key)
                if not _fits(a, key):
                    raise RecordError(f"{_TOKEN[a]!r} cannot stand on a '{key}' line")
            self._add(a, key, no)
        return f"'{key}' after the score lines: actions come before the score" if misplaced else None

    def hand(self, no: int, who: str, value: str) -> None:
        """``hand NAME: cards`` as dealt (``??`` for unseen cards)."""
        seats = seat_names(self.names)  # гусарик: "hand dummy"
        if who not in seats:
            raise RecordError(f"hand of {who!r}: not a player ({', '.join(seats)})")
        seat = seats.index(who)
        if seat in self.hands:
            raise RecordError(f"a second hand line for {who}")
        self.hand_lines[seat] = no
        try:
            self.hands[seat] = _read_cards(value, f"hand of {who}")
        except RecordError:
            self.hands[seat] = (0, 10)  # lenient: the hand is kept as unknown
            raise

    def talon_line(self, no: int, key: str, value: str) -> None:
        toks = value.split()
        self.talon = tuple(None if t == "??" else _card(t, "talon") for t in toks)
        if len(self.talon) != 2:
            raise RecordError(f"talon: give 2 cards (?? for an unseen one), not {len(self.talon)}")

    def dealer_line(self, no: int, key: str, value: str) -> None:
        self.dealer = self._player(value, "dealer")

    def min_level_line(self, no: int, key: str, value: str) -> None:
        if value not in ("6", "7", "8", "9", "10"):
            raise RecordError(f"min_level: give a level 6..10, not {value!r}")
        self.min_level = int(value)

    def score(self, no: int, key: str, value: str) -> None:
        if self.entries is None:
            self.entries = []
        if value != "-":
            self.entries.append(_read_entry(value, self.names))

    def help_line(self, no: int, key: str, value: str) -> None:
        self.help_to = self._player(value, "help")

    def comment_line(self, no: int, key: str, value: str) -> None:
        self.comment = f"{self.comment} {value}".strip() if self.comment else value

    def sheet_line(self, no: int, key: str, value: str) -> None:
        if value != "by hand":
            raise RecordError(f"sheet: write 'sheet: by hand', not {value!r}")
        self.sheet = True


_DEAL_KEYS: dict[str, Callable[[_DealLines, int, str, str], str | None]] = {
    "report": _DealLines.reported,
    "claim": _DealLines.reported,
    **{k: _DealLines.stage for k in ("auction", "discard", "contract", "whist", "defence", "redraw")},
    "talon": _DealLines.talon_line,
    "dealer": _DealLines.dealer_line,
    "min_level": _DealLines.min_level_line,
    "score": _DealLines.score,
    "help": _DealLines.help_line,
    "comment": _DealLines.comment_line,
    "sheet": _DealLines.sheet_line,
}


def _card(token: str, what: str) -> Card:
    try:
        return Card.parse(token)
    except PreferansError as e:
        raise RecordError(f"{what}: {e}") from None


def _read_cards(text: str, what: str) -> tuple[int, int]:
    """Known cards as a mask and the number of ``??``."""
    unknown = 0
    if "??" in text:
        toks = text.split()
        unknown = toks.count("??")
        text = " ".join(t for t in toks if t != "??")
    try:
        return to_mask(text, what), unknown
    except PreferansError as e:
        raise RecordError(str(e)) from None


def _name_at(text: str, names: tuple[str, ...], what: str = "score") -> tuple[int, str]:
    """The player whose name starts ``text``, and the rest of it."""
    best = -1
    for i, name in enumerate(names):
        fits = text.startswith(name) and (len(text) == len(name) or text[len(name)] == " ")
        if fits and (best < 0 or len(name) > len(names[best])):
            best = i
    if best < 0:
        raise RecordError(f"{what}: expected a player's name ({', '.join(names)}) at {text[:30]!r}")
    return best, text[len(names[best]) :].lstrip()


def _read_entry(text: str, names: tuple[str, ...]) -> Entry:
    """``NAME pool 4 game``, ``NAME whists on NAME 2 whist``, ``NAME mountain -3 write-off``."""
    player, rest = _name_at(text, names)
    column, _, rest = rest.partition(" ")
    if column not in COLUMNS:
        raise RecordError(f"score: column must be pool, mountain or whists, not {column!r}")
    on = -1
    if column == "whists":
        if not rest.startswith("on "):
            raise RecordError("score: write whists as 'NAME whists on NAME AMOUNT'")
        on, rest = _name_at(rest[3:], names)
        if on == player:
            raise RecordError(f"score: {names[player]} cannot write whists on himself")
    amount_s, _, why = rest.partition(" ")
    amount: int | Fraction
    try:
        amount = int(amount_s)
    except ValueError:
        try:
            fr = Fraction(amount_s)
        except (ValueError, ZeroDivisionError):
            raise RecordError(f"score: {amount_s!r} is not an amount (write 4, -3 or 7/2)") from None
        amount = fr.numerator if fr.denominator == 1 else fr
    return Entry(column, player, amount, on, why.strip())


def read_text(text: str, *, source: str = "<string>", lenient: bool = False) -> GameRecord:
    """Read one record (the first, if the text holds several).

    Strict by default; ``lenient=True`` collects problems on ``record.errors``.
    This checks the form only; :func:`preferans.record.check` replays it.
    """
    return _Reader(text, source, lenient).record()


def read_texts(text: str, *, source: str = "<string>", lenient: bool = False) -> list[GameRecord]:
    """Read every record of a text (records follow one another, each from its magic line)."""
    reader = _Reader(text, source, lenient)
    out = [reader.record()]
    while reader.peek_magic():
        out.append(reader.record())
    return out

