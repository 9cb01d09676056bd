"""The reader, a reply's closing lines that name no label, no option text and no side
(issue 38's metamorphic property): a note ("Note: questions like this are easy to rush."),
a sign-off ("Hope that helps!"), an offer of help ("Let me know if you want more detail.")
after the reply changes nothing. The phrasings are new (none is a corpus reply):

1. a reply read right without its closing lines is read the same with them, on both legs;
2. a reply cut off mid-sentence ("... so the answer is", "... 15 — ") is cut off whatever
   closing lines follow it: never read confidently (a closing line that quotes an option's
   text is no answer either);
3. a closing line that carries a verdict is no closer: "Note: C is also correct.", "Hope
   this helps: the answer is C.", "Note: none of them is right." are read as before (they
   change the reading, or leave it failed or marked, never a confident misread)."""

from __future__ import annotations

import pytest
from _helpers import check_reading

from prin_guard import read_reply

PRIMES = {
    "task": "choice",
    "question": "Which of these numbers are prime?",
    "candidates": ["7", "9", "11", "15"],
}
SPEED = {
    "task": "choice",
    "question": "A train covers 240 km in 3 hours. What is its average speed?",
    "candidates": ["60 km/h", "80 km/h", "90 km/h", "120 km/h"],
}
CAPITALS = {
    "task": "choice",
    "question": "Which of these cities are capitals?",
    "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
}

CLOSERS = [
    "\n\nNote: questions like this are easy to rush.",
    "\n\nHope that helps!",
    "\n\nLet me know if you want more detail.",
    "\n\nP.S. Good luck with your studies!",
    "\n\n**Note:** I double-checked the arithmetic.\n\nFeel free to ask a follow-up.",
]

Case = tuple[str, dict[str, object], str, "tuple[str, ...] | None"]

# replies read right (confidently) without a closing line
READ: list[Case] = [
    (
        "7 and 11 have no divisors but 1 and themselves.\n\nAnswer: A, C",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    ("9 = 3 × 3 and 15 = 3 × 5.\n\nAnswer: B, D", PRIMES, "reverse", ("B", "D")),
    ("240 / 3 = 80.\n\nSo the average speed is 80 km/h.", SPEED, "direct", ("B",)),
    ("240 / 3 = 80, so the train averages 80 km/h.\n\nB", SPEED, "direct", ("B",)),
    (
        "Sydney and Toronto are the odd ones out; the rest are capitals.",
        CAPITALS,
        "direct",
        ("A", "C"),
    ),
    ("Paris and Rome are capitals.\n\nThe wrong ones: B and D.", CAPITALS, "reverse", ("B", "D")),
]

# replies cut off mid-sentence: failed or marked, whatever follows
CUT: list[Case] = [
    (
        "240 / 3 = 80 km/h. Let me check: 80 × 3 = 240. Yes.\n\nSo the answer is",
        SPEED,
        "direct",
        None,
    ),
    ("7 — prime. 9 = 3 × 3, not prime. 11 — prime. 15 — ", PRIMES, "direct", None),
    ("7 — prime. 9 = 3 × 3, not prime. 11 — prime. 15 — ", PRIMES, "reverse", None),
]

# closing lines that carry a verdict: not skipped
VERDICT_CLOSERS: list[Case] = [
    ("Answer: A\n\nNote: C is also correct.", PRIMES, "direct", ("A", "C")),
    ("Answer: A, C\n\nNote: 9 is also prime.", PRIMES, "direct", ("A", "B", "C")),
    (
        "7 and 11 have no divisors but 1 and themselves.\n\nHope this helps: the answer is A, C.",
        PRIMES,
        "direct",
        ("A", "C"),
    ),
    ("Paris looks like one, but hmm.\n\nNote: none of them is right.", CAPITALS, "direct", ()),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), READ)
def test_read_without_closers(
    reply: str, item: dict[str, object], polarity: str, expected: tuple
) -> None:
    check_reading(reply, item, polarity, expected)


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected", "closer"),
    [pytest.param(*case, closer) for case in READ for closer in CLOSERS],
)
def test_closers_change_nothing(
    reply: str, item: dict[str, object], polarity: str, expected: tuple, closer: str
) -> None:
    check_reading(reply + closer, item, polarity, expected)


@pytest.mark.parametrize(
    ("reply", "item", "polarity", "expected", "closer"),
    [
        pytest.param(*case, closer)
        for case in CUT
        for closer in [
            *CLOSERS,
            '\n\nNote: I read "80 km/h" carefully.',
            '\n\nNote: I read "9" carefully.',
        ]
    ],
)
def test_cut_off_before_closers(
    reply: str, item: dict[str, object], polarity: str, expected: None, closer: str
) -> None:
    check_reading(reply, item, polarity, expected)
    check_reading(reply + closer, item, polarity, expected)


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), VERDICT_CLOSERS)
def test_verdict_closers_are_read(
    reply: str, item: dict[str, object], polarity: str, expected: tuple
) -> None:
    """Read with its verdict, else failed or marked: never confidently without it."""
    reading = read_reply(reply, item, polarity=polarity)
    if reading.status.value != "failed" and not (reading.weak or reading.polarity_confusion):
        assert reading.labels == expected, reading


@pytest.mark.parametrize(
    ("closer", "skipped"),
    [
        ("Note: questions like this are easy to rush.", True),
        ("I hope this helps!", True),
        ("Thanks for the interesting puzzle.", True),
        ("Note: the question is a bit ambiguous.", False),  # a hedge
        ("Note: C is also correct.", False),
        ("Note: 9 = 3 × 3.", False),
        ("Note: I is the odd one out.", False),  # "I" the label
        ("Let me know if you disagree.", False),
        ("Note: Rome was the hardest to place.", False),  # an option's text
        ("Hope this helps: the answer is A, C.", False),
    ],
)
def test_which_closers_are_skipped(closer: str, skipped: bool) -> None:
    """Which closing lines the reply is read without (``closers_start``)."""
    from prin_guard.reader._closers import closers_start
    from prin_guard.reader._evidence import _Context
    from prin_guard.reader._text import _keys_of, _Texts
    from prin_guard.reader._vocab import _Vocab

    labels = list("ABCDEFGHIJ")
    texts = ["Paris", "Sydney", "Rome", "Toronto", *"56789", "10"]
    ctx = _Context(
        _keys_of(labels),
        labels,
        _Texts(labels, texts),
        _Vocab.of(None, "choice", None),
        1,
        "choice",
    )
    reply = "Paris and Rome.\n\nAnswer: A, C\n\n" + closer
    cut = closers_start(reply, ctx)
    assert (cut < len(reply), reply[:cut].rstrip()) == (
        skipped,
        "Paris and Rome.\n\nAnswer: A, C" if skipped else reply,
    )
