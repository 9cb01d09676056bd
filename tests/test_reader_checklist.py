"""The reader on checklist replies (issue 22): which criteria a response meets (the
direct leg) or fails to meet (the reverse leg), which claims the sources support or do
not support. Judges answer with an answer line, or give each candidate a status: list
lines, check marks, check boxes, tables, JSON maps, sentences. A yes/no answers the
table column's question when it has one ("Met?"), else the leg's question."""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard.models import ParseMethod, ParseStatus, Polarity
from prin_guard.reader import parse_reply

CRITERIA = ("A", "B", "C")
TEXTS = ("Uses a formal tone", "Stays under 100 words", "Cites a source")
CLAIMS = ("A", "B")
CLAIM_TEXTS = ("Paris is the capital of France.", "The Eiffel Tower is 500 m tall.")
ONE = ("A",)
ONE_TEXT = ("Is under 100 words",)
OWN = ("Q1", "Q2", "Q3")
OK, NONE, FAILED = ParseStatus.OK, ParseStatus.NONE, ParseStatus.FAILED
DIRECT, REVERSE = Polarity.DIRECT, Polarity.REVERSE
STRUCT, FINAL, HEADING, FORMS = (
    ParseMethod.STRUCTURED,
    ParseMethod.FINAL_LINE,
    ParseMethod.HEADING,
    ParseMethod.LABEL_FORMS,
)
VERDICT = ParseMethod.VERDICT_TAG
PER_CANDIDATE = ParseMethod.PER_CANDIDATE

TABLE_A = "| Criterion | Met? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |"
TABLE_TEXTS = (
    "| Criterion | Status |\n|---|---|\n| Uses a formal tone | ✓ |\n"
    "| Stays under 100 words | ✗ |\n| Cites a source | ✓ |"
)
TABLE_FAILS = (
    "| # | Criterion | Fails? |\n|---|---|---|\n| A | Uses a formal tone | no |\n"
    "| B | Stays under 100 words | yes |\n| C | Cites a source | no |"
)


def row(
    reply: str,
    labels: tuple[str, ...],
    method: ParseMethod | None,
    span: str | None,
    *,
    polarity: Polarity = DIRECT,
    candidates: tuple[tuple[str, ...], tuple[str, ...]] = (CRITERIA, TEXTS),
    words: tuple[str, str] | None = None,
    id: str,
) -> Any:
    """One reply: the leg, the candidates (labels, texts), the template's words, the
    labels read, the method and the text the span covers (None: no span)."""
    status = FAILED if method is None else OK if labels else NONE
    return pytest.param(reply, polarity, candidates, words, labels, status, method, span, id=id)


