from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard.eval._metrics import (
    accuracy,
    auroc,
    coverage_curve,
    distinct_ratio,
    flag_quality,
    mean_f1,
    mean_std,
    self_consistency,
)


def test_accuracy_is_exact_set_match() -> None:
    chosen = [("A",), ("A", "B"), (), ("C",)]
    gold = [("A",), ("A",), (), ("B",)]
    assert accuracy(chosen, gold) == pytest.approx(2 / 4)
    assert accuracy([], []) is None


def test_mean_f1_for_set_valued_gold() -> None:
    # F1({A,B},{A}) = 2/3; F1(∅,∅) = 1; F1({C},{B}) = 0
    assert mean_f1([("A", "B"), (), ("C",)], [("A",), (), ("B",)]) == pytest.approx(
        (2 / 3 + 1 + 0) / 3
    )


def test_distinct_ratio_is_k_over_runs() -> None:
    assert distinct_ratio([("A",)] * 5) == pytest.approx(0.2)
    assert distinct_ratio([("A",), ("A",), ("B",), ("A", "B"), ()]) == pytest.approx(0.8)
    # order within an answer does not matter
    assert distinct_ratio([("A", "B"), ("B", "A")]) == pytest.approx(0.5)


def test_self_consistency_needs_a_strict_majority() -> None:
    labels = ("A", "B", "C")
    assert self_consistency([("A",), ("A",), ("B",)], labels) == ("A",)
    assert self_consistency([("A", "B"), ("B",), ("B", "C"), ("A",)], labels) == ("B",)
    # a tie (2 of 4) is not a majority
    assert self_consistency([("A",), ("A",), ("B",), ("B",)], labels) == ()


def test_auroc_by_hand() -> None:
    # positives (wrong) score 0.9 and 0.5; negatives 0.1 and 0.5.
    # pairs: 0.9>0.1, 0.9>0.5, 0.5>0.1, 0.5=0.5 (½) -> 3.5 / 4
    assert auroc([0.9, 0.1, 0.5, 0.5], [True, False, True, False]) == pytest.approx(0.875)
    assert auroc([0.1, 0.9], [True, False]) == pytest.approx(0.0)
    assert auroc([0.3, 0.3], [True, False]) == pytest.approx(0.5)
    assert auroc([0.1, 0.2], [True, True]) is None


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=2, max_size=30))
def test_auroc_matches_the_pairwise_definition(pairs: list[tuple[float, bool]]) -> None:
    scores = [s for s, _ in pairs]
    positives = [p for _, p in pairs]
    pos = [s for s, p in pairs if p]
    neg = [s for s, p in pairs if not p]
    got = auroc(scores, positives)
    if not pos or not neg:
        assert got is None
        return
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    assert got == pytest.approx(wins / (len(pos) * len(neg)))


def test_coverage_curve_by_hand() -> None:
    prin = [0.0, 0.0, 0.5, 1.0]
    correct = [True, False, True, False]
    curve = coverage_curve(prin, correct)
    assert [(p.threshold, p.coverage, p.accuracy, p.kept) for p in curve] == [
        (0.0, 0.5, 0.5, 2),
        (0.5, 0.75, pytest.approx(2 / 3), 3),
        (1.0, 1.0, 0.5, 4),
    ]


def test_flag_quality_error_rates_and_lift() -> None:
    quality = flag_quality(
        flagged=[True, True, False, False, False], wrong=[True, False, True, False, False]
    )
    assert (quality.flagged, quality.unflagged) == (2, 3)
    assert quality.error_rate_flagged == pytest.approx(0.5)
    assert quality.error_rate_unflagged == pytest.approx(1 / 3)
    assert quality.lift == pytest.approx(1.5)
    assert flag_quality([False], [True]).error_rate_flagged is None


def test_mean_std_uses_the_sample_deviation() -> None:
    assert mean_std([0.4, 0.6]) == (pytest.approx(0.5), pytest.approx(0.1414213562))
    assert mean_std([0.3]) == (0.3, 0.0)
    assert mean_std([]) == (None, None)
