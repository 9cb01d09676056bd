"""The review reader (issue 41, item 2): strict, never guessing; real AI Scientist reviews and
generated replies with known meaning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard._review import review_form
from prin_guard.reader._review import read_review

FORM = review_form("ai-scientist")
ICLR = review_form("iclr")
CORPUS = (
    Path(__file__).parent / "data" / "replies" / "reviews" / "ai-scientist-example-papers.jsonl"
)
RECORDS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def _review(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "Summary": "s",
        "Strengths": ["a"],
        "Weaknesses": ["b"],
        "Originality": 3,
        "Quality": 2,
        "Clarity": 3,
        "Significance": 2,
        "Questions": [],
        "Limitations": [],
        "Ethical Concerns": False,
        "Soundness": 3,
        "Presentation": 3,
        "Contribution": 2,
        "Overall": 4,
        "Confidence": 4,
        "Decision": "Reject",
    }
    base.update(fields)
    return base


def _reply(review: object, thought: str = "The paper is fine.") -> str:
    return f"THOUGHT:\n{thought}\n\nREVIEW JSON:\n```json\n{json.dumps(review, indent=4)}\n```\n"


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_real_ai_scientist_reviews_read_every_field(record: dict[str, object]) -> None:
    expected = record["expected"]
    assert isinstance(expected, dict)
    reading = read_review(str(record["reply"]), FORM)
    assert reading.complete, reading.unread
    assert reading.scores == {f.name: expected[f.name] for f in FORM.scores}
    assert reading.decision == expected["Decision"].lower()
    assert reading.text == {name: expected[name] for name in FORM.text_fields}


def test_real_corpus_figures() -> None:
    readings = [read_review(str(r["reply"]), FORM) for r in RECORDS]
    assert len(readings) == 10 and all(r.complete for r in readings)
    assert sorted(r.scores["Overall"] for r in readings) == [3, 4, 4, 4, 4, 5, 5, 5, 6, 6]
    assert {r.decision for r in readings} == {"reject"}


def test_thought_then_fenced_json_as_the_ai_scientist_asks() -> None:
    reading = read_review(_reply(_review(Overall=7, Decision="Accept"), "Solid work."), FORM)
    assert reading.complete
    assert reading.scores["Overall"] == 7 and reading.decision == "accept"
    assert reading.decision_word == "Accept"
    assert reading.thought == "Solid work."


@pytest.mark.parametrize(
    ("value", "score", "why"),
    [
        pytest.param(7, 7, None, id="integer"),
        pytest.param(7.0, 7, None, id="integral-float"),
        pytest.param("7", 7, None, id="string-integer"),
        pytest.param("7/10", 7, None, id="out-of-the-top"),
        pytest.param(" 7 / 10 ", 7, None, id="spaced-fraction"),
        pytest.param(7.5, None, "7.5 is not an integer score on 1-10", id="half"),
        pytest.param(11, None, "11 is outside 1-10", id="above"),
        pytest.param(0, None, "0 is outside 1-10", id="below"),
        pytest.param("7/5", None, "'7/5' is not out of 10", id="other-top"),
        pytest.param("7 (Accept)", None, "is not a score", id="words"),
        pytest.param("high", None, "is not a score", id="label"),
        pytest.param(True, None, "true is not a score", id="boolean"),
        pytest.param([7], None, "is not a score", id="list"),
        pytest.param(None, None, "null is not a score", id="null"),
    ],
)
def test_a_score_is_read_only_on_its_scale(
    value: object, score: int | None, why: str | None
) -> None:
    reading = read_review(_reply(_review(Overall=value)), FORM)
    assert reading.found
    assert reading.scores.get("Overall") == score
    if why is None:
        assert "Overall" not in reading.unread
    else:
        assert why in reading.unread["Overall"]
    # the other fields are read all the same
    assert reading.scores["Originality"] == 3 and reading.decision == "reject"


def test_an_aspect_off_its_own_scale_is_unread() -> None:
    reading = read_review(_reply(_review(Originality=5, Clarity="3/4")), FORM)
    assert reading.unread == {"Originality": "5 is outside 1-4"}
    assert reading.scores["Clarity"] == 3


def test_a_field_given_twice_with_different_values_is_unread() -> None:
    body = json.dumps(_review(), indent=4)
    twice = body.replace('"Overall": 4,', '"Overall": 4,\n    "overall": 6,')
    reading = read_review(f"REVIEW JSON:\n```json\n{twice}\n```", FORM)
    assert reading.unread["Overall"] == "given twice with different values"
    assert "Overall" not in reading.scores
    same = body.replace('"Overall": 4,', '"Overall": 4,\n    "Overall": 4,')
    assert read_review(f"```json\n{same}\n```", FORM).scores["Overall"] == 4
    decisions = body.replace('"Decision": "Reject"', '"Decision": "Reject", "decision": "Accept"')
    reading = read_review(f"```json\n{decisions}\n```", FORM)
    assert reading.decision is None and reading.unread["Decision"].startswith("given twice")


@pytest.mark.parametrize(
    ("word", "side"),
    [
        pytest.param("Accept", "accept", id="accept"),
        pytest.param("reject", "reject", id="lower-case"),
        pytest.param(" REJECT ", "reject", id="spaced-capitals"),
        pytest.param("Weak Accept", None, id="weak-accept-forbidden"),
        pytest.param("Borderline Reject", None, id="borderline-forbidden"),
        pytest.param("Accept or Reject", None, id="both"),
        pytest.param("Accepted", None, id="another-word"),
        pytest.param(1, None, id="number"),
    ],
)
def test_the_decision_is_one_of_the_forms_words(word: object, side: str | None) -> None:
    reading = read_review(_reply(_review(Decision=word)), FORM)
    assert reading.decision == side
    assert ("Decision" in reading.unread) is (side is None)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        pytest.param("I would give it a 6 and accept it.", "no JSON object", id="prose"),
        pytest.param(
            'THOUGHT: ok\nREVIEW JSON:\n```json\n{"Overall": 6,\n```',
            "no JSON object",
            id="broken-json",
        ),
        pytest.param(
            '```json\n{"score": 6, "verdict": "Accept"}\n```', "no JSON object", id="other-fields"
        ),
        pytest.param('```json\n[6, "Accept"]\n```', "no JSON object", id="a-list"),
        pytest.param('```python\n{"Overall": 6}\n```', "no JSON object", id="another-language"),
        pytest.param("Overall: 6\nDecision: Accept", "no JSON object", id="form-lines-are-prose"),
        pytest.param(
            '```json\n{"Overall": 6, "Decision": "Accept"}\n```\n'
            '```json\n{"Overall": 3, "Decision": "Reject"}\n```',
            "several different review JSON objects",
            id="two-different-reviews",
        ),
    ],
)
def test_unreadable_replies(reply: str, reason: str) -> None:
    reading = read_review(reply, FORM)
    assert not reading.found and reading.reason is not None and reason in reading.reason
    assert reading.scores == {} and reading.decision is None


def test_a_repeated_identical_review_is_read() -> None:
    block = _reply(_review(Overall=5))
    reading = read_review(block + "\nI am done.\n" + block.split("REVIEW JSON:")[1], FORM)
    assert reading.scores["Overall"] == 5


def test_only_the_json_after_the_last_marker_counts() -> None:
    draft = '```json\n{"Overall": 9, "Decision": "Accept"}\n```'
    reply = (
        f"THOUGHT:\nA first draft:\n{draft}\nOn reflection it is weaker.\n\n"
        + _reply(_review())[9:]
    )
    reading = read_review(reply, FORM)
    assert reading.scores["Overall"] == 4 and reading.decision == "reject"


def test_a_bare_object_and_a_bare_fence_are_read() -> None:
    assert read_review(json.dumps(_review(Overall=6)), FORM).scores["Overall"] == 6
    assert read_review(f"```\n{json.dumps(_review(Overall=2))}\n```", FORM).scores["Overall"] == 2
    after = "REVIEW JSON:\n" + json.dumps(_review(Overall=8, Decision="Accept"))
    assert read_review(after, FORM).scores["Overall"] == 8


def test_a_raw_line_break_inside_a_string_is_allowed_and_kept() -> None:
    body = json.dumps(_review(Summary="MARK")).replace("MARK", "two\nlines")
    reading = read_review(f"```json\n{body}\n```", FORM)
    assert reading.text["Summary"] == "two\nlines" and reading.complete


def test_a_missing_field_is_unread_and_the_rest_read() -> None:
    review = _review()
    del review["Confidence"]
    reading = read_review(_reply(review), FORM)
    assert reading.unread == {"Confidence": "missing"} and not reading.complete
    assert reading.scores["Overall"] == 4


def test_field_names_ignore_case_spaces_and_underscores() -> None:
    reply = '```json\n{"rating": 7, "CONFIDENCE": 2, "decision": "accept", "review": "Good."}\n```'
    reading = read_review(reply, ICLR)
    assert reading.scores == {"Rating": 7, "Confidence": 2}
    assert reading.decision == "accept" and reading.text == {"Review": "Good."}


@given(
    overall=st.integers(1, 10),
    confidence=st.integers(1, 5),
    aspects=st.lists(st.integers(1, 4), min_size=7, max_size=7),
    accept=st.booleans(),
    as_string=st.booleans(),
)
def test_whatever_a_well_formed_reply_says_is_read_back(
    overall: int, confidence: int, aspects: list[int], accept: bool, as_string: bool
) -> None:
    names = [f.name for f in FORM.aspects]
    values = dict(zip(names, aspects, strict=True))
    review = _review(
        Overall=f"{overall}/10" if as_string else overall,
        Confidence=confidence,
        Decision="Accept" if accept else "Reject",
        **values,
    )
    reading = read_review(_reply(review), FORM)
    assert reading.complete
    assert reading.scores == {**values, "Overall": overall, "Confidence": confidence}
    assert reading.decision == ("accept" if accept else "reject")


@given(st.text(max_size=200))
def test_arbitrary_text_never_yields_a_score_it_does_not_declare(text: str) -> None:
    reading = read_review(text, FORM)
    # no JSON object naming the form's fields in it: nothing is read
    if "{" not in text:
        assert not reading.found and reading.scores == {}


def test_a_review_quoted_from_the_prompts_examples_is_not_the_reviewers() -> None:
    # issue 38, item 5: every reader's copy rule (prin_guard._prompting._quotes); the AI Scientist's
    # prompt shows example reviews, and a reviewer may restate one before its own
    example = json.dumps(_review(Overall=8, Decision="Accept", Summary="A sparse graph study."))
    own = json.dumps(_review(Overall=3))
    reply = f"REVIEW JSON:\n```json\n{example}\n```\n\n```json\n{own}\n```\n"
    assert read_review(reply, FORM).reason == "several different review JSON objects"
    prompt = f"Here is an example review:\n{example}\n\nHere is the paper: ..."
    reading = read_review(reply, FORM, echo=[prompt])
    assert (reading.scores["Overall"], reading.decision, reading.copied) == (3, "reject", True)
    only = read_review(f"```json\n{example}\n```", FORM, echo=[prompt])
    assert (only.found, only.copied) == (False, True)
    # a review the item does not hold is the reviewer's, echo or not
    assert not read_review(_reply(_review(Overall=6)), FORM, echo=[prompt]).copied
