"""The reader, round 5 (issue 38, the real CoT replies of choice-real-b): the classes of
its misses, each in phrasings of our own (none is a reply of the set), with near-misses
that must keep their reading or stay unread.

1. A later final answer replaces an earlier one, and a label the reply says is not the
   answer is never in the reading.
2. Two labels joined by "or" are no single answer: read both, weak, or fail; never
   confident.
3. Names of sides, points, sets and variables that coincide with labels ("side E",
   "|E|", "point B") are no answer.
4. A reasoning that lists values ("Alice: Helga, Bob: Patrick") before its conclusion
   computes no result: the conclusion stands (the polarity confusion of before).
5. "There is no correct answer among the options" on the direct leg is none (``[]``);
   on the reverse leg it is not read as none.
"""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
METALS = {
    "task": "choice",
    "question": "Which of the following materials is the best conductor of heat?",
    "candidates": ["Gold", "Glass", "Copper", "Wood", "Rubber"],
}
SHAPE = {
    "task": "choice",
    "question": "This SVG path element draws a",
    "candidates": ["circle", "heptagon", "hexagon", "kite", "line"],
}
ORDER = {
    "task": "choice",
    "question": "Which sentence has the correct adjective order?",
    "candidates": ["big old red car", "red old big car", "old big red car", "car red big old"],
}
DANCE = {
    "task": "choice",
    "question": (
        "Alice, Bob and Claire are dancers. At the start Alice is dancing with Lola, Bob "
        "with Karl and Claire with Sam. They swap partners twice. At the end, Bob is "
        "dancing with"
    ),
    "candidates": ["Lola", "Karl", "Sam", "Patrick"],
}
PUMP = {
    "task": "choice",
    "question": "A pump of 3 hp lifts water. What is the mass flow rate?",
    "candidates": ["10 kg/s", "12 kg/s", "15 kg/s", "20 kg/s", "25 kg/s"],
}


def _read(reply: str, item: dict[str, object], polarity: str) -> tuple:
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    return reading.labels, reading.status.value, marked


# -- 1. a later final answer replaces an earlier one; "not X" is never read ----------

REVISED = [
    pytest.param(
        "Gold and copper barely change. The answer is (A) and (C).\n\nFinal Answer:\nThe "
        "answer is **C. Copper** (it conducts best). The answer is not **A. Gold** because "
        "gold conducts less well.",
        METALS,
        "direct",
        ("C",),
        id="final-answer-heading-then-not-gold",
    ),
    pytest.param(
        "The answer is (A).\n\nFinal answer: The answer is (C). It is not (A), since gold is "
        "a poorer conductor.",
        METALS,
        "direct",
        ("C",),
        id="final-answer-line-then-not-a",
    ),
    pytest.param(
        "I first thought the answer is B.\nFinal Answer: **C**. The answer is not B.",
        METALS,
        "direct",
        ("C",),
        id="bold-final-then-not-b",
    ),
    pytest.param(
        "The answer is (C), not (A).",
        METALS,
        "direct",
        ("C",),
        id="c-not-a",
    ),
    pytest.param(
        "The answer is **C. Copper**. The answer is not **A. Gold**.",
        METALS,
        "direct",
        ("C",),
        id="answer-then-answer-is-not",
    ),
    pytest.param(
        "So the answer is A and C.\n\nFinal Answer:\nThe answer is A and C. The answer is "
        "not B, which is a colony city.",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="two-labels-then-not-b",
    ),
    pytest.param(
        "The incorrect options are (B) and (C).\n\nFinal Answer:\nThe incorrect options are "
        "**B. Sydney** and **D. Toronto**. The answer is not **C. Rome**, which is a capital.",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="reverse-final-then-not-c",
    ),
    pytest.param(
        "Answer: B\n\nFinal answer: The incorrect ones are B and D; it is not A.",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="reverse-final-line-not-a",
    ),
    pytest.param(
        "The answer is A.\n\nOn reflection, final answer: E. Rubber is not it; the answer is "
        "C. Copper.",
        METALS,
        "direct",
        ("C",),
        id="reflection-then-answer",
    ),
    pytest.param(
        "The answer is (C). The answer is not (A) or (B).",
        METALS,
        "direct",
        ("C",),
        id="not-a-or-b-after-answer",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "labels"), REVISED)
