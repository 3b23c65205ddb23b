"""The score keeper for a real table: deal outcomes typed as short lines or JSON.

Two input forms, mixed freely, one deal per line (``#`` starts a comment):

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
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..actions import Contract
from ..cards import Card, parse_cards
from ..engine.result import DealKind, DealResult, DefenceCall
from ..errors import ConfirmationNeeded, PreferansError, ScoreError
from ..rules import Rules
from ..seats import DUMMY, active_seats, defenders_of
from . import DealScore
from .pulka import Pulka

__all__ = ["HEADER_KEY", "ScoreKeeper", "parse_line"]

HEADER_KEY = "preferans"

_CALLS = {
    "w": DefenceCall.WHIST, "whist": DefenceCall.WHIST, "вист": DefenceCall.WHIST,
    "в": DefenceCall.WHIST,
    "p": DefenceCall.PASS, "pass": DefenceCall.PASS, "пас": DefenceCall.PASS,
    "h": DefenceCall.HALF, "half": DefenceCall.HALF, "полвиста": DefenceCall.HALF,
    "пв": DefenceCall.HALF,
}  # fmt: skip
_ALLPASS = {"allpass", "all-pass", "ap", "raspas", "распасы", "распас"}
_VOID = {"void", "redeal", "misdeal", "пересдача"}
_PENALTY = {"penalty", "штраф"}


def _whists(value: Any, field: str) -> Fraction:
    try:
        w = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise _fail(f"{field}: whists as a number such as 52 or 7/2, not {value!r}") from None
    if w < 0:
        raise _fail(f"{field}: whists written on the offender cannot be negative")
    return w


class _Parsed:
    """A deal read from a line, before it becomes a :class:`DealResult`."""

    __slots__ = (
        "allpass",
        "bombs",
        "conceded",
        "contract",
        "dealer",
        "dealer_tricks",
        "dealer_whist",
        "declarer",
        "defence",
        "help_to",
        "misere_half",
        "multiplier",
        "offender",
        "open",
        "penalty",
        "quota",
        "sheet",
        "talon",
        "talon_shown",
        "tricks",
        "void",
    )  # fmt: skip

    def __init__(self) -> None:
        self.allpass = False
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.defence: dict[int, DefenceCall] = {}
        self.tricks: dict[int, int] = {}
        self.dealer: int | None = None
        self.dealer_tricks = 0
        self.multiplier = 1
        self.conceded = 0
        self.open = False
        self.misere_half = False
        self.dealer_whist = False  # the 4-handed dealer whisted (dealer_whist)
        self.talon_shown = False  # the 4-handed dealer showed the talon (dealer_shown_talon_whists)
        self.sheet: list[tuple[str, int, Fraction, int]] | None = None  # lines written by hand
        self.help_to: int | None = None
        self.bombs: tuple[int, ...] = ()
        self.talon: tuple[int, ...] = ()
        self.void = False  # a misdeal: nothing written, the same dealer deals again
        self.offender: int | None = None
        self.penalty: dict[int, Fraction] | None = None  # Kodeks 3.3.16.3 whists on the offender
        self.quota = False  # «за своими» said in words: the lone whister writes his quota unplayed


def amount_json(w: Fraction) -> int | str:
    return int(w) if w.denominator == 1 else str(w)


def _fail(msg: str) -> ScoreError:
    return ScoreError(msg)


class ScoreKeeper:
    """A pulka fed by typed lines, with undo and lossless save / load."""

    def __init__(
        self, rules: Rules | None = None, players: Sequence[str] | int = 3, first_dealer: int | str = 0
    ) -> None:
        self.pulka = Pulka(rules, players, first_dealer=first_dealer)

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
        if t.startswith("{"):
            try:
                obj = json.loads(t)
            except json.JSONDecodeError as e:
                raise _fail(f"JSON: {e.msg} at column {e.colno}") from None
            return self.enter_json(obj, quota=quota)
        return self._record(parse_line(t, self.pulka), quota)

    def enter_json(self, obj: Any, *, quota: bool = False) -> DealScore:
        """Record one deal given as a JSON object of the issue-3 schema."""
        return self._record(parse_json(obj, self.pulka), quota)

    def _record(self, p: _Parsed, quota: bool = False) -> DealScore:
        p.quota = p.quota or quota
        result = build_result(p, self.pulka)
        return self.pulka.record(result, help_to=p.help_to)

    def undo(self) -> DealResult:
        """Take back the last deal."""
        return self.pulka.undo()

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
        preferans.errors.ScoreError: line 2: game: cannot read contract '6Q'...; line 4: game: ...'11S'...
        """
        keeper: ScoreKeeper | None = None
        errors: list[str] = []

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
                    try:
                        obj = json.loads(text)
                    except json.JSONDecodeError as e:
                        raise _fail(f"JSON: {e.msg} at column {e.colno}") from None
                    if isinstance(obj, dict) and HEADER_KEY in obj:
                        if keeper is not None:
                            raise _fail("header: the game header must be the first line")
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
                if keeper is None:  # the header or the arguments themselves are wrong: nothing to go on
                    raise ScoreError(f"line {number}: {e}") from None
                errors.append(f"line {number}: {e}")
        if errors:
            raise ScoreError("; ".join(errors))
        return keeper if keeper is not None else make(None)


