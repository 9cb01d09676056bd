"""The Ray Data pipeline: read -> grade on an actor pool -> rows to the driver's file.

::

    driver: plan chunks of the input (byte ranges that start on a row, or Parquet row
            groups), open OUTPUT as the local engine does (what is done), start the
            pipeline, then take the rows from the collector and write them as they come
      pipeline (one Ray task, on the cluster):
        chunks -> map_batches(read_chunks)            tasks: rows with their line numbers
               -> map_batches(Grader, actor pool)     each actor: one Guard, shared Redis;
                                                      finished rows to the Collector

The driver writes OUTPUT with the local engine's writer, so both engines write the same
file, in the format its suffix names (JSONL, CSV or Parquet), and a run again resumes
from it whatever the engine: each input line that has a row is skipped (the actors are
told which), every other one is judged. Rows are written as they finish: a run killed
at any point keeps every row the driver had written (JSONL and CSV are flushed row by
row, Parquet goes through the local engine's journal), and its next run asks only what
is missing.

Ray Data runs in a task of its own on the cluster, not in the driver: its progress
bars, its execution log lines and its warnings go to the Ray session's log files (the
summary names the folder), and the terminal shows grade's progress and lines only. A
local cluster the run starts (no address given, no ``RAY_ADDRESS``, Ray not already
initialised) is the run's own: it is shut down when the run ends, on Ctrl-C and
SIGTERM too, and a small reaper process (``_reaper``) stops whatever is left of it when
the run dies without a chance to (``kill -9``).

Ray Data restarts an actor that dies and runs its batch again; with a shared Redis
cache the legs that actor had already stored are read back, and single flight makes
the legs other actors are asking wait for them, so a dead actor costs only the calls it
had in flight (a row it had already handed over and hands over again is written once).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from prin_guard.errors import PrinGuardError, RunError, UsageError
from prin_guard.grade import GradeStats, GradeSummary, count_rows, detect_format, open_sink
from prin_guard.grade._read import DEFAULT_MAX_ROW_BYTES, Chunk, plan_chunks
from prin_guard.grade._rows import Done
from prin_guard.ray._worker import Collector, Grader, WorkerSpec, read_chunks

__all__ = ["grade_dataset", "grade_on_ray", "read_items"]

_TAKE_SECONDS: Final = 0.2
"""How often the driver takes the rows the graders finished."""


def _ray() -> Any:
    import importlib

    return importlib.import_module("ray")


def read_items(
    input: str | Path,
    fmt: str | None = None,
    *,
    rows_per_chunk: int = 500,
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
) -> Any:
    """A Ray Dataset of the input's rows (``line``, ``fields`` as JSON, or ``error``).

    The file is cut into chunks on the caller (one pass over it, no parsing); the
    workers read and parse the chunks, so ``input`` must be a path every worker can read
    (the same machine, or a shared filesystem). A JSONL line or CSV record longer than
    ``max_row_bytes`` is a bad row (streamed past).
    """
    chunks = plan_chunks(input, fmt, rows_per_chunk=rows_per_chunk, max_row_bytes=max_row_bytes)
    return _dataset_of(chunks)


def _dataset_of(chunks: list[Chunk]) -> Any:
    ray = _ray()
    specs = [{"chunk": json.dumps(dataclasses.asdict(chunk))} for chunk in chunks]
    return ray.data.from_items(specs, override_num_blocks=max(len(specs), 1)).map_batches(
        read_chunks, batch_size=1, batch_format="pyarrow", num_cpus=0.25
    )


def grade_dataset(
    rows: Any,
    spec: WorkerSpec,
    *,
    actors: int = 2,
    batch_size: int = 256,
    num_cpus: float = 0.5,
    done: Done | None = None,
    collector: Any = None,
) -> Any:
    """``rows`` (from :func:`read_items`) graded by a pool of ``actors`` actors; the
    input lines in ``done`` (line: the id and input hash of its row) are skipped. The
    dataset's rows are the output rows; given a :class:`~prin_guard.ray._worker.Collector`
    actor, the graders hand their rows to it as they finish instead."""
    ray = _ray()
    if not isinstance(actors, int) or actors < 1:
        raise UsageError(f"actors: must be a positive integer, got {actors!r}")
    return rows.map_batches(
        Grader,
        fn_constructor_kwargs={"spec": spec, "done": done, "collector": collector},
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=num_cpus,
    )


def _run_pipeline(
    chunks: list[Chunk],
    spec: WorkerSpec,
    done: Done,
    collector: Any,
    actors: int,
    batch_size: int,
    num_cpus: float,
) -> None:
    """The pipeline, run to its end (a Ray task: Ray Data's logs are the task's)."""
    graded = grade_dataset(
        _dataset_of(chunks),
        spec,
        actors=actors,
        batch_size=batch_size,
        num_cpus=num_cpus,
        done=done,
        collector=collector,
    )
    # the rows went to the collector: the blocks are empty, dropped as they come
    for _ in graded.iter_internal_ref_bundles():
        pass


def grade_on_ray(
    input: str | Path,
    output: str | Path,
    spec: WorkerSpec,
    *,
    input_format: str | None = None,
    output_format: str | None = None,
    actors: int = 2,
    batch_size: int = 256,
    num_cpus: float = 0.5,
    rows_per_chunk: int = 500,
    address: str | None = None,
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
    progress: bool = False,
    on_invalid: Callable[[int, str], None] | None = None,
) -> GradeSummary:
    """Grade ``input`` on Ray into the file ``output`` (JSONL, CSV or Parquet, by its
    suffix or ``output_format``), as the local engine writes it.

    Connects to the cluster at ``address`` (``ray.init(address=...)``; ``None``: the
    one this process is connected to, else ``RAY_ADDRESS``'s, else a local one, which
    the run starts and stops). Input lines that have a row in ``output`` already are
    skipped, so running again resumes. ``progress`` shows the local engine's progress on
    stderr; ``on_invalid(line, reason)`` is told of each bad row. Everything is checked
    before any judge is asked: a directory or a file of another format as ``output`` is
    refused, as is an output grade did not write. Ctrl-C (and SIGTERM) stops the run:
    the rows finished are written and the summary is marked ``interrupted``.
    """
    if not isinstance(actors, int) or actors < 1:
        raise UsageError(f"actors: must be a positive integer, got {actors!r}")
    if spec.config.options.on_inconsistent == "raise":
        raise UsageError("on_inconsistent: grading flags inconsistent verdicts; use 'flag'")
    fmt_in = detect_format(input, input_format)
    out = Path(output)
    if out.is_dir():
        raise UsageError(
            f"output: {str(out)!r} is a directory; the Ray engine writes one file, as the "
            "local engine does (graded.jsonl, graded.csv or graded.parquet)"
        )
    fmt_out = detect_format(out, output_format)
    chunks = plan_chunks(input, fmt_in, rows_per_chunk=rows_per_chunk, max_row_bytes=max_row_bytes)
    with contextlib.suppress(OSError):
        if os.path.samefile(input, out):
            raise UsageError(f"output: {str(out)!r} is the input file; give another one")
    sink, done = open_sink(out, fmt_out, with_legs=spec.with_legs)
    stats = GradeStats()
    watcher = None
    if progress:
        from prin_guard.grade._progress import GradeProgress

        watcher = GradeProgress(count_rows(input, fmt_in, max_row_bytes=max_row_bytes), stats)
        watcher.already_done(len(done))
    interrupted = False
    logs: str | None = None
    try:
        with _cluster(address) as session, _stopped_by_signals() as stopping:
            logs = session
            interrupted = _drive(
                chunks,
                spec,
                done,
                sink,
                stats,
                watcher,
                stopping,
                on_invalid,
                # no more actors than chunks: an actor without a chunk would only wait
                actors=min(actors, max(len(chunks), 1)),
                batch_size=batch_size,
                num_cpus=num_cpus,
            )
    finally:
        sink.close()
        if watcher is not None:
            watcher.close()
    summary = stats.summary(str(out), engine="ray", interrupted=interrupted, logs=logs)
    if summary.changed:
        from prin_guard._infra._events import log

        log().warning("grade_changed_rows", rows=summary.changed, lines=summary.changed_lines)
    return summary


def _drive(
    chunks: list[Chunk],
    spec: WorkerSpec,
    done: Done,
    sink: Any,
    stats: GradeStats,
    watcher: Any,
    stopping: threading.Event,
    on_invalid: Callable[[int, str], None] | None,
    *,
    actors: int,
    batch_size: int,
    num_cpus: float,
) -> bool:
    """Run the pipeline and write its rows as they come; whether it was interrupted."""
    ray = _ray()
    collector = ray.remote(num_cpus=0)(Collector).remote()
    pipeline = ray.remote(num_cpus=0, max_retries=0)(_run_pipeline).remote(
        chunks, spec, done, collector, actors, batch_size, num_cpus
    )
    written = _Lines(done)
    counted = GradeStats()  # the collector's: skipped lines, cost, calls
    stats.started = time.monotonic()  # grading time and rate: from the cluster's start

    def take() -> None:
        nonlocal counted
        rows, counted = ray.get(collector.take.remote())
        for row in rows:
            if not written.add(row["line"]):
                continue  # a batch run again after its actor died: written already
            sink.write(row)
            stats.add(row)
            if on_invalid is not None and "invalid_item" in row["flags"]:
                on_invalid(row["line"], row["error"] or "")
            if watcher is not None:
                watcher.update()

    finished = False
    try:
        while not finished:
            if stopping.is_set():
                break
            ready, _ = ray.wait([pipeline], timeout=_TAKE_SECONDS)
            finished = bool(ready)
            take()  # after the wait: a finished pipeline's last rows are in the collector
        if finished:
            ray.get(pipeline)  # its error, if it failed
    except KeyboardInterrupt:
        stopping.set()
    except ray.exceptions.RayTaskError as exc:
        cause = _ours(exc)
        if cause is not None:
            raise cause from None
        raise RunError(f"the Ray pipeline failed: {exc}") from exc
    finally:
        if not finished:
            # stopped: the rows already finished are written; the rest is asked next time
            with contextlib.suppress(Exception):
                ray.cancel(pipeline, force=True)
            with contextlib.suppress(Exception):
                take()
        stats.merge(counted)
        stats.judge_calls = counted.judge_calls
    return not finished


def _ours(exc: BaseException) -> PrinGuardError | None:
    """prin-guard's own error under the layers Ray wraps a task's failure in."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, PrinGuardError):
            return current
        current = getattr(current, "cause", None) or current.__cause__
    return None


