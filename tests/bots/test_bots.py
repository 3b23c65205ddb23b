"""Bots: legality everywhere, honesty (hidden cards change nothing), levels, sampling."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest

from preferans import Deal, Rules, Standing
from preferans.bots import Bot, HeuristicBot, PimcBot, RandomBot, make_bot
from preferans.bots.expert import ExpertBot
from preferans.bots.knowledge import OUT, Knowledge
from preferans.bots.sampling import sample_layout
from preferans.cards import SUIT_MASKS, cards_of
from preferans.engine.observation import Observation
from preferans.errors import PreferansError

BOTS_DIR = pathlib.Path(__file__).parents[2] / "src" / "preferans" / "bots"

# Every preset, plus a table with every optional call switched on, so that
# each phase (dark bids, «без прикупа», concessions, «за своими», half-whist,
# open/closed before the lead, stalingrad, misère «пополам») is reached.
EVERYTHING = Rules.preset("classic").replace(
    name="everything",
    without_talon_bids=True,
    bez_trekh=True,
    concede_all=True,
    za_svoimi=True,
    stalingrad=True,
    open_timing="before_first_lead",
    half_whist_levels=[6, 7, 8],
    misere_rank="top",
)
TABLES = [Rules.preset(n) for n in Rules.PRESET_NAMES] + [EVERYTHING]


def play_out(deal: Deal, bots: list[Bot]) -> None:
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        obs = deal.observation(seat)
        action = bots[seat].act(obs)
        assert action in obs.legal_actions, (bots[seat], obs.phase, action, obs.legal_actions)
        deal.apply(action, seat=seat)  # raises IllegalAction on any slip


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.name)
@pytest.mark.parametrize("players", [3, 4])
def test_no_illegal_action_over_many_deals(rules: Rules, players: int) -> None:
    """2,400 deals in all (200 per table and size) by easy, medium and random bots."""
    rng = random.Random(f"{rules.name}{players}")
    kinds: set[str] = set()
    for i in range(200):
        levels = [rng.choice(["easy", "medium", "medium", "random"]) for _ in range(players)]
        bots = [make_bot(lv, rules, seed=i * 10 + s) for s, lv in enumerate(levels)]
        deal = Deal.new(rules, players=players, dealer=i % players, seed=rng.getrandbits(32),
                        min_level=rng.choice([6, 6, 6, 7]))
        play_out(deal, bots)
        kinds.add(deal.result.kind.value)
    assert {"game", "all_pass"} <= kinds


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.name)
@pytest.mark.parametrize("players", [3, 4])
def test_hard_bot_plays_legally(rules: Rules, players: int) -> None:
    rng = random.Random(f"hard{rules.name}{players}")
    for i in range(4):
        bots: list[Bot] = [PimcBot(rules, seed=s) if s % 2 == 0 else RandomBot(rules, seed=s)
                           for s in range(players)]
        if i % 2:
            bots = [PimcBot(rules, seed=s) for s in range(players)]
        deal = Deal.new(rules, players=players, dealer=i % players, seed=rng.getrandbits(32))
        play_out(deal, bots)


def _clone(deal: Deal) -> Deal:
    return Deal.replay(deal.rules, hands=deal.initial_hands, talon=deal.talon, actions=deal.actions,
                       dealer=deal.dealer, players=deal.players, min_level=deal.min_level, standing=deal.standing)


def _decision_points(seed: int, rules: Rules, standing: Standing | None = None) -> list[tuple[Deal, int]]:
    """Copies of one deal at each of its decisions, played by medium bots (inside a pulka
    standing as ``standing``, if given)."""
    deal = Deal.new(rules, seed=seed, standing=standing)
    bots = [make_bot("medium", rules, seed=s) for s in range(3)]
    points = []
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        points.append((_clone(deal), seat))
        deal.apply(bots[seat].act(deal.observation(seat)), seat=seat)
    return points


def _shuffle_hidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same deal and history with the cards ``seat`` cannot see exchanged
    among the places they could be: same-suit cards still unplayed swap between
    two hidden hands; before any card is played an unseen talon joins in."""
    obs = deal.observation(seat)
    hidden = [s for s in deal.active if s != seat and s not in obs.known_hands]
    initial = list(deal.initial_hands)
    talon: list[int] = list(deal.talon)
    now = deal.hands
    for suit in range(4):
        pool: list[int] = []
        slots: list[tuple[str, int]] = []
        for s in hidden:
            for c in cards_of(now[s] & SUIT_MASKS[suit]):
                if not deal.discard >> c & 1 and c not in deal.talon:
                    pool.append(c)
                    slots.append(("hand", s))
        unseen_talon = obs.talon == (None, None) and not deal.talon_taken and not obs.completed_tricks
        if unseen_talon and not obs.trick:
            for i, t in enumerate(talon):
                if t >> 3 == suit:
                    pool.append(t)
                    slots.append(("talon", i))
        new = pool[:]
        rng.shuffle(new)
        for (where, who), old in zip(slots, pool, strict=True):
            if where == "hand":
                initial[who] &= ~(1 << old)
        for (where, who), card in zip(slots, new, strict=True):
            if where == "hand":
                initial[who] |= 1 << card
            else:
                talon[who] = card
    return Deal.replay(deal.rules, hands=initial, talon=talon, actions=deal.actions,
                       dealer=deal.dealer, players=deal.players, min_level=deal.min_level, standing=deal.standing)


