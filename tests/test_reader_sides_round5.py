"""Sides a reply gives candidates before (or instead of) an answer, against what it then
answers: per-candidate yes/no questions ("Is 9 prime? No. Is 11 prime? Yes."), answer
lines after colon, dash, yes/no, "nor" and table statuses in the question's own predicate
or in status words, whole-set conclusions ("So the capital cities are Paris and Rome."),
ordinal answers with a note of rejected values ("Answer: third (not 2nd, not 4th)."),
computed values asked or boxed and rejected ("Is it 48? No. Is it 52? Yes.", "Not
\\boxed{48}."), and LaTeX sets said to be a mistake.

Written before the reader was run on them (round 5, helper x2), each with the reading a
careful person gives it: labels, or None when one cannot tell. At commit 474bce7 the
first 113 gave 34 confident misreads (5 of the 7 must-read replies not read right); the
second batch was written after the rules of `reader/_own_sides.py`, before running them.

The assertion is the guard's contract: no confident misread (a reading that is "ok", not
weak, not polarity-confused, with other labels than the careful reading). A second table
lists the replies that must not only avoid a misread but read right."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

ITEMS: dict[str, dict[str, object]] = {
    "cap": {
        "task": "choice",
        "question": "Which of these cities are national capitals?",
        "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
    },
    "cap5": {
        "task": "choice",
        "question": "Which of these cities are capitals?",
        "candidates": ["Paris", "Sydney", "Rome", "Toronto", "Madrid"],
    },
    "prime": {
        "task": "choice",
        "question": "Which of these numbers are prime?",
        "candidates": ["9", "11", "13", "15"],
    },
    "prime5": {
        "task": "choice",
        "question": "Which of these numbers are prime?",
        "candidates": ["9", "11", "13", "15", "17"],
    },
    "prod": {
        "task": "choice",
        "question": "What is 13 x 4?",
        "candidates": ["42", "52", "56", "48", "50"],
    },
    "ord": {
        "task": "choice",
        "question": "In which place did the runner finish?",
        "candidates": ["1st", "2nd", "3rd", "4th"],
    },
    "bird": {
        "task": "choice",
        "question": "Which of these animals are birds?",
        "candidates": ["Penguin", "Bat", "Ostrich", "Dolphin"],
    },
}

D, R = "direct", "reverse"
CAP_COLON = "Paris: capital. Sydney: not. Rome: capital. Toronto: not."
CAP_LABEL_COLON = "A: capital. B: not a capital. C: capital. D: not a capital."
CAP_DASH = "Paris - capital; Sydney - no; Rome - capital; Toronto - no."
CAP_YES_NO = "Paris: yes. Sydney: no. Rome: yes. Toronto: no."
CAP_NOR = "Sydney is not a capital, nor is Toronto."
CAP_NEITHER = "Neither Sydney nor Toronto is a capital."
CAP_WHOLE = "So the capital cities are Paris and Rome."
CAP_NOT_WHOLE = "The cities that are not capitals are Sydney and Toronto."
CAP_BULLETS = "- Paris: capital\n- Sydney: not a capital\n- Rome: capital\n- Toronto: not a capital"
CAP_TABLE = (
    "| City | Capital? |\n|---|---|\n| Paris | yes |\n| Sydney | no |\n| Rome | yes |\n"
    "| Toronto | no |"
)
PRIME_COLON = "9: composite. 11: prime. 13: prime. 15: composite."
PRIME_DASH = "9 - not prime; 11 - prime; 13 - prime; 15 - not prime."
PRIME_NOR = "9 is not prime, nor is 15."
PRIME_WHOLE = "So the prime numbers are 11 and 13."
PRIME_Q = "Is 9 prime? No. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No."

# (reply, item, leg, the careful reading)
CASES: list[tuple[str, str, str, tuple[str, ...] | None]] = [
    # --- per-candidate yes/no questions ---
    (PRIME_Q, "prime", D, ("B", "C")),
    (PRIME_Q, "prime", R, ("A", "D")),
    ("Is 9 prime? No. Is 11 prime? Yes.", "prime", D, None),
    ("Is 9 prime? No. Is 11 prime? Yes.", "prime", R, None),
    ("Is 13 prime? Yes. Is 9 prime? No.", "prime", D, None),
    (
        "Is 11 prime? Yes. Is 13 prime? Yes. Is 9 prime? No. Is 15 prime? No.",
        "prime",
        D,
        ("B", "C"),
    ),
    ("Is A prime? No. Is B prime? Yes. Is C prime? Yes. Is D prime? No.", "prime", D, ("B", "C")),
    ("Is A prime? No. Is B prime? Yes. Is C prime? Yes. Is D prime? No.", "prime", R, ("A", "D")),
    (
        "Is 9 prime? No, 9 = 3 x 3. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No, "
        "15 = 3 x 5.",
        "prime",
        D,
        ("B", "C"),
    ),
    (PRIME_Q + "\n\nAnswer: B, C", "prime", D, ("B", "C")),
    (PRIME_Q + "\n\nAnswer: A, D", "prime", D, None),
    (PRIME_Q + "\n\nAnswer: A, D", "prime", R, ("A", "D")),
    (PRIME_Q + "\n\nAnswer: B, C", "prime", R, None),
    ("Is 9 prime? Maybe. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No.", "prime", D, None),
    ("Is 9 prime? Is 11 prime? Let me think about it.", "prime", D, None),
    (
        "Is 9 prime? No. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No. Is 17 prime? Yes.",
        "prime5",
        D,
        ("B", "C", "E"),
    ),
    (
        "Is 9 prime? No. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No. Is 17 prime? Yes.",
        "prime5",
        R,
        ("A", "D"),
    ),
    (
        "Is 9 prime? No. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No.",
        "prime5",
        D,
        None,
    ),
    (
        "Is 9 composite? Yes. Is 11 composite? No. Is 13 composite? No. Is 15 composite? Yes.",
        "prime",
        D,
        ("B", "C"),
    ),
    (
        "Is Paris a capital? Yes. Is Sydney a capital? No. Is Rome a capital? Yes. Is Toronto "
        "a capital? No.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "Is Paris a capital? Yes. Is Sydney a capital? No. Is Rome a capital? Yes. Is Toronto "
        "a capital? No.",
        "cap",
        R,
        ("B", "D"),
    ),
    ("Is Paris a capital? Yes. Is Sydney a capital? No.", "cap", D, None),
    (
        "Is option A correct? No. Is option B correct? Yes. Is option C correct? Yes. Is "
        "option D correct? No.",
        "prime",
        D,
        ("B", "C"),
    ),
    (
        "Is option A correct? No. Is option B correct? Yes. Is option C correct? Yes. Is "
        "option D correct? No.",
        "prime",
        R,
        ("A", "D"),
    ),
    (
        "Is A incorrect? Yes. Is B incorrect? No. Is C incorrect? No. Is D incorrect? Yes.",
        "prime",
        R,
        ("A", "D"),
    ),
    (
        "Is A incorrect? Yes. Is B incorrect? No. Is C incorrect? No. Is D incorrect? Yes.",
        "prime",
        D,
        ("B", "C"),
    ),
    ("Is Penguin a bird? Yes. Is Bat a bird? No.", "bird", D, None),
    (
        "Is a penguin a bird? Yes. Is a bat a bird? No. Is an ostrich a bird? Yes. Is a "
        "dolphin a bird? No.",
        "bird",
        D,
        ("A", "C"),
    ),
    ("1st? No. 2nd? No. 3rd? Yes.", "ord", D, ("C",)),
    ("1st? No. 2nd? No. 3rd? Yes. 4th? No.", "ord", R, ("A", "B", "D")),
    # --- an answer line against the reply's own per-candidate lines ---
    (CAP_COLON + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_COLON + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_COLON + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_COLON + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_LABEL_COLON + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_LABEL_COLON + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_LABEL_COLON + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_LABEL_COLON + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_DASH + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_DASH + "\n\nAnswer: A", "cap", D, None),
    (CAP_DASH + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_DASH + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_DASH + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_YES_NO + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_YES_NO + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_YES_NO + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_YES_NO + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_YES_NO + "\n\nAnswer: A", "cap", D, None),
    (CAP_NOR + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_NOR + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_NOR + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_NOR + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_NEITHER + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_NEITHER + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_BULLETS + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_BULLETS + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_BULLETS + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_TABLE + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_TABLE + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_TABLE + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_WHOLE + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_WHOLE + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (CAP_WHOLE + "\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (CAP_WHOLE + "\n\nAnswer: A, C", "cap", R, None),
    (CAP_NOT_WHOLE + "\n\nAnswer: B, D", "cap", D, None),
    (CAP_NOT_WHOLE + "\n\nAnswer: B, D", "cap", R, ("B", "D")),
    (PRIME_COLON + "\n\nAnswer: A, D", "prime", D, None),
    (PRIME_COLON + "\n\nAnswer: A, D", "prime", R, ("A", "D")),
    (PRIME_COLON + "\n\nAnswer: B, C", "prime", D, ("B", "C")),
    (PRIME_COLON + "\n\nAnswer: B, C", "prime", R, None),
    (PRIME_DASH + "\n\nAnswer: A, D", "prime", D, None),
    (PRIME_DASH + "\n\nAnswer: B, C", "prime", R, None),
    (PRIME_DASH + "\n\nAnswer: B, C", "prime", D, ("B", "C")),
    (PRIME_NOR + "\n\nAnswer: A, D", "prime", D, None),
    (PRIME_NOR + "\n\nAnswer: A, D", "prime", R, ("A", "D")),
    (PRIME_WHOLE + "\n\nAnswer: A, D", "prime", D, None),
    (PRIME_WHOLE + "\n\nAnswer: A, D", "prime", R, ("A", "D")),
    (PRIME_WHOLE + "\n\nAnswer: B, C", "prime", R, None),
    (
        "Paris: capital. Sydney: not. Rome: capital. Toronto: not. Madrid: capital.\n\n"
        "Answer: B, D",
        "cap5",
        D,
        None,
    ),
    (
        "Paris: capital. Sydney: not. Rome: capital. Toronto: not. Madrid: capital.\n\n"
        "Answer: A, C",
        "cap5",
        D,
        None,
    ),
    (
        "Paris: capital. Sydney: not. Rome: capital. Toronto: not. Madrid: capital.\n\n"
        "Answer: A, C, E",
        "cap5",
        D,
        ("A", "C", "E"),
    ),
    ("Sydney is not a capital, nor is Toronto.\n\nAnswer: B, D", "cap5", D, None),
    (
        "Penguin: bird. Bat: not a bird. Ostrich: bird. Dolphin: not a bird.\n\nAnswer: B, D",
        "bird",
        D,
        None,
    ),
    (
        "Penguin: bird. Bat: not a bird. Ostrich: bird. Dolphin: not a bird.\n\nAnswer: B, D",
        "bird",
        R,
        ("B", "D"),
    ),
    # --- ordinal answers with a note of rejected values ---
    ("Answer: third (not 2nd, not 4th).", "ord", D, ("C",)),
    ("Answer: 3rd (not 2nd or 4th).", "ord", D, ("C",)),
    ("Answer: second (not first).", "ord", D, ("B",)),
    ("Answer: first. (He finished 2nd? No — 1st.)", "ord", D, ("A",)),
    ("Answer: third — not second, and not fourth.", "ord", D, ("C",)),
    ("Answer: 3rd, not 1st.", "ord", D, ("C",)),
    ("Answer: 2nd (not 3rd).", "ord", D, ("B",)),
    ("He finished third (2nd? No. 4th? No.).", "ord", D, ("C",)),
    ("Answer: fourth (not 1st, 2nd or 3rd).", "ord", D, ("D",)),
    ("Answer: third (not 2nd, not 4th).", "ord", R, None),
    # --- computed values asked, boxed, rejected ---
    ("The answer is \\boxed{52}.\n\nNot \\boxed{48}.", "prod", D, ("B",)),
    ("\\boxed{52}, not \\boxed{48}.", "prod", D, ("B",)),
    ("Not \\boxed{48}. The answer is \\boxed{52}.", "prod", D, ("B",)),
    ("Is 13 x 4 = 48? No. Is it 52? Yes.", "prod", D, ("B",)),
    ("Is it 48? No. Is it 52? Yes.", "prod", D, ("B",)),
    ("Is 13 x 4 = 52? Yes.", "prod", D, ("B",)),
    ("Is 13 x 4 = 56? No.", "prod", D, None),
    ("Is the answer 48? No. 52? Yes.", "prod", D, ("B",)),
    ("\\boxed{56} is what I'd get for 14 x 4; here the product is 52.", "prod", D, ("B",)),
    ("\\boxed{48} would be 12 x 4; 13 x 4 is 52.", "prod", D, ("B",)),
    ("The answer is 52, not 48.", "prod", D, ("B",)),
    ("Is 13 x 4 = 48? No. Is it 52? Yes.", "prod", R, None),
    # --- LaTeX sets said to be a mistake ---
    ("$\\text{Wrong} = \\{A, C\\}$ would be a mistake.", "cap", R, None),
    ("$\\text{Wrong} = \\{A, C\\}$ would be a mistake.", "cap", D, None),
    ("$\\text{Wrong} = \\{B, D\\}$", "cap", R, ("B", "D")),
    ("$\\text{Correct} = \\{A, C\\}$", "cap", D, ("A", "C")),
    ("$\\text{Correct} = \\{B, D\\}$ would be wrong.", "cap", D, None),
    ("$\\text{Wrong} = \\{A, C\\}$? No.", "cap", R, None),
    ("Writing $\\text{Correct} = \\{B, D\\}$ is a mistake.", "cap", D, None),
]

# A second batch, written after the first was built on and before it was run: probes of
# the new rules (questions in other words, revisions, lines with more words, boxes as
# subjects, sets with words around them).
CASES += [
    ("Is Sydney in Australia? Yes. Is Paris in France? Yes.", "cap", D, None),
    (
        "Is 9 prime? No — 9 = 3 x 3. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No — "
        "15 = 3 x 5.\n\nSo the primes are B and C.",
        "prime",
        D,
        ("B", "C"),
    ),
    (
        "Is 9 not prime? Yes. Is 11 not prime? No. Is 13 not prime? No. Is 15 not prime? Yes.",
        "prime",
        D,
        ("B", "C"),
    ),
    (
        "Is A correct? Yes. Is B correct? No. Is C correct? Yes. Is D correct? No.",
        "cap",
        R,
        ("B", "D"),
    ),
    (
        "Is 9 prime? No. Is 11 prime? Yes. Is 13 prime? Yes. Is 15 prime? No. Wait, is 9 "
        "prime? Yes.",
        "prime",
        D,
        ("A", "B", "C"),
    ),
    ("Could it be 48? No. Could it be 52? Yes.", "prod", D, ("B",)),
    ("Is the answer 52? Yes.", "prod", R, None),
    ("Is Penguin a mammal? No. Is Bat a mammal? Yes.", "bird", D, None),
    ("Is option A incorrect? No.", "cap", R, None),
    ("Why is 9 not prime? Because 9 = 3 x 3. Is 11 prime? Yes.", "prime", D, None),
    (
        "Paris: capital of France. Sydney: not a capital. Rome: capital of Italy. Toronto: not "
        "a capital.\n\nAnswer: B, D",
        "cap",
        D,
        None,
    ),
    ("9: composite\n11: prime\n13: prime\n15: composite\n\nAnswer: A, D", "prime", R, ("A", "D")),
    ("9 — composite; 11 — prime; 13 — prime; 15 — composite.\n\nAnswer: B, C", "prime", R, None),
    (
        "Penguin - bird; Bat - not a bird; Ostrich - bird; Dolphin - not a bird.\n\nAnswer: A, C",
        "bird",
        D,
        ("A", "C"),
    ),
    (
        "Penguin - bird; Bat - not a bird; Ostrich - bird; Dolphin - not a bird.\n\nAnswer: A",
        "bird",
        D,
        None,
    ),
    (
        "Sydney isn't a capital, nor is Toronto; Paris and Rome are.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Sydney isn't a capital, nor is Toronto.\n\nThe answer is B and D.", "cap", D, None),
    ("Paris: yes\nSydney: no\nRome: yes\nToronto: no\n\nFinal answer: B, D", "cap", D, None),
    ("A - capital, B - not, C - capital, D - not. Answer: B, D", "cap", D, None),
    ("Therefore the capital cities here are Paris and Rome.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    ("The capitals are Paris and Rome. Answer: B, D", "cap", R, ("B", "D")),
    ("Answer: 2nd (not 1st)", "ord", R, None),
    ("Answer: C (not B, not D).", "ord", D, ("C",)),
    ("Is it \\boxed{48}? No. It is \\boxed{52}.", "prod", D, ("B",)),
    ("\\boxed{52} is the product.", "prod", D, ("B",)),
    ("The answer is not \\boxed{48}.", "prod", D, None),
    ("$\\text{Correct} = \\{A, C\\}$.", "cap", D, ("A", "C")),
    ("So $\\text{Incorrect} = \\{B, D\\}$ here.", "cap", R, ("B", "D")),
]

# Replies a careful reader reads at once: these must read right, not only avoid a misread.
MUST_READ = [
    (PRIME_Q, "prime", D),
    ("Is A prime? No. Is B prime? Yes. Is C prime? Yes. Is D prime? No.", "prime", D),
    (CAP_COLON + "\n\nAnswer: A, C", "cap", D),
    (CAP_COLON + "\n\nAnswer: B, D", "cap", R),
    ("Answer: third (not 2nd, not 4th).", "ord", D),
    ("The answer is \\boxed{52}.\n\nNot \\boxed{48}.", "prod", D),
    ("Is 13 x 4 = 48? No. Is it 52? Yes.", "prod", D),
]


def _ids() -> list[str]:
    return [f"{i:03d}-{c[1]}-{c[2]}" for i, c in enumerate(CASES)]


def _read(reply: str, item: str, polarity: str) -> tuple[tuple[str, ...], bool]:
    """The labels read and whether the reading is confident."""
    reading = read_reply(reply, ITEMS[item], polarity=polarity)
    confident = reading.status.value == "ok" and not reading.weak and not reading.polarity_confusion
    return tuple(sorted(reading.labels)), confident


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [pytest.param(*case, id=name) for case, name in zip(CASES, _ids(), strict=True)],
)
def test_no_confident_misread(
    reply: str, item: str, polarity: str, expected: tuple[str, ...] | None
) -> None:
    got, confident = _read(reply, item, polarity)
    if confident:
        assert expected is not None and got == tuple(sorted(expected)), (got, expected)


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [
        pytest.param(*case, id=name)
        for case, name in zip(CASES, _ids(), strict=True)
        if case[:3] in MUST_READ
    ],
)
def test_reads_what_a_careful_reader_reads(
    reply: str, item: str, polarity: str, expected: tuple[str, ...]
) -> None:
    assert _read(reply, item, polarity) == (tuple(sorted(expected)), True)


def test_every_must_read_reply_is_a_case() -> None:
    assert all(any(case[:3] == key for case in CASES) for key in MUST_READ)