class _Lines:
    """The input lines written (or in the output before the run), one bit each."""

    def __init__(self, done: Done) -> None:
        self._bits = bytearray()
        for line in done:
            self.add(line)

    def add(self, line: int) -> bool:
        """Note ``line``; whether it was new."""
        byte, bit = divmod(line, 8)
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits))))
        if self._bits[byte] >> bit & 1:
            return False
        self._bits[byte] |= 1 << bit
        return True


@contextlib.contextmanager
def _cluster(address: str | None) -> Iterator[str | None]:
    """Ray, connected for the run; yields the folder of the cluster's logs.

    Ray already initialised here: used as it is, left as it is. Else connected to
    ``address`` (or ``RAY_ADDRESS``), or a local cluster started on 127.0.0.1, and shut
    down when the run ends; a local one's processes are also watched by the reaper, which
    stops them if the run dies first. Ray's own messages while it starts (its token
    authentication, "Started a local Ray instance") are at Ray's log level ``ERROR``
    (``ray.init``'s ``logging_level``), and its workers' output stays in their log files
    (``log_to_driver=False``).
    """
    ray = _ray()
    if ray.is_initialized():
        yield None  # the caller's Ray: its logs are where the caller put them
        return
    local = address is None and not os.environ.get("RAY_ADDRESS")
    options: dict[str, Any] = {
        "address": address,
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if local:
        options["_node_ip_address"] = "127.0.0.1"  # reachable from this machine only
    before = _children()
    context = ray.init(**options)
    reaper = _start_reaper(sorted(_children() - before)) if local else None
    try:
        yield str(Path(context.address_info["session_dir"]) / "logs")
    finally:
        try:
            ray.shutdown()
        finally:
            if reaper is not None and reaper.stdin is not None:
                reaper.stdin.close()  # the reaper stops whatever the shutdown left


def _children() -> set[int]:
    import psutil

    with contextlib.suppress(psutil.Error):
        return {child.pid for child in psutil.Process().children()}
    return set()


def _start_reaper(pids: list[int]) -> subprocess.Popen[bytes] | None:
    if not pids:
        return None
    return subprocess.Popen(  # noqa: S603 - our own module, with pids
        [sys.executable, "-m", "prin_guard.ray._reaper", *map(str, pids)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[threading.Event]:
    """An event set on SIGINT (Ctrl-C) and SIGTERM, while the run lasts (in the main
    thread; elsewhere only a KeyboardInterrupt stops it). A second SIGINT stops at once."""
    stopping = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stopping
        return

    def stop(signum: int, frame: Any) -> None:
        if stopping.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        stopping.set()
        print(
            "\nprin-guard: stopping; writing the rows finished (Ctrl-C again to stop now)",
            file=sys.stderr,
            flush=True,
        )

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stopping
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
