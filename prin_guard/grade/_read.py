"""Reading the items to grade from JSONL, CSV or Parquet, each row with its line number.

Every format has the same columns: ``question`` (required), ``candidates``
(required), ``context`` and ``id`` (optional); other columns are ignored, so a
file may carry gold labels or metadata along. ``candidates`` is a list (of
strings or of ``{"text", "label"?, "reasoning"?}`` objects) in JSONL and Parquet;
in a CSV cell it is a JSON list when the cell starts with ``[``, otherwise the
candidate texts separated by ``;`` (``7;8;9``: use the JSON form when a text
contains ``;``). Empty ``id`` and ``context`` cells count as absent; a number as
``id`` is read as its text.

A row that cannot be read (not JSON, not an object, a CSV record of the wrong
length, a missing column) is a :class:`RawRow` with an ``error``, never an
exception: the run reports it with its line number and goes on.

Files are read in *chunks*, byte ranges that start on a row (row groups for
Parquet). :func:`read_rows` reads a whole file as one chunk; the Ray engine
plans chunks on the driver with :func:`plan_chunks` and reads them on the
workers with :func:`read_chunk`, so both engines read every row the same way
and number it the same.
"""

from __future__ import annotations

import csv
import importlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from prin_guard._exceptions import MissingExtraError, UsageError

__all__ = [
    "FORMATS",
    "Chunk",
    "RawRow",
    "arrow",
    "count_rows",
    "detect_format",
    "plan_chunks",
    "read_chunk",
    "read_rows",
]

FORMATS: Final = ("jsonl", "csv", "parquet")
_SUFFIXES: Final = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
_FIELDS: Final = ("id", "question", "candidates", "context")


@dataclass(frozen=True, slots=True)
class RawRow:
    """One input row: its fields, or why it could not be read."""

    line: int
    fields: dict[str, Any] | None
    error: str | None = None
    field: str | None = None
    """The offending column of a row that could not be read, when one is to blame."""
    item_id: str | None = None
    """The row's ``id``, when it could be read even though the row could not."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """A part of an input file that starts on a row."""

    path: str
    format: str
    start: int
    """Byte offset (JSONL, CSV) or row group (Parquet)."""
    stop: int | None
    """Byte offset or row group after the last; ``None``: to the end."""
    first_line: int
    header: tuple[str, ...] = ()
    """A CSV file's column names (the header is read once, when planning)."""


