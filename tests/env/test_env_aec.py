"""The PettingZoo environment: PettingZoo's own conformance tests, hidden information, zero-sum rewards."""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from preferans import Deal, IllegalAction, Rules
from preferans.cards import ALL_CARDS_MASK, cards_of
from preferans.env import EnvError, env, raw_env
from preferans.env.encoding import LAYOUT, OBS_SIZE, encode, feature_names
from preferans.env.rewards import deal_returns

# api_test's hints for Dict observations (PettingZoo's own classic games get them too).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]

CONFIGS = [
    {},
    {"players": 4},
    {"rules": "leningrad", "normalize": True},
    {"rules": "rostov", "players": 4, "episode": "pulka", "max_deals": 6},
    {"rules": "classic", "episode": "pulka", "max_deals": 6},
    {"rules": "kodeks", "players": 4},
    {"players": 2},  # гусарик (rules.md §16): two agents, the dummy is nobody's
    {"rules": "rostov", "players": 2, "episode": "pulka", "max_deals": 4},
]


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_pettingzoo_api(kwargs: dict[str, object]) -> None:
    api_test(env(**kwargs), num_cycles=200)


@pytest.mark.parametrize("kwargs", CONFIGS[:4])
def test_pettingzoo_seed(kwargs: dict[str, object]) -> None:
    seed_test(lambda: env(**kwargs), num_cycles=200)


def test_raw_env_passes_api_test_too() -> None:
    api_test(raw_env(players=4, episode="pulka", max_deals=3), num_cycles=200)


def play_episode(e, rng: random.Random) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Random legal actions to the end; each agent's summed reward."""
    total: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return total


