"""The reader, round 5: the direct leg ("which options are correct / satisfy the question?")
stated in prose, with and without reasoning before it. Every phrasing here was written before
the reader ran on any of them, spread over how people and models of every size state a final
answer to a multiple-choice or multi-select question, none copied from a held-back reply:

1. "the answer is" in its many forms, and labels in every dress ("(b)", "[B]", "**B**",
   "option b", "answer choice (B)", "letter B");
2. picks in the first person ("I'd pick", "my choice is", "I'll go with");
3. a conclusion drawn ("that leaves", "which gives us", "hence", "thus", "so we get");
4. the set named by its side ("the ones that work are", "the correct statements are",
   "only ... qualify", "both ... and ...");
5. the whole set, none of it, and alternatives ("all of the above", "none of the options",
   "either ... or": no single answer);
6. lists in words, symbols and markdown;
7. candidate texts, numbers with units and quoted phrases in place of labels;
8. the question's own predicate ("X is a mammal", "are prime") and its negation;
9. a conclusion after long reasoning that names other labels and values;
10. a conclusion at the start, and a closing line that repeats the answer;
11. hedges (read, marked weak);
12. near-misses that must not read confidently: the same words negated, questions,
    hypotheticals, a label named only in the reasoning.

``expected``: the labels read confidently (a string of labels; "" the direct question's
none); None: failed or marked (weak, polarity-confused), never a confident reading."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

MAMMALS = {
    "task": "choice",
    "question": "Which of these animals are mammals?",
    "candidates": ["Whale", "Shark", "Bat", "Eagle", "Dolphin"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["7", "9", "11", "15", "17"],
}
CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are national capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
SPEEDS = {
    "task": "choice",
    "question": "Which of these speeds are faster than 4 m/s?",
    "candidates": ["3 m/s", "5 m/s", "12 km/h", "20 km/h"],
}
WATER = {
    "task": "choice",
    "question": "Which statements about water are true?",
    "candidates": [
        "It boils at 100 °C at sea level",
        "Ice is denser than liquid water",
        "Its chemical formula is H2O",
        "It is a chemical element",
    ],
}
PRODUCT = {
    "task": "choice",
    "question": "What is 6 × 7?",
    "candidates": ["36", "42", "48", "54"],
}
HAPPY = {
    "task": "choice",
    "question": "Which of these words are synonyms of 'happy'?",
    "candidates": ["joyful", "gloomy", "cheerful", "tired", "content"],
}
ITEMS = {
    "mammals": MAMMALS,
    "primes": PRIMES,
    "capitals": CAPITALS,
    "speeds": SPEEDS,
    "water": WATER,
    "product": PRODUCT,
    "happy": HAPPY,
}


def _check(reply: str, item: dict[str, object], expected: str | None) -> None:
    reading = read_reply(reply, item, polarity="direct")
    marked = reading.weak or reading.polarity_confusion
    got = (reading.labels, reading.status.value, marked)
    if expected is None:
        assert reading.status.value == "failed" or marked, got
    else:
        labels = tuple(expected)
        assert got == (labels, "ok" if labels else "none", False), got


# Not read as a careful person reads, measured when the phrasings were written and after
# this round's rules (the conclusion drawn on labels alone, a seeming): never confident.
KNOWN = {
    "answer-is-b-dot-text": "read right but marked weak (since main 8cab5cb)",
    "not-certain": "a hedge before a first-person pick, read unmarked (since main 8cab5cb)",
    "answer-choice-paren-b": "read right but marked weak (the stage that reads it marks it)",
    "letter-b": "not read yet (class not built this round)",
    "answer-lowercase-labels": "read right but marked weak (the stage that reads it marks it)",
    "answer-is-ace-joined": "not read yet (class not built this round)",
    "answer-is-the-following": "not read yet (class not built this round)",
    "my-final-answer-is": "read right but marked weak (the stage that reads it marks it)",
    "my-choice-is-b": "read right but marked weak (the stage that reads it marks it)",
    "my-choices-are": "read right but marked weak (the stage that reads it marks it)",
    "i-will-mark": "not read yet (class not built this round)",
    "i-would-tick": "not read yet (class not built this round)",
    "i-am-confident": "read right but marked weak (the stage that reads it marks it)",
    "we-choose": "not read yet (class not built this round)",
    "lets-go-with": "not read yet (class not built this round)",
    "i-circle": "not read yet (class not built this round)",
    "which-gives-us-option": "read right but marked weak (the stage that reads it marks it)",
    "thus": "not read yet (class not built this round)",
    "so-we-get-text": "read right but marked weak (the stage that reads it marks it)",
    "therefore": "not read yet (class not built this round)",
    "this-means": "read right but marked weak (the stage that reads it marks it)",
    "which-means": "not read yet (class not built this round)",
    "we-are-left-with": "read right but marked weak (the stage that reads it marks it)",
    "in-conclusion": "not read yet (class not built this round)",
    "ones-that-work": "read right but marked weak (the stage that reads it marks it)",
    "ones-that-fit": "read right but marked weak (the stage that reads it marks it)",
    "only-texts-qualify": "not read yet (class not built this round)",
    "only-one-correct": "not read yet (class not built this round)",
    "both-texts-and": "not read yet (class not built this round)",
    "both-and-predicate": "not read yet (class not built this round)",
    "correct-ones-here": "not read yet (class not built this round)",
    "options-satisfying": "not read yet (class not built this round)",
    "options-that-satisfy": "not read yet (class not built this round)",
    "satisfy-the-question": "not read yet (class not built this round)",
    "correct-are": "not read yet (class not built this round)",
    "applicable": "read right but marked weak (the stage that reads it marks it)",
    "all-of-the-above": "read right but marked weak (the stage that reads it marks it)",
    "all-options-correct": "read right but marked weak (the stage that reads it marks it)",
    "every-option-correct": "read right but marked weak (the stage that reads it marks it)",
    "all-four-correct": "not read yet (class not built this round)",
    "none-of-the-options": "read right but marked weak (the stage that reads it marks it)",
    "none-of-them-are": "read right but marked weak (the stage that reads it marks it)",
    "star-bullets": "read right but marked weak (the stage that reads it marks it)",
    "numbered-list": "read right but marked weak (the stage that reads it marks it)",
    "json-booleans": "read right but marked weak (the stage that reads it marks it)",
    "labelled-lines-verdicts": "read right but marked weak (the stage that reads it marks it)",
    "labels-comma-text": "read wrong, marked weak (never confident)",
    "numbered-words": "not read yet (class not built this round)",
    "text-equals": "not read yet (class not built this round)",
    "text-units": "read right but marked weak (the stage that reads it marks it)",
    "text-units-faster": "not read yet (class not built this round)",
    "text-units-only": "not read yet (class not built this round)",
    "text-names-the-capitals": "not read yet (class not built this round)",
    "quoted-words": "read right but marked weak (the stage that reads it marks it)",
    "single-quoted-words": "read right but marked weak (the stage that reads it marks it)",
    "text-product-option": "read right but marked weak (the stage that reads it marks it)",
    "text-boils": "not read yet (class not built this round)",
    "pred-x-is-a-mammal": "not read yet (class not built this round)",
    "pred-per-line": "read right but marked weak (the stage that reads it marks it)",
    "pred-negation-rest": "not read yet (class not built this round)",
    "pred-not-prime-then": "not read yet (class not built this round)",
    "pred-is-a-capital": "not read yet (class not built this round)",
    "pred-is-a-capital-so": "not read yet (class not built this round)",
    "pred-capital-of": "read right but marked weak (the stage that reads it marks it)",
    "pred-is-faster": "not read yet (class not built this round)",
    "pred-exceed": "not read yet (class not built this round)",
    "pred-synonyms": "not read yet (class not built this round)",
    "pred-mean-happy": "not read yet (class not built this round)",
    "pred-is-a-mammal-single": "not read yet (class not built this round)",
    "cot-product-elimination": "read right but marked weak (the stage that reads it marks it)",
    "cot-happy": "read wrong, marked weak (never confident)",
    "cot-revise": "read right but marked weak (the stage that reads it marks it)",
    "cot-then-note": "read right but marked weak (the stage that reads it marks it)",
    "start-answer-then-why": "not read yet (class not built this round)",
    "start-answer-line-then-why": "read right but marked weak (the stage that reads it marks it)",
    "start-labels-then-why": "read right but marked weak (the stage that reads it marks it)",
    "start-then-repeat": "not read yet (class not built this round)",
    "start-short-then-why-others": "read right but marked weak (the stage that reads it marks it)",
    "closing-tldr": "read right but marked weak (the stage that reads it marks it)",
    "closing-short-answer": "not read yet (class not built this round)",
}


def _cases(rows: list[tuple[str, str, str, str | None]]) -> list[object]:
    return [
        pytest.param(
            reply,
            ITEMS[item],
            expected,
            id=case_id,
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN[case_id])]
            if case_id in KNOWN
            else [],
        )
        for case_id, item, reply, expected in rows
    ]


# -- 1. "the answer is", and labels in every dress --------------------------------------

ANSWER_IS = [
    ("answer-is-b", "product", "The answer is B.", "B"),
    ("answer-is-paren-b", "product", "The answer is (b).", "B"),
    ("answer-is-b-paren", "product", "The answer is b).", "B"),
    ("answer-is-bracket-b", "product", "The answer is [B].", "B"),
    ("answer-is-b-dot-text", "product", "The answer is B. 42", "B"),
    ("answer-is-bold-b", "product", "The answer is **B**.", "B"),
    ("answer-is-option-b", "product", "The answer is option b.", "B"),
    ("answer-is-choice-b", "product", "The answer is choice B.", "B"),
    ("answer-choice-paren-b", "product", "The correct answer choice is (B).", "B"),
    ("letter-b", "product", "The correct letter is B.", "B"),
    ("answer-is-letter-b", "product", "So the answer is the letter B.", "B"),
    ("answer-colon-b", "product", "Answer: B", "B"),
    ("final-answer-colon-b", "product", "Final answer: (B) 42", "B"),
    ("correct-answer-is-b-42", "product", "The correct answer is B, 42.", "B"),
    ("correct-option-is-b-text", "product", "The correct option is B: 42.", "B"),
    ("answer-is-b-paren-text", "product", "The answer is B (42).", "B"),
    ("right-answer-would-be-b", "product", "6 × 7 = 42, so the right answer would be B.", "B"),
    ("answers-are-a-c-e", "primes", "The answers are A, C and E.", "ACE"),
    ("correct-answers-are-oxford", "primes", "The correct answers are A, C, and E.", "ACE"),
    ("correct-options-are-parens", "primes", "The correct options are (A), (C) and (E).", "ACE"),
    ("correct-choices-are-brackets", "primes", "Correct choices: [A], [C], [E]", "ACE"),
    ("answers-ampersand", "capitals", "The answers are A & C.", "AC"),
    ("answers-slash", "capitals", "Answer: A/C", "AC"),
    ("answer-lowercase-labels", "capitals", "the answer is a and c", "AC"),
    ("answer-bold-labels", "capitals", "**Answer:** **A** and **C**", "AC"),
    ("options-a-and-c-are-correct", "capitals", "Options A and C are correct.", "AC"),
    ("choices-a-c-are-right", "capitals", "Choices A and C are the right ones.", "AC"),
    ("answer-is-options-ace", "mammals", "The answer is options A, C, and E.", "ACE"),
    ("answer-is-bcd-no-commas", "mammals", "Answer: A C E", "ACE"),
    ("answer-is-ace-joined", "mammals", "Answer: ACE", "ACE"),
    ("answer-semicolons", "mammals", "Correct answers: A; C; E.", "ACE"),
    (
        "answer-is-the-following",
        "mammals",
        "The correct answers are the following: A, C, E.",
        "ACE",
    ),
    ("my-answer-is", "product", "My answer is B.", "B"),
    ("my-final-answer-is", "product", "My final answer is (B).", "B"),
    ("the-answer-should-be", "product", "The answer should be B.", "B"),
    ("the-answer-must-be", "product", "7 × 6 is 42, so the answer must be B.", "B"),
    ("answer-heading-line", "product", "### Answer\nB", "B"),
    ("correct-answer-bold-heading", "product", "**Correct answer:** B) 42", "B"),
    ("answer-is-clearly", "product", "The answer is clearly B.", "B"),
    ("best-answer-is", "product", "The best answer is B.", "B"),
    ("answer-is-b-exclamation", "product", "It's B!", "B"),
    ("answer-option-number", "product", "The answer is option (B), which is 42.", "B"),
    ("answers-are-b-and-d-speeds", "speeds", "The correct answers are B and D.", "BD"),
    ("answer-is-statements", "water", "The correct answers are A and C.", "AC"),
    ("answer-is-happy", "happy", "Answer: A, C, E", "ACE"),
]

# -- 2. picks in the first person -------------------------------------------------------

PICKS = [
    ("id-pick-b", "product", "I'd pick B.", "B"),
    ("i-would-pick-b", "product", "I would pick option B.", "B"),
    ("my-choice-is-b", "product", "My choice is B.", "B"),
    ("my-choices-are", "primes", "My choices are A, C and E.", "ACE"),
    ("ill-go-with-b", "product", "I'll go with B.", "B"),
    ("im-going-with", "product", "I'm going with (B).", "B"),
    ("i-choose-b", "product", "I choose B.", "B"),
    ("i-select-ace", "primes", "I select A, C, and E.", "ACE"),
    ("i-would-select", "mammals", "I would select A, C and E.", "ACE"),
    ("id-choose", "capitals", "I'd choose A and C.", "AC"),
    ("i-pick-texts", "capitals", "I pick Paris and Rome.", "AC"),
    ("id-go-with-texts", "mammals", "I'd go with whale, bat and dolphin.", "ACE"),
    ("i-will-mark", "capitals", "I will mark A and C as correct.", "AC"),
    ("i-would-tick", "capitals", "I would tick A and C.", "AC"),
    ("i-believe-the-answer", "product", "I believe the answer is B.", "B"),
    ("i-think-the-answer", "product", "I think the answer is B.", "B"),
    ("i-am-confident", "product", "I'm confident the answer is B.", "B"),
    ("my-pick", "product", "My pick: B", "B"),
    ("we-choose", "primes", "We choose A, C and E.", "ACE"),
    ("lets-go-with", "product", "Let's go with B.", "B"),
    ("i-circle", "speeds", "I'd circle B and D.", "BD"),
    ("my-selection", "happy", "My selection: A, C, E.", "ACE"),
]

# -- 3. a conclusion drawn --------------------------------------------------------------

DRAWN = [
    (
        "that-leaves",
        "primes",
        "9 = 3 × 3 and 15 = 3 × 5 are composite. That leaves A, C and E.",
        "ACE",
    ),
    ("that-leaves-texts", "primes", "9 and 15 are composite, which leaves 7, 11 and 17.", "ACE"),
    ("which-gives-us", "product", "6 × 7 = 42, which gives us B.", "B"),
    ("which-gives-us-option", "product", "Multiplying, we get 42, which gives us option B.", "B"),
    ("hence", "product", "6 × 7 = 42. Hence, B.", "B"),
    ("hence-the-answer", "product", "6 × 7 = 42; hence the answer is B.", "B"),
    ("thus", "capitals", "Paris is the capital of France and Rome of Italy. Thus, A and C.", "AC"),
    ("thus-the-correct", "capitals", "Thus the correct options are A and C.", "AC"),
    ("so-we-get", "product", "6 × 7 = 42, so we get B.", "B"),
    ("so-we-get-text", "product", "So we get 42, which is option B.", "B"),
    ("therefore", "primes", "Therefore: A, C, E.", "ACE"),
    ("therefore-the-answer", "primes", "Therefore, the answer is A, C, and E.", "ACE"),
    ("so-the-answer", "mammals", "So the answer is A, C, E.", "ACE"),
    ("consequently", "mammals", "Consequently, the mammals are A, C and E.", "ACE"),
    ("this-means", "capitals", "This means the answer is A and C.", "AC"),
    ("it-follows", "capitals", "It follows that A and C are correct.", "AC"),
    (
        "which-means",
        "speeds",
        "20 km/h ≈ 5.6 m/s, which means B and D are faster than 4 m/s.",
        "BD",
    ),
    ("we-are-left-with", "primes", "Removing the composites, we are left with A, C and E.", "ACE"),
    ("leaving", "primes", "Eliminating B and D leaves A, C and E.", "ACE"),
    ("in-conclusion", "capitals", "In conclusion, A and C.", "AC"),
    ("to-conclude", "capitals", "To conclude, the answer is A and C.", "AC"),
    ("in-summary", "water", "In summary, the true statements are A and C.", "AC"),
    ("overall", "water", "Overall, A and C are true.", "AC"),
    ("arrow", "product", "6 × 7 = 42 → B", "B"),
    ("implies-symbol", "product", "6 × 7 = 42 ⇒ answer B", "B"),
    ("equals-so", "product", "6 × 7 = 42 ∴ B", "B"),
]

# -- 4. the set named by its side ------------------------------------------------------

SIDE = [
    ("ones-that-work", "primes", "The ones that work are A, C and E.", "ACE"),
    ("ones-that-fit", "capitals", "The ones that fit are A and C.", "AC"),
    ("correct-statements-are", "water", "The correct statements are A and C.", "AC"),
    ("true-statements-are", "water", "The true statements are A and C.", "AC"),
    ("only-qualify", "capitals", "Only A and C qualify.", "AC"),
    ("only-texts-qualify", "capitals", "Only Paris and Rome qualify.", "AC"),
    ("only-is-correct", "product", "Only B is correct.", "B"),
    ("only-one-correct", "product", "Only one option is correct: B.", "B"),
    ("both-and", "capitals", "Both A and C are correct.", "AC"),
    ("both-texts-and", "capitals", "Both Paris and Rome are capitals.", "AC"),
    ("both-and-predicate", "speeds", "Both B and D are faster than 4 m/s.", "BD"),
    ("valid-options", "primes", "Valid options: A, C, E", "ACE"),
    ("right-ones", "mammals", "The right ones are A, C and E.", "ACE"),
    ("correct-ones-here", "mammals", "The correct ones here are A, C, and E.", "ACE"),
    ("options-satisfying", "primes", "The options satisfying the condition are A, C and E.", "ACE"),
    ("options-that-satisfy", "speeds", "The options that satisfy the question are B and D.", "BD"),
    ("satisfy-the-question", "speeds", "B and D satisfy the question.", "BD"),
    ("are-correct-list", "happy", "A, C and E are correct.", "ACE"),
    ("are-all-correct", "happy", "A, C and E are all correct.", "ACE"),
    ("each-correct", "happy", "A, C and E are each correct.", "ACE"),
    ("correct-are", "happy", "Correct are A, C, and E.", "ACE"),
    (
        "the-correct-ones-texts",
        "happy",
        "The correct ones are joyful, cheerful and content.",
        "ACE",
    ),
    ("applicable", "speeds", "Applicable options: B, D.", "BD"),
    ("only-b-and-d", "speeds", "Only B and D.", "BD"),
    ("just-b", "product", "Just B.", "B"),
    ("b-is-the-only", "product", "B is the only correct option.", "B"),
    ("b-and-only-b", "product", "B, and only B.", "B"),
]

# -- 5. the whole set, none of it, alternatives ------------------------------------------

WHOLE = [
    ("all-of-the-above", "happy", "All of the above.", "ABCDE"),
    ("all-options-correct", "capitals", "All of the options are correct.", "ABCD"),
    ("every-option-correct", "capitals", "Every option is correct: A, B, C and D.", "ABCD"),
    ("all-four-correct", "capitals", "All four are correct.", "ABCD"),
    ("none-of-the-options", "capitals", "None of the options is correct.", ""),
    ("none-of-them-are", "capitals", "None of them are correct.", ""),
    ("no-option-is-correct", "primes", "No option is correct.", ""),
    ("answer-none", "primes", "Answer: none", ""),
    ("either-or", "product", "The answer is either B or C.", None),
    ("either-or-texts", "capitals", "It is either Paris or Rome.", None),
    ("b-or-c", "product", "B or C.", None),
    ("between-b-and-c", "product", "It's between B and C.", None),
    ("could-be-b-or-c", "product", "The answer could be B or C.", None),
    ("not-sure-which", "product", "I am not sure whether it's B or C.", None),
    ("neither-nor", "product", "Neither A nor C is correct.", None),
]

# -- 6. lists in words, symbols and markdown ---------------------------------------------

LISTS = [
    ("bullets-labels", "primes", "Correct options:\n- A\n- C\n- E", "ACE"),
    ("bullets-labels-texts", "primes", "Correct options:\n- A) 7\n- C) 11\n- E) 17", "ACE"),
    ("star-bullets", "primes", "The primes are:\n* (A) 7\n* (C) 11\n* (E) 17", "ACE"),
    ("numbered-list", "capitals", "The capitals:\n1. A — Paris\n2. C — Rome", "AC"),
    ("checkmarks", "capitals", "A ✅\nB ❌\nC ✅\nD ❌", "AC"),
    ("check-ticks", "capitals", "A ✓ B ✗ C ✓ D ✗", "AC"),
    ("checkboxes", "capitals", "- [x] A\n- [ ] B\n- [x] C\n- [ ] D", "AC"),
    ("yes-no-lines", "capitals", "A: yes\nB: no\nC: yes\nD: no", "AC"),
    ("true-false-lines", "water", "A: True\nB: False\nC: True\nD: False", "AC"),
    (
        "correct-incorrect-lines",
        "water",
        "A - correct\nB - incorrect\nC - correct\nD - incorrect",
        "AC",
    ),
    (
        "table",
        "capitals",
        "| Option | Capital? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |",
        "AC",
    ),
    (
        "bold-list",
        "mammals",
        "**Answer:**\n- **A** (Whale)\n- **C** (Bat)\n- **E** (Dolphin)",
        "ACE",
    ),
    ("words-and-list", "mammals", "A and C and E.", "ACE"),
    ("plus-list", "mammals", "Answer: A + C + E", "ACE"),
    ("braces", "mammals", "Answer: {A, C, E}", "ACE"),
    ("square-list", "mammals", "Answer: [A, C, E]", "ACE"),
    ("quoted-labels", "mammals", 'Answer: "A", "C", "E"', "ACE"),
    ("json-answer", "mammals", '{"answer": ["A", "C", "E"]}', "ACE"),
    ("json-correct", "mammals", '{"correct": ["A", "C", "E"]}', "ACE"),
    ("json-booleans", "capitals", '{"A": true, "B": false, "C": true, "D": false}', "AC"),
    ("code-block", "mammals", "```\nA, C, E\n```", "ACE"),
    ("backticks", "mammals", "Answer: `A`, `C`, `E`", "ACE"),
    ("boxed", "primes", "The answer is \\boxed{A, C, E}.", "ACE"),
    ("boxed-single", "product", "\\boxed{B}", "B"),
    (
        "labelled-lines-verdicts",
        "mammals",
        "A) Whale - mammal\nB) Shark - fish\nC) Bat - mammal\nD) Eagle - bird\nE) Dolphin - mammal",
        "ACE",
    ),
    ("labels-comma-text", "mammals", "Answer: A (Whale), C (Bat), E (Dolphin)", "ACE"),
    ("answers-on-lines", "speeds", "Answers:\nB\nD", "BD"),
    ("numbered-words", "speeds", "The faster speeds are (1) B, 5 m/s, and (2) D, 20 km/h.", "BD"),
]

# -- 7. candidate texts, numbers with units, quoted phrases -----------------------------

TEXTS = [
    ("text-number", "product", "The answer is 42.", "B"),
    ("text-number-alone", "product", "42", "B"),
    ("text-equals", "product", "6 × 7 = 42", "B"),
    ("text-units", "speeds", "The answers are 5 m/s and 20 km/h.", "BD"),
    ("text-units-faster", "speeds", "5 m/s and 20 km/h are faster than 4 m/s.", "BD"),
    ("text-units-only", "speeds", "Only 5 m/s and 20 km/h exceed 4 m/s.", "BD"),
    ("text-names", "capitals", "Paris and Rome.", "AC"),
    ("text-names-answer", "capitals", "Answer: Paris, Rome", "AC"),
    ("text-names-the-capitals", "capitals", "The capitals are Paris and Rome.", "AC"),
    ("text-names-lowercase", "capitals", "paris and rome", "AC"),
    ("text-animals", "mammals", "Whale, bat and dolphin.", "ACE"),
    (
        "text-animals-the-mammals",
        "mammals",
        "The mammals are the whale, the bat and the dolphin.",
        "ACE",
    ),
    ("quoted-words", "happy", 'The synonyms are "joyful", "cheerful" and "content".', "ACE"),
    (
        "single-quoted-words",
        "happy",
        "'joyful', 'cheerful' and 'content' are synonyms of 'happy'.",
        "ACE",
    ),
    (
        "quoted-statements",
        "water",
        '"It boils at 100 °C at sea level" and "Its chemical formula is H2O" are true.',
        "AC",
    ),
    ("text-primes", "primes", "7, 11 and 17.", "ACE"),
    ("text-primes-are-prime", "primes", "7, 11 and 17 are prime.", "ACE"),
    ("text-primes-answer", "primes", "Answer: 7, 11, 17", "ACE"),
    ("text-and-label-mixed", "primes", "The answer is A (7), C (11) and E (17).", "ACE"),
    ("text-then-label", "primes", "The answer is 7 (A), 11 (C) and 17 (E).", "ACE"),
    ("text-product-option", "product", "It equals 42, option B.", "B"),
    ("text-dolphin-bat-whale", "mammals", "Dolphin, bat, whale.", "ACE"),
    (
        "text-boils",
        "water",
        "The statements about boiling and the formula are true: A and C.",
        "AC",
    ),
    ("text-units-mismatch", "speeds", "The answer is 4 m/s.", None),
    ("text-not-a-candidate", "product", "The answer is 43.", None),
]

# -- 8. the question's own predicate and its negation ----------------------------------

PREDICATE = [
    (
        "pred-x-is-a-mammal",
        "mammals",
        "A whale is a mammal, a bat is a mammal and a dolphin is a mammal.",
        "ACE",
    ),
    ("pred-labels-are-mammals", "mammals", "A, C and E are mammals.", "ACE"),
    (
        "pred-labels-are-mammals-others-not",
        "mammals",
        "A, C and E are mammals; B and D are not.",
        "ACE",
    ),
    (
        "pred-per-line",
        "mammals",
        "Whale: mammal\nShark: fish\nBat: mammal\nEagle: bird\nDolphin: mammal",
        "ACE",
    ),
    (
        "pred-negation-rest",
        "mammals",
        "The shark is a fish and the eagle is a bird, so they are not mammals. "
        "The others are mammals: A, C, E.",
        "ACE",
    ),
    ("pred-are-prime", "primes", "A, C and E are prime.", "ACE"),
    ("pred-are-primes", "primes", "The primes are A, C, E.", "ACE"),
    ("pred-composite", "primes", "9 and 15 are composite, while 7, 11 and 17 are prime.", "ACE"),
    (
        "pred-not-prime-then",
        "primes",
        "B (9) and D (15) are not prime. The prime numbers are A, C and E.",
        "ACE",
    ),
    ("pred-is-a-capital", "capitals", "Paris is a capital and Rome is a capital.", "AC"),
    ("pred-is-a-capital-so", "capitals", "A is a capital; so is C.", "AC"),
    (
        "pred-capital-of",
        "capitals",
        "Paris is the capital of France and Rome is the capital of Italy; "
        "Sydney and Toronto are not capitals. Answer: A, C",
        "AC",
    ),
    ("pred-is-faster", "speeds", "B is faster than 4 m/s, and so is D.", "BD"),
    ("pred-exceed", "speeds", "B and D exceed 4 m/s.", "BD"),
    ("pred-true-statements", "water", "A is true and C is true.", "AC"),
    ("pred-synonyms", "happy", "A, C and E are synonyms of happy.", "ACE"),
    ("pred-mean-happy", "happy", "Joyful, cheerful and content all mean happy.", "ACE"),
    ("pred-negated-only", "mammals", "B and D are not mammals.", None),
    ("pred-negated-only-2", "primes", "B and D are not prime.", None),
    ("pred-negated-only-capitals", "capitals", "Sydney and Toronto are not capitals.", None),
    ("pred-not-a-mammal", "mammals", "The shark is not a mammal.", None),
    ("pred-composite-only", "primes", "9 and 15 are composite.", None),
    ("pred-is-a-mammal-single", "mammals", "Only the whale is a mammal.", "A"),
    ("pred-isnt", "capitals", "Sydney isn't a capital.", None),
    ("pred-are-not-synonyms", "happy", "Gloomy and tired are not synonyms of happy.", None),
]

# -- 9. a conclusion after long reasoning -----------------------------------------------

REASONED = [
    (
        "cot-primes",
        "primes",
        "Let's check each option.\nA) 7: divisible only by 1 and 7, so prime.\nB) 9: 9 = 3 × 3, "
        "not prime.\nC) 11: prime.\nD) 15 = 3 × 5, not prime.\nE) 17: prime.\n\n"
        "Therefore, the answer is A, C, E.",
        "ACE",
    ),
    (
        "cot-capitals",
        "capitals",
        "Step 1: Paris is the capital of France. Step 2: Sydney is the largest city of Australia, "
        "but Canberra is the capital. Step 3: Rome is the capital of Italy. Step 4: Toronto is "
        "not Canada's capital; Ottawa is.\n\nSo the correct options are A and C.",
        "AC",
    ),
    (
        "cot-product-others",
        "product",
        "A is 36 = 6 × 6, C is 48 = 6 × 8 and D is 54 = 6 × 9. 6 × 7 = 42.\nThe answer is B.",
        "B",
    ),
    (
        "cot-product-elimination",
        "product",
        "We can rule out A (36), C (48) and D (54) since they are multiples of 6 but not of 7. "
        "That leaves B.",
        "B",
    ),
    (
        "cot-speeds",
        "speeds",
        "Convert: 12 km/h = 12/3.6 ≈ 3.33 m/s, 20 km/h ≈ 5.56 m/s. A is 3 m/s < 4, C is 3.33 "
        "< 4. B is 5 m/s > 4 and D is 5.56 > 4.\n\nFinal answer: B, D",
        "BD",
    ),
    (
        "cot-water",
        "water",
        "Water boils at 100 °C at sea level (A true). Ice floats, so it is less dense than "
        "liquid water (B false). H2O is right (C true). Water is a compound, not an element "
        "(D false).\n\nThe correct statements are A and C.",
        "AC",
    ),
    (
        "cot-mammals",
        "mammals",
        "Whales and dolphins are marine mammals; bats are flying mammals. Sharks are "
        "cartilaginous fish and eagles are birds.\n\nAnswer: A, C, E",
        "ACE",
    ),
    (
        "cot-happy",
        "happy",
        "'Gloomy' is an antonym and 'tired' is unrelated. 'Joyful', 'cheerful' and 'content' "
        "all mean happy.\n\nHence the answer: A, C, E.",
        "ACE",
    ),
    (
        "cot-revise",
        "product",
        "At first glance C looks right, but 6 × 8 = 48, not 6 × 7. Recomputing: 6 × 7 = 42. "
        "So the answer is B.",
        "B",
    ),
    (
        "cot-with-numbers",
        "primes",
        "Checking divisors up to the square root: 7 (none), 9 (3), 11 (none), 15 (3, 5), 17 "
        "(none). So 3 of the 5 numbers are prime.\n\nThe answer is A, C and E.",
        "ACE",
    ),
    (
        "cot-ticks-then-answer",
        "capitals",
        "A. Paris ✓\nB. Sydney ✗\nC. Rome ✓\nD. Toronto ✗\n\nAnswer: A, C",
        "AC",
    ),
    (
        "cot-option-by-option-bold",
        "water",
        "**Option A**: true.\n**Option B**: false, ice floats.\n**Option C**: true.\n"
        "**Option D**: false.\n\n**Answer: A and C**",
        "AC",
    ),
    (
        "cot-then-note",
        "capitals",
        "The answer is A and C. Note: B and D are large cities but not capitals.",
        "AC",
    ),
    (
        "cot-then-repeat",
        "product",
        "6 × 7 = 42, which is option B.\n\nAnswer: B",
        "B",
    ),
    (
        "cot-conclusion-after-mentions",
        "mammals",
        "Option B, the shark, breathes through gills. Option D, the eagle, lays eggs and has "
        "feathers. Options A, C and E feed their young with milk.\n\nThus A, C and E.",
        "ACE",
    ),
]

# -- 10. a conclusion at the start, and a closing line that repeats it -------------------

AT_START = [
    ("start-answer-then-why", "product", "B. Because 6 × 7 = 42.", "B"),
    (
        "start-answer-line-then-why",
        "product",
        "Answer: B\n\n6 × 7 = 42; A, C and D are other multiples of 6.",
        "B",
    ),
    (
        "start-labels-then-why",
        "capitals",
        "A and C.\n\nParis is France's capital and Rome is Italy's; "
        "Sydney and Toronto are not capitals.",
        "AC",
    ),
    (
        "start-correct-then-why",
        "primes",
        "The correct options are A, C and E. 9 and 15 have divisor 3.",
        "ACE",
    ),
    ("start-bold-then-why", "mammals", "**A, C, E.** Sharks are fish and eagles are birds.", "ACE"),
    (
        "start-then-repeat",
        "capitals",
        "A and C are the capitals. Paris is in France, Rome in Italy. So: A, C.",
        "AC",
    ),
    (
        "start-short-then-why-others",
        "speeds",
        "B and D. A (3 m/s) and C (about 3.3 m/s) are slower than 4 m/s.",
        "BD",
    ),
    (
        "closing-line-repeats",
        "water",
        "The true statements are A and C.\n\nFinal answer: A, C",
        "AC",
    ),
    (
        "closing-line-repeats-texts",
        "capitals",
        "Paris and Rome are capitals.\n\nAnswer: A, C",
        "AC",
    ),
    ("closing-line-boxed", "product", "The correct answer is B.\n\n\\boxed{B}", "B"),
    ("closing-tldr", "primes", "9 = 3², 15 = 3 × 5. TL;DR: A, C, E.", "ACE"),
    ("closing-short-answer", "product", "Short answer: B.", "B"),
]

# -- 11. hedges ---------------------------------------------------------------------------

HEDGES = [
    ("probably-b", "product", "Probably B.", None),
    ("likely-answer", "product", "The answer is likely B.", None),
    ("most-likely", "capitals", "Most likely A and C.", None),
    ("i-guess", "product", "I guess B.", None),
    ("maybe", "product", "Maybe B.", None),
    ("perhaps", "product", "Perhaps the answer is B.", None),
    ("not-sure-but", "product", "I'm not sure, but B.", None),
    ("not-certain", "capitals", "I'm not certain, but I'd say A and C.", None),
    ("might-be", "product", "It might be B.", None),
    ("seems", "capitals", "It seems that A and C are correct.", None),
    ("best-guess", "product", "My best guess is B.", None),
    ("could-be", "product", "It could be B.", None),
    ("possibly", "capitals", "Possibly A and C.", None),
]

# -- 12. near-misses -----------------------------------------------------------------------

NEAR = [
    ("neg-answer-is-not", "product", "The answer is not B.", None),
    ("neg-b-is-not-correct", "product", "B is not correct.", None),
    ("neg-b-is-incorrect", "product", "B is incorrect.", None),
    ("neg-b-is-wrong", "product", "Option B is wrong.", None),
    ("neg-b-is-false", "water", "B is false.", None),
    ("neg-i-would-not-pick", "product", "I would not pick B.", None),
    ("neg-not-a-and-c", "capitals", "Not A and C.", None),
    ("neg-a-c-incorrect", "capitals", "A and C are incorrect.", None),
    ("neg-none-of-a-c", "capitals", "Neither A nor C.", None),
    ("neg-cannot-be", "product", "The answer cannot be B.", None),
    ("neg-rule-out", "product", "We can rule out B.", None),
    ("neg-eliminate", "capitals", "Eliminate A and C.", None),
    ("neg-dont-think", "product", "I don't think B is right.", None),
    ("q-is-it-b", "product", "Is it B?", None),
    ("q-could-it-be", "capitals", "Could the answer be A and C?", None),
    ("q-what-about", "product", "What about B?", None),
    ("hyp-if-then", "product", "If 6 × 7 were 48, the answer would be C.", None),
    ("hyp-if-b", "product", "If the question asked for 6 × 6, A would be correct.", None),
    ("hyp-would-be-if", "capitals", "Sydney would be a capital if Australia had chosen it.", None),
    ("reasoning-only", "product", "Let's consider option B. 6 × 7 = 42.", None),
    ("reasoning-only-checks", "capitals", "Option A is Paris. Option C is Rome.", None),
    (
        "reasoning-options-restated",
        "primes",
        "The options are A) 7, B) 9, C) 11, D) 15, E) 17.",
        None,
    ),
    ("reasoning-lets-check", "primes", "Let's check A, C and E first.", None),
    (
        "reasoning-cut",
        "speeds",
        "First convert km/h to m/s: 12 km/h = 12/3.6 = 3.33 m/s. Now option B",
        None,
    ),
    (
        "label-in-variable",
        "primes",
        "Let set A be the primes and set B the composites; then |A| = 3.",
        None,
    ),
    ("other-question", "capitals", "The incorrect ones are B and D.", None),
    ("other-question-json", "capitals", '{"incorrect": ["B", "D"]}', None),
    ("refuse", "product", "I cannot answer this question.", None),
    ("empty-restatement", "product", "What is 6 × 7? A) 36 B) 42 C) 48 D) 54", None),
    ("no-answer-ack", "product", "Sure, let me think about it.", None),
]

SECTIONS = {
    "answer_is": ANSWER_IS,
    "picks": PICKS,
    "drawn": DRAWN,
    "side": SIDE,
    "whole": WHOLE,
    "lists": LISTS,
    "texts": TEXTS,
    "predicate": PREDICATE,
    "reasoned": REASONED,
    "at_start": AT_START,
    "hedges": HEDGES,
    "near": NEAR,
}


def test_the_phrasings_are_many_and_distinct() -> None:
    rows = [row for rows in SECTIONS.values() for row in rows]
    assert len(rows) >= 250
    assert len({row[0] for row in rows}) == len(rows)
    assert len({row[2] for row in rows}) == len(rows)


@pytest.mark.parametrize(
    ("reply", "item", "expected"), _cases([r for s in SECTIONS.values() for r in s])
)
def test_a_direct_answer_in_prose(
    reply: str, item: dict[str, object], expected: str | None
) -> None:
    _check(reply, item, expected)
