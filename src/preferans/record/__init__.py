"""Game records: a whole pulka (or a set of deals) as text or JSON, read, written and replayed.

The text form (``docs/record-format.md``) is a line format in the spirit of
PGN: a header with the players, the complete rules, event and date; then each
deal with the dealer, the hands and talon (``??`` for unseen cards), every
action in order on its stage's line, the play trick by trick and the sheet
entries.  Its JSON twin holds the same content.

>>> from preferans import Deal, Rules
>>> from preferans.record import dumps, loads, record_from_deal
>>> deal = Deal.new(Rules.preset("sochi"), seed=7)
>>> for a in ("pass", "pass", "pass"):
...     deal.apply(a)
>>> rec = record_from_deal(deal, names=("Anna", "Boris", "Vera"))
>>> text = dumps(rec)
>>> print(text.split("rule ")[0] + "…")
%preferans-record 1
players: Anna, Boris, Vera
first_dealer: Anna
scoring: none
rules: sochi
…
>>> loads(text) == rec and loads(dumps(rec, format="json")) == rec
True
>>> loads(text.replace("auction: pass pass pass", "auction: 6♠ 6♠ pass pass"), source="x.prf")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
preferans.errors.RecordError: x.prf:...: 6♠: insufficient bid 6♠: ...
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from .build import deal_record, record_from_deal, record_from_deals, record_from_pulka, record_from_table
from .jsonform import from_json, to_json
from .model import HEADER_ORDER, STAGES, DealRecord, GameRecord, RecordError
from .playback import Replay, complete_cards, replay, replay_deal, states
from .textform import MAGIC, read_text, read_texts, write_text

__all__ = [
    "HEADER_ORDER",
    "MAGIC",
    "STAGES",
    "DealRecord",
    "GameRecord",
    "RecordError",
    "Replay",
    "check",
    "complete_cards",
    "deal_record",
    "dump",
    "dumps",
    "from_json",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "record_from_deal",
    "record_from_deals",
    "record_from_pulka",
    "record_from_table",
    "replay",
    "replay_deal",
    "states",
    "to_json",
]


def dumps(record: GameRecord, *, format: str = "text") -> str:
    """The record as text (``format="text"``) or as its JSON twin (``"json"``)."""
    if format == "text":
        return write_text(record)
    if format == "json":
        return json.dumps(to_json(record), ensure_ascii=False) + "\n"
    raise RecordError(f"format: write 'text' or 'json', not {format!r}")


def dump(record: GameRecord, file: str | os.PathLike[str] | IO[str], *, format: str | None = None) -> None:
    """Write to a path or an open text file; a path ending in ``.json`` gets the JSON twin."""
    if isinstance(file, (str, os.PathLike)):
        fmt = format or ("json" if str(file).lower().endswith(".json") else "text")
        Path(file).write_text(dumps(record, format=fmt), encoding="utf-8")
    else:
        file.write(dumps(record, format=format or "text"))


def check(record: GameRecord, *, source: str = "<string>") -> Replay:
    """Replay the record through the engine (strict): every action legal, every sheet entry right."""
    return replay(record, source=source)


def _is_json(text: str) -> bool:
    return text.lstrip()[:1] == "{"


def loads(text: str, *, source: str = "<string>", lenient: bool = False, check: bool = True) -> GameRecord:
    """Read one record from text or JSON (told apart by the first character).

    Strict by default: the first problem raises :class:`RecordError`
    (``source:line: reason``).  ``lenient=True`` keeps going and collects the
    problems on ``record.errors``.  ``check=True`` also replays every deal
    through the engine and the sheet through a :class:`~preferans.Pulka`.
    """
    if _is_json(text):
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e.msg}", source=source, line=e.lineno) from None
        record = from_json(data, source=source)
    else:
        record = read_text(text, source=source, lenient=lenient)
    if check:
        replay(record, source=source, errors=record.errors if lenient else None)
    return record


def loads_all(text: str, *, source: str = "<string>", lenient: bool = False, check: bool = True) -> list[GameRecord]:
    """Every record of a text (records follow one another) or a JSON list of records."""
    if _is_json(text) or text.lstrip()[:1] == "[":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e.msg}", source=source, line=e.lineno) from None
        items = data if isinstance(data, list) else [data]
        records = [from_json(x, source=source) for x in items]
    else:
        records = read_texts(text, source=source, lenient=lenient)
    if check:
        for r in records:
            replay(r, source=source, errors=r.errors if lenient else None)
    return records


def _read(file: str | os.PathLike[str] | IO[str]) -> tuple[str, str]:
    if isinstance(file, (str, os.PathLike)):
        try:
            return Path(file).read_text(encoding="utf-8"), str(file)
        except FileNotFoundError:
            raise RecordError("no such file", source=str(file)) from None
        except UnicodeDecodeError as e:
            raise RecordError(f"not UTF-8 text ({e.reason})", source=str(file)) from None
    return file.read(), getattr(file, "name", "<stream>")


def load(file: str | os.PathLike[str] | IO[str], *, lenient: bool = False, check: bool = True) -> GameRecord:
    """Read one record from a path or an open text file (see :func:`loads`)."""
    text, source = _read(file)
    return loads(text, source=source, lenient=lenient, check=check)


def load_all(file: str | os.PathLike[str] | IO[str], *, lenient: bool = False, check: bool = True) -> list[GameRecord]:
    """Every record of a file (see :func:`loads_all`)."""
    text, source = _read(file)
    return loads_all(text, source=source, lenient=lenient, check=check)
