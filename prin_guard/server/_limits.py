"""Per-API-key rate limits and daily spend budgets, shared by every worker through Redis.

A key is known here only by :func:`key_identity`, a SHA-256 prefix of it: the key
itself is never stored, logged or sent to Redis. Without auth (``allow_no_auth``)
every request shares one identity, ``anonymous``.

``rate_limit`` (``"60/minute"``, any string :func:`limits.parse` reads) is a
moving window from the ``limits`` library; each *item* counts one hit, so a batch
of 10 costs 10 (and a batch bigger than the limit can never pass).

``daily_budget_usd`` is the USD a key may spend on the judge per UTC day. A request
*reserves* the most it can cost before any judge call is made, and is refused (429
``budget_exhausted``) when what the key has spent plus what its requests in flight
reserved plus this reservation would pass the budget; so concurrent requests cannot
all slip under a budget that none of them has used yet. The reservation is sized from
the request's own options: the most judge calls each item can cost
(:meth:`~prin_guard.Guard.max_judge_calls_for` the item's task: the direct and reverse
legs, both again with the ``order`` check, on by default for pairs, every probe round's
follow-ups, for every panel member and every tier) times the price of one call:

- with ``estimated_cost_usd`` (the operator's price of one verdict asked with the
  configured options): that price over the fewest calls an item can cost with the
  configured options (a choice item's, two legs by default; a pair, which asks four,
  then reserves twice the price). Set it
  (a little above the judge's real cost per verdict) for a hard cap: spending then
  passes the budget only by what calls cost beyond their estimate, whatever options a
  request sets;
- else the key's mean cost per judge call today; a key without one yet reserves all
  that is left of its budget, so its first request of the day runs alone, and the next
  ones are priced from it.

When the request is done, the reservation is settled: replaced by its actual cost, the
``usage.cost_usd`` of the judge calls made for it, as the judge reported them (an answer
from the cache costs nothing; a call that failed costs nothing). A call whose cost the
judge did not report (or reported as a figure that cannot be, see ``prin_guard._route._usage``)
is charged what the request reserved for one call (:attr:`Reservation.per_call`: the
estimate's share; without ``estimated_cost_usd``, the key's mean, or for the key's first
request the rest of its budget over the calls it may make, so a judge that never reports a
cost spends a key's budget in its first request of the day), never 0; the service warns
once per judge (``judge_cost_unknown``). Such calls teach the key's mean nothing.
Verdicts the request did not get (it timed out, or its client left) are charged their
reservation on top: their judge calls had started (without ``estimated_cost_usd``, a key
whose first request of the day times out has so spent its budget for the day). A refusal because of
reservations says ``Retry-After: 1`` (they settle soon); a refusal because of spending,
the seconds to the next UTC midnight. Which of them, and how much a request reserves, is
decided in one place, :func:`reserve`, for both stores.

With ``redis_url`` both live in Redis (``prin_guard:<namespace>:rate:...``, and the
hash ``prin_guard:<namespace>:budget:<identity>:<YYYY-MM-DD>`` with ``spent``,
``reserved``, ``calls`` and ``calls_cost``, kept two days), so every worker shares
them. A reservation is taken atomically: the hash is read under WATCH, :func:`reserve`
decides, and the reservation is written in MULTI only if nobody wrote the hash
meanwhile (else it is read again); a refusal writes nothing. A worker that dies with
reservations out leaves them reserved until the day ends (charged, as started work
is). Otherwise they live in this worker's memory.

When Redis fails, the limits fail open: the request is served without them. After a
failure Redis is left alone for a cool-down (:data:`COOLDOWN`), during which requests
fail open at once; then one request tries it again while the others still fail open,
so a Redis that hangs (every call waiting out its timeout) holds up one request per
cool-down, not every request. ``limits_unavailable`` is logged at most every
:data:`WARN_INTERVAL` seconds with the number of requests that failed open since the
last line, and ``limits_available`` once Redis answers again, as the cache does.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeVar

from redis.exceptions import RedisError, WatchError

from prin_guard.server._config import ServerConfig
from prin_guard.server._logs import event

if TYPE_CHECKING:
    from limits import RateLimitItem
    from limits.aio.storage import Storage
    from limits.aio.strategies import MovingWindowRateLimiter
    from redis.asyncio import Redis

__all__ = ["COOLDOWN", "WARN_INTERVAL", "Limits", "Refusal", "Reservation", "key_identity"]

T = TypeVar("T")

COOLDOWN: Final = 1.0
"""Seconds Redis is left alone after a failure (the limits fail open meanwhile)."""
WARN_INTERVAL: Final = 30.0
"""At most one ``limits_unavailable`` warning per this many seconds."""

_BUDGET_TTL: Final = 2 * 24 * 3600
_RESERVE_TRIES: Final = 32
_REDIS_TIMEOUT: Final = 2.0
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


@dataclass(frozen=True, slots=True)
class Reservation:
    """What a request reserved of its key's daily budget, to settle when it is done."""

    account: str | None
    """The account (the key's day) it was taken from; ``None``: nothing was reserved
    (no budget, or Redis was down and the budget failed open)."""
    usd: float
    items: int
    calls: int = 0
    """The most judge calls it was sized for."""

    @property
    def per_item(self) -> float:
        return self.usd / self.items if self.items else 0.0

    @property
    def per_call(self) -> float:
        """The price it reserved for one judge call: what a call of unknown cost is
        charged (``estimated_cost_usd``'s share, the key's mean, or for a key's first
        request the rest of its budget over the calls it may make)."""
        return self.usd / self.calls if self.calls else 0.0


