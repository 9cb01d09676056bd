"""The judge provider's rate limit, shared by every process that uses one Redis.

A provider limits an API key to so many calls (and tokens) a minute, across
every process and machine that uses the key. :class:`RateLimit` keeps the whole
fleet under that limit: the call layer (:class:`~prin_guard.calls.JudgeCaller`) waits
in :meth:`RateLimit.acquire` before each judge attempt, reports the tokens the
call used in :meth:`RateLimit.record`, and reports a provider's "slow down" (a
:class:`~prin_guard.errors.TransientJudgeError` with a Retry-After) in
:meth:`RateLimit.back_off`, which makes every process wait, not just the one that
was told.

- Calls: a moving window (``limits``' ``MovingWindowRateLimiter``): no more than
  N calls start in any window, wherever they start. A caller waits, never fails,
  until a slot is free.
- Tokens: a fixed window counter (``FixedWindowRateLimiter``). Tokens are known
  only once a call returns, so a call starts while the window has tokens left and
  its tokens are counted when it returns: calls in flight may overshoot the
  window by their own tokens.
- Cooldown: ``prin_guard:ratelimit:<name>:cooldown``, a key whose time to live
  is the back-off still to wait (so clocks need not agree for it; the windows
  use each process's clock, as ``limits`` does, so keep machines on NTP).

With ``redis_url`` all three live in Redis and are shared by every process that
uses the same ``name`` there; without, in this process's memory. In a process,
one waiter at a time polls the window (the others queue behind it), so a full
window costs one Redis call per freed slot, not one per waiter. When Redis
cannot be reached the limit fails open (the call goes ahead) and
``rate_limit_unavailable`` is logged at most every 30 seconds, as the cache does.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from prin_guard._infra._events import bounded, log
from prin_guard.errors import TransientJudgeError, UsageError
from prin_guard.models import Usage

if TYPE_CHECKING:
    from limits import RateLimitItem

__all__ = ["RateLimit", "provider_limit"]

T = TypeVar("T")

_PREFIX: Final = "prin_guard:ratelimit"
_NAME_RE: Final = re.compile(r"[^A-Za-z0-9_.:/@+-]")
_MIN_WAIT: Final = 0.002  # a slot "free now" is free a moment later: never spin
_WARN_INTERVAL: Final = 30.0
_ASYNC_SCHEMES: Final = {
    "redis://": "async+redis://",
    "rediss://": "async+rediss://",
    "unix://": "async+redis+unix://",
}
# cooldown = max(cooldown, new): set the key only if it would live longer
_COOLDOWN_LUA: Final = """
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
    redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
