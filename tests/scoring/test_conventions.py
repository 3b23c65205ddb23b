# mypy: disable-error-code="comparison-overlap"
# (a test asserts a phase, acts, and asserts the next one; mypy keeps the first narrowing)
"""The conventions other engines play by (issue 19), each a ``Rules`` option with the seed's
reading as its default, with a worked example computed by hand in the docstring: played out
in the engine, written on a Pulka, entered in the score keeper (lines and JSON), kept as a
game record in text and JSON and replayed.

Nets are by the closed formula (rules.md §11.2): ``k_pool·(P − mean P) − k_mount·(M − mean M)
+ whists written − whists received``.
"""

from __future__ import annotations

import json

import pytest
from test_program_options_engine import _rotated, played, recorded, steer

from preferans import Deal, Phase, Rules
from preferans.errors import IllegalAction
from preferans.scoring.scorekeeper import ScoreKeeper
from scoring_helpers import expected_lines, expected_nets, lines_of

from helpers import deal_with, play

SOCHI = Rules.preset("sochi")


def keeper_agrees(rules: Rules, deal: Deal, line: str) -> ScoreKeeper:
    """The score keeper writes the played deal's lines from ``line`` and from its JSON form."""
    keeper = ScoreKeeper(rules, ["A", "B", "C", "D"][: deal.players])
    keeper.enter(line)
    again = ScoreKeeper(rules, ["A", "B", "C", "D"][: deal.players])
    again.enter(json.dumps(keeper.to_json(keeper.pulka.results[0])))
    for k in (keeper, again):
        assert list(k.pulka.sheet.history[-1].entries) == list(recorded(rules, [deal]).sheet.history[-1].entries)
    return keeper


# -- 1. the first defender's second call -------------------------------------------------------


def test_the_first_defender_whists_after_both_passed() -> None:
    """first_defender_second_call=True, Sochi, 3 players (C deals): A buys 6♠; B passes, C
    passes, and B — asked once more — whists: he defends alone against A, C is a passer.

    A takes 6, B 3, C 1: A writes V(6) = 2 in his pool; the lone whister B writes the side's
    4 tricks × the whist price 2 = 8 on A; C writes nothing.  Nets: pool 10·(2 − 2/3) = 40/3
    to A, −20/3 to B and C; whists B +8, A −8 → A 16/3, B 4/3, C −20/3.
    The score keeper writes the same from ``A 6S B:w C:p A6 B3 C1`` (the final calls).
    """
    rules = SOCHI.replace(first_defender_second_call=True)
    d = played(rules, 3, "6♠", "pass, pass, whist", {0: 6, 1: 3, 2: 1})
    # auction (3), discard (2), declaration (1), then the whisting: B pass, C pass, B whist
    assert [(s, str(a)) for s, a in d.moves[6:9]] == [(1, "pass"), (2, "pass"), (1, "whist")]
    assert d.result.whisters == (1,) and not d.result.open_play
    pulka = recorded(rules, [d])
    assert lines_of(list(pulka.sheet.history[-1].entries)) == expected_lines("A pool +2; B→A 8")
    assert list(pulka.settlement().net) == expected_nets("A 16/3, B 4/3, C -20/3", 3)
    keeper_agrees(rules, d, "A 6S B:w C:p A6 B3 C1")


def test_without_the_option_two_passes_end_the_whisting() -> None:
    """The default (seed 002 p.25): both passed, the game is written as made without play —
    A pool +2 — and the first defender is not asked again."""
    for rules, asked_again in ((SOCHI, False), (SOCHI.replace(first_defender_second_call=True), True)):
        d = deal_with(rules, dealer=2, fixed={0: "♠A K Q J 10 ♣A K ♦A 7 ♥7"})
        play(d, ["6♠", "pass", "pass"])
        play(d, [str(c) for c in d.talon])
        play(d, ["6♠", "pass", "pass"])
        assert (d.phase is Phase.WHIST and d.to_act == 1) == asked_again
        if asked_again:
            assert [str(a) for a in d.legal_actions()] == ["pass", "whist"]
            d.apply("pass")  # the second pass ends the whisting as before
        assert d.is_over and d.result.kind.value == "not_played"
        with pytest.raises(IllegalAction):
            d.apply("whist")


