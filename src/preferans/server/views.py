"""What each client is sent: a seat's observation, or only public information.

The server never builds a frame from the :class:`~preferans.Deal` directly:
a seated player gets ``deal.observation(seat).to_dict()`` (the engine's
property-tested view) and a spectator gets :func:`public_view` — the same
shape with every private field emptied.
"""

from __future__ import annotations

from typing import Any

from ..bots.automatic import forced_card
from ..engine.deal import Deal

__all__ = ["legal_choices", "public_view", "seat_view"]


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
