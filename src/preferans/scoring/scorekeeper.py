"""The score keeper for a real table: deal outcomes typed as short lines or JSON.

Two input forms, mixed freely, one deal per line (``#`` starts a comment); a line may also
be said as players say it, in Russian or English (``Аня 6♠ вист Боря пас Вася, 6 взяток``:
:mod:`preferans.scoring.scoreline`), names in any case or short:

* **compact lines**, made for typing at the table::

      A 7S B:w C:p B2            A declares 7♠; B whists and took 2, C passed
      B 6H C:w A:w C2 A1         both whist; the declarer's tricks are inferred
      C 8NT A:p B:p              not whisted: written as made
      A 6S B:p C:h               half-whist (the first opponent passed)
      A 7D B:w C:p quota         «за своими»: a lone whist, not played (option za_svoimi)
      A 10H A9 B1 C0             a 10-game checked (no calls)
      A misere 0                 misère, the declarer's tricks (``half`` = «пополам»)
      allpass A3 B5 C2           all-pass (4 players: the dealer's talon tricks too)
      void C                     a misdeal: nothing written, dealt again (seed-002 p.12)
      A pool +3; C whists A +10  lines written by hand (a sheet in progress, a correction)
      penalty A B:52 D:7         talon exposed in the auction: whists on A (Kodeks 3.3.16.3)

  Options anywhere on a line: ``@D`` (dealer), ``x2`` (multiplier: dark game,
  dark passes), ``-3`` («без трёх»), ``-10`` («без всех»), ``open``,
  ``help=C`` (whom to help), ``bomb=A`` (classic: who earned a bomb),
  ``talon=AH,KH`` (the talon, for ``dealer_talon_whists``).
* **JSON lines** in the schema of issue 3 (extra keys allowed)::

      {"game": "7S", "declarer": "A", "defence": {"B": "whist", "C": "pass"},
       "tricks": {"A": 7, "B": 3, "C": 0}}
      {"allpass": true, "tricks": {"A": 3, "B": 5, "C": 2}}
      {"void": true, "offender": "C"}
      {"sheet": [{"player": "A", "column": "pool", "amount": 3},
                 {"player": "C", "column": "whists", "on": "A", "amount": 10}]}
      {"penalty": {"B": 52, "D": 7}, "offender": "A"}

The amounts of a penalty line come from
:func:`preferans.rulings.assessment.assess_exposed_talon` when the cards are
known, or from the players' own reckoning at the table.

A saved game is JSON lines: a header ``{"preferans": "pulka", ...}`` with the
rules and players, then one normalised JSON object per deal, so loading it
rebuilds the same sheet.

>>> k = ScoreKeeper(Rules.preset("sochi"), ["A", "B", "C"])
>>> _ = k.enter("A 7S B:w C:p B2")
>>> _ = k.enter('{"allpass": true, "tricks": {"A": 3, "B": 5, "C": 2}}')
>>> k.pulka.sheet.pool, k.pulka.sheet.mountain
([4, 0, 0], [1, 3, 0])
>>> k.to_json(k.pulka.results[0])["tricks"]
{'A': 8, 'B': 2, 'C': 0}

Any earlier deal can be corrected or taken out; every later deal is written again after it
(the dealer's rotation, the all-pass series):

>>> k.edit(0, "A 7S B:w C:p B3")
>>> k.pulka.sheet.mountain, k.pulka.sheet.whists[1][0]
([1, 3, 0], 12)
>>> k.delete(0)
>>> len(k.pulka.results), k.pulka.sheet.pool
(1, [0, 0, 0])
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..actions import Contract
from ..cards import Card
from ..engine.result import DealKind, DealResult, DefenceCall
from ..errors import ConfirmationNeeded, PreferansError, ScoreError
from ..i18n import Joined, Msg
from ..rules import Rules
from ..seats import DUMMY, active_seats, defenders_of
from . import DealScore
from .pulka import Pulka
from .scoreline import (
    CALL_WORDS,
    DUMMY_WORDS,
    PENALTY_WORDS,
    VOID_WORDS,
    Parsed,
    fail,
    parse_line,
    player_seat,
    talon_cards,
)

__all__ = ["HEADER_KEY", "ScoreKeeper", "parse_line"]

HEADER_KEY = "preferans"
_JSON_CALLS = {**CALL_WORDS, "half": DefenceCall.HALF}


def _whists(value: Any, field: str) -> Fraction:
    try:
        w = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise fail(Msg("{field}: whists as a number such as 52 or 7/2, not {value}", field=field,
                       value=repr(value))) from None  # fmt: skip
    if w < 0:
        raise fail(Msg("{field}: whists written on the offender cannot be negative", field=field))
    return w


def amount_json(w: Fraction) -> int | str:
    return int(w) if w.denominator == 1 else str(w)


def reason(e: BaseException) -> object:
    """What an error says, kept as a message in every language when it carries one."""
    return e.args[0] if e.args and isinstance(e.args[0], str) else str(e)


class ScoreKeeper:
    """A pulka fed by typed lines, with undo, editing of any earlier deal, and lossless
    save / load.  :attr:`inputs` keeps each deal as it was entered (the text and the
    players' «за своими»), so that an earlier deal can be changed and the later ones
    written again after it."""

    def __init__(
        self, rules: Rules | None = None, players: Sequence[str] | int = 3, first_dealer: int | str = 0
    ) -> None:
        self.pulka = Pulka(rules, players, first_dealer=first_dealer)
        self.inputs: list[tuple[str, bool]] = []

    @property
    def names(self) -> tuple[str, ...]:
        return self.pulka.names

    # -- entering ------------------------------------------------------------------
    def enter(self, text: str, *, quota: bool = False) -> DealScore:
        """Record one deal written as a compact line or a JSON object.

        ``quota=True`` is the players' «да, за своими» to a lone whist without tricks (the
        interactive keeper asks; :class:`~preferans.errors.ConfirmationNeeded` until then).
        """
        t = text.strip()
        score = self._record(self.read(t), quota)
        self.inputs.append((t, quota))
        return score

    def read(self, text: str) -> Parsed:
        """Read one deal's line or JSON object without writing it."""
        t = text.strip()
        if t.startswith("{"):
            return parse_json(_json_object(t), self.pulka)
        head = t.split(None, 1)[0].casefold() if t else ""
        if head in VOID_WORDS:
            return _void_line(t.split()[1:], self.pulka.names)
        if head in PENALTY_WORDS:
            return _penalty_line(t.split()[1:], self.pulka.names)
        sheet = _sheet_text(t, self.pulka.names)
        if sheet is not None:
            return sheet
        return parse_line(t, self.pulka)

    def check(self, text: str, *, quota: bool = False) -> DealScore:
        """What a deal would write next, without writing it (a form's preview); the same
        errors as :meth:`enter`."""
        p = self.read(text)
        p.quota = p.quota or quota
        result = build_result(p, self.pulka)
        score = self.pulka.record(result, help_to=p.help_to)
        self.pulka.undo()
        return score

    def enter_json(self, obj: Any, *, quota: bool = False) -> DealScore:
        """Record one deal given as a JSON object of the issue-3 schema."""
        score = self._record(parse_json(obj, self.pulka), quota)
        self.inputs.append((json.dumps(obj, ensure_ascii=False), quota))
        return score

    def _record(self, p: Parsed, quota: bool = False) -> DealScore:
        p.quota = p.quota or quota
        result = build_result(p, self.pulka)
        return self.pulka.record(result, help_to=p.help_to)

    def undo(self) -> DealResult:
        """Take back the last deal."""
        last = self.pulka.undo()
        if self.inputs:
            self.inputs.pop()
        return last

    # -- correcting ------------------------------------------------------------------
    def edit(self, index: int, text: str, *, quota: bool = False) -> None:
        """Write deal ``index`` (from 0) as ``text`` instead, and every later deal again after
        it.  If the new line, or a later deal after it, cannot be written, nothing changes and
        the error names the deal."""
        self._check_index(index)
        inputs = list(self.inputs)
        inputs[index] = (text.strip(), quota)
        self.replay(inputs)

    def delete(self, index: int) -> None:
        """Take deal ``index`` (from 0) out; every later deal is written again without it."""
        self._check_index(index)
        inputs = list(self.inputs)
        del inputs[index]
        self.replay(inputs)

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.inputs):
            raise fail(Msg("deal {number}: there is no such deal ({count} written)", number=index + 1,
                           count=len(self.inputs)))  # fmt: skip

    def replay(self, inputs: Sequence[tuple[str, bool]]) -> None:
        """Write these deals on a fresh sheet and take it if every one of them can be
        written; else nothing changes and the error names the first deal that cannot."""
        other = ScoreKeeper(self.pulka.rules, self.names, self.pulka.first_dealer)
        stopped = self.pulka.is_over and self.pulka.rules.end_condition == "agreement"
        for number, (text, quota) in enumerate(inputs, 1):
            try:
                other.enter(text, quota=quota)
            except PreferansError as e:
                raise fail(Msg("deal {number}: {reason}", number=number, reason=reason(e))) from None
        if stopped:
            other.pulka.stop()
        self.pulka, self.inputs = other.pulka, other.inputs

    # -- saving ----------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        return {
            HEADER_KEY: "pulka",
            "version": 1,
            "players": list(self.names),
            "first_dealer": self.names[self.pulka.first_dealer],
            "rules": self.pulka.rules.to_dict(),
        }

    def to_json(self, r: DealResult, help_to: int | None = None) -> dict[str, Any]:
        """The normalised JSON line of a recorded deal (dealer always explicit)."""
        names = self.names
        out: dict[str, Any] = {}
        if r.kind is DealKind.SHEET:
            out["sheet"] = [
                {"player": names[p], "column": c, **({"on": names[on]} if on >= 0 else {}), "amount": amount_json(a)}
                for c, p, a, on in r.sheet
            ]
            return out
        if r.kind in (DealKind.VOID, DealKind.PENALTY):
            if r.kind is DealKind.VOID:
                out["void"] = True
            else:
                out["penalty"] = {names[s]: amount_json(w) for s, w in sorted(r.penalty.items())}
            if r.offender is not None:
                out["offender"] = names[r.offender]
            out["dealer"] = names[r.dealer]
            return out
        if r.kind is DealKind.ALL_PASS:
            out["allpass"] = True
        else:
            assert r.contract is not None and r.declarer is not None
            c = r.contract
            out["game"] = c.ascii()
            out["declarer"] = names[r.declarer]
            if r.defence:
                # The dummy's call (always pass, гусарик) is implied.
                out["defence"] = {names[s]: v.value for s, v in r.defence.items() if s < len(names)}
        if r.tricks:
            seat_names = _seat_names(self.pulka)
            out["tricks"] = {seat_names[s]: t for s, t in sorted(r.tricks.items())}
        if r.dealer_tricks:
            out["dealer_tricks"] = r.dealer_tricks
        out["dealer"] = names[r.dealer]
        if r.open_play:
            out["open"] = True
        if r.za_svoimi:
            out["za_svoimi"] = True
        if r.misere_half:
            out["half_with_dealer"] = True
        if r.dealer_whist:
            out["dealer_whist"] = True
        if r.talon_shown_by_dealer:
            out["talon_shown_by_dealer"] = True
        if r.multiplier != 1:
            out["multiplier"] = r.multiplier
        if r.conceded:
            out["conceded"] = r.conceded
        if r.bombs_earned:
            out["bombs_earned"] = [names[s] for s in r.bombs_earned]
        if r.talon and self.pulka.rules.dealer_talon_whists != "none":
            out["talon"] = " ".join(Card(c).ascii() for c in r.talon)
        if help_to is not None:
            out["help_to"] = names[help_to]
        return out

    def lines(self) -> list[str]:
        """The saved form: the header, then one JSON line per deal."""
        out = [json.dumps(self.header(), ensure_ascii=False)]
        helps = self.pulka.help_choices
        for r, h in zip(self.pulka.results, helps, strict=True):
            out.append(json.dumps(self.to_json(r, h), ensure_ascii=False))
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text("\n".join(self.lines()) + "\n", encoding="utf-8")

    @classmethod
    def from_lines(
        cls,
        lines: Iterable[str],
        *,
        rules: Rules | None = None,
        players: Sequence[str] | int | None = None,
        first_dealer: int | str | None = None,
        overrides: Sequence[str] = (),
    ) -> ScoreKeeper:
        """Read a game: an optional header line, then deals.

        Arguments given here override the header.  An invalid line raises
        :class:`ScoreError` naming its line number — and every later bad line too (each
        checked as if the bad ones were not there), though nothing counts after the first:

        >>> ScoreKeeper.from_lines(["A 6S B:p C:p", "B 6Q", "C 7H A:p B:p", "A 11S"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        preferans.errors.ScoreError: line 2: contract: cannot read «6Q»...; line 4: contract: cannot read «11S»...
        """
        keeper: ScoreKeeper | None = None
        errors: list[Msg] = []

        def make(header: Mapping[str, Any] | None) -> ScoreKeeper:
            r = rules
            if r is None:
                r = Rules.from_dict(header["rules"]) if header and "rules" in header else Rules()
            for o in overrides:
                r = r.set_from_text(o)
            names: Sequence[str] | int = players if players is not None else (
                list(header["players"]) if header and "players" in header else 3
            )
            fd = first_dealer if first_dealer is not None else (
                header.get("first_dealer", 0) if header else 0
            )
            return cls(r, names, fd)

        for number, raw in enumerate(lines, 1):
            text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("{") else raw.strip()
            if not text:
                continue
            try:
                if text.startswith("{"):
                    obj = _json_object(text)
                    if isinstance(obj, dict) and HEADER_KEY in obj:
                        if keeper is not None:
                            raise fail(Msg("header: the game header must be the first line"))
                        keeper = make(obj)
                        continue
                    if keeper is None:
                        keeper = make(None)
                    keeper.enter_json(obj)
                else:
                    if keeper is None:
                        keeper = make(None)
                    keeper.enter(text)
            except PreferansError as e:
                said = Msg("line {number}: {reason}", number=number, reason=reason(e))
                if keeper is None:  # the header or the arguments themselves are wrong: nothing to go on
                    raise ScoreError(said) from None
                errors.append(said)
        if errors:
            raise ScoreError(Joined(errors, "; "))
        return keeper if keeper is not None else make(None)


