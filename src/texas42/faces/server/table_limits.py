"""How many tables one client may create: a token bucket per client address.

A table costs a row, a log and, while it waits in the lobby, a line of the lobby's list; one
client creating hundreds a second would fill both. `CreationLimit` gives each address
``burst`` tables at once and ``rate`` a second after that; past it ``POST /api/tables``
answers 429 with the seconds to wait (``Retry-After``). The address is the one the server sees:
behind a proxy, the proxy's, unless uvicorn is told to trust its forwarded headers
(``docs/web.md``, "Behind a proxy").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from texas42.faces.server.messages import RateLimit

CLIENTS_KEPT = 10_000
"""Addresses whose buckets are kept; past it, the buckets that have filled up again are
dropped (they hold nothing a new bucket would not)."""


class CreationLimit:
    """Token buckets of table creations, one per client address."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, RateLimit] = {}

    def take(self, client: str) -> float:
        """0 when ``client`` may create a table now (one is counted); else the seconds until
        it may."""
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= CLIENTS_KEPT:
                self._forget_full()
            bucket = RateLimit(self.rate, self.burst)
            bucket.clock = self.clock
            bucket.stamp = self.clock()
            self.buckets[client] = bucket
        if bucket.allow():
            return 0.0
        return (1 - bucket.tokens) / self.rate if self.rate > 0 else math.inf

    def _forget_full(self) -> None:
        now = self.clock()
        for client, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[client]


def retry_after(seconds: float) -> str:
    """The ``Retry-After`` header's whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600)
