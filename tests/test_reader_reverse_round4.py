"""The reader, round 4 (issue 38): reverse legs and conclusions that disagree.

Phrasings written for this file, none copied from a hold-out set: a reverse leg whose
conclusion the reasoning just before picks as the item's own answer (a value computed, "which
is option C", the question's own words, "the answer is <value>") is never read confidently
as the incorrect ones; answer lines that disagree with no revision are no verdict; a
number for a lettered option is no label; a bare "none" on the reverse leg is weak; and a
reverse reply that gives every option a side, or negates the question's predicate, or heads
both lists, reads as the incorrect ones.
"""

from __future__ import annotations

import pytest

import prin_guard
from prin_guard.models import Candidate, Item, ParseStatus, Reading


def _item(question: str, *texts: str) -> Item:
    return Item(
        question=question,
        candidates=tuple(Candidate(label="ABCDE"[i], text=t) for i, t in enumerate(texts)),
    )


SQUARE = _item("What is 7 × 8?", "54", "56", "58", "64")
RECT = _item("A rectangle is 9 m by 4 m. What is its area?", "13 m²", "26 m²", "36 m²", "40 m²")
TOKYO = _item("What is the capital city of Japan?", "Osaka", "Kyoto", "Tokyo", "Nagoya")
SPEED = _item("A car covers 150 km in 3 hours. What is its speed?", "45 km/h", "50 km/h", "55 km/h")
ODD = _item("Which of these numbers are odd?", "4", "8", "10", "12")
BIRDS = _item("Which of these animals are birds?", "Eagle", "Frog", "Owl", "Lizard")
EUROPE = _item("Which of these countries are in Europe?", "Spain", "Brazil", "Norway", "Japan")
PLANETS = _item("Which of these are planets?", "Venus", "Vega", "Saturn", "Sirius")


def _read(reply: str, item: Item, leg: str) -> Reading:
    return prin_guard.read_reply(reply, item, polarity=leg)


def _not_confident(reading: Reading, wrong: tuple[str, ...]) -> None:
    """Failed, or marked weak / polarity-confused: never ``wrong`` read unmarked."""
    if reading.status is ParseStatus.FAILED:
        return
    assert reading.weak or reading.polarity_confusion, reading


# -- reverse legs that answer the direct question -------------------------------------------

ANSWERS_THE_QUESTION = [
    ("7 × 8 = 56\n\nThe answer is B.", SQUARE),
    ("Area = 9 × 4 = 36 m²\n\nAnswer: C", RECT),
    ("Speed = 150 / 3 = 50 km/h, which is option B.\n\nAnswer: B", SPEED),
    ("Tokyo is the capital of Japan.\n\nAnswer: C", TOKYO),
    ("The capital of Japan is Tokyo. The answer is C.", TOKYO),
    ("The answer is 56 (B).", SQUARE),
    ("\\boxed{C}", RECT),
    ("The answer is $\\boxed{B}$.", SPEED),
    ("The right answer is:\n\\[\nAnswer: C\n\\]", RECT),
    ("9 × 4 = 36, so the closest option is C 36 m².\n\nAnswer: C", RECT),
    ("The correct choice is B.\n\nAnswer: B", SQUARE),
    ("Tokyo.\n\nAnswer: C", TOKYO),
    ("Area: 36 m²\n\nC", RECT),
    ("56", SQUARE),
    ("Tokyo", TOKYO),
]


@pytest.mark.parametrize(("reply", "item"), ANSWERS_THE_QUESTION)
def test_a_reverse_leg_answering_the_question_is_never_confident(reply: str, item: Item) -> None:
    _not_confident(_read(reply, item, "reverse"), ())


@pytest.mark.parametrize(
    ("reply", "item"),
    [
        ("7 × 8 = 56\n\nThe answer is B.", SQUARE),
        ("Area = 9 × 4 = 36 m²\n\nAnswer: C", RECT),
        ("Speed = 150 / 3 = 50 km/h, which is option B.\n\nAnswer: B", SPEED),
        ("Tokyo is the capital of Japan.\n\nAnswer: C", TOKYO),
        ("The answer is 56 (B).", SQUARE),
    ],
)
def test_what_the_reasoning_picks_fails_the_reverse_leg(reply: str, item: Item) -> None:
    assert _read(reply, item, "reverse").status is ParseStatus.FAILED


STILL_READ_REVERSE = [
    # the prompt's own answer line, nothing against it
    ("Answer: A, C, D", SQUARE, ("A", "C", "D")),
    ("Answer: B", TOKYO, ("B",)),
    # the value computed names the correct one; the answer names the others
    ("7 × 8 = 56, which is option B.\n\nAnswer: A, C, D", SQUARE, ("A", "C", "D")),
    (
        "Area = 36 m², so options A, B and D are incorrect.\n\nAnswer: A, B, D",
        RECT,
        ("A", "B", "D"),
    ),
    ("Tokyo is the capital of Japan, so the wrong options are A, B and D.", TOKYO, ("A", "B", "D")),
    ("The incorrect answers are A, C and D.", SQUARE, ("A", "C", "D")),
    ("A, C, D", SQUARE, ("A", "C", "D")),
    ("The incorrect option is \\boxed{C}.", SPEED, ("C",)),
]


