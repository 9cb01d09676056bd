"""The reader, the retired vault choice-vault-2's misses grouped by the stage that missed
them (issue 38). Each class's phrasings are new (none is a vault reply), written before its
change, with near-misses that must stay failed or marked:

1. a reply cut off before its conclusion, mid-derivation, is never read confidently from
   the per-candidate statuses it gave so far (structured ones too: "Step 2: 9 × 4 = 36.",
   "7 — prime."), and a reply that stops on a dash or an arrow ("... 15 — ") is cut off;
2. a heading in the leg's or the question's words in looser dress: a longer head ("So the
   numbers that are not prime: B, D"), an aside in brackets after it that names no
   candidate and hedges nothing ("Wrong (each has a third divisor): 9, 15"), an arrow for
   its colon ("Not prime → B, D");
3. a side given by a demonstrative that refers back to the candidates just named, in the
   same sentence with a noun ("..., so those options are correct") or in a sentence of
   its own after a sentence that names them as one list ("B and D both have a factor of
   3. These are the wrong options.");
4. a status word before the question's own noun, where the reader reads "options" ("So the
   incorrect numbers are B and D.", "The right cities are Paris and Rome.");
5. a reply that opens with one label and explains it after a comma, on the direct leg ("A,
   since 9 × 4 is 36.", "A. 36, with 4 × 9 = 36 as a check.");
6. a candidate added to a concluded answer in prose after it, on the leg's side with
   "also" or "too" ("The incorrect options are B and C. D is also incorrect.");
7. two candidates whose texts differ only in what the reader's comparison sets aside
   (quotes: `0` and `"0"`): the reader's texts kept the first, so a reply that writes the
   second named the first. Such texts are now compared as written, quotes kept, code
   spans as markup, in every stage that names candidates by text (more phrasings in
   tests/test_reader_quoted_texts.py);
8. a reply that is nothing but a list of candidate texts, one an item ("- Paris\n- Rome"),
   read as a list of labels alone is: the leg's answer as asked (not a listing of every
   option, nor the first options in their order)."""

from __future__ import annotations

import pytest
from _helpers import check_reading

PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["7", "9", "11", "15"],
}
TIMES = {
    "task": "choice",
    "question": "What is 9 × 4?",
    "candidates": ["36", "32", "45", "40"],
}
CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}

Case = tuple[str, dict[str, object], str, "tuple[str, ...] | None"]


CUT_OFF: list[Case] = [
    (
        "Step 1: 9 × 4 = 4 × 9.\nStep 2: 4 × 9 = 36.\n\nLet me check: 36 / 4 = 9. Yes.\n\n"
        "So the final answer is",
        TIMES,
        "direct",
        None,
    ),
    (
        "Step 1: 9 × 4 = 4 × 9.\nStep 2: 4 × 9 = 36.\n\nLet me check: 36 / 4 = 9. Yes.\n\n"
        "So the final answer is",
        TIMES,
        "reverse",
        None,
    ),
    (
        "First, 9 × 4 = 36.\nSecond, check: 36 / 9 = 4.\n\nTherefore the option we want is",
        TIMES,
        "direct",
        None,
    ),
    ("Going through them. 7 — prime. 9 — 3 × 3, not prime. 11 — ", PRIMES, "direct", None),
    ("Checking each: 7 – prime. 9 – composite. 11 –", PRIMES, "direct", None),
    ("Paris — capital. Sydney — not a capital. Rome →", CAPITALS, "direct", None),
    ("7 — prime. 9 — 3 × 3, not prime. 11 — ", PRIMES, "reverse", None),
    # near-misses that must keep reading: every candidate sided, or a finished line
    ("7 — prime. 9 — not prime. 11 — prime. 15 — not prime.", PRIMES, "direct", ("A", "C")),
    ("Step 1: 9 × 4 = 36.\n\nThe answer is A.", TIMES, "direct", ("A",)),
    ("A — 36", TIMES, "direct", ("A",)),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), CUT_OFF)
