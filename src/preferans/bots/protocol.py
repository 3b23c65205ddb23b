"""The bot protocol: a bot in any language plays over standard input and output.

One JSON object per line from the table, one line of text back from the bot
(see ``docs/bot-protocol.md``)::

    table → {"type": "hello", "protocol": "preferans-bot/2", "versions": ["preferans-bot/1", "preferans-bot/2"]}
    bot   → ok mybot preferans-bot/2
    table → {"type": "rules", "rules": {...}, "digest": "..."}
    table → {"type": "game", "players": 3, "seat": 1, ...}
    table → {"type": "deal", "number": 1, "seat": 1, "dealer": 0, ...}
    table → {"type": "observation", "observation": {...}, "legal_ids": [...], "move_ids": [...]}
    bot   → 7♠
    table → {"type": "result", "number": 1, "written": [...], "net": [...], "result": {...}}
    table → {"type": "end", "deals": 12, "net": [...]}
    table → {"type": "quit"}

A bot that greets with a bare ``ok NAME`` speaks version 1 (the same messages;
see the document for what differs).  :class:`SubprocessBot` is the table's side:
a :class:`~preferans.bots.Bot` that runs a command and asks it.  A late,
unreadable or illegal answer raises :class:`BotProtocolError` naming the bot
and what went wrong; the deal is not touched, since the table applies only a
legal action.  :func:`serve` is the bot's side, used by ``preferans bot --level hard``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import IO, Any

from ..actions import Action, Contract
from ..cards import Card
from ..engine.observation import Observation, Phase
from ..engine.standing import Standing
from ..errors import ActionError, BotProtocolError, CardError
from ..rules import Rules
from .base import Bot
from .events import DealOutcome, DealStart, GameEnd, GameStart, rules_digest
from .sandbox import ProgramSlots, exit_reason

__all__ = [
    "PROTOCOL",
    "VERSIONS",
    "BotProtocolError",
    "SubprocessBot",
    "hello",
    "message",
    "observation_from_dict",
    "parse_answer",
    "parse_greeting",
    "serve",
]

V1 = "preferans-bot/1"
PROTOCOL = "preferans-bot/2"
"""The newest version of the protocol, the one a table offers first."""
VERSIONS = (V1, PROTOCOL)
"""Every version a table speaks (a bot greeting with a bare ``ok NAME`` speaks version 1)."""
DEFAULT_TIMEOUT = 10.0



# --------------------------------------------------------------------------- messages
def hello() -> dict[str, Any]:
    """The table's first message: the version it prefers and every version it speaks."""
    return {"type": "hello", "protocol": PROTOCOL, "versions": list(VERSIONS)}


def parse_greeting(line: str) -> tuple[str, str]:
    """Read the bot's answer to ``hello``: ``ok NAME`` (version 1) or ``ok NAME preferans-bot/N``.

    Returns (name, version).  A bot that cannot speak any version offered answers
    ``no REASON``.

    >>> parse_greeting("ok mybot preferans-bot/2"), parse_greeting("ok old bot")
    (('mybot', 'preferans-bot/2'), ('old bot', 'preferans-bot/1'))
    >>> parse_greeting("ok mybot preferans-bot/9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    preferans.errors.BotProtocolError: protocol version: the bot speaks preferans-bot/9; this table ...
    """
    words = line.split()
    if words and words[0] == "no":
        reason = " ".join(words[1:]) or "no reason given"
        raise BotProtocolError(
            f"protocol version: the bot speaks none of {', '.join(VERSIONS)} ({reason})"
        )
    if not words or words[0] != "ok":
        raise BotProtocolError(f"expected 'ok NAME' as the greeting, got {line!r}")
    version = V1
    if len(words) > 1 and words[-1].startswith("preferans-bot/"):
        version = words.pop()
        if version not in VERSIONS:
            raise BotProtocolError(
                f"protocol version: the bot speaks {version}; this table speaks {', '.join(VERSIONS)}"
            )
    return " ".join(words[1:]), version


V2_FIELDS = ("move_phases", "highest_bid", "bidder", "winning_bid", "defenders", "whisters", "catcher", "standing")
"""The observation's fields new in version 2 (a version-1 bot is sent the observation without them;
``standing``, the pulka's sheet, came to version 2 later, as a field its bots may ignore)."""


