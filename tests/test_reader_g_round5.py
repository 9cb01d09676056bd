"""The reader, round 5 (issue 38, hold-out G: structured and half-structured replies).
Phrasings of our own for each class of that set's misses, written before any rule for
them ran, with the near-misses that must not read: a structure (JSON, a tag, YAML, a
heading, a key line) revised by prose after it; two structures that disagree; lists of
per-option records; one line that gives both sides; a header question ("Is incorrect?")
over True/False lines; a positive property's column or key on the reverse leg; JSON
with comments, single quotes or a bare value; CSV lines; scores per option; statuses
separated by slashes."""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard import read_reply

Item = dict[str, Any]

REPTILES: Item = {
    "task": "choice",
    "question": "Which of these animals are reptiles?",
    "candidates": ["Snake", "Frog", "Lizard", "Salmon", "Turtle"],
}
EVEN: Item = {
    "task": "choice",
    "question": "Which of these numbers are even?",
    "candidates": ["12", "15", "18", "21"],
}
LARGEST: Item = {
    "task": "choice",
    "question": "Which planet is the largest in the Solar System?",
    "candidates": ["Mars", "Jupiter", "Venus", "Saturn"],
}
MULTIPLES: Item = {
    "task": "choice",
    "question": "Which of these numbers are multiples of 4?",
    "candidates": ["8", "10", "12", "18", "20"],
}
PRODUCT: Item = {
    "task": "choice",
    "question": "What is 7 x 8?",
    "candidates": ["54", "56", "58", "64"],
}
ALKALI: Item = {
    "task": "choice",
    "question": "Which of these elements are alkali metals?",
    "candidates": ["Sodium", "Iron", "Potassium", "Copper", "Lithium"],
}
IMMUTABLE: Item = {
    "task": "choice",
    "question": "Which of these Python types are immutable?",
    "candidates": ["tuple", "list", "frozenset", "dict", "str"],
}
SQUARES: Item = {
    "task": "choice",
    "question": "Which of these numbers are perfect squares?",
    "candidates": ["16", "20", "25", "30"],
}


def _read(reply: str, item: Item, leg: str) -> tuple[tuple[str, ...] | None, bool]:
    reading = read_reply(reply, item, polarity=leg)
    if reading.status.value == "failed":
        return None, False
    return tuple(sorted(reading.labels)), reading.weak or reading.polarity_confusion


