"""Writing output rows as JSONL, CSV or Parquet, and resuming from what is written.

JSONL and CSV are appended a row at a time (each row is flushed as it is
written), so an interrupted run, even a killed one, keeps every row it wrote.
Parquet cannot be appended to: rows go to a journal beside the output
(``OUTPUT.partial.jsonl``, appended like JSONL) and :meth:`Sink.close` writes
the Parquet file (what it held before, then the journal's rows for lines it does
not hold yet) under a temporary name, moves it into place (``os.replace``: the
one commit point) and removes the journal. A run killed before the move leaves
the journal, which the next run reads back; one killed after it leaves a journal
whose rows are in the Parquet file already: they are read back once (a row is
known by its input line) and never written twice.

:func:`open_sink` returns what the output holds (its ``Done``, ``_rows.py``: each
input line's id and input hash) and a sink that appends after it. Before
anything is written, the output must be recognisably one of grade's: empty, or a
JSONL file whose first row is ``{"id": ...`` with exactly grade's columns, a CSV
file whose header is grade's, a Parquet file with grade's schema. Anything else
is refused, unmodified. Only then is a row cut short by a kill (a last line
without its line end) dropped, to be judged again.

A write that fails (a full disk) is a :class:`~prin_guard.errors.RunError` naming the file.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final, Protocol

from prin_guard._infra._json import dumps
from prin_guard.errors import RunError, UsageError
from prin_guard.grade._read import arrow, arrow_errors, records
from prin_guard.grade._rows import Done, columns, csv_text, csv_value

__all__ = ["Sink", "UnreadableOutputError", "arrow_schema", "open_sink", "resume_from"]

_BATCH: Final = 10_000
_JSONL_START: Final = b'{"id": '
_NO_CAP: Final = 1 << 62


class Sink(Protocol):
    """Where output rows go."""

    def write(self, row: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class UnreadableOutputError(UsageError):
    """An output file that cannot be read at all (a Parquet file without its footer)."""


def open_sink(path: str | Path, fmt: str, *, with_legs: bool) -> tuple[Sink, Done]:
    """A sink appending to ``path`` and what ``path`` holds already."""
    out = Path(path)
    names = list(columns(with_legs))
    if fmt == "parquet":
        journal = out.with_name(out.name + ".partial.jsonl")
        done = resume_from(out, fmt, with_legs=with_legs)
        done.update(resume_from(journal, "jsonl", with_legs=with_legs))
        out.parent.mkdir(parents=True, exist_ok=True)
        return _ParquetSink(out, journal, names, arrow_schema(with_legs)), done
    if fmt not in ("jsonl", "csv"):
        raise UsageError(f"format: {fmt!r} is not one of jsonl, csv, parquet")
    done = resume_from(out, fmt, with_legs=with_legs)
    out.parent.mkdir(parents=True, exist_ok=True)
    return (_JsonlSink(out) if fmt == "jsonl" else _CsvSink(out, names)), done


def resume_from(path: Path, fmt: str, *, with_legs: bool) -> Done:
    """What the output file ``path`` holds (empty when it does not exist), after making
    sure grade wrote it; then, and only then, a last row cut short is dropped."""
    if not path.exists():
        return {}
    if not path.is_file():
        raise UsageError(f"output: {str(path)!r} is not a file")
    names = list(columns(with_legs))
    try:
        if fmt == "parquet":
            return _parquet_done(path, names)
        done, cut = _jsonl_done(path, names) if fmt == "jsonl" else _csv_done(path, names)
        if cut is not None:
            with path.open("rb+") as handle:
                handle.truncate(cut)
    except OSError as exc:
        raise UsageError(f"output: cannot read {str(path)!r}: {exc.strerror or exc}") from None
    return done


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


def _foreign(path: Path) -> str:
    return (
        f"output: {str(path)!r} is not an output of prin-guard grade (it does not start "
        "with grade's columns); it was left as it is: give another output file"
    )


def _mismatch(path: Path) -> str:
    return (
        f"output: {str(path)!r} holds rows with other columns (written with or without "
        "--with-legs, by another version, or not by prin-guard grade); it was left as it "
        "is: give another output file"
    )


def _write_failed(path: Path, exc: BaseException) -> RunError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return RunError(f"output: cannot write {str(path)!r}: {reason}")


# -- JSONL ------------------------------------------------------------------------------


class _Appender:
    """A file rows are appended to, opened at the first row."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.failed = False
        self._file: IO[str] | None = None

    def close(self) -> None:
        if self._file is not None:
            file, self._file = self._file, None
            try:
                file.close()
            except OSError as exc:
                if not self.failed:  # the write that failed said so already
                    self.failed = True
                    raise _write_failed(self.path, exc) from None


class _JsonlSink(_Appender):
    def write(self, row: dict[str, Any]) -> None:
        try:
            if self._file is None:
                self._file = self.path.open("a", encoding="utf-8")
            self._file.write(dumps(row, ensure_ascii=False) + "\n")
            self._file.flush()
        except OSError as exc:
            self.failed = True
            raise _write_failed(self.path, exc) from None


def _jsonl_done(path: Path, names: list[str]) -> tuple[Done, int | None]:
    """The lines a JSONL output holds, and where a last row cut short starts."""
    with path.open("rb") as handle:
        head = handle.read(len(_JSONL_START))
    if not head:
        return {}, None
    if head != _JSONL_START:
        raise UsageError(_foreign(path))
    done: Done = {}
    for record in records(path, "jsonl", keep=_NO_CAP):
        assert record.data is not None  # nothing is too long to keep
        try:
            row = json.loads(record.data.decode("utf-8", errors="replace"))
        except ValueError:
            if not record.ended:  # a row cut short: grade's, since the file is
                return done, record.start
            raise UsageError(
                f"output: {str(path)!r}: line {record.line} is not JSON; is it an output of "
                "prin-guard grade?"
            ) from None
        if not isinstance(row, dict) or list(row) != names:
            raise UsageError(_mismatch(path))
        if not record.ended:
            return done, record.start
        done[int(row["line"])] = (str(row["id"]), row["input_sha"])
    return done, None


