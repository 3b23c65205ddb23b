"""The conformance kit: play a bot through every phase and choice the protocol can ask.

``preferans bot-check cmd:"./mybot"`` runs :func:`check_bot`: a list of
:class:`Scenario` deals — every preset with 2 (гусарик: the whister plays the
dummy open), 3 and 4 players, then the options that open more choices
(misère, all-pass, half-whist, open play, «за своими», concessions, a call
out of turn, claims, dark bids, bids without the talon, a checked 10, the
4-handed dealer's misère invitation) — played as a table plays them, with the
``game``/``deal``/``result``/``end`` messages around.  The other seats follow
each scenario's script; the bot under test is asked every question of its seat
and its answer is checked (legal? in time? did it crash?).  To reach the
scenario's phases the kit may go on with a scripted action instead of the bot's
answer — the protocol lets a table do that (the next observation says what was
played).

The :class:`CheckReport` counts per phase the questions asked, the legal answers,
the illegal or unreadable ones (with the observation message that got them), the
timeouts and the crashes, and lists the situations no scenario reached; it is
clean only when every answer was legal and in time and everything was reached.

>>> from preferans.bots import make_bot
>>> report = check_bot(lambda rules: make_bot("medium", rules, seed=1), presets=("sochi",), players=(3,))
>>> report.clean, report.asked["play"] > 0, report.unreached
(True, True, [])
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import TALON_SEEN_ID, Action, action_phases
from ..engine.deal import Deal
from ..engine.observation import Observation
from ..errors import IllegalAction, PreferansError
from ..rules import Rules
from ..seats import DUMMY
from .base import Bot
from .events import DealStart, GameEnd, GameStart, deal_outcome, rules_digest
from .protocol import BotProtocolError, SubprocessBot, message

__all__ = ["PHASES_ASKED", "CheckReport", "Failure", "Scenario", "check_bot", "scenarios"]

PHASES_ASKED = (
    "bidding", "misere_invite", "discard", "declare", "whist", "concession", "defence", "quota_answer",
    "misere_catch", "play", "lead_penalty", "claim_answer",
)  # fmt: skip
"""Every phase in which a bot can be asked (``redraw`` is drawn face down, nobody chooses)."""

FREE = "*"
"""In a script: whatever the one asked answers (the bot's answer in its seat, a random legal one elsewhere)."""
BID = "bid"
"""In an auction script: the lowest game that may be bid now (the contract is then named by ``declare``)."""


@dataclass(frozen=True)
class Scenario:
    """One deal of the kit: the table (``rules``, ``players``; the dealer is seat 0), the bot's
    ``seat``, and the scripts the deal follows.

    ``auction`` lists the calls in the order they are asked (then everybody passes);
    ``whist`` the whisting calls in order; ``defence`` the lone whister's choices;
    ``catch`` the misère catchers' «ловлю» / «доверяю» in order;
    ``answers`` one answer per phase (``declare``, ``concession``, ``quota_answer``,
    ``lead_penalty``, ``claim_answer``, ``misere_invite``).  :data:`FREE` leaves a
    decision to whoever is asked.  ``out_of_turn`` is a call out of turn reported
    before the first call, ``(offender, call)``; ``claim`` a claim made at the start
    of a trick, ``(claimer, trick number)``, for all the remaining tricks (never
    proved, so the opponents are asked).  ``expect`` names what the bot must have been
    asked (phases, or ``phase:action`` choices).
    """

    name: str
    rules: Rules
    players: int
    seat: int
    auction: tuple[str, ...] = ()
    whist: tuple[str, ...] = ()
    defence: tuple[str, ...] = ()
    catch: tuple[str, ...] = ()
    answers: tuple[tuple[str, str], ...] = ()
    out_of_turn: tuple[int, str] | None = None
    claim: tuple[int, int] | None = None
    expect: tuple[str, ...] = ()
    free: bool = False  # no script at all: everybody decides (a free deal)


@dataclass
class Failure:
    """One bad answer: where, what, and the observation message that got it."""

    scenario: str
    phase: str
    kind: str  # illegal, unreadable, timeout, crash, greeting, protocol
    message: str
    observation: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "phase": self.phase, "kind": self.kind, "message": self.message,
                "observation": self.observation}  # fmt: skip


