"""Ratings on a scale: the scale, its mirror, the items and their aspects, and the
reconciliation of a direct and a mirrored leg (issue 30). The score a reply declares is
read by the reader's score stage (:mod:`prin_guard.reader._scores`).

The papers' idea carried over to a score. The direct leg asks how good the response is on
the scale; the reverse leg asks how poor it is on the same scale mirrored (the worst quality
at the top: on 1-10, 1 = excellent and 10 = very poor), and its score is read back through
the mirror, ``min + max - s``. A consistent judge gives mirror images: 8 on the direct leg,
3 on the mirrored one (read back: 8).

Choices, written down because the issue leaves them open:

- **Tolerance.** Two readings agree when they differ by at most the scale's tolerance: by
  default one point on a scale of up to 11 levels (1-5, 1-10, 0-10), a tenth of the range
  above that (1-100: 9.9 points), and never more than half the range (0-1 and 1-2: half a
  point); or what the scale sets, under its range. So the two ends of a scale never agree:
  a judge giving the top score on both legs is flagged on every scale, two points or 101.
- **The rating.** Their mean when they agree; ``None`` when they do not (the synergy rule's
  abstention: a rating the judge contradicted is not given as if it held). Both readings stay
  on the decision, so a caller who wants the direct score still has it.
- **PRIN of a rating.** ``|direct - mirror(reverse)| / (max - min)``: 0 for mirror images,
  1 for opposite ends.
- **Polarity confusion.** The reverse leg's raw score equal to the direct one, on a scale of
  at least 5 levels, where the legs then disagree (near the midpoint the mirror maps a score
  to about itself, and 5 and 5 on 1-10 agree): the judge answered the mirrored question as
  if it were the direct one. That says the reverse
  leg was not understood, not that the response is middling, so it is a flag of its own
  beside ``inconsistent``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from prin_guard.errors import InvalidItemError

__all__ = [
    "MAX_ASPECTS",
    "MAX_LEVELS",
    "Aspect",
    "RatingDecision",
    "RatingItem",
    "Scale",
    "reconcile",
]

MAX_LEVELS = 101
"""The most levels a scale may have (0-100): beyond it a "scale" is a free number, and a
rubric or a label per level would not fit a prompt."""


@dataclass(frozen=True, slots=True)
class Scale:
    """Integer bounds, optionally a label and a rubric description per level, whether a
    score may be a decimal (``7.5``), and the tolerance within which two readings agree."""

    min: int
    max: int
    labels: dict[int, str] | None = None
    rubric: dict[int, str] | None = None
    decimals: bool = False
    tolerance: float | None = None

    @classmethod
    def coerce(cls, raw: Any, field: str = "scale") -> Scale:
        """A scale from its JSON form ``{"min": 1, "max": 10, ...}``, checked; every error
        names the field (``scale.max``) and the reason."""
        if isinstance(raw, Scale):
            return raw
        if not isinstance(raw, dict):
            raise InvalidItemError(field, 'expected an object {"min": ..., "max": ...}')
        known = {"min", "max", "labels", "rubric", "decimals", "tolerance"}
        for key in raw:
            if key not in known:
                raise InvalidItemError(f"{field}.{key}", f"unknown; known: {sorted(known)}")
        low, high = (_bound(raw, name, field) for name in ("min", "max"))
        if low >= high:
            raise InvalidItemError(f"{field}.max", f"must be above min ({low}), got {high}")
        if high - low + 1 > MAX_LEVELS:
            raise InvalidItemError(
                f"{field}.max", f"{high - low + 1} levels; at most {MAX_LEVELS} (0-100)"
            )
        decimals = raw.get("decimals", False)
        if not isinstance(decimals, bool):
            raise InvalidItemError(f"{field}.decimals", "expected true or false")
        tolerance = raw.get("tolerance")
        if tolerance is not None and (
            isinstance(tolerance, bool)
            or not isinstance(tolerance, int | float)
            or not math.isfinite(tolerance)
            or not 0 <= tolerance < high - low
        ):
            raise InvalidItemError(
                f"{field}.tolerance", f"expected a number from 0 to under {high - low}"
            )
        return cls(
            low,
            high,
            labels=_levels(raw.get("labels"), low, high, f"{field}.labels"),
            rubric=_levels(raw.get("rubric"), low, high, f"{field}.rubric"),
            decimals=decimals,
            tolerance=None if tolerance is None else float(tolerance),
        )

    @property
    def levels(self) -> int:
        return self.max - self.min + 1

    def as_dict(self) -> dict[str, Any]:
        """The scale's JSON form (what :meth:`coerce` reads), without the unset fields."""
        out: dict[str, Any] = {"min": self.min, "max": self.max}
        if self.labels:
            out["labels"] = {str(level): text for level, text in self.labels.items()}
        if self.rubric:
            out["rubric"] = {str(level): text for level, text in self.rubric.items()}
        if self.decimals:
            out["decimals"] = True
        if self.tolerance is not None:
            out["tolerance"] = self.tolerance
        return out

    @property
    def agreement(self) -> float:
        """The tolerance in use: the scale's own, else one point up to 11 levels and a
        tenth of the range above, at most half the range (a full-range contradiction is
        never within it: on 0-1 one point would be the whole scale)."""
        if self.tolerance is not None:
            return self.tolerance
        span = self.max - self.min
        return min(1.0 if self.levels <= 11 else span / 10, span / 2)

    def mirror(self, score: float) -> float:
        """A score read back through the mirrored scale (and the other way: it is its own
        inverse): on 1-10, 3 is 8 and 8 is 3."""
        return self.min + self.max - score

    def rubric_lines(self, *, mirrored: bool = False, reverse_order: bool = False) -> list[str]:
        """The rubric's levels as the prompt shows them, ``"8: ..."``; on the mirrored scale
        each description moves to its mirrored number; ``reverse_order`` lists the levels
        from the top down (the rubric-order check)."""
        if not self.rubric:
            return []
        shown = {
            (int(self.mirror(level)) if mirrored else level): text
            for level, text in self.rubric.items()
        }
        order = sorted(shown, reverse=reverse_order)
        return [f"{level}: {shown[level]}" for level in order]


