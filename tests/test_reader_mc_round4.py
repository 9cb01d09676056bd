"""The reader, round 4 (issue 38): multiple-choice free text in phrasings written for this
file, before any reader change of the round, in the styles of frontier judges and small
models, on both legs. Each reply carries the reading a careful person gives it: the labels
its own leg's question is answered with (the reverse leg asks which options are
incorrect), or ``None`` where none can be told (cut before a conclusion, alternatives, a
reverse leg that answers the direct question). A reading may be marked weak where the
reply hedges; it is never another reading, and ``None`` is never read.
"""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
MAMMALS = {
    "task": "choice",
    "question": "Which of the following animals are mammals?",
    "candidates": ["Whale", "Shark", "Bat", "Penguin"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["9", "11", "15", "17"],
}
PLANET = {
    "task": "choice",
    "question": "Which planet is known as the Red Planet?",
    "candidates": ["Venus", "Mars", "Jupiter", "Saturn"],
}

D, R = "direct", "reverse"
_UNREAD = "left unread, a form the reader does not know: "
AC, BD, B = ("A", "C"), ("B", "D"), ("B",)

# (reply, item, leg, reading a careful person gives), grouped by the class they stand for
CASES: list[Any] = [
    # -- conclusions after "so" / "therefore" naming the predicate's subject
    (
        "A whale is a mammal. A shark is a fish. A bat is a mammal. A penguin is a bird. "
        "Therefore the mammals are A and C.",
        MAMMALS,
        D,
        AC,
    ),
    ("Therefore, the capitals are A and C.", CAPITALS, D, AC),
    ("Thus the primes here are B and D.", PRIMES, D, BD),
    ("So the non-mammals are B and D.", MAMMALS, R, BD),
    ("Whale: mammal. Shark: fish. Bat: mammal. Penguin: bird. So A and C.", MAMMALS, D, AC),
    ("Whale: mammal. Shark: fish. Bat: mammal. Penguin: bird. So B and D.", MAMMALS, R, BD),
    (
        "Whales and bats are mammals. Sharks and penguins are not. So the answer is A and C.",
        MAMMALS,
        D,
        AC,
    ),
    ("11 and 17 are prime, so B and D.", PRIMES, D, BD),
    ("9 and 15 are not prime, so A and C.", PRIMES, R, ("A", "C")),
    ("Rome and Paris are the capitals here, so the answer is A and C.", CAPITALS, D, AC),
    # -- conclusions naming candidate texts only
    ("So the capitals are Paris and Rome.", CAPITALS, D, AC),
    (
        "Paris is the capital of France and Rome the capital of Italy; Sydney and Toronto are "
        "not capitals. So the capitals are Paris and Rome.",
        CAPITALS,
        D,
        AC,
    ),
    ("Therefore, the cities that are not capitals are Sydney and Toronto.", CAPITALS, R, BD),
    ("The mammals are the whale and the bat.", MAMMALS, D, AC),
    # -- the reverse leg answering the direct question: never read
    ("So the capitals are Paris and Rome.", CAPITALS, R, None),
    ("Paris and Rome are capitals, so A and C.", CAPITALS, R, None),
    ("11 and 17 are prime, so B and D.", PRIMES, R, None),
    ("Whales and bats are mammals, so A and C.", MAMMALS, R, None),
    ("The mammals are A and C.", MAMMALS, R, None),
    # -- hedged options next to a firm conclusion
    (
        "The answer is A and C. C is less clear, since bats fly, but they are mammals.",
        MAMMALS,
        D,
        AC,
    ),
    ("Answer: A, C. (D is arguably important, but it is not a capital.)", CAPITALS, D, AC),
    ("A is definitely correct, and C arguably is too. Final answer: A, C.", CAPITALS, D, AC),
    ("Final answer: A and C, although C is less certain.", MAMMALS, D, AC),
    ("Probably A and C.", CAPITALS, D, AC),
    ("Either A or C.", CAPITALS, D, None),
    ("A and C, or maybe just A.", CAPITALS, D, None),
    # -- cut before a conclusion (failed) or after one (read)
    ("Let's check each city. Paris is the capital of France. Sydney is", CAPITALS, D, None),
    (
        "Option A: Paris is the capital of France, so A is correct.\nOption B: Sydney is",
        CAPITALS,
        D,
        None,
    ),
    ("Paris is a capital and so is Rome. So the answer is", CAPITALS, D, None),
    (
        "Paris and Rome are capitals; Sydney and Toronto are not.\n\nThe answer is A and C."
        "\n\nTo explain further, Sydney is the largest city in",
        CAPITALS,
        D,
        AC,
    ),
    (
        "Sydney is not a capital (Canberra is). Toronto is not the capital of Canada. So the "
        "incorrect options are B and D. Paris is the",
        CAPITALS,
        R,
        BD,
    ),
    ("Answer: A, C\n\nExplanation: Paris is the capital of France and Rome is", CAPITALS, D, AC),
    # -- markdown bullets with status words, marks, tables
    (
        "- **A (Paris):** correct\n- **B (Sydney):** incorrect\n- **C (Rome):** correct\n"
        "- **D (Toronto):** incorrect",
        CAPITALS,
        D,
        AC,
    ),
    (
        "- **A (Paris):** correct\n- **B (Sydney):** incorrect\n- **C (Rome):** correct\n"
        "- **D (Toronto):** incorrect",
        CAPITALS,
        R,
        BD,
    ),
    (
        "* A — ✅ capital of France\n* B — ❌ Canberra is the capital\n* C — ✅ capital of Italy"
        "\n* D — ❌ Ottawa is the capital",
        CAPITALS,
        D,
        AC,
    ),
    ("Paris ✓ Sydney ✗ Rome ✓ Toronto ✗", CAPITALS, D, AC),
    ("Paris ✓ Sydney ✗ Rome ✓ Toronto ✗", CAPITALS, R, BD),
    ("A: ✔\nB: ✘\nC: ✔\nD: ✘", CAPITALS, D, AC),
    (
        "| Option | City | Capital? |\n|---|---|---|\n| A | Paris | ✅ |\n| B | Sydney | ❌ |\n"
        "| C | Rome | ✅ |\n| D | Toronto | ❌ |\n\n**Answer: A, C**",
        CAPITALS,
        D,
        AC,
    ),
    (
        "| Option | Verdict |\n|---|---|\n| A | correct |\n| B | incorrect |\n| C | correct |\n"
        "| D | incorrect |",
        CAPITALS,
        R,
        BD,
    ),
    (
        "| Option | Correct? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |",
        CAPITALS,
        D,
        AC,
    ),
    (
        "1. A — Paris: capital ✔\n2. B — Sydney: not a capital\n3. C — Rome: capital ✔\n"
        "4. D — Toronto: not a capital\n\nAnswer: A, C",
        CAPITALS,
        D,
        AC,
    ),
    (
        "**Correct options: A and C**\n\n- Paris is the capital of France.\n- Rome is the "
        "capital of Italy.\n- Sydney is not Australia's capital (Canberra is).\n- Toronto is "
        "not Canada's capital (Ottawa is).",
        CAPITALS,
        D,
        AC,
    ),
    (
        "**Incorrect options: B and D**\n\n- Sydney: Australia's capital is Canberra.\n"
        "- Toronto: Canada's capital is Ottawa.",
        CAPITALS,
        R,
        BD,
    ),
    # -- lists in every syntax
    ("**Answer:** (A), (C)", CAPITALS, D, AC),
    ("**Answer:** (B), (D)", CAPITALS, R, BD),
    ("A & C", CAPITALS, D, AC),
    ("B & D", CAPITALS, R, BD),
    ("A/C are correct.", CAPITALS, D, AC),
    ("B/D", CAPITALS, R, BD),
    ("The correct options are options A and C.", CAPITALS, D, AC),
    ("Options A and C are the capitals.", CAPITALS, D, AC),
    ("Options B and D are not capitals.", CAPITALS, R, BD),
    ("Both A and C.", CAPITALS, D, AC),
    ("Both A and C are capitals.", CAPITALS, D, AC),
    ("**Final answer: A and C**", CAPITALS, D, AC),
    ("The answer is: A, C", CAPITALS, D, AC),
    ("Answer: A,C", CAPITALS, D, AC),
    ("The correct answers are A (Paris) & C (Rome).", CAPITALS, D, AC),
    ("Sydney (B) and Toronto (D) are the incorrect ones.", CAPITALS, R, BD),
    ("Capitals: Paris (A), Rome (C). Not capitals: Sydney (B), Toronto (D).", CAPITALS, D, AC),
    ("Capitals: Paris (A), Rome (C). Not capitals: Sydney (B), Toronto (D).", CAPITALS, R, BD),
    ("Correct options: A and C. Incorrect options: B and D.", CAPITALS, D, AC),
    ("Correct options: A and C. Incorrect options: B and D.", CAPITALS, R, BD),
    ("The answer is A and C, not B or D.", CAPITALS, D, AC),
    ("B and D, not A or C.", CAPITALS, R, BD),
    ('{"answer": ["A", "C"]}', CAPITALS, D, AC),
    ('{"incorrect": ["B", "D"], "correct": ["A", "C"]}', CAPITALS, R, BD),
    # -- exception and none
    ("All except B and D.", CAPITALS, D, AC),
    ("All of them except B and D are capitals.", CAPITALS, D, AC),
    ("All but B and D are capitals.", CAPITALS, D, AC),
    ("All except A and C are incorrect.", CAPITALS, R, BD),
    ("Everything except A and C is wrong.", CAPITALS, R, BD),
    ("None of them.", PLANET, R, ()),
    ("None of them are incorrect.", CAPITALS, R, ()),
    # -- a note after the answer naming other labels
    (
        "The answer is A and C.\n\nNote: B (Sydney) and D (Toronto) are large cities but not "
        "capitals.",
        CAPITALS,
        D,
        AC,
    ),
    ("Answer: B, D\n\nNote: A and C are capitals, so they are correct.", CAPITALS, R, BD),
    ("Final answer: A, C. (B and D are common distractors.)", CAPITALS, D, AC),
    ("Answer: A, C — Paris and Rome are the capitals of France and Italy.", CAPITALS, D, AC),
    ("Sydney is the largest city but not the capital. Answer: A and C", CAPITALS, D, AC),
    ("Paris and Rome are capitals; Sydney and Toronto are not. Answer: B, D", CAPITALS, R, BD),
    ("Paris and Rome are capitals. Answer: B, D", CAPITALS, R, BD),
    # -- self-corrections
    (
        "The answer is A and B. Wait — Sydney is not the capital of Australia; Canberra is. So "
        "the answer is A and C.",
        CAPITALS,
        D,
        AC,
    ),
    ("A, B, C. Wait, no — B is wrong. So the answer is A and C.", CAPITALS, D, AC),
    (
        "Incorrect: B. Hmm, wait — Toronto isn't a capital either. So the incorrect ones are B "
        "and D.",
        CAPITALS,
        R,
        BD,
    ),
    ("B and D. Actually, on reflection, the answer is A and C.", CAPITALS, D, AC),
    # -- first-person picks and candidate texts beside labels
    ("I'd go with A and C.", CAPITALS, D, AC),
    ("My pick: B", PLANET, D, B),
    ("my pick: A and C", CAPITALS, D, AC),
    ("The right ones would be A and C.", CAPITALS, D, AC),
    ("The wrong ones would be B and D.", CAPITALS, R, BD),
    ("I'd say A and C are the capitals.", CAPITALS, D, AC),
    ("Rome (C) and Paris (A).", CAPITALS, D, AC),
    ("C — Rome\nA — Paris", CAPITALS, D, AC),
    ("B — Mars", PLANET, D, B),
    ("Mars (B)", PLANET, D, B),
    pytest.param(
        "I'd go with A, C and D.",
        PLANET,
        R,
        ("A", "C", "D"),
        marks=pytest.mark.xfail(
            strict=True,
            reason="a first-person pick names no side: on the reverse leg it may be the direct "
            "question's answer, so it is read as the direct side's (failed, polarity-confused)",
        ),
    ),
]

# A second batch, written after the round's first rules and before running it: how the
# rules carry to phrasings they were not written for.
NOUNS = {
    "task": "choice",
    "question": "Which of these words are nouns?",
    "candidates": ["table", "quickly", "river", "blue"],
}
LATER: list[Any] = [
    ("**Verdict:** A and C are capitals; B and D are not.", CAPITALS, D, AC),
    ("**Verdict:** A and C are capitals; B and D are not.", CAPITALS, R, BD),
    ("Hence, the nouns are A and C.", NOUNS, D, AC),
    ("Hence, the nouns are table and river.", NOUNS, D, AC),
    ("The non-nouns are B and D.", NOUNS, R, BD),
    ("The words that are not nouns are quickly and blue.", NOUNS, R, BD),
    ("The nouns are A and C.", NOUNS, R, None),
    ("table ✓ quickly ✗ river ✓ blue ✗", NOUNS, D, AC),
    ("table ✓ quickly ✗ river ✓ blue ✗", NOUNS, R, BD),
    ("Nouns: table (A), river (C)", NOUNS, D, AC),
    ("Not nouns: quickly (B), blue (D)", NOUNS, R, BD),
    ("A, C\n\nBoth name things; B is an adverb and D an adjective.", NOUNS, D, AC),
    ("**C. Rome**\n\nRome has been Italy's capital since 1871.", PLANET, D, None),
    ("A and C (both name things).", NOUNS, D, AC),
    ("Selected: A, C", CAPITALS, D, AC),
    ("A, C, not B.", CAPITALS, D, AC),
    ("Most likely A and C.", CAPITALS, D, AC),
    ("Perhaps A and C.", CAPITALS, D, None),
    (
        "Answer: B, D. Hmm, actually Rome is a capital, so the incorrect ones are B and D only.",
        CAPITALS,
        R,
        BD,
    ),
    ("A — Paris\nB — Sydney\nC — Rome\nD — Toronto", CAPITALS, D, None),
    ("C) Rome\nA) Paris", CAPITALS, D, AC),
    ("I think the capitals are A and C.", CAPITALS, D, AC),
    ("I don't think the capitals are A and C.", CAPITALS, D, None),
    ("If the capitals are A and C, then B is not one.", CAPITALS, D, None),
    ("Table and river are nouns, so A and C.", NOUNS, D, AC),
    ("Table and river are nouns, so A and C.", NOUNS, R, None),
    # what the round's rules must not read
    ("A (or C)", CAPITALS, D, None),
    ("A) Paris\n\nB) Sydney is the largest city.", CAPITALS, D, None),
    ("Options B and D.\n\nWait, actually the answer is A and C.", CAPITALS, D, AC),
    ("B and D.\n\nExplanation: A and C are capitals.", CAPITALS, D, None),
    ("C — Rome\nA — Sydney", CAPITALS, D, None),
    ("A — Paris\nB — Sydney", CAPITALS, D, None),
    ("The mammals are not A and C.", MAMMALS, D, None),
    ("If the mammals are A and C, then B is a fish.", MAMMALS, D, None),
    ("Animals that are not mammals are B and D.", MAMMALS, D, None),
    # the predicate's antonym (written with the rule)
    ("9 and 15 are composite.", PRIMES, R, ("A", "C")),
    ("9 and 15 are composite.", PRIMES, D, None),
    ("A is composite; so is C. B and D are prime.", PRIMES, D, BD),
]

# A third batch, written after the rules above and run once before the fixes it led to
# (19 of 30 read then, 0 confident misreads).
THIRD: list[Any] = [
    ("The correct choices: A and C.", CAPITALS, D, AC),
    ("Final Answer: (A) Paris, (C) Rome", CAPITALS, D, AC),
    ("## Answer\nA, C", CAPITALS, D, AC),
    ("## Final answer\n\n- A\n- C", CAPITALS, D, AC),
    ("Answer: options A and C", CAPITALS, D, AC),
    ("The answer: A & C.", CAPITALS, D, AC),
    ("Both A and C are correct; B and D are incorrect.", CAPITALS, R, BD),
    ("Only A and C are capitals.", CAPITALS, D, AC),
    ("Only A and C are capitals.", CAPITALS, R, None),
    ("Options A and C are correct, the others are not.", CAPITALS, R, BD),
    ("Paris (A) and Rome (C) are capitals. Answer: A, C", CAPITALS, D, AC),
    ("✅ A. Paris\n❌ B. Sydney\n✅ C. Rome\n❌ D. Toronto", CAPITALS, D, AC),
    ("✅ A. Paris\n❌ B. Sydney\n✅ C. Rome\n❌ D. Toronto", CAPITALS, R, BD),
    ("- [x] A\n- [ ] B\n- [x] C\n- [ ] D", CAPITALS, D, AC),
    ('```json\n{"answer": ["A", "C"]}\n```', CAPITALS, D, AC),
    pytest.param(
        "11 and 17 (B and D).",
        PRIMES,
        D,
        BD,
        marks=pytest.mark.xfail(
            strict=True,
            reason=_UNREAD + "texts, their labels restated in a bracket after them",
        ),
    ),
    ("The prime numbers are 11 and 17, so the answer is B and D.", PRIMES, D, BD),
    ("Mars, option B.", PLANET, D, ("B",)),
    pytest.param(
        "It's B, Mars.",
        PLANET,
        D,
        ("B",),
        marks=pytest.mark.xfail(strict=True, reason=_UNREAD + "'It's B'"),
    ),
    ("None of the options is a capital.", CAPITALS, D, ()),
    ("All of them are capitals except Sydney and Toronto.", CAPITALS, D, AC),
    ("A and C. B and D are not capitals.", CAPITALS, D, AC),
    ("A and C — Sydney and Toronto are not capitals.", CAPITALS, D, AC),
    pytest.param(
        "So, A and C it is.",
        CAPITALS,
        D,
        AC,
        marks=pytest.mark.xfail(strict=True, reason=_UNREAD + "'X it is'"),
    ),
    ("Answer: A and C (Paris and Rome)", CAPITALS, D, AC),
    ("Whales (A) and bats (C).", MAMMALS, D, AC),
    ("The answer should be A and C.", CAPITALS, D, AC),
    ("My answer is A and C.", CAPITALS, D, AC),
    ("Correct answer(s): A, C", CAPITALS, D, AC),
    ("Incorrect answer(s): B, D", CAPITALS, R, BD),
]

# A fourth batch, written after the rules above and run once before the fixes it led to
# (20 of 25 read then; one confident misread, the reverse leg's yes/no lines below).
EVAL = (
    "Let's evaluate each option:\n\n"
    "**A) Paris** — Paris is the capital of France. ✅\n"
    "**B) Sydney** — Canberra is Australia's capital. ❌\n"
    "**C) Rome** — Rome is Italy's capital. ✅\n"
    "**D) Toronto** — Ottawa is Canada's capital. ❌\n\n"
)
LINES = (
    "A) Correct. Paris is the capital of France.\n"
    "B) Incorrect. The capital of Australia is Canberra.\n"
    "C) Correct. Rome is the capital of Italy.\n"
    "D) Incorrect. The capital of Canada is Ottawa."
)
FOURTH: list[Any] = [
    (EVAL + "**Correct answers: A, C**", CAPITALS, D, AC),
    (EVAL + "**Incorrect answers: B, D**", CAPITALS, R, BD),
    (
        (
            "Step 1: Paris is France's capital. Step 2: Rome is Italy's capital. Thus, "
            "options (A) and (C) are correct."
        ),
        CAPITALS,
        D,
        AC,
    ),
    (
        "The capitals in the list are Paris and Rome, which correspond to options A and C.",
        CAPITALS,
        D,
        AC,
    ),
    (
        (
            "Looking at each: Paris — capital of France (correct). Sydney — not a capital "
            "(incorrect). Rome — capital of Italy (correct). Toronto — not a capital "
            "(incorrect).\n\nTherefore: A, C"
        ),
        CAPITALS,
        D,
        AC,
    ),
    ("Answer: A, C\nConfidence: high", CAPITALS, D, AC),
    (LINES, CAPITALS, D, AC),
    (LINES, CAPITALS, R, BD),
    ("The correct options are:\n1. A (Paris)\n2. C (Rome)", CAPITALS, D, AC),
    ("I would select options A and C.", CAPITALS, D, AC),
    ("Among the options, only Paris and Rome are capitals (A and C).", CAPITALS, D, AC),
    ("The options that are not capitals are B (Sydney) and D (Toronto).", CAPITALS, R, BD),
    ("Answer: B,D", CAPITALS, R, BD),
    ("B. Sydney\nD. Toronto", CAPITALS, R, BD),
    ("**A** ✔️ **C** ✔️", CAPITALS, D, AC),
    ("A: Yes, B: No, C: Yes, D: No", CAPITALS, D, AC),
    ("Capitals: A, C\nNot capitals: B, D", CAPITALS, R, BD),
    (
        (
            "The answer is A and C because Paris and Rome are capitals, while Sydney and "
            "Toronto are not."
        ),
        CAPITALS,
        D,
        AC,
    ),
    ("Final: A, C", CAPITALS, D, AC),
    ("Whale - yes\nShark - no\nBat - yes\nPenguin - no", MAMMALS, D, AC),
    ("The whale and the bat (A, C) are mammals.", MAMMALS, D, AC),
    ("Mammals: whale, bat.", MAMMALS, D, AC),
    ("Not mammals: shark, penguin.", MAMMALS, R, BD),
]


def _id(case: Any) -> str:
    reply, _, leg, _ = case.values if hasattr(case, "values") else case
    return f"{leg}:{reply[:40]}"


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), CASES, ids=map(_id, CASES))
def test_read_as_a_careful_person_reads(
    reply: str, item: dict[str, Any], leg: str, expected: tuple[str, ...] | None
) -> None:
    reading = read_reply(reply, item, polarity=leg)
    if expected is None:
        assert reading.status.value == "failed", reading
    else:
        assert reading.status.value != "failed", reading
        assert reading.labels == expected, reading


