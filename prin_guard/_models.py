"""The data prin-guard takes and returns: items, candidates, legs and verdicts.

Every model is a frozen pydantic model that rejects unknown fields, so a typo in a
field name is an error and a verdict read back from JSON equals the one written.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import (
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from prin_guard._kinds import Flag, Frozen, Message, ParseMethod, ParseStatus, Polarity
from prin_guard._verdict import (
    CHECKS,
    CheckName,
    Decision,
    Leg,
    Member,
    ProbeRound,
    Scores,
    Usage,
    Verdict,
    VerdictError,
)

__all__ = [
    "CHECKS",
    "Candidate",
    "CheckName",
    "Decision",
    "Flag",
    "Item",
    "Leg",
    "Member",
    "Message",
    "ParseMethod",
    "ParseStatus",
    "Polarity",
    "ProbeRound",
    "Scores",
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


class Candidate(Frozen):
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


class Item(Frozen):
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
