"""Score sheets of games played with real cards, kept on the server (the ``/score`` page).

A sheet is the score keeper's game (:class:`~preferans.scoring.scorekeeper.ScoreKeeper`): its
header (rules, players, first dealer) and the deals as they were typed, each a line of the
keeper's own syntax (``Аня 6♠ вист Боря пас Вася, 6 взяток``) and the players' «за своими».
Every change is one write of the whole list, checked against the version the editor saw, so a
phone that lost its connection and sends its deal again is told that the sheet moved on instead
of writing the deal twice.  The sheet itself is never stored: it is the lines written again
(:meth:`ScoreKeeper.replay`), so a correction of an early deal rewrites every later one.

The editor holds a secret key (its hash is stored); anyone with the sheet's id reads it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update

from ..i18n import Translator, preset_name, text
from ..rules import Rules
from ..scoring.scorekeeper import ScoreKeeper
from ..scoring.sheet import paper_amount, signed_amount
from ..scoring.text_sheet import entry_text, running_text, settlement_rows
from .storage import Storage

__all__ = ["MAX_DEALS", "MAX_LINE", "ScoreSheets", "SheetRow", "keeper_of", "key_hash", "new_keeper", "sheet_state"]

MAX_LINE = 300
"""Characters of one typed deal."""
MAX_DEALS = 400
"""Deals of one sheet (a long evening is under a hundred)."""

_meta = MetaData()

score_sheets = Table(
    "pref_score_sheets",
    _meta,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("header", Text, nullable=False),  # JSON: ScoreKeeper.header() (rules, players, first dealer)
    Column("lines", Text, nullable=False),  # JSON: [[typed line, «за своими»], ...]
    Column("version", Integer, nullable=False),  # one more at every change
)


@dataclass(frozen=True)
class SheetRow:
    id: str
    header: dict[str, Any]
    lines: list[tuple[str, bool]]
    version: int
    key_hash: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ScoreSheets:
    """The sheets' table in the server's database (its own table, created on first use)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        storage.create_tables(_meta)

    def create(self, header: dict[str, Any]) -> tuple[str, str]:
        """A new empty sheet: its id and the editor's key."""
        sheet_id, key = secrets.token_hex(8), secrets.token_urlsafe(18)
        now = time.time()
        # The server's own writer turn (SQLite takes one writer at a time: storage.Storage._write).
        with self.storage._write() as c:
            c.execute(insert(score_sheets).values(id=sheet_id, created=now, updated=now, key_hash=key_hash(key),
                                                  header=json.dumps(header, ensure_ascii=False), lines="[]",
                                                  version=0))  # fmt: skip
        return sheet_id, key

    def get(self, sheet_id: str) -> SheetRow | None:
        with self.storage.engine.connect() as c:
            row = c.execute(select(score_sheets).where(score_sheets.c.id == sheet_id[:32])).first()
        if row is None:
            return None
        lines = [(str(t), bool(q)) for t, q in json.loads(row.lines)]
        return SheetRow(row.id, json.loads(row.header), lines, int(row.version), str(row.key_hash))

    def version(self, sheet_id: str) -> int | None:
        with self.storage.engine.connect() as c:
            v = c.execute(select(score_sheets.c.version).where(score_sheets.c.id == sheet_id[:32])).scalar()
        return None if v is None else int(v)

    def put(self, sheet_id: str, lines: list[tuple[str, bool]], seen: int) -> bool:
        """Write the sheet's lines if it is still at version ``seen``; False if it moved on."""
        with self.storage._write() as c:
            done = c.execute(
                update(score_sheets)
                .where((score_sheets.c.id == sheet_id) & (score_sheets.c.version == seen))
                .values(lines=json.dumps([[t, q] for t, q in lines], ensure_ascii=False), version=seen + 1,
                        updated=time.time())
            ).rowcount
        return bool(done)

    @staticmethod
    def may_edit(row: SheetRow, key: str | None) -> bool:
        return bool(key) and hmac.compare_digest(row.key_hash, key_hash(key or ""))


_KEEPERS: OrderedDict[tuple[str, int], ScoreKeeper] = OrderedDict()
_KEEPERS_LOCK = threading.Lock()


def new_keeper(header: dict[str, Any]) -> ScoreKeeper:
    """An empty game of a sheet's header (:meth:`ScoreKeeper.header`)."""
    return ScoreKeeper(Rules.from_dict(header["rules"]), list(header["players"]), header.get("first_dealer", 0))


def keeper_of(row: SheetRow) -> ScoreKeeper:
    """The sheet's game, its deals written again (the last few kept, by version: only read,
    never changed — a change writes a new game)."""
    at = (row.id, row.version)
    with _KEEPERS_LOCK:
        keeper = _KEEPERS.get(at)
        if keeper is not None:
            _KEEPERS.move_to_end(at)
            return keeper
    keeper = new_keeper(row.header)
    keeper.replay(row.lines)
    with _KEEPERS_LOCK:
        _KEEPERS[at] = keeper
        while len(_KEEPERS) > 64:
            _KEEPERS.popitem(last=False)
    return keeper


def sheet_state(row: SheetRow, lang: str, *, can_edit: bool) -> dict[str, Any]:
    """Everything the page shows, its words in ``lang``: the deals (as typed, and what each
    wrote), who deals next, the running totals and the settlement in whole whists."""
    keeper = keeper_of(row)
    t = Translator(lang)
    p = keeper.pulka
    names = keeper.names
    r = p.rules
    deals = [
        {"n": i, "text": typed, "quota": quota, "label": text(d.label, lang), "dealer": names[d.dealer],
         "written": " · ".join(entry_text(e, names, lang) for e in d.entries) or "—"}
        for i, ((typed, quota), d) in enumerate(zip(row.lines, p.sheet.history, strict=True))
    ]  # fmt: skip
    status = [t("deal {n}", n=len(deals) + 1), t("dealer {name}", name=names[p.next_dealer])]
    if p.raspas_series:
        status.append(t("all-pass step {n}", n=p.raspas_step))
    if p.min_level > 6:
        status.append(t("min game {n}", n=p.min_level))
    settlement = p.settlement()
    head, rows, foot = settlement_rows(p.sheet, r, settlement, lang)
    totals = [
        {"name": n, "pool": running_text(p.sheet.running("pool", i)),
         "mountain": running_text(p.sheet.running("mountain", i)),
         "whole": signed_amount(settlement.whole[i]), "exact": paper_amount(settlement.rounded[i])}
        for i, n in enumerate(names)
    ]  # fmt: skip
    return {
        "id": row.id,
        "version": row.version,
        "can_edit": can_edit,
        "names": list(names),
        "title": t("Pulka: {rules}, {players} players, pool {pool}, {deals}", rules=preset_name(r.name, lang),
                   players=len(names), pool=r.pool_target,
                   deals=t.n("{n} deal", "{n} deals", len(deals))),
        "rules": {"name": r.name, "pool_target": r.pool_target},
        "dealer": names[p.next_dealer],
        "status": ", ".join(status),
        "over": p.is_over,
        "deals": deals,
        "totals": totals,
        "settlement": {"head": head, "rows": [[label, cells] for label, cells in rows], "foot": foot},
    }

