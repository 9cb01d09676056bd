"""Streaming many items through the guard with flat memory.

:func:`stream_verdicts` reads items lazily a chunk at a time, validates and plans
each (a bad item becomes its own ``invalid_item`` verdict), reads the chunk's
cache entries in one round trip, and judges items concurrently within a window,
yielding ``(index, verdict)`` as verdicts complete. Nothing is kept once
yielded, so memory stays flat however many items there are. Given ``stopping``
(a Ctrl-C), it stops at once: no row is read and no judge call is started after
it says so, except for the items whose calls had started (each item's task runs
behind a :class:`~prin_guard.calls.StartGate`); those finish and are yielded,
the others are dropped, unjudged. A stream whose judge's answers carry no
information (:mod:`prin_guard._route._informative`: one answer to most items, one position
whatever the order, most legs unreadable) logs an ``uninformative_judge`` warning,
once per stream and kind, with the share and the threshold.

:class:`LoopDriver` is the sync API's private event loop: the sync methods drive
the one async core on it, and refuse to run inside a running loop, where they
would block it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import queue
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from prin_guard._infra._events import log
from prin_guard._route._informative import AnswerTally, Uninformative
from prin_guard.calls import NotStarted, StartGate
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.models import Verdict

__all__ = ["LoopDriver", "stream_verdicts"]

T = TypeVar("T")


class _Planned(Protocol):
    @property
    def key(self) -> str: ...


P = TypeVar("P", bound=_Planned)
C = TypeVar("C")  # what an item is once checked (an Item, a RatingItem)


async def stream_verdicts(
    items: Iterable[Any],
    *,
    concurrency: int,
    chunk_size: int | None,
    plan: Callable[[Any], Awaitable[tuple[C, list[P]]]],
    prefetch: Callable[[Iterable[str]], Awaitable[dict[str, str | None]]],
    verdict: Callable[[C, list[P], Mapping[str, str | None]], Awaitable[Verdict]],
    invalid: Callable[[int, Any, InvalidItemError], Verdict],
    stopping: Callable[[], bool] | None = None,
) -> AsyncIterator[tuple[int, Verdict]]:
    """Yield ``(index, verdict)`` for every item, in completion order.

    ``plan`` validates an item and plans its calls (each plan has a cache ``key``),
    ``prefetch`` reads cache entries, ``verdict`` judges one planned item and
    ``invalid(index, raw, error)`` makes the verdict of an item that failed validation. Once
    ``stopping()`` is true, only the items whose judge calls started are yielded.
    """
    size = chunk_size or max(64, 4 * concurrency)
    stopped = stopping if stopping is not None else _never
    window = asyncio.Semaphore(max(2 * concurrency, size))
    done: asyncio.Queue[tuple[int, Verdict] | None] = asyncio.Queue()
    tasks: set[asyncio.Task[None]] = set()

    async def one(
        index: int,
        item: C | tuple[Any, InvalidItemError],
        plans: list[P] | None,
        prefetched: Mapping[str, str | None],
    ) -> None:
        try:
            if isinstance(item, tuple):  # an item is never a tuple: the pair of a bad one
                made = invalid(index, *item)
            else:
                assert plans is not None
                made = await verdict(item, plans, prefetched)
            await done.put((index, made))
        except NotStarted:
            pass  # stopped before any of its judge calls started: not judged
        finally:
            window.release()

    async def produce() -> None:
        chunk: list[tuple[int, Any]] = []
        rows = enumerate(items)
        while not stopped():  # checked before a row is read
            entry = next(rows, None)
            if entry is None:
                break
            chunk.append(entry)
            if len(chunk) >= size:
                await feed(chunk)
                chunk = []
        if chunk:
            await feed(chunk)

    async def feed(chunk: list[tuple[int, Any]]) -> None:
        checked: list[tuple[int, C | tuple[Any, InvalidItemError], list[P] | None]] = []
        for index, raw in chunk:
            try:
                item, planned = await plan(raw)
            except InvalidItemError as exc:
                checked.append((index, (raw, exc), None))
            else:
                checked.append((index, item, planned))
        keys = [p.key for _, _, plans in checked if plans for p in plans]
        prefetched = await prefetch(keys)
        for index, entry, plans in checked:
            await window.acquire()
            if stopped():
                window.release()
                return
            coro = one(index, entry, plans, prefetched)
            if stopping is None:
                task = asyncio.create_task(coro)
            else:
                task = asyncio.create_task(coro, context=StartGate(stopping).context())
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def run_producer() -> None:
        try:
            await produce()
            while tasks:
                await asyncio.gather(*list(tasks))
        finally:
            await done.put(None)

    producer = asyncio.create_task(run_producer())
    tally = AnswerTally()
    try:
        while (entry := await done.get()) is not None:
            tally.add(entry[1])
            _warn(tally.news())
            yield entry
        await producer  # re-raises an exception from reading the items
        _warn(tally.news(final=True))
    finally:
        if not producer.done():
            producer.cancel()
        for task in list(tasks):
            task.cancel()


def _warn(findings: list[Uninformative]) -> None:
    # once per run and kind (the tally remembers what it said)
    for finding in findings:
        log().warning("uninformative_judge", **finding.as_dict())


def _never() -> bool:
    return False


class LoopDriver:
    """A private event loop for a sync API, kept across calls.

    Judges and caches that hold loop-bound connections keep working from one sync
    call to the next; the loop is closed by :meth:`close`, by the loop reaper when the
    owner is garbage-collected, or at exit.
    """

    def __init__(self) -> None:
        self._runner: asyncio.Runner | None = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def run(self, coro: Coroutine[Any, Any, T], name: str, async_name: str) -> T:
        """Run ``coro`` to the end; a UsageError inside a running event loop."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            coro.close()
            raise UsageError(
                f"{name}() was called inside a running event loop, where it would "
                f"block the loop; use 'await {async_name}(...)' instead"
            )
        with self._lock:
            if self._runner is None:
                _start_reaper()
                self._runner = asyncio.Runner()
                self._finalizer = weakref.finalize(self, _drop_runner, self._runner)
                self._finalizer.atexit = False  # closed by _at_exit, in order
                _LIVE[id(self._runner)] = self._finalizer
            return self._runner.run(coro)

    def close(self) -> None:
        detached = self._finalizer.detach() if self._finalizer is not None else None
        if detached is not None:  # the owner asked: its loop's work may be waited for
            _LIVE.pop(id(detached[2][0]), None)
            _close_runner(detached[2][0])


