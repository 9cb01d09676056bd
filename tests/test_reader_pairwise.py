"""The reader on pairwise replies (issue 22): which of two responses is better (the
direct leg) or worse (the reverse leg). The conclusion decides, in whatever format the
judge writes it: MT-Bench and Arena-Hard verdict tags, LLMBar's "Output (a)",
Prometheus' "[RESULT] A", JSON, an answer line, a sentence first or last. A tie names
both responses on the direct leg and neither on the reverse one."""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard.models import ParseMethod, ParseStatus, Polarity
from prin_guard.reader import parse_reply

LABELS = ("A", "B")
TEXTS = (
    "Paris is the capital of France.",
    "The capital of France is Paris, a city of about two million people on the Seine.",
)
NOUNS = ("output", "response", "assistant")
OK, NONE, FAILED = ParseStatus.OK, ParseStatus.NONE, ParseStatus.FAILED
DIRECT, REVERSE = Polarity.DIRECT, Polarity.REVERSE
STRUCT, TAG, FINAL, HEADING, FORMS, NONE_WORD = (
    ParseMethod.STRUCTURED,
    ParseMethod.ANSWER_TAG,
    ParseMethod.FINAL_LINE,
    ParseMethod.HEADING,
    ParseMethod.LABEL_FORMS,
    ParseMethod.NONE_WORD,
)
# Methods the lead adds to ParseMethod; until then the reader records the nearest one.
VERDICT = ParseMethod.VERDICT_TAG
PER_CANDIDATE = ParseMethod.PER_CANDIDATE
BOTH = ("A", "B")


def row(
    reply: str,
    labels: tuple[str, ...],
    method: ParseMethod | None,
    span: str | None,
    *,
    polarity: Polarity = DIRECT,
    id: str,
) -> Any:
    """One reply: the leg's polarity, the labels read, the method and the text the span
    covers (None: no span). The status follows from the labels and the method."""
    status = FAILED if method is None else OK if labels else NONE
    return pytest.param(reply, polarity, labels, status, method, span, id=id)