# -- reading lines -----------------------------------------------------------------------


_DUMMY_WORDS = ("dummy", "болван")


def _seat_names(pulka: Pulka) -> tuple[str, ...]:
    """The players' names, and ``dummy`` for the third hand when two play (rules.md §16)."""
    return (*pulka.names, _DUMMY_WORDS[0]) if pulka.players == 2 else pulka.names


def _trick_seat(pulka: Pulka, name: Any, field: str) -> int:
    """A player, or in гусарик the dummy, whose tricks count for the whister."""
    if pulka.players == 2 and isinstance(name, str) and name.lower() in _DUMMY_WORDS:
        return DUMMY
    return _seat(pulka, name, field)


def _seat(pulka: Pulka, name: Any, field: str) -> int:
    if isinstance(name, str) and name in pulka.names:
        return pulka.names.index(name)
    raise _fail(f"{field}: {name!r} is not a player here ({', '.join(pulka.names)})")


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(f"{field}: expected a whole number {lo}..{hi}, not {value!r}")
    return value


def parse_json(obj: Any, pulka: Pulka) -> _Parsed:
    """Read one deal object of the issue-3 schema."""
    if not isinstance(obj, dict):
        raise _fail("JSON: each line must be an object such as {\"game\": \"7S\", ...}")
    if "sheet" in obj:
        return _sheet_json(obj["sheet"], pulka)
    p = _Parsed()
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
            raise _fail("bombs_earned: a list of player names")
        p.bombs = tuple(_seat(pulka, b, "bombs_earned") for b in obj["bombs_earned"])
    if "talon" in obj:
        p.talon = _talon(str(obj["talon"]))
    if "offender" in obj:
        p.offender = _seat(pulka, obj["offender"], "offender")
    if obj.get("void") is True:
        p.void = True  # seed-002 p.12: a deal out of turn is dealt again
        return p
    if "penalty" in obj:
        pen = obj["penalty"]
        if not isinstance(pen, dict) or p.offender is None:
            raise _fail("penalty: an object of player → whists on the \"offender\" (Kodeks 3.3.16.3)")
        p.penalty = {_seat(pulka, k, "penalty"): _whists(v, f"penalty.{k}") for k, v in pen.items()}
        return p
    tricks = obj.get("tricks")
    if tricks is not None:
        if not isinstance(tricks, dict):
            raise _fail("tricks: an object of player → tricks, e.g. {\"A\": 7, \"B\": 3, \"C\": 0}")
        for k, v in tricks.items():
            p.tricks[_trick_seat(pulka, k, "tricks")] = _int(v, f"tricks.{k}", 0, 10)
    if "game" in obj and "allpass" in obj:
        raise _fail("game/allpass: a deal is either a game or an all-pass, not both")
    if obj.get("allpass") is True:
        p.allpass = True
        if "dealer_tricks" in obj:
            p.dealer_tricks = _int(obj["dealer_tricks"], "dealer_tricks", 0, 2)
        return p
    if "allpass" in obj:
        raise _fail(f"allpass: must be true, not {obj['allpass']!r}")
    if "game" not in obj:
        raise _fail("game: each deal needs \"game\" (e.g. \"7S\", \"misere\") or \"allpass\": true")
    if not isinstance(obj["game"], str):
        raise _fail(f"game: a contract text such as \"7S\", not {obj['game']!r}")
    p.contract = _contract(obj["game"])
    if "declarer" not in obj:
        raise _fail("declarer: who played the game?")
    p.declarer = _seat(pulka, obj["declarer"], "declarer")
    defence = obj.get("defence")
    if defence is not None:
        if not isinstance(defence, dict):
            raise _fail("defence: an object of defender → \"whist\" / \"pass\" / \"half\"")
        for k, v in defence.items():
            if not isinstance(v, str) or v.lower() not in _CALLS:
                raise _fail(f"defence.{k}: \"whist\", \"pass\" or \"half\", not {v!r}")
            p.defence[_seat(pulka, k, "defence")] = _CALLS[v.lower()]
    p.open = obj.get("open") is True
    p.quota = obj.get("za_svoimi") is True or obj.get("quota") is True
    p.misere_half = obj.get("half_with_dealer") is True
    p.dealer_whist = obj.get("dealer_whist") is True
    p.talon_shown = obj.get("talon_shown_by_dealer") is True
    return p


