"""The command line as a whole."""

import pytest

from preferans.cli import main


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name in ("deal", "score", "solve", "play"):
        assert name in out


def test_deal_command_plays_a_deal(capsys):
    assert main(["deal", "--seed", "3"]) == 0
    assert "result:" in capsys.readouterr().out


def test_bad_rules_field_is_a_clean_error(capsys):
    assert main(["deal", "--set", "jump_bid=1"]) == 2
    assert "unknown rules field 'jump_bid'" in capsys.readouterr().err