def test_a_final_answer_replaces_an_earlier_one_and_not_x_is_never_read(
    reply: str, item: dict[str, object], polarity: str, labels: tuple
) -> None:
    got, status, marked = _read(reply, item, polarity)
    # read right (weak or not) or unread; never a label it says is not the answer
    assert (got, status) == (labels, "ok") or status == "failed", (got, status, marked)
    negated = {"not **A", "not (A)", "not B", "not (A) or (B)", "not **C", "not A"}
    for said in negated:
        if said in reply:
            label = said.split()[-1].strip("*()")
            assert label not in got or label in labels, (got, said)


NOT_REVISED = [
    pytest.param(
        "The answer is (A) and (C). Final check: Paris and Rome are capitals; the answer is not B.",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="check-agrees",
    ),
    pytest.param(
        "Final Answer: The answer is (C). I am sure it is not (A).",
        METALS,
        "direct",
        ("C",),
        id="final-only",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "labels"), NOT_REVISED)
def test_an_answer_with_a_denial_that_agrees_is_read(
    reply: str, item: dict[str, object], polarity: str, labels: tuple
) -> None:
    got, status, _ = _read(reply, item, polarity)
    assert (got, status) == (labels, "ok")


def test_a_final_answer_that_keeps_both_labels_is_never_confidently_one() -> None:
    reply = "The answer is (A) and (C).\n\nFinal Answer: (A) or (C)."
    got, status, marked = _read(reply, METALS, "direct")
    assert status == "failed" or marked, (got, status)


# -- 2. "A or B": no single answer ----------------------------------------------------

DISJUNCTIONS = [
    pytest.param(
        "Option (A) has the right order. Option (C) has the right order too. So the answer "
        "is (A) or (C).",
        ORDER,
        "direct",
        ("A", "C"),
        id="so-answer-a-or-c",
    ),
    pytest.param("The answer is A or C.", CAPITALS, "direct", ("A", "C"), id="plain"),
    pytest.param("Answer: B or D", CAPITALS, "reverse", ("B", "D"), id="reverse-line"),
    pytest.param("Either (A) or (C) is correct.", CAPITALS, "direct", ("A", "C"), id="either-or"),
    pytest.param(
        "The correct option is (B) or (C).", ORDER, "direct", ("B", "C"), id="correct-option"
    ),
    pytest.param(
        "So the incorrect option is B or D.",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="reverse-incorrect",
    ),
    pytest.param(
        "The only good edits are (A) and (C). So the answer is (A) or (C).",
        ORDER,
        "direct",
        ("A", "C"),
        id="and-then-or",
    ),
    pytest.param(
        "It could be (C) or (E); the best conductor is one of them.",
        METALS,
        "direct",
        ("C", "E"),
        id="could-be",
    ),
    pytest.param(
        "Therefore the answer is (A), (B) or (C).",
        ORDER,
        "direct",
        ("A", "B", "C"),
        id="three-labels",
    ),
    pytest.param(
        "I'd say the answer is option A or option C.",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="option-nouns",
    ),
    pytest.param(
        "The answer is A or C, I cannot tell which.",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="cannot-tell",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "labels"), DISJUNCTIONS)
