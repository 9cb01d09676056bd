"""Metrics of a judge over a dataset. Pure functions, no I/O.

Definitions follow the PRIN paper where it has one:

- PRIN per item is ``1 − F1(direct, all − reverse)`` (section 3); a run's PRIN is
  its mean over items, and over ``--repeats`` runs we report mean ± standard
  deviation (Table 6). We use the sample standard deviation (n − 1); with one
  run it is 0.
- Randomness Inconsistency: the direct prompt run five times; ``k`` distinct
  answers give ``k/5`` (section 4.4). Paraphrase Inconsistency: five paraphrases
  of the direct prompt, ``k/5``. An answer is the set of labels read; an
  unreadable reply counts as its own distinct answer (the empty set), as the
  paper's empty span extraction would.
- Accuracy is exact match of the chosen set with the gold set; for set-valued
  gold we also report mean per-item F1 (F1 of two empty sets is 1).
- Self-Consistency (Wang et al., the paper's baseline): ``k`` sampled direct
  answers; a candidate is chosen when a strict majority of the samples chose it
  (more than ``k/2``), so a tie leaves it out.

And the flag-quality numbers the paper does not have:

- error rate of verdicts flagged ``inconsistent`` against those not flagged;
- AUROC of the PRIN score as a predictor of a wrong verdict (Mann–Whitney, ties
  count one half; ``None`` when all verdicts are right or all wrong);
- the coverage–accuracy curve: accept only verdicts whose PRIN is at or under a
  threshold; coverage is the share of items kept, accuracy is measured on those.

The same for every check's signal (order inconsistency, panel agreement, confidence)
and the position bias of each leg: :mod:`prin_guard.eval._signals`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from prin_guard._reconcile import f1

__all__ = [
    "CoveragePoint",
    "FlagQuality",
    "accuracy",
    "auroc",
    "coverage_curve",
    "distinct_ratio",
    "flag_quality",
    "mean",
    "mean_f1",
    "mean_std",
    "self_consistency",
]


def mean(values: Iterable[float]) -> float | None:
    """The arithmetic mean, or None for no values."""
    items = list(values)
    return sum(items) / len(items) if items else None


def mean_std(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation (n − 1); the deviation of one value is 0."""
    if not values:
        return None, None
    m = sum(values) / len(values)
    if len(values) == 1:
        return m, 0.0
    variance = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(variance)


def accuracy(chosen: Sequence[Iterable[str]], gold: Sequence[Iterable[str]]) -> float | None:
    """Share of items whose chosen set equals the gold set exactly."""
    if len(chosen) != len(gold):
        raise ValueError("chosen and gold must have the same length")
    if not chosen:
        return None
    return sum(set(c) == set(g) for c, g in zip(chosen, gold, strict=True)) / len(chosen)


def mean_f1(chosen: Sequence[Iterable[str]], gold: Sequence[Iterable[str]]) -> float | None:
    """Mean per-item set F1 between chosen and gold."""
    if len(chosen) != len(gold):
        raise ValueError("chosen and gold must have the same length")
    return mean(f1(c, g) for c, g in zip(chosen, gold, strict=True))


def distinct_ratio(answers: Sequence[Iterable[str]]) -> float:
    """``k / n`` for ``k`` distinct answers among ``n`` runs (``n`` = 5 in the paper)."""
    if not answers:
        raise ValueError("need at least one answer")
    return len({frozenset(a) for a in answers}) / len(answers)


def self_consistency(samples: Sequence[Iterable[str]], labels: Sequence[str]) -> tuple[str, ...]:
    """Candidates chosen by a strict majority of the sampled answers, in label order."""
    if not samples:
        raise ValueError("need at least one sample")
    votes: Counter[str] = Counter()
    for sample in samples:
        votes.update(set(sample))
    return tuple(label for label in labels if votes[label] * 2 > len(samples))


def auroc(scores: Sequence[float], positives: Sequence[bool]) -> float | None:
    """Probability that a random positive scores above a random negative (ties: ½)."""
    if len(scores) != len(positives):
        raise ValueError("scores and positives must have the same length")
    pos = [s for s, p in zip(scores, positives, strict=True) if p]
    neg = [s for s, p in zip(scores, positives, strict=True) if not p]
    if not pos or not neg:
        return None
    # Rank-sum form of Mann-Whitney U with average ranks for ties: O(n log n).
    ordered = sorted(scores)
    ranks: dict[float, float] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[i]:
            j += 1
        ranks[ordered[i]] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(ranks[s] for s in pos)
    u = rank_sum - len(pos) * (len(pos) + 1) / 2
    return u / (len(pos) * len(neg))


@dataclass(frozen=True, slots=True)
class CoveragePoint:
    threshold: float
    """Accept verdicts whose score is this or safer (PRIN at or under it)."""
    coverage: float
    """Share of all items accepted."""
    accuracy: float | None
    """Accuracy on the accepted items (None when none is accepted)."""
    kept: int


def coverage_curve(prin_scores: Sequence[float], correct: Sequence[bool]) -> list[CoveragePoint]:
    """One point per distinct PRIN value, from the strictest threshold to accepting all."""
    if len(prin_scores) != len(correct):
        raise ValueError("prin_scores and correct must have the same length")
    total = len(prin_scores)
    points = []
    for threshold in sorted(set(prin_scores)):
        kept = [c for s, c in zip(prin_scores, correct, strict=True) if s <= threshold]
        points.append(
            CoveragePoint(
                threshold=threshold,
                coverage=len(kept) / total,
                accuracy=sum(kept) / len(kept) if kept else None,
                kept=len(kept),
            )
        )
    return points


@dataclass(frozen=True, slots=True)
class FlagQuality:
    flagged: int
    unflagged: int
    error_rate_flagged: float | None
    error_rate_unflagged: float | None

    @property
    def lift(self) -> float | None:
        """How many times likelier a flagged verdict is wrong than an unflagged one."""
        if not self.error_rate_flagged or not self.error_rate_unflagged:
            return None
        return self.error_rate_flagged / self.error_rate_unflagged


def flag_quality(flagged: Sequence[bool], wrong: Sequence[bool]) -> FlagQuality:
    """Error rates of flagged and unflagged verdicts."""
    if len(flagged) != len(wrong):
        raise ValueError("flagged and wrong must have the same length")
    f = [w for fl, w in zip(flagged, wrong, strict=True) if fl]
    u = [w for fl, w in zip(flagged, wrong, strict=True) if not fl]
    return FlagQuality(
        flagged=len(f),
        unflagged=len(u),
        error_rate_flagged=sum(f) / len(f) if f else None,
        error_rate_unflagged=sum(u) / len(u) if u else None,
    )
