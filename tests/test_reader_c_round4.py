"""The reader, round 4 (issue 38): set C's phrasing classes, in phrasings of this file.

None is copied from a hold-out set: options named by position in a list ("the second and
fourth options"), labels joined by "plus", "as well as", "together with", "and also", "+",
lists separated by semicolons or written one label a line under a heading, imperative and
noun frames ("Go with B", "my picks are A and C"), and reasoning that says in the
question's own words which candidates have its predicate, then an answer line naming
others (never a confident reading).
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


FRUIT = _item("Which of these are fruits?", "apple", "carrot", "pear", "plum", "leek")
BIRDS = _item("Which of these animals are birds?", "eagle", "frog", "owl", "lizard")
METALS = _item("Which of these elements are metals?", "iron", "neon", "zinc", "argon")
NUMS = _item("Which of these numbers are multiples of 5?", "25", "12", "40", "33")
ORDS = _item("Which words are ordinals?", "first", "blue", "third", "tree")


def _read(reply: str, item: Item, leg: str = "direct") -> Reading:
    return prin_guard.read_reply(reply, item, polarity=leg)


def _ok(reading: Reading, labels: tuple[str, ...]) -> None:
    assert reading.status is not ParseStatus.FAILED, reading
    assert tuple(sorted(reading.labels)) == labels, reading


def _not_confident(reading: Reading) -> None:
    if reading.status is ParseStatus.FAILED:
        return
    assert reading.weak or reading.polarity_confusion, reading


# -- options named by their position -----------------------------------------------------

ORDINAL_LISTS = [
    ("The first and third options are fruits.", FRUIT, "direct", ("A", "C")),
    ("Eagle and owl — the first and the third options.", BIRDS, "direct", ("A", "C")),
    ("The second and fourth options.", BIRDS, "reverse", ("B", "D")),
    ("The first, third and fourth options are the fruits.", FRUIT, "direct", ("A", "C", "D")),
    ("Neon, argon → the second and the last options.", METALS, "reverse", ("B", "D")),
    ("So the answer is the first and third choices.", NUMS, "direct", ("A", "C")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), ORDINAL_LISTS)
def test_ordinal_lists_name_options_by_position(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _ok(_read(reply, item, leg), labels)


def test_ordinal_lists_not_read_when_texts_are_ordinals() -> None:
    _not_confident(_read("The first and third options.", ORDS))
    reading = _read("The first and third options are ordinals.", ORDS)
    assert reading.status is ParseStatus.FAILED or reading.labels == ("A", "C")


# -- labels joined by other words ----------------------------------------------------------

JOINED = [
    ("A plus D.", FRUIT, "direct", ("A", "D")),
    ("Answer: A + C + D", FRUIT, "direct", ("A", "C", "D")),
    ("So the answer is B + D.", BIRDS, "reverse", ("B", "D")),
    ("The answer is A as well as C.", BIRDS, "direct", ("A", "C")),
    ("B together with D: both are noble gases.", METALS, "reverse", ("B", "D")),
    ("The correct ones are A and also C.", METALS, "direct", ("A", "C")),
    ("Answer: B plus D", NUMS, "reverse", ("B", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), JOINED)
def test_joining_words_join_labels(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _ok(_read(reply, item, leg), labels)


@pytest.mark.parametrize(
    "reply",
    ["Let A + C = 10, then B = 3.", "If A plus B were 7 we would know."],
)
def test_joining_words_in_formulas_are_no_answer(reply: str) -> None:
    reading = _read(reply, NUMS)
    _not_confident(reading)


# -- separated and vertical lists ----------------------------------------------------------

SEPARATED = [
    ("Fruits: A; C; D", FRUIT, "direct", ("A", "C", "D")),
    ("Wrong options: B; D", BIRDS, "reverse", ("B", "D")),
    ("Answer: A; C", METALS, "direct", ("A", "C")),
    ("Correct:\nA\nC", NUMS, "direct", ("A", "C")),
    ("Incorrect options:\nB\nD\n", METALS, "reverse", ("B", "D")),
    ("The right ones:\n\nA\nC\nD", FRUIT, "direct", ("A", "C", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), SEPARATED)
def test_separated_lists_read_whole(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _ok(_read(reply, item, leg), labels)


def test_semicolon_before_a_status_is_no_list() -> None:
    _not_confident(_read("Answer: A; C is wrong though", METALS))


# -- imperative and noun frames ------------------------------------------------------------

FRAMES = [
    ("Go with B. It is the only amphibian.", BIRDS, "direct", ("B",)),
    ("So, pick A and C.", BIRDS, "direct", ("A", "C")),
    ("go with A and C.", METALS, "direct", ("A", "C")),
    ("My picks are A and C.", FRUIT, "direct", ("A", "C")),
    ("My picks: B and D.", NUMS, "reverse", ("B", "D")),
    ("Having checked each, my pick is C.", METALS, "direct", ("C",)),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), FRAMES)
def test_frames_conclude(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _ok(_read(reply, item, leg), labels)


# -- reasoning in the question's words that an answer line contradicts ---------------------

CONTRADICTED = [
    ("The birds in the list are eagle and owl.\n\nAnswer: B, D", BIRDS, "direct"),
    ("The metals here are iron and zinc.\n\nAnswer: B", METALS, "direct"),
    ("Iron and zinc are metals.\n\nAnswer: B, D", METALS, "direct"),
    ("Frogs and lizards are not birds.\n\nAnswer: A, C", BIRDS, "reverse"),
    ("The fruits among them are apple, pear and plum.\n\nAnswer: B, E", FRUIT, "direct"),
]


@pytest.mark.parametrize(("reply", "item", "leg"), CONTRADICTED)
def test_answer_line_against_the_reasoning_is_not_confident(
    reply: str, item: Item, leg: str
) -> None:
    _not_confident(_read(reply, item, leg))


AGREED = [
    ("The birds in the list are eagle and owl.\n\nAnswer: A, C", BIRDS, "direct", ("A", "C")),
    ("The metals here are iron and zinc.\n\nAnswer: B, D", METALS, "reverse", ("B", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), AGREED)
def test_answer_line_with_the_reasoning_reads(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _ok(_read(reply, item, leg), labels)


# -- the same candidates by texts and labels; labels with "only" or "alone" ----------------

RESTATED = [
    ("Eagle and owl — A, C", BIRDS, "direct", ("A", "C")),
    ("frog, lizard → B, D", BIRDS, "reverse", ("B", "D")),
    ("Iron and zinc -> the first and third options", METALS, "direct", ("A", "C")),
    ("A and C (apple, pear).", FRUIT, "direct", ("A", "C")),
    ("B and E (carrot, leek)", FRUIT, "reverse", ("B", "E")),
    ("B alone.", NUMS, "reverse", ("B",)),
    ("Only C fits: zinc is a metal, iron too but it rusts.", METALS, "direct", ("C",)),
    ("Just B and D.", METALS, "reverse", ("B", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), RESTATED)
def test_restated_and_limited_answers(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    _ok(_read(reply, item, leg), labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        ("Eagle and owl — A, D", BIRDS, "direct"),  # the texts name others
        ("Eagle is not a bird — A", BIRDS, "direct"),  # a side in the words before
        ("A and C (apple, plum).", FRUIT, "direct"),
        ("Only B fits: 12 is not a multiple of 5.", NUMS, "reverse"),  # the direct side
        ("Only B fits: but C might too.", NUMS, "direct"),
    ],
)
def test_restated_that_disagree_are_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(_read(reply, item, leg))


# -- "it's", "neither ... nor ...", "the only one that (doesn't) fit" ----------------------

FRAMED = [
    ("It's C.", METALS, "direct", ("C",)),
    ("I'm 80% sure it's A and C.", NUMS, "direct", ("A", "C")),
    ("I think it is B.", NUMS, "reverse", ("B",)),
    ("Neither frog nor lizard is right.", BIRDS, "reverse", ("B", "D")),
    ("Neither neon nor the argon nor B is correct.", METALS, "reverse", ("B", "D")),
    ("Neither A nor C is wrong.", METALS, "direct", ("A", "C")),
    ("B is the only one that doesn't fit.", NUMS, "direct", ("A", "C", "D")),
    ("Frog is the only one that doesn't fit.", BIRDS, "reverse", ("B",)),
    ("Iron is the only one that fits.", METALS, "reverse", ("B", "C", "D")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), FRAMED)
def test_framed_answers(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _ok(_read(reply, item, leg), labels)


def test_hedged_its_are_weak() -> None:
    assert _read("I'm 80% sure it's A and C.", NUMS).weak
    assert _read("I think it is B.", NUMS, "reverse").weak
    assert not _read("It's C.", METALS).weak


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        ("It's B or C.", METALS, "direct"),
        ("Neither frog nor lizard is right.", BIRDS, "direct"),  # the other side only
        ("Neither A nor C is wrong.", METALS, "reverse"),
        ("Neither frog nor toad is right.", BIRDS, "reverse"),  # toad is no candidate
        ("B is the only one that doesn't fit, though D is close.", NUMS, "direct"),
    ],
)
def test_framed_that_say_too_little_are_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(_read(reply, item, leg))


# -- odd ones out with the rest's side, no option on the leg's side, verbs of the direct
# side, a confidence short of certainty ----------------------------------------------------

EXCLUDED = [
    ("B and E are the odd ones out; the rest qualify.", FRUIT, "direct", ("A", "C", "D")),
    ("B and E are the odd ones out; the rest qualify.", FRUIT, "reverse", ("B", "E")),
    ("Neon and argon are the exceptions, the others are metals.", METALS, "direct", ("A", "C")),
    ("Frog is the odd one out — the rest are birds.", BIRDS, "reverse", ("B",)),
    ("B is the exception; all the others are correct.", NUMS, "direct", ("A", "C", "D")),
    ("Each is a fruit, so there are no incorrect options.", FRUIT, "reverse", ()),
    ("No option is wrong.", METALS, "reverse", ()),
    ("The ones that qualify are 25 and 40; 12 and 33 are not.", NUMS, "direct", ("A", "C")),
    ("The options that fit are eagle and owl.", BIRDS, "direct", ("A", "C")),
    ("I'm fairly confident that frog and lizard are the incorrect ones.", BIRDS, "reverse",
     ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), EXCLUDED)
def test_exclusions_and_verbs(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _ok(_read(reply, item, leg), labels)


def test_a_confidence_short_of_certainty_is_weak() -> None:
    assert _read("I'm fairly confident that frog and lizard are the incorrect ones.", BIRDS,
                 "reverse").weak  # fmt: skip


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        ("B is the odd one out.", NUMS, "direct"),  # odd out of what? no side for the rest
        ("Mars is the exception.", METALS, "reverse"),
        ("So there are no correct options.", METALS, "reverse"),  # the other side's none
        ("The ones that hold are 25 and 40.", NUMS, "reverse"),  # the direct side
        ("B and E are the odd ones out; the rest qualify. Also A.", FRUIT, "direct"),
    ],
)
def test_exclusions_without_the_rest_are_not_confident(reply: str, item: Item, leg: str) -> None:
    _not_confident(_read(reply, item, leg))


# -- per-option verdicts on one line: bracketed labels with no separator, marks with a gloss

VERDICTS = [
    ("(A) right (B) wrong (C) right (D) wrong", BIRDS, "reverse", ("B", "D")),
    ("(A) right (B) wrong (C) right (D) wrong", BIRDS, "direct", ("A", "C")),
    ("[A] correct [B] incorrect [C] correct [D] incorrect", METALS, "reverse", ("B", "D")),
    ("A ✔ bird | B ✘ amphibian | C ✔ bird | D ✘ reptile", BIRDS, "reverse", ("B", "D")),
    ("A ✔ metal, B ✘ noble gas, C ✔ metal, D ✘ noble gas", METALS, "direct", ("A", "C")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), VERDICTS)
def test_per_option_verdicts(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _ok(_read(reply, item, leg), labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        ("(A) right (B) wrong (C) wrong (A) wrong", BIRDS, "reverse"),  # A twice
        ("A ✔ Bird | B ✘ amphibian and more words here", BIRDS, "direct"),
    ],
)
def test_per_option_verdicts_that_do_not_parse(reply: str, item: Item, leg: str) -> None:
    reading = _read(reply, item, leg)
    assert reading.status is ParseStatus.FAILED or reading.weak or reading.labels != ("A",)


# -- LaTeX's text commands and sets; striking options out ----------------------------------

LATEX_AND_STRIKE = [
    ("The answer is \\textbf{A} and \\textbf{C}.", METALS, "direct", ("A", "C")),
    ("Answer: \\textbf{B}", NUMS, "reverse", ("B",)),
    ("$\\text{Incorrect} = \\{B, D\\}$", BIRDS, "reverse", ("B", "D")),
    ("$\\text{Correct} = \\{A, C\\}$", METALS, "direct", ("A", "C")),
    ("Neon and argon are gases, so strike B and D.", METALS, "reverse", ("B", "D")),
    ("Cross out B, E.", FRUIT, "reverse", ("B", "E")),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), LATEX_AND_STRIKE)
def test_latex_and_strike(reply: str, item: Item, leg: str, labels: tuple[str, ...]) -> None:
    _ok(_read(reply, item, leg), labels)


@pytest.mark.parametrize(
    ("reply", "item", "leg"),
    [
        ("$\\text{Incorrect} = \\{B, D\\}$", BIRDS, "direct"),  # the other side's set
        ("Neon and argon are gases, so strike B and D.", METALS, "direct"),
        ("Strike B or D.", METALS, "reverse"),
    ],
)
def test_latex_and_strike_other_side_fail(reply: str, item: Item, leg: str) -> None:
    _not_confident(_read(reply, item, leg))