def test_labels_joined_by_or_are_never_a_confident_answer(
    reply: str, item: dict[str, object], polarity: str, labels: tuple
) -> None:
    got, status, marked = _read(reply, item, polarity)
    assert status == "failed" or (marked and got == labels), (got, status, marked)


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "labels"),
    [
        pytest.param(
            "Option (A) has the right order. Option (C) has the right order too. So the "
            "answer is (A) or (C).",
            ORDER,
            "direct",
            ("A", "C"),
            id="each-called-right",
        ),
        pytest.param(
            "The only good edits are (A) and (C). So the answer is (A) or (C).",
            ORDER,
            "direct",
            ("A", "C"),
            id="both-named-together",
        ),
        pytest.param(
            "(B) is incorrect. (D) is incorrect as well. So the answer is (B) or (D).",
            CAPITALS,
            "reverse",
            ("B", "D"),
            id="reverse-each-called-wrong",
        ),
    ],
)
def test_or_after_the_reply_upheld_each_reads_both_weakly(
    reply: str, item: dict[str, object], polarity: str, labels: tuple
) -> None:
    assert _read(reply, item, polarity) == (labels, "ok", True)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("The answer is (A) or (C).", id="alone"),
        pytest.param("(A) is right. So the answer is (A) or (C).", id="only-one-upheld"),
        pytest.param("(A) is not right. (C) is right. So the answer is (A) or (C).", id="denied"),
        pytest.param("(A) is wrong. (C) is wrong. So the answer is (A) or (C).", id="other-side"),
    ],
)
def test_or_without_each_upheld_is_unread(reply: str) -> None:
    assert _read(reply, ORDER, "direct")[1] == "failed"


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "labels"),
    [
        pytest.param("The answer is A and C.", CAPITALS, "direct", ("A", "C"), id="and"),
        pytest.param(
            "Neither (A) nor (B) conducts best. The answer is (C).",
            METALS,
            "direct",
            ("C",),
            id="neither-nor-then-answer",
        ),
        pytest.param(
            "Gold or glass? Neither. The answer is (C).",
            METALS,
            "direct",
            ("C",),
            id="question-with-or",
        ),
        pytest.param(
            "So the answer is (C).\n\nOption (A) or (B) would be wrong.",
            METALS,
            "direct",
            ("C",),
            id="or-in-a-note",
        ),
    ],
)
def test_or_elsewhere_keeps_the_answer(
    reply: str, item: dict[str, object], polarity: str, labels: tuple
) -> None:
    got, status, _ = _read(reply, item, polarity)
    assert (got, status) == (labels, "ok"), (got, status)


# -- 3. names of sides, points and variables are no answer ----------------------------

NAMES = [
    pytest.param(
        "Length of side A: |A| = sqrt(12.5).\nLength of side B: |B| = sqrt(9.8).\n"
        "Length of side E: |E| = sqrt((36.05-35.28)^2 + (18.39-28.22)^2)) = sqrt(",
        id="sides-cut",
    ),
    pytest.param(
        "Length of side C: |C| = sqrt(60.2).\nLength of side D: |D| = sqrt(102.1).\n"
        "Note that |A| = |D| and |B| = |C|. Furthermore, A and D are adjacent",
        id="equal-sides-cut",
    ),
    pytest.param(
        "Point A is at (1, 2) and point B is at (4, 6). The distance from point B to point C is",
        id="points-cut",
    ),
    pytest.param("Angle B is 40 degrees and angle C is 60 degrees, so angle A is", id="angles"),
    pytest.param("Let set A = {1, 2} and set B = {2, 3}. Then set C = A ∪ B =", id="sets"),
    pytest.param("Vertex D: (3, 4). Vertex E: (5, 1). Vertex A: (0, 0). The perimeter", id="v"),
    pytest.param("Segment E has length 4.2, segment B has length 3.1, and the", id="segments"),
    pytest.param("The path goes from point A to point E and then to point", id="path-cut"),
    pytest.param("Sides: |A| = 3, |B| = 4, |C| = 5, |D| = 3, |E| =", id="bars"),
    pytest.param("Let side A be 5 cm and side B be 5 cm; side C is", id="let-side"),
]


@pytest.mark.parametrize("reply", NAMES)
def test_names_of_sides_and_points_are_no_answer(reply: str) -> None:
    got, status, _ = _read(reply, SHAPE, "direct")
    assert status == "failed", (got, status)


