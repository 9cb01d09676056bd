"""The local engine: one process, one event loop, one Guard streaming the file.

Rows are read lazily and judged through :meth:`Guard.astream` (bounded memory,
verdicts in completion order); each output row is written as soon as its
verdict is in. Rows already in the output are skipped (matched on ``id``), so
running again after an interruption judges only what is missing.

The first Ctrl-C stops reading and lets the items in flight finish (their judge
calls are paid for), writes them and returns a summary marked ``interrupted``;
a second Ctrl-C stops at once (what was in flight is judged again next time,
from the cache where its legs were stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from prin_guard._events import bounded, log
from prin_guard._exceptions import InvalidItemError, UsageError
from prin_guard._guard import Guard, JudgeLike
from prin_guard._models import Item
from prin_guard._options import GuardOptions
from prin_guard._ratelimit import RateLimit
from prin_guard._settings import home_dir
from prin_guard.cache import Cache, MemoryCache, SQLiteCache
from prin_guard.grade._read import RawRow, count_rows, detect_format, read_rows
from prin_guard.grade._rows import invalid_row, verdict_row
from prin_guard.grade._summary import GradeStats, GradeSummary
from prin_guard.grade._write import Sink, open_sink

__all__ = ["agrade", "build_guard", "grade", "open_cache"]


def redis_connections(concurrency: int) -> int:
    """Connections a Redis cache needs for ``concurrency`` calls in flight: each holds
    one at a time (claim, read, store, release), batch reads and writes take a few
    more. redis-py's default pool (100) fails open beyond that."""
    return max(100, 2 * concurrency + 32)


class Watcher(Protocol):
    """Told after every row written (a progress display)."""

    def already_done(self, rows: int) -> None:
        """``rows`` of the input are in the output already (they will be skipped)."""

    def update(self) -> None: ...

    def close(self) -> None: ...


def open_cache(
    spec: Cache | str | None, *, namespace: str = "grade", concurrency: int = 64
) -> Cache | None:
    """A cache from its command-line spelling: ``memory``, ``none``, ``sqlite`` (a file
    under ``PRIN_GUARD_HOME``), a path to a SQLite file, or a ``redis://`` URL (with
    a connection pool big enough for ``concurrency`` calls in flight)."""
    if spec is None or not isinstance(spec, str):
        return spec
    if spec == "none":
        return None
    if spec == "memory":
        return MemoryCache()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from prin_guard.cache import RedisCache

        return RedisCache.from_url(
            spec, namespace=namespace, max_connections=redis_connections(concurrency)
        )
    if not spec.strip():
        raise UsageError("cache: empty; use memory, none, sqlite, a path or a redis:// URL")
    return SQLiteCache(Path(spec) if spec != "sqlite" else home_dir() / "grade-cache.sqlite3")


def build_guard(
    judge: Guard | JudgeLike,
    *,
    options: GuardOptions | None = None,
    cache: Cache | str | None = "memory",
    concurrency: int = 64,
    rate_limit: RateLimit | None = None,
) -> Guard:
    """``judge`` itself when it is a Guard, else a Guard around it for grading."""
    if isinstance(judge, Guard):
        if options is not None or rate_limit is not None or cache != "memory":
            raise UsageError(
                "judge: a Guard brings its own options, cache and rate limit; set them on it"
            )
        guard = judge
    else:
        guard = Guard(
            judge,
            options=options,
            cache=open_cache(cache, concurrency=concurrency),
            concurrency=concurrency,
            rate_limit=rate_limit,
        )
    if guard.on_inconsistent == "raise":
        raise UsageError("on_inconsistent: grading flags inconsistent verdicts; use 'flag'")
    return guard


async def agrade(
    guard: Guard,
    input: str | Path,
    output: str | Path,
    *,
    input_format: str | None = None,
    output_format: str | None = None,
    with_legs: bool = False,
    stats: GradeStats | None = None,
    watcher: Watcher | None = None,
    stopping: Callable[[], bool] = lambda: False,
    on_invalid: Callable[[int, str], None] | None = None,
) -> GradeSummary:
    """Grade every row of ``input`` not yet in ``output``, writing one row per item.

    ``stopping`` is asked before each row is read: once it says yes, no more rows
    are read and the items in flight are finished. ``on_invalid(line, reason)`` is
    told of each bad row (by default a ``grade_invalid_row`` warning event).
    """
    stats = stats if stats is not None else GradeStats()
    fmt_in = detect_format(input, input_format)
    fmt_out = detect_format(output, output_format)
    sink, done = open_sink(output, fmt_out, with_legs=with_legs)
    if watcher is not None:
        watcher.already_done(sum(done.values()))
    calls_before = guard.judge_calls
    try:
        run = _Run(guard, sink, done, stats, watcher, with_legs, on_invalid or _log_invalid)
        await run.judge(read_rows(input, fmt_in), stopping)
    finally:
        stats.judge_calls = guard.judge_calls - calls_before
        sink.close()
        if watcher is not None:
            watcher.close()
    return stats.summary(str(output), interrupted=stopping())