@dataclass
class CheckReport:
    """What :func:`check_bot` found."""

    name: str = ""
    scenarios: int = 0
    asked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES_ASKED, 0))
    asked_at: dict[int, dict[str, int]] = field(default_factory=dict)  # table size → phase → questions
    asked_in: dict[str, int] = field(default_factory=dict)  # scenario → questions
    answered: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES_ASKED, 0))
    seconds: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PHASES_ASKED})
    failures: list[Failure] = field(default_factory=list)
    offered: set[tuple[str, int]] = field(default_factory=set)
    situations: set[str] = field(default_factory=set)
    unreached: list[str] = field(default_factory=list)

    def count(self, kind: str, phase: str | None = None) -> int:
        return sum(1 for f in self.failures if f.kind == kind and (phase is None or f.phase == phase))

    @property
    def clean(self) -> bool:
        """Every answer legal and in time, no crash, and every phase and choice reached."""
        return not self.failures and not self.unreached

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.name,
            "clean": self.clean,
            "scenarios": self.scenarios,
            "phases": {
                p: {"asked": self.asked[p], "answered": self.answered[p],
                    "illegal": self.count("illegal", p) + self.count("unreadable", p),
                    "timeouts": self.count("timeout", p),
                    "crashes": self.count("crash", p) + self.count("protocol", p) + self.count("greeting", p),
                    "max_seconds": max(self.seconds[p], default=None)}
                for p in PHASES_ASKED
            },
            "tables": {str(n): {p: k for p, k in asked.items() if k} for n, asked in sorted(self.asked_at.items())},
            "failures": [f.to_dict() for f in self.failures],
            "situations": sorted(self.situations),
            "unreached": list(self.unreached),
        }

    def text(self, examples: int = 3) -> str:
        lines = [f"bot-check {self.name}: {self.scenarios} scenario deals", "",
                 f"{'phase':<14} {'asked':>6} {'legal':>6} {'illegal':>8} {'timeouts':>9} {'crashes':>8} "
                 f"{'slowest':>9}"]  # fmt: skip
        for p in PHASES_ASKED:
            slow = max(self.seconds[p], default=0.0)
            lines.append(
                f"{p:<14} {self.asked[p]:>6} {self.answered[p]:>6} "
                f"{self.count('illegal', p) + self.count('unreadable', p):>8} {self.count('timeout', p):>9} "
                f"{self.count('crash', p) + self.count('protocol', p) + self.count('greeting', p):>8} "
                f"{slow * 1000:>7.1f}ms"
            )
        lines += [""] if self.asked_at else []
        for n, asked in sorted(self.asked_at.items()):
            lines.append(f"{n} players: " + ", ".join(f"{p} {k}" for p, k in asked.items() if k))
        if self.failures:
            lines += ["", f"{len(self.failures)} failures:"]
            shown: dict[tuple[str, str], int] = {}
            for f in self.failures:
                key = (f.phase, f.kind)
                shown[key] = shown.get(key, 0) + 1
                if shown[key] > examples:
                    continue
                lines.append(f"  [{f.scenario}] {f.phase}: {f.kind}: {f.message}")
                if f.observation is not None:
                    lines.append("    observation: " + json.dumps(f.observation, ensure_ascii=False))
            hidden = len(self.failures) - sum(min(n, examples) for n in shown.values())
            if hidden:
                lines.append(f"  … and {hidden} more like them (--format json lists every one)")
        if self.unreached:
            lines += ["", "not reached (the kit could not ask these):"] + [f"  {u}" for u in self.unreached]
        lines += ["", "clean: every answer legal and in time, every phase and choice reached" if self.clean
                  else "NOT clean"]  # fmt: skip
        return "\n".join(lines)


# --------------------------------------------------------------------------- the scenarios
# First, second and third hand by table size when seat 0 deals: a table size is one more entry.
HANDS: dict[int, tuple[int, int, int]] = {3: (1, 2, 0), 4: (1, 2, 3)}
TWO_HANDED = 2
"""гусарик: seat 0 deals, seat 1 is first hand, seat 2 the dummy (it never bids; the whister plays it)."""


def _seats(players: int) -> tuple[int, int, int]:
    try:
        return HANDS[players]
    except KeyError:
        sizes = ", ".join(str(n) for n in HANDS)
        raise PreferansError(f"players: the kit has scenarios for tables of {sizes}, not {players}") from None


