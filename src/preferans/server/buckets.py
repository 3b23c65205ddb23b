"""Token buckets kept per key (an address, a table) in bounded memory.

A bucket holds up to ``burst`` tokens and refills at ``rate`` a second; each allowed request
takes one.  The buckets live in a :class:`cachetools.TTLCache`: a bucket left alone for as long
as it takes to refill is dropped — it would be full again, so forgetting it changes nothing —
and when ``maxsize`` keys are busy at once the one used longest ago is dropped, never all of
them (issue 25: the old dictionaries were emptied at 10,000 addresses, so a flood from many
addresses lifted every address's limit).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import TTLCache

__all__ = ["MAX_KEYS", "Buckets", "refilled"]

MAX_KEYS = 100_000
"""Keys a :class:`Buckets` remembers at once (about 200 bytes each)."""


def refilled(tokens: float, last: float, now: float, rate: float, burst: float) -> float:
    """A bucket's tokens at ``now``: ``tokens`` counted at ``last``, refilled at ``rate`` a
    second, never above ``burst`` (nor less for a clock that went back).

    >>> refilled(0.0, 10.0, 40.0, 1 / 60, 10.0), refilled(3.0, 0.0, 1e9, 1.0, 10.0)
    (0.5, 10.0)
    """
    return min(burst, tokens + max(0.0, now - last) * rate)


class Buckets:
    """Per-key token buckets: ``rate`` a second, bursts of ``burst``, at most ``maxsize`` keys.

    >>> now = [0.0]
    >>> b = Buckets(rate=1, burst=2, maxsize=2, clock=lambda: now[0])
    >>> [b.take("a") for _ in range(3)], b.take("b")
    ([True, True, False], True)
    >>> now[0] = 1.0; b.take("a"), b.take("a")  # a second later: one token back
    (True, False)
    >>> _ = b.take("c")  # a third key: the one used longest ago ("b") is forgotten, "a" is not
    >>> b.tokens("a"), b.tokens("b")
    (0.0, 2)
    """

    __slots__ = ("_buckets", "burst", "clock", "rate")

    def __init__(self, rate: float, burst: float, *, maxsize: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.rate, self.burst, self.clock = rate, burst, clock
        refill = burst / rate if rate > 0 else 1.0
        # (tokens, when): a bucket untouched for ``refill`` seconds is full, so it may expire then.
        self._buckets: TTLCache[str, tuple[float, float]] = TTLCache(maxsize, refill, timer=clock)

    def tokens(self, key: str) -> float:
        """The tokens ``key`` has now (``burst`` for a key not seen lately)."""
        now = self.clock()
        tokens, last = self._buckets.get(key, (self.burst, now))
        return refilled(tokens, last, now, self.rate, self.burst)

    def take(self, key: str, *, allowed: bool = True) -> bool:
        """Take a token from ``key``'s bucket; ``False`` (nothing taken) when it is empty or
        ``allowed`` is false (another limit refused the request: the bucket still refills)."""
        if self.rate <= 0:
            return allowed
        tokens = self.tokens(key)
        ok = allowed and tokens >= 1
        self._buckets[key] = (tokens - 1 if ok else tokens, self.clock())
        return ok

    def __len__(self) -> int:
        return len(self._buckets)
