"""The verdict's decision: PRIN and synergy (the paper's equations), the order check's
score, panels, flags from scores, the verdict, and the signal registry. Pure functions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import Flag, GuardOptions, Item, UsageError
from prin_guard._route._decide import (
    SIGNALS,
    Answers,
    MemberLegs,
    assess,
    decided,
    fleiss_agreement,
    make_verdict,
    order_inconsistency,
    panel_majority,
    score_flags,
    signal_value,
)
from prin_guard.eval import f1, prin_score, synergy
from prin_guard.models import Decision, Leg, ParseStatus, Polarity, Scores, Usage

LABELS = ("A", "B", "C", "D", "E")


def _leg(
    polarity: Polarity,
    labels: set[str] | tuple[str, ...],
    status: ParseStatus = ParseStatus.OK,
    **changes: Any,
) -> Leg:
    if status is ParseStatus.FAILED:
        labels = ()
    elif not labels:
        status = ParseStatus.NONE
    return Leg(
        polarity=polarity,
        template="v0",
        template_version=2,
        raw_text="Answer: " + (", ".join(sorted(labels)) or "none"),
        labels=tuple(sorted(labels)),
        parse_status=status,
        **changes,
    )


@dataclass(frozen=True)
class _Reconciled:
    correct: tuple[str, ...]
    reverse_implied: tuple[str, ...]
    prin_score: float
    consistent: bool
    flags: tuple[Flag, ...]


def _reconcile(
    labels: tuple[str, ...],
    direct: set[str],
    reverse: set[str],
    *,
    direct_status: ParseStatus = ParseStatus.OK,
    reverse_status: ParseStatus = ParseStatus.OK,
    policy: str = "synergy",
    threshold: float = 0.0,
) -> _Reconciled:
    """The decision on one judge's two legs, as the engine makes it."""
    options = GuardOptions.of(policy=policy, threshold=threshold)
    legs = MemberLegs(
        _leg(Polarity.DIRECT, direct, direct_status),
        _leg(Polarity.REVERSE, reverse, reverse_status),
    )
    result = assess(labels, legs, options)
    assert result.scores.prin is not None
    flags = tuple(flag for flag in Flag if flag in result.flags)
    return _Reconciled(
        result.correct, result.reverse_implied, result.scores.prin, result.consistent, flags
    )


@st.composite
def legs(draw: st.DrawFn) -> tuple[tuple[str, ...], set[str], set[str]]:
    labels = tuple(draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=5, unique=True)))
    direct = draw(st.sets(st.sampled_from(labels)))
    reverse = draw(st.sets(st.sampled_from(labels)))
    return labels, direct, reverse


def test_paper_table1_case() -> None:
    # GPT-4: direct "C", reverse "C, D, E" over five options.
    result = _reconcile(LABELS, {"C"}, {"C", "D", "E"})
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
    a = _reconcile(labels, direct, reverse)
    b = _reconcile(tuple(shuffled), direct, reverse)
    assert set(a.correct) == set(b.correct)
    assert set(a.reverse_implied) == set(b.reverse_implied)
    assert a.prin_score == b.prin_score
    assert a.flags == b.flags


@given(legs(), st.floats(min_value=0.0, max_value=1.0))
def test_consistent_means_prin_at_or_under_threshold(
    case: tuple[tuple[str, ...], set[str], set[str]], threshold: float
) -> None:
    labels, direct, reverse = case
    result = _reconcile(labels, direct, reverse, threshold=threshold)
    assert result.consistent == (result.prin_score <= threshold)
    assert (Flag.INCONSISTENT in result.flags) == (not result.consistent)


def test_policies_choose_the_reported_set() -> None:
    direct, reverse = {"A", "B"}, {"B", "C", "D"}
    assert _reconcile(LABELS, direct, reverse, policy="synergy").correct == ("A",)
    assert _reconcile(LABELS, direct, reverse, policy="direct").correct == ("A", "B")
    assert _reconcile(LABELS, direct, reverse, policy="reverse").correct == ("A", "E")