# -- reading lines -----------------------------------------------------------------------


def _json_object(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise fail(Msg("JSON: {reason} at column {column}", reason=e.msg, column=e.colno)) from None
    except RecursionError:
        raise fail(Msg("JSON: nested too deeply")) from None


def _seat_names(pulka: Pulka) -> tuple[str, ...]:
    """The players' names, and ``dummy`` for the third hand when two play (rules.md §16)."""
    return (*pulka.names, DUMMY_WORDS[0]) if pulka.players == 2 else pulka.names


def _trick_seat(pulka: Pulka, name: Any, field: str) -> int:
    """A player, or in гусарик the dummy, whose tricks count for the whister."""
    if pulka.players == 2 and isinstance(name, str) and name.casefold() in DUMMY_WORDS:
        return DUMMY
    return _seat(pulka, name, field)


def _seat(pulka: Pulka, name: Any, field: str) -> int:
    """The seat a JSON field names (the name in any case, or a short form of one name)."""
    if isinstance(name, str):
        seat = player_seat(pulka.names, name, field)
        if seat is not None:
            return seat
    raise fail(Msg("{field}: «{name}» is not a player here ({names})", field=field, name=str(name)[:40],
                   names=", ".join(pulka.names)))  # fmt: skip


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise fail(Msg("{field}: a whole number {lo} to {hi}, not {value}", field=field, lo=lo, hi=hi,
                       value=repr(value)[:40]))  # fmt: skip
    return value


def parse_json(obj: Any, pulka: Pulka) -> Parsed:
    """Read one deal object of the issue-3 schema."""
    if not isinstance(obj, dict):
        raise fail(Msg("JSON: each line must be an object such as {example}", example='{"game": "7S", ...}'))
    if "sheet" in obj:
        return _sheet_json(obj["sheet"], pulka)
    p = Parsed()
    if "dealer" in obj:
        p.dealer = _seat(pulka, obj["dealer"], "dealer")
    if "multiplier" in obj:
        p.multiplier = _int(obj["multiplier"], "multiplier", 1, 1 << 20)
    if "conceded" in obj:
        p.conceded = _int(obj["conceded"], "conceded", 0, 10)
    if "help_to" in obj:
        p.help_to = _seat(pulka, obj["help_to"], "help_to")
    if "bombs_earned" in obj:
        if not isinstance(obj["bombs_earned"], list):
            raise fail(Msg("bombs_earned: a list of player names"))
        p.bombs = tuple(_seat(pulka, b, "bombs_earned") for b in obj["bombs_earned"])
    if "talon" in obj:
        p.talon = talon_cards(str(obj["talon"]))
    if "offender" in obj:
        p.offender = _seat(pulka, obj["offender"], "offender")
    if obj.get("void") is True:
        p.void = True  # seed-002 p.12: a deal out of turn is dealt again
        return p
    if "penalty" in obj:
        pen = obj["penalty"]
        if not isinstance(pen, dict) or p.offender is None:
            raise fail(Msg("penalty: an object of player → whists on the offender (Kodeks 3.3.16.3)"))
        p.penalty = {_seat(pulka, k, "penalty"): _whists(v, f"penalty.{k}") for k, v in pen.items()}
        return p
    tricks = obj.get("tricks")
    if tricks is not None:
        if not isinstance(tricks, dict):
            raise fail(Msg("tricks: an object of player → tricks, e.g. {example}", example='{"A": 7, "B": 3, "C": 0}'))
        for k, v in tricks.items():
            p.tricks[_trick_seat(pulka, k, "tricks")] = _int(v, f"tricks.{k}", 0, 10)
    if "game" in obj and "allpass" in obj:
        raise fail(Msg("game/allpass: a deal is either a game or an all-pass, not both"))
    if obj.get("allpass") is True:
        p.allpass = True
        if "dealer_tricks" in obj:
            p.dealer_tricks = _int(obj["dealer_tricks"], "dealer_tricks", 0, 2)
        return p
    if "allpass" in obj:
        raise fail(Msg("allpass: must be true, not {value}", value=repr(obj["allpass"])[:40]))
    if "game" not in obj:
        raise fail(Msg("game: each deal needs «game» (e.g. 7S, misere) or «allpass»"))
    if not isinstance(obj["game"], str):
        raise fail(Msg("game: a contract such as 7S, not {value}", value=repr(obj["game"])[:40]))
    p.contract = _contract(obj["game"])
    if "declarer" not in obj:
        raise fail(Msg("declarer: who played the game?"))
    p.declarer = _seat(pulka, obj["declarer"], "declarer")
    defence = obj.get("defence")
    if defence is not None:
        if not isinstance(defence, dict):
            raise fail(Msg("defence: an object of defender → whist, pass or half"))
        for k, v in defence.items():
            if not isinstance(v, str) or v.casefold() not in _JSON_CALLS:
                raise fail(Msg("defence.{name}: whist, pass or half, not {value}", name=str(k)[:40],
                               value=repr(v)[:40]))  # fmt: skip
            p.defence[_seat(pulka, k, "defence")] = _JSON_CALLS[v.casefold()]
    p.open = obj.get("open") is True
    p.quota = obj.get("za_svoimi") is True or obj.get("quota") is True
    p.misere_half = obj.get("half_with_dealer") is True
    p.dealer_whist = obj.get("dealer_whist") is True
    p.talon_shown = obj.get("talon_shown_by_dealer") is True
    return p


_COLUMNS = {
    "pool": "pool", "пуля": "pool", "пулька": "pool", "пулю": "pool",
    "mountain": "mountain", "mount": "mountain", "гора": "mountain", "гору": "mountain",
    "whists": "whists", "висты": "whists", "вист": "whists",
}  # fmt: skip


def _sheet_json(lines: Any, pulka: Pulka) -> Parsed:
    """``"sheet": [{"player": "A", "column": "pool", "amount": 3}, …]``."""
    if not isinstance(lines, list) or not lines:
        raise fail(Msg("sheet: a list of lines such as {example}",
                       example='{"player": "A", "column": "pool", "amount": 3}'))  # fmt: skip
    p = Parsed()
    p.sheet = []
    for i, line in enumerate(lines, 1):
        if not isinstance(line, dict):
            raise fail(Msg("sheet line {number}: an object with player, column, amount (and on, for whists)",
                           number=i))  # fmt: skip
        column = _COLUMNS.get(str(line.get("column", "")).casefold())
        if column is None:
            raise fail(Msg("sheet line {number}: the column is pool, mountain or whists, not {value}", number=i,
                           value=repr(line.get("column"))[:40]))  # fmt: skip
        who = _seat(pulka, line.get("player"), f"sheet line {i}: player")
        on = _seat(pulka, line["on"], f"sheet line {i}: on") if "on" in line else -1
        p.sheet.append((column, who, _amount(line.get("amount"), f"sheet line {i}: amount"), on))
    return p


def _amount(value: Any, field: str) -> Fraction:
    problem = Msg("{field}: a number such as 3, -5 or 7/2, not {value}", field=field, value=repr(value)[:40])
    if isinstance(value, bool):
        raise fail(problem)
    try:
        return Fraction(str(value).lstrip("+"))
    except (ValueError, ZeroDivisionError):
        raise fail(problem) from None


def _sheet_text(text: str, names: tuple[str, ...]) -> Parsed | None:
    """``A pool +3; B mountain -5; C whists A +10`` (``C whists on A 10``, ``Аня гора -5``), or
    ``None`` when the line is not one of these."""
    parts = [part.split() for part in text.split(";") if part.strip()]
    if (not parts or len(parts[0]) < 2 or player_seat(names, parts[0][0], Msg("player")) is None
            or parts[0][1].casefold() not in _COLUMNS):  # fmt: skip
        return None
    a, b, c = (names[k % len(names)] for k in range(3))
    form = Msg("«{a} pool +3», «{b} mountain -5», «{c} whists {a} +10»", a=a, b=b, c=c)
    p = Parsed()
    p.sheet = []
    for words in parts:
        column = _COLUMNS.get(words[1].casefold()) if len(words) > 1 else None
        rest = [w for w in words[2:] if w.casefold() not in ("on", "на")]
        who = player_seat(names, words[0], Msg("player"))
        if who is None or column is None:
            raise fail(Msg("sheet: cannot read «{words}»; write {form}", words=" ".join(words), form=form))
        on = -1
        if column == "whists":
            target = player_seat(names, rest[0], Msg("player")) if len(rest) == 2 else None
            if target is None or target == who:
                raise fail(Msg("sheet: write whose whists on whom, e.g. «C whists A +10», not «{words}»",
                               words=" ".join(words)))  # fmt: skip
            on = target
            rest = rest[1:]
        if len(rest) != 1:
            raise fail(Msg("sheet: cannot read «{words}»; write {form}", words=" ".join(words), form=form))
        p.sheet.append((column, who, _amount(rest[0], f"sheet: {names[who]} {column}"), on))
    return p


def _contract(text: str) -> Contract:
    try:
        return Contract.parse(text)
    except PreferansError as e:
        raise fail(Msg("game: {reason}", reason=str(e))) from None


def _void_line(tokens: Sequence[str], names: tuple[str, ...]) -> Parsed:
    """``void [OFFENDER] [@DEALER]`` — a misdeal, dealt again (seed-002 p.12)."""
    p = Parsed()
    p.void = True
    for tok in tokens:
        seat = player_seat(names, tok.lstrip("@"), Msg("player")) if tok.lstrip("@") else None
        if seat is not None and tok.startswith("@"):
            p.dealer = seat
        elif seat is not None:
            p.offender = seat
        else:
            raise fail(Msg("void: cannot read «{word}»; write «void» or «void C» (who dealt out of turn)", word=tok))
    return p


def _penalty_line(tokens: Sequence[str], names: tuple[str, ...]) -> Parsed:
    """``penalty A B:52 D:7`` — B writes 52 and D 7 whists on the offender A (Kodeks 3.3.16.3)."""
    offender = player_seat(names, tokens[0], Msg("player")) if tokens else None
    if len(tokens) < 2 or offender is None:
        raise fail(Msg("penalty: write «penalty OFFENDER B:52 D:7» (Kodeks 3.3.16.3)"))
    p = Parsed()
    p.offender = offender
    p.penalty = {}
    for tok in tokens[1:]:
        writer, sep, amount = tok.partition(":")
        dealer = player_seat(names, tok[1:], Msg("player")) if tok.startswith("@") and len(tok) > 1 else None
        seat = player_seat(names, writer, Msg("player")) if sep and writer else None
        if dealer is not None:
            p.dealer = dealer
        elif seat is not None:
            p.penalty[seat] = _whists(amount, f"penalty of {names[seat]}")
        else:
            raise fail(Msg("penalty: cannot read «{word}»; write PLAYER:WHISTS, e.g. B:52", word=tok))
    return p


def _dealer(p: Parsed, pulka: Pulka) -> int:
    return pulka.next_dealer if p.dealer is None else p.dealer


def build_result(p: Parsed, pulka: Pulka) -> DealResult:
    """Turn a parsed line into a :class:`DealResult`, inferring what can be inferred."""
    n = pulka.players
    names = _seat_names(pulka)
    dealer = _dealer(p, pulka)
    if p.sheet is not None:
        return DealResult(DealKind.SHEET, n, dealer, sheet=tuple(p.sheet))
    if p.void:
        return DealResult(DealKind.VOID, n, dealer, offender=p.offender)
    if p.penalty is not None:
        if p.offender in p.penalty:
            raise fail(Msg("penalty: the offender writes nothing (Kodeks 3.3.16.3)"))
        return DealResult(DealKind.PENALTY, n, dealer, offender=p.offender, penalty=p.penalty)
    active = active_seats(dealer, n)
    for s in p.tricks:
        if s not in active:
            raise fail(Msg("tricks: {name} deals and sits out this deal; his talon tricks on an all-pass only",
                           name=names[s]) if not p.allpass else
                       Msg("tricks: {name} deals and sits out this deal; write the dealer's talon tricks "
                           "as dealer_tricks", name=names[s]))  # fmt: skip
    if p.allpass:
        # гусарик: ten tricks of two between the players; the dummy takes no part (Kodeks 3.7.6.4).
        playing = active if n != 2 else tuple(s for s in active if s != DUMMY)
        tricks = _complete(p.tricks, playing, 10 - p.dealer_tricks, names)
        return DealResult(
            DealKind.ALL_PASS, n, dealer, tricks=tricks, dealer_tricks=p.dealer_tricks,
            multiplier=p.multiplier, bombs_earned=p.bombs,
        )  # fmt: skip
    decl, contract = p.declarer, p.contract
    assert decl is not None and contract is not None
    if decl not in active:
        raise fail(Msg("declarer: {name} deals and sits out this deal", name=names[decl]))
    defenders = defenders_of(active, decl)
    if n == 4 and dealer in p.defence:
        # "D:w" — the dealer sitting out whists (dealer_whist, rules.md §5.6).
        if p.defence.pop(dealer) is not DefenceCall.WHIST:
            raise fail(Msg("defence: {name} deals; the dealer only whists ({name}:w) or says nothing",
                           name=names[dealer]))  # fmt: skip
        p.dealer_whist = True
    for s in p.defence:
        if s not in defenders:
            raise fail(Msg("defence: {name} is not an opponent of {declarer} in this deal", name=names[s],
                           declarer=names[decl]))  # fmt: skip
    if contract.is_misere:
        if p.defence:
            raise fail(Msg("defence: nobody whists on a misère (Kodeks 3.8.2)"))
        tricks = dict(p.tricks)
        if len(tricks) >= 2:
            tricks = _complete(tricks, active, 10, names)
        if decl not in tricks:
            raise fail(Msg("tricks: how many tricks did {name} take on the misère?", name=names[decl]))
        return DealResult(
            DealKind.MISERE, n, dealer, decl, contract, tricks=tricks,
            misere_half=p.misere_half, multiplier=p.multiplier, talon=p.talon,
        )  # fmt: skip
    defence = {d: p.defence.get(d, DefenceCall.PASS) for d in defenders} if p.defence else {}
    _half_whist_order(defence, defenders, names, pulka.rules)
    checked = contract.level == 10 and not p.defence and not p.conceded
    if checked and not pulka.rules.tens_checked:
        raise fail(Msg("defence: tens are whisted at this table (ten_mode=whisted): write the defenders' "
                       "calls on a 10-game"))
    tricks = dict(p.tricks)
    if n == 2 and (tricks or checked) and DUMMY not in tricks:
        tricks[DUMMY] = 0  # the dummy's tricks count for the whister: give the side's total as his
    if p.conceded == 3:
        kind = DealKind.GAME
        tricks = {}
        if not defence:
            defence = {d: DefenceCall.WHIST for d in defenders}
    elif p.conceded == 10:
        kind = DealKind.GAME
        ws = [d for d in defenders if defence.get(d) is DefenceCall.WHIST] or list(defenders)
        tricks = {decl: 0, **{d: (10 // len(ws) if d in ws else 0) for d in defenders}}
    elif tricks or checked:
        kind = DealKind.GAME
        whisters = [d for d in defenders if defence.get(d) is not DefenceCall.PASS]
        if p.dealer_whist:
            whisters = [defenders[0]]  # the dealer plays both hands: only the side's total matters
        missing = [s for s in active if s not in tricks]
        if len(missing) == 2 and len(whisters) == 1 and not checked:
            passer = defenders[0] if whisters[0] == defenders[1] else defenders[1]
            if passer in missing:  # only the side's total matters with one whister
                tricks[passer] = 0
        tricks = _complete(tricks, active, 10, names)
    else:
        kind = DealKind.NOT_PLAYED
        if not defence:
            raise fail(Msg("defence: write what {first} and {second} said (whist, pass or half-whist) or the "
                           "tricks", first=names[defenders[0]], second=names[defenders[1]]))  # fmt: skip
    lone = [d for d, v in defence.items() if v is DefenceCall.WHIST]
    za_svoimi = kind is DealKind.NOT_PLAYED and len(lone) == 1
    if za_svoimi and not pulka.rules.za_svoimi:
        raise fail(Msg("defence: {name} whists alone and no tricks are written; «за своими» (the lone "
                       "whister writes his quota without play, seed-002 p.27) is off at this table "
                       "(za_svoimi=false): write the tricks, e.g. {name}2", name=names[lone[0]]))
    if za_svoimi and not p.quota:
        raise ConfirmationNeeded(Msg(
            "defence: {name} whists alone and no tricks are written: add 'quota' if it was «за своими» "
            "({name} writes his quota without play), or write the tricks", name=names[lone[0]]))
    if p.quota and not za_svoimi:
        raise fail(Msg("quota: «за своими» is a lone whist (one whist, one pass) with no tricks written"))
    return DealResult(
        kind, n, dealer, decl, contract, defence=defence, open_play=p.open, tricks=tricks,
        ten_checked=checked, za_svoimi=za_svoimi,
        conceded=p.conceded, multiplier=p.multiplier, talon=p.talon, misere_half=p.misere_half,
        dealer_whist=p.dealer_whist, talon_shown_by_dealer=p.talon_shown,
    )  # fmt: skip


def _half_whist_order(
    defence: Mapping[int, DefenceCall], defenders: tuple[int, int], names: tuple[str, ...], rules: Rules
) -> None:
    """Полвиста is said by the second opponent after the first passed (rules.md §5.4): named."""
    if DefenceCall.HALF not in defence.values() or len(names) == 2 or names[-1] == DUMMY_WORDS[0]:
        return
    first, second = defenders
    if defence.get(first) is DefenceCall.PASS and defence.get(second) is DefenceCall.HALF:
        return
    if rules.first_defender_half_whist and defence.get(first) is DefenceCall.HALF and defence.get(
        second
    ) is DefenceCall.PASS:
        return
    raise fail(Msg("defence: half-whist is said by the second opponent, {second}, after the first, {first}, "
                   "passed (rules.md §5.4; first_defender_half_whist=true lets the first fall back to it)",
                   first=names[first], second=names[second]))  # fmt: skip


def _complete(
    tricks: dict[int, int], active: tuple[int, ...], total: int, names: tuple[str, ...]
) -> dict[int, int]:
    """Fill in one missing player's tricks so that they sum to ``total``."""
    missing = [s for s in active if s not in tricks]
    given = sum(tricks.values())
    if len(missing) > 1 and given == total:
        return {**tricks, **{s: 0 for s in missing}}  # the rest took nothing
    if len(missing) > 1:
        who = ", ".join(names[s] for s in missing)
        raise fail(Msg("tricks: give the tricks of all the players but one (missing: {who})", who=who))
    if missing:
        if given > total:
            raise fail(Msg("tricks: {given} tricks given, but a deal has only {total}", given=given, total=total))
        return {**tricks, missing[0]: total - given}
    if given != total:
        got = ", ".join(f"{names[s]} {t}" for s, t in sorted(tricks.items()))
        raise fail(Msg("tricks: they must sum to {total}, not {given} ({got})", total=total, given=given, got=got))
    return tricks
