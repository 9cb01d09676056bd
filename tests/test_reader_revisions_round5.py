"""Revisions (issue 38, round 5): replies that take back, change, add to or keep what they
said before ("wait, no", "actually", "Correction:", "scratch that", "I misspoke", "on
reflection", "let me reconsider ... my answer stands", "Corrected answer:"), read on both
legs of choice items of four and five options. Written, with the careful reading of each,
before the reader was run on them (the last two: found while building the mechanism).

What a careful reader concludes, and so what these cases expect:

- the revisions apply in order; the last stance given to a candidate stands ("C is wrong.
  No wait, C is right." keeps C);
- "X is also <side>" adds X to the candidates on that side. On the leg's own side it adds
  X to the answer ("Answer: A / Correction: C is also correct." reads A, C on the direct
  leg). On the other side, "also" needs an antecedent there: another candidate the reply
  put on that side before (then X is off the answer, which it mostly was already); with
  none, the antecedent is the answer itself, which then reads as the other leg's answer,
  and a careful reader cannot tell which leg it answered (None);
- a correction that puts a candidate of the answer on the other side removes it; one that
  puts a candidate outside the answer on the leg's side without "also" adds it;
- a revision that is only a doubt ("maybe C is wrong? I'm not sure") leaves no confident
  reading (None); one that reconsiders and keeps the answer ("my answer stands") keeps it.

Two checks: no confident misread (a reading that is ok, not weak, not polarity-confused,
with other labels than the careful one), for every case; and the careful reading itself
(ok, the same labels; weak allowed) for the cases that have one, where the reader misses
some (kept as strict xfails in ``UNREAD``: an unread reply is allowed, a misread is not).
"""

from __future__ import annotations

import pytest

from prin_guard import read_reply

ITEMS = {
    # direct: A, C; reverse: B, D
    "cap": {
        "task": "choice",
        "question": "Which of these cities are national capitals?",
        "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
    },
    # direct: B, D; reverse: A, C, E
    "prime": {
        "task": "choice",
        "question": "Which of these numbers are prime?",
        "candidates": ["4", "7", "9", "11", "15"],
    },
    # direct: B, C; reverse: A, D
    "even": {
        "task": "choice",
        "question": "Which of these numbers are even?",
        "candidates": ["3", "8", "10", "13"],
    },
}

D, R = "direct", "reverse"

