"""The Rules value: presets, changes, (de)serialisation, validation (rules.md §13)."""
from fractions import Fraction
from typing import Any

import pytest

from preferans import PRESETS, Rules, RulesError


@pytest.mark.parametrize("name", Rules.PRESET_NAMES)
def test_presets_round_trip(name: Any) -> None:
    r = Rules.preset(name)
    assert r.name == name
    assert Rules.from_dict(r.to_dict()) == r


def test_preset_characteristics() -> None:
    # rules.md §13 table
    s, le, ro, c, k = (Rules.preset(n) for n in ("sochi", "leningrad", "rostov", "classic", "kodeks"))
    assert s.jump_bids and not k.jump_bids and not c.jump_bids  # Kodeks 3.3.8
    assert s.ten_mode == "checked" and le.ten_mode == "whisted"
    assert le.whist_mult == 2 and le.k_pool == 20 and le.lone_fail_style == "gentleman"
    assert ro.raspas_scoring == "whists" and ro.raspas_talon_for(3) == "unused"
    assert c.dark_bids and c.bombs and not s.dark_bids
    assert not k.bez_trekh  # Kodeks 3.5.4
    assert s.raspas_talon_for(3) == "suit_only" and s.raspas_talon_for(4) == "participates"


def test_unknown_preset_and_field() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'moscow'"):
        Rules.preset("moscow")
    with pytest.raises(RulesError, match="unknown rules field 'jump_bid'.*'jump_bids'"):
        Rules().replace(jump_bid=False)
    with pytest.raises(RulesError, match="unknown rules field"):
        Rules.from_dict({"name": "sochi", "colour": "red"})


def test_bad_values_name_the_field() -> None:
    with pytest.raises(RulesError, match="ten_mode"):
        Rules().replace(ten_mode="never")
    with pytest.raises(RulesError, match="half_whist_levels"):
        Rules().replace(half_whist_levels={5})
    with pytest.raises(RulesError, match="pool_target"):
        Rules().replace(pool_target=0)
    with pytest.raises(RulesError, match="jump_bids"):
        Rules().set_from_text("jump_bids=maybe")


def test_impossible_combinations() -> None:
    with pytest.raises(RulesError, match="bombs.*dark_bids"):
        Rules().replace(bombs=True)  # Kodeks 3.3.19: bombs come from dark passes
    with pytest.raises(RulesError, match="raspas_talon"):
        Rules.preset("rostov").replace(raspas_talon="suit_only")  # Kodeks 3.7.6.2


def test_talon_participates_needs_four_players() -> None:
    # Kodeks 3.7.6.3: with 3 players the talon card only names the suit; 3.7.6.1: it takes tricks with 4.
    from preferans import Deal
    from preferans.scoring.pulka import Pulka

    r = Rules().replace(raspas_talon="participates")
    with pytest.raises(RulesError, match=r"raspas_talon='participates' needs 4 players.*3\.7\.6\.3"):
        Deal.new(r, players=3, seed=1)
    with pytest.raises(RulesError, match="raspas_talon='participates' needs 4 players"):
        Pulka(r, 3)
    assert Deal.new(r, players=4, seed=1).players == 4 and Pulka(r, 4).names == ("A", "B", "C", "D")


def test_auto_talon_is_unused_on_whists() -> None:
    # Kodeks 3.7.6.2: an all-pass scored on whists plays without the talon, also with raspas_talon="auto".
    r = Rules.preset("sochi").replace(raspas_scoring="whists")
    assert r.raspas_talon == "auto" and r.raspas_talon_for(3) == "unused" == r.raspas_talon_for(4)


def test_from_dict_bad_values_are_rules_errors() -> None:
    for data in ({"pen_mult": float("inf")}, {"pen_mult": float("nan")}, {"pen_mult": "1e999999999"},
                 {"pool_target": 1e400}, {"half_whist_levels": 7}, {"game_values": {"a": 1}}):
        with pytest.raises(RulesError, match=next(iter(data))):
            Rules.from_dict(data)
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict([("pool_target", 10)])  # type: ignore[arg-type]


def test_set_from_text_coerces() -> None:
    r = Rules().set_from_text("raspas_progression=geometric").set_from_text("half_whist_levels=6")
    assert r.raspas_progression == "geometric" and r.half_whist_levels == frozenset({6})
    assert Rules().set_from_text("jump_bids=false").jump_bids is False
    assert Rules().set_from_text("pen_mult=1/2").pen_mult == Fraction(1, 2)
    assert Rules().set_from_text("raspas_exit_levels=6,7,7").raspas_exit_levels == (6, 7, 7)


def test_raspas_progression() -> None:
    # Kodeks 3.7.4.1–3.7.4.3: 1–2–3 then 3; geometric 1–2–4.
    r = Rules()
    assert [r.raspas_price_at(k) for k in range(1, 6)] == [1, 2, 3, 3, 3]
    g = r.replace(raspas_progression="geometric")
    assert [g.raspas_price_at(k) for k in range(1, 5)] == [1, 2, 4, 4]
    u = r.replace(raspas_limit=0)
    assert u.raspas_price_at(7) == 7


def test_rules_are_frozen_and_hashable() -> None:
    r = Rules()
    with pytest.raises(AttributeError):
        r.jump_bids = False  # type: ignore[misc]
    assert hash(r) == hash(Rules()) and len(PRESETS) == 5


def test_every_option_has_a_sane_size() -> None:
    """A server creates tables from options typed by strangers: the rules refuse sizes no table plays
    (issue 15: a 60 MB name passed)."""
    import pytest

    from preferans.errors import RulesError
    from preferans.rules import Rules

    r = Rules()
    for bad in ({"pool_target": 10**7}, {"pool_target": 0}, {"name": "x" * 65}, {"name": ""}, {"name": "a\nb"},
                {"k_pool": 10**7}, {"raspas_exit_levels": (6,) * 11}, {"pen_mult": "1/1001"}):  # fmt: skip
        with pytest.raises(RulesError, match=next(iter(bad))):
            r.replace(**bad)
    assert r.replace(pool_target=10**6, name="x" * 64).pool_target == 10**6
