"""Coherence rules and the reconciliation of a form asked both ways or again (issue 41,
item 3): pure functions, each rule's edges stated in prin_guard._review's docstrings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prin_guard._prompting._rating import reconcile
from prin_guard._review import (
    ReviewScale,
    coherence,
    confidence_disowned,
    decision_against_threshold,
    disowning_phrase,
    overall_outside_aspects,
    overall_tolerance,
    rebuttal_movement,
    reconcile_decision,
    review_form,
)
from prin_guard._route._decide import field_scale
from prin_guard.errors import UsageError
from prin_guard.reader._review import read_review

AIS = review_form("ai-scientist")
ICLR = review_form("iclr")
CORPUS = (
    Path(__file__).parent / "data" / "replies" / "reviews" / "ai-scientist-example-papers.jsonl"
)


@pytest.mark.parametrize(
    ("form", "overall", "decision", "flag"),
    [
        pytest.param(AIS, 6, "reject", True, id="ais-weak-accept-rejected"),
        pytest.param(AIS, 5, "reject", False, id="ais-borderline-accept-rejected"),
        pytest.param(AIS, 4, "accept", False, id="ais-borderline-reject-accepted"),
        pytest.param(AIS, 3, "accept", True, id="ais-reject-accepted"),
        pytest.param(AIS, 8, "accept", False, id="ais-agrees"),
        pytest.param(ICLR, 7, "reject", True, id="iclr-good-rejected"),
        pytest.param(ICLR, 6, "reject", False, id="iclr-marginal-above-rejected"),
        pytest.param(ICLR, 5, "accept", False, id="iclr-marginal-below-accepted"),
        pytest.param(ICLR, 4, "accept", True, id="iclr-ok-but-not-good-accepted"),
        pytest.param(ICLR, None, "accept", None, id="overall-unread"),
        pytest.param(ICLR, 7, None, None, id="decision-unread"),
    ],
)
def test_decision_against_threshold(form, overall, decision, flag) -> None:  # type: ignore[no-untyped-def]
    assert decision_against_threshold(form, overall, decision) is flag


def test_a_decision_that_is_no_side_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="decision: expected 'accept', 'reject' or None"):
        decision_against_threshold(AIS, 5, "Accept")


def _aspects(value: int, **overrides: int) -> dict[str, float]:
    scores: dict[str, float] = {f.name: value for f in AIS.aspects}
    scores.update(overrides)
    return scores


@pytest.mark.parametrize(
    ("scores", "flag"),
    [
        pytest.param(_aspects(3, Overall=5), False, id="all-3-overall-5-within"),
        pytest.param(_aspects(3, Overall=4), True, id="all-3-overall-4-below"),
        pytest.param(_aspects(3, Overall=9), False, id="all-3-overall-9-within"),
        pytest.param(_aspects(3, Overall=10), True, id="all-3-overall-10-above"),
        pytest.param(_aspects(2, Clarity=3, Overall=2), False, id="2-to-3-overall-2"),
        pytest.param(_aspects(2, Clarity=3, Overall=8), False, id="2-to-3-overall-8"),
        pytest.param(_aspects(2, Clarity=3, Overall=9), False, id="2-to-3-overall-9"),
        pytest.param(_aspects(2, Clarity=3, Overall=10), True, id="2-to-3-overall-10"),
        pytest.param(_aspects(2, Clarity=3, Overall=1), True, id="2-to-3-overall-1"),
        pytest.param(_aspects(1, Overall=1), False, id="all-bottom"),
        pytest.param(_aspects(4, Overall=10), False, id="all-top"),
        pytest.param(_aspects(4, Overall=1), True, id="top-aspects-bottom-overall"),
        pytest.param({"Overall": 5}, None, id="aspects-unread"),
        pytest.param(_aspects(3), None, id="overall-unread"),
    ],
)
def test_overall_outside_aspects(scores: dict[str, float], flag: bool | None) -> None:
    assert overall_outside_aspects(AIS, scores) is flag


def test_overall_tolerance_is_half_a_step_of_each_scale() -> None:
    assert overall_tolerance(AIS) == pytest.approx(1 / 18 + 1 / 6)
    assert overall_outside_aspects(ICLR, {"Rating": 2, "Confidence": 5}) is None  # no aspects


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        pytest.param(
            "I am not familiar with this line of work.", "I am not familiar with", id="familiar"
        ),
        pytest.param("I’m not very familiar with GANs.", "I'm not very familiar with", id="curly"),
        pytest.param("I am unfamiliar with the area.", "I am unfamiliar with", id="unfamiliar"),
        pytest.param("This is outside of my expertise.", "outside of my expertise", id="outside"),
        pytest.param("Beyond my area of expertise.", "Beyond my area", id="beyond"),
        pytest.param("Theory is not my area.", "not my area", id="not-my-area"),
        pytest.param("I'm not an expert in PPLs.", "I'm not an expert", id="not-an-expert"),
        pytest.param("My score is an educated guess.", "educated guess", id="educated-guess"),
        pytest.param(
            "I am not confident in my assessment.",
            "I am not confident in my assessment",
            id="not-confident",
        ),
        pytest.param(
            "I don't have the background to judge.", "I don't have the background", id="background"
        ),
        pytest.param(
            "I could not follow the paper at all.",
            "I could not follow the paper",
            id="could-not-follow",
        ),
        pytest.param("I did not understand Eq. 3.", None, id="one-equation-is-criticism"),
        pytest.param("Readers not familiar with RL will struggle.", None, id="third-person"),
        pytest.param(
            "The authors are experts; I am familiar with it.", None, id="familiar-affirmed"
        ),
        pytest.param("The expert policy is outside the data.", None, id="no-first-person"),
    ],
)
def test_disowning_phrases(text: str, phrase: str | None) -> None:
    assert disowning_phrase([text]) == phrase


def test_confidence_disowned_needs_a_high_confidence() -> None:
    text = ["I am not familiar with this area."]
    assert confidence_disowned(ICLR, 5, text) is True
    assert confidence_disowned(ICLR, 4, text) is True
    assert confidence_disowned(ICLR, 3, text) is False
    assert confidence_disowned(ICLR, 5, ["A fine paper."]) is False
    assert confidence_disowned(ICLR, None, text) is None


def test_coherence_on_a_read_reply_finds_the_phrase_in_nested_text() -> None:
    reply = json.dumps(
        {
            "Review": "Solid.",
            "Rating": 8,
            "Confidence": 5,
            "Decision": "Reject",
            "Notes": {"x": ["outside my expertise"]},
        }
    )
    reading = read_review(reply, ICLR)
    result = coherence(ICLR, reading.scores, reading.decision, [reading.text, reply])
    assert result.flags == ("decision_against_threshold", "confidence_disowned")
    assert result.overall_outside_aspects is None
    assert result.phrase == "outside my expertise"


def test_real_ai_scientist_reviews_two_weak_accepts_rejected() -> None:
    flagged = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        reading = read_review(record["reply"], AIS)
        result = coherence(AIS, reading.scores, reading.decision, [reading.text])
        flagged.extend((record["id"], flag) for flag in result.flags)
    assert flagged == [
        ("ai-scientist-layerwise_lr_grokking", "decision_against_threshold"),
        ("ai-scientist-weight_initialization_grokking", "decision_against_threshold"),
    ]


def test_a_form_field_is_reconciled_on_the_rating_tasks_scale() -> None:
    # one rule for a mirrored score: the review task turns each field's scale into the
    # rating task's (its tolerance, its mirror) and calls _rating.reconcile
    overall = field_scale(AIS.overall)
    assert (overall.min, overall.max, overall.agreement) == (1, 10, 1.0)
    assert overall.labels is not None and overall.labels[10] == "Award quality"
    assert reconcile(8, 3, overall).rating == 8
    assert reconcile(8, 8, overall).polarity_confusion
    tolerant = field_scale(
        AIS.overall.model_copy(update={"scale": ReviewScale(min=1, max=10, tolerance=2)})
    )
    assert tolerant.agreement == 2.0 and reconcile(8, 5, tolerant).rating == 7


@pytest.mark.parametrize(
    ("direct", "rejected", "decision", "inconsistent"),
    [
        pytest.param("accept", False, "accept", False, id="accept-not-rejected"),
        pytest.param("reject", True, "reject", False, id="reject-rejected"),
        pytest.param("accept", True, None, True, id="accept-yet-rejected"),
        pytest.param("reject", False, None, True, id="reject-yet-not-rejected"),
        pytest.param(None, True, None, False, id="direct-unread"),
        pytest.param("accept", None, None, False, id="reverse-unread"),
    ],
)
def test_reconcile_decision(direct, rejected, decision, inconsistent) -> None:  # type: ignore[no-untyped-def]
    result = reconcile_decision(direct, rejected)
    assert (result.decision, result.inconsistent) == (decision, inconsistent)


def test_reconcile_decision_refuses_other_values() -> None:
    with pytest.raises(UsageError, match="rejected: expected True, False or None"):
        reconcile_decision("accept", "yes")  # type: ignore[arg-type]


def test_rebuttal_movement() -> None:
    tolerances = {f.name: field_scale(f).agreement for f in AIS.scores}
    before = _aspects(3, Overall=4, Confidence=4)
    after = _aspects(3, Overall=5, Confidence=4, Clarity=4)
    still = rebuttal_movement(AIS, before, after, "reject", "reject", tolerances=tolerances)
    assert still.scores["Overall"] == 1 and still.scores["Clarity"] == 1
    assert still.moved == () and not still.swayed  # one point is within the tolerance
    moved = rebuttal_movement(
        AIS, before, {**after, "Overall": 6}, "reject", "reject", tolerances=tolerances
    )
    assert moved.moved == ("Overall",) and moved.swayed
    flipped = rebuttal_movement(AIS, before, after, "reject", "accept", tolerances=tolerances)
    assert flipped.decision_changed and flipped.swayed and flipped.moved == ()
    strict = rebuttal_movement(
        AIS, before, after, "reject", "reject", tolerance=0, tolerances=tolerances
    )
    assert strict.moved == ("Clarity", "Overall")
    unread = rebuttal_movement(AIS, {"Overall": 4}, {}, None, "accept", tolerances=tolerances)
    assert unread.scores == {} and not unread.swayed
    with pytest.raises(UsageError, match="tolerance"):
        rebuttal_movement(AIS, before, after, None, None, tolerance=-1, tolerances=tolerances)