# -- 2. a misère bidder going on to a nine -------------------------------------------------------

MISERE_HAND = "♣A K Q J 10 9 ♠A ♦A ♥K 7"


def _over_misere(rules: Rules) -> Deal:
    """A (first hand, C deals) says misère, B overcalls with 9♠, C passes: A is to speak."""
    d = deal_with(rules, dealer=2, fixed={0: MISERE_HAND})
    play(d, ["misere", "9♠", "pass"])
    return d


def test_by_default_the_misere_bidder_may_only_pass() -> None:
    """Kodeks 3.3.9 and 3.6.4 (misere_bidder_may_continue=False): overcalled by a nine, the misère
    bidder may only pass — the reason names the option — and B buys his 9♠."""
    d = _over_misere(SOCHI)
    assert [str(a) for a in d.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction, match="misere_bidder_may_continue"):
        d.apply("9♣")
    d.apply("pass")
    assert d.declarer == 1 and d.winning_bid is not None and str(d.winning_bid) == "9♠"


def test_the_misere_bidder_goes_on_to_a_nine() -> None:
    """misere_bidder_may_continue=True, Sochi, 3 players (C deals): A «мизер», B 9♠, C pass,
    A 9♣ (a bid, not «здесь»), B pass: A buys and declares 9♣; B whists, C passes.

    A takes 9, B 1: A writes V(9) = 8 in his pool; the lone whister B writes his side's one
    trick × the whist price 8 = 8 on A.  Nets: pool 10·(8 − 8/3) = 160/3 to A, −80/3 to B
    and C; whists B +8, A −8 → A 136/3, B −56/3, C −80/3.  The score keeper writes the same
    from ``A 9C B:w C:p A9 B1 C0``.
    """
    rules = SOCHI.replace(misere_bidder_may_continue=True)
    for extra in range(50):
        d = _over_misere(rules)
        if extra:  # another layout of the others' cards (A's hand and the talon stay)
            d = _rotated(d, rules, 3, 2, MISERE_HAND, extra)
            play(d, ["misere", "9♠", "pass"])
        assert "here" not in [str(a) for a in d.legal_actions()]  # the misère bidder cannot hold
        play(d, ["9♣", "pass"])
        assert d.declarer == 0 and str(d.winning_bid) == "9♣"
        play(d, [str(c) for c in d.talon])  # the talon goes back: the hands stay as dealt
        play(d, ["9♣", "whist", "pass"])
        if steer(d, {0: 9, 1: 1, 2: 0}):
            break
    else:
        raise AssertionError("no layout plays to A 9, B 1")
    assert [str(a) for _, a in d.moves[:5]] == ["misere", "9♠", "pass", "9♣", "pass"]
    pulka = recorded(rules, [d])
    assert lines_of(list(pulka.sheet.history[-1].entries)) == expected_lines("A pool +8; B→A 8")
    assert list(pulka.settlement().net) == expected_nets("A 136/3, B -56/3, C -80/3", 3)
    keeper_agrees(rules, d, "A 9C B:w C:p A9 B1 C0")


# -- 3. «ловлю» / «доверяю» against a misère --------------------------------------------------------

CATCHING = SOCHI.replace(misere_catchers="one_for_both")


def _misere(rules: Rules, players: int = 3) -> Deal:
    """A (seat 0, first hand; the last seat deals) plays misère; the talon goes back."""
    d = deal_with(rules, dealer=players - 1, players=players, fixed={0: "♠7 8 9 ♣7 8 ♦7 8 9 ♥7 J"})
    play(d, ["misere", "pass", "pass"])
    play(d, [str(c) for c in d.talon])
    return d


