"""Calibrated acceptance of a review's decision (issue 41, item 7): accept a reviewer's
decision only where its error rate is guaranteed, escalate the rest to a person.

The machinery is calibration's (:func:`~prin_guard.calibrate.fit_threshold`: the grid of
thresholds, strict to permissive, each tested with the exact binomial p-value and
fixed-sequence testing at ``delta``), on one signal, PRIN (``prin <= t``: the mean of every
score's PRIN and the decision's disagreement), with the error of a review defined once
(:func:`~prin_guard._route._acceptance.decision_wrong`: no decision, or not the venue's). A review
without a guarded decision has no signal and is never accepted.

The papers are split with a seed: one part calibrates the rule, the held-out part is decided
by it, and its figures (the share accepted, their error rate, the share escalated) are what
the rule does on papers it was not fitted on. ``eval iclr2017`` is the caller.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from prin_guard._route._acceptance import Rule, min_items
from prin_guard.calibrate._stats import fit_threshold, numpy
from prin_guard.errors import UsageError

__all__ = ["decision_acceptance"]


def decision_acceptance(
    signal: Sequence[float | None],
    wrong: Sequence[bool],
    *,
    alpha: float = 0.1,
    delta: float = 0.1,
    seed: int = 0,
    holdout: float = 0.5,
) -> dict[str, Any]:
    """The rule ``prin <= t`` calibrated at ``alpha``/``delta`` on a seeded ``1 - holdout``
    of the papers (``signal``: each paper's PRIN, ``None`` without a guarded decision;
    ``wrong``: whether its decision is wrong) and applied to the rest; the figures as a
    JSON-ready dict."""
    if len(signal) != len(wrong):
        raise UsageError(f"wrong: {len(wrong)} values for {len(signal)} papers")
    if not 0 < holdout < 1:
        raise UsageError(f"holdout: must be between 0 and 1, got {holdout!r}")
    need = min_items(alpha, delta)  # also checks alpha and delta
    np = numpy()
    n = len(signal)
    order = [int(i) for i in np.random.default_rng([seed, 1]).permutation(n)]
    cut = n - round(holdout * n)
    calibrating, held_out = sorted(order[:cut]), sorted(order[cut:])
    values = np.array([math.nan if s is None else float(s) for s in signal], dtype=float)
    errors = np.array([bool(w) for w in wrong], dtype=bool)
    fit = fit_threshold(
        values[calibrating], errors[calibrating], alpha, delta, higher_is_better=False
    )
    rule = Rule(signal="prin", threshold=fit.threshold)
    accepted = [i for i in held_out if rule.accepts(signal[i])]
    wrong_accepted = sum(bool(wrong[i]) for i in accepted)
    why = None
    if fit.threshold is None:
        decided = int(np.sum(~np.isnan(values[calibrating])))
        why = (
            f"{decided} of {len(calibrating)} calibrating papers have a guarded decision; a rule "
            f"needs at least {need} accepted with none wrong to pass at alpha {alpha}, delta "
            f"{delta}, more with errors"
            if decided < need
            else "no threshold's error rate among the accepted passed the test"
        )
    return {
        "signal": "prin",
        "alpha": alpha,
        "delta": delta,
        "seed": seed,
        "holdout": holdout,
        "min_items": need,
        "threshold": fit.threshold,
        "rule": rule.text,
        "words": rule.words,
        "why": why,
        "calibration": {
            "papers": len(calibrating),
            "accepted": fit.accepted,
            "errors": fit.errors,
            "coverage": fit.coverage,
            "p_value": fit.p_value,
        },
        "test": {
            "papers": len(held_out),
            "accepted": len(accepted),
            "errors": wrong_accepted,
            "accepted_share": len(accepted) / len(held_out) if held_out else None,
            "error_rate": wrong_accepted / len(accepted) if accepted else None,
            "escalated_share": 1 - len(accepted) / len(held_out) if held_out else None,
        },
    }
