"""What runs on the Ray workers: reading chunks, the grading actor, the tally.

:class:`Grader` is the actor class of the pipeline's actor pool: it builds its
:class:`~prin_guard.Guard` once (judge, options, the shared Redis cache with
single flight, the shared rate limit) and turns each batch of input rows into
output rows with the local engine's own functions (``plan_row`` in ``grade/_rows.py``
decides what each row needs, for both engines), so both engines write the same
rows. :class:`Tally` (one small actor) adds up what every actor did, for the run's
summary.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from prin_guard._guard import Guard
from prin_guard._models import Verdict
from prin_guard._ratelimit import RateLimit
from prin_guard._setup import GuardConfig
from prin_guard.cache import Cache, MemoryCache, open_cache
from prin_guard.grade import GradeStats, arrow_schema, check_gradable, verdict_row
from prin_guard.grade._read import Chunk, RawRow, arrow, read_chunk
from prin_guard.grade._rows import Done, RowPlan, plan_row

__all__ = ["INPUT_COLUMNS", "Grader", "Tally", "WorkerSpec", "read_chunks"]

INPUT_COLUMNS: Final = ("line", "fields", "error", "field", "item_id")


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

    def __init__(self, spec: WorkerSpec, done: Done | None = None, tally: Any = None):
        self.spec = spec
        self.guard = spec.build_guard()
        self.done: Done = done if done is not None else {}
        self.tally = tally
        self.schema = arrow_schema(spec.with_legs)
        self.worker = f"{os.getpid()}-{id(self)}"

    async def __call__(self, batch: Any) -> Any:
        stats = GradeStats()
        plans: list[RowPlan] = []
        for record in batch.to_pylist():
            plan = plan_row(
                raw_row(record), self.done, self.guard.validate, with_legs=self.spec.with_legs
            )
            if plan.item is None and plan.row is None:
                stats.skip(plan.line, changed=plan.changed)
            else:
                plans.append(plan)
        items = [plan.item for plan in plans if plan.item is not None]
        verdicts = iter(await self.guard.acheck_many(items))
        out = []
        for plan in plans:
            verdict: Verdict | None = None
            row = plan.row
            if row is None:
                verdict = next(verdicts)
                row = verdict_row(
                    verdict,
                    line=plan.line,
                    input_sha=plan.input_sha,
                    with_legs=self.spec.with_legs,
                )
            stats.add(row, verdict)
            out.append(row)
        if self.tally is not None:
            self.tally.add.remote(stats, self.worker, self.guard.judge_calls)
        return arrow("the Ray engine")[0].Table.from_pylist(out, schema=self.schema)


class Tally:
    """Adds up what the actors did (a Ray actor of its own, made by the driver).

    Rows are counted per batch; judge calls as each worker process's running
    total, so a batch retried after its actor died counts its rows once and
    every call that was made.
    """

    def __init__(self) -> None:
        self.stats = GradeStats()
        self.calls: dict[str, int] = {}

    def add(self, stats: GradeStats, worker: str, calls: int) -> None:
        self.stats.merge(stats)
        self.calls[worker] = max(self.calls.get(worker, 0), calls)

    def totals(self) -> GradeStats:
        self.stats.judge_calls = sum(self.calls.values())
        return self.stats
