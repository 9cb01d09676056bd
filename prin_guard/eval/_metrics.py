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
- Accuracy is exact match of the chosen set with the gold set (the error of a verdict,
  ``prin_guard._route._acceptance.verdict_wrong``: for pairwise items the winner, for
  checklists the met set); for set-valued gold we also report mean per-item F1 (F1 of
  two empty sets is 1), and for checklists the share of candidates on the gold's side.
- Self-Consistency (Wang et al., the paper's baseline): ``k`` sampled direct
  answers; a candidate is chosen when a strict majority of the samples chose it
  (more than ``k/2``), so a tie leaves it out.

And the flag-quality numbers the paper does not have:

- error rate of verdicts flagged ``inconsistent`` against those not flagged;
- AUROC of the PRIN score as a predictor of a wrong verdict (Mann–Whitney, ties
  count one half; ``None`` when all verdicts are right or all wrong);
- the coverage–accuracy curve: accept only verdicts whose PRIN is at or under a
  threshold; coverage is the share of items kept, accuracy is measured on those.

The checks' signals
-------------------

A check gives every verdict a signal: a score (PRIN, order inconsistency, panel
agreement, confidence) or a flag. Over a run with gold labels each signal is
judged by how well it tells wrong verdicts from right ones:

- AUROC: the probability that a random wrong verdict looks riskier than a random
  right one (ties count one half; :func:`auroc`). A signal's direction is part
  of it: higher PRIN and order inconsistency are
  riskier, lower panel agreement and confidence are, so that for every signal 1
  is perfect, 0.5 chance and under 0.5 worse than chance. ``None`` when every
  verdict is right or every one wrong. For a flag, the score is 1 flagged, 0 not.
- The coverage–accuracy curve: accept verdicts in order of the signal, safest
  first; one point per distinct value. A verdict without the signal (no
  log-probabilities, no panel) is never accepted, as an acceptance rule treats a
  missing signal, so coverage stays the share of *all* verdicts.
- For a flag: the error rates of flagged and unflagged verdicts and the share
  flagged (:func:`flag_quality`).

Panel agreement is Fleiss' kappa over subjects (an item's candidate), raters (the
panel's members) and categories (called correct or not). A member that abstained
has no vote on any candidate of that item, so subjects can have fewer raters
than the panel has members. Fleiss' kappa assumes a constant number; we use its
usual generalisation, which equals it when the number is constant: each subject's
agreement is over the raters it has, ``P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1))``,
``P̄`` their mean, the category shares ``p_j`` are pooled over all ratings, and
``κ = (P̄ − P_e) / (1 − P_e)`` with ``P_e = Σ_j p_j²``. A subject with fewer than
two raters has no pair to agree and is left out. When every rating falls in one
category ``P_e = 1`` and kappa is undefined (``None``): the observed agreement is
1, but there is no chance to correct for.

Position bias: the share of a leg's answers that name the candidate shown first.
A judge naming ``k`` of ``n`` candidates regardless of position names the first
one with probability ``k / n``; the mean of that is the expected share. With the
order check the same judge is asked again with the candidates in a second order:
a judge that follows content names the *item's* first candidate wherever it is
shown, one with a position bias names whatever is shown first.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from prin_guard._route._acceptance import verdict_wrong
from prin_guard._route._decide import Riskier, f1

