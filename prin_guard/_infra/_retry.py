"""How judge calls are retried and bounded: :class:`Retry` and :class:`CallLimit`.

Both are plain configuration objects of the call layer (``calls``): a
:class:`~prin_guard.calls.JudgeCaller` retries transient failures as its ``Retry`` says
and holds one slot of its ``CallLimit`` per call in flight.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import tenacity

from prin_guard.errors import TransientJudgeError, UsageError

__all__ = ["CallLimit", "Retry"]


@dataclass(frozen=True, slots=True)
class Retry:
    """How transient judge failures are retried.

    At most ``attempts`` calls and ``max_seconds`` of waiting in all; waits grow
    exponentially from ``initial`` up to ``max_wait`` with full jitter, or follow
    the provider's Retry-After when it gives one. ``sleep`` is injectable so
    tests never wait for real.
    """

    attempts: int = 4
    max_seconds: float = 120.0
    initial: float = 0.5
    max_wait: float = 10.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def wait_after(self, attempt: int, exc: BaseException | None) -> float:
        """Seconds to wait after failed attempt number ``attempt``."""
        if isinstance(exc, TransientJudgeError) and exc.retry_after is not None:
            return min(max(exc.retry_after, 0.0), self.max_wait)
        ceiling = min(self.max_wait, self.initial * 2 ** (attempt - 1))
        return random.uniform(0, ceiling)  # noqa: S311 - jitter, not cryptography

    def retrying(self, *, first_attempt: int = 1, elapsed: float = 0.0) -> tenacity.AsyncRetrying:
        """Attempts ``first_attempt`` .. ``attempts``, within what is left of ``max_seconds``."""
        offset = first_attempt - 1

        def wait(state: tenacity.RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            return self.wait_after(state.attempt_number + offset, exc)

        return tenacity.AsyncRetrying(
            stop=tenacity.stop_after_attempt(max(self.attempts - offset, 1))
            | tenacity.stop_after_delay(max(self.max_seconds - elapsed, 0.0)),
            wait=wait,
            retry=tenacity.retry_if_exception_type(TransientJudgeError),
            sleep=self.sleep,
            reraise=True,
        )


class CallLimit:
    """A bound on judge calls in flight, which several callers may share.

    An evaluation asks one provider through many judges (every sampling seed) and
    many guards (every template and mitigation): one ``CallLimit`` for all of them
    keeps the provider from seeing their sum. The semaphore belongs to the event
    loop that first waits on it; a new loop gets a fresh one.
    """

    def __init__(self, calls: int) -> None:
        if not isinstance(calls, int) or isinstance(calls, bool) or calls < 1:
            raise UsageError(f"concurrency: must be a positive integer, got {calls!r}")
        self.calls = calls
        self._loop: asyncio.AbstractEventLoop | None = None
        self._semaphore: asyncio.Semaphore | None = None

    def __repr__(self) -> str:
        return f"CallLimit({self.calls})"

    def slot(self) -> asyncio.Semaphore:
        """The semaphore of the running loop."""
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._loop is not loop:
            self._loop = loop
            self._semaphore = asyncio.Semaphore(self.calls)
        return self._semaphore
