"""ICLR 2017 human reviews (issue 41, data) and the human ceiling SOURCE.md quotes."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

from prin_guard.datasets._reviews import (
    balanced_accuracy,
    best_threshold,
    load_iclr2017_reviews,
    pearson,
    reviewer_pairs,
    spearman,
    threshold_agreement,
)
from prin_guard.errors import UsageError


@pytest.fixture
def papers(shared_data: Path):  # type: ignore[no-untyped-def]
    skipped: list[tuple[int, str]] = []
    loaded = list(
        load_iclr2017_reviews(
            shared_data / "reviews" / "papers.jsonl",
            on_skip=lambda line, reason: skipped.append((line, reason)),
        )
    )
    assert skipped == []
    return loaded


def test_the_file_loads_as_source_md_counts_it(papers) -> None:  # type: ignore[no-untyped-def]
    assert len(papers) == 200 and sum(p.accepted for p in papers) == 100
    reviews = [r for p in papers for r in p.reviews]
    assert len(reviews) == 623
    assert sum(r.confidence is None for r in reviews) == 8
    ratings = [r.rating for r in reviews]
    assert {k: ratings.count(k) for k in range(1, 11)} == {
        1: 0,
        2: 3,
        3: 41,
        4: 90,
        5: 97,
        6: 153,
        7: 148,
        8: 71,
        9: 15,
        10: 5,
    }


def test_a_threshold_on_the_mean_rating_matches_905_percent(papers) -> None:  # type: ignore[no-untyped-def]
    threshold, share = best_threshold(papers)
    assert threshold == Fraction(19, 3) and share == 0.905
    assert threshold_agreement(papers, 6.33) == 0.905
    means = {p.mean_rating for p in papers}
    assert best_threshold(papers, means) == (Fraction(25, 4), 0.91)


def test_two_reviewers_ratings_correlate_at_059(papers) -> None:  # type: ignore[no-untyped-def]
    pairs = reviewer_pairs(papers)
    assert len(pairs) == 670
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    assert round(pearson(first, second), 4) == 0.5948
    both = (first + second, second + first)
    assert round(pearson(*both), 4) == 0.5943
    assert round(spearman(*both), 3) == 0.578
    assert round(sum(a == b for a, b in pairs) / 670, 3) == 0.337
    assert round(sum(abs(a - b) <= 1 for a, b in pairs) / 670, 3) == 0.751


def test_a_malformed_row_is_skipped_and_named(tmp_path: Path) -> None:
    good = {
        "paper_id": "p1",
        "title": "T",
        "abstract": "A",
        "keywords": [],
        "decision": "Reject",
        "accepted": False,
        "reviews": [
            {"review_index": 0, "review_title": "", "text": "t", "rating": 4, "confidence": None}
        ],
    }
    bad = json.loads(json.dumps(good))
    bad["reviews"][0]["rating"] = 11
    file = tmp_path / "papers.jsonl"
    file.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    skipped: list[tuple[int, str]] = []
    loaded = list(load_iclr2017_reviews(file, on_skip=lambda *a: skipped.append(a)))
    assert [p.id for p in loaded] == ["p1"] and loaded[0].reviews[0].confidence is None
    assert skipped == [(2, "field 'reviews.0.rating' is 11, not an integer 1-10")]


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=3, max_size=40))
def test_spearman_equals_scipys(pairs: list[tuple[int, int]]) -> None:
    x, y = [a for a, _ in pairs], [b for _, b in pairs]
    if len(set(x)) == 1 or len(set(y)) == 1:
        assert math.isnan(spearman(x, y))  # scipy warns and gives nan too
        return
    assert spearman(x, y) == pytest.approx(scipy.stats.spearmanr(x, y).statistic)


def test_balanced_accuracy() -> None:
    assert balanced_accuracy([True, True, True, False], [True, True, False, False]) == 0.75
    assert balanced_accuracy([True] * 4, [True, False, False, False]) == 0.5
    with pytest.raises(UsageError, match="needs both"):
        balanced_accuracy([True], [True])
    with pytest.raises(UsageError, match="x: expected at least two"):
        spearman([1], [2])
