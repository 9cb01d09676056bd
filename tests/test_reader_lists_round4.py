"""The reader, round 4 (issue 38, hold-outs A and B): direct-leg coverage of lists and
revisions. Each class is one general rule; the phrasings here are new (none is a hold-out
reply), written before the rules ran, with some that must stay failed or marked."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

FRUITS = {
    "task": "choice",
    "question": "Which of these are fruits?",
    "candidates": ["Apple", "Carrot", "Banana", "Potato"],
}
METALS = {
    "task": "choice",
    "question": "Which of these metals are magnetic?",
    "candidates": ["Iron", "Copper", "Nickel", "Gold", "Cobalt"],
}
FOURS = {
    "task": "choice",
    "question": "Which of these numbers are multiples of 4?",
    "candidates": ["8", "10", "12", "18", "20"],
}
ALL_FOURS = {
    "task": "choice",
    "question": "Which of these numbers are multiples of 4?",
    "candidates": ["8", "12", "16", "20"],
}
SPELLING = {
    "task": "choice",
    "question": "Which word is spelled correctly?",
    "candidates": ["Recieve", "Receive", "Reciept", "Beleive"],
}
GRAMMAR = {
    "task": "choice",
    "question": "Which of these sentences are grammatical?",
    "candidates": ["Him went home.", "She went home.", "They goes home.", "We went home."],
}
MOVES = {
    "task": "choice",
    "question": "Which of these chess moves are legal?",
    "candidates": ["Kxe2 into check", "Nf3", "Pawn moves backwards", "e4"],
}
EVENTS = {
    "task": "choice",
    "question": "Which of these events are possible?",
    "candidates": ["Rolling a 3", "Rolling a 7", "Rolling a 6", "Rolling a 0"],
}


def _read(reply: str, item: dict[str, object], polarity: str = "direct") -> tuple:
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    return reading.labels, reading.status.value, marked


def _not_confidently(reply: str, item: dict[str, object], polarity: str, wrong: tuple) -> None:
    labels, status, marked = _read(reply, item, polarity)
    assert status == "failed" or marked or labels != wrong, (labels, status, marked)


# -- 1. an answer that opens the reply, then its explanation ----------------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "Both A and C. Apples and bananas are what botanists call fruit.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="both-then-why",
        ),
        pytest.param(
            "A and C. The other two are vegetables.", FRUITS, "direct", ("A", "C"), id="and"
        ),
        pytest.param(
            "Just two: A and C. Carrots and potatoes grow underground.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="count-two",
        ),
        pytest.param(
            "Three of them: A, C and E. Each is ferromagnetic at room temperature.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="count-three",
        ),
        pytest.param(
            "A & C — apple and banana both grow from flowers.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="dash",
        ),
        pytest.param(
            "A, C, E — iron, nickel and cobalt are ferromagnetic.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="comma-dash",
        ),
        pytest.param(
            '**B** — "receive": i before e, except after c.',
            SPELLING,
            "direct",
            ("B",),
            id="bold-single-dash",
        ),
        pytest.param(
            "Everything except B and D. Copper and gold are not attracted to a magnet.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="everything-except",
        ),
        pytest.param(
            "All except A and C. Carrots and potatoes are vegetables.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="except-reverse",
        ),
        pytest.param(
            "B/D — copper and gold are not magnetic.",
            METALS,
            "reverse",
            ("B", "D"),
            id="slash-reverse",
        ),
        pytest.param(
            "A and C, because both grow from a flower.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="because",
        ),
        pytest.param(
            "B, D. Neither of those two grows from a flower.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="comma-reverse",
        ),
    ],
)
def test_an_opening_answer_is_read(reply: str, item: dict, polarity: str, expected: tuple) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "wrong"),
    [
        pytest.param(
            "A and C. B is also correct.", FRUITS, "direct", ("A", "C"), id="contradicted"
        ),
        pytest.param(
            "A. Apple\nB. Carrot\nC. Banana\nD. Potato", FRUITS, "direct", ("A",), id="a-listing"
        ),
        pytest.param(
            "A — wrong, it is a fruit.\nB — right.\nC — wrong.\nD — right.",
            FRUITS,
            "direct",
            ("A",),
            id="per-option-dashes",
        ),
        pytest.param(
            "A and C. Both are fruits.", FRUITS, "reverse", ("A", "C"), id="reverse-answers-direct"
        ),
        pytest.param("B, D — right.", FRUITS, "reverse", ("B", "D"), id="status-after-dash"),
        pytest.param(
            "A, C — wrong; B, D — right.", FRUITS, "direct", ("A", "C"), id="statuses-after-dashes"
        ),
        pytest.param(
            "All except B and D. They are fruits.",
            FRUITS,
            "reverse",
            ("A", "C"),
            id="all-except-reverse-answers-direct",
        ),
        pytest.param(
            "All except B are fruits.", FRUITS, "reverse", ("A", "C", "D"), id="all-except-status"
        ),
        pytest.param(
            "Two of them: A, C and D. The rest are not.",
            FRUITS,
            "direct",
            ("A", "C", "D"),
            id="count-disagrees",
        ),
    ],
)
def test_an_opening_answer_never_misleads(
    reply: str, item: dict, polarity: str, wrong: tuple
) -> None:
    _not_confidently(reply, item, polarity, wrong)


# -- 2. a quantifier in the question's own predicate ------------------------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "All of them are multiples of 4.",
            ALL_FOURS,
            "direct",
            ("A", "B", "C", "D"),
            id="all-of-them",
        ),
        pytest.param(
            "All of these are multiples of 4, since each ends in a multiple of 4.",
            ALL_FOURS,
            "direct",
            ("A", "B", "C", "D"),
            id="all-of-these-why",
        ),
        pytest.param(
            "All except B and D are multiples of 4.",
            FOURS,
            "direct",
            ("A", "C", "E"),
            id="all-except",
        ),
        pytest.param(
            "All of them are magnetic except B and D.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="except-after",
        ),
        pytest.param(
            "All except A, C and E are not multiples of 4.",
            FOURS,
            "reverse",
            ("B", "D"),
            id="except-negated-reverse",
        ),
    ],
)
def test_a_quantifier_in_the_predicate_is_read(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "wrong"),
    [
        pytest.param(
            "All of them are multiples of 4.",
            ALL_FOURS,
            "reverse",
            ("A", "B", "C", "D"),
            id="all-on-reverse",
        ),
        pytest.param(
            "All of them are multiples of 2.",
            ALL_FOURS,
            "direct",
            ("A", "B", "C", "D"),
            id="another-predicate",
        ),
        pytest.param(
            "If they end in 0, all of them are multiples of 4.",
            ALL_FOURS,
            "direct",
            ("A", "B", "C", "D"),
            id="conditional",
        ),
    ],
)
def test_a_quantifier_in_another_predicate_is_no_answer(
    reply: str, item: dict, polarity: str, wrong: tuple
) -> None:
    _not_confidently(reply, item, polarity, wrong)


# -- 3. the question's predicate with a negative prefix ---------------------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "A and C are ungrammatical.", GRAMMAR, "reverse", ("A", "C"), id="ungrammatical"
        ),
        pytest.param("A and C are illegal.", MOVES, "reverse", ("A", "C"), id="illegal"),
        pytest.param(
            "Rolling a 7 or a 0 is impossible on a die, so B and D are impossible.",
            EVENTS,
            "reverse",
            ("B", "D"),
            id="impossible",
        ),
        pytest.param(
            "Options B and D are impossible.",
            EVENTS,
            "reverse",
            ("B", "D"),
            id="options-impossible",
        ),
        pytest.param(
            "A is ungrammatical. C is ungrammatical too.",
            GRAMMAR,
            "reverse",
            ("A", "C"),
            id="one-by-one",
        ),
    ],
)
def test_a_negative_prefix_of_the_predicate_is_the_reverse_side(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


@pytest.mark.parametrize(
    ("reply", "item", "wrong"),
    [
        pytest.param("A and C are ungrammatical.", GRAMMAR, ("A", "C"), id="direct-ungrammatical"),
        pytest.param("A and C are illegal.", MOVES, ("A", "C"), id="direct-illegal"),
        pytest.param("B is impossible.", EVENTS, ("B",), id="direct-impossible"),
    ],
)
def test_a_negative_prefix_is_never_the_direct_answer(item: dict, reply: str, wrong: tuple) -> None:
    _not_confidently(reply, item, "direct", wrong)


# -- 4. a list of labels with their texts, then an explanation --------------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "The incorrect options are B (Copper) and D (Gold), because neither is magnetic.",
            METALS,
            "reverse",
            ("B", "D"),
            id="because",
        ),
        pytest.param(
            "The correct options are A (8), C (12) and E (20), since each divides by 4.",
            FOURS,
            "direct",
            ("A", "C", "E"),
            id="since",
        ),
        pytest.param(
            "The wrong ones are B (10) and D (18), as neither is a multiple of 4.",
            FOURS,
            "reverse",
            ("B", "D"),
            id="as",
        ),
        pytest.param(
            "The right options are A (Iron), C (Nickel) and E (Cobalt), which are all "
            "ferromagnetic.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="which",
        ),
        pytest.param(
            "The answers are A (8), C (12) and E (20), given that 4 divides each.",
            FOURS,
            "direct",
            ("A", "C", "E"),
            id="given",
        ),
    ],
)
def test_a_labelled_list_before_an_explanation_is_read(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


def test_a_labelled_list_whose_texts_disagree_fails() -> None:
    reply = "The correct options are A (Copper) and C (Nickel), since both are magnetic."
    _not_confidently(reply, METALS, "direct", ("A", "C"))


# -- 5. a conclusion alone on the last line, after a lead word or a mark -----------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "Apples and bananas develop from flowers.\n\nSo: A, C",
            FRUITS,
            "direct",
            ("A", "C"),
            id="so-colon",
        ),
        pytest.param(
            "Apple (A) and banana (C) hold seeds.\n\nThus, again: **A, C**.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="thus-again",
        ),
        pytest.param(
            "Half of 80 is 40, and 40 + 12 = 52.\n\n#### C",
            {"task": "choice", "question": "What is 40 + 12?", "candidates": ["50", "51", "52"]},
            "direct",
            ("C",),
            id="gsm8k-mark",
        ),
        pytest.param(
            "Copper and gold are not magnetic.\n\n#### B, D",
            METALS,
            "reverse",
            ("B", "D"),
            id="gsm8k-mark-reverse",
        ),
        pytest.param(
            "Iron, nickel and cobalt are ferromagnetic.\n\nIn short: A, C and E.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="in-short",
        ),
    ],
)
def test_a_concluding_last_line_is_read(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


def test_a_concluding_last_line_of_alternatives_is_no_answer() -> None:
    _not_confidently("Hard to tell.\n\nSo: A or C", FRUITS, "direct", ("A", "C"))


# -- 6. a last clause that restricts: "..., but strictly, only B and D." -----------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "A) Apple and C) Banana are fruits. B) Carrot is sometimes called one in "
            "desserts, but botanically, only A and C.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="botanically",
        ),
        pytest.param(
            "Iron and nickel are magnetic, and cobalt too, so in the end only A, C and E.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="in-the-end",
        ),
        pytest.param(
            "Carrot is a root; potato is a tuber. Of the four, only B and D.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="of-the-four-reverse",
        ),
        pytest.param(
            "8 and 12 are easy, 20 as well; of the five, only A, C and E.",
            FOURS,
            "direct",
            ("A", "C", "E"),
            id="of-the-five",
        ),
        pytest.param(
            "Copper conducts well and gold is soft; looking at magnetism, only B and D fail, "
            "so only B and D.",
            METALS,
            "reverse",
            ("B", "D"),
            id="reverse-only",
        ),
    ],
)
def test_a_last_clause_of_only_labels_is_read(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


def test_only_labels_inside_the_reasoning_is_no_answer() -> None:
    _not_confidently(
        "If only A and C were fruits, the answer would be easy. It is not.",
        FRUITS,
        "direct",
        ("A", "C"),
    )


# -- 7. a later correction or amendment wins over the first answer ----------------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "Answer: A\n\nWait, I forgot the banana. Corrected answer: A, C",
            FRUITS,
            "direct",
            ("A", "C"),
            id="corrected-answer",
        ),
        pytest.param(
            "Answer: B\n\nLet me look again: carrots are roots.\n\nCorrection: the answer is A, C.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="correction-colon",
        ),
        pytest.param(
            "Answer: A, B, C\n\nOn reflection, a carrot is a vegetable. Revised answer: A, C",
            FRUITS,
            "direct",
            ("A", "C"),
            id="revised-answer",
        ),
        pytest.param(
            "Answer: B\n\nHmm, a potato is a vegetable too. Updated answer: B, D",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="updated-answer-reverse",
        ),
        pytest.param(
            "Incorrect: B. Oh, D as well, it is a tuber. Final: B, D.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="final-colon",
        ),
    ],
)
def test_a_later_correction_wins(reply: str, item: dict, polarity: str, expected: tuple) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


@pytest.mark.parametrize(
    ("reply", "polarity", "wrong"),
    [
        pytest.param("Answer: A, C\n\nThe answer is B.", "direct", ("B",), id="no-revision-word"),
        pytest.param(
            "Answer: B, D\n\nCorrection: the correct answer is A, C.",
            "reverse",
            ("A", "C"),
            id="correction-to-the-other-question",
        ),
        pytest.param(
            "Answer: A, C\n\nSome might say the answer is B.", "direct", ("B",), id="hedged"
        ),
    ],
)
def test_a_later_statement_that_is_no_correction_never_misleads(
    reply: str, polarity: str, wrong: tuple
) -> None:
    _not_confidently(reply, FRUITS, polarity, wrong)


# -- 8. loose forms: a run after "options"; a label that glosses its own text ------------


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(
            "Apples and bananas grow from flowers, hence options A and C. Carrots do not.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="hence-options",
        ),
        pytest.param(
            "I lean towards options A, C and E here.",
            METALS,
            "direct",
            ("A", "C", "E"),
            id="lean-towards",
        ),
        pytest.param(
            "Probably options B and D, given the roots.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="probably-reverse",
        ),
        pytest.param(
            "Something like choices A & C, from what I recall.",
            FRUITS,
            "direct",
            ("A", "C"),
            id="choices-ampersand",
        ),
        pytest.param(
            "My pick would be options B/D, I think.",
            FRUITS,
            "reverse",
            ("B", "D"),
            id="options-slash",
        ),
    ],
)
def test_a_loose_run_after_options_reads_every_label(
    reply: str, item: dict, polarity: str, expected: tuple
) -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert (labels, status) == (expected, "ok")


@pytest.mark.parametrize(
    ("reply", "item", "wrong"),
    [
        pytest.param(
            "The carrot (B) is a root. The potato (D) is a tuber. The banana is what we want.",
            FRUITS,
            ("B", "D"),
            id="glosses-of-eliminated",
        ),
        pytest.param(
            "Copper (B) conducts electricity. Gold (D) resists corrosion.",
            METALS,
            ("B", "D"),
            id="glosses-only",
        ),
        pytest.param(
            "Options A and C are wrong here.", FRUITS, ("A", "C"), id="options-wrong-direct"
        ),
    ],
)
def test_a_label_glossing_its_own_text_is_no_pick(item: dict, reply: str, wrong: tuple) -> None:
    labels, status, marked = _read(reply, item, "direct")
    assert status == "failed" or labels != wrong, (labels, status, marked)
