"""Golden records (tests/golden/records): every kind of deal, read, replayed and written back.

Each file is hand-checked; the comments in it say what each deal shows.  The
writer's output must equal the file without its comment lines, so any change
of the format shows up here.  Malformed records must fail with the file, the
line and a reason that says what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preferans.engine.result import DealKind, DefenceCall
from preferans.record import RecordError, dumps, load, loads, replay

GOLDEN = Path(__file__).parents[1] / "golden" / "records"


def _without_comments(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))


def _rule_fields(text: str) -> set[str]:
    return {line.split(":")[0] for line in text.splitlines() if line.startswith("rule ")}


def _as_in_file(written: str, file_text: str) -> str:
    """The writer's text without rule lines the file does not have: a Rules field added after
    the file was written is filled from the preset, and the record still reads the same."""
    keep = _rule_fields(file_text)
    return "".join(
        line for line in written.splitlines(keepends=True)
        if not line.startswith("rule ") or line.split(":")[0] in keep
    )


@pytest.mark.parametrize("name", ["sochi-pulka.prf", "leningrad-4p.prf", "classic-dark.prf", "vera-view.prf",
                                  "gusarik.prf"])
def test_golden_reads_replays_and_writes_back(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    rec = load(GOLDEN / name)
    assert _as_in_file(dumps(rec), text) == _without_comments(text)
    assert loads(dumps(rec, format="json")) == rec
    rep = replay(rec)
    assert rep.pulka is not None and len(rep.pulka.results) == len(rec.deals)


def test_gusarik_two_players_and_the_dummy() -> None:
    """gusarik.prf: the comments' facts — the dummy's hand, the lone whister's three tricks (his
    and the dummy's), the all-pass written as ten tricks of two cards, the game written unplayed."""
    rec = load(GOLDEN / "gusarik.prf")
    assert rec.players == ("Anna", "Boris") and all(d.players == 2 for d in rec.deals)
    rep = replay(rec)
    one, two, three, four = rep.deals
    assert one.tricks_won == (7, 2, 1) and one.result.defence == {1: DefenceCall.WHIST, 2: DefenceCall.PASS}
    assert two.result.kind is DealKind.ALL_PASS and all(len(cards) == 2 for cards, _ in two.completed_tricks)
    assert three.tricks_won == (5, 5, 0) and four.result.kind is DealKind.NOT_PLAYED
    text = (GOLDEN / "gusarik.prf").read_text(encoding="utf-8")
    assert "hand dummy: " in text and "trick 10: A♠ 9♠" in text
    assert rep.pulka is not None and len(rep.pulka.sheet.pool) == 2


def test_sochi_pulka_every_kind_of_three_handed_deal() -> None:
    rec = load(GOLDEN / "sochi-pulka.prf")
    assert rec.players == ("Anna", "Boris", "Vera")
    assert rec.headers == {"event": "Friday club", "site": "Sochi", "date": "2026-11-27"}
    assert rec.stopped and rec.rules.name == "sochi"
    rep = replay(rec)
    r = [d.result for d in rep.deals]
    # 1: здесь in the auction; a lone whister lies down after the first lead
    assert "here" in [str(a) for a in rep.deals[0].actions]
    assert r[0].kind is DealKind.GAME and str(r[0].contract) == "7♠" and r[0].open_play
    assert r[0].defence == {2: DefenceCall.WHIST, 0: DefenceCall.PASS}
    # 2: not played; 3: half-whist
    assert r[1].kind is DealKind.NOT_PLAYED and set(r[1].defence.values()) == {DefenceCall.PASS}
    assert r[2].kind is DealKind.NOT_PLAYED and DefenceCall.HALF in r[2].defence.values()
    # 4: misère; 5: all-pass with the talon leading tricks 1 and 2; 6: two whisters
    assert r[3].kind is DealKind.MISERE and r[3].declarer == 1
    assert r[4].kind is DealKind.ALL_PASS
    first_trick, _ = rep.deals[4].completed_tricks[0]
    assert first_trick[0] == (-1, rep.deals[4].talon[0])  # the talon card names the suit (Kodeks 3.7.6.3)
    assert r[5].whisters == (2, 0)  # the declarer's left first
    assert rep.pulka is not None and rep.pulka.is_over
    assert [str(x) for x in rep.pulka.sheet.pool] == ["2", "8", "2"]