def scenarios(
    presets: Sequence[str] = Rules.PRESET_NAMES, players: Sequence[int] = (2, 3, 4)
) -> list[Scenario]:
    """Every scenario of the kit: the core deals under each preset and table size, then the options.

    >>> sorted({sc.players for sc in scenarios()}), len(scenarios(("sochi",), (2,)))
    ([2, 3, 4], 21)
    """
    out: list[Scenario] = []
    for n in players:
        if n == TWO_HANDED:
            out += _two_handed(presets)
            continue
        fh, sh, th = _seats(n)
        for name in presets:
            r = Rules.preset(name)
            tag = f"{name}, {n} players"
            out += [
                Scenario(f"{tag}: a free deal, you first hand", r, n, fh, free=True),
                Scenario(f"{tag}: a free deal, you third hand", r, n, th, free=True),
                Scenario(f"{tag}: you declare a game", r, n, sh, auction=("pass", BID), whist=("whist", "pass"),
                         defence=(FREE,), expect=("discard", "declare", "play")),
                Scenario(f"{tag}: you whist alone", r, n, fh, auction=("pass", BID), whist=("pass", "whist"),
                         defence=(FREE,), answers=(("declare", "6♥"),), expect=("whist", "defence", "play")),
                Scenario(f"{tag}: open play, you play your partner's cards", r, n, fh, auction=("pass", BID),
                         whist=("pass", "whist"), defence=("open",), answers=(("declare", "7♦"),),
                         expect=("defence", "play")),
                Scenario(f"{tag}: two whisters", r, n, th, auction=("pass", BID), whist=("whist", "whist"),
                         answers=(("declare", "7♣"),), expect=("whist", "play")),
                Scenario(f"{tag}: half-whist offered to you", r, n, fh, auction=("pass", BID), whist=("pass", FREE),
                         answers=(("declare", "6♦"),), expect=("whist:half-whist",)),
                Scenario(f"{tag}: you answer a half-whist", r, n, sh, auction=(BID,),
                         whist=("pass", "half-whist", FREE), answers=(("declare", "6♣"),), expect=("whist",)),
                Scenario(f"{tag}: you play misère", r, n, fh, auction=("misere",), expect=("discard", "play")),
                Scenario(f"{tag}: you catch a misère", r, n, sh, auction=("misere",), expect=("play",)),
                Scenario(f"{tag}: all-pass, you third hand", r, n, th, expect=("bidding", "play")),
            ]  # fmt: skip
            if n == 4 and name == presets[0]:
                out.append(Scenario(f"{tag}: you deal and whist a game both passed", r.replace(dealer_whist=True),
                                    n, 0, auction=("pass", BID), whist=("pass", "pass", "whist"),
                                    answers=(("declare", "6♠"),), expect=("whist", "play")))  # fmt: skip
            if n == 4 and r.misere_half_with_dealer:
                out.append(Scenario(f"{tag}: you deal and are invited to a misère", r, n, 0, auction=("invite",),
                                    answers=(("misere_invite", FREE),), expect=("misere_invite",)))  # fmt: skip
        base = Rules.preset("sochi")
        tag = f"{n} players"
        out += [
            Scenario(f"{tag}: you hold a bid (here)", base, n, fh, auction=("6♠", "6♣", "pass", FREE),
                     expect=("bidding:here",)),
            Scenario(f"{tag}: за своими offered to you", base.replace(za_svoimi=True), n, fh, auction=("pass", "6♠"),
                     whist=("pass", "whist"), defence=(FREE, FREE, FREE), answers=(("declare", "6♠"),),
                     expect=("defence:quota",)),
            Scenario(f"{tag}: you answer за своими", base.replace(za_svoimi=True), n, sh, auction=("pass", "7♠"),
                     whist=("whist", "pass"), defence=("quota", FREE, FREE), answers=(("declare", "7♠"),
                     ("quota_answer", FREE)), expect=("quota_answer",)),
            Scenario(f"{tag}: you may concede", base.replace(bez_trekh=True, concede_all=True), n, sh,
                     auction=("pass", "8♥"), whist=("whist", "whist"),
                     answers=(("declare", "8♥"), ("concession", FREE)),
                     expect=("concession:concede-3", "concession:concede-all")),
            Scenario(f"{tag}: a defender called out of turn", base.replace(irregularity_reports=True), n, sh,
                     auction=("pass", "6NT"), whist=("whist", "whist"), out_of_turn=(th, "7♥"),
                     answers=(("declare", "6NT"), ("lead_penalty", FREE)), expect=("lead_penalty",)),
            Scenario(f"{tag}: the declarer claims", base.replace(claims=True), n, fh, auction=("pass", "7♠"),
                     whist=("whist", "whist"), claim=(sh, 3), answers=(("declare", "7♠"), ("claim_answer", FREE)),
                     expect=("claim_answer",)),
            Scenario(f"{tag}: a defender claims", base.replace(claims=True), n, sh, auction=("pass", "6♠"),
                     whist=("whist", "whist"), claim=(fh, 4), answers=(("declare", "6♠"), ("claim_answer", FREE)),
                     expect=("claim_answer",)),
            Scenario(f"{tag}: dark bids", base.replace(dark_bids=True, without_talon_bids=True), n, fh,
                     auction=(FREE,),
                     expect=("bidding:dark pass", "bidding:dark 10NT", "bidding:dark misere-no-talon")),
            Scenario(f"{tag}: you bid without the talon", base.replace(without_talon_bids=True), n, fh,
                     auction=("9-no-talon",), whist=("whist", "pass"), expect=("declare", "bidding:misere-no-talon")),
            Scenario(f"{tag}: misère without the talon", base.replace(without_talon_bids=True), n, fh,
                     auction=("misere-no-talon",), expect=("play",)),
            Scenario(f"{tag}: your misère overcalled, you may bid a nine",
                     base.replace(misere_bidder_may_continue=True), n, fh, auction=("misere", "9♠", "pass", FREE),
                     expect=("bidding:9♣",)),
            Scenario(f"{tag}: after misère you may name a game", base.replace(misere_winner_must_play_misere=False),
                     n, fh, auction=("misere",), answers=(("declare", FREE),), expect=("declare:misere",)),
            Scenario(f"{tag}: open or closed before the first lead", base.replace(open_timing="before_first_lead"),
                     n, fh, auction=("pass", "6♠"), whist=("pass", "whist"), defence=(FREE,),
                     answers=(("declare", "6♠"),), expect=("defence:open", "defence:closed")),
            Scenario(f"{tag}: you fall back to half-whist", base.replace(first_defender_half_whist=True), n, sh,
                     auction=(BID,), whist=("whist", "pass", FREE), answers=(("declare", "6♣"),),
                     expect=("whist:half-whist",)),
            Scenario(f"{tag}: both passed, you may still whist", base.replace(first_defender_second_call=True), n,
                     sh, auction=(BID,), whist=("pass", "pass", FREE), answers=(("declare", "7♥"),),
                     expect=("whist",)),
            Scenario(f"{tag}: you play a half-whist", base.replace(half_whist_played=True), n, fh,
                     auction=("pass", BID), whist=("pass", "half-whist", "pass"), answers=(("declare", "6♦"),),
                     expect=("play",)),
            Scenario(f"{tag}: misère: you say «ловлю»", base.replace(misere_catchers="one_for_both"), n, sh,
                     auction=("misere",), catch=("whist", "accept"), expect=("misere_catch:whist", "play")),
            Scenario(f"{tag}: misère: your partner says «ловлю»", base.replace(misere_catchers="one_for_both"), n,
                     th, auction=("misere",), catch=("whist", FREE), expect=("misere_catch:accept",)),
            Scenario(f"{tag}: misère: you play against one catcher", base.replace(misere_catchers="one_for_both"), n,
                     fh, auction=("misere",), catch=("whist", "accept"), expect=("play",)),
            Scenario(f"{tag}: a checked 10", base, n, sh, auction=("pass", "6♠"), answers=(("declare", "10♠"),),
                     expect=("play",)),
            Scenario(f"{tag}: a whisted 10", base.replace(ten_mode="whisted"), n, fh, auction=("pass", "10NT"),
                     whist=("pass", FREE), expect=("whist",)),
        ]  # fmt: skip
    return out


