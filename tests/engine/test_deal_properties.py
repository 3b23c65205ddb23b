"""Invariants of random legal walks under every preset and every table size (2, 3, 4).

Cards are conserved, exactly 10 tricks are played and each was legal, undo
restores the exact previous state, and no observation shows a card its seat
may not see.
"""
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans import Deal, DealKind, Phase, Rules
from preferans.actions import ACCEPT_ID, INVITE_ID, OPEN_ID, WHIST
from preferans.cards import ALL_CARDS_MASK, SUIT_MASKS

from helpers import state_signature

VARIANTS = [Rules.preset(n) for n in Rules.PRESET_NAMES] + [
    Rules.preset("sochi").replace(
        bez_trekh=True, za_svoimi=True, without_talon_bids=True, open_timing="before_first_lead",
        misere_winner_must_play_misere=False, hold_rule="after_pass_any",
    ),
    Rules.preset("classic").replace(misere_rank="top", concede_all=True, hold_rule="via_passed_player"),
    # Other programs' conventions (rules.md §13): the dealer's whist, both half-whist options, a
    # checked 10 written as remiz only, «без трёх» up to 7, the literal Kodeks hold.
    Rules.preset("leningrad").replace(
        dealer_whist=True, first_defender_half_whist=True, half_whist_played=True, bez_trekh=True,
        bez_trekh_max_level=7, ten_mode="checked_remiz_only", hold_rule="first_hand_only",
        open_timing="after_first_lead", totus=True, dealer_shown_talon_whists=2,
    ),
    # The conventions of issue 19: the first defender's second call (beside the dealer's whist),
    # a misère bidder going on to a nine, one misère catcher playing both hands.
    Rules.preset("sochi").replace(
        first_defender_second_call=True, dealer_whist=True, misere_bidder_may_continue=True,
        misere_catchers="one_for_both",
    ),
]


def random_walk(rules: Any, players: Any, seed: Any, check_every_step: bool = True, all_pass: bool = False) -> Deal:
    rng = random.Random(seed)
    d = Deal.new(rules, players=players, dealer=rng.randrange(players), seed=seed,
                 min_level=rng.choice([6, 6, 7]))
    while not d.is_over:
        if check_every_step:
            check_observations(d)
            before = state_signature(d)
        legal = d.legal_actions()
        # Lean towards whisting so that most walks reach trick play.
        whist = [x for x in legal if str(x) in ("whist", "pass" if all_pass and d.phase is Phase.BIDDING else "")]
        a = whist[0] if whist and (all_pass or rng.random() < 0.75) else rng.choice(legal)
        d.apply(a)
        if check_every_step and rng.random() < 0.3:
            d.undo()
            assert state_signature(d) == before  # undo is exact
            d.apply(a)
    check_observations(d)
    return d


def check_cards(d: Deal) -> None:
    total = d.discard
    for h in d.hands:
        assert total & h == 0
        total |= h
    played = 0
    talon_in_tricks = 0
    for cards, _winner in d.completed_tricks:
        for seat, c in cards:
            if seat < 0 or (d.players == 4 and seat == d.dealer):
                talon_in_tricks |= 1 << c
            else:
                assert not played >> c & 1
                played |= 1 << c
    talon = (1 << d.talon[0]) | (1 << d.talon[1])
    everything = total | played | (0 if d.talon_taken else talon)
    assert everything == ALL_CARDS_MASK  # all 32 cards accounted for


def check_tricks_legal(d: Deal) -> None:
    """Replay the tricks against the rules of rules.md §6 with an independent check."""
    hands = list(d.initial_hands)
    if d.talon_taken:
        assert d.declarer is not None
        hands[d.declarer] |= (1 << d.talon[0]) | (1 << d.talon[1])
        hands[d.declarer] &= ~d.discard
    trump = d.trump
    for cards, winner in d.completed_tricks:
        led = cards[0][1] >> 3
        for seat, c in cards:
            if seat < 0 or (d.players == 4 and seat == d.dealer):
                continue
            h = hands[seat]
            assert h >> c & 1
            if c >> 3 != led:
                assert not h & SUIT_MASKS[led]  # follow suit
                if trump is not None and c >> 3 != trump:
                    assert not h & SUIT_MASKS[trump]  # must trump
            hands[seat] = h & ~(1 << c)
        # winner: highest trump, else highest of the led suit (talon card only if it participates)
        contenders = [(s, c) for s, c in cards if s >= 0]
        trumps = [(s, c) for s, c in contenders if trump is not None and c >> 3 == trump]
        pool = trumps or [(s, c) for s, c in contenders if c >> 3 == led]
        expected = max(pool, key=lambda sc: sc[1])[0] if pool else -1
        assert winner == expected