NO_RESERVATION: Final = Reservation(None, 0.0, 0)


@dataclass(frozen=True, slots=True)
class Charge:
    """What a finished request cost: its actual cost, and what the mean learns from."""

    usd: float
    """Everything to charge: actual costs, and the reservation of verdicts not received."""
    calls: int = 0
    """Judge calls made for the request whose cost the judge reported."""
    calls_usd: float = 0.0
    """Their cost."""


def key_identity(key: str | None) -> str:
    """The identity limits count under: a SHA-256 hex prefix of the key, never the key."""
    if key is None:
        return "anonymous"
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def _seconds_to_utc_midnight(now: dt.datetime) -> int:
    tomorrow = (now + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, math.ceil((tomorrow - now).total_seconds()))


@dataclass(slots=True)
class _Account:
    """One key's spending on one UTC day."""

    spent: float = 0.0
    reserved: float = 0.0
    calls: int = 0
    calls_cost: float = 0.0

    @classmethod
    def read(cls, fields: Mapping[Any, Any]) -> _Account:
        def number(name: str) -> float:
            value = fields.get(name, fields.get(name.encode()))
            return float(value) if value is not None else 0.0

        return cls(number("spent"), number("reserved"), int(number("calls")), number("calls_cost"))


def reserve(
    account: _Account, calls: int, budget: float, per_call: float | None
) -> tuple[float, Literal["spent", "reserved", "too_big"] | None]:
    """How much a request that can make ``calls`` judge calls reserves, or why it is
    refused: the one rule.

    ``per_call`` is the configured price of one call, ``None`` to learn it from the
    account (its mean cost per judge call; none yet: the rest of the budget, taken only
    when nothing else is reserved).
    """
    reserved = max(account.reserved, 0.0)
    if account.spent >= budget:
        return 0.0, "spent"
    if per_call is not None:
        need = calls * per_call
    elif account.calls > 0:
        need = calls * account.calls_cost / account.calls
    elif reserved > 0:
        return 0.0, "reserved"  # the key's first request is still out: its cost is unknown
    else:
        need = budget - account.spent
    if account.spent + reserved + need > budget * (1 + 1e-9):
        return 0.0, "reserved" if reserved > 0 else "too_big"
    return need, None


