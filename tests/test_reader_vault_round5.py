"""The reader, round 5 (issue 38, the retired vault choice-vault's misses, grouped in
classes). Each class's phrasings are new (none is a vault reply), written before its rule,
on both legs where the class has two, with near-misses that must stay failed or marked:

1. a whole-set claim in the question's predicate ("All of them are divisible by 3.") before
   an answer naming every candidate, on the reverse leg: the direct question's answer;
2. labels in brackets side by side ("Answer: (A)(C)");
3. a pick in the first person ("I'll select C, A and E", "I'd go with neon and argon");
4. the question's predicate negated on the reverse leg ("The options not equal to 0.75 are
   C and D", "... are not noble gases → B & D", "B) Chile — not in Africa");
5. several ``\\boxed{}`` in one answer ("\\boxed{A}, \\boxed{C}, and \\boxed{E}");
6. a heading in the leg's words over a list of candidate texts ("The incorrect ones:\\n1)
   Venus\\n2) Mars")."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
GASES = {
    "task": "choice",
    "question": "Which of these elements are noble gases?",
    "candidates": ["Neon", "Nitrogen", "Argon", "Chlorine"],
}
THREES = {
    "task": "choice",
    "question": "Which of these numbers are divisible by 3?",
    "candidates": ["12", "21", "33", "45"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["7", "9", "11", "15", "17"],
}
AFRICA = {
    "task": "choice",
    "question": "Which of these countries are in Africa?",
    "candidates": ["Egypt", "Chile", "Kenya", "Portugal"],
}
HALVES = {
    "task": "choice",
    "question": "Which of these values equal 1/2?",
    "candidates": ["0.5", "0.25", "50%", "2/3"],
}
LANGUAGES = {
    "task": "choice",
    "question": "Which of these are programming languages?",
    "candidates": ["Python", "HTML", "Rust", "JSON", "Haskell"],
}
MAMMALS = {
    "task": "choice",
    "question": "Which of these animals are mammals?",
    "candidates": ["Whale", "Shark", "Bat", "Eagle", "Dolphin"],
}
PLANETS = {
    "task": "choice",
    "question": "Which of these planets are closer to the Sun than Jupiter?",
    "candidates": ["Saturn", "Venus", "Neptune", "Mars", "Uranus"],
}

Case = tuple[str, dict[str, object], str, "tuple[str, ...] | None"]


def _check(reply: str, item: dict[str, object], polarity: str, expected: tuple | None) -> None:
    """``expected``: the labels read, confidently; None: failed or marked (never a
    confident reading)."""
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    got = (reading.labels, reading.status.value, marked)
    if expected is None:
        assert reading.status.value == "failed" or marked, got
    else:
        assert got == (expected, "ok" if expected else "none", False), got


# -- 1. a whole-set claim in the predicate, then every candidate, on the reverse leg ----

WHOLE_SET: list[object] = [
    pytest.param(
        "12/3 = 4, 21/3 = 7, 33/3 = 11, 45/3 = 15. All of them are divisible by 3.\n"
        "Answer: A, B, C, D",
        THREES,
        "reverse",
        None,
        id="all-of-them-then-every-label-reverse",
    ),
    pytest.param(
        "Every one of these numbers is divisible by 3.\nAnswer: A, B, C, D",
        THREES,
        "reverse",
        None,
        id="every-one-of-these-reverse",
    ),
    pytest.param(
        "Each of them is divisible by 3, so the answer is A, B, C, D.",
        THREES,
        "reverse",
        None,
        id="each-of-them-so-reverse",
    ),
    pytest.param(
        "All four cities are capitals.\n\nAnswer: A, B, C, D",
        CAPITALS,
        "reverse",
        None,
        id="all-four-nouns-reverse",
    ),
    pytest.param(
        "Whale, shark, bat, eagle, dolphin: all five are mammals.\nFinal answer: A, B, C, D, E",
        MAMMALS,
        "reverse",
        None,
        id="all-five-after-names-reverse",
    ),
    pytest.param(
        "They are all prime numbers.\nAnswer: A, B, C, D, E",
        PRIMES,
        "reverse",
        None,
        id="they-are-all-reverse",
    ),
    pytest.param(
        "Look at 7, 11 and 17: they are all prime.\nAnswer: B, D",
        PRIMES,
        "reverse",
        ("B", "D"),
        id="they-after-a-colon-naming-some",
    ),
    pytest.param(
        "7, 11 and 17 are odd. They are all prime.\nAnswer: B, D",
        PRIMES,
        "reverse",
        ("B", "D"),
        id="they-after-a-sentence-naming-some",
    ),
    pytest.param(
        "7, 11 and 17 are odd. All of them are prime.\nAnswer: B, D",
        PRIMES,
        "reverse",
        ("B", "D"),
        id="all-of-them-after-a-sentence-naming-some",
    ),
    pytest.param(
        "All of them are divisible by 3.\nAnswer: A, B, C, D",
        THREES,
        "direct",
        ("A", "B", "C", "D"),
        id="all-of-them-direct-reads",
    ),
    pytest.param(
        "All of them are divisible by 3, so none of them is incorrect.\nAnswer: none",
        THREES,
        "reverse",
        (),
        id="all-of-them-reverse-none-reads",
    ),
    pytest.param(
        "Not all of them are divisible by 3: 20 is not.\nAnswer: B",
        {**THREES, "candidates": ["12", "20", "33", "45"]},
        "reverse",
        ("B",),
        id="not-all-is-no-whole-set-claim",
    ),
    pytest.param(
        "All of them except B are divisible by 3.\nAnswer: B",
        {**THREES, "candidates": ["12", "20", "33", "45"]},
        "reverse",
        ("B",),
        id="all-except-is-no-whole-set-claim",
    ),
    pytest.param(
        "All of them are incorrect: none is divisible by 3.\nAnswer: A, B, C, D",
        THREES,
        "reverse",
        ("A", "B", "C", "D"),
        id="all-incorrect-reverse-reads",
    ),
    pytest.param(
        "None of them is a capital.\nAnswer: A, B, C, D",
        CAPITALS,
        "reverse",
        ("A", "B", "C", "D"),
        id="none-of-them-predicate-reverse-reads",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), WHOLE_SET)
def test_a_whole_set_claim_in_the_predicate(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 2. labels in brackets side by side ---------------------------------------------------

SIDE_BY_SIDE: list[object] = [
    pytest.param("Answer: (A)(C)", CAPITALS, "direct", ("A", "C"), id="two-direct"),
    pytest.param("Answer: (B)(D)", CAPITALS, "reverse", ("B", "D"), id="two-reverse"),
    pytest.param("Answer: (A) (C) (E)", LANGUAGES, "direct", ("A", "C", "E"), id="three-spaced"),
    pytest.param(
        "Paris and Rome are capitals.\nThe correct options are (A)(C).",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="in-a-sentence",
    ),
    pytest.param(
        "Nitrogen and chlorine are not noble gases.\nIncorrect: (B)(D)",
        GASES,
        "reverse",
        ("B", "D"),
        id="heading-reverse",
    ),
    pytest.param("(B)(C)(E)", PLANETS, "direct", ("B", "C", "E"), id="bare-line"),
    pytest.param("Answer: [A][C]", CAPITALS, "direct", ("A", "C"), id="square-brackets"),
    pytest.param(
        "Answer: (A)(C)\nWait, Rome is not... no, it is. Keep (A)(C).",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="repeated",
    ),
    pytest.param(
        "Paris and Rome are capitals.\nAnswer: (A)(C)",
        CAPITALS,
        "reverse",
        None,
        id="reverse-answers-the-direct-question",
    ),
    pytest.param(
        "We know (A)(B) = 12, so the answer is C.",
        CAPITALS,
        "direct",
        None,
        id="a-product-is-no-list",
    ),
    pytest.param(
        "P(A)(B) is small, so the answer is C.",
        CAPITALS,
        "direct",
        None,
        id="a-function-call-is-no-list",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), SIDE_BY_SIDE)
def test_labels_in_brackets_side_by_side(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 3. a pick in the first person ----------------------------------------------------------

PICKS: list[object] = [
    pytest.param(
        "Joule-like things aside, Python, Rust and Haskell are languages. I'll select C, A and E.",
        LANGUAGES,
        "direct",
        ("A", "C", "E"),
        id="ill-select-labels",
    ),
    pytest.param("I will choose A and C.", CAPITALS, "direct", ("A", "C"), id="i-will-choose"),
    pytest.param(
        "I'd go with neon and argon: both have full valence shells.",
        GASES,
        "direct",
        ("A", "C"),
        id="id-go-with-texts",
    ),
    pytest.param(
        "I'd go with Python, Rust and Haskell.",
        LANGUAGES,
        "direct",
        ("A", "C", "E"),
        id="id-go-with-three-texts",
    ),
    pytest.param(
        "I’ll pick Paris and Rome.", CAPITALS, "direct", ("A", "C"), id="curly-ill-pick-texts"
    ),
    pytest.param("I'm going with B and D.", CAPITALS, "direct", ("B", "D"), id="im-going-with"),
    pytest.param(
        "Sydney and Toronto are not capitals. I'll select B and D as the incorrect ones.",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="ill-select-reverse-with-side",
    ),
    pytest.param(
        "I wouldn't go with Sydney or Toronto.",
        CAPITALS,
        "direct",
        None,
        id="negated-pick-no-reading",
    ),
    pytest.param(
        "I'll select A and C, or maybe just A.",
        CAPITALS,
        "direct",
        None,
        id="hedged-pick",
    ),
    pytest.param(
        "I'd go with neon and argon — both are noble gases.",
        GASES,
        "reverse",
        None,
        id="direct-pick-on-the-reverse-leg",
    ),
    pytest.param("I'll never pick HTML or JSON.", LANGUAGES, "direct", None, id="never-pick"),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), PICKS)
def test_a_pick_in_the_first_person(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 4. the question's predicate negated, on the reverse leg ---------------------------------

NEGATED_PREDICATE: list[object] = [
    pytest.param(
        "The options not equal to 1/2 are B (0.25) and D (about 0.667).",
        HALVES,
        "reverse",
        ("B", "D"),
        id="options-not-equal-to",
    ),
    pytest.param(
        "The values not equal to 1/2 are B and D.",
        HALVES,
        "reverse",
        ("B", "D"),
        id="values-not-equal-to",
    ),
    pytest.param(
        "The options equal to 1/2 are A and C.",
        HALVES,
        "reverse",
        None,
        id="options-equal-to-on-the-reverse-leg",
    ),
    pytest.param(
        "Checking: 1/2 = 0.5 and 50% = 0.5.\nSo the values equal to 1/2 are A and C.",
        HALVES,
        "direct",
        ("A", "C"),
        id="values-equal-to-direct",
    ),
    pytest.param(
        "The options not equal to 1/2 are B and D.",
        HALVES,
        "direct",
        None,
        id="options-not-equal-to-on-the-direct-leg",
    ),
    pytest.param(
        "The options I doubt are B and D.",
        HALVES,
        "reverse",
        None,
        id="a-phrase-of-its-own",
    ),
    pytest.param(
        "The options not equal to 1/2 are B (0.5) and D.",
        HALVES,
        "reverse",
        None,
        id="a-bracket-with-another-candidates-text",
    ),
    pytest.param(
        "The options not equal to 1/2 are B and D.",
        {**HALVES, "question": "Which of these values do not equal 1/2?"},
        "reverse",
        None,
        id="a-negated-question",
    ),
    pytest.param(
        "Nitrogen and chlorine are not noble gases → B & D",
        GASES,
        "reverse",
        ("B", "D"),
        id="arrow-after-a-negated-predicate",
    ),
    pytest.param(
        "Not noble gases → B, D",
        GASES,
        "reverse",
        ("B", "D"),
        id="arrow-after-a-heading",
        marks=pytest.mark.xfail(
            strict=True,
            reason="a heading in the negated predicate ('Not noble gases'): not built this round",
        ),
    ),
    pytest.param("Incorrect → A, C", PRIMES, "direct", None, id="arrow-other-side-direct"),
    pytest.param(
        "Neon and argon are noble gases → A & C",
        GASES,
        "reverse",
        None,
        id="arrow-after-the-predicate-on-the-reverse-leg",
    ),
    pytest.param(
        "Neon and argon are noble gases → A & C",
        GASES,
        "direct",
        ("A", "C"),
        id="arrow-after-the-predicate-direct",
    ),
    pytest.param(
        "A) Egypt — in Africa\nB) Chile — not in Africa\nC) Kenya — in Africa\n"
        "D) Portugal — not in Africa",
        AFRICA,
        "reverse",
        ("B", "D"),
        id="per-option-lines-every-side-reverse",
        marks=pytest.mark.xfail(
            strict=True, reason="per-option lines in a predicate of two words: not built this round"
        ),
    ),
    pytest.param(
        "A) Egypt — in Africa\nB) Chile — not in Africa\nC) Kenya — in Africa\n"
        "D) Portugal — not in Africa",
        AFRICA,
        "direct",
        ("A", "C"),
        id="per-option-lines-every-side-direct",
        marks=pytest.mark.xfail(
            strict=True, reason="per-option lines in a predicate of two words: not built this round"
        ),
    ),
    pytest.param(
        "A: a capital\nB: not a capital\nC: a capital\nD: not a capital",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="per-option-lines-noun-predicate-reverse",
        marks=pytest.mark.xfail(
            strict=True, reason="per-option lines in the predicate's singular: not built this round"
        ),
    ),
    pytest.param(
        "A) Egypt — in Africa\nB) Chile — not in Africa\nC) Kenya — in Africa",
        AFRICA,
        "reverse",
        None,
        id="per-option-lines-one-missing",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), NEGATED_PREDICATE)
def test_the_predicate_negated(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 5. several \boxed{} in one answer ---------------------------------------------------------

BOXES: list[object] = [
    pytest.param(
        "The correct options are \\boxed{A}, \\boxed{C}, and \\boxed{E}.",
        LANGUAGES,
        "direct",
        ("A", "C", "E"),
        id="three-in-a-sentence",
    ),
    pytest.param(
        "\\boxed{A}, \\boxed{C}, \\boxed{E}",
        LANGUAGES,
        "direct",
        ("A", "C", "E"),
        id="three-alone",
    ),
    pytest.param(
        "Final answer: \\boxed{B} and \\boxed{D}",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="two-with-and-reverse",
    ),
    pytest.param(
        "The incorrect options are $\\boxed{B}$ and $\\boxed{D}$.",
        GASES,
        "reverse",
        ("B", "D"),
        id="in-inline-math-reverse",
    ),
    pytest.param(
        "So the answer is \\(\\boxed{A}\\), \\(\\boxed{C}\\).",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="in-parenthesised-math",
    ),
    pytest.param(
        "\\boxed{\\text{A}}, \\boxed{\\text{C}}",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="text-inside",
    ),
    pytest.param(
        "\\boxed{A} \\boxed{C} \\boxed{E}",
        MAMMALS,
        "direct",
        ("A", "C", "E"),
        id="side-by-side",
    ),
    pytest.param(
        "\\boxed{A}, \\boxed{C}\n\nWait, Sydney... no. \\boxed{A}",
        CAPITALS,
        "direct",
        None,
        id="second-boxed-disagrees-unconfident",
    ),
    pytest.param(
        "The correct options are \\boxed{A} and \\boxed{C}.",
        CAPITALS,
        "reverse",
        None,
        id="the-direct-answer-on-the-reverse-leg",
    ),
    pytest.param(
        "\\boxed{A} or \\boxed{C}",
        CAPITALS,
        "direct",
        None,
        id="either-box-hedged",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), BOXES)
def test_several_boxes_in_one_answer(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 6. a heading in the leg's words over a list of candidate texts -----------------------------

TEXT_LISTS: list[object] = [
    pytest.param(
        "The incorrect ones:\n1) Saturn\n2) Neptune\n3) Uranus",
        PLANETS,
        "reverse",
        ("A", "C", "E"),
        id="numbered-texts-reverse",
    ),
    pytest.param(
        "The incorrect ones:\n- Sydney\n- Toronto",
        CAPITALS,
        "reverse",
        ("B", "D"),
        id="bulleted-texts-reverse",
    ),
    pytest.param(
        "Correct options:\n1. Paris\n2. Rome",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="numbered-texts-direct",
    ),
    pytest.param(
        "The capitals:\n* Paris\n* Rome",
        CAPITALS,
        "direct",
        ("A", "C"),
        id="predicate-heading-direct",
        marks=pytest.mark.xfail(
            strict=True,
            reason="a heading in the question's predicate over texts: read weakly elsewhere first",
        ),
    ),
    pytest.param(
        "Not prime:\n- 9\n- 15",
        PRIMES,
        "reverse",
        ("B", "D"),
        id="negated-predicate-heading-numbers-reverse",
    ),
    pytest.param(
        "The wrong ones are:\n1) Shark\n2) Eagle",
        MAMMALS,
        "reverse",
        ("B", "D"),
        id="are-colon-reverse",
    ),
    pytest.param(
        "The incorrect ones:\n- Sydney\n- Toronto",
        CAPITALS,
        "direct",
        None,
        id="other-side-heading-direct",
    ),
    pytest.param(
        "The correct ones:\n1) Paris\n2) Rome",
        CAPITALS,
        "reverse",
        None,
        id="other-side-heading-reverse",
    ),
    pytest.param(
        "The incorrect ones:\n- Sydney\n- Melbourne",
        CAPITALS,
        "reverse",
        None,
        id="a-text-not-shown",
    ),
    pytest.param(
        "The incorrect ones:\n1) Saturn\n2) Neptune\n3) Uranus (not sure)",
        PLANETS,
        "reverse",
        None,
        id="hedged-item",
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), TEXT_LISTS)
def test_a_heading_over_candidate_texts(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)
