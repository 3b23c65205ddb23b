"""The engine: one deal of Preferans as a state machine, and what each seat may see of it.

:class:`Deal` runs a deal from the auction to the last trick (:mod:`.deal`, with
one private module per group of phases); :class:`Observation` is one seat's
view of it (:mod:`.observation`); :class:`DealResult` is its outcome, all that
scoring needs (:mod:`.result`); :class:`Standing` is a pulka's public standing
before a deal, which a deal inside a pulka carries (:mod:`.standing`); :mod:`.ladder` is the bidding ladder and
:mod:`.explain` says why an action is illegal.
"""

from .deal import Deal, Phase, Trick
from .observation import Observation
from .result import DealKind, DealResult, DefenceCall
from .standing import Standing

__all__ = ["Deal", "DealKind", "DealResult", "DefenceCall", "Observation", "Phase", "Standing", "Trick"]