__all__ = [
    "Agreement",
    "CoveragePoint",
    "FlagQuality",
    "FlagSignal",
    "PositionShare",
    "Riskier",
    "accuracy",
    "auroc",
    "coverage_curve",
    "distinct_ratio",
    "flag_quality",
    "flag_signal",
    "fleiss_kappa",
    "mean",
    "mean_f1",
    "mean_std",
    "position_share",
    "quantile",
    "self_consistency",
    "signal_auroc",
    "signal_curve",
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
    """Share of items whose chosen set equals the gold set exactly: those not
    :func:`~prin_guard._route._acceptance.verdict_wrong`."""
    if len(chosen) != len(gold):
        raise ValueError("chosen and gold must have the same length")
    if not chosen:
        return None
    right = sum(not verdict_wrong(c, g) for c, g in zip(chosen, gold, strict=True))
    return right / len(chosen)


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
    """One point per distinct PRIN value, from the strictest threshold to accepting all:
    :func:`signal_curve` of PRIN (higher is riskier)."""
    if len(prin_scores) != len(correct):
        raise ValueError("prin_scores and correct must have the same length")
    return signal_curve(prin_scores, correct, "higher")


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


# ------------------------------------------------------------ the checks' signals


@dataclass(frozen=True, slots=True)
class Agreement:
    """Fleiss' kappa and its parts."""

    kappa: float | None
    """Chance-corrected agreement; ``None`` when undefined (one category only, no subject)."""
    observed: float | None
    """``P̄``: the mean share of agreeing rater pairs per subject."""
    expected: float | None
    """``P_e``: the agreement expected by chance from the pooled category shares."""
    subjects: int
    """Subjects with at least two raters (the ones counted)."""


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> Agreement:
    """Fleiss' kappa of ``counts[i][j]``: raters putting subject ``i`` in category ``j``.

    Subjects may have different numbers of raters (the generalisation in the module
    docstring); those with fewer than two are left out.
    """
    rows = [list(row) for row in counts]
    if any(n < 0 for row in rows for n in row):
        raise ValueError("counts must not be negative")
    if len({len(row) for row in rows}) > 1:
        raise ValueError("every subject needs a count for every category")
    rated = [row for row in rows if sum(row) >= 2]
    if not rated:
        return Agreement(kappa=None, observed=None, expected=None, subjects=0)
    per_subject = [sum(n * (n - 1) for n in row) / (sum(row) * (sum(row) - 1)) for row in rated]
    observed = sum(per_subject) / len(per_subject)
    total = sum(sum(row) for row in rated)
    shares = [sum(row[j] for row in rated) / total for j in range(len(rated[0]))]
    expected = sum(p * p for p in shares)
    kappa = None if expected >= 1.0 else (observed - expected) / (1.0 - expected)
    return Agreement(kappa=kappa, observed=observed, expected=expected, subjects=len(rated))


def _risk(values: Sequence[float], riskier: Riskier) -> list[float]:
    return list(values) if riskier == "higher" else [-v for v in values]


def signal_auroc(
    values: Sequence[float | None], wrong: Sequence[bool], riskier: Riskier = "higher"
) -> float | None:
    """AUROC of a score as a predictor of a wrong verdict, oriented by ``riskier``.

    Verdicts without the score (``None``) are left out.
    """
    if len(values) != len(wrong):
        raise ValueError("values and wrong must have the same length")
    present = [(v, w) for v, w in zip(values, wrong, strict=True) if v is not None]
    return auroc(_risk([v for v, _ in present], riskier), [w for _, w in present])


def signal_curve(
    values: Sequence[float | None], correct: Sequence[bool], riskier: Riskier = "higher"
) -> list[CoveragePoint]:
    """Coverage and accuracy when accepting verdicts in order of a score, safest first.

    One point per distinct value: the verdicts at that value or safer are accepted
    (``<=`` when higher is riskier, ``>=`` when lower is). A verdict without the
    score is never accepted; coverage is over all verdicts.
    """
    if len(values) != len(correct):
        raise ValueError("values and correct must have the same length")
    total = len(values)
    present = [(v, c) for v, c in zip(values, correct, strict=True) if v is not None]
    points = []
    for threshold in sorted({v for v, _ in present}, reverse=riskier == "lower"):
        kept = [
            c for v, c in present if (v <= threshold if riskier == "higher" else v >= threshold)
        ]
        points.append(
            CoveragePoint(
                threshold=threshold,
                coverage=len(kept) / total,
                accuracy=sum(kept) / len(kept),
                kept=len(kept),
            )
        )
    return points


@dataclass(frozen=True, slots=True)
class FlagSignal:
    """A flag judged as a signal: its error rates, the share flagged, its AUROC."""

    quality: FlagQuality
    share_flagged: float | None
    """Flagged verdicts over all; ``None`` for no verdict."""
    auroc: float | None
    """AUROC of the flag (1 flagged, 0 not): the mean of the share of wrong verdicts
    flagged and the share of right ones not flagged."""


def flag_signal(flagged: Sequence[bool], wrong: Sequence[bool]) -> FlagSignal:
    """How well a flag picks out wrong verdicts."""
    quality = flag_quality(flagged, wrong)
    n = len(flagged)
    return FlagSignal(
        quality=quality,
        share_flagged=quality.flagged / n if n else None,
        auroc=auroc([float(f) for f in flagged], wrong),
    )


@dataclass(frozen=True, slots=True)
class PositionShare:
    """How often a leg's answers name the candidate shown first."""

    answers: int
    """Answers counted (legs whose reply was read, "none" included)."""
    first_shown: float | None
    """Share of the answers naming the candidate shown first."""
    expected: float | None
    """The share a judge blind to position would reach with answers of these sizes:
    the mean of ``|answer| / candidates``."""


def position_share(answers: Sequence[tuple[Sequence[str], Collection[str]]]) -> PositionShare:
    """Position bias of ``(shown order, labels named)`` pairs, one per answer."""
    if any(not order for order, _ in answers):
        raise ValueError("every answer needs the order its candidates were shown in")
    n = len(answers)
    if not n:
        return PositionShare(answers=0, first_shown=None, expected=None)
    return PositionShare(
        answers=n,
        first_shown=sum(order[0] in labels for order, labels in answers) / n,
        expected=sum(len(set(labels)) / len(order) for order, labels in answers) / n,
    )


def quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-quantile, linearly interpolated between order statistics (NumPy's
    default); ``None`` for no values."""
    if not 0.0 <= q <= 1.0:
        raise ValueError("q must be in [0, 1]")
    ordered = sorted(values)
    if not ordered:
        return None
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
