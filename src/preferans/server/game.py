"""One table on the server: seats, tokens and storage around the one game loop.

:class:`TableGame` is a thin layer over :class:`preferans.table.Table` (the game
loop the terminal plays too): it adds the seats' secret tokens, storage and the
server's error codes.  Every move is verified by the table, committed to
storage, and only then made — so a move that cannot be stored is not made, and a
crash never loses a move a player saw acknowledged.  It is synchronous and knows
nothing about sockets: the hub (:mod:`preferans.server.hub`) calls it and sends
the frames.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..bots import LEVELS
from ..engine.deal import Deal
from ..errors import GameError, GameOver, PreferansError
from ..i18n import LANGS, Translator
from ..option_words import choice_name, option_name
from ..record import to_json
from ..rules import CHOICES, Rules
from ..scoring.pulka import Pulka
from ..seats import name_problem
from ..table import Rulings, Table
from .storage import SeatRow, Storage, move_row

__all__ = ["GameError", "PlannedMove", "Seat", "TableConfig", "TableGame", "bot_levels", "hash_token", "parse_programs"]



def hash_token(token: str) -> str:
    """Only the hash of a seat token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    seat: int
    name: str
    kind: str  # "human" | "bot"
    level: str = ""
    token_hash: str = ""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or bool(self.token_hash)


@dataclass(frozen=True, slots=True)
class PlannedMove:
    """A verified move of a table, not yet stored nor made (:meth:`TableGame.plan_act`)."""

    seat: int
    action: Action
    deal: int  # the deal's number in the game
    n: int  # the move's index in the deal

    def row(self, table_id: str) -> dict[str, Any]:
        """The move's row for :meth:`~preferans.server.storage.Storage.add_moves`."""
        return move_row(table_id, self.deal, self.n, self.seat, int(self.action))


@dataclass(frozen=True)
class TableConfig:
    """What the table's creator chose; ``lang`` is his language, the table's: the bots' and the
    unnamed players' names on the sheet («Бот 2», «Игрок 3») and the game's record speak it."""

    rules: Rules
    players: int = 3
    spectators: bool = True
    lang: str = "en"
    # A duplicate match's tables share this seed: deal k is dealt from the same derived seed at each
    # (preferans.table.Table.deal_seed), so every table plays the same cards (docs/club.md).
    deal_seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"rules": self.rules.to_dict(), "players": self.players, "spectators": self.spectators,
               "lang": self.lang}  # fmt: skip
        return out if self.deal_seed is None else {**out, "deal_seed": self.deal_seed}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableConfig:
        lang, seed = d.get("lang", "en"), d.get("deal_seed")
        return cls(Rules.from_dict(d["rules"]), int(d["players"]), bool(d["spectators"]),
                   lang if lang in LANGS else "en", None if seed is None else int(seed))  # fmt: skip


def clean_name(name: object, default: str, field: str = "name") -> str:
    """A player's name as given (spaces around it trimmed; none given: ``default``), or
    :class:`GameError` ``bad_name`` naming the field and what is wrong — never a name cut or
    changed silently (issue 25): 1–32 printable characters, writable in a game record (no comma
    or colon, not starting with '#', :func:`preferans.seats.name_problem`).

    >>> clean_name("  Anna  ", "x"), clean_name("", "Player 2"), clean_name(None, "Bot 3")
    ('Anna', 'Player 2', 'Bot 3')
    >>> clean_name("A" * 5000, "x")
    Traceback (most recent call last):
    ...
    preferans.errors.GameError: name: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'… is longer than 32 characters
    """
    if name is None:
        return default
    if not isinstance(name, str):
        raise GameError("bad_name", f"{field}: a name is text, not {type(name).__name__}")
    name = name.strip()
    if not name:
        return default
    problem = name_problem(name)
    if problem is not None:
        raise GameError("bad_name", f"{field}: {problem}")
    return name


