"""The one policy for moves nobody chooses, shared by the terminal table and the web server.

Some moves belong to no decision of a player: the dealer's redraw after an
exposed talon is drawn face down (Kodeks 3.3.17), so nobody chooses the cards;
and a bot seat must answer the questions that irregularities and claims ask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import FORBID_ID, REFUSE_ID, Action
from ..engine.observation import Phase

__all__ = ["automatic_answer", "forced_card"]


def forced_card(phase: Phase, legal: Sequence[Action]) -> Action | None:
    """The card a player has no choice about in trick play — the one legal card (a forced
    follow, the last card of the hand) — or ``None``.  The one definition of «forced» that the
    terminal's ``--auto-play`` and the web client's auto-play setting share."""
    if phase != Phase.PLAY or len(legal) != 1 or not Action(legal[0]).is_card:
        return None
    return Action(legal[0])


def automatic_answer(phase: Phase, legal: Sequence[Action], *, bot: bool, rng: random.Random) -> Action | None:
    """The move made for the seat to act in ``phase`` (``None``: the seat decides).

    The dealer's redraw is face down (Kodeks 3.3.17), so it is drawn at random
    among ``legal`` whoever deals; a bot declarer forbids the announced suit
    (3.3.18); a bot refuses a claim, since a claim the solver could prove was
    settled already.  ``bot`` says whether the seat to act is a bot.
    """
    if phase == Phase.REDRAW:
        return rng.choice(list(legal)) if legal else None
    if not bot:
        return None
    if phase == Phase.LEAD_PENALTY:
        return Action(FORBID_ID)
    if phase == Phase.CLAIM_ANSWER:
        return Action(REFUSE_ID)
    return None
