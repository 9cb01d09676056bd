"""The metrics of a run: the paper's set metrics, flag quality and coverage, and the
checks' signals (Fleiss' kappa, signal AUROC and coverage, flag signals, position
bias, quantiles)."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard.eval import signal_auroc
from prin_guard.eval._metrics import (
    accuracy,
    auroc,
    coverage_curve,
    distinct_ratio,
    flag_quality,
    flag_signal,
    fleiss_kappa,
    mean_f1,
    mean_std,
    position_share,
    quantile,
    self_consistency,
    signal_curve,
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


# ------------------------------------------------------------ the checks' signals

# Fleiss (1971) as on Wikipedia's "Fleiss' kappa" page: 10 subjects, 14 raters,
# 5 categories; P̄ = 0.378, P_e = 0.213, κ = 0.210.
WIKIPEDIA = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def _textbook_kappa(counts: list[list[int]]) -> float:
    """Fleiss' formula for a constant number of raters, written out as in the paper."""
    n = sum(counts[0])
    subjects = len(counts)
    p = [sum(row[j] for row in counts) / (subjects * n) for j in range(len(counts[0]))]
    p_bar = sum((sum(x * x for x in row) - n) / (n * (n - 1)) for row in counts) / subjects
    p_e = sum(x * x for x in p)
    return (p_bar - p_e) / (1 - p_e)


def test_fleiss_kappa_of_the_textbook_example() -> None:
    agreement = fleiss_kappa(WIKIPEDIA)
    assert agreement.kappa == pytest.approx(0.2099, abs=1e-4)
    assert agreement.observed == pytest.approx(0.3780, abs=1e-4)
    assert agreement.expected == pytest.approx(0.2127, abs=1e-4)
    assert agreement.subjects == 10


def test_fleiss_kappa_is_one_for_perfect_agreement_and_none_with_one_category() -> None:
    assert fleiss_kappa([[3, 0], [0, 3], [3, 0]]).kappa == pytest.approx(1.0)
    # everyone calls every candidate incorrect: agreement 1, nothing to correct for chance
    same = fleiss_kappa([[0, 3], [0, 3]])
    assert (same.kappa, same.observed, same.expected) == (None, 1.0, 1.0)
    assert fleiss_kappa([]).kappa is None


def test_fleiss_kappa_with_abstaining_raters_leaves_out_subjects_with_fewer_than_two() -> None:
    # the third subject has one rater left: no pair, no agreement to count
    varying = fleiss_kappa([[3, 0], [1, 1], [1, 0]])
    assert varying.subjects == 2
    # P_1 = 1, P_2 = 0 -> P̄ = 0.5; pooled shares 4/5, 1/5 -> P_e = 0.68
    assert varying.observed == pytest.approx(0.5)
    assert varying.expected == pytest.approx(0.68)
    assert varying.kappa == pytest.approx((0.5 - 0.68) / (1 - 0.68))


def test_fleiss_kappa_rejects_ragged_or_negative_counts() -> None:
    with pytest.raises(ValueError, match="every category"):
        fleiss_kappa([[1, 1], [2]])
    with pytest.raises(ValueError, match="negative"):
        fleiss_kappa([[3, -1]])


@st.composite
def _constant_raters(draw: st.DrawFn) -> list[list[int]]:
    raters = draw(st.integers(2, 6))
    rows = draw(st.lists(st.integers(0, raters), min_size=1, max_size=20))
    return [[yes, raters - yes] for yes in rows]


@given(_constant_raters())
def test_fleiss_kappa_equals_the_textbook_formula_for_a_constant_number_of_raters(
    counts: list[list[int]],
) -> None:
    got = fleiss_kappa(counts)
    assert got.observed is not None and 0.0 <= got.observed <= 1.0
    if got.kappa is None:
        assert all(row[0] == 0 for row in counts) or all(row[1] == 0 for row in counts)
        return
    assert got.kappa == pytest.approx(_textbook_kappa(counts))
    assert got.kappa <= 1.0 + 1e-12


@given(st.lists(st.tuples(st.integers(2, 5), st.booleans()), min_size=2, max_size=20))
def test_fleiss_kappa_is_one_whenever_every_subject_is_unanimous(
    subjects: list[tuple[int, bool]],
) -> None:
    counts = [[n, 0] if yes else [0, n] for n, yes in subjects]
    kappa = fleiss_kappa(counts).kappa
    if len({yes for _, yes in subjects}) == 1:
        assert kappa is None  # one category only
    else:
        assert kappa == pytest.approx(1.0)


_scores = st.lists(
    st.tuples(st.one_of(st.none(), st.floats(0, 1)), st.booleans()), min_size=1, max_size=30
)


