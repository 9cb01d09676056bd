from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import Flag
from prin_guard._reconcile import reconcile
from prin_guard.eval import f1, prin_score, synergy
from prin_guard.models import ParseStatus

LABELS = ("A", "B", "C", "D", "E")


@st.composite
def legs(draw: st.DrawFn) -> tuple[tuple[str, ...], set[str], set[str]]:
    labels = tuple(draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=5, unique=True)))
    direct = draw(st.sets(st.sampled_from(labels)))
    reverse = draw(st.sets(st.sampled_from(labels)))
    return labels, direct, reverse


def test_paper_table1_case() -> None:
    # GPT-4: direct "C", reverse "C, D, E" over five options.
    result = reconcile(LABELS, {"C"}, {"C", "D", "E"})
    assert result.correct == ()
    assert result.reverse_implied == ("A", "B")
    assert result.prin_score == 1.0
    assert not result.consistent
    assert result.flags == (Flag.INCONSISTENT, Flag.EMPTY_VERDICT)


@pytest.mark.parametrize(
    ("direct", "reverse", "expected"),
    [
        pytest.param({"A", "B"}, {"C", "D", "E"}, 0.0, id="complementary"),
        pytest.param({"A", "B"}, {"C", "E"}, 1 - 2 * 2 / (2 + 3), id="paper-uncovered-example"),
        pytest.param(set(), set(), 1.0, id="both-empty-penalised"),
        pytest.param(set(), set(LABELS), 0.0, id="nothing-correct-consistently"),
        pytest.param({"C"}, {"C"}, 1.0, id="same-label-both-ways"),
        pytest.param({"A"}, set(LABELS), 1.0, id="direct-one-reverse-all"),
    ],
)
def test_prin_matches_equations_1_and_2(
    direct: set[str], reverse: set[str], expected: float
) -> None:
    assert prin_score(LABELS, direct, reverse) == pytest.approx(expected)


def test_f1_edge_cases() -> None:
    assert f1(set(), set()) == 1.0
    assert f1({"A"}, set()) == 0.0
    assert f1(set(), {"A"}) == 0.0
    assert f1({"A", "B"}, {"B", "C"}) == pytest.approx(0.5)


@given(legs())
def test_prin_is_between_zero_and_one(case: tuple[tuple[str, ...], set[str], set[str]]) -> None:
    labels, direct, reverse = case
    assert 0.0 <= prin_score(labels, direct, reverse) <= 1.0


@given(legs())
def test_prin_is_zero_exactly_when_direct_equals_complement_of_reverse(
    case: tuple[tuple[str, ...], set[str], set[str]],
) -> None:
    labels, direct, reverse = case
    assert (prin_score(labels, direct, reverse) == 0.0) == (direct == set(labels) - reverse)


@given(legs())
def test_synergy_is_a_subset_of_direct_and_of_the_reverse_complement(
    case: tuple[tuple[str, ...], set[str], set[str]],
) -> None:
    labels, direct, reverse = case
    chosen = synergy(labels, direct, reverse)
    assert chosen <= direct
    assert chosen <= set(labels) - reverse


@given(legs(), st.randoms(use_true_random=False))
def test_verdicts_do_not_depend_on_candidate_order(
    case: tuple[tuple[str, ...], set[str], set[str]], rnd: object
) -> None:
    labels, direct, reverse = case
    shuffled = list(labels)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a = reconcile(labels, direct, reverse)
    b = reconcile(tuple(shuffled), direct, reverse)
    assert set(a.correct) == set(b.correct)
    assert set(a.reverse_implied) == set(b.reverse_implied)
    assert a.prin_score == b.prin_score
    assert a.flags == b.flags


@given(legs(), st.floats(min_value=0.0, max_value=1.0))
def test_consistent_means_prin_at_or_under_threshold(
    case: tuple[tuple[str, ...], set[str], set[str]], threshold: float
) -> None:
    labels, direct, reverse = case
    result = reconcile(labels, direct, reverse, threshold=threshold)
    assert result.consistent == (result.prin_score <= threshold)
    assert (Flag.INCONSISTENT in result.flags) == (not result.consistent)