def _reads(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    """Read as ``labels``, weak or not."""
    assert _read(reply, item, leg)[0] == labels


def _sure(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    """Read as ``labels``, not weak."""
    assert _read(reply, item, leg) == (labels, False)


def _not_confident(reply: str, item: Item, leg: str) -> None:
    """Failed, or marked (weak, polarity-confused): no unmarked reading."""
    labels, marked = _read(reply, item, leg)
    assert labels is None or marked, labels


# -- 1. a structure revised by prose after it: the revision stands ----------------------

REVISED = [
    pytest.param(
        '```json\n{"correct": ["A", "C", "E"]}\n```\n\nWait, turtles... yes, but lizards'
        " too, and frogs are amphibians. Correction: the correct options are A, C and E.",
        REPTILES,
        "direct",
        ("A", "C", "E"),
        id="json-correction-same",
    ),
    pytest.param(
        '```json\n{"correct": ["A", "B", "C", "E"]}\n```\n\nWait, frogs are amphibians,'
        " not reptiles. Correction: the correct options are A, C and E.",
        REPTILES,
        "direct",
        ("A", "C", "E"),
        id="json-correction-drops-one",
    ),
    pytest.param(
        '{"incorrect": ["B", "C", "D"]}\nActually, 18 is even, so C should not be in that'
        " list. Final: B, D.",
        EVEN,
        "reverse",
        ("B", "D"),
        id="json-actually-final",
    ),
    pytest.param(
        "Incorrect: B, C, D\n\nWait, 18 = 2 x 9, so C is even. Only B and D are incorrect.",
        EVEN,
        "reverse",
        ("B", "D"),
        id="heading-wait-only",
    ),
    pytest.param(
        "<answer>D</answer>\n\nHmm, no: Saturn is smaller than Jupiter. The answer is B.",
        LARGEST,
        "direct",
        ("B",),
        id="tag-hmm-no",
    ),
    pytest.param(
        "correct: [A, C, D]\n\nOn second thought, 18 is not a multiple of 4 and 20 is."
        " The correct options are A, C and E.",
        MULTIPLES,
        "direct",
        ("A", "C", "E"),
        id="yaml-second-thought",
    ),
    pytest.param(
        "Answer: 54\n\nLet me recheck: 7 x 8 = 56, not 54. Corrected answer: B.",
        PRODUCT,
        "direct",
        ("B",),
        id="answer-line-recheck-corrected",
    ),
    pytest.param(
        '```json\n{"answer": "A"}\n```\nScratch that: 7 x 8 = 56. The answer is B.',
        PRODUCT,
        "direct",
        ("B",),
        id="json-scratch-that",
    ),
    pytest.param(
        "<incorrect>A, B, D</incorrect>\nCorrection: 12 is a multiple of 4 but 20 is too;"
        " the incorrect options are B and D.",
        MULTIPLES,
        "reverse",
        ("B", "D"),
        id="tag-correction-reverse",
    ),
    pytest.param(
        "Selected: A, C\n\nWait, I forgot lithium. Final answer: A, C, E.",
        ALKALI,
        "direct",
        ("A", "C", "E"),
        id="selected-forgot",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), REVISED)
def test_a_structure_revised_by_prose_reads_the_revision(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param(
            '```json\n{"correct": ["A", "B", "C", "E"]}\n```\n\nWait, a frog is an amphibian.',
            REPTILES,
            "direct",
            id="json-wait-names-no-label",
        ),
        pytest.param(
            '```json\n{"answer": "D"}\n```\nActually, Jupiter is the largest.',
            LARGEST,
            "direct",
            id="json-actually-names-a-text",
        ),
    ],
)
def test_a_structure_contradicted_by_prose_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(reply, item, leg)


@pytest.mark.parametrize(
    ("reply", "item", "leg", "labels"),
    [
        pytest.param(
            '```json\n{"correct": ["A", "C", "E"]}\n```\nSnakes, lizards and turtles are reptiles.',
            REPTILES,
            "direct",
            ("A", "C", "E"),
            id="json-then-agreeing-prose",
        ),
        pytest.param(
            '{"incorrect": ["B", "C", "D"]}\n\nHmm, 18 is even, so C is not incorrect.',
            EVEN,
            "reverse",
            ("B", "D"),
            id="json-hmm-contradicts-one-retracts-one",
        ),
        pytest.param(
            "Incorrect: B, C, D\n\nWait, C is even.",
            EVEN,
            "reverse",
            ("B", "D"),
            id="heading-wait-side-retracts-one",
        ),
        pytest.param(
            "Step by step: 12 and 18 halve evenly. Correct: A, C.\n\nWait, is 18 really"
            " even? 18 = 2 x 9. Yes.",
            EVEN,
            "direct",
            ("A", "C"),
            id="heading-wait-recheck-yes",
        ),
        pytest.param(
            "Incorrect: B, D\n\nLet me double-check: 15 and 21 are odd. Yes, B and D.",
            EVEN,
            "reverse",
            ("B", "D"),
            id="heading-double-check-agrees",
        ),
    ],
)
def test_a_structure_confirmed_by_prose_reads(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


# -- 2. two structures that disagree: no verdict, never the second one confidently ---------

TWO = [
    pytest.param(
        '<answer>B</answer>\n\nFinal structured output:\n```json\n{"answer": "D"}\n```',
        LARGEST,
        "direct",
        id="tag-then-json",
    ),
    pytest.param(
        '<incorrect>B, D</incorrect>\n\n```json\n{"incorrect": ["B", "C", "D"]}\n```',
        EVEN,
        "reverse",
        id="tag-then-json-reverse",
    ),
    pytest.param(
        '{"answer": ["A", "C"]}\n\n{"answer": ["A", "C", "E"]}',
        ALKALI,
        "direct",
        id="json-then-json",
    ),
    pytest.param("<answer>A</answer>\n<answer>B</answer>", PRODUCT, "direct", id="tag-tag"),
    pytest.param(
        'Answer: A, C\n\n```json\n{"answer": ["A", "C", "E"]}\n```',
        ALKALI,
        "direct",
        id="line-then-json",
    ),
    pytest.param(
        '```json\n{"incorrect": ["B"]}\n```\n<incorrect>B, D</incorrect>',
        EVEN,
        "reverse",
        id="json-then-tag",
    ),
    pytest.param(
        'correct: [A, C, E]\n\n```json\n{"correct": ["A", "E"]}\n```',
        REPTILES,
        "direct",
        id="yaml-then-json",
        marks=pytest.mark.xfail(
            reason="a YAML-like heading is not one of the fixed-form places compared", strict=True
        ),
    ),
    pytest.param(
        '<final>C</final>\n\nJSON: {"final": "B"}', PRODUCT, "direct", id="final-tag-json"
    ),
    pytest.param(
        "<answer>B</answer>\n<answer>D</answer>\n", LARGEST, "direct", id="tag-tag-planets"
    ),
    pytest.param(
        '{"incorrect": ["A", "C"]}\n{"incorrect": ["A"]}',
        SQUARES,
        "reverse",
        id="json-json-reverse",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg"), TWO)
def test_two_structures_that_disagree_are_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(reply, item, leg)


@pytest.mark.parametrize(
    ("reply", "item", "leg", "labels"),
    [
        pytest.param(
            '<answer>B</answer>\n\n```json\n{"answer": "B"}\n```',
            LARGEST,
            "direct",
            ("B",),
            id="tag-json-agree",
        ),
        pytest.param(
            '<answer>A</answer>\n\nCorrection:\n```json\n{"answer": "B"}\n```',
            PRODUCT,
            "direct",
            ("B",),
            id="tag-correction-json",
        ),
        pytest.param(
            '{"incorrect": ["B", "D"]}\n\n<incorrect>B, D</incorrect>',
            EVEN,
            "reverse",
            ("B", "D"),
            id="json-tag-agree-reverse",
        ),
    ],
)
def test_two_structures_that_agree_or_are_corrected_read(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


# -- 3. lists of per-option records --------------------------------------------------

RECORDS = [
    pytest.param(
        '[\n  {"option": "A", "value": 12, "correct": true},\n  {"option": "B", "value": 15,'
        ' "correct": false},\n  {"option": "C", "value": 18, "correct": true},\n'
        '  {"option": "D", "value": 21, "correct": false}\n]',
        EVEN,
        "direct",
        ("A", "C"),
        id="option-correct-bool",
    ),
    pytest.param(
        '```json\n[{"option": "A", "verdict": "incorrect"}, {"option": "B", "verdict":'
        ' "correct"}, {"option": "C", "verdict": "incorrect"}, {"option": "D", "verdict":'
        ' "incorrect"}]\n```',
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="option-verdict-reverse",
    ),
    pytest.param(
        '[{"label": "A", "is_correct": true}, {"label": "B", "is_correct": false}, {"label":'
        ' "C", "is_correct": true}, {"label": "D", "is_correct": false}, {"label": "E",'
        ' "is_correct": true}]',
        ALKALI,
        "direct",
        ("A", "C", "E"),
        id="label-is-correct",
    ),
    pytest.param(
        '[{"option": "A", "correct": true}, {"option": "B", "correct": false}, {"option":'
        ' "C", "correct": true}, {"option": "D", "correct": false}]',
        SQUARES,
        "reverse",
        ("B", "D"),
        id="correct-bool-reverse",
    ),
    pytest.param(
        'Checking each:\n```json\n[\n {"option": "A", "incorrect": false},\n {"option": "B",'
        ' "incorrect": true},\n {"option": "C", "incorrect": false},\n {"option": "D",'
        ' "incorrect": true}\n]\n```',
        EVEN,
        "reverse",
        ("B", "D"),
        id="incorrect-bool-reverse",
    ),
    pytest.param(
        '[{"choice": "A", "status": "wrong"}, {"choice": "B", "status": "right"}, {"choice":'
        ' "C", "status": "wrong"}, {"choice": "D", "status": "wrong"}]',
        PRODUCT,
        "direct",
        ("B",),
        id="choice-status-direct",
    ),
    pytest.param(
        '[{"option": "A", "text": "Snake", "correct": true}, {"option": "B", "text": "Frog",'
        ' "correct": false}, {"option": "C", "text": "Lizard", "correct": true}, {"option":'
        ' "D", "text": "Salmon", "correct": false}, {"option": "E", "text": "Turtle",'
        ' "correct": true}]',
        REPTILES,
        "direct",
        ("A", "C", "E"),
        id="with-text-field",
    ),
    pytest.param(
        '[{"option": "A", "value": 1, "correct": false}, {"option": "B", "value": 0,'
        ' "correct": true}, {"option": "C", "value": 1, "correct": false}, {"option": "D",'
        ' "value": 0, "correct": false}]',
        PRODUCT,
        "direct",
        ("B",),
        id="value-zero-one-is-no-status",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), RECORDS)
def test_lists_of_records_read_as_statuses(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _sure(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param(
            '[{"option": "A", "value": 12}, {"option": "B", "value": 15}, {"option": "C",'
            ' "value": 18}, {"option": "D", "value": 21}]',
            EVEN,
            "direct",
            id="records-without-status",
        ),
    ],
)
def test_records_that_give_no_status_are_not_read(reply: str, item: Item, leg: str) -> None:
    _not_confident(reply, item, leg)


# -- 4. one line that gives both sides --------------------------------------------------

BOTH = [
    pytest.param(
        "Decision: A, C, D incorrect; B (56) correct.",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="decision-reverse",
    ),
    pytest.param(
        "Decision: A, C, D incorrect; B (56) correct.",
        PRODUCT,
        "direct",
        ("B",),
        id="decision-direct",
    ),
    pytest.param(
        "Verdict: B correct; A, C and D incorrect.",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="verdict-correct-first-reverse",
    ),
    pytest.param(
        "Result: A and C correct, B and D incorrect.",
        EVEN,
        "direct",
        ("A", "C"),
        id="result-comma-direct",
    ),
    pytest.param(
        "Result: A and C correct, B and D incorrect.",
        EVEN,
        "reverse",
        ("B", "D"),
        id="result-comma-reverse",
    ),
    pytest.param(
        "Summary: B, D wrong; A, C, E right.",
        ALKALI,
        "reverse",
        ("B", "D"),
        id="summary-wrong-right",
    ),
    pytest.param(
        "Decision: A, C, E correct; B, D incorrect.",
        REPTILES,
        "direct",
        ("A", "C", "E"),
        id="decision-direct-five",
    ),
    pytest.param(
        "Final: 20 and 30 incorrect; 16 and 25 correct.",
        SQUARES,
        "reverse",
        ("B", "D"),
        id="final-by-texts",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), BOTH)
def test_a_line_with_both_sides_reads_the_legs(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param(
            "Decision: A, C, D incorrect; B, C correct.",
            PRODUCT,
            "reverse",
            id="decision-both-sides-one",
        ),
    ],
)
def test_a_line_that_puts_one_option_on_both_sides_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(reply, item, leg)


# -- 5. a header question over True/False or yes/no lines -----------------------------

HEADED = [
    pytest.param(
        "Is incorrect?\nA: True\nB: False\nC: True\nD: True",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="is-incorrect-true",
    ),
    pytest.param(
        "Incorrect?\nA: yes\nB: no\nC: yes\nD: no",
        EVEN,
        "reverse",
        ("A", "C"),
        id="incorrect-yes",
    ),
    pytest.param(
        "Is it wrong?\nA - False\nB - True\nC - False\nD - True",
        EVEN,
        "reverse",
        ("B", "D"),
        id="is-it-wrong-dash",
    ),
    pytest.param(
        "| Option | Is incorrect? |\n|---|---|\n| A | True |\n| B | False |\n| C | True |\n"
        "| D | True |",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="table-is-incorrect-true",
    ),
    pytest.param(
        "| Option | Correct? |\n|---|---|\n| A | False |\n| B | True |\n| C | False |\n"
        "| D | False |",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="table-correct-false-reverse",
    ),
    pytest.param(
        "Correct?\nA: True\nB: False\nC: True\nD: False",
        EVEN,
        "direct",
        ("A", "C"),
        id="correct-true-direct",
    ),
    pytest.param(
        "Is correct?\nA: False\nB: True\nC: False\nD: False",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="is-correct-false-reverse",
    ),
]


HEADED += [
    pytest.param(
        "Is incorrect?\nA: True\nB: False",
        PRODUCT,
        "reverse",
        ("A",),
        id="header-half-the-options-reads-the-ones-said",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), HEADED)
def test_true_false_answer_their_header(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param(
            "A: True\nB: False\nC: True\nD: False", SQUARES, "reverse", id="bare-true-reverse"
        ),
        pytest.param(
            "A: True / B: False / C: True / D: False",
            SQUARES,
            "reverse",
            id="bare-true-slash-reverse",
        ),
    ],
)
def test_bare_true_false_on_the_reverse_leg_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(reply, item, leg)


# -- 6. a positive property on the reverse leg: its answer is the ones without it ---------

PROPERTY = [
    pytest.param(
        "| Option | Element | Alkali metal? |\n|---|---|---|\n| A | Sodium | Yes |\n"
        "| B | Iron | No |\n| C | Potassium | Yes |\n| D | Copper | No |\n| E | Lithium | Yes |",
        ALKALI,
        "reverse",
        ("B", "D"),
        id="table-two-word-predicate-reverse",
    ),
    pytest.param(
        "| Option | Element | Alkali metal? |\n|---|---|---|\n| A | Sodium | Yes |\n"
        "| B | Iron | No |\n| C | Potassium | Yes |\n| D | Copper | No |\n| E | Lithium | Yes |",
        ALKALI,
        "direct",
        ("A", "C", "E"),
        id="table-two-word-predicate-direct",
    ),
    pytest.param(
        '```json\n{"multiple_of_4": {"A": true, "B": false, "C": true, "D": false, "E":'
        " true}}\n```",
        MULTIPLES,
        "reverse",
        ("B", "D"),
        id="json-predicate-key-reverse",
    ),
    pytest.param(
        '{"is_even": {"A": true, "B": false, "C": true, "D": false}}',
        EVEN,
        "reverse",
        ("B", "D"),
        id="json-is-predicate-reverse",
    ),
    pytest.param(
        '{"perfect_square": {"A": true, "B": false, "C": true, "D": false}}',
        SQUARES,
        "direct",
        ("A", "C"),
        id="json-predicate-key-direct",
    ),
    pytest.param(
        "| Option | 7 x 8 = ? | Matches? |\n|---|---|---|\n| A | 54 | No |\n| B | 56 | Yes |\n"
        "| C | 58 | No |\n| D | 64 | No |",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="table-matches-reverse",
    ),
    pytest.param(
        "| Option | Satisfies? |\n|---|---|\n| A (54) | No |\n| B (56) | Yes |\n"
        "| C (58) | No |\n| D (64) | No |",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="table-satisfies-reverse",
    ),
    pytest.param(
        "| Option | Reptile? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |\n"
        "| E | Yes |",
        REPTILES,
        "reverse",
        ("B", "D"),
        id="table-one-word-predicate-reverse",
    ),
    pytest.param(
        "| Planet | Largest? |\n|---|---|\n| A | No |\n| B | Yes |\n| C | No |\n| D | No |",
        LARGEST,
        "reverse",
        ("A", "C", "D"),
        id="table-superlative-reverse",
    ),
]


PROPERTY += [
    pytest.param(
        '{"types": {"A": {"mutable": false}, "B": {"mutable": true}, "C": {"mutable": false},'
        ' "D": {"mutable": true}, "E": {"mutable": false}}}',
        IMMUTABLE,
        "reverse",
        ("B", "D"),
        id="json-unprefixed-antonym-reverse",
    ),
    pytest.param(
        "| Option | Mutable? |\n|---|---|\n| A | No |\n| B | Yes |\n| C | No |\n| D | Yes |\n"
        "| E | No |",
        IMMUTABLE,
        "direct",
        ("A", "C", "E"),
        id="table-unprefixed-antonym-direct",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), PROPERTY)
def test_a_positive_property_reads_on_both_legs(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param(
            "| Option | Alkali metal? |\n|---|---|\n| A | Yes |\n| C | Yes |",
            ALKALI,
            "reverse",
            id="table-property-some-options",
        ),
        pytest.param(
            '{"multiple_of_4": {"A": true, "C": true}}',
            MULTIPLES,
            "reverse",
            id="json-property-some-options",
        ),
        pytest.param(
            "| Option | Answer |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |",
            EVEN,
            "reverse",
            id="table-answer-yes-no-reverse",
        ),
    ],
)
def test_a_property_that_leaves_options_unsided_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(reply, item, leg)


# -- 7. JSON with comments, single quotes, a bare value ----------------------------------

JSONISH = [
    pytest.param(
        '```json\n{\n  "A": true,  // 12\n  "B": false, // 15 is odd\n  "C": true,  // 18\n'
        '  "D": false  // 21 is odd\n}\n```',
        EVEN,
        "direct",
        ("A", "C"),
        id="comments-booleans",
    ),
    pytest.param(
        '```json\n{\n  "incorrect": ["B", "D"] // 15 and 21 are odd\n}\n```',
        EVEN,
        "reverse",
        ("B", "D"),
        id="comment-after-list",
    ),
    pytest.param(
        '{\n  // the products\n  "answer": "B"\n}',
        PRODUCT,
        "direct",
        ("B",),
        id="comment-own-line",
    ),
    pytest.param("{'answer': 'B'}", PRODUCT, "direct", ("B",), id="single-quotes"),
    pytest.param("{'incorrect': ['B', 'D']}", EVEN, "reverse", ("B", "D"), id="single-quotes-list"),
    pytest.param(
        "{'A': True, 'B': False, 'C': True, 'D': False}",
        SQUARES,
        "direct",
        ("A", "C"),
        id="python-booleans",
    ),
    pytest.param('```json\n"B"\n```', PRODUCT, "direct", ("B",), id="bare-string-fenced"),
    pytest.param(
        '```json\n["A", "C", "E"]\n```',
        ALKALI,
        "direct",
        ("A", "C", "E"),
        id="bare-list-fenced",
    ),
    pytest.param(
        "Result:\n```python\n{'correct': ['A', 'C', 'E']}\n```",
        REPTILES,
        "direct",
        ("A", "C", "E"),
        id="python-fence",
    ),
    pytest.param(
        '```json\n{"url": "http://example.org", "answer": "B"}\n```',
        PRODUCT,
        "direct",
        ("B",),
        id="url-is-no-comment",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), JSONISH)
def test_json_with_comments_quotes_or_a_bare_value_reads(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param("{'correct': ['B', 'D']}", EVEN, "reverse", id="single-quotes-other-side"),
        pytest.param(
            '```json\n{\n  "correct": ["A", "C"] // 15 and 21 are odd\n}\n```',
            EVEN,
            "reverse",
            id="comment-other-side",
        ),
        pytest.param("{'answer': 'B'", PRODUCT, "direct", id="single-quotes-unclosed"),
    ],
)
def test_jsonish_on_the_other_side_or_broken_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(reply, item, leg)


# -- 8. CSV lines ---------------------------------------------------------------------

CSV = [
    pytest.param(
        "option,check,verdict\nA,7*8=56 vs 54,incorrect\nB,56,correct\nC,58,incorrect\n"
        "D,64,incorrect",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="header-check-verdict",
    ),
    pytest.param("incorrect,B,D", EVEN, "reverse", ("B", "D"), id="side-then-labels"),
    pytest.param("correct,A,C,E", ALKALI, "direct", ("A", "C", "E"), id="correct-then-labels"),
    pytest.param(
        "option,even\nA,yes\nB,no\nC,yes\nD,no",
        EVEN,
        "direct",
        ("A", "C"),
        id="predicate-column-direct",
    ),
    pytest.param(
        "option,verdict\nA,incorrect\nB,correct\nC,incorrect\nD,correct",
        SQUARES,
        "reverse",
        ("A", "C"),
        id="verdict-column-reverse",
    ),
    pytest.param(
        "label;verdict\nA;correct\nB;incorrect\nC;correct\nD;incorrect",
        EVEN,
        "direct",
        ("A", "C"),
        id="semicolons",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), CSV)
def test_csv_lines_read(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param("correct,B,D", EVEN, "reverse", id="other-side-then-labels"),
        pytest.param("correct,A,C", EVEN, "reverse", id="other-side-then-labels-true"),
    ],
)
def test_csv_on_the_other_side_is_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(reply, item, leg)