@pytest.mark.parametrize(("reply", "item", "expected"), STILL_READ_REVERSE)
def test_a_reverse_leg_naming_the_others_still_reads(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = _read(reply, item, "reverse")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


@pytest.mark.parametrize(
    ("reply", "item", "expected"),
    [
        ("The answer is A, C, D.", SQUARE, ("A", "C", "D")),
        ("\\boxed{A, C, D}", SQUARE, ("A", "C", "D")),
        ("The answer is B.", TOKYO, ("B",)),
        ("Final result: the answer is A, B, D.", TOKYO, ("A", "B", "D")),
        ("The answer is A and C.", SPEED, ("A", "C")),
        ("The final answer is B.", TOKYO, ("B",)),
        ("B is the final answer: \\boxed{B}", TOKYO, ("B",)),
    ],
)
def test_the_answer_with_no_reverse_word_reads_weak_on_the_reverse_leg(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = _read(reply, item, "reverse")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected
    assert reading.weak


@pytest.mark.parametrize(
    ("reply", "item", "expected"),
    [
        ("7 × 8 = 56\n\nThe answer is B.", SQUARE, ("B",)),
        ("Area = 9 × 4 = 36 m²\n\nAnswer: C", RECT, ("C",)),
        ("Speed = 150 / 3 = 50 km/h, which is option B.\n\nAnswer: B", SPEED, ("B",)),
        ("Tokyo is the capital of Japan.\n\nAnswer: C", TOKYO, ("C",)),
        ("\\boxed{C}", RECT, ("C",)),
    ],
)
def test_the_same_replies_read_on_the_direct_leg(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = _read(reply, item, "direct")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected
    assert not reading.weak


# -- conclusions that disagree ----------------------------------------------------------------

DISAGREE = [
    ("Speed = 150 / 3 = 50 km/h, which is option B.\n\nAnswer: C", SPEED, "direct"),
    ("7 × 8 = 56, that matches option B.\n\nAnswer: D", SQUARE, "direct"),
    ("Answer: B\n\nChecking again: 7 × 8 is 56.\n\nAnswer: C", SQUARE, "direct"),
    ("Answer: A, B, D\n\nOsaka, Kyoto and Nagoya are cities.\n\nAnswer: A, D", TOKYO, "reverse"),
    ("Answer: C\n\nLet me verify with option A.\n\nAnswer: A", RECT, "direct"),
    ("Answer: A, C\n\n4 and 10 are even.\n\nAnswer: A, B, C, D", ODD, "reverse"),
    ("Area = 9 × 4 = 36 m².\n\nAnswer: D", RECT, "direct"),
]


@pytest.mark.parametrize(("reply", "item", "leg"), DISAGREE)
def test_conclusions_that_disagree_are_no_verdict(reply: str, item: Item, leg: str) -> None:
    _not_confident(_read(reply, item, leg), ())


@pytest.mark.parametrize(
    ("reply", "item", "leg", "expected"),
    [
        ("Answer: B\n\nSo, once more:\n\nAnswer: B", SQUARE, "direct", ("B",)),
        (
            "Answer: A, B\n\nWait, Nagoya is not the capital either.\n\nAnswer: A, B, D",
            TOKYO,
            "reverse",
            ("A", "B", "D"),
        ),
        ("Answer: D\n\nActually, 7 × 8 = 56.\n\nAnswer: B", SQUARE, "direct", ("B",)),
        ("Speed = 50 km/h, which is option B.\n\nAnswer: B", SPEED, "direct", ("B",)),
        ("9 × 4 = 36.\n\nAnswer: C", RECT, "direct", ("C",)),
        # what a revision takes back picks nothing
        ("The correct option is A. Wait, no: the correct option is B.", SQUARE, "direct", ("B",)),
        ("7 × 8 = 54. Actually, it is 56.\n\nAnswer: A, C, D", SQUARE, "reverse", ("A", "C", "D")),
    ],
)
def test_conclusions_that_agree_or_are_revised_still_read(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    reading = _read(reply, item, leg)
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


# -- numbers for lettered options ----------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "The answer is option 2.",
        "Option 3 is the right one.",
        "I pick choice 2.",
        "Correct: option 1 and option 3.",
        "The correct answer is option number 2.",
    ],
)
def test_a_number_for_a_lettered_option_is_no_label(reply: str) -> None:
    _not_confident(_read(reply, SPEED, "direct"), ())
    reading = _read(reply, SPEED, "direct")
    assert reading.status is ParseStatus.FAILED or reading.labels not in (("B",), ("C",))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The answer is option B.", ("B",)),
        ("Option C is the right one.", ("C",)),
        ("I pick choice B.", ("B",)),
        ("The first option is correct.", ("A",)),
        ("The correct answer is (B).", ("B",)),
    ],
)
def test_letters_still_read(reply: str, expected: tuple[str, ...]) -> None:
    reading = _read(reply, SPEED, "direct")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


