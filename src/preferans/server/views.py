"""What each client is sent: a seat's observation, or only public information.

The server never builds a frame from the :class:`~preferans.Deal` directly:
a seated player gets ``deal.observation(seat).to_dict()`` (the engine's
property-tested view) and a spectator gets :func:`public_view` — the same
shape with every private field emptied.
"""

from __future__ import annotations

from typing import Any

from ..cards import cards_of
from ..engine.deal import Deal

__all__ = ["legal_choices", "public_view", "seat_view"]


def seat_view(deal: Deal, seat: int) -> dict[str, Any]:
    """The seat's observation in JSON form, with the legal actions as ``[id, text]`` pairs."""
    obs = deal.observation(seat)
    view = obs.to_dict()
    view["legal"] = [[int(a), str(a)] for a in obs.legal_actions]
    view["move_ids"] = [None if a is None else int(a) for _, a in obs.moves]
    return view


def public_view(deal: Deal) -> dict[str, Any]:
    """What everybody at the table sees (rules.md §11.5: calls, played cards, the
    talon once shown, hands lying face up) — for spectators.

    Built from the view of a seat that is not the declarer (so discards are
    hidden and the talon is shown only as it was turned up), then stripped of
    that seat's own cards and of anything only it may know.
    """
    players = deal.players
    seat = next(s for s in range(players) if s != deal.declarer)
    obs = deal.observation(seat)
    view = obs.to_dict()
    view["move_ids"] = [None if a is None else int(a) for _, a in obs.moves]
    hands = deal.hands
    view["seat"] = None
    view["hand"] = []
    view["discard"] = []
    view["legal_actions"] = []
    view["legal"] = []
    view["known_hands"] = {str(s): [str(c) for c in cards_of(hands[s])] for s in deal.exposed}
    shown = deal.talon_shown
    view["talon"] = [str(deal.talon[i]) if shown > i else None for i in range(2)]
    return view


def legal_choices(view: dict[str, Any]) -> list[int]:
    """The action ids a view offers (for tests and scripted clients)."""
    return [int(a) for a, _ in view.get("legal", [])]
