"""The small shared vocabulary of prin-guard's models: enums, the chat message, the frozen base."""

from __future__ import annotations

import enum
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict

__all__ = ["Flag", "Frozen", "Message", "ParseMethod", "ParseStatus", "Polarity"]


class Message(TypedDict):
    """One chat turn, in the shape every chat API uses."""

    role: Literal["system", "user", "assistant"]
    content: str


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Polarity(enum.StrEnum):
    """Which question a leg asks the judge."""

    DIRECT = "direct"
    """"Which are the correct ones?"."""
    REVERSE = "reverse"
    """"Which are the incorrect ones?"."""


class Flag(enum.StrEnum):
    """Why a verdict deserves a second look. A verdict with no flags is clean."""

    INCONSISTENT = "inconsistent"
    """PRIN is above the guard's threshold: the two legs disagree."""
    UNPARSEABLE_DIRECT = "unparseable_direct"
    """No label set could be read from the direct leg's answer."""
    UNPARSEABLE_REVERSE = "unparseable_reverse"
    """No label set could be read from the reverse leg's answer."""
    EMPTY_VERDICT = "empty_verdict"
    """The reconciled set of correct candidates is empty."""
    POLARITY_CONFUSION = "polarity_confusion"
    """A leg answered the opposite question (the reverse leg naming "the correct answer")."""
    JUDGE_ERROR = "judge_error"
    """The judge failed; the verdict has no legs to reconcile."""
    INVALID_ITEM = "invalid_item"
    """The item failed validation; no judge was called for it (batches only)."""
    VACILLATING = "vacillating"
    """The judge changed its answer under a follow-up question (probe)."""
    ECHOED_PROMPT = "echoed_prompt"
    """A leg's answer repeats its prompt (the question sentence and most options); only
    lines the judge did not copy were read, so the leg may be unparseable."""
    ORDER_SENSITIVE = "order_sensitive"
    """The judge's answer changed when the candidates were shown in another order: the
    order inconsistency, 1 − F1(answer, answer in the second order), is above the
    threshold (the ``order`` check)."""
    PANEL_SPLIT = "panel_split"
    """A panel reached no strict majority on some candidate (counted over the whole
    panel, abstaining members included); that candidate is not reported as correct."""
    PANEL_ABSTENTION = "panel_abstention"
    """A panel member's answer failed or could not be read; it counts as abstaining."""
    LOW_CONFIDENCE = "low_confidence"
    """The judge's own probability of the answer it gave is under ``min_confidence``
    (the ``confidence`` check; only where the judge returns token log-probabilities)."""
    NOT_ACCEPTED = "not_accepted"
    """The guard's calibrated acceptance rule did not accept this verdict."""
    ABSTAINED = "abstained"
    """No tier of an escalation cascade accepted this verdict: send it for human review."""


class ParseStatus(enum.StrEnum):
    """How reading a label set from a leg's raw text went."""

    OK = "ok"
    """At least one label was read."""
    NONE = "none"
    """The judge said that no candidate qualifies: an empty set, not a failure."""
    FAILED = "failed"
    """Nothing could be read. The leg counts as the empty set in PRIN (as in the paper)."""


class ParseMethod(enum.StrEnum):
    """Which rule of the parser produced the label set."""

    STRUCTURED = "structured"
    """A JSON answer (structured output), whatever its key: ``{"answer": "A, C"}``."""
    ANSWER_TAG = "answer_tag"
    """An answer tag: "<answer>A, C</answer>"."""
    FINAL_LINE = "final_line"
    """The final "Answer: ..." line the prompt asks for."""
    HEADING = "heading"
    """A line headed in the leg's own words instead: "Incorrect: B, D", "Correct answers: A"."""
    LABEL_FORMS = "label_forms"
    """Label forms in free text: "c)", "(C)", "option C", "the answer is C", "A and C are
    incorrect", "all except B", a bare list."""
    CANDIDATE_TEXT = "candidate_text"
    """A candidate's exact text, such as "26" or '"c) 26"'."""
    NONE_WORD = "none_word"
    """A reply saying that there are none."""
