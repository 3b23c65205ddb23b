"""Records and ``Deal.replay`` agree on every deal, reports and claims included (issue 14)."""

from __future__ import annotations

import pytest

from preferans import Deal, IllegalAction
from preferans.record import dumps, loads, record_from_deal
from preferans.record.playback import replay

from helpers import state_signature
from visibility_model import VARIANTS, walk


@pytest.mark.parametrize("players", [3, 4])
def test_replay_and_records_agree_on_every_deal(players: int) -> None:
    kinds = set()
    for seed in range(60):
        d = walk(VARIANTS[seed % len(VARIANTS)], players, 500 + seed, undo=False)
        again = Deal.replay(d.rules, hands=d.initial_hands, talon=d.initial_talon, actions=d.moves,
                            dealer=d.dealer, players=d.players, min_level=d.min_level)
        assert state_signature(again) == state_signature(d) and again.result == d.result
        rec = record_from_deal(d)
        for text in (dumps(rec), dumps(rec, format="json")):
            back = loads(text)
            assert back == rec
            (played,) = replay(back).deals
            assert played.moves == d.moves and played.result == d.result
        kinds |= {str(a) for _, a in d.moves if a.is_irregular}
    assert any(k.startswith("!") for k in kinds) and any(k.startswith("claim") for k in kinds)


def test_replay_without_seats_says_a_report_needs_one() -> None:
    d = Deal.new(VARIANTS[0], seed=3)
    d.report("!talon-seen", seat=1)
    # A deal's own actions carry the reporter's seat (issue 29) and replay it ...
    again = Deal.replay(d.rules, hands=d.initial_hands, talon=d.talon, actions=d.actions)
    assert again.moves == d.moves
    # ... while a bare action id cannot say who made the report.
    with pytest.raises(IllegalAction, match=r"action 1 \(!talon-seen\): .*needs the seat"):
        Deal.replay(d.rules, hands=d.initial_hands, talon=d.talon, actions=[a for _, a in d.moves])