def _bound(raw: dict[str, Any], name: str, field: str) -> int:
    value = raw.get(name)
    if value is None:
        raise InvalidItemError(f"{field}.{name}", "required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidItemError(f"{field}.{name}", f"expected an integer, got {value!r}")
    if abs(value) > 1_000_000:
        raise InvalidItemError(f"{field}.{name}", "out of range (|n| <= 1,000,000)")
    return value


def _levels(raw: Any, low: int, high: int, field: str) -> dict[int, str] | None:
    """``{"1": "poor", ..., "5": "excellent"}`` keyed by level, every level on the scale."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw:
        raise InvalidItemError(field, "expected an object of level: description")
    levels: dict[int, str] = {}
    for key, text in raw.items():
        try:
            level = int(key)
        except (TypeError, ValueError):
            raise InvalidItemError(f"{field}.{key}", "a level is an integer") from None
        if not low <= level <= high:
            raise InvalidItemError(f"{field}.{key}", f"outside the scale {low}-{high}")
        if not isinstance(text, str) or not text.strip():
            raise InvalidItemError(f"{field}.{key}", "expected a non-empty description")
        levels[level] = text.strip()
    return levels


@dataclass(frozen=True, slots=True)
class RatingDecision:
    """Two legs' scores reconciled: ``rating`` (``None`` when the legs disagree or a leg
    was not read), the reverse score read back through the mirror, PRIN and the flags."""

    direct: float | None
    reverse: float | None
    """The mirrored leg's score as the judge wrote it."""
    reverse_mirrored: float | None
    rating: float | None
    prin: float | None
    inconsistent: bool
    polarity_confusion: bool


def reconcile(direct: float | None, reverse: float | None, scale: Scale) -> RatingDecision:
    """The rating two legs give (see the module's docstring for each rule)."""
    if direct is None or reverse is None:
        mirrored = None if reverse is None else scale.mirror(reverse)
        return RatingDecision(direct, reverse, mirrored, None, None, False, False)
    mirrored = scale.mirror(reverse)
    gap = abs(direct - mirrored)
    inconsistent = gap > scale.agreement
    # the same number on both legs, where the mirror makes that a contradiction: a
    # judge that answered the mirrored question as the direct one (near the midpoint the
    # mirror maps a score to about itself, and the legs agree)
    confused = scale.levels >= 5 and reverse == direct and inconsistent
    return RatingDecision(
        direct,
        reverse,
        mirrored,
        None if inconsistent else (direct + mirrored) / 2,
        gap / (scale.max - scale.min),
        inconsistent,
        confused,
    )


