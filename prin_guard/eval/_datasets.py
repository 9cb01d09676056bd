"""Loaders for benchmark files in their original formats, and a generic JSONL format.

Two kinds of loader:

* **Candidate datasets** yield :class:`LabeledItem`: an :class:`~prin_guard.Item` (the
  question and its candidates) and the gold labels. MathQA, AQuA-RAT, CommonsenseQA,
  MMLU, StrategyQA, Coin Flip, GSM8K model solutions, and the generic JSONL format.
  :data:`DATASETS` registers them by name and :func:`load_dataset` loads one by name
  (the small sample shipped in ``prin_guard/data``) or from a path.
* **Problem datasets** have no candidates; they yield :class:`Problem` (question and
  reference answer), the input for generating a candidate pool: GSM8K, MultiArith,
  SVAMP, MATH / MATH-500 and Last Letters.

Each loader reads the file's original format, so the same loader reads the shipped
sample and the full original file. A loader checks that its file exists when called
(:class:`~prin_guard.UsageError` otherwise) and reads rows lazily as it is iterated; a
file that is a single JSON document is parsed whole, and a broken document is a
``UsageError``.

Malformed rows
--------------
A malformed row (missing field, unknown answer key, two options with the same text,
...) is skipped and reported through ``on_skip(line, reason)``; the rest of the file
still loads. The default handler logs a ``dataset_row_skipped`` warning event with the
file, line and reason. ``line`` is 1-based: the line on which the row starts for JSON
Lines and CSV files (an MMLU row can span several lines), and the line of the record's
opening ``{`` for files that are one JSON document.

Item ids
--------
``<dataset>-<n>``: ``mathqa-<line>``, ``aqua-rat-<line>``, ``gsm8k-solutions-<line>``,
``mmlu-<subject>-<row>`` (row = 1-based CSV record number in the subject's file),
``strategyqa-<n>`` and ``coinflip-<n>`` (n = 1-based position in ``examples``);
``commonsenseqa-<id>`` uses the dataset's own ``id``. The shipped samples are the first
rows of the original files, so a sample item has the same id as in the full file.

GSM8K model solutions
---------------------
``example_model_solutions.jsonl`` (openai/grade-school-math) gives four real model
solutions per test question, each marked correct or not. An item asks which of the
four *solutions* are correct, so every solution is one candidate, in the file's order:
``6b_finetuning``, ``6b_verification``, ``175b_finetuning``, ``175b_verification``
(labels A-D). The candidate text is ``"Solution <k>: <final answer>"`` (the final answer
is what follows the last ``A:`` line; ``"(no final answer)"`` when the solution has
none, as 11 cut-off solutions do) and ``reasoning`` is the whole solution with its
``<<48/2=24>>`` calculator annotations removed (an unclosed one at the end of a cut-off
solution stays). The solution number is needed because the four final answers repeat
in 828 of the 1,319 questions (and whole solutions are identical in 8), while
:class:`~prin_guard.Item` rejects candidates with the same text; the number is neutral
(no model name). Gold is the set of labels whose ``is_correct`` is true: 0 to 4 labels.
Solutions with equal final answers always share the same ``is_correct`` in this file,
so a judge that only sees the final answers can still be scored exactly; with the
``cot`` mitigation it sees each solution as well.

Generic JSONL format
--------------------
One JSON object per line (blank lines are ignored)::

    {"id": "q1",                          # optional string; content hash when absent
     "question": "What is 6 x 7?",        # required, non-empty
     "context": "Grade-school arithmetic.",   # optional string
     "candidates": [                      # at least two, texts distinct (ignoring case)
         "42",                            # a plain string, or
         {"text": "48", "label": "B", "reasoning": "6 x 8 = 48"}
     ],                                   # label and reasoning are optional
     "gold": ["A"]}                       # list of labels, one label "A", [] or null

Labels missing from candidates are assigned A, B, C, ... in order, skipping any
given explicitly. ``gold`` names the correct candidates by label: ``[]`` means none is
correct; ``null`` (or no ``gold`` field) means the gold answer is unknown, which gives
``gold=()`` and ``gold_known=False``. Any other field is an error (it catches typos such
as ``"contxt"``). :func:`write_jsonl` writes this format.
"""

