"""``preferans solve``: values printed for the position and every legal card."""

from __future__ import annotations

import pytest

from preferans.cli import main

KOVALEVSKAYA = (
    "♠7 8 9 10 ♣8 ♦7 8 9 ♥8 9 / ♠K A ♣10 J Q ♦A ♥10 Q K A / ♠J Q ♣7 9 ♦10 J Q K ♥7 J"
)


def test_trump_game_prints_value_and_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "♠A K Q ♥7 / ♠J 10 7 ♥A / ♠9 8 ♥K Q", "--trump", "S", "--leader", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "player 1 (declarer) takes 3 tricks of 4" in out
    assert "player 2 to play" in out
    for card in ("A♥", "J♠", "10♠", "7♠"):
        assert card in out


def test_misere_kovalevskaya(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", KOVALEVSKAYA, "--misere", "--leader", "2"]) == 0
    assert "takes 1 trick with best play: caught for 1" in capsys.readouterr().out
    assert main(["solve", KOVALEVSKAYA, "--misere", "--leader", "1"]) == 0
    assert "takes 0 tricks with best play: clean" in capsys.readouterr().out


def test_all_pass_with_talon(capsys: pytest.CaptureFixture[str]) -> None:
    hands = "♠A K Q ♥7 / ♠J 10 7 ♥A / ♠9 8 ♥K Q"
    assert main(["solve", hands, "--allpass", "--talon", "♥8", "--declarer", "2"]) == 0
    assert "player 2 takes 1 trick on all-pass" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["♠A K / ♠Q / ♠9 8"], "the hands must hold the same number of cards: hand 1 has 2, hand 2 has 1"),
        (["♠A K / ♠A Q / ♠9 8"], "card A♠ is in hand 1 and again in hand 2"),
        (["♠A K / ♠Q J / ♠9 8", "--trump", "X"], "--trump: unknown suit 'X'"),
        (["♠A K / ♠Q J / ♠9 X"], "hand 3: cannot read"),
        (["♠A K / ♠Q J"], "give three hands separated by '/'"),
        (["♠A K / ♠Q J / ♠9 8", "--leader", "4"], "--leader must be a player 1, 2 or 3"),
        (["♠A K / ♠Q J / ♠9 8", "--misere", "--trump", "H"], "misere is played without trumps"),
        (["♠A K / ♠Q J / ♠9 8", "--trick", "K♠"], "card K♠ is in hand 1 and in --trick"),
        (["♠A / ♠Q J / ♠9 8", "--trick", "K♠", "--leader", "2"], "hand 2 holds 2 cards but should hold 1"),
    ],
)
def test_bad_input_is_explained(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("preferans solve: error: ")
    assert message in err
