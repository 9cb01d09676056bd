"""A cache shared by every process and machine that can reach one Redis.

Why Redis: judge calls are slow and paid for, and a batch is often split over
workers; a shared cache means each leg is judged once however the work is
spread, and a re-run after a crash costs nothing for what was already judged.

The cache is *fail-open* by default: a cache is an optimisation, so Redis being
down, unreachable or slow must never cost a verdict. Every Redis failure turns
into a miss (reads) or a no-op (writes), one ``cache_unavailable`` warning is
logged at most every 30 seconds (not one per call, which would flood the logs of
a big batch), and the cache is used again as soon as Redis answers.

``prin_guard.cache`` imports this module, and with it redis-py, only when a
:class:`RedisCache` is asked for: ``import prin_guard`` stays light for the many users
who never share a cache. Below the cache: which errors count as Redis being
unavailable, and the checks of settings, keys and stored values at its edges.
"""

from __future__ import annotations

import asyncio
import math
import re
import secrets
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from types import TracebackType
from typing import Any, Final, Literal

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import (
    AuthenticationError,
    AuthorizationError,
    BusyLoadingError,
    RedisError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from prin_guard._infra._events import log
from prin_guard.cache._base import KEY_PREFIX
from prin_guard.errors import CacheError, UsageError

__all__ = ["RedisCache"]

DEFAULT_TTL: Final = timedelta(days=7)
"""Long enough to span a re-run, short enough that a stale judge doesn't linger."""

WARN_INTERVAL: Final = 30.0
"""At most one ``cache_unavailable`` warning per this many seconds."""

# Delete the lock only if it still holds our token, atomically: a holder whose
# lock expired must not delete the lock a second worker has taken since.
_RELEASE_LUA: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisCache:
    """The engine's cache in Redis, shared between processes, with cross-process single flight.

    Build it with :meth:`from_url` (``redis://``, ``rediss://`` for TLS,
    ``unix://``; user and password in the URL) or pass an existing
    ``redis.asyncio.Redis`` client.

    ``namespace`` (1-64 of ``A-Z a-z 0-9 _ . -``) separates users of one Redis:
    the engine's key ``prin_guard:v1:<sha256>`` is stored as
    ``prin_guard:v1:<namespace>:<sha256>``, so key names never hold prompt text.
    ``ttl`` (a timedelta or seconds; ``None`` for no expiry) bounds how long an
    answer lives. Values are the engine's JSON text, never pickled.

    ``cache_errors="warn"`` (the default) fails open, as the module docstring
    says; ``"raise"`` raises :class:`~prin_guard.errors.CacheError` from ``get_many`` and
    ``set_many`` instead, chained to the Redis error. The single-flight methods
    (:meth:`claim`, :meth:`release`, :meth:`wait`) always fail open: a lock only
    saves duplicate judge calls, it is never worth failing for.

    After a failure Redis is not tried again for ``cooldown`` seconds by the
    calls that fail open: they answer at once as if Redis were empty, rather
    than each waiting out a timeout while Redis is unreachable (with ``"raise"``
    every ``get_many``/``set_many`` still tries, and raises what it meets).
    :meth:`ping` always tries, and a success ends the cooldown. ``clock`` (a
    monotonic clock in seconds) is injectable for tests of the cooldown and of
    the warning's rate limit. The warning is logged in both modes.

    ``hits``, ``misses`` and ``errors`` count keys found, keys not found (also
    while Redis is down, since the engine sees a miss) and failed Redis calls;
    ``skipped`` counts calls answered without Redis during a cooldown.

    A redis-py connection belongs to the event loop it was opened in. A cache
    built by :meth:`from_url` opens a fresh pool when it finds itself on another
    loop (``asyncio.run`` once per batch works); a client passed in is used as
    it is, so use it from one loop (``Guard.check_many`` always runs on the
    guard's own loop).
    """

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        namespace: str = "default",
        ttl: timedelta | float | None = DEFAULT_TTL,
        cache_errors: Literal["warn", "raise"] = "warn",
        lock_ttl: float = 30.0,
        cooldown: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        close_client: bool = False,
    ) -> None:
        if not isinstance(client, aioredis.Redis):
            raise UsageError(
                f"client: expected a redis.asyncio.Redis client, got {type(client).__name__}"
            )
        self.namespace = _check_namespace(namespace)
        self.ttl_ms = _ttl_ms(ttl)
        if cache_errors not in ("warn", "raise"):
            raise UsageError(f"cache_errors: must be 'warn' or 'raise', got {cache_errors!r}")
        self.cache_errors: Literal["warn", "raise"] = cache_errors
        self.lock_ttl_ms = _positive_ms("lock_ttl", lock_ttl)
        if not _is_number(cooldown) or cooldown < 0:
            raise UsageError(
                f"cooldown: must be a non-negative number of seconds, got {cooldown!r}"
            )
        self.cooldown = float(cooldown)
        self._clock = clock
        self._client = client
        self._close_client = close_client
        self._factory: Callable[[], aioredis.Redis] | None = None
        self._loop: weakref.ref[asyncio.AbstractEventLoop] | None = None
        self._prefix = f"{KEY_PREFIX}:{self.namespace}:"
        self._tokens: dict[str, str] = {}
        self._down_until: float | None = None
        self._last_warning: float | None = None
        self._suppressed = 0
        self.hits = 0
        self.misses = 0
        self.errors = 0
        self.skipped = 0

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        namespace: str = "default",
        ttl: timedelta | float | None = DEFAULT_TTL,
        socket_timeout: float | None = 1.0,
        cache_errors: Literal["warn", "raise"] = "warn",
        lock_ttl: float = 30.0,
        cooldown: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        **redis_kwargs: Any,
    ) -> RedisCache:
        """A cache on a new client for ``url``; :meth:`aclose` closes it.

        ``socket_timeout`` also bounds connecting (unless ``socket_connect_timeout``
        is given): redis-py's default of 5 s would stall every call while Redis is
        unreachable. A failed command is retried once, at once, on a fresh
        connection, which is what a pooled connection needs after Redis restarted;
        redis-py's default of ten retries with backoff would hold a verdict for
        seconds while Redis is down. ``redis_kwargs`` go to
        ``redis.asyncio.Redis.from_url`` and override these defaults. No
        connection is opened until the first call.
        """
        if not isinstance(url, str) or not url:
            raise UsageError("url: expected a redis://, rediss:// or unix:// URL")
        options: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": socket_timeout,
            "retry": Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
            "decode_responses": False,
        }
        options.update(redis_kwargs)

        def factory() -> aioredis.Redis:
            return aioredis.Redis.from_url(url, **options)

        cache = cls(
            factory(),
            namespace=namespace,
            ttl=ttl,
            cache_errors=cache_errors,
            lock_ttl=lock_ttl,
            cooldown=cooldown,
            clock=clock,
            close_client=True,
        )
        cache._factory = factory
        return cache

    @property
    def lock_ttl(self) -> float:
        """Seconds a claim lasts before another caller may take the key over."""
        return self.lock_ttl_ms / 1000

    def __repr__(self) -> str:
        return f"RedisCache(namespace={self.namespace!r}, ttl_ms={self.ttl_ms!r})"

    # -- the Cache protocol -------------------------------------------------------

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        """The values of ``keys`` in order, ``None`` for a miss; one MGET round trip.

        A value that is not UTF-8 text (written by something else) is a miss;
        whether the text is a valid answer is for the engine to judge.
        """
        names = [self.key_name(key) for key in keys]
        if not names:
            return []
        if self._skip():
            self.misses += len(names)
            return [None] * len(names)
        try:
            raw = await self._redis().mget(names)
        except _FAILURES as exc:
            self._failed("get_many", exc, may_raise=True)
            self.misses += len(names)
            return [None] * len(names)
        self._succeeded()
        values = [_text(value) for value in raw]
        found = sum(value is not None for value in values)
        self.hits += found
        self.misses += len(values) - found
        return values

    async def set_many(self, entries: Mapping[str, str]) -> None:
        """Store every entry with the TTL in one pipelined round trip."""
        named = [(self.key_name(key), value) for key, value in entries.items()]
        for _, value in named:
            if not isinstance(value, str):
                raise TypeError(f"cache values are JSON text, got {type(value).__name__}")
        if not named or self._skip():
            return
        try:
            async with self._redis().pipeline(transaction=False) as pipe:
                for name, value in named:
                    if self.ttl_ms is None:
                        pipe.set(name, value)
                    elif self.ttl_ms % 1000 == 0:
                        pipe.set(name, value, ex=self.ttl_ms // 1000)
                    else:
                        pipe.set(name, value, px=self.ttl_ms)
                await pipe.execute()
        except _FAILURES as exc:
            self._failed("set_many", exc, may_raise=True)
            return
        self._succeeded()

    # -- single flight across processes ----------------------------------------------

    async def claim(self, key: str) -> bool:
        """Try to become the one caller that computes ``key``; True if we are.

        Sets the lock ``prin_guard:v1:<namespace>:lock:<sha256>`` only if absent,
        expiring after ``lock_ttl`` so that a holder that dies does not block the
        key for longer. True when Redis cannot be reached (just call the judge:
        a duplicate call is cheaper than a stall). One cache instance holds at
        most one claim per key; the engine shares identical calls in process.
        """
        lock = self.lock_name(key)
        if self._skip(lock_op=True):
            return True
        token = secrets.token_hex(16)
        try:
            acquired = await self._redis().set(lock, token, nx=True, px=self.lock_ttl_ms)
        except _FAILURES as exc:
            self._failed("claim", exc, may_raise=False)
            return True
        self._succeeded()
        if acquired:
            self._tokens[key] = token
            return True
        return False

    async def release(self, key: str) -> bool:
        """Drop our lock on ``key``; True if it was still ours and is now gone.

        Deletes only if the lock still holds our token (atomically, in Lua), so a
        holder whose lock expired cannot delete the lock another caller took
        since. Quiet when we hold no claim or Redis cannot be reached (the lock
        then expires by itself).
        """
        lock = self.lock_name(key)
        token = self._tokens.pop(key, None)
        if token is None or self._skip(lock_op=True):
            return False
        try:
            deleted = await self._redis().eval(_RELEASE_LUA, 1, lock, token)
        except _FAILURES as exc:
            self._failed("release", exc, may_raise=False)
            return False
        self._succeeded()
        return bool(deleted)

    async def wait(self, key: str, *, timeout: float, poll: float = 0.05) -> str | None:
        """Wait for another caller that claimed ``key`` to store its value.

        Returns the value once it appears. Returns ``None`` as soon as the lock is
        gone without a value (the holder died, or failed and released), when
        ``timeout`` seconds pass, or when Redis cannot be reached: the caller then
        claims the key itself or just calls the judge. Each poll reads the value
        and the lock in one atomic round trip, so a holder that stores and then
        releases is never mistaken for one that gave up.
        """
        name, lock = self.key_name(key), self.lock_name(key)
        if not _is_number(timeout) or timeout < 0:
            raise UsageError(f"timeout: must be a non-negative number of seconds, got {timeout!r}")
        if not _is_number(poll) or poll <= 0:
            raise UsageError(f"poll: must be a positive number of seconds, got {poll!r}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self._skip(lock_op=True):
                return None
            try:
                async with self._redis().pipeline(transaction=True) as pipe:
                    pipe.get(name)
                    pipe.exists(lock)
                    raw, locked = await pipe.execute()
            except _FAILURES as exc:
                self._failed("wait", exc, may_raise=False)
                return None
            self._succeeded()
            value = _text(raw)
            if value is not None:
                return value
            remaining = deadline - loop.time()
            if not locked or remaining <= 0:
                return None
            await asyncio.sleep(min(poll, remaining))

    # -- housekeeping ------------------------------------------------------------

    async def ping(self) -> bool:
        """Whether Redis answers now. Never raises; tries even during a cooldown,
        and a success ends the cooldown, so a health check doubles as a probe."""
        try:
            await self._redis().ping()
        except _FAILURES:
            return False
        self._succeeded()
        return True

    async def clear(self) -> int:
        """Delete every entry and lock of this namespace (SCAN, never KEYS); the count.

        Only this namespace: other namespaces in the same Redis are untouched.
        Raises :class:`~prin_guard.errors.CacheError` if Redis fails midway, whatever
        ``cache_errors`` says, since a half-done clear is worth knowing about.
        """
        client = self._redis()
        deleted = 0
        try:
            batch: list[bytes | str] = []
            async for name in client.scan_iter(match=f"{self._prefix}*", count=500):
                batch.append(name)
                if len(batch) >= 500:
                    deleted += await client.unlink(*batch)
                    batch = []
            if batch:
                deleted += await client.unlink(*batch)
        except _FAILURES as exc:
            raise CacheError(f"redis cache clear failed: {type(exc).__name__}: {exc}") from exc
        return deleted

    def stats(self) -> dict[str, int]:
        """The counters, for a metrics endpoint or a log line."""
        return {
            "hits": self.hits,
            "misses": self.misses,
            "errors": self.errors,
            "skipped": self.skipped,
        }

    async def aclose(self) -> None:
        """Close the client if this cache created it (a client passed in is the caller's)."""
        if not self._close_client:
            return
        bound = self._loop() if self._loop is not None else None
        if bound is not None and bound is not asyncio.get_running_loop():
            # Opened in another loop, which cannot be awaited from this one (and
            # is usually closed): drop the pool, whose sockets close when collected.
            self._client = self._factory() if self._factory is not None else self._client
            self._loop = None
            return
        await self._client.aclose()

    async def __aenter__(self) -> RedisCache:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- key names -------------------------------------------------------------------

    def key_name(self, key: str) -> str:
        """The Redis key of an engine key: the namespace goes after the version."""
        return f"{self._prefix}{_digest(key)}"

    def lock_name(self, key: str) -> str:
        """The Redis key of the single-flight lock for an engine key."""
        return f"{self._prefix}lock:{_digest(key)}"

    # -- internals ---------------------------------------------------------------------

    def _redis(self) -> aioredis.Redis:
        """The client for the running loop (see the class docstring on loops)."""
        if self._factory is not None:
            loop = asyncio.get_running_loop()
            previous = self._loop() if self._loop is not None else None
            if previous is not loop:
                if self._loop is not None:
                    # The old pool's connections belong to another (usually closed)
                    # loop and cannot be awaited from this one; it is dropped and its
                    # sockets are closed when collected.
                    self._client = self._factory()
                self._loop = weakref.ref(loop)
        return self._client

    def _skip(self, *, lock_op: bool = False) -> bool:
        """True while cooling down after a failure (fail-open calls only)."""
        if self._down_until is None or (self.cache_errors == "raise" and not lock_op):
            return False
        if self._clock() < self._down_until:
            self.skipped += 1
            return True
        return False

    def _failed(self, op: str, exc: BaseException, *, may_raise: bool) -> None:
        """Count, maybe warn, start a cooldown; raise CacheError if configured to."""
        self.errors += 1
        now = self._clock()
        self._down_until = now + self.cooldown
        if self._last_warning is None or now - self._last_warning >= WARN_INTERVAL:
            log().warning(
                "cache_unavailable",
                backend="redis",
                namespace=self.namespace,
                op=op,
                reason=_reason(exc),
                error=f"{type(exc).__name__}: {exc}",
                suppressed=self._suppressed,
            )
            self._last_warning = now
            self._suppressed = 0
        else:
            self._suppressed += 1
        if may_raise and self.cache_errors == "raise":
            raise CacheError(f"redis cache {op} failed: {type(exc).__name__}: {exc}") from exc

    def _succeeded(self) -> None:
        if self._down_until is not None:
            self._down_until = None
            log().info("cache_available", backend="redis", namespace=self.namespace)


# -- when Redis cannot be used ---------------------------------------------------------
# RedisCache fails open on exactly these errors (a miss, a no-op, a warning), so the
# list decides what a Redis outage can and cannot cost; the ``reason`` of a
# ``cache_unavailable`` warning sorts them for whoever reads the logs. Both go by
# exception type, never by message text, whose wording redis-py may change.
#
# RedisError covers the connection errors (ConnectionError and its subclasses
# BusyLoadingError, AuthenticationError, MaxConnectionsError), TimeoutError, and the
# server's refusals (OutOfMemoryError, ReadOnlyError, NoPermissionError); OSError covers
# sockets and TLS failing below redis-py; asyncio.TimeoutError is the builtin
# TimeoutError (an OSError) on Python 3.11+ and is listed for clarity.
_FAILURES: Final[tuple[type[BaseException], ...]] = (RedisError, OSError, asyncio.TimeoutError)


def _reason(exc: BaseException) -> str:
    """What kind of failure, by exception type, for the log (never by message text)."""
    if isinstance(exc, AuthenticationError | AuthorizationError):
        return "auth"
    if isinstance(exc, BusyLoadingError):
        return "loading"
    if isinstance(exc, RedisTimeoutError | TimeoutError):
        return "timeout"
    if isinstance(exc, RedisConnectionError | OSError):
        return "connection"
    if isinstance(exc, ResponseError):
        return "refused"
    return "error"


# -- checks and conversions at the edges -----------------------------------------------
# Settings are refused at construction (UsageError) rather than on the first call; an
# engine key is reduced to its sha256, the only part that goes into a Redis key name (a
# key that is not one is refused without being echoed, since it might be prompt text);
# and a stored value comes back as text, or as a miss when it is not UTF-8.

_NAMESPACE_RE: Final = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_ENGINE_KEY_RE: Final = re.compile(re.escape(KEY_PREFIX) + r":([0-9a-f]{64})")


def _digest(key: str) -> str:
    """The sha256 of an engine key; anything else is refused.

    The error message does not echo the key: a key that is not a hash might be
    prompt text, which must not reach the logs either.
    """
    match = _ENGINE_KEY_RE.fullmatch(key) if isinstance(key, str) else None
    if match is None:
        raise ValueError(f"not a prin-guard cache key: expected '{KEY_PREFIX}:<sha256 hex>'")
    return match.group(1)


def _text(value: object) -> str | None:
    """A stored value as text; None for a miss or for bytes that are not UTF-8."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _check_namespace(namespace: object) -> str:
    if not isinstance(namespace, str) or not _NAMESPACE_RE.fullmatch(namespace):
        raise UsageError(
            f"namespace: must be 1 to 64 characters of A-Z, a-z, 0-9, '_', '.', '-'; "
            f"got {namespace!r}"
        )
    return namespace


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _positive_ms(name: str, value: object) -> int:
    """Seconds (or a timedelta) as whole milliseconds, refusing zero, negatives and NaN."""
    seconds = value.total_seconds() if isinstance(value, timedelta) else value
    if not isinstance(seconds, int | float) or not _is_number(seconds) or seconds <= 0:
        raise UsageError(f"{name}: must be a positive number of seconds, got {value!r}")
    ms = round(seconds * 1000)
    if ms < 1:
        raise UsageError(f"{name}: must be at least one millisecond, got {value!r}")
    return ms


def _ttl_ms(ttl: timedelta | float | None) -> int | None:
    """The TTL in milliseconds, or None for entries that never expire."""
    return None if ttl is None else _positive_ms("ttl", ttl)
