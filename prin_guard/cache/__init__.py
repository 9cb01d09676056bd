"""Caches for judge answers: the protocol, an in-memory LRU, and key hashing."""

from prin_guard.cache._base import Cache, cache_key
from prin_guard.cache._memory import MemoryCache

__all__ = ["Cache", "MemoryCache", "cache_key"]