@pytest.mark.parametrize("rules", ["sochi", "leningrad", "rostov", "classic", "kodeks"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_rewards_sum_to_zero(rules: str, players: int) -> None:
    e = env(rules=rules, players=players)
    rng = random.Random(players)
    for seed in range(15):
        e.reset(seed=seed)
        total = play_episode(e, rng)
        assert abs(sum(total.values())) < 1e-9


def test_pulka_rewards_add_up_to_the_settlement() -> None:
    e = raw_env(rules="sochi", episode="pulka", max_deals=8)
    rng = random.Random(3)
    e.reset(seed=11)
    per_deal = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if any(e.infos[a] for a in e.agents):
            per_deal.append(sum(e.rewards.values()))
    net = [float(x) for x in e.table.pulka.pulka.settlement().net]  # type: ignore[union-attr]
    assert per_deal and all(abs(x) < 1e-9 for x in per_deal)
    assert [round(total[a], 6) for a in e.possible_agents] == [round(x, 6) for x in net]
    assert e.table.truncated or e.table.pulka.is_over  # type: ignore[union-attr]


def test_normalised_rewards_are_whists_over_the_scale() -> None:
    plain, norm = raw_env(rules="leningrad"), raw_env(rules="leningrad", normalize=True, reward_scale=10)
    for e in (plain, norm):
        e.reset(seed=5)
    rng1, rng2 = random.Random(1), random.Random(1)
    a, b = play_episode(plain, rng1), play_episode(norm, rng2)
    assert [round(a[k] / 10, 9) for k in a] == [round(b[k], 9) for k in b]


def test_deal_returns_match_scoring() -> None:
    rules = Rules.preset("sochi")
    deal = Deal.from_cards(
        rules,
        hands=["A♠ K♠ Q♠ J♠ 10♠ 9♠ A♣ K♣ A♦ K♦", "8♠ 7♠ Q♣ J♣ 10♣ 9♣ Q♦ J♦ 10♦ 9♦", "8♣ 7♣ 8♦ 7♦ A♥ K♥ Q♥ J♥ 10♥ 9♥"],
        talon="8♥ 7♥",
        dealer=2,
    )
    for a in ("6♠", "pass", "pass", "8♥", "7♥", "6♠", "pass", "pass"):
        deal.apply(a)
    # Both defenders passed: 6♠ is written without play, 2 in the pool of seat 0 (rules.md §9.2).
    # Net: k_pool × (2 − 2/3) = 40/3 for the declarer, −20/3 for each defender.
    assert [round(x, 6) for x in deal_returns(deal.result, rules)] == [round(x / 3, 6) for x in (40, -20, -20)]


def test_illegal_actions() -> None:
    e = raw_env()
    e.reset(seed=1)
    before = e.observe(e.agent_selection)["observation"]
    with pytest.raises(IllegalAction):
        e.step(104)  # concede-all is not a bid
    assert np.array_equal(e.observe(e.agent_selection)["observation"], before)  # nothing changed
    wrapped = env()
    wrapped.reset(seed=1)
    culprit = wrapped.agent_selection
    wrapped.step(104)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[culprit] == -100.0  # minus a made 10-game: k_pool × V(10)
    with pytest.raises(ValueError):
        e.step(105)


def test_bad_options_name_the_field() -> None:
    with pytest.raises(EnvError, match="players"):
        raw_env(players=5)
    with pytest.raises(EnvError, match="rules"):
        raw_env(rules="moscow")
    with pytest.raises(EnvError, match="episode"):
        raw_env(episode="match")


def test_layout_and_names() -> None:
    names = feature_names()
    assert len(names) == OBS_SIZE
    assert names[LAYOUT["hand"][0]] == "hand:7♠"
    assert names[LAYOUT["calls"][0] + 105 - 32 + (94 - 32)] == "calls:+1:whist"


# -- hidden information ---------------------------------------------------------------------------------


def relabel(deal: Deal, perm: dict[int, int]) -> Deal:
    """The same deal with cards renamed by ``perm`` (the identity outside its keys)."""

    def p(c: int) -> int:
        return perm.get(c, c)

    hands = [sum(1 << p(c) for c in cards_of(h)) for h in deal.initial_hands]
    talon = [p(c) for c in deal.talon]
    actions = [p(a) if a < 32 else int(a) for _, a in deal.moves]  # no reports in an env deal
    return Deal.replay(
        deal.rules, hands=hands, talon=talon, actions=actions, dealer=deal.dealer, players=deal.players,
        min_level=deal.min_level,
    )  # fmt: skip


def hidden_permutations(visible: int, rng: random.Random, same_suit: bool) -> dict[int, int]:
    hidden = cards_of(ALL_CARDS_MASK & ~visible)
    perm: dict[int, int] = {}
    groups = [[c for c in hidden if c >> 3 == s] for s in range(4)] if same_suit else [list(hidden)]
    for g in groups:
        shuffled = g[:]
        rng.shuffle(shuffled)
        perm.update(zip(g, shuffled, strict=True))
    return perm


def plausible(deal: Deal, rng: random.Random) -> int:
    """Random play that bids low and rarely, so most deals are played games with hidden hands."""
    legal = deal.legal_actions()
    if deal.phase.value == "bidding" and len(legal) > 1:
        return legal[0] if rng.random() < 0.6 else rng.choice(legal[1:4])
    if deal.phase.value == "declare":
        return legal[0]
    return rng.choice(legal)


@pytest.mark.parametrize("rules", ["sochi", "leningrad", "rostov", "classic", "kodeks"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_ignores_cards_the_seat_cannot_see(rules: str, players: int) -> None:
    """Rename the cards a seat has not seen; its observation must not change (rules.md §11.5 hidden info)."""
    r = Rules.preset(rules)
    rng = random.Random(f"{rules}{players}")
    checked = changed = 0
    for seed in range(18 if players == 2 else 12):  # гусарик: two seats look, so more deals
        deal = Deal.new(r, players=players, dealer=seed % players, seed=seed)
        stop = rng.randrange(1, 40)
        while not deal.is_over and len(deal.moves) < stop:
            deal.apply(plausible(deal, rng))
        for seat in range(players):
            view = deal.observation(seat)
            before = encode(view, min_level=deal.min_level)
            for same_suit in (True, False):
                perm = hidden_permutations(view.visible_cards(), rng, same_suit)
                try:
                    other = relabel(deal, perm)
                except IllegalAction:
                    continue  # renaming across suits made an earlier play illegal: not a possible world
                after = other.observation(seat)
                assert np.array_equal(encode(after, min_level=other.min_level), before), (rules, seed, seat)
                assert after.legal_actions == view.legal_actions
                checked += 1
                changed += other.initial_hands != deal.initial_hands
    assert checked > 50 and changed > 20


def test_observation_does_change_with_visible_cards() -> None:
    """The converse: swapping two cards of the observer's own hand with hidden ones changes the vector."""
    r = Rules.preset("sochi")
    deal = Deal.new(r, seed=4)
    seat = deal.to_act
    assert seat is not None
    view = deal.observation(seat)
    own = cards_of(view.hand)
    hidden = cards_of(ALL_CARDS_MASK & ~view.visible_cards())
    other = relabel(deal, {own[0]: hidden[0], hidden[0]: own[0]})
    assert not np.array_equal(encode(other.observation(seat)), encode(view))


def test_pulka_observations_show_the_sheet() -> None:
    """In a pulka the sheet is public: pools, mountains and the all-pass series appear in every vector."""
    from preferans.env.encoding import sheet_bits

    e = raw_env(rules="sochi", episode="pulka", max_deals=30)
    e.reset(seed=4)
    rng = random.Random(4)
    o_pool, size = LAYOUT["pool"]
    seen_points = False
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        vec = obs["observation"]
        want = sheet_bits(e.table.pulka.pulka, seat)  # type: ignore[union-attr]
        got = int("".join(str(int(b)) for b in vec[::-1]), 2)
        assert got & want == want
        seen_points |= bool(vec[o_pool : o_pool + size].any())
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert seen_points
    single = raw_env()
    single.reset(seed=1)
    o_raspas, n = LAYOUT["raspas_series"]
    assert not single.observe("player_0")["observation"][o_pool:o_raspas + n].any()


@pytest.mark.subprocess
def test_core_never_imports_the_env() -> None:
    """The [rl] extra stays optional: importing the core loads no RL package."""
    import subprocess
    import sys

    code = (
        "import sys, preferans, preferans.scoring.pulka, preferans.bots, preferans.scoring; "
        "print(sorted(m for m in sys.modules if m.startswith('preferans.env') or m in ('pettingzoo', 'gymnasium')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_returns_are_the_pulka_settlement(players: int) -> None:
    """The cached, rotation-shared rewards equal Pulka.settlement() of the deal on a fresh sheet."""
    from preferans import PRESETS
    from preferans.scoring.pulka import Pulka

    for preset in sorted(PRESETS):
        rules = Rules.preset(preset)
        rng = random.Random(preset)
        for seed in range(40):
            deal = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
            pulka = Pulka(rules, players, first_dealer=deal.dealer)
            pulka.record(deal.result)
            want = [float(x) for x in pulka.settlement().net]
            assert np.allclose(deal_returns(deal.result, rules), want, atol=1e-9), (preset, seed)


def test_end_of_deal_info_keeps_the_talon_hidden() -> None:
    e = raw_env(rules="rostov")  # an all-pass under Rostov never turns the talon up
    rng = random.Random(2)
    e.reset(seed=2)
    info: dict[str, object] = {}
    for _agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            break
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert "deal_result" in info and "talon" not in cast("dict[str, Any]", info["deal_result"])


def test_gusarik_observation_shows_the_dummy_only_once_opened() -> None:
    """гусарик (rules.md §16): the vector has the two-players bit (and not the four-players
    one); the dummy (seat 2) is relative seat (2 − me) mod 3, its cards enter ``known_hands``
    only when the whister lays it down, and the agents are the two players only."""
    from preferans.engine.deal import Phase
    from preferans.env.encoding import O_KNOWN, O_TWO

    rules = Rules.preset("sochi")
    deal = Deal.new(rules, players=2, dealer=1, seed=3)  # first hand is seat 0
    while deal.phase is Phase.BIDDING:
        deal.apply("6♠" if deal.to_act == 0 else "pass")
    for c in deal.talon:
        deal.apply(int(c))
    deal.apply("6♠")
    dummy = deal.hands[2]

    def known(seat: int) -> int:
        v = encode(deal.observation(seat))
        rel = (2 - seat) % 3
        return sum(1 << c for c in range(32) if v[O_KNOWN + 32 * (rel - 1) + c])

    assert encode(deal.observation(0))[O_TWO] == 1 and encode(Deal.new(rules, seed=3).observation(0))[O_TWO] == 0
    assert known(0) == 0 and known(1) == 0  # dealt face down
    deal.apply("whist")
    assert known(0) == dummy and known(1) == dummy
    e = env(players=2)
    e.reset(seed=1)
    assert e.possible_agents == ["player_0", "player_1"]
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"].sum() >= 1 and obs["observation"][O_TWO] == 1
