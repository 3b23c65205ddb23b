"""Calls priced on average for the analysis: the auction, whist/pass, the declarer's concessions.

The post-game analysis (:mod:`preferans.rulings.analysis`) prices cards, the discard and the
contract with all hands open.  A call made before the others' cards could be seen — a bid, a
whist or a pass — is priced here instead by what its decider could know: the expert's sampling
(:class:`~preferans.bots.expert.ExpertBot`) deals the cards he could not see, weighted by what
the others' calls told him, solves each layout double-dummy and scores it as the table scores
(the pulka's standing included).  The analysis sits below the bots and takes this as its
:class:`~preferans.rulings.analysis.CallPricer`.

* **whist / pass / half-whist** — :meth:`ExpertBot.whist_values
  <preferans.bots.pimc.PimcBot.whist_values>`: the expected net whists of each call, given the
  partner's call when it was made, else weighed by what his cards in each layout suggest;
* **the declarer's concession** — :meth:`~preferans.bots.pimc.PimcBot.concession_values`;
* **the auction** — a call is priced as if the auction ended with it: a bid is worth the best
  game the bidder could then declare (any contract not below it, each strain played with the
  heuristic's discard against two whisters), a misère the misère, «здесь» the bid it holds;
  a pass is worth the all-pass it may end in (:meth:`~preferans.bots.expert.ExpertBot.all_pass_values`)
  times the odds that it does (:meth:`~preferans.bots.expert.ExpertBot.all_pass_odds`): all of
  it once everybody else has passed, 0.6 of it for each player still to speak while nobody has
  bid, nothing once somebody has — the deal then goes on without him.  Dark calls, the misère
  invitation «пополам» and the silent talon are not priced.

>>> from preferans import Deal, Rules
>>> deal = Deal.from_cards(Rules.preset("sochi"), hands=[
...     "♠A K Q J 10 9 ♣A K ♦A 7", "♣Q J 10 9 ♦K Q J 10 ♥A K", "♣8 7 ♦9 8 ♥Q J 10 9 ♠8 7"],
...     talon="♥8 7", dealer=2)
>>> values = CallAppraiser(deal.rules, samples=16)(deal.observation(0))
>>> values[Action.parse("6♠")] > values[Action.parse("pass")]   # eight spades are there
True
"""

from __future__ import annotations

from collections.abc import Mapping

from ..actions import HERE, PASS, Action, Contract
from ..engine.observation import Observation, Phase
from ..rules import Rules
from ..solver import Position, solve_many
from .evaluate import choose_discard, misere_keep
from .expert import ExpertBot
from .knowledge import OUT
from .value import game_utility, misere_utility

__all__ = ["CallAppraiser"]


