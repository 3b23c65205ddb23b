"""The expert judges a deal inside a pulka by what it changes in the final settlement.

Worked examples: where the standing (the all-pass series, a bomb, a closed pool under a
house rule of help) changes the expert's auction in the direction the hand computation
says; where it must change nothing (help at the presets' price is neutral, Rostov's all-pass
has no progression); and a decision still ignores the hidden cards with a standing present.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from preferans import Deal, Rules, Standing
from preferans.actions import PASS, Action, Contract
from preferans.bots.expert import ALLPASS_PESSIMISM, ExpertBot, _at
from preferans.bots.value import allpass_utility, game_utility
from preferans.engine.observation import Observation
from preferans.scoring.pulka import Pulka

sys.path.insert(0, str(Path(__file__).parent))
from test_bots import _decision_points, _deterministic, _shuffle_hidden


def _expert(rules: Rules, standing: bool, all_pass: bool = False, dd_bias: bool = False) -> ExpertBot:
    """The auction samples 25 layouts, no clock; ``all_pass``: the option ``all_pass_standing``;
    the auction as solved unless ``dd_bias`` (the figures below are the solver's, the game's
    the better of two strains, each judged on its own: not as named after the talon)."""
    return ExpertBot(rules, seed=1, think=0.05, standing=standing, all_pass_standing=all_pass, dd_bias=dd_bias,
                     strains=2, talon_strain=False)


def _third_all_pass(rules: Rules, players: int) -> Pulka:
    """A pulka after two all-passes: the next one would be the third of the series."""
    p = Pulka(rules, players)
    for _ in range(2):
        a = [s for s in range(players) if not (players == 4 and s == p.next_dealer)]
        p.all_pass({p.names[a[0]]: 3, p.names[a[1]]: 3, p.names[a[2]]: 4})
    return p


def _last_to_speak(rules: Rules, players: int, seed: int, pulka: Pulka | None = None,
                   standing: Standing | None = None, dealer: int = 0) -> Observation:
    """The observation of the last bidder after everybody else passed: his pass is an all-pass."""
    if pulka is not None:
        dealer, standing = pulka.next_dealer, pulka.standing()
    deal = Deal.new(rules, players=players, dealer=dealer, seed=seed,
                    min_level=pulka.min_level if pulka is not None else 6, standing=standing)
    probe = _expert(rules, True)
    while not probe._pass_means_all_pass(deal.observation(deal.to_act)):  # type: ignore[arg-type]
        deal.apply(PASS)
    assert deal.to_act is not None
    return deal.observation(deal.to_act)


@pytest.mark.parametrize(
    ("preset", "players", "seed", "game", "all_pass", "third", "bid"),
    [
        ("sochi", 3, 2, -51.01, -26.67, -56.00, "6♠"),
        ("sochi", 4, 59, -28.80, -25.40, -52.20, "6♠"),
        ("leningrad", 3, 13, -64.96, -32.53, -73.07, "7♠"),  # Leningrad's exit: after an all-pass the lowest game is 7
        ("classic", 3, 59, -23.23, -20.67, -38.00, "6♠"),
    ],
)
def test_the_third_all_pass_of_a_series_is_bid_out_of(
    preset: str, players: int, seed: int, game: float, all_pass: float, third: float, bid: str
) -> None:
    """Everybody else passed; the expert weighs its lowest game against the all-pass its pass
    makes.  Alone (blind) the all-pass costs ``all_pass`` whists over the sampled layouts and
    the game ``game``, more: it passes.  As the third all-pass of a series (Kodeks 3.7.4,
    arithmetic 1–2–3) a trick and the zero-trick bonus cost 3: the all-pass is the first
    step's price as solved (whose pessimism the solved game's matches) plus twice the first
    step's price at the solved tricks less ``ALLPASS_PESSIMISM`` (as it is really played) —
    Sochi −26.67 + 2 × (−14.67) = −56.00 < −51.01 — and the game is bid.  This is the option
    ``all_pass_standing``; by default (measured: it did not pay) the comparison is made alone."""
    rules = Rules.preset(preset)
    obs = _last_to_speak(rules, players, seed, _third_all_pass(rules, players))
    assert obs.standing is not None and obs.standing.raspas_step == 3
    blind, aware = _expert(rules, False), _expert(rules, True, all_pass=True)
    vb, va = blind.all_pass_values(obs), aware.all_pass_values(obs)
    assert vb is not None and va is not None
    assert vb[1:] == pytest.approx((game, all_pass), abs=0.01)
    assert _expert(rules, True).all_pass_values(obs) == vb  # off by default: as alone
    assert va[1:] == pytest.approx((game, third), abs=0.01)  # the game's price is the same
    # The hand computation: the series' price is three times the first step's, trick by trick.
    kw: dict[str, Any] = {"players": players, "dealer": obs.dealer, "seat": obs.seat}
    u1, u3 = allpass_utility(rules, **kw), allpass_utility(rules, standing=obs.standing, **kw)
    assert u3 == pytest.approx([3 * x for x in u1])
    tricks = aware.all_pass_tricks(obs)
    assert statistics.fmean(u1[t] for t in tricks) == pytest.approx(vb[2])
    assert statistics.fmean(u1[t] + 2 * _at(u1, t - ALLPASS_PESSIMISM) for t in tricks) == pytest.approx(va[2])
    assert blind.act(obs) == PASS
    assert aware.act(obs) == Action.parse(bid, bid=True)
    # dd_bias (the default): the all-pass as really played, the solved tricks less ALLPASS_PESSIMISM
    real = _expert(rules, True, dd_bias=True).all_pass_values(obs)
    assert real is not None
    assert real[2] == pytest.approx(statistics.fmean(_at(u1, t - ALLPASS_PESSIMISM) for t in tricks))


def test_rostovs_all_pass_has_no_series() -> None:
    """Rostov (Kodeks 3.7.2.2) scores the all-pass in whists with no progression: the third of
    a series costs what the first does, and the expert decides as it would alone."""
    rules = Rules.preset("rostov")
    obs = _last_to_speak(rules, 3, 10, _third_all_pass(rules, 3))
    blind, aware = _expert(rules, False), _expert(rules, True, all_pass=True)
    vb, va = blind.all_pass_values(obs), aware.all_pass_values(obs)
    assert vb is not None and va is not None and va[1:] == pytest.approx(vb[1:])
    assert blind.act(obs) == aware.act(obs)


def test_a_bomb_doubles_the_risk_of_the_game() -> None:
    """Classic (Kodeks 3.3.19): the dealer, last to speak, holds a bomb (×2).  Alone his 6♠
    costs −5.71 over the sampled layouts against the all-pass's −9.47: he bids.  With the bomb
    his game writes everything twice, 2 × −5.71 = −11.41 < −9.47 (an all-pass is no game of
    his and is not doubled): he lets it go to the all-pass (with ``all_pass_standing``)."""
    rules = Rules.preset("classic")
    plain = _last_to_speak(rules, 3, 10)
    seat = plain.seat
    bombs = tuple(2 if s == seat else 1 for s in range(3))
    bomb = Standing((0, 0, 0), (0, 0, 0), ((0, 0, 0),) * 3, pool_target=20, bombs=bombs)
    obs = _last_to_speak(rules, 3, 10, standing=bomb)
    vb, va = _expert(rules, True, True).all_pass_values(plain), _expert(rules, True, True).all_pass_values(obs)
    assert vb is not None and va is not None
    assert vb[1:] == pytest.approx((-5.71, -9.47), abs=0.01)
    assert va[1:] == pytest.approx((2 * vb[1], vb[2]))
    assert _expert(rules, True, True).act(plain) == Action.parse("6♠", bid=True)
    assert _expert(rules, True, True).act(obs) == PASS
    assert _expert(rules, True).act(obs) == Action.parse("6♠", bid=True)  # by default, as alone


def _closed_first_hand(rules: Rules, players: int) -> Standing:
    t = rules.pool_target
    pool = [10] * players
    pool[1] = t  # first hand (the dealer is seat 0) has closed his pool
    return Standing(tuple(pool), (0,) * players, ((0,) * players,) * players, pool_target=t,
                    bombs=(1,) * players if rules.bombs else ())


@pytest.mark.parametrize(
    ("preset", "players", "help_price", "seeds"),
    [("leningrad", 3, 10, (11, 13, 20)), ("leningrad", 4, 10, (11, 13)), ("sochi", 2, 5, (11, 20))],
)
def test_a_closed_pool_helping_below_its_price_passes_a_marginal_game(
    preset: str, players: int, help_price: int, seeds: tuple[int, ...]
) -> None:
    """A house rule of help below the pool's price (``help_whists_per_point`` < ``k_pool``):
    first hand has closed his pool, so a game's points go to the lowest open pool and he
    writes ``help_price`` whists a point on its owner instead of owning points worth
    ``k_pool``.  Every made 6 (2 points) is worth 2 × (help − k_pool) less to him — Leningrad
    2 × (10 − 20) = −20, гусарик Sochi 2 × (5 − 10) = −10 — a failed one the same as alone.
    Hands whose 6 the expert bids alone, by a margin smaller than that, it now passes."""
    rules = Rules.preset(preset).replace(help_whists_per_point=help_price)
    standing = _closed_first_hand(rules, players)
    kw: dict[str, Any] = {"players": players, "dealer": 0, "seat": 1, "declarer": 1, "contract": Contract(6, 2),
          "calls": ("whist", "whist")}
    alone, closed = game_utility(rules, **kw), game_utility(rules, standing=standing, **kw)
    shift = 2 * (help_price - rules.k_pool)
    assert [round(c - a, 9) for a, c in zip(alone, closed, strict=True)] == [0] * 6 + [shift] * 5
    for seed in seeds:
        obs = Deal.new(rules, players=players, dealer=0, seed=seed, standing=standing).observation(1)
        assert _expert(rules, False).act(obs).is_bid, seed
        assert _expert(rules, True).act(obs) == PASS, seed


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov", "classic"])
@pytest.mark.parametrize("players", [3, 4])
def test_a_closed_pool_changes_nothing_in_the_presets(preset: str, players: int) -> None:
    """In every preset help costs what a pool point is worth (10 whists a point, Leningrad 20;
    rules.md §11.4), so a closed pool is worth the same as an open one: the expert's auction
    limits and calls with the first hand closed are exactly those it makes alone — for the
    hands above that a house rule makes it pass too."""
    rules = Rules.preset(preset)
    standing = _closed_first_hand(rules, players)
    for seed in (11, 20):
        obs = Deal.new(rules, players=players, dealer=0, seed=seed, standing=standing).observation(1)
        blind, aware = _expert(rules, False), _expert(rules, True)
        assert aware.bid_limits(obs) == blind.bid_limits(obs)
        assert aware.act(obs) == blind.act(obs)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_decision_ignores_hidden_cards_with_a_standing(level: str) -> None:
    """Inside a pulka (a series under way, a closed pool, a house help price that makes the
    pool matter) a decision still depends on the observation only."""
    rules = Rules.preset("sochi").replace(help_whists_per_point=5)
    standing = Standing((20, 14, 3), (6, 0, 12), ((0, 20, 4), (8, 0, 0), (0, 16, 0)), pool_target=20,
                        raspas_step=2)
    rng = random.Random(5)
    checked = 0
    for seed in range(2):
        for deal, seat in _decision_points(seed, rules, standing)[::3]:
            other = _shuffle_hidden(deal, seat, rng)
            a, b = deal.observation(seat), other.observation(seat)
            assert a == b and a.standing == standing
            assert _deterministic(level, rules, 5).act(a) == _deterministic(level, rules, 5).act(b)
            checked += 1
    assert checked > 8