# -- CSV --------------------------------------------------------------------------------


class _CsvSink(_Appender):
    def __init__(self, path: Path, names: list[str]) -> None:
        super().__init__(path)
        self.names = names
        self._writer: Any = None

    def write(self, row: dict[str, Any]) -> None:
        try:
            if self._file is None:
                fresh = not self.path.exists() or self.path.stat().st_size == 0
                self._file = self.path.open("a", encoding="utf-8", newline="")
                self._writer = csv.writer(self._file)
                if fresh:
                    self._writer.writerow(self.names)
            self._writer.writerow([csv_value(name, row[name]) for name in self.names])
            self._file.flush()
        except OSError as exc:
            self.failed = True
            raise _write_failed(self.path, exc) from None


def _csv_header(names: list[str]) -> bytes:
    return (",".join(names) + "\r\n").encode()


def _csv_done(path: Path, names: list[str]) -> tuple[Done, int | None]:
    """The lines a CSV output holds, and where a last record cut short starts."""
    header = _csv_header(names)
    with path.open("rb") as handle:
        head = handle.read(len(header))
    if not head:
        return {}, None
    if head != header:
        if len(head) < len(header) and header.startswith(head):
            return {}, 0  # grade's header, cut short
        if head.startswith(b"id,line,"):
            raise UsageError(_mismatch(path))
        raise UsageError(_foreign(path))
    done: Done = {}
    for record in records(path, "csv", len(header), None, 2, keep=_NO_CAP):
        assert record.data is not None
        if not record.ended:
            return done, record.start
        try:
            item_id, line, sha = _leading_cells(record.data.decode("utf-8", errors="replace"))
            done[int(line)] = (csv_text(item_id), sha or None)
        except ValueError:
            raise UsageError(
                f"output: {str(path)!r}: the record on line {record.line} cannot be read; "
                "is it an output of prin-guard grade?"
            ) from None
    return done, None


def _leading_cells(text: str, count: int = 3) -> list[str]:
    """The first ``count`` cells of a record ``csv.writer`` wrote (a cell is quoted when
    it holds a comma, a quote or a line break, and its quotes are doubled); the rest of
    the record, however long, is not parsed."""
    cells: list[str] = []
    at = 0
    while len(cells) < count:
        if text.startswith('"', at):
            parts, at = [], at + 1
            while True:
                close = text.find('"', at)
                if close < 0:
                    raise ValueError("an unterminated quoted cell")
                parts.append(text[at:close])
                if not text.startswith('"', close + 1):
                    break
                parts.append('"')
                at = close + 2
            cells.append("".join(parts))
            at = close + 1
        else:
            end = len(text)
            for stop in (",", "\r", "\n"):
                found = text.find(stop, at)
                if found >= 0:
                    end = min(end, found)
            cells.append(text[at:end])
            at = end
        if len(cells) < count:
            if not text.startswith(",", at):
                raise ValueError("too few cells")
            at += 1
    return cells


# -- Parquet ----------------------------------------------------------------------------


class _ParquetSink:
    def __init__(self, path: Path, journal: Path, names: list[str], schema: Any) -> None:
        self.path = path
        self.journal = journal
        self.names = names
        self.schema = schema
        self._journal = _JsonlSink(journal)

    def write(self, row: dict[str, Any]) -> None:
        self._journal.write(row)

    def close(self) -> None:
        """Write the Parquet file: its rows so far, then the journal's for lines it does
        not hold; move it into place; drop the journal."""
        self._journal.close()
        if self._journal.failed or not self.journal.exists():
            return  # a failed journal ends in a cut row: the next run drops it
        pa, pq = arrow("Parquet output")
        partial = self.path.with_name(self.path.name + ".writing")
        try:
            with pq.ParquetWriter(partial, self.schema) as writer:
                lines: set[int] = set()
                if self.path.exists():
                    for batch in pq.ParquetFile(self.path).iter_batches(batch_size=_BATCH):
                        table = pa.Table.from_batches([batch]).cast(self.schema)
                        lines.update(table.column("line").to_pylist())
                        writer.write_table(table)
                for rows in _batches(self.journal):
                    # a journal left by a run killed after its move is in the file already
                    fresh = [row for row in rows if row["line"] not in lines]
                    lines.update(row["line"] for row in fresh)
                    if fresh:
                        writer.write_table(pa.Table.from_pylist(fresh, schema=self.schema))
            os.replace(partial, self.path)
        except arrow_errors() as exc:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise _write_failed(self.path, exc) from None
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


def _parquet_done(path: Path, names: list[str]) -> Done:
    pq = arrow("Parquet output")[1]
    try:
        parquet = pq.ParquetFile(path)
        if parquet.schema_arrow.names != names:
            raise UsageError(_mismatch(path))
        done: Done = {}
        for batch in parquet.iter_batches(columns=["id", "line", "input_sha"], batch_size=65536):
            ids, lines, shas = (batch.column(n).to_pylist() for n in range(3))
            done.update(zip(lines, zip(ids, shas, strict=True), strict=True))
    except arrow_errors() as exc:
        raise UnreadableOutputError(
            f"output: {str(path)!r} is not a Parquet file prin-guard grade can read ({exc}); "
            "it was left as it is: give another output file"
        ) from None
    return done