class TableGame:
    """A table: its seats and tokens, and the :class:`~preferans.table.Table` once every seat is taken."""

    def __init__(
        self,
        storage: Storage,
        table_id: str,
        config: TableConfig,
        seats: list[Seat],
        rulings: Rulings | None = None,
        programs: Mapping[str, str] | None = None,
    ) -> None:
        self.storage = storage
        # Bot programs the server's operator offers as levels (``preferans serve --bot-program NAME=COMMAND``).
        self.programs = dict(programs or {})
        self.id = table_id
        self.config = config
        self.rules = config.rules
        self.players = config.players
        self.seats = seats
        self.rulings = rulings
        self.table: Table | None = None  # the game loop, from the moment the game starts
        self.record: dict[str, Any] | None = None
        self.stop_votes: set[int] = set()  # seats that agreed to end the game now (rules.md §10)
        self.accounts: dict[int, int] = {}  # seat → the account that holds it (docs/club.md)
        # Called (in the thread that saved the record) when the game is over: the club's history and ratings.
        self.finished_hook: Callable[[TableGame], None] | None = None

    # -- the game loop's state -------------------------------------------------------------
    @property
    def pulka(self) -> Pulka | None:
        return None if self.table is None else self.table.pulka

    @property
    def deal(self) -> Deal | None:
        return None if self.table is None or not self.table.log else self.table.deal

    @property
    def deal_no(self) -> int:
        return 0 if self.table is None else self.table.deal_number

    @property
    def finished(self) -> bool:
        return self.table is not None and self.table.is_over

    # -- creation and loading ------------------------------------------------------------
    @classmethod
    def create(
        cls,
        storage: Storage,
        config: TableConfig,
        seat_specs: list[dict[str, Any]],
        creator: object,
        creator_seat: int | None = 0,
        rulings: Rulings | None = None,
        programs: Mapping[str, str] | None = None,
    ) -> tuple[TableGame, str]:
        """Create a table; the creator takes ``creator_seat``.  Returns the game and his token.

        With ``creator_seat=None`` nobody sits down yet (a duplicate match's other tables: the
        seats are the specs', bots or free; the token is ``""``).
        """
        n = config.players
        if n not in (2, 3, 4):
            raise GameError("bad_table", f"players: 2 (гусарик, with the dummy), 3 or 4, not {n}")
        if len(seat_specs) != n:
            raise GameError("bad_table", f"seats: give one entry per player ({n}), not {len(seat_specs)}")
        if creator_seat is not None and not 0 <= creator_seat < n:
            raise GameError("bad_table", f"seat: 0..{n - 1}, not {creator_seat}")
        seats: list[Seat] = []
        t = Translator(config.lang)
        for i, spec in enumerate(seat_specs):
            kind = spec.get("kind", "human")
            if i == creator_seat:
                kind = "human"
            if kind == "bot":
                level = spec.get("level", "random")
                levels = bot_levels(programs)
                if level not in levels:
                    raise GameError("bad_table", f"seats[{i}].level: one of {', '.join(levels)}, not {level!r}")
                seats.append(Seat(i, clean_name(spec.get("name"), t("Bot {n}", n=i + 1), f"seats[{i}].name"), "bot",
                                  level))  # fmt: skip
            elif kind == "human":
                seats.append(Seat(i, "", "human"))
            else:
                raise GameError("bad_table", f"seats[{i}].kind: 'human' or 'bot', not {kind!r}")
        token = ""
        if creator_seat is not None:
            token = secrets.token_urlsafe(24)
            me = seats[creator_seat]
            me.name = clean_name(creator, t("Player {n}", n=creator_seat + 1))
            me.token_hash = hash_token(token)
        table_id = secrets.token_urlsafe(8)
        storage.create_table(table_id, config.to_dict(), [_seat_row(s) for s in seats])
        game = cls(storage, table_id, config, seats, rulings, programs)
        game._maybe_start()
        return game, token

    @classmethod
    def load(
        cls, storage: Storage, table_id: str, rulings: Rulings | None = None, programs: Mapping[str, str] | None = None
    ) -> TableGame | None:
        """Rebuild a table from storage by replaying its deals through the game loop (its bot
        programs hear only the game and the deal in progress)."""
        row = storage.table(table_id)
        if row is None:
            return None
        config = TableConfig.from_dict(row.config)
        seats = [Seat(s.seat, s.name, s.kind, s.level, s.token_hash) for s in storage.seats(table_id)]
        game = cls(storage, table_id, config, seats, rulings, programs)
        stored = storage.deals(table_id)
        if stored:
            table = game.table = game._new_table()
            with table.replaying():
                for d in stored:
                    if (d.dealer, d.min_level) != (table.pulka.next_dealer, table.pulka.min_level):
                        raise PreferansError(f"table {table_id}, deal {d.number}: the stored dealer and lowest "
                                             "game do not follow from the deals before it")  # fmt: skip
                    table.next_deal(seed=d.seed)
                    for seat, action in d.moves:
                        table.move(seat, action)
                if row.status == "finished" and not table.is_over:
                    table.stop()  # ended by agreement (rules.md §10)
        if row.status == "finished":
            game.record = storage.record(table_id)
        return game

    def _spec(self, level: str) -> str:
        """A bot seat's spec for the table: one of our levels, or an offered program (``cmd:``).

        A program the server no longer offers is replaced by our medium bot.
        """
        if level in self.programs:
            return "cmd:" + self.programs[level]
        return f"bot:{level}" if level in LEVELS else "bot:medium"

    def close(self) -> None:
        """End the table's bot programs (the table itself stays in storage)."""
        if self.table is not None:
            self.table.close()

    def _new_table(self) -> Table:
        specs = ["human" if s.kind == "human" else self._spec(s.level) for s in self.seats]
        # Each deal's seed is drawn when it is dealt (and stored); the table's own seed only seeds hints —
        # and, at a duplicate match's table, the deals' seeds (the same at each of its tables).
        seed = self.config.deal_seed if self.config.deal_seed is not None else secrets.randbelow(2**31)
        return Table(self.rules, specs, names=self.pulka_names(), seed=seed, start=False,
                     rulings=self.rulings, lang=self.config.lang)  # fmt: skip

    def pulka_names(self) -> list[str]:
        """Seat names made distinct for the sheet."""
        names: list[str] = []
        t = Translator(self.config.lang)
        for s in self.seats:
            name = s.name or t("Player {n}", n=s.seat + 1)
            while name in names:
                name = f"{name} ({s.seat + 1})"
            names.append(name)
        return names

    # -- seats ----------------------------------------------------------------------------
    def is_member(self, token: str | None, account: int | None = None) -> bool:
        """Is ``token`` a seat's at this table (also a person's whose seat a bot plays), or does the
        signed-in ``account`` hold one?"""
        if account is not None and account in self.accounts.values():
            return True
        if not token:
            return False
        h = hash_token(token)
        return any(s.token_hash and secrets.compare_digest(s.token_hash, h) for s in self.seats)

    def seat_of(self, token: str | None, account: int | None = None) -> int | None:
        """The person's seat: by his seat cookie's token, or by his account (from any browser)."""
        for seat, holder in self.accounts.items():
            if account is not None and holder == account and self.seats[seat].kind == "human":
                return seat
        if not token:
            return None
        h = hash_token(token)
        for s in self.seats:
            if s.kind == "human" and s.token_hash and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def sit(self, seat: int, name: object) -> str:
        """Take a free human seat; returns the new secret token."""
        if not 0 <= seat < self.players:
            raise GameError("bad_seat", f"seat: 0..{self.players - 1}, not {seat}")
        s = self.seats[seat]
        if s.taken:
            raise GameError("seat_taken", f"seat {seat + 1} is already taken")
        token = secrets.token_urlsafe(24)
        name = clean_name(name, Translator(self.config.lang)("Player {n}", n=seat + 1))
        if not self.storage.take_seat(self.id, seat, name, hash_token(token)):
            raise GameError("seat_taken", f"seat {seat + 1} is already taken")
        s.name, s.token_hash = name, hash_token(token)
        self._maybe_start()
        return token

    def hand_to_bot(self, seat: int, level: str = "easy") -> None:
        """A bot of ``level`` plays on for a person who left (his name stays on the sheet;
        his token takes the seat back, :meth:`take_back`)."""
        if not 0 <= seat < self.players:
            raise GameError("bad_seat", f"seat: 0..{self.players - 1}, not {seat}")
        levels = bot_levels(self.programs)
        if level not in levels:
            raise GameError("bad_seat", f"level: one of {', '.join(levels)}, not {level!r}")
        s = self.seats[seat]
        if s.kind != "human" or not s.token_hash:
            raise GameError("bad_seat", f"seat {seat + 1} is not a person's seat")
        self.storage.seat_to_bot(self.id, seat, level)
        s.kind, s.level = "bot", level
        if self.table is not None:
            self.table.set_seat(seat, self._spec(level))

    def take_back(self, token: str | None, account: int | None = None) -> int | None:
        """The person whose seat a bot plays comes back with his token (or signed in to the account
        that holds it): the seat is his again.

        Returns the seat, or ``None`` when the token is no such person's.
        """
        if not token and account is None:
            return None
        h = hash_token(token) if token else ""
        for s in self.seats:
            mine = (account is not None and self.accounts.get(s.seat) == account) or (
                bool(h) and bool(s.token_hash) and secrets.compare_digest(s.token_hash, h))
            if s.kind == "bot" and s.token_hash and mine:
                self.storage.seat_to_person(self.id, s.seat)
                s.kind, s.level = "human", ""
                if self.table is not None:
                    self.table.set_seat(s.seat, "human")
                return s.seat
        return None

    @property
    def ready(self) -> bool:
        return all(s.taken for s in self.seats)

    @property
    def bots_only(self) -> bool:
        """Nobody sits here but bots (a duplicate match's bot table): the next deal is dealt by itself."""
        return all(s.kind == "bot" and not s.token_hash for s in self.seats)

    def _maybe_start(self) -> None:
        if self.table is None and self.ready:
            self.table = self._new_table()
            self.start_deal()

    # -- moves: verified by the table, stored, then made ----------------------------------------
    def _table(self) -> Table:
        if self.table is None or not self.table.log:
            raise GameError("no_deal", "no deal is in progress")
        if self.table.is_over:
            raise GameOver("the game is over")
        return self.table

    def start_deal(self) -> None:
        """Deal the next hand (dealer and minimum level from the pulka)."""
        table = self.table
        if table is None:
            raise GameError("no_deal", "the game starts when every seat is taken")
        table.verify_next_deal()
        number = table.deal_number + 1
        if self.config.deal_seed is not None:  # a duplicate match: the same seeds at each of its tables
            seed = table.deal_seed(number) % 2**31
        else:
            seed = random.SystemRandom().randrange(2**31)
        self.storage.start_deal(self.id, number, table.pulka.next_dealer, seed, table.pulka.min_level)
        table.next_deal(seed=seed)
        self.stop_votes.clear()

    def _make(self, seat: int, action: Action) -> Action:
        """Store a verified move, then make it."""
        planned = self._plan(seat, action)
        self.storage.add_move(self.id, planned.deal, planned.n, seat, int(action))
        made = self.make_stored(planned)
        if self.finished:
            self.save_record()
        return made

    def _plan(self, seat: int, action: Action) -> PlannedMove:
        table = self._table()
        return PlannedMove(seat, action, table.deal_number, len(table.deal.moves))

    def act(self, seat: int, action: int | str) -> Action:
        """Verify, store, then make one action of ``seat``.  Raises and changes nothing if illegal."""
        return self._make(seat, self._table().verify_act(action, seat))

    def plan_act(self, seat: int, action: int | str) -> PlannedMove:
        """:meth:`act` in steps, for a caller that stores the move itself (the server's event loop,
        which hands the writing to a database thread): verify it — this raises and changes
        nothing if it is illegal — then store :meth:`PlannedMove.row`, then :meth:`make_stored`."""
        return self._plan(seat, self._table().verify_act(action, seat))

    def make_stored(self, planned: PlannedMove) -> Action:
        """Make a planned move once it is stored.  When the game is over by it (:attr:`finished`),
        its record is to be saved (:meth:`save_record`, a database call).

        A failure here is a fault of ours whatever its class, never a refusal of the move: the
        move is stored, so the table in memory is behind its storage (the server reloads it).
        """
        try:
            return self._table().move(planned.seat, planned.action)
        except Exception as e:
            raise RuntimeError(f"table {self.id}: a stored move could not be made ({e})") from e

    def report(self, irregularity: str, offender: int, reporter: int | None = None) -> Action:
        """``reporter`` reports an irregularity by ``offender`` (Kodeks 3.3.16–3.3.18, seed-002 p.12).

        About oneself (or with no reporter) it is stored and made at once; about
        another seat it waits as the table's accusation (:meth:`preferans.table.Table.accuse`).
        """
        table = self._table()
        who = offender if reporter is None else reporter
        a = table.verify_accuse(irregularity, offender, who)
        if who == offender:
            return self._make(offender, a)
        table.open_accusation(a, offender, who)
        return a

    def answer(self, seat: int, agree: bool) -> Action | None:
        """``seat`` confirms or denies the table's accusation; the report is stored and made
        when that decides it."""
        table = self._table()
        acc = table.accusation
        a = table.settle(seat, agree)
        if a is None or acc is None:
            return None
        return self._make(acc.offender, a)

    def claim_position(self, seat: int, tricks: int) -> Deal:
        """Verify that ``seat`` may claim ``tricks`` now (cheap checks); the deal to prove it on (a copy)."""
        table = self._table()
        table.verify_claim(seat, tricks)
        return table.deal.copy()

    def claim(self, seat: int, tricks: int, proven: bool | None = None) -> Action:
        """``seat`` claims ``tricks`` of the rest for his side; proved claims end the play at once.

        ``proven``: the solver's proof, when it was worked out already (see :mod:`.work`).
        """
        return self._make(seat, self._table().claim_action(seat, tricks, proven=proven))

    def bot_turn(self) -> tuple[int, Callable[[], Action], int] | None:
        """The automatic move due now: (seat, its thunk, moves so far), or ``None``.

        The thunk (:meth:`preferans.table.Table.bot_turn`) may run elsewhere; its
        answer is made by :meth:`play_for`.
        """
        if self.bot_seat_to_act() is None:
            return None
        assert self.table is not None
        turn = self.table.bot_turn()
        return None if turn is None else (*turn, len(self.table.deal.moves))

    def bot_seat_to_act(self) -> int | None:
        """The seat whose move is automatic now (a bot's, a face-down draw), if any."""
        table = self.table
        if table is None or not table.log or table.is_over:
            return None
        return table.automatic_seat

    def play_for(self, seat: int, action: Action, n: int) -> Action | None:
        """Make an automatic move thought out for move ``n``; ``None`` when the table moved on meanwhile."""
        if self.deal is None or len(self.deal.moves) != n or self.bot_seat_to_act() != seat:
            return None
        a = Action(action)
        self._table().deal.verify(a, seat)  # a bot answers like a person: only legal moves are stored
        return self._make(seat, a)

    def bot_act(self) -> Action | None:
        """Let the bot whose turn it is act now (through the same checks as a person)."""
        turn = self.bot_turn()
        if turn is None:
            return None
        seat, think, n = turn
        return self.play_for(seat, think(), n)

    # -- the end ----------------------------------------------------------------------------
    def save_record(self) -> None:
        """Store the record of the game that is over (and end its bot programs)."""
        self.record = self.game_record()
        self.storage.save_record(self.id, self.record)
        self.close()  # the game is over: its bot programs have heard the end
        if self.finished_hook is not None:
            self.finished_hook(self)

    def game_record(self) -> dict[str, Any]:
        """The game so far as the JSON twin of a record (:meth:`preferans.table.Table.to_record`)."""
        assert self.table is not None, "a game record needs a game"
        date = dt.datetime.now(dt.UTC).strftime("%Y.%m.%d")
        t = Translator(self.config.lang)
        event = t("A game on the Preferans server")
        return to_json(self.table.to_record({"event": event, "date": date, "table": self.id}))

    def vote_stop(self, seat: int) -> bool:
        """Agree to end the game between deals (rules.md §10: unclosed pools settled as they are).

        The game ends when every person at the table has agreed (bots always do);
        returns whether it ended.
        """
        if self.finished:
            raise GameOver("the game is over")
        if self.table is None or (self.deal is not None and not self.deal.is_over):
            raise GameError("deal_in_progress", "the game can be ended only between deals")
        self.stop_votes.add(seat)
        if all(s.seat in self.stop_votes for s in self.seats if s.kind == "human"):
            self.table.stop()
            self.save_record()
            return True
        return False


