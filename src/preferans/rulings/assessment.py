"""The Kodeks 3.3.16.3 assessment: a deal stopped because the talon was exposed.

When the talon is exposed while two players are still bidding, the deal is
not played: every card is opened, the contract each of them could have played
with that talon is found with the solver's contract table, and whatever each
player would have gained is written as whists on the offender.  The offender
writes nothing.  The engine records what happened (:mod:`preferans.engine._irregular`);
this module, above the solver and the scoring, works out what it is worth.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ..actions import BIDS, Contract
from ..engine.deal import Deal
from ..engine.ladder import ladder_positions
from ..engine.result import DealKind, DealResult, DefenceCall
from ..errors import IllegalAction
from ..rules import Rules
from ..scoring import deal_net
from ..seats import defenders_of
from ..solver import contract_table

__all__ = ["Scenario", "assess_exposed_talon", "exposed_talon_scenarios"]


@dataclasses.dataclass(frozen=True)
class Scenario:
    """What one unfinished bidder would have played with the exposed talon."""

    declarer: int
    contract: Contract
    declarer_tricks: int
    result: DealResult
    net: tuple[Fraction, ...]  # each seat's result of that deal in whists (rules.md §11.2)


def exposed_talon_scenarios(deal: Deal) -> list[Scenario]:
    """Kodeks 3.3.16.3: the contract each remaining bidder could have played.

    For each bidder the solver's contract table gives, with the best discard
    and first hand leading, the tricks he takes in every denomination and on
    misère.  He plays the most valuable contract he makes that is not lower
    than his last bid; if he makes none, the contract of his last bid level
    that loses least.  The defenders both whist and split their tricks as
    evenly as possible, the declarer's left first (house agreement).
    """
    base = deal.result
    if base.kind != DealKind.PENALTY:
        raise IllegalAction("assessment: the deal did not end with the talon exposed during bidding (3.3.16.3)")
    rules = deal.rules
    out = []
    for seat, last in base.claimants:
        table = contract_table(deal, seat)
        floor = _floor_bid(last, rules, deal.min_level)
        if floor.is_misere:
            contract, taken = Contract(0), table.misere
        else:
            contract, taken = _best_contract(table.tricks, floor, rules)
        result = _hypothetical(deal, seat, contract, taken)
        out.append(Scenario(seat, contract, taken, result, tuple(deal_net(result, rules))))
    return out


def assess_exposed_talon(deal: Deal) -> DealResult:
    """The deal's result with the whists each player writes on the offender.

    Each player other than the offender writes the largest gain he would have
    had in any of the scenarios (Kodeks 3.3.16.3: "if two could have played a
    positive contract, both write whists on the offender"; "the offender
    writes nothing").
    """
    base = deal.result
    scenarios = exposed_talon_scenarios(deal)
    penalty: dict[int, Fraction] = {}
    for seat in range(deal.players):
        if seat == base.offender:
            continue
        gain = max(s.net[seat] for s in scenarios)
        if gain > 0:
            penalty[seat] = gain
    return dataclasses.replace(base, penalty=penalty)


def _floor_bid(last: str, rules: Rules, min_level: int) -> Contract:
    if not last:
        return Contract(max(6, min_level), 0)
    for b in BIDS:
        if str(b) == last:
            return b
    raise IllegalAction(f"assessment: unknown last bid {last!r}")


def _best_contract(tricks: tuple[int, ...], floor: Contract, rules: Rules) -> tuple[Contract, int]:
    pos = ladder_positions(rules.misere_rank, rules.without_talon_bids)
    floor_index = BIDS.index(Contract(floor.level, floor.strain)) if floor.level else 0
    allowed = [b for b in range(25) if pos[b] >= pos[floor_index]]
    made = [b for b in allowed if tricks[BIDS[b].strain] >= BIDS[b].level]
    if made:
        best = max(made, key=lambda b: (BIDS[b].level, tricks[BIDS[b].strain]))
    else:
        lowest = min(BIDS[b].level for b in allowed)
        best = max((b for b in allowed if BIDS[b].level == lowest), key=lambda b: tricks[BIDS[b].strain])
    c = BIDS[best]
    return Contract(c.level, c.strain), tricks[c.strain]


def _hypothetical(deal: Deal, declarer: int, contract: Contract, taken: int) -> DealResult:
    d1, d2 = defenders_of(deal.active, declarer)
    rest = 10 - taken
    if contract.is_misere:
        tricks = {declarer: taken, d1: (rest + 1) // 2, d2: rest // 2}
        return DealResult(DealKind.MISERE, deal.players, deal.dealer, declarer=declarer, contract=contract,
                          tricks=tricks)
    tricks = {declarer: taken, d1: (rest + 1) // 2, d2: rest // 2}
    return DealResult(
        DealKind.GAME, deal.players, deal.dealer, declarer=declarer, contract=contract,
        defence={d1: DefenceCall.WHIST, d2: DefenceCall.WHIST}, tricks=tricks,
    )
