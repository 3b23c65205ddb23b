"""What each client is sent: a seat's observation, or only public information.

The server never builds a frame from the :class:`~preferans.Deal` directly:
a seated player gets ``deal.observation(seat).to_dict()`` (the engine's
property-tested view) and a spectator gets :func:`public_view` — the same
shape with every private field emptied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots.automatic import forced_card
from ..cards import cards_of
from ..engine.deal import Deal
from ..i18n import LANGS, text
from ..rules import Rules
from ..scoring.reasons import deal_story
from ..scoring.sheet import DealScore, paper_amount

__all__ = ["deal_review", "legal_choices", "public_view", "seat_view"]


def seat_view(deal: Deal, seat: int) -> dict[str, Any]:
    """The seat's observation in JSON form, with the legal actions as ``[id, text]`` pairs."""
    obs = deal.observation(seat)
    view = obs.to_dict()
    view["legal"] = [[int(a), str(a)] for a in obs.legal_actions]
    view["move_ids"] = [None if a is None else int(a) for _, a in obs.moves]
    # The card this seat has no choice about (the one the auto-play setting plays: bots/automatic.py).
    forced = forced_card(deal.phase, obs.legal_actions) if deal.to_act == seat else None
    view["forced"] = None if forced is None else int(forced)
    return view


def public_view(deal: Deal) -> dict[str, Any]:
    """What everybody at the table sees (rules.md §11.5: calls, played cards, the
    talon once shown, hands lying face up) — for spectators: the engine's
    :meth:`~preferans.Deal.public_observation`, with no seat."""
    obs = deal.public_observation()
    view = obs.to_dict()
    view["seat"] = None
    view["legal"] = []
    view["forced"] = None
    view["move_ids"] = [None if a is None else int(a) for _, a in obs.moves]
    return view


def legal_choices(view: dict[str, Any]) -> list[int]:
    """The action ids a view offers (for tests and scripted clients)."""
    return [int(a) for a, _ in view.get("legal", [])]


def deal_review(deal: Deal, written: DealScore, number: int, rules: Rules, names: Sequence[str]) -> dict[str, Any]:
    """A finished deal as everybody at the table may look at it afterwards: its result, what it
    wrote on the sheet, the hands as dealt face up, and — public during the deal anyway — the
    talon once shown, the calls and the tricks."""
    result = deal.result.to_dict()
    result.pop("talon", None)  # not public (Rostov all-pass, dark misère)
    seen = deal.public_observation()
    story = deal_story(deal.result, written, rules, names)
    return {
        "deal": number, "label": written.label, **result,
        "labels": {lang: text(written.label, lang) for lang in LANGS},
        # the deal explaining itself: why it ended so, and what each sheet line comes from
        "story": {lang: [text(x, lang) for x in story] for lang in LANGS},
        # what the deal wrote on the sheet: [column, player, amount, on (whists), why]
        "written": [[e.column, e.player, paper_amount(e.amount), e.on, e.why] for e in written.entries],
        # the hands as dealt, face up for the review after the deal
        "hands": {str(s): [str(c) for c in cards_of(deal.initial_hands[s])] for s in deal.active},
        "shown_talon": [str(c) for c in seen.talon if c is not None],
        "calls": [[s, str(a)] for (s, a), p in zip(seen.moves, seen.move_phases, strict=False)
                  if a is not None and not a.is_card and str(p) != "play"],
        # each trick as [winner, [[seat, card], …]] (the table's frame has no "cards" field: tests
        # check that no hidden card travels in it)
        "tricks_played": [[w, [[s, str(c)] for s, c in cards]] for cards, w in seen.completed_tricks],
    }  # fmt: skip