CASES = [
    # --- revisions reverted: the last stance stands ---
    (
        "Answer: B, D\n\nActually, D is correct. No wait, D is incorrect after all.",
        "cap",
        R,
        ("B", "D"),
    ),
    (
        "Answer: A, C\n\nWait, no: C is wrong. Hmm, no, C is right — Rome is Italy's capital.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "Answer: B, D\n\nCorrection: B is correct. No, scratch that, B is incorrect.",
        "cap",
        R,
        ("B", "D"),
    ),
    (
        "The correct options are A and C. Wait, C is wrong. No wait, C is right.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: B\n\nActually, D is also correct. No, wait: D is not correct.", "prime", D, ("B",)),
    (
        "Answer: A, C, E\n\nActually, C is correct. No, wait: 9 = 3 x 3. C is incorrect.",
        "prime",
        R,
        ("A", "C", "E"),
    ),
    (
        "Answer: B, D\n\nCorrection: A is also correct. No, wait, 4 = 2 x 2, A is not.",
        "prime",
        D,
        ("B", "D"),
    ),
    (
        "Answer: B, C\n\nActually, C is wrong. No wait, C is right: 10 is even.",
        "even",
        D,
        ("B", "C"),
    ),
    # --- chains of two or three revisions ---
    ("Answer: A\n\nActually, C is correct too. Wait, no — A is wrong; only C.", "cap", D, ("C",)),
    (
        "Answer: A, C\n\nCorrection: the answer is C. Wait, no: the answer is A, C after all.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "Answer: B\n\nWait, D is also correct. Actually, B is wrong. No, B is right.",
        "prime",
        D,
        ("B", "D"),
    ),
    (
        "Answer: A\n\nCorrection: the answer is B. Actually, no, the answer is C. On second "
        "thought, the answer is A.",
        "cap",
        D,
        ("A",),
    ),
    (
        "Answer: B, D\n\nWait, B is correct. No wait, B is incorrect. Actually, B is correct.",
        "cap",
        R,
        ("D",),
    ),
    (
        "Answer: A, D\n\nWait, D is even? No, 13 is odd. Correction: D is incorrect.",
        "even",
        D,
        ("A",),
    ),
    # --- additive corrections on the leg's side: they add ---
    ("Answer: A\n\nCorrection: C is also correct.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nCorrection: E is also incorrect.", "prime", R, ("A", "C", "E")),
    ("Answer: B\n\nOn reflection, D is correct as well.", "prime", D, ("B", "D")),
    ("Answer: A, C\n\nActually, E is wrong too.", "prime", R, ("A", "C", "E")),
    ("Answer: B, D\n\nCorrection: A is also incorrect.", "cap", R, ("A", "B", "D")),
    ("Answer: B\n\nWait, C is also even: 10 = 2 x 5.", "even", D, ("B", "C")),
    ("Answer: A\n\nCorrection: D is also wrong.", "even", R, ("A", "D")),
    # --- additive corrections on the other side: no antecedent there, the leg is unclear ---
    ("Answer: A\n\nCorrection: C is also incorrect.", "cap", D, None),
    ("Answer: B, D\n\nCorrection: E is also incorrect.", "prime", D, None),
    ("Answer: A, C, E\n\nCorrection: B is also correct.", "prime", R, None),
    ("Answer: B, D\n\nCorrection: A is also correct.", "cap", R, None),
    ("Answer: A, C\n\nActually, B is incorrect too.", "cap", D, None),
    ("Answer: A, D\n\nActually, C is right as well.", "even", R, None),
    # --- ... with an antecedent on the other side: the answer stands ---
    (
        "A is correct. B is incorrect, and D is also incorrect.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: A, C\n\nB is not a capital. Correction: D is also incorrect.", "cap", D, ("A", "C")),
    ("Answer: B, D\n\nA is correct. Actually, C is also correct.", "cap", R, ("B", "D")),
    # --- corrections that name the other side ---
    ("Answer: A, C\n\nCorrection: the incorrect ones are B and D.", "cap", D, ("A", "C")),
    ("Answer: B, D\n\nCorrection: the correct ones are B and D.", "cap", R, None),
    ("Answer: A, C\n\nCorrection: C is incorrect.", "cap", D, ("A",)),
    ("Answer: A\n\nCorrection: A is incorrect; C is correct.", "cap", D, ("C",)),
    ("Incorrect: B, D\n\nCorrection: D is correct.", "cap", R, ("B",)),
    ("Answer: B, D\n\nCorrection: B is actually correct.", "cap", R, ("D",)),
    ("Answer: B, C, D\n\nCorrection: C is incorrect.", "prime", D, ("B", "D")),
    ("Answer: A, C\n\nCorrection: E is incorrect too, and C is correct.", "prime", R, ("A", "E")),
    ("Answer: A, C\n\nActually, I should add that B and D are incorrect.", "cap", D, ("A", "C")),
    # --- scratch that, I misspoke, corrected answers ---
    ("Answer: B\n\nScratch that. Answer: D", "cap", D, ("D",)),
    (
        "The answer is A and D. Scratch that — I misspoke: the answer is A and C.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: A, D\n\nI misspoke: D should be C. Answer: A, C", "cap", D, ("A", "C")),
    ("Answer: A, C, D\n\nI misspoke about D; it is not a capital.", "cap", D, ("A", "C")),
    ("Incorrect: B, C\n\nI misspoke: I meant B, D.", "cap", R, ("B", "D")),
    ("Answer: A\n\nCorrected answer: A, C", "cap", D, ("A", "C")),
    ("Answer: B\n\nRevised answer: B, D", "cap", R, ("B", "D")),
    ("Answer: A, C\n\nUpdated answer: A, C", "cap", D, ("A", "C")),
    # --- on reflection, reconsidering and keeping ---
    ("Answer: B, D\n\nOn reflection, D is incorrect.", "prime", D, ("B",)),
    ("Answer: A\n\nOn reflection, the correct ones are A and C.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nLet me reconsider C... no, my answer stands.", "cap", D, ("A", "C")),
    (
        "Answer: B, D\n\nLet me reconsider. Sydney is not a capital and Toronto is not either. "
        "My answer stands: B, D.",
        "cap",
        R,
        ("B", "D"),
    ),
    (
        "Answer: A, C\n\nLet me double-check: Paris is France's capital, Rome is Italy's. "
        "Yes, A and C.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: B, D\n\nOn second thought, my answer stands.", "cap", R, ("B", "D")),
    ("Answer: A, C\n\nOn reflection, I'm confident: A and C.", "cap", D, ("A", "C")),
    # --- revisions inside the reasoning, before the final answer line ---
    (
        "Paris is a capital. Sydney is a capital — wait, no, Canberra is. Rome is a capital. "
        "Toronto is not.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "A is correct. B is correct. Actually, B is incorrect: Sydney is not the capital. C is "
        "correct, D is incorrect.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "4 is not prime. 7 is prime. 9 is prime — wait, 9 = 3 x 3, not prime. 11 is prime. "
        "15 is not.\n\nAnswer: B, D",
        "prime",
        D,
        ("B", "D"),
    ),
    (
        "4 is not prime. 7 is prime. 9 is prime — wait, 9 = 3 x 3, not prime. 11 is prime. "
        "15 is not.\n\nAnswer: A, C, E",
        "prime",
        R,
        ("A", "C", "E"),
    ),
    (
        "B is incorrect. D is incorrect. A is incorrect — no wait, Paris is a capital, A is "
        "correct.\n\nAnswer: B, D",
        "cap",
        R,
        ("B", "D"),
    ),
    # --- revisions after the answer line, to a new answer ---
    (
        "Answer: B\n\nWait, I misread: it asks for the even ones. Answer: B, C",
        "even",
        D,
        ("B", "C"),
    ),
    ("Answer: D\n\nWait, no, 11 is prime but so is 7. Final answer: B, D", "prime", D, ("B", "D")),
    (
        "Answer: A, C\n\nWait, Rome is not... no, Rome is the capital of Italy. A, C.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: A, C, D\n\nCorrection: Toronto is not a capital.", "cap", D, ("A", "C")),
    # --- revisions in prose, no answer line ---
    ("A and C are correct. Actually, only A is correct.", "cap", D, ("A",)),
    ("B and D are incorrect. On second thought, B is correct.", "cap", R, ("D",)),
    # --- hedged revisions: no confident reading ---
    ("Answer: A, C\n\nActually, maybe C is wrong? I'm not sure.", "cap", D, None),
    ("Answer: B, D\n\nHmm, perhaps D is correct after all.", "cap", R, None),
    ("Answer: A\n\nActually, C could be correct too, I'm not certain.", "cap", D, None),
    (
        "Answer: B\n\nOn second thought, D might also be correct, but I'll keep B.",
        "prime",
        D,
        ("B",),
    ),
    # --- found while building (after the first run): a retraction that restates a side ---
    ("A and C are correct. Wait, no: only A is correct.", "cap", D, ("A",)),
    ("A and C are correct. Wait, no: only A is correct.", "cap", R, None),
]