def _two_handed(presets: Sequence[str]) -> list[Scenario]:
    """гусарик (rules.md §16): seat 1 first hand, seat 0 the dealer and second hand, seat 2 the dummy.

    The one defender whists or passes alone and, whisting or catching a misère, plays the
    dummy's cards open; an all-pass is ten tricks of two.  No «ловлю» (one catcher already
    plays both hands) and no call out of turn to answer (the offender's partner is the dummy).
    """
    out: list[Scenario] = []
    fh, dealer = 1, 0
    for name in presets:
        r = Rules.preset(name)
        if r.raspas_talon in ("suit_only", "participates"):
            r = r.replace(raspas_talon="auto")  # the talon is not opened in гусарик (Kodeks 3.7.6.4)
        tag = f"{name}, 2 players"
        out += [
            Scenario(f"{tag}: a free deal, you first hand", r, 2, fh, free=True),
            Scenario(f"{tag}: a free deal, you deal", r, 2, dealer, free=True),
            Scenario(f"{tag}: you declare a game", r, 2, dealer, auction=("pass", BID), whist=("whist",),
                     defence=(FREE,), expect=("discard", "declare", "play")),
            Scenario(f"{tag}: you whist and play the dummy", r, 2, fh, auction=("pass", BID), whist=("whist",),
                     defence=(FREE,), answers=(("declare", "6♥"),), expect=("whist", "play")),
            Scenario(f"{tag}: you may pass a game", r, 2, fh, auction=("pass", BID), whist=(FREE,),
                     answers=(("declare", "7♣"),), expect=("whist:pass", "whist:whist")),
            Scenario(f"{tag}: you play misère", r, 2, fh, auction=("misere",), expect=("discard", "play")),
            Scenario(f"{tag}: you catch a misère with the dummy", r, 2, dealer, auction=("misere",),
                     expect=("play",)),
            Scenario(f"{tag}: all-pass, you deal", r, 2, dealer, expect=("bidding", "play")),
        ]  # fmt: skip
    base = Rules.preset("sochi")
    tag = "2 players"
    out += [
        Scenario(f"{tag}: you hold a bid (here)", base, 2, fh, auction=("6♠", "6♣", FREE), expect=("bidding:here",)),
        Scenario(f"{tag}: за своими offered to you", base.replace(za_svoimi=True), 2, fh, auction=("pass", "6♠"),
                 whist=("whist",), defence=(FREE, FREE, FREE), answers=(("declare", "6♠"),),
                 expect=("defence:quota",)),
        Scenario(f"{tag}: you answer за своими", base.replace(za_svoimi=True), 2, dealer, auction=("pass", "7♠"),
                 whist=("whist",), defence=("quota", FREE, FREE), answers=(("declare", "7♠"), ("quota_answer", FREE)),
                 expect=("quota_answer",)),
        Scenario(f"{tag}: you may concede", base.replace(bez_trekh=True, concede_all=True), 2, dealer,
                 auction=("pass", "8♥"), whist=("whist",), answers=(("declare", "8♥"), ("concession", FREE)),
                 expect=("concession:concede-3", "concession:concede-all")),
        Scenario(f"{tag}: the declarer claims", base.replace(claims=True), 2, fh, auction=("pass", "7♠"),
                 whist=("whist",), claim=(dealer, 3), answers=(("declare", "7♠"), ("claim_answer", FREE)),
                 expect=("claim_answer",)),
        Scenario(f"{tag}: the whister claims", base.replace(claims=True), 2, dealer, auction=("pass", "6♠"),
                 whist=("whist",), claim=(fh, 4), answers=(("declare", "6♠"), ("claim_answer", FREE)),
                 expect=("claim_answer",)),
        Scenario(f"{tag}: half-whist, by agreement", base.replace(half_whist_two_handed=True), 2, fh,
                 auction=("pass", BID), whist=(FREE,), answers=(("declare", "6♦"),), expect=("whist:half-whist",)),
        Scenario(f"{tag}: dark bids", base.replace(dark_bids=True, without_talon_bids=True), 2, fh,
                 auction=(FREE,), expect=("bidding:dark pass", "bidding:dark misere-no-talon")),
        Scenario(f"{tag}: your misère overcalled, you may bid a nine", base.replace(misere_bidder_may_continue=True),
                 2, fh, auction=("misere", "9♠", FREE), expect=("bidding:9♣",)),
        Scenario(f"{tag}: after misère you may name a game", base.replace(misere_winner_must_play_misere=False),
                 2, fh, auction=("misere",), answers=(("declare", FREE),), expect=("declare:misere",)),
        Scenario(f"{tag}: a checked 10", base, 2, fh, auction=("pass", "6♠"), answers=(("declare", "10♠"),),
                 expect=("play",)),
        Scenario(f"{tag}: a whisted 10", base.replace(ten_mode="whisted"), 2, fh, auction=("pass", "10NT"),
                 whist=(FREE,), expect=("whist",)),
        Scenario(f"{tag}: the declarer in a whisted 10", base.replace(ten_mode="whisted"), 2, dealer,
                 auction=("pass", "10♥"), whist=("whist",), expect=("play",)),
    ]  # fmt: skip
    return out


