"""Per-seat observations (issue: hidden information never leaks)."""

from preferans import Rules

from helpers import deal_with, play


def test_bidding_observation_holds_own_cards_only() -> None:
    d = deal_with("sochi")
    play(d, "6♠, 6♣")
    for seat in range(3):
        obs = d.observation(seat)
        assert obs.hand == d.hands[seat] and obs.known_hands == {}
        assert obs.talon == (None, None)
        assert [str(a) for _, a in obs.moves] == ["6♠", "6♣"]  # every call is public
    assert d.observation(0).legal_actions and not d.observation(1).legal_actions


def test_discard_only_for_the_declarer() -> None:
    d = deal_with("sochi")
    play(d, "6♠, pass, pass")
    cards = [str(a) for a in d.legal_actions()[:2]]
    play(d, cards)
    decl = d.observation(1)
    assert decl.discard == d.discard and [str(a) for _, a in decl.moves][-2:] == cards
    for seat in (0, 2):
        obs = d.observation(seat)
        assert obs.discard == 0
        assert [a for _, a in obs.moves][-2:] == [None, None]  # face down
        assert obs.talon == tuple(d.talon)  # the talon itself was shown to all


def test_dealer_sees_inviters_cards() -> None:
    # Kodeks 3.6.9: the dealer looks at the inviter's cards.
    d = deal_with("sochi", players=4, dealer=0)
    play(d, "invite")
    assert d.observation(0).known_hands == {1: d.hands[1]}
    assert d.observation(2).known_hands == {}


def test_to_dict_is_json_ready() -> None:
    import json

    d = deal_with(Rules.preset("sochi"))
    play(d, "pass, pass, pass")
    text = json.dumps(d.observation(1).to_dict(), ensure_ascii=False)
    assert '"phase": "play"' in text and '"talon": ["' in text


def test_shown_voids_follow_spec_6() -> None:
    # rules.md §6: not following the led suit shows a void; in a trump game, so does not trumping.
    d = deal_with(
        "sochi",
        fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♥ K♥", 2: "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ A♦ K♦",
               0: "Q♦ J♦ 10♦ 9♦ 8♦ 7♦ Q♥ J♥ 10♥ 9♥"},
        talon="8♥ 7♥",
    )
    play(d, "6♠, pass, pass, 8♥, 7♥, 6♠, whist, whist, A♥, A♣")
    voids = d.observation(0).shown_voids()
    assert set(voids) == {2}
    hearts, spades = 0xFF << 24, 0xFF
    assert voids[2] == hearts | spades  # no heart and no trump


def test_the_remembered_sight_follows_undo_and_copies() -> None:
    """Each observer's knowledge is kept per deal and read on from the newest ledger entry
    (observation.py ``_knowledge``); after undos, redos and copies that went other ways, every
    seat's and the public observation equal those of the same moves replayed on a fresh deal."""
    import random

    from preferans import Deal

    for seed in range(40):
        rng = random.Random(seed)
        d = Deal.new(Rules.preset(Rules.PRESET_NAMES[seed % 5]), players=3 + seed % 2, seed=seed)
        others = []
        for _ in range(60):
            if d.is_over:
                break
            for s in range(d.players):
                d.observation(s)
            d.public_observation()
            if d.moves and rng.random() < 0.25:
                d.undo()
            elif rng.random() < 0.2:
                twin = d.copy()  # shares the remembered sight, then goes another way
                twin.apply(rng.choice(twin.legal_actions()))
                others.append(twin)
            else:
                d.apply(rng.choice(d.legal_actions()))
        for deal in [d, *others]:
            fresh = Deal.new(deal.rules, players=deal.players, seed=seed)
            for seat, action in deal.moves:
                fresh.replay_move(seat if action.is_irregular else None, action)
            for s in range(deal.players):
                assert deal.observation(s) == fresh.observation(s), (seed, s)
            assert deal.public_observation() == fresh.public_observation()
