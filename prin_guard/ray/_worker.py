"""What runs on the Ray workers: reading chunks, the grading actor, the tally.

:class:`Grader` is the actor class of the pipeline's actor pool: it builds its
:class:`~prin_guard.Guard` once (judge, options, the shared Redis cache with
single flight, the shared rate limit) and turns each batch of input rows into
output rows with the local engine's own functions, so both engines write the
same rows. :class:`Tally` (one small actor) adds up what every actor did, for
the run's summary.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from prin_guard._exceptions import InvalidItemError
from prin_guard._guard import Guard
from prin_guard._models import Item, Verdict
from prin_guard._options import GuardOptions
from prin_guard._ratelimit import RateLimit
from prin_guard.cache import Cache, MemoryCache
from prin_guard.grade import GradeStats, arrow_schema, invalid_row, verdict_row
from prin_guard.grade._local import redis_connections
from prin_guard.grade._read import Chunk, arrow, read_chunk

__all__ = ["INPUT_COLUMNS", "Grader", "Tally", "WorkerSpec", "read_chunks"]

INPUT_COLUMNS: Final = ("line", "fields", "error", "field", "item_id")
_COUNTS: Final = ("items", "skipped", "invalid", "judge_errors", "flagged", "accepted", "decided")
_USAGE: Final = ("prompt_tokens", "completion_tokens", "cost_usd")


@dataclass(frozen=True)
class WorkerSpec:
    """What every actor builds its Guard from; sent to the actors once."""

    judge: str | Callable[[], Any]
    """A judge spec (``openai/gpt-4o-mini``, ``python:module:factory``, ...) or a
    picklable function returning a judge (or a function of the prompt)."""
    options: GuardOptions = field(default_factory=GuardOptions)
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
    panel: tuple[str, ...] = ()
    """Judge specs of a panel (instead of ``judge``)."""
    tiers: tuple[tuple[str, ...], ...] = ()
    """Judge specs per tier of a cascade (instead of ``judge``; needs ``acceptance``)."""
    acceptance: str | None = None
    """The acceptance file's JSON (the actors need no shared file system)."""
    api_base: str | None = None
    structured: str | None = None
    max_tokens: int | None = None

    def build_judge(self) -> Any:
        if isinstance(self.judge, str):
            return self._from_spec(self.judge)
        return self.judge()

    def _from_spec(self, spec: str) -> Any:
        from prin_guard.judges import judge_from_spec

        return judge_from_spec(
            spec, api_base=self.api_base, structured=self.structured, max_tokens=self.max_tokens
        )

    def guard_judges(self) -> dict[str, Any]:
        """The Guard keywords that say who judges: judge (or a panel) or tiers, acceptance."""
        from prin_guard._acceptance import Acceptance

        acceptance = None if self.acceptance is None else Acceptance.from_json(self.acceptance)
        if self.tiers:
            levels: list[Any] = []
            for level in self.tiers:
                members = [self._from_spec(spec) for spec in level]
                levels.append(members[0] if len(members) == 1 else members)
            return {"tiers": levels, "acceptance": acceptance}
        if self.panel:
            return {
                "judge": [self._from_spec(spec) for spec in self.panel],
                "acceptance": acceptance,
            }
        return {"judge": self.build_judge(), "acceptance": acceptance}

    def build_cache(self) -> Cache:
        if self.redis_url is None:
            return MemoryCache()
        from prin_guard.cache import RedisCache

        return RedisCache.from_url(
            self.redis_url,
            namespace=self.namespace,
            lock_ttl=self.lock_ttl,
            max_connections=redis_connections(self.concurrency),
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


class Grader:
    """The pipeline's actor: one Guard per actor, one output row per input row."""

    def __init__(self, spec: WorkerSpec, done: frozenset[str] = frozenset(), tally: Any = None):
        self.spec = spec
        self.guard = Guard(
            **spec.guard_judges(),
            options=spec.options,
            cache=spec.build_cache(),
            concurrency=spec.concurrency,
            rate_limit=spec.rate_limit,
        )
        self.done = done
        self.tally = tally
        self.schema = arrow_schema(spec.with_legs)
        self.worker = f"{os.getpid()}-{id(self)}"

    async def __call__(self, batch: Any) -> Any:
        rows: list[dict[str, Any] | None] = []
        items: list[Item] = []
        lines: list[int] = []
        stats = GradeStats()
        for raw in batch.to_pylist():
            item = self._item(raw, rows, stats)
            if item is not None:
                items.append(item)
                lines.append(raw["line"])
                rows.append(None)  # its verdict's row goes here
        verdicts = iter(await self.guard.acheck_many(items))
        line = iter(lines)
        out = []
        for row in rows:
            verdict: Verdict | None = None
            if row is None:
                verdict = next(verdicts)
                row = verdict_row(verdict, line=next(line), with_legs=self.spec.with_legs)
            stats.add(row, verdict)
            out.append(row)
        if self.tally is not None:
            self.tally.add.remote(_counts(stats), self.worker, self.guard.judge_calls)
        return arrow("the Ray engine")[0].Table.from_pylist(out, schema=self.schema)

    def _item(
        self, raw: dict[str, Any], rows: list[dict[str, Any] | None], stats: GradeStats
    ) -> Item | None:
        """The row's item; a bad row's output row goes into ``rows`` instead; None for
        a row already in the output (counted as skipped)."""
        line, with_legs = raw["line"], self.spec.with_legs
        fallback = raw["item_id"] or f"line:{line}"
        if raw["fields"] is None:
            stats.skipped += fallback in self.done
            if fallback not in self.done:
                rows.append(
                    invalid_row(
                        line,
                        raw["error"] or "unreadable row",
                        item_id=raw["item_id"],
                        field=raw["field"],
                        with_legs=with_legs,
                    )
                )
            return None
        try:
            item = Item.coerce(
                json.loads(raw["fields"]),
                max_chars=self.guard.max_chars,
                max_candidates=self.guard.max_candidates,
            )
        except InvalidItemError as exc:
            stats.skipped += fallback in self.done
            if fallback not in self.done:
                rows.append(
                    invalid_row(
                        line, str(exc), item_id=raw["item_id"], field=exc.field, with_legs=with_legs
                    )
                )
            return None
        if item.key in self.done:
            stats.skipped += 1
            return None
        return item


def _counts(stats: GradeStats) -> dict[str, Any]:
    counts: dict[str, Any] = {name: getattr(stats, name) for name in (*_COUNTS, *_USAGE)}
    counts["flags"] = dict(stats.flags)
    return counts


class Tally:
    """Adds up what the actors did (a Ray actor of its own, made by the driver).

    Rows are counted per batch; judge calls as each worker process's running
    total, so a batch retried after its actor died counts its rows once and
    every call that was made.
    """

    def __init__(self) -> None:
        self.counts: dict[str, Any] = dict.fromkeys((*_COUNTS, *_USAGE), 0)
        self.flags: dict[str, int] = {}
        self.calls: dict[str, int] = {}

    def add(self, counts: dict[str, Any], worker: str, calls: int) -> None:
        for name, value in counts.items():
            if name == "flags":
                for flag, n in value.items():
                    self.flags[flag] = self.flags.get(flag, 0) + n
            else:
                self.counts[name] += value
        self.calls[worker] = max(self.calls.get(worker, 0), calls)

    def totals(self) -> dict[str, Any]:
        return {**self.counts, "flags": dict(self.flags), "judge_calls": sum(self.calls.values())}