@pytest.mark.parametrize(
    ("reply", "labels"),
    [
        pytest.param(
            "Length of side A: 3. Length of side B: 3. All sides are equal, so it is a "
            "regular polygon with seven sides. So the answer is (B).",
            ("B",),
            id="sides-then-answer",
        ),
        pytest.param("Point A to point B is a straight segment.\n\nAnswer: E", ("E",), id="line"),
    ],
)
def test_an_answer_after_named_sides_is_read(reply: str, labels: tuple) -> None:
    got, status, _ = _read(reply, SHAPE, "direct")
    assert (got, status) == (labels, "ok"), (got, status)


# -- 4. a listing of values before the conclusion computes no result -----------------

LISTINGS = [
    pytest.param(
        "(1) Alice and Bob switch: Alice: Karl, Bob: Lola, Claire: Sam.\n(2) Bob and "
        "Claire switch: Alice: Karl, Bob: Sam, Claire: Lola.\nAt the end, Bob is dancing "
        "with Sam. So the answer is (C).",
        "direct",
        ("C",),
        id="dance-ends-on-a",
    ),
    pytest.param(
        "Alice: Karl, Bob: Sam, Claire: Lola.\nSo the answer is (C).",
        "direct",
        ("C",),
        id="listing-alone",
    ),
    pytest.param(
        "After the swaps: Alice = Karl, Bob = Sam, Claire = Lola. Bob ends with Sam.\n\nAnswer: C",
        "direct",
        ("C",),
        id="equals-listing",
    ),
    pytest.param(
        "Final pairs: Alice: Sam, Bob: Lola, Claire: Karl.\nBob is dancing with Lola. So "
        "the answer is (A).",
        "direct",
        ("A",),
        id="listing-ends-on-karl",
    ),
    pytest.param(
        "Alice: Karl; Bob: Sam; Claire: Lola.\nThe answer is (C).",
        "direct",
        ("C",),
        id="semicolon-listing",
    ),
    pytest.param(
        "Alice: Karl, Bob: Sam, Claire: Lola.\nSo the incorrect options are A, B and D.",
        "reverse",
        ("A", "B", "D"),
        id="reverse-listing",
    ),
]


@pytest.mark.parametrize(("reply", "polarity", "labels"), LISTINGS)
def test_a_listing_of_values_is_no_computed_result(
    reply: str, polarity: str, labels: tuple
) -> None:
    reading = read_reply(reply, DANCE, polarity=polarity)
    assert (reading.labels, reading.status.value) == (labels, "ok"), reading
    assert not reading.polarity_confusion


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("Bob: Lola.\n\nAnswer: C", id="one-value-other-label"),
        pytest.param("So Bob: Lola.\nAnswer: C", id="one-pair-other-label"),
    ],
)
def test_one_result_then_another_label_stays_unread(reply: str) -> None:
    got, status, marked = _read(reply, DANCE, "direct")
    assert status == "failed" or marked, (got, status)


# -- 5. "no correct answer among the options" ----------------------------------------

NONE_DIRECT = [
    "There is no correct answer among the options provided.",
    "We are missing the height h. Therefore we cannot find the rate with the data given. "
    "There is no correct answer among the options provided.",
    "Options A through E all need the height. There is no correct answer among the "
    "options provided. The question is flawed.",
    "None of the options is correct.",
    "None of the given options is correct.",
    "The answer is (None of the above).",
    "None of the provided options is the right answer.",
    "There is no correct option among the choices.",
    "No option is correct here.",
    "The computed rate is 18 kg/s. There is no correct answer among the options.",
]


@pytest.mark.parametrize("reply", NONE_DIRECT)
def test_no_correct_answer_among_the_options_is_none_on_the_direct_leg(reply: str) -> None:
    got, status, _ = _read(reply, PUMP, "direct")
    assert (got, status) == ((), "none") or status == "failed", (got, status)
    assert got == ()


