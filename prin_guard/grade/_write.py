"""Writing output rows as JSONL, CSV or Parquet, and resuming from what is written.

JSONL and CSV are appended a row at a time (each row is flushed as it is
written), so an interrupted run, even a killed one, keeps every row it wrote.
Parquet cannot be appended to: rows go to a journal beside the output
(``OUTPUT.partial.jsonl``, appended like JSONL) and :meth:`Sink.close` writes
the Parquet file (what it held before, then the journal) and removes the
journal. A run killed before closing leaves the journal, which the next run
reads back.

:func:`open_sink` returns the ids already in the output (a count per id, so
items that share an id are each resumed once) and a sink that appends after
them. A row cut short by a kill is dropped and judged again.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final, Protocol

from prin_guard._exceptions import UsageError
from prin_guard.grade._read import arrow
from prin_guard.grade._rows import columns, csv_value

__all__ = ["Sink", "arrow_schema", "open_sink"]

_BATCH: Final = 10_000


class Sink(Protocol):
    """Where output rows go."""

    def write(self, row: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


def open_sink(path: str | Path, fmt: str, *, with_legs: bool) -> tuple[Sink, Counter[str]]:
    """A sink appending to ``path`` and the ids already there."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    names = list(columns(with_legs))
    if fmt == "jsonl":
        return _JsonlSink(out, names), _jsonl_ids(out, names)
    if fmt == "csv":
        return _CsvSink(out, names), _csv_ids(out, names)
    if fmt == "parquet":
        schema = arrow_schema(with_legs)
        journal = out.with_name(out.name + ".partial.jsonl")
        done = _parquet_ids(out, names) + _jsonl_ids(journal, names)
        return _ParquetSink(out, journal, names, schema), done
    raise UsageError(f"format: {fmt!r} is not one of jsonl, csv, parquet")


def arrow_schema(with_legs: bool = False) -> Any:
    """The output's Arrow schema (Parquet, and the Ray engine's blocks)."""
    pa = arrow("Parquet output")[0]
    types = {
        "str": pa.string(),
        "int": pa.int64(),
        "float": pa.float64(),
        "bool": pa.bool_(),
        "list": pa.list_(pa.string()),
        "legs": pa.list_(pa.struct([("name", pa.string()), ("raw_text", pa.string())])),
    }
    return pa.schema([(name, types[kind]) for name, kind in columns(with_legs).items()])


# -- JSONL ------------------------------------------------------------------------------


class _JsonlSink:
    def __init__(self, path: Path, names: list[str]) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def write(self, row: dict[str, Any]) -> None:
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _jsonl_ids(path: Path, names: list[str]) -> Counter[str]:
    done: Counter[str] = Counter()
    if not path.exists():
        return done
    _cut_partial_line(path)
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                raise UsageError(
                    f"{path}: line {number} is not JSON; is it an output file?"
                ) from None
            if not isinstance(row, dict) or list(row) != names:
                raise UsageError(_mismatch(path))
            done[str(row["id"])] += 1
    return done


def _cut_partial_line(path: Path) -> None:
    """Drop a last line without its newline: a row cut short when the writer died."""
    with path.open("rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        position = size
        while position > 0:
            step = min(65536, position)
            handle.seek(position - step)
            block = handle.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                handle.truncate(position - step + cut + 1)
                return
            position -= step
        handle.truncate(0)


def _mismatch(path: Path) -> str:
    return (
        f"{path} holds rows with other columns (written with or without --with-legs, or "
        "not by prin-guard grade); give another output file"
    )


# -- CSV --------------------------------------------------------------------------------


class _CsvSink:
    def __init__(self, path: Path, names: list[str]) -> None:
        self.path = path
        self.names = names
        self._file: IO[str] | None = None
        self._writer: Any = None

    def write(self, row: dict[str, Any]) -> None:
        if self._file is None:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            self._file = self.path.open("a", encoding="utf-8", newline="")
            self._writer = csv.writer(self._file)
            if fresh:
                self._writer.writerow(self.names)
        self._writer.writerow([csv_value(name, row[name]) for name in self.names])
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _csv_ids(path: Path, names: list[str]) -> Counter[str]:
    done: Counter[str] = Counter()
    if not path.exists() or path.stat().st_size == 0:
        return done
    _cut_partial_line(path)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            return done
        if header != names:
            raise UsageError(_mismatch(path))
        for record in reader:
            if len(record) == len(names):
                done[record[0]] += 1
    return done


# -- Parquet ----------------------------------------------------------------------------


class _ParquetSink:
    def __init__(self, path: Path, journal: Path, names: list[str], schema: Any) -> None:
        self.path = path
        self.journal = journal
        self.names = names
        self.schema = schema
        self._journal = _JsonlSink(journal, names)

    def write(self, row: dict[str, Any]) -> None:
        self._journal.write(row)

    def close(self) -> None:
        """Write the Parquet file: its rows so far, then the journal's; drop the journal."""
        self._journal.close()
        if not self.journal.exists():
            return
        pa, pq = arrow("Parquet output")
        partial = self.path.with_name(self.path.name + ".writing")
        with pq.ParquetWriter(partial, self.schema) as writer:
            if self.path.exists():
                for batch in pq.ParquetFile(self.path).iter_batches(batch_size=_BATCH):
                    writer.write_table(pa.Table.from_batches([batch]).cast(self.schema))
            for rows in _batches(self.journal):
                writer.write_table(pa.Table.from_pylist(rows, schema=self.schema))
        os.replace(partial, self.path)
        with contextlib.suppress(FileNotFoundError):
            self.journal.unlink()


def _batches(journal: Path) -> Iterator[list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    with journal.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
            if len(rows) >= _BATCH:
                yield rows
                rows = []
    if rows:
        yield rows


def _parquet_ids(path: Path, names: list[str]) -> Counter[str]:
    done: Counter[str] = Counter()
    if not path.exists():
        return done
    parquet = arrow("Parquet output")[1].ParquetFile(path)
    if parquet.schema_arrow.names != names:
        raise UsageError(_mismatch(path))
    for batch in parquet.iter_batches(columns=["id"], batch_size=65536):
        done.update(batch.column(0).to_pylist())
    return done
