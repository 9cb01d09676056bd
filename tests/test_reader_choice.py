"""The reader on multiple-choice replies, in the forms of issue 22 (the earlier forms are
in test_parsing.py): the conclusion decides wherever it is, options discussed in
reasoning add nothing, a judge may give each option a status (lines, tables, JSON,
check marks), name options by position ("option 3", "the first option"), revise
itself, or name a label with another option's text (not read, reported)."""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard.models import ParseMethod, ParseStatus, Polarity
from prin_guard.reader import parse_reply

LABELS = ("A", "B", "C", "D", "E")
TEXTS = ("7", "8", "9", "10", "11")
OK, NONE, FAILED = ParseStatus.OK, ParseStatus.NONE, ParseStatus.FAILED
DIRECT, REVERSE = Polarity.DIRECT, Polarity.REVERSE
STRUCT, TAG, FINAL, FORMS, TEXT = (
    ParseMethod.STRUCTURED,
    ParseMethod.ANSWER_TAG,
    ParseMethod.FINAL_LINE,
    ParseMethod.LABEL_FORMS,
    ParseMethod.CANDIDATE_TEXT,
)
VERDICT = ParseMethod.VERDICT_TAG
PER_CANDIDATE = ParseMethod.PER_CANDIDATE

PER_OPTION_LINES = (
    "A) 7: 101*49 = 4949 <= 10000, correct.\nB) 8: 6464, correct.\nC) 9: 8181, correct.\n"
    "D) 10: 10100, incorrect.\nE) 11: 12221, incorrect."
)
TABLE_CORRECT = (
    "| Option | Correct? |\n|---|---|\n| A | No |\n| B | No |\n| C | Yes |\n| D | No |\n| E | No |"
)


def row(
    reply: str,
    labels: tuple[str, ...],
    method: ParseMethod | None,
    span: str | None,
    *,
    polarity: Polarity | None = DIRECT,
    disagreement: bool = False,
    id: str,
) -> Any:
    status = FAILED if method is None else OK if labels else NONE
    return pytest.param(reply, polarity, labels, status, method, span, disagreement, id=id)


