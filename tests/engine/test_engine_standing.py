"""A pulka's public standing on a deal: validated, shown alike to every seat, kept by copy, undo,
replay and pickling, and in the observation's JSON form."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from preferans import ConfigError, Deal, Rules, Standing

ZEROS = ((0, 0, 0),) * 3


def _standing(**kw: object) -> Standing:
    args: dict[str, object] = {"pool": (20, 7, 0), "mountain": (3, 0, Fraction(7, 2)),
                               "whists": ((0, 12, 4), (0, 0, 30), (6, 0, 0)), "pool_target": 20,
                               "raspas_step": 2, "deals": 5}
    args.update(kw)
    return Standing(**args)  # type: ignore[arg-type]


def test_every_seat_and_the_public_see_the_same_standing() -> None:
    s = _standing()
    deal = Deal.new(Rules(), seed=4, standing=s)
    assert all(deal.observation(seat).standing is s for seat in range(3))
    assert deal.public_observation().standing is s
    assert Deal.new(Rules(), seed=4).observation(0).standing is None  # a deal alone has none


def test_copy_undo_replay_and_pickle_keep_it() -> None:
    s = _standing()
    deal = Deal.new(Rules(), seed=4, standing=s)
    deal.apply("pass")
    deal.undo()
    assert deal.standing is s and deal.copy().standing is s
    again = Deal.replay(Rules(), hands=deal.initial_hands, talon=deal.talon, actions=["pass", "pass"], standing=s)
    assert again.observation(2).standing == s
    # The server thinks for its bots in worker processes: the deal crosses pickled.
    shipped = pickle.loads(pickle.dumps(deal))
    assert shipped.observation(1).standing == s
    assert pickle.loads(pickle.dumps(s)) == s and hash(pickle.loads(pickle.dumps(s))) == hash(s)


def test_json_form_round_trips_with_fractions_and_closed_pools() -> None:
    s = _standing()
    d = Deal.new(Rules(), seed=4, standing=s).observation(0).to_dict()["standing"]
    assert d["closed"] == [True, False, False] and d["mountain"] == [3, 0, "7/2"] and d["raspas_step"] == 2
    assert Standing.from_dict(d) == s


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"pool": (0, 0)}, "a mountain and a row of whists for each of the 2"),
        ({"pool": (0,) * 5, "mountain": (0,) * 5}, "2, 3 or 4 players, not 5"),
        ({"whists": ((0, 0, 0),) * 2}, "a row of whists"),
        ({"raspas_step": 0}, "raspas_step is 1 for the first"),
        ({"pool_target": 0}, "pool_target must be at least 1"),
        ({"bombs": (1, 2)}, "bombs are one per player"),
        ({"bombs": (1, 0, 1)}, "at least 1"),
        ({"deals": -1}, "negative"),
    ],
)
def test_a_bad_standing_names_its_field(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _standing(**kw)


def test_a_standing_must_belong_to_the_table() -> None:
    with pytest.raises(ConfigError, match="pool_target 20 differs from the rules' 30"):
        Deal.new(Rules(pool_target=30), seed=1, standing=_standing())
    with pytest.raises(ConfigError, match="bombs given, but the rules play without bombs"):
        Deal.new(Rules(), seed=1, standing=_standing(bombs=(1, 2, 1)))
    with pytest.raises(ConfigError, match="it has 3 players, the deal 4"):
        Deal.new(Rules(), players=4, seed=1, standing=_standing())
    with pytest.raises(ConfigError, match="missing or bad field"):
        Standing.from_dict({"pool": [1, 2, 3]})
    with pytest.raises(ConfigError, match="missing or bad field"):
        Standing.from_dict({**_standing().to_dict(), "pool": ["x", 0, 0]})
