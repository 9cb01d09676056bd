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