def test_one_catcher_plays_both_hands() -> None:
    """misere_catchers="one_for_both", Sochi, 3 players (C deals): A's misère; before the first
    lead B says «ловлю», C answers «доверяю»: B plays both B's and C's cards (laid open as ever).

    A is caught once: misere_trick 10 × 1 into his mountain.  Nets: −10·(10 − 10/3) = −200/3
    for A, +100/3 for B and C.  The scoring does not depend on who played: the score keeper
    writes the same from ``A misere 1``.
    """
    d = _misere(CATCHING)
    assert d.phase is Phase.MISERE_CATCH and d.to_act == 1
    assert [str(a) for a in d.legal_actions()] == ["pass", "whist"]
    d.apply("ловлю")
    assert d.to_act == 2 and [str(a) for a in d.legal_actions()] == ["accept", "refuse"]
    d.apply("доверяю")
    assert d.phase is Phase.PLAY
    assert steer(d, {0: 1})
    # Walk the finished deal again, checking who decided each catcher's card.
    replayed = Deal(d.rules, d.initial_hands, d.initial_talon, dealer=2)
    controllers = []
    for seat, action in d.moves:
        if replayed.phase is Phase.PLAY and replayed.to_play in (1, 2):
            controllers.append((replayed.to_play, replayed.to_act))
        replayed.replay_move(seat, action)
    assert {c for _, c in controllers} == {1} and {p for p, _ in controllers} == {1, 2}
    assert d.result.tricks[0] == 1
    pulka = recorded(CATCHING, [d])
    assert lines_of(list(pulka.sheet.history[-1].entries)) == expected_lines("A mount +10")
    assert list(pulka.settlement().net) == expected_nets("A -200/3, B 100/3, C 100/3", 3)
    keeper_agrees(CATCHING, d, "A misere 1")


@pytest.mark.parametrize(("calls", "catcher"), [
    (["pass", "pass"], None),  # nobody says «ловлю»: each plays his own
    (["whist", "refuse"], None),  # «ловлю», not trusted: each plays his own
    (["pass", "whist", "accept"], 2),  # the second says «ловлю», the first trusts him
])  # fmt: skip
def test_who_catches(calls: list[str], catcher: int | None) -> None:
    """The other answers (Sochi, 3 players, A's misère): only «ловлю» answered «доверяю» makes one
    catcher play both hands; then his partner is never asked for a card."""
    d = _misere(CATCHING)
    play(d, calls)
    assert d.phase is Phase.PLAY
    asked = set()
    while not d.is_over:
        if d.to_play in (1, 2):
            asked.add(d.to_act)
        d.apply(d.legal_actions()[0])
    assert asked == ({1, 2} if catcher is None else {catcher})


def test_no_catching_question_by_default_in_the_dark_or_with_four() -> None:
    """each_own (the default, Kodeks 3.6.6) goes straight to play; a dark misère is caught in the
    dark, each with his own cards (3.6.5); with four players the two catchers are asked, not the dealer."""
    assert _misere(SOCHI).phase is Phase.PLAY
    dark = deal_with(CATCHING.replace(dark_bids=True), dealer=2, fixed={0: "♠7 8 9 ♣7 8 ♦7 8 9 ♥7 J"})
    play(dark, ["dark misere", "pass", "pass"])
    play(dark, [str(c) for c in dark.talon])
    assert dark.phase is Phase.PLAY
    four = _misere(CATCHING, players=4)
    assert four.phase is Phase.MISERE_CATCH and four.to_act == 1
    four.apply("pass")
    assert four.to_act == 2
    four.apply("ловлю")
    assert four.to_act == 1 and four.dealer == 3
    four.undo()
    four.undo()
    assert four.to_act == 1 and [str(a) for a in four.legal_actions()] == ["pass", "whist"]