_COLUMNS = {
    "pool": "pool", "пуля": "pool", "пулька": "pool",
    "mountain": "mountain", "mount": "mountain", "гора": "mountain",
    "whists": "whists", "висты": "whists", "вист": "whists",
}  # fmt: skip


def _sheet_json(lines: Any, pulka: Pulka) -> _Parsed:
    """``"sheet": [{"player": "A", "column": "pool", "amount": 3}, …]``."""
    if not isinstance(lines, list) or not lines:
        raise _fail('sheet: a list of lines such as {"player": "A", "column": "pool", "amount": 3}')
    p = _Parsed()
    p.sheet = []
    for i, line in enumerate(lines, 1):
        if not isinstance(line, dict):
            raise _fail(f"sheet line {i}: an object with player, column, amount (and on, for whists)")
        column = _COLUMNS.get(str(line.get("column", "")).lower())
        if column is None:
            raise _fail(f"sheet line {i}: column is pool, mountain or whists, not {line.get('column')!r}")
        who = _seat(pulka, line.get("player"), f"sheet line {i}: player")
        on = _seat(pulka, line["on"], f"sheet line {i}: on") if "on" in line else -1
        p.sheet.append((column, who, _amount(line.get("amount"), f"sheet line {i}: amount"), on))
    return p


def _amount(value: Any, field: str) -> Fraction:
    if isinstance(value, bool):
        raise _fail(f"{field}: a number such as 3, -5 or 7/2, not {value!r}")
    try:
        return Fraction(str(value).lstrip("+"))
    except (ValueError, ZeroDivisionError):
        raise _fail(f"{field}: a number such as 3, -5 or 7/2, not {value!r}") from None


def _sheet_text(text: str, names: tuple[str, ...]) -> _Parsed | None:
    """``A pool +3; B mountain -5; C whists A +10`` (``C whists on A 10``), or ``None`` when
    the line is not one of these."""
    parts = [part.split() for part in text.split(";") if part.strip()]
    if not parts or len(parts[0]) < 2 or parts[0][0] not in names or parts[0][1].lower() not in _COLUMNS:
        return None
    form = "A pool +3, B mountain -5 or C whists A +10"
    p = _Parsed()
    p.sheet = []
    for words in parts:
        column = _COLUMNS.get(words[1].lower()) if len(words) > 1 else None
        rest = [w for w in words[2:] if w.lower() not in ("on", "на")]
        if words[0] not in names or column is None:
            raise _fail(f"sheet: cannot read {' '.join(words)!r}; write {form}")
        on = -1
        if column == "whists":
            if len(rest) != 2 or rest[0] not in names or rest[0] == words[0]:
                raise _fail(f"sheet: write whose whists on whom, e.g. C whists A +10, not {' '.join(words)!r}")
            on = names.index(rest[0])
            rest = rest[1:]
        if len(rest) != 1:
            raise _fail(f"sheet: cannot read {' '.join(words)!r}; write {form}")
        p.sheet.append((column, names.index(words[0]), _amount(rest[0], f"sheet: {words[0]} {column}"), on))
    return p