TABLE = [
    # -- where the conclusion is -------------------------------------------------------------
    row(
        "Option A is too small. Option B is too small. Option C gives 8181, the largest that "
        "fits. Therefore, the correct answer is C.",
        ("C",),
        FORMS,
        "C",
        id="concludes-last-after-discussing-each-option",
    ),
    row(
        "The correct answer is C. A and B are too small; D and E exceed the bound.",
        ("C",),
        FORMS,
        "C",
        id="concludes-first",
    ),
    row(
        "Let me check each option: (A) 4949, (B) 6464, (C) 8181, (D) 10100, (E) 12221.\n"
        "So the incorrect options are D and E.",
        ("D", "E"),
        FORMS,
        "D and E",
        polarity=REVERSE,
        id="marked-options-in-reasoning-add-nothing",
    ),
    row(
        "At first I thought the answer is A. But 101*81 = 8181 fits, so the answer is C.",
        ("C",),
        FORMS,
        "C",
        id="first-thought-then-conclusion",
    ),
    row(
        "The answer is A. Hmm, no. The answer is D.",
        ("D",),
        FORMS,
        "D",
        id="revised",
    ),
    row(
        "The answer is A.\n101 * 49 = 4949.\nThe answer is D.",
        (),
        None,
        None,
        id="conclusions-that-disagree",
    ),
    row(
        "Let me compute.\nThe correct answer is C since 9 fits.\nNext I double-check 10.",
        ("C",),
        FORMS,
        "C",
        id="a-lone-claim-in-reasoning",
    ),
    row(
        "The correct options are A, B and C, since D and E exceed 10000.",
        ("A", "B", "C"),
        FORMS,
        "A, B and C",
        id="the-correct-options-are",
    ),
    row(
        "All options except C are incorrect.",
        ("A", "B", "D", "E"),
        FORMS,
        "All options except C",
        polarity=REVERSE,
        id="all-except",
    ),
    # -- each option's status -------------------------------------------------------------
    row(PER_OPTION_LINES, ("A", "B", "C"), PER_CANDIDATE, None, id="per-option-lines"),
    row(
        PER_OPTION_LINES,
        ("D", "E"),
        PER_CANDIDATE,
        None,
        polarity=REVERSE,
        id="per-option-lines-reverse",
    ),
    row(TABLE_CORRECT, ("C",), PER_CANDIDATE, "C", id="table"),
    row(
        TABLE_CORRECT,
        ("A", "B", "D", "E"),
        PER_CANDIDATE,
        None,
        polarity=REVERSE,
        id="table-reverse",
    ),
    row(
        "| Option | Verdict |\n|---|---|\n| A | incorrect |\n| B | incorrect |\n| C | correct |"
        "\n| D | incorrect |\n| E | incorrect |",
        ("C",),
        PER_CANDIDATE,
        "C",
        id="table-of-words",
    ),
    row(
        '{"A": "incorrect", "B": "incorrect", "C": "correct", "D": "incorrect", "E": "incorrect"}',
        ("A", "B", "D", "E"),
        STRUCT,
        None,
        polarity=REVERSE,
        id="json-map",
    ),
    row(
        '{"A": false, "B": false, "C": true, "D": false, "E": false}',
        ("C",),
        STRUCT,
        "true",
        id="json-map-of-booleans",
    ),
    row("- A: ✗\n- B: ✗\n- C: ✓\n- D: ✗\n- E: ✗", ("C",), PER_CANDIDATE, "C", id="check-marks"),
    row("- [ ] A\n- [ ] B\n- [x] C", ("C",), PER_CANDIDATE, "C", id="check-boxes"),
    row(
        "If n = 10, 101*100 = 10100 > 10000, so D is incorrect. E is incorrect too. "
        "A, B and C are correct.",
        ("D", "E"),
        FORMS,
        None,
        polarity=REVERSE,
        id="per-option-sentences",
    ),
    row(
        "A is correct. On reflection, A is incorrect: 7 is not the greatest. C is correct.",
        ("A",),
        FORMS,
        "A",
        polarity=REVERSE,
        id="the-last-status-of-an-option-stands",
    ),
    # -- positions and nouns ---------------------------------------------------------------
    row("The first option is correct.", ("A",), FORMS, "first", id="first-option"),
    # a number for a lettered option is no label: the third, or the one whose text is 3?
    row("Option 3 is correct.", (), None, None, id="option-by-number"),
    row("Options 4 and 5 are wrong.", (), None, None, polarity=REVERSE, id="numbers"),
    row("option C", ("C",), FORMS, "C", id="option-letter-is-kept"),
    # -- label and text that disagree -------------------------------------------------------
    row("The answer is C) 8", (), None, None, disagreement=True, id="label-with-anothers-text"),
    row("Answer: C) 8", (), None, None, disagreement=True, id="answer-line-disagrees"),
    row("Answer: C) 9", ("C",), FINAL, "C", id="answer-line-agrees"),
    row('"B) 9"', (), None, None, disagreement=True, id="quoted-disagrees"),
    row("The answer is B) 8 because 8 * 8 = 64.", ("B",), FORMS, "B", id="label-text-agree"),
    # -- other formats ------------------------------------------------------------------------
    row("[[C]]", ("C",), VERDICT, "C", id="verdict-tag-names-an-option"),
    row("Final verdict: C", ("C",), FINAL, "C", id="final-verdict-line"),
    row(
        "Conclusion: options D and E are incorrect.",
        ("D", "E"),
        FINAL,
        "D and E",
        polarity=REVERSE,
        id="conclusion-line",
    ),
    row(
        "Conclusion: C is correct.",
        (),
        None,
        None,
        polarity=REVERSE,
        id="conclusion-line-in-the-other-words",
    ),
    row("The greatest value is 9.\nAnswer: 9", ("C",), FINAL, "9", id="answer-by-text"),
    row("9", ("C",), TEXT, "9", id="bare-text"),
    # -- no verdict ----------------------------------------------------------------------------
    row("I cannot determine the answer without more information.", (), None, None, id="cannot"),
    row("If 9 fits, the answer is C.", (), None, None, id="conditional"),
    row(
        "Let me check each option. A) 7 gives 4949, B) 8 gives",
        (),
        None,
        None,
        id="cut-off-is-not-read-from-loose-forms",
    ),
    row(
        "The correct answer is C.",
        (),
        None,
        None,
        polarity=REVERSE,
        id="reverse-answering-the-other-question",
    ),
    row(
        "A is correct. B is incorrect.",
        (),
        None,
        None,
        polarity=None,
        id="both-words-without-a-polarity",
    ),
]


@pytest.mark.parametrize(
    ("reply", "polarity", "labels", "status", "method", "span", "disagreement"), TABLE
)
def test_choice_replies(
    reply: str,
    polarity: Polarity | None,
    labels: tuple[str, ...],
    status: ParseStatus,
    method: ParseMethod | None,
    span: str | None,
    disagreement: bool,
) -> None:
    result = parse_reply(reply, LABELS, TEXTS, polarity=polarity)
    assert result.labels == labels
    assert result.status is status
    assert result.method is method
    assert result.disagreement is disagreement
    if span is None:
        assert result.span is None
    else:
        assert result.span is not None
        assert reply[result.span[0] : result.span[1]] == span


def test_the_table_has_forty_styles() -> None:
    assert len(TABLE) >= 40
