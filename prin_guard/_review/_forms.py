"""A review form as data: its score fields and their scales, its decision's words, the venue's
acceptance threshold, and the messages that ask a reviewer to fill it in.

A form is a TOML file (the shipped ones are ``prin_guard/data/review-forms/<id>.toml``, each
with its ``SOURCE-<id>.md``; one's own anywhere: :func:`load_review_form`). Its keys:

* ``id``, ``version``, ``title``, ``source``, ``licence``;
* ``[[scores]]``: ``name`` (the reply's JSON key), ``role`` (``aspect``, ``overall`` or
  ``confidence``; exactly one ``overall``, at most one ``confidence``), ``scale = [min,
  max]`` (integers), optional ``labels`` (a word per level) and ``tolerance``;
* ``[decision]``: ``name`` and the words that mean each side (``accept = ["Accept"]``,
  ``reject = ["Reject"]``);
* ``text_fields``: the form's other fields (summary, strengths, ...), kept as text;
* ``threshold``: the lowest overall score on the accept side; ``borderline``: overall scores
  with which either decision agrees (a form that names a "borderline accept" and a
  "borderline reject" level);
* ``[systems]`` and ``default_system``: the system messages, by name;
* ``[prompt]``: ``user``, the user message, with ``{paper}`` (once) and ``{examples}`` (at
  most once) where the paper and the few-shot examples go; ``examples_header`` and
  ``example`` (``{paper}``, ``{review}``), what one example is laid out as; optional
  ``follow_up``, a second turn sent as it is (the AI Scientist's reflection round).

**Placeholders.** Only those names, in braces, are placeholders; every other brace is text
(a JSON example in the instructions stays as written). Filling inserts each value as it is,
in one pass, so a brace or a placeholder's name inside a paper is never filled again.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from prin_guard.errors import UsageError
from prin_guard.models import Message

__all__ = [
    "DecisionField",
    "Example",
    "ReviewForm",
    "ReviewScale",
    "Role",
    "ScoreField",
    "field_key",
    "form_identity",
    "load_review_form",
    "review_form",
    "review_forms",
]

Role = Literal["aspect", "overall", "confidence"]
"""What a score field is: one aspect of the paper, the overall score, or the reviewer's
confidence."""

Example = tuple[str, str]
"""A few-shot example: the paper's text and its review's text."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, allow_inf_nan=False)


def field_key(name: str) -> str:
    """How a field's name is matched: case, spaces, underscores and hyphens ignored
    (``"Ethical Concerns"``, ``"ethical_concerns"`` and ``"ethical-concerns"`` are one key)."""
    return re.sub(r"[\s_-]+", "", name).casefold()


class ReviewScale(_Frozen):
    """An integer scale ``min``..``max``, a word per level if the form gives one, and the
    tolerance within which two scores on it agree."""

    min: int
    max: int
    labels: dict[int, str] = {}
    tolerance: float | None = None

    @model_validator(mode="after")
    def _check(self) -> ReviewScale:
        if self.min >= self.max:
            raise ValueError(f"max must be above min ({self.min}), got {self.max}")
        if any(level < self.min or level > self.max for level in self.labels):
            raise ValueError(f"a label's level lies outside {self.min}-{self.max}")
        if self.tolerance is not None and not 0 <= self.tolerance < self.max - self.min:
            raise ValueError(f"tolerance must be from 0 to under {self.max - self.min}")
        return self

    @property
    def levels(self) -> int:
        return self.max - self.min + 1

    def position(self, score: float) -> float:
        """Where a score stands on the scale, from 0 (``min``) to 1 (``max``)."""
        return (score - self.min) / (self.max - self.min)

    def holds(self, score: float) -> bool:
        """Whether ``score`` is one of the scale's levels (an integer from min to max)."""
        return float(score).is_integer() and self.min <= score <= self.max


class ScoreField(_Frozen):
    """One score the form asks for."""

    name: str
    """The key the reviewer fills in (``"Overall"``)."""
    role: Role
    scale: ReviewScale


class DecisionField(_Frozen):
    """The form's decision: its key and the words that mean each side."""

    name: str = "Decision"
    accept: tuple[str, ...] = ("Accept",)
    reject: tuple[str, ...] = ("Reject",)

    @model_validator(mode="after")
    def _check(self) -> DecisionField:
        if not self.accept or not self.reject:
            raise ValueError("accept and reject each need at least one word")
        words = [field_key(word) for word in (*self.accept, *self.reject)]
        if len(set(words)) != len(words) or not all(words):
            raise ValueError("a decision word is empty or stands twice (case and spaces ignored)")
        return self