def _talon(text: str) -> tuple[int, ...]:
    """The two talon cards (for the dealer's «проданные тузы», rules.md §9.3)."""
    try:
        cards = tuple(int(c) for c in parse_cards(text))
    except PreferansError as e:
        raise _fail(f"talon: {e}") from None
    if len(cards) != 2:
        raise _fail(f"talon: two cards, not {len(cards)}")
    return cards


def _contract(text: str) -> Contract:
    try:
        return Contract.parse(text)
    except PreferansError as e:
        raise _fail(f"game: {e}") from None


def parse_line(text: str, pulka: Pulka) -> _Parsed:
    """Read one compact line (see the module docstring)."""
    tokens = text.split()
    if not tokens:
        raise _fail("empty line")
    head = tokens[0].lower()
    names = pulka.names
    if head in _VOID:
        return _void_line(tokens[1:], names)
    if head in _PENALTY:
        return _penalty_line(tokens[1:], names)
    sheet = _sheet_text(text, names)
    if sheet is not None:
        return sheet
    return _LineReader(pulka).read(tokens)


def _void_line(tokens: Sequence[str], names: tuple[str, ...]) -> _Parsed:
    """``void [OFFENDER] [@DEALER]`` — a misdeal, dealt again (seed-002 p.12)."""
    p = _Parsed()
    p.void = True
    for tok in tokens:
        if tok in names:
            p.offender = names.index(tok)
        elif tok.startswith("@") and tok[1:] in names:
            p.dealer = names.index(tok[1:])
        else:
            raise _fail(f"void: cannot read {tok!r}; write 'void' or 'void C' (who dealt out of turn)")
    return p


def _penalty_line(tokens: Sequence[str], names: tuple[str, ...]) -> _Parsed:
    """``penalty A B:52 D:7`` — B writes 52 and D 7 whists on the offender A (Kodeks 3.3.16.3)."""
    if len(tokens) < 2 or tokens[0] not in names:
        raise _fail("penalty: write 'penalty OFFENDER B:52 D:7' (Kodeks 3.3.16.3)")
    p = _Parsed()
    p.offender = names.index(tokens[0])
    p.penalty = {}
    for tok in tokens[1:]:
        writer, sep, amount = tok.partition(":")
        if tok.startswith("@") and tok[1:] in names:
            p.dealer = names.index(tok[1:])
        elif sep and writer in names:
            p.penalty[names.index(writer)] = _whists(amount, f"penalty of {writer}")
        else:
            raise _fail(f"penalty: cannot read {tok!r}; write PLAYER:WHISTS, e.g. B:52")
    return p


