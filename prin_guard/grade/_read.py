"""Reading the items to grade from JSONL, CSV or Parquet, each row with its line number.

Every format has the same columns: ``candidates`` (required), ``question`` (required
but for checklists), ``task`` (``choice``, the default, ``pairwise`` or
``checklist``), ``response`` and ``kind`` (a checklist's: ``criteria`` or ``claims``),
``context`` and ``id`` (optional); other
columns are ignored, so a file may carry gold labels or metadata along. ``candidates``
is a list (of strings or of ``{"text", "label"?, "reasoning"?, "weight"?}`` objects) in
JSONL and Parquet;
in a CSV cell it is a JSON list when the cell starts with ``[``, otherwise the
candidate texts separated by ``;`` (``7;8;9``: use the JSON form when a text
contains ``;``). Empty ``id`` and ``context`` cells count as absent; a number as
``id`` is read as its text.

A row that cannot be read (not JSON, not an object, a CSV record of the wrong
length, a missing column, an ``id`` that is not valid Unicode text, a JSONL line
or CSV record longer than ``max_row_bytes``) is a :class:`RawRow` with an
``error``, never an exception: the run reports it with its line number and goes
on. An over-long row is streamed past, never held in memory whole. A file that
cannot be read at all (a corrupt Parquet file) is a :class:`~prin_guard.UsageError`
naming it.

Files are read in *chunks*, byte ranges that start on a row (row groups for
Parquet). :func:`read_rows` reads a whole file as one chunk; the Ray engine
plans chunks on the driver with :func:`plan_chunks` and reads them on the
workers with :func:`read_chunk`, so both engines read every row the same way
and number it the same. Both find a CSV record's end the way the ``csv`` module
does (a line end outside a quoted field), byte by byte, without parsing.
"""

from __future__ import annotations

import csv
import importlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from prin_guard.errors import MissingExtraError, UsageError

__all__ = [
    "DEFAULT_MAX_ROW_BYTES",
    "FORMATS",
    "Chunk",
    "RawRow",
    "Record",
    "arrow",
    "count_rows",
    "detect_format",
    "plan_chunks",
    "read_chunk",
    "read_rows",
    "records",
]

