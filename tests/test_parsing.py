"""Parser tables. Most replies are real outputs of the bundled SmolLM2-135M-Instruct
(and of GPT-4 in the paper's Table 1), collected with the v0 prompts."""

from __future__ import annotations

import pytest

from prin_guard._parsing import detect_polarity_confusion, parse_reply
from prin_guard.models import ParseMethod, ParseStatus, Polarity

LABELS = ("A", "B", "C", "D", "E")
TEXTS = ("7", "8", "9", "10", "11")
OK, NONE, FAILED = ParseStatus.OK, ParseStatus.NONE, ParseStatus.FAILED
FINAL, FORMS, TEXT, NONE_WORD, STRUCT = (
    ParseMethod.FINAL_LINE,
    ParseMethod.LABEL_FORMS,
    ParseMethod.CANDIDATE_TEXT,
    ParseMethod.NONE_WORD,
    ParseMethod.STRUCTURED,
)


@pytest.mark.parametrize(
    ("reply", "labels", "status", "method"),
    [
        # the format the prompt asks for
        pytest.param("Answer: C", ("C",), OK, FINAL, id="final-line"),
        pytest.param("Answer: C, D, E", ("C", "D", "E"), OK, FINAL, id="final-line-list"),
        pytest.param("Answer: none", (), NONE, FINAL, id="final-line-none"),
        pytest.param("Answer: None of them.", (), NONE, FINAL, id="final-line-none-of-them"),
        pytest.param("**Answer:** B, D", ("B", "D"), OK, FINAL, id="final-line-markdown"),
        pytest.param("Final answer: c", ("C",), OK, FINAL, id="final-answer-lowercase"),
        pytest.param("Answer: A) 7, B) 8", ("A", "B"), OK, FINAL, id="final-line-label-and-text"),
        pytest.param("Answer: 9, 10", ("C", "D"), OK, FINAL, id="final-line-candidate-texts"),
        pytest.param("Answer: C and E", ("C", "E"), OK, FINAL, id="final-line-and"),
        pytest.param(
            "Option a) is too small.\nAnswer: B\nAnswer: D",
            ("D",),
            OK,
            FINAL,
            id="last-answer-line-wins",
        ),
        pytest.param(
            "Let's check each option. 101*81 = 8181 <= 10000, 101*100 = 10100 > 10000.\n"
            "So 9 is the greatest.\nAnswer: C",
            ("C",),
            OK,
            FINAL,
            id="reasoning-then-final-line",
        ),
        # label forms small models produce
        pytest.param("C", ("C",), OK, FORMS, id="bare-label"),
        pytest.param("C, D, E", ("C", "D", "E"), OK, FORMS, id="paper-table1-gpt4-reverse"),
        pytest.param("c)", ("C",), OK, FORMS, id="letter-paren"),
        pytest.param("(C)", ("C",), OK, FORMS, id="parenthesised"),
        pytest.param("option C", ("C",), OK, FORMS, id="option-word"),
        pytest.param("c) 9", ("C",), OK, FORMS, id="label-and-text"),
        pytest.param('"c) 9"', ("C",), OK, FORMS, id="quoted-label-and-text"),
        pytest.param("The correct answer is c)", ("C",), OK, FORMS, id="correct-answer-is"),
        pytest.param(
            "The correct answer is c) 9.\n\nExplanation: 101 * 9^2 = 8181.",
            ("C",),
            OK,
            FORMS,
            id="answer-is-then-explanation",
        ),
        pytest.param("1. C\n2. D", ("C", "D"), OK, FORMS, id="numbered-list"),
        pytest.param("- D) 10\n- E) 11", ("D", "E"), OK, FORMS, id="bulleted-list"),
        pytest.param(
            "The incorrect options are D and E.", ("D", "E"), OK, FORMS, id="anchored-bare-list"
        ),
        pytest.param("[B]", ("B",), OK, FORMS, id="bracketed"),
        # candidate texts
        pytest.param("9", ("C",), OK, TEXT, id="whole-reply-is-a-candidate"),
        pytest.param('"10"', ("D",), OK, TEXT, id="quoted-candidate"),
        pytest.param("The answer is 10.", ("D",), OK, TEXT, id="answer-is-candidate-text"),
        # none, empty, garbage
        pytest.param("none", (), NONE, NONE_WORD, id="none"),
        pytest.param("None of the options.", (), NONE, NONE_WORD, id="none-of-the-options"),
        pytest.param("There are none.", (), NONE, NONE_WORD, id="there-are-none"),
        pytest.param("", (), FAILED, None, id="empty"),
        pytest.param("   \n", (), FAILED, None, id="whitespace"),
        pytest.param(None, (), FAILED, None, id="no-reply"),
        pytest.param("I cannot help with that.", (), FAILED, None, id="refusal"),
        pytest.param("Answer: X, Y", (), FAILED, None, id="unknown-labels"),
        pytest.param("The value 19 is large", (), FAILED, None, id="number-inside-other-number"),
        # structured output
        pytest.param('{"labels": ["B", "D"]}', ("B", "D"), OK, STRUCT, id="json"),
        pytest.param('{"labels": []}', (), NONE, STRUCT, id="json-empty"),
        pytest.param('```json\n{"labels": ["a"]}\n```', ("A",), OK, STRUCT, id="json-fenced"),
    ],
)
def test_parse_reply(
    reply: str | None,
    labels: tuple[str, ...],
    status: ParseStatus,
    method: ParseMethod | None,
) -> None:
    result = parse_reply(reply, LABELS, TEXTS)
    assert result.labels == labels
    assert result.status is status
    assert result.method is method


