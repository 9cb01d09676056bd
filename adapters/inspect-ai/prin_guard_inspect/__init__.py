"""prin-guard for Inspect AI: score LLM judges on both questions, in Inspect's own results.

    >>> from inspect_ai import Task, eval
    >>> from inspect_ai.dataset import Sample
    >>> from prin_guard_inspect import prin_guard_scorer
    >>> task = Task(
    ...     dataset=[Sample(input="2 + 2?", choices=["3", "5", "4"], target="C")],
    ...     solver=[],
    ...     scorer=prin_guard_scorer(),
    ... )
    >>> eval(task, model="openai/gpt-4o-mini")  # doctest: +SKIP

Each score's value is ``C`` when the judge's reconciled verdict equals the target,
``I`` otherwise; its metadata holds PRIN, the flags and both legs' answers, and the
results carry ``accuracy``, ``stderr``, ``mean_prin``, ``inconsistent_rate`` and
``flagged_rate`` (for ratings, ``mean_rating`` and ``rating_error``; for rankings,
``mean_tau`` and ``top1_agreement``).
"""

from prin_guard_inspect._judge import InspectJudge
from prin_guard_inspect._scorer import (
    flagged_rate,
    inconsistent_rate,
    mean_prin,
    mean_rating,
    mean_tau,
    prin_guard_scorer,
    ranking_item,
    rating_error,
    rating_item,
    sample_item,
    target_labels,
    target_ranking,
    top1_agreement,
    verdict_from_score,
)

__version__ = "0.1.0"

__all__ = [
    "InspectJudge",
    "flagged_rate",
    "inconsistent_rate",
    "mean_prin",
    "mean_rating",
    "mean_tau",
    "prin_guard_scorer",
    "ranking_item",
    "rating_error",
    "rating_item",
    "sample_item",
    "target_labels",
    "target_ranking",
    "top1_agreement",
    "verdict_from_score",
]
