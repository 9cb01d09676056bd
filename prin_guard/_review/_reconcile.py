"""A review form asked both ways, and asked again after a rebuttal.

**A mirrored score** is the rating task's: ``prin_guard._prompting._rating.reconcile`` on the
field's scale (the review task converts each field's scale; one rule, in one place).

**The decision's reverse question** (:func:`reconcile_decision`). The direct leg asks for the
decision; the reverse asks "should it be rejected?", whose yes means reject and no accept.
The same side on both: that decision. Different sides: no decision and ``inconsistent``. A
leg not read: no decision, ``inconsistent`` false (the verdict is unread, not contradicted).

**Rebuttal movement** (:func:`rebuttal_movement`). Between the form before an author's
rebuttal and the form after it: each score read both times moved ``after - before``; the
decision changed or not. ``swayed`` when the decision changed or any score moved by more
than its tolerance (``tolerances``, by the form's names: the review task gives each scale's
agreement, one point on 1-10 and 1-4; a ``tolerance`` given applies to every field, in
points).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from prin_guard._review._forms import ReviewForm
from prin_guard.errors import UsageError

__all__ = [
    "DecisionAgreement",
    "Movement",
    "rebuttal_movement",
    "reconcile_decision",
]


@dataclass(frozen=True, slots=True)
class DecisionAgreement:
    """The decision asked directly and as "should it be rejected?"."""

    direct: str | None
    rejected: bool | None
    """The reverse question's answer: ``True`` for yes (reject)."""
    decision: str | None
    inconsistent: bool


def reconcile_decision(direct: str | None, rejected: bool | None) -> DecisionAgreement:
    """The decision both legs give (the module's rule)."""
    if direct not in (None, "accept", "reject"):
        raise UsageError(f"direct: expected 'accept', 'reject' or None, got {direct!r}")
    if rejected is not None and not isinstance(rejected, bool):
        raise UsageError(f"rejected: expected True, False or None, got {rejected!r}")
    if direct is None or rejected is None:
        return DecisionAgreement(direct, rejected, None, False)
    reverse = "reject" if rejected else "accept"
    if reverse != direct:
        return DecisionAgreement(direct, rejected, None, True)
    return DecisionAgreement(direct, rejected, direct, False)


@dataclass(frozen=True, slots=True)
class Movement:
    """How far a form moved between two askings (before and after a rebuttal)."""

    scores: dict[str, float]
    """``after - before`` for each score read both times, by the form's names."""
    decision_before: str | None
    decision_after: str | None
    moved: tuple[str, ...]
    """The scores that moved by more than their tolerance, in the form's order."""

    @property
    def decision_changed(self) -> bool:
        return (
            self.decision_before is not None
            and self.decision_after is not None
            and self.decision_before != self.decision_after
        )

    @property
    def swayed(self) -> bool:
        """The decision changed or a score moved past its tolerance."""
        return self.decision_changed or bool(self.moved)


def rebuttal_movement(
    form: ReviewForm,
    before: Mapping[str, float],
    after: Mapping[str, float],
    decision_before: str | None,
    decision_after: str | None,
    *,
    tolerances: Mapping[str, float],
    tolerance: float | None = None,
) -> Movement:
    """Each score's and the decision's movement between two fillings of ``form``."""
    if tolerance is not None and (isinstance(tolerance, bool) or not tolerance >= 0):
        raise UsageError(f"tolerance: expected a number of points of 0 or more, got {tolerance!r}")
    for name, side in (("decision_before", decision_before), ("decision_after", decision_after)):
        if side not in (None, "accept", "reject"):
            raise UsageError(f"{name}: expected 'accept', 'reject' or None, got {side!r}")
    deltas: dict[str, float] = {}
    moved: list[str] = []
    for field in form.scores:
        if field.name in before and field.name in after:
            delta = after[field.name] - before[field.name]
            deltas[field.name] = delta
            if tolerance is None and field.name not in tolerances:
                raise UsageError(f"tolerances: no tolerance for {field.name!r}")
            limit = tolerances[field.name] if tolerance is None else tolerance
            if abs(delta) > limit:
                moved.append(field.name)
    return Movement(deltas, decision_before, decision_after, tuple(moved))