def _deterministic(level: str, rules: Rules, seed: int) -> Bot:
    """The level's bot; the expert stopped by its cap of layouts, never by the clock
    (``expert+partner``: with its partner's view in the last tricks of a defence)."""
    if level.startswith("expert"):
        return ExpertBot(rules, seed=seed, think=60.0, max_layouts=24, partner_view=level == "expert+partner")
    return make_bot(level, rules, seed=seed)


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "expert+partner"])
def test_decision_ignores_hidden_cards(level: str) -> None:
    """A bot sees only its observation: shuffling what it cannot see changes nothing."""
    rng = random.Random(11)
    rules = Rules()
    checked = 0
    for seed in range(4):
        for deal, seat in _decision_points(seed, rules)[::3]:
            other = _shuffle_hidden(deal, seat, rng)
            a, b = deal.observation(seat), other.observation(seat)
            assert a == b
            bot1 = _deterministic(level, rules, 5)
            bot2 = _deterministic(level, rules, 5)
            assert bot1.act(a) == bot2.act(b)
            checked += 1
    assert checked > 20


def test_bots_never_see_the_deal() -> None:
    """Structurally: a bot's only input is an Observation of plain values, and no
    bot module imports the deal (the arena and the conformance kit, which deal the cards and
    referee, are no bots)."""
    for path in BOTS_DIR.glob("*.py"):
        if path.name in ("arena.py", "conformance.py"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[-1] not in ("deal", "_state", "_trickplay", "engine"), path.name
    obs = Deal.new(Rules(), seed=1).observation(1)
    for name in Observation.__dataclass_fields__:
        assert not isinstance(getattr(obs, name), Deal)
    with pytest.raises(AttributeError):
        obs.hand = 0  # type: ignore[misc]


def test_levels() -> None:
    rules = Rules()
    assert isinstance(make_bot("random", rules), RandomBot)
    assert isinstance(make_bot("easy", rules), HeuristicBot)
    assert type(make_bot("medium", rules)) is HeuristicBot
    assert isinstance(make_bot("hard", rules), PimcBot)
    assert make_bot(" Hard ", rules).name == "hard"
    with pytest.raises(PreferansError, match="unknown bot 'grandmaster': use a level"):
        make_bot("grandmaster", rules)
    with pytest.raises(PreferansError, match="cmd: give the program"):
        make_bot("cmd:", rules)


def test_same_seed_same_game() -> None:
    rules = Rules()
    logs = []
    for _ in range(2):
        deal = Deal.new(rules, seed=4)
        bots = [make_bot("hard", rules, seed=s) for s in range(3)]
        play_out(deal, bots)
        logs.append(deal.actions)
    assert logs[0] == logs[1]


def test_layouts_respect_what_was_observed() -> None:
    """Sampled layouts: right sizes, no card twice, voids kept, talon with the declarer."""
    rules = Rules()
    rng = random.Random(3)
    seen_void = 0
    for seed in range(25):
        for deal, seat in _decision_points(seed, rules):
            if deal.phase.value != "play":
                continue
            obs = deal.observation(seat)
            k = Knowledge.of(obs)
            layout = sample_layout(k, rng)
            union = 0
            for place, mask in layout.items():
                assert mask.bit_count() == k.sizes[place]
                assert not union & mask
                union |= mask
                if place != OUT:
                    assert not mask & ~k.allowed[place]
            assert union == k.unknown
            for s in k.sizes:
                if s != OUT:
                    truth = deal.hands[s]
                    assert truth & ~k.unknown == 0
                    voids = [x for x in range(4) if not k.allowed[s] & SUIT_MASKS[x] and k.unknown & SUIT_MASKS[x]]
                    seen_void += len(voids)
                    for x in voids:
                        assert not truth & SUIT_MASKS[x]  # a shown void is real
            if deal.talon_taken and obs.declarer != seat:
                for c in deal.talon:
                    for s in k.sizes:
                        if s not in (OUT, obs.declarer) and k.unknown >> c & 1:
                            assert not layout[s] >> c & 1
    assert seen_void > 0


def test_heuristic_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    rules = Rules()
    strong = Deal.from_cards(rules, hands={1: "♠A K Q J 10 ♣A K ♦A ♥A K", 2: "♠9 8 7 ♣Q J 10 ♦K Q J 10",
                                           0: "♣9 8 7 ♦9 8 7 ♥Q J 10 9"}, talon="♥8 7")
    bot = make_bot("medium", rules)
    assert bot.act(strong.observation(1)).is_bid
    weak = Deal.from_cards(rules, hands={1: "♠9 8 ♣Q J 10 ♦K Q J 10 ♥Q", 2: "♠A K Q J 10 ♣A K ♦A ♥A K",
                                         0: "♠7 ♣9 8 7 ♦9 8 7 ♥J 10 9"}, talon="♥8 7")
    assert str(bot.act(weak.observation(1))) == "pass"


def test_misere_hand_bids_misere() -> None:
    rules = Rules()
    deal = Deal.from_cards(rules, hands={1: "♠7 9 J ♣7 9 ♦7 9 J ♥7 8", 2: "♠A K Q 10 8 ♣A K ♦A ♥A K",
                                         0: "♣Q J 10 8 ♦K Q 10 8 ♥Q J"}, talon="♥10 9")
    assert str(make_bot("medium", rules).act(deal.observation(1))) == "misere"


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert:20ms"])
@pytest.mark.parametrize("preset", ["sochi", "leningrad"])
def test_every_level_plays_gusarik(level: str, preset: str) -> None:
    """Two players (гусарик, rules.md §16): every level answers legally in every seat it
    is asked from — never the dummy's, whose cards its whister plays — and the deals end
    in games and (but for random bots, who always bid) all-passes."""
    rules = Rules.preset(preset)
    kinds: set[str] = set()
    deals = 12 if level in ("hard", "expert:20ms") else 40
    for i in range(deals):
        deal = Deal.new(rules, players=2, dealer=i % 2, seed=1000 + i)
        bots = [make_bot(level, rules, seed=i * 10 + s) for s in range(2)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat in (0, 1)
            obs = deal.observation(seat)
            action = bots[seat].act(obs)
            assert action in obs.legal_actions, (level, obs.phase, action)
            deal.apply(action, seat=seat)
        kinds.add(deal.result.kind.value)
    assert kinds >= ({"game"} if level == "random" else {"game", "all_pass"}), kinds
