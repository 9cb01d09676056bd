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
        pytest.param(
            "A is a capital. B is not a capital. C is a capital. D is not a capital.",
            "reverse",
            ("B", "D"),
            id="predicate-every-one",
        ),
        pytest.param("A, and C.", "direct", ("A", "C"), id="oxford-comma-alone"),
        pytest.param(
            "Therefore, the incorrect options are: Options A, B, and D.",
            "reverse",
            ("A", "B", "D"),
            id="oxford-comma",
        ),
        pytest.param("Answer: Paris, Rome", "direct", ("A", "C"), id="texts-answer-line"),
        pytest.param("Answer: Paris and Rome", "direct", ("A", "C"), id="texts-and"),
        pytest.param(
            "| Option | Verdict |\n|---|---|\n| A | true |\n| B | false |\n"
            "| C | true |\n| D | false |",
            "reverse",
            ("B", "D"),
            id="true-false-absolute",
        ),
        pytest.param(
            "| Option | Capital? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |",
            "reverse",
            ("B", "D"),
            id="predicate-column",
        ),
        pytest.param(
            "Answer: A, C Note: this one needed care.",
            "direct",
            ("A", "C"),
            id="note-on-the-answer-line",
        ),
        pytest.param(
            "Therefore, the answer is A, C. Note: B and D are not capitals.",
            "direct",
            ("A", "C"),
            id="note-in-agreement",
        ),
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


MATH = {
    "task": "choice",
    "question": "Pick the value.",
    "candidates": ["10", "20", "30", "40", "50"],
}


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("Therefore, the correct answer is:\n\\boxed{A}", "direct", ("A",), id="boxed"),
        pytest.param("The correct answer is: \\boxed{D}", "direct", ("D",), id="boxed-inline"),
        pytest.param("the correct answer is \\(\\boxed{B}\\).", "direct", ("B",), id="boxed-paren"),
        pytest.param(
            "The incorrect option is:\n\\[\n\\boxed{\\text{E}}\n\\]",
            "reverse",
            ("E",),
            id="boxed-text",
        ),
    ],
)
def test_latex_boxes_are_read(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    reading = read_reply(reply, MATH, polarity=polarity)
    assert (reading.labels, reading.weak, reading.polarity_confusion) == (expected, False, False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("... The correct answer is:\n\\[\nAnswer: D\n\\]", id="format-line-in-a-box"),
        pytest.param("... the closest option is C 290.\n\nAnswer: C", id="closest-then-line"),
    ],
)
def test_a_reverse_leg_whose_format_line_disagrees_with_its_words_is_marked(reply: str) -> None:
    reading = read_reply(reply, MATH, polarity="reverse")
    assert reading.status.value == "failed" or reading.polarity_confusion


