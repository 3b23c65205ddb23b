"""Vectorised self-play: many independent deals stepped at once, numpy in and out.

Each of ``num_envs`` slots holds one deal.  Every call to :meth:`BatchSelfPlay.step`
applies one action in every slot — the action of whichever seat is to act
there (one policy plays all seats: self-play) — and returns the next
observations of the seats to act, their action masks, which seat that is,
and, for slots whose deal just ended, every seat's reward.  A finished slot
is dealt again at once, so the batch never runs dry.

>>> import numpy as np
>>> from preferans.env.batch import BatchSelfPlay, random_actions
>>> batch = BatchSelfPlay(8, rules="sochi", seed=1)
>>> obs, mask, seat = batch.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 960), (8, 105), (8,))
>>> rng = np.random.default_rng(0)
>>> finished = 0
>>> for _ in range(200):
...     step = batch.step(random_actions(step.mask if _ else mask, rng))
...     finished += int(step.done.sum())
...     assert np.allclose(step.rewards.sum(axis=1), 0.0, atol=1e-4)  # zero-sum deals
>>> finished > 8
True

Observations are the same bits as the AEC environment's (docs/env.md); a
lean encoder (:mod:`.fast`) reads them from the deal's state instead of
rebuilding an :class:`~preferans.Observation`, and is tested equal to it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS, NUM_ALL_ACTIONS, Action
from ..engine._state import OVER
from ..engine.deal import Deal
from ..errors import IllegalAction, PreferansError
from ..rules import Rules
from ..seats import active_seats, seat_count
from .config import EnvConfig, EnvError
from .encoding import OBS_BYTES, OBS_SIZE
from .fast import FastEncoder
from .rewards import deal_returns

__all__ = ["BatchSelfPlay", "BatchStep", "random_actions"]

Int8s = npt.NDArray[np.int8]
_MASK_BYTES = 16  # 105 bits, padded to 128
_MASK_CACHE: dict[tuple[int, ...], bytes] = {}


_BIT = tuple(1 << a if a < NUM_ACTIONS else 0 for a in range(NUM_ALL_ACTIONS))  # ids ≥ 105 are never offered


def _mask_bytes(legal: tuple[int, ...]) -> bytes:
    b = _MASK_CACHE.get(legal)
    if b is None:
        if len(_MASK_CACHE) > 100_000:
            _MASK_CACHE.clear()
        b = _MASK_CACHE[legal] = sum(map(_BIT.__getitem__, legal)).to_bytes(_MASK_BYTES, "little")
    return b


class SelfPlayDeal(Deal):
    """A :class:`Deal` that keeps no undo history: self-play never takes a move back.

    Saving the state before each action is a fifth of the cost of ``apply``;
    everything else is the engine unchanged.  :meth:`undo` is not available.
    """

    __slots__ = ()

    def _save(self) -> tuple[object, ...]:
        return ()

    def undo(self) -> Action:
        raise IllegalAction("a self-play deal keeps no undo history")


class BatchStep(NamedTuple):
    """What one batch step returns (arrays over the slots).

    * ``obs`` — ``int8[N, 960]``: the observation of the seat to act in each slot;
    * ``mask`` — ``int8[N, 105]``: its legal actions;
    * ``seat`` — ``int64[N]``: which seat that is (0 … players-1);
    * ``rewards`` — ``float32[N, players]``: each seat's reward for a deal that
      ended at this step (zero elsewhere; each row sums to zero);
    * ``done`` — ``bool[N]``: the slot's deal ended at this step (and was dealt anew).
    """

    obs: npt.NDArray[np.int8]
    mask: npt.NDArray[np.int8]
    seat: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    done: npt.NDArray[np.bool_]


def random_actions(mask: npt.NDArray[Any], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action for every row of ``mask`` (vectorised)."""
    noise = rng.random(mask.shape, dtype=np.float32)
    noise[mask == 0] = -1.0
    out: npt.NDArray[np.int64] = noise.argmax(axis=1)
    return out


