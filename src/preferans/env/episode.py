"""The episode behind every environment: one deal, or a whole pulka of deals.

A :class:`Table` deals (reproducibly from its seed), applies actions, and
when a deal ends writes it down and reports every seat's reward in net whists
(see :mod:`.rewards`).  The AEC environment, the Gymnasium wrapper and the
OpenSpiel game are thin faces over it.

>>> from preferans.env.config import EnvConfig
>>> t = Table(EnvConfig.make("sochi"))
>>> t.reset(seed=1)
>>> while not t.done:
...     rewards = t.apply(t.deal.legal_actions()[0])
>>> len(t.deal_rewards), abs(sum(t.deal_rewards)) < 1e-9
(3, True)
"""

from __future__ import annotations

import random

from ..actions import Action
from ..engine.deal import Deal
from ..engine.result import DealResult
from .config import EnvConfig
from .encoding import sheet_bits
from .rewards import PulkaRewards, deal_returns

__all__ = ["Table"]


class Table:
    """Deals and scores the deals of one episode."""

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self.rng = random.Random()
        self.deal: Deal = Deal.new(config.rules, players=config.players, seed=0)
        self.pulka: PulkaRewards | None = None
        self.deals_played = 0
        self.done = False
        self.truncated = False
        self.deal_rewards: tuple[float, ...] = (0.0,) * config.players
        self.totals: list[float] = [0.0] * config.players
        self.last_result: DealResult | None = None
        self._sheet: dict[int, int] = {}

    def sheet_bits(self, seat: int) -> int:
        """The sheet blocks of ``seat``'s vector: the pulka's score (0 for a single deal)."""
        if self.pulka is None:
            return 0
        hit = self._sheet.get(seat)
        if hit is None:
            hit = self._sheet[seat] = sheet_bits(self.pulka.pulka, seat)
        return hit

    def public_result(self) -> dict[str, object]:
        """The last deal's outcome as the table saw it: :meth:`DealResult.to_dict` without the talon,
        which stays unseen on some deals (Rostov all-pass, misère without the talon, dark misère)."""
        assert self.last_result is not None
        out = self.last_result.to_dict()
        out.pop("talon", None)
        return out

    @property
    def min_level(self) -> int:
        return self.deal.min_level

    def reset(self, seed: int | None = None, *, dealer: int | None = None) -> None:
        """Start an episode; the same seed gives the same cards and dealers."""
        if seed is not None:
            self.rng = random.Random(seed)
        cfg = self.config
        n = cfg.players
        first = self.rng.randrange(n) if dealer is None else dealer
        self.pulka = PulkaRewards(cfg.rules, n, first_dealer=first) if cfg.episode == "pulka" else None
        self.deals_played = 0
        self.done = False
        self.truncated = False
        self.deal_rewards = (0.0,) * n
        self.totals = [0.0] * n
        self.last_result = None
        self._sheet = {}
        self._new_deal(first, 6)

    def _new_deal(self, dealer: int, min_level: int) -> None:
        cfg = self.config
        # In a pulka the deal carries the sheet's standing, so the bots' observations show it.
        standing = self.pulka.pulka.standing() if self.pulka is not None else None
        self.deal = Deal.new(
            cfg.rules, players=cfg.players, dealer=dealer, seed=self.rng.getrandbits(64), min_level=min_level,
            standing=standing,
        )

    def apply(self, action: Action | int) -> tuple[float, ...] | None:
        """Apply the action of the seat to act; the rewards if a deal ended, else ``None``.

        In a pulka the next deal is dealt at once (unless the pulka is over).
        """
        deal = self.deal
        deal.apply(action)
        if not deal.is_over:
            return None
        result = deal.result
        self.last_result = result
        self.deals_played += 1
        cfg = self.config
        if self.pulka is None:
            raw = deal_returns(result, cfg.rules)
            self.done = True
        else:
            raw = self.pulka.record(result)
            self._sheet = {}
            if self.pulka.is_over:
                self.done = True
            elif cfg.max_deals is not None and self.deals_played >= cfg.max_deals:
                self.done = self.truncated = True
            else:
                p = self.pulka.pulka
                self._new_deal(p.next_dealer, p.min_level)
        scale = cfg.scale
        rewards = tuple(x / scale for x in raw) if scale != 1.0 else raw
        self.deal_rewards = rewards
        for i, x in enumerate(rewards):
            self.totals[i] += x
        return rewards
