"""The reader, round 5 (issue 38, set H's classes): elliptic statuses, a leg the reply
questions, complements, resolved wavering, labels after texts, definitions explained back.

Phrasings written for this file, none copied from a hold-out set. Each class holds replies
that must read (``READS``) and near-misses that must never read confidently otherwise
(``NEVER``): the same words negated, hedged, or on the other leg.
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


MAMMALS = _item("Which of these animals are mammals?", "Whale", "Shark", "Bat", "Penguin")
GASES = _item("Which of these are noble gases?", "Helium", "Oxygen", "Neon", "Argon", "Hydrogen")
CAPITALS = _item("Which of these cities are capitals?", "Paris", "Lyon", "Rome", "Milan")
PRIMES = _item("Which of these numbers are prime?", "9", "11", "15", "17", "21")
ROMANCE = _item(
    "Which of these languages are Romance languages?",
    "Spanish",
    "German",
    "Portuguese",
    "Dutch",
    "Romanian",
)
ROOT = _item("What is the square root of 144?", "11", "12", "13", "14")
FREEZE = _item("At what temperature does water freeze at sea level?", "0 °C", "32 °C", "100 °C")
EQUATION = _item("Solve for y: 2y + 4 = 18.", "5", "6", "7", "8")
PLANET = _item("Which planet is largest?", "Mars", "Jupiter", "Venus", "Mercury")
BY_FOUR = _item("Which of these numbers are divisible by 4?", "132", "146", "208", "310")


def _read(reply: str, item: Item, leg: str) -> Reading:
    return prin_guard.read_reply(reply, item, polarity=leg)


def _reads(reply: str, item: Item, leg: str, expected: tuple[str, ...]) -> None:
    reading = _read(reply, item, leg)
    assert reading.status is not ParseStatus.FAILED, reading
    assert reading.labels == expected, reading
    assert not reading.polarity_confusion, reading


def _never_confident(reply: str, item: Item, leg: str, wrong: tuple[str, ...] | None) -> None:
    """Failed, or marked weak / polarity-confused, or a reading other than ``wrong``
    (``None``: any reading must be marked)."""
    reading = _read(reply, item, leg)
    if reading.status is ParseStatus.FAILED or reading.weak or reading.polarity_confusion:
        return
    assert wrong is not None and reading.labels != wrong, reading


# -- 1. an elliptic "X is not." after a statement in the predicate: X has it not ----------

ELLIPTIC = [
    ("A, C and D are noble gases. B is not. E is not.", GASES, "direct", ("A", "C", "D")),
    ("A, C and D are noble gases. B is not. E is not.", GASES, "reverse", ("B", "E")),
    ("A and C are mammals. B is not. D is not.", MAMMALS, "direct", ("A", "C")),
    ("A and C are mammals. B isn't. D isn't.", MAMMALS, "direct", ("A", "C")),
    ("A and C are mammals. B isn't. D isn't.", MAMMALS, "reverse", ("B", "D")),
    ("Whale and bat are mammals. Shark is not. Penguin is not.", MAMMALS, "direct", ("A", "C")),
    ("Paris and Rome are capitals. Lyon is not. Milan is not.", CAPITALS, "direct", ("A", "C")),
    ("Paris and Rome are capitals. Lyon is not. Milan is not.", CAPITALS, "reverse", ("B", "D")),
    ("B and D are prime. A is not. C is not. E is not.", PRIMES, "direct", ("B", "D")),
    ("B and D are prime. A is not. C is not. E is not.", PRIMES, "reverse", ("A", "C", "E")),
    ("A, C and E are Romance languages. B is not. D is not.", ROMANCE, "direct", ("A", "C", "E")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), ELLIPTIC)
def test_an_elliptic_not_denies_the_predicate(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


ELLIPTIC_NEVER = [
    # a chain of elliptic "is not" is never the statement's side
    ("A and C are mammals. B is not. D is not.", MAMMALS, "direct", ("A", "C", "D")),
    ("A and C are mammals. B is not. D is not.", MAMMALS, "reverse", ("B",)),
    ("A, C and D are noble gases. B is not. E is not.", GASES, "reverse", ("B",)),
    ("A and C are mammals. B is not. D is not either.", MAMMALS, "direct", ("A", "C", "D")),
    ("Paris is a capital. Lyon is not. Rome is. Milan is not.", CAPITALS, "direct", ("A", "B")),
    ("B and D are prime. A is not. C is not.", PRIMES, "direct", ("B", "C", "D")),
    ("A, C and E are Romance languages. B is not. D is not.", ROMANCE, "reverse", ("B",)),
    ("B is not a mammal. D is not.", MAMMALS, "direct", ("D",)),
    ("B is not a mammal. D is not. A and C are.", MAMMALS, "direct", ("A", "C", "D")),
    ("A and C are mammals. B is not. D is not.", MAMMALS, "direct", ("A", "C", "D")),
    ("Whale and bat are mammals. Shark is not. Penguin is not.", MAMMALS, "reverse", ("B",)),
]


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), ELLIPTIC_NEVER)
def test_a_chain_of_elliptic_nots_never_flips(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 2. a reply that questions which leg is asked, then answers without its words ---------

QUESTIONED = [
    ("Are you sure you want the incorrect ones? The answer is C.", EQUATION, "reverse"),
    ("Do you mean the correct one? The answer is B.", ROOT, "reverse"),
    ("You want the wrong options? Hmm. The answer is B.", ROOT, "reverse"),
    ("Did you mean the incorrect answers? It's C.", EQUATION, "reverse"),
    ("Are you asking for the incorrect ones? Answer: B", ROOT, "reverse"),
    ("Wait, the incorrect ones? The answer is B.", PLANET, "reverse"),
    ("Are you sure you want the incorrect ones?\n\nThe answer is C.", EQUATION, "reverse"),
    ("Do you really want the wrong ones? I'd say B.", ROOT, "reverse"),
    ("Are you sure you want the correct one? The answer is A.", ROOT, "direct"),
    ("Did you mean the wrong answer? The answer is C.", EQUATION, "direct"),
    ("Is the question asking for the incorrect ones? The answer is B.", PLANET, "reverse"),
]


@pytest.mark.parametrize(("reply", "item", "leg"), QUESTIONED)
def test_an_answer_after_questioning_the_leg_is_never_confident(
    reply: str, item: Item, leg: str
) -> None:
    _never_confident(reply, item, leg, None)


QUESTIONED_READS = [
    # the leg's own words after the question: read
    ("Are you sure you want the incorrect ones? Fine: the incorrect ones are A, B and D.",
     EQUATION, "reverse", ("A", "B", "D")),
    ("Do you mean the wrong ones? Then the wrong options are A, C and D.", ROOT, "reverse",
     ("A", "C", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), QUESTIONED_READS)
def test_the_legs_words_after_questioning_it_read(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


# -- 3. complements: "the rest", "the others", "the remaining ones" ---------------------

COMPLEMENTS = [
    ("B is correct, so the incorrect ones are the rest.", ROOT, "reverse", ("A", "C", "D")),
    ("B is correct; the incorrect ones are the others.", ROOT, "reverse", ("A", "C", "D")),
    ("A and C are capitals, so the incorrect ones are the rest.", CAPITALS, "reverse",
     ("B", "D")),
    ("B and D are not incorrect; the others are.", PRIMES, "reverse", ("A", "C", "E")),
    ("A and C are not wrong; the rest are.", CAPITALS, "reverse", ("B", "D")),
    ("Correct ones: A, C and E. So the incorrect ones are the rest.", ROMANCE, "reverse",
     ("B", "D")),
    ("Correct: Spanish, Portuguese and Romanian. So the incorrect ones are the rest.", ROMANCE,
     "reverse", ("B", "D")),
    ("A, C and E are Romance languages; the incorrect options are the remaining ones.",
     ROMANCE, "reverse", ("B", "D")),
    ("B and D are wrong, so the correct ones are the rest.", CAPITALS, "direct", ("A", "C")),
    ("B is incorrect; the correct ones are the others.", MAMMALS, "direct", ("A", "C", "D")),
    ("Only B is right. The wrong ones are all the others.", ROOT, "reverse", ("A", "C", "D")),
    ("Jupiter is the largest, so the incorrect ones are the rest: A, C and D.", PLANET,
     "reverse", ("A", "C", "D")),
    ("A and C are divisible by 4, so the incorrect ones are the rest.", BY_FOUR, "reverse",
     ("B", "D")),
    ("132 and 208 are divisible by 4, so the wrong ones are the others.", BY_FOUR, "reverse",
     ("B", "D")),
    ("B and D are not divisible by 4, so the correct ones are the rest.", BY_FOUR, "direct",
     ("A", "C")),
    ("Whales and bats are mammals, so the incorrect ones are the rest.", MAMMALS, "reverse",
     ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), COMPLEMENTS)
def test_the_rest_names_the_complement(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


COMPLEMENTS_NEVER = [
    # the complement on the other leg, or hedged, or of nothing stated
    ("B is correct, so the incorrect ones are the rest.", ROOT, "direct", ("A", "C", "D")),
    ("B is correct; I'm not sure about the rest.", ROOT, "reverse", ("A", "C", "D")),
    ("The incorrect ones are the rest.", ROOT, "reverse", None),
    ("B and D are not incorrect; maybe the others are.", PRIMES, "reverse", ("A", "C", "E")),
    ("A and C are capitals, so the incorrect ones are the rest.", CAPITALS, "direct",
     ("B", "D")),
    ("B is correct; some of the others are incorrect too.", ROOT, "reverse", ("A", "C", "D")),
    ("B and D are not incorrect; the others are not either.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("B is correct, so the incorrect ones are the rest.", ROOT, "reverse", ("B",)),
    ("If B is correct, the incorrect ones are the rest.", ROOT, "reverse", ("A", "C", "D")),
    ("B and D are not divisible by 4, so the incorrect ones are the rest.", BY_FOUR, "reverse",
     ("A", "C")),
    ("A and C are divisible by 4, so the correct ones are the rest.", BY_FOUR, "reverse",
     ("B", "D")),
    ("A and C are divisible by 4, so the incorrect ones are the rest.", BY_FOUR, "direct",
     ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), COMPLEMENTS_NEVER)
def test_a_complement_never_reads_wrong(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...] | None
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 4. wavering resolved: "I'll say", "I'll go with", "final:" ---------------------------

RESOLVED = [
    ("I think A and C, but maybe also E... I'll say A, C and E.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("B or D? 17 is prime, so both. I'll say B and D.", PRIMES, "direct", ("B", "D")),
    ("Hmm, A or C... I'll go with A and C.", CAPITALS, "direct", ("A", "C")),
    ("Maybe B, maybe D. I'll say B, D.", CAPITALS, "reverse", ("B", "D")),
    ("Hard to say. Final: B.", ROOT, "direct", ("B",)),
    ("Perhaps A, C. Final: A, C, D.", ROOT, "reverse", ("A", "C", "D")),
    ("I was unsure about 9, but 9 = 3 × 3. I'll say A, C and E.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("Not sure about the penguin. I'll say B and D.", MAMMALS, "reverse", ("B", "D")),
    ("Not sure about the penguin. I'll go with A and C.", MAMMALS, "direct", ("A", "C")),
    ("I'll say B.", ROOT, "direct", ("B",)),
    ("Could be C. I'd say A, C and D.", ROOT, "reverse", ("A", "C", "D")),
    ("Could be A. I'll settle on B.", ROOT, "direct", ("B",)),
    ("I lean to A, but maybe C too. I'll pick A and C.", MAMMALS, "direct", ("A", "C")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), RESOLVED)
def test_wavering_resolved_reads_the_resolution(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


RESOLVED_NEVER = [
    ("I'll say A and C are correct.", CAPITALS, "reverse", ("A", "C")),
    # a pick is the direct side's: on the reverse leg it may answer the direct question
    ("Not sure about the penguin. I'll go with B and D.", MAMMALS, "reverse", ("B", "D")),
    ("Could be A. I'll settle on A, C and D.", ROOT, "reverse", ("A", "C", "D")),
    ("I won't say B.", ROOT, "direct", ("B",)),
    ("I'll say A, C and E, but I'm not sure.", PRIMES, "reverse", ("A", "C", "E")),
    ("If it's the prime ones, I'll say B and D.", PRIMES, "reverse", ("B", "D")),
    ("I'll say A or C.", CAPITALS, "direct", ("A",)),
    ("I'll go with B... no, wait, D.", ROOT, "direct", ("B",)),
    ("I'd never say B.", ROOT, "direct", ("B",)),
    ("I'll say A and C are capitals.", CAPITALS, "reverse", ("A", "C")),
    ("Some would say B.", ROOT, "direct", ("B",)),
    ("I'll go with the incorrect ones: A, C and D. Actually no, B.", ROOT, "reverse",
     ("A", "C", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), RESOLVED_NEVER)
def test_a_resolution_hedged_or_on_the_other_side_never_reads(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 5. labels after the texts or values they name ---------------------------------------

AFTER_TEXTS = [
    ("B (12).", ROOT, "direct", ("B",)),
    ("A (0 °C).", FREEZE, "direct", ("A",)),
    ("Spanish, Portuguese and Romanian: A, C and E.", ROMANCE, "direct", ("A", "C", "E")),
    ("German and Dutch: B and D.", ROMANCE, "reverse", ("B", "D")),
    ("Paris and Rome: A and C.", CAPITALS, "direct", ("A", "C")),
    ("Lyon, Milan: B, D", CAPITALS, "reverse", ("B", "D")),
    ("C (Neon).", GASES, "direct", ("C",)),
    ("Helium, neon and argon: A, C, D.", GASES, "direct", ("A", "C", "D")),
    ("Oxygen and hydrogen: B and E.", GASES, "reverse", ("B", "E")),
    ("B (Jupiter)", PLANET, "direct", ("B",)),
    ("11 and 17: B and D.", PRIMES, "direct", ("B", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), AFTER_TEXTS)
def test_labels_and_their_texts_read(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


AFTER_TEXTS_NEVER = [
    ("B (13).", ROOT, "direct", ("B",)),  # the value is another option's
    ("Paris and Rome: B and D.", CAPITALS, "direct", ("B", "D")),
    ("Paris and Rome: B and D.", CAPITALS, "direct", ("A", "C")),
    ("German and Dutch: A and C.", ROMANCE, "reverse", ("A", "C")),
    ("Not Paris and Rome: A and C.", CAPITALS, "direct", ("A", "C")),
    ("Paris and Rome are capitals: A and C.", CAPITALS, "reverse", ("A", "C")),
    ("B (not 12).", ROOT, "direct", ("B",)),
    ("Lyon, Milan: maybe B, D", CAPITALS, "reverse", ("B", "D")),
    ("Helium, neon and argon: A, C.", GASES, "direct", ("A", "C")),
    ("Spanish and German: A and C.", ROMANCE, "direct", ("A", "C")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), AFTER_TEXTS_NEVER)
def test_labels_against_their_texts_never_read(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 6. the leg's definition explained back, then its answer ------------------------------

EXPLAINED = [
    ("Incorrect here means the options that are not capitals, so Lyon and Milan: B and D.",
     CAPITALS, "reverse", ("B", "D")),
    ("Incorrect here means the animals that are not mammals, so B and D.", MAMMALS, "reverse",
     ("B", "D")),
    ("Incorrect means the numbers that are not prime, so A, C and E.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("'Incorrect' here means the options that aren't noble gases: B and E.", GASES, "reverse",
     ("B", "E")),
    ("Since incorrect means the languages that are not Romance languages, B and D.", ROMANCE,
     "reverse", ("B", "D")),
    ("Incorrect here means the cities that are not capitals. Lyon and Milan are not, so B "
     "and D.", CAPITALS, "reverse", ("B", "D")),
    ("Incorrect means the numbers that are not prime. 9, 15 and 21 are not: A, C and E.",
     PRIMES, "reverse", ("A", "C", "E")),
    ("Incorrect here means the animals that aren't mammals. Shark and penguin aren't: B, D.",
     MAMMALS, "reverse", ("B", "D")),
    ("Correct here means the cities that are capitals, so A and C.", CAPITALS, "direct",
     ("A", "C")),
    ("Here incorrect means not a mammal, so the shark and the penguin: B and D.", MAMMALS,
     "reverse", ("B", "D")),
    ("Incorrect options are those that are not prime, so A, C and E.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("The incorrect ones are the animals that aren't mammals, so B and D.", MAMMALS,
     "reverse", ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), EXPLAINED)
def test_a_definition_explained_back_reads_its_answer(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


EXPLAINED_NEVER = [
    ("Incorrect here means the options that are not capitals, so B and D.", CAPITALS,
     "direct", ("B", "D")),
    ("Correct here means the cities that are capitals, so A and C.", CAPITALS, "reverse",
     ("A", "C")),
    ("Incorrect here means the animals that are mammals, so A and C.", MAMMALS, "reverse",
     ("A", "C")),
    ("If incorrect means the options that are not capitals, then maybe B and D.", CAPITALS,
     "reverse", ("B", "D")),
    ("Incorrect here means the animals that are not mammals. Whales and bats are mammals, so "
     "A and C.", MAMMALS, "reverse", ("A", "C")),
    ("Incorrect here does not mean the options that are not capitals, so B and D.", CAPITALS,
     "reverse", ("B", "D")),
    ("Incorrect means not prime. I'm not sure, so A and C?", PRIMES, "reverse", ("A", "C")),
    ("Incorrect here means the cities that are not capitals. Lyon and Milan are not: A and C.",
     CAPITALS, "reverse", ("A", "C")),
    ("Incorrect here means the cities that are capitals. Lyon and Milan are not: B and D.",
     CAPITALS, "reverse", ("B", "D")),
    ("Incorrect here means the cities that are not capitals. Lyon and Milan are not: B and D.",
     CAPITALS, "direct", ("B", "D")),
    ("Incorrect here means the cities that are not capitals. Some are not: B and D.",
     CAPITALS, "reverse", ("B", "D")),
    ("Incorrect here means the cities that are not capitals. Paris is a capital, so A.",
     CAPITALS, "reverse", ("A",)),
    ("Incorrect means the options that are not prime. 11 is prime, so B.", PRIMES, "reverse",
     ("B",)),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), EXPLAINED_NEVER)
def test_a_definition_explained_back_never_misreads(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 7. a heading in a sentence: "The options that are incorrect: B, D." -----------------

THAT_ARE = [
    ("11 and 17 are prime. The options that are incorrect: A, C, E.", PRIMES, "reverse",
     ("A", "C", "E")),
    ("Step by step: 12 × 12 = 144. The options that are wrong: A, C, D.", ROOT, "reverse",
     ("A", "C", "D")),
    ("Whale and bat nurse their young. The options that are correct: A, C.", MAMMALS,
     "direct", ("A", "C")),
    ("The ones that are incorrect: B, D.", CAPITALS, "reverse", ("B", "D")),
    ("Paris and Rome are capitals. The options that are not capitals: B and D.", CAPITALS,
     "reverse", ("B", "D")),
    ("The answers that are correct: B.", ROOT, "direct", ("B",)),
    pytest.param(
        "Checking each: the choices that are incorrect: A, C and D.", ROOT, "reverse",
        ("A", "C", "D"), marks=pytest.mark.xfail(reason="a heading starts a line or a sentence"),
    ),
    ("Checking each one.\nThe choices that are incorrect: A, C and D.", ROOT, "reverse",
     ("A", "C", "D")),
    ("The options which are wrong: B, E.", GASES, "reverse", ("B", "E")),
    ("Oxygen and hydrogen are not noble. The options that are incorrect: B and E.", GASES,
     "reverse", ("B", "E")),
    ("The options that are right: A, C, D.", GASES, "direct", ("A", "C", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), THAT_ARE)
def test_a_heading_in_a_sentence_reads(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


THAT_ARE_NEVER = [
    ("The options that are incorrect: B, D.", CAPITALS, "direct", ("B", "D")),
    ("The options that are correct: A, C.", CAPITALS, "reverse", ("A", "C")),
    ("The options that are not incorrect: A, C.", CAPITALS, "reverse", ("A", "C")),
    ("The options that might be incorrect: B, D.", CAPITALS, "reverse", ("B", "D")),
    ("The options that are incorrect: B, D. Wait, Milan is right.", CAPITALS, "reverse",
     ("B", "D")),
    ("The options that are capitals: A, C.", CAPITALS, "reverse", ("A", "C")),
    ("The options that are not capitals: B, D.", CAPITALS, "direct", ("B", "D")),
    ("Are the options that are incorrect: B, D?", CAPITALS, "reverse", ("B", "D")),
    ("The options that are incorrect: not B, D.", CAPITALS, "reverse", ("B", "D")),
    ("If the options that are incorrect: B, D.", CAPITALS, "reverse", ("B", "D")),
    ("The options that are incorrect: B, D (Paris is wrong too).", CAPITALS, "reverse",
     ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), THAT_ARE_NEVER)
def test_a_heading_in_a_sentence_never_misreads(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 8. both sides in one sentence: "the correct ones are ..., and the incorrect ones ..." --

BOTH_SIDES = [
    ("So the correct options are A, C and D, and the incorrect ones are B and E.", GASES,
     "direct", ("A", "C", "D")),
    ("So the correct options are A, C and D, and the incorrect ones are B and E.", GASES,
     "reverse", ("B", "E")),
    ("The correct ones are A and C, while the wrong ones are B and D.", CAPITALS, "direct",
     ("A", "C")),
    ("The correct ones are A and C, while the wrong ones are B and D.", CAPITALS, "reverse",
     ("B", "D")),
    ("The right answers are B and D, and the wrong answers are A, C and E.", PRIMES,
     "reverse", ("A", "C", "E")),
    ("The incorrect options are B and D, whereas the correct options are A and C.", MAMMALS,
     "direct", ("A", "C")),
    ("The incorrect options are B and D, whereas the correct options are A and C.", MAMMALS,
     "reverse", ("B", "D")),
    ("Therefore the correct choices are A, C and E, and the incorrect choices are B and D.",
     ROMANCE, "direct", ("A", "C", "E")),
    ("Therefore the correct choices are A, C and E, and the incorrect choices are B and D.",
     ROMANCE, "reverse", ("B", "D")),
    ("The correct option is B, and the incorrect ones are A, C and D.", ROOT, "reverse",
     ("A", "C", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), BOTH_SIDES)
def test_both_sides_in_one_sentence_read_the_legs(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


BOTH_SIDES_NEVER = [
    ("The correct ones are A and C, and the wrong ones are A and D.", CAPITALS, "direct",
     ("A", "C")),
    ("The correct ones are A and C, and the wrong ones are A and D.", CAPITALS, "reverse",
     ("A", "D")),
    ("The correct ones are A and C, and maybe the wrong ones are B and D.", CAPITALS,
     "reverse", ("B", "D")),
    ("I doubt the correct ones are A and C, and the wrong ones are B and D.", CAPITALS,
     "direct", ("A", "C")),
    ("The correct ones are A and C, and the other ones are B and D.", CAPITALS, "reverse",
     ("A", "C")),
    ("The correct ones are A and C, and the wrong ones are B and D.", CAPITALS, "reverse",
     ("A", "C")),
    ("The correct ones are A and C, and the wrong ones are B and D.", CAPITALS, "direct",
     ("B", "D")),
    ("If the correct ones are A and C, the wrong ones are B and D.", CAPITALS, "reverse",
     ("B", "D")),
    ("The correct ones are not A and C, and the wrong ones are B and D.", CAPITALS, "direct",
     ("A", "C")),
    ("The correct ones are A and C, but the wrong ones are not B and D.", CAPITALS, "reverse",
     ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), BOTH_SIDES_NEVER)
def test_both_sides_in_one_sentence_never_misread(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 9. none of a list: "none of A, C and D is incorrect" is no status of theirs ----------

NONE_OF = [
    ("None of A, C and D is incorrect.", GASES, "reverse", ("A", "C", "D")),
    ("None of A, C and D is incorrect; B and E are.", GASES, "reverse", ("A", "C", "D")),
    ("So none of A, C, D is incorrect, and B and E are.", GASES, "reverse", ("A", "C", "D")),
    ("So none of A, C, D is incorrect, and B and E are.", GASES, "reverse", ("C", "D")),
    ("Not one of A, C and D is incorrect.", GASES, "reverse", ("A", "C", "D")),
    ("None of the options A, C and D is incorrect, but B and E are.", GASES, "reverse",
     ("C", "D")),
    ("None of B and D is correct.", CAPITALS, "direct", ("B", "D")),
    ("None of B or D is correct.", CAPITALS, "direct", ("D",)),
    ("Neither of B and D is right.", CAPITALS, "direct", ("D",)),
    ("None of A, C, E is wrong.", PRIMES, "reverse", ("C", "E")),
    ("Not any of B, D is a wrong answer.", PRIMES, "reverse", ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), NONE_OF)
def test_none_of_a_list_never_gives_its_status(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)


# -- 10. an answer said first and last, a doubt between ----------------------------------

BOOKENDED = [
    ("B. Hmm, or C? 13 × 13 = 169, too big. B.", ROOT, "direct", ("B",)),
    ("B. 12 × 12 = 144. B.", ROOT, "direct", ("B",)),
    ("A, C and D. Or is B wrong too? No, 12 × 12 = 144. A, C and D.", ROOT, "reverse",
     ("A", "C", "D")),
    ("A and C. Hmm. A and C.", CAPITALS, "direct", ("A", "C")),
    ("B and D. Lyon and Milan are big, but not capitals. B and D.", CAPITALS, "reverse",
     ("B", "D")),
    ("B, D. Is 9 prime? No, 9 = 3 × 3. B, D.", PRIMES, "direct", ("B", "D")),
    ("A, C, E. Let me check 21: 3 × 7. A, C, E.", PRIMES, "reverse", ("A", "C", "E")),
    ("B. Jupiter is by far the largest. B.", PLANET, "direct", ("B",)),
    ("A. Water freezes at 0 °C. A.", FREEZE, "direct", ("A",)),
    ("B and E.\nOxygen and hydrogen are not noble gases.\nB and E.", GASES, "reverse",
     ("B", "E")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), BOOKENDED)
def test_an_answer_said_first_and_last_reads(
    reply: str, item: Item, leg: str, expected: tuple[str, ...]
) -> None:
    _reads(reply, item, leg, expected)


BOOKENDED_NEVER = [
    ("B. Hmm, or C? 13 × 13 = 169, fine. C.", ROOT, "direct", ("B",)),
    ("B. Hmm, or C? 13 × 13 = 169, fine. C.", ROOT, "direct", ("C",)),
    ("B. Wait, C is right. B.", ROOT, "direct", ("B",)),
    ("B. C is correct. B.", ROOT, "direct", ("B",)),
    ("A and C. Actually, B is a capital too. A and C.", CAPITALS, "direct", ("A", "C")),
    ("B. 12 × 12 = 144. B.", ROOT, "reverse", ("B",)),
    ("A and C. Paris and Rome are capitals. A and C.", CAPITALS, "reverse", ("A", "C")),
    ("B. Maybe. B?", ROOT, "direct", ("B",)),
    ("B or C. Hmm. B or C.", ROOT, "direct", ("B",)),
    ("Not B. Hmm. Not B.", ROOT, "direct", ("B",)),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "wrong"), BOOKENDED_NEVER)
def test_an_answer_said_first_and_last_never_misreads(
    reply: str, item: Item, leg: str, wrong: tuple[str, ...]
) -> None:
    _never_confident(reply, item, leg, wrong)