def test_the_plain_no_correct_answer_sentence_reads_none() -> None:
    for reply in NONE_DIRECT[:3]:
        assert _read(reply, PUMP, "direct")[:2] == ((), "none"), reply


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("There is no correct answer among the options provided.", id="reverse"),
        pytest.param("None of the options is correct.", id="reverse-none-correct"),
        pytest.param(
            "We cannot determine the rate with the given information.", id="cannot-determine"
        ),
        pytest.param("There is no correct answer among the options provided if h = 2.", id="if"),
    ],
)
def test_no_correct_answer_is_not_none_elsewhere(reply: str) -> None:
    polarity = "direct" if "determine" in reply or " if " in reply else "reverse"
    got, status, marked = _read(reply, PUMP, polarity)
    assert status != "none" or marked, (got, status)


# -- 3b. a letter the reply names something else by opens no candidate's sentence ----

COMMANDS = [
    pytest.param(
        'The element uses "M" and "L" commands. M takes two numbers (x,y) and moves the pen '
        "there. L takes two numbers (x,y) and draws a line from the pen to that point (x,y).\n"
        "(1) M 1,2: Move the pen to 1,2.",
        id="commands-then-steps",  # read E (line), confidently, before the rule
    ),
    pytest.param(
        'Commands "M" and "L" appear. L takes (x,y) and draws a line to (x,y).\n(1) M 0,0: start.',
        id="noun-before-quoted-letters",  # the same
    ),
    pytest.param(
        'The path holds "M", "L" and "A" commands. L takes two parameters and draws a line '
        "to the new point. A takes seven parameters and draws an arc.",
        id="svg-commands",
    ),
    pytest.param(
        'This path has "M" and "L" commands. L draws a line from the current point.',
        id="two-commands",
    ),
    pytest.param(
        "Let point A be (0, 0) and point E be (3, 4).\nA lies on the circle. E lies on a line.",
        id="points",
    ),
    pytest.param(
        "Length of side E: |E| = 5.\nE is a line segment of the kite. It is cut here",
        id="side-e",
    ),
    pytest.param(
        'The "C" command draws a cubic curve.\nC draws a circle-like arc here, then',
        id="c-command",
    ),
    pytest.param(
        "Vertex D: (3, 4).\nD is where the kite's two short sides meet, and then",
        id="vertex-d",
    ),
    pytest.param(
        "Consider the sets A and B. Set A has 3 elements.\nA is a hexagon of points, so",
        id="set-a",
    ),
    pytest.param(
        'Commands "L" and "M" move the pen.\nL draws a line.\nM moves to a new point.',
        id="commands-first",
    ),
    pytest.param(
        "Angle B is 90 degrees.\nB is correct for a kite, but we go on to the next angle",
        id="angle-b-correct",
    ),
    pytest.param(
        "Node E connects to node A.\nE is a line in this graph, and A is the",
        id="nodes",
    ),
]


@pytest.mark.parametrize("reply", COMMANDS)
def test_a_declared_name_is_no_candidate(reply: str) -> None:
    got, status, _ = _read(reply, SHAPE, "direct")
    assert status == "failed", (got, status)


@pytest.mark.parametrize(
    ("reply", "labels"),
    [
        pytest.param(
            'The path holds "M" and "L" commands; it closes with seven sides.\n\n'
            "So the answer is (B).",
            ("B",),
            id="commands-then-answer",
        ),
        pytest.param("E is correct: the path is a single line.", ("E",), id="no-names"),
        pytest.param(
            "Side A and side B are equal.\n\nAnswer: D", ("D",), id="sides-then-answer-line"
        ),
    ],
)
def test_an_answer_beside_declared_names_is_read(reply: str, labels: tuple) -> None:
    got, status, _ = _read(reply, SHAPE, "direct")
    assert (got, status) == (labels, "ok"), (got, status)
