"""Irregularities and claims at a Table, in the terminal front ends (issue 10 "where it shows")."""
import io
from pathlib import Path

import pytest

from preferans import Action, DealKind, Rules
from preferans.errors import PreferansError
from preferans.table import Table
from preferans.terminal.plain import run_plain

RULES = Rules.preset("sochi").replace(irregularity_reports=True, claims=True)


def test_reports_need_the_table_option() -> None:
    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], names="ABC", seed=3)
    with pytest.raises(PreferansError, match="irregularity_reports=False"):
        t.command("report misdeal B", 0)
    with pytest.raises(PreferansError, match="claims=False"):
        t.claim(0, 1)


def test_misdeal_report_voids_and_keeps_the_dealer() -> None:
    t = Table(RULES, ["human", "bot:random", "bot:random"], names="ABC", seed=3)
    dealer = t.deal.dealer
    assert dealer == 0
    msg = t.command("report misdeal A", 0)  # about oneself: a fact at once
    assert "misdeal" in msg and t.deal.is_over and t.deal.result.kind == DealKind.VOID
    t.next_deal()
    assert t.deal.dealer == dealer  # seed-002 p.12: the right dealer deals again


def test_talon_taken_is_redrawn_automatically_and_saved(tmp_path: Path) -> None:
    path = tmp_path / "g.prf"
    t = Table(RULES, ["bot:random", "bot:random", "human"], names="ABC", seed=5, save_path=path)
    t.run_bots()
    who = t.human_to_act
    assert who == 2
    t.command("report talon-taken C", who)
    t.run_bots()  # the dealer's face-down draw happens by itself (Kodeks 3.3.17)
    assert t.deal.phase.value != "redraw"
    assert t.deal.hands[2].bit_count() == 10 and len(t.deal.talon) == 2
    again = Table.load(path)
    assert again.deal.hands == t.deal.hands and [str(a) for a in again.deal.actions] == [
        str(a) for a in t.deal.actions
    ]


def test_exposed_talon_with_two_bidders_is_assessed_on_the_sheet() -> None:
    t = Table(RULES, ["human", "human", "human"], names="ABC", seed=11)
    t.act("6♠")
    t.act("6♣")
    t.act("6♦")
    t.command("report talon-exposed B", 0)
    assert not t.deal.is_over and t.accusation is not None  # an accusation, not yet a fact
    assert "B: talon exposed" in t.command("confirm", 1)  # the accused agrees
    assert t.deal.result.kind == DealKind.PENALTY
    sheet = t.pulka.sheet
    # everyone but the offender (B, seat 1) may write whists on him; he writes none
    assert all(sheet.whists[1][j] == 0 for j in range(3))


def test_unproved_claim_is_refused_by_bots_and_play_goes_on() -> None:
    t = Table(RULES, ["human", "bot:random", "bot:random"], names="ABC", seed=2)
    while t.deal.phase.value != "play" or t.human_to_act is None:
        if t.human_to_act is not None:
            t.act(t.deal.legal_actions()[-1])
        else:
            if t.run_bots() == [] and t.deal.is_over:
                t.next_deal()
    if t.deal.kind in (DealKind.GAME, DealKind.MISERE):
        before = t.deal.trick_number
        proven = t.claim(0, t.deal.tricks_remaining())
        t.run_bots()
        assert proven or (t.deal.phase.value == "play" and t.deal.trick_number == before)


def test_plain_mode_reads_report_and_claim_commands() -> None:
    t = Table(RULES, ["human", "bot:random", "bot:random"], names="ABC", seed=3, max_deals=1)
    out = io.StringIO()
    run_plain(t, out=out, inp=io.StringIO("report nonsense B\nreport misdeal B\nquit\n"))
    text = out.getvalue()
    assert "! " in text and "misdeal" in text


def test_an_option_that_is_off_is_one_error_everywhere() -> None:
    """The terminal and the server refuse a report or a claim at a table without the option
    with the same error (the server answers its code, ``option_off``)."""
    from preferans.errors import OptionOff

    t = Table(Rules.preset("sochi"), ["human", "bot:random", "bot:random"], names="ABC", seed=3)
    for attempt in (lambda: t.report("!misdeal", 1), lambda: t.claim(0, 1), lambda: t.command("claim 1", 0),
                    lambda: t.command("report misdeal B", 0)):  # fmt: skip
        with pytest.raises(OptionOff) as e:
            attempt()
        assert e.value.code == "option_off"
    assert t.deal.moves == ()


