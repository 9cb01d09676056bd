"""Reviewing a paper (issue 41), the parts that do not depend on the task route: review forms
as data, the coherence rules a filled-in form must meet, and the reconciliation of a form asked
both ways or asked again after a rebuttal. No I/O besides reading the shipped forms and no
judge: the review task module of the tasks package (issue 39) calls them.

* ``_forms``: :class:`ReviewForm` (score fields and scales, the decision's words, the venue's
  threshold, the messages), the shipped forms and forms of one's own in TOML;
* ``_coherence``: the rules that flag a form contradicting itself;
* ``_reconcile``: the reverse decision question, rebuttal movement (a mirrored score is the
  rating task's rule, ``prin_guard._prompting._rating.reconcile``).
"""

from __future__ import annotations

from prin_guard._review._coherence import (
    DISOWNING,
    Coherence,
    aspect_span,
    coherence,
    confidence_disowned,
    decision_against_threshold,
    disowning_phrase,
    overall_outside_aspects,
    overall_tolerance,
)
from prin_guard._review._forms import (
    DecisionField,
    Example,
    ReviewForm,
    ReviewScale,
    Role,
    ScoreField,
    field_key,
    form_identity,
    load_review_form,
    review_form,
    review_forms,
)
from prin_guard._review._reconcile import (
    DecisionAgreement,
    Movement,
    rebuttal_movement,
    reconcile_decision,
)

__all__ = [
    "DISOWNING",
    "Coherence",
    "DecisionAgreement",
    "DecisionField",
    "Example",
    "Movement",
    "ReviewForm",
    "ReviewScale",
    "Role",
    "ScoreField",
    "aspect_span",
    "coherence",
    "confidence_disowned",
    "decision_against_threshold",
    "disowning_phrase",
    "field_key",
    "form_identity",
    "load_review_form",
    "overall_outside_aspects",
    "overall_tolerance",
    "rebuttal_movement",
    "reconcile_decision",
    "review_form",
    "review_forms",
]
