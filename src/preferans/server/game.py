"""One table on the server: seats, the pulka and the deal in play, kept in storage.

:class:`TableGame` is synchronous and knows nothing about sockets: the hub
(:mod:`preferans.server.hub`) calls it and sends the frames.  The engine is
authoritative — every action goes through :meth:`Deal.verify` first, then is
committed to storage, and only then applied and acknowledged.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any

from ..actions import CLAIM_BASE, PROVEN_CLAIM_BASE, Action
from ..bots import LEVELS, Bot, make_bot
from ..bots.automatic import automatic_answer
from ..engine.deal import Deal
from ..engine.observation import Observation
from ..errors import PreferansError
from ..rules import Rules
from ..scoring.pulka import Pulka
from .records import game_record
from .storage import SeatRow, Storage

__all__ = ["GameError", "Seat", "TableConfig", "TableGame", "hash_token"]

MAX_NAME = 32


class GameError(PreferansError):
    """A request the table cannot accept (seat taken, not your turn, …); nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


@dataclass(frozen=True)
class TableConfig:
    """What the table's creator chose."""

    rules: Rules
    players: int = 3
    spectators: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "players": self.players, "spectators": self.spectators}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableConfig:
        return cls(Rules.from_dict(d["rules"]), int(d["players"]), bool(d["spectators"]))


def clean_name(name: object, default: str) -> str:
    """A player's name: printable, trimmed, at most 32 characters, writable in a game record
    (no comma or colon, not starting with '#').

    >>> clean_name("  Anna, the #1: ", "x"), clean_name("#", "Player 2")
    ('Anna the #1', 'Player 2')
    """
    if not isinstance(name, str):
        return default
    name = "".join(ch for ch in name if ch.isprintable() and ch not in ",:").strip()[:MAX_NAME]
    name = name.lstrip("# ").strip()
    return name or default


