"""The Ray Data pipeline: read -> grade on an actor pool -> write.

::

    chunks of the input (planned on the driver: byte ranges that start on a row,
    or Parquet row groups)
      -> map_batches(read_chunks)                  tasks: rows with their line numbers
      -> map_batches(Grader, actor pool)           each actor: one Guard, shared Redis
      -> write Parquet files or JSONL files        one directory, a file per block

The output directory holds the same rows as the local engine writes for the
same input (in another order). Running again resumes as the local engine does:
the driver reads which input lines the directory's files hold (each file must be
one of grade's: anything else is refused, untouched) and the actors skip them.

Ray Data restarts an actor that dies and runs its batch again; with a shared
Redis cache the legs that actor had already stored are read back, and single
flight makes the legs other actors are asking wait for them, so a dead actor
costs only the calls it had in flight.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from prin_guard._events import log
from prin_guard._exceptions import UsageError
from prin_guard._json import dumps
from prin_guard.grade import GradeStats, GradeSummary, detect_format
from prin_guard.grade._read import DEFAULT_MAX_ROW_BYTES, plan_chunks
from prin_guard.grade._rows import Done
from prin_guard.grade._write import UnreadableOutputError, resume_from
from prin_guard.ray._worker import Grader, Tally, WorkerSpec, read_chunks

__all__ = ["grade", "grade_dataset", "read_items"]

OUTPUT_FORMATS: Final = ("parquet", "jsonl")


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

    The file is cut into chunks on the driver (one pass over it, no parsing);
    the workers read and parse the chunks, so ``input`` must be a path every
    worker can read (the same machine, or a shared filesystem). A JSONL line or
    CSV record longer than ``max_row_bytes`` is a bad row (streamed past).
    """
    ray = _ray()
    chunks = plan_chunks(input, fmt, rows_per_chunk=rows_per_chunk, max_row_bytes=max_row_bytes)
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
    tally: Any = None,
) -> Any:
    """``rows`` (from :func:`read_items`) graded by a pool of ``actors`` actors; the
    input lines in ``done`` (line: the id and input hash of its row) are skipped."""
    ray = _ray()
    if not isinstance(actors, int) or actors < 1:
        raise UsageError(f"actors: must be a positive integer, got {actors!r}")
    return rows.map_batches(
        Grader,
        fn_constructor_kwargs={"spec": spec, "done": done, "tally": tally},
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=num_cpus,
    )


def grade(
    input: str | Path,
    output: str | Path,
    spec: WorkerSpec,
    *,
    input_format: str | None = None,
    output_format: str = "parquet",
    actors: int = 2,
    batch_size: int = 256,
    num_cpus: float = 0.5,
    rows_per_chunk: int = 500,
    address: str | None = None,
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
) -> GradeSummary:
    """Grade ``input`` on Ray into the directory ``output`` (Parquet or JSONL files).

    Connects to the cluster at ``address`` (``ray.init(address=...)``; ``None``:
    the one this process is connected to, else a local one). Input lines that have
    a row in a file already in ``output`` are skipped, so running again resumes.
    """
    ray = _ray()
    if output_format not in OUTPUT_FORMATS:
        raise UsageError(f"format: the Ray engine writes {' or '.join(OUTPUT_FORMATS)}")
    detect_format(input, input_format)
    out = Path(output)
    if out.exists() and not out.is_dir():
        raise UsageError(f"output: the Ray engine writes a directory; {str(out)!r} is a file")
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    done = _done(out, output_format, with_legs=spec.with_legs)
    started = time.monotonic()
    tally = ray.remote(num_cpus=0)(Tally).remote()
    graded = grade_dataset(
        read_items(input, input_format, rows_per_chunk=rows_per_chunk, max_row_bytes=max_row_bytes),
        spec,
        actors=actors,
        batch_size=batch_size,
        num_cpus=num_cpus,
        done=done,
        tally=tally,
    )
    interrupted = False
    try:
        if output_format == "parquet":
            graded.write_parquet(str(out))
        else:
            graded.write_datasink(_jsonl_sink(str(out)))
    except KeyboardInterrupt:
        interrupted = True
    stats: GradeStats = ray.get(tally.totals.remote())
    stats.started = started  # timed on the driver's clock, not the tally's process
    summary = stats.summary(str(out), engine="ray", interrupted=interrupted)
    if summary.changed:
        log().warning("grade_changed_rows", rows=summary.changed, lines=summary.changed_lines)
    return summary


def _jsonl_sink(path: str) -> Any:
    from ray.data.datasource import BlockBasedFileDatasink

    class JsonlDatasink(BlockBasedFileDatasink):
        """Rows as JSON lines, written as the local engine writes them."""

        def __init__(self, where: str) -> None:
            super().__init__(where, file_format="jsonl")

        def write_block_to_file(self, block: Any, file: Any) -> None:
            for row in block.to_arrow().to_pylist():
                file.write((dumps(row, ensure_ascii=False) + "\n").encode())

    return JsonlDatasink(path)


def _done(out: Path, fmt: str, *, with_legs: bool) -> Done:
    """What the files already in ``out`` hold. A Parquet file a killed run left
    unreadable (without its footer) is renamed ``*.unreadable``: it held no row any
    reader could use; a file that is not one of grade's is refused."""
    done: Done = {}
    for file in _files(out, fmt):
        try:
            done.update(resume_from(file, fmt, with_legs=with_legs))
        except UnreadableOutputError as exc:
            log().warning("grade_unreadable_output", path=str(file), error=str(exc)[:200])
            with contextlib.suppress(OSError):
                file.rename(file.with_name(file.name + ".unreadable"))
    return done


def _files(out: Path, fmt: str) -> Iterator[Path]:
    if not out.is_dir():
        return iter(())
    return iter(sorted(out.glob("*.parquet" if fmt == "parquet" else "*.jsonl")))
