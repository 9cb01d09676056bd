"""Human peer reviews (issue 41, item 7, data): ICLR 2017 papers with their reviewers'
ratings, confidences and the decision, and the statistics the eval compares a judge with.

:func:`load_iclr2017_reviews` reads ``papers.jsonl`` (``../shared/data/reviews``, see its
SOURCE.md): 200 papers (100 accepted), 623 reviews. A paper is not an
:class:`~prin_guard.Item` yet: the review task arrives with the tasks package of issue 39, so
this loader is not in :data:`~prin_guard.datasets.DATASETS`. Malformed rows are skipped and
reported through ``on_skip(line, reason)``, as for every loader of this package.

**The human ceiling**, with the definitions that give SOURCE.md's figures:

* *A threshold on the mean human rating matches the decision for 90.5% of papers*:
  :func:`threshold_agreement` predicts "accepted" when a paper's mean rating is at or above
  the threshold; :func:`best_threshold` picks the threshold that matches the most decisions
  among the levels a three-review mean can take (multiples of 1/3, as for 178 of the 200
  papers): 19/3 (6.33), 181 of 200 = 90.5%. Among every mean that occurs (four-review papers
  give quarters) the best is 6.25, 91.0%. Both are fitted on the same papers they score.
* *Two reviewers' ratings correlate at 0.59*: :func:`reviewer_pairs` takes every unordered
  pair of reviews of the same paper once, the earlier review in the file first (670 pairs);
  the Pearson correlation of the pairs' first and second ratings is 0.5948
  (:func:`pearson`). Counting each pair both ways gives 0.5943; Spearman's rho, both ways,
  0.578. The same pairs give the same rating 33.7% of the time, within one point 75.1%.

:func:`spearman` (average ranks for ties) and :func:`balanced_accuracy` are for the eval to
come: the guarded overall score against the human mean, the decisions against the venue's.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from prin_guard._ranking import average_ranks
from prin_guard.datasets._rows import (
    SkipHandler,
    _build_all,
    _existing_file,
    _get,
    _handler,
    _jsonl_rows,
    _kind,
    _RowError,
    _text,
    _warn_skip,
)
from prin_guard.errors import UsageError

__all__ = [
    "HumanReview",
    "ReviewedPaper",
    "balanced_accuracy",
    "best_threshold",
    "load_iclr2017_reviews",
    "pearson",
    "reviewer_pairs",
    "spearman",
    "threshold_agreement",
]


@dataclass(frozen=True, slots=True)
class HumanReview:
    """One reviewer's review of a paper."""

    index: int
    """0-based position within the paper, in the source's order."""
    title: str
    text: str
    rating: int
    """Overall rating, 1-10."""
    confidence: int | None
    """1-5; ``None`` where the reviewer left it blank."""


@dataclass(frozen=True, slots=True)
class ReviewedPaper:
    """A submission, its reviews and the venue's decision."""

    id: str
    title: str
    abstract: str
    keywords: tuple[str, ...]
    decision: str
    """The venue's words (``Accept (Poster)``, ``Invite to Workshop Track``, ``Reject``)."""
    accepted: bool
    reviews: tuple[HumanReview, ...]
    line: int

    @property
    def mean_rating(self) -> Fraction:
        """The mean of the reviews' ratings, exact."""
        return Fraction(sum(r.rating for r in self.reviews), len(self.reviews))