def test_the_json_twin_is_the_same_record() -> None:
    assert load(GOLDEN / "sochi-pulka.json") == load(GOLDEN / "sochi-pulka.prf")


def test_four_handed_leningrad() -> None:
    rep = replay(load(GOLDEN / "leningrad-4p.prf"))
    r = [d.result for d in rep.deals]
    assert r[0].kind is DealKind.MISERE and r[0].misere_half  # «пополам» with the dealer, Kodeks 3.6.9
    mountain = {e.player for e in rep.pulka.sheet.history[0].entries} if rep.pulka else set()
    assert mountain == {0, 1}  # the inviter and the dealer share the misère
    assert r[1].kind is DealKind.ALL_PASS and r[1].dealer == 1
    assert rep.deals[2].min_level == 7  # Leningrad: after an all-pass the lowest game is 7
    assert r[2].open_play is False and "closed" in [str(a) for a in rep.deals[2].actions]
    assert r[3].kind is DealKind.NOT_PLAYED


def test_classic_dark_calls_and_bombs() -> None:
    rep = replay(load(GOLDEN / "classic-dark.prf"))
    r = [d.result for d in rep.deals]
    assert r[0].kind is DealKind.ALL_PASS and r[0].multiplier == 4 and r[0].dark_passers == (1, 2)
    assert r[1].dark_game and r[1].multiplier == 2
    assert rep.pulka is not None and rep.pulka.bombs == [1, 4, 1]  # ×4 each; Vera spent hers, Boris keeps his


def test_one_players_view_replays_to_the_same_deals() -> None:
    view = replay(load(GOLDEN / "vera-view.prf"))
    full = replay(load(GOLDEN / "sochi-pulka.prf"))
    assert [d.result for d in view.deals] == [d.result for d in full.deals[:2]]
    assert view.deals[0].initial_hands == full.deals[0].initial_hands  # a played deal has one answer


# ------------------------------------------------------------------------------ malformed records
def _golden_lines() -> list[str]:
    return _without_comments((GOLDEN / "sochi-pulka.prf").read_text(encoding="utf-8")).splitlines()


def _find(lines: list[str], start: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= after and line.startswith(start))


