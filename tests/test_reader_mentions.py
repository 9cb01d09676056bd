"""The reader, round 3 (issue 38): every candidate a reply's concluding part mentions is
accounted for, a statement of the other side is never this leg's answer, lists in every
syntax, the question's own predicate, candidate texts for labels. Each example of the
issue reads right or fails: never a confident misread."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}


def _read(reply: str, polarity: str = "direct") -> tuple[tuple[str, ...], str, bool]:
    reading = read_reply(reply, CAPITALS, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    return reading.labels, reading.status.value, marked


@pytest.mark.parametrize(
    ("reply", "polarity"),
    [
        pytest.param("Option D is false.", "direct", id="negative-status-direct"),
        pytest.param('{"wrong": ["B", "D"]}', "direct", id="json-other-side"),
        pytest.param("C is right.", "reverse", id="right-on-reverse"),
        pytest.param("A, D are false.", "direct", id="two-false"),
    ],
)
def test_a_statement_of_the_other_side_is_never_a_confident_answer(
    reply: str, polarity: str
) -> None:
    labels, status, marked = _read(reply, polarity)
    assert status == "failed" or marked, (labels, status)


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("A and C are capitals.", "direct", ("A", "C"), id="predicate"),
        pytest.param("B and D are not capitals.", "reverse", ("B", "D"), id="predicate-negated"),
        pytest.param("A is a capital. B is not a capital. C is a capital. D is not a capital.",
                     "reverse", ("B", "D"), id="predicate-every-one"),  # fmt: skip
        pytest.param("A, and C.", "direct", ("A", "C"), id="oxford-comma-alone"),
        pytest.param("Therefore, the incorrect options are: Options A, B, and D.", "reverse",
                     ("A", "B", "D"), id="oxford-comma"),  # fmt: skip
        pytest.param("Answer: Paris, Rome", "direct", ("A", "C"), id="texts-answer-line"),
        pytest.param("Answer: Paris and Rome", "direct", ("A", "C"), id="texts-and"),
        pytest.param("| Option | Verdict |\n|---|---|\n| A | true |\n| B | false |\n"
                     "| C | true |\n| D | false |", "reverse", ("B", "D"), id="true-false-absolute"),
        pytest.param("| Option | Capital? |\n|---|---|\n| A | Yes |\n| B | No |\n"
                     "| C | Yes |\n| D | No |", "reverse", ("B", "D"), id="predicate-column"),
        pytest.param("Answer: A, C Note: this one needed care.", "direct", ("A", "C"),
                     id="note-on-the-answer-line"),  # fmt: skip
        pytest.param("Therefore, the answer is A, C. Note: B and D are not capitals.", "direct", ("A", "C"),
                     id="note-in-agreement"),  # fmt: skip
    ],
)
def test_read_confidently(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    assert _read(reply, polarity) == (expected, "ok", False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("Answer: C/D Note: A & B are incorrect.", id="note-reads-no-answer"),
        pytest.param("The answer is A, C. Note: C is wrong.", id="note-contradicts"),
    ],
)
def test_a_mention_that_contradicts_the_reading_fails_it(reply: str) -> None:
    labels, status, marked = _read(reply)
    assert status == "failed" or (labels == ("C", "D") and not marked) or marked


def test_a_mention_no_statement_explains_makes_the_reading_weak() -> None:
    reading = read_reply("Therefore, the answer is A, C. Note: B and D were close.", CAPITALS)
    assert reading.labels == ("A", "C") and reading.weak


def test_a_note_naming_no_label_leaves_the_reading_confident() -> None:
    reading = read_reply("Therefore, the answer is A, C. Note: this one was easy.", CAPITALS)
    assert reading.labels == ("A", "C") and not reading.weak
