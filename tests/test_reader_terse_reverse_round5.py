"""The reader, round 5 (issue 38): terse replies on both legs and the reverse leg in prose.

Written before any rule and before looking at a miss, from the ways people answer a multiple-
select question in a line, and the ways they name the options that are *not* the answer:

1. terse replies ("A & C", "AC", "{A, C}", "Paris, Rome", "1st and 3rd", "B only", "All.",
   "everything but B"), with punctuation, emoji, markdown, quotes and code spans around them,
   read the same on either leg (the leg is the question, the reply only names labels);
2. terse replies with a side ("Correct: A, C", "B,D are wrong"), read on the leg they answer
   and never on the other;
3. the reverse leg in prose: the incorrect ones named, the question's predicate negated or its
   antonym ("are not mammals", "composite", "fail the condition", "don't belong"), and
   complements ("all except A and C", "the rest", "the other two", "everything besides Paris"),
   also after the correct ones are named;
4. near-misses that must not read: "A-C" (a range or a pair: a person would ask, so the reader
   fails), "A or C", "A?", hedges, the correct ones only on the reverse leg (polarity
   confusion), the leg's status negated ("B and D are not incorrect")."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto", "Zurich"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["4", "7", "9", "13"],
}
MAMMALS = {
    "task": "choice",
    "question": "Which of these animals are mammals?",
    "candidates": ["Otter", "Trout", "Lemur", "Gecko", "Bison"],
}
METALS = {
    "task": "choice",
    "question": "Which of these elements are metals?",
    "candidates": ["Copper", "Sulfur", "Zinc", "Neon"],
}
EVENS = {
    "task": "choice",
    "question": "Which of these numbers are even?",
    "candidates": ["14", "9", "22", "35", "8"],
}

AC = ("A", "C")
BD = ("B", "D")
BDE = ("B", "D", "E")
ACE = ("A", "C", "E")
ALL5 = ("A", "B", "C", "D", "E")


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


# Phrasings no rule reads as expected yet (measured after this round's rules): unread
# ("AC", "ACE", "B, D = wrong", "4 and 9 are composite, so A and C."), read weakly by
# design (bare candidate texts and a bare "None." on the reverse leg, "all except B"
# anywhere). Strict: a rule that reads one must take it off this list.
KNOWN: frozenset[tuple[str, str, str]] = frozenset(
    {
        ("direct", "Paris", "AC"),
        ("reverse", "Paris", "AC"),
        ("reverse", "Paris", "Paris, Rome"),
        ("reverse", "Paris", "None."),
        ("direct", "Paris", "All."),
        ("reverse", "Paris", "All."),
        ("direct", "Paris", "ACE"),
        ("reverse", "Paris", "ACE"),
        ("reverse", "Paris", "Paris & Rome"),
        ("reverse", "Paris", "Paris and Rome."),
        ("reverse", "Paris", "paris, rome"),
        ("reverse", "Paris", "Rome, Paris"),
        ("reverse", "Paris", "Zurich"),
        ("reverse", "Paris", "none"),
        ("reverse", "Paris", "None of them."),
        ("reverse", "Paris", "None of the options."),
        ("direct", "Paris", "All of them."),
        ("reverse", "Paris", "All of them."),
        ("direct", "Paris", "all"),
        ("reverse", "Paris", "all"),
        ("direct", "Paris", "All five."),
        ("reverse", "Paris", "All five."),
        ("direct", "Paris", "everything but B"),
        ("reverse", "Paris", "everything but B"),
        ("direct", "Paris", "All but B."),
        ("reverse", "Paris", "All but B."),
        ("direct", "Paris", "All except B and D"),
        ("reverse", "Paris", "All except B and D"),
        ("direct", "Paris", "every option except E"),
        ("reverse", "Paris", "every option except E"),
        ("direct", "Paris", "A and C ✅"),
        ("reverse", "Paris", "A and C ✅"),
        ("direct", "Paris", "- A\n- C"),
        ("reverse", "Paris", "- A\n- C"),
        ("reverse", "Paris", "Wrong ones - B, D"),
        ("direct", "Paris", "Correct - A/C"),
        ("reverse", "Paris", "B, D ❌"),
        ("reverse", "Paris", "B, D, E aren't capitals"),
        ("reverse", "4", "A, C are not prime"),
        ("reverse", "14", "Odd: B, D"),
        ("reverse", "14", "9 & 35 are odd"),
        ("direct", "14", "14, 22 and 8 are even"),
        ("direct", "Otter", "A, C, E = correct"),
        ("reverse", "Otter", "B, D = wrong"),
        ("reverse", "Otter", "Non-mammals: B, D"),
        ("direct", "Copper", "✅ A, C"),
        ("reverse", "Copper", "❌ B, D"),
        ("reverse", "Copper", "Yes: A, C. No: B, D."),
        ("direct", "Copper", "A, C (the metals)"),
        ("reverse", "Copper", "The incorrect pair is B and D."),
        ("reverse", "Paris", "None of B, D, E is a capital."),
        ("reverse", "Paris", "The answer is B, D, E: those are not capitals."),
        (
            "reverse",
            "Paris",
            "Sydney is not a capital (Canberra is), Toronto isn't either (Ottawa), and Zurich "
            "isn't (Bern). So B, D, E.",
        ),
        ("reverse", "Paris", "B, D, E fail the condition."),
        ("reverse", "4", "4 (2×2) and 9 (3×3) are composite, so A and C."),
        ("reverse", "4", "The non-prime options are A and C."),
        ("reverse", "4", "A, C — not prime."),
        ("reverse", "4", "A and C do not satisfy the condition."),
        ("reverse", "4", "A and C don't meet the criterion."),
        ("reverse", "Otter", "B (a fish) and D (a reptile) are not mammals."),
        ("reverse", "Otter", "The trout is a fish and the gecko is a reptile, so B and D."),
        ("reverse", "Otter", "B and D — not mammals"),
        ("reverse", "Otter", "B and D are the ones that are not mammals."),
        ("reverse", "14", "B and D are odd numbers."),
        ("reverse", "14", "9 and 35 are odd, so B and D."),
        ("reverse", "Paris", "Every option except A and C is incorrect."),
        ("reverse", "Paris", "All except A and C are wrong."),
        ("reverse", "Paris", "All but A and C."),
        ("reverse", "Paris", "Everything besides Paris and Rome is incorrect."),
        ("reverse", "Paris", "Apart from A and C, all options are incorrect."),
        ("reverse", "4", "Everything except 7 and 13 is wrong."),
        ("reverse", "4", "All but B and D."),
        ("reverse", "Otter", "All except Otter, Lemur and Bison are wrong."),
        ("reverse", "Otter", "Everything other than A, C and E."),
        ("reverse", "Otter", "Everything but A, C, E."),
        ("reverse", "14", "All options except A, C and E are incorrect."),
        ("reverse", "Paris", "Except for Paris and Rome, none of these is a capital."),
        ("reverse", "4", "7 and 13 are the primes; 4 and 9 are the ones that don't qualify."),
        ("reverse", "14", "14, 22 and 8 are even. The rest are odd."),
        ("reverse", "4", "4 and 9"),
        ("reverse", "Otter", "Trout, Gecko"),
        ("reverse", "14", "9 and 35"),
        ("direct", "4", "A and C are not prime; B and D are."),
        ("direct", "4", "Everything except 4 and 9."),
        ("direct", "14", "All except 9 and 35 are even."),
        ("direct", "Paris", "Every option except A and C is incorrect."),
    }
)


def _param(reply: str, item: dict[str, object], leg: str, expected: object, case_id: str) -> object:
    known = (leg, str(item["candidates"][0]), reply) in KNOWN
    marks = [pytest.mark.xfail(reason="class not built", strict=True)] if known else []
    return pytest.param(reply, item, leg, expected, id=case_id, marks=marks)


# -- 1. terse replies, the same reading on either leg (CAPITALS: Paris Sydney Rome Toronto Zurich)

TERSE: list[tuple[str, tuple[str, ...] | None]] = [
    ("A & C", AC),
    ("a, c", AC),
    ("A C", AC),
    ("AC", AC),
    ("{A, C}", AC),
    ("A/C", AC),
    ("A;C", AC),
    ("A + C", AC),
    ("Paris, Rome", AC),
    ("1st and 3rd", AC),
    ("B only", ("B",)),
    ("just D", ("D",)),
    ("None.", ()),
    ("All.", ALL5),
    ("A and C (Paris, Rome)", AC),
    ("A, C.", AC),
    ("A, C!", AC),
    ("**A, C**", AC),
    ("`A, C`", AC),
    ('"A, C"', AC),
    ("'A & C'", AC),
    ("A, C 👍", AC),
    ("A and C.", AC),
    ("A, C, and E", ACE),
    ("A,C,E", ACE),
    ("ACE", ACE),
    ("(A) and (C)", AC),
    ("A) and C)", AC),
    ("[A, C]", AC),
    ("A | C", AC),
    ("A and C only", AC),
    ("Only A and C.", AC),
    ("A & C & E", ACE),
    ("Options A and C", AC),
    ("options a & c", AC),
    ("A, C (Paris and Rome)", AC),
    ("Paris & Rome", AC),
    ("Paris and Rome.", AC),
    ("paris, rome", AC),
    ("Rome, Paris", AC),
    ("Zurich", ("E",)),
    ("E only.", ("E",)),
    ("Only E", ("E",)),
    ("Just B.", ("B",)),
    ("B.", ("B",)),
    ("(B)", ("B",)),
    ("**B**", ("B",)),
    ("Answer: B", ("B",)),
    ("first and third", AC),
    ("the 1st & 3rd", AC),
    ("2nd only", ("B",)),
    ("none", ()),
    ("None of them.", ()),
    ("None of the options.", ()),
    ("All of them.", ALL5),
    ("all", ALL5),
    ("All five.", ALL5),
    ("A, B, C, D, E", ALL5),
    ("everything but B", ("A", "C", "D", "E")),
    ("All but B.", ("A", "C", "D", "E")),
    ("All except B and D", ACE),
    ("every option except E", ("A", "B", "C", "D")),
    ("A and C ✅", AC),
    ("→ A, C", AC),
    ("A, C.\n", AC),
    ("**Answer:** A, C", AC),
    ("- A\n- C", AC),
    ("A\nC", AC),
    ("A, C 🙂", AC),
    ("A&C", AC),
    ("A , C", AC),
    ("A and C!!", AC),
    ("> A, C", AC),
    ("*A* and *C*", AC),
    # near-misses: a range or pair, an alternative, a question, a hedge
    ("A-C", None),
    ("A–C", None),
    ("A or C", None),
    ("A?", None),
    ("A or C?", None),
    ("A/C?", None),
    ("Either A or C", None),
    ("A and/or C", None),
    ("B? D?", None),
    ("A, maybe C", None),
    ("A (not sure about C)", None),
    ("A, C... or E", None),
    ("A C or E", None),
    ("Not sure.", None),
    ("?", None),
    ("Not A or C", None),
    ("A, C — or just A?", None),
    ("A, possibly C", None),
]

TERSE_CASES = [
    _param(reply, CAPITALS, leg, expected, f"{leg}-{reply!r}")
    for reply, expected in TERSE
    for leg in ("direct", "reverse")
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), TERSE_CASES)
def test_terse_reply_reads_the_same_on_either_leg(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 2. terse replies with a side: (reply, item, direct reading, reverse reading) -------------

SIDED: list[tuple[str, dict[str, object], tuple[str, ...] | None, tuple[str, ...] | None]] = [
    ("Correct: A, C", CAPITALS, AC, None),
    ("Wrong ones - B, D", CAPITALS, None, BD),
    ("B,D are wrong", CAPITALS, None, BD),
    ("Right: A, C. Wrong: B, D, E.", CAPITALS, AC, BDE),
    ("Incorrect: B & D", CAPITALS, None, BD),
    ("False: B, D, E", CAPITALS, None, BDE),
    ("True: A, C", CAPITALS, AC, None),
    ("Correct - A/C", CAPITALS, AC, None),
    ("Valid: A, C", CAPITALS, AC, None),
    ("Invalid: B, D, E", CAPITALS, None, BDE),
    ("B, D ❌", CAPITALS, None, BD),
    ("Capitals: A, C", CAPITALS, AC, None),
    ("Not capitals: B, D, E", CAPITALS, None, BDE),
    ("A, C are capitals", CAPITALS, AC, None),
    ("B, D, E aren't capitals", CAPITALS, None, BDE),
    ("Correct: A, C", PRIMES, AC, None),
    ("Wrong: A, C", PRIMES, None, AC),
    ("Prime: B, D", PRIMES, BD, None),
    ("Composite: A, C", PRIMES, None, AC),
    ("A, C are not prime", PRIMES, None, AC),
    ("B & D are prime", PRIMES, BD, None),
    ("Odd: B, D", EVENS, None, BD),
    ("9 & 35 are odd", EVENS, None, BD),
    ("14, 22 and 8 are even", EVENS, ACE, None),
    ("Correct answers: A, C, E", EVENS, ACE, None),
    ("Incorrect answers: B, D", EVENS, None, BD),
    ("A, C, E = correct", MAMMALS, ACE, None),
    ("B, D = wrong", MAMMALS, None, BD),
    ("Mammals: A, C, E", MAMMALS, ACE, None),
    ("Non-mammals: B, D", MAMMALS, None, BD),
    ("Metals: Copper, Zinc", METALS, AC, None),
    ("Nonmetals: Sulfur, Neon", METALS, None, BD),
    ("✅ A, C", METALS, AC, None),
    ("❌ B, D", METALS, None, BD),
    ("Yes: A, C. No: B, D.", METALS, AC, BD),
    ("Wrong: none", METALS, None, ()),
    ("A and C are correct.", METALS, AC, None),
    ("B and D are incorrect.", METALS, None, BD),
    ("Not B or D", METALS, None, None),
    ("A, C (the metals)", METALS, AC, None),
]

SIDED_CASES = [
    _param(reply, item, leg, expected, f"{leg}-{item['candidates'][0]}-{reply!r}")
    for reply, item, direct, reverse in SIDED
    for leg, expected in (("direct", direct), ("reverse", reverse))
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), SIDED_CASES)
def test_terse_reply_with_a_side_reads_only_on_its_leg(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 3. the reverse leg in prose, and its near-misses ------------------------------------------

REVERSE: list[tuple[str, dict[str, object], tuple[str, ...] | None]] = [
    # the incorrect ones named
    ("The incorrect options are B, D and E.", CAPITALS, BDE),
    ("The wrong ones are B, D, and E.", CAPITALS, BDE),
    ("B, D and E are incorrect.", CAPITALS, BDE),
    ("Options B, D, and E are false.", CAPITALS, BDE),
    ("The invalid choices: B, D, E.", CAPITALS, BDE),
    ("Incorrect: B, D, E.", CAPITALS, BDE),
    ("A (4) and C (9) are the incorrect choices.", PRIMES, AC),
    ("The incorrect pair is B and D.", METALS, BD),
    ("Both B and D are wrong.", METALS, BD),
    ("B & D are false.", METALS, BD),
    ("Incorrect ones: Trout, Gecko.", MAMMALS, BD),
    ("The wrong answers: trout & gecko.", MAMMALS, BD),
    ("B and D are not correct.", MAMMALS, BD),
    # the predicate negated, or its antonym
    ("B, D and E are not capitals.", CAPITALS, BDE),
    ("Sydney, Toronto and Zurich are not capital cities.", CAPITALS, BDE),
    ("B (Sydney), D (Toronto) and E (Zurich) are not capitals.", CAPITALS, BDE),
    ("None of B, D, E is a capital.", CAPITALS, BDE),
    ("The answer is B, D, E: those are not capitals.", CAPITALS, BDE),
    (
        "Sydney is not a capital (Canberra is), Toronto isn't either (Ottawa), and Zurich "
        "isn't (Bern). So B, D, E.",
        CAPITALS,
        BDE,
    ),
    ("B, D, E fail the condition.", CAPITALS, BDE),
    ("B, D and E don't belong.", CAPITALS, BDE),
    ("A and C are not prime.", PRIMES, AC),
    ("4 and 9 aren't prime.", PRIMES, AC),
    ("4 and 9 are composite.", PRIMES, AC),
    ("4 (2×2) and 9 (3×3) are composite, so A and C.", PRIMES, AC),
    ("The non-prime options are A and C.", PRIMES, AC),
    ("A, C — not prime.", PRIMES, AC),
    ("Neither 4 nor 9 is prime.", PRIMES, AC),
    ("A and C do not satisfy the condition.", PRIMES, AC),
    ("A and C don't meet the criterion.", PRIMES, AC),
    ("Trout and gecko are not mammals.", MAMMALS, BD),
    ("B and D aren't mammals.", MAMMALS, BD),
    ("B (a fish) and D (a reptile) are not mammals.", MAMMALS, BD),
    ("The trout is a fish and the gecko is a reptile, so B and D.", MAMMALS, BD),
    ("B and D — not mammals", MAMMALS, BD),
    ("B and D don't belong.", MAMMALS, BD),
    ("B, D do not fit.", MAMMALS, BD),
    ("Neither the trout nor the gecko is a mammal.", MAMMALS, BD),
    ("B and D are the ones that are not mammals.", MAMMALS, BD),
    ("B and D are nonmetals.", METALS, BD),
    ("Sulfur and neon are not metals.", METALS, BD),
    ("Sulfur (B) and neon (D) aren't metals.", METALS, BD),
    ("B and D are odd numbers.", EVENS, BD),
    ("9 and 35 are odd, so B and D.", EVENS, BD),
    ("B and D are not even.", EVENS, BD),
    # complements
    ("Every option except A and C is incorrect.", CAPITALS, BDE),
    ("All except A and C are wrong.", CAPITALS, BDE),
    ("All but A and C.", CAPITALS, BDE),
    ("Everything besides Paris and Rome is incorrect.", CAPITALS, BDE),
    ("Apart from A and C, all options are incorrect.", CAPITALS, BDE),
    ("Everything except 7 and 13 is wrong.", PRIMES, AC),
    ("All but B and D.", PRIMES, AC),
    ("All except Otter, Lemur and Bison are wrong.", MAMMALS, BD),
    ("Everything other than A, C and E.", MAMMALS, BD),
    ("Everything but A, C, E.", MAMMALS, BD),
    ("All options except A, C and E are incorrect.", EVENS, BD),
    # the correct ones, then the complement
    ("A and C are capitals; the rest are not.", CAPITALS, BDE),
    ("A and C are correct, so the others are incorrect.", CAPITALS, BDE),
    ("A and C are the capitals, which leaves B, D and E as the incorrect ones.", CAPITALS, BDE),
    ("Only A and C are capitals, so the incorrect options are B, D and E.", CAPITALS, BDE),
    ("Paris and Rome are capitals. The other three are not.", CAPITALS, BDE),
    ("The correct ones are A and C; everything else is wrong.", CAPITALS, BDE),
    ("Except for Paris and Rome, none of these is a capital.", CAPITALS, BDE),
    ("7 and 13 are prime; the other two are not.", PRIMES, AC),
    ("B and D are prime, so the incorrect ones are A and C.", PRIMES, AC),
    ("7 and 13 are the primes; 4 and 9 are the ones that don't qualify.", PRIMES, AC),
    ("A, C and E are mammals; the other two aren't.", MAMMALS, BD),
    ("A, C, E are mammals, leaving B and D.", MAMMALS, BD),
    ("Otter, lemur and bison are mammals; trout and gecko are not.", MAMMALS, BD),
    ("A and C are metals, the other two are not.", METALS, BD),
    ("Copper and zinc are metals; the other two are nonmetals.", METALS, BD),
    ("Only copper and zinc are metals, so the rest, B and D, are wrong.", METALS, BD),
    ("A, C and E are even; the remaining options are incorrect.", EVENS, BD),
    ("14, 22 and 8 are even. The rest are odd.", EVENS, BD),
    ("A, C, E are right and the others wrong.", EVENS, BD),
    # terse on the reverse leg
    ("4 and 9", PRIMES, AC),
    ("Trout, Gecko", MAMMALS, BD),
    ("B/D", METALS, BD),
    ("9 and 35", EVENS, BD),
    # near-misses: the correct ones only (polarity), negated status, hedges, alternatives
    ("A and C are capitals.", CAPITALS, None),
    ("The capitals are Paris and Rome.", CAPITALS, None),
    ("The correct options are A and C.", CAPITALS, None),
    ("Answer: A, C (the capitals).", CAPITALS, None),
    ("A and C are correct.", CAPITALS, None),
    ("A, C are right", CAPITALS, None),
    ("B, D and E are capitals.", CAPITALS, None),
    ("A and C are not incorrect.", CAPITALS, None),
    ("Not B, D, or E.", CAPITALS, None),
    ("B, D, E are not incorrect.", CAPITALS, None),
    ("I'd say B and D are wrong, but maybe E too.", CAPITALS, None),
    ("B, D and maybe E.", CAPITALS, None),
    ("B and D are incorrect, E I'm not sure.", CAPITALS, None),
    ("B or D is incorrect.", CAPITALS, None),
    ("B and D are prime.", PRIMES, None),
    ("The primes are 7 and 13.", PRIMES, None),
    ("B and D are the correct answers.", PRIMES, None),
    ("7 is prime, 13 is prime.", PRIMES, None),
    ("A and C are not composite.", PRIMES, None),
    ("4 is not prime but 9 might be.", PRIMES, None),
    ("A, C and E are mammals.", MAMMALS, None),
    ("Mammals: otter, lemur, bison.", MAMMALS, None),
    ("The correct answers are A, C, E.", MAMMALS, None),
    ("B and D are not incorrect.", MAMMALS, None),
    ("B and D might not be mammals.", MAMMALS, None),
    ("Copper and zinc are metals.", METALS, None),
    ("A & C are the metals.", METALS, None),
    ("B and D are metals.", METALS, None),
    ("14, 22 and 8 are even.", EVENS, None),
    ("The even ones are A, C and E.", EVENS, None),
]

REVERSE_CASES = [
    _param(reply, item, "reverse", expected, f"{item['candidates'][0]}-{reply[:60]!r}")
    for reply, item, expected in REVERSE
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), REVERSE_CASES)
def test_reverse_leg_in_prose(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)


# -- 4. the direct leg, for the same sentences where they answer it ---------------------------

DIRECT: list[tuple[str, dict[str, object], tuple[str, ...] | None]] = [
    ("A and C are not prime.", PRIMES, None),
    ("A and C are not prime; B and D are.", PRIMES, BD),
    ("Everything except 4 and 9.", PRIMES, BD),
    ("All except 9 and 35 are even.", EVENS, ACE),
    ("A and C are capitals; the rest are not.", CAPITALS, AC),
    ("B, D and E are not capitals.", CAPITALS, None),
    ("Trout and gecko are not mammals.", MAMMALS, None),
    ("The incorrect options are B, D and E.", CAPITALS, None),
    ("Every option except A and C is incorrect.", CAPITALS, AC),
    ("Only copper and zinc are metals.", METALS, AC),
]

DIRECT_CASES = [
    _param(reply, item, "direct", expected, f"{item['candidates'][0]}-{reply[:60]!r}")
    for reply, item, expected in DIRECT
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), DIRECT_CASES)
def test_direct_leg_for_the_same_sentences(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    _check(reply, item, polarity, expected)
