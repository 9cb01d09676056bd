"""Evaluating judges on benchmarks: the run, its summary and report.

:func:`run` evaluates a judge on a dataset with every method of the PRIN paper
(direct, reverse, synergy, self-consistency; paraphrase, option-count and
randomness analyses) and writes a run directory with ``items.jsonl``,
``summary.json`` (an :class:`EvalSummary`), ``report.md`` and ``report.html``. A run
judges one task: multiple choice, pairs of responses (``llmbar``, ``mt-bench-human``:
winner accuracy, ties, undecided pairs, position bias) or checklists (``expertqa-claims``:
per-candidate and exact-set accuracy); the multiple-choice analyses are skipped, with a
note, on the other tasks.
The datasets and their loaders are in :mod:`prin_guard.datasets`; the set metrics
of the paper (:func:`f1`, :func:`prin_score`, :func:`synergy`) are the same pure
functions the guard decides with; :func:`signal_auroc` is how well a verdict's signal
tells wrong verdicts from right ones (calibration reads it too).
"""

from prin_guard._route._decide import f1, prin_score, synergy
from prin_guard.eval._metrics import signal_auroc
from prin_guard.eval._run import EvalConfig, EvalRun, run
from prin_guard.eval._summary_models import EvalSummary

__all__ = [
    "EvalConfig",
    "EvalRun",
    "EvalSummary",
    "f1",
    "prin_score",
    "run",
    "signal_auroc",
    "synergy",
]