def test_policies_choose_the_reported_set() -> None:
    direct, reverse = {"A", "B"}, {"B", "C", "D"}
    assert reconcile(LABELS, direct, reverse, policy="synergy").correct == ("A",)
    assert reconcile(LABELS, direct, reverse, policy="direct").correct == ("A", "B")
    assert reconcile(LABELS, direct, reverse, policy="reverse").correct == ("A", "E")


def test_unparseable_legs_count_as_empty_and_are_flagged() -> None:
    result = reconcile(
        LABELS, set(), {"D"}, direct_status=ParseStatus.FAILED, reverse_status=ParseStatus.OK
    )
    assert result.prin_score == 1.0
    assert Flag.UNPARSEABLE_DIRECT in result.flags
    assert Flag.UNPARSEABLE_REVERSE not in result.flags


def test_an_unparseable_reverse_leg_does_not_make_a_direct_answer_consistent() -> None:
    # reverse = ∅ implies all five are correct, so direct {A} gets PRIN 1 − F1({A}, A).
    result = reconcile(LABELS, {"A"}, set(), reverse_status=ParseStatus.FAILED)
    assert result.reverse_implied == LABELS
    assert result.prin_score == pytest.approx(1 - 2 * 1 / (1 + 5))
    assert not result.consistent
    assert result.flags[:2] == (Flag.INCONSISTENT, Flag.UNPARSEABLE_REVERSE)


@pytest.mark.parametrize(
    ("direct", "reverse", "direct_status", "reverse_status", "flag"),
    [
        pytest.param(
            set(LABELS),
            set(),
            ParseStatus.OK,
            ParseStatus.FAILED,
            Flag.UNPARSEABLE_REVERSE,
            id="direct-all-reverse-unparseable",
        ),
        pytest.param(
            set(),
            set(LABELS),
            ParseStatus.FAILED,
            ParseStatus.OK,
            Flag.UNPARSEABLE_DIRECT,
            id="direct-unparseable-reverse-all",
        ),
    ],
)
def test_prin_zero_with_an_unparseable_leg_is_not_consistent(
    direct: set[str],
    reverse: set[str],
    direct_status: ParseStatus,
    reverse_status: ParseStatus,
    flag: Flag,
) -> None:
    # PRIN is 0 by coincidence: the unparseable leg counts as ∅, which happens to be
    # the complement of the other leg. The paper's value is kept; the verdict is not
    # called consistent, and the flag says why (not "inconsistent": nothing disagreed).
    result = reconcile(
        LABELS, direct, reverse, direct_status=direct_status, reverse_status=reverse_status
    )
    assert result.prin_score == 0.0
    assert not result.consistent
    assert flag in result.flags
    assert Flag.INCONSISTENT not in result.flags


@given(
    legs(),
    st.sampled_from(list(ParseStatus)),
    st.sampled_from(list(ParseStatus)),
    st.floats(min_value=0.0, max_value=1.0),
)
def test_consistent_never_with_an_unparseable_leg(
    case: tuple[tuple[str, ...], set[str], set[str]],
    direct_status: ParseStatus,
    reverse_status: ParseStatus,
    threshold: float,
) -> None:
    labels, direct, reverse = case
    if direct_status is ParseStatus.FAILED:
        direct = set()
    if reverse_status is ParseStatus.FAILED:
        reverse = set()
    result = reconcile(
        labels,
        direct,
        reverse,
        direct_status=direct_status,
        reverse_status=reverse_status,
        threshold=threshold,
    )
    unparseable = ParseStatus.FAILED in (direct_status, reverse_status)
    assert result.consistent == (result.prin_score <= threshold and not unparseable)
    assert (Flag.INCONSISTENT in result.flags) == (result.prin_score > threshold)


def test_unknown_policy_is_rejected() -> None:
    with pytest.raises(ValueError, match="policy"):
        reconcile(LABELS, set(), set(), policy="vote")  # type: ignore[arg-type]
