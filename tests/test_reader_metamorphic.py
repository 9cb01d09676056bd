"""The reader under rewrites of known effect (``bench/reader_metamorphic.py``): the confident
misreads the rewrites of the visible choice corpora found, each as the phrasing it showed and
the reading a careful person gives it, and a sample of the metamorphic run itself.

Found by the runs (12 confident misreads of 15,874 variants on the reader before, of 6 replies),
while fixing them, and left by round 5's tests:

- a reply that goes through the options one by one and stops before the last, then a note
  ("... C) ACTION - This option is incorrect because it does not\n\nNote: this is a tricky
  question."): the statuses of some options are no answer (weak; cut off, it failed);
- a lead whose answer is left for the next line, and a note there ("The incorrect options
  are\n\nNote: I considered each of the options A, B, C and D."): a note is no answer;
- "only A is correct" after "A and C are correct": the others are not, from there on;
- a gloss in the question's predicate after an answer ("Answer: A, C (the capitals)." on the
  reverse leg): the answer to the direct question;
- an answer line other than the declared one ("Final answer: B, D, E", or "## Answer" and the
  labels under it) after a claim of a whole side that says otherwise ("Therefore the
  incorrect options are B and D."): no verdict, as with "Answer:";
- a candidate named with a possibility only ("4 is not prime but 9 might be."): its side is
  not told, the statuses are no whole answer (weak).
"""

from __future__ import annotations

import pytest

from bench.reader_choice_freetext import read
from bench.reader_metamorphic import (
    CORPORA,
    TRANSFORMS,
    corpus_records,
    rename,
    reorder,
    shuffle,
    variants,
)
from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["21", "23", "27", "29", "31"],
}
SMALL = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["4", "7", "9", "13"],
}
D, R = "direct", "reverse"

CASES = [
    # the options gone through one by one, some left without a side, no conclusion
    ("Option A is incorrect. Option B is correct.\n\nI hope this helps!", PRIMES, R, None),
    ("Option A is incorrect. Option B is correct.", PRIMES, D, None),
    (
        "First, 21. 21 ÷ 3 = 7, so 21 is not prime. Therefore option A is incorrect.\n\n"
        "Next, 23. Since √23 < 5, 23 is prime, so option B is correct.\n\n"
        "Next, 27. 27 ÷ 3 = 9, so 27 is\n\nNote: this is a tricky question.",
        PRIMES,
        R,
        None,
    ),
    # ... every option given a side: the statuses are the answer
    (
        "Option A is incorrect. Option B is correct. Option C is incorrect. Option D is "
        "correct. Option E is correct.",
        PRIMES,
        D,
        ("B", "D", "E"),
    ),
    ("Option B is correct.", PRIMES, D, ("B",)),
    # a note where a lead left its answer for the next line
    (
        "Sydney and Toronto are not capitals.\n\nThe incorrect options are\n\n"
        "Note: I considered each of the options A, B, C and D.",
        CAPITALS,
        R,
        None,
    ),
    ("Answer:\n\nNote: I considered each of the options A, B, C and D.", CAPITALS, D, None),
    ("The correct options are:\n\n- A\n- C", CAPITALS, D, ("A", "C")),
    ("Answer:\n\nA, C", CAPITALS, D, ("A", "C")),
    # "only" gives every other candidate the other side
    ("A and C are correct. Actually, only A is correct.", CAPITALS, D, ("A",)),
    ("A and C are correct. Actually, only C is correct.", CAPITALS, D, ("C",)),
    ("B and D are incorrect. Actually, only B is incorrect.", CAPITALS, R, ("B",)),
    ("Not only A is correct but also C is correct.", CAPITALS, D, ("A", "C")),
    # a gloss in the question's predicate says which question the answer answers
    ("Answer: A, C (the capitals).", CAPITALS, R, None),
    ("Answer: A, C (these are capitals).", CAPITALS, R, None),
    ("The answer is A, C (the capitals).", CAPITALS, R, None),
    ("Answer: B, D (not capitals).", CAPITALS, D, None),
    ("Answer: A, C (the capitals).", CAPITALS, D, ("A", "C")),
    ("Answer: B, D (not capitals).", CAPITALS, R, ("B", "D")),
    ("Answer: B, D (the non-capitals).", CAPITALS, R, ("B", "D")),
    ("Answer: A, C (Paris and Rome).", CAPITALS, R, ("A", "C")),
    # a whole side claimed before a final line that says otherwise
    (
        "Sydney is not a capital. Therefore the incorrect options are B and D.\nFinal answer: B",
        CAPITALS,
        R,
        None,
    ),
    (
        "Based on this analysis, the correct answer is A) Paris.\n\nFinal answer: A, C",
        CAPITALS,
        D,
        None,
    ),
    ("The correct options are A and C.\n\nFinal answer: A, C", CAPITALS, D, ("A", "C")),
    (
        "Based on this analysis, the correct answer is A) Paris.\n\n## Answer\nA, C",
        CAPITALS,
        D,
        None,
    ),
    (
        "Sydney is not a capital. Therefore the incorrect options are B and D.\n## Answer\nB",
        CAPITALS,
        R,
        None,
    ),
    ("The correct options are A and C.\n\n## Answer\nA, C", CAPITALS, D, ("A", "C")),
    ("Paris and Rome are capitals.\n\n## Answer\nA, C", CAPITALS, D, ("A", "C")),
    ("Therefore the incorrect options are B and D.\nFinal answer: B, D", CAPITALS, R, ("B", "D")),
    # a candidate named with a possibility only
    ("4 is not prime but 9 might be.", SMALL, R, None),
    ("4 is not prime, 9 maybe.", SMALL, R, None),
    ("7 is prime but 13 might be too.", SMALL, D, None),
    ("4 and 9 are not prime.", SMALL, R, ("A", "C")),
    ("7 and 13 are prime; 4 and 9 are not.", SMALL, D, ("B", "D")),
]


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected"),
    [pytest.param(*case, id=f"{i:02d}-{case[2]}") for i, case in enumerate(CASES)],
)
def test_reads_the_variant_found(reply: str, item: dict, polarity: str, expected) -> None:
    """``expected``: the labels, read confidently; None: failed, weak or polarity-confused
    (no confident reading)."""
    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    got = (reading.labels, reading.status.value, marked)
    if expected is None:
        assert reading.status.value == "failed" or marked, got
    else:
        assert got == (expected, "ok", False), got