FORMATS: Final = ("jsonl", "csv", "parquet")
DEFAULT_MAX_ROW_BYTES: Final = 8 * 1024 * 1024
"""The longest JSONL line or CSV record read (8 MiB); a longer one is an invalid row."""
_SUFFIXES: Final = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
_FIELDS: Final = ("id", "task", "question", "candidates", "context", "response", "kind")
_RATING_FIELDS: Final = (
    "id",
    "task",
    "question",
    "response",
    "reference",
    "context",
    "scale",
    "aspects",
)
_REVIEW_FIELDS: Final = (
    "id",
    "task",
    "title",
    "abstract",
    "document",
    "form",
    "system",
    "rebuttal",
    "rebuttal_tolerance",
    "context_tokens",
)
_RANGE: Final = re.compile(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*")
_BLOCK: Final = 1 << 20
_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
_BAD_ID: Final = "id: is not valid Unicode text (a lone surrogate, or bytes that are not UTF-8)"


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
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES
    """The longest JSONL line or CSV record read; a longer one is an invalid row."""


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


def read_rows(
    path: str | Path, fmt: str | None = None, *, max_row_bytes: int = DEFAULT_MAX_ROW_BYTES
) -> Iterator[RawRow]:
    """Every row of the file, in order."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    _check_cap(max_row_bytes)
    if fmt == "parquet":
        _parquet(file)  # a file that is not Parquet is told now, before any output
        return read_chunk(Chunk(str(file), fmt, 0, None, 1))
    header: tuple[str, ...] = ()
    start, first_line = 0, 1
    if fmt == "csv":
        header, start, first_line = _csv_header(file, max_row_bytes)
    return read_chunk(Chunk(str(file), fmt, start, None, first_line, header, max_row_bytes))


def count_rows(
    path: str | Path, fmt: str | None = None, *, max_row_bytes: int = DEFAULT_MAX_ROW_BYTES
) -> int:
    """How many rows the file has (for a progress bar's total); fast, no parsing
    beyond what finding row boundaries needs."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    if fmt == "parquet":
        return int(_parquet(file).metadata.num_rows)
    offset, line = 0, 1
    if fmt == "csv":
        _, offset, line = _csv_header(file, max_row_bytes)
    return sum(1 for _ in records(file, fmt, offset, None, line, keep=0))


def plan_chunks(
    path: str | Path,
    fmt: str | None = None,
    *,
    rows_per_chunk: int,
    max_row_bytes: int = DEFAULT_MAX_ROW_BYTES,
) -> list[Chunk]:
    """The file cut into chunks of about ``rows_per_chunk`` rows, each starting on a row."""
    fmt = detect_format(path, fmt)
    file = _existing(path)
    _check_cap(max_row_bytes)
    if fmt == "parquet":
        meta = _parquet(file).metadata
        groups, first = [], 1
        for group in range(meta.num_row_groups):
            groups.append(Chunk(str(file), fmt, group, group + 1, first))
            first += meta.row_group(group).num_rows
        return groups
    header: tuple[str, ...] = ()
    offset, line = 0, 1
    if fmt == "csv":
        header, offset, line = _csv_header(file, max_row_bytes)
    chunks: list[Chunk] = []
    start, first_line, rows = offset, line, 0
    for record in records(file, fmt, offset, None, line, keep=0):
        rows += 1
        if rows >= rows_per_chunk:
            end = record.start + record.size
            chunks.append(Chunk(str(file), fmt, start, end, first_line, header, max_row_bytes))
            start, first_line, rows = end, record.next_line, 0
    if rows or not chunks:
        chunks.append(Chunk(str(file), fmt, start, None, first_line, header, max_row_bytes))
    return chunks


def read_chunk(chunk: Chunk) -> Iterator[RawRow]:
    """The rows of one chunk, numbered as in the whole file."""
    if chunk.format == "parquet":
        yield from _parquet_rows(chunk)
    elif chunk.format == "csv":
        yield from _csv_rows(chunk)
    else:
        yield from _jsonl_rows(chunk)


# -- records: rows as bytes, found without parsing ----------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """One JSONL line or CSV record as bytes (with its line end), where it is in the file."""

    line: int
    """The line it starts on."""
    next_line: int
    """The line after it."""
    start: int
    """Its byte offset."""
    size: int
    """Its length in bytes (line end included)."""
    data: bytes | None
    """Its bytes; ``None`` when it is longer than the cap (it was streamed past)."""
    ended: bool
    """It ends with a line end (the last row of a file may not; nor does a row cut short)."""


# The quoting state of a CSV record (the csv module's, non-strict): at a field's start, in
# an unquoted field, in a quoted one, or just after a quote inside a quoted field.
_START, _UNQUOTED, _QUOTED, _QUOTE = range(4)


def _csv_state(piece: bytes, state: int) -> int:
    """The quoting state after ``piece`` of a record (no line end outside quotes in it,
    except maybe at its end). A quote opens a quoted field only at the field's start;
    ``""`` inside one is a quote; elsewhere a quote is a character."""
    if state in (_START, _UNQUOTED) and b'"' not in piece:
        return _START if piece.endswith(b",") else _UNQUOTED
    i, n = 0, len(piece)
    while i < n:
        if state == _QUOTED:
            j = piece.find(b'"', i)
            if j < 0:
                return _QUOTED
            state, i = _QUOTE, j + 1
        elif state == _QUOTE:
            if piece[i] == 0x22:  # "" : an escaped quote, still quoted
                state, i = _QUOTED, i + 1
            else:  # the field's quotes are closed; the rest is read unquoted
                state = _UNQUOTED
        elif state == _START and piece[i] == 0x22:
            state, i = _QUOTED, i + 1
        else:
            j = piece.find(b",", i)
            if j < 0:
                return _UNQUOTED
            state, i = _START, j + 1
    return state


def records(
    path: str | Path,
    fmt: str,
    start: int = 0,
    stop: int | None = None,
    first_line: int = 1,
    *,
    keep: int = DEFAULT_MAX_ROW_BYTES,
) -> Iterator[Record]:
    """The non-blank records from byte ``start`` on, those that start before ``stop``.

    A record longer than ``keep`` bytes comes without its bytes: it is read in blocks
    and dropped as it goes, so memory stays bounded by ``keep`` and the block size
    (``keep=0``: find records only, keep none).
    """
    csv_format = fmt == "csv"
    with Path(path).open("rb") as handle:
        handle.seek(start)
        line, lines = first_line, 0
        at, size, over, blank, state = start, 0, False, True, _START
        parts: list[bytes] = []
        while stop is None or at < stop:
            block = handle.read(_BLOCK)
            if not block:
                break
            pos = 0
            while pos < len(block):
                newline = block.find(b"\n", pos)
                end = len(block) if newline < 0 else newline + 1
                piece = block[pos:end]
                pos = end
                size += len(piece)
                if blank and piece.strip():
                    blank = False
                if not over:
                    if size > keep:
                        over, parts = True, []
                    else:
                        parts.append(piece)
                if csv_format:
                    state = _csv_state(piece, state)
                if newline < 0:
                    break
                lines += 1
                if state == _QUOTED:
                    continue  # a line end inside a quoted field: the record goes on
                if not blank:
                    data = None if over else b"".join(parts)
                    yield Record(line, line + lines, at, size, data, True)
                line, lines, at = line + lines, 0, at + size
                size, over, blank, state, parts = 0, False, True, _START, []
                if stop is not None and at >= stop:
                    return
        if size and not blank:
            yield Record(line, line + lines + 1, at, size, None if over else b"".join(parts), False)


def _too_long(record: Record, cap: int) -> str:
    return f"the row is {record.size:,} bytes long; the limit is {cap:,} bytes (max_row_bytes)"


def _check_cap(max_row_bytes: int) -> None:
    if not isinstance(max_row_bytes, int) or max_row_bytes < 1:
        raise UsageError(f"max_row_bytes: must be a positive integer, got {max_row_bytes!r}")


# -- the formats ----------------------------------------------------------------------


def _jsonl_rows(chunk: Chunk) -> Iterator[RawRow]:
    cap = chunk.max_row_bytes
    for record in records(chunk.path, "jsonl", chunk.start, chunk.stop, chunk.first_line, keep=cap):
        number = record.line
        if record.data is None:
            yield RawRow(number, None, _too_long(record, cap))
            continue
        try:
            text = record.data.decode("utf-8-sig" if record.start == 0 else "utf-8")
            data = json.loads(text)
        except UnicodeDecodeError:
            yield RawRow(number, None, "the line is not UTF-8 text")
            continue
        except ValueError as exc:
            yield RawRow(number, None, f"the line is not JSON: {exc}")
            continue
        except RecursionError:
            yield RawRow(number, None, "the line is JSON nested too deeply")
            continue
        if not isinstance(data, dict):
            yield RawRow(number, None, f"the line is a JSON {type(data).__name__}, not an object")
            continue
        yield _row(number, data)


def _csv_header(file: Path, max_row_bytes: int) -> tuple[tuple[str, ...], int, int]:
    """The column names, the byte offset after the header record and its next line."""
    first = next(records(file, "csv", keep=max_row_bytes), None)
    if first is not None and first.data is None:
        raise UsageError(f"{file}: the CSV header is longer than {max_row_bytes:,} bytes")
    text = b"" if first is None else first.data or b""
    try:
        cells = next(csv.reader([text.decode("utf-8-sig", errors="replace")]), [])
    except csv.Error as exc:
        raise UsageError(f"{file}: the CSV header cannot be read: {exc}") from None
    header = tuple(name.strip() for name in cells)
    items = {"candidates", "scale", "title", "document"}
    missing = [] if items & set(header) else ["candidates"]
    if missing or first is None:
        raise UsageError(
            f"{file}: the CSV header has no {', '.join(missing)} column "
            f"(columns: task, question, candidates, context, response, id; a rating's: "
            f"task, question, response, reference, context, scale, id; a review's: "
            f"task, title, abstract, document, form, rebuttal, id)"
        )
    return header, first.start + first.size, first.next_line


def _csv_rows(chunk: Chunk) -> Iterator[RawRow]:
    header, cap = chunk.header, chunk.max_row_bytes
    for found in records(chunk.path, "csv", chunk.start, chunk.stop, chunk.first_line, keep=cap):
        number = found.line
        if found.data is None:
            yield RawRow(number, None, _too_long(found, cap))
            continue
        # undecodable bytes become lone surrogates: a bad id is then told as such
        text = found.data.decode("utf-8", errors="surrogateescape")
        try:
            parsed = list(csv.reader([text]))
        except csv.Error as exc:
            yield RawRow(number, None, f"the record is not valid CSV: {exc}")
            continue
        if len(parsed) > 1:
            yield RawRow(number, None, "the record has a line break outside quotes")
            continue
        record = parsed[0] if parsed else []
        if not record or record == [""]:
            continue
        if len(record) != len(header):
            yield RawRow(
                number, None, f"the record has {len(record)} fields, the header {len(header)}"
            )
            continue
        data: dict[str, Any] = dict(zip(header, record, strict=True))
        candidates = data.get("candidates", "")
        if _is_rating(data) or _is_review(data):
            pass  # a rating, a review: no candidates; their cells are read with their fields
        elif candidates.lstrip().startswith("["):
            try:
                data["candidates"] = json.loads(candidates)
            except ValueError as exc:
                item_id = _readable_id(data.get("id") or None)
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


def arrow_errors() -> tuple[type[BaseException], ...]:
    """What pyarrow raises for a file it cannot read or write."""
    return (arrow("Parquet files")[0].ArrowException, OSError)


def _parquet(file: Path) -> Any:
    pq = arrow("Parquet files")[1]
    try:
        return pq.ParquetFile(file)
    except arrow_errors() as exc:
        raise UsageError(f"input: {str(file)!r} is not a readable Parquet file: {exc}") from None


def _parquet_rows(chunk: Chunk) -> Iterator[RawRow]:
    parquet = _parquet(Path(chunk.path))
    names = set(parquet.schema_arrow.names)
    missing = [] if {"candidates", "scale", "title", "document"} & names else ["candidates"]
    if missing:
        raise UsageError(f"{chunk.path}: the Parquet file has no {', '.join(missing)} column")
    every = _FIELDS + _RATING_FIELDS + _REVIEW_FIELDS
    wanted = [name for name in dict.fromkeys(every) if name in names]
    stop = parquet.metadata.num_row_groups if chunk.stop is None else chunk.stop
    number = chunk.first_line
    for group in range(chunk.start, stop):
        try:
            rows = [
                batch.to_pylist()
                for batch in parquet.iter_batches(
                    row_groups=[group], columns=wanted, batch_size=4096
                )
            ]
        except arrow_errors() as exc:
            raise UsageError(
                f"input: {chunk.path!r}: row group {group} of the Parquet file cannot be "
                f"read: {exc}"
            ) from None
        for batch in rows:
            for data in batch:
                yield _parquet_row(number, data)
                number += 1


def _parquet_row(number: int, data: dict[str, Any]) -> RawRow:
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
            return RawRow(number, None, f"not a JSON list: {exc}", "candidates")
    elif isinstance(candidates, list):
        data["candidates"] = [_drop_none(c) for c in candidates]
    return _row(number, data)


def _drop_none(candidate: Any) -> Any:
    # a Parquet struct has every field; an absent label or reasoning is null
    if isinstance(candidate, Mapping):
        return {key: value for key, value in candidate.items() if value is not None}
    return candidate


def _readable_id(item_id: str | None) -> str | None:
    """``item_id`` unless it cannot be written as text (a lone surrogate, or bytes that are
    not UTF-8 in a CSV cell)."""
    return None if item_id is not None and _SURROGATE.search(item_id) else item_id


def _row(number: int, data: Mapping[str, Any]) -> RawRow:
    """The item's fields of a row, or why they cannot be read."""
    item_id = data.get("id")
    if isinstance(item_id, int | float) and not isinstance(item_id, bool):
        item_id = str(item_id if not float(item_id).is_integer() else int(item_id))
    if item_id is not None and not isinstance(item_id, str):
        return RawRow(number, None, f"id is a {type(item_id).__name__}, not text", "id")
    item_id = item_id or None
    if item_id is not None and _readable_id(item_id) is None:
        return RawRow(number, None, _BAD_ID, "id")
    if _is_rating(data):
        return _rating_row(number, data, item_id)
    if _is_review(data):
        return _review_row(number, data, item_id)
    if data.get("candidates") is None:
        return RawRow(number, None, "the row has no candidates", "candidates", item_id)
    fields = {name: data[name] for name in _FIELDS if data.get(name) is not None}
    if item_id is not None:
        fields["id"] = item_id
    else:
        fields.pop("id", None)
    # an empty cell (CSV) is an absent field
    for name in ("context", "task", "response", "question", "kind"):
        if fields.get(name) == "":
            del fields[name]
    return RawRow(number, fields, item_id=item_id)


def _is_rating(data: Mapping[str, Any]) -> bool:
    task = data.get("task")
    return isinstance(task, str) and task.strip().lower() == "rating"


def _is_review(data: Mapping[str, Any]) -> bool:
    task = data.get("task")
    return isinstance(task, str) and task.strip().lower() == "review"


def _review_row(number: int, data: Mapping[str, Any], item_id: str | None) -> RawRow:
    """A review row's fields (a paper: title and abstract, or a document; its form); an
    empty cell is an absent field, and a number in a text cell (CSV) is read as one."""
    fields = {
        name: data[name]
        for name in _REVIEW_FIELDS
        if data.get(name) is not None and data.get(name) != ""
    }
    fields["task"] = "review"
    for name, kind in (("rebuttal_tolerance", float), ("context_tokens", int)):
        value = fields.get(name)
        if isinstance(value, str):
            try:
                fields[name] = kind(value)
            except ValueError:
                why = f"{name}: expected a number, got {value!r}"
                return RawRow(number, None, why, name, item_id)
    if item_id is not None:
        fields["id"] = item_id
    else:
        fields.pop("id", None)
    return RawRow(number, fields, item_id=item_id)


def _rating_row(number: int, data: Mapping[str, Any], item_id: str | None) -> RawRow:
    """A rating row's fields; its scale given as an object, or in a text cell (CSV,
    Parquet) as JSON or as ``MIN-MAX``."""
    fields = {
        name: data[name]
        for name in _RATING_FIELDS
        if data.get(name) is not None and data.get(name) != ""
    }
    fields["task"] = "rating"
    scale = fields.get("scale")
    if isinstance(scale, str):
        bounds = _RANGE.fullmatch(scale)
        if bounds is not None:
            fields["scale"] = {"min": int(bounds[1]), "max": int(bounds[2])}
        else:
            try:
                fields["scale"] = json.loads(scale)
            except ValueError as exc:
                why = f"scale: expected MIN-MAX (1-10) or a JSON object, not valid JSON: {exc}"
                return RawRow(number, None, why, "scale", item_id)
    aspects = fields.get("aspects")
    if isinstance(aspects, str):  # a text cell: a JSON list, or names separated by ;
        if aspects.lstrip().startswith("["):
            try:
                fields["aspects"] = json.loads(aspects)
            except ValueError as exc:
                why = f"aspects: the cell starts with '[' but is not a JSON list: {exc}"
                return RawRow(number, None, why, "aspects", item_id)
        else:
            fields["aspects"] = [name.strip() for name in aspects.split(";") if name.strip()]
    if isinstance(fields.get("scale"), Mapping):  # a Parquet struct has every field
        fields["scale"] = {k: v for k, v in fields["scale"].items() if v is not None}
    if item_id is not None:
        fields["id"] = item_id
    else:
        fields.pop("id", None)
    return RawRow(number, fields, item_id=item_id)


def _existing(path: str | Path) -> Path:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"input: {str(path)!r} is not a file")
    return file