from __future__ import annotations

import ast
import bisect
import csv
import functools
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from prin_guard._events import log
from prin_guard._exceptions import UsageError
from prin_guard._models import Candidate, Item

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "LabeledItem",
    "Loader",
    "Problem",
    "SkipHandler",
    "load_aqua_rat",
    "load_coinflip",
    "load_commonsenseqa",
    "load_dataset",
    "load_gsm8k",
    "load_gsm8k_solutions",
    "load_jsonl",
    "load_last_letters",
    "load_math",
    "load_mathqa",
    "load_mmlu",
    "load_multiarith",
    "load_strategyqa",
    "load_svamp",
    "sample_path",
    "write_jsonl",
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


class Loader(Protocol):
    """A candidate-dataset loader: ``loader(path, on_skip=...)``."""

    def __call__(
        self, path: str | Path, *, on_skip: SkipHandler = ...
    ) -> Iterator[LabeledItem]: ...


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


# --------------------------------------------------------------------------- MathQA

# "a ) 38 , b ) 27.675 , c ) 30": option text may itself contain commas.
_MATHQA_OPTION = re.compile(r"(?:^|,)\s*([a-e])\s*\)\s*")


def _mathqa_options(raw: str) -> list[tuple[str, str]]:
    text = raw.strip()
    if text.startswith("["):
        try:
            values = ast.literal_eval(text)
        except (ValueError, SyntaxError) as exc:
            raise _RowError(f"options list literal is not valid: {exc}") from None
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise _RowError("options list literal is not a list of strings")
        out = []
        for value in values:
            match = re.match(r"\s*([a-e])\s*\)\s*(.*)$", value, re.DOTALL)
            if not match:
                raise _RowError(f"option {value!r} has no letter")
            out.append((match.group(1), match.group(2).strip()))
        return out
    parts = _MATHQA_OPTION.split(text)
    # split gives ['', 'a', '38 ', 'b', '27.675 ', ...]
    if parts[0].strip():
        raise _RowError("options do not start with 'a )'")
    letters, texts = parts[1::2], parts[2::2]
    return [
        (letter, body.strip().rstrip(",").strip())
        for letter, body in zip(letters, texts, strict=True)
    ]


def _mathqa_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    options = _mathqa_options(_text(row, "options"))
    letters = [letter for letter, _ in options]
    if letters != list("abcde")[: len(letters)] or len(letters) < 2:
        raise _RowError(f"option letters {', '.join(letters)} are not a, b, c, ...")
    correct = str(_get(row, "correct")).strip().lower()
    if correct not in letters:
        raise _RowError(f"answer key {correct!r} is not one of the options")
    item = Item(
        question=_text(row, "problem"),
        candidates=tuple(Candidate(label=letter.upper(), text=text) for letter, text in options),
        id=f"mathqa-{line}",
    )
    return LabeledItem(item=item, gold=(correct.upper(),), line=line)