# -- 9. scores per option: no verdict by themselves -------------------------------------

SCORES_READ = [
    pytest.param(
        "A: 9/10\nB: 1/10\nC: 8/10\nD: 2/10\n\nSo A and C.",
        EVEN,
        "direct",
        ("A", "C"),
        id="scores-then-conclusion",
    ),
    pytest.param(
        "A: 1/10, B: 10/10, C: 1/10, D: 2/10\n\nConclusion: the incorrect options are A, C and D.",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="scores-then-reverse-conclusion",
        marks=pytest.mark.xfail(
            reason="unread (not misread) on main too: the scores read as the other side",
            strict=True,
        ),
    ),
    pytest.param(
        "Scores: A 9, B 2, C 8, D 1 (out of 10). Options scoring 5 or more are correct: A, C.",
        EVEN,
        "direct",
        ("A", "C"),
        id="threshold-stated",
        marks=pytest.mark.xfail(
            reason="a stated threshold is not read; the reply is unread, not misread", strict=True
        ),
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), SCORES_READ)
def test_scores_with_a_conclusion_read(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        pytest.param("A: 9/10, B: 2/10, C: 8/10, D: 1/10", EVEN, "direct", id="bimodal-direct"),
        pytest.param("A: 5/10 | B: 6/10 | C: 5/10 | D: 4/10", EVEN, "direct", id="muddled"),
        pytest.param("A: 9/10, B: 1/10, C: 9/10, D: 2/10", EVEN, "reverse", id="bimodal-reverse"),
        pytest.param(
            "Scores (how likely each option is incorrect):\nA: 1/10\nB: 9/10\nC: 1/10\nD: 9/10",
            EVEN,
            "reverse",
            id="incorrectness-scores",
        ),
        pytest.param("A: 10\nB: 10\nC: 10\nD: 0", SQUARES, "direct", id="bare-numbers"),
    ],
)
def test_scores_alone_are_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(reply, item, leg)


