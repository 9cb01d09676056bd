"""The reader, two causes of confident misreads (issue 38, after vault-2):

1. candidate texts that differ only by their quotes (``0`` and ``"0"``): a reply names
   one by writing its text as written, quotes kept (``"0"`` is the string, ``0`` the
   number); a mention whose quoting tells them not apart (``'0'``, ``“0”``) names
   neither (unread or weak, never the first of them). Code spans are markup, not part
   of the text: ```0``` is ``0``, ```"0"``` is ``"0"``;
2. one label opening the reply with its text and a reason after it, on the reverse leg
   ("which are incorrect?"): the reason may say the label is right (the direct
   question's answer), so it reads at most weak, unless the reason states the label's
   incorrectness ("C. 45, since 9 × 4 is 36, not 45.");
3. a clause's subject that is a list the reader cannot read whole ("0, [], and {} are
   falsy"): never its last item alone, read confidently (a comma before "and", no verb
   before it, or a candidate's text or label before the comma, ends no subject)."""

from __future__ import annotations

import pytest
from _helpers import check_reading

FALSY = {
    "task": "choice",
    "question": "Which of these Python values are falsy?",
    "candidates": ["0", '"0"', "1", '"1"'],
}
TRUTHY = {
    "task": "choice",
    "question": "Which of these Python values are truthy?",
    "candidates": ["1", '"1"', "[]", '"None"'],
}
TIMES = {
    "task": "choice",
    "question": "What is 9 × 4?",
    "candidates": ["36", "32", "45", "40"],
}

Case = tuple[str, dict[str, object], str, "tuple[str, ...] | None"]


QUOTED: list[Case] = [
    # the text as written, quotes kept
    ('"1" and "None" are truthy.', TRUTHY, "direct", ("B", "D")),
    ('The truthy ones are "1" and "None".', TRUTHY, "direct", ("B", "D")),
    ('1, "1" and "None" are truthy.', TRUTHY, "direct", ("A", "B", "D")),
    ("The falsy one is 0.", FALSY, "direct", ("A",)),
    ('The incorrect ones are "0", 1 and "1".', FALSY, "reverse", ("B", "C", "D")),
    # code spans are markup
    ('`"0"`, `1` and `"1"` are the incorrect ones.', FALSY, "reverse", ("B", "C", "D")),
    ('`"1"` and `"None"` are truthy.', TRUTHY, "direct", ("B", "D")),
    ("The falsy one is `0`.", FALSY, "direct", ("A",)),
    # labels say it whatever the texts
    ("B, C and D are the incorrect ones.", FALSY, "reverse", ("B", "C", "D")),
    # near-misses: quoting that tells 0 from "0" not apart names neither
    ("'1' and \"None\" are truthy.", TRUTHY, "direct", None),
    ("The truthy ones are “1” and “None”.", TRUTHY, "direct", None),
    ("The incorrect ones are '0', 1 and '1'.", FALSY, "reverse", None),
    ("The falsy one is '0'.", FALSY, "direct", None),
    ("- '0'\n- 1\n- '1'", FALSY, "reverse", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), QUOTED)
def test_texts_that_differ_only_by_quotes(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


REASONED: list[Case] = [
    # the direct leg, and a bare label and text on either leg, read as before
    ("A. 36, since four nines make thirty-six.", TIMES, "direct", ("A",)),
    ("A. 36", TIMES, "reverse", ("A",)),
    # the reason states the label's incorrectness
    ("C. 45, since 9 × 4 is 36, not 45.", TIMES, "reverse", ("C",)),
    ("B: 32, because 9 × 4 = 36 and not 32.", TIMES, "reverse", ("B",)),
    ("D. 40, which is wrong.", TIMES, "reverse", ("D",)),
    # near-misses: a reason that says the label is right, or says not that it is wrong
    ("A. 36, since four nines make thirty-six.", TIMES, "reverse", None),
    ("A: 36, because 9 × 4 = 36.", TIMES, "reverse", None),
    ("A. 36 (four nines make thirty-six).", TIMES, "reverse", None),
    ("A. 36. Four nines make thirty-six.", TIMES, "reverse", None),
    ("B. 32, since 8 × 4 = 32.", TIMES, "reverse", None),
    ("A. 36, since 9 × 4 is 36, not 45.", TIMES, "reverse", None),
    ("D. 40, which is not wrong.", TIMES, "reverse", None),
    ("B. 32, not 36.", TIMES, "reverse", None),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), REASONED)
def test_one_label_with_a_reason_on_the_reverse_leg(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)


LISTED = {
    "task": "choice",
    "question": "Which of these Python values are falsy?",
    "candidates": ["0", "1", "[]", "{}"],
}

LIST_TAILS: list[Case] = [
    ("0, [], and {} are falsy.", LISTED, "direct", None),
    ("`0`, `[]`, and `{}` are falsy.", LISTED, "direct", None),
    ("`0`, `[]`, `{}` are falsy.", LISTED, "direct", None),
    # a subject after a comma that parts no list
    ("So, D is falsy.", LISTED, "direct", ("D",)),
    ("In Python, `{}` is falsy.", LISTED, "direct", ("D",)),
    ("A is falsy, and D is falsy.", LISTED, "direct", ("A", "D")),
]


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), LIST_TAILS)
def test_a_subject_list_never_its_last_item_alone(
    reply: str, item: dict[str, object], polarity: str, expected: tuple | None
) -> None:
    check_reading(reply, item, polarity, expected)
