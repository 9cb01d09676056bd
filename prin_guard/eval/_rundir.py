"""Run directories: what ``eval`` and ``probe`` share around their runners.

A run directory holds ``items.jsonl`` (one record per finished item, appended as
items finish), ``summary.json`` and the report. :func:`drive` runs a runner to
the end or to Ctrl-C: either way the records already written stay, and the
caller summarises what is there (a partial run says so). Re-running is cheap
because judge calls are cached (``sqlite`` by default, under ``PRIN_GUARD_HOME``):
finished items cost nothing the second time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import Coroutine, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from prin_guard._exceptions import UsageError
from prin_guard._settings import home_dir
from prin_guard.cache import Cache, MemoryCache, SQLiteCache
from prin_guard.eval._rows import SkipHandler

if TYPE_CHECKING:
    from prin_guard._terminal import Progress

__all__ = [
    "ITEMS",
    "SUMMARY",
    "drive",
    "new_run_dir",
    "open_cache",
    "progress_meter",
    "read_records",
    "say",
    "skip_reporter",
]

T = TypeVar("T")

ITEMS = "items.jsonl"
SUMMARY = "summary.json"


def say(message: str) -> None:
    """A progress note for the person running a run (stderr; never the results)."""
    print(message, file=sys.stderr, flush=True)


def skip_reporter(
    on_skip: SkipHandler | None, skipped: list[tuple[int, str]] | None = None
) -> SkipHandler:
    """A skip handler that records each skipped row in ``skipped`` (when given) and
    passes it to ``on_skip``, or says it on stderr."""

    def skip(line: int, reason: str) -> None:
        if skipped is not None:
            skipped.append((line, reason))
        if on_skip is not None:
            on_skip(line, reason)
        else:
            say(f"prin-guard: skipped row at line {line}: {reason}")

    return skip


@contextlib.contextmanager
def progress_meter(
    total: int, *, enabled: bool = True, show_prin: bool = True
) -> Iterator[Progress | None]:
    """The run's progress display (closed at the end), or None when ``enabled`` is off."""
    if not enabled:
        yield None
        return
    from prin_guard._terminal import Progress

    meter = Progress(total, show_prin=show_prin)
    try:
        yield meter
    finally:
        meter.close()


def open_cache(spec: Cache | str | None) -> Cache | None:
    """A cache from its command-line spelling.

    ``sqlite`` (under ``PRIN_GUARD_HOME``: re-runs resume), a path to a
    ``.sqlite3`` file, ``memory``, ``none``, or a ``redis://``/``rediss://``/
    ``unix://`` URL (namespace ``eval``). A :class:`~prin_guard.Cache` or None
    passes through.
    """
    if spec is None or not isinstance(spec, str):
        return spec
    if spec == "none":
        return None
    if spec == "memory":
        return MemoryCache()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from prin_guard.cache import RedisCache

        return RedisCache.from_url(spec, namespace="eval")
    if not spec.strip():
        raise UsageError("cache: empty; use sqlite, memory, none, a path or a redis:// URL")
    return SQLiteCache(Path(spec) if spec != "sqlite" else home_dir() / "eval-cache.sqlite3")


def new_run_dir(out: str | Path | None, *parts: str) -> Path:
    """``out``, or ``runs/<parts joined by '-'>-<time>``; created."""
    if out is not None:
        path = Path(out)
    else:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        name = "-".join(re.sub(r"[/:\\\s]+", "_", part)[:40] for part in (*parts, stamp))
        path = Path("runs") / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def drive(runner: Coroutine[Any, Any, T]) -> tuple[T | None, bool]:
    """Run ``runner`` on a new event loop; ``(result, interrupted)``.

    Ctrl-C cancels the runner (which keeps every record it wrote) and returns
    ``(None, True)`` instead of raising, so the caller can summarise the partial
    run. Not callable inside a running event loop.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        runner.close()
        raise UsageError("a run drives its own event loop: call it outside async code")
    try:
        return asyncio.run(runner), False
    except KeyboardInterrupt:
        say("\nprin-guard: interrupted; writing the partial results")
        return None, True


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of ``items.jsonl`` (none when the run wrote none)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
