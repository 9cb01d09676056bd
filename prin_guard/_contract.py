"""A template's answer contract: what the judge was asked to write, so the reader reads that
first and strictly.

A judge prompt names the candidates in its own way ("Assistant A", "Output (a)", "1" and
"2", model ids "m" and "M") and asks for the verdict in its own format: MT-Bench's "[[A]]"
("[[C]]" a tie), Arena-Hard's "[[A>>B]]", Prometheus' "[RESULT] A", PandaLM's first line
"1", "2" or "Tie", the Vicuna review's two scores on the first line ("8 9"), AlpacaEval's
ranked JSON list. The contract says so:

- ``labels``: the candidates' labels exactly as the prompt shows them, in the order shown
  (``None``: the item's own labels, A, B, ...). Matching is case-sensitive when two labels
  differ only in case ("m" and "M"), else not.
- ``tie``: the word (or label) the prompt asks for when neither response is better ("C",
  "Tie", "tie"); pairwise only.
- ``format``: one of the :data:`VerdictFormat` kinds below.

The reader reads the declared format first; when it is there, its reading stands unless the
rest of the reply concludes otherwise (then the leg abstains); when it is not, the general
reader reads the reply. What a declared slot holds is the answer to the leg's own question:
on the reverse leg "[[A]]" names the worse response, and "[[A>B]]" says A is "more" of
what the leg asks (a reverse prompt derived by word flips redefines its tags that way).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from prin_guard._models import Frozen

__all__ = [
    "AnswerContract",
    "Conclusion",
    "FirstLine",
    "JsonField",
    "JsonRanking",
    "Line",
    "Ordering",
    "Scores",
    "Tag",
    "VerdictFormat",
]


def _phrase(value: str, name: str) -> str:
    if not value.strip() or "\n" in value or len(value) > 64:
        raise ValueError(f"{name} must be a short piece of text on one line")
    return value


class Tag(Frozen):
    """A bracket tag around the verdict: ``[[A]]``, ``[[C]]`` (a tie), and for a pair the
    comparisons ``[[A>>B]]``, ``[[A>B]]``, ``[[A=B]]``, ``[[B>A]]``, ``[[B>>A]]``. Several
    tags that disagree are no verdict."""

    kind: Literal["tag"] = "tag"
    open: str = "[["
    close: str = "]]"

    @field_validator("open", "close")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a tag's open and close marks")


class Line(Frozen):
    """A line that starts with ``prefix`` and holds the verdict: "Final verdict: A",
    "[RESULT] B", "Answer: A, C"; the last such line counts."""

    kind: Literal["line"] = "line"
    prefix: str

    @field_validator("prefix")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a line's prefix")


class FirstLine(Frozen):
    """The reply's first line is the verdict alone: "1", "2", "Tie" (PandaLM)."""

    kind: Literal["first_line"] = "first_line"


class Scores(Frozen):
    """A score per candidate, in the order shown: on the first line alone ("8 9", the
    Vicuna review format; "8/10, 9/10"), or as the reply's last tuple ("(7, 9)", the
    Vicuna math review's "Python tuple"). The higher score wins, equal scores are a tie;
    on the reverse leg the lower score names the worse response. Pairwise only."""

    kind: Literal["scores"] = "scores"
    where: Literal["first_line", "last_tuple"] = "first_line"


class JsonField(Frozen):
    """A JSON object whose field ``key`` holds the verdict: ``{"winner": "A"}``,
    ``{"correct": ["A", "C"]}``. The last object with the key counts."""

    kind: Literal["json_field"] = "json_field"
    key: str

    @field_validator("key")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a JSON key")


class JsonRanking(Frozen):
    """A JSON list of records ranking the candidates, rank 1 the best:
    ``[{"model": "M", "rank": 1}, {"model": "m", "rank": 2}]`` (AlpacaEval's ranking
    annotators). On the reverse leg the candidate ranked last is the answer. Pairwise
    only."""

    kind: Literal["json_ranking"] = "json_ranking"
    name_key: str = "model"
    rank_key: str = "rank"


class Ordering(Frozen):
    """The last line that orders the candidates with ">" ("is better than") and "="
    ("is equal to"): "Assistant 2 > Assistant 1 = Assistant 3" (LLMZoo). The first rank is
    the answer on the direct leg, the last on the reverse leg; one rank for all is a tie."""

    kind: Literal["ordering"] = "ordering"


class Conclusion(Frozen):
    """No declared format: the judge concludes in free text, read by the general reader."""

    kind: Literal["conclusion"] = "conclusion"


VerdictFormat = Annotated[
    Tag | Line | FirstLine | Scores | JsonField | JsonRanking | Ordering | Conclusion,
    Field(discriminator="kind"),
]
"""The verdict formats a contract may declare."""

FORMAT_KINDS: tuple[str, ...] = (
    "tag", "line", "first_line", "scores", "json_field", "json_ranking", "ordering",
    "conclusion",
)  # fmt: skip


class AnswerContract(Frozen):
    """What a template asks the judge to write (see the module's docstring)."""

    labels: tuple[str, ...] | None = None
    """The candidates' labels as the prompt shows them, in the order shown (``None``: the
    item's own labels)."""
    tie: str | None = None
    """The tie word or label ("C", "Tie"); pairwise only."""
    format: VerdictFormat = Conclusion()
    """Where and how the verdict is written."""

    @field_validator("labels")
    @classmethod
    def _labels(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is None:
            return None
        if len(value) < 1:
            raise ValueError("labels: give at least one label, or none to use the item's")
        for label in value:
            _phrase(label, "each label")
        if len(set(value)) != len(value):
            raise ValueError("labels: two candidates have the same label")
        return value

    @field_validator("tie")
    @classmethod
    def _tie(cls, value: str | None) -> str | None:
        return None if value is None else _phrase(value, "tie")

    @model_validator(mode="after")
    def _tie_is_no_label(self) -> AnswerContract:
        labels = self.labels or ()
        folded = {label.casefold() for label in labels}
        if self.tie is not None and (
            self.tie in labels or (not self.case_sensitive and self.tie.casefold() in folded)
        ):
            raise ValueError(f"tie: {self.tie!r} is also a candidate's label")
        return self

    @property
    def case_sensitive(self) -> bool:
        """Labels are matched with their case when two differ only in case ("m", "M")."""
        labels = self.labels or ()
        return len({label.casefold() for label in labels}) != len(labels)

    @property
    def declared(self) -> bool:
        """The contract declares a format (not a free-text conclusion)."""
        return not isinstance(self.format, Conclusion)
