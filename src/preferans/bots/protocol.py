"""The bot protocol: a bot in any language plays over standard input and output.

One JSON object per line from the table, one line of text back from the bot
(see ``docs/bot-protocol.md``)::

    table → {"type": "hello", "protocol": "preferans-bot/1"}
    bot   → ok mybot
    table → {"type": "rules", "rules": {...}}
    table → {"type": "observation", "observation": {...}, "legal_ids": [...], "move_ids": [...]}
    bot   → 7♠
    table → {"type": "result", "result": {...}}
    table → {"type": "quit"}

:class:`SubprocessBot` is the table's side: a :class:`~preferans.bots.Bot`
that runs a command and asks it.  A late, unreadable or illegal answer raises
:class:`BotProtocolError` naming the bot and what went wrong; the deal is not
touched, since the table applies only a legal action.  :func:`serve` is the
bot's side, used by ``preferans bot --level hard``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import IO, Any

from ..actions import Action, Contract
from ..cards import Card
from ..engine.observation import Observation
from ..errors import ActionError, CardError, PreferansError
from ..rules import Rules
from .base import Bot

__all__ = [
    "PROTOCOL",
    "BotProtocolError",
    "SubprocessBot",
    "message",
    "observation_from_dict",
    "parse_answer",
    "serve",
]

PROTOCOL = "preferans-bot/1"
DEFAULT_TIMEOUT = 10.0


class BotProtocolError(PreferansError):
    """A bot program broke the protocol: no answer in time, an unreadable or illegal
    answer, or it exited."""


# --------------------------------------------------------------------------- messages
def message(obs: Observation) -> dict[str, Any]:
    """The observation message: :meth:`Observation.to_dict` plus the action ids
    (``7♠`` is both a bid and a card; the ids say which)."""
    return {
        "type": "observation",
        "observation": obs.to_dict(),
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
    legal_ids = msg.get("legal_ids")
    if legal_ids is not None:
        legal = tuple(Action(i) for i in legal_ids)
    else:
        as_bid = d["phase"] not in ("play", "discard")
        legal = tuple(Action.parse(t, bid=as_bid) for t in d["legal_actions"])
    contract = Contract.parse(d["contract"]) if d.get("contract") else None
    return Observation(
        seat=int(d["seat"]),
        players=int(d["players"]),
        dealer=int(d["dealer"]),
        phase=str(d["phase"]),
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
    )


def parse_answer(text: str, obs: Observation) -> Action:
    """Read a bot's answer in the context of the phase; raise unless it is legal."""
    t = text.strip()
    legal = obs.legal_actions
    try:
        a = Action.parse(t) if obs.phase in ("play", "discard") else Action.parse(t, bid=True)
    except (ActionError, CardError) as e:
        raise BotProtocolError(f"cannot read the answer {t!r}: {e}") from None
    if a not in legal:
        raise BotProtocolError(
            f"illegal answer {t!r} in phase {obs.phase}: legal are " + ", ".join(str(x) for x in legal)
        )
    return Action(int(a))


# --------------------------------------------------------------------------- table side
class SubprocessBot(Bot):
    """A bot program run as a subprocess and asked over the protocol.

    ``command`` is a shell-like string (``"./mybot --fast"``) or an argument list.
    ``timeout`` is the seconds allowed per answer; ``start_timeout`` for the
    greeting (a program may be slow to start on a busy machine).
    """

    name = "cmd"

    def __init__(
        self,
        command: str | list[str],
        rules: Rules,
        *,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = 30.0,
    ) -> None:
        super().__init__(rules, seed=seed)
        self.start_timeout = start_timeout
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.name = "cmd:" + " ".join(self.command)
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._sent_rules: Rules | None = None
        self.bot_name = ""

    def start(self) -> None:
        """Start the program and wait for its greeting (``ok NAME``)."""
        if self._proc is not None and self._proc.poll() is None:
            return
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                encoding="utf-8", bufsize=1,
            )
        except OSError as e:
            raise BotProtocolError(f"{self.name}: cannot start the bot: {e}") from None
        self._lines = queue.Queue()
        out = self._proc.stdout
        assert out is not None
        threading.Thread(target=_pump, args=(out, self._lines), daemon=True).start()
        self._sent_rules = None
        self._send({"type": "hello", "protocol": PROTOCOL})
        greeting = self._read("the greeting", max(self.timeout, self.start_timeout))
        if not greeting.startswith("ok"):
            raise BotProtocolError(f"{self.name}: expected 'ok NAME' as the greeting, got {greeting!r}")
        self.bot_name = greeting[2:].strip()

    def act(self, observation: Observation) -> Action:
        self.start()
        if self._sent_rules != self.rules:
            self._send({"type": "rules", "rules": self.rules.to_dict()})
            self._sent_rules = self.rules
        self._send(message(observation))
        answer = self._read(f"an action in phase {observation.phase}")
        try:
            return parse_answer(answer, observation)
        except BotProtocolError as e:
            self._send({"type": "error", "message": str(e)})
            raise BotProtocolError(f"{self.name}: {e}") from None

    def tell_result(self, result: Mapping[str, Any]) -> None:
        """Send the outcome of a deal (no answer expected)."""
        if self._proc is not None and self._proc.poll() is None:
            self._send({"type": "result", "result": dict(result)})

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
            raise BotProtocolError(f"{self.name}: the bot exited (exit code {p.poll()})") from None

    def _read(self, what: str, timeout: float | None = None) -> str:
        wait = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._kill()
            raise BotProtocolError(f"{self.name}: no answer within {wait:g} s (waiting for {what})") from None
        if line is None:
            code = self._proc.poll() if self._proc is not None else None
            self._kill()
            raise BotProtocolError(f"{self.name}: the bot exited (code {code}) while we waited for {what}")
        return line.strip()

    def _kill(self) -> None:
        p = self._proc
        self._proc = None
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


# --------------------------------------------------------------------------- bot side
def serve(make_bot: Callable[[Rules], Bot], stdin: IO[str], stdout: IO[str], name: str = "preferans") -> int:
    """Answer the table over the protocol until ``quit`` or the end of input."""
    bot: Bot | None = None
    rules = Rules()
    for raw in stdin:
        line = raw.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            stdout.write(f"ok {name}\n")
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
            continue  # result, error and unknown messages need no answer
        stdout.flush()
    return 0