# ---------------------------------------------------------------- an accusation is not a fact (issue 14)
def test_a_bot_denies_what_it_cannot_verify() -> None:
    t = Table(RULES, ["human", "bot:random", "bot:random"], names="ABC", seed=3)
    msg = t.command("report misdeal B", 0)
    assert "B denies it (misdeal)" in msg and not t.deal.is_over and t.accusation is None
    t.command("report talon-seen C", 0)
    assert t.deal.moves == () and t.accusation is None


def test_the_accused_decides_and_a_move_makes_it_stale() -> None:
    t = Table(RULES, ["human"] * 3, names="ABC", seed=3)
    assert "Waiting for B" in t.command("report talon-seen B", 0)
    with pytest.raises(PreferansError, match="seat 2 has nothing to answer"):
        t.answer(2, True)
    assert "dropped" in t.command("deny", 1) and t.accusation is None and t.deal.moves == ()
    t.command("report talon-seen B", 0)
    t.act(t.deal.legal_actions()[0])  # the deal moves on: the accusation lapses
    assert t.accusation is None
    t.command("report talon-seen C", 0)
    assert "C: talon seen" in t.command("confirm", 2)
    moves: tuple[tuple[int, Action], ...] = t.deal.moves  # mypy kept the "== ()" of above
    last = moves[-1]
    assert str(last[1]) == "!talon-seen" and last[0] == 2


def test_every_other_player_may_decide_where_the_table_agrees() -> None:
    rules = RULES.replace(report_consent="offender_or_others")
    t = Table(rules, ["human"] * 4, names="ABCD", seed=4)
    t.command("report talon-seen B", 0)
    assert t.accusation is not None and set(t.answering()) == {1, 2, 3}
    t.command("deny", 1)  # B denies it ...
    assert t.accusation is not None and t.answering() == [2, 3]
    t.command("confirm", 2)
    assert not t.deal.moves
    assert "B: talon seen" in t.command("confirm", 3)  # ... but everybody else saw it
    assert str(t.deal.moves[-1][1]) == "!talon-seen" and t.deal.moves[-1][0] == 1
    t2 = Table(rules, ["human", "human", "bot:random"], names="ABC", seed=4)
    t2.command("report talon-seen B", 0)  # the bot cannot confirm: only B can now
    assert t2.accusation is not None and t2.answering() == [1]


def test_the_score_keeper_still_takes_what_happened() -> None:
    from preferans.scoring.scorekeeper import ScoreKeeper

    keeper = ScoreKeeper(Rules.preset("sochi"), "ABC")
    keeper.enter("void C")
    assert keeper.pulka.results[-1].kind == DealKind.VOID


def test_the_replies_to_reports_and_claims_are_in_the_tables_language() -> None:
    """A Russian table answers its reports in Russian (the names of the calls too): reported and
    waiting, denied and dropped, a bot's denial, confirmed."""
    from words_helpers import english_words

    t = Table(RULES, ["human"] * 3, names=["Аня", "Борис", "Вера"], seed=3, lang="ru")
    replies = [t.command("нарушение talon-seen Борис", 0)]
    assert "прикуп подсмотрен" in replies[0] and "Ждём" in replies[0]
    replies.append(t.command("отрицаю", 1))
    assert "снято" in replies[-1]
    t.command("нарушение talon-seen Вера", 0)
    replies.append(t.command("признаю", 2))
    assert replies[-1] == "Вера: прикуп подсмотрен"
    bots = Table(RULES, ["human", "bot:random", "bot:random"], names=["Аня", "Борис", "Вера"], seed=3, lang="ru")
    replies.append(bots.command("нарушение misdeal Борис", 0))
    assert "отрицает" in replies[-1]
    for reply in replies:
        assert not english_words(reply), (reply, sorted(english_words(reply)))
