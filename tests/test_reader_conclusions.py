"""The reader, round 3 (issue 38), the concluding part of a real free-text reply: the
lead-in of an answer line belongs to it ("The wrong options are A), B), D), and E).
Therefore, the final answer is:\\nAnswer: none" contradicts itself), a clear conclusion at
the end of a long reasoning ("The answer is (B).") is confident when every mention around
it is accounted for, and a label with its candidate's text ("The answer is \\( E. 0.39
\\).", "D. Aortic dissection" on a line of its own) reads as that label."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}

PERCENT = {
    "task": "choice",
    "question": "A number 120 is reduced to 96. What is the reduction percent?",
    "candidates": ["30%", "40%", "20%", "10%", "5%"],
}

REASONING = (
    "First, the reduction is 120 - 96 = 24.\n\n"
    "Next, we divide the reduction by the original number: 24 / 120 = 0.2.\n\n"
    "Finally, 0.2 times 100 is 20%.\n\n"
)


def _reading(reply: str, item: dict[str, object] = PERCENT, polarity: str = "direct"):  # type: ignore[no-untyped-def]
    return read_reply(reply, item, polarity=polarity)


# -- 1. the lead-in of an answer line is part of the concluding part ---------------------


@pytest.mark.parametrize(
    ("reply", "polarity"),
    [
        pytest.param(
            REASONING + "So, the reduction percent is 20%. The correct answer is C) 20%.\n\n"
            "The wrong options are A), B), D), and E). Therefore, the final answer is:\n"
            "Answer: none",
            "reverse",
            id="qwen-28-wrong-options-then-none",
        ),
        pytest.param(
            REASONING + "The correct option is C. Therefore, the final answer is:\nAnswer: B",
            "direct",
            id="correct-option-then-another",
        ),
        pytest.param(
            REASONING + "Options A and B are incorrect, so the final answer is:\n\nAnswer: A",
            "direct",
            id="incorrect-then-one-of-them",
        ),
    ],
)
def test_a_lead_in_that_contradicts_the_answer_line_fails_the_leg(
    reply: str, polarity: str
) -> None:
    reading = _reading(reply, polarity=polarity)
    assert reading.status.value == "failed" or reading.weak or reading.polarity_confusion, (
        reading.labels,
        reading.status,
    )


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        pytest.param(
            REASONING + "The wrong options are A), B), D), and E). Therefore, the final answer "
            "is:\nAnswer: A, B, D, E",
            "reverse",
            ("A", "B", "D", "E"),
            id="wrong-options-then-them",
        ),
        pytest.param(
            REASONING + "The correct option is C. Therefore, the final answer is:\nAnswer: C",
            "direct",
            ("C",),
            id="correct-option-then-it",
        ),
    ],
)
def test_a_lead_in_that_agrees_with_the_answer_line_leaves_it_confident(
    reply: str, polarity: str, expected: tuple[str, ...]
) -> None:
    reading = _reading(reply, polarity=polarity)
    assert (reading.labels, reading.weak, reading.polarity_confusion) == (expected, False, False)


# -- 2. a clear conclusion at the end of a long reasoning --------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(REASONING + "The answer is (C).", ("C",), id="answer-is-paren"),
        pytest.param(REASONING + "The answer is C.", ("C",), id="answer-is"),
        pytest.param(REASONING + "The correct answer is **C**.", ("C",), id="bold"),
    ],
)
def test_a_clear_conclusion_at_the_end_is_confident(reply: str, expected: tuple[str, ...]) -> None:
    reading = _reading(reply)
    assert (reading.labels, reading.weak) == (expected, False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(REASONING + "The answer is (C). Option A was close.", id="unexplained"),
        pytest.param(REASONING + "The answer is probably (C).", id="soft"),
    ],
)
def test_a_conclusion_at_the_end_with_something_unplaced_stays_weak(reply: str) -> None:
    reading = _reading(reply)
    assert reading.labels == ("C",) and reading.weak


def test_a_conclusion_at_the_end_that_an_earlier_conclusion_contradicts_is_not_confident() -> None:
    reply = REASONING + "Therefore, the answer is B.\n\nThe answer is (C)."
    reading = _reading(reply)
    assert reading.status.value == "failed" or reading.weak


# -- 3. a label with its candidate's text ------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(REASONING + "The answer is \\( C. 20% \\).", ("C",), id="latex-inline"),
        pytest.param(
            REASONING + "Considering all these factors, the reduction percent is:\n\nC. 20%\n\n"
            "This is because 24 is a fifth of 120.",
            ("C",),
            id="label-and-text-line",
        ),
    ],
)
def test_a_label_with_its_candidates_text_is_read(reply: str, expected: tuple[str, ...]) -> None:
    reading = _reading(reply)
    assert reading.labels == expected and reading.status.value == "ok"


def test_a_latex_label_is_read_not_a_variable_elsewhere() -> None:
    reply = (
        "The polynomial is irreducible only when \\( c = 2 \\).\n\n"
        "Thus the value holds for \\( c \\) as computed.\n\nThe answer is \\( B \\)."
    )
    reading = _reading(reply)
    assert reading.status.value == "failed" or reading.labels == ("B",)


# -- 4. a one-line reply that concludes in its first sentence ----------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param("The answer is A, C. Note: B and D are not capitals.", ("A", "C"), id="issue"),
        pytest.param("The answer is A, C.", ("A", "C"), id="alone"),
        pytest.param("The correct options are A and C.", ("A", "C"), id="correct-options"),
    ],
)
def test_a_one_line_conclusion_with_every_mention_placed_is_confident(
    reply: str, expected: tuple[str, ...]
) -> None:
    reading = _reading(reply, CAPITALS)
    assert (reading.labels, reading.weak) == (expected, False)


def test_a_one_line_conclusion_with_an_unplaced_mention_stays_weak() -> None:
    reading = _reading("The answer is A, C. Note: B and D were close.", CAPITALS)
    assert reading.labels == ("A", "C") and reading.weak


# -- 5. round 3, follow-up: the forms of the real free-text corpus still read weak or not --


LONG_LINE = (
    "We refer to the reduction for help: the number went from 120 to 96, a reduction of 24, "
    "and 24 is a fifth of 120, which is 20 percent of the original number."
)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(LONG_LINE + " The answer is (C).", ("C",), id="answer-is-ends-a-long-line"),
        pytest.param(LONG_LINE + " The answer is C.", ("C",), id="answer-is-bare-ends-a-line"),
        pytest.param(
            REASONING + "Therefore, the correct statement is (C).", ("C",), id="correct-statement"
        ),
    ],
)
def test_a_conclusion_in_so_many_words_ending_the_last_line_is_confident(
    reply: str, expected: tuple[str, ...]
) -> None:
    reading = _reading(reply)
    assert (reading.labels, reading.weak) == (expected, False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(LONG_LINE + " The answer is (C). Option A was close.", id="unexplained"),
        pytest.param(LONG_LINE + " If we round, the answer is (C).", id="conditional"),
        pytest.param(LONG_LINE + " The answer is (C).\nOr maybe B, I am not sure.", id="after"),
    ],
)
def test_a_conclusion_ending_a_line_with_something_unplaced_is_not_confident(reply: str) -> None:
    reading = _reading(reply)
    assert reading.status.value == "failed" or reading.weak, reading.labels


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            "Suppose \\( c = 2 \\) and check again.\n\nThe answer is \\( B \\).", id="paren"
        ),
        pytest.param("Suppose $c = 2$ and check again.\n\nThe answer is $B$.", id="dollar"),
    ],
)
def test_a_latex_label_in_a_concluding_answer_is_read_confidently(reply: str) -> None:
    reading = _reading(reply)
    assert (reading.labels, reading.weak) == (("B",), False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(REASONING + "The answer is **C: 20%**.", id="bold-colon"),
        pytest.param(REASONING + "The answer is C. 20%.", id="dot"),
        pytest.param(REASONING + "The answer is (C) 20%.", id="paren"),
    ],
)
def test_a_label_with_its_own_text_after_the_answer_is_read(reply: str) -> None:
    reading = _reading(reply)
    assert (reading.labels, reading.status.value) == (("C",), "ok")


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(REASONING + "The answer is **C: 30%**.", id="bold-colon"),
        pytest.param(REASONING + "The answer is \\( C. 30% \\).", id="latex"),
        pytest.param(
            REASONING + "So the reduction percent is:\n\nC. 30%\n\nThat is all.", id="line"
        ),
    ],
)
def test_a_label_with_another_candidates_text_is_no_verdict(reply: str) -> None:
    reading = _reading(reply)
    assert reading.status.value == "failed" or reading.weak, reading.labels


def test_per_option_sentences_then_a_conclusion_read_the_conclusion() -> None:
    # mmlu-pro-deepseek:35, shortened: every option "represented", then the conclusion
    reply = (
        "1. Closure: this is represented by option C: 20%.\n\n"
        "2. Identity: this is represented by option A: 30%.\n\n"
        "3. Inverses: this is represented by option B: 40%.\n\n"
        "Therefore, the correct statement is (C)."
    )
    reading = _reading(reply)
    assert reading.status.value == "failed" or reading.labels == ("C",), reading.labels


# -- 6. round 3, follow-up 2: a label with its own text, on a line or in the answer ------

DIAGNOSIS = {
    "task": "choice",
    "question": "What is the most likely diagnosis?",
    "candidates": [
        "Acute myocardial infarction",
        "Congestive heart failure",
        "Angina pectoris",
        "Aortic dissection",
        "Thoracic aortic aneurysm",
    ],
}

STRATEGY = {
    "task": "choice",
    "question": "Which bolder strategy might Singer suggest?",
    "candidates": [
        "none of the above",
        "using a lottery system so everyone gets a fair chance at the benefits",
        "developing a global regulatory body to monitor and control genetic engineering",
        "developing a global education program to convince people of the dangers",
    ],
}

CLINICAL = (
    "1. Severe chest pain and sweating: these suggest a cardiac event.\n\n"
    "2. Decreased femoral pulses bilaterally: consistent with a large vessel.\n\n"
)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(
            CLINICAL + "Considering all these factors, the most likely diagnosis is:\n\n"
            "D. Aortic dissection",
            ("D",),
            id="after-lead-in-last",
        ),
        pytest.param(
            CLINICAL + "Considering all these factors, the most likely diagnosis is:\n\n"
            "D. Aortic dissection\n\nThis fits the findings best.",
            ("D",),
            id="after-lead-in-then-a-sentence",
        ),
        pytest.param(
            CLINICAL + "All of this points one way.\n\n**D. Aortic dissection**",
            ("D",),
            id="last-line-bold",
        ),
        pytest.param(
            CLINICAL + "So the diagnosis is:\n\nE. Thoracic aortic\n\nThat is all.",
            ("E",),
            id="prefix-of-its-own-text-too-short",
            marks=pytest.mark.xfail(strict=True, reason="two words: shorter than the rule's 3"),
        ),
    ],
)
def test_a_label_and_its_own_text_on_a_line_of_its_own_is_read(
    reply: str, expected: tuple[str, ...]
) -> None:
    reading = _reading(reply, DIAGNOSIS)
    assert (reading.labels, reading.status.value) == (expected, "ok")


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            CLINICAL + "So the diagnosis is:\n\nD. Congestive heart failure", id="other-text"
        ),
        pytest.param(
            CLINICAL + "So the diagnosis is:\n\nD. Thoracic aortic aneurysm\n\nThat is all.",
            id="other-text-then-a-sentence",
        ),
        pytest.param(
            CLINICAL + "The options are:\n\nC. Angina pectoris\n\nD. Aortic dissection",
            id="a-listing-of-options",
        ),
        pytest.param(
            CLINICAL + "So the diagnosis is:\n\nD. Aortic dissection\nE. Thoracic aortic aneurysm",
            id="an-option-line-follows",
        ),
        pytest.param(
            CLINICAL + "So the diagnosis is:\n\nD. Aortic dissection\n\nOr maybe B, I am unsure.",
            id="an-unplaced-mention-after",
        ),
        pytest.param(
            CLINICAL + "The answer is A.\n\nD. Aortic dissection", id="an-earlier-conclusion"
        ),
    ],
)
def test_a_label_line_that_is_no_answer_is_not_read_confidently(reply: str) -> None:
    reading = _reading(reply, DIAGNOSIS)
    assert reading.status.value == "failed" or reading.weak, reading.labels


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            "Each option in turn.\n\nThe answer is **C: developing a global regulatory body "
            "to monitor and control genetic engineering**.",
            id="whole-text",
        ),
        pytest.param(
            "Each option in turn.\n\nThe answer is **C: developing a global regulatory body ...**.",
            id="prefix",
        ),
    ],
)
def test_one_label_with_its_long_own_text_in_the_answer_is_that_label(reply: str) -> None:
    reading = _reading(reply, STRATEGY)
    assert (reading.labels, reading.weak) == (("C",), False)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            "Each option in turn.\n\nThe answer is **B: developing a global regulatory body "
            "to monitor**.",
            id="bold",
        ),
        pytest.param(
            "Each option in turn.\n\nThe answer is (B) using a lottery system so everyone "
            "gets a fair chance at the benefits.\n\nThus:\n\nC. using a lottery system so",
            id="line",
        ),
        pytest.param(
            "Each option in turn.\n\nThe answer is \\( B. developing a global regulatory \\).",
            id="latex",
        ),
    ],
)
def test_a_label_with_a_prefix_of_another_candidates_text_is_no_verdict(reply: str) -> None:
    reading = _reading(reply, STRATEGY)
    assert reading.status.value == "failed" or reading.weak, reading.labels


def test_a_label_line_on_the_reverse_leg_reads_only_under_that_legs_words() -> None:
    neutral = CLINICAL + "So the most likely diagnosis is:\n\nD. Aortic dissection"
    reading = _reading(neutral, DIAGNOSIS, polarity="reverse")
    assert reading.status.value == "failed" or reading.weak or reading.polarity_confusion
    own = CLINICAL + "Therefore, the incorrect option is:\n\nD. Aortic dissection"
    assert _reading(own, DIAGNOSIS, polarity="reverse").labels == ("D",)
