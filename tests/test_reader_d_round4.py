"""The reader, round 4 (issue 38): set D's phrasing classes, in phrasings of this file.

None is copied from a hold-out set. Under every bundled template's words (v0 correct, v1
right, v2 appropriate, v3 accurate, v4 valid): a reverse leg whose reasoning gives the
answer's candidates the direct side (in the template's word, or the question's own
predicate after a colon) is never read confidently; an answer line the reasoning
contradicts is never confident; verbs that reject (eliminate, rule out, strike, discard,
drop, exclude, cross out, "are off", "don't fit", "don't belong") give the named ones the
reverse side and verbs that keep (keep, retain) the direct side; a correction after an
answer line stands; a note after the answer naming another candidate by its text, or
agreeing with the answer, is no pick; a reverse leg that gives every option a side
before its answer line reads.
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


PRODUCT = _item("What is 6 x 9?", "45", "54", "56", "63")
ODD = _item("Which of these numbers are odd?", "7", "10", "13", "16")
SQUARES = _item("Which of these numbers are perfect squares?", "16", "20", "25", "30")
BIRDS = _item("Which of these animals are birds?", "Robin", "Trout", "Sparrow", "Toad")
FRUIT = _item("Which of these are fruits?", "Apple", "Carrot", "Mango", "Potato", "Cherry")
CAPITAL = _item("What is the capital of Italy?", "Milan", "Rome", "Naples", "Turin")
METALS = _item("Which of these elements are metals?", "Iron", "Sulfur", "Copper", "Neon")

TEMPLATES = ["v0", "v1", "v2", "v3", "v4"]
WORDS = {
    "v0": ("correct", "incorrect"),
    "v1": ("right", "wrong"),
    "v2": ("appropriate", "inappropriate"),
    "v3": ("accurate", "inaccurate"),
    "v4": ("valid", "invalid"),
}


def _read(reply: str, item: Item, leg: str, template: str = "v0") -> Reading:
    return prin_guard.read_reply(reply, item, template=template, polarity=leg)


def _ok(reading: Reading, labels: tuple[str, ...]) -> None:
    assert reading.status is not ParseStatus.FAILED, reading
    assert reading.labels == labels, reading
    assert not reading.polarity_confusion, reading


def _not_confident(reading: Reading) -> None:
    """Failed, or marked weak / polarity-confused: never read unmarked."""
    if reading.status is ParseStatus.FAILED:
        return
    assert reading.weak or reading.polarity_confusion, reading


# -- the reasoning endorses the answer's candidates in the direct side's words ---------------

ENDORSED = [
    ("6 x 9 = 54. So 54 is {pos}.\n\nAnswer: B", PRODUCT),
    ("Six nines make 54, so B is {pos}.\n\nAnswer: B", PRODUCT),
    ("Rome is {pos}.\n\nAnswer: B", CAPITAL),
    ("Let's check. 54 is {pos}; that's option B.\n\nAnswer: B", PRODUCT),
    ("Robin and sparrow are {pos}.\n\nAnswer: A, C", BIRDS),
    ("6 x 9 = 54, which is {pos}.\n\nAnswer: B", PRODUCT),
    ("6 x 9 = 54. So\n\nAnswer: B", PRODUCT),
    ("The capital of Italy is Rome, which is {pos}.\n\nAnswer: B", CAPITAL),
]


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item"), ENDORSED)
def test_reverse_answer_the_reasoning_called_direct_is_not_confident(
    reply: str, item: Item, template: str
) -> None:
    pos = WORDS[template][0]
    _not_confident(_read(reply.format(pos=pos), item, "reverse", template))


PREDICATE_COLON = [
    ("7: odd. 10: even. 13: odd. 16: even.\n\nAnswer: A, C", ODD),
    ("16: perfect square. 20: no. 25: perfect square. 30: no.\n\nAnswer: A, C", SQUARES),
    ("Iron: metal. Sulfur: nonmetal. Copper: metal. Neon: gas.\n\nAnswer: A, C", METALS),
    ("Robin - bird. Trout - fish. Sparrow - bird. Toad - amphibian.\n\nAnswer: A, C", BIRDS),
    ("Let's think. 7: odd; 13: odd.\n\nAnswer: A, C", ODD),
]


@pytest.mark.parametrize(("reply", "item"), PREDICATE_COLON)
def test_reverse_answer_naming_those_with_the_predicate_is_not_confident(
    reply: str, item: Item
) -> None:
    _not_confident(_read(reply, item, "reverse", "v4"))


@pytest.mark.parametrize(("reply", "item"), PREDICATE_COLON)
def test_direct_answer_naming_those_with_the_predicate_reads(reply: str, item: Item) -> None:
    _ok(_read(reply, item, "direct", "v4"), ("A", "C"))


CONTRADICTED = [
    ("Robin is a bird. Trout is a fish, so {neg}. Sparrow is a bird. Toad, {neg}.\n\n"
     "Answer: A, C", BIRDS, "reverse"),
    ("7 is {pos}. 10 is {neg}. 13 is {pos}. 16 is {neg}.\n\nAnswer: A, C", ODD, "reverse"),
    ("Apple is {pos}, carrot is {neg}, mango is {pos}.\n\nAnswer: B, D", FRUIT, "direct"),
    ("Iron is {pos} and copper is {pos}; sulfur and neon are {neg}.\n\nAnswer: B, D",
     METALS, "direct"),
    ("B is {neg}. D is {neg}.\n\nAnswer: A, C", ODD, "reverse"),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg"), CONTRADICTED)
def test_answer_line_contradicting_the_reasoning_is_not_confident(
    reply: str, item: Item, leg: str, template: str
) -> None:
    pos, neg = WORDS[template]
    _not_confident(_read(reply.format(pos=pos, neg=neg), item, leg, template))


AGREES = [
    ("7 is {pos}. 10 is {neg}. 13 is {pos}. 16 is {neg}.\n\nAnswer: B, D", ODD, "reverse",
     ("B", "D")),
    ("7 is {pos}. 10 is {neg}. 13 is {pos}. 16 is {neg}.\n\nAnswer: A, C", ODD, "direct",
     ("A", "C")),
    ("B is {neg}. D is {neg}.\n\nAnswer: B, D", ODD, "reverse", ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg", "labels"), AGREES)
def test_answer_line_agreeing_with_the_reasoning_reads(
    reply: str, item: Item, leg: str, labels: tuple[str, ...], template: str
) -> None:
    pos, neg = WORDS[template]
    _ok(_read(reply.format(pos=pos, neg=neg), item, leg, template), labels)


# -- verbs that reject or keep -----------------------------------------------------------

EXCLUSIONS = [
    ("Retain A, C and E; discard B and D.", FRUIT, "direct", ("A", "C", "E")),
    ("Retain A, C and E; discard B and D.", FRUIT, "reverse", ("B", "D")),
    ("We can strike B and D. That leaves A and C.", ODD, "direct", ("A", "C")),
    ("I would exclude B and D. So: A, C.", BIRDS, "direct", ("A", "C")),
    ("Drop B and D — trout and toad are not birds.", BIRDS, "reverse", ("B", "D")),
    ("Cross out B and D.", METALS, "reverse", ("B", "D")),
    ("A and C are off.", ODD, "reverse", ("A", "C")),
    ("B and D don't belong.", BIRDS, "reverse", ("B", "D")),
    ("Trout and Toad don't fit.", BIRDS, "reverse", ("B", "D")),
    ("The ones that don't belong are the vegetables: Carrot and Potato.", FRUIT, "reverse",
     ("B", "D")),
    ("Rule out B and D; keep A and C.", SQUARES, "direct", ("A", "C")),
    ("B and D can be eliminated.", SQUARES, "reverse", ("B", "D")),
    ("Ruled out: B and D", BIRDS, "reverse", ("B", "D")),
    ("Keep: A, C\nDrop: B, D", FRUIT, "direct", ("A", "C")),
    ("Keep: A, C\nDrop: B, D", FRUIT, "reverse", ("B", "D")),
    ("Options to eliminate: B, D", ODD, "reverse", ("B", "D")),
    ("Remove Trout and Toad; they are not birds.", BIRDS, "reverse", ("B", "D")),
    ("Leave out B and D.", ODD, "reverse", ("B", "D")),
    ("B and D are left out. That leaves A and C.", ODD, "direct", ("A", "C")),
    ("B and D are out; A and C remain.", ODD, "direct", ("A", "C")),
    ("Cross off B and D; keep A and C.", ODD, "reverse", ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize("template", ["v1", "v3"])
@pytest.mark.parametrize(("reply", "item", "leg", "labels"), EXCLUSIONS)
def test_verbs_that_reject_or_keep_give_sides(
    reply: str, item: Item, leg: str, labels: tuple[str, ...], template: str
) -> None:
    _ok(_read(reply, item, leg, template), labels)


NOT_HEADINGS = [
    ("These are not {pos}: B, D", ODD, "reverse", ("B", "D")),
    ("Those are not {pos}: A, C", ODD, "direct", ("B", "D")),
    ("These are {neg}: B and D", SQUARES, "reverse", ("B", "D")),
    ("These are {pos}: A, C", SQUARES, "direct", ("A", "C")),
    ("These are {pos}: A, C", SQUARES, "reverse", ("B", "D")),
]


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg", "labels"), NOT_HEADINGS)
def test_headings_with_these_are(
    reply: str, item: Item, leg: str, labels: tuple[str, ...], template: str
) -> None:
    pos, neg = WORDS[template]
    reading = _read(reply.format(pos=pos, neg=neg), item, leg, template)
    if reading.status is ParseStatus.FAILED or reading.labels != labels:
        # the other side only: read as the complement only when every candidate has one,
        # else failed, never another reading
        assert reading.status is ParseStatus.FAILED, reading
        return
    _ok(reading, labels)


EXCLUSION_NOT_READ = [
    ("I wouldn't eliminate B.", ODD, "reverse"),
    ("If we rule out B, maybe D too.", ODD, "reverse"),
    ("Eliminate B or D.", ODD, "reverse"),
    ("We cannot rule out B and D.", ODD, "direct"),
    ("Eliminate B and D.\n\nAnswer: A, C", ODD, "reverse"),
]


@pytest.mark.parametrize(("reply", "item", "leg"), EXCLUSION_NOT_READ)
def test_exclusions_not_read_as_picks(reply: str, item: Item, leg: str) -> None:
    reading = _read(reply, item, leg, "v2")
    if reading.status is not ParseStatus.FAILED and not (
        reading.weak or reading.polarity_confusion
    ):
        assert set(reading.labels).isdisjoint({"B", "D"}) or leg == "direct", reading


# -- corrections after an answer line ------------------------------------------------------

CORRECTIONS = [
    ("Answer: A\n\nCorrection: C is also {pos}.\n\nAnswer: A, C", ODD, "direct", ("A", "C")),
    ("Answer: A, C, D\n\nCorrection: D is {neg} after all.\n\nAnswer: A, C", SQUARES, "direct",
     ("A", "C")),
    ("The {pos} ones are A, B and C. Actually no, trout is a fish — so only A and C.\n\n"
     "Answer: A, C", BIRDS, "direct", ("A", "C")),
    ("A, C and D. Wait, no: copper yes, neon no — just A and C.\n\nAnswer: A, C", METALS,
     "direct", ("A", "C")),
    ("Answer: B\n\nCorrection: D is {neg} too.\n\nAnswer: B, D", ODD, "reverse", ("B", "D")),
    ("Answer: A\n\nActually C is {pos} too.", ODD, "direct", ("A", "C")),
    ("Answer: B\n\nWait, D is {neg} as well.", ODD, "reverse", ("B", "D")),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg", "labels"), CORRECTIONS)
def test_corrections_stand(
    reply: str, item: Item, leg: str, labels: tuple[str, ...], template: str
) -> None:
    pos, neg = WORDS[template]
    _ok(_read(reply.format(pos=pos, neg=neg), item, leg, template), labels)


# -- a note after the answer ---------------------------------------------------------------

NOTES = [
    ("Answer: B\n\nThe {pos} one is Rome; Milan (A) is the largest financial centre.",
     CAPITAL, "direct", ("B",)),
    ("Answer: B\n\nNote: Milan (A) is a big city but not the capital.", CAPITAL, "direct",
     ("B",)),
    ("Answer: A, C, D\n\nNote: B (Rome) is the {pos} one.", CAPITAL, "reverse",
     ("A", "C", "D")),
    ("Answer: B, D\n\nNote: A (7) and C (13) are the {pos} ones.", ODD, "reverse", ("B", "D")),
    ("Answer: A, C\n\nNote: B and D are {neg}.", ODD, "direct", ("A", "C")),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg", "labels"), NOTES)
def test_notes_after_the_answer(
    reply: str, item: Item, leg: str, labels: tuple[str, ...], template: str
) -> None:
    pos, neg = WORDS[template]
    reading = _read(reply.format(pos=pos, neg=neg), item, leg, template)
    assert reading.status is not ParseStatus.FAILED, reading
    assert reading.labels == labels, reading
    assert not reading.polarity_confusion, reading


NOTES_AGAINST = [
    ("Answer: A, C\n\nNote: C is {neg}.", ODD, "direct"),
    ("Answer: B, D\n\nNote: D (16) is the {pos} one.", ODD, "reverse"),
    ("Answer: B\n\nNote: Rome (B) is {neg}.", CAPITAL, "direct"),
    ("Answer: A, C, D\n\nNote: A (Milan) is the {pos} one.", CAPITAL, "reverse"),
    ("Answer: A\n\nNote: B (Rome) is the {pos} one.", CAPITAL, "direct"),
]


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item", "leg"), NOTES_AGAINST)
def test_notes_against_the_answer_are_not_confident(
    reply: str, item: Item, leg: str, template: str
) -> None:
    pos, neg = WORDS[template]
    _not_confident(_read(reply.format(pos=pos, neg=neg), item, leg, template))


# -- every option a side on the reverse leg ----------------------------------------------

EVERY_SIDE = [
    ("The number 7 is {pos}, 10 is {neg}, 13 is {pos} and 16 is {neg}.\n\nAnswer: B, D", ODD),
    ("16 is {pos}, 20 is {neg}, 25 is {pos}, 30 is {neg}.\n\nAnswer: B, D", SQUARES),
    ("| Option | {Pos} | {Neg} |\n|---|---|---|\n| A) 7 | ✓ | |\n| B) 10 | | ✓ |\n"
     "| C) 13 | ✓ | |\n| D) 16 | | ✓ |", ODD),
    ("| Option | {Pos} | {Neg} |\n|---|---|---|\n| A | ✓ | |\n| B | | ✓ |\n| C | ✓ | |\n"
     "| D | | ✓ |\n\nAnswer: B, D", SQUARES),
    ("Iron is {pos}, sulfur is {neg}, copper is {pos}, neon is {neg}.\n\nAnswer: B, D", METALS),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item"), EVERY_SIDE)
def test_every_option_a_side_on_the_reverse_leg_reads(
    reply: str, item: Item, template: str
) -> None:
    pos, neg = WORDS[template]
    text = reply.format(pos=pos, neg=neg, Pos=pos.capitalize(), Neg=neg.capitalize())
    _ok(_read(text, item, "reverse", template), ("B", "D"))


EVERY_SIDE_AGAINST = [
    ("The number 7 is {pos}, 10 is {neg}, 13 is {pos} and 16 is {neg}.\n\nAnswer: A, C", ODD),
    ("| Option | {Pos} | {Neg} |\n|---|---|---|\n| A | ✓ | |\n| B | | ✓ |\n| C | ✓ | |\n"
     "| D | | ✓ |\n\nAnswer: A, C", SQUARES),
    ("7 is {pos}, 10 is {neg}, 13 is {pos}.\n\nAnswer: A, C", ODD),
    ("16 is {pos}, 20 is {neg}, 25 is {pos}, 30 is {neg}.\n\nAnswer: A", SQUARES),
    ("Iron is {pos}, sulfur is {neg}, copper is {pos}, neon is {neg}.\n\nAnswer: A, C",
     METALS),
]  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("reply", "item"), EVERY_SIDE_AGAINST)
def test_every_option_a_side_against_the_answer_is_not_confident(
    reply: str, item: Item, template: str
) -> None:
    pos, neg = WORDS[template]
    text = reply.format(pos=pos, neg=neg, Pos=pos.capitalize(), Neg=neg.capitalize())
    _not_confident(_read(text, item, "reverse", template))


ASKED = [
    ("Eliminate A and C? No, they are odd. Eliminate B and D.", ODD, "direct", ("A", "C")),
    ("Eliminate A and C? No, they are odd. Eliminate B and D.", ODD, "reverse", ("B", "D")),
    ("Should we drop B? Yes. And D too.", ODD, "reverse", ("B", "D")),
    ("Are B and D off? Yes.", ODD, "reverse", ("B", "D")),
    ("Can we keep A and C? Only A.", ODD, "direct", ("A",)),
]


@pytest.mark.parametrize(("reply", "item", "leg", "labels"), ASKED)
def test_a_question_rejects_nothing(
    reply: str, item: Item, leg: str, labels: tuple[str, ...]
) -> None:
    """A verb in a question says nothing: read right, or failed or marked."""
    reading = _read(reply, item, leg, "v0")
    if reading.status is ParseStatus.FAILED or reading.labels == labels:
        return
    _not_confident(reading)
