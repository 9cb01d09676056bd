"""Which errors mean that Redis cannot be used right now, and how the log names them.

:class:`~prin_guard.cache.RedisCache` fails open on exactly these errors (a miss, a
no-op, a warning), so the list decides what a Redis outage can and cannot cost; the
``reason`` of a ``cache_unavailable`` warning sorts them for whoever reads the logs.
Both go by exception type, never by message text, whose wording redis-py may change.
"""

from __future__ import annotations

import asyncio
from typing import Final

from redis.exceptions import (
    AuthenticationError,
    AuthorizationError,
    BusyLoadingError,
    RedisError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["_FAILURES", "_reason"]

# Failures that mean "the cache cannot be used right now". Matched by type, never
# by message text. RedisError covers the connection errors (ConnectionError and
# its subclasses BusyLoadingError, AuthenticationError, MaxConnectionsError),
# TimeoutError, and the server's refusals (OutOfMemoryError, ReadOnlyError,
# NoPermissionError); OSError covers sockets and TLS failing below redis-py;
# asyncio.TimeoutError is the builtin TimeoutError (an OSError) on Python 3.11+
# and is listed for clarity.
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
