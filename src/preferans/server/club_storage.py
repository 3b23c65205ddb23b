"""The club's tables in the server's database: accounts, sessions, the seats they hold,
finished pulkas and each player's history, ratings and their history, duplicate matches.

SQLAlchemy 2 Core on the engine of :class:`~preferans.server.storage.Storage` (SQLite or
PostgreSQL, the cluster too): a table of its own per idea, created beside the game's.
Blocking, like :class:`Storage`: the server calls it from threads.

The end of a pulka is written once, whichever process writes it: the finished game's row
(``pref_club_games``, keyed by the table) is inserted in the same transaction as the
players' history and their new ratings, and a second attempt meets the primary key.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .buckets import refilled
from .storage import Storage
from .storage import seats as seat_rows
from .storage import tables as table_rows

__all__ = ["Account", "ClubStorage", "FinishedGame", "HistoryEntry", "RatingRow", "name_key"]


def name_key(name: str) -> str:
    """An account name as uniqueness sees it: NFKC, case-folded.

    >>> name_key("Анна") == name_key("аННа"), name_key("Ｂｏｒｉｓ")
    (True, 'boris')
    """
    return unicodedata.normalize("NFKC", name).casefold()

club_metadata = MetaData()

accounts = Table(
    "pref_accounts",
    club_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),  # as its owner wrote it
    Column("name_key", String(64), nullable=False, unique=True),  # NFKC, case-folded: one owner per spelling
    Column("password_hash", String(255), nullable=False),  # argon2id, never the password
    Column("created", Float, nullable=False),
)

sessions = Table(
    "pref_sessions",
    club_metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the session id the signed cookie carries
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", Float, nullable=False),
)

sign_in_failures = Table(
    "pref_sign_in_failures",
    club_metadata,
    # Wrong passwords per account name, as a token bucket every process of a cluster shares.
    Column("name_key", String(64), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("at", Float, nullable=False, index=True),  # when tokens was counted (wall clock)
)

club_settings = Table(
    "pref_club_settings",
    club_metadata,
    Column("key", String(32), primary_key=True),
    Column("value", String(255), nullable=False),
)

table_accounts = Table(
    "pref_table_accounts",
    club_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
)

club_tables = Table(
    "pref_club_tables",
    club_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("created", Float, nullable=False, index=True),
    Column("private", Boolean, nullable=False, default=False),
    Column("match_id", String(32), nullable=True, index=True),
    Column("match_table", Integer, nullable=False, default=0),  # 1, 2 … within its match
)

games = Table(
    "pref_club_games",
    club_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("finished", Float, nullable=False),
    Column("rules", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("pool", Integer, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("ending", String(16), nullable=False),  # closed | agreement | deals
    Column("rated", String(32), nullable=False),  # the rating pool, "" when unrated
    Column("spectators", Boolean, nullable=False),  # False: the record and sheet are for its players only
    Column("seats", Text, nullable=False),  # JSON: [{name, kind, level, account, result}]
    Column("record", Text, nullable=False),  # the JSON twin of the game record (our own copy)
)

history = Table(
    "pref_history",
    club_metadata,
    Column("account_id", Integer, primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("finished", Float, nullable=False),
    Column("result", String(32), nullable=False),  # the seat's settlement in whists
    Index("pref_history_by_time", "account_id", "finished"),
)

ratings = Table(
    "pref_ratings",
    club_metadata,
    Column("identity", String(80), primary_key=True),  # "a:{account id}" or "bot:{level}"
    Column("pool", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

rating_history = Table(
    "pref_rating_history",
    club_metadata,
    Column("identity", String(80), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)

matches = Table(
    "pref_matches",
    club_metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("config", Text, nullable=False),  # JSON: rules, players, pool, seed, tables, creator
)


@dataclass(frozen=True)
class Account:
    id: int
    name: str

    @property
    def identity(self) -> str:
        """The account as a rated player."""
        return f"a:{self.id}"


@dataclass(frozen=True)
class HistoryEntry:
    table_id: str
    seat: int
    finished: float
    result: str
    rules: str
    players: int
    pool: int
    deals: int
    ending: str
    rated: str
    seats: list[dict[str, Any]]


@dataclass(frozen=True)
class RatingRow:
    identity: str
    pool: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class FinishedGame:
    """What the club keeps of a finished pulka (:meth:`ClubStorage.finish`)."""

    table_id: str
    rules: str
    players: int
    pool: int
    deals: int
    ending: str
    rated: str  # the rating pool ("" unrated)
    spectators: bool
    seats: list[dict[str, Any]]  # name, kind, level, account (id or None), identity ("" unrated), result
    record: dict[str, Any]


class ClubStorage:
    """Reads and writes of the club, on the game storage's engine (one write at a time on SQLite)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.engine = storage.engine
        storage.create_tables(club_metadata)

    def _insert_ignore(self, table: Table) -> Any:
        """``INSERT … ON CONFLICT DO NOTHING`` in this database's dialect."""
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)

    # -- settings ---------------------------------------------------------------------------
    def secret(self, key: str = "session_secret") -> str:
        """A secret made once for the whole database (every process, every restart reads the same)."""
        with self.storage._write() as c:
            c.execute(self._insert_ignore(club_settings).values(key=key, value=secrets.token_urlsafe(48))
                      .on_conflict_do_nothing())  # fmt: skip
            return str(c.execute(select(club_settings.c.value).where(club_settings.c.key == key)).scalar_one())

    # -- wrong passwords per name ------------------------------------------------------------------
    def sign_in_tokens(self, name_key: str, rate: float, burst: float, now: float) -> float:
        """The wrong passwords ``name_key`` may still be tried with now (a bucket of ``burst``
        refilling at ``rate`` a second)."""
        with self.engine.connect() as c:
            return self._sign_in_tokens(c, select(sign_in_failures), name_key, rate, burst, now)

    def sign_in_failed(self, name_key: str, rate: float, burst: float, now: float) -> None:
        """Take a token from ``name_key``'s bucket (none left: it stays empty); buckets full again
        are forgotten."""
        with self.storage._write() as c:
            q = select(sign_in_failures)
            if self.engine.dialect.name == "postgresql":
                q = q.with_for_update()  # two processes counting the same name: one waits
            left = max(0.0, self._sign_in_tokens(c, q, name_key, rate, burst, now) - 1)
            c.execute(self._insert_ignore(sign_in_failures).values(name_key=name_key, tokens=left, at=now)
                      .on_conflict_do_update(index_elements=[sign_in_failures.c.name_key],
                                             set_={"tokens": left, "at": now}))  # fmt: skip
            if rate > 0:
                c.execute(delete(sign_in_failures).where(sign_in_failures.c.at < now - burst / rate))

    @staticmethod
    def _sign_in_tokens(c: Connection, q: Any, name_key: str, rate: float, burst: float, now: float) -> float:
        row = c.execute(q.where(sign_in_failures.c.name_key == name_key)).first()
        return burst if row is None else refilled(row.tokens, row.at, now, rate, burst)

    # -- accounts and sessions ------------------------------------------------------------------
    def create_account(self, name: str, name_key: str, password_hash: str) -> Account | None:
        """A new account; ``None`` when the name (case-folded) is somebody's already."""
        try:
            with self.storage._write() as c:
                res = c.execute(insert(accounts).values(name=name, name_key=name_key, password_hash=password_hash,
                                                        created=time.time()))  # fmt: skip
                key = res.inserted_primary_key
                assert key is not None
                return Account(int(key[0]), name)
        except IntegrityError:
            return None

    def account_by_key(self, name_key: str) -> tuple[Account, str] | None:
        """The account and its password hash."""
        with self.engine.connect() as c:
            row = c.execute(select(accounts).where(accounts.c.name_key == name_key)).first()
        return None if row is None else (Account(row.id, row.name), row.password_hash)

    def account_named(self, name: str) -> Account | None:
        found = self.account_by_key(name_key(name)[:64])
        return None if found is None else found[0]

    def account(self, account_id: int) -> Account | None:
        with self.engine.connect() as c:
            row = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id == account_id)).first()
        return None if row is None else Account(row.id, row.name)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.storage._write() as c:
            c.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    def add_session(self, id_hash: str, account_id: int) -> None:
        with self.storage._write() as c:
            c.execute(insert(sessions).values(id_hash=id_hash, account_id=account_id, created=time.time()))

    def session_account(self, id_hash: str) -> Account | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(accounts.c.id, accounts.c.name)
                .join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.id_hash == id_hash)
            ).first()
        return None if row is None else Account(row.id, row.name)

    def end_session(self, id_hash: str) -> None:
        with self.storage._write() as c:
            c.execute(sessions.delete().where(sessions.c.id_hash == id_hash))

    # -- tables: seats of accounts, the lobby ----------------------------------------------------
    def register_table(self, table_id: str, private: bool, match_id: str | None = None, match_table: int = 0,
                       bound: dict[int, int] | None = None) -> None:  # fmt: skip
        """A table the lobby knows (listed unless private); ``bound``: seats of accounts (seat → account)."""
        with self.storage._write() as c:
            c.execute(insert(club_tables).values(table_id=table_id, created=time.time(), private=private,
                                                 match_id=match_id, match_table=match_table))  # fmt: skip
            for seat, account_id in (bound or {}).items():
                c.execute(insert(table_accounts).values(table_id=table_id, seat=seat, account_id=account_id))

    def bind_seat(self, table_id: str, seat: int, account_id: int) -> None:
        with self.storage._write() as c:
            c.execute(insert(table_accounts).values(table_id=table_id, seat=seat, account_id=account_id))

    def seat_accounts(self, table_id: str) -> dict[int, int]:
        with self.engine.connect() as c:
            rows = c.execute(select(table_accounts).where(table_accounts.c.table_id == table_id))
            return {r.seat: r.account_id for r in rows}

    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables waiting for players, newest first, with their seats."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_rows.c.id, table_rows.c.config, club_tables.c.created, club_tables.c.match_id,
                       club_tables.c.match_table)
                .join(club_tables, club_tables.c.table_id == table_rows.c.id)
                .where(table_rows.c.status == "waiting", club_tables.c.private.is_(False))
                .order_by(club_tables.c.created.desc())
                .limit(limit)
            ).all()  # fmt: skip
            ids = [r.id for r in rows]
            by_table: dict[str, list[dict[str, Any]]] = {}
            if ids:
                for s in c.execute(select(seat_rows).where(seat_rows.c.table_id.in_(ids)).order_by(seat_rows.c.seat)):
                    by_table.setdefault(s.table_id, []).append({
                        "seat": s.seat, "name": s.name if s.kind == "bot" or s.token_hash else "",
                        "kind": s.kind, "level": s.level, "taken": bool(s.kind == "bot" or s.token_hash)})  # fmt: skip
        out = []
        for r in rows:
            config = json.loads(r.config)
            rules = config["rules"]
            out.append({"id": r.id, "created": r.created, "rules": rules.get("name", "sochi"),
                        "pool": rules.get("pool_target"), "players": config["players"],
                        "match": r.match_id, "match_table": r.match_table,
                        "seats": by_table.get(r.id, [])})  # fmt: skip
        return out

    def club_table(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(select(club_tables).where(club_tables.c.table_id == table_id)).first()
        return None if row is None else dict(row._mapping)

    # -- the end of a pulka: the game, the players' history, the ratings ---------------------------
    def finish(self, game: FinishedGame, rate: Any) -> bool:
        """Write a finished pulka once: its row, a history entry per account, and (when rated) the
        new ratings, ``rate(pool, [(identity, name, mu, sigma, result)…])`` → ``[(mu, sigma)…]``,
        all in one transaction.  False when it was written before (by this or another process)."""
        now = time.time()
        seats_json = json.dumps(game.seats, ensure_ascii=False)
        try:
            with self.storage._write() as c:
                c.execute(insert(games).values(table_id=game.table_id, finished=now, rules=game.rules,
                                               players=game.players, pool=game.pool, deals=game.deals,
                                               ending=game.ending, rated=game.rated, seats=seats_json,
                                               spectators=game.spectators,
                                               record=json.dumps(game.record, ensure_ascii=False)))  # fmt: skip
                seen: set[int] = set()
                for i, s in enumerate(game.seats):
                    if s.get("account") is not None and s["account"] not in seen:
                        seen.add(s["account"])
                        c.execute(insert(history).values(account_id=s["account"], table_id=game.table_id, seat=i,
                                                         finished=now, result=s["result"]))  # fmt: skip
                if game.rated:
                    self._rate(c, game, rate, now)
        except IntegrityError:
            return False
        return True

    def _rate(self, c: Connection, game: FinishedGame, rate: Any, now: float) -> None:
        rated = [s for s in game.seats if s.get("identity")]
        identities = sorted({s["identity"] for s in rated})
        names = {s["identity"]: s["name"] for s in rated}
        from .ratings import START_MU, START_SIGMA

        for ident in identities:  # rows for newcomers first, so that every row below can be locked
            c.execute(self._insert_ignore(ratings).values(identity=ident, pool=game.rated, name=names[ident][:64],
                                                          mu=START_MU, sigma=START_SIGMA, games=0, updated=now)
                      .on_conflict_do_nothing())  # fmt: skip
        q = select(ratings).where(ratings.c.pool == game.rated, ratings.c.identity.in_(identities))
        if self.engine.dialect.name == "postgresql":
            q = q.order_by(ratings.c.identity).with_for_update()  # two tables ending at once: one waits
        current = {r.identity: (r.mu, r.sigma, r.games) for r in c.execute(q)}
        players = [(s["identity"], s["name"], current[s["identity"]][0], current[s["identity"]][1], s["result"])
                   for s in rated]  # fmt: skip
        new: dict[str, list[tuple[float, float]]] = {}
        for (ident, *_), after in zip(players, rate(game.rated, players), strict=True):
            new.setdefault(ident, []).append(after)
        for ident, afters in new.items():
            # The same bot level in two seats: one identity, its seats' changes averaged.
            mu0, _, played = current[ident]
            mu = mu0 + sum(m - mu0 for m, _ in afters) / len(afters)
            sigma = sum(s for _, s in afters) / len(afters)
            name = names[ident][:64] if ident.startswith("a:") else ident
            c.execute(update(ratings).where(ratings.c.identity == ident, ratings.c.pool == game.rated)
                      .values(mu=mu, sigma=sigma, games=played + 1, updated=now, name=name))  # fmt: skip
            c.execute(insert(rating_history).values(identity=ident, pool=game.rated, table_id=game.table_id,
                                                    at=now, mu=mu, sigma=sigma))  # fmt: skip

    def has_game(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(select(games.c.table_id).where(games.c.table_id == table_id)).first() is not None

    def finished(self, table_id: str) -> dict[str, Any] | None:
        """The stored finished game (its record included)."""
        with self.engine.connect() as c:
            row = c.execute(select(games).where(games.c.table_id == table_id)).first()
        if row is None:
            return None
        out = dict(row._mapping)
        out["seats"] = json.loads(out["seats"])
        out["record"] = json.loads(out["record"])
        return out

    def history(self, account_id: int, offset: int = 0, limit: int = 20) -> tuple[list[HistoryEntry], int]:
        """An account's finished pulkas, newest first, and how many there are."""
        with self.engine.connect() as c:
            total = c.execute(select(func.count()).select_from(history)
                              .where(history.c.account_id == account_id)).scalar_one()  # fmt: skip
            rows = c.execute(
                select(history.c.table_id, history.c.seat, history.c.finished, history.c.result, games.c.rules,
                       games.c.players, games.c.pool, games.c.deals, games.c.ending, games.c.rated, games.c.seats)
                .join(games, games.c.table_id == history.c.table_id)
                .where(history.c.account_id == account_id)
                .order_by(history.c.finished.desc(), history.c.table_id)
                .offset(offset).limit(limit)
            ).all()  # fmt: skip
        return [HistoryEntry(r.table_id, r.seat, r.finished, r.result, r.rules, r.players, r.pool, r.deals, r.ending,
                             r.rated, json.loads(r.seats)) for r in rows], int(total)  # fmt: skip

    # -- ratings -------------------------------------------------------------------------------------
    def ratings_of(self, identity: str) -> list[RatingRow]:
        with self.engine.connect() as c:
            rows = c.execute(select(ratings).where(ratings.c.identity == identity).order_by(ratings.c.pool))
            return [RatingRow(r.identity, r.pool, r.name, r.mu, r.sigma, r.games) for r in rows]

    def rating_points(self, identity: str) -> dict[str, list[tuple[float, float, float]]]:
        """Each pool's ratings over time: (when, mu, sigma) after each rated pulka."""
        out: dict[str, list[tuple[float, float, float]]] = {}
        with self.engine.connect() as c:
            rows = c.execute(select(rating_history).where(rating_history.c.identity == identity)
                             .order_by(rating_history.c.pool, rating_history.c.at))  # fmt: skip
            for r in rows:
                out.setdefault(r.pool, []).append((r.at, r.mu, r.sigma))
        return out

    def leaderboard(self, pool: str | None = None, limit: int = 100) -> list[RatingRow]:
        q = select(ratings).where(ratings.c.games > 0)
        if pool:
            q = q.where(ratings.c.pool == pool)
        q = q.order_by(ratings.c.mu.desc(), ratings.c.identity).limit(limit)
        with self.engine.connect() as c:
            return [RatingRow(r.identity, r.pool, r.name, r.mu, r.sigma, r.games) for r in c.execute(q)]

    def rating_pools(self) -> list[str]:
        with self.engine.connect() as c:
            return [r.pool for r in c.execute(select(ratings.c.pool).where(ratings.c.games > 0)
                                              .group_by(ratings.c.pool).order_by(ratings.c.pool))]  # fmt: skip

    def set_rating(self, identity: str, pool: str, name: str, mu: float, sigma: float, games_played: int) -> None:
        """Put a rating as it is (seeding the bots' ratings: ``preferans club rate-bots``)."""
        with self.storage._write() as c:
            c.execute(ratings.delete().where(ratings.c.identity == identity, ratings.c.pool == pool))
            c.execute(insert(ratings).values(identity=identity, pool=pool, name=name, mu=mu, sigma=sigma,
                                             games=games_played, updated=time.time()))  # fmt: skip

    # -- duplicate matches -------------------------------------------------------------------------------
    def create_match(self, match_id: str, config: dict[str, Any]) -> None:
        with self.storage._write() as c:
            c.execute(insert(matches).values(id=match_id, created=time.time(), config=json.dumps(config)))

    def match(self, match_id: str) -> tuple[dict[str, Any], list[str]] | None:
        """The match's config and its tables in order."""
        with self.engine.connect() as c:
            row = c.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None:
                return None
            tables = [r.table_id for r in c.execute(
                select(club_tables.c.table_id).where(club_tables.c.match_id == match_id)
                .order_by(club_tables.c.match_table))]  # fmt: skip
        return json.loads(row.config), tables

    def seated_in(self, table_ids: Iterable[str], token_hashes: Sequence[str], account_id: int | None) -> str | None:
        """The first of ``table_ids`` where one of ``token_hashes`` or the account holds a seat."""
        ids = list(table_ids)
        if not ids:
            return None
        with self.engine.connect() as c:
            if token_hashes:
                row = c.execute(select(seat_rows.c.table_id).where(
                    and_(seat_rows.c.table_id.in_(ids), seat_rows.c.token_hash.in_(list(token_hashes))))).first()
                if row is not None:
                    return str(row.table_id)
            if account_id is not None:
                row = c.execute(select(table_accounts.c.table_id).where(
                    and_(table_accounts.c.table_id.in_(ids), table_accounts.c.account_id == account_id))).first()
                if row is not None:
                    return str(row.table_id)
        return None
