"""Whose judge answers an API key may see: ``cache_scope``.

A cache shared by every key tells each key about the others: an item another key
asked comes back with ``cached: true``, legs of 0 ms and, above all, at once; the
response time alone says that someone asked it before, whatever the body says. So
hiding the ``cached`` bit and the latency from a key would protect nothing, and the
service does not pretend to: a deployment chooses.

- ``cache_scope = "key"`` (the default): every API key has a cache namespace of its
  own, and calls of its own (identical calls of two keys in flight at once are two
  calls). A key sees ``cached: true`` only for what it asked before itself; nothing
  it receives depends on another key's requests. The two keys' identical items cost
  two judge calls each.
- ``cache_scope = "shared"``: one cache and one single flight for every key: an
  answer is paid for once, whoever asks. ``cached``, ``latency_ms`` and the response
  time tell a key that the item was asked before, possibly by another key. For keys
  of one party (the services of one team), not for tenants who must not learn about
  each other.

Either way, the daily budget charges a key only for the judge calls made for its
request: a cached answer costs nothing (``_limits``).

A key's namespace is made here, below the engine: each key gets the worker's judges
behind :class:`~prin_guard.calls.JudgeCaller` objects of its own, sharing the worker's call
limit and provider rate limit, whose cache is a view of the worker's cache that
hashes the key's identity into every cache key (and lock).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Final

from prin_guard.cache import Cache, SingleFlight
from prin_guard.cache._base import KEY_PREFIX
from prin_guard.calls import JudgeCaller

__all__ = ["Tenants", "scoped_cache"]

_MAX_TENANTS: Final = 1024
"""Keys whose callers are kept; the least recently seen is dropped beyond that (its
next request gets new callers: nothing is lost but in-flight sharing)."""


class _ScopedCache:
    """A view of a cache in which every key is the identity's own."""

    def __init__(self, inner: Cache, identity: str) -> None:
        self.inner = inner
        self._salt = f"{identity}\x1f"

    def key(self, key: str) -> str:
        # A cache key again (the Redis cache accepts nothing else), of this identity only.
        digest = hashlib.sha256((self._salt + key).encode()).hexdigest()
        return f"{KEY_PREFIX}:{digest}"

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        return await self.inner.get_many([self.key(key) for key in keys])

    async def set_many(self, entries: Mapping[str, str]) -> None:
        await self.inner.set_many({self.key(key): value for key, value in entries.items()})


class _ScopedFlightCache(_ScopedCache):
    """The view of a cache with cross-process single flight (Redis): locks are scoped too."""

    inner: SingleFlight  # type: ignore[assignment]

    def __init__(self, inner: Cache, identity: str) -> None:
        super().__init__(inner, identity)
        self.lock_ttl = float(getattr(inner, "lock_ttl", 0.0))

    async def claim(self, key: str) -> bool:
        return await self.inner.claim(self.key(key))

    async def release(self, key: str) -> bool:
        return await self.inner.release(self.key(key))

    async def wait(self, key: str, *, timeout: float, poll: float = 0.05) -> str | None:
        return await self.inner.wait(self.key(key), timeout=timeout, poll=poll)


def scoped_cache(cache: Cache, identity: str) -> Cache:
    """``cache`` as ``identity`` sees it: the same entries' store, keys of its own."""
    if isinstance(cache, SingleFlight):
        return _ScopedFlightCache(cache, identity)
    return _ScopedCache(cache, identity)


class Tenants:
    """The judges' callers each key asks through (``cache_scope="key"``), made on first use.

    ``levels`` are the worker's own callers (one per judge, per tier): every key's
    callers call the same judges with the same retry policy, call limit and provider
    rate limit; only their cache (a scoped view) and single flight are the key's.
    """

    def __init__(self, levels: Sequence[Sequence[JudgeCaller]]) -> None:
        self._levels = [list(level) for level in levels]
        self._by_identity: OrderedDict[str, list[list[JudgeCaller]]] = OrderedDict()

    def levels(self, identity: str) -> list[list[JudgeCaller]]:
        found = self._by_identity.get(identity)
        if found is not None:
            self._by_identity.move_to_end(identity)
            return found
        made = [[_scoped_caller(caller, identity) for caller in level] for level in self._levels]
        self._by_identity[identity] = made
        while len(self._by_identity) > _MAX_TENANTS:
            self._by_identity.popitem(last=False)
        return made


def _scoped_caller(caller: JudgeCaller, identity: str) -> JudgeCaller:
    cache = caller.cache
    return JudgeCaller(
        caller.judge,
        cache=scoped_cache(cache, identity) if cache is not None else None,
        limit=caller.limit,
        retry=caller.retry,
        rate_limit=caller.rate_limit,
    )
