"""A table: a whole pulka played by people and bots, independent of any screen.

A :class:`Table` seats 2 (гусарик, with the dummy as a third hand nobody sits at),
3 or 4 players — each ``"human"``, ``"bot:LEVEL"`` or
``"cmd:PROGRAM"`` (a bot program speaking ``docs/bot-protocol.md``) —
and runs the pulka (пулька): it deals each hand with the dealer and the
minimum level the :class:`~preferans.scoring.pulka.Pulka` asks for (Kodeks 3.2.2,
rules.md §8.3), asks bots through their seat's observation only, records every
finished deal on the sheet, and saves and resumes the game as a record (:mod:`preferans.record`).  Front ends (the
terminal UI, the plain line mode, a web server) only show the state and pass
people's decisions to :meth:`Table.act`.

>>> from preferans import Rules
>>> t = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=1, max_deals=2)
>>> while not t.is_over:
...     _ = t.run_bots()
...     if t.deal.is_over and not t.is_over:
...         _ = t.next_deal()
>>> len(t.pulka.results), t.deal_number
(2, 2)
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import CLAIM_BASE, PROVEN_CLAIM_BASE, Action
from .bots import LEVELS, Bot, make_bot
from .bots.automatic import automatic_answer, forced_card
from .bots.events import DealStart, GameEnd, GameStart, deal_outcome, rules_digest
from .bots.levels import is_bot_spec, split_specs
from .bots.protocol import BotProtocolError
from .bots.sandbox import ProgramSlots
from .engine.deal import Deal, Phase
from .engine.observation import Observation
from .engine.result import DealKind, DealResult
from .errors import BadSeat, DealInProgress, DealOver, GameOver, NotYourTurn, OptionOff, PreferansError, SaveError
from .i18n import LANGS, Call, Msg, Translator, call_name, check_lang
from .option_words import Option
from .record import GameRecord, RecordError, dumps, record_from_pulka
from .record import load as load_record
from .rules import Rules
from .scoring import DealScore
from .scoring.pulka import Pulka
from .seats import active_seats

__all__ = ["Accusation", "Hint", "Rulings", "SaveError", "Table", "parse_seats"]

SAVE_FORMAT = "preferans-table"
SAVE_VERSION = 1

Move = tuple[int, Action]


def _is_level(spec: str) -> bool:
    """One of our levels, ``expert:TIME`` included (no bot programs at a table)."""
    return not spec.startswith("cmd:") and is_bot_spec(spec)


def parse_seats(text: str | Sequence[str], players: int | None = None) -> list[str]:
    """Seat specs from ``"human,bot:hard,bot:easy"``; each is ``human``, ``bot:LEVEL``,
    or ``cmd:PROGRAM`` — a bot program (quote it when it holds a comma).

    >>> parse_seats("human, bot:hard,bot")
    ['human', 'bot:hard', 'bot:medium']
    >>> parse_seats('human,cmd:"./MyBot --fast",easy')
    ['human', 'cmd:./MyBot --fast', 'bot:easy']
    >>> parse_seats("human,bot:expert:250ms,expert")
    ['human', 'bot:expert:250ms', 'bot:expert']
    """
    items = split_specs(text) if isinstance(text, str) else [s.strip() for s in text]
    out = []
    for item in items:
        if item.startswith("cmd:") and is_bot_spec(item):
            out.append(item)  # a program's path and arguments keep their case
            continue
        s = item.lower()
        if s in ("human", "you", "me", "человек"):
            out.append("human")
        elif s == "bot":
            out.append("bot:medium")
        elif s.startswith("bot:") and _is_level(s[4:]):
            out.append(s)
        elif _is_level(s):
            out.append("bot:" + s)
        else:
            raise PreferansError(
                f"seats: {s!r} is neither 'human' nor 'bot:LEVEL' (levels: {', '.join(LEVELS)}) nor 'cmd:PROGRAM'"
            )
    if len(out) not in (2, 3, 4):
        raise PreferansError(
            f"seats: Preferans is played by 2 (гусарик, with the dummy), 3 or 4, not {len(out)} ({','.join(out)})"
        )
    if players is not None and len(out) != players:
        raise PreferansError(f"seats: --players is {players} but {len(out)} seats were given")
    return out


def default_names(seats: Sequence[str], lang: str = "en") -> list[str]:
    """``You``, ``Left``, ``Right`` (or in Russian) for a lone human in seat 0; else short names.

    >>> default_names(["human", "bot:easy", "bot:hard"], "ru"), default_names(["bot:easy"] * 3)
    (['Вы', 'Левый', 'Правый'], ['Anna', 'Boris', 'Vera'])
    >>> default_names(["human", "bot:easy"], "ru")  # гусарик: the other player sits across
    ['Вы', 'Напротив']
    """
    t = Translator(lang)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    if len(humans) == 1 and humans[0] == 0:
        if len(seats) == 2:
            return [t("You"), t.p("seat", "Across")]
        if len(seats) == 3:
            return [t("You"), t.p("seat", "Left"), t.p("seat", "Right")]
        return [t("You"), t.p("seat", "Left"), t.p("seat", "Across"), t.p("seat", "Right")]
    names = [t.p("name", "Anna"), t.p("name", "Boris"), t.p("name", "Vera"), t.p("name", "Gleb")]
    return names[: len(seats)]


@dataclass
class Hint:
    """What the hinting bot would do: its choice, and its value per option when it tells.

    ``why`` is the reason as a key and its arguments (``("estimates", "♠5.0 …")``,
    ``("declarer", "3.1")``, ``("samples", "12")``, ``("exact", "")`` when no card is
    unseen, ``("choice", "hard")``, or
    ``("bot", text)`` when the bot explained itself) for front ends to word in
    their language; ``reason`` is the English wording.
    """

    action: Action
    values: dict[Action, float] = field(default_factory=dict)
    reason: str = ""
    why: tuple[str, str] = ("", "")


@dataclass
class DealLog:
    """One deal as it is saved: the shuffle's seed, who dealt, the lowest game, the actions.

    ``cards`` (hands, talon) is set for a deal resumed from a record whose
    cards did not come from this table's seed.
    """

    seed: int
    dealer: int
    min_level: int
    actions: list[str] = field(default_factory=list)
    cards: tuple[tuple[int, ...], tuple[int, ...]] | None = None


_WHY_EN = {
    "estimates": "expected tricks by strain: {}",
    "declarer": "the declarer should take about {} tricks",
    "samples": "best on average over {} layouts of the unseen cards, each solved exactly",
    "exact": "every card is in view: solved exactly{}",
    "choice": "the {} bot's choice",
    "bot": "{}",
}


def _why(bot: Bot, obs: Observation) -> tuple[str, str]:
    """A short reason from what the bot tells publicly: its trick estimates, its search."""
    phase = obs.phase
    estimates = getattr(bot, "estimates", None)
    if phase in ("bidding", "declare", "misere_invite") and callable(estimates):
        est = estimates(obs.hand, talon=phase == "bidding")
        return "estimates", " ".join(f"{s}{e:.1f}" for s, e in zip(("♠", "♣", "♦", "♥", "NT"), est, strict=False))
    declarer_estimate = getattr(bot, "declarer_estimate", None)
    if phase in ("whist", "defence", "concession") and callable(declarer_estimate) and obs.contract is not None:
        return "declarer", f"{declarer_estimate(obs):.1f}"
    # The expert samples until its clock or convergence test stops it: the layouts its last card
    # decision (this hint's) really used, not the fixed count of the plain sampling bot.
    samples = getattr(bot, "last_layouts", 0) or getattr(bot, "samples", None)
    if phase == "play" and isinstance(samples, int):
        others = [s for s in active_seats(obs.dealer, obs.players) if s != obs.seat]
        if all(s in obs.known_hands for s in others):
            return "exact", ""  # nothing is unseen (e.g. the declarer facing open defenders): no sampling
        return "samples", str(samples)
    return "choice", str(getattr(bot, "name", type(bot).__name__))


class Rulings:
    """Where the judgements that need the solver are worked out: here, in this process.

    A table asks its ``rulings`` to prove a claim (issue 10) and to assess a deal
    stopped by an exposed talon (Kodeks 3.3.16.3).  A server passes one that runs
    them in worker processes so its event loop never waits for the solver.
    """

    def prove_claim(self, deal: Deal, seat: int, tricks: int) -> bool:
        from .rulings.claims import prove_claim

        return prove_claim(deal, seat, tricks)

    def assess(self, deal: Deal) -> DealResult:
        from .rulings.assessment import assess_exposed_talon

        return assess_exposed_talon(deal)


@dataclass(frozen=True)
class BotThought:
    """A bot's decision still to be made: the bot and a snapshot of its deal.

    Calling it asks the bot with its seat's observation only.  It holds a copy of
    the deal, so it may run in a worker thread or (being picklable) in another
    process while the table goes on.
    """

    bot: Bot
    deal: Deal
    seat: int

    def __call__(self) -> Action:
        return Action(self.bot.act(self.deal.observation(self.seat)))


@dataclass(frozen=True)
class ProgramThought(BotThought):
    """A bot program's decision: if the program breaks the protocol (its answer changed
    nothing), ``replace`` seats another bot, which answers instead."""

    replace: Callable[[int, BotProtocolError], Bot] | None = None

    def __call__(self) -> Action:
        try:
            return super().__call__()
        except BotProtocolError as e:
            if self.replace is None:
                raise
            return Action(self.replace(self.seat, e).act(self.deal.observation(self.seat)))


@dataclass(frozen=True)
class FixedMove:
    """A move decided without a bot's judgement (a face-down draw, a refusal, a forced card)."""

    action: Action

    def __call__(self) -> Action:
        return self.action


