"""The registry of candidate datasets: :data:`DATASETS`, :func:`load_dataset`, samples.

A registered name loads its small shipped sample (under ``prin_guard/data``) or, given
``path``, the full original file; any other path ending in ``.jsonl`` is read in the
generic JSONL format.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from prin_guard.datasets._jsonl import load_jsonl
from prin_guard.datasets._loaders import (
    load_aqua_rat,
    load_coinflip,
    load_commonsenseqa,
    load_expertqa_claims,
    load_gsm8k_solutions,
    load_llmbar,
    load_mathqa,
    load_mmlu,
    load_mt_bench_human,
    load_strategyqa,
)
from prin_guard.datasets._rows import LabeledItem, SkipHandler, _warn_skip
from prin_guard.errors import UsageError
from prin_guard.models import Task

__all__ = ["DATASETS", "DatasetInfo", "Loader", "load_dataset", "sample_path"]


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
    task: Task = "choice"
    """The task of its items: ``choice``, ``pairwise`` or ``checklist``."""
    template: str | None = None
    """The template its items are asked in when the guard's options name none (``None``:
    the task's default; ``claims`` for checklists of claims checked against sources)."""


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
        DatasetInfo(
            name="llmbar",
            loader=load_llmbar,
            description="LLMBar Natural: an instruction and two outputs, which follows it "
            "better (pairwise, no ties)",
            original="natural.jsonl (a JSON Lines copy of Dataset/LLMBar/Natural/dataset.json "
            "of princeton-nlp/LLMBar, or that dataset.json; 100 pairs)",
            license="MIT",
            sample="llmbar/natural.jsonl",
            task="pairwise",
        ),
        DatasetInfo(
            name="mt-bench-human",
            loader=load_mt_bench_human,
            description="MT-Bench answer pairs with the experts' majority preference "
            "(pairwise, ties removed by LLMBar)",
            original="mt-bench-human.jsonl (a JSON Lines copy of Dataset/Processed/MT-Bench/"
            "dataset.json of princeton-nlp/LLMBar, or that dataset.json; 200 pairs)",
            license="MIT (LLMBar); the MT-Bench judgments CC-BY-4.0 (LMSYS)",
            sample="mt-bench-human/sample.jsonl",
            task="pairwise",
        ),
        DatasetInfo(
            name="expertqa-claims",
            loader=load_expertqa_claims,
            description="ExpertQA answers split into claims, each judged by an expert for "
            "support by the passages it cites (checklist of claims)",
            original="data/lfqa/rand_test.jsonl (or the other lfqa splits, or "
            "data/r2_compiled_anon.jsonl) of chaitanyamalaviya/ExpertQA (151 answers in "
            "rand_test)",
            license="MIT",
            sample="expertqa-claims/sample.jsonl",
            task="checklist",
            template="claims",
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