class _Outage:
    """Redis failures of the limits: the cool-down, the one probe, the throttled warning."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._until: float | None = None
        self._probing = False
        self._last_warning: float | None = None
        self._failed_open = 0

    def skip(self) -> bool:
        """True to fail open at once: cooling down, or another request is probing."""
        if self._until is None:
            return False
        if self._probing or self._clock() < self._until:
            self._failed_open += 1
            return True
        self._probing = True  # this caller tries Redis; the others keep failing open
        return False

    def failed(self, exc: BaseException) -> None:
        now = self._clock()
        self._until = now + COOLDOWN
        self._probing = False
        self._failed_open += 1
        if self._last_warning is None or now - self._last_warning >= WARN_INTERVAL:
            event(
                "warning",
                "limits_unavailable",
                error_type=type(exc).__name__,
                failed_open=self._failed_open,
                cooldown_s=COOLDOWN,
            )
            self._last_warning = now
            self._failed_open = 0

    def succeeded(self) -> None:
        if self._until is not None:
            self._until = None
            self._probing = False
            event("info", "limits_available", failed_open=self._failed_open)
            self._failed_open = 0

    async def guarded(self, action: Callable[[], Awaitable[T]], default: T) -> T:
        """``action()``, or ``default`` when Redis is skipped or fails (fail open)."""
        if self.skip():
            return default
        try:
            result = await action()
        except _UNAVAILABLE as exc:
            self.failed(exc)
            return default
        except BaseException:
            self._probing = False  # cancelled mid-probe: let the next request probe
            raise
        self.succeeded()
        return result


class Limits:
    """The configured limits of one worker; both off (no storage at all) by default."""

    def __init__(
        self, config: ServerConfig, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate: RateLimitItem | None = None
        if config.rate_limit is not None:
            from limits import parse  # imported only when a rate is set

            self.rate = parse(config.rate_limit)
        self.budget = config.daily_budget_usd
        self.estimate = config.estimated_cost_usd
        self.configured_calls = 1
        """The most judge calls an item asked with the configured options can cost (set
        by the server once its judges are built): ``estimated_cost_usd`` is their price."""
        self._config = config
        self._prefix = f"prin_guard:{config.redis_namespace}"
        self._limiter: MovingWindowRateLimiter | None = None
        self._storage: Storage | None = None
        self._redis: Redis | None = None
        self._accounts: dict[str, _Account] = {}
        self._outage = _Outage(clock)

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
                    socket_timeout=_REDIS_TIMEOUT,
                    socket_connect_timeout=_REDIS_TIMEOUT,
                )
            self._storage = storage
            self._limiter = MovingWindowRateLimiter(storage)
        if self.budget is not None and url is not None:
            from redis.asyncio import Redis

            self._redis = Redis.from_url(
                url, socket_timeout=_REDIS_TIMEOUT, socket_connect_timeout=_REDIS_TIMEOUT
            )

    async def stop(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()

    async def admit(self, identity: str, items: int, calls: int) -> Refusal | Reservation:
        """Reserve the budget of a request of ``items`` items that can make ``calls`` judge
        calls and count its rate, or say why it is refused (nothing is then reserved)."""
        reservation = NO_RESERVATION
        if self.budget is not None:
            now = dt.datetime.now(dt.UTC)
            account = f"{self._prefix}:budget:{identity}:{now.date().isoformat()}"
            refused = await self._reserve(account, items, calls)
            if isinstance(refused, Reservation):
                reservation = refused
            else:
                return self._budget_refusal(refused, items, now)
        limiter, rate = self._limiter, self.rate
        if rate is None or limiter is None:
            return reservation

        async def hit() -> Refusal | None:
            assert rate is not None
            assert limiter is not None
            if await limiter.hit(rate, identity, cost=items):
                return None
            stats = await limiter.get_window_stats(rate, identity)
            return Refusal(
                "rate_limited",
                f"this API key is over its rate limit of {rate} "
                "(rate_limit, PRIN_GUARD_RATE_LIMIT); a batch counts one per item",
                max(1, math.ceil(stats.reset_time - time.time())),
            )

        try:
            limited = await self._outage.guarded(hit, None)
        except Exception:
            await self.settle(reservation, Charge(0.0))  # nothing was judged: release it
            raise
        if limited is not None:
            await self.settle(reservation, Charge(0.0))
            return limited
        return reservation

    async def settle(self, reservation: Reservation, charge: Charge) -> None:
        """Replace ``reservation`` by what the request cost."""
        name = reservation.account
        if name is None:
            return
        if self._redis is None:
            account = self._accounts.setdefault(name, _Account())
            account.reserved -= reservation.usd
            account.spent += charge.usd
            account.calls += charge.calls
            account.calls_cost += charge.calls_usd
            return
        redis = self._redis

        async def write() -> None:
            async with redis.pipeline(transaction=True) as pipe:
                pipe.hincrbyfloat(name, "reserved", -reservation.usd)
                pipe.hincrbyfloat(name, "spent", charge.usd)
                if charge.calls:
                    pipe.hincrby(name, "calls", charge.calls)
                    pipe.hincrbyfloat(name, "calls_cost", charge.calls_usd)
                pipe.expire(name, _BUDGET_TTL)
                await pipe.execute()

        await self._outage.guarded(write, None)

    # -- the budget --------------------------------------------------------------------

    @property
    def per_call(self) -> float | None:
        """The configured price of one judge call; ``None``: learned per key."""
        return None if self.estimate is None else self.estimate / self.configured_calls

    async def _reserve(
        self, name: str, items: int, calls: int
    ) -> Reservation | Literal["spent", "reserved", "too_big"]:
        assert self.budget is not None
        budget, per_call = self.budget, self.per_call
        if self._redis is None:
            day = name.rsplit(":", 1)[1]
            for old in [key for key in self._accounts if not key.endswith(day)]:
                del self._accounts[old]
            account = self._accounts.setdefault(name, _Account())
            need, refused = reserve(account, calls, budget, per_call)
            if refused is not None:
                return refused
            account.reserved += need
            return Reservation(name, need, items, calls)
        redis = self._redis

        async def take() -> Reservation | Literal["spent", "reserved", "too_big"]:
            # Optimistic: read the account under WATCH, decide here, write only if
            # nobody wrote it meanwhile (else read again). A refusal writes nothing.
            async with redis.pipeline(transaction=True) as pipe:
                for _ in range(_RESERVE_TRIES):
                    try:
                        await pipe.watch(name)
                        account = _Account.read(await pipe.hgetall(name))
                        need, refused = reserve(account, calls, budget, per_call)
                        if refused is not None:
                            await pipe.unwatch()  # type: ignore[no-untyped-call]
                            return refused
                        pipe.multi()  # type: ignore[no-untyped-call]
                        pipe.hincrbyfloat(name, "reserved", need)
                        pipe.expire(name, _BUDGET_TTL)
                        await pipe.execute()
                        return Reservation(name, need, items, calls)
                    except WatchError:
                        await pipe.reset()  # type: ignore[no-untyped-call]
                        await asyncio.sleep(0)
            return "reserved"  # the account never stood still: as if reserved by others

        return await self._outage.guarded(take, NO_RESERVATION)

    def _budget_refusal(
        self, why: Literal["spent", "reserved", "too_big"], items: int, now: dt.datetime
    ) -> Refusal:
        budget = (
            f"daily budget of {self.budget:g} USD (daily_budget_usd, PRIN_GUARD_DAILY_BUDGET_USD)"
        )
        if why == "reserved":
            return Refusal(
                "budget_exhausted",
                f"this API key's requests in flight have reserved what is left of its {budget}; "
                "retry when they are done",
                1,
            )
        if why == "too_big":
            return Refusal(
                "budget_exhausted",
                f"the most these {items} items can cost with these options is more than is "
                f"left of this API key's {budget}: send fewer items, options that ask fewer "
                "judge calls (checks, probe), or wait for midnight UTC",
                _seconds_to_utc_midnight(now),
            )
        return Refusal(
            "budget_exhausted",
            f"this API key has spent its {budget}; it resets at midnight UTC",
            _seconds_to_utc_midnight(now),
        )