@given(_scores)
def test_signal_auroc_is_in_the_unit_interval_and_flipping_the_direction_mirrors_it(
    pairs: list[tuple[float | None, bool]],
) -> None:
    values = [v for v, _ in pairs]
    wrong = [w for _, w in pairs]
    higher = signal_auroc(values, wrong, "higher")
    lower = signal_auroc(values, wrong, "lower")
    present = {w for v, w in pairs if v is not None}
    if len(present) < 2:
        assert higher is None and lower is None
        return
    assert higher is not None and lower is not None
    assert 0.0 <= higher <= 1.0
    assert lower == pytest.approx(1.0 - higher)
    # negating the scores is the same as flipping the direction
    negated = [None if v is None else -v for v in values]
    assert signal_auroc(negated, wrong, "higher") == pytest.approx(lower)


def test_signal_auroc_by_hand_leaves_out_missing_scores() -> None:
    # wrong verdicts have low confidence: lower is riskier, a perfect signal
    values = [0.9, 0.2, None, 0.8, 0.1]
    wrong = [False, True, True, False, True]
    assert signal_auroc(values, wrong, "lower") == pytest.approx(1.0)
    assert signal_auroc(values, wrong, "higher") == pytest.approx(0.0)
    with pytest.raises(ValueError, match="same length"):
        signal_auroc([0.1], [True, False])


def test_signal_curve_accepts_the_safest_first_and_never_a_missing_score() -> None:
    values = [0.9, 0.9, 0.5, None]
    correct = [True, False, True, True]
    curve = signal_curve(values, correct, "lower")
    assert [(p.threshold, p.coverage, p.accuracy, p.kept) for p in curve] == [
        (0.9, 0.5, 0.5, 2),
        (0.5, 0.75, pytest.approx(2 / 3), 3),
    ]
    higher = signal_curve([0.0, 1.0, 0.0], [True, False, False], "higher")
    assert [(p.threshold, p.kept, p.accuracy) for p in higher] == [
        (0.0, 2, 0.5),
        (1.0, 3, pytest.approx(1 / 3)),
    ]
    assert signal_curve([None, None], [True, False]) == []


@given(_scores, st.sampled_from(["higher", "lower"]))
def test_signal_curve_coverage_grows_to_the_share_with_a_score(
    pairs: list[tuple[float | None, bool]], riskier: str
) -> None:
    values = [v for v, _ in pairs]
    curve = signal_curve(values, [c for _, c in pairs], riskier)  # type: ignore[arg-type]
    coverages = [p.coverage for p in curve]
    assert coverages == sorted(coverages)
    present = sum(v is not None for v in values)
    assert len(curve) == len({v for v in values if v is not None})
    if curve:
        assert curve[-1].kept == present
        assert curve[-1].coverage == pytest.approx(present / len(values))


def test_flag_signal_share_error_rates_and_auroc() -> None:
    flagged = [True, True, False, False]
    wrong = [True, False, False, False]
    signal = flag_signal(flagged, wrong)
    assert signal.share_flagged == 0.5
    assert signal.quality.error_rate_flagged == 0.5
    assert signal.quality.error_rate_unflagged == 0.0
    # a flag's AUROC is the mean of the share of wrong verdicts flagged (1) and of right
    # ones not flagged (2/3)
    assert signal.auroc == pytest.approx((1 + 2 / 3) / 2)
    assert flag_signal([], []).share_flagged is None


def test_position_share_counts_the_first_shown_against_the_size_of_the_answers() -> None:
    share = position_share(
        [
            (("A", "B", "C", "D"), ("A",)),
            (("C", "A", "B", "D"), ("C", "D")),
            (("A", "B", "C", "D"), ()),
            (("B", "A", "C", "D"), ("A",)),
        ]
    )
    assert share.answers == 4
    assert share.first_shown == pytest.approx(2 / 4)
    assert share.expected == pytest.approx((1 / 4 + 2 / 4 + 0 + 1 / 4) / 4)
    assert position_share([]).first_shown is None
    with pytest.raises(ValueError, match="order"):
        position_share([((), ("A",))])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_quantile_matches_the_inclusive_method_of_statistics(values: list[float]) -> None:
    assert quantile(values, 0.0) == min(values)
    assert quantile(values, 1.0) == max(values)
    if len(values) >= 2:
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        assert quantile(values, 0.25) == pytest.approx(q1)
        assert quantile(values, 0.5) == pytest.approx(median)
        assert quantile(values, 0.75) == pytest.approx(q3)
    assert quantile([], 0.5) is None
