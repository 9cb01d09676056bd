"""The cache protocol and the key function.

A cache maps string keys to JSON text. Values are validated by the engine when
read (a value it cannot read is a miss), so a cache never needs to understand
them, and nothing but JSON is ever stored: no pickle.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["KEY_PREFIX", "Cache", "SingleFlight", "cache_key"]

KEY_PREFIX = "prin_guard:v1"
"""Bump the version when the meaning of a cached value changes."""


@runtime_checkable
class Cache(Protocol):
    """Anything that can get and set JSON text by key, a batch at a time.

    ``get_many`` returns one entry per key, ``None`` for a miss, in key order.
    A cache that fails may raise; the engine decides whether that costs the
    verdict (it does not by default).
    """

    async def get_many(self, keys: Sequence[str]) -> list[str | None]: ...

    async def set_many(self, entries: Mapping[str, str]) -> None: ...


@runtime_checkable
class SingleFlight(Protocol):
    """A shared cache that can also elect one caller to compute a missing key.

    When several processes miss the same key at once, the one whose ``claim``
    succeeds calls the judge and stores the answer; the others ``wait`` for it.
    ``wait`` returns ``None`` when the holder gave up (or died and its claim
    expired): the waiter then tries to claim the key itself.
    """

    lock_ttl: float

    async def claim(self, key: str) -> bool: ...

    async def release(self, key: str) -> bool: ...

    async def wait(self, key: str, *, timeout: float, poll: float = 0.05) -> str | None: ...


def cache_key(parts: Mapping[str, Any]) -> str:
    """A versioned prefix plus the sha256 of the canonical JSON of ``parts``.

    ``parts`` must hold everything that changes the judge's answer and nothing
    that doesn't (timeouts, retries) and nothing secret.
    """
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"{KEY_PREFIX}:{hashlib.sha256(canonical.encode()).hexdigest()}"
