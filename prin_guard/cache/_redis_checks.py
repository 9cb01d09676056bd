"""What :class:`~prin_guard.cache.RedisCache` checks and converts at its edges.

Settings are refused at construction (:class:`~prin_guard.UsageError`) rather than
on the first call; an engine key is reduced to its sha256, the only part that goes into
a Redis key name (a key that is not one is refused without being echoed, since it might
be prompt text); and a stored value comes back as text, or as a miss when it is not
UTF-8. Pure functions, apart from the class so that they can be read (and changed) on
their own.
"""

from __future__ import annotations

import math
import re
from datetime import timedelta
from typing import Final

from prin_guard._exceptions import UsageError
from prin_guard.cache._base import KEY_PREFIX

__all__ = ["_check_namespace", "_digest", "_is_number", "_positive_ms", "_text", "_ttl_ms"]

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
