"""The reader, round 5 (issue 38, hold-out F: small open-weights instruct judges). Classes of
that set's misses, each with phrasings of our own, both legs where one applies:

1. a corrected answer under its own heading or key replaces the answer before it;
2. a reverse leg's answer followed by the direct question's reasoning about the same
   options is no confident reading;
3. a conclusion naming other options than the final answer after it: no verdict;
4. the negation-explanation wording ("the options that do not answer the question are ..."):
   the reverse leg's own words, the other side on the direct leg;
5. boxed lists (``$\\boxed{A, C, E}$``);
6. an answer heading with the answer on the lines below it;
7. an option's text before its label ("**Emma** (A)", "A. Emma and C. Persuasion");
8. the answer line given twice (answer first, then repeated after the explanation).

None is a hold-out reply; they were written before the rules ran, with near-misses that
must stay failed or marked."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

METALS = {
    "task": "choice",
    "question": "Which of these elements are metals?",
    "candidates": ["Iron", "Oxygen", "Copper", "Neon", "Zinc"],
}
EVEN = {
    "task": "choice",
    "question": "Which of these numbers are even?",
    "candidates": ["14", "21", "36", "49"],
}
SUM = {
    "task": "choice",
    "question": "What is 9 + 8?",
    "candidates": ["16", "17", "18", "19"],
}
PLANET = {
    "task": "choice",
    "question": "Which planet is the largest?",
    "candidates": ["Mars", "Jupiter", "Earth", "Venus"],
}
AUSTEN = {
    "task": "choice",
    "question": "Which of these novels were written by Jane Austen?",
    "candidates": ["Emma", "Dracula", "Persuasion", "Ulysses"],
}

NO = None
"""Expected: no confident reading (failed, weak or marked as polarity confusion)."""


def _check(
    reply: str, item: dict[str, object], polarity: str, expected: tuple[str, ...] | None
) -> None:
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    got = (reading.labels, reading.status.value, marked)
    if expected is None:
        assert reading.status.value == "failed" or marked, got
    else:
        assert got == (expected, "ok", False), got


_NO_PREDICATE = "no predicate is read from 'were written by ...': the conclusion gives no side"
_WEAK = "read right, but weak: another stage leaves the reading unsure"
_LEFT = {
    "with-and": "a boxed list joined by \\text{ and }: not read",
    "austen-disagree": _NO_PREDICATE,
    "reverse-disagree": _NO_PREDICATE,
    **dict.fromkeys(
        (
            "after-bold-answer", "display", "near-explanation-heading", "bullets",
            "then-the-right-one", "bold-not-bullets", "final-after-answer",
            "austen-own-reasoning", "bullets-under-heading", "option-word",
            "values-under-heading",
        ),
        _WEAK,
    ),
}  # fmt: skip
"""Phrasings the round left as they read, by id: each fails today (strict)."""


def _table(*rows: tuple[str, str, dict[str, object], str, tuple[str, ...] | None]) -> list:
    return [
        pytest.param(
            reply,
            item,
            leg,
            want,
            id=name,
            marks=[pytest.mark.xfail(strict=True, reason=_LEFT[name])] if name in _LEFT else [],
        )
        for name, reply, item, leg, want in rows
    ]


CORRECTED = _table(
    (
        "heading-bold-text",
        "## Answer\n**Mars**\n\nMars is a big planet.\n\nHmm, actually, that's not right. "
        "**Jupiter** is the largest.\n\n## Corrected Answer\n**(B) Jupiter**",
        PLANET,
        "direct",
        ("B",),
    ),
    (
        "heading-correction",
        "### Answer\n(A) Mars\n\n### Correction\nThe largest planet is Jupiter, so the answer is "
        "(B).",
        PLANET,
        "direct",
        ("B",),
    ),
    ("bold-keys", "**Answer:** C\n\n**Corrected answer:** B", PLANET, "direct", ("B",)),
    (
        "revised-heading",
        "## Final Answer\nA and D\n\n## Revised Answer\nA and C",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "updated-key",
        "Answer: (A) Emma\n\nUpdated answer: (A) Emma and (C) Persuasion",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "reverse-corrected",
        "## Answer\n**(B) 17**\n\nWait, 17 is the sum, so B is right.\n\n## Corrected Answer\n"
        "**(A) 16, (C) 18, (D) 19**",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "texts-corrected",
        "## Answer\nEmma\n\n## Corrected Answer\nEmma and Persuasion",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "initial-then-corrected",
        "**Initial answer:** A\n**Corrected answer:** B",
        PLANET,
        "direct",
        ("B",),
    ),
    (
        "corrected-metals",
        "## Answer\n**(A) Iron** and **(C) Copper**\n\nI forgot zinc.\n\n## Corrected Answer\n"
        "**(A) Iron**, **(C) Copper** and **(E) Zinc**",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    (
        "near-explanation-heading",
        "## Answer\n**(B) Jupiter**\n\n## Explanation\nMars (A) and Earth (C) are much smaller.",
        PLANET,
        "direct",
        ("B",),
    ),
    ("near-corrected-empty", "## Answer\n(A) Mars\n\n## Corrected Answer\n", PLANET, "direct", NO),
)

REVERSED = _table(
    (
        "even-direct-reasoning",
        "**Answer:** (A) and (C)\n\n14 and 36 are even.",
        EVEN,
        "reverse",
        NO,
    ),
    (
        "even-own-reasoning",
        "**Answer:** (B) and (D)\n\n21 and 49 are not even.",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "metals-direct-reasoning",
        "Answer: A, C, E\n\nIron, copper and zinc are metals.",
        METALS,
        "reverse",
        NO,
    ),
    (
        "metals-own-reasoning",
        "Answer: B, D\n\nOxygen and neon are not metals.",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    (
        "austen-direct-reasoning",
        "**Answer:** (A) and (C)\n\nEmma and Persuasion were written by Jane Austen.",
        AUSTEN,
        "reverse",
        NO,
    ),
    (
        "austen-own-reasoning",
        "**Answer:** (B) and (D)\n\nDracula and Ulysses were not written by Jane Austen.",
        AUSTEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "sum-own-reasoning",
        "Answer: (A), (C), (D)\n\n9 + 8 = 17, so these are wrong.",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "even-direct-leg",
        "**Answer:** (A) and (C)\n\n14 and 36 are even.",
        EVEN,
        "direct",
        ("A", "C"),
    ),
    (
        "even-both-sides",
        "**Answer:** (B) and (D)\n\n14 and 36 are even; 21 and 49 are not.",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "metals-direct-reasoning-bold",
        "**Answer:** (A), (C) and (E)\n\nIron, copper and zinc are all metals.",
        METALS,
        "reverse",
        NO,
    ),
)

CONCLUSION = _table(
    (
        "metals-disagree",
        "**Step 1:** Iron is a metal.\n**Step 2:** Oxygen is a gas.\n\n**Conclusion:** The metals "
        "are iron, copper and zinc.\n\n**Final Answer:** A, C",
        METALS,
        "direct",
        NO,
    ),
    (
        "metals-agree",
        "**Conclusion:** The metals are iron, copper and zinc.\n\n**Final Answer:** A, C, E",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    (
        "even-disagree",
        "In conclusion, the even numbers are 14 and 36.\n\nFinal answer: A, B",
        EVEN,
        "direct",
        NO,
    ),
    (
        "even-agree",
        "In conclusion, the even numbers are 14 and 36.\n\nFinal answer: A, C",
        EVEN,
        "direct",
        ("A", "C"),
    ),
    (
        "austen-disagree",
        "**Conclusion:** Emma and Persuasion are by Austen.\n\n**Final Answer:** (A) and (D)",
        AUSTEN,
        "direct",
        NO,
    ),
    (
        "reverse-disagree",
        "**Conclusion:** Dracula and Ulysses were not written by Austen.\n\n**Final Answer:** B, C",
        AUSTEN,
        "reverse",
        NO,
    ),
    (
        "reverse-agree",
        "**Conclusion:** Dracula and Ulysses were not written by Austen.\n\n**Final Answer:** B, D",
        AUSTEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "planet-disagree",
        "**Conclusion:** Jupiter is the largest planet.\n\n**Final Answer:** (C)",
        PLANET,
        "direct",
        NO,
    ),
    (
        "planet-agree",
        "**Conclusion:** Jupiter is the largest planet.\n\n**Final Answer:** (B)",
        PLANET,
        "direct",
        ("B",),
    ),
    (
        "revised-between",
        "**Conclusion:** The metals are iron and copper.\n\nWait, zinc is a metal too.\n\n**Final "
        "Answer:** A, C, E",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
)

NEG_EXP = _table(
    (
        "labels",
        "The options that do not answer the question are A, C and D.",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "label-text-lines",
        "9 + 8 = 17, so the options that do not answer the question are:\n\nA. 16\nC. 18\nD. 19",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "bare-values",
        "Sure! 9 + 8 = 17.\n\nSo the options that do not answer the question are **16, 18, and "
        "19**.",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "dont-labels-texts",
        "The options that don't answer the question are (B) Oxygen and (D) Neon.",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    ("key", "Options that do not answer the question: B, D", EVEN, "reverse", ("B", "D")),
    (
        "which-bold-texts",
        "The options which do not answer the question are **Dracula** and **Ulysses**.",
        AUSTEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "then-the-right-one",
        "The options that do not answer the question are **(A) 16**, **(C) 18**, and **(D) 19**. "
        "(B) 17 is the correct sum.",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "correctly-values",
        "The options that do not correctly answer the question are 21 and 49.",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "bullets-then-note",
        "The options that do not answer the question are:\n\n* **B) Oxygen**\n* **D) Neon**\n\n"
        "Both are gases, not metals.",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    (
        "label-lines-reason",
        "The options that do not answer the question are:\n\nB. 21\nD. 49\n\nBoth are odd "
        "numbers, so they cannot be even.",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "bold-not-bullets",
        "### Conclusion\nThe numbers that are **not** even (the incorrect options) are:\n\n* **B) "
        "21**\n* **D) 49**\n\nLet me know if you'd like more help! 😊",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "near-reverse-answer-the-question",
        "The options that answer the question are A and C.",
        EVEN,
        "reverse",
        NO,
    ),
    (
        "near-direct-do-not",
        "The options that do not answer the question are B and D.",
        EVEN,
        "direct",
        NO,
    ),
    (
        "direct-answer-the-question",
        "The options that answer the question are A and C.",
        EVEN,
        "direct",
        ("A", "C"),
    ),
)

BOXED = _table(
    (
        "final-answer-hope",
        "Final Answer: The final answer is $\\boxed{A, C, E}$. I hope it is correct.",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    ("bare", "$\\boxed{A, C}$", EVEN, "direct", ("A", "C")),
    ("sentence", "14 and 36 are even. The answer is $\\boxed{A,C}$.", EVEN, "direct", ("A", "C")),
    (
        "after-bold-answer",
        "**Answer:** (A), (C), and (E)\n\nFinal Answer: The final answer is $\\boxed{A, C, E}$. I "
        "hope it is correct.",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    ("text-inside", "The answer is $\\boxed{\\text{A, C}}$.", EVEN, "direct", ("A", "C")),
    (
        "reverse-hope",
        "Final Answer: The final answer is $\\boxed{B, D}$. I hope it is correct.",
        EVEN,
        "reverse",
        ("B", "D"),
    ),
    ("display", "21 and 49 are odd.\n\n\\[\\boxed{B, D}\\]", EVEN, "reverse", ("B", "D")),
    ("parenthesised", "The final answer is $\\boxed{(A), (C)}$.", EVEN, "direct", ("A", "C")),
    (
        "with-and",
        "Final Answer: The final answer is $\\boxed{A \\text{ and } C}$. I hope it is correct.",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "near-disagrees-with-answer",
        "**Answer:** (A) and (C)\n\nFinal Answer: The final answer is $\\boxed{A, D}$. I hope it "
        "is correct.",
        EVEN,
        "direct",
        NO,
    ),
)

HEADED = _table(
    (
        "final-answer-bold-label-text",
        "Let's think step by step.\n\n9 + 8 = 17.\n\n### Final Answer\n**B. 17**",
        SUM,
        "direct",
        ("B",),
    ),
    ("answer-bold-paren", "## Answer\n**B) 17**", SUM, "direct", ("B",)),
    ("final-answer-label", "9 + 8 = 17.\n\n### Final Answer\nB", SUM, "direct", ("B",)),
    (
        "two-bold",
        "## Final Answer\n\n**A. Emma** and **C. Persuasion**",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "list-line",
        "### Final Answer\n(A) Iron, (C) Copper, (E) Zinc",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    (
        "reverse",
        "9 + 8 = 17.\n\n### Final Answer\n**A. 16, C. 18, D. 19**",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    ("value", "9 + 8 = 17.\n\n### Answer\n\n**17**", SUM, "direct", ("B",)),
    (
        "with-closer",
        "### Final Answer\n**B. Jupiter**\n\nI hope this helps!",
        PLANET,
        "direct",
        ("B",),
    ),
    ("bullets", "### Final Answer\n* **A. 14**\n* **C. 36**", EVEN, "direct", ("A", "C")),
    ("near-wrong-heading", "### Incorrect options\n**B. 21**\n**D. 49**", EVEN, "direct", NO),
)

TEXT_FIRST = _table(
    (
        "bullets-under-heading",
        "## Answer\n\nThe novels written by Jane Austen are:\n\n* **Emma** (A)\n* **Persuasion** "
        "(C)\n\n## Explanation\nDracula is by Bram Stoker and Ulysses is by James Joyce.\n\nLet "
        "me know if you want more! 📚",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    ("sentence-bold", "**Jupiter** (B) is the largest planet.", PLANET, "direct", ("B",)),
    ("answer-is", "The answer is **Jupiter** (B).", PLANET, "direct", ("B",)),
    (
        "three-in-prose",
        "Iron (A), copper (C) and zinc (E) are metals.",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    (
        "reverse-incorrect",
        "The incorrect options are **Oxygen** (B) and **Neon** (D).",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    (
        "option-word",
        "Austen wrote:\n* Emma (option A)\n* Persuasion (option C)",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "marks",
        "* **Emma** (A) ✅\n* **Dracula** (B) ❌\n* **Persuasion** (C) ✅\n* **Ulysses** (D) ❌",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "values-under-heading",
        "## Answer\n\nThe even numbers are:\n\n* **14** (A)\n* **36** (C)\n\n## Explanation\n14 = "
        "2 × 7 and 36 = 2 × 18. 21 and 49 are odd.",
        EVEN,
        "direct",
        ("A", "C"),
    ),
    (
        "reverse-bullets",
        "The options that are not metals:\n\n* **Oxygen** (B)\n* **Neon** (D)",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    (
        "label-dot-text-pair",
        "The correct answers are A. Emma and C. Persuasion.",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "label-dot-text-reverse",
        "The incorrect options are B. Dracula and D. Ulysses.",
        AUSTEN,
        "reverse",
        ("B", "D"),
    ),
    (
        "label-dot-text-three",
        "The correct answers are A. Iron, C. Copper and E. Zinc.",
        METALS,
        "direct",
        ("A", "C", "E"),
    ),
    (
        "near-negated-bullets",
        "* **Dracula** (B) is not by Austen.\n* **Ulysses** (D) is not by Austen.\n\nSo the "
        "answer is A and C.",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "near-checkbox-lines",
        "Incorrect options:\n- [ ] A. Iron\n- [x] B. Oxygen\n- [ ] C. Copper\n- [x] D. Neon\n"
        "- [ ] E. Zinc",
        METALS,
        "reverse",
        ("B", "D"),
    ),
)

REPEATED = _table(
    (
        "reverse-with-texts-then-labels",
        "**Answer:** (B) Oxygen and (D) Neon\n\n**Explanation:**\n* Oxygen is a gas.\n* Neon is a "
        "noble gas.\n* Iron, copper and zinc are metals.\n\n**Answer:** (B) and (D) 🧪",
        METALS,
        "reverse",
        ("B", "D"),
    ),
    (
        "direct-plain",
        "Answer: A, C\n\nExplanation: 14 and 36 are divisible by 2.\n\nAnswer: A, C",
        EVEN,
        "direct",
        ("A", "C"),
    ),
    ("near-disagree", "Answer: A, C\n\nAnswer: A, D", EVEN, "direct", NO),
    (
        "summary-repeat",
        "**Answer:** (A), (C), and (D)\n\nIn summary, the incorrect options are A, C and D.",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "direct-label-then-text",
        "**Answer:** (B)\n\n9 + 8 = 17.\n\n**Answer:** (B) 17",
        SUM,
        "direct",
        ("B",),
    ),
    (
        "final-after-answer",
        "**Answer:** (A) Emma and (C) Persuasion\n\nBoth are Austen novels.\n\n**Final Answer:** "
        "(A) and (C)",
        AUSTEN,
        "direct",
        ("A", "C"),
    ),
    (
        "values-then-labels-then-summary",
        "Let's think step by step.\n\n9 + 8 = 17. Therefore options 16, 18 and 19 are "
        "incorrect.\n\n**Answer:** (A), (C), and (D)\n\nIn summary, the incorrect options are A, "
        "C and D. 🔢",
        SUM,
        "reverse",
        ("A", "C", "D"),
    ),
    (
        "near-reverse-disagree",
        "**Answer:** (B) and (D)\n\n**Answer:** (A) and (C)",
        EVEN,
        "reverse",
        NO,
    ),
    (
        "single",
        "Answer: B\nExplanation: Jupiter is the largest planet.\nAnswer: B",
        PLANET,
        "direct",
        ("B",),
    ),
    (
        "revised-between",
        "Answer: A, D\n\nWait, 49 is odd. Let me fix that.\n\nAnswer: A, C",
        EVEN,
        "direct",
        ("A", "C"),
    ),
)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), CORRECTED)
def test_a_corrected_answer_replaces_the_one_before(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), REVERSED)
def test_a_reverse_answer_explained_as_the_direct_one_is_not_confident(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), CONCLUSION)
def test_a_conclusion_the_final_answer_disagrees_with_is_no_verdict(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), NEG_EXP)
def test_options_that_do_not_answer_the_question_are_the_reverse_legs(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), BOXED)
def test_a_boxed_list_reads_its_labels(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), HEADED)
def test_an_answer_heading_reads_the_lines_below_it(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), TEXT_FIRST)
def test_an_options_text_before_its_label_reads_the_label(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)


@pytest.mark.parametrize(("reply", "item", "leg", "want"), REPEATED)
def test_an_answer_line_given_twice_reads_once(
    reply: str, item: dict[str, object], leg: str, want: tuple[str, ...] | None
) -> None:
    _check(reply, item, leg, want)
