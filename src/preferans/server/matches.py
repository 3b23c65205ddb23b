"""Duplicate matches: the same deals at several tables, compared deal by deal.

A match is 2 to :data:`MAX_TABLES` tables with one set of rules and one table size
(3 or 4 players, or гусарик); every table is an ordinary table of the server, played
through the one game loop, whose config carries the match's ``deal_seed``: deal *k* is
shuffled from the same seed at each table (:meth:`preferans.table.Table.deal_seed`) and
the dealer turns the same way, so seat *s* holds the same hand at every table.  Each
table has its own players, people and bots; nobody may sit at two tables of one match
(he would know the cards).  :func:`comparison` replays each table's stored deals and
sets, for every deal finished at all tables, what each seat scored there (the deal's
worth in whists on the final settlement, rules.md §11.2) beside what the same seat
scored with the same cards at the other tables; a seat's *gain* is its score less the
average of that seat at all tables — the luck of the cards taken out.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from ..i18n import LANGS, text
from ..record.jsonform import from_json
from ..scoring.settlement import entries_net
from ..table import Table, parse_seats
from .archive import archived_table
from .game import GameError, TableGame
from .storage import Storage

__all__ = ["MAX_TABLES", "comparison", "match_tables", "whists"]

MAX_TABLES = 4


def match_tables(body: dict[str, Any], players: int) -> list[list[dict[str, Any]]]:
    """The seats of each table of a match request (``tables``: a list of seat lists), checked:
    2 to 4 tables, a seat spec per player at each, the creator's seat 1 at the first a person.

    >>> match_tables({"tables": [[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]]}, 3)
    Traceback (most recent call last):
    ...
    preferans.errors.GameError: tables: a duplicate match needs 2 to 4 tables (the same deals at each), not 1
    """
    tables = body.get("tables")
    if not isinstance(tables, list):
        raise GameError("bad_match", "tables: a list of tables, each a list of seats {kind: 'human'|'bot', level}")
    if not 2 <= len(tables) <= MAX_TABLES:
        raise GameError("bad_match", f"tables: a duplicate match needs 2 to {MAX_TABLES} tables (the same deals "
                        f"at each), not {len(tables)}")  # fmt: skip
    out = []
    for k, seats in enumerate(tables, 1):
        if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, dict) for s in seats):
            raise GameError("bad_match", f"tables[{k}]: one seat per player ({players}), each {{kind, level}}")
        out.append(list(seats))
    if out[0][0].get("kind", "human") != "human":
        raise GameError("bad_match", "tables[1]: seat 1 is yours (you play at the first table)")
    return out


def whists(x: Fraction) -> str:
    """A score in whists as players read it: signed, to one decimal where it is a fraction.

    >>> whists(Fraction(16, 3)), whists(Fraction(-8)), whists(Fraction(0))
    ('+5.3', '−8', '0')
    """
    if x == 0:
        return "0"
    s = f"{abs(float(x)):.1f}".removesuffix(".0") if x.denominator != 1 else str(abs(x.numerator))
    return ("+" if x > 0 else "−") + s


TableDeals = tuple[dict[str, Any], list[dict[str, Any]], list[list[Fraction]]]


def _table_deals(storage: Storage, table_id: str) -> TableDeals:
    """A table's seats and status, and each finished deal: its seed, dealer, label and worth per seat."""
    archived = _archived(storage, table_id)
    if archived is not None:
        return archived
    game = TableGame.load(storage, table_id)  # a read-only replay of the stored deals (no lease, no bot programs)
    if game is None:
        raise GameError("no_table", f"no table {table_id!r}")
    try:
        info = {"id": table_id, "status": "finished" if game.finished else ("playing" if game.deal else "waiting"),
                "seats": [{"name": s.name, "kind": s.kind, "level": s.level, "taken": s.taken} for s in game.seats],
                "deals": game.deal_no}  # fmt: skip
        deals, nets = _scored(game.table)
        return info, deals, nets
    finally:
        game.close()