@pytest.mark.parametrize(
    "reply",
    [
        "Let set A be the multiples of 3 and set B the multiples of 5, so that set A and set B",
        "We have a = 2, b = 3 and c = 1.5, so the product a * b * c equals 9 and we compare",
        "A) 12 B) 15 C) 18 D) 21 E) 24\n\nFirst, recall the definition, since each option must be",
    ],
)
def test_a_reply_cut_mid_derivation_is_not_read(reply: str) -> None:
    reading = read_reply(reply, MATH)
    assert reading.status.value == "failed" or reading.weak


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("A ✅ B ❌ C ✅ D ❌", "direct", ("A", "C"), id="inline-marks"),
        pytest.param("A ✓, B ✗, C ✓, D ✗", "reverse", ("B", "D"), id="inline-marks-reverse"),
        pytest.param("Yes: A, C. No: B, D.", "direct", ("A", "C"), id="yes-no-headings"),
        pytest.param("A is a capital; so is C.", "direct", ("A", "C"), id="so-is"),
    ],
)
def test_lists_in_more_syntaxes(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    labels, status, _ = _read(reply, polarity)
    assert (labels, status) == (expected, "ok")


def test_a_bulleted_list_under_the_declared_answer_line_is_read_whole() -> None:
    # the bundled choice template declares "Answer:"; only the first bullet was read
    reading = read_reply("Answer:\n* A\n* C (Rome)\n* D", CAPITALS)
    assert (reading.labels, reading.weak) == (("A", "C", "D"), False)


def test_mentions_after_a_declared_answer_are_accounted_for() -> None:
    reading = read_reply("Answer: A, C\n\nD is correct too.", CAPITALS)
    assert reading.status.value == "failed"


CRITERIA = {
    "task": "checklist",
    "response": "Dear Ms. Lee, your booking is confirmed. Yours sincerely, Tom",
    "candidates": ["Uses a formal tone", "States the price", "Confirms the booking"],
}


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param(
            "Therefore, the criteria that are met are A and C.",
            "direct",
            ("A", "C"),
            id="criteria-that-are-met",
        ),
        pytest.param(
            "The criterion that is not met is B.", "reverse", ("B",), id="that-is-not-met"
        ),
        pytest.param(
            "Uses a formal tone and Confirms the booking.", "direct", ("A", "C"), id="texts-alone"
        ),
        pytest.param("I checked each one.\n\nA, C", "direct", ("A", "C"), id="last-line-labels"),
        pytest.param(
            "At first I wondered about B. **Answer:** A/C",
            "direct",
            ("A", "C"),
            id="answer-after-a-sentence-in-bold",
        ),
    ],
)
def test_checklist_conclusions(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    reading = read_reply(reply, CRITERIA, polarity=polarity)
    assert (reading.labels, reading.status.value) == (expected, "ok")


def test_a_listing_of_the_options_cut_off_is_not_read() -> None:
    reply = "The options are: A) Paris B) Sydney C) Rome D) Toronto. Let me evaluate each of them"
    assert read_reply(reply, CAPITALS).status.value == "failed"


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("**A** and **C** are correct.", "direct", ("A", "C"), id="bold-labels"),
        pytest.param(
            "A and C are correct, while B and D are not.", "reverse", ("B", "D"), id="elided-verb"
        ),
        pytest.param(
            "The correct options are A (Paris) and C (Rome).",
            "direct",
            ("A", "C"),
            id="labels-with-texts",
        ),
        pytest.param(
            "The incorrect options are (B) Sydney and (D) Toronto.",
            "reverse",
            ("B", "D"),
            id="marked-labels-with-texts",
        ),
    ],
)
def test_more_list_forms(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    reading = read_reply(reply, CAPITALS, polarity=polarity)
    assert (reading.labels, reading.status.value) == (expected, "ok")


def test_a_label_written_with_another_candidates_text_is_not_read() -> None:
    reading = read_reply("The correct options are A (Paris) and C (Sydney).", CAPITALS)
    assert reading.status.value == "failed" and reading.answer_mismatch


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("Correct: A, C | Incorrect: B, D", "reverse", ("B", "D"), id="two-headings"),
        pytest.param(
            "Correct: A, C; Incorrect: B, D", "direct", ("A", "C"), id="two-headings-semi"
        ),
    ],
)
def test_both_sides_as_headings_on_one_line(
    reply: str, polarity: str, expected: tuple[str, ...]
) -> None:
    assert _read(reply, polarity) == (expected, "ok", False)


PAIR = {"task": "pairwise", "question": "Capital of France?", "candidates": ["Lyon.", "Paris."]}


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param("Response B is more accurate than Response A.", "direct", ("B",), id="more"),
        pytest.param(
            "Response B is more accurate than Response A.", "reverse", ("A",), id="more-rev"
        ),
        pytest.param("Response A is less helpful than Response B.", "direct", ("B",), id="less"),
    ],
)
def test_a_pair_compared_in_a_quality(reply: str, polarity: str, expected: tuple[str, ...]) -> None:
    assert read_reply(reply, PAIR, polarity=polarity).labels == expected


def test_a_pair_compared_in_a_word_that_is_no_quality_is_not_read() -> None:
    reading = read_reply("Response B is more verbose than Response A.", PAIR)
    assert reading.status.value == "failed"


def test_yes_and_no_headings_place_every_candidate() -> None:
    # "No: B, D." after a sentence is a heading too: B and D have their side (not weak)
    assert _read("Yes: A, C. No: B, D.") == (("A", "C"), "ok", False)