@pytest.mark.parametrize(
    ("reply", "item"),
    [
        ("Paris and Rome are capitals, so A and C.", CAPITALS),
        ("11 and 17 are prime, so B and D.", PRIMES),
        ("Whales and bats are mammals, so A and C.", MAMMALS),
    ],
)
def test_a_reverse_leg_concluding_on_the_direct_predicate_is_marked(
    reply: str, item: dict[str, Any]
) -> None:
    reading = read_reply(reply, item, polarity="reverse")
    assert reading.status.value == "failed" and reading.polarity_confusion, reading


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), LATER, ids=map(_id, LATER))
def test_a_later_batch_reads_as_a_careful_person_reads(
    reply: str, item: dict[str, Any], leg: str, expected: tuple[str, ...] | None
) -> None:
    test_read_as_a_careful_person_reads(reply, item, leg, expected)


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), THIRD, ids=map(_id, THIRD))
def test_a_third_batch_reads_as_a_careful_person_reads(
    reply: str, item: dict[str, Any], leg: str, expected: tuple[str, ...] | None
) -> None:
    test_read_as_a_careful_person_reads(reply, item, leg, expected)


@pytest.mark.parametrize(("reply", "item", "leg", "expected"), FOURTH, ids=map(_id, FOURTH))
def test_a_fourth_batch_reads_as_a_careful_person_reads(
    reply: str, item: dict[str, Any], leg: str, expected: tuple[str, ...] | None
) -> None:
    test_read_as_a_careful_person_reads(reply, item, leg, expected)


@pytest.mark.parametrize(
    ("reply", "item"),
    [
        ("Whale - yes\nShark - no\nBat - yes\nPenguin - no", MAMMALS),
        ("A: Yes, B: No, C: Yes, D: No", CAPITALS),
        ("Yes: A, C. No: B, D.", CAPITALS),
    ],
)
def test_yes_and_no_on_the_reverse_leg_of_a_predicate_question_are_never_confident(
    reply: str, item: dict[str, Any]
) -> None:
    # "yes" is read as the leg's ("yes, it is incorrect"), but may answer the question's
    # predicate ("yes, a mammal"): whatever is read is marked
    reading = read_reply(reply, item, polarity="reverse")
    assert reading.status.value == "failed" or reading.weak or reading.polarity_confusion
