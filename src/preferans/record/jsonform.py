"""The JSON twin of the text form: the same content, for the web and other programs.

>>> from preferans.rules import Rules
>>> from preferans.record.model import GameRecord
>>> rec = GameRecord(players=("A", "B", "C"), rules=Rules.preset("rostov"))
>>> data = to_json(rec)
>>> data["format"], data["players"], from_json(data) == rec
('preferans-record', ['A', 'B', 'C'], True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..actions import Action
from ..cards import Card, format_hand
from ..errors import PreferansError
from ..rules import PRESETS, Rules
from ..scoring.sheet import COLUMNS, Entry
from ..seats import active_seats, seat_count
from .model import STAGES, DealRecord, GameRecord, RecordError, seat_names
from .textform import _read_cards

__all__ = ["FORMAT", "from_json", "to_json"]

FORMAT = "preferans-record"
VERSION = 1


def _amount(x: int | Fraction) -> int | str:
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else str(x)
    return x


def to_json(record: GameRecord) -> dict[str, Any]:
    """The record as plain JSON values (see docs/record-format.md, "JSON")."""
    names = record.players
    return {
        "format": FORMAT,
        "version": VERSION,
        "headers": dict(record.headers),
        "players": list(names),
        "first_dealer": names[record.first_dealer],
        "scoring": "pulka" if record.scored else "none",
        "stopped": record.stopped,
        "rules": record.rules.to_dict(),
        "deals": [_deal_json(d, names) for d in record.deals],
    }


def _deal_json(d: DealRecord, names: tuple[str, ...]) -> dict[str, Any]:
    if d.sheet:  # lines written by hand: no cards
        sheet: dict[str, Any] = {"sheet": True, "score": _entries_json(d.entries or (), names)}
        if d.comment:
            sheet["comment"] = d.comment
        return sheet
    hands = {}
    for s in d.active:
        known = format_hand(d.hands[s], grouped=True) if d.hands[s] else ""
        hands[seat_names(names)[s]] = " ".join(filter(None, [known, *(["??"] * d.unknown[s])])) or "-"
    out: dict[str, Any] = {
        "dealer": names[d.dealer],
        "min_level": d.min_level,
        "hands": hands,
        "talon": [None if c is None else str(c) for c in d.talon],
        "actions": [
            _action_json(d, i, a, st, names) for i, (a, st) in enumerate(zip(d.actions, d.stages, strict=True))
        ],
        "score": None if d.entries is None else _entries_json(d.entries, names),
    }
    if d.help_to is not None:
        out["help"] = names[d.help_to]
    if d.comment:
        out["comment"] = d.comment
    return out


def _action_json(d: DealRecord, i: int, a: Action | None, stage: str, names: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"stage": stage, "action": None if a is None else str(a)}
    out["id"] = None if a is None else int(a)
    actor = d.actor(i)
    if actor is not None:
        out["by"] = names[actor]  # a report or a claim: who made it
    return out


def from_json(data: Any, *, source: str = "<json>") -> GameRecord:
    """Read the JSON twin; raises :class:`RecordError` naming the field (JSON has no lines)."""
    path = "record"
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"format: not a preferans record (format must be {FORMAT!r})")
        if data.get("version", VERSION) != VERSION:
            raise RecordError(f"version: this reader reads version {VERSION}, not {data.get('version')!r}")
        names = tuple(str(n) for n in data["players"])
        if len(names) not in (2, 3, 4) or len(set(names)) != len(names):
            raise RecordError(f"players: give 2, 3 or 4 distinct names, not {list(names)}")
        rules_data = dict(data.get("rules") or {})
        name = str(rules_data.get("name", "sochi"))
        rules = Rules.from_dict(rules_data, base=PRESETS.get(name, PRESETS["sochi"]))
        first = data.get("first_dealer", names[0])
        deals = []
        for i, dj in enumerate(data.get("deals", []), 1):
            path = f"deals[{i - 1}]"
            deals.append(_deal_from_json(dj, names, path))
        return GameRecord(
            players=names,
            rules=rules,
            deals=tuple(deals),
            headers={str(k): str(v) for k, v in (data.get("headers") or {}).items()},
            first_dealer=_seat(first, names, "first_dealer"),
            scored=data.get("scoring", "pulka") != "none",
            stopped=bool(data.get("stopped", False)),
        )
    except RecordError as e:
        raise RecordError(f"{path}: {e.reason}" if path != "record" else e.reason, source=source) from None
    except PreferansError as e:
        raise RecordError(f"{path}: {e}", source=source) from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise RecordError(f"{path}: missing or bad field ({e!r})", source=source) from None


def _seat(name: Any, names: tuple[str, ...], what: str) -> int:
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(names):
        return name
    if name in names:
        return names.index(name)
    raise RecordError(f"{what}: {name!r} is not a player ({', '.join(names)})")


def _entries_json(entries: tuple[Entry, ...], names: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            "player": names[e.player],
            "column": e.column,
            "on": names[e.on] if e.column == "whists" else None,
            "amount": _amount(e.amount),
            "why": e.why,
        }
        for e in entries
    ]


def _entries_from_json(score: Any, names: tuple[str, ...]) -> list[Entry]:
    entries = []
    for k, ej in enumerate(score):
        col = ej["column"]
        if col not in COLUMNS:
            raise RecordError(f"score[{k}].column: {col!r} is not pool, mountain or whists")
        fr = Fraction(str(ej["amount"]))
        amount: int | Fraction = fr.numerator if fr.denominator == 1 else fr
        on = _seat(ej["on"], names, f"score[{k}].on") if col == "whists" else -1
        player = _seat(ej["player"], names, f"score[{k}].player")
        entries.append(Entry(col, player, amount, on, str(ej.get("why", ""))))
    return entries


def _deal_from_json(dj: dict[str, Any], names: tuple[str, ...], path: str) -> DealRecord:
    n = len(names)
    if dj.get("sheet") is True:
        return DealRecord(players=n, dealer=0, hands=(0,) * n, talon=(), sheet=True,
                          entries=tuple(_entries_from_json(dj.get("score") or [], names)),
                          comment=str(dj.get("comment", "")))  # fmt: skip
    dealer = _seat(dj["dealer"], names, "dealer")
    active = active_seats(dealer, n)
    masks, unknown = [0] * seat_count(n), [0] * seat_count(n)
    for who, text in dj["hands"].items():
        s = _seat(who, seat_names(names), "hands")
        if s not in active:
            raise RecordError(f"hands: {who} deals and holds no cards")
        masks[s], unknown[s] = _read_cards(str(text), f"hand of {who}")
    talon = tuple(None if c in (None, "??") else Card.parse(c) for c in dj["talon"])
    if len(talon) != 2:
        raise RecordError(f"talon: give 2 cards, not {len(talon)}")
    actions: list[Action | None] = []
    stages: list[str] = []
    reporters: list[tuple[int, int]] = []
    for k, aj in enumerate(dj.get("actions", [])):
        if aj.get("by") is not None:
            reporters.append((k, _seat(aj["by"], names, f"actions[{k}].by")))
        st = aj["stage"]
        if st not in STAGES:
            raise RecordError(f"actions[{k}].stage: {st!r} is not one of {', '.join(STAGES)}")
        if aj.get("id") is not None:
            a: Action | None = Action(int(aj["id"]))
        elif aj.get("action") in (None, "??"):
            a = None
        else:
            a = Action.parse(str(aj["action"]), bid=st in ("auction", "contract"))
        actions.append(a)
        stages.append(st)
    entries = None if dj.get("score") is None else _entries_from_json(dj["score"], names)
    help_to = _seat(dj["help"], names, "help") if dj.get("help") is not None else None
    return DealRecord(
        players=n,
        dealer=dealer,
        hands=tuple(masks),
        talon=talon,
        actions=tuple(actions),
        stages=tuple(stages),
        entries=None if entries is None else tuple(entries),
        unknown=tuple(unknown),
        min_level=int(dj.get("min_level", 6)),
        help_to=help_to,
        comment=str(dj.get("comment", "")),
        reporters=tuple(reporters),
    )