TABLE = [
    # -- the answer line the prompt asks for ------------------------------------------------
    row("Answer: A, C", ("A", "C"), FINAL, "A, C", id="answer-line"),
    row("Answer: B", ("B",), FINAL, "B", polarity=REVERSE, id="answer-line-reverse"),
    row("Answer: none", (), FINAL, "none", polarity=REVERSE, id="answer-none"),
    row("Answer: all", CRITERIA, FINAL, "all", id="answer-all"),
    row("Answer: criteria 1 and 3", ("A", "C"), FINAL, "1 and 3", id="answer-by-position"),
    # -- list lines -------------------------------------------------------------------------
    row("A: met\nB: not met\nC: met", ("A", "C"), PER_CANDIDATE, None, id="list-met"),
    row(
        "A: met\nB: not met\nC: met",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="list-met-reverse-leg-gives-the-unmet",
    ),
    row(
        "A — met\nB — not met\nC — met",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="list-dashes",
    ),
    row(
        "A. Uses a formal tone — met\nB. Stays under 100 words — not met\nC. Cites a source — met",
        ("A", "C"),
        PER_CANDIDATE,
        None,
        id="list-label-text-status",
    ),
    row(
        "Criterion A: met. Criterion B: not met. Criterion C: met.",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="list-on-one-line",
    ),
    row(
        "A: met\nB: met\nC: met",
        (),
        PER_CANDIDATE,
        None,
        polarity=REVERSE,
        id="every-criterion-met-reverse-is-none",
    ),
    row(
        "Criterion A: met. Criterion B: partially met. Criterion C: met.",
        (),
        None,
        None,
        polarity=REVERSE,
        id="partially-met-is-no-status",
    ),
    row(
        "Let's evaluate each criterion.\n\n**Criterion A (Uses a formal tone):** It opens with "
        "'Dear Sir'. Met.\n\n**Criterion B (Stays under 100 words):** It has 142 words. Not "
        "met.\n\n**Criterion C (Cites a source):** It cites the WHO report. Met.",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="status-as-the-last-sentence",
    ),
    row(
        "1. **Uses a formal tone** – Met. It opens with 'Dear Sir'.\n2. **Stays under 100 "
        "words** – Not met. It has 142 words.\n3. **Cites a source** – Met. It cites WHO.",
        ("A", "C"),
        PER_CANDIDATE,
        None,
        id="text-dash-status-then-reason",
    ),
    # -- check marks and boxes ----------------------------------------------------------------
    row(
        "### Evaluation\n- **A. Uses a formal tone**: ✅ The tone is formal.\n- **B. Stays "
        "under 100 words**: ❌ 142 words.\n- **C. Cites a source**: ✅ WHO is cited.",
        ("A", "C"),
        PER_CANDIDATE,
        None,
        id="check-marks-after-the-text",
    ),
    row(
        "1. ✓ Uses a formal tone\n2. ✗ Stays under 100 words\n3. ✓ Cites a source",
        ("B",),
        PER_CANDIDATE,
        None,
        polarity=REVERSE,
        id="check-marks-by-text",
    ),
    row("- A: ✓\n- B: ✗\n- C: ✓", ("A", "C"), PER_CANDIDATE, None, id="check-marks-after"),
    row("- [x] A\n- [ ] B\n- [x] C", ("A", "C"), PER_CANDIDATE, None, id="check-boxes"),
    row(
        "- [ ] A\n- [x] B\n- [ ] C",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="check-boxes-answer-the-legs-question",
    ),
    # -- yes/no answers ----------------------------------------------------------------------
    row("**A**: Yes\n**B**: No\n**C**: Yes", ("A", "C"), PER_CANDIDATE, None, id="yes-no"),
    row(
        "A: no\nB: yes\nC: no",
        ("B",),
        PER_CANDIDATE,
        "B",
        polarity=REVERSE,
        id="yes-no-answer-the-reverse-question",
    ),
    # -- tables ------------------------------------------------------------------------------
    row(TABLE_A, ("A", "C"), PER_CANDIDATE, None, id="table-met"),
    row(TABLE_A, ("B",), PER_CANDIDATE, "B", polarity=REVERSE, id="table-met-reverse"),
    row(TABLE_TEXTS, ("B",), PER_CANDIDATE, None, polarity=REVERSE, id="table-by-text"),
    row(TABLE_FAILS, ("B",), PER_CANDIDATE, "B", polarity=REVERSE, id="table-fails-column"),
    row(TABLE_FAILS, ("A", "C"), PER_CANDIDATE, None, id="table-fails-column-direct"),
    # -- JSON --------------------------------------------------------------------------------
    row('{"A": true, "B": false, "C": true}', ("A", "C"), STRUCT, None, id="json-map"),
    row(
        '{"A": "met", "B": "not met", "C": "met"}',
        ("B",),
        STRUCT,
        "not met",
        polarity=REVERSE,
        id="json-map-of-statuses-reverse",
    ),
    row(
        '{"met": ["A", "C"], "not_met": ["B"]}',
        ("B",),
        STRUCT,
        "B",
        polarity=REVERSE,
        id="json-met-and-not-met",
    ),
    row(
        '{"criteria": [{"id": "A", "met": true}, {"id": "B", "met": false}, '
        '{"id": "C", "met": true}]}',
        ("B",),
        STRUCT,
        None,
        polarity=REVERSE,
        id="json-records",
    ),
    row(
        '{"A": {"met": true, "reason": "formal"}, "B": {"met": false, "reason": "too long"}, '
        '"C": {"met": true, "reason": "cites"}}',
        ("A", "C"),
        STRUCT,
        None,
        id="json-map-of-objects",
    ),
    # -- sentences ---------------------------------------------------------------------------
    row(
        "The response meets criteria A and C but fails to meet B.",
        ("A", "C"),
        FORMS,
        "A and C",
        id="meets-and-fails",
    ),
    row(
        "The response meets criteria A and C but fails to meet B.",
        ("B",),
        FORMS,
        "B",
        polarity=REVERSE,
        id="meets-and-fails-reverse",
    ),
    row(
        "Criterion 2 is not met. Criteria 1 and 3 are met.",
        ("B",),
        FORMS,
        "2",
        polarity=REVERSE,
        id="criterion-numbers",
    ),
    row("The response meets all criteria.", CRITERIA, FORMS, "all", id="meets-all"),
    row(
        "The response meets all criteria.",
        (),
        None,
        None,
        polarity=REVERSE,
        id="meets-all-answers-the-other-question",
    ),
    row("It fails criterion B.", ("B",), FORMS, "B", polarity=REVERSE, id="it-fails"),
    row("Criterion B fails.", ("B",), PER_CANDIDATE, "B", polarity=REVERSE, id="criterion-fails"),
    # -- headings ---------------------------------------------------------------------------
    row("Met: A, C\nNot met: B", ("B",), HEADING, "B", polarity=REVERSE, id="headings"),
    row("Met: A, C\nNot met: B", ("A", "C"), HEADING, "A, C", id="headings-direct"),
    row(
        "Fails to meet: B",
        ("B",),
        HEADING,
        "B",
        polarity=REVERSE,
        words=("meets", "fails to meet"),
        id="template-words-heading",
    ),
    # -- claims against sources -------------------------------------------------------------
    row(
        "The sources support claim 1 but not claim 2.",
        ("A",),
        FORMS,
        "1",
        candidates=(CLAIMS, CLAIM_TEXTS),
        id="claims-support",
    ),
    row(
        "Claim 1 is supported. Claim 2 is not supported by the sources.",
        ("B",),
        FORMS,
        "2",
        polarity=REVERSE,
        candidates=(CLAIMS, CLAIM_TEXTS),
        id="claims-not-supported",
    ),
    row(
        '{"supported": ["A"], "unsupported": ["B"]}',
        ("B",),
        STRUCT,
        "B",
        polarity=REVERSE,
        candidates=(CLAIMS, CLAIM_TEXTS),
        id="claims-json",
    ),
    row(
        "The sources do not support claims 1 and 2.",
        ("A", "B"),
        FORMS,
        "1 and 2",
        polarity=REVERSE,
        candidates=(CLAIMS, CLAIM_TEXTS),
        words=("support", "do not support"),
        id="claims-do-not-support",
    ),
    # -- one criterion: a pass/fail grade ---------------------------------------------------
    row("PASS", ONE, PER_CANDIDATE, "PASS", candidates=(ONE, ONE_TEXT), id="one-pass"),
    row(
        "PASS",
        (),
        PER_CANDIDATE,
        None,
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-pass-reverse-is-none",
    ),
    row(
        "FAIL",
        ONE,
        PER_CANDIDATE,
        "FAIL",
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-fail-reverse",
    ),
    row(
        "Yes",
        ONE,
        PER_CANDIDATE,
        "Yes",
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-yes-answers-does-it-fail",
    ),
    row(
        "The response meets the criterion.",
        ONE,
        FORMS,
        "criterion",
        candidates=(ONE, ONE_TEXT),
        id="one-meets-the-criterion",
    ),
    row(
        "The response does not meet the criterion.",
        ONE,
        FORMS,
        "criterion",
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-does-not-meet",
    ),
    row("Verdict: PASS", ONE, FINAL, "PASS", candidates=(ONE, ONE_TEXT), id="one-verdict-line"),
    row(
        "[RESULT] FAIL",
        ONE,
        VERDICT,
        "FAIL",
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-prometheus-result",
    ),
    row(
        '{"met": false}',
        ONE,
        STRUCT,
        "false",
        polarity=REVERSE,
        candidates=(ONE, ONE_TEXT),
        id="one-json",
    ),
    # -- the caller's own labels --------------------------------------------------------------
    row(
        "Q1: met\nQ2: not met\nQ3: met",
        ("Q2",),
        PER_CANDIDATE,
        "Q2",
        polarity=REVERSE,
        candidates=(OWN, TEXTS),
        id="own-labels-list",
    ),
    row(
        "Criterion 2 is not met.",
        ("Q2",),
        FORMS,
        "2",
        polarity=REVERSE,
        candidates=(OWN, TEXTS),
        id="own-labels-by-position",
    ),
    # -- no verdict ---------------------------------------------------------------------------
    row("It depends on how you count words.", (), None, None, id="hedge"),
    row("I cannot evaluate this response.", (), None, None, id="refusal"),
    row(
        "The response uses a formal tone and is short, and it",
        (),
        None,
        None,
        id="cut-off",
    ),
    row(
        "Looking at criterion A, the tone is formal. Criterion B is about length.",
        (),
        None,
        None,
        id="mentions-are-no-verdict",
    ),
]


@pytest.mark.parametrize(
    ("reply", "polarity", "candidates", "words", "labels", "status", "method", "span"), TABLE
)
def test_checklist_replies(
    reply: str,
    polarity: Polarity,
    candidates: tuple[tuple[str, ...], tuple[str, ...]],
    words: tuple[str, str] | None,
    labels: tuple[str, ...],
    status: ParseStatus,
    method: ParseMethod | None,
    span: str | None,
) -> None:
    result = parse_reply(reply, *candidates, task="checklist", polarity=polarity, words=words)
    assert result.labels == labels
    assert result.status is status
    assert result.method is method
    if span is None:
        assert result.span is None
    else:
        assert result.span is not None
        assert reply[result.span[0] : result.span[1]] == span


def test_the_table_has_forty_styles() -> None:
    assert len(TABLE) >= 40


def test_the_last_status_of_a_criterion_stands() -> None:
    reply = "A: met\nB: met\nC: met\nOn reflection, criterion B is not met."
    result = parse_reply(reply, CRITERIA, TEXTS, task="checklist", polarity=REVERSE)
    assert result.labels == ("B",)
