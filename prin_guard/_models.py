"""The data prin-guard takes and returns: items, candidates, legs and verdicts.

Every model is a frozen pydantic model that rejects unknown fields, so a typo in a
field name is an error and a verdict read back from JSON equals the one written.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

__all__ = [
    "Candidate",
    "Flag",
    "Item",
    "Leg",
    "Message",
    "ParseMethod",
    "ParseStatus",
    "Polarity",
    "ProbeRound",
    "Usage",
    "Verdict",
    "VerdictError",
]

_LABEL_RE = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
# Labels are assigned from the letter series A, ..., Z, AA, ..., ZZZZ: every label of
# one to four letters, the longest the label form allows.
_ASSIGNABLE_LABELS = 26 + 26**2 + 26**3 + 26**4
# Long enough for any caller's identifier; short enough that logging it is harmless.
_MAX_ID_CHARS = 256
# A lone surrogate is a valid str but not Unicode text: it cannot be encoded (to hash
# an item, to send it to a judge, to write it as JSON), so it is refused up front.
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_REASON = "contains an unpaired surrogate (not valid Unicode text)"


def _no_surrogates(value: Any) -> Any:
    # Runs before pydantic's own checks (mode="before"), whose error for a surrogate
    # is vaguer and depends on whether the field has a length constraint.
    if isinstance(value, str) and _SURROGATE_RE.search(value):
        raise ValueError(_SURROGATE_REASON)
    return value


class Message(TypedDict):
    """One chat turn, in the shape every chat API uses."""

    role: Literal["system", "user", "assistant"]
    content: str


class _Frozen(BaseModel):
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
    """A JSON answer (structured output)."""
    FINAL_LINE = "final_line"
    """The final "Answer: ..." line the prompt asks for."""
    LABEL_FORMS = "label_forms"
    """Label forms in free text: "c)", "(C)", "option C", "the answer is C", a bare list."""
    CANDIDATE_TEXT = "candidate_text"
    """A candidate's exact text, such as "26" or '"c) 26"'."""
    NONE_WORD = "none_word"
    """A reply saying that there are none."""


class Candidate(_Frozen):
    """One answer candidate that the judge is asked about."""

    text: str = Field(min_length=1)
    """The candidate answer as shown to the judge."""
    label: str | None = None
    """Short label ("A", "B", ...); assigned in order when not given."""
    reasoning: str | None = None
    """The reasoning path that produced this candidate (shown with the `cot` mitigation)."""

    @field_validator("text", "label", "reasoning", mode="before")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        return _no_surrogates(value)

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        return value

    @field_validator("label")
    @classmethod
    def _label_form(cls, value: str | None) -> str | None:
        if value is None:
            return None
        label = value.strip().upper()
        if not _LABEL_RE.fullmatch(label):
            raise ValueError(
                f"{value!r} is not a label: use a letter followed by up to three "
                "letters or digits (A, B, ..., Z, AA, Q1)"
            )
        return label


def _nth_label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: spreadsheet column names."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def _normal_text(text: str) -> str:
    # Whitespace differences are not differences; case is ("Bb" and "bb" in MMLU).
    return " ".join(text.split())