# --------------------------------------------------------------------------- running
class _Director:
    """Chooses the moves of one scenario deal: scripted ones first, then the bot's or a random one."""

    def __init__(self, sc: Scenario, rng: random.Random) -> None:
        self.sc = sc
        self.rng = rng
        self.queues = {"bidding": list(sc.auction), "whist": list(sc.whist), "defence": list(sc.defence),
                       "misere_catch": list(sc.catch)}  # fmt: skip
        self.answers = dict(sc.answers)

    def scripted(self, phase: str) -> str | None:
        """The script's move for this question: text, :data:`FREE`, or ``None`` (no script)."""
        if self.sc.free:
            return None
        q = self.queues.get(phase)
        if q is not None:
            if q:
                return q.pop(0)
            return "pass" if phase in ("bidding", "whist") else None
        if phase == "concession":
            return self.answers.get(phase, "play")  # the declarer plays on unless the scenario asks otherwise
        return self.answers.get(phase)

    def fallback(self, deal: Deal, legal: tuple[Action, ...]) -> Action:
        """A random legal move, passing often in the auction so that deals stay ordinary."""
        if deal.phase.value == "bidding" and Action.parse("pass") in legal and self.rng.random() < 0.7:
            return Action.parse("pass")
        return self.rng.choice(list(legal))


