"""PimcBot: perfect-information Monte Carlo over the hidden cards.

For card play, the discard and the contract, whisting and concessions the
bot samples layouts of the cards it cannot see that agree with everything
it observed (:mod:`.sampling`: voids shown by play, cards seen, the talon
with the declarer or in his discard), solves each layout double-dummy with
:mod:`preferans.solver`, and picks the action whose *expected score under
the table's rules* is best — tricks are turned into net whists by
:mod:`.value` (quota, responsibility, greedy or gentleman, misère, all-pass
prices), not counted raw.  In the auction the hand is judged the same way: the
unseen cards and the talon are sampled, discarded for and solved.

A defender reading the declarer's cards assumes he discarded the way the
heuristic would (two cards from his twelve that keep his contract best).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import BIDS, CONCEDE_ALL, CONCEDE_THREE, HALF_WHIST, MISERE, PASS, PLAY, WHIST, Action, Contract
from ..cards import SUIT_MASKS, Card, cards_of
from ..engine.observation import Observation
from ..rules import Rules
from ..solver import Position, best_moves_many, solve_many
from .evaluate import choose_discard, misere_holes, misere_keep, strain_tricks
from .heuristic import HeuristicBot, _defenders, _whist_calls
from .knowledge import OUT, Knowledge, active_seats, deal_kind
from .sampling import sample_layouts
from .value import allpass_utility, game_utility, misere_utility, settled_utility

__all__ = ["PimcBot", "discard_candidates"]

_TIE = 1e-6


class PimcBot(HeuristicBot):
    """Samples hidden layouts and solves each (see the module doc).

    ``samples`` — layouts per card decision; ``discard_samples`` and
    ``candidates`` — layouts and discards tried when taking the talon;
    ``level_samples`` — when not 0, the contract is named on that many fresh
    layouts (and one pessimistic one), not on those the discard was chosen by
    (:meth:`_plan_talon`).
    ``whist_samples`` — layouts for whisting and concessions; ``bid_samples``
    — layouts for judging a hand in the auction (0: the heuristic's limits).
    ``standing`` — score outcomes by the change they make to the pulka's final
    settlement when the observation carries its standing (the default).
    ``strains`` — how many strains, the most promising by estimate, the auction and
    the talon plan solve.
    """

    name = "pimc"

    read_discard = False
    """Split the declarer's twelve at every trick of a game, not only before the first card
    (:meth:`_guess_discard`; an option of :class:`~.expert.ExpertBot`)."""

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        samples: int = 12,
        discard_samples: int = 8,
        candidates: int = 6,
        level_samples: int = 0,
        whist_samples: int = 16,
        bid_samples: int = 16,
        boldness: float = 0.0,
        standing: bool = True,
        strains: int = 2,
    ) -> None:
        if not 1 <= strains <= 5:
            raise ValueError(f"strains is how many of the five strains to solve: between 1 and 5, not {strains}")
        if candidates < 1:
            raise ValueError(f"candidates is how many discards the talon plan tries: at least 1, not {candidates}")
        super().__init__(rules, seed=seed, boldness=boldness, standing=standing)
        self.bid_samples = bid_samples
        self.strains = strains
        self._bid_cache: tuple[tuple[object, ...], dict[int, int]] = ((), {})
        self._auction_obs: Observation | None = None
        self.samples = samples
        self.discard_samples = discard_samples
        self.candidates = candidates
        self.level_samples = level_samples
        self.whist_samples = whist_samples
        self._plan: tuple[int, int, Contract | None] = (0, 0, None)  # hand of 12, discard, contract

    # ------------------------------------------------------------------ helpers
    def _rng_for(self, obs: Observation) -> random.Random:
        """A generator seeded by the bot's seed and what is visible, so a decision
        depends on the observation only (not on earlier calls)."""
        # Not hash(): str hashes change per process (PYTHONHASHSEED), so seeded games would not repeat.
        key = f"{self.seed or 0}:{obs.seat}:{obs.hand}:{len(obs.moves)}:{obs.phase}"
        return random.Random(key)

    def _layouts(self, obs: Observation, n: int) -> tuple[Knowledge, list[dict[int, int]]]:
        k = Knowledge.of(obs)
        return k, sample_layouts(k, n, self._rng_for(obs))

    def _hands(self, k: Knowledge, layout: dict[int, int]) -> tuple[int, int, int]:
        a = k.active
        h = [k.hands[s] if s in k.hands else layout.get(s, 0) for s in a]
        return h[0], h[1], h[2]

    def _guess_discard(self, obs: Observation, k: Knowledge, layout: dict[int, int]) -> None:
        """Split the declarer's twelve cards as he would have discarded (in place): before
        the first card, and with :attr:`read_discard` at every trick of a game.

        The talon is shown and the discard is not (seed 002 p.21).  Left uniform once the
        play began, the discard held a trump in more than half of a defender's layouts
        (57 % at trick 2, Leningrad, seed 7002) where declarers had thrown a trump in none
        of 80 deals.  A layout whose split would throw a card the declarer has since played,
        or put a suit he showed void in back into his hand, is left as it was drawn.  (A
        misère's discard is weighed by the inference instead: :data:`.inference.MISERE_KEPT`.)
        """
        decl = obs.declarer
        c = obs.contract
        if decl is None or c is None or decl not in layout or OUT not in layout or layout[OUT].bit_count() != 2:
            return
        if (obs.completed_tricks or obs.trick) and (not self.read_discard or c.is_misere):
            return
        tricks = [*(cards for cards, _ in obs.completed_tricks), obs.trick]
        played = sum(1 << card for cards in tricks for s, card in cards if s == decl)  # 0 before the first card
        union = layout[decl] | layout[OUT] | played
        if union.bit_count() != 12:
            return
        d = misere_keep(union) if c.is_misere else choose_discard(union, c.strain)
        hand = union & ~d & ~played
        if d & played or hand & ~k.allowed.get(decl, hand):
            return
        layout[decl] = hand
        layout[OUT] = d

    def _game_value(self, u: Sequence[float], counts: Sequence[int], level: int, players: int) -> float:
        """The summed score of a trick game of ``level`` I would declare, over my
        double-dummy tricks (``counts[t]`` layouts with ``t`` tricks), as the auction and
        the talon judge it, ``players`` at the table.  Here the tricks are taken at their
        double-dummy value; :class:`~.expert.ExpertBot` corrects them for real play."""
        return sum(n * u[t] for t, n in enumerate(counts))

    def _misere_value(self, u: Sequence[float], counts: Sequence[int], players: int) -> float:
        """The summed score of a misère over its declarer's double-dummy tricks
        (``counts[t]`` layouts with ``t``); see :meth:`_game_value`."""
        return sum(n * u[t] for t, n in enumerate(counts))

    # ------------------------------------------------------------------ card play
    def _play(self, obs: Observation) -> Action | None:
        legal = [a for a in obs.legal_actions if a < 32]
        if len(legal) <= 1:
            return legal[0] if legal else None
        kind = deal_kind(obs)
        if obs.players == 2 and kind == "allpass":
            # гусарик's all-pass is two hands a trick: not the solver's three-hand model.
            return super()._play(obs)
        k, layouts = self._layouts(obs, self.samples)
        utility = self._utility(obs, kind)
        focus_won = self._focus_won(obs, kind)
        totals = dict.fromkeys((int(a) for a in legal), 0.0)
        for layout in layouts:
            self._guess_discard(obs, k, layout)
        for moves in best_moves_many([self._position(obs, k, layout, kind) for layout in layouts]):
            for card, v in moves.items():
                if card in totals:
                    totals[card] += utility[min(10, focus_won + v)]
        best = max(totals.values())
        top = [c for c, v in totals.items() if v >= best - _TIE * len(layouts)]
        if len(top) > 1:
            hint = super()._play(obs)
            if hint is not None and int(hint) in top:
                return hint
            return Action.from_card(min(top, key=lambda c: (c & 7, c)))
        return Action.from_card(top[0])

    def _focus_won(self, obs: Observation, kind: str) -> int:
        if kind == "allpass":
            assert obs.to_play is not None
            return obs.tricks_won[obs.to_play]
        assert obs.declarer is not None
        return obs.tricks_won[obs.declarer]

    def _utility(self, obs: Observation, kind: str) -> tuple[float, ...]:
        r = self.rules
        me = obs.seat
        if kind == "allpass":
            a = [s for s in active_seats(obs) if s != me]
            return allpass_utility(r, standing=self._standing(obs), players=obs.players, dealer=obs.dealer, seat=me,
                                   others=(obs.tricks_won[a[0]], obs.tricks_won[a[1]]))
        assert obs.declarer is not None and obs.contract is not None
        if kind == "misere":
            return misere_utility(r, standing=self._standing(obs), players=obs.players, dealer=obs.dealer, seat=me,
                                  declarer=obs.declarer)
        d1, d2 = _defenders(obs)
        calls = _whist_calls(obs)
        pair = (calls.get(d1, "pass"), calls.get(d2, "pass"))
        if "whist" not in pair:
            pair = ("whist", "whist")  # a checked 10 (seed-002 p.26) counts both as whisters
        c = obs.contract
        return game_utility(r, standing=self._standing(obs), players=obs.players, dealer=obs.dealer, seat=me,
                            declarer=obs.declarer, contract=Contract(c.level, c.strain),
                            calls=pair, open_play=obs.open_play,
                            split=(obs.tricks_won[d1], obs.tricks_won[d2]))

    def _position(self, obs: Observation, k: Knowledge, layout: dict[int, int], kind: str) -> Position:
        active = k.active
        index = {s: i for i, s in enumerate(active)}
        hands = self._hands(k, layout)
        on_table = [(s, c) for s, c in obs.trick if s in index]
        talon: tuple[int, ...] = ()
        mode = "suit_only"
        trump: int | None = None
        assert obs.to_play is not None
        if kind == "allpass":
            goal = "allpass"
            mode = self.rules.raspas_talon_for(obs.players)
            n = len(obs.completed_tricks)
            if mode != "unused" and n < 2:
                lead = [c for s, c in obs.trick if s not in index]
                first = lead[0] if lead else obs.talon[n]
                assert first is not None
                talon = (first,)
                if n == 0:
                    second = obs.talon[1]
                    if second is None:
                        out = layout.get(OUT, 0)
                        second = cards_of(out)[0] if out else None
                    if second is not None:
                        talon = (first, second)
            focus = index[obs.to_play]
        else:
            assert obs.declarer is not None
            goal = "misere" if kind == "misere" else "tricks"
            trump = obs.contract.trump if obs.contract is not None else None
            focus = index[obs.declarer]
        leader = 0 if talon else index[on_table[0][0] if on_table else obs.to_play]
        return Position(hands=hands, leader=leader, declarer=focus, goal=goal, trump=trump,
                        trick=tuple(c for _, c in on_table), talon=tuple(Card(c) for c in talon),
                        talon_mode=mode)

    # ------------------------------------------------------------------ auction
    def misere_ok(self, hand: int) -> bool:
        """A clean hand, or a near one that stays clean in most sampled layouts
        (talon taken, the heuristic's misère discard, solved with the catchers
        seeing the declarer's cards — harder than at the table)."""
        if super().misere_ok(hand):
            return True
        obs = self._auction_obs
        if self.bid_samples <= 0 or obs is None or misere_holes(hand) > 2:
            return False
        k, layouts = self._layouts(obs, self.bid_samples)
        me = obs.seat
        focus = k.active.index(me)
        u = misere_utility(self.rules, standing=self._standing(obs),
                           players=obs.players, dealer=obs.dealer, seat=me, declarer=me)
        positions = []
        for layout in layouts:
            full = hand | layout.get(OUT, 0)
            h = list(self._hands(k, layout))
            h[focus] = full & ~misere_keep(full) if full.bit_count() == 12 else full
            positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, goal="misere"))
        counts = [0] * 11
        for t in solve_many(positions):
            counts[t] += 1
        return self._misere_value(u, counts, obs.players) > 0

    def _bidding(self, obs: Observation) -> Action | None:
        self._auction_obs = obs
        try:
            return super()._bidding(obs)
        finally:
            self._auction_obs = None

    def bid_limits(self, obs: Observation) -> dict[int, int]:
        """By simulation: for the two most promising strains, deal the unseen cards
        (the talon included), discard as the heuristic would, solve, and keep the
        highest level whose expected score when whisted is not negative."""
        hand = obs.hand
        key = (hand, obs.seat, obs.dealer, obs.players, self._standing(obs))
        cached, limits = self._bid_cache
        if cached == key and limits:
            return limits
        heuristic = super().bid_limits(obs)
        if self.bid_samples <= 0 or max(heuristic.values()) < 4:
            return heuristic
        k, layouts = self._layouts(obs, self.bid_samples)
        me = obs.seat
        focus = k.active.index(me)
        est = self.estimates(hand)
        strains = sorted(range(5), key=lambda s: -est[s])[: self.strains]
        limits = dict.fromkeys(range(5), 0)
        solved: dict[int, list[int]] = {}
        for s in strains:
            counts = [0] * 11
            positions = []
            for layout in layouts:
                full = hand | layout.get(OUT, 0)
                h = list(self._hands(k, layout))
                h[focus] = full & ~choose_discard(full, s) if full.bit_count() == 12 else full
                positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=None if s == 4 else s))
            solved[s] = solve_many(positions)
            for t in solved[s]:
                counts[t] += 1
            limits[s] = self._highest_level(obs, counts, s)
        # A bid in ♠, the lowest strain, won lets me name any strain at its level after the
        # talon: the contract may not be lower than the winning bid (rules.md §4.3; Kodeks 3.3.11).
        limits[0] = max(limits[0], self._talon_strain_limit(obs, layouts, solved))
        self._bid_cache = (key, limits)
        return limits

    def _highest_level(self, obs: Observation, counts: Sequence[int], strain: int) -> int:
        """The highest level of 6–10 whose game in ``strain``, whisted, is not worth less than
        nothing over my double-dummy tricks (``counts[t]`` layouts with ``t``); 0: none."""
        limit = 0
        for level in range(6, 11):
            u = game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                             seat=obs.seat, declarer=obs.seat, contract=Contract(level, strain),
                             calls=("whist", "whist"))
            if self._game_value(u, counts, level, obs.players) >= 0:
                limit = level
        return limit

    def _talon_strain_limit(self, obs: Observation, layouts: list[dict[int, int]], solved: dict[int, list[int]]) -> int:
        """The highest level worth bidding when the strain is named after seeing the talon, from
        ``solved`` (each strain's double-dummy tricks over ``layouts``); 0: not judged (here:
        each strain is judged on its own, :class:`~.expert.ExpertBot` judges the choice too)."""
        return 0

    # ------------------------------------------------------------------ talon and contract
    def _discard(self, obs: Observation) -> Action | None:
        hand = obs.hand
        full, plan, _ = self._plan
        if obs.discard:
            rest = plan & ~obs.discard & hand
            if full == hand | obs.discard and rest:
                return Action.from_card(cards_of(rest)[0])
            return super()._discard(obs)
        plan, contract = self._plan_talon(obs)
        self._plan = (hand, plan, contract)
        return Action.from_card(cards_of(plan)[0])

    def _winning_bid(self, obs: Observation) -> Contract:
        # The auction's last bid is its highest, whoever made it («здесь» holds it).
        for _, a in reversed(obs.moves):
            if a is not None and a.is_bid:
                c = a.contract
                assert c is not None
                return c
        return BIDS[0]  # the talon taken silently (Kodeks 3.3.15): any game

    def _plan_talon(self, obs: Observation) -> tuple[int, Contract | None]:
        hand = obs.hand
        misere = obs.contract is not None and obs.contract.is_misere
        extra = 0 if misere else self.level_samples
        # The first layouts choose the discard, fresh ones the contract: the best of a dozen
        # discards looks better on its own layouts than it is (the winner's curse), and a level
        # named on them is a level too high.
        k, both = self._layouts(obs, self.discard_samples + extra)
        layouts, fresh = both[: self.discard_samples], both[self.discard_samples:]
        me = obs.seat
        a = k.active
        focus = a.index(me)
        r = self.rules
        if misere:
            pairs = _ranked_pairs(hand, lambda d: (misere_holes(hand & ~d), -_rank_sum(d)), self.candidates)
            u = misere_utility(r, standing=self._standing(obs),
                               players=obs.players, dealer=obs.dealer, seat=me, declarer=me)
            best_pair, best_val = pairs[0], float("-inf")
            for d in pairs:
                positions = []
                for layout in layouts:
                    h = list(self._hands(k, layout))
                    h[focus] = hand & ~d
                    positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, goal="misere"))
                total = sum(u[t] for t in solve_many(positions))
                if total > best_val:
                    best_pair, best_val = d, total
            return best_pair, Contract(0)
        wb = self._winning_bid(obs)
        strains = sorted(range(5), key=lambda s: -strain_tricks(hand & ~choose_discard(hand, s), s))[: self.strains]
        best: tuple[int, Contract | None] = (choose_discard(hand, strains[0]), None)
        best_val = float("-inf")
        finalists: list[tuple[int, int, range]] = []
        for s in strains:
            pairs = discard_candidates(hand, s, self.candidates)
            low = wb.level if s >= wb.strain else wb.level + 1
            if wb.without_talon:
                low = wb.level
            levels = range(max(6, low), 11)
            if not levels:
                continue
            strain_best, strain_val = pairs[0], float("-inf")
            for d in pairs:
                counts = self._talon_counts(k, layouts, hand & ~d, focus, s)
                for level in levels:
                    val = self._talon_value(obs, Contract(level, s), counts)
                    if val > best_val:
                        best, best_val = (d, Contract(level, s)), val
                    if val > strain_val:
                        strain_best, strain_val = d, val
            finalists.append((s, strain_best, levels))
        if not fresh or not finalists:
            return best
        best_val = float("-inf")
        for s, d, levels in finalists:
            counts = self._talon_counts(k, fresh, hand & ~d, focus, s)
            # One layout more, a trick worse than the worst sampled: sixteen layouts that all make
            # a level do not say it is never set (the rule of succession), and being set costs
            # ten times and more what the level above gains when made.
            worst = next(t for t, n in enumerate(counts) if n)
            counts[max(0, worst - 1)] += 1
            for level in levels:
                val = self._talon_value(obs, Contract(level, s), counts)
                if val > best_val:
                    best, best_val = (d, Contract(level, s)), val
        return best

    def _talon_counts(
        self, k: Knowledge, layouts: list[dict[int, int]], kept: int, focus: int, strain: int
    ) -> list[int]:
        """How many of ``layouts`` give me each number of double-dummy tricks with ``kept``
        in trumps ``strain`` (4: no trumps)."""
        counts = [0] * 11
        positions = []
        for layout in layouts:
            h = list(self._hands(k, layout))
            h[focus] = kept
            positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=None if strain == 4 else strain))
        for t in solve_many(positions):
            counts[t] += 1
        return counts

    def _talon_value(self, obs: Observation, c: Contract, counts: Sequence[int]) -> float:
        """The summed score of declaring ``c`` over the double-dummy ``counts``, both defenders whisting."""
        u = game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                         seat=obs.seat, declarer=obs.seat, contract=c, calls=("whist", "whist"))
        return self._game_value(u, counts, c.level, obs.players)

    def _declare(self, obs: Observation) -> Action | None:
        full, plan, contract = self._plan
        if contract is not None and full == obs.hand | obs.discard and obs.discard == plan:
            a = MISERE if contract.is_misere else Action.bid(contract)
            if a in obs.legal_actions:
                return a
        return super()._declare(obs)

    # ------------------------------------------------------------------ whisting
    def _declarer_tricks(self, obs: Observation, n: int) -> list[int]:
        """The declarer's double-dummy tricks from the first lead, per sampled layout."""
        return self._declarer_layouts(obs, n)[2]

    def _declarer_layouts(self, obs: Observation, n: int) -> tuple[Knowledge, list[dict[int, int]], list[int]]:
        """The sampled layouts and, per layout, the declarer's double-dummy tricks."""
        k, layouts = self._layouts(obs, n)
        c = obs.contract
        assert c is not None and obs.declarer is not None
        focus = k.active.index(obs.declarer)
        on_table = [(s, card) for s, card in obs.trick if s in k.active]
        leader = k.active.index(on_table[0][0]) if on_table else 0  # rules.md §2: first hand leads
        won = obs.tricks_won[obs.declarer]
        positions = []
        for layout in layouts:
            self._guess_discard(obs, k, layout)
            positions.append(Position(hands=self._hands(k, layout), declarer=focus, leader=leader,
                                      goal="misere" if c.is_misere else "tricks", trump=c.trump,
                                      trick=tuple(card for _, card in on_table)))
        return k, layouts, [min(10, won + t) for t in solve_many(positions)]

    def _whist(self, obs: Observation) -> Action | None:
        options = self.whist_values(obs)
        return max(options, key=lambda a: options[a]) if options else None

    def whist_values(self, obs: Observation) -> dict[Action, float]:
        """Expected net whists of each whisting call (whist, pass, half-whist)
        over the declarer's tricks in sampled layouts, given the partner's call
        when known, else averaged over his two (or by :meth:`_partner_whist_odds`)."""
        k, layouts, tricks = self._declarer_layouts(obs, self.whist_samples)
        c = obs.contract
        assert c is not None and obs.declarer is not None
        d1, d2 = _defenders(obs)
        me = obs.seat
        partner = d2 if me == d1 else d1
        calls = _whist_calls(obs)
        contract = Contract(c.level, c.strain)

        def utility(mine: str, theirs: str) -> tuple[float, ...]:
            pair = (mine, theirs) if me == d1 else (theirs, mine)
            return game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                                seat=me, declarer=obs.declarer, contract=contract, calls=pair)

        def value(mine: str, theirs: str) -> float:
            u = utility(mine, theirs)
            return sum(u[t] for t in tricks) / len(tricks)

        options: dict[Action, float] = {}
        for a in obs.legal_actions:
            mine = {WHIST: "whist", PASS: "pass", HALF_WHIST: "half"}.get(a)
            if mine is None:
                continue
            if partner in calls and calls[partner] != "half":
                theirs: Sequence[str] = [calls[partner]]
            elif partner in calls:
                theirs = ["half"] if mine == "pass" else ["pass"]
            elif mine == "half":
                theirs = ["pass"]
            elif (odds := self._partner_whist_odds(obs, k, layouts, partner, mine)) is not None:
                # the partner's call still to come: as his cards in each layout suggest
                uw, up = utility(mine, "whist"), utility(mine, "pass")
                options[a] = sum(p * uw[t] + (1 - p) * up[t] for p, t in zip(odds, tricks, strict=True)) / len(tricks)
                continue
            else:
                theirs = ["whist", "pass"]
            options[a] = sum(value(mine, t) for t in theirs) / len(theirs)
        return options

    def _partner_whist_odds(
        self, obs: Observation, k: Knowledge, layouts: list[dict[int, int]], partner: int, mine: str
    ) -> list[float] | None:
        """Per layout, the odds that the partner whists after my call ``mine`` (None: even odds
        for every layout)."""
        return None

    def declarer_estimate(self, obs: Observation) -> float:
        tricks = self._declarer_tricks(obs, self.whist_samples)
        return sum(tricks) / len(tricks)

    def _concession(self, obs: Observation) -> Action | None:
        options = self.concession_values(obs)
        return max(options, key=lambda a: options[a])

    def concession_values(self, obs: Observation) -> dict[Action, float]:
        """Expected net whists of playing on and of each concession offered."""
        tricks = self._declarer_tricks(obs, self.whist_samples)
        c = obs.contract
        assert c is not None
        calls = _whist_calls(obs)
        d1, d2 = _defenders(obs)
        pair = (calls.get(d1, "pass"), calls.get(d2, "pass"))
        contract = Contract(c.level, c.strain)
        kw: dict[str, Any] = {"players": obs.players, "dealer": obs.dealer, "seat": obs.seat,
              "declarer": obs.seat, "contract": contract, "calls": pair,
              "standing": self._standing(obs)}
        u = game_utility(self.rules, **kw)
        options = {PLAY: sum(u[t] for t in tricks) / len(tricks)}
        if CONCEDE_THREE in obs.legal_actions:
            options[CONCEDE_THREE] = settled_utility(self.rules, conceded=3, **kw)
        if CONCEDE_ALL in obs.legal_actions:
            options[CONCEDE_ALL] = settled_utility(self.rules, conceded=10, **kw)
        return options

    def _quota_answer(self, obs: Observation) -> Action | None:
        return super()._quota_answer(obs)