def test_a_reply_cut_off_is_not_read_from_its_statuses(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


HEADING_DRESS: list[Case] = [
    (
        "Wrong (each of these has a divisor besides 1 and itself): 9, 15.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "Correct (checked by trial division up to the square root): A and C.",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    (
        "7 = 7, 9 = 3 × 3, 11 = 11, 15 = 3 × 5. So the numbers that are not prime: B, D.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "Sydney and Toronto are big, but not seats of government. Therefore the cities that "
        "are not capitals: Sydney, Toronto.",
        CAPITALS,
        "reverse",
        ("B", "D"),
    ),
    ("Prime → A, C", PRIMES, "direct", ("A", "C")),
    ("Not prime → B, D", PRIMES, "reverse", ("B", "D")),
    ("Incorrect -> B, D", PRIMES, "reverse", ("B", "D")),
    # near-misses: the other leg's heading, an aside that names a candidate or hedges
    ("Prime → A, C", PRIMES, "reverse", None),
    ("Not prime → B, D", PRIMES, "direct", None),
    ("Incorrect (though C is debatable): B, D", PRIMES, "reverse", None),
    ("Incorrect (probably): B, D", PRIMES, "reverse", None),
    ("Incorrect (not sure about 11): B, D", PRIMES, "reverse", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), HEADING_DRESS)
def test_a_heading_in_looser_dress(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


REFERRED_BACK: list[Case] = [
    (
        "B and D both have a factor of 3. These are the wrong options.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "Neither B nor D has only two divisors. Those are the incorrect ones.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "A and C have exactly two divisors each. Those are the correct ones.",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    ("The ones that pass are A and C, so those options are correct.", PRIMES, "direct", ("A", "C")),
    (
        "The composite ones are B and D, so these choices are incorrect.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "A and C are seats of government.\n\nThey are the correct options.",
        CAPITALS,
        "direct",
        ("A", "C"),
    ),
    (
        "The numbers that are not prime are B and D, so those options are incorrect.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    # near-misses: the other leg's side, an antecedent of two sides, a hedge, alternatives
    (
        "The numbers that are not prime are B and D, so those options are incorrect.",
        PRIMES,
        "direct",
        None,
    ),
    ("The numbers that might be prime are A and C, so those are correct.", PRIMES, "direct", None),
    ("B and D both have a factor of 3. These are the wrong options.", PRIMES, "direct", None),
    ("A is prime, not B. Those are the incorrect ones.", PRIMES, "reverse", None),
    ("Maybe B and D. Those are the incorrect ones.", PRIMES, "reverse", None),
    ("B or D. Those are the incorrect ones.", PRIMES, "reverse", None),
    (
        "B and D have a factor of 3, and so does 21. Those are the incorrect ones.",
        PRIMES,
        "reverse",
        None,
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), REFERRED_BACK)
def test_a_side_given_by_a_demonstrative_that_refers_back(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


OWN_NOUN: list[Case] = [
    (
        "9 = 3 × 3 and 15 = 3 × 5. So the incorrect numbers are B and D.",
        PRIMES,
        "reverse",
        ("B", "D"),
    ),
    (
        "Neither has a divisor but 1 and itself, so the correct numbers are A and C.",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    ("The right cities are Paris and Rome.", CAPITALS, "direct", ("A", "C")),
    ("Checked each. The wrong cities: Sydney, Toronto.", CAPITALS, "reverse", ("B", "D")),
    ("The wrong cities are Sydney and Toronto.", CAPITALS, "reverse", ("B", "D")),
    # near-misses: the other leg's words, a hedge, a negation
    ("So the incorrect numbers are B and D.", PRIMES, "direct", None),
    ("The correct numbers are probably A and C.", PRIMES, "direct", None),
    ("I don't think the correct numbers are A and C.", PRIMES, "direct", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), OWN_NOUN)
def test_a_status_word_before_the_questions_own_noun(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


OPENED_BY_ONE: list[Case] = [
    ("A, since 9 × 4 is 36.", TIMES, "direct", ("A",)),
    ("A, because four nines make thirty-six (36 / 4 = 9).", TIMES, "direct", ("A",)),
    ("A. 36, since four nines make thirty-six.", TIMES, "direct", ("A",)),
    ("A. 36, with 4 × 9 = 36 as a check.", TIMES, "direct", ("A",)),
    # near-misses: the reverse leg (the reason may pick the direct side), per-option lines,
    # a listing, a conclusion
    # that differs, another candidate's text after the label
    ("A, since 9 × 4 is 36.", TIMES, "reverse", None),
    ("A, since 9 × 4 is 36.\nB, since 32 is 8 × 4.", TIMES, "direct", None),
    ("A. 36\nB. 32\nC. 45\nD. 40", TIMES, "direct", None),
    ("A, since 9 × 4 is 36. So the answer is C.", TIMES, "direct", None),
    ("A. 32, since 8 × 4 = 32.", TIMES, "direct", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), OPENED_BY_ONE)
def test_a_reply_that_opens_with_one_label(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


ADDED_AFTER: list[Case] = [
    (
        "The incorrect options are B and C. D is also incorrect.",
        CAPITALS,
        "reverse",
        ("B", "C", "D"),
    ),
    ("The correct options are A and C. D is correct too.", PRIMES, "direct", ("A", "C", "D")),
    (
        "The answer is A. C is also correct, since 11 has no other divisor.",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    # near-misses: the other side added (a note that agrees), a hedge, a question
    ("The correct options are A and C. D is also incorrect.", PRIMES, "direct", ("A", "C")),
    ("The correct options are A and C. Maybe D is also correct.", PRIMES, "direct", None),
    ("The correct options are A and C. Perhaps D is correct too?", PRIMES, "direct", None),
    (
        "The correct options are A and C. D is also correct? No, 15 = 3 × 5.",
        PRIMES,
        "direct",
        None,  # a question adds nothing (its mention unexplained: weak)
    ),
    (
        "The correct options are A and C. D is correct too. No, wait: D is not correct.",
        PRIMES,
        "direct",
        ("A", "C"),  # the addition taken back
    ),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), ADDED_AFTER)
def test_a_candidate_added_after_the_answer(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


VALUES = {
    "task": "choice",
    "question": "Which of these Python values are truthy?",
    "candidates": ["1", '"1"', "[]", '"None"'],
}
CASED = {
    "task": "choice",
    "question": "Which of these is a valid identifier in a case-sensitive language?",
    "candidates": ["Total", "total", "2total", "to-tal"],
}

SHARED_TEXTS: list[Case] = [
    ('1 and "None" are truthy.', VALUES, "direct", ("A", "D")),
    ('"1" and "None" are truthy.', VALUES, "direct", ("B", "D")),
    ("The answer is total.", CASED, "direct", None),
    ("A, B and D are truthy.", VALUES, "direct", ("A", "B", "D")),
    ("The answer is A and B.", CASED, "direct", ("A", "B")),
    ("[] is falsy, so C is the incorrect one.", VALUES, "reverse", ("C",)),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), SHARED_TEXTS)
def test_texts_that_compare_equal(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


TEXTS_ALONE: list[Case] = [
    ("- Paris\n- Rome", CAPITALS, "direct", ("A", "C")),
    # on the reverse leg texts alone say not which question they answer: read, weak
    ("1) Sydney\n2) Toronto", CAPITALS, "reverse", None),
    ("* 11\n* 7", PRIMES, "direct", ("A", "C")),
    # near-misses: a listing of every option, the first options in order, an item that is
    # no candidate's whole text
    ("1. Paris\n2. Sydney\n3. Rome\n4. Toronto", CAPITALS, "direct", None),
    ("1. Paris\n2. Sydney", CAPITALS, "direct", None),
    ("- Paris\n- Rome (maybe)", CAPITALS, "direct", None),
    ("- Paris\n- Lyon", CAPITALS, "direct", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), TEXTS_ALONE)
def test_a_reply_that_is_a_list_of_texts(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)