def _parse(deal: Deal, text: str, legal: tuple[Action, ...]) -> Action:
    if text == BID:
        for a in legal:
            c = a.contract
            if c is not None and not a.is_dark and not c.is_misere and not c.without_talon:
                return a
    return deal.parse_action(text)


class _Checker:
    def __init__(self, make: Callable[[Rules], Bot], report: CheckReport, seed: int, settle: float) -> None:
        self.make = make
        self.settle = settle
        self.report = report
        self.seed = seed
        self.bot: Bot | None = None
        self.game: GameStart | None = None
        self.deal_start: DealStart | None = None
        self.number = 0
        self.benched = False  # the bot crashed or timed out in this deal: not asked again until the next
        self.claimed = False  # the scenario's claim is made once: a refusal lets play go on

    # -- the bot's life: started once, restarted after a crash ------------------------------
    def _bot(self, rules: Rules) -> Bot:
        if self.bot is None:
            self.bot = self.make(rules)
            self.report.name = self.report.name or getattr(self.bot, "name", "bot")
        self.bot.rules = rules
        return self.bot

    def _running(self) -> bool:
        return bool(getattr(self.bot, "running", True))

    @property
    def refused(self) -> bool:
        """The program's greeting was refused: it can be told and asked nothing more."""
        return bool(self.report.count("greeting"))

    def _tell(self, sc: Scenario, call: Callable[[Bot], None]) -> None:
        if self.refused:
            return
        bot = self._bot(sc.rules)
        try:
            call(bot)
        except BotProtocolError as e:
            self.report.failures.append(Failure(sc.name, "-", _kind(e), str(e)))
        except Exception as e:  # a bot in this process may raise anything: that is a crash
            self.report.failures.append(Failure(sc.name, "-", "crash", f"{type(e).__name__}: {e}"))

    def _ensure_told(self, sc: Scenario) -> None:
        """A restarted program is told the game and the deal again, as a resumed table does."""
        if self._running() or self.game is None:
            return
        game, start = self.game, self.deal_start
        self._tell(sc, lambda b: b.tell_game(game))
        if start is not None:
            self._tell(sc, lambda b: b.tell_deal(start))

    def ask(self, sc: Scenario, deal: Deal, seat: int) -> Action | None:
        """Ask the bot; count and check its answer; ``None`` when it failed."""
        self._ensure_told(sc)
        bot = self._bot(sc.rules)
        obs = deal.observation(seat)
        phase = obs.phase
        rep = self.report
        rep.asked[phase] += 1
        at = rep.asked_at.setdefault(sc.players, dict.fromkeys(PHASES_ASKED, 0))
        at[phase] += 1
        rep.asked_in[sc.name] = rep.asked_in.get(sc.name, 0) + 1
        rep.offered.update((phase, int(x)) for x in obs.legal_actions)
        _situations(obs, rep.situations)
        began = time.perf_counter()
        try:
            answer = bot.act(obs)
        except BotProtocolError as e:
            rep.failures.append(Failure(sc.name, phase, _kind(e), str(e), message(obs)))
            self.benched = _kind(e) in ("timeout", "crash", "greeting")
            return None
        except Exception as e:  # a bot in this process may raise anything: that is a crash
            rep.failures.append(Failure(sc.name, phase, "crash", f"{type(e).__name__}: {e}", message(obs)))
            self.benched = True
            return None
        finally:
            rep.seconds[phase].append(time.perf_counter() - began)
        a: Action | None
        try:
            a = Action(int(answer))
        except (PreferansError, TypeError, ValueError):
            a = None
        if a is None or a not in obs.legal_actions:
            legal = ", ".join(str(x) for x in obs.legal_actions)
            rep.failures.append(Failure(sc.name, phase, "illegal", f"answered {answer!r}; legal are {legal}",
                                        message(obs)))  # fmt: skip
            return None
        rep.answered[phase] += 1
        return a

    # -- one scenario ----------------------------------------------------------------------------
    def play(self, index: int, sc: Scenario) -> None:
        rng = random.Random(f"{self.seed}:{index}")
        deal = Deal.new(sc.rules, players=sc.players, dealer=0, seed=rng.getrandbits(32))
        if self.game is None or self.game.players != sc.players:
            self.end("finished")
            self.number = 0
            self.game = GameStart(players=sc.players, rules_digest=rules_digest(sc.rules), scoring="deals")
            game = self.game
            self._tell(sc, lambda b: b.tell_game(game))
        self.number += 1
        start = self.deal_start = DealStart(self.number, sc.seat, 0, sc.players, rules_digest(sc.rules))
        self._tell(sc, lambda b: b.tell_deal(start))
        director = _Director(sc, rng)
        self.benched = self.claimed = False
        if sc.out_of_turn is not None:
            offender, call = sc.out_of_turn
            deal.report(f"!out-of-turn {call}", offender)
        asked_here: set[str] = set()
        while not deal.is_over:
            self._maybe_claim(sc, deal)
            seat = deal.to_act
            assert seat is not None
            phase = deal.phase.value
            legal = deal.legal_actions()
            if phase == "redraw":  # face down, nobody chooses (Kodeks 3.3.17)
                deal.apply(rng.choice(list(legal)))
                continue
            script = director.scripted(phase)
            if phase == "claim_answer" and seat != sc.seat:
                script = "accept"  # the others accept, so the question reaches the bot
            answer = None
            if seat == sc.seat and not self.benched and not self.refused:
                answer = self.ask(sc, deal, seat)
                asked_here.add(phase)
                asked_here.update(f"{phase}:{a}" for a in legal)
            action = None
            if script is not None and script != FREE:
                try:
                    action = _parse(deal, script, legal)
                except PreferansError:
                    action = None
                if action is None or action not in legal:
                    raise _KitError(f"{sc.name}: the script's {script!r} is not legal in {phase}")
            if action is None:
                action = answer if answer is not None else director.fallback(deal, legal)
            deal.apply(action, seat=seat)
        for want in sc.expect:
            if want not in asked_here:
                self.report.unreached.append(f"[{sc.name}] the bot was not asked {want!r}")
        outcome = deal_outcome(self.number, deal.result, sc.rules)
        self._tell(sc, lambda b: b.tell_result(outcome))
        program = self.bot
        if isinstance(program, SubprocessBot) and self.settle > 0:
            # A bot that answers a message needing no answer desynchronises: catch it here.
            self._tell(sc, lambda _: program.check_unasked(self.settle))

    def _maybe_claim(self, sc: Scenario, deal: Deal) -> None:
        if sc.claim is None or self.claimed or deal.phase.value != "play" or deal.trick:
            return
        claimer, at = sc.claim
        if deal.trick_number + 1 != at:
            return
        self.claimed = True
        try:
            deal.claim(claimer, deal.tricks_remaining(), proven=False)
        except IllegalAction as e:
            raise _KitError(f"{sc.name}: the claim cannot be made: {e}") from None

    def end(self, reason: str) -> None:
        if self.game is None or self.bot is None:
            return
        end = GameEnd(self.number, reason)
        with contextlib.suppress(PreferansError):  # a program that is gone hears nothing more
            if self._running():
                self.bot.tell_end(end)