class TableGame:
    """A table: its seats, the pulka (the whole game) and the current deal."""

    def __init__(self, storage: Storage, table_id: str, config: TableConfig, seats: list[Seat]) -> None:
        self.storage = storage
        self.id = table_id
        self.config = config
        self.rules = config.rules
        self.players = config.players
        self.seats = seats
        self.pulka: Pulka | None = None
        self.deal: Deal | None = None
        self.deal_no = 0
        self.finished = False
        self.record: dict[str, Any] | None = None
        self.bots: dict[int, Bot] = {}
        self.past: list[tuple[int, Deal]] = []  # finished deals (number, deal), for the record
        self.stop_votes: set[int] = set()  # seats that agreed to end the game now (spec §10)

    # -- creation and loading ------------------------------------------------------------
    @classmethod
    def create(
        cls,
        storage: Storage,
        config: TableConfig,
        seat_specs: list[dict[str, Any]],
        creator: str,
        creator_seat: int = 0,
    ) -> tuple[TableGame, str]:
        """Create a table; the creator takes ``creator_seat``.  Returns the game and his token."""
        n = config.players
        if n not in (3, 4):
            raise GameError("bad_table", f"players: 3 or 4, not {n}")
        if len(seat_specs) != n:
            raise GameError("bad_table", f"seats: give one entry per player ({n}), not {len(seat_specs)}")
        if not 0 <= creator_seat < n:
            raise GameError("bad_table", f"seat: 0..{n - 1}, not {creator_seat}")
        seats: list[Seat] = []
        for i, spec in enumerate(seat_specs):
            kind = spec.get("kind", "human")
            if i == creator_seat:
                kind = "human"
            if kind == "bot":
                level = str(spec.get("level", "random"))
                if level not in LEVELS:
                    raise GameError("bad_table", f"seats[{i}].level: one of {', '.join(LEVELS)}, not {level!r}")
                seats.append(Seat(i, clean_name(spec.get("name"), f"Bot {i + 1}"), "bot", level))
            elif kind == "human":
                seats.append(Seat(i, "", "human"))
            else:
                raise GameError("bad_table", f"seats[{i}].kind: 'human' or 'bot', not {kind!r}")
        token = secrets.token_urlsafe(24)
        me = seats[creator_seat]
        me.name = clean_name(creator, f"Player {creator_seat + 1}")
        me.token_hash = hash_token(token)
        table_id = secrets.token_urlsafe(8)
        storage.create_table(table_id, config.to_dict(), [_seat_row(s) for s in seats])
        game = cls(storage, table_id, config, seats)
        game._maybe_start()
        return game, token

    @classmethod
    def load(cls, storage: Storage, table_id: str) -> TableGame | None:
        """Rebuild a table from storage by replaying its deals through the engine."""
        row = storage.table(table_id)
        if row is None:
            return None
        config = TableConfig.from_dict(row.config)
        seats = [Seat(s.seat, s.name, s.kind, s.level, s.token_hash) for s in storage.seats(table_id)]
        game = cls(storage, table_id, config, seats)
        for d in storage.deals(table_id):
            pulka = game._pulka()
            deal = Deal.new(game.rules, players=game.players, dealer=d.dealer, seed=d.seed, min_level=d.min_level)
            for seat, action in d.moves:
                deal.replay_move(seat, action)
            game.deal, game.deal_no = deal, d.number
            if deal.is_over:
                game._deal_over(pulka, deal, store=False)
        if row.status == "finished":
            game.finished = True
            game.record = storage.record(table_id)
        return game

    def _pulka(self) -> Pulka:
        if self.pulka is None:
            self.pulka = Pulka(self.rules, self.pulka_names())
        return self.pulka

    def pulka_names(self) -> list[str]:
        """Seat names made distinct for the sheet."""
        names: list[str] = []
        for s in self.seats:
            name = s.name or f"Player {s.seat + 1}"
            while name in names:
                name = f"{name} ({s.seat + 1})"
            names.append(name)
        return names

    # -- seats ----------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        h = hash_token(token)
        for s in self.seats:
            if s.kind == "human" and s.token_hash and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def sit(self, seat: int, name: str) -> str:
        """Take a free human seat; returns the new secret token."""
        if not 0 <= seat < self.players:
            raise GameError("bad_seat", f"seat: 0..{self.players - 1}, not {seat}")
        s = self.seats[seat]
        if s.taken:
            raise GameError("seat_taken", f"seat {seat + 1} is already taken")
        token = secrets.token_urlsafe(24)
        name = clean_name(name, f"Player {seat + 1}")
        if not self.storage.take_seat(self.id, seat, name, hash_token(token)):
            raise GameError("seat_taken", f"seat {seat + 1} is already taken")
        s.name, s.token_hash = name, hash_token(token)
        self._maybe_start()
        return token

    def hand_to_bot(self, seat: int, level: str = "easy") -> None:
        """A bot of ``level`` plays on for a person who left (his name stays on the sheet)."""
        if not 0 <= seat < self.players:
            raise GameError("bad_seat", f"seat: 0..{self.players - 1}, not {seat}")
        if level not in LEVELS:
            raise GameError("bad_seat", f"level: one of {', '.join(LEVELS)}, not {level!r}")
        s = self.seats[seat]
        if s.kind != "human" or not s.token_hash:
            raise GameError("bad_seat", f"seat {seat + 1} is not a person's seat")
        self.storage.seat_to_bot(self.id, seat, level)
        s.kind, s.level, s.token_hash = "bot", level, ""
        self.bots.pop(seat, None)

    @property
    def ready(self) -> bool:
        return all(s.taken for s in self.seats)

    def _maybe_start(self) -> None:
        if self.deal is None and self.ready and not self.finished:
            self.start_deal()

    # -- deals ------------------------------------------------------------------------------
    def start_deal(self) -> None:
        """Deal the next hand (dealer and minimum level from the pulka)."""
        if self.finished:
            raise GameError("game_over", "the game is over")
        if self.deal is not None and not self.deal.is_over:
            raise GameError("deal_in_progress", "the current deal is not over yet")
        pulka = self._pulka()
        seed = random.SystemRandom().randrange(2**31)
        number = self.deal_no + 1
        dealer, min_level = pulka.next_dealer, pulka.min_level
        self.storage.start_deal(self.id, number, dealer, seed, min_level)
        self.deal = Deal.new(self.rules, players=self.players, dealer=dealer, seed=seed, min_level=min_level)
        self.deal_no = number
        self.stop_votes.clear()

    def act(self, seat: int, action: int | str) -> Action:
        """Validate, store, then apply one action of ``seat``.  Raises and changes nothing if illegal."""
        deal = self.deal
        if deal is None or self.finished:
            raise GameError("no_deal", "no deal is in progress")
        if deal.is_over:
            raise GameError("deal_over", "the deal is over; start the next one")
        a = deal.parse_action(action) if isinstance(action, str) else Action(action)
        if deal.to_act != seat:
            raise GameError("not_your_turn", f"it is seat {deal.to_act}'s turn, not seat {seat}'s")
        deal.verify(a, seat)  # IllegalAction with the rule's reason
        self.storage.add_move(self.id, self.deal_no, len(deal.moves), seat, int(a))  # stored before applied
        deal.apply(a, seat)
        if deal.is_over:
            self._deal_over(self._pulka(), deal, store=True)
        return a

    # -- irregularities and claims (issue 10; table options) --------------------------------
    def report(self, irregularity: str, offender: int) -> Action:
        """Report an irregularity by ``offender`` (Kodeks 3.3.16–3.3.18, seed-002 p.12); stored first."""
        deal = self._live_deal()
        if not self.rules.irregularity_reports:
            raise GameError("option_off", "irregularity reports are off at this table (irregularity_reports)")
        if not 0 <= offender < self.players:
            raise GameError("bad_seat", f"offender: seat 0..{self.players - 1}, not {offender}")
        a = deal.verify_report(irregularity, offender)
        self.storage.add_move(self.id, self.deal_no, len(deal.moves), offender, int(a))
        deal.report(a, offender)
        if deal.is_over:
            self._deal_over(self._pulka(), deal, store=True)
        return a

    def claim(self, seat: int, tricks: int) -> Action:
        """``seat`` claims ``tricks`` of the rest for his side; proved claims end the play at once."""
        from ..rulings.claims import prove_claim

        deal = self._live_deal()
        if not self.rules.claims:
            raise GameError("option_off", "claims are off at this table (claims)")
        deal.verify_claim(seat, tricks)
        proven = prove_claim(deal, seat, tricks)
        a = Action((PROVEN_CLAIM_BASE if proven else CLAIM_BASE) + tricks)
        self.storage.add_move(self.id, self.deal_no, len(deal.moves), seat, int(a))
        deal.claim(seat, tricks, proven=proven)
        if deal.is_over:
            self._deal_over(self._pulka(), deal, store=True)
        return a

    def _live_deal(self) -> Deal:
        deal = self.deal
        if deal is None or self.finished or deal.is_over:
            raise GameError("no_deal", "no deal is in progress")
        return deal

    def automatic_move(self) -> tuple[int, Action] | None:
        """Moves nobody chooses: the face-down redraw (Kodeks 3.3.17); bots' answers to reports and claims."""
        deal = self.deal
        if deal is None or deal.is_over or deal.to_act is None:
            return None
        seat = deal.to_act
        bot = self.seats[seat].kind == "bot"
        action = automatic_answer(deal.phase, deal.legal_actions(), bot=bot, rng=random.SystemRandom())
        return None if action is None else (seat, action)

    def _deal_over(self, pulka: Pulka, deal: Deal, *, store: bool) -> None:
        result = deal.result
        if result.kind.value == "penalty":
            from ..rulings.assessment import assess_exposed_talon

            result = assess_exposed_talon(deal)  # Kodeks 3.3.16.3
        pulka.record(result)
        self.past.append((self.deal_no, deal))
        if pulka.is_over:
            self.finished = True
            if store:
                self.record = self.game_record()
                self.storage.save_record(self.id, self.record)

    def game_record(self) -> dict[str, Any]:
        """The game so far as the JSON twin of a record (:func:`.records.game_record`)."""
        assert self.pulka is not None, "a game record needs a pulka"
        return game_record(self.id, self.pulka, [d for _, d in self.past], self.deal)

    def vote_stop(self, seat: int) -> bool:
        """Agree to end the game between deals (spec §10: unclosed pools settled as they are).

        The game ends when every person at the table has agreed (bots always do);
        returns whether it ended.
        """
        if self.finished:
            raise GameError("game_over", "the game is over")
        if self.pulka is None or (self.deal is not None and not self.deal.is_over):
            raise GameError("deal_in_progress", "the game can be ended only between deals")
        self.stop_votes.add(seat)
        if all(s.seat in self.stop_votes for s in self.seats if s.kind == "human"):
            self.pulka.stop()
            self.finished = True
            self.record = self.game_record()
            self.storage.save_record(self.id, self.record)
            return True
        return False

    def bot_seat_to_act(self) -> int | None:
        """The bot seat that must act now, if any."""
        deal = self.deal
        if deal is None or deal.is_over or self.finished or deal.to_act is None:
            return None
        if self.automatic_move() is not None:
            return deal.to_act
        s = self.seats[deal.to_act]
        return s.seat if s.kind == "bot" else None

    def bot_turn(self) -> tuple[int, Bot, Observation, int] | None:
        """The bot to act now: (seat, bot, its observation, moves so far), or ``None``."""
        seat = self.bot_seat_to_act()
        if seat is None or self.deal is None:
            return None
        auto = self.automatic_move()
        if auto is not None:
            return seat, _Fixed(self.rules, auto[1]), self.deal.observation(seat), len(self.deal.moves)
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(self.seats[seat].level, self.rules, seed=random.randrange(2**31))
        return seat, bot, self.deal.observation(seat), len(self.deal.moves)

    def bot_act(self) -> Action | None:
        """Let the bot whose turn it is act now (through the same checks as a person)."""
        turn = self.bot_turn()
        if turn is None:
            return None
        seat, bot, observation, _ = turn
        return self.act(seat, int(bot.act(observation)))


class _Fixed(Bot):
    """A move decided without a bot's judgement (a face-down draw, a refusal)."""

    name = "fixed"

    def __init__(self, rules: Rules, action: Action) -> None:
        super().__init__(rules)
        self.action = action

    def act(self, observation: Observation) -> Action:
        return self.action


def _seat_row(s: Seat) -> SeatRow:
    return SeatRow(s.seat, s.name, s.kind, s.level, s.token_hash)