# -- 10. statuses separated by slashes ------------------------------------------------

SLASHED = [
    pytest.param(
        "A: True / B: False / C: True / D: False",
        EVEN,
        "direct",
        ("A", "C"),
        id="true-false-direct",
    ),
    pytest.param(
        "A: correct / B: incorrect / C: correct / D: incorrect / E: correct",
        ALKALI,
        "direct",
        ("A", "C", "E"),
        id="correct-incorrect-direct",
    ),
    pytest.param(
        "A: correct / B: incorrect / C: correct / D: incorrect / E: correct",
        ALKALI,
        "reverse",
        ("B", "D"),
        id="correct-incorrect-reverse",
    ),
    pytest.param(
        "A wrong / B right / C wrong / D wrong",
        PRODUCT,
        "reverse",
        ("A", "C", "D"),
        id="no-colons",
    ),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), SLASHED)
def test_statuses_separated_by_slashes_read(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, labels)


def test_a_fraction_is_no_slash_separator() -> None:
    _not_confident("A: 3/4 B: 1/2", EVEN, "direct")


# -- 11. a reverse leg's answer tag after reasoning that names no side -------------------

CAPITALS: Item = {
    "task": "choice",
    "question": "Which of these cities are national capitals?",
    "candidates": ["Canberra", "Sydney", "Ottawa", "Toronto", "Wellington"],
}