class _KitError(PreferansError):
    """A scenario of the kit cannot be played as written (a bug of the kit, not of the bot)."""


def _kind(e: BotProtocolError) -> str:
    return e.kind

def _situations(obs: Observation, out: set[str]) -> None:
    """Named situations an outside author's bot must handle, recorded when asked in them."""
    if obs.phase == "play":
        if obs.players == TWO_HANDED and obs.to_play == DUMMY:
            out.add(DUMMY_PLAYED)
        elif obs.to_play is not None and obs.to_play != obs.seat:
            out.add("you play your partner's cards (open play)")
        if obs.contract is None and obs.declarer is None:
            out.add("all-pass")
            if obs.trick and obs.trick[0][0] in (-1, obs.dealer):
                out.add("all-pass: a talon card leads the trick")
        elif obs.contract is not None and obs.contract.is_misere:
            out.add("misère: you declare" if obs.declarer == obs.seat else "misère: you catch, hands face up")
        elif obs.declarer == obs.seat:
            out.add("a game: you declare")
        else:
            out.add("a game: you defend")
    if obs.players == 4 and obs.seat == obs.dealer:
        out.add(DEALER_OF_FOUR)


MAX_BREAKDOWNS = 10
"""Crashes and timeouts after which the kit stops (a bot that always times out would take hours)."""