def _record(reply: str, expected: list[str] | None, labels: str = "ABCD") -> dict:
    candidates = [{"label": x, "text": f"text {i}"} for i, x in enumerate(labels)]
    return {
        "id": "t",
        "item": {"id": "t", "question": "Which are correct?", "candidates": candidates},
        "polarity": "direct",
        "template": None,
        "mitigations": [],
        "reply": reply,
        "expected": expected,
    }


def test_rename_renames_labels_in_reply_item_and_expected_keeping_a() -> None:
    variant = rename(_record("I think B and D. A is wrong.\n\nAnswer: B, D", ["B", "D"]))
    assert variant is not None
    assert variant["reply"] == "I think C and B. A is wrong.\n\nAnswer: C, B"
    assert [c["label"] for c in variant["item"]["candidates"]] == ["A", "C", "D", "B"]
    assert variant["expected"] == ["B", "C"]


@pytest.mark.parametrize(
    "reply",
    [
        "Let $B = 3$; the answer is B.",  # a variable
        "Answer: BD",  # a run of labels
        "Answer: B-D",  # a range
        "Answer: (b) and (d)",  # lower case
    ],
)
def test_rename_skips_letters_it_cannot_tell_are_labels(reply: str) -> None:
    assert rename(_record(reply, ["B", "D"])) is None


def test_reorder_moves_texts_with_labels_and_skips_positions() -> None:
    variant = reorder(_record("Answer: B", ["B"]))
    assert variant is not None
    assert variant["reply"] == "Answer: D"
    assert [c["label"] for c in variant["item"]["candidates"]] == ["A", "B", "C", "D"]
    assert variant["item"]["candidates"][3]["text"] == "text 1"
    assert reorder(_record("The second option: B", ["B"])) is None


def test_shuffle_reverses_one_line_per_option_unless_a_line_leans_on_another() -> None:
    lines = "A) yes\nB) no\nC) yes\nD) no"
    variant = shuffle(_record(f"{lines}\n\nAnswer: A, C", ["A", "C"]))
    assert variant is not None
    assert variant["reply"] == "D) no\nC) yes\nB) no\nA) yes\n\nAnswer: A, C"
    assert shuffle(_record("A) yes\nB) no\nC) same as A\nD) no", ["A", "C"])) is None


def _sample(every: int = 60) -> list[dict]:
    return [record for i, record in enumerate(corpus_records(CORPORA)) if i % every == 0]


@pytest.mark.parametrize("record", [pytest.param(r, id=r["id"]) for r in _sample()])
def test_no_variant_of_a_corpus_reply_is_misread_confidently(record: dict) -> None:
    """A sample of the metamorphic run (every 60th record of the visible corpora, every
    rewrite that applies to it)."""
    outcomes = [(name, read(variant)) for name, variant in variants(record, tuple(TRANSFORMS))]
    misread = [
        (name, outcome.record["reply"][-200:], outcome.record["expected"], outcome.read)
        for name, outcome in outcomes
        if outcome.kind == "confident"
    ]
    assert not misread


FOUND = [
    ("choice-freetext", "qwen2.5-coder-1.5b-r3:40", "note"),
    ("choice-freetext", "qwen2.5-coder-1.5b-r3:40", "signoff"),
    ("choice-vault", "vault:72", "note"),
    ("choice-vault", "vault:72", "signoff"),
    ("choice-holdout-f", "holdout-f:22", "note-labels"),
    ("choice-real-b", "mmlu-pro-Qwen1.5-7B-Chat:14", "note-labels"),
    ("choice-freetext", "qwen2.5-coder-1.5b-r3:27", "final"),
    ("choice-vault", "vault:97", "final"),
    ("choice-freetext", "qwen2.5-coder-1.5b-r3:27", "heading"),
    ("choice-vault", "vault:97", "heading"),
]


@pytest.mark.parametrize(("corpus", "record_id", "name"), FOUND)
def test_the_variants_the_first_run_misread_are_not_read_confidently(
    corpus: str, record_id: str, name: str
) -> None:
    (record,) = [r for r in corpus_records((corpus,)) if r["id"] == record_id]
    variant = TRANSFORMS[name](record)
    assert variant is not None
    assert read(variant).kind != "confident"
