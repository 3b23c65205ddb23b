"""The hint's reason is honest (issue 16): no "best over N layouts of the unseen cards" when every
card is in view, and the declarer's tricks estimated from what his auction and contract said."""

from __future__ import annotations

import pytest

from preferans import Deal, Rules
from preferans.bots import make_bot
from preferans.bots.expert import ExpertBot
from preferans.i18n import Translator
from preferans.table import _why
from preferans.terminal.words import hint_reason

from helpers import deal_with, legal, play

SOCHI = Rules.preset("sochi")


def six_spades() -> Deal:
    """Seat 0 bids and declares 6♠ holding ♠AKQJ10 and three aces; seat 1 (weak) is to whist."""
    d = deal_with(SOCHI, fixed={0: "♠A K Q J 10 ♣A K ♦A ♥A K", 1: "♠7 8 ♣7 8 9 ♦7 8 9 ♥7 8"},
                  talon="♦10 ♦J", dealer=2)  # fmt: skip
    return play(d, "6♠, pass, pass, 10♦, J♦, 6♠")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_declarers_tricks_come_from_his_auction(seed: int) -> None:
    """The expert (the default hint bot) weighs the layouts by the calls: a 6♠ declarer is expected
    to take his six or more, not the 4.4 of layouts drawn as if he had said nothing (hard)."""
    d = six_spades()
    assert d.to_act == 1 and legal(d) == ["pass", "whist"]
    obs = d.observation(1)
    key, tricks = _why(make_bot("expert", SOCHI, seed=seed), obs)
    assert key == "declarer" and float(tricks) >= 6.0, tricks
    _, blind = _why(make_bot("hard", SOCHI, seed=seed), obs)
    assert float(tricks) > float(blind)


def test_no_layouts_are_claimed_when_every_card_is_in_view() -> None:
    d = play(six_spades(), "whist, pass")
    obs = d.observation(0)  # the declarer leads: the defenders' hands are hidden
    assert _why(make_bot("expert", SOCHI, seed=1), obs)[0] == "samples"
    play(d, "A♠, open")  # the lone whister lies down (лёжа): both defending hands face up
    while d.to_act != 0:
        play(d, [legal(d)[0]])
    why = _why(make_bot("expert", SOCHI, seed=1), d.observation(0))
    assert why == ("exact", "")
    assert hint_reason(why, Translator("en")) == "every card is in view: solved exactly"
    ru = hint_reason(why, Translator("ru"))
    assert ru and "layout" not in ru and ru != "every card is in view: solved exactly"


def test_the_expert_hint_names_the_layouts_it_sampled() -> None:
    """The expert's card hint names the layouts its decision really used (its clock and
    convergence test decide how many), not the plain sampling bot's fixed 16."""
    d = play(six_spades(), "whist, pass")
    obs = d.observation(0)
    bot = ExpertBot(SOCHI, seed=1, min_layouts=40)
    bot.explain(obs)  # what Table.hint asks first
    key, n = _why(bot, obs)
    assert key == "samples" and n == str(bot.last_layouts) and int(n) >= 40
