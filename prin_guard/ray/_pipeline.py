"""The Ray Data pipeline: read -> grade on an actor pool -> write.

::

    chunks of the input (planned on the driver: byte ranges that start on a row,
    or Parquet row groups)
      -> map_batches(read_chunks)                  tasks: rows with their line numbers
      -> map_batches(Grader, actor pool)           each actor: one Guard, shared Redis
      -> write Parquet files or JSONL files        one directory, a file per block

The output directory holds the same rows as the local engine writes for the
same input (in another order). Ray Data restarts an actor that dies and runs
its batch again; with a shared Redis cache the legs that actor had already
stored are read back, and single flight makes the legs other actors are asking
wait for them, so a dead actor costs only the calls it had in flight.
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
from prin_guard.grade import GradeSummary, detect_format
from prin_guard.grade._read import arrow, plan_chunks
from prin_guard.grade._write import _cut_partial_line
from prin_guard.ray._worker import Grader, Tally, WorkerSpec, read_chunks

__all__ = ["grade", "grade_dataset", "read_items"]

OUTPUT_FORMATS: Final = ("parquet", "jsonl")


def _ray() -> Any:
    import importlib

    return importlib.import_module("ray")


def read_items(input: str | Path, fmt: str | None = None, *, rows_per_chunk: int = 500) -> Any:
    """A Ray Dataset of the input's rows (``line``, ``fields`` as JSON, or ``error``).

    The file is cut into chunks on the driver (one pass over it, no parsing);
    the workers read and parse the chunks, so ``input`` must be a path every
    worker can read (the same machine, or a shared filesystem).
    """
    ray = _ray()
    chunks = plan_chunks(input, fmt, rows_per_chunk=rows_per_chunk)
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
    done: frozenset[str] = frozenset(),
    tally: Any = None,
) -> Any:
    """``rows`` (from :func:`read_items`) graded by a pool of ``actors`` actors."""
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
) -> GradeSummary:
    """Grade ``input`` on Ray into the directory ``output`` (Parquet or JSONL files).

    Connects to the cluster at ``address`` (``ray.init(address=...)``; ``None``:
    the one this process is connected to, else a local one). Items whose id is in
    a file already in ``output`` are skipped, so running again resumes.
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
    done = _done_ids(out, output_format)
    started = time.monotonic()
    tally = ray.remote(num_cpus=0)(Tally).remote()
    graded = grade_dataset(
        read_items(input, input_format, rows_per_chunk=rows_per_chunk),
        spec,
        actors=actors,
        batch_size=batch_size,
        num_cpus=num_cpus,
        done=frozenset(done),
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
    totals = ray.get(tally.totals.remote())
    return GradeSummary(
        output=str(out),
        engine="ray",
        items=totals["items"],
        skipped=totals["skipped"],
        invalid=totals["invalid"],
        judge_errors=totals["judge_errors"],
        flagged=totals["flagged"],
        flag_counts=totals["flags"],
        accepted=totals["accepted"] if totals["decided"] else None,
        judge_calls=totals["judge_calls"],
        prompt_tokens=totals["prompt_tokens"],
        completion_tokens=totals["completion_tokens"],
        cost_usd=round(totals["cost_usd"], 6),
        wall_seconds=round(time.monotonic() - started, 3),
        interrupted=interrupted,
    )


def _jsonl_sink(path: str) -> Any:
    from ray.data.datasource import BlockBasedFileDatasink

    class JsonlDatasink(BlockBasedFileDatasink):
        """Rows as JSON lines, written as the local engine writes them."""

        def __init__(self, where: str) -> None:
            super().__init__(where, file_format="jsonl")

        def write_block_to_file(self, block: Any, file: Any) -> None:
            for row in block.to_arrow().to_pylist():
                file.write((json.dumps(row, ensure_ascii=False) + "\n").encode())

    return JsonlDatasink(path)


def _done_ids(out: Path, fmt: str) -> set[str]:
    """The ids in the files already in ``out``. A file a killed run left unreadable
    (a Parquet file without its footer) is renamed ``*.unreadable``: it held no row
    any reader could use."""
    done: set[str] = set()
    for file in _files(out, fmt):
        try:
            done.update(_ids_in(file, fmt))
        except (OSError, ValueError) as exc:
            log().warning("grade_unreadable_output", path=str(file), error=str(exc)[:200])
            with contextlib.suppress(OSError):
                file.rename(file.with_name(file.name + ".unreadable"))
    return done


def _files(out: Path, fmt: str) -> Iterator[Path]:
    if not out.is_dir():
        return iter(())
    return iter(sorted(out.glob("*.parquet" if fmt == "parquet" else "*.jsonl")))


def _ids_in(file: Path, fmt: str) -> list[str]:
    if fmt == "parquet":
        parquet = arrow("the Ray engine")[1].ParquetFile(file)
        if parquet.schema_arrow.names[:1] != ["id"]:
            raise ValueError("not an output file of prin-guard grade")
        return [str(v) for v in parquet.read(columns=["id"]).column(0).to_pylist()]
    _cut_partial_line(file)
    with file.open(encoding="utf-8") as handle:
        return [str(json.loads(line)["id"]) for line in handle if line.strip()]
