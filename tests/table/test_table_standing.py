"""The one game loop gives its bots the pulka's standing: in this process (the terminal), in a
worker process (the server's thinking bots), over the bot protocol, after a resume, and in the
environment's pulka episodes."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from preferans import Rules, Standing
from preferans.actions import Action
from preferans.bots import Bot, make_bot
from preferans.engine.observation import Observation
from preferans.table import BotThought, Table

sys.path.insert(0, str(Path(__file__).parent.parent))
from bot_helpers import messages, recorder_bot


class Spy(Bot):
    """A random bot that keeps the standing of every observation it is asked with."""

    seen: ClassVar[list[tuple[int, Standing | None]]] = []

    def __init__(self, rules: Rules, seed: int | None = None) -> None:
        super().__init__(rules, seed=seed)
        self.inner = make_bot("random", rules, seed=seed)

    def act(self, observation: Observation) -> Action:
        Spy.seen.append((len(observation.moves), observation.standing))
        return self.inner.act(observation)


def _play(table: Table) -> list[Standing]:
    """Play the table to its end; the pulka's standing before each deal."""
    before = []
    while True:
        before.append(table.pulka.standing())
        table.run_bots()
        if table.is_over:
            return before
        table.next_deal()


@pytest.mark.parametrize(("preset", "players"), [("sochi", 3), ("classic", 4), ("leningrad", 2)])
def test_table_bots_see_the_standing_of_each_deal(monkeypatch: pytest.MonkeyPatch, preset: str, players: int) -> None:
    def factory(spec: str, rules: Rules, seed: int | None = None, **_: Any) -> Bot:
        return Spy(rules, seed=seed)

    monkeypatch.setattr("preferans.table.make_bot", factory)
    Spy.seen = []
    table = Table(Rules.preset(preset), ["bot:random"] * players, seed=3, max_deals=5)
    standings = _play(table)
    assert len(standings) == 5 and standings[0].deals == 0 and standings[-1].deals == 4
    assert standings[0] == Standing((0,) * players, (0,) * players, ((0,) * players,) * players,
                                    pool_target=20, bombs=(1,) * players if preset == "classic" else ())
    # Each deal's every decision saw the standing the deal began with (a new deal starts at 0 moves).
    deal = -1
    for moves, standing in Spy.seen:
        if moves == 0:
            deal += 1
        assert standing == standings[deal]
    assert deal == 4
    assert len(set(standings)) > 1  # the sheet moved


def test_the_servers_worker_thought_carries_the_standing() -> None:
    """The server runs hard and expert in worker processes: the thought crosses pickled."""
    table = Table(Rules.preset("sochi"), ["bot:hard", "bot:random", "bot:random"], seed=2, max_deals=3)
    table.run_bots()
    table.next_deal()
    turn = table.bot_turn()
    assert turn is not None
    seat, thought = turn
    assert isinstance(thought, BotThought)
    shipped = pickle.loads(pickle.dumps(thought))
    standing = shipped.deal.observation(seat).standing
    assert standing is not None and standing == table.pulka.standing() and standing.deals == 1
    assert shipped() in table.deal.legal_actions()


def test_a_resumed_table_gives_the_same_standing() -> None:
    table = Table(Rules.preset("sochi"), ["bot:random"] * 3, seed=4, max_deals=6)
    for _ in range(3):
        table.run_bots()
        table.next_deal()
    again = Table.from_dict(table.to_dict())
    assert again.deal.standing == table.deal.standing == table.pulka.standing()
    assert again.deal.standing is not None and again.deal.standing.deals == 3


@pytest.mark.subprocess
def test_a_bot_program_receives_the_standing(tmp_path: Path) -> None:
    command, log = recorder_bot(tmp_path)
    table = Table(Rules.preset("sochi"), ["bot:random", "cmd:" + " ".join(command), "bot:random"], seed=5,
                  max_deals=3)
    try:
        standings = _play(table)
    finally:
        table.close()
    deal_no = 0
    seen = 0
    for m in messages(log):
        if m["type"] == "deal":
            deal_no = m["number"]
        elif m["type"] == "observation":
            assert Standing.from_dict(m["observation"]["standing"]) == standings[deal_no - 1]
            seen += 1
    assert seen and deal_no == 3


def test_an_environment_pulka_shows_the_standing_and_a_single_deal_none() -> None:
    from preferans.env.config import EnvConfig
    from preferans.env.episode import Table as Episode

    pulka = Episode(EnvConfig.make("sochi", episode="pulka"))
    pulka.reset(seed=1)
    first = pulka.deal.observation(0).standing
    while pulka.deals_played < 2:
        pulka.apply(pulka.deal.legal_actions()[0])
    assert first is not None and first.deals == 0
    assert pulka.pulka is not None and pulka.deal.observation(1).standing == pulka.pulka.pulka.standing()
    single = Episode(EnvConfig.make("sochi"))
    single.reset(seed=1)
    assert single.deal.observation(0).standing is None
