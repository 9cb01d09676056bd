"""The one layer every judge call goes through, for guards that share it:
:class:`JudgeCaller` (the cache key, cache reads and writes, single flight, retries and
the bound on calls in flight) and :class:`CallLimit` (one bound on calls in flight for
several callers). A :class:`~prin_guard.Guard` builds its own caller from ``cache=``,
``concurrency=`` and ``retry=``; guards that should share a cache, a single flight and a
limit are given one::

    from prin_guard import Guard
    from prin_guard.calls import JudgeCaller

    caller = JudgeCaller(judge, cache=cache, concurrency=16)
    strict, lenient = Guard(caller, policy="synergy"), Guard(caller, policy="direct")
"""

from __future__ import annotations

from prin_guard._calls import JudgeCaller
from prin_guard._retry import CallLimit

__all__ = ["CallLimit", "JudgeCaller"]