TABLE = [
    # -- MT-Bench: [[A]], [[B]], [[C]] for a tie -------------------------------------------
    row(
        "Assistant A's answer follows the user's request and is accurate. Assistant B "
        "adds an unrequested history lesson.\n\n[[A]]",
        ("A",),
        VERDICT,
        "A",
        id="mt-bench-a",
    ),
    row("Both are fine, but B explains the reason.\n[[B]]", ("B",), VERDICT, "B", id="mt-bench-b"),
    row("Both give the same correct answer.\n\n[[C]]", BOTH, VERDICT, "C", id="mt-bench-tie"),
    row(
        "Both give the same correct answer.\n\n[[C]]",
        (),
        VERDICT,
        "C",
        polarity=REVERSE,
        id="mt-bench-tie-reverse-leg-is-none",
    ),
    row("[[B]]", ("B",), VERDICT, "B", polarity=REVERSE, id="mt-bench-reverse-leg"),
    row("Rating: [[5]]", (), None, None, id="single-grading-rating-is-no-verdict"),
    # -- Arena-Hard: [[A>>B]] ... [[B>>A]] --------------------------------------------------
    row(
        "My final verdict is: Assistant B is significantly better: [[B>>A]]",
        ("B",),
        VERDICT,
        "B",
        id="arena-hard-b-much-better",
    ),
    row("My final verdict is tie: [[A=B]]", BOTH, VERDICT, "[[A=B]]", id="arena-hard-tie"),
    row(
        "Assistant A is slightly better: [[A>B]]",
        ("B",),
        VERDICT,
        "B",
        polarity=REVERSE,
        id="arena-hard-reverse-leg-reads-the-loser",
    ),
    row("[[A<B]]", ("B",), VERDICT, "B", id="arena-hard-less-than"),
    row(
        "Assistant A is slightly better: [[A>B]]\n\nOn second thought: [[B>A]]",
        (),
        None,
        None,
        id="arena-hard-different-tags-are-no-verdict",
    ),
    row("[[A>B]]\n\nTo repeat: [[A>B]]", ("A",), VERDICT, "A", id="arena-hard-same-tag-twice"),
    # -- LLMBar and AlpacaEval: "Output (a)" ----------------------------------------------
    row("Output (a)", ("A",), FORMS, "a", id="llmbar-bare-output-a"),
    row("Output (b)", ("B",), FORMS, "b", polarity=REVERSE, id="llmbar-bare-output-b-reverse"),
    row(
        "Output (b) is better. Output (a) does not use bullet points as the instruction asks.",
        ("B",),
        FORMS,
        "b",
        id="palm2-concludes-first",
    ),
    row(
        "Output (a) lists three tips but ignores the word limit. Output (b) stays within the "
        "limit and covers the same tips. Therefore, Output (b) is better.",
        ("B",),
        FORMS,
        "b",
        id="gpt4-concludes-last",
    ),
    row(
        "Output (b) is better. Output (a) is not a synonym of 'deceptive'. Therefore, Output "
        "(a) is better.",
        ("A",),
        FORMS,
        "a",
        id="concluding-words-beat-the-first-sentence",
    ),
    row(
        "Output (a) is more detailed.\nOutput (b) is shorter and more focused.",
        (),
        None,
        None,
        id="mentions-in-reasoning-are-no-verdict",
    ),
    row(
        "Output (a) and Output (b) both answer, but only Output (a) follows the format.\n\n"
        "Therefore, Output (a) is better.",
        ("A",),
        FORMS,
        "a",
        id="both-named-in-reasoning-one-concluded",
    ),
    row(
        "After careful consideration, I believe that Output (b) is better. It is accurate.",
        ("B",),
        FORMS,
        "b",
        id="llama2-i-believe",
    ),
    # -- Prometheus: [RESULT] --------------------------------------------------------------
    row(
        "Feedback: Response A is vague, while Response B gives concrete steps. [RESULT] B",
        ("B",),
        VERDICT,
        "B",
        id="prometheus-result",
    ),
    row("Feedback: clear and correct. [RESULT] 4", (), None, None, id="prometheus-score-only"),
    # -- JSON -------------------------------------------------------------------------------
    row('{"winner": "A"}', ("A",), STRUCT, "A", id="json-winner"),
    row('{"winner": "tie"}', BOTH, STRUCT, "tie", id="json-tie"),
    row('{"winner": "tie"}', (), STRUCT, "tie", polarity=REVERSE, id="json-tie-reverse-leg"),
    row(
        '```json\n{"reasoning": "B covers every point.", "better": "Response B"}\n```',
        ("B",),
        STRUCT,
        "B",
        id="json-fenced-better-key",
    ),
    row('{"worse": "A"}', ("A",), STRUCT, "A", polarity=REVERSE, id="json-worse-key-reverse"),
    row('{"A": 8, "B": 6}', ("B",), STRUCT, "6", polarity=REVERSE, id="json-scores-reverse"),
    row(
        '{"winner": "A"}',
        (),
        None,
        None,
        polarity=REVERSE,
        id="json-winner-key-is-not-the-reverse-legs",
    ),
    # -- answer lines and headings --------------------------------------------------------
    row("Response B gives concrete steps.\nAnswer: B", ("B",), FINAL, "B", id="answer-line"),
    row("Answer: tie", BOTH, FINAL, "tie", id="answer-line-tie"),
    row("Answer: tie", (), FINAL, "tie", polarity=REVERSE, id="answer-line-tie-reverse"),
    row("Answer: none", BOTH, FINAL, "none", id="answer-none-is-a-tie"),
    row("**Final verdict:** Output (b)", ("B",), FINAL, "b", id="final-verdict-line"),
    row("Winner: Response 2", ("B",), HEADING, "2", id="winner-heading"),
    row("Worse response: A", ("A",), HEADING, "A", polarity=REVERSE, id="worse-heading"),
    # -- the task's nouns and positions ---------------------------------------------------
    row("Response 2 is better than Response 1.", ("B",), FORMS, "2", id="response-numbers"),
    row("I prefer Response 1.", ("A",), FORMS, "1", id="i-prefer"),
    row("The second response is better.", ("B",), FORMS, "second", id="ordinal"),
    row("Assistant B wins.", ("B",), FORMS, "B", id="x-wins"),
    row(
        "Overall, I would choose the response from Assistant B.",
        ("B",),
        FORMS,
        "B",
        id="i-would-choose-the-response-from",
    ),
    row("The better response is Assistant A.", ("A",), FORMS, "A", id="the-better-response-is"),
    row(
        "Response 1 is more accurate, whereas Response 2 is more creative. Given the user "
        "asked for facts, I'd go with Response 1.",
        ("A",),
        FORMS,
        "1",
        id="id-go-with",
    ),
    row("output (b) is better.", ("B",), FORMS, "b", id="lower-case-noun"),
    # -- ties in words ----------------------------------------------------------------------
    row("Both responses are equally good.", BOTH, FORMS, "equally good", id="equally-good"),
    row(
        "They are equally bad.",
        (),
        NONE_WORD,
        "equally bad",
        polarity=REVERSE,
        id="equally-bad-reverse-is-none",
    ),
    row("Neither is better.", BOTH, FORMS, "Neither is better", id="neither-is-better"),
    row("It's a tie.", (), NONE_WORD, "It's a tie", polarity=REVERSE, id="its-a-tie-reverse"),
    row("Both.", BOTH, FORMS, "Both", id="bare-both"),
    row("neither", BOTH, FORMS, "neither", id="bare-neither"),
    # -- hedges, refusals, cut-off replies: no verdict, never a guess --------------------
    row(
        "It depends on what the user wants: if detail matters, Output (a) is better; if "
        "brevity matters, Output (b) is better.",
        (),
        None,
        None,
        id="hedge-it-depends",
    ),
    row("I cannot decide which response is better.", (), None, None, id="cannot-decide"),
    row(
        "I'm sorry, but I can't help with comparing these responses.",
        (),
        None,
        None,
        id="refusal",
    ),
    row(
        "Output (a) provides a list of five items, while Output (b) provides",
        (),
        None,
        None,
        id="cut-off-before-concluding",
    ),
    row("Output (a) is better for users who want", (), None, None, id="cut-off-inside-the-verdict"),
    row(
        "Output (a) is better because it covers every step and",
        ("A",),
        FORMS,
        "a",
        id="cut-off-after-the-verdict",
    ),
    # -- the reverse leg ---------------------------------------------------------------------
    row(
        "Output (b) is worse because it ignores the question.",
        ("B",),
        FORMS,
        "b",
        polarity=REVERSE,
        id="reverse-worse",
    ),
    row(
        "Output (a) is better, so Output (b) is worse.",
        ("B",),
        FORMS,
        "b",
        polarity=REVERSE,
        id="reverse-reads-its-own-words",
    ),
    row(
        "Therefore, Output (a) is better.",
        (),
        None,
        None,
        polarity=REVERSE,
        id="reverse-answering-the-other-question",
    ),
    row(
        "Output (b) is worse. Output (a) is clearly better.",
        ("A",),
        FORMS,
        "a",
        id="direct-reads-its-own-words",
    ),
    # -- aspects, revisions, conflicts -------------------------------------------------------
    row(
        "In terms of detail, Output (a) is better. Overall, Output (b) is better.",
        ("B",),
        FORMS,
        "b",
        id="an-aspect-is-not-the-verdict",
    ),
    row("Output (a) is better in terms of detail.", (), None, None, id="only-an-aspect"),
    row(
        "Output (a) is better. Wait, I misread the instruction. Actually, Output (b) is better.",
        ("B",),
        FORMS,
        "b",
        id="revised-conclusion",
    ),
    row(
        "# Output (a):\nIt is specific.\nTherefore, Output (a) is better.\n\n"
        "# Output (b):\nIt is specific too.\nTherefore, Output (b) is better.",
        (),
        None,
        None,
        id="conclusions-that-disagree",
    ),
    row("Both outputs are good, but Output (b) is better.", ("B",), FORMS, "b", id="but-b"),
    # -- scores per response ---------------------------------------------------------------
    row("Output (a): 7/10\nOutput (b): 9/10", ("B",), PER_CANDIDATE, "b", id="scores"),
    row(
        "Response A is concise. Response B has an error in step 2.\n\nScore for Response A: 8"
        "\nScore for Response B: 5\n\nTherefore, Response A is better.",
        ("A",),
        FORMS,
        "A",
        id="scores-then-conclusion",
    ),
    row(
        "Output (a): 7/10\nOutput (b): 9/10",
        ("A",),
        PER_CANDIDATE,
        "a",
        polarity=REVERSE,
        id="scores-reverse",
    ),
]


