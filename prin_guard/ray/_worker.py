"""What runs on the Ray workers: reading chunks, the grading actor, the collector.

:class:`Grader` is the actor class of the pipeline's actor pool: it builds its
:class:`~prin_guard.Guard` once (judge, options, the shared Redis cache with
single flight, the shared rate limit) and turns each batch of input rows into
output rows with the local engine's own functions (``plan_row`` in ``grade/_rows.py``
decides what each row needs, for both engines), so both engines write the same
rows. Given a :class:`Collector` (``prin-guard grade --engine ray``), it hands each
row to it as soon as its verdict is in, a few rows at a time, and returns nothing to
the pipeline: the driver takes the rows from the collector and writes them as they
come, as the local engine does. Without one (:func:`~prin_guard.ray.grade_dataset` in
a pipeline of your own) it returns its batch's rows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from prin_guard._infra._ratelimit import RateLimit
from prin_guard._prompting._rating import RatingItem
from prin_guard._review._item import ReviewItem
from prin_guard._route._guard import Guard
from prin_guard._route._setup import GuardConfig
from prin_guard.cache import Cache, MemoryCache, open_cache
from prin_guard.grade import GradeStats, arrow_schema, check_gradable, verdict_row
from prin_guard.grade._read import Chunk, RawRow, arrow, read_chunk
from prin_guard.grade._rows import Done, RowPlan, plan_row
from prin_guard.models import Item, RankingItem

__all__ = ["INPUT_COLUMNS", "Collector", "Grader", "WorkerSpec", "read_chunks"]

INPUT_COLUMNS: Final = ("line", "fields", "error", "field", "item_id")
_HAND_OVER: Final = 16
"""Rows a grader hands the collector at once (and whatever is left at a batch's end)."""


@dataclass(frozen=True)
class WorkerSpec:
    """What every actor builds its Guard from; sent to the actors once."""

    config: GuardConfig = field(default_factory=GuardConfig)
    """Who judges and how: the same :class:`~prin_guard.GuardConfig` the command line
    and the service read (an acceptance file travels in it as its content: the actors
    need no shared file system)."""
    judge: Callable[[], Any] | None = None
    """A picklable function returning the judge (or a function of the prompt), in place
    of ``config``'s judge spec."""
    redis_url: str | None = None
    """The shared cache (and single flight); without it each actor has its own memory
    cache, and a restarted actor judges its batch again."""
    namespace: str = "grade"
    lock_ttl: float = 30.0
    """Seconds a single-flight claim lasts: how long the others wait for a dead actor's call."""
    concurrency: int = 64
    """Judge calls in flight per actor."""
    rate_limit: RateLimit | None = None
    with_legs: bool = False

    def build_guard(self) -> Guard:
        judges = None if self.judge is None else [[self.judge()]]
        guard = self.config.build(
            judges=judges,
            cache=self.build_cache(),
            concurrency=self.concurrency,
            rate_limit=self.rate_limit,
        )
        check_gradable(guard)
        return guard

    def build_cache(self) -> Cache:
        return (
            open_cache(
                self.redis_url or "memory",
                namespace=self.namespace,
                lock_ttl=self.lock_ttl,
                concurrency=self.concurrency,
            )
            or MemoryCache()
        )


def input_schema() -> Any:
    pa = arrow("the Ray engine")[0]
    return pa.schema(
        [
            ("line", pa.int64()),
            ("fields", pa.string()),
            ("error", pa.string()),
            ("field", pa.string()),
            ("item_id", pa.string()),
        ]
    )


def read_chunks(batch: Any) -> Any:
    """The input rows of a batch of chunks (a table with a ``chunk`` column of JSON)."""
    rows = []
    for spec in batch.column("chunk").to_pylist():
        fields = json.loads(spec)
        chunk = Chunk(**{**fields, "header": tuple(fields["header"])})
        for raw in read_chunk(chunk):
            rows.append(
                {
                    "line": raw.line,
                    "fields": None if raw.fields is None else json.dumps(raw.fields),
                    "error": raw.error,
                    "field": raw.field,
                    "item_id": raw.item_id,
                }
            )
    return arrow("the Ray engine")[0].Table.from_pylist(rows, schema=input_schema())


def raw_row(record: Mapping[str, Any]) -> RawRow:
    """An input row as :func:`read_chunks` made it, back as the reader's row."""
    fields = record["fields"]
    return RawRow(
        record["line"],
        None if fields is None else json.loads(fields),
        record["error"],
        record["field"],
        record["item_id"],
    )


class Grader:
    """The pipeline's actor: one Guard per actor, one output row per input row."""

    def __init__(self, spec: WorkerSpec, done: Done | None = None, collector: Any = None):
        self.spec = spec
        self.guard = spec.build_guard()
        self.done: Done = done if done is not None else {}
        self.collector = collector
        self.schema = arrow_schema(spec.with_legs)
        self.worker = f"{os.getpid()}-{id(self)}"

    async def __call__(self, batch: Any) -> Any:
        stats = GradeStats()  # what is not a row: skipped lines, the calls' cost
        ready: list[dict[str, Any]] = []
        plans: list[tuple[RowPlan, Item | RatingItem | RankingItem | ReviewItem]] = []
        for record in batch.to_pylist():
            plan = plan_row(
                raw_row(record), self.done, self.guard.validate, with_legs=self.spec.with_legs
            )
            if plan.row is not None:
                ready.append(plan.row)
            elif plan.item is not None:
                plans.append((plan, plan.item))
            else:
                stats.skip(plan.line, changed=plan.changed)
        async for index, verdict in self.guard.astream(item for _, item in plans):
            plan = plans[index][0]
            ready.append(
                verdict_row(
                    verdict,
                    line=plan.line,
                    input_sha=plan.input_sha,
                    with_legs=self.spec.with_legs,
                )
            )
            stats.add_cost(verdict)
            stats.add_answers(verdict)
            if self.collector is not None and len(ready) >= _HAND_OVER:
                await self._hand_over(ready, stats)
                ready, stats = [], GradeStats()
        table = arrow("the Ray engine")[0].Table
        if self.collector is None:
            return table.from_pylist(ready, schema=self.schema)
        # awaited: the batch is done only once the collector holds its rows
        await self._hand_over(ready, stats)
        return table.from_pylist([], schema=self.schema)

    async def _hand_over(self, rows: list[dict[str, Any]], stats: GradeStats) -> None:
        await self.collector.put.remote(rows, stats, self.worker, self.guard.judge_calls)


class Collector:
    """Where the graders put their rows as they finish and the driver takes them (a Ray
    actor of its own, made by the driver, with no CPU).

    Rows are taken in the order they came; a batch run again after its actor died may
    put a row twice, which the driver drops (it writes each input line once). What is
    not a row is added up: skipped lines, tokens and cost, and judge calls as each
    worker process's running total, so a batch run again counts every call made.
    """

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.stats = GradeStats()
        self.calls: dict[str, int] = {}

    def put(self, rows: list[dict[str, Any]], stats: GradeStats, worker: str, calls: int) -> None:
        self.rows.extend(rows)
        self.stats.merge(stats)
        self.calls[worker] = max(self.calls.get(worker, 0), calls)

    def take(self) -> tuple[list[dict[str, Any]], GradeStats]:
        """The rows put since the last take, and everything else counted so far."""
        rows, self.rows = self.rows, []
        self.stats.judge_calls = sum(self.calls.values())
        return rows, self.stats
