"""Evaluating judges on benchmarks: datasets, the run, its summary and report.

:func:`run` evaluates a judge on a dataset with every method of the PRIN paper
(direct, reverse, synergy, self-consistency; paraphrase, option-count and
randomness analyses) and writes a run directory with ``items.jsonl``,
``summary.json`` (an :class:`EvalSummary`), ``report.md`` and ``report.html``.
The loaders read the shipped samples and the original benchmark files; the set
metrics of the paper (:func:`f1`, :func:`prin_score`, :func:`synergy`) are the
same pure functions the guard reconciles with.
"""

from prin_guard._reconcile import f1, prin_score, synergy
from prin_guard.eval._datasets import (
    DATASETS,
    DatasetInfo,
    LabeledItem,
    Loader,
    Problem,
    SkipHandler,
    load_aqua_rat,
    load_coinflip,
    load_commonsenseqa,
    load_dataset,
    load_gsm8k,
    load_gsm8k_solutions,
    load_jsonl,
    load_last_letters,
    load_math,
    load_mathqa,
    load_mmlu,
    load_multiarith,
    load_strategyqa,
    load_svamp,
    sample_path,
    write_jsonl,
)
from prin_guard.eval._run import EvalRun, run
from prin_guard.eval._runner import EvalConfig
from prin_guard.eval._summary_models import EvalSummary

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "EvalConfig",
    "EvalRun",
    "EvalSummary",
    "LabeledItem",
    "Loader",
    "Problem",
    "SkipHandler",
    "f1",
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
    "prin_score",
    "run",
    "sample_path",
    "synergy",
    "write_jsonl",
]