class _LineReader:
    """A deal line: its head (``allpass``, or the declarer and the contract), then
    defence calls, tricks and options in any order."""

    def __init__(self, pulka: Pulka) -> None:
        self.pulka = pulka
        self.names = names = pulka.names
        alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        # In гусарик the dummy's tricks may be given too (dummy2): they count for the whister.
        tricks_alt = alt + ("|" + "|".join(_DUMMY_WORDS) if pulka.players == 2 else "")
        self.trick_re = re.compile(rf"^({tricks_alt})[=:]?(\d+)$", re.IGNORECASE)
        self.call_re = re.compile(rf"^({alt}):([^\d]+)(\d*)$")
        self.p = _Parsed()
        self.last_caller: int | None = None  # a bare number after "B:w" is B's tricks

    def read(self, tokens: Sequence[str]) -> _Parsed:
        i = self._head(tokens)
        for tok in tokens[i:]:
            if not (self._call(tok) or self._tricks(tok) or self._number(tok) or self._option(tok)):
                raise _fail(f"cannot read {tok!r} (players: {', '.join(self.names)}; see 'help')")
        return self.p

    def _head(self, tokens: Sequence[str]) -> int:
        """``allpass`` or ``DECLARER CONTRACT``; returns the index of the next token."""
        p, names, first = self.p, self.names, tokens[0]
        if first.lower() in _ALLPASS:
            p.allpass = True
            return 1
        if first not in names:
            raise _fail(f"line: start with the declarer ({', '.join(names)}) or 'allpass', not {first!r}")
        p.declarer = names.index(first)
        if len(tokens) < 2:
            raise _fail("contract: write the game after the declarer, e.g. 'A 7S'")
        text, i = tokens[1], 2
        if i < len(tokens) and text.isdigit() and not self.trick_re.match(tokens[i]):
            text += tokens[i]  # "7 S" / "10 NT"
            i += 1
        p.contract = _contract(text)
        return i

    def _call(self, tok: str) -> bool:
        """``B:w``, ``C:p``, ``C:h`` — with the tricks glued on, ``B:w2``."""
        m = self.call_re.match(tok)
        if not m or self.p.allpass:
            return False
        who = self.names.index(m.group(1))
        call = _CALLS.get(m.group(2).lower())
        if call is None:
            raise _fail(f"defence: {tok!r}: write {m.group(1)}:w (whist), :p (pass) or :h (half)")
        self.p.defence[who] = call
        if m.group(3):
            self.p.tricks[who] = _int(int(m.group(3)), f"tricks of {m.group(1)}", 0, 10)
        self.last_caller = who
        return True

    def _tricks(self, tok: str) -> bool:
        """``B2`` (``B=2``, ``B:2``): B took 2; on a 4-handed all-pass the dealer's talon tricks."""
        m = self.trick_re.match(tok)
        if not m:
            return False
        p = self.p
        word = m.group(1)
        who = DUMMY if word.lower() in _DUMMY_WORDS and self.pulka.players == 2 else self.names.index(word)
        n = int(m.group(2))
        if p.allpass and self.pulka.players == 4 and who == _dealer(p, self.pulka):
            p.dealer_tricks = _int(n, "dealer_tricks", 0, 2)
        else:
            p.tricks[who] = _int(n, f"tricks of {m.group(1)}", 0, 10)
        self.last_caller = None
        return True

    def _number(self, tok: str) -> bool:
        """A bare number: the tricks of the last caller, else of the declarer."""
        if not tok.isdigit():
            return False
        who = self.last_caller if self.last_caller is not None else self.p.declarer
        if who is None:
            raise _fail(f"tricks: whose {tok} tricks? write e.g. A{tok}")
        self.p.tricks[who] = _int(int(tok), f"tricks of {self.names[who]}", 0, 10)
        self.last_caller = None
        return True

    def _option(self, tok: str) -> bool:
        """``@D``, ``x2``, ``-3``, ``-10``, ``open``, ``half``, ``help=C``, ``bomb=A,B``."""
        p, names, low = self.p, self.names, tok.lower()
        if tok.startswith("@") and tok[1:] in names:
            p.dealer = names.index(tok[1:])
        elif low.startswith("dealer=") and tok[7:] in names:
            p.dealer = names.index(tok[7:])
        elif re.fullmatch(r"[x*×]\d+", low):
            p.multiplier = _int(int(low[1:]), "multiplier", 1, 1 << 20)
        elif low in ("-3", "без3", "bez3", "concede3"):
            p.conceded = 3
        elif low in ("-10", "-all", "безвсех", "concede10"):
            p.conceded = 10
        elif low in ("open", "лёжа", "лежа"):
            p.open = True
        elif low in ("quota", "za_svoimi", "засвоими", "за_своими"):
            p.quota = True  # seed-002 p.27: the lone whister writes his quota without play
        elif low in ("half", "пополам"):
            p.misere_half = True
        elif low.startswith("help=") and tok[5:] in names:
            p.help_to = names.index(tok[5:])
        elif low.startswith("bomb=") and all(b in names for b in tok[5:].split(",")):
            p.bombs = tuple(names.index(b) for b in tok[5:].split(","))
        elif low in ("shown", "засветил"):
            p.talon_shown = True
        elif low.startswith("talon="):
            p.talon = _talon(tok[6:].replace(",", " "))
        else:
            return False
        return True