def grade(
    judge: Guard | JudgeLike,
    input: str | Path,
    output: str | Path,
    *,
    options: GuardOptions | None = None,
    input_format: str | None = None,
    output_format: str | None = None,
    with_legs: bool = False,
    cache: Cache | str | None = "memory",
    concurrency: int = 64,
    rate_limit: RateLimit | None = None,
    progress: bool = False,
    on_invalid: Callable[[int, str], None] | None = None,
) -> GradeSummary:
    """Grade a JSONL, CSV or Parquet file into ``output`` (resuming what is there).

    ``judge`` is a :class:`~prin_guard.Guard` or anything a Guard takes as its
    judge, built with ``options``, ``cache`` (a Cache or ``memory``, ``none``,
    ``sqlite``, a path, a ``redis://`` URL), ``concurrency`` (judge calls in
    flight) and ``rate_limit``. ``progress`` shows a progress bar on stderr.
    Ctrl-C finishes the items in flight and returns a summary marked
    ``interrupted`` (a second Ctrl-C stops at once). Not callable inside a
    running event loop: use :func:`agrade` there.
    """
    guard = build_guard(
        judge, options=options, cache=cache, concurrency=concurrency, rate_limit=rate_limit
    )
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise UsageError("grade() drives its own event loop; use 'await agrade(...)' instead")
    stats = GradeStats()
    watcher: Watcher | None = None
    if progress:
        from prin_guard.grade._progress import GradeProgress

        total = count_rows(input, input_format)
        watcher = GradeProgress(total, stats)
        stats.started = time.monotonic()  # counting the rows is not grading time

    async def main() -> GradeSummary:
        stop = asyncio.Event()
        with _interruptible(stop):
            try:
                return await agrade(
                    guard,
                    input,
                    output,
                    input_format=input_format,
                    output_format=output_format,
                    with_legs=with_legs,
                    stats=stats,
                    watcher=watcher,
                    stopping=stop.is_set,
                    on_invalid=on_invalid,
                )
            except asyncio.CancelledError:
                return stats.summary(str(output), interrupted=True)

    return asyncio.run(main())


@contextlib.contextmanager
def _interruptible(stop: asyncio.Event) -> Iterator[None]:
    """First SIGINT: set ``stop``; the second cancels the run. Only where signals can
    be handled (the main thread of a process with a Unix event loop)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()

    def on_sigint() -> None:
        if stop.is_set():
            if task is not None:
                task.cancel()
            return
        stop.set()
        print(
            "\nprin-guard: interrupted; finishing the items in flight (Ctrl-C again to stop now)",
            file=sys.stderr,
            flush=True,
        )

    try:
        loop.add_signal_handler(signal.SIGINT, on_sigint)
    except (ValueError, RuntimeError, NotImplementedError):
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def _log_invalid(line: int, reason: str) -> None:
    log().warning("grade_invalid_row", line=line, error=bounded(reason))


class _Run:
    """One pass over the input: skip what is done, write bad rows, judge the rest."""

    def __init__(
        self,
        guard: Guard,
        sink: Sink,
        done: Counter[str],
        stats: GradeStats,
        watcher: Watcher | None,
        with_legs: bool,
        on_invalid: Callable[[int, str], None],
    ) -> None:
        self.on_invalid = on_invalid
        self.guard = guard
        self.sink = sink
        self.done = done
        self.stats = stats
        self.watcher = watcher
        self.with_legs = with_legs
        self.lines: dict[int, int] = {}

    async def judge(self, rows: Iterable[RawRow], stopping: Callable[[], bool]) -> None:
        async for index, verdict in self.guard.astream(self._items(rows, stopping)):
            row = verdict_row(verdict, line=self.lines.pop(index), with_legs=self.with_legs)
            self._write(row, verdict)

    def _items(self, rows: Iterable[RawRow], stopping: Callable[[], bool]) -> Iterator[Item]:
        index = 0
        for raw in rows:
            if stopping():
                return
            item = self._checked(raw)
            if item is not None:
                self.lines[index] = raw.line
                index += 1
                yield item

    def _checked(self, raw: RawRow) -> Item | None:
        """The row's item, or None when it is done already or written as invalid."""
        if raw.fields is None:
            if not self._skip(raw.item_id or f"line:{raw.line}"):
                self._invalid(raw, raw.error or "unreadable row", raw.field)
            return None
        try:
            item = Item.coerce(
                raw.fields, max_chars=self.guard.max_chars, max_candidates=self.guard.max_candidates
            )
        except InvalidItemError as exc:
            if not self._skip(raw.item_id or f"line:{raw.line}"):
                self._invalid(raw, str(exc), exc.field)
            return None
        return None if self._skip(item.key) else item

    def _skip(self, item_id: str) -> bool:
        if self.done[item_id] > 0:
            self.done[item_id] -= 1
            self.stats.skipped += 1
            return True
        return False

    def _invalid(self, raw: RawRow, message: str, field: str | None) -> None:
        row = invalid_row(
            raw.line, message, item_id=raw.item_id, field=field, with_legs=self.with_legs
        )
        self.on_invalid(raw.line, message)
        self._write(row, None)

    def _write(self, row: dict[str, Any], verdict: Any) -> None:
        self.sink.write(row)
        self.stats.add(row, verdict)
        if self.watcher is not None:
            self.watcher.update()
