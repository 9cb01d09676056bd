"""The generic JSONL format: prin-guard's own format for candidate datasets.

:func:`load_jsonl` reads it and :func:`write_jsonl` writes it; the format itself (fields,
labels, ``gold``) is described in the docstring of :mod:`prin_guard.datasets`.
It is what :func:`~prin_guard.datasets.load_dataset` reads for a path ending in ``.jsonl``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from prin_guard._infra._json import dumps
from prin_guard.datasets._rows import (
    LabeledItem,
    SkipHandler,
    _build_all,
    _existing_file,
    _get,
    _gold_in_order,
    _handler,
    _jsonl_rows,
    _kind,
    _RowError,
    _warn_skip,
)
from prin_guard.models import Item

__all__ = ["load_jsonl", "write_jsonl"]


_JSONL_FIELDS = ("id", "task", "kind", "question", "context", "response", "candidates", "gold")


def _generic_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    unknown = [key for key in row if key not in _JSONL_FIELDS]
    if unknown:
        raise _RowError(f"unknown field {unknown[0]!r} (the fields are {', '.join(_JSONL_FIELDS)})")
    candidates = _get(row, "candidates")
    if not isinstance(candidates, list):
        raise _RowError(f"field 'candidates' is {_kind(candidates)}, not a list")
    # model_validate (not Item(...)) so that errors name the place: candidates.1.label
    item = Item.model_validate({key: value for key, value in row.items() if key != "gold"})
    gold = row.get("gold")
    if gold is None:
        return LabeledItem(item=item, gold=(), line=line, gold_known=False)
    if isinstance(gold, str):
        gold = [gold]
    if not isinstance(gold, list) or not all(isinstance(label, str) for label in gold):
        raise _RowError(f"field 'gold' is {_kind(gold)}: give a label, a list of labels or null")
    labels = [label.strip().upper() for label in gold]
    for label in labels:
        if label not in item.labels:
            raise _RowError(
                f"gold label {label!r} is not a candidate label ({', '.join(item.labels)})"
            )
    return LabeledItem(item=item, gold=_gold_in_order(item, labels), line=line)


def load_jsonl(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """The generic JSONL format described in the docstring of :mod:`prin_guard.datasets`."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _generic_row, _handler(on_skip, file))


def write_jsonl(records: Iterable[LabeledItem], path: str | Path) -> int:
    """Write items in the generic JSONL format (what :func:`load_jsonl` reads); returns the
    number written. Candidates are written with their labels; ``task`` only for items
    that are not ``choice``; ``gold`` is null when ``gold_known`` is false."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as handle:
        for record in records:
            item = record.item
            row: dict[str, Any] = {}
            if item.id is not None:
                row["id"] = item.id
            if item.task != "choice":
                row["task"] = item.task
            if item.kind is not None:
                row["kind"] = item.kind
            if item.question is not None:
                row["question"] = item.question
            if item.context is not None:
                row["context"] = item.context
            if item.response is not None:
                row["response"] = item.response
            row["candidates"] = [
                c.model_dump(exclude_none=True, include={"text", "label", "reasoning", "weight"})
                for c in item.candidates
            ]
            row["gold"] = list(record.gold) if record.gold_known else None
            handle.write(dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count