def _dealer(p: _Parsed, pulka: Pulka) -> int:
    return pulka.next_dealer if p.dealer is None else p.dealer


def build_result(p: _Parsed, pulka: Pulka) -> DealResult:
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
            raise _fail("penalty: the offender writes nothing (Kodeks 3.3.16.3)")
        return DealResult(DealKind.PENALTY, n, dealer, offender=p.offender, penalty=p.penalty)
    active = active_seats(dealer, n)
    for s in p.tricks:
        if s not in active:
            raise _fail(
                f"tricks: {names[s]} deals and sits out this deal; "
                + ("write the dealer's talon tricks as dealer_tricks" if p.allpass else "no tricks")
            )
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
        raise _fail(f"declarer: {names[decl]} deals and sits out this deal")
    defenders = defenders_of(active, decl)
    if n == 4 and dealer in p.defence:
        # "D:w" — the dealer sitting out whists (dealer_whist, rules.md §5.6).
        if p.defence.pop(dealer) is not DefenceCall.WHIST:
            raise _fail(f"defence: {names[dealer]} deals; the dealer only whists (D:w) or says nothing")
        p.dealer_whist = True
    for s in p.defence:
        if s not in defenders:
            raise _fail(f"defence: {names[s]} is not an opponent of {names[decl]} in this deal")
    if contract.is_misere:
        if p.defence:
            raise _fail("defence: nobody whists on a misère (Kodeks 3.8.2)")
        tricks = dict(p.tricks)
        if len(tricks) >= 2:
            tricks = _complete(tricks, active, 10, names)
        if decl not in tricks:
            raise _fail(f"tricks: how many tricks did {names[decl]} take on the misère?")
        return DealResult(
            DealKind.MISERE, n, dealer, decl, contract, tricks=tricks,
            misere_half=p.misere_half, multiplier=p.multiplier, talon=p.talon,
        )  # fmt: skip
    defence = {d: p.defence.get(d, DefenceCall.PASS) for d in defenders} if p.defence else {}
    checked = contract.level == 10 and not p.defence and not p.conceded
    if checked and not pulka.rules.tens_checked:
        raise _fail("defence: ten_mode is 'whisted': write the defenders' calls on a 10-game")
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
            raise _fail(
                f"defence: write the opponents' calls ({names[defenders[0]]}:w/p/h, "
                f"{names[defenders[1]]}:w/p/h) or the tricks"
            )
    lone = [d for d, v in defence.items() if v is DefenceCall.WHIST]
    za_svoimi = kind is DealKind.NOT_PLAYED and len(lone) == 1
    if za_svoimi and not pulka.rules.za_svoimi:
        raise _fail(
            f"defence: {names[lone[0]]} whists alone and no tricks are written; «за своими» (the lone "
            f"whister writes his quota without play, seed-002 p.27) is off at this table (za_svoimi=false): "
            f"write the tricks, e.g. {names[lone[0]]}2"
        )
    if za_svoimi and not p.quota:
        raise ConfirmationNeeded(
            f"defence: {names[lone[0]]} whists alone and no tricks are written: add 'quota' if it was "
            f"«за своими» ({names[lone[0]]} writes his quota without play), or write the tricks"
        )
    if p.quota and not za_svoimi:
        raise _fail("quota: «за своими» is a lone whist (one whist, one pass) with no tricks written")
    return DealResult(
        kind, n, dealer, decl, contract, defence=defence, open_play=p.open, tricks=tricks,
        ten_checked=checked, za_svoimi=za_svoimi,
        conceded=p.conceded, multiplier=p.multiplier, talon=p.talon, misere_half=p.misere_half,
        dealer_whist=p.dealer_whist, talon_shown_by_dealer=p.talon_shown,
    )  # fmt: skip


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
        raise _fail(f"tricks: give the tricks of all but one of the players (missing {who})")
    if missing:
        if given > total:
            raise _fail(f"tricks: {given} tricks given, but a deal has only {total}")
        return {**tricks, missing[0]: total - given}
    if given != total:
        got = ", ".join(f"{names[s]} {t}" for s, t in sorted(tricks.items()))
        raise _fail(f"tricks: they must sum to {total}, not {given} ({got})")
    return tricks
