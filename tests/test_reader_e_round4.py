"""The reader, round 4 (issue 38, hold-out E's chain-of-thought replies). Three rules:

1. ``prin_guard.reader._listings``: a restatement of the options inside prose ("The options
   are A) Paris, B) Sydney, C) Rome and D) Toronto.", every option with its own text, in
   the order shown, after words that introduce the options) is no pick and no mention.
2. ``prin_guard.reader._concluded``: a whole-set conclusion in the question's words ("So
   the capital cities are Paris and Rome.") that the answer read after it does not agree
   with: no verdict.
3. Unread forms of hold-out E, where a general rule reads them.

The phrasings are new (none is a hold-out reply), written before the rules ran, with some
that must stay failed or marked."""

from __future__ import annotations

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["9", "11", "13", "15"],
}
PRODUCT = {
    "task": "choice",
    "question": "What is 13 x 4?",
    "candidates": ["42", "52", "56", "48"],
}
BIRDS = {
    "task": "choice",
    "question": "Which of these animals are birds?",
    "candidates": ["Penguin", "Bat", "Ostrich", "Dolphin"],
}


def _read(reply: str, item: dict[str, object], polarity: str = "direct") -> tuple:
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    return reading.labels, reading.status.value, marked


def _confident(reply: str, item: dict[str, object], polarity: str, labels: tuple) -> None:
    got, status, marked = _read(reply, item, polarity)
    assert (got, status, marked) == (labels, "ok", False), (got, status, marked)


def _read_as(reply: str, item: dict[str, object], polarity: str, labels: tuple) -> None:
    got, status, _ = _read(reply, item, polarity)
    assert (got, status) == (labels, "ok"), (got, status)


def _not_confidently(reply: str, item: dict[str, object], polarity: str = "direct") -> None:
    labels, status, marked = _read(reply, item, polarity)
    assert status == "failed" or marked, (labels, status, marked)


def _not_all(reply: str, item: dict[str, object], polarity: str = "direct") -> None:
    labels, status, _ = _read(reply, item, polarity)
    assert status == "failed" or len(labels) < 4, (labels, status)


# -- 1. a listing of every option inside prose: no pick ------------------------------


def test_listing_in_a_restated_question_is_no_pick_direct() -> None:
    reply = (
        "Let me work through it. We must find 13 x 4, and the options are A) 42, B) 52, "
        "C) 56 and D) 48. Thirteen fours make 52.\n\nSo the product is 52, option B."
    )
    _read_as(reply, PRODUCT, "direct", ("B",))


def test_listing_after_options_colon_is_no_pick() -> None:
    reply = (
        "Restating: which cities are capitals? Options: A) Paris, B) Sydney, C) Rome, "
        "D) Toronto. Paris and Rome are capitals; Sydney and Toronto are not.\n\n"
        "The capitals are A and C."
    )
    _read_as(reply, CAPITALS, "direct", ("A", "C"))


def test_listing_with_parenthesised_labels_is_no_pick() -> None:
    reply = (
        "The choices given are (A) 42, (B) 52, (C) 56, (D) 48. Computing 13 x 4 gives "
        "52, which matches (B).\n\nThe answer is B."
    )
    _read_as(reply, PRODUCT, "direct", ("B",))


def test_listing_then_reverse_conclusion() -> None:
    reply = (
        "Step by step. The candidate answers are A) Penguin, B) Bat, C) Ostrich, "
        "D) Dolphin. Penguins and ostriches are birds; a bat and a dolphin are mammals.\n\n"
        "The options that are not birds are therefore B and D."
    )
    _not_all(reply, BIRDS, "reverse")


def test_listing_alone_with_no_conclusion_reads_no_four_labels() -> None:
    reply = (
        "Let's think. The options are A) Paris, B) Sydney, C) Rome and D) Toronto. "
        "Capitals are seats of government, and it depends on what one counts."
    )
    _not_all(reply, CAPITALS, "direct")
    _not_confidently(reply, CAPITALS, "direct")


def test_a_listing_named_as_the_answer_is_not_blanked() -> None:
    # "the correct options are" gives the listing a side: every option picked
    reply = (
        "All four are capitals of somewhere? No. But suppose so: the correct options are "
        "A) Paris, B) Sydney, C) Rome, D) Toronto."
    )
    labels, status, marked = _read(reply, CAPITALS, "direct")
    assert status == "failed" or marked or labels == ("A", "B", "C", "D")


def test_a_partial_listing_is_read_as_before() -> None:
    reply = "The capitals are A) Paris and C) Rome."
    _read_as(reply, CAPITALS, "direct", ("A", "C"))


# -- 2. a whole-set conclusion the answer disagrees with: no verdict -------------------


