"""The reader, round 4 (issue 38, hold-outs A and B): a conclusion that names a computed
value, an option's text, instead of its label ("So the speed is 80 km/h.", "The final
answer is: $\\boxed{4}$"). One rule (``prin_guard.reader._values``): on the direct leg of
a choice item, the value of the reply's concluding statement is the answer when it equals
exactly one option's text (numbers, units, thousands separators, fractions, sets
normalised) and no other option holds it as a part. The phrasings here are new (none is a
hold-out reply), written before the rule ran, with some that must stay failed or
marked."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

SPEED = {
    "task": "choice",
    "question": "A car covers 240 km in 3 hours. What is its average speed?",
    "candidates": ["70 km/h", "80 km/h", "90 km/h", "100 km/h"],
}
PRICE = {
    "task": "choice",
    "question": "A laptop costs $1,000 and its price rises by 25%. What is the new price?",
    "candidates": ["$1,025", "$1,200", "$1,250", "$1,300"],
}
PERCENT = {
    "task": "choice",
    "question": "What percentage of 80 is 20?",
    "candidates": ["20%", "25%", "30%", "40%"],
}
FRACTION = {
    "task": "choice",
    "question": "What is the sum of 1/2 and 1/4?",
    "candidates": ["1/2", "2/3", "3/4", "5/6"],
}
DECIMAL = {
    "task": "choice",
    "question": "What is the product of 7.5 and 2?",
    "candidates": ["14.5", "15", "15.5", "16"],
}
NEGATIVE = {
    "task": "choice",
    "question": "What is the result of 3 - 8?",
    "candidates": ["5", "-5", "11", "-11"],
}
UNION = {
    "task": "choice",
    "question": "Let set A = {2, 4, 6} and set B = {4, 6, 8}. What is the union of A and B?",
    "candidates": ["{4, 6}", "{2, 4, 6, 8}", "{2, 8}", "{2, 4, 6}"],
}
DISTANCE = {
    "task": "choice",
    "question": "Roughly what distance does the plane fly before refuelling?",
    "candidates": ["270", "280", "290", "300"],
}
ANGLE = {
    "task": "choice",
    "question": "Two angles of a triangle are 45° and 65°. What is the third angle?",
    "candidates": ["60°", "70°", "80°", "90°"],
}
PIPES = {
    "task": "choice",
    "question": (
        "Pipe A fills a tank in 3 hours and pipe B in 6 hours. Working together, how many"
        " hours do they take?"
    ),
    "candidates": ["1 hour", "2 hours", "3 hours", "4.5 hours"],
}
PENS = {
    "task": "choice",
    "question": "Four pens cost $6. What does one pen cost?",
    "candidates": ["$1.25", "$1.50", "$1.75", "$2.00"],
}
POPULATION = {
    "task": "choice",
    "question": "A town of 10,000 grows by 25%. What is its population afterwards?",
    "candidates": ["12,000", "12,500", "13,000", "15,000"],
}
AGES = {
    "task": "choice",
    "question": (
        "A father is three times as old as his son. In 12 years he will be twice as old as"
        " his son. How old is the father now?"
    ),
    "candidates": ["12 years", "24 years", "36 years", "48 years"],
}
EQUATION = {
    "task": "choice",
    "question": "If 3x + 4 = 40, what is the value of x?",
    "candidates": ["12", "24", "36", "40"],
}
TWO_UNITS = {
    "task": "choice",
    "question": "How fast does the runner go?",
    "candidates": ["45 km/h", "45 m/s", "50 km/h", "50 m/s"],
}
NOT_PRIME = {
    "task": "choice",
    "question": "Which of these numbers is NOT prime?",
    "candidates": ["21", "23", "29", "31"],
}
CLOSE = {
    "task": "choice",
    "question": "Roughly what distance does the plane fly before refuelling?",
    "candidates": ["280", "288.7", "290", "300"],
}
PARTS = {
    "task": "choice",
    "question": "Which numbers divide 36 evenly, besides 1?",
    "candidates": ["12", "12 and 18", "18", "24"],
}


def _read(reply: str, item: dict[str, object], polarity: str = "direct") -> tuple:
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    return reading.labels, reading.status.value, marked


def _not_confidently(reply: str, item: dict[str, object], polarity: str = "direct") -> None:
    """Failed, or marked: no unmarked reading at all."""
    labels, status, marked = _read(reply, item, polarity)
    assert status == "failed" or marked, (labels, status, marked)


# -- 1. the value of a concluding statement: read, and not weak --------------------------


@pytest.mark.parametrize(
    ("reply", "item", "expected"),
    [
        pytest.param(
            "Speed is distance over time: 240 / 3.\n\nSo the average speed is 80 km/h.",
            SPEED,
            ("B",),
            id="unit-statement",
        ),
        pytest.param(
            "240 km in 3 hours. Therefore the answer is 80 km/h.",
            SPEED,
            ("B",),
            id="answer-is-unit",
        ),
        pytest.param("The answer is 80.", SPEED, ("B",), id="answer-is-bare-number"),
        pytest.param("Speed = 240 / 3 = 80 km/h.", SPEED, ("B",), id="equation-chain"),
        pytest.param(
            "240 ÷ 3 = 80\n\nThe final answer is: $\\boxed{80}$", SPEED, ("B",), id="boxed"
        ),
        pytest.param(
            "240 / 3 = 80.\n\nFinal answer:\n\\[\n\\boxed{80 \\text{ km/h}}\n\\]",
            SPEED,
            ("B",),
            id="boxed-display-text-unit",
        ),
        pytest.param(
            "Its speed works out to 80 kilometres per hour.", SPEED, ("B",), id="unit-words"
        ),
        pytest.param(
            "An increase of 25% is $250, so the new price is $1,250.",
            PRICE,
            ("C",),
            id="money-thousands",
        ),
        pytest.param(
            "1000 × 1.25 = 1250\n\nSo the new price is 1250 dollars.",
            PRICE,
            ("C",),
            id="money-words-no-separator",
        ),
        pytest.param("1000 + 250 = 1250.\n\n#### 1250", PRICE, ("C",), id="gsm8k-mark-value"),
        pytest.param("20 / 80 = 0.25\n\nThe percentage is 25%.", PERCENT, ("B",), id="percent"),
        pytest.param(
            "20 / 80 = 1/4, so the answer is 25 percent.", PERCENT, ("B",), id="percent-word"
        ),
        pytest.param("The answer is $\\boxed{25\\%}$.", PERCENT, ("B",), id="boxed-latex-percent"),
        pytest.param("1/2 + 1/4 = 2/4 + 1/4.\n\nThe sum is 3/4.", FRACTION, ("C",), id="fraction"),
        pytest.param("The sum is \\( \\frac{3}{4} \\).", FRACTION, ("C",), id="latex-frac-inline"),
        pytest.param(
            "Therefore, the final answer is $\\boxed{\\dfrac{3}{4}}$.",
            FRACTION,
            ("C",),
            id="boxed-dfrac",
        ),
        pytest.param(
            "0.5 + 0.25 = 0.75, so the sum is 0.75.", FRACTION, ("C",), id="decimal-for-fraction"
        ),
        pytest.param(
            "7.5 × 2 = 15.0\n\nThe product is 15.0.", DECIMAL, ("B",), id="decimal-trailing-zero"
        ),
        pytest.param(
            "3 - 8 = −5, so the result is −5.", NEGATIVE, ("B",), id="negative-unicode-minus"
        ),
        pytest.param("The answer is -5.", NEGATIVE, ("B",), id="negative-hyphen"),
        pytest.param(
            "By the formula the plane flies 288.7 km, so the distance is approximately 290.",
            DISTANCE,
            ("C",),
            id="approximately",
        ),
        pytest.param(
            "180 - 45 - 65 = 70.\n\nThe third angle measures 70 degrees.",
            ANGLE,
            ("B",),
            id="degrees-word-for-symbol",
        ),
        pytest.param("The answer is $\\boxed{70^\\circ}$.", ANGLE, ("B",), id="boxed-circ"),
        pytest.param(
            "Let c be the price of one pen: 4c = 6, so c = 1.5. One pen costs $1.50.",
            PENS,
            ("B",),
            id="variable-c-then-money",
        ),
        pytest.param(
            "10,000 × 1.25 = 12,500.\n\nSo the population afterwards is 12,500.",
            POPULATION,
            ("B",),
            id="thousands-separator",
        ),
        pytest.param("3x = 36, so x = 12.", EQUATION, ("A",), id="variable-the-question-asks"),
        pytest.param("80 km/h is the correct answer.", SPEED, ("B",), id="value-first"),
        pytest.param("240 / 3 = 80.\n\nSo, 80 km/h.", SPEED, ("B",), id="so-value"),
        pytest.param("Distance over time: 240 / 3.\n\n80 km/h", SPEED, ("B",), id="own-paragraph"),
        pytest.param("Answer: 80", SPEED, ("B",), id="answer-line-bare-number"),
        pytest.param(
            "21 = 3 × 7, so the answer is 21.", NOT_PRIME, ("A",), id="negative-question-answer"
        ),
        pytest.param(
            "So the average speed of the car is 80 km/h.", SPEED, ("B",), id="subject-of-question"
        ),
    ],
)
def test_a_concluding_value_reads_its_option(reply: str, item: dict, expected: tuple) -> None:
    assert _read(reply, item) == (expected, "ok", False)


# -- 2. read, marked weak where another name stands in the concluding part ---------------


@pytest.mark.parametrize(
    ("reply", "item", "expected"),
    [
        pytest.param(
            "The union of set A and set B is {2, 4, 6, 8}.", UNION, ("B",), id="set-variables"
        ),
        pytest.param(
            "Pipe A: 1/3 per hour. Pipe B: 1/6 per hour. Together they take 2 hours.",
            PIPES,
            ("B",),
            id="workers-named-like-labels",
        ),
    ],
)
def test_variable_names_are_never_read_as_labels(reply: str, item: dict, expected: tuple) -> None:
    labels, status, _ = _read(reply, item)
    assert (labels, status) == (expected, "ok")


# -- 3. no reading, or a marked one ----------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity"),
    [
        pytest.param("The answer is 45.", TWO_UNITS, "direct", id="two-options-match"),
        pytest.param("The answer is 12.", PARTS, "direct", id="part-of-another-option"),
        pytest.param("So the average speed is 75 km/h.", SPEED, "direct", id="no-option"),
        pytest.param(
            "The answer is approximately 0.67.",
            FRACTION,
            "direct",
            id="rounded-is-not-a-fraction",
        ),
        pytest.param(
            "Speed = 240 / 3 = 80 km/h. But the car stopped on the way, so the time must"
            " include the stop, which the question leaves open.",
            SPEED,
            "direct",
            id="value-mid-derivation",
        ),
        pytest.param("240 / 3 = 80 km/h, and then the", SPEED, "direct", id="cut-off"),
        pytest.param("The speed is not 80 km/h.", SPEED, "direct", id="negated"),
        pytest.param("The speed might be 80 km/h.", SPEED, "direct", id="hedged"),
        pytest.param("Is the speed 80 km/h?", SPEED, "direct", id="question"),
        pytest.param("The wrong answer is 70 km/h.", SPEED, "direct", id="other-side-words"),
        pytest.param("The son is 12 years old.", AGES, "direct", id="another-quantity"),
        pytest.param(
            "The speed over the first hour is 70 km/h.", SPEED, "direct", id="a-part-of-it"
        ),
        pytest.param(
            "21 = 3 × 7, 29 and 31 are prime, so the prime is 23.",
            NOT_PRIME,
            "direct",
            id="negative-question-answered-positively",
        ),
        pytest.param(
            "So the distance is approximately 290.", CLOSE, "direct", id="approximately-near-two"
        ),
        pytest.param(
            "The percentage is 15%.",
            {"task": "choice", "question": "What is 15% of 80?", "candidates": ["12", "15", "68"]},
            "direct",
            id="a-question-of-numbers-alone",
        ),
        pytest.param("3x + 4 = 40\n3x = 36", EQUATION, "direct", id="equation-with-expression"),
        pytest.param("1/2 + 1/4 = 3/4", FRACTION, "direct", id="equation-of-expressions"),
        pytest.param("So the average speed is 80 km/h.", SPEED, "reverse", id="reverse-statement"),
        pytest.param("The answer is 80 km/h.", SPEED, "reverse", id="reverse-answer-is"),
        pytest.param("The final answer is: $\\boxed{80}$", SPEED, "reverse", id="reverse-boxed"),
    ],
)
def test_a_value_that_is_not_one_options_concluded_answer_reads_nothing_confident(
    reply: str, item: dict, polarity: str
) -> None:
    _not_confidently(reply, item, polarity)


@pytest.mark.parametrize(
    ("reply", "item", "wrong"),
    [
        ("Speed = 240 / 3 = 80 km/h.\n\nAnswer: C", SPEED, ("C",)),
        ("The new price is $1,250.\n\nAnswer: B", PRICE, ("B",)),
    ],
)
def test_a_concluding_value_that_disagrees_with_the_answer_line_fails(
    reply: str, item: dict, wrong: tuple
) -> None:
    labels, status, marked = _read(reply, item)
    assert status == "failed" or (marked and labels != wrong), (labels, status, marked)


def test_the_reverse_leg_reads_as_before() -> None:
    # a computed value on the reverse leg is the direct question's answer: this rule reads
    # nothing there (the reverse leg's reading of it is another rule's)
    for reply in ("So the average speed is 80 km/h.", "Together they take 2 hours."):
        labels, status, marked = _read(reply, SPEED if "speed" in reply else PIPES, "reverse")
        assert status == "failed" or marked, (labels, status)
