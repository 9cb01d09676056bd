"""The records dataset loaders yield, and the row machinery they all share.

Every loader reads a file into rows, builds a :class:`LabeledItem` or a :class:`Problem`
from each, and reports a malformed row through ``on_skip`` instead of failing the whole
file (the rules are in the docstring of :mod:`prin_guard.datasets`). That machinery
lives here, below the loaders (``_loaders``, ``_jsonl``) and the registry
(``_registry``), so that they share one implementation without importing one another.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from prin_guard._infra._events import log
from prin_guard.errors import UsageError
from prin_guard.models import Item

__all__ = [
    "LabeledItem",
    "Problem",
    "SkipHandler",
    "_Bad",
    "_RowError",
    "_build_all",
    "_existing_file",
    "_get",
    "_gold_in_order",
    "_handler",
    "_json_document_rows",
    "_jsonl_rows",
    "_kind",
    "_number_text",
    "_reason",
    "_text",
    "_warn_skip",
]

SkipHandler = Callable[[int, str], None]
"""Called as ``on_skip(line, reason)`` for every malformed row."""

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class LabeledItem:
    item: Item
    gold: tuple[str, ...]
    """Labels of the correct candidates, in candidate order (may be empty)."""
    line: int
    """1-based line in the source file on which the row starts."""
    gold_known: bool = True
    """False when the source gives no gold (generic JSONL with ``gold`` null or absent)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A question with a reference answer and no candidates."""

    question: str
    answer: str
    """The reference answer as text (numbers without a trailing ``.0``)."""
    id: str
    line: int
    """1-based line in the source file on which the record starts."""


# --------------------------------------------------------------------------- skipping


def _warn_skip(line: int, reason: str) -> None:
    log().warning("dataset_row_skipped", line=line, reason=reason)


def _warn_skip_in(file: Path, line: int, reason: str) -> None:
    log().warning("dataset_row_skipped", path=str(file), line=line, reason=reason)


def _handler(on_skip: SkipHandler, file: Path) -> SkipHandler:
    """The default handler, told which file it reports on; any other handler as given."""
    if on_skip is _warn_skip:
        return functools.partial(_warn_skip_in, file)
    return on_skip


class _RowError(ValueError):
    """A malformed row; the message is the reason given to ``on_skip``."""


@dataclass(frozen=True, slots=True)
class _Bad:
    """A row that could not even be decoded."""

    reason: str


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        where = ".".join(str(part) for part in first["loc"])
        # Item's own checks already name the field ("candidates: ...").
        return f"{where}: {message}" if where and not message.startswith(where) else message
    if isinstance(exc, _RowError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return f"{type(exc).__name__}: {exc}"


def _build_all(
    rows: Iterable[tuple[int, int, object]],
    build: Callable[[int, int, dict[str, Any]], _T],
    on_skip: SkipHandler,
) -> Iterator[_T]:
    """Apply ``build(line, index, row)`` to every row; report and skip the ones that fail."""
    for line, index, row in rows:
        if isinstance(row, _Bad):
            on_skip(line, row.reason)
            continue
        try:
            if not isinstance(row, dict):
                raise _RowError(f"the row is {_kind(row)}, not a JSON object")
            built = build(line, index, row)
        except (ValueError, KeyError, TypeError, IndexError, SyntaxError) as exc:
            on_skip(line, _reason(exc))
            continue
        yield built


# --------------------------------------------------------------------------- fields


def _get(row: Mapping[str, Any], key: str, where: str = "") -> Any:
    """``row[key]``; ``where`` is the dotted path of ``row`` in the record, for messages."""
    if key not in row:
        raise _RowError(f"missing field '{where}{key}'")
    return row[key]


def _text(row: Mapping[str, Any], key: str, where: str = "") -> str:
    value = _get(row, key, where)
    if not isinstance(value, str):
        raise _RowError(f"field '{where}{key}' is {_kind(value)}, not a string")
    if not value.strip():
        raise _RowError(f"field '{where}{key}' is empty")
    return value


def _number_text(value: object, field: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _RowError(f"field {field!r} is {_kind(value)}, not a number")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def _gold_in_order(item: Item, correct: Iterable[str]) -> tuple[str, ...]:
    wanted = set(correct)
    return tuple(label for label in item.labels if label in wanted)


# --------------------------------------------------------------------------- files


def _existing_file(path: str | Path) -> Path:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"path: no such file {str(file)!r}")
    return file


def _jsonl_rows(file: Path) -> Iterator[tuple[int, int, object]]:
    """``(line, line, value)`` per non-blank line; a line that is not JSON becomes ``_Bad``."""
    with file.open(encoding="utf-8-sig") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                value: object = json.loads(text)
            except json.JSONDecodeError as exc:
                value = _Bad(f"not valid JSON: {exc.msg} (column {exc.colno})")
            yield number, number, value


_WS = re.compile(r"[ \t\n\r]*")


def _json_document_rows(file: Path, key: str | None) -> list[tuple[int, int, object]]:
    """The records of a JSON document that is a list of records, or an object whose ``key``
    is that list (BIG-bench ``examples``): ``(line, 1-based index, value)`` each."""
    text = file.read_text(encoding="utf-8-sig")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"path: {str(file)!r} is not valid JSON: {exc.msg} "
            f"(line {exc.lineno}, column {exc.colno})"
        ) from None
    if key is None and not isinstance(document, list):
        raise UsageError(
            f"path: {str(file)!r} should be a JSON list of records, not {_kind(document)}"
        )
    if key is not None and not (isinstance(document, dict) and isinstance(document.get(key), list)):
        raise UsageError(f"path: {str(file)!r} should be a JSON object with a {key!r} list")
    # The document is valid JSON: walk it again with raw_decode to learn where each
    # record starts.
    decoder = json.JSONDecoder()

    def skip(pos: int) -> int:
        match = _WS.match(text, pos)
        assert match is not None
        return match.end()

    pos = skip(0)
    if key is not None:
        pos = skip(pos + 1)  # past "{"
        start = -1
        while text[pos] != "}":
            name, pos = decoder.raw_decode(text, pos)
            pos = skip(skip(pos) + 1)  # past ":"
            if name == key:
                start = pos  # the last one wins, as in json.loads
            _, pos = decoder.raw_decode(text, pos)
            pos = skip(pos)
            if text[pos] == ",":
                pos = skip(pos + 1)
        pos = start
    newlines = [match.start() for match in re.finditer("\n", text)]
    rows: list[tuple[int, int, object]] = []
    pos = skip(pos + 1)  # past "["
    while text[pos] != "]":
        value, end = decoder.raw_decode(text, pos)
        rows.append((bisect.bisect_left(newlines, pos) + 1, len(rows) + 1, value))
        pos = skip(end)
        if text[pos] == ",":
            pos = skip(pos + 1)
    return rows