# -- a bare "none" on the reverse leg -------------------------------------------------------------


@pytest.mark.parametrize("reply", ["None of them.", "None.", "none", "None of these.", "**None**"])
def test_a_bare_none_on_the_reverse_leg_is_weak(reply: str) -> None:
    reading = _read(reply, ODD, "reverse")
    assert reading.status is ParseStatus.FAILED or reading.weak, reading


@pytest.mark.parametrize(
    ("reply", "leg"),
    [
        ("None of them.", "direct"),
        ("Answer: none", "reverse"),
        ("None of the options are incorrect.", "reverse"),
        ("None is incorrect.", "reverse"),
        ("None.", "direct"),
    ],
)
def test_none_that_says_its_side_reads(reply: str, leg: str) -> None:
    reading = _read(reply, ODD, leg)
    assert reading.status is ParseStatus.NONE, reading
    # the reader marked "None of the options are incorrect." weak before this round
    assert not reading.weak or "incorrect" in reply


# -- reverse legs that give every option a side ---------------------------------------------------

EVERY_SIDE = [
    ("A correct, B wrong, C correct, D wrong.", BIRDS, ("B", "D")),
    ("A: right, B: wrong, C: right, D: wrong", BIRDS, ("B", "D")),
    ("A - correct\nB - incorrect\nC - correct\nD - incorrect", BIRDS, ("B", "D")),
    (
        "| Option | Bird? |\n|---|---|\n| A) Eagle | ✅ |\n| B) Frog | ❌ amphibian |\n"
        "| C) Owl | ✅ |\n| D) Lizard | ❌ reptile |",
        BIRDS,
        ("B", "D"),
    ),
    ("Spain: yes. Brazil: no. Norway: yes. Japan: no.", EUROPE, None),
    ("A ✓, B ✗, C ✓, D ✗", PLANETS, ("B", "D")),
]


@pytest.mark.parametrize(("reply", "item", "expected"), EVERY_SIDE)
def test_every_option_given_a_side_reads_as_the_incorrect_ones(
    reply: str, item: Item, expected: tuple[str, ...] | None
) -> None:
    reading = _read(reply, item, "reverse")
    if expected is None:  # a yes/no that may answer either question: never confident
        _not_confident(reading, ())
        return
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


@pytest.mark.parametrize(
    "reply",
    [
        "A correct, C correct.",
        "A: right, C: right",
        "A ✓, C ✓",
        "Eagle and owl are birds.",
        "The correct ones are A and C.",
    ],
)
def test_only_the_direct_side_is_no_reverse_answer(reply: str) -> None:
    reading = _read(reply, BIRDS, "reverse")
    _not_confident(reading, ("A", "C"))
    assert not (reading.labels == ("A", "C") and reading.status is ParseStatus.OK) or (
        reading.weak or reading.polarity_confusion
    )


# -- the predicate negated, headed lists, texts on both sides ------------------------------

BOTH_SIDES = [
    ("Brazil and Japan are not in Europe; Spain and Norway are.", EUROPE, ("B", "D")),
    ("Frogs and lizards are not birds, while eagles and owls are.", BIRDS, ("B", "D")),
    (
        "### Incorrect\n- B) Vega, a star\n- D) Sirius, a star\n\n"
        "### Correct\n- A) Venus, C) Saturn",
        PLANETS,
        ("B", "D"),
    ),
    (
        "**Wrong options**\n- B) Brazil\n- D) Japan\n\n**Right options**\n- A) Spain\n- C) Norway",
        EUROPE,
        ("B", "D"),
    ),
    (
        "The right ones are Eagle and Owl, so the wrong ones are Frog and Lizard.",
        BIRDS,
        ("B", "D"),
    ),
    (
        "The correct ones are Venus and Saturn; the incorrect ones are Vega and Sirius.",
        PLANETS,
        ("B", "D"),
    ),
]


@pytest.mark.parametrize(("reply", "item", "expected"), BOTH_SIDES)
def test_both_sides_stated_read_as_the_incorrect_ones(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = _read(reply, item, "reverse")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


@pytest.mark.parametrize(
    "reply",
    [
        "Distance = 58 × 5 = 290, so the closest option is C 290.\n\nAnswer: C",
        "So the total is 290.\n\nThe correct answer is:\n\\[\nAnswer: C\n\\]",
    ],
)
def test_the_issues_reverse_legs_fail_polarity_confused(reply: str) -> None:
    item = _item("How far does it go?", "270", "280", "290", "300")
    reading = _read(reply, item, "reverse")
    assert reading.status is ParseStatus.FAILED, reading
    assert reading.polarity_confusion