def _integer(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = value if isinstance(value, int) and not isinstance(value, bool) else _kind(value)
        raise _RowError(f"field '{field}' is {shown}, not an integer {low}-{high}")
    return value


def _review(number: int, raw: object) -> HumanReview:
    where = f"reviews.{number}."
    if not isinstance(raw, dict):
        raise _RowError(f"field 'reviews.{number}' is {_kind(raw)}, not an object")
    title = _get(raw, "review_title", where)
    if not isinstance(title, str):
        raise _RowError(f"field '{where}review_title' is {_kind(title)}, not a string")
    confidence = _get(raw, "confidence", where)
    return HumanReview(
        index=_integer(_get(raw, "review_index", where), f"{where}review_index", 0, 99),
        title=title,
        text=_text(raw, "text", where),
        rating=_integer(_get(raw, "rating", where), f"{where}rating", 1, 10),
        confidence=None if confidence is None else _integer(confidence, f"{where}confidence", 1, 5),
    )


def _paper(line: int, _index: int, row: dict[str, Any]) -> ReviewedPaper:
    reviews = _get(row, "reviews")
    if not isinstance(reviews, list) or not reviews:
        raise _RowError(f"field 'reviews' is {_kind(reviews)}, not a list of reviews")
    accepted = _get(row, "accepted")
    if not isinstance(accepted, bool):
        raise _RowError(f"field 'accepted' is {_kind(accepted)}, not true or false")
    keywords = row.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise _RowError(f"field 'keywords' is {_kind(keywords)}, not a list of strings")
    return ReviewedPaper(
        id=_text(row, "paper_id"),
        title=_text(row, "title"),
        abstract=_text(row, "abstract"),
        keywords=tuple(keywords),
        decision=_text(row, "decision"),
        accepted=accepted,
        reviews=tuple(_review(number, raw) for number, raw in enumerate(reviews)),
        line=line,
    )


def load_iclr2017_reviews(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[ReviewedPaper]:
    """ICLR 2017 papers with their reviews and decisions, from ``papers.jsonl`` (see its
    SOURCE.md), in the file's order."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _paper, _handler(on_skip, file))


def threshold_agreement(papers: Sequence[ReviewedPaper], threshold: float | Fraction) -> float:
    """The share of papers whose decision is "accepted" exactly when their mean rating is at
    or above ``threshold``."""
    if not papers:
        raise UsageError("papers: expected at least one paper")
    return sum((p.mean_rating >= threshold) == p.accepted for p in papers) / len(papers)


def best_threshold(
    papers: Sequence[ReviewedPaper], candidates: Iterable[float | Fraction] | None = None
) -> tuple[float | Fraction, float]:
    """The candidate threshold that matches the most decisions, and its share; the lowest
    such threshold on a tie. Candidates by default: the multiples of 1/3 from 1 to 10."""
    pool = [Fraction(k, 3) for k in range(3, 31)] if candidates is None else list(candidates)
    if not pool:
        raise UsageError("candidates: expected at least one threshold")
    scored = [(threshold_agreement(papers, t), -float(t), t) for t in pool]
    share, _, threshold = max(scored, key=lambda entry: (entry[0], entry[1]))
    return threshold, share


def reviewer_pairs(papers: Iterable[ReviewedPaper]) -> list[tuple[int, int]]:
    """The ratings of every unordered pair of reviews of the same paper, once each, the
    earlier review in the file first."""
    return [
        (a.rating, b.rating)
        for paper in papers
        for a, b in itertools.combinations(paper.reviews, 2)
    ]


def _check_pairs(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise UsageError(f"y: {len(y)} values for {len(x)} in x")
    if len(x) < 2:
        raise UsageError("x: expected at least two values")


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's correlation; ``nan`` when either side is constant."""
    _check_pairs(x, y)
    mx, my = math.fsum(x) / len(x), math.fsum(y) / len(y)
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = math.fsum((a - mx) ** 2 for a in x)
    syy = math.fsum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's correlation of the ranks, tied values sharing their mean
    rank; ``nan`` when either side is constant."""
    _check_pairs(x, y)
    return pearson(average_ranks(x), average_ranks(y))


def balanced_accuracy(predicted: Sequence[bool], actual: Sequence[bool]) -> float:
    """The mean of the accepted papers' recall and the others' (a classifier that always
    says the same scores 0.5)."""
    if len(predicted) != len(actual):
        raise UsageError(f"actual: {len(actual)} values for {len(predicted)} predictions")
    positives = [p for p, a in zip(predicted, actual, strict=True) if a]
    negatives = [p for p, a in zip(predicted, actual, strict=True) if not a]
    if not positives or not negatives:
        raise UsageError("actual: balanced accuracy needs both accepted and rejected papers")
    return (sum(positives) / len(positives) + sum(not p for p in negatives) / len(negatives)) / 2
