"""Two rules of the lead's merge round (issue 38, round 4), from real replies of the local
judge's third round (tests/data/replies/choice-freetext, r3:18 and r3:31):

- a choice reply's declared answer that names an option its own per-option blocks put on
  the other side, and on its side nowhere ("**Option C: ...**\\n - This option is
  correct ..." then "Answer: C" on the reverse leg), is no verdict;
- a one-letter "y" or "n" with more of its line after it is a variable, not a status
  ("2. x + |y| = 5" is not option B marked yes).
"""

from __future__ import annotations

import pytest

from prin_guard import read_reply

ITEM = {
    "task": "choice",
    "question": "Which of these are fruits?",
    "candidates": ["Apple", "Carrot", "Banana", "Potato"],
}


def _blocks(verdicts: dict[str, str], answer: str) -> str:
    lines = []
    for n, (label, word) in enumerate(verdicts.items(), 1):
        lines.append(f"{n}. **Option {label}: something about it**")
        lines.append(f"   - This option is {word} because of what it says.")
        lines.append("")
    return "\n".join(lines) + f"\nBased on this analysis:\n\nAnswer: {answer}"


@pytest.mark.parametrize(
    ("verdicts", "answer", "polarity", "expected"),
    [
        # the reverse leg answering the direct question against its own blocks: no verdict
        (
            {"A": "correct", "B": "incorrect", "C": "correct", "D": "incorrect"},
            "A, C",
            "reverse",
            None,
        ),
        ({"B": "incorrect", "C": "correct", "D": "incorrect"}, "C", "reverse", None),
        ({"A": "right", "B": "wrong"}, "A", "reverse", None),
        # the direct leg naming what its blocks call incorrect: no verdict
        ({"A": "correct", "B": "incorrect"}, "B", "direct", None),
        ({"A": "not correct", "C": "correct"}, "A", "direct", None),
        # answers that agree with the blocks stand
        (
            {"A": "correct", "B": "incorrect", "C": "correct", "D": "incorrect"},
            "B, D",
            "reverse",
            ("B", "D"),
        ),
        (
            {"A": "correct", "B": "incorrect", "C": "correct", "D": "incorrect"},
            "A, C",
            "direct",
            ("A", "C"),
        ),
        ({"B": "incorrect", "C": "correct"}, "B", "reverse", ("B",)),
        ({"A": "not incorrect", "B": "incorrect"}, "A", "direct", ("A",)),
    ],
)
def test_a_declared_answer_against_its_own_option_blocks_is_no_verdict(
    verdicts: dict[str, str], answer: str, polarity: str, expected: tuple[str, ...] | None
) -> None:
    reading = read_reply(_blocks(verdicts, answer), ITEM, polarity=polarity)
    if expected is None:
        assert reading.status.value == "failed", reading
    else:
        assert reading.labels == expected and reading.status.value == "ok", reading


def test_a_block_with_verdicts_of_both_sides_gives_none() -> None:
    reply = (
        "1. **Option C: Banana**\n   - This option is correct at first sight, but this option is "
        "incorrect on reflection? No.\n\nAnswer: C"
    )
    assert read_reply(reply, ITEM, polarity="reverse").labels == ("C",)


MATH = {"task": "choice", "question": "What is x + y?", "candidates": ["1", "- 1", "3", "5", "13"]}


@pytest.mark.parametrize(
    "reply",
    [
        "2. x + |y| = 5",
        "1. \\( x + |x| + y = 7 \\)\n2. \\( x + |y| - y = 5 \\)",
        "3. |n| + 2 = 5",
        "Case 2: |y| - y = 0",
    ],
)
def test_a_one_letter_variable_is_no_status(reply: str) -> None:
    assert read_reply(reply, MATH, polarity="direct").status.value == "failed"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("A | y |\nB | n |", ("A",)),
        ("1. Apple: y\n2. Carrot: n\n3. Banana: y\n4. Potato: n", ("A", "C")),
    ],
)
def test_a_one_letter_status_ending_its_line_still_reads(
    reply: str, expected: tuple[str, ...]
) -> None:
    assert read_reply(reply, ITEM, polarity="direct").labels == expected


WORK = {
    "task": "choice",
    "question": "A can do a job in 6 days and B in 12 days. How long do they take together?",
    "candidates": ["3 days", "4 days", "5 days", "6 days"],
}


def test_a_value_the_question_states_is_no_result_of_the_reasoning() -> None:
    # "A alone: 6 days." restates the data: the conclusion "4 days" (B) is not contradicted
    reply = "A alone: 6 days. B alone: 12 days. Together they take 4 days."
    assert read_reply(reply, WORK, polarity="direct").labels == ("B",)


def test_a_computed_value_that_the_question_also_states_still_counts() -> None:
    # "x = 12" computes, though 12 is in the question: the reverse leg's "B" is its answer
    ages = {
        "task": "choice",
        "question": "A father is three times as old as his son. In 12 years he will be twice "
        "as old. How old is the son now?",
        "candidates": ["10", "12", "14", "16"],
    }
    reply = "3x + 12 = 2(x + 12)\nx = 12\n\nThe answer is B."
    assert read_reply(reply, ages, polarity="reverse").status.value == "failed"
