"""Per-API-key rate limits and daily spend budgets, shared by every worker through Redis.

A key is known here only by :func:`key_identity`, a SHA-256 prefix of it: the key
itself is never stored, logged or sent to Redis. Without auth (``allow_no_auth``)
every request shares one identity, ``anonymous``.

``rate_limit`` (``"60/minute"``, any string :func:`limits.parse` reads) is a
moving window from the ``limits`` library; each *item* counts one hit, so a batch
of 10 costs 10 (and a batch bigger than the limit can never pass). ``daily_budget_usd``
is the USD a key may spend per UTC day: after each verdict its
``usage.cost_usd`` (when the judge reports one) is added to the key's counter for
the day. A request is refused only once the counter has reached the budget, so a
request already running when it does may overshoot the budget by its own cost.

With ``redis_url`` both live in Redis (``prin_guard:<namespace>:rate:...`` and
``prin_guard:<namespace>:budget:<identity>:<YYYY-MM-DD>``, with a 2-day TTL), so
every worker shares them; otherwise in this worker's memory. When Redis cannot
be reached the limits fail open (the request goes through; ``limits_unavailable``
is logged), as the cache does.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import time
from typing import TYPE_CHECKING, Final, NamedTuple

from redis.exceptions import RedisError

from prin_guard.server._config import ServerConfig
from prin_guard.server._logs import event

if TYPE_CHECKING:
    from limits import RateLimitItem
    from limits.aio.storage import Storage
    from limits.aio.strategies import MovingWindowRateLimiter
    from redis.asyncio import Redis

__all__ = ["Limits", "Refusal", "key_identity"]

_BUDGET_TTL: Final = 2 * 24 * 3600
# limits' Redis storage (redis-py, exceptions not wrapped) raises redis-py's errors
_UNAVAILABLE: Final = (RedisError, OSError)
_ASYNC_SCHEMES: Final = {
    "redis://": "async+redis://",
    "rediss://": "async+rediss://",
    "unix://": "async+redis+unix://",
}


class Refusal(NamedTuple):
    """Why a request is refused: ``rate_limited`` or ``budget_exhausted``."""

    kind: str
    message: str
    retry_after: int
    """Seconds until the client may try again (the ``Retry-After`` header)."""


def key_identity(key: str | None) -> str:
    """The identity limits count under: a SHA-256 hex prefix of the key, never the key."""
    if key is None:
        return "anonymous"
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def _seconds_to_utc_midnight(now: dt.datetime) -> int:
    tomorrow = (now + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, math.ceil((tomorrow - now).total_seconds()))


class Limits:
    """The configured limits of one worker; both off (no storage at all) by default."""

    def __init__(self, config: ServerConfig) -> None:
        self.rate: RateLimitItem | None = None
        if config.rate_limit is not None:
            from limits import parse  # imported only when a rate is set

            self.rate = parse(config.rate_limit)
        self.budget = config.daily_budget_usd
        self._config = config
        self._prefix = f"prin_guard:{config.redis_namespace}"
        self._limiter: MovingWindowRateLimiter | None = None
        self._storage: Storage | None = None
        self._redis: Redis | None = None
        self._spent: dict[tuple[str, str], float] = {}

    @property
    def enabled(self) -> bool:
        return self.rate is not None or self.budget is not None

    def start(self) -> None:
        """Build the storage (Redis when configured); no connection is made yet."""
        url = self._config.redis_url.get_secret_value() if self._config.redis_url else None
        if self.rate is not None:
            from limits.aio.storage import MemoryStorage, RedisStorage
            from limits.aio.strategies import MovingWindowRateLimiter

            storage: Storage
            if url is None:
                storage = MemoryStorage()
            else:
                scheme = next(s for s in _ASYNC_SCHEMES if url.startswith(s))
                storage = RedisStorage(
                    _ASYNC_SCHEMES[scheme] + url.removeprefix(scheme),
                    implementation="redispy",
                    key_prefix=f"{self._prefix}:rate",
                    socket_timeout=2.0,
                    socket_connect_timeout=2.0,
                )
            self._storage = storage
            self._limiter = MovingWindowRateLimiter(storage)
        if self.budget is not None and url is not None:
            from redis.asyncio import Redis

            self._redis = Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)

    async def stop(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()

    async def admit(self, identity: str, hits: int) -> Refusal | None:
        """Refuse a request of ``hits`` items when the key is over its budget or rate."""
        try:
            if self.budget is not None:
                now = dt.datetime.now(dt.UTC)
                spent = await self._spent_on(identity, now.date().isoformat())
                if spent >= self.budget:
                    return Refusal(
                        "budget_exhausted",
                        f"this API key has spent its daily budget of {self.budget:g} USD "
                        "(daily_budget_usd, PRIN_GUARD_DAILY_BUDGET_USD); it resets at "
                        "midnight UTC",
                        _seconds_to_utc_midnight(now),
                    )
            limiter, rate = self._limiter, self.rate
            if (
                rate is not None
                and limiter is not None
                and not await limiter.hit(rate, identity, cost=hits)
            ):
                stats = await limiter.get_window_stats(rate, identity)
                return Refusal(
                    "rate_limited",
                    f"this API key is over its rate limit of {rate} "
                    "(rate_limit, PRIN_GUARD_RATE_LIMIT); a batch counts one per item",
                    max(1, math.ceil(stats.reset_time - time.time())),
                )
        except _UNAVAILABLE as exc:  # Redis unreachable: fail open, like the cache
            event("warning", "limits_unavailable", error_type=type(exc).__name__)
        return None

    async def spend(self, identity: str, usd: float) -> None:
        """Add ``usd`` to the key's spending for the current UTC day."""
        if self.budget is None or usd <= 0:
            return
        day = dt.datetime.now(dt.UTC).date().isoformat()
        if self._redis is None:
            for old in [k for k in self._spent if k[1] != day]:
                del self._spent[old]
            self._spent[(identity, day)] = self._spent.get((identity, day), 0.0) + usd
            return
        name = f"{self._prefix}:budget:{identity}:{day}"
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.incrbyfloat(name, usd)
                pipe.expire(name, _BUDGET_TTL)
                await pipe.execute()
        except _UNAVAILABLE as exc:
            event("warning", "limits_unavailable", error_type=type(exc).__name__)

    async def _spent_on(self, identity: str, day: str) -> float:
        if self._redis is None:
            return self._spent.get((identity, day), 0.0)
        value = await self._redis.get(f"{self._prefix}:budget:{identity}:{day}")
        return float(value) if value is not None else 0.0
