"""Loaders of problem datasets: every row becomes a :class:`~prin_guard.eval.Problem`.

GSM8K, MultiArith, SVAMP, MATH / MATH-500 and Last Letters have no candidates: a problem
is a question and its reference answer, the input for generating a candidate pool
(:mod:`prin_guard.eval._pool`). The handling of malformed rows is described in the
docstring of :mod:`prin_guard.eval._datasets`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prin_guard.eval._rows import (
    Problem,
    SkipHandler,
    _build_all,
    _existing_file,
    _get,
    _handler,
    _json_document_rows,
    _jsonl_rows,
    _kind,
    _number_text,
    _RowError,
    _text,
    _warn_skip,
)

__all__ = [
    "load_gsm8k",
    "load_last_letters",
    "load_math",
    "load_multiarith",
    "load_svamp",
]


def _gsm8k_problem(line: int, _index: int, row: dict[str, Any]) -> Problem:
    solution = _text(row, "answer")
    if "####" not in solution:
        raise _RowError("field 'answer' has no '#### <answer>' line")
    answer = solution.rsplit("####", 1)[1].strip().replace(",", "")
    if not answer:
        raise _RowError("the '####' line of 'answer' is empty")
    return Problem(question=_text(row, "question"), answer=answer, id=f"gsm8k-{line}", line=line)


def load_gsm8k(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """GSM8K ``test.jsonl``: the answer is the text after ``####`` (thousands separators
    removed: ``"5,600"`` becomes ``"5600"``)."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _gsm8k_problem, _handler(on_skip, file))


def _multiarith_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    solutions = _get(row, "lSolutions")
    if not isinstance(solutions, list):
        raise _RowError(f"field 'lSolutions' is {_kind(solutions)}, not a list")
    if not solutions:
        raise _RowError("field 'lSolutions' is empty")
    key = row.get("iIndex")
    return Problem(
        question=_text(row, "sQuestion").strip(),
        answer=_number_text(solutions[0], "lSolutions"),
        id=f"multiarith-{key if isinstance(key, int) else index}",
        line=line,
    )


def load_multiarith(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """MultiArith (``MultiArith.json``, a JSON list): ``sQuestion``, answer
    ``lSolutions[0]``; ids ``multiarith-<iIndex>``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, None)
    return _build_all(rows, _multiarith_problem, _handler(on_skip, file))


def _svamp_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    key = row.get("ID")
    return Problem(
        question=f"{_text(row, 'Body').strip()} {_text(row, 'Question').strip()}",
        answer=_number_text(_get(row, "Answer"), "Answer"),
        id=f"svamp-{key}" if isinstance(key, str) and key else f"svamp-{index}",
        line=line,
    )


def load_svamp(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """SVAMP (``SVAMP.json``, a JSON list): question ``Body + " " + Question``, numeric
    ``Answer``; ids ``svamp-<ID>``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, None)
    return _build_all(rows, _svamp_problem, _handler(on_skip, file))


def _last_boxed(text: str) -> str | None:
    """The contents of the last ``\\boxed{...}`` (or ``\\fbox{...}``), braces matched."""
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    begin = text.index("{", start) + 1
    depth = 1
    pos = begin
    while pos < len(text) and depth:
        if text[pos] == "{":
            depth += 1
        elif text[pos] == "}":
            depth -= 1
        pos += 1
    return text[begin : pos - 1].strip() if depth == 0 else None


def _math_problem(line: int, _index: int, row: dict[str, Any]) -> Problem:
    if "answer" in row:
        answer = _text(row, "answer").strip()
    else:
        boxed = _last_boxed(_text(row, "solution"))
        if not boxed:
            raise _RowError("no 'answer' field and no \\boxed{...} answer in 'solution'")
        answer = boxed
    unique_id, idx = row.get("unique_id"), row.get("idx")
    if isinstance(unique_id, str) and unique_id:
        key = unique_id
    elif isinstance(idx, int) and not isinstance(idx, bool):
        key = str(idx)
    else:
        key = str(line)
    return Problem(question=_text(row, "problem"), answer=answer, id=f"math-{key}", line=line)


def load_math(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """MATH ``test.jsonl`` (answer = contents of the last ``\\boxed{}`` in ``solution``) or
    MATH-500 (explicit ``answer`` field). Ids ``math-<idx>`` or ``math-<unique_id>``."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _math_problem, _handler(on_skip, file))


def _last_letters_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    return Problem(
        question=_text(row, "question"),
        answer=_text(row, "answer").strip(),
        id=f"last-letters-{index}",
        line=line,
    )


def load_last_letters(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """Last Letter Concatenation (``last_letters.json``): ``examples[{question, answer}]``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _last_letters_problem, _handler(on_skip, file))