"""


def _parse(field: str, spec: str | None) -> RateLimitItem | None:
    if spec is None:
        return None
    from limits import parse

    try:
        return parse(spec)
    except (ValueError, TypeError):
        raise UsageError(
            f"{field}: {spec!r} is not a rate; write it as '500/minute', '10/second' "
            "or '100000 per hour'"
        ) from None


def provider_limit(
    calls: str | None, tokens: str | None, *, cache: str | None, judge: str
) -> RateLimit | None:
    """The judge provider's limit a surface's settings ask for (``None``: no limit),
    shared through the cache when the cache is a Redis URL, named after the judge."""
    if calls is None and tokens is None:
        return None
    shared = cache if cache is not None and cache.startswith(tuple(_ASYNC_SCHEMES)) else None
    return RateLimit(calls, tokens=tokens, redis_url=shared, name=judge)


class RateLimit:
    """At most ``calls`` judge calls (and ``tokens`` tokens) per window, shared.

    ``calls`` and ``tokens`` are rates such as ``"500/minute"`` (any string
    ``limits.parse`` reads); either may be ``None``. ``redis_url``
    (``redis://``, ``rediss://``, ``unix://``) shares the limit with every
    process that uses the same ``name`` in that Redis; without it the limit is
    this process's. ``sleep`` is injectable so tests need not wait.

    ``waited`` is the total of seconds callers spent waiting here,
    ``back_offs`` how many provider back-offs this process reported.
    """

    def __init__(
        self,
        calls: str | None = None,
        *,
        tokens: str | None = None,
        redis_url: str | None = None,
        name: str = "judge",
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.calls = _parse("rate_limit", calls)
        self.tokens = _parse("token_limit", tokens)
        if self.calls is None and self.tokens is None:
            raise UsageError("rate_limit: give a rate of calls, of tokens, or both")
        if not isinstance(name, str) or not name:
            raise UsageError("name: must be a non-empty string (the judge's, say)")
        if redis_url is not None and not redis_url.startswith(tuple(_ASYNC_SCHEMES)):
            raise UsageError("redis_url: must be a redis://, rediss:// or unix:// URL")
        self.name = _NAME_RE.sub("_", name)[:200]  # a Redis key part: plain characters
        self.redis_url = redis_url
        self._spec = (calls, tokens)
        self._sleep = sleep
        self._backends: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Backend] = (
            weakref.WeakKeyDictionary()
        )
        self._memory: _Backend | None = None
        self._last_warning: float | None = None
        self.waited = 0.0
        self.back_offs = 0

    def __repr__(self) -> str:
        calls, tokens = self._spec
        where = "redis" if self.redis_url else "memory"
        return f"RateLimit(calls={calls!r}, tokens={tokens!r}, name={self.name!r}, {where})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent to other processes (Ray actors) as its configuration, not its connections.
        calls, tokens = self._spec
        return (_rebuild, (calls, tokens, self.redis_url, self.name))

    @property
    def shared(self) -> bool:
        """Whether the limit lives in Redis (shared) rather than in this process."""
        return self.redis_url is not None

    # -- the call layer's three calls ----------------------------------------------

    async def acquire(self) -> float:
        """Wait until a call may start (a slot in the window, tokens left, no
        cooldown) and take its slot; returns the seconds waited."""
        backend = self._backend()
        started = time.monotonic()
        async with backend.lock:
            while True:
                wait = await self._guarded(backend.wait_or_take, 0.0)
                if wait <= 0:
                    break
                log().debug("rate_limit_wait", name=self.name, seconds=round(wait, 4))
                await self._sleep(wait)
        waited = time.monotonic() - started
        self.waited += waited
        return waited

    async def watch(self, call: Awaitable[T]) -> T:
        """Await one judge call (its slot already taken with :meth:`acquire`): count its
        tokens when it returns, and share the provider's back-off when it raises a
        :class:`~prin_guard.errors.TransientJudgeError` with a Retry-After."""
        try:
            result = await call
        except TransientJudgeError as exc:
            if exc.retry_after is not None:
                await self.back_off(exc.retry_after)
            raise
        usage = getattr(result, "usage", None)
        await self.record(usage if isinstance(usage, Usage) else None)
        return result

    async def record(self, usage: Usage | None) -> None:
        """Count the tokens a finished call used (nothing without a token limit)."""
        if self.tokens is None or usage is None:
            return
        used = (usage.prompt_tokens or 0) + (usage.completion_tokens or 0)
        if used > 0:
            await self._guarded(lambda: self._backend().count_tokens(used), None)

    async def back_off(self, seconds: float) -> None:
        """The provider asked to wait ``seconds``: every process sharing this limit waits."""
        if not math.isfinite(seconds) or seconds <= 0:
            return
        self.back_offs += 1
        log().info("rate_limit_back_off", name=self.name, seconds=round(seconds, 3))
        await self._guarded(lambda: self._backend().cool_down(seconds), None)

    async def cooldown(self) -> float:
        """Seconds every caller must still wait because of a provider's back-off."""
        left: float = await self._guarded(self._backend().cooldown_left, 0.0)
        return left

    async def aclose(self) -> None:
        """Close this loop's Redis connections (a memory limit has none)."""
        backend = self._backends.pop(asyncio.get_running_loop(), None)
        if backend is not None:
            await backend.aclose()

    # -- internals -------------------------------------------------------------------

    def _backend(self) -> _Backend:
        if self.redis_url is None:
            if self._memory is None:
                self._memory = _MemoryBackend(self)
            if self._memory.lock_loop is not asyncio.get_running_loop():
                self._memory.new_lock()
            return self._memory
        loop = asyncio.get_running_loop()
        backend = self._backends.get(loop)
        if backend is None:  # redis-py connections belong to one event loop
            backend = self._backends[loop] = _RedisBackend(self, self.redis_url)
        return backend

    async def _guarded(self, action: Callable[[], Awaitable[Any]], default: Any) -> Any:
        from redis.exceptions import RedisError

        try:
            return await action()
        except (RedisError, OSError) as exc:  # fail open, like the cache
            now = time.monotonic()
            if self._last_warning is None or now - self._last_warning >= _WARN_INTERVAL:
                self._last_warning = now
                log().warning(
                    "rate_limit_unavailable",
                    name=self.name,
                    error=bounded(f"{type(exc).__name__}: {exc}"),
                )
            return default


def _rebuild(calls: str | None, tokens: str | None, redis_url: str | None, name: str) -> RateLimit:
    return RateLimit(calls, tokens=tokens, redis_url=redis_url, name=name)


class _Backend:
    """Where one RateLimit's windows and cooldown live, for one event loop."""

    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self.lock_loop: asyncio.AbstractEventLoop | None = None
        self.lock = asyncio.Lock()

    def new_lock(self) -> None:
        self.lock_loop = asyncio.get_running_loop()
        self.lock = asyncio.Lock()

    async def wait_or_take(self) -> float:
        """0 after taking a call's slot; otherwise the seconds to wait before trying again."""
        cooling = await self.cooldown_left()
        if cooling > 0:
            return max(cooling, _MIN_WAIT)
        tokens, calls, name = self.limit.tokens, self.limit.calls, self.limit.name
        if tokens is not None:
            reset, remaining = await self.stats(tokens, name, moving=False)
            if remaining <= 0:
                return max(reset - time.time(), _MIN_WAIT)
        if calls is None or await self.hit(calls, name):
            return 0.0
        reset, _ = await self.stats(calls, name, moving=True)
        return max(reset - time.time(), _MIN_WAIT)

    async def hit(self, item: RateLimitItem, name: str) -> bool:
        raise NotImplementedError

    async def stats(self, item: RateLimitItem, name: str, *, moving: bool) -> tuple[float, int]:
        raise NotImplementedError

    async def count_tokens(self, used: int) -> None:
        raise NotImplementedError

    async def cool_down(self, seconds: float) -> None:
        raise NotImplementedError

    async def cooldown_left(self) -> float:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None


class _MemoryBackend(_Backend):
    """This process only: limits' in-memory storage (thread-safe, not loop-bound)."""

    def __init__(self, limit: RateLimit) -> None:
        super().__init__(limit)
        from limits.storage import MemoryStorage
        from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

        storage = MemoryStorage()
        self.moving = MovingWindowRateLimiter(storage)
        self.fixed = FixedWindowRateLimiter(storage)
        self.cool_until = 0.0

    async def hit(self, item: RateLimitItem, name: str) -> bool:
        return self.moving.hit(item, _PREFIX, name)

    async def stats(self, item: RateLimitItem, name: str, *, moving: bool) -> tuple[float, int]:
        stats = (self.moving if moving else self.fixed).get_window_stats(item, _PREFIX, name)
        return stats.reset_time, stats.remaining

    async def count_tokens(self, used: int) -> None:
        assert self.limit.tokens is not None
        self.fixed.hit(self.limit.tokens, _PREFIX, self.limit.name, cost=used)

    async def cool_down(self, seconds: float) -> None:
        self.cool_until = max(self.cool_until, time.monotonic() + seconds)

    async def cooldown_left(self) -> float:
        return max(self.cool_until - time.monotonic(), 0.0)


class _RedisBackend(_Backend):
    """Shared through Redis: limits' Redis storage and one cooldown key."""

    def __init__(self, limit: RateLimit, url: str) -> None:
        super().__init__(limit)
        self.new_lock()
        import redis.asyncio as aioredis
        from limits.aio.storage import RedisStorage
        from limits.aio.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

        scheme = next(s for s in _ASYNC_SCHEMES if url.startswith(s))
        self.storage = RedisStorage(
            _ASYNC_SCHEMES[scheme] + url.removeprefix(scheme),
            implementation="redispy",
            key_prefix=_PREFIX,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
        )
        self.moving = MovingWindowRateLimiter(self.storage)
        self.fixed = FixedWindowRateLimiter(self.storage)
        self.client = aioredis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.cooldown_key = f"{_PREFIX}:{limit.name}:cooldown"

    async def hit(self, item: RateLimitItem, name: str) -> bool:
        return await self.moving.hit(item, name)

    async def stats(self, item: RateLimitItem, name: str, *, moving: bool) -> tuple[float, int]:
        stats = await (self.moving if moving else self.fixed).get_window_stats(item, name)
        return stats.reset_time, stats.remaining

    async def count_tokens(self, used: int) -> None:
        assert self.limit.tokens is not None
        await self.fixed.hit(self.limit.tokens, self.limit.name, cost=used)

    async def cool_down(self, seconds: float) -> None:
        await self.client.eval(_COOLDOWN_LUA, 1, self.cooldown_key, math.ceil(seconds * 1000))

    async def cooldown_left(self) -> float:
        left = await self.client.pttl(self.cooldown_key)
        return max(int(left), 0) / 1000

    async def aclose(self) -> None:
        await self.client.aclose()
        connection: Any = getattr(self.storage.bridge, "storage", None)  # limits' client
        if connection is not None:
            await connection.aclose()