DEALER_OF_FOUR = "you deal at a table of four"
DUMMY_PLAYED = "гусарик: you play the dummy's cards"
TALON_LEADS = "all-pass: a talon card leads the trick"
REQUIRED_SITUATIONS = (
    "you play your partner's cards (open play)", "all-pass", TALON_LEADS,
    "misère: you declare", "misère: you catch, hands face up", "a game: you declare", "a game: you defend",
    DEALER_OF_FOUR, DUMMY_PLAYED,
)  # fmt: skip
NEEDS_PLAYERS: dict[str, tuple[int, ...]] = {
    DEALER_OF_FOUR: (4,), DUMMY_PLAYED: (2,), TALON_LEADS: (3, 4), "you play your partner's cards (open play)": (3, 4),
    "phase misere_invite": (4,), "phase misere_catch": (3, 4), "phase lead_penalty": (3, 4),
    "choice bidding:invite": (4,),  # misère «пополам» with the 4-handed dealer (Kodeks 3.6.9)
    "choice defence:closed": (3, 4), "choice defence:play": (3, 4),  # in гусарик the whister plays open
}  # fmt: skip
"""What only some table sizes can ask (a phase, a situation; the choices of such a phase likewise)."""


def _possible(what: str, players: Sequence[int]) -> bool:
    return any(n in players for n in NEEDS_PLAYERS.get(what, (2, 3, 4)))


def check_bot(
    make: Callable[[Rules], Bot],
    *,
    presets: Sequence[str] = Rules.PRESET_NAMES,
    players: Sequence[int] = (2, 3, 4),
    seed: int = 1,
    only: Iterable[Scenario] | None = None,
    progress: Callable[[int, int], None] | None = None,
    settle: float = 0.02,
) -> CheckReport:
    """Play every scenario with the bot ``make`` builds (once; a program is restarted after a crash).

    ``only`` runs the given scenarios instead of :func:`scenarios`; then only what they
    expect has to be reached.  After each deal's ``result`` a program is given ``settle``
    seconds to show whether it answers messages that need no answer.
    """
    chosen = list(only) if only is not None else scenarios(presets, players)
    report = CheckReport()
    checker = _Checker(make, report, seed, settle)
    try:
        for i, sc in enumerate(chosen):
            if checker.refused:
                report.unreached.append("the rest: stopped, the program's greeting was refused (see the failure)")
                break
            if report.count("timeout") + report.count("crash") >= MAX_BREAKDOWNS:
                report.unreached.append(f"the rest: stopped after {MAX_BREAKDOWNS} crashes and timeouts")
                break
            checker.play(i, sc)
            report.scenarios += 1
            if progress is not None:
                progress(i + 1, len(chosen))
        checker.end("finished")
    finally:
        if checker.bot is not None:
            checker.bot.close()
    if only is None and not report.unreached:
        report.unreached += _missing_choices(report, players)
        wanted = [s for s in REQUIRED_SITUATIONS if _possible(s, players)]
        report.unreached += [f"situation: {s}" for s in wanted if s not in report.situations]
    return report


def _missing_choices(report: CheckReport, players: Sequence[int]) -> list[str]:
    """Phases never asked, and calls (ids 32–107) the protocol can offer that were never offered."""
    out = [f"phase {p}" for p in PHASES_ASKED if not report.asked[p] and _possible(f"phase {p}", players)]
    for i in range(32, TALON_SEEN_ID):
        for p in action_phases(i):
            what = f"choice {p}:{Action(i)}"
            if (p, i) in report.offered or not _possible(f"phase {p}", players) or not _possible(what, players):
                continue
            out.append(what)
    return out

