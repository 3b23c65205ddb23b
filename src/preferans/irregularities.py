"""Settling irregularities that need the solver: Kodeks 3.3.16.3 and claims.

The engine records what happened (:mod:`preferans.irregular`); this module,
which sits above the solver and the scoring layer, works out what it is worth:

* :func:`assess_exposed_talon` — the talon was exposed while two players were
  still bidding (Kodeks 3.3.16.3): every card is opened, the contract each of
  them could have played with that talon is found with the solver's contract
  table, and whatever each player would have gained is written as whists on the
  offender.  The offender writes nothing.
* :func:`prove_claim` — is a claim safe against every layout of the cards the
  claimer cannot see?  Then the engine may settle it without asking.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

from .actions import BIDS, FORBID_ID, REFUSE_ID, Action, Contract
from .auction import ladder_positions
from .cards import cards_of
from .deal import Deal
from .errors import IllegalAction
from .result import DealKind, DealResult, DefenceCall
from .rules import Rules
from .scoring import Sheet, closed_formula, score_deal
from .solver import Position, contract_table, solve_at_least

__all__ = [
    "Scenario",
    "assess_exposed_talon",
    "automatic_answer",
    "claim_layouts",
    "exposed_talon_scenarios",
    "prove_claim",
]


@dataclasses.dataclass(frozen=True)
class Scenario:
    """What one unfinished bidder would have played with the exposed talon."""

    declarer: int
    contract: Contract
    declarer_tricks: int
    result: DealResult
    net: tuple[Fraction, ...]  # each seat's result of that deal in whists (spec §11.2)


def exposed_talon_scenarios(deal: Deal) -> list[Scenario]:
    """Kodeks 3.3.16.3: the contract each remaining bidder could have played.

    For each bidder the solver's contract table gives, with the best discard
    and first hand leading, the tricks he takes in every denomination and on
    misère.  He plays the most valuable contract he makes that is not lower
    than his last bid; if he makes none, the contract of his last bid level
    that loses least.  The defenders both whist and split their tricks as
    evenly as possible, the declarer's left first [U].
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
        out.append(Scenario(seat, contract, taken, result, _net(result, rules, deal.players)))
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
    active = deal.active
    i = active.index(declarer)
    d1, d2 = active[(i + 1) % 3], active[(i + 2) % 3]
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


def _net(result: DealResult, rules: Rules, players: int) -> tuple[Fraction, ...]:
    sheet = Sheet(tuple("ABCD"[:players]))
    sheet.apply(score_deal(result, rules))
    return tuple(closed_formula(sheet.pool, sheet.mountain, sheet.whists, rules.k_pool, rules.k_mount))


# ---------------------------------------------------------------------- claims
def claim_layouts(deal: Deal, seat: int, limit: int = 20_000) -> Iterator[tuple[int, int, int]] | None:
    """Every layout of the three active hands consistent with what ``seat`` knows.

    Returns ``None`` when there are more than ``limit`` layouts (too many to
    check).  Voids shown in play (a player who did not follow suit) are
    respected; cards the claimer saw (his own, hands lying face up, played
    cards, the talon when shown, his discard) are fixed.
    """
    obs = deal.observation(seat)
    active = deal.active
    known = {seat: deal.hands[seat]}
    for s, m in obs.known_hands.items():
        if s in active:
            known[s] = m
    hidden = [s for s in active if s not in known]
    if not hidden:
        return iter([(deal.hands[active[0]], deal.hands[active[1]], deal.hands[active[2]])])
    sizes = {s: deal.hands[s].bit_count() for s in hidden}
    seen = obs.visible_cards()
    pool = [c for c in cards_of(0xFFFFFFFF & ~seen)]
    voids = obs.shown_voids()
    out_of_play = len(pool) - sum(sizes.values())
    if out_of_play < 0:  # pragma: no cover - the engine keeps the counts right
        return None
    count = 1
    left = len(pool)
    for s in hidden:
        count *= _comb(left, sizes[s])
        left -= sizes[s]
    if count > limit:
        return None

    def layouts() -> Iterator[tuple[int, int, int]]:
        first = hidden[0]
        allowed_first = [c for c in pool if not voids.get(first, 0) >> c & 1]
        for combo in itertools.combinations(allowed_first, sizes[first]):
            m1 = sum(1 << c for c in combo)
            hands = dict(known)
            hands[first] = m1
            if len(hidden) == 2:
                second = hidden[1]
                rest = [c for c in pool if not m1 >> c & 1 and not voids.get(second, 0) >> c & 1]
                for combo2 in itertools.combinations(rest, sizes[second]):
                    hands[second] = sum(1 << c for c in combo2)
                    yield (hands[active[0]], hands[active[1]], hands[active[2]])
            else:
                yield (hands[active[0]], hands[active[1]], hands[active[2]])

    return layouts()


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k) if 0 <= k <= n else 0


def prove_claim(deal: Deal, seat: int, tricks: int, *, limit: int = 20_000) -> bool:
    """Does ``seat``'s side take ``tricks`` of the remaining tricks whatever the layout?

    Checked with the solver against every layout consistent with the
    claimer's knowledge; ``False`` when it fails on one, or when there are
    more than ``limit`` layouts to check.
    """
    deal.verify_claim(seat, tricks)
    layouts = claim_layouts(deal, seat, limit)
    if layouts is None:
        return False
    base = Position.from_deal(deal)
    left = deal.tricks_remaining()
    declarer_side = seat == deal.declarer
    misere = deal.kind == DealKind.MISERE
    for hands in layouts:
        pos = dataclasses.replace(base, hands=hands)
        if misere:
            # The declarer minimises: he proves "at most n"; the defenders "at least left - n".
            ok = not solve_at_least(pos, tricks + 1) if declarer_side else solve_at_least(pos, left - tricks)
        else:
            ok = solve_at_least(pos, tricks) if declarer_side else not solve_at_least(pos, left - tricks + 1)
        if not ok:
            return False
    return True


def automatic_answer(deal: Deal, *, bot: bool, rng: random.Random) -> Action | None:
    """A move nobody chooses, for tables that run bots (terminal and web alike).

    The dealer's redraw is face down (Kodeks 3.3.17), so it is drawn at random
    whoever deals; a bot declarer forbids the announced suit (3.3.18); a bot
    refuses a claim, since a claim the solver could prove was settled already.
    ``bot`` says whether the seat to act is a bot.
    """
    phase = deal.phase.value
    if deal.to_act is None:
        return None
    if phase == "redraw":
        return rng.choice(deal.legal_actions())
    if not bot:
        return None
    if phase == "lead_penalty":
        return Action(FORBID_ID)
    if phase == "claim_answer":
        return Action(REFUSE_ID)
    return None
