"""Caches for judge answers: the protocol, in-memory, SQLite and Redis caches, key hashing,
and :func:`open_cache` (a cache from its spelling)."""

from typing import TYPE_CHECKING, Any

from prin_guard.cache._base import Cache, SingleFlight, cache_key
from prin_guard.cache._memory import MemoryCache
from prin_guard.cache._open import open_cache
from prin_guard.cache._sqlite import SQLiteCache

if TYPE_CHECKING:
    from prin_guard.cache._redis import RedisCache

__all__ = [
    "Cache",
    "MemoryCache",
    "RedisCache",
    "SQLiteCache",
    "SingleFlight",
    "cache_key",
    "open_cache",
]


def __getattr__(name: str) -> Any:
    # redis-py is imported only when a RedisCache is used.
    if name == "RedisCache":
        from prin_guard.cache._redis import RedisCache

        return RedisCache
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