class Item(_Frozen):
    """A question and the candidates a judge should sort into correct and incorrect."""

    question: str
    """The question, problem or claim being judged."""
    candidates: tuple[Candidate, ...]
    """At least two candidates. Plain strings are accepted and become candidates."""
    context: str | None = None
    """Optional material the judge needs (a passage of a paper, a rubric)."""
    id: str | None = Field(None, max_length=_MAX_ID_CHARS)
    """Caller's identifier (at most 256 characters); a content hash is used in its place
    when absent."""

    @field_validator("question", "context", "id", mode="before")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        return _no_surrogates(value)

    @field_validator("question")
    @classmethod
    def _question_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        return value

    @field_validator("candidates", mode="before")
    @classmethod
    def _coerce_candidates(cls, value: Any) -> Any:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise ValueError("must be a list of strings or Candidates")
        out: list[Any] = []
        for index, candidate in enumerate(value):
            if isinstance(candidate, str):
                # a dict, not Candidate(text=...): an error in it then names its index
                out.append({"text": candidate})
            elif isinstance(candidate, Candidate | dict):
                out.append(candidate)
            else:
                raise ValueError(
                    f"candidate {index} is a {type(candidate).__name__}: "
                    "must be a string or a Candidate"
                )
        return tuple(out)

    @model_validator(mode="after")
    def _labels_and_duplicates(self) -> Item:
        if len(self.candidates) < 2:
            raise ValueError(
                f"candidates: needs at least two candidates, got {len(self.candidates)}"
            )
        taken = [c.label for c in self.candidates if c.label is not None]
        seen_labels: set[str] = set()
        for label in taken:
            if label in seen_labels:
                raise ValueError(f"candidates: duplicate label {label!r}")
            seen_labels.add(label)
        seen_texts: dict[str, int] = {}
        for index, candidate in enumerate(self.candidates):
            key = _normal_text(candidate.text)
            if key in seen_texts:
                raise ValueError(
                    f"candidates: candidates {seen_texts[key]} and {index} have the same "
                    f"text {candidate.text!r}"
                )
            seen_texts[key] = index
        unlabelled = len(self.candidates) - len(taken)
        if unlabelled:
            # Given labels of letters only are in the series; Q1 or A2 are not.
            available = _ASSIGNABLE_LABELS - sum(label.isalpha() for label in seen_labels)
            if unlabelled > available:
                raise ValueError(
                    f"candidates: {unlabelled} candidates have no label and only "
                    f"{max(available, 0)} labels are free (A to ZZZZ); label them yourself"
                )
            # enough free labels for every unlabelled candidate, so next() cannot run dry
            free = (
                label
                for n in range(_ASSIGNABLE_LABELS)
                if (label := _nth_label(n)) not in seen_labels
            )
            labelled = tuple(
                c if c.label is not None else c.model_copy(update={"label": next(free)})
                for c in self.candidates
            )
            object.__setattr__(self, "candidates", labelled)
        return self

    @classmethod
    def coerce(
        cls, value: Any, *, max_chars: int | None = None, max_candidates: int | None = None
    ) -> Item:
        """An Item from an Item or a mapping, or :class:`~prin_guard.InvalidItemError`
        naming the first bad field (``candidates.1.text``) and the reason.

        ``max_chars`` bounds every text field (question, context, candidate texts
        and reasoning paths); ``max_candidates`` bounds the number of candidates.
        """
        from prin_guard._exceptions import InvalidItemError  # _exceptions types Verdict

        def count_candidates(count: int) -> None:
            if max_candidates is not None and count > max_candidates:
                raise InvalidItemError(
                    "candidates",
                    f"has {count} candidates; the limit is {max_candidates} (max_candidates)",
                )

        if isinstance(value, Item):
            checked = value
        elif isinstance(value, Mapping):
            # Counted before validation: counting a list is cheap, validating 20,000
            # candidates is not.
            raw = value.get("candidates")
            if isinstance(raw, list | tuple):
                count_candidates(len(raw))
            try:
                checked = cls.model_validate(dict(value))
            except ValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(part) for part in first["loc"]) or "item"
                message = first["msg"].removeprefix("Value error, ")
                if message.startswith("candidates: "):
                    field, message = "candidates", message.removeprefix("candidates: ")
                raise InvalidItemError(field, message) from None
        else:
            raise InvalidItemError(
                "item", f"expected an Item or a mapping, got {type(value).__name__}"
            )
        # again on the result: an Item, or candidates given as another kind of sequence
        count_candidates(len(checked.candidates))
        if max_chars is None:
            return checked
        fields: list[tuple[str, str | None]] = [
            ("question", checked.question),
            ("context", checked.context),
        ]
        for index, candidate in enumerate(checked.candidates):
            fields.append((f"candidates.{index}.text", candidate.text))
            fields.append((f"candidates.{index}.reasoning", candidate.reasoning))
        for name, text in fields:
            if text is not None and len(text) > max_chars:
                raise InvalidItemError(
                    name, f"is {len(text)} characters long; the limit is {max_chars} (max_chars)"
                )
        return checked

    @functools.cached_property
    def labels(self) -> tuple[str, ...]:
        """The candidates' labels, in the order given."""
        return tuple(c.label for c in self.candidates)  # type: ignore[misc]

    @functools.cached_property
    def key(self) -> str:
        """The caller's id, or a short content hash that is stable across runs."""
        if self.id is not None:
            return self.id
        payload = json.dumps(
            [self.question, [[c.label, c.text] for c in self.candidates], self.context],
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


class Usage(_Frozen):
    """Tokens and money one or more judge calls cost; ``None`` where unknown."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        def add(a: Any, b: Any) -> Any:
            return None if a is None and b is None else (a or 0) + (b or 0)

        return Usage(
            prompt_tokens=add(self.prompt_tokens, other.prompt_tokens),
            completion_tokens=add(self.completion_tokens, other.completion_tokens),
            cost_usd=add(self.cost_usd, other.cost_usd),
        )


class Leg(_Frozen):
    """One judge call with one polarity, and the label set read from its answer."""

    polarity: Polarity
    """Direct ("which are correct?") or reverse ("which are incorrect?")."""
    template: str
    """Template id (``v0``, ``v1``, ``v2``)."""
    template_version: int
    """Version of that template's wording; part of the cache key."""
    mitigations: tuple[str, ...] = ()
    """Mitigations applied to the prompt (``cot``, ``neg_exp``)."""
    output_format: Literal["text", "json"] = "text"
    """Whether the judge answered in free text or in a structured JSON format."""
    raw_text: str | None
    """The judge's answer, exactly as returned (``None`` when it returned nothing)."""
    labels: tuple[str, ...]
    """The labels read from the answer (empty on "none" and on a parse failure)."""
    parse_status: ParseStatus
    parse_method: ParseMethod | None = None
    """How the labels were read; ``None`` when parsing failed."""
    polarity_confusion: bool = False
    """The answer reads as a reply to the opposite question; ``labels`` stay its literal parse."""
    latency_ms: float = 0.0
    """Time the judge took (0 when the leg came from the cache)."""
    usage: Usage | None = None
    """Tokens and cost of the call, when the judge reports them."""
    cached: bool = False
    """The judge's answer came from the cache."""


class ProbeRound(_Frozen):
    """One follow-up question put to the judge after a leg's answer (Ask Again)."""

    polarity: Polarity
    """The leg whose conversation was continued."""
    round: int
    """1 in the Direct Form; 1, 2, 3 (closed, open, leading) in the Progressive Form."""
    followup_type: Literal["closed", "open", "leading"]
    followup: str
    """The follow-up turn sent (question, mitigation sentences, control prompt)."""
    raw_text: str | None
    labels: tuple[str, ...]
    parse_status: ParseStatus
    changed: bool
    """The answer differs from the leg's first answer (an unreadable answer counts as changed)."""
    cached: bool = False
    latency_ms: float = 0.0
    usage: Usage | None = None


class VerdictError(_Frozen):
    """Why a verdict in a batch has no legs."""

    kind: Literal["judge", "input"]
    message: str
    field: str | None = None
    """For input errors, the dotted path of the offending field."""


class Verdict(_Frozen):
    """The reconciled answer for one item, with both legs and what they say about each other."""

    item_id: str
    """The item's id, or its content hash."""
    labels: tuple[str, ...] = ()
    """All candidate labels of the item, in order."""
    correct: tuple[str, ...] = ()
    """The labels the policy accepts as correct (synergy: direct ∩ (all − reverse))."""
    direct: Leg | None = None
    reverse: Leg | None = None
    reverse_implied: tuple[str, ...] = ()
    """The correct set the reverse leg implies: all − reverse."""
    prin_score: float | None = None
    """1 − F1(direct, all − reverse), from 0 (consistent) to 1; ``None`` without legs."""
    consistent: bool = False
    """PRIN is at or under the threshold and both legs were read (false when there are no
    legs, or when a leg could not be parsed, whatever its PRIN)."""
    flags: tuple[Flag, ...] = ()
    policy: Literal["synergy", "direct", "reverse"] = "synergy"
    threshold: float = 0.0
    cached: bool = False
    """Every judge answer in this verdict came from the cache."""
    usage: Usage = Usage()
    """Summed over the legs."""
    error: VerdictError | None = None
    """Set when the verdict carries ``judge_error`` or ``invalid_item``."""
    probe: tuple[ProbeRound, ...] = ()
    """Follow-up rounds, when the guard probes; they flag, never change, the verdict."""

    @property
    def ok(self) -> bool:
        """No flags at all."""
        return not self.flags