def detect_format(path: str | Path, given: str | None = None) -> str:
    """``given`` when set, else the format the file's suffix names."""
    if given is not None:
        if given not in FORMATS:
            raise UsageError(f"format: {given!r} is not one of {', '.join(FORMATS)}")
        return given
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise UsageError(
            f"format: cannot tell the format of {str(path)!r} from its suffix; name it "
            f"({', '.join(FORMATS)})"
        )
    return _SUFFIXES[suffix]


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[RawRow]:
    """Every row of the file, in order."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    if fmt == "parquet":
        return read_chunk(Chunk(str(file), fmt, 0, None, 1))
    header: tuple[str, ...] = ()
    start, first_line = 0, 1
    if fmt == "csv":
        header, start, first_line = _csv_header(file)
    return read_chunk(Chunk(str(file), fmt, start, None, first_line, header))


def count_rows(path: str | Path, fmt: str | None = None) -> int:
    """How many rows the file has (for a progress bar's total); fast, no parsing
    beyond what finding row boundaries needs."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    if fmt == "parquet":
        return int(_parquet(file).metadata.num_rows)
    offset = _csv_header(file)[1] if fmt == "csv" else 0
    return _rows_in(Chunk(str(file), fmt, offset, None, 1))


def plan_chunks(path: str | Path, fmt: str | None = None, *, rows_per_chunk: int) -> list[Chunk]:
    """The file cut into chunks of about ``rows_per_chunk`` rows, each starting on a row."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    if fmt == "parquet":
        meta = _parquet(file).metadata
        chunks, first = [], 1
        for group in range(meta.num_row_groups):
            chunks.append(Chunk(str(file), fmt, group, group + 1, first))
            first += meta.row_group(group).num_rows
        return chunks
    header: tuple[str, ...] = ()
    offset, line = 0, 1
    if fmt == "csv":
        header, offset, line = _csv_header(file)
    chunks = []
    start, first_line, rows, quoted = offset, line, 0, False
    with file.open("rb") as handle:
        handle.seek(offset)
        for raw in handle:
            offset += len(raw)
            line += 1
            if fmt == "csv":
                # A record ends at a line end outside quotes ("" inside quotes toggles twice).
                quoted ^= raw.count(b'"') % 2 == 1
                if quoted:
                    continue
            if raw.strip():
                rows += 1
            if rows >= rows_per_chunk:
                chunks.append(Chunk(str(file), fmt, start, offset, first_line, header))
                start, first_line, rows = offset, line, 0
    if rows or not chunks:
        chunks.append(Chunk(str(file), fmt, start, None, first_line, header))
    return chunks


def read_chunk(chunk: Chunk) -> Iterator[RawRow]:
    """The rows of one chunk, numbered as in the whole file."""
    if chunk.format == "parquet":
        yield from _parquet_rows(chunk)
    elif chunk.format == "csv":
        yield from _csv_rows(chunk)
    else:
        yield from _jsonl_rows(chunk)


def _rows_in(chunk: Chunk) -> int:
    rows, quoted = 0, False
    for raw in _byte_lines(chunk):
        if chunk.format == "csv":
            quoted ^= raw.count(b'"') % 2 == 1
            if quoted:
                continue
        rows += bool(raw.strip())
    return rows


# -- the formats ----------------------------------------------------------------------


class _RowError(Exception):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _byte_lines(chunk: Chunk) -> Iterator[bytes]:
    with Path(chunk.path).open("rb") as handle:
        handle.seek(chunk.start)
        offset = chunk.start
        for raw in handle:
            if chunk.stop is not None and offset >= chunk.stop:
                return
            offset += len(raw)
            yield raw


def _jsonl_rows(chunk: Chunk) -> Iterator[RawRow]:
    for number, raw in enumerate(_byte_lines(chunk), start=chunk.first_line):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            data = json.loads(text)
        except UnicodeDecodeError:
            yield RawRow(number, None, "the line is not UTF-8 text")
            continue
        except ValueError as exc:
            yield RawRow(number, None, f"the line is not JSON: {exc}")
            continue
        if not isinstance(data, dict):
            yield RawRow(number, None, f"the line is a JSON {type(data).__name__}, not an object")
            continue
        yield _row(number, data)


def _csv_header(file: Path) -> tuple[tuple[str, ...], int, int]:
    """The column names, the byte offset after the header record and its next line."""
    offset, line, quoted = 0, 1, False
    lines: list[bytes] = []
    with file.open("rb") as handle:
        for raw in handle:
            offset += len(raw)
            line += 1
            lines.append(raw)
            quoted ^= raw.count(b'"') % 2 == 1
            if not quoted:
                break
    text = b"".join(lines).decode("utf-8-sig", errors="replace")
    header = tuple(name.strip() for name in next(csv.reader([text]), []))
    missing = [name for name in ("question", "candidates") if name not in header]
    if missing:
        raise UsageError(
            f"{file}: the CSV header has no {', '.join(missing)} column "
            f"(columns: question, candidates, context, id)"
        )
    return header, offset, line


def _csv_rows(chunk: Chunk) -> Iterator[RawRow]:
    # with their line ends: a quoted field keeps the line breaks inside it
    lines = (raw.decode("utf-8", errors="surrogateescape") for raw in _byte_lines(chunk))
    reader = csv.reader(lines)
    header = chunk.header
    end = 0
    for record in reader:
        number, end = chunk.first_line + end, reader.line_num
        if not record or record == [""]:
            continue
        if len(record) != len(header):
            yield RawRow(
                number, None, f"the record has {len(record)} fields, the header {len(header)}"
            )
            continue
        data: dict[str, Any] = dict(zip(header, record, strict=True))
        candidates = data.get("candidates", "")
        if candidates.lstrip().startswith("["):
            try:
                data["candidates"] = json.loads(candidates)
            except ValueError as exc:
                item_id = data.get("id") or None
                message = f"the cell starts with '[' but is not a JSON list: {exc}"
                yield RawRow(number, None, message, "candidates", item_id)
                continue
        else:
            data["candidates"] = [text.strip() for text in candidates.split(";")]
        yield _row(number, {key: value if value != "" else None for key, value in data.items()})


def arrow(feature: str) -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet`` (the ``grade`` extra), imported when needed."""
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise MissingExtraError(feature, "grade", "pyarrow") from None


def _parquet(file: Path) -> Any:
    return arrow("Parquet files")[1].ParquetFile(file)


def _parquet_rows(chunk: Chunk) -> Iterator[RawRow]:
    parquet = _parquet(Path(chunk.path))
    names = set(parquet.schema_arrow.names)
    missing = [name for name in ("question", "candidates") if name not in names]
    if missing:
        raise UsageError(f"{chunk.path}: the Parquet file has no {', '.join(missing)} column")
    wanted = [name for name in _FIELDS if name in names]
    stop = parquet.metadata.num_row_groups if chunk.stop is None else chunk.stop
    number = chunk.first_line
    for group in range(chunk.start, stop):
        for batch in parquet.iter_batches(row_groups=[group], columns=wanted, batch_size=4096):
            for data in batch.to_pylist():
                candidates = data.get("candidates")
                if isinstance(candidates, str):
                    stripped = candidates.lstrip()
                    try:
                        data["candidates"] = (
                            json.loads(candidates)
                            if stripped.startswith("[")
                            else [text.strip() for text in candidates.split(";")]
                        )
                    except ValueError as exc:
                        yield RawRow(number, None, f"not a JSON list: {exc}", "candidates")
                        number += 1
                        continue
                elif isinstance(candidates, list):
                    data["candidates"] = [_drop_none(c) for c in candidates]
                yield _row(number, data)
                number += 1


def _drop_none(candidate: Any) -> Any:
    # a Parquet struct has every field; an absent label or reasoning is null
    if isinstance(candidate, Mapping):
        return {key: value for key, value in candidate.items() if value is not None}
    return candidate


def _row(number: int, data: Mapping[str, Any]) -> RawRow:
    """The item's fields of a row, or why they cannot be read."""
    item_id = data.get("id")
    if isinstance(item_id, int | float) and not isinstance(item_id, bool):
        item_id = str(item_id if not float(item_id).is_integer() else int(item_id))
    if item_id is not None and not isinstance(item_id, str):
        return RawRow(number, None, f"id is a {type(item_id).__name__}, not text", "id")
    item_id = item_id or None
    for name in ("question", "candidates"):
        if data.get(name) is None:
            return RawRow(number, None, f"the row has no {name}", name, item_id)
    fields = {name: data[name] for name in _FIELDS if data.get(name) is not None}
    if item_id is not None:
        fields["id"] = item_id
    else:
        fields.pop("id", None)
    if fields.get("context") == "":
        del fields["context"]
    return RawRow(number, fields, item_id=item_id)


def _existing(path: str | Path) -> Path:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"input: {str(path)!r} is not a file")
    return file