def test_unparseable_legs_count_as_empty_and_are_flagged() -> None:
    result = _reconcile(
        LABELS, set(), {"D"}, direct_status=ParseStatus.FAILED, reverse_status=ParseStatus.OK
    )
    assert result.prin_score == 1.0
    assert Flag.UNPARSEABLE_DIRECT in result.flags
    assert Flag.UNPARSEABLE_REVERSE not in result.flags


def test_an_unparseable_reverse_leg_does_not_make_a_direct_answer_consistent() -> None:
    # reverse = ∅ implies all five are correct, so direct {A} gets PRIN 1 − F1({A}, A).
    result = _reconcile(LABELS, {"A"}, set(), reverse_status=ParseStatus.FAILED)
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
    result = _reconcile(
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
    result = _reconcile(
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
    with pytest.raises(UsageError, match="policy"):
        _reconcile(LABELS, set(), set(), policy="vote")


# -- the order check's score and panels ----------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        pytest.param({"A"}, {"A"}, 0.0, id="same"),
        pytest.param(set(), set(), 0.0, id="both-empty"),
        pytest.param({"A"}, {"B"}, 1.0, id="disjoint"),
        pytest.param({"A", "B"}, {"A"}, 1 - 2 / 3, id="subset"),
    ],
)
def test_order_inconsistency_is_one_minus_f1(
    first: set[str], second: set[str], expected: float
) -> None:
    assert order_inconsistency(first, second) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("votes", "correct", "split"),
    [
        pytest.param([{"A"}, {"A"}, {"B"}], ("A",), (), id="two-of-three"),
        pytest.param([{"A"}, {"A"}, None], ("A",), (), id="two-of-three-one-abstains"),
        # one voter left: one vote of three is no majority either way
        pytest.param([{"A"}, None, None], (), ("A", "B", "C"), id="one-voter-is-no-majority"),
        pytest.param([{"A"}, {"B"}, None], (), ("A", "B"), id="abstention-never-breaks-a-tie"),
        pytest.param([{"A"}, {"A"}, {"B"}, {"B"}], (), ("A", "B"), id="two-two-split"),
        pytest.param([set(), set(), {"A"}], (), (), id="majority-says-none"),
    ],
)
def test_panel_majority_counts_the_whole_panel(
    votes: list[set[str] | None], correct: tuple[str, ...], split: tuple[str, ...]
) -> None:
    assert panel_majority(("A", "B", "C"), votes) == (correct, split)


def test_panel_majority_does_not_depend_on_member_order() -> None:
    votes: list[set[str] | None] = [{"A"}, {"B"}, {"A", "B"}, None, {"C"}]
    expected = panel_majority(("A", "B", "C"), votes)
    assert panel_majority(("A", "B", "C"), list(reversed(votes))) == expected


def test_fleiss_agreement() -> None:
    labels = ("A", "B")
    assert fleiss_agreement(labels, [{"A"}, {"A"}, {"A"}]) == 1.0
    # A: 2 yes 1 no -> (2*1 + 0)/(3*2) = 1/3; B: all no -> 1
    assert fleiss_agreement(labels, [{"A"}, {"A"}, set()]) == pytest.approx((1 / 3 + 1) / 2)
    assert fleiss_agreement(labels, [{"A"}, None]) is None


# -- one rule for scores, one verdict for a judge and a panel ------------------------------

ITEM = Item(question="Which?", candidates=["one", "two", "three"], id="q")


def _answers(direct: set[str], reverse: set[str], **changes: Any) -> Answers:
    legs = MemberLegs(_leg(Polarity.DIRECT, direct), _leg(Polarity.REVERSE, reverse))
    return Answers(legs=legs, calls=2, cached=False, **changes)


@pytest.mark.parametrize(
    ("scores", "options", "expected"),
    [
        pytest.param(Scores(prin=0.4), {"threshold": 0.3}, {Flag.INCONSISTENT}, id="prin-over"),
        pytest.param(Scores(prin=0.3), {"threshold": 0.3}, set(), id="prin-at-threshold"),
        pytest.param(Scores(order_inconsistency=1.0), {}, {Flag.ORDER_SENSITIVE}, id="order-over"),
        pytest.param(
            Scores(confidence=0.2),
            {"checks": "reverse,confidence"},
            {Flag.LOW_CONFIDENCE},
            id="low-confidence-checked",
        ),
        pytest.param(Scores(confidence=0.2), {}, set(), id="confidence-not-checked"),
        pytest.param(Scores(), {}, set(), id="no-scores"),
    ],
)
def test_score_flags_is_the_one_rule_from_scores_to_flags(
    scores: Scores, options: dict[str, Any], expected: set[Flag]
) -> None:
    assert score_flags(scores, GuardOptions.of(**options)) == expected