class CallAppraiser:
    """Expected net whists of each option of a call (see the module doc): a
    :class:`~preferans.rulings.analysis.CallPricer`.

    ``samples`` — layouts per decision; ``seed`` — the sampling's seed (the same seed prices the
    same record the same way).  The auction's tricks per strain are sampled once per seat and
    deal and shared by that seat's calls (what he knows does not change while he bids).
    """

    def __init__(self, rules: Rules, *, seed: int = 0, samples: int = 32) -> None:
        self.rules = rules
        self.samples = samples
        self.bot = ExpertBot(rules, seed=seed, think=1.0)
        self.bot.whist_samples = samples
        self.bot.bid_samples = samples
        self._hand_cache: dict[tuple[object, ...], tuple[list[list[int]], list[int] | None]] = {}

    def __call__(self, obs: Observation) -> Mapping[Action, float] | None:
        if obs.phase is Phase.WHIST:
            return self.bot.whist_values(obs) or None
        if obs.phase is Phase.CONCESSION:
            return self.bot.concession_values(obs) or None
        if obs.phase is Phase.BIDDING:
            return self.auction_values(obs)
        return None

    # ------------------------------------------------------------------ the auction
    def auction_values(self, obs: Observation) -> dict[Action, float] | None:
        """Each light call's value if the auction ended with it (see the module doc)."""
        legal = [a for a in obs.legal_actions if not a.is_dark]
        if len(legal) < 2:
            return None
        misere_legal = any(a.contract is not None and a.contract.is_misere and not a.contract.without_talon
                           for a in legal)  # fmt: skip
        games, misere = self._hand_values(obs, misere_legal)
        out: dict[Action, float] = {}
        for a in legal:
            c = a.contract
            if a == PASS:
                out[a] = self._pass_value(obs)
            elif a == HERE and obs.highest_bid is not None and not obs.highest_bid.is_misere:
                out[a] = _best_game(games, obs.highest_bid)
            elif c is not None and c.is_misere and not c.without_talon:
                out[a] = misere
            elif c is not None and not c.is_misere and not c.without_talon:
                out[a] = _best_game(games, c)
        return out if len(out) > 1 else None

    def _pass_value(self, obs: Observation) -> float:
        """The all-pass a pass may end in, times the odds that it does (:meth:`.ExpertBot.all_pass_odds`)."""
        odds = self.bot.all_pass_odds(obs)
        values = self.bot.all_pass_values(obs) if odds else None
        return odds * values[2] if values is not None else 0.0

    def _hand_values(self, obs: Observation, with_misere: bool) -> tuple[list[list[float]], float]:
        """Expected net whists of declaring each game (level 6–10 × strain) and of a misère
        (0 unless ``with_misere``), talon taken, over the sampled layouts."""
        standing = self.bot._standing(obs)
        key = (obs.seat, obs.hand, obs.dealer, obs.players, standing)
        cached = self._hand_cache.get(key)
        if cached is None or (with_misere and cached[1] is None):
            cached = self._hand_cache[key] = self._sample(obs, with_misere)
        by_strain, misere_tricks = cached
        me = obs.seat
        games = []
        for level in range(6, 11):
            row = []
            for s in range(5):
                u = game_utility(self.rules, standing=standing, players=obs.players, dealer=obs.dealer, seat=me,
                                 declarer=me, contract=Contract(level, s), calls=("whist", "whist"))  # fmt: skip
                row.append(sum(u[t] for t in by_strain[s]) / len(by_strain[s]))
            games.append(row)
        if not misere_tricks:
            return games, 0.0
        mu = misere_utility(self.rules, standing=standing, players=obs.players, dealer=obs.dealer, seat=me,
                            declarer=me)  # fmt: skip
        return games, sum(mu[t] for t in misere_tricks) / len(misere_tricks)

    def _sample(self, obs: Observation, with_misere: bool) -> tuple[list[list[int]], list[int] | None]:
        """The declarer's tricks in each strain (and at misère), per sampled layout (talon taken,
        the heuristic's discard, first hand leading)."""
        k, layouts = self.bot._layouts(obs, self.samples)
        focus = k.active.index(obs.seat)
        hand = obs.hand
        by_strain: list[list[int]] = []
        for s in range(6 if with_misere else 5):  # five strains, then misère
            positions = []
            for lay in layouts:
                full = hand | lay.get(OUT, 0)
                h = list(self.bot._hands(k, lay))
                if full.bit_count() == 12:
                    h[focus] = full & ~(misere_keep(full) if s == 5 else choose_discard(full, s))
                else:
                    h[focus] = full
                trump = None if s >= 4 else s
                positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=trump,
                                          goal="misere" if s == 5 else "tricks"))  # fmt: skip
            by_strain.append(solve_many(positions))
        return by_strain[:5], by_strain[5] if with_misere else None


def _best_game(games: list[list[float]], bid: Contract) -> float:
    """The best expected game the winner of ``bid`` may declare (not below it on the ladder)."""
    return max(
        games[level - 6][s] for level in range(6, 11) for s in range(5) if (level, s) >= (bid.level, bid.strain)
    )