def allowed_foreign(d: Deal, seat: int, other: int) -> bool:
    """May ``seat`` see ``other``'s current cards?  Derived from the moves, not the deal."""
    acts = [a for _, a in d.moves]
    if OPEN_ID in acts and other in d.defenders:
        return True
    c = d.contract
    if c is not None and c.is_misere and other in d.defenders and d.phase.value in ("play", "over"):
        dark = any(a.is_dark for s, a in d.moves if s == d.declarer)
        started = any(a.is_card for a in acts[d.discard.bit_count():]) or d.declarer != d.first_hand
        if not dark and started:
            return True
    if c is not None and c.level == 10 and d.rules.tens_checked and d.phase.value in ("play", "over"):
        return True
    if d.players == 4 and other in d.defenders and any(s == d.dealer and a == WHIST for s, a in d.moves):
        return True  # dealer_whist: he plays both defending hands, laid open (rules.md §5.6)
    if (d.players == 2 and other in d.defenders and d.phase.value in ("play", "over")
            and any(a == WHIST and s != d.declarer for s, a in d.moves)):
        return True  # гусарик: the whister lays the dummy and his own hand face up (rules.md §16)
    if seat == d.dealer and d.players == 4 and INVITE_ID in acts:
        inviter = next(s for s, a in d.moves if a == INVITE_ID)
        return other == inviter
    return False


def check_observations(d: Deal) -> None:
    talon = (1 << d.talon[0]) | (1 << d.talon[1])
    for seat in range(d.players):
        obs = d.observation(seat)
        vis = obs.visible_cards()
        assert obs.hand == d.hands[seat]
        for other in range(d.seats):  # the dummy too, when two play
            if other != seat and not allowed_foreign(d, seat, other):
                leak = vis & d.hands[other] & ~talon
                assert leak == 0, (seat, other)
        if d.phase is Phase.BIDDING:
            assert vis & talon & ~d.hands[seat] == 0  # nobody sees the talon during the auction
        companion = (  # Kodeks 3.6.9: the dealer who agreed to play the misère «пополам»
            d.players == 4 and seat == d.dealer and any(a == ACCEPT_ID for _, a in d.moves)
            and d.declarer == next(s for s, a in d.moves if a == INVITE_ID)
        )
        if seat != d.declarer and not companion:
            assert obs.discard == 0
            assert vis & d.discard & ~(talon if d.talon_shown else 0) == 0


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(range(len(VARIANTS))),
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**31),
)
def test_random_walk_invariants(variant: Any, players: Any, seed: Any) -> None:
    d = random_walk(VARIANTS[variant], players, seed)
    check_cards(d)
    check_tricks_legal(d)
    r = d.result
    if r.kind == DealKind.ALL_PASS:
        assert len(d.completed_tricks) == 10
        nobody = sum(1 for _, w in d.completed_tricks if w < 0)
        assert sum(r.tricks.values()) + r.dealer_tricks + nobody == 10
    elif r.tricks and r.conceded == 0:
        assert len(d.completed_tricks) == 10 and sum(r.tricks.values()) == 10


def test_many_walks_every_preset_and_size() -> None:
    for rules in VARIANTS:
        for players in (2, 3, 4):
            for seed in range(40):
                d = random_walk(rules, players, seed, check_every_step=seed < 8)
                check_cards(d)
                check_tricks_legal(d)


def test_all_pass_walks() -> None:
    for rules in VARIANTS:
        for players in (2, 3, 4):
            for seed in range(25):
                d = random_walk(rules, players, seed, check_every_step=seed < 4, all_pass=True)
                assert d.result.kind == DealKind.ALL_PASS
                check_cards(d)
                check_tricks_legal(d)


def test_replay_reproduces_the_deal() -> None:
    for seed in range(30):
        d = random_walk(VARIANTS[seed % len(VARIANTS)], 2 + seed % 3, seed, check_every_step=False)
        again = Deal.replay(d.rules, hands=d.initial_hands, talon=d.talon, actions=d.actions,
                            dealer=d.dealer, players=d.players, min_level=d.min_level)
        assert state_signature(again) == state_signature(d)
        assert again.result == d.result
        texts = [str(a) for a in d.actions]
        again = Deal.replay(d.rules, hands=d.initial_hands, talon=d.talon, actions=texts,
                            dealer=d.dealer, players=d.players, min_level=d.min_level)
        assert again.result == d.result
