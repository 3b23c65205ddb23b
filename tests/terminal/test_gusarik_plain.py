"""гусарик (two players, rules.md §16) at the table and in ``preferans play --plain``.

The dummy («болван») is seat 2: dealt face down, never asked anything, named "dummy" /
«болван» in every line; its cards show only once the whister (or the catcher of a
misère) lays it down, and then the prompt asks him for "a card from dummy's hand".
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import TextIO, cast

import pytest

from preferans import Rules
from preferans.cards import with_ranks
from preferans.engine.deal import Phase
from preferans.table import Table, default_names, parse_seats
from preferans.terminal.plain import run_plain
from preferans.terminal.words import hand_text, legal_names

PRESETS = ("sochi", "leningrad", "rostov", "classic", "kodeks")
DUMMY = {"en": "dummy", "ru": "болван"}
LIES = {"en": "The dummy is laid down: ", "ru": "Болван открыт: "}


class Player:
    """A person at the plain prompt answering at random (whisting whenever he may), who notes
    the dummy's hand as dealt at his first prompt of each deal."""

    def __init__(self, table: Table, lang: str, seed: int) -> None:
        self.table, self.lang, self.rng = table, lang, random.Random(seed)
        self.dummy_hands: dict[int, str] = {}
        self.confirm = False  # two cards of the discard named: «yes» is due

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        deal = self.table.deal
        if self.table.deal_number not in self.dummy_hands and deal.phase is Phase.BIDDING:
            self.dummy_hands[self.table.deal_number] = with_ranks(hand_text(deal.hands[2]), self.lang)
        names = legal_names(deal, self.lang)
        if deal.phase is Phase.DISCARD:  # two cards on one line, then «yes» to the confirmation
            self.confirm = not self.confirm
            yes = {"en": "yes", "ru": "да"}[self.lang]
            return " ".join(self.rng.sample(names, 2)) + "\n" if self.confirm else yes + "\n"
        whist = {"en": "whist", "ru": "вист"}[self.lang]
        if whist in names:
            return whist + "\n"
        if deal.phase is Phase.BIDDING and len(names) > 1 and self.rng.random() < 0.6:
            return names[0] + "\n"  # pass
        return self.rng.choice(names) + "\n"


def played(lang: str, seed: int, deals: int = 8, preset: str = "sochi") -> tuple[Table, Player, str]:
    table = Table(Rules.preset(preset), ["human", "bot:random"], seed=seed, max_deals=deals, lang=lang)
    player, out = Player(table, lang, seed), io.StringIO()
    assert run_plain(table, lang=lang, out=out, inp=cast("TextIO", player)) == 0
    return table, player, out.getvalue()


def test_two_seats_are_a_gusarik_table() -> None:
    assert parse_seats("human,bot:easy") == ["human", "bot:easy"]
    assert default_names(["human", "bot:easy"]) == ["You", "Across"]
    with pytest.raises(Exception, match="played by 2 .*, 3 or 4, not 1"):
        parse_seats("human")
    t = Table(Rules.preset("sochi"), ["human", "bot:easy"], seed=1)
    assert (t.players, t.deal.seats, t.names) == (2, 3, ["You", "Across"])


@pytest.mark.parametrize("preset", PRESETS)
def test_bots_only_gusarik_pulka_runs_to_its_end(preset: str) -> None:
    """Every preset: a two-player pulka of random bots closes its pools and settles to zero;
    the dealer alternates between the two players and is never the dummy."""
    t = Table(Rules.preset(preset).replace(pool_target=4), ["bot:random"] * 2, seed=7)
    while True:
        t.run_bots()
        if t.is_over:
            break
        t.next_deal()
    assert t.pulka.is_over and all(p >= 4 for p in t.pulka.sheet.pool)
    assert len(t.pulka.sheet.pool) == 2 and sum(t.pulka.settlement().net) == 0
    assert {e.dealer for e in t.log} == {0, 1}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("seed", [3, 11])
def test_the_dummy_stays_face_down_until_laid_down(lang: str, seed: int) -> None:
    """A person against a random bot for eight deals: the dummy's dealt hand never appears
    in the transcript before the line that lays it down, and when the person whists, he is
    prompted for the dummy's cards; the dummy never gets a prompt of its own."""
    table, player, out = played(lang, seed)
    assert sorted(player.dummy_hands) == list(range(1, 9))
    texts = out.split("=== ")[1:]
    seen_open = False
    for number, hand in player.dummy_hands.items():
        text = next(d for d in texts if d.startswith((f"Deal {number} ", f"Сдача {number} ")))
        lies = text.find(LIES[lang])
        before = text if lies < 0 else text[:lies]
        assert hand not in before, f"deal {number}: the dummy's hand shown before it was laid down"
        if lies >= 0:
            seen_open = True
            assert text[lies + len(LIES[lang]) :].startswith(hand)
    assert seen_open, "no deal was whisted: the test saw no dummy laid down"
    assert DUMMY[lang] in out
    assert ("Playing for the dummy [" if lang == "en" else "Ходите за болвана [") in out
    assert sum(table.pulka.settlement().net) == 0


def test_a_gusarik_game_saves_and_resumes(tmp_path: Path) -> None:
    """The save is a game record of two names; resumed, it goes on with the dummy."""
    path = tmp_path / "g.prf"
    t = Table(Rules.preset("sochi"), ["human", "bot:random"], seed=4, save_path=path)
    t.run_bots()
    t.act(t.deal.legal_actions()[0])
    t.run_bots()
    again = Table.load(path)
    assert (again.players, again.names, again.deal.seats) == (2, ["You", "Across"], 3)
    assert again.deal.moves == t.deal.moves


@pytest.mark.subprocess
def test_play_plain_with_two_players(tmp_path: Path) -> None:
    """``preferans play --plain --players 2``: the first prompt is the person's, the seat
    list names the one bot, and quitting saves the game."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING="utf-8", PREFERANS_HOME=str(tmp_path))
    main = "import sys; from preferans.cli import main; sys.exit(main())"
    r = subprocess.run([sys.executable, "-c", main, "play", "--plain", "--players", "2", "--seed", "3",
                        "--level", "random"], input="quit\n", capture_output=True, text=True, env=env,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "seat 0: You (person), seat 1: Across (bot, random)" in r.stdout
    assert "Game saved to" in r.stdout and (tmp_path / "last-game.prf").exists()