def test_whole_set_conclusion_names_more_than_the_answer_direct() -> None:
    reply = (
        "9 = 3 x 3, not prime. 11 is prime. 13 is prime. 15 = 3 x 5.\n\n"
        "So the prime numbers are 11, 13 and 9.\n\nAnswer: B, C"
    )
    _not_confidently(reply, PRIMES, "direct")


def test_whole_set_conclusion_agrees_with_the_answer_direct() -> None:
    reply = (
        "9 = 3 x 3. 11 is prime. 13 is prime. 15 = 3 x 5.\n\n"
        "So the prime numbers are 11 and 13.\n\nAnswer: B, C"
    )
    _confident(reply, PRIMES, "direct", ("B", "C"))


def test_reverse_leg_drifting_to_the_direct_answer() -> None:
    reply = (
        "We check each city. Paris is the seat of France's government, Rome of Italy's.\n\n"
        "Therefore the cities that are capitals are Paris and Rome.\n\nAnswer: A, C"
    )
    _not_confidently(reply, CAPITALS, "reverse")


def test_reverse_leg_consistent_with_whole_set_conclusion() -> None:
    reply = (
        "Paris and Rome host their governments; Sydney and Toronto do not.\n\n"
        "So the cities which are capitals are Paris and Rome, and the incorrect options "
        "are the other two.\n\nAnswer: B, D"
    )
    labels, status, _ = _read(reply, CAPITALS, "reverse")
    assert status == "failed" or labels == ("B", "D")


def test_whole_set_denial_disagrees_with_reverse_answer() -> None:
    reply = (
        "A bat is a mammal that flies; a dolphin is a mammal that swims.\n\n"
        "Thus the animals that are not birds are Bat and Dolphin.\n\nAnswer: B"
    )
    _not_confidently(reply, BIRDS, "reverse")


def test_whole_set_denial_agrees_with_reverse_answer() -> None:
    reply = (
        "A bat is a mammal that flies; a dolphin is a mammal that swims.\n\n"
        "Thus the animals that are not birds are Bat and Dolphin.\n\nAnswer: B, D"
    )
    _read_as(reply, BIRDS, "reverse", ("B", "D"))


def test_birds_named_whole_then_other_answer_direct() -> None:
    reply = "In summary, the bird species here are Penguin and Ostrich.\n\nFinal answer: A"
    _not_confidently(reply, BIRDS, "direct")


# -- 3. unread forms: a quantifier restated, a side given with a demonstrative ---------


def test_all_of_them_with_labels_restated() -> None:
    _confident("All of them (A, B, C and D).", CAPITALS, "direct", ("A", "B", "C", "D"))


def test_all_of_the_options_with_labels_restated_reverse() -> None:
    _confident("All of the options (A, B, C, D).", PRIMES, "reverse", ("A", "B", "C", "D"))


def test_all_of_the_above_with_only_some_labels_is_not_read_as_all() -> None:
    _not_all("All of the above (A, C).", CAPITALS, "direct")


def test_demonstrative_side_reverse() -> None:
    reply = (
        "Penguins and ostriches are birds that cannot fly.\n\n"
        "The mammals here are B and D, so those are the incorrect options."
    )
    _confident(reply, BIRDS, "reverse", ("B", "D"))


def test_demonstrative_side_direct() -> None:
    reply = (
        "11 and 13 have no divisors but 1 and themselves.\n\n"
        "That leaves B and C, and these are the correct ones."
    )
    _read_as(reply, PRIMES, "direct", ("B", "C"))


def test_demonstrative_side_of_the_other_leg_is_not_read() -> None:
    reply = "Checking each number.\n\nThe primes are B and C, so those are the correct options."
    _not_confidently(reply, PRIMES, "reverse")


def test_demonstrative_side_with_a_hedge_is_not_read() -> None:
    reply = "Checking each.\n\nMaybe B and D, so those are the incorrect options."
    labels, status, marked = _read(reply, BIRDS, "reverse")
    assert status == "failed" or marked or labels == ("B", "D")


# -- a connective after "are": "the incorrect options are therefore ..." ---------------


def test_connective_after_the_verb_reverse() -> None:
    reply = (
        "13 x 4 = 52, which is option B.\n\n"
        "The wrong options are thus A (42), C (56) and D (48). D is 12 x 4, a slip."
    )
    _confident(reply, PRODUCT, "reverse", ("A", "C", "D"))


def test_connective_after_the_verb_direct() -> None:
    reply = "Paris and Rome are seats of government.\n\nThe correct options are hence A and C."
    _confident(reply, CAPITALS, "direct", ("A", "C"))


def test_connective_after_the_verb_of_the_other_side_is_not_read_direct() -> None:
    reply = "Sydney and Toronto are not capitals.\n\nThe incorrect options are therefore B and D."
    _not_confidently(reply, CAPITALS, "direct")