def _ids() -> list[str]:
    return [f"{i:03d}-{c[1]}-{c[2]}" for i, c in enumerate(CASES)]


XFAIL: dict[int, str] = {}
"""Confident misreads left (none is allowed to be added silently)."""

UNREAD: dict[int, str] = {
    6: "'No, wait, 4 = 2 x 2, A is not.': an elliptic status after a retraction (weak)",
    8: "'Wait, no — A is wrong; only C.': the retraction takes the addition back too (weak)",
    9: "'the answer is A, C after all' is no whole claim (weak C)",
    28: "'B is not a capital. Correction: D is also incorrect.' (failed)",
    42: "'I misspoke about D; it is not a capital.': 'it' is D (weak A, C, D)",
    43: "'I misspoke: I meant B, D.' after a heading (weak B, C)",
    60: "'Final answer: B, D' after 'Answer: D' and a revision (weak D)",
    62: "'Correction: Toronto is not a capital.': a candidate's text in the predicate (weak)",
}
"""Careful readings the reader does not reach (weak or failed readings are allowed)."""


def _params(skip: dict[int, str], *, read_only: bool = False) -> list:
    out = []
    for i, (reply, item, polarity, expected) in enumerate(CASES):
        if read_only and expected is None:
            continue
        marks = pytest.mark.xfail(strict=True, reason=skip[i]) if i in skip else ()
        out.append(pytest.param(reply, item, polarity, expected, marks=marks, id=_ids()[i]))
    return out


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), _params(XFAIL))
def test_no_confident_misread(reply: str, item: str, polarity: str, expected) -> None:
    reading = read_reply(reply, ITEMS[item], polarity=polarity)
    if reading.status.value != "ok" or reading.weak or reading.polarity_confusion:
        return
    got = tuple(sorted(reading.labels))
    assert expected is not None and got == tuple(sorted(expected)), (got, expected)


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), _params(UNREAD, read_only=True))
def test_reads_the_final_stance(reply: str, item: str, polarity: str, expected) -> None:
    reading = read_reply(reply, ITEMS[item], polarity=polarity)
    assert reading.status.value == "ok" and not reading.polarity_confusion, reading
    assert tuple(sorted(reading.labels)) == tuple(sorted(expected)), reading
