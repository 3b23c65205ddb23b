"""The command line as a whole."""
from pathlib import Path

import pytest

from preferans.cli import main


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name in ("deal", "score", "solve", "play"):
        assert name in out


def test_deal_command_plays_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "3"]) == 0
    assert "result:" in capsys.readouterr().out


def test_bad_rules_field_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--set", "jump_bid=1"]) == 2
    assert "unknown rules field 'jump_bid'" in capsys.readouterr().err


def test_rules_prints_a_preset_with_meanings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "kodeks", "--set", "pool_target=30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kodeks: ")
    assert "\njump_bids=false\n" in out and "\npool_target=30\n" in out
    assert "Kodeks 3.3.8" in out  # the source of the step rule


def test_rules_diff_shows_only_what_differs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--diff", "sochi", "leningrad"]) == 0
    out = capsys.readouterr().out
    assert "lone_fail_style" in out and "gentleman" in out
    assert "jump_bids" not in out  # the same in both


def test_rules_unknown_preset_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "moscow"]) == 2
    assert "unknown rules preset 'moscow'" in capsys.readouterr().err


def test_every_command_with_rules_shares_the_one_helper() -> None:
    """--rules and --set read the same way everywhere (cli/_rules_args.py)."""
    from pathlib import Path

    cli = Path(__file__).resolve().parents[2] / "src" / "preferans" / "cli"
    for f in cli.glob("*.py"):
        text = f.read_text()
        if '"--rules"' in text:
            assert f.name == "_rules_args.py", f"{f.name} declares --rules itself: use add_rules_arguments"


def test_replay_all_shows_a_misdeal_and_truncated_json_is_a_clean_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 14: `replay --all` crashed with AssertionError on a void deal; truncated JSON printed a traceback.
    from preferans import Deal, Rules
    from preferans.record import dumps, record_from_deal

    d = Deal.new(Rules.preset("sochi").replace(irregularity_reports=True), seed=2)
    d.report("!misdeal", seat=1)
    prf, js = tmp_path / "m.prf", tmp_path / "m.json"
    prf.write_text(dumps(record_from_deal(d)), encoding="utf-8")
    js.write_text(dumps(record_from_deal(d), format="json")[:50], encoding="utf-8")
    assert main(["replay", "--all", str(prf)]) in (0, None)
    assert "void: B dealt out of turn" in capsys.readouterr().out
    assert main(["replay", str(js)]) not in (0, None)
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "Traceback" not in err