def test_a_panel_and_a_judge_flag_the_same_scores_the_same_way() -> None:
    options = GuardOptions.of(threshold=0.2)
    # every member contradicts itself by the same amount: the panel's mean PRIN is theirs
    lone = make_verdict(ITEM, [_answers({"A"}, {"A"})], options, panel=False)
    panel = make_verdict(
        ITEM,
        [_answers({"A"}, {"A"}, name="x"), _answers({"A"}, {"A"}, name="y")],
        options,
        panel=True,
    )
    assert lone.scores.prin == panel.scores.prin
    assert Flag.INCONSISTENT in lone.flags and Flag.INCONSISTENT in panel.flags


def test_a_verdicts_flags_are_listed_in_flag_order() -> None:
    options = GuardOptions()
    verdict = make_verdict(ITEM, [_answers({"A"}, {"A", "B", "C"})], options, panel=False)
    assert verdict.flags == tuple(flag for flag in Flag if flag in verdict.flags)
    assert verdict.flags == (Flag.INCONSISTENT, Flag.EMPTY_VERDICT)
    assert verdict.prin_score == verdict.scores.prin == 1.0


def test_a_panel_verdict_counts_a_failed_member_as_an_abstention() -> None:
    answers = [
        _answers({"A"}, {"B", "C"}, name="x"),
        _answers({"A"}, {"B", "C"}, name="y"),
        Answers(None, failure="judge error: boom", name="z"),
    ]
    verdict = make_verdict(ITEM, answers, GuardOptions(), panel=True)
    assert verdict.correct == ("A",)
    assert [(m.judge, m.abstained) for m in verdict.members] == [
        ("x", False),
        ("y", False),
        ("z", True),
    ]
    assert verdict.members[2].reason == "judge error: boom"
    assert Flag.PANEL_ABSTENTION in verdict.flags and not verdict.consistent
    assert verdict.judge_calls == 4 and not verdict.cached


def test_decided_flags_what_no_tier_accepted() -> None:
    verdict = make_verdict(ITEM, [_answers({"A"}, {"B", "C"})], GuardOptions(), panel=False)
    refused = Decision(accepted=False, score=0.5, rule="prin <= 0.0", tier=1, tiers_asked=2)
    out = decided(verdict, refused, tiers=2, judge_calls=4, usage=Usage(), cached=False)
    assert out.flags == (Flag.NOT_ACCEPTED, Flag.ABSTAINED)
    assert out.judge_calls == 4 and out.decision == refused
    alone = decided(verdict, refused, tiers=1, judge_calls=2, usage=Usage(), cached=False)
    assert alone.flags == (Flag.NOT_ACCEPTED,)


def test_every_signal_has_a_direction_and_is_read_from_the_scores() -> None:
    scores = Scores(
        prin=0.25,
        order_inconsistency=0.5,
        panel_agreement=0.75,
        confidence=0.9,
        direct_confidence=0.95,
    )
    verdict = make_verdict(ITEM, [_answers({"A"}, {"B", "C"})], GuardOptions(), panel=False)
    verdict = verdict.model_copy(update={"scores": scores})
    read = {name: signal_value(verdict, name) for name in SIGNALS}
    assert read == {
        "prin": 0.25,
        "order_inconsistency": 0.5,
        "inconsistency": 0.5,
        "panel_agreement": 0.75,
        "confidence": 0.9,
        "direct_confidence": 0.95,
    }
    riskier = {name: signal.riskier for name, signal in SIGNALS.items()}
    assert riskier == {
        "prin": "higher",
        "order_inconsistency": "higher",
        "inconsistency": "higher",
        "panel_agreement": "lower",
        "confidence": "lower",
        "direct_confidence": "lower",
    }
    assert all(s.higher_is_better == (s.riskier == "lower") for s in SIGNALS.values())
