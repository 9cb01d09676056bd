"""A cache from its one-string spelling: how ``grade``, ``eval``, the Ray workers and
the service name their cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prin_guard._infra._settings import home_dir
from prin_guard.cache._base import Cache
from prin_guard.cache._memory import MemoryCache
from prin_guard.cache._sqlite import SQLiteCache
from prin_guard.errors import UsageError

__all__ = ["REDIS_SCHEMES", "open_cache", "redis_connections"]

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def redis_connections(concurrency: int) -> int:
    """Connections a Redis cache needs for ``concurrency`` calls in flight: each holds
    one at a time (claim, read, store, release), batch reads and writes take a few
    more. redis-py's default pool (100) fails open beyond that."""
    return max(100, 2 * concurrency + 32)


def open_cache(
    spec: Cache | str | None,
    *,
    namespace: str = "default",
    sqlite_name: str = "cache.sqlite3",
    concurrency: int = 64,
    **redis: Any,
) -> Cache | None:
    """The cache ``spec`` names (a Cache or ``None`` passes through).

    ``memory`` (an in-memory LRU), ``none`` (no caching), ``sqlite`` (the file
    ``sqlite_name`` under ``PRIN_GUARD_HOME``), a path to a SQLite file, or a
    ``redis://``, ``rediss://`` or ``unix://`` URL: a :class:`RedisCache` in
    ``namespace`` with a connection pool big enough for ``concurrency`` calls in
    flight (``redis`` keywords, such as ``ttl`` or ``lock_ttl``, go to
    :meth:`RedisCache.from_url`).
    """
    if spec is None or not isinstance(spec, str):
        return spec
    if spec == "none":
        return None
    if spec == "memory":
        return MemoryCache()
    if spec.startswith(REDIS_SCHEMES):
        from prin_guard.cache._redis import RedisCache

        redis.setdefault("max_connections", redis_connections(concurrency))
        return RedisCache.from_url(spec, namespace=namespace, **redis)
    if not spec.strip():
        raise UsageError("cache: empty; use memory, none, sqlite, a path or a redis:// URL")
    return SQLiteCache(Path(spec) if spec != "sqlite" else home_dir() / sqlite_name)
