"""Coherence: does a filled-in review form agree with itself? Three rules, each a pure function
of the form and what the reviewer filled in; each returns ``None`` when a field it needs was
not read (no flag is raised on a guess).

**1. The decision against the threshold** (:func:`decision_against_threshold`). The venue's
threshold splits the overall score: from ``form.threshold`` up is the accept side, below it
the reject side. The rule flags an Accept with an overall score below the threshold and a
Reject with one at or above it, except at the form's ``borderline`` scores, where either
decision agrees. The AI Scientist's form: threshold 5, borderline 4 and 5 (its words: 4
"Borderline reject", 5 "Borderline accept"), so Reject with 6 or more and Accept with 3 or
less are flagged. prin-guard's ICLR form: threshold 6, borderline 5 and 6.

**2. The overall score outside what the aspects support**
(:func:`overall_outside_aspects`). Each score is placed on its scale from 0 (the scale's
bottom) to 1 (its top): ``(score - min) / (max - min)``. The rule flags an overall score whose
position lies below the lowest aspect's position or above the highest aspect's, by more than
the tolerance: half a step of the overall scale plus half a step of the coarsest aspect scale
(``0.5 / (max - min)`` each; on 1-10 and 1-4, 1/18 + 1/6 = 0.222), the most that rounding each
score to its scale's levels can put between two positions that agree. So with the AI
Scientist's aspects all 3 of 4 (position 0.667), an overall of 5 (0.444) is not flagged and 4
(0.333) is; with aspects from 2 to 3 (0.333 to 0.667), overall 2 to 9 pass. A form with no
aspects has no such rule (``None``).

**3. A confidence the text disowns** (:func:`confidence_disowned`). A high confidence is one
of the confidence scale's top two levels (4 or 5 on 1-5). The rule flags a high confidence
when the reviewer's own text says they lack the expertise or did not understand the paper:
one of :data:`DISOWNING` (first person, case ignored, straight or curly apostrophes):
"I am not familiar with" / "I'm unfamiliar with", "outside (of) my expertise / area /
field" (also "beyond"), "not my area / field / expertise", "I am not an expert", "educated
guess", "I am not confident in my assessment" (or sure about my evaluation, review,
judgement, understanding), "I do not have the expertise / background", "I did not (fully)
understand / could not follow the paper (submission, main, central, core ...)". A reviewer
who found one equation unclear ("I did not understand Eq. 3") is not disowning their review,
so the list names what disowns the whole; it is short on purpose (a false flag costs trust
in every flag).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from prin_guard._review._forms import ReviewForm
from prin_guard.errors import UsageError

__all__ = [
    "DISOWNING",
    "Coherence",
    "aspect_span",
    "coherence",
    "confidence_disowned",
    "decision_against_threshold",
    "disowning_phrase",
    "overall_outside_aspects",
    "overall_tolerance",
]

_I_AM = r"\bI(?:'m|\s+am)"
DISOWNING: tuple[str, ...] = (
    rf"{_I_AM}\s+(?:not\s+(?:\w+\s+)?familiar|unfamiliar)\s+with\b",
    r"\b(?:outside|beyond)\s+(?:of\s+)?my\s+(?:\w+\s+)?(?:expertise|area|field)\b",
    r"\bnot\s+my\s+(?:area|field|expertise)\b",
    rf"{_I_AM}\s+not\s+(?:an?\s+)?expert\b",
    r"\beducated\s+guess\b",
    rf"{_I_AM}\s+not\s+(?:\w+\s+)?(?:confident|sure)\s+(?:in|about|of)\s+my\s+"
    r"(?:assessment|evaluation|review|judge?ment|understanding)\b",
    r"\bI\s+(?:do\s+not|don't)\s+have\s+(?:the\s+|enough\s+|sufficient\s+|much\s+)?"
    r"(?:expertise|background)\b",
    r"\bI\s+(?:did\s+not|didn't|could\s+not|couldn't)\s+(?:fully\s+)?(?:understand|follow)\s+"
    r"(?:the\s+|this\s+)?(?:paper|submission|main|central|core|key|most)\b",
)
"""The phrases with which a reviewer disowns their own assessment (regular expressions)."""

_DISOWNING = re.compile("|".join(f"(?:{p})" for p in DISOWNING), re.IGNORECASE)


def _side_word(decision: str | None) -> str | None:
    if decision not in (None, "accept", "reject"):
        raise UsageError(f"decision: expected 'accept', 'reject' or None, got {decision!r}")
    return decision


def decision_against_threshold(
    form: ReviewForm, overall: float | None, decision: str | None
) -> bool | None:
    """Rule 1: the decision lies on the other side of the threshold from the overall score
    (and the score is not a borderline one); ``None`` when either is unread."""
    if overall is None or _side_word(decision) is None:
        return None
    if overall in form.borderline:
        return False
    accept_side = overall >= form.threshold
    return accept_side != (decision == "accept")


def overall_tolerance(form: ReviewForm) -> float:
    """Rule 2's tolerance: half a step of the overall scale plus half a step of the coarsest
    aspect scale (positions from 0 to 1)."""
    overall = form.overall.scale
    coarsest = max((0.5 / (f.scale.max - f.scale.min) for f in form.aspects), default=0.0)
    return 0.5 / (overall.max - overall.min) + coarsest


def aspect_span(form: ReviewForm, scores: Mapping[str, float]) -> tuple[float, float] | None:
    """The lowest and highest position (0-1) of the aspects' scores; ``None`` unless every
    aspect was read."""
    positions = []
    for aspect in form.aspects:
        if aspect.name not in scores:
            return None
        positions.append(aspect.scale.position(scores[aspect.name]))
    return (min(positions), max(positions)) if positions else None


def overall_outside_aspects(form: ReviewForm, scores: Mapping[str, float]) -> bool | None:
    """Rule 2: the overall score's position lies beyond the aspects' lowest or highest
    position by more than :func:`overall_tolerance`; ``None`` when the form has no aspects or
    a score it needs is unread."""
    span = aspect_span(form, scores)
    overall = scores.get(form.overall.name)
    if span is None or overall is None:
        return None
    position = form.overall.scale.position(overall)
    tolerance = overall_tolerance(form)
    # a hair of slack for positions computed in floating point (1/9 + 1/6 ...)
    return position < span[0] - tolerance - 1e-9 or position > span[1] + tolerance + 1e-9


def disowning_phrase(texts: Iterable[str]) -> str | None:
    """The first phrase of :data:`DISOWNING` in ``texts``, as written; ``None`` if none."""
    for text in texts:
        match = _DISOWNING.search(text.replace("\u2019", "'"))
        if match is not None:
            return match.group(0)
    return None


def confidence_disowned(
    form: ReviewForm, confidence: float | None, texts: Iterable[str]
) -> bool | None:
    """Rule 3: a confidence in the scale's top two levels with a disowning phrase in the
    reviewer's text; ``None`` when the form has no confidence or it is unread."""
    field = form.confidence
    if field is None or confidence is None:
        return None
    if confidence < field.scale.max - 1:
        return False
    return disowning_phrase(texts) is not None


@dataclass(frozen=True, slots=True)
class Coherence:
    """The three rules on one filled-in form (``None``: the rule could not be applied)."""

    decision_against_threshold: bool | None
    overall_outside_aspects: bool | None
    confidence_disowned: bool | None
    phrase: str | None
    """The disowning phrase found in the text, whatever the confidence."""

    @property
    def flags(self) -> tuple[str, ...]:
        """The names of the rules that flag, in the order above."""
        return tuple(
            name
            for name in (
                "decision_against_threshold",
                "overall_outside_aspects",
                "confidence_disowned",
            )
            if getattr(self, name) is True
        )


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def coherence(
    form: ReviewForm,
    scores: Mapping[str, float],
    decision: str | None,
    texts: Iterable[object] = (),
) -> Coherence:
    """All three rules on a form's scores, decision and the reviewer's text (the form's text
    fields and notes; strings, or lists and mappings of them)."""
    strings = [s for value in texts for s in _strings(value)]
    confidence = form.confidence
    return Coherence(
        decision_against_threshold(form, scores.get(form.overall.name), decision),
        overall_outside_aspects(form, scores),
        confidence_disowned(
            form, None if confidence is None else scores.get(confidence.name), strings
        ),
        disowning_phrase(strings),
    )