CASES = [
    # (what to change, the message expected)
    (lambda ls: ls.__setitem__(0, "%preferans-record 2"), "unsupported record version '2'"),
    (lambda ls: ls.__setitem__(0, "PRN 1"), "the record must start with '%preferans-record 1'"),
    (lambda ls: ls.__setitem__(_find(ls, "players:"), "players: Anna, Anna, Vera"),
     "players: give 2, 3 or 4 distinct names separated by commas"),
    (lambda ls: ls.__setitem__(_find(ls, "rule ten_mode"), "rule ten_mode: sometimes"),
     "ten_mode: 'sometimes' is not one of 'checked', 'whisted'"),
    (lambda ls: ls.__setitem__(_find(ls, "rule pool_target"), "rule pool_tagret: 20"),
     "unknown rules field 'pool_tagret'; did you mean 'pool_target'?"),
    (lambda ls: ls.__setitem__(_find(ls, "deal 2"), "deal 3"), "deal number: expected 'deal 2', found 'deal 3'"),
    (lambda ls: ls.__setitem__(_find(ls, "dealer:"), "dealer: Gleb"), "dealer: 'Gleb' is not a player"),
    (lambda ls: ls.__setitem__(_find(ls, "hand Boris"), "hand Boris: ♠A K Q J 10 ♣A K ♦A 7"),
     "hand of Boris: 10 cards (?? for unseen ones), not 9"),
    (lambda ls: ls.__setitem__(_find(ls, "hand Boris"), "hand Boris: ♠A K Q J 10 ♣A K ♦A 7 ♥X"),
     "hand of Boris: cannot read '♥X'"),
    (lambda ls: ls.__setitem__(_find(ls, "hand Vera"), "hand Vera: ♠A 8 ♣Q J 10 9 ♦K Q J ♥A"),
     "hand of Vera: A♠ dealt twice"),
    (lambda ls: ls.__setitem__(_find(ls, "talon:"), "talon: 9♥"), "talon: give 2 cards (?? for an unseen one), not 1"),
    (lambda ls: ls.__setitem__(_find(ls, "auction:"), "auction: 6♠ 6♣ pass here whist"),
     "'whist' cannot stand on a 'auction' line"),
    (lambda ls: ls.__setitem__(_find(ls, "auction:"), "auction: 6♠ 6♠ pass here pass"),
     "6♠: insufficient bid 6♠"),
    (lambda ls: ls.__setitem__(_find(ls, "auction:"), "auction: 6♠ 6♣ pass here pass pass"),
     "pass stands on the auction line, but the deal is at the discard"),
    (lambda ls: ls.__setitem__(_find(ls, "auction:"), "auction: 6♠ 6♣ pass here sometimes"),
     "cannot read 'sometimes' as an action"),
    (lambda ls: ls.__setitem__(_find(ls, "discard:"), "discard: ?? 8♥ 7♥"),
     "7♥ stands on the discard line, but the deal is at the declaration of the contract"),
    (lambda ls: ls.__setitem__(_find(ls, "trick 2:"), "trick 3: 9♥ A♥ K♥"), "expected 'trick 2:', found 'trick 3'"),
    (lambda ls: ls.__setitem__(_find(ls, "trick 2:"), "trick 2: 9♥ K♥ A♥"), "K♥"),
    (lambda ls: ls.__setitem__(_find(ls, "score:"), "score: Boris pool 6 game"),
     "score: deal 1 writes Boris pool 4 game; Vera whists on Boris 8 whist, the record says Boris pool 6 game"),
    (lambda ls: ls.__setitem__(_find(ls, "score:"), "score: Boris purse 4 game"),
     "score: column must be pool, mountain or whists, not 'purse'"),
    (lambda ls: ls.__setitem__(_find(ls, "score:"), "score: Boris pool four game"),
     "score: 'four' is not an amount"),
    (lambda ls: ls.__setitem__(_find(ls, "dealer:", _find(ls, "deal 2")), "dealer: Vera"),
     "dealer: Vera deals, but the deal passes to Boris (Kodeks 3.2.2, 3.7.7)"),
    (lambda ls: ls.insert(_find(ls, "talon:"), "colour: blue"), "unknown line 'colour' in deal 1"),
    (lambda ls: ls.insert(_find(ls, "deal 2"), "event: later"),
     "unknown line 'event' in deal 1"),
]


@pytest.mark.parametrize("change, message", CASES)
def test_malformed_records_name_file_line_and_reason(change: object, message: str) -> None:
    lines = _golden_lines()
    original = list(lines)
    change(lines)  # type: ignore[operator]
    changed = next((i for i, (a, b) in enumerate(zip(original, lines, strict=False)) if a != b), len(original))
    with pytest.raises(RecordError) as info:
        loads("\n".join(lines) + "\n", source="club.prf")
    err = info.value
    assert err.source == "club.prf"
    assert message in err.reason, err.reason
    assert str(err).startswith(f"club.prf:{err.line}: ")
    # the line named is the changed line (an inserted line: the line it displaced is the changed one)
    assert err.line == changed + 1, (err.line, changed + 1)


def test_an_empty_file_and_a_missing_players_line() -> None:
    with pytest.raises(RecordError, match="empty input"):
        loads("", source="e.prf")
    with pytest.raises(RecordError, match="the header has no 'players:' line"):
        loads("%preferans-record 1\nevent: x\n")