class BatchSelfPlay:
    """``num_envs`` deals under one set of rules, stepped together.

    ``rules`` is a preset name or a :class:`Rules`; ``players`` 3 or 4;
    ``normalize`` / ``reward_scale`` as for the AEC environment; ``seed``
    makes the cards (and dealers) reproducible.
    """

    def __init__(
        self,
        num_envs: int,
        rules: str | Rules = "sochi",
        players: int = 3,
        *,
        normalize: bool = False,
        reward_scale: float | None = None,
        seed: int | None = None,
    ) -> None:
        if num_envs < 1:
            raise EnvError(f"num_envs: at least 1, not {num_envs}")
        self.config = EnvConfig.make(rules, players, "deal", normalize, reward_scale)
        self.num_envs = num_envs
        self._np_rng = np.random.default_rng(seed)
        self._pool: list[tuple[int, ...]] = []
        self.deals: list[Deal] = []
        self._encoders: list[FastEncoder] = []
        self._seats: list[int] = []
        self._obs: list[bytes] = []
        self._masks: list[bytes] = []
        self.deals_finished = 0
        self._mask: Int8s = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)

    # -- dealing -------------------------------------------------------------------------
    def _new_deal(self) -> Deal:
        if not self._pool:
            self._refill()
        first, second, third, t0, t1, dealer = self._pool.pop()
        cfg = self.config
        n = cfg.players
        hands = [0] * seat_count(n)  # гусарик: the dummy's hand too
        for s, h in zip(active_seats(dealer, n), (first, second, third), strict=True):
            hands[s] = h
        return SelfPlayDeal(cfg.rules, hands, (t0, t1), dealer=dealer, players=n)

    def _refill(self, size: int = 1024) -> None:
        """Shuffle ``size`` decks at once: three hands of ten as masks, the talon, a dealer."""
        rng = self._np_rng
        decks = np.argsort(rng.random((size, 32)), axis=1)
        bits = np.left_shift(np.uint64(1), decks.astype(np.uint64))
        hands = [bits[:, 10 * k : 10 * k + 10].sum(axis=1).tolist() for k in range(3)]
        dealers = rng.integers(self.config.players, size=size).tolist()
        self._pool = list(zip(*hands, decks[:, 30].tolist(), decks[:, 31].tolist(), dealers, strict=True))

    def _start(self, i: int) -> None:
        deal = self._new_deal()
        enc = FastEncoder(deal)
        seat = deal.to_act
        assert seat is not None
        self.deals[i] = deal
        self._encoders[i] = enc
        self._seats[i] = seat
        self._obs[i] = enc.bits(seat).to_bytes(OBS_BYTES, "little")
        self._masks[i] = _mask_bytes(deal.legal_actions())

    def reset(self, seed: int | None = None) -> tuple[Int8s, Int8s, npt.NDArray[np.int64]]:
        """Deal every slot anew: ``(obs, mask, seat)``."""
        if seed is not None:
            self._np_rng = np.random.default_rng(seed)
        self._pool = []
        n = self.num_envs
        self.deals = [None] * n  # type: ignore[list-item]
        self._encoders = [None] * n  # type: ignore[list-item]
        self._seats = [0] * n
        self._obs = [b""] * n
        self._masks = [b""] * n
        for i in range(n):
            self._start(i)
        self._mask = self._mask_array()
        return self._obs_array(), self._mask.copy(), np.array(self._seats, dtype=np.int64)

    # -- stepping ------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Apply one action per slot (the acting seat's); auto-deal finished slots.

        Every action is checked against the last mask first: an illegal one
        raises :class:`~preferans.IllegalAction` naming its slot, and no slot moves.
        """
        n = self.num_envs
        if not self.deals:
            raise EnvError("call reset() before step()")
        arr = np.asarray(actions)
        if arr.shape != (n,) or arr.dtype.kind not in "iu":
            raise EnvError(f"actions: one integer per slot, shape ({n},), not {arr.shape} {arr.dtype}")
        self._check(arr)
        acts = arr.tolist()
        players = self.config.players
        rewards = np.zeros((n, players), dtype=np.float32)
        done = np.zeros(n, dtype=np.bool_)
        deals, encoders, seats, obs, masks = self.deals, self._encoders, self._seats, self._obs, self._masks
        rules, scale = self.config.rules, self.config.scale
        cache = _MASK_CACHE
        for i in range(n):
            deal = deals[i]
            a = acts[i]
            encoders[i].before(a)
            deal.apply(a)
            if deal._phase == OVER:
                r = deal_returns(deal.result, rules)
                rewards[i] = r if scale == 1.0 else [x / scale for x in r]
                done[i] = True
                self.deals_finished += 1
                self._start(i)
                continue
            seats[i] = seat = deal._to_act
            obs[i] = encoders[i].bits(seat).to_bytes(OBS_BYTES, "little")
            legal = deal.legal_actions()
            m = cache.get(legal)
            masks[i] = m if m is not None else _mask_bytes(legal)
        self._mask = self._mask_array()
        return BatchStep(self._obs_array(), self._mask.copy(), np.array(seats, dtype=np.int64), rewards, done)

    def _check(self, arr: npt.NDArray[Any]) -> None:
        bad = (arr < 0) | (arr >= NUM_ACTIONS)
        if not bad.any():
            bad = self._mask[np.arange(self.num_envs), arr] == 0
            if not bad.any():
                return
        i = int(np.flatnonzero(bad)[0])
        try:
            self.deals[i].verify(int(arr[i]))
        except PreferansError as e:
            raise IllegalAction(f"slot {i}: {e}") from None
        raise IllegalAction(f"slot {i}: action {int(arr[i])} is not legal")  # pragma: no cover

    # -- arrays --------------------------------------------------------------------------
    def _obs_array(self) -> npt.NDArray[np.int8]:
        raw = np.frombuffer(b"".join(self._obs), dtype=np.uint8).reshape(self.num_envs, OBS_BYTES)
        out: npt.NDArray[np.int8] = np.unpackbits(raw, axis=1, bitorder="little").view(np.int8)
        assert out.shape[1] == OBS_SIZE
        return out

    def _mask_array(self) -> npt.NDArray[np.int8]:
        raw = np.frombuffer(b"".join(self._masks), dtype=np.uint8).reshape(self.num_envs, _MASK_BYTES)
        bits = np.unpackbits(raw, axis=1, bitorder="little").view(np.int8)
        return np.ascontiguousarray(bits[:, :NUM_ACTIONS])

    def legal_actions(self, i: int) -> tuple[Action, ...]:
        """The legal actions in slot ``i`` (as :class:`Action`)."""
        return self.deals[i].legal_actions()
