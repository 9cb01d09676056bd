"""The local engine: one process, one event loop, one Guard streaming the file.

Rows are read lazily and judged through :meth:`Guard.astream` (bounded memory,
verdicts in completion order); each output row is written as soon as its
verdict is in. Every input row goes through ``plan_row`` (``_rows.py``; the Ray
engine's path too): rows already in the output are skipped (an output
row records its input line), so running again after an interruption judges only
what is missing, and a line whose content changed since is told, not judged again.

The first Ctrl-C stops starting work at once: no more rows are read and no item
whose judge calls have not started is started (``Guard.astream``'s ``stopping``);
the items whose calls are in flight finish (they are paid for), are written, and
the summary is marked ``interrupted``. A second Ctrl-C stops at once (what was in
flight is judged again next time, from the cache where its legs were stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from prin_guard._infra._events import bounded, log
from prin_guard._infra._ratelimit import RateLimit
from prin_guard._prompting._rating import RatingItem
from prin_guard._review._item import ReviewItem
from prin_guard._route._guard import Guard, JudgeLike
from prin_guard._route._options import GuardOptions
from prin_guard._route._setup import GuardConfig
from prin_guard.cache import Cache, open_cache
from prin_guard.errors import UsageError
from prin_guard.grade._read import (
    DEFAULT_MAX_ROW_BYTES,
    RawRow,
    count_rows,
    detect_format,
    read_rows,
)
from prin_guard.grade._rows import Done, RowPlan, plan_row, verdict_row
from prin_guard.grade._summary import GradeStats, GradeSummary
from prin_guard.grade._write import Sink, open_sink
from prin_guard.models import Item, RankingItem

__all__ = ["agrade", "build_guard", "check_gradable", "grade"]


class Watcher(Protocol):
    """Told after every row written (a progress display)."""

    def already_done(self, rows: int) -> None:
        """``rows`` of the input are in the output already (they will be skipped)."""

    def update(self) -> None: ...

    def close(self) -> None: ...


def check_gradable(guard: Guard) -> None:
    """Refuse a guard grading cannot run (both engines ask): one that raises on an
    inconsistent verdict would stop a whole file (or a whole Ray batch) at the first."""
    if guard.options.on_inconsistent == "raise":
        raise UsageError("on_inconsistent: grading flags inconsistent verdicts; use 'flag'")


def build_guard(
    judge: Guard | GuardConfig | JudgeLike,
    *,
    options: GuardOptions | None = None,
    cache: Cache | str | None = "memory",
    concurrency: int = 64,
    rate_limit: RateLimit | None = None,
) -> Guard:
    """``judge`` itself when it is a Guard, else the Guard a GuardConfig describes, or a
    Guard around a judge, for grading."""
    if isinstance(judge, Guard):
        if options is not None or rate_limit is not None or cache != "memory":
            raise UsageError(
                "judge: a Guard brings its own options, cache and rate limit; set them on it"
            )
        guard = judge
    else:
        opened = open_cache(
            cache, namespace="grade", sqlite_name="grade-cache.sqlite3", concurrency=concurrency
        )
        if isinstance(judge, GuardConfig):
            if options is not None:
                raise UsageError("options: a GuardConfig brings its own options")
            guard = judge.build(cache=opened, concurrency=concurrency, rate_limit=rate_limit)
        else:
            guard = Guard(
                judge,
                options=options,
                cache=opened,
                concurrency=concurrency,
                rate_limit=rate_limit,
            )
    check_gradable(guard)
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
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
) -> GradeSummary:
    """Grade every row of ``input`` not yet in ``output``, writing one row per item.

    ``stopping`` is asked before each row is read and before each item is started:
    once it says yes, no more rows are read, no item whose judge calls have not
    started is started, and the items in flight are finished. ``on_invalid(line, reason)`` is
    told of each bad row (by default a ``grade_invalid_row`` warning event). A JSONL
    line or CSV record longer than ``max_row_bytes`` is a bad row. ``output`` must be
    new, empty or an output of grade: anything else is refused before it is touched.
    """
    stats = stats if stats is not None else GradeStats()
    fmt_in = detect_format(input, input_format)
    fmt_out = detect_format(output, output_format)
    rows = read_rows(input, fmt_in, max_row_bytes=max_row_bytes)
    _refuse_the_input(input, output)
    sink, done = open_sink(output, fmt_out, with_legs=with_legs)
    if watcher is not None:
        watcher.already_done(len(done))
    calls_before = guard.judge_calls
    try:
        run = _Run(guard, sink, done, stats, watcher, with_legs, on_invalid or _log_invalid)
        await run.judge(rows, stopping)
    finally:
        stats.judge_calls = guard.judge_calls - calls_before
        sink.close()
        if watcher is not None:
            watcher.close()
    summary = stats.summary(str(output), interrupted=stopping())
    if summary.changed:
        log().warning("grade_changed_rows", rows=summary.changed, lines=summary.changed_lines)
    return summary


def _refuse_the_input(input: str | Path, output: str | Path) -> None:
    with contextlib.suppress(OSError):
        if os.path.samefile(input, output):
            raise UsageError(f"output: {str(output)!r} is the input file; give another one")


def grade(
    judge: Guard | GuardConfig | JudgeLike,
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
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
) -> GradeSummary:
    """Grade a JSONL, CSV or Parquet file into ``output`` (resuming what is there).

    ``judge`` is a :class:`~prin_guard.Guard`, a :class:`~prin_guard.GuardConfig`, or
    anything a Guard takes as its judge, built with ``options``, ``cache`` (a Cache or
    ``memory``, ``none``, ``sqlite``, a path, a ``redis://`` URL), ``concurrency``
    (judge calls in flight) and ``rate_limit``. ``progress`` shows a progress bar on
    stderr. A JSONL line or CSV record longer than ``max_row_bytes`` (8 MiB) is written
    as an invalid row without being read whole. Ctrl-C finishes the items in flight
    and returns a summary marked ``interrupted`` (a second Ctrl-C stops at once). Not
    callable inside a running event loop: use :func:`agrade` there.
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

        total = count_rows(input, input_format, max_row_bytes=max_row_bytes)
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
                    max_row_bytes=max_row_bytes,
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
        done: Done,
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
        self.plans: dict[int, RowPlan] = {}

    async def judge(self, rows: Iterable[RawRow], stopping: Callable[[], bool]) -> None:
        items = self._items(rows, stopping)
        async for index, verdict in self.guard.astream(items, stopping=stopping):
            plan = self.plans.pop(index)
            row = verdict_row(
                verdict, line=plan.line, input_sha=plan.input_sha, with_legs=self.with_legs
            )
            self._write(row, verdict)

    def _items(
        self, rows: Iterable[RawRow], stopping: Callable[[], bool]
    ) -> Iterator[Item | RatingItem | RankingItem | ReviewItem]:
        index = 0
        for raw in rows:
            if stopping():
                return
            plan = plan_row(raw, self.done, self.guard.validate, with_legs=self.with_legs)
            if plan.item is not None:
                self.plans[index] = plan
                index += 1
                yield plan.item
            elif plan.row is not None:
                self.on_invalid(plan.line, plan.row["error"])
                self._write(plan.row, None)
            else:
                self.stats.skip(plan.line, changed=plan.changed)

    def _write(self, row: dict[str, Any], verdict: Any) -> None:
        self.sink.write(row)
        self.stats.add(row, verdict)
        if self.watcher is not None:
            self.watcher.update()