_ITEM_FIELDS = (
    "task",
    "id",
    "question",
    "response",
    "reference",
    "context",
    "scale",
    "aspects",
)
MAX_ASPECTS = 32
"""The most aspects one item may name (apart, each is asked in two calls of its own;
EQ-Bench's creative-writing judge scores 23 criteria in one reply)."""
MAX_ASPECT_NAME = 128
"""The longest aspect name (EQ-Bench's criteria run to 100 characters)."""


_ASPECT_NAME = re.compile(r"(?=[^\W_])(?:[^\W_]|(?<! ) |[-_'\u2019&,;./()!?])+")
"""An aspect's name: one line of plain words, as a criterion is written ("Consistent
Voice/Tone of Writing", "Original; Not Derivative", "Extravagant (in a good way)"):
letters, digits, single spaces and a sentence's punctuation; no line break, colon,
bracket, brace, quote or mark of a format of its own."""


@dataclass(frozen=True, slots=True)
class Aspect:
    """One named dimension a response is rated on (G-Eval's coherence, fluency, ...), with
    what it means and its own scale (the item's, unless it gives one)."""

    name: str
    scale: Scale
    description: str = ""

    def as_dict(self, default: Scale) -> dict[str, Any] | str:
        if not self.description and self.scale == default:
            return self.name
        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        if self.scale != default:
            out["scale"] = self.scale.as_dict()
        return out