@dataclass(frozen=True)
class Accusation:
    """A report about another seat, waiting for agreement: an accusation is not a fact.

    It takes effect when the ``offender`` confirms it, or — with the table
    option ``report_consent="offender_or_others"`` — when every other player
    does (the ``reporter`` agrees by making it).  ``agreed`` holds the seats that
    confirmed; ``denied`` is set when the offender said no, ``disputed`` when
    another player did.
    """

    action: Action
    offender: int
    reporter: int
    agreed: frozenset[int]
    denied: bool = False
    disputed: bool = False  # another player said no (matters with "offender_or_others")

    def to_dict(self) -> dict[str, Any]:
        return {"what": str(self.action), "offender": self.offender, "reporter": self.reporter,
                "agreed": sorted(self.agreed), "denied": self.denied, "disputed": self.disputed}  # fmt: skip


class Table:
    """A pulka at one table.

    ``seats`` are ``"human"`` / ``"bot:LEVEL"`` / ``"cmd:PROGRAM"`` specs (see
    :func:`parse_seats`); every bot is told the game, each deal, its outcome and the
    end (:mod:`preferans.bots.events`), and a program that breaks the protocol is
    replaced by the medium bot (a line in :attr:`notices`); :meth:`close` ends the programs.
    ``seed`` fixes every shuffle and every bot, so a seeded game replays
    exactly.  ``practice`` allows :meth:`undo`; ``auto_single`` plays a
    forced single legal card for a human; ``max_deals`` ends the game after
    that many deals (besides the pool closing); ``save_path`` is rewritten
    after every action (save as you go); ``lang`` is the language the game is
    played in (saved with it, so a resumed game speaks it again).  ``rulings`` works out claim proofs
    and the exposed-talon assessment (default: in this process).

    Every move has a ``verify_…`` method that raises and changes nothing, and
    one step that makes it (:meth:`move`), so a front end may store a move
    between the two (the web server commits it to its database first).
    """

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[str],
        *,
        names: Sequence[str] | None = None,
        seed: int | None = None,
        first_dealer: int = 0,
        practice: bool = False,
        auto_single: bool = False,
        max_deals: int | None = None,
        save_path: str | os.PathLike[str] | None = None,
        hint_level: str = "expert",
        lang: str = "en",
        start: bool = True,
        rulings: Rulings | None = None,
        program_slots: ProgramSlots | None = None,
    ) -> None:
        self.rules = rules
        self.lang = check_lang(lang)
        self.program_slots = program_slots  # a server's cap on running bot programs, and their limits
        self.seats = parse_seats(seats)
        self.players = len(self.seats)
        self.names = list(names) if names else default_names(self.seats, lang)
        if len(self.names) != self.players:
            raise PreferansError(f"names: give {self.players} names, not {len(self.names)}")
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.practice = practice
        self.auto_single = auto_single
        self.max_deals = max_deals
        self.save_path = Path(save_path) if save_path is not None else None
        self.hint_level = hint_level
        self.rulings = rulings if rulings is not None else Rulings()
        self.pulka = Pulka(rules, self.names, first_dealer=first_dealer)
        self.log: list[DealLog] = []
        self.scores: list[DealScore] = []
        self.listeners: list[Callable[[int, Action], None]] = []
        self._bots: dict[int, Bot] = {}
        self._programs: dict[int, Bot] = {}  # bot programs, started once for the whole game
        self._quiet = False  # replaying a saved game: the bots were told all this before
        self._ended = False
        self.notices: list[Msg] = []  # for front ends to show: a bot program failed and was replaced
        self._hinter: Bot | None = None
        self.accusation: Accusation | None = None
        self.deal: Deal
        if start:
            self.next_deal()

    # -- seats -------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == "human"]

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == "human"

    @property
    def deal_number(self) -> int:
        """The current deal, counting from 1."""
        return len(self.log)

    @property
    def human_to_act(self) -> int | None:
        """The human seat whose decision the game waits for, else ``None``."""
        s = self.deal.to_act
        if s is None or not self.is_human(s) or self.deal.phase is Phase.REDRAW:
            return None
        return s

    # -- the game ----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """The pulka has ended: the pool closed, ``max_deals`` reached, or stopped."""
        if self.pulka.is_over:
            return True
        return self.max_deals is not None and len(self.pulka.results) >= self.max_deals and self.deal.is_over

    @property
    def end_reason(self) -> str | None:
        """Why the game is over: ``"closed"`` (the pools closed), ``"agreement"`` (:meth:`stop`),
        ``"deals"`` (``max_deals`` reached), or ``None`` while it goes on."""
        if self.pulka.is_over:
            return "closed" if self._closed_by_rules() else "agreement"
        return "deals" if self.is_over else None

    def stop(self) -> None:
        """End the game by agreement (rules.md §10); the sheet is settled as it stands."""
        self.pulka.stop()
        self._tell_end()
        self.save()

    def close(self) -> None:
        """End the bot programs at the table (a game left unfinished can be resumed)."""
        for bot in self._programs.values():
            bot.close()
        self._programs.clear()

    # -- what the bots are told between decisions (bots/events.py) ---------------------
    def _game_start(self, seat: int) -> GameStart:
        return GameStart(
            players=self.players, rules_digest=rules_digest(self.rules), seat=seat, names=tuple(self.names),
            first_dealer=self.pulka.first_dealer, max_deals=self.max_deals,
        )  # fmt: skip

    def _tell(self, call: Callable[[int, Bot], None], seats: Sequence[int] | None = None) -> None:
        """Tell bots something; a program that fails to listen is replaced."""
        for seat in list(self._bots) if seats is None else seats:
            try:
                call(seat, self._bots[seat])
            except BotProtocolError as e:
                self._program_failed(seat, e)

    def _program_failed(self, seat: int, error: BotProtocolError) -> Bot:
        """A bot program broke the protocol: our medium bot plays on in its seat (the deal is untouched)."""
        program = self._programs.pop(seat, None)
        if program is not None:
            program.close()
        self.seats[seat] = "bot:medium"
        self.notices.append(Msg("{name}: {error}; the medium bot plays on in this seat", name=self.names[seat],
                                error=str(error)))
        bot = self._bots[seat] = self._make_bot(seat, self.log[-1])
        return bot

    def _tell_deal(self, seats: Sequence[int] | None = None) -> None:
        entry, digest = self.log[-1], rules_digest(self.rules)
        number, step, n = self.deal_number, self.pulka.raspas_step, self.players

        def tell(seat: int, bot: Bot) -> None:
            bot.tell_deal(DealStart(number, seat, entry.dealer, n, digest, entry.min_level, step))

        self._tell(tell, seats)

    def _tell_end(self) -> None:
        if self._quiet or self._ended:
            return
        self._ended = True
        p = self.pulka
        reason = "stopped" if p.is_over and not self._closed_by_rules() else "pool_closed" if p.is_over else "max_deals"
        end = GameEnd(len(p.results), reason, tuple(p.settlement().net), p.sheet.to_dict())
        self._tell(lambda _, bot: bot.tell_end(end))

    def deal_seed(self, number: int) -> int:
        """The shuffle's seed of deal ``number`` derived from the table's ``seed``: tables with one
        ``seed`` deal the same cards in the same order (a duplicate match, docs/club.md)."""
        return (self.seed * 1_000_003 + number * 7919) % 2**63

    def verify_next_deal(self) -> None:
        """Raise :class:`~preferans.errors.TableError` unless the next hand may be dealt now."""
        if self.deal_number and not self.deal.is_over:
            raise DealInProgress("next deal: the current deal is not finished")
        if self.is_over:
            raise GameOver("next deal: the pulka is over")

    def next_deal(self, seed: int | None = None) -> Deal:
        """Deal the next hand: the pulka names the dealer and the lowest game (rules.md §8.3).

        ``seed`` is the shuffle's seed (default: one derived from the table's ``seed``).
        """
        self.verify_next_deal()
        number = self.deal_number + 1
        entry = DealLog(self.deal_seed(number) if seed is None else seed, self.pulka.next_dealer,
                        self.pulka.min_level)  # fmt: skip
        self.log.append(entry)
        self._start(entry)
        self.save()
        return self.deal

    def _new_deal(self, entry: DealLog) -> Deal:
        # The sheet is public at a real table: every seat's observation carries its standing.
        standing = self.pulka.standing()
        if entry.cards is not None:
            return Deal(
                self.rules, entry.cards[0], entry.cards[1],
                dealer=entry.dealer, players=self.players, min_level=entry.min_level, standing=standing,
            )  # fmt: skip
        return Deal.new(
            self.rules, players=self.players, dealer=entry.dealer, seed=entry.seed, min_level=entry.min_level,
            standing=standing,
        )

    def _start(self, entry: DealLog) -> None:
        self.deal = self._new_deal(entry)
        self._bots = {s: self._make_bot(s, entry) for s, spec in enumerate(self.seats) if spec != "human"}
        if not self._quiet:
            self._tell_deal()

    def set_seat(self, seat: int, spec: str) -> None:
        """Seat a person (``"human"``) or a bot (``"bot:LEVEL"``) in ``seat`` from now on.

        A bot playing on for a person who left, or the person back at his seat;
        his name stays on the sheet.
        """
        if not 0 <= seat < self.players:
            raise BadSeat(f"seat: 0..{self.players - 1}, not {seat}")
        (new,) = parse_seats([spec, "human", "human"])[:1]
        if new != self.seats[seat] and seat in self._programs:
            self._programs.pop(seat).close()
        self.seats[seat] = new
        self._bots.pop(seat, None)
        if new != "human" and self.log:
            self._bots[seat] = self._make_bot(seat, self.log[-1])
            if not self._quiet and not self.deal.is_over:
                self._tell_deal([seat])

    def _make_bot(self, seat: int, entry: DealLog) -> Bot:
        """Our bots anew each deal, seeded by the deal (a resumed game decides the same);
        a bot program once for the whole game, told the game when it is started."""
        spec = self.seats[seat]
        if not spec.startswith("cmd:"):
            return make_bot(spec[4:], self.rules, seed=entry.seed + 101 * (seat + 1) + len(self.log))
        program = self._programs.get(seat)
        if program is None:
            program = self._programs[seat] = make_bot(spec, self.rules, slots=self.program_slots)
            if not self._quiet:
                try:
                    program.tell_game(self._game_start(seat))
                except BotProtocolError as e:
                    self._bots[seat] = program
                    return self._program_failed(seat, e)
        return program

    def move(self, seat: int | None, action: Action | int | str) -> Action:
        """Make one verified move and go on: an ordinary action of ``seat``, a report
        naming its offender in ``seat``, or a claim by ``seat``.

        The one step behind :meth:`act`, :meth:`report`, :meth:`claim` and
        :meth:`play_for`, and the replay step of a stored move (bots are not asked).
        Raises and changes nothing when the move is illegal.
        """
        deal = self.deal
        deal.replay_move(seat, action)
        self.accusation = None  # the deal moved on: a pending accusation is out of date
        who, made = deal.moves[-1]
        self.log[-1].actions.append(deal.actions[-1].ascii())  # a report as SEAT:action (SeatedAction)
        self._after_move(who, made)
        return made

    def _apply(self, action: Action, seat: int) -> None:
        self.move(seat, Action(action))  # bots may answer with a Card; the log keeps Actions

    def _after_move(self, seat: int, action: Action) -> None:
        deal = self.deal
        if deal.is_over:
            result = deal.result
            if result.kind is DealKind.PENALTY:
                # Kodeks 3.3.16.3: all cards are opened and the possible contracts assessed.
                result = self.rulings.assess(deal)
            self.scores.append(self.pulka.record(result))
            if not self._quiet:
                outcome = deal_outcome(self.deal_number, result, self.rules, score=self.scores[-1], names=self.names)
                self._tell(lambda _, bot: bot.tell_result(outcome))
                if self.is_over:
                    self._tell_end()
        for listener in self.listeners:
            listener(seat, action)

    # -- irregularities and claims (issue 10; table options) --------------------------
    def report(self, irregularity: Action | str, offender: int) -> Action:
        """Report an irregularity by ``offender`` (Kodeks 3.3.16–3.3.18, seed-002 p.12).

        Needs the table option ``irregularity_reports``; see :meth:`preferans.Deal.report`.
        """
        a = self.verify_report(irregularity, offender)
        self.move(offender, a)
        self.save()
        return a

    def accuse(self, irregularity: Action | str, offender: int, reporter: int) -> Action | None:
        """``reporter`` says ``offender`` committed ``irregularity``: an accusation, not yet a fact.

        A report about oneself takes effect at once (returns the action made).
        Otherwise it waits in :attr:`accusation` for :meth:`answer`; bots answer
        at once, and deny it: a bot confirms only what it can verify, and these
        are physical events at the table (returns ``None``).
        """
        a = self.verify_accuse(irregularity, offender, reporter)
        if reporter == offender:
            self.move(offender, a)
            self.save()
            return a
        self.open_accusation(a, offender, reporter)
        return None

    def verify_accuse(self, irregularity: Action | str, offender: int, reporter: int) -> Action:
        """The report as an action, if ``reporter`` may make it now; raises and changes nothing."""
        a = self.verify_report(irregularity, offender)
        if not 0 <= reporter < self.players:
            raise BadSeat(Msg("report: the reporter is a seat 0..{last}, not {seat}", last=self.players - 1,
                              seat=reporter))  # fmt: skip
        return a

    def open_accusation(self, action: Action, offender: int, reporter: int) -> None:
        """Put a verified report about another seat to the table (bots answer at once)."""
        self.accusation = Accusation(action, offender, reporter, frozenset({reporter}))
        for seat in self.answering():
            if not self.is_human(seat):
                self.settle(seat, agree=False)  # a bot cannot verify a physical event
                if self.accusation is None:
                    break

    def answering(self, acc: Accusation | None = None) -> list[int]:
        """Seats whose answer the accusation (``acc``, or the table's) waits for."""
        acc = acc if acc is not None else self.accusation
        if acc is None:
            return []
        waiting = [] if acc.denied else [acc.offender]
        if self.rules.report_consent == "offender_or_others" and not acc.disputed:
            waiting += [s for s in range(self.players) if s != acc.offender and s not in acc.agreed]
        return waiting

    def settle(self, seat: int, agree: bool) -> Action | None:
        """Take ``seat``'s answer to the accusation; returns the report when it now takes effect.

        The report is not made here (see :meth:`answer`), so a front end can store
        it first.  Raises :class:`~preferans.errors.BadSeat` when ``seat`` has
        nothing to answer.
        """
        acc = self.accusation
        if acc is None:
            raise DealOver(Msg("answer: no report is waiting for an answer"))
        if seat not in self.answering():
            raise BadSeat(Msg("answer: seat {seat} has nothing to answer to the report {report}", seat=seat,
                              report=Call(str(acc.action))))  # fmt: skip
        if agree and seat == acc.offender:
            return acc.action
        if agree:
            acc = dataclasses.replace(acc, agreed=acc.agreed | {seat})
            if all(s in acc.agreed for s in range(self.players) if s != acc.offender):
                return acc.action  # every other player confirms it
        elif seat == acc.offender:
            acc = dataclasses.replace(acc, denied=True)
        else:
            acc = dataclasses.replace(acc, disputed=True)
        # Denied by the offender, and (where the others may decide) disputed by one of them: dropped.
        self.accusation = acc if self.answering(acc) else None
        return None

    def answer(self, seat: int, agree: bool) -> Action | None:
        """``seat`` confirms or denies the accusation; the report is made when that decides it."""
        acc = self.accusation
        a = self.settle(seat, agree)
        if a is None or acc is None:
            return None
        self.move(acc.offender, a)
        self.save()
        return a

    def verify_report(self, irregularity: Action | str, offender: int) -> Action:
        """The report as an action; raises (:class:`~preferans.errors.OptionOff`, ...) and changes nothing."""
        if not self.rules.irregularity_reports:
            raise OptionOff(Msg("report: irregularity reports are off at this table ({option}=False)",
                                option=Option("irregularity_reports")))  # fmt: skip
        if self.deal.is_over:
            raise DealOver(Msg("report: the deal is over"))
        if not 0 <= offender < self.players:
            raise BadSeat(Msg("report: the offender is a seat 0..{last}, not {seat}", last=self.players - 1,
                              seat=offender))  # fmt: skip
        return self.deal.verify_report(irregularity, offender)

    def claim(self, seat: int, tricks: int) -> bool:
        """``seat`` claims ``tricks`` of the remaining tricks for his side (table option ``claims``).

        A claim the solver proves against every layout the claimer cannot see
        ends the play at once (returns ``True``); otherwise the opponents
        answer ``accept`` / ``refuse`` (bots refuse what is not proved).
        """
        a = self.claim_action(seat, tricks)
        self.move(seat, a)
        self.save()
        return a >= PROVEN_CLAIM_BASE

    def verify_claim(self, seat: int, tricks: int) -> None:
        """Raise (:class:`~preferans.errors.OptionOff`, ...) unless ``seat`` may claim ``tricks`` now."""
        if not self.rules.claims:
            raise OptionOff(Msg("claim: claims are off at this table ({option}=False)", option=Option("claims")))
        if self.deal.is_over:
            raise DealOver(Msg("claim: the deal is over"))
        self.deal.verify_claim(seat, tricks)

    def claim_action(self, seat: int, tricks: int, *, proven: bool | None = None) -> Action:
        """Verify the claim and ask the :class:`Rulings` to prove it (unless ``proven`` says
        already): the claim as the action to make."""
        self.verify_claim(seat, tricks)
        if proven is None:
            proven = self.rulings.prove_claim(self.deal, seat, tricks)
        return Action((PROVEN_CLAIM_BASE if proven else CLAIM_BASE) + tricks)

    COMMANDS = frozenset(("report", "claim", "confirm", "deny", "нарушение", "заявка", "признаю", "отрицаю"))
    """First words of the typed commands :meth:`command` reads (the terminal front ends ask)."""

    def command(self, text: str, seat: int) -> str:
        """Read ``report WHAT WHO [CALL]`` or ``claim N`` / ``claim rest`` typed by a person.

        Returns what happened, in words; raises :class:`PreferansError` for bad input.
        """
        words = text.split()
        t = Translator(self.lang)  # the replies are in the table's language; errors are Msgs in both
        if not words:
            raise PreferansError(Msg("command: empty"))
        head = words[0].lower()
        if head in ("claim", "заявка"):
            if not self.rules.claims:
                raise OptionOff(Msg("claim: claims are off at this table ({option}=False)", option=Option("claims")))
            if len(words) != 2:
                raise PreferansError(Msg("claim: write 'claim N' (tricks your side takes from now on) or "
                                         "'claim rest'"))  # fmt: skip
            arg = words[1].lower()
            n = self.deal.tricks_remaining() if arg in ("rest", "all", "остальные", "все") else _int_arg(arg)
            proven = self.claim(seat, n)
            if proven:
                return t.n("Claim of {n} trick: proved, play ends", "Claim of {n} tricks: proved, play ends", n)
            return t.n("Claim of {n} trick: the opponents answer", "Claim of {n} tricks: the opponents answer", n)
        if head in ("report", "нарушение"):
            if not self.rules.irregularity_reports:
                raise OptionOff(Msg("report: irregularity reports are off at this table ({option}=False)",
                                    option=Option("irregularity_reports")))  # fmt: skip
            if len(words) < 3:
                raise PreferansError(Msg(
                    "report: write 'report WHAT WHO', WHAT = talon-seen, talon-exposed, talon-taken, "
                    "misdeal, or 'out-of-turn WHO CALL'"))  # fmt: skip
            what = words[1].lower().lstrip("!")
            what = REPORT_WORDS.get(what, what)
            who = self._seat_of(words[2])
            if what == "out-of-turn" and len(words) > 3:
                call = " ".join(words[3:])
                with contextlib.suppress(PreferansError):
                    call = str(Action.parse(call, bid=True))  # «пас», «7 пик»: the call as the engine writes it
            else:
                call = "pass"
            text = f"!out-of-turn {call}" if what == "out-of-turn" else f"!{what}"
            made = self.accuse(text, who, seat)
            if made is not None:
                return f"{self.names[who]}: {call_name(str(made), self.lang)}"
            if self.accusation is None:
                return t("{name} denies it ({call}): an accusation is not a fact, play goes on",
                         name=self.names[who], call=call_name(text, self.lang))  # fmt: skip
            return t("{name}: {call}? Waiting for {names} to confirm or deny", name=self.names[who],
                     call=call_name(text, self.lang), names=self._waiting_names())  # fmt: skip
        if head in ("confirm", "deny", "признаю", "отрицаю"):
            acc = self.accusation
            made = self.answer(seat, head in ("confirm", "признаю"))
            assert acc is not None  # answer() refused when no report was waiting
            if made is not None:
                return f"{self.names[acc.offender]}: {call_name(str(made), self.lang)}"
            if self.accusation is None:
                return t("The report about {name} is dropped ({call})", name=self.names[acc.offender],
                         call=call_name(str(acc.action), self.lang))  # fmt: skip
            return t("{call}: waiting for {names}", call=call_name(str(acc.action), self.lang),
                     names=self._waiting_names())  # fmt: skip
        raise PreferansError(Msg("command: {word} is not 'report', 'confirm', 'deny' or 'claim'", word=repr(words[0])))

    def _waiting_names(self) -> str:
        return ", ".join(self.names[s] for s in self.answering())

    def _seat_of(self, word: str) -> int:
        for i, name in enumerate(self.names):
            if name.lower() == word.lower():
                return i
        if word.isdigit() and int(word) < self.players:
            return int(word)
        raise PreferansError(Msg("player: {word} is not at this table ({names})", word=repr(word),
                                 names=", ".join(self.names)))

    def automatic_move(self) -> tuple[int, Action] | None:
        """Moves nobody chooses: the face-down redraw (3.3.17); bots' answers to reports and claims.

        Drawn with a generator seeded by the deal's seed and the moves so far, so a
        seeded game replays exactly.
        """
        seat = self.deal.to_act
        if seat is None:
            return None
        rng = random.Random(self.log[-1].seed + len(self.deal.moves))
        bot = self._bots.get(seat)
        ours = bot is not None and not bot.answers_reports  # a bot program answers for itself
        action = automatic_answer(self.deal.phase, self.deal.legal_actions(), bot=ours, rng=rng)
        return None if action is None else (seat, action)

    def act(self, action: Action | int | str, seat: int | None = None) -> Action:
        """A person's decision (text is read by the phase: ``7♠`` bids in the auction).

        An illegal action raises :class:`~preferans.errors.IllegalAction` and
        changes nothing.
        """
        a = self.verify_act(action, seat)
        who = self.deal.to_act if seat is None else seat
        self.move(who, a)
        self.save()
        return a

    def verify_act(self, action: Action | int | str, seat: int | None = None) -> Action:
        """The decision as an action; raises (:class:`~preferans.errors.NotYourTurn`,
        :class:`~preferans.errors.IllegalAction`, ...) and changes nothing.

        ``seat`` (default: the seat to act) must be the seat whose decision it is;
        nobody chooses a face-down redraw (Kodeks 3.3.17).
        """
        deal = self.deal
        if deal.is_over:
            raise DealOver("the deal is over: start the next one")
        a = deal.parse_action(action) if isinstance(action, str) else Action(action)
        if seat is not None and seat != deal.to_act:
            raise NotYourTurn(f"it is seat {deal.to_act}'s turn, not seat {seat}'s")
        if deal.phase is Phase.REDRAW:
            raise NotYourTurn("the redraw is dealt face down: nobody chooses it (Kodeks 3.3.17)")
        deal.verify(a, seat)
        return a

    def forced(self) -> Action | None:
        """The human's single legal card, when ``auto_single`` plays it for him."""
        if not self.auto_single or self.human_to_act is None:
            return None
        return forced_card(self.deal.phase, self.deal.legal_actions())

    @property
    def automatic_seat(self) -> int | None:
        """The seat whose move is made without a person's decision now (a bot's, a face-down
        draw, a forced card), else ``None``; :meth:`bot_turn` makes it."""
        seat = self.deal.to_act
        if seat is None:
            return None
        if not self.is_human(seat) or self.automatic_move() is not None or self.forced() is not None:
            return seat
        return None

    def bot_turn(self) -> tuple[int, Callable[[], Action]] | None:
        """The next automatic move as (seat, thunk) without making it, or ``None`` when a person decides.

        The thunk (a :class:`BotThought` or a :class:`FixedMove`) only reads a
        snapshot, so a front end may run it in a worker thread or process and
        then :meth:`play_for` the answer.
        """
        deal = self.deal
        seat = deal.to_act
        if seat is None:
            return None
        auto = self.automatic_move()
        if auto is not None:
            return auto[0], FixedMove(auto[1])
        if self.is_human(seat):
            forced = self.forced()
            if forced is None:
                return None
            return seat, FixedMove(forced)
        bot = self._bots[seat]
        if seat in self._programs:
            return seat, ProgramThought(bot, deal.copy(), seat, self._program_failed)
        return seat, BotThought(bot, deal.copy(), seat)

    def play_for(self, seat: int, action: Action) -> None:
        """Make an automatic move computed from :meth:`bot_turn`."""
        self._apply(action, seat)

    def bot_step(self) -> Move | None:
        """Let the bot to act (or a forced single card) make one move; ``None`` when a human must decide."""
        turn = self.bot_turn()
        if turn is None:
            return None
        seat, think = turn
        action = think()
        self._apply(action, seat)
        return seat, action

    def run_bots(self) -> list[Move]:
        """Bot moves until a human must decide or the deal ends."""
        moves = []
        while (m := self.bot_step()) is not None:
            moves.append(m)
        if moves:
            self.save()
        return moves

    def undo(self) -> list[Move]:
        """Practice mode: take back everything since (and including) the last human decision."""
        if not self.practice:
            raise PreferansError("undo: only in practice mode (--practice)")
        deal = self.deal
        moves = deal.moves
        if not any(self.is_human(s) for s, _ in moves):
            raise PreferansError("undo: you have made no move in this deal yet")
        if deal.is_over:
            self.pulka.undo()
            self.scores.pop()
        undone: list[Move] = []
        while deal.moves:
            seat = deal.moves[-1][0]
            undone.append((seat, deal.undo()))
            self.log[-1].actions.pop()
            if self.is_human(seat):
                break
        self.save()
        return undone

    def hint(self, seat: int | None = None) -> Hint:
        """What the ``hint_level`` bot would do in this seat's place (it sees only the seat's view)."""
        s = self.deal.to_act if seat is None else seat
        if s is None:
            raise PreferansError("hint: the deal is over")
        if self._hinter is None:
            self._hinter = make_bot(self.hint_level, self.rules, seed=self.seed)
        obs = self.deal.observation(s)
        bot = self._hinter
        values: dict[Action, float] = {}
        reason = ""
        explain = getattr(bot, "explain", None)
        if callable(explain):  # a bot that tells why: {action: expected score}, or (action, values, reason)
            out = explain(obs)
            if isinstance(out, Mapping):
                values = {Action(a): float(v) for a, v in out.items()}
            elif isinstance(out, tuple) and len(out) >= 2:
                values = {Action(a): float(v) for a, v in dict(out[1]).items()}
                reason = str(out[2]) if len(out) > 2 else ""
        action = max(values, key=lambda a: values[a]) if values else bot.act(obs)
        why = ("bot", reason) if reason else _why(bot, obs)
        return Hint(action, values, _WHY_EN[why[0]].format(why[1]), why)

    # -- save and resume ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "names": list(self.names),
            "seed": self.seed,
            "first_dealer": self.pulka.first_dealer,
            "practice": self.practice,
            "auto_single": self.auto_single,
            "max_deals": self.max_deals,
            "lang": self.lang,
            "stopped": self.pulka.is_over and not self._closed_by_rules(),
            "deals": [
                {"seed": d.seed, "dealer": d.dealer, "min_level": d.min_level, "actions": list(d.actions)}
                | ({"hands": list(d.cards[0]), "talon": list(d.cards[1])} if d.cards else {})
                for d in self.log
            ],
        }

    def _closed_by_rules(self) -> bool:
        p = self.pulka
        stopped = p._stopped
        p._stopped = False
        try:
            return p.is_over
        finally:
            p._stopped = stopped

    def to_record(self, headers: Mapping[str, str] | None = None) -> GameRecord:
        """The game as a record (:mod:`preferans.record`); the headers keep what resuming needs
        (and ``headers``, e.g. the event)."""
        headers = {**(headers or {}), "seats": ",".join(self.seats), "seed": str(self.seed), "lang": self.lang}
        if self.practice:
            headers["practice"] = "yes"
        if self.auto_single:
            headers["auto_play"] = "yes"
        if self.max_deals is not None:
            headers["deals"] = str(self.max_deals)
        deals = []
        for number, entry in enumerate(self.log, 1):
            if entry is self.log[-1] and not entry.actions and not self.deal.is_over:
                break  # dealt but not begun: not part of the record yet
            deals.append(self.past_deal(number))
        rec = record_from_pulka(self.pulka, deals, headers=headers)
        if self.pulka.is_over and not self._closed_by_rules():
            rec = rec.replace(stopped=True)
        return rec

    def past_deal(self, number: int) -> Deal:
        """Deal ``number`` (1-based) of this game rebuilt from the log, played as far as it was
        (a copy: the current deal itself is never handed out)."""
        if not 1 <= number <= len(self.log):
            raise PreferansError(f"deal: 1..{len(self.log)}, not {number}")
        entry = self.log[number - 1]
        deal = self._new_deal(entry)
        for text in entry.actions:
            deal.replay_move(None, text)  # SEAT:action for a report or a claim
        return deal

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        """Write the game as a record (to ``path`` or the table's ``save_path``; nothing if neither).

        The text form of :mod:`preferans.record`, or its JSON twin when the
        file name ends in ``.json``.
        """
        target = Path(path) if path is not None else self.save_path
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        fmt = "json" if target.suffix.lower() == ".json" else "text"
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(dumps(self.to_record(), format=fmt), encoding="utf-8")
        tmp.replace(target)

    @classmethod
    def from_record(cls, rec: GameRecord, **overrides: Any) -> Table:
        """Go on with a recorded game: its players, rules and deals; seats and seed from its headers.

        A record made elsewhere (no ``seats`` header) seats a person in seat 0 and bots elsewhere.
        """
        h = rec.headers
        n = len(rec.players)
        seats = h.get("seats") or ",".join(["human"] + ["bot:medium"] * (n - 1))
        try:
            seed = int(h.get("seed", "0"))
        except ValueError:
            raise SaveError(f"seed: the record's seed header must be a number, not {h.get('seed')!r}") from None
        probe = cls(rec.rules, parse_seats(seats), names=rec.players, seed=seed, start=False)
        deals = []
        for i, d in enumerate(rec.deals):
            if not d.complete:
                raise SaveError(f"deal {i + 1}: the record does not show every card, so it cannot be played on")
            reporters = dict(d.reporters)
            entry: dict[str, Any] = {
                "seed": probe.deal_seed(i + 1), "dealer": d.dealer, "min_level": d.min_level,
                "actions": [
                    f"{reporters[k]}:{a.ascii()}" if k in reporters else a.ascii()
                    for k, a in enumerate(d.actions) if a is not None
                ],
            }  # fmt: skip
            fresh = Deal.new(rec.rules, players=n, dealer=d.dealer, seed=entry["seed"], min_level=d.min_level)
            talon = tuple(int(c) for c in d.talon if c is not None)
            if fresh.initial_hands != tuple(d.hands) or tuple(fresh.talon) != talon:
                entry["hands"], entry["talon"] = list(d.hands), list(talon)
            deals.append(entry)
        data = {
            "format": SAVE_FORMAT, "rules": rec.rules.to_dict(), "seats": parse_seats(seats),
            "names": list(rec.players), "seed": seed, "first_dealer": rec.first_dealer,
            "practice": h.get("practice") == "yes", "auto_single": h.get("auto_play") == "yes",
            "max_deals": int(h["deals"]) if h.get("deals", "").isdigit() else None,
            "lang": h.get("lang") if h.get("lang") in LANGS else "en",
            "stopped": rec.stopped, "deals": deals,
        }  # fmt: skip
        return cls.from_dict(data, **overrides)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **overrides: Any) -> Table:
        """Rebuild a table by replaying every saved action (bots are not asked again)."""
        if data.get("format") != SAVE_FORMAT:
            raise SaveError(f"format: not a saved preferans game (format={data.get('format')!r})")
        try:
            rules = Rules.from_dict(data["rules"])
            kwargs: dict[str, Any] = {
                "names": data["names"],
                "seed": int(data["seed"]),
                "first_dealer": int(data.get("first_dealer", 0)),
                "practice": bool(data.get("practice", False)),
                "auto_single": bool(data.get("auto_single", False)),
                "max_deals": data.get("max_deals"),
                "lang": data.get("lang", "en"),
            }
            kwargs.update(overrides)
            table = cls(rules, data["seats"], start=False, **kwargs)
            deals = data["deals"]
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, PreferansError):
                raise
            raise SaveError(f"saved game: missing or bad field {e}") from None
        with table.replaying():
            table._replay_saved(deals, stopped=bool(data.get("stopped")))
        if not table.log:
            table.next_deal()
        return table

    def _replay_saved(self, deals: Sequence[Mapping[str, Any]], *, stopped: bool) -> None:
        table = self
        for i, d in enumerate(deals):
            cards = (tuple(d["hands"]), tuple(d["talon"])) if "hands" in d else None
            entry = DealLog(int(d["seed"]), int(d["dealer"]), int(d["min_level"]), cards=cards)
            if (entry.dealer, entry.min_level) != (table.pulka.next_dealer, table.pulka.min_level):
                raise SaveError(f"deal {i + 1}: dealer/min_level do not follow from the deals before it")
            table.log.append(entry)
            table._start(entry)
            for text in d["actions"]:
                try:
                    table.move(None, text)
                except PreferansError as e:
                    raise SaveError(f"deal {i + 1}, action {text!r}: {e}") from None
            if not table.deal.is_over and i + 1 < len(deals):
                raise SaveError(f"deal {i + 1} is unfinished but more deals follow it")
        if stopped:
            table.pulka.stop()

    @contextlib.contextmanager
    def replaying(self) -> Iterator[None]:
        """Replay stored moves (:meth:`move`, :meth:`next_deal`) without telling the bots each
        of them; afterwards the bot programs hear the game and the deal in progress once, as
        a program started for a resumed game must."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False
        if self.is_over or not self.log:
            return
        for seat, bot in list(self._programs.items()):
            try:
                bot.tell_game(self._game_start(seat))
            except BotProtocolError as e:
                self._program_failed(seat, e)
        if not self.deal.is_over:
            self._tell_deal()

    @classmethod
    def load(cls, path: str | os.PathLike[str], **overrides: Any) -> Table:
        """Resume a saved game (a record); it keeps saving to the same file unless ``save_path`` is given."""
        p = Path(path)
        if not p.exists():
            raise SaveError(f"resume: no saved game at {p}")
        try:
            rec = load_record(p)
        except RecordError as e:
            raise SaveError(f"resume: {p} is not a game record ({e})") from None
        except (UnicodeDecodeError, ValueError) as e:
            raise SaveError(f"resume: {p} is not a game record ({e})") from None
        overrides.setdefault("save_path", p)
        return cls.from_record(rec, **overrides)


def _int_arg(word: str) -> int:
    if not word.isdigit():
        raise PreferansError(Msg("claim: {word} is not a number of tricks", word=repr(word)))
    return int(word)


REPORT_WORDS = {
    "прикуп-видел": "talon-seen", "видел-прикуп": "talon-seen", "прикуп-открыт": "talon-exposed",
    "открыл-прикуп": "talon-exposed", "прикуп-взят": "talon-taken", "взял-прикуп": "talon-taken",
    "пересдача": "misdeal", "ошибка-сдачи": "misdeal", "не-в-очередь": "out-of-turn", "вне-очереди": "out-of-turn",
}  # fmt: skip
"""The Russian words of a typed report (``нарушение прикуп-видел Боря``), for the English kinds."""