def discard_candidates(hand: int, strain: int, n: int) -> list[int]:
    """The ``n`` two-card discards of twelve cards the talon plan tries for a game in ``strain``
    (4: no trumps): those that leave the most estimated tricks first, then the lowest cards."""
    return _ranked_pairs(hand, lambda d: (-strain_tricks(hand & ~d, strain), _rank_sum(d)), n)


def _rank_sum(d: int) -> int:
    return sum(c & 7 for c in cards_of(d))


def _ranked_pairs(hand: int, key: Callable[[int], Any], n: int) -> list[int]:
    """The ``n`` best two-card discards of ``hand`` by ``key`` (lowest first),
    one per pair of suits-and-ranks that differ."""
    cards = cards_of(hand)
    pairs = [1 << a | 1 << b for i, a in enumerate(cards) for b in cards[i + 1 :]]
    pairs.sort(key=key)
    out: list[int] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    for d in pairs:
        sig = tuple(sorted((c >> 3, _gap(hand, c)) for c in cards_of(d)))
        if sig in seen:
            continue
        seen.add(sig)
        out.append(d)
        if len(out) == n:
            break
    return out


def _gap(hand: int, card: int) -> int:
    """A card's rank among its suit in ``hand``: touching cards look alike."""
    return (hand & SUIT_MASKS[card >> 3] & ((1 << card) - 1)).bit_count()