def load_mathqa(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """MathQA in the math-evaluation-harness JSONL format (letter key in ``correct``).

    ``options`` is one string ``"a ) 38 , b ) 27.675 , ..."`` or, in about 2% of rows, a
    Python list literal ``"['a ) 462 cm ²', ...]"``; both are read.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _mathqa_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- AQuA-RAT

_AQUA_OPTION = re.compile(r"\s*([A-Z])\s*\)(.*)$", re.DOTALL)


def _aqua_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    options = _get(row, "options")
    if not isinstance(options, list) or len(options) < 2:
        raise _RowError(f"field 'options' is {_kind(options)}, not a list of 2 or more options")
    candidates = []
    for number, option in enumerate(options, start=1):
        match = _AQUA_OPTION.match(option) if isinstance(option, str) else None
        if match is None:
            raise _RowError(f"option {number} ({option!r}) is not of the form 'A)text'")
        candidates.append(Candidate(label=match.group(1), text=match.group(2).strip()))
    letters = [c.label for c in candidates]
    expected = [chr(ord("A") + n) for n in range(len(candidates))]
    if letters != expected:
        raise _RowError(f"option letters {', '.join(map(str, letters))} are not A, B, C, ...")
    correct = _text(row, "correct").strip().upper()
    if correct not in letters:
        raise _RowError(f"answer key {correct!r} is not one of the options")
    item = Item(
        question=_text(row, "question"), candidates=tuple(candidates), id=f"aqua-rat-{line}"
    )
    return LabeledItem(item=item, gold=(correct,), line=line)


def load_aqua_rat(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """AQuA-RAT ``test.json`` / ``dev.json`` (JSON Lines despite the extension).

    ``options`` is ``["A)21", "B)22", ...]``; the answer key is the letter in ``correct``.
    The ``rationale`` (the worked solution of the correct option) is not used.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _aqua_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- CommonsenseQA


def _csqa_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    question = _get(row, "question")
    if not isinstance(question, dict):
        raise _RowError(f"field 'question' is {_kind(question)}, not an object")
    choices = _get(question, "choices", "question.")
    if not isinstance(choices, list):
        raise _RowError(f"field 'question.choices' is {_kind(choices)}, not a list")
    candidates = []
    for number, choice in enumerate(choices):
        if not isinstance(choice, dict):
            raise _RowError(f"choice {number} is {_kind(choice)}, not an object")
        where = f"question.choices.{number}."
        candidates.append(
            Candidate(label=_text(choice, "label", where), text=_text(choice, "text", where))
        )
    key = row.get("id")
    item = Item(
        question=_text(question, "stem", "question."),
        candidates=tuple(candidates),
        id=f"commonsenseqa-{key}" if isinstance(key, str) and key else f"commonsenseqa-{line}",
    )
    answer = _text(row, "answerKey").strip().upper()
    if answer not in item.labels:
        raise _RowError(f"answer key {answer!r} is not one of the labels {', '.join(item.labels)}")
    return LabeledItem(item=item, gold=(answer,), line=line)


def load_commonsenseqa(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """CommonsenseQA JSONL (``dev_rand_split.jsonl``): ``question.stem``,
    ``question.choices[{label, text}]`` and the answer letter in ``answerKey``."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _csqa_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- MMLU

_MMLU_SPLITS = ("dev", "val", "test")
_MMLU_COLUMNS = "question, A, B, C, D, answer"


def _mmlu_files(path: str | Path, split: str | None) -> list[Path]:
    root = Path(path)
    if split is not None and split not in _MMLU_SPLITS:
        raise UsageError(f"split: {split!r} is not one of {', '.join(_MMLU_SPLITS)}")
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise UsageError(f"path: no such file or directory {str(root)!r}")
    for base in (root, root / "data"):
        folder = base / (split or "test")
        if folder.is_dir():
            files = sorted(folder.glob("*.csv"))
            if not files:
                raise UsageError(f"path: no .csv files in {str(folder)!r}")
            return files
    files = sorted(root.glob("*.csv"))
    if split is not None:
        files = [f for f in files if f.stem.endswith(f"_{split}")]
    if not files:
        which = f"*_{split}.csv" if split else ".csv"
        raise UsageError(
            f"path: no MMLU {which} files in {str(root)!r} (nor a dev/val/test folder)"
        )
    return files


def _mmlu_subject(file: Path) -> str:
    stem = file.stem
    for split in _MMLU_SPLITS:
        if stem.endswith(f"_{split}"):
            return stem.removesuffix(f"_{split}")
    return stem


def _mmlu_rows(file: Path, on_skip: SkipHandler) -> Iterator[tuple[int, int, object]]:
    """``(start line, record number, row as an object)`` per CSV record of one file."""
    with file.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        record = 0
        while True:
            start = reader.line_num + 1
            try:
                fields = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                on_skip(start, f"{file.name}: not valid CSV: {exc}")
                continue
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue  # blank line
            record += 1
            if len(fields) != 6:
                on_skip(
                    start,
                    f"{file.name}: expected 6 columns ({_MMLU_COLUMNS}), got {len(fields)}",
                )
                continue
            yield (
                start,
                record,
                dict(zip(("question", "A", "B", "C", "D", "answer"), fields, strict=True)),
            )


def _mmlu_row(subject: str, line: int, record: int, row: dict[str, Any]) -> LabeledItem:
    answer = row["answer"].strip().upper()
    if answer not in ("A", "B", "C", "D"):
        raise _RowError(f"answer {row['answer']!r} is not A, B, C or D")
    item = Item(
        question=row["question"],
        candidates=tuple(Candidate(label=label, text=row[label]) for label in "ABCD"),
        id=f"mmlu-{subject}-{record}",
    )
    return LabeledItem(item=item, gold=(answer,), line=line)


def load_mmlu(
    path: str | Path, *, split: str | None = None, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """MMLU headerless CSV: ``question, A, B, C, D, answer``, one file per subject.

    ``path`` is one subject's file (``abstract_algebra_test.csv``) or a directory: a
    folder holding the ``dev``/``val``/``test`` folders (or their parent, the repository
    root with ``data/``) loads ``split`` (default ``test``); a folder of CSV files loads
    all of them, or only the ``*_<split>.csv`` ones when ``split`` is given. Files load in
    name order. Quoted fields may hold commas and newlines. ``line`` is per file, so skip
    reasons start with the file's name.
    """
    files = _mmlu_files(path, split)
    handler = _handler(on_skip, files[0] if len(files) == 1 else Path(path))
    return itertools.chain.from_iterable(_load_mmlu_file(file, handler) for file in files)


def _load_mmlu_file(file: Path, on_skip: SkipHandler) -> Iterator[LabeledItem]:
    subject = _mmlu_subject(file)

    def in_file(line: int, reason: str) -> None:
        on_skip(line, reason if reason.startswith(f"{file.name}: ") else f"{file.name}: {reason}")

    return _build_all(
        _mmlu_rows(file, on_skip),
        functools.partial(_mmlu_row, subject),
        in_file,
    )


# --------------------------------------------------------------------------- BIG-bench


def _strategyqa_row(line: int, index: int, row: dict[str, Any]) -> LabeledItem:
    scores = _get(row, "target_scores")
    if not isinstance(scores, dict) or len(scores) < 2:
        raise _RowError(f"field 'target_scores' is {_kind(scores)}, not an object of 2+ options")
    for option, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise _RowError(f"target_scores[{option!r}] is {_kind(score)}, not a number")
    best = max(scores.values())
    if best <= 0:
        raise _RowError("no option in 'target_scores' has a positive score")
    item = Item(
        question=_text(row, "input"),
        candidates=tuple(Candidate(text=option) for option in scores),
        id=f"strategyqa-{index}",
    )
    correct = [item.labels[n] for n, score in enumerate(scores.values()) if score == best]
    return LabeledItem(item=item, gold=tuple(correct), line=line)


def load_strategyqa(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """StrategyQA as a BIG-bench task (``task.json``): ``examples[{input, target_scores}]``.

    The options of ``target_scores`` ("Yes", "No") become the candidates in their order
    (A, B); gold is the option(s) with the highest score. Any BIG-bench multiple-choice
    task in this format loads the same way.
    """
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _strategyqa_row, _handler(on_skip, file))


def _coinflip_row(line: int, index: int, row: dict[str, Any]) -> LabeledItem:
    answer = _text(row, "answer").strip().lower()
    if answer not in ("yes", "no"):
        raise _RowError(f"answer {row['answer']!r} is not 'yes' or 'no'")
    item = Item(
        question=_text(row, "question"),
        candidates=(Candidate(text="yes"), Candidate(text="no")),
        id=f"coinflip-{index}",
    )
    return LabeledItem(item=item, gold=("A",) if answer == "yes" else ("B",), line=line)


def load_coinflip(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """Coin Flip (``coin_flip.json``): ``examples[{question, answer}]``; candidates
    ``yes`` (A) and ``no`` (B)."""
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _coinflip_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- GSM8K solutions

_GSM8K_SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
_CALCULATOR = re.compile(r"<<[^<>]*>>")
_NO_FINAL_ANSWER = "(no final answer)"


def _final_answer(solution: str) -> str:
    """What follows the last ``A:`` line of a GSM8K model solution."""
    for text in reversed(solution.splitlines()):
        if text.startswith("A:"):
            return text[2:].strip() or _NO_FINAL_ANSWER
    return _NO_FINAL_ANSWER


def _gsm8k_solutions_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    candidates = []
    correct = []
    for number, key in enumerate(_GSM8K_SOLVERS, start=1):
        entry = _get(row, key)
        if not isinstance(entry, dict):
            raise _RowError(f"field {key!r} is {_kind(entry)}, not an object")
        solution = _text(entry, "solution", f"{key}.")
        is_correct = _get(entry, "is_correct", f"{key}.")
        if not isinstance(is_correct, bool):
            raise _RowError(f"field '{key}.is_correct' is {_kind(is_correct)}, not a boolean")
        label = chr(ord("A") + number - 1)
        candidates.append(
            Candidate(
                label=label,
                text=f"Solution {number}: {_final_answer(solution)}",
                reasoning=_CALCULATOR.sub("", solution).strip(),
            )
        )
        if is_correct:
            correct.append(label)
    item = Item(
        question=_text(row, "question"), candidates=tuple(candidates), id=f"gsm8k-solutions-{line}"
    )
    return LabeledItem(item=item, gold=tuple(correct), line=line)


def load_gsm8k_solutions(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """GSM8K ``example_model_solutions.jsonl``: four labelled model solutions per question.

    Candidates ``"Solution 1: 18"`` ... ``"Solution 4: 4"`` with the solution as
    ``reasoning``; gold is the labels of the correct ones (0 to 4). See the module
    docstring for why the candidate text carries the solution number.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _gsm8k_solutions_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- generic JSONL

_JSONL_FIELDS = ("id", "question", "context", "candidates", "gold")


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
    """The generic JSONL format described in the module docstring."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _generic_row, _handler(on_skip, file))


def write_jsonl(records: Iterable[LabeledItem], path: str | Path) -> int:
    """Write items in the generic JSONL format (what :func:`load_jsonl` reads); returns the
    number written. Candidates are written with their labels; ``gold`` is null when
    ``gold_known`` is false."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as handle:
        for record in records:
            item = record.item
            row: dict[str, Any] = {}
            if item.id is not None:
                row["id"] = item.id
            row["question"] = item.question
            if item.context is not None:
                row["context"] = item.context
            row["candidates"] = [
                c.model_dump(exclude_none=True, include={"text", "label", "reasoning"})
                for c in item.candidates
            ]
            row["gold"] = list(record.gold) if record.gold_known else None
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


# --------------------------------------------------------------------------- problems


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


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True, slots=True)
class DatasetInfo:
    """A registered candidate dataset."""

    name: str
    loader: Loader
    description: str
    original: str
    """The original file(s) the loader reads, and where they come from."""
    license: str
    """The license its source states."""
    sample: str | None
    """The shipped sample, relative to ``prin_guard/data``; ``None`` when none ships
    (the source states no license)."""


_NO_LICENSE = "none stated by the source (not redistributed here)"

DATASETS: Mapping[str, DatasetInfo] = {
    info.name: info
    for info in (
        DatasetInfo(
            name="mathqa",
            loader=load_mathqa,
            description="MathQA test questions, 5 options (a-e), one correct",
            original="data/mathqa/test.jsonl of ZubinGou/math-evaluation-harness (1,000 items)",
            license="MIT (math-evaluation-harness); Apache-2.0 for MathQA itself",
            sample="mathqa/sample.jsonl",
        ),
        DatasetInfo(
            name="aqua-rat",
            loader=load_aqua_rat,
            description="AQuA-RAT algebra word problems, 5 options (A-E), one correct",
            original="test.json or dev.json of deepmind/AQuA (254 items each)",
            license="Apache-2.0",
            sample="aqua-rat/sample.json",
        ),
        DatasetInfo(
            name="commonsenseqa",
            loader=load_commonsenseqa,
            description="CommonsenseQA dev questions, 5 options (A-E), one correct",
            original="dataset/CommonsenseQA/dev_rand_split.jsonl of "
            "kojima-takeshi188/zero_shot_cot (1,221 items)",
            license=_NO_LICENSE,
            sample=None,
        ),
        DatasetInfo(
            name="mmlu",
            loader=load_mmlu,
            description="MMLU, 57 subjects, 4 options (A-D), one correct",
            original="data/{dev,val,test}/*.csv of hendrycks/test at 785eba5 "
            "(a file, a split folder, or the folder holding dev/val/test)",
            license="MIT",
            sample="mmlu",
        ),
        DatasetInfo(
            name="strategyqa",
            loader=load_strategyqa,
            description="StrategyQA yes/no questions (BIG-bench format), 2 options",
            original="dataset/StrategyQA/task.json of kojima-takeshi188/zero_shot_cot "
            "(2,290 items)",
            license=_NO_LICENSE,
            sample=None,
        ),
        DatasetInfo(
            name="coinflip",
            loader=load_coinflip,
            description="Coin Flip symbolic reasoning, 2 options (yes/no)",
            original="dataset/coin_flip/coin_flip.json of kojima-takeshi188/zero_shot_cot "
            "(500 items)",
            license=_NO_LICENSE,
            sample=None,
        ),
        DatasetInfo(
            name="gsm8k-solutions",
            loader=load_gsm8k_solutions,
            description="GSM8K test questions with 4 real model solutions each, 0-4 correct",
            original="grade_school_math/data/example_model_solutions.jsonl of "
            "openai/grade-school-math (1,319 items)",
            license="MIT",
            sample="gsm8k-solutions/sample.jsonl",
        ),
    )
}


def _dataset_name(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _shipped() -> list[str]:
    return [name for name, info in DATASETS.items() if info.sample is not None]


def sample_path(name: str) -> Path:
    """The small sample of a dataset that ships with the package (a file, or for MMLU a
    folder of CSV files)."""
    info = DATASETS.get(_dataset_name(name))
    if info is None or info.sample is None:
        why = f" (license: {info.license})" if info is not None else ""
        raise UsageError(
            f"dataset: no shipped sample {name!r}{why}; available: {', '.join(_shipped())}"
        )
    return Path(str(resources.files("prin_guard") / "data" / info.sample))


def load_dataset(
    name_or_path: str | Path,
    *,
    path: str | Path | None = None,
    limit: int | None = None,
    on_skip: SkipHandler = _warn_skip,
) -> Iterator[LabeledItem]:
    """Load a candidate dataset by name, or a generic JSONL file by path.

    A registered name (see :data:`DATASETS`; ``aqua_rat`` works for ``aqua-rat``) loads
    its shipped sample, or ``path`` (the full original file) when given. Anything else
    ending in ``.jsonl`` is read as the generic JSONL format. ``limit`` caps the number
    of items yielded. Unknown names and missing files raise
    :class:`~prin_guard.UsageError` listing the available names.
    """
    if limit is not None and limit < 0:
        raise UsageError(f"limit: must be 0 or more, got {limit}")
    names = ", ".join(DATASETS)
    info = DATASETS.get(_dataset_name(str(name_or_path))) if isinstance(name_or_path, str) else None
    if info is not None:
        if path is None:
            if info.sample is None:
                raise UsageError(
                    f"dataset: {info.name!r} has no shipped sample (license: {info.license}); "
                    f"pass path= to the original file ({info.original}). "
                    f"Shipped samples: {', '.join(_shipped())}"
                )
            source = sample_path(info.name)
        else:
            source = Path(path)
            if not source.exists():
                raise UsageError(
                    f"path: no such file {str(source)!r} for dataset {info.name!r} "
                    f"(expected {info.original})"
                )
        records = info.loader(source, on_skip=on_skip)
    else:
        file = Path(name_or_path)
        if file.suffix != ".jsonl":
            raise UsageError(
                f"dataset: unknown dataset {str(name_or_path)!r}; available: {names} "
                "(or the path of a .jsonl file in the generic format)"
            )
        if path is not None:
            raise UsageError(
                f"path: only for a registered dataset name; {str(name_or_path)!r} is already a path"
            )
        if not file.is_file():
            raise UsageError(f"path: no such file {str(file)!r} (datasets by name: {names})")
        records = load_jsonl(file, on_skip=on_skip)
    return records if limit is None else itertools.islice(records, limit)