# Replies of the bundled SmolLM2-135M-Instruct to the v0/v1/v2 prompts on MathQA items
# (collected 2026-11-29, greedy), with that item's candidate texts.
REAL = [
    ('The answer is "B) 18"', ("12", "16", "18", "24", "26"), ("B",), FORMS, False),
    ("A) 12", ("12", "16", "18", "24", "26"), ("A",), FORMS, False),
    ("A) 1 : 1", ("1 : 1", "1 : 87", "1 : 6", "3 : 2", "1 : 2"), ("A",), FORMS, False),
    (
        "A) 17 hr\nB) 14 hr\nC) 12 hr\nD) 19 hr\nE) 23 hr",
        ("17 hr", "14 hr", "12 hr", "19 hr", "23 hr"),
        ("A", "B", "C", "D", "E"),
        FORMS,
        False,
    ),
    (
        "A) 17 hr\nB) 14 hr\nC) 12 hr\nD) 19 hr\nE) 23 hr\n\nThe correct answer is:\nC) 23 hr",
        ("17 hr", "14 hr", "12 hr", "19 hr", "23 hr"),
        ("C",),
        FORMS,
        True,
    ),
    ('The correct answer is "B) 260"', ("250", "240", "260", "270", "280"), ("B",), FORMS, True),
    ('The correct answer is "B) 18".', ("12", "16", "18", "24", "26"), ("B",), FORMS, True),
    (
        "A and B can finish a work together in 12 days, so A and B together can finish a "
        "work in 12 * 3 = 36 days.\nB and C can finish a work together in 1",
        ("10", "12", "14", "16", "18"),
        (),
        None,
        False,
    ),
]


@pytest.mark.parametrize(
    ("reply", "texts", "labels", "method", "confused_if_reverse"),
    [pytest.param(*case, id=f"smollm2-{i}") for i, case in enumerate(REAL)],
)
def test_real_small_model_replies(
    reply: str,
    texts: tuple[str, ...],
    labels: tuple[str, ...],
    method: ParseMethod | None,
    confused_if_reverse: bool,
) -> None:
    result = parse_reply(reply, LABELS, texts)
    assert result.labels == labels
    assert result.method is method
    assert result.status is (OK if labels else FAILED)
    assert detect_polarity_confusion(reply, Polarity.REVERSE) is confused_if_reverse


def test_labels_come_back_in_candidate_order() -> None:
    assert parse_reply("Answer: E, A, C", LABELS, TEXTS).labels == ("A", "C", "E")


def test_longer_candidate_text_wins_over_its_prefix() -> None:
    texts = ("10", "10 cm", "12 cm")
    result = parse_reply("Answer: 10 cm", ("A", "B", "C"), texts)
    assert result.labels == ("B",)


def test_a_decimal_is_not_mistaken_for_a_shorter_candidate() -> None:
    result = parse_reply("Answer: 7.5", ("A", "B"), ("7", "7.5"))
    assert result.labels == ("B",)


@pytest.mark.parametrize(
    ("reply", "polarity", "confused"),
    [
        pytest.param(
            "The correct answer is c)", Polarity.REVERSE, True, id="reverse-names-correct"
        ),
        pytest.param("The right option is B", Polarity.REVERSE, True, id="reverse-names-right"),
        pytest.param(
            "The incorrect answers are a) and b)", Polarity.REVERSE, False, id="reverse-on-topic"
        ),
        pytest.param(
            "The correct answer is C, so the incorrect options are A, B, D and E.",
            Polarity.REVERSE,
            False,
            id="reverse-mentions-both",
        ),
        pytest.param("Answer: A, B", Polarity.REVERSE, False, id="reverse-plain"),
        pytest.param(
            "The incorrect option is D", Polarity.DIRECT, True, id="direct-names-incorrect"
        ),
        pytest.param("The correct answer is c)", Polarity.DIRECT, False, id="direct-on-topic"),
        pytest.param(None, Polarity.REVERSE, False, id="no-reply"),
    ],
)
def test_polarity_confusion(reply: str | None, polarity: Polarity, confused: bool) -> None:
    assert detect_polarity_confusion(reply, polarity) is confused


def test_polarity_confusion_keeps_the_literal_parse() -> None:
    # The reverse leg says "the correct answer is c)": it is read as naming C, not
    # silently turned into its complement.
    assert parse_reply("The correct answer is c)", LABELS, TEXTS).labels == ("C",)