def _scored(table: Table | None) -> tuple[list[dict[str, Any]], list[list[Fraction]]]:
    """Each finished deal of ``table``: its seed, dealer and label, and its worth per seat."""
    deals: list[dict[str, Any]] = []
    nets: list[list[Fraction]] = []
    if table is not None:
        players = len(table.pulka.names)
        for k, score in enumerate(table.scores):
            deals.append({"seed": table.log[k].seed, "dealer": score.dealer,
                          "label": {lang: text(score.label, lang) for lang in LANGS}})  # fmt: skip
            nets.append(list(entries_net(score.entries, players, table.rules)))
    return deals, nets


def _archived(storage: Storage, table_id: str) -> TableDeals | None:
    """An archived table of the match (the retention rule removed its live state): its deals
    replayed from the record it kept — the match page keeps comparing it."""
    kept = archived_table(storage, table_id)  # no DDL here: the comparison runs once a second a match
    if kept is None or kept.record is None:
        return None
    record = from_json(kept.record, source=f"table {table_id}")
    # An abandoned table's record ends with the deal it stopped in: only whole deals are compared.
    record = dataclasses.replace(record, deals=tuple(d for d in record.deals if d.complete))
    table = Table.from_record(record)
    specs = parse_seats(record.headers.get("seats") or ",".join(["human"] * len(record.players)))
    info = {"id": table_id, "status": "finished" if kept.reason == "finished" else "archived",
            "seats": [{"name": name, "kind": "bot" if spec.startswith(("bot:", "cmd:")) else "human",
                       "level": spec.partition(":")[2] or None, "taken": True}
                      for name, spec in zip(record.players, specs, strict=False)],
            "deals": len(record.deals)}  # fmt: skip
    deals, nets = _scored(table)
    return info, deals, nets


def comparison(storage: Storage, config: dict[str, Any], table_ids: list[str]) -> dict[str, Any]:
    """The match deal by deal: what each table's seats scored with the same cards, the totals over
    the deals finished at every table, and each seat's gain against that seat's average."""
    infos, all_deals, all_nets = [], [], []
    for number, tid in enumerate(table_ids, 1):
        info, deals, nets = _table_deals(storage, tid)
        infos.append({**info, "number": number})
        all_deals.append(deals)
        all_nets.append(nets)
    common = min((len(d) for d in all_deals), default=0)
    longest = max((len(d) for d in all_deals), default=0)
    seats = int(config["players"])
    totals = [[Fraction(0)] * seats for _ in table_ids]
    rows = []
    for k in range(longest):
        row: dict[str, Any] = {"number": k + 1, "complete": k < common, "tables": []}
        for t, deals in enumerate(all_deals):
            if k < len(deals):
                row["tables"].append({"label": deals[k]["label"], "dealer": deals[k]["dealer"],
                                      "nets": [whists(x) for x in all_nets[t][k]]})  # fmt: skip
            else:
                row["tables"].append(None)
        if k < common:
            same = len({deals[k]["seed"] for deals in all_deals}) == 1
            row["same_cards"] = same
            gains = []
            for t in range(len(table_ids)):
                for s in range(seats):
                    totals[t][s] += all_nets[t][k][s]
            for t in range(len(table_ids)):
                gains.append([whists(all_nets[t][k][s] - _mean(all_nets, k, s)) for s in range(seats)])
            row["gains"] = gains
        rows.append(row)
    means = [sum((totals[t][s] for t in range(len(table_ids))), Fraction(0)) / len(table_ids) for s in range(seats)]
    return {
        "players": config["players"], "rules": config["rules"], "pool": config["pool"], "tables": infos,
        "deals": rows, "compared": common,
        "totals": [[whists(x) for x in row] for row in totals],
        "gains": [[whists(totals[t][s] - means[s]) for s in range(seats)] for t in range(len(table_ids))],
        "gain_values": [[float(totals[t][s] - means[s]) for s in range(seats)] for t in range(len(table_ids))],
    }  # fmt: skip


def _mean(nets: list[list[list[Fraction]]], k: int, seat: int) -> Fraction:
    return sum((table[k][seat] for table in nets), Fraction(0)) / len(nets)