def message(obs: Observation, version: str = PROTOCOL) -> dict[str, Any]:
    """The observation message: :meth:`Observation.to_dict` plus the action ids
    (``7♠`` is both a bid and a card; the ids say which).

    >>> from preferans import Deal, Rules
    >>> obs = Deal.new(Rules(), seed=1).observation(1)
    >>> "move_phases" in message(obs)["observation"], "move_phases" in message(obs, "preferans-bot/1")["observation"]
    (True, False)
    """
    body = obs.to_dict()
    if version == V1:
        for key in V2_FIELDS:
            del body[key]
    return {
        "type": "observation",
        "observation": body,
        "legal_ids": [int(a) for a in obs.legal_actions],
        "move_ids": [None if a is None else int(a) for _, a in obs.moves],
    }


def _mask(cards: list[str]) -> int:
    m = 0
    for t in cards:
        m |= 1 << Card.parse(t)
    return m


def observation_from_dict(msg: Mapping[str, Any]) -> Observation:
    """Rebuild an :class:`Observation` from an observation message."""
    d = msg["observation"]
    move_ids = msg.get("move_ids")
    moves: list[tuple[int, Action | None]] = []
    for i, (s, text) in enumerate(d["moves"]):
        if text is None:
            moves.append((int(s), None))
        elif move_ids is not None:
            moves.append((int(s), Action(move_ids[i])))
        else:
            moves.append((int(s), Action.parse(text)))
    phase = Phase(d["phase"])
    legal_ids = msg.get("legal_ids")
    if legal_ids is not None:
        legal = tuple(Action(i) for i in legal_ids)
    else:
        as_bid = phase not in (Phase.PLAY, Phase.DISCARD)
        legal = tuple(Action.parse(t, bid=as_bid) for t in d["legal_actions"])
    contract = Contract.parse(d["contract"]) if d.get("contract") else None

    def bid(key: str) -> Contract | None:
        text = d.get(key)
        return Contract.parse(text) if text else None

    catcher = d.get("catcher")
    bidder = d.get("bidder")
    standing = d.get("standing")
    return Observation(
        seat=int(d["seat"]),
        players=int(d["players"]),
        dealer=int(d["dealer"]),
        phase=phase,
        to_act=d.get("to_act"),
        to_play=d.get("to_play"),
        hand=_mask(d["hand"]),
        known_hands=MappingProxyType({int(s): _mask(h) for s, h in d.get("known_hands", {}).items()}),
        talon=tuple(Card.parse(t) if t is not None else None for t in d["talon"]),  # type: ignore[arg-type]
        discard=_mask(d.get("discard", [])),
        moves=tuple(moves),
        declarer=d.get("declarer"),
        contract=contract,
        open_play=bool(d.get("open_play", False)),
        trick=tuple((int(s), Card.parse(c)) for s, c in d.get("trick", [])),
        completed_tricks=tuple(
            (tuple((int(s), Card.parse(c)) for s, c in t["cards"]), int(t["winner"]))
            for t in d.get("completed_tricks", [])
        ),
        tricks_won=tuple(int(x) for x in d["tricks_won"]),
        legal_actions=legal,
        move_phases=tuple(Phase(p) for p in d.get("move_phases", ())),
        highest_bid=bid("highest_bid"),
        bidder=None if bidder is None else int(bidder),
        winning_bid=bid("winning_bid"),
        defenders=tuple(int(x) for x in d.get("defenders", ())),
        whisters=tuple(int(x) for x in d.get("whisters", ())),
        catcher=None if catcher is None else int(catcher),
        standing=None if standing is None else Standing.from_dict(standing),
    )


def parse_answer(text: str, obs: Observation) -> Action:
    """Read a bot's answer in the context of the phase; raise unless it is legal."""
    t = text.strip()
    legal = obs.legal_actions
    try:
        if t.isdigit():  # an action id (docs/bot-protocol.md, "Action ids")
            a = Action(int(t))
        else:
            a = Action.parse(t) if obs.phase in (Phase.PLAY, Phase.DISCARD) else Action.parse(t, bid=True)
    except (ActionError, CardError) as e:
        raise BotProtocolError(f"cannot read the answer {t!r}: {e}", "unreadable") from None
    if a not in legal:
        raise BotProtocolError(
            f"illegal answer {t!r} in phase {obs.phase}: legal are " + ", ".join(str(x) for x in legal), "illegal"
        )
    return Action(int(a))


