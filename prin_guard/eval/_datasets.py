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

This module holds the registry; the loaders live in ``_loaders_choice``,
``_loaders_problems`` and ``_jsonl`` (the generic format), on top of the row machinery
they share in ``_rows``, and are all importable from here.

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

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from prin_guard._exceptions import UsageError
from prin_guard.eval._jsonl import load_jsonl, write_jsonl
from prin_guard.eval._loaders_choice import (
    load_aqua_rat,
    load_coinflip,
    load_commonsenseqa,
    load_gsm8k_solutions,
    load_mathqa,
    load_mmlu,
    load_strategyqa,
)
from prin_guard.eval._loaders_problems import (
    load_gsm8k,
    load_last_letters,
    load_math,
    load_multiarith,
    load_svamp,
)
from prin_guard.eval._rows import LabeledItem, Problem, SkipHandler, _warn_skip

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


class Loader(Protocol):
    """A candidate-dataset loader: ``loader(path, on_skip=...)``."""

    def __call__(
        self, path: str | Path, *, on_skip: SkipHandler = ...
    ) -> Iterator[LabeledItem]: ...


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