def _aspects(raw: Any, default: Scale, max_chars: int | None) -> tuple[Aspect, ...]:
    """``aspects``: a list of names, or of ``{"name", "description"?, "scale"?}``."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        raise InvalidItemError("aspects", "expected a non-empty list of names or objects")
    if len(raw) > MAX_ASPECTS:
        raise InvalidItemError("aspects", f"{len(raw)} aspects; at most {MAX_ASPECTS}")
    out: list[Aspect] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"aspects.{index}"
        given: dict[str, Any] = {"name": entry} if isinstance(entry, str) else entry
        if not isinstance(given, dict):
            raise InvalidItemError(where, "expected a name or an object with a name")
        for key in given:
            if key not in ("name", "description", "scale"):
                raise InvalidItemError(f"{where}.{key}", "unknown; known: name, description, scale")
        name = given.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_ASPECT_NAME:
            raise InvalidItemError(
                f"{where}.name", f"expected a name of 1 to {MAX_ASPECT_NAME} characters"
            )
        name = name.strip()
        if not _ASPECT_NAME.fullmatch(name):
            # the name goes into the instruction and is read back from the reply: plain
            # words only, as a template's words (no line, bracket, quote or colon of its own)
            raise InvalidItemError(
                f"{where}.name",
                "expected one line of plain words (letters, digits, single spaces and "
                f"- _ ' & , ; . / ( ) ! ?), got {name[:40]!r}",
            )
        if name.lower() in seen:
            raise InvalidItemError(f"{where}.name", f"{name!r} is named twice")
        seen.add(name.lower())
        description = given.get("description") or ""
        if not isinstance(description, str):
            raise InvalidItemError(f"{where}.description", "expected a string")
        if max_chars is not None and len(description) > max_chars:
            raise InvalidItemError(
                f"{where}.description",
                f"is {len(description)} characters long; the limit is {max_chars} (max_chars)",
            )
        scale = default if "scale" not in given else Scale.coerce(given["scale"], f"{where}.scale")
        out.append(Aspect(name, scale, description.strip()))
    return tuple(out)


def _bound_levels(scale: Scale, field: str, max_chars: int | None) -> None:
    """Each rubric description and label within ``max_chars`` (they go into every leg)."""
    if max_chars is None:
        return
    for kind in ("rubric", "labels"):
        for level, text in (getattr(scale, kind) or {}).items():
            if len(text) > max_chars:
                raise InvalidItemError(
                    f"{field}.{kind}.{level}",
                    f"is {len(text)} characters long; the limit is {max_chars} (max_chars)",
                )


@dataclass(frozen=True, slots=True)
class RatingItem:
    """One response to rate on a scale, with its question and, optionally, a reference
    answer and context: ``{"task": "rating", "question": ..., "response": ...,
    "scale": {"min": 1, "max": 10}}``; with ``aspects``, rated on each named aspect (on
    its own scale, or the item's)."""

    task: ClassVar[Literal["rating"]] = "rating"
    """The task, as an :class:`~prin_guard.Item`'s (not a field: every rating item's)."""

    response: str
    scale: Scale
    question: str = ""
    reference: str = ""
    context: str = ""
    id: str | None = None
    aspects: tuple[Aspect, ...] = ()
    focus: Aspect | None = None
    """The one aspect a leg asks about (set by the guard on each aspect's own item)."""

    @classmethod
    def coerce(
        cls, raw: Mapping[str, Any] | RatingItem, *, max_chars: int | None = None
    ) -> RatingItem:
        """A rating item from its JSON form, checked; errors name the field. ``max_chars``
        bounds each text field (the guard's ``max_chars``)."""
        if isinstance(raw, RatingItem):
            raw = raw.as_dict()
        if not isinstance(raw, Mapping):
            raise InvalidItemError("item", f"expected an object, got {type(raw).__name__}")
        for key in raw:
            if key not in _ITEM_FIELDS:
                raise InvalidItemError(str(key), f"unknown; known: {list(_ITEM_FIELDS)}")
        if raw.get("task") != "rating":
            raise InvalidItemError("task", "expected 'rating'")
        texts: dict[str, str] = {}
        for name in ("question", "response", "reference", "context"):
            value = raw.get(name, "")
            if value is None:
                value = ""
            if not isinstance(value, str):
                raise InvalidItemError(name, f"expected a string, got {type(value).__name__}")
            if max_chars is not None and len(value) > max_chars:
                raise InvalidItemError(
                    name, f"is {len(value)} characters long; the limit is {max_chars} (max_chars)"
                )
            texts[name] = value
        if not texts["response"].strip():
            raise InvalidItemError("response", "required: the response to rate")
        if "scale" not in raw:
            raise InvalidItemError("scale", 'required: {"min": ..., "max": ...}')
        item_id = raw.get("id")
        if item_id is not None and not isinstance(item_id, str):
            raise InvalidItemError("id", "expected a string")
        if item_id is not None and len(item_id) > 256:
            raise InvalidItemError("id", f"is {len(item_id)} characters long; at most 256")
        scale = Scale.coerce(raw["scale"])
        _bound_levels(scale, "scale", max_chars)
        aspects = _aspects(raw.get("aspects"), scale, max_chars)
        for index, aspect in enumerate(aspects):
            _bound_levels(aspect.scale, f"aspects.{index}.scale", max_chars)
        return cls(
            response=texts["response"],
            scale=scale,
            question=texts["question"],
            reference=texts["reference"],
            context=texts["context"],
            id=item_id,
            aspects=aspects,
        )

    def on(self, aspect: Aspect) -> RatingItem:
        """The item asking about ``aspect`` alone, on its scale."""
        item_id = None if self.id is None else f"{self.id}:{aspect.name}"
        return dataclasses.replace(self, scale=aspect.scale, aspects=(), focus=aspect, id=item_id)

    def as_dict(self) -> dict[str, Any]:
        """The item's JSON form (what :meth:`coerce` reads), without the unset fields."""
        out: dict[str, Any] = {"task": "rating"}
        if self.id is not None:
            out["id"] = self.id
        for name in ("question", "response", "reference", "context"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        out["scale"] = self.scale.as_dict()
        if self.aspects:
            out["aspects"] = [aspect.as_dict(self.scale) for aspect in self.aspects]
        return out

    @property
    def texts(self) -> tuple[str, ...]:
        """The item's own texts, where a reply's copies come from."""
        return tuple(t for t in (self.response, self.question, self.reference, self.context) if t)