# A loop whose owner the garbage collector frees is closed by the reaper thread, never in
# the collector's own context: the collector may run in a thread being started, under
# threading's internal locks, and closing a runner starts a thread (to shut its executor
# down): a deadlock there. The finalizer only hands the runner over (SimpleQueue.put is
# safe anywhere); the reaper, started outside any finalizer, closes it as close() would
# (its tasks cancelled, its executor shut down), so nothing is left pending on a closed loop.
_DROPPED: queue.SimpleQueue[asyncio.Runner] = queue.SimpleQueue()
_LIVE: dict[int, weakref.finalize[Any, Any]] = {}
"""The finalizers of the loops still open, by their runner's id (closed at exit)."""
_REAPER_LOCK = threading.Lock()
_reaper: threading.Thread | None = None


def _start_reaper() -> None:
    global _reaper
    with _REAPER_LOCK:
        if _reaper is None:
            _reaper = threading.Thread(target=_reap, name="prin-guard-loop-reaper", daemon=True)
            _reaper.start()
            atexit.register(_at_exit)


def _reap() -> None:
    while True:
        runner = _DROPPED.get()
        with contextlib.suppress(Exception):  # a loop that cannot close is left to exit
            _close_runner(runner)


def _drop_runner(runner: asyncio.Runner) -> None:
    """Hand the loop of an owner that is gone to the reaper (see above)."""
    _LIVE.pop(id(runner), None)
    _DROPPED.put(runner)


def _at_exit() -> None:
    """At exit, in the main thread: close the loops of owners still alive, and those handed
    to the reaper that it has not reached."""
    for finalizer in list(_LIVE.values()):
        detached = finalizer.detach()
        if detached is not None:
            with contextlib.suppress(Exception):
                _close_runner(detached[2][0])
    _LIVE.clear()
    while True:
        try:
            runner = _DROPPED.get_nowait()
        except queue.Empty:
            return
        with contextlib.suppress(Exception):
            _close_runner(runner)


def _close_runner(runner: asyncio.Runner) -> None:
    """Close a private loop; from inside another running loop, without running it."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        runner.close()
        return
    loop = runner.get_loop()
    if not loop.is_closed():
        loop.close()