# --------------------------------------------------------------------------- table side
class SubprocessBot(Bot):
    """A bot program run as a subprocess and asked over the protocol.

    ``command`` is a shell-like string (``"./mybot --fast"``) or an argument list.
    ``timeout`` is the seconds allowed per answer; ``start_timeout`` for the
    greeting (a program may be slow to start on a busy machine).  ``protocol``
    is the version agreed in the greeting.  ``slots`` (a server's): the program
    starts only while a slot is free, under the slots' resource limits, and gives
    its slot back once it has ended and been waited for.
    """

    name = "cmd"
    answers_reports = True  # a program is asked every question the protocol lists

    def __init__(
        self,
        command: str | list[str],
        rules: Rules,
        *,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = 30.0,
        slots: ProgramSlots | None = None,
    ) -> None:
        super().__init__(rules, seed=seed)
        self.slots = slots  # the server's count of running programs, and each one's limits
        self.start_timeout = start_timeout
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.name = "cmd:" + " ".join(self.command)
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._sent_rules: Rules | None = None
        self._last_told = "hello"
        self._seat: int | None = None
        self._slot = False  # holds one of ``slots``
        self.bot_name = ""
        self.protocol = PROTOCOL

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the program and wait for its greeting (``ok NAME [VERSION]``)."""
        if self.running:
            return
        self._end()  # a program that exited on its own: waited for, its slot given back
        slots = self.slots
        if slots is not None:
            if not slots.acquire():
                raise BotProtocolError(f"{self.name}: the server already runs its {slots.cap} bot programs", "limit")
            self._slot = True
        command = self.command
        if slots is not None:
            if shutil.which(command[0]) is None:  # said now: the wrapper would only exit
                self._end()
                raise BotProtocolError(f"{self.name}: cannot start the bot: no program {command[0]!r}", "crash")
            command = slots.limits.wrap(command)
        try:
            self._proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
            )
        except OSError as e:
            self._end()
            raise BotProtocolError(f"{self.name}: cannot start the bot: {e}", "crash") from None
        self._lines = queue.Queue()
        out = self._proc.stdout
        assert out is not None
        threading.Thread(target=_pump, args=(out, self._lines), daemon=True).start()
        self._sent_rules = None
        self._send(hello())
        greeting = self._read("the greeting", max(self.timeout, self.start_timeout))
        try:
            self.bot_name, self.protocol = parse_greeting(greeting)
        except BotProtocolError as e:
            self._kill()
            raise BotProtocolError(f"{self.name}: {e}", "greeting") from None

    def _tell(self, kind: str, body: Mapping[str, Any]) -> None:
        """Send a message that needs no answer (starting the program if need be)."""
        self.start()
        self._send_rules()
        self._send({"type": kind, **body})
        self._last_told = kind

    def _send_rules(self) -> None:
        if self._sent_rules != self.rules:
            self._send({"type": "rules", "rules": self.rules.to_dict(), "digest": rules_digest(self.rules)})
            self._sent_rules = self.rules
            self._last_told = "rules"

    def tell_game(self, game: GameStart) -> None:
        self._tell("game", game.to_dict())

    def tell_deal(self, deal: DealStart) -> None:
        self._seat = deal.seat
        self._tell("deal", deal.to_dict())

    def tell_result(self, outcome: DealOutcome) -> None:
        """Send the outcome of a deal (no answer expected)."""
        if self.running:
            self._tell("result", {**outcome.to_dict(), "seat": self._seat})

    def tell_end(self, end: GameEnd) -> None:
        if self.running:
            self._tell("end", end.to_dict())

    def act(self, observation: Observation) -> Action:
        self.start()
        self._send_rules()
        self._check_unasked()
        self._send(message(observation, self.protocol))
        answer = self._read(f"an action in phase {observation.phase}")
        try:
            return parse_answer(answer, observation)
        except BotProtocolError as e:
            self._send({"type": "error", "message": str(e)})
            raise BotProtocolError(f"{self.name}: {e}", e.kind) from None

    def check_unasked(self, wait: float = 0.0) -> None:
        """Raise if the program wrote a line nobody asked for (waiting up to ``wait`` seconds for one).

        Such a line would be read as the next answer; :meth:`act` checks before each
        question, and the conformance kit also waits a moment after each ``result``.
        """
        if self.running:
            self._check_unasked(wait)

    def _check_unasked(self, wait: float = 0.0) -> None:
        try:
            line = self._lines.get(timeout=wait) if wait > 0 else self._lines.get_nowait()
        except queue.Empty:
            return
        if line is None:
            self._lines.put(None)  # the program exited: _read reports it
            return
        self._kill()
        raise BotProtocolError(
            f"{self.name}: wrote {line.strip()!r} unasked (after a {self._last_told!r} message, "
            "which needs no answer)"
        )

    def close(self) -> None:
        """Say quit and end the program (killed if it does not exit in time)."""
        p = self._proc
        if p is None:
            return
        self._proc = None
        try:
            if p.poll() is None and p.stdin is not None:
                p.stdin.write(json.dumps({"type": "quit"}) + "\n")
                p.stdin.flush()
                p.stdin.close()
            p.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            p.kill()
            p.wait()
        self._give_back()

    def __del__(self) -> None:  # pragma: no cover - best effort
        with contextlib.suppress(Exception):
            self.close()

    def _send(self, obj: Mapping[str, Any]) -> None:
        p = self._proc
        assert p is not None and p.stdin is not None
        try:
            p.stdin.write(json.dumps(obj, ensure_ascii=False) + "\n")
            p.stdin.flush()
        except OSError:
            code = p.poll()
            self._kill()
            why = exit_reason(code, None if self.slots is None else self.slots.limits)
            raise BotProtocolError(f"{self.name}: the bot {why}", "crash") from None

    def _read(self, what: str, timeout: float | None = None) -> str:
        wait = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._kill()
            message = f"{self.name}: no answer within {wait:g} s (waiting for {what})"
            raise BotProtocolError(message, "timeout") from None
        if line is None:
            p = self._proc
            code = p.wait() if p is not None else None
            self._kill()
            why = exit_reason(code, None if self.slots is None else self.slots.limits)
            raise BotProtocolError(f"{self.name}: the bot {why} while we waited for {what}", "crash")
        return line.strip()

    def _kill(self) -> None:
        p = self._proc
        self._proc = None
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()
        self._give_back()

    def _end(self) -> None:
        """Forget a program that has ended (waited for: no zombie), giving its slot back."""
        p = self._proc
        if p is not None:
            self._proc = None
            p.wait()
        self._give_back()

    def _give_back(self) -> None:
        if self._slot and self.slots is not None:
            self._slot = False
            self.slots.release()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    with contextlib.suppress(ValueError, OSError):  # closed while reading: the program was killed
        for line in stream:
            lines.put(line)
    lines.put(None)


# --------------------------------------------------------------------------- bot side
def serve(make_bot: Callable[[Rules], Bot], stdin: IO[str], stdout: IO[str], name: str = "preferans") -> int:
    """Answer the table over the protocol until ``quit`` or the end of input.

    The greeting names the newest version both sides speak; a table offering
    none we speak gets ``no …`` and the exit code 2.  ``game``, ``deal`` and
    ``end`` are passed on to the bot (:meth:`Bot.tell_game` …); ``result`` and
    ``error`` need nothing from our bots.
    """
    bot: Bot | None = None
    rules = Rules()
    for raw in stdin:
        line = raw.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            offered = msg.get("versions") or [msg.get("protocol", V1)]
            common = [v for v in VERSIONS if v in offered]
            if not common:
                stdout.write(f"no protocol version: this bot speaks {', '.join(VERSIONS)}, "
                             f"the table offers {', '.join(map(str, offered))}\n")  # fmt: skip
                stdout.flush()
                return 2
            stdout.write(f"ok {name}\n" if common[-1] == V1 else f"ok {name} {common[-1]}\n")
        elif kind == "rules":
            rules = Rules.from_dict(msg["rules"])
            bot = make_bot(rules)
            continue
        elif kind == "observation":
            if bot is None:
                bot = make_bot(rules)
            action = bot.act(observation_from_dict(msg))
            stdout.write(str(action) + "\n")
        elif kind == "quit":
            break
        else:
            if bot is not None:
                _pass_on(bot, kind, msg)
            continue  # game, deal, result, end, error and unknown messages need no answer
        stdout.flush()
    return 0


def _pass_on(bot: Bot, kind: object, msg: Mapping[str, Any]) -> None:
    if kind == "game":
        bot.tell_game(GameStart(
            players=int(msg["players"]), rules_digest=str(msg.get("rules_digest", "")),
            scoring=str(msg.get("scoring", "pulka")), seat=msg.get("seat"),
            names=tuple(msg.get("names") or ()), first_dealer=int(msg.get("first_dealer", 0)),
            max_deals=msg.get("max_deals"),
        ))  # fmt: skip
    elif kind == "deal":
        bot.tell_deal(DealStart(
            number=int(msg["number"]), seat=int(msg["seat"]), dealer=int(msg["dealer"]),
            players=int(msg["players"]), rules_digest=str(msg.get("rules_digest", "")),
            min_level=int(msg.get("min_level", 6)), raspas_step=int(msg.get("raspas_step", 1)),
        ))  # fmt: skip
    elif kind == "end":
        bot.tell_end(GameEnd(deals=int(msg.get("deals", 0)), reason=str(msg.get("reason", "")), sheet=msg.get("sheet")))