@pytest.mark.parametrize(
    ("reply", "item"),
    [
        pytest.param(
            "Canberra is the capital of Australia, Ottawa of Canada and Wellington of New"
            " Zealand.\n<answer>A, C, E</answer>",
            CAPITALS,
            id="elliptic-facts-then-tag",
        ),
        pytest.param(
            "Snakes, lizards and turtles all have scales and lay eggs on land.\n"
            "<answer>A, C, E</answer>",
            REPTILES,
            id="traits-then-tag",
        ),
        pytest.param(
            "Twelve and eighteen both divide by two evenly.\n\n<answer>A, C</answer>",
            EVEN,
            id="arithmetic-then-tag",
        ),
        pytest.param(
            "Seven eights make fifty-six, as the times table says.\n<answer>B</answer>",
            PRODUCT,
            id="single-then-tag",
        ),
    ],
)
def test_a_reverse_tag_after_reasoning_with_no_side_is_not_confident(
    reply: str, item: Item
) -> None:
    _not_confident(reply, item, "reverse")


@pytest.mark.parametrize(
    ("reply", "item", "labels"),
    [
        pytest.param("<answer>B, D</answer>", EVEN, ("B", "D"), id="tag-alone"),
        pytest.param(
            "Fifteen and twenty-one leave a remainder when halved, so they are not even.\n"
            "<answer>B, D</answer>",
            EVEN,
            ("B", "D"),
            id="reasoning-with-a-negation",
        ),
        pytest.param(
            "Frogs are amphibians and salmon are fish; those are the wrong ones.\n"
            "<answer>B, D</answer>",
            REPTILES,
            ("B", "D"),
            id="reasoning-in-the-legs-words",
        ),
        pytest.param(
            "Step by step: 7 x 8 = 56, so 54, 58 and 64 are incorrect.\n<answer>A, C, D</answer>",
            PRODUCT,
            ("A", "C", "D"),
            id="reasoning-says-incorrect",
        ),
    ],
)
def test_a_reverse_tag_after_reasoning_on_its_side_reads(
    reply: str, item: Item, labels: tuple[str, ...]
) -> None:
    _reads(reply, item, "reverse", labels)
