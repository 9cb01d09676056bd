"""The reader, a declared answer that a later claim about every candidate at once
contradicts (issue 38: found by the closing-line work of round 6, a confident misread):
"Answer: A, C" and then "None of them is right." or "All of them are correct." says two
things; with no revision between them, a careful reader takes neither. A claim about the
others only ("None of the others is right."), a revision ("Actually, none of them is
right."), and a claim that agrees with the answer are read as before. The phrasings are
new (none is a corpus reply)."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}
PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["7", "9", "11", "15"],
}

CONTRADICTED = [
    ("Answer: A, C\n\nNote: none of them is right.", CAPITALS, "direct"),
    pytest.param(
        "Answer: A, C. None of them is right.",
        CAPITALS,
        "direct",
        marks=pytest.mark.xfail(strict=True, reason="the answer line's slot reads its labels only"),
    ),
    ("Answer: A, C\n\nAll of them are correct.", CAPITALS, "direct"),
    ("Answer: B, D\n\nNone of them is wrong.", CAPITALS, "reverse"),
    pytest.param(
        "Answer: B, D\n\nAll four are incorrect.",
        CAPITALS,
        "reverse",
        marks=pytest.mark.xfail(strict=True, reason="'All four are ...' is not read as a claim"),
    ),
    ("Answer: A, C\n\nNone of these numbers is prime.", PRIMES, "direct"),
    ("Answer: A\nEvery one of them is prime.", PRIMES, "direct"),
]

KEPT = [
    ("Answer: A, C\n\nNone of the others is right.", CAPITALS, "direct", ("A", "C")),
    ("Answer: none\n\nNone of them is right.", CAPITALS, "direct", ()),
    ("Answer: A, C\n\nActually, none of them is right.", CAPITALS, "direct", ()),
    ("Answer: A, B, C, D\n\nAll of them are correct.", CAPITALS, "direct", ("A", "B", "C", "D")),
    ("Answer: A, C\n\nHope this helps!", CAPITALS, "direct", ("A", "C")),
]


@pytest.mark.parametrize(("reply", "item", "polarity"), CONTRADICTED)
def test_a_later_claim_about_every_candidate_that_disagrees_leaves_no_confident_verdict(
    reply: str, item: dict[str, object], polarity: str
) -> None:
    reading = read_reply(reply, item, polarity=polarity)
    got = (reading.labels, reading.status.value, reading.weak)
    assert reading.status.value == "failed" or reading.weak or reading.polarity_confusion, got


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), KEPT)
def test_claims_that_agree_revise_or_speak_of_the_others_are_read_as_before(
    reply: str, item: dict[str, object], polarity: str, expected: tuple[str, ...]
) -> None:
    reading = read_reply(reply, item, polarity=polarity)
    got = (reading.labels, reading.status.value)
    assert got == (expected, "ok" if expected else "none"), got
    assert not reading.weak, reading