@functools.lru_cache(maxsize=256)
def rule_changes(rules: Rules) -> tuple[dict[str, Any], ...]:
    """The options where ``rules`` differ from their preset, for the table page: each with its
    name and value in every language (``{"field", "name": {lang: …}, "value": {lang: …}}``);
    the pool is shown by itself.  (Worked out once per rules: every state frame carries it.)"""
    base = Rules.preset(rules.name) if rules.name in Rules.PRESET_NAMES else Rules()
    mine, theirs = rules.to_dict(), base.to_dict()
    out = []
    for field_name, value in mine.items():
        if field_name in ("name", "pool_target") or theirs.get(field_name) == value:
            continue
        out.append({"field": field_name, "name": {lang: option_name(field_name, lang) for lang in LANGS},
                    "value": {lang: _value_text(field_name, value, lang) for lang in LANGS}})  # fmt: skip
    return tuple(out)


def _value_text(field_name: str, value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return Translator(lang)("yes" if value else "no")
    if isinstance(value, list):
        return " ".join(str(x) for x in value) or "—"
    if isinstance(value, str) and field_name in CHOICES:
        return choice_name(field_name, value, lang)
    return str(value)


def bot_levels(programs: Mapping[str, str] | None = None) -> list[str]:
    """The bot levels a table may seat: ours, then the programs the operator offers."""
    return [*LEVELS, *(programs or {})]


def parse_programs(assignments: Iterable[str]) -> dict[str, str]:
    """``NAME=COMMAND`` assignments of ``--bot-program``, checked.

    >>> parse_programs(["mine=./mybot --fast"])
    {'mine': './mybot --fast'}
    >>> parse_programs(["hard=./x"])
    Traceback (most recent call last):
    ...
    preferans.errors.PreferansError: --bot-program: 'hard' is one of our levels; name the program otherwise
    """
    out: dict[str, str] = {}
    for text in assignments:
        name, sep, command = text.partition("=")
        name, command = name.strip(), command.strip()
        if not sep or not command or not name.replace("-", "").replace("_", "").isalnum():
            raise PreferansError(f"--bot-program: write NAME=COMMAND (NAME a word), not {text!r}")
        if name in LEVELS:
            raise PreferansError(f"--bot-program: {name!r} is one of our levels; name the program otherwise")
        out[name] = command
    return out


def _seat_row(s: Seat) -> SeatRow:
    return SeatRow(s.seat, s.name, s.kind, s.level, s.token_hash)
