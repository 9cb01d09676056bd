"""Calibrated acceptance: choose, from eval runs with gold labels, which verdicts to accept.

``prin-guard calibrate RUN_DIR ... --alpha 0.1 --delta 0.1 --out acceptance.json``
reads eval runs (:func:`load_runs`), finds the most permissive acceptance rule whose
error rate among accepted verdicts is at most ``alpha`` with probability at least
``1 - delta`` over the draw of the calibration items (:func:`calibrate`), and writes
an :class:`~prin_guard._route._acceptance.Acceptance` that a guard applies. With more than one
tier (a cheap judge, then a stronger one) the thresholds are calibrated jointly, so
that the guarantee holds for the whole cascade's accepted set.

The method, in short (docs/calibration.md has it in full, with what the guarantee
does and does not cover):

- a verdict is wrong when its ``correct`` set differs from the gold set (the options,
  the winner, the met set, by task: :func:`~prin_guard._route._acceptance.verdict_wrong`); the
  file records the task, and a guard with it judges items of that task only;
- a rule accepts a verdict when one signal (PRIN, order inconsistency, panel
  agreement, confidence) is on the good side of a threshold;
- one tier: a signal's thresholds on a grid fixed in advance, strict to permissive,
  are tested in turn with the exact binomial p-value ``P(Binomial(m, alpha) <= e)``
  (``m`` accepted, ``e`` wrong) and fixed-sequence testing at ``delta`` picks the last
  rule that passes (:mod:`~prin_guard.calibrate._stats`); with ``auto`` and several
  signals, the signal is chosen first on a seeded selection part of the items and
  tested on the rest (:mod:`~prin_guard.calibrate._fit`);
- a cascade: Pareto Testing, a seeded split into a path part that orders the
  threshold combinations and a test part that tests them in that order
  (:mod:`~prin_guard.calibrate._cascade`).

The file it writes holds only what calibration can have written, and carries a digest
(sha256) of its own content, and a signature when the operator's key is set;
:class:`~prin_guard._route._acceptance.Acceptance` checks them when it loads one.

numpy and scipy come with the ``eval`` extra and are imported when a function here
first needs them.
"""

from prin_guard.calibrate._cascade import CascadeFit, PathPoint, fit_cascade
from prin_guard.calibrate._data import CalibrationData, TierData, load_runs
from prin_guard.calibrate._fit import (
    Baseline,
    Calibration,
    Outcome,
    calibrate,
    evaluate,
    holdout_split,
)
from prin_guard.calibrate._reviews import decision_acceptance
from prin_guard.calibrate._stats import (
    Curve,
    SignalScore,
    ThresholdFit,
    binomial_p_values,
    fit_threshold,
    fixed_sequence,
    min_items,
    threshold_curve,
    upper_bounds,
)

__all__ = [
    "Baseline",
    "Calibration",
    "CalibrationData",
    "CascadeFit",
    "Curve",
    "Outcome",
    "PathPoint",
    "SignalScore",
    "ThresholdFit",
    "TierData",
    "binomial_p_values",
    "calibrate",
    "decision_acceptance",
    "evaluate",
    "fit_cascade",
    "fit_threshold",
    "fixed_sequence",
    "holdout_split",
    "load_runs",
    "min_items",
    "threshold_curve",
    "upper_bounds",
]
