"""Bot programs under a server's limits (issue 25): at most ``max_bot_programs`` at once (a table
that would need more is refused), each under memory and CPU limits (one that breaks them is
replaced by the medium bot, the players told), and every one ended and waited for with its table."""

from __future__ import annotations

import os
import random
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot_helpers import recorder_bot
from preferans.bots.sandbox import ProgramLimits, ProgramSlots
from preferans.rules import Rules
from preferans.server.game import GameError, TableConfig, TableGame
from preferans.server.storage import Storage
from server_helpers import make_client

pytestmark = pytest.mark.subprocess


def children() -> dict[int, str]:
    """This process's child processes and their states (``Z``: a zombie nobody waited for)."""
    me, out = os.getpid(), {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me:
            out[int(entry)] = fields[0]
    return out


def _play(g: TableGame, rng: random.Random, done: Callable[[], bool]) -> None:
    """The person in seat 0 answers at random and the bots move, until ``done()`` or the deal is over."""
    for _ in range(400):
        assert g.deal is not None
        if done() or g.deal.is_over:
            return
        if g.bot_seat_to_act() is not None:
            g.bot_act()
        else:
            g.act(0, int(rng.choice(g.deal.legal_actions())))


def _program_seats(level: str) -> list[dict[str, str]]:
    return [{"kind": "human"}, {"kind": "bot", "level": level}, {"kind": "bot", "level": level}]


def test_twelve_tables_get_at_most_the_cap_and_nothing_is_left(tmp_path: Path) -> None:
    command, _ = recorder_bot(tmp_path)
    before = set(children())
    with make_client(str(tmp_path / "g.db"), bot_programs={"rec": " ".join(command)}, max_bot_programs=5) as client:
        answers = [client.post("/api/tables", json={"name": "Ann", "seats": _program_seats("rec")})
                   for _ in range(12)]  # fmt: skip
        client.cookies.clear()
        made = [r for r in answers if r.status_code == 201]
        refused = [r.json() for r in answers if r.status_code != 201]
        assert len(made) == 2  # two programs each: the third table would make six
        assert {r["error"] for r in refused} == {"too_many_programs"}
        assert "5 bot programs" in refused[0]["message"] and "rec" in refused[0]["message"]
        running = {pid: s for pid, s in children().items() if pid not in before}
        assert len(running) == 4 and "Z" not in running.values()
        assert client.get("/healthz").json()["bot_programs"] == 4
    assert not set(children()) - before  # the server stopped: every program ended and waited for


def test_a_finished_table_ends_its_programs(tmp_path: Path) -> None:
    command, _ = recorder_bot(tmp_path)
    slots = ProgramSlots(4, ProgramLimits())
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    before = set(children())
    g, _ = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3), _program_seats("rec"), "Ann",
                            programs={"rec": " ".join(command)}, slots=slots)  # fmt: skip
    assert slots.running == 2 and len(set(children()) - before) == 2
    _play(g, random.Random(2), lambda: False)
    g.vote_stop(0)  # the only person agrees to end the game: it is over
    assert g.finished and slots.running == 0
    assert not set(children()) - before


HUNGRY = textwrap.dedent(
    """
    import json, sys
    mode = sys.argv[1]
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print("ok hungry preferans-bot/2", flush=True)
        elif msg["type"] == "observation":
            if mode == "memory":
                hoard = bytearray(1024 * 1024 * 1024)  # 1 GB, over its limit
            else:
                while True:
                    pass
            print(msg["observation"]["legal_actions"][0], flush=True)
    """
)


@pytest.mark.parametrize(("mode", "said"), [("memory", "its limits: 300 MB of memory"),
                                            ("cpu", "used up its 1 s of CPU time")])  # fmt: skip
def test_a_program_over_its_limit_dies_and_the_medium_bot_plays_on(tmp_path: Path, mode: str, said: str) -> None:
    path = tmp_path / "hungry.py"
    path.write_text(HUNGRY)
    slots = ProgramSlots(4, ProgramLimits(memory_mb=300, cpu_seconds=1))
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    before = set(children())
    seats = [{"kind": "human"}, {"kind": "bot", "level": "hungry"}, {"kind": "bot", "level": "random"}]
    g, _ = TableGame.create(storage, TableConfig(Rules.preset("sochi"), 3), seats, "Ann",
                            programs={"hungry": f"{sys.executable} {path} {mode}"}, slots=slots)  # fmt: skip
    try:
        _play(g, random.Random(1), lambda: g.table is not None and g.table.seats[1] == "bot:medium")
        assert g.table is not None and g.table.seats[1] == "bot:medium"
        notices = [str(n) for n in g.table.notices]
        assert any(said in n and "the medium bot plays on" in n for n in notices), notices
        assert slots.running == 0 and not set(children()) - before  # the dead one was waited for
    finally:
        g.close()


def test_a_seat_handed_to_a_program_over_the_cap_is_refused(tmp_path: Path) -> None:
    command, _ = recorder_bot(tmp_path)
    programs = {"rec": " ".join(command)}
    slots = ProgramSlots(2, ProgramLimits())
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    config = TableConfig(Rules.preset("sochi"), 3)
    full, _ = TableGame.create(storage, config, _program_seats("rec"), "Ann", programs=programs, slots=slots)
    g, _ = TableGame.create(storage, config, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
                            "Ann", programs=programs, slots=slots)  # fmt: skip
    g.sit(1, "Bob")
    with pytest.raises(GameError, match="at most 2 bot programs") as refused:
        g.hand_to_bot(1, "rec")
    assert refused.value.code == "too_many_programs" and g.seats[1].kind == "human"  # nothing changed
    g.hand_to_bot(1, "medium")  # our own bots are not counted
    full.close()
    assert slots.running == 0


def test_a_table_leaving_memory_ends_its_programs(tmp_path: Path) -> None:
    command, _ = recorder_bot(tmp_path)
    before = set(children())
    with make_client(str(tmp_path / "g.db"), bot_programs={"rec": " ".join(command)}, idle_timeout=0.2) as client:
        assert client.post("/api/tables", json={"name": "Ann", "seats": _program_seats("rec")}).status_code == 201
        assert len(set(children()) - before) == 2
        for _ in range(100):  # nobody connects: the table leaves memory after 0.2 s, its programs end
            health = client.get("/healthz").json()
            if health["tables"] == 0 and health["bot_programs"] == 0:
                break
            time.sleep(0.05)
        assert (health["tables"], health["bot_programs"]) == (0, 0)
        assert not set(children()) - before
