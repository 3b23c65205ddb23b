"""Hidden information on every path: the visibility ledger against a model of the table (issue 14).

:class:`visibility_model.TableWitness` is written from what happens at a real table —
who is looking when a card moves — and knows nothing of the engine's ledger.
Random walks make every kind of move (calls, dark calls, the misère invitation
and its answers, every irregularity, claims and their answers, open and closed
defence, lying-down misère defenders, «за своими») and check, after each step
and for every seat and a spectator, that the observation shows exactly what
the model says that observer knows: no card more, and none of what he saw
missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans import DealKind, Phase, Rules
from preferans.actions import TALON_TAKEN_ID, Action

from helpers import deal_with, play
from visibility_model import VARIANTS, walk


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(range(len(VARIANTS))), players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31))
def test_observations_match_the_table(variant: Any, players: Any, seed: Any) -> None:
    walk(VARIANTS[variant], players, seed)


@pytest.mark.parametrize("players", [2, 3, 4])  # 2: гусарик, the dummy hidden until it is laid down
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_every_preset_and_size(variant: Any, players: int) -> None:
    for seed in range(12):
        walk(VARIANTS[variant], players, seed, undo=seed % 3 == 0)


# ---------------------------------------------------------------- the four leaks of issue 14
def test_redraw_draws_are_face_down() -> None:
    # Leak 1 — Kodeks 3.3.17 «взакрытую вытянуть»: only the offender knows which two went back.
    d = deal_with("sochi", players=4, dealer=0)
    play(d, "6♠")
    d.report("!talon-taken", seat=3)
    first, second = d.legal_actions()[2], d.legal_actions()[5]
    play(d, [str(first), str(second)])
    for seat in (0, 1, 2):
        obs = d.observation(seat)
        assert [a for _, a in obs.moves][-2:] == [None, None]
        assert first.card is not None and second.card is not None
        assert not obs.visible_cards() & (first.card.bit | second.card.bit) & ~d.hands[seat]
        assert obs.talon == (None, None)
    spectator = d.public_observation()
    assert [a for _, a in spectator.moves][-2:] == [None, None]
    assert [a for _, a in d.observation(3).moves][-2:] == [first, second]  # they left his hand
    assert d.observation(3).talon == tuple(d.talon)


def test_discard_hidden_after_a_redraw() -> None:
    # Leak 2 — seed 002 p.21 «сброс никто не имеет права смотреть», Kodeks 3.6.6.
    d = deal_with("sochi")
    play(d, "6♠")
    d.report("!talon-taken", seat=2)
    play(d, [str(a) for a in d.legal_actions()[:2]])
    play(d, "pass")  # seat 2 lost the right to bid; seat 0 passes, seat 1 plays 6♠
    declarer = d.declarer
    assert declarer == 1 and d.phase == Phase.DISCARD
    discard = [str(a) for a in d.legal_actions()[:2]]
    play(d, discard)
    for seat in range(3):
        obs = d.observation(seat)
        cards = [a for _, a in obs.moves][-2:]
        if seat == declarer:
            assert [str(a) for a in cards] == discard and obs.discard == d.discard
        else:
            assert cards == [None, None] and obs.discard == 0
            assert not obs.visible_cards() & d.discard & ~d.hands[seat]


def test_talon_seen_reporter_does_not_see_the_redrawn_talon() -> None:
    # Leak 3: he saw the old talon, never the new one.
    d = deal_with("sochi", players=4, dealer=0)
    old = tuple(d.talon)
    d.report("!talon-seen", seat=1)
    assert d.observation(1).talon == old
    d.report("!talon-taken", seat=3)
    # The dealer draws back one of the old talon cards and one of the offender's own.
    own = next(a for a in d.legal_actions() if a.card not in old)
    play(d, [str(Action.from_card(old[0])), str(own)])
    assert d.talon[0] == old[0]
    assert d.observation(1).talon == (None, None)
    assert d.observation(3).talon == tuple(d.talon)


def test_invited_dealer_does_not_learn_the_discard() -> None:
    # Leak 4 — Kodeks 3.6.9: the dealer saw the inviter's ten cards, not what he discarded later.
    d = deal_with("sochi", players=4, dealer=0)
    play(d, "invite, refuse")
    inviter = 1
    assert d.observation(0).known_hands == {inviter: d.hands[inviter]}  # before anything moved
    play(d, "6♠, pass, pass")
    assert d.declarer == inviter and d.phase == Phase.DISCARD
    assert d.observation(0).known_hands[inviter] == d.hands[inviter]  # ten seen + the open talon
    discard = [str(a) for a in d.legal_actions()[:2]]
    play(d, discard)
    obs = d.observation(0)
    assert inviter not in obs.known_hands and obs.discard == 0
    assert [a for _, a in obs.moves][-2:] == [None, None]


def test_accepted_misere_companion_sees_the_discard() -> None:
    # Kodeks 3.6.9: after «пополам» is agreed the dealer plays the misère with him.
    d = deal_with("sochi", players=4, dealer=0)
    play(d, "invite, accept, pass, pass")
    assert d.declarer == 1 and d.phase == Phase.DISCARD
    play(d, [str(a) for a in d.legal_actions()[:2]])
    assert d.observation(0).discard == d.discard
    assert d.observation(2).discard == 0


def test_kodeks_misere_companion_does_not_see_the_discard() -> None:
    # Kodeks 3.6.6: «Потом прикуп берётся в руку, откуда сносятся две любые карты. Снос никому
    # не показывается.» — nobody, the dealer playing «пополам» (3.6.9) included.
    for rules, seen in (("kodeks", False), ("sochi", True),
                        (Rules.preset("sochi").replace(misere_half_dealer_sees_discard=False), False)):  # fmt: skip
        d = deal_with(rules, players=4, dealer=0)
        play(d, "invite, accept, pass, pass")
        assert d.declarer == 1 and d.phase == Phase.DISCARD
        hand = d.hands[1]
        play(d, [str(a) for a in d.legal_actions()[:2]])
        dealer = d.observation(0)
        assert dealer.discard == (d.discard if seen else 0), rules
        assert ([a for _, a in dealer.moves][-2:] == [None, None]) is not seen
        # He saw the twelve cards (the inviter's ten and the open talon), not which two went.
        assert (dealer.known_hands.get(1) == d.hands[1]) is seen and d.hands[1] != hand
        assert d.observation(1).discard == d.discard


def test_public_observation_has_no_seat() -> None:
    d = deal_with("sochi")
    obs = d.public_observation()
    assert obs.seat == -1 and obs.hand == 0 and obs.known_hands == {} and obs.legal_actions == ()
    assert obs.phase is Phase.BIDDING


def test_talon_taken_with_nobody_else_bidding_is_not_redrawn() -> None:
    # Kodeks 3.3.17 applies when «другой желает объявить игру»; here both others passed.
    d = deal_with("sochi", talon="A♠ A♥")
    play(d, "pass, pass")
    d.report("!talon-taken", seat=0)
    assert d.phase == Phase.PLAY and d.kind == DealKind.ALL_PASS
    assert [str(c) for c in d.talon] == ["A♠", "A♥"] and d.hands[0].bit_count() == 10
    assert d.observation(0).talon == tuple(d.talon)  # he took them: he knows them
    assert d.observation(1).talon[1] is None


def test_walks_reach_every_path() -> None:
    """The walks above are only as strong as the paths they take: check that they take them all."""
    wanted = {
        "invite", "accept", "refuse", "!talon-seen", "!talon-exposed", "!talon-taken", "!misdeal",
        "open", "closed", "whist", "redraw", "open play", "misère defenders lying down",
        "kind:penalty", "kind:void", "kind:all_pass", "kind:game", "kind:misere",
    }
    seen: set[str] = set()
    for i in range(400):
        d = walk(VARIANTS[i % len(VARIANTS)], 3 + i % 2, 1000 + i, undo=False)
        phases_and_moves = {str(a) for _, a in d.moves}
        seen |= {x for x in phases_and_moves if not x[0].isdigit() and len(x) > 3}
        seen.add(f"kind:{d.kind}")
        if d.open_play:
            seen.add("open play")
        if d.contract is not None and d.contract.is_misere and d.exposed:
            seen.add("misère defenders lying down")
        if any(Action(a).is_card for s, a in d.moves) and TALON_TAKEN_ID in [a for _, a in d.moves]:
            seen.add("redraw")
        if wanted <= seen and i >= 100:
            break
    assert wanted <= seen, wanted - seen
    assert any(x.startswith("!out-of-turn") for x in seen)
    assert any(x.startswith("claim") and not x.endswith("proven") for x in seen)
    assert any(x.startswith("claim") and x.endswith("proven") for x in seen)


def _witnessed(d: Any, model: Any, script: list[str | None]) -> None:
    """Apply each scripted action (``None``: the first legal one) and check every seat's view
    against the independent model after it."""
    from visibility_model import public_facts

    for text in script:
        before, seat = public_facts(d), d.to_act
        assert seat is not None
        a = d.legal_actions()[0] if text is None else d.parse_action(text)
        d.apply(a)
        model.step(before, d, seat, a)
        model.check(d)


def test_the_dealers_whist_lays_both_defending_hands_open() -> None:
    # dealer_whist (rules.md §5.6): the 4-handed dealer plays both defending hands, laid open.
    from visibility_model import TableWitness

    rules = Rules.preset("leningrad").replace(dealer_whist=True)
    d = deal_with(rules, players=4, dealer=0)
    model = TableWitness(d)
    script = ["6♠", "pass", "pass", None, None, "6♠", "pass", "pass", "whist"]
    _witnessed(d, model, script)
    assert d.phase == Phase.PLAY and set(d.exposed) == {2, 3}
    for seat in (0, 1):
        assert set(d.observation(seat).known_hands) == {2, 3}
    while not d.is_over:
        _witnessed(d, model, [None])


@pytest.mark.parametrize("answer", ["accept", "refuse"])
def test_za_svoimi_and_its_answers(answer: str) -> None:
    # seed 002 p.27: the lone whister may write his quota without play, if the declarer consents.
    from visibility_model import TableWitness

    d = deal_with(VARIANTS[0].replace(za_svoimi=True))
    model = TableWitness(d)
    _witnessed(d, model, ["6♠", "pass", "pass", None, None, "6♠", "whist", "pass", "quota", answer])
    assert d.is_over == (answer == "accept")