@pytest.mark.parametrize(("reply", "polarity", "labels", "status", "method", "span"), TABLE)
def test_pairwise_replies(
    reply: str,
    polarity: Polarity,
    labels: tuple[str, ...],
    status: ParseStatus,
    method: ParseMethod | None,
    span: str | None,
) -> None:
    result = parse_reply(reply, LABELS, TEXTS, task="pairwise", polarity=polarity, nouns=NOUNS)
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


def test_a_reply_that_concludes_with_one_response_never_names_both() -> None:
    for param in TABLE:
        reply, polarity, labels = param.values[:3]
        if labels in {("A",), ("B",)}:
            result = parse_reply(reply, LABELS, TEXTS, task="pairwise", polarity=polarity)
            assert result.labels != BOTH, param.id


def test_a_caller_noun_names_the_responses() -> None:
    reply = "Summary 2 is better."
    assert parse_reply(reply, LABELS, TEXTS, task="pairwise").status is FAILED
    result = parse_reply(reply, LABELS, TEXTS, task="pairwise", nouns=("summary",))
    assert (result.labels, result.span) == (("B",), (8, 9))


def test_a_pair_without_a_polarity_is_read_as_the_direct_question() -> None:
    assert parse_reply("[[A=B]]", LABELS, TEXTS, task="pairwise").labels == BOTH
    assert parse_reply("Output (a) is better.", LABELS, TEXTS, task="pairwise").labels == ("A",)


def test_an_unknown_task_is_a_usage_error() -> None:
    with pytest.raises(ValueError, match="task"):
        parse_reply("Answer: A", LABELS, TEXTS, task="ranking")  # type: ignore[arg-type]