_PLACEHOLDER = re.compile(r"\{(paper|examples|review)\}")


def _fill(template: str, values: Mapping[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


class ReviewForm(_Frozen):
    """A review form: what the reviewer fills in and how the form asks for it."""

    id: str
    version: int
    title: str
    source: str
    licence: str
    scores: tuple[ScoreField, ...]
    decision: DecisionField
    text_fields: tuple[str, ...] = ()
    threshold: float
    """The lowest overall score on the accept side of the venue's line."""
    borderline: tuple[float, ...] = ()
    """Overall scores with which either decision agrees."""
    systems: dict[str, str]
    default_system: str
    user: str
    examples_header: str = ""
    example: str = ""
    follow_up: str | None = None

    @model_validator(mode="after")
    def _check(self) -> ReviewForm:
        keys = [field_key(f.name) for f in self.scores]
        keys += [field_key(self.decision.name)] + [field_key(name) for name in self.text_fields]
        if len(set(keys)) != len(keys) or not all(keys):
            raise ValueError("scores, decision and text_fields: a name is empty or stands twice")
        roles = [f.role for f in self.scores]
        if roles.count("overall") != 1:
            raise ValueError(
                f"scores: exactly one has role 'overall', got {roles.count('overall')}"
            )
        if roles.count("confidence") > 1:
            raise ValueError("scores: at most one has role 'confidence'")
        scale = self.overall.scale
        if not scale.min < self.threshold <= scale.max:
            raise ValueError(
                f"threshold {self.threshold} must lie above {scale.min} and at most {scale.max}"
            )
        if any(not scale.holds(score) for score in self.borderline):
            raise ValueError(
                f"borderline: each is a level of the overall scale {scale.min}-{scale.max}"
            )
        if self.default_system not in self.systems:
            raise ValueError(f"default_system {self.default_system!r} is not in systems")
        found = _PLACEHOLDER.findall(self.user)
        if found.count("paper") != 1 or found.count("examples") > 1 or "review" in found:
            raise ValueError(
                "prompt.user holds {paper} once, {examples} at most once, and no {review}"
            )
        if self.example and ("examples" in _PLACEHOLDER.findall(self.example)):
            raise ValueError("prompt.example may hold {paper} and {review} only")
        return self

    @property
    def overall(self) -> ScoreField:
        return next(f for f in self.scores if f.role == "overall")

    @property
    def confidence(self) -> ScoreField | None:
        return next((f for f in self.scores if f.role == "confidence"), None)

    @property
    def aspects(self) -> tuple[ScoreField, ...]:
        return tuple(f for f in self.scores if f.role == "aspect")

    def score_field(self, name: str) -> ScoreField:
        """The score field named ``name`` (matched by :func:`field_key`)."""
        for score in self.scores:
            if field_key(score.name) == field_key(name):
                return score
        raise UsageError(f"field: {name!r} is not a score of form {self.id!r}")

    def messages(
        self, paper: str, *, system: str | None = None, examples: Sequence[Example] = ()
    ) -> list[Message]:
        """The messages that ask a reviewer to fill the form in for ``paper``: the system
        message named ``system`` (the form's default when ``None``), then the user message,
        with the few-shot ``examples`` (paper, review) laid out where the form puts them."""
        if not isinstance(paper, str) or not paper.strip():
            raise UsageError("paper: expected the paper's text, got an empty or non-text value")
        name = self.default_system if system is None else system
        if name not in self.systems:
            raise UsageError(
                f"system: {name!r} is not a system of form {self.id!r}; "
                f"known: {sorted(self.systems)}"
            )
        shots = ""
        if examples:
            if "examples" not in _PLACEHOLDER.findall(self.user) or not self.example:
                raise UsageError(f"examples: form {self.id!r} has no place for few-shot examples")
            shots = self.examples_header + "".join(
                _fill(self.example, {"paper": text, "review": review}) for text, review in examples
            )
        return [
            {"role": "system", "content": self.systems[name]},
            {"role": "user", "content": _fill(self.user, {"paper": paper, "examples": shots})},
        ]

    def paper_block(self, paper: str) -> str:
        """The user message (without few-shot examples) up to the end of the paper's block
        (its closing fence, when the form fences the paper in): what every leg asked of the
        paper shares, so a leg of prin-guard's own (the mirrored one) starts with it and the
        judge's prompt cache serves it. A form that lays the paper out first shares only
        its lead-in and the paper; one that puts the paper last (the AI Scientist's) shares
        its whole direct message."""
        user = self.messages(paper)[1]["content"]
        _, _, tail = self.user.partition("{paper}")
        fence = re.match(r"[ \t]*\n?[ \t]*```[ \t]*", tail)
        after = _fill(tail[fence.end() :] if fence else tail, {"examples": ""})
        return user[: len(user) - len(after)]

    def follow_up_messages(
        self,
        paper: str,
        reply: str,
        *,
        system: str | None = None,
        examples: Sequence[Example] = (),
        follow_up: str | None = None,
    ) -> list[Message]:
        """The conversation of a second turn: the first turn's messages, the reviewer's
        ``reply``, then ``follow_up`` (the form's own, such as a reflection round, when
        ``None``; an author's rebuttal for the rebuttal probe), sent as it is."""
        text = self.follow_up if follow_up is None else follow_up
        if text is None:
            raise UsageError(f"follow_up: form {self.id!r} has no follow-up; pass one")
        return [
            *self.messages(paper, system=system, examples=examples),
            {"role": "assistant", "content": reply},
            {"role": "user", "content": text},
        ]


def _flatten(raw: dict[str, Any]) -> dict[str, Any]:
    """The TOML layout ([prompt], scores' ``scale = [min, max]``) as the model's fields."""
    data = dict(raw)
    prompt = data.pop("prompt", {})
    if not isinstance(prompt, dict):
        raise UsageError("prompt: expected a table")
    data.update(prompt)
    scores = data.get("scores")
    if isinstance(scores, list):
        fields = []
        for number, score in enumerate(scores):
            if not isinstance(score, dict):
                raise UsageError(f"scores.{number}: expected a table")
            score = dict(score)
            bounds = score.pop("scale", None)
            if not (isinstance(bounds, list) and len(bounds) == 2):
                raise UsageError(f"scores.{number}.scale: expected [min, max]")
            labels = score.pop("labels", {})
            if not isinstance(labels, dict) or not all(k.lstrip("-").isdigit() for k in labels):
                raise UsageError(f'scores.{number}.labels: expected {{ level = "word" }}')
            scale: dict[str, Any] = {"min": bounds[0], "max": bounds[1]}
            scale["labels"] = {int(k): v for k, v in labels.items()}
            if "tolerance" in score:
                scale["tolerance"] = score.pop("tolerance")
            fields.append({**score, "scale": scale})
        data["scores"] = tuple(fields)
    for key in ("text_fields", "borderline"):
        if isinstance(data.get(key), list):
            data[key] = tuple(data[key])
    decision = data.get("decision")
    if isinstance(decision, dict):
        data["decision"] = {k: tuple(v) if isinstance(v, list) else v for k, v in decision.items()}
    if isinstance(data.get("threshold"), int):
        data["threshold"] = float(data["threshold"])
    if isinstance(data.get("borderline"), tuple):
        data["borderline"] = tuple(
            float(v) if isinstance(v, int) else v for v in data["borderline"]
        )
    return data


def _parse(text: str, where: str) -> ReviewForm:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: not valid TOML ({exc})") from None
    try:
        return ReviewForm.model_validate(_flatten(raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "form"
        raise UsageError(f"{where}: {field}: {first['msg']}") from None


def load_review_form(path: str | Path) -> ReviewForm:
    """A review form of one's own from its TOML file; a :class:`UsageError` names the file,
    the field and the reason when it is not a valid form."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"path: cannot read review form {str(file)!r} ({exc.strerror})") from None
    return _parse(text, str(file))


@functools.cache
def review_forms() -> dict[str, ReviewForm]:
    """The shipped review forms by id: ``ai-scientist`` (The AI Scientist's NeurIPS form,
    verbatim) and ``iclr`` (prin-guard's ICLR-style form)."""
    root = importlib.resources.files("prin_guard") / "data" / "review-forms"
    forms = {}
    for entry in sorted(root.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".toml"):
            form = _parse(entry.read_text(encoding="utf-8"), f"review-forms/{entry.name}")
            forms[form.id] = form
    return forms


def form_identity(form: ReviewForm) -> str:
    """What an acceptance file binds a review to: a shipped form by its id (its words are
    fixed by id and version); a form of one's own by id, version and the sha256 of all it
    says, so that no file calibrated on a shipped form decides reviews in an edited copy."""
    if review_forms().get(form.id) == form:
        return form.id
    digest = hashlib.sha256(form.model_dump_json().encode("utf-8")).hexdigest()
    return f"{form.id}@{form.version} sha256:{digest}"


def review_form(name: str) -> ReviewForm:
    """The shipped review form ``name``; a :class:`UsageError` lists the known ones."""
    forms = review_forms()
    if name not in forms:
        raise UsageError(f"form: unknown review form {name!r}; known: {', '.join(forms)}")
    return forms[name]
