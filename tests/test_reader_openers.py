"""The reader, a reply that opens on something that says nothing about the answer (issue
38, the metamorphic rewrites ``preamble``, ``question`` and ``options``): a sentence that
names no label, no candidate's text, no side, no quantifier and no position ("Let me
work through this."), the item's question restated ("Question: <the question>"), or the
item's options restated whole, each label with its own text, in order ("The choices
are:\\nA) ...\\nB) ..."). Such an opener changes nothing: the reply after it is read as if
it were the whole reply, terse answers too ("B, D", "B. 1914", "Canberra.").

An opener that does say something (a label, a text, a side, "none", "the first", a
partial list of options, a line that leads into what follows with a colon) is not
skipped: the reply is read whole, as before, and never confidently misread."""

from __future__ import annotations

import pytest
from _helpers import check_reading

PLANETS = {
    "task": "choice",
    "question": "Which of these planets have rings?",
    "candidates": ["Saturn", "Mars", "Uranus", "Venus"],
}
ODD = {
    "task": "choice",
    "question": "Which of these numbers are odd?",
    "candidates": ["12", "21", "30", "45"],
}
WAR = {
    "task": "choice",
    "question": "In which year did the First World War begin?",
    "candidates": ["1905", "1914", "1918", "1939"],
}

Case = tuple[str, dict[str, object], str, "tuple[str, ...] | None"]


OPENERS: list[Case] = [
    # a sentence that says nothing about the answer
    ("Alright, let me reason about this one.\n\nA, C", PLANETS, "direct", ("A", "C")),
    ("Alright, let me reason about this one.\n\nB, D", PLANETS, "reverse", ("B", "D")),
    pytest.param(
        "Here is my reasoning, briefly.\nB. 1914",
        WAR,
        "direct",
        ("B",),
    ),
    ("Okay, working it out step by step.\n\nB and D", ODD, "direct", ("B", "D")),
    ("Okay, working it out step by step.\n\nA and C", ODD, "reverse", ("A", "C")),
    pytest.param(
        "Thinking it over.\n\nSaturn and Uranus.",
        PLANETS,
        "direct",
        ("A", "C"),
    ),
    pytest.param("Alright, let me reason about it.\n\nB alone.", ODD, "direct", ("B",)),
    # the question restated
    ("Question: Which of these planets have rings?\n\nA, C", PLANETS, "direct", ("A", "C")),
    ("**Question:** Which of these numbers are odd?\n\nA and C", ODD, "reverse", ("A", "C")),
    ("In which year did the First World War begin?\n\nB. 1914", WAR, "direct", ("B",)),
    pytest.param(
        "Question: Which of these planets have rings?\n\nSaturn; Uranus",
        PLANETS,
        "direct",
        ("A", "C"),
    ),
    # the options restated whole
    (
        "The choices are:\nA) Saturn\nB) Mars\nC) Uranus\nD) Venus\n\nA, C",
        PLANETS,
        "direct",
        ("A", "C"),
    ),
    (
        "Options:\n(A) 12\n(B) 21\n(C) 30\n(D) 45\n\nA and C",
        ODD,
        "reverse",
        ("A", "C"),
    ),
    (
        "Question: Which of these numbers are odd?\nA. 12\nB. 21\nC. 30\nD. 45\n\nB, D",
        ODD,
        "direct",
        ("B", "D"),
    ),
    pytest.param(
        "The choices are:\nA) 1905\nB) 1914\nC) 1918\nD) 1939\n\nB (1914).",
        WAR,
        "direct",
        ("B",),
    ),
]

KEPT: list[Case] = [
    # openers that say something: read whole, never confidently misread
    ("The ones to leave out:\nB", ODD, "direct", None),
    ("Not the first one, and not the last.\n\nB alone.", ODD, "direct", None),
    ("That is not right.\n\nB alone.", ODD, "direct", None),
    ("Uranus is a close call.\n\nSaturn.", PLANETS, "direct", None),
    # a partial list of options is an answer, not a restatement
    ("The choices are:\nB) 21\nD) 45\n\nB alone.", ODD, "reverse", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), OPENERS)
def test_an_opener_that_says_nothing_changes_nothing(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), KEPT)
def test_an_opener_that_says_something_is_read(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)
