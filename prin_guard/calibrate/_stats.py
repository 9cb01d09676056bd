"""The statistics of calibration: exact binomial tests and fixed-sequence testing.

For a fixed acceptance rule, let ``m`` calibration verdicts be accepted and ``e`` of
them be wrong. Conditionally on ``m``, the accepted items are ``m`` independent draws
from the items the rule accepts, so ``e`` is Binomial(``m``, R) where R is the rule's
error rate among accepted items. Under the null hypothesis R > alpha, ``e`` is
stochastically at least Binomial(``m``, alpha), so ``p = P(Binomial(m, alpha) <= e)``
is a valid p-value conditionally on ``m``, and so unconditionally too (with ``m = 0``,
p = 1: a rule that accepted nothing shows nothing). :func:`binomial_p_values` computes
it exactly (``scipy.stats.binom.cdf``).

Fixed-sequence testing (:func:`fixed_sequence`) tests the rules in an order fixed
before looking at the errors, strict to permissive, rejects while ``p <= delta`` and
stops at the first failure: the family-wise error rate is at most ``delta`` (Learn then
Test, Angelopoulos et al. 2021). Every rejected rule is then guaranteed at once.

The thresholds are a grid fixed in advance (:func:`grid`: every signal lies in [0, 1]).
A rule with fewer than :func:`min_items` accepted items cannot pass even with no
error at all, ``(1 - alpha)^m > delta`` (it lives with the file checks of
``_acceptance``, which use it too), and rules that accept only a handful fail on a
single early error; so the sequence starts at the strictest grid threshold that
accepts :func:`start_count` items (10% of them by default). That start depends on
the signal values and the number of items, never on the gold labels; it keeps the
guarantee exact when a signal's error rate does not fall as the signal gets worse
(docs/calibration.md gives the argument, and what happens otherwise).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Any

from prin_guard._route._acceptance import min_items
from prin_guard.errors import MissingExtraError

__all__ = [
    "Curve",
    "SignalScore",
    "ThresholdFit",
    "binomial_p_values",
    "choose_signal",
    "compare_signals",
    "fit_threshold",
    "fixed_sequence",
    "grid",
    "min_items",
    "numpy",
    "start_count",
    "threshold_curve",
    "upper_bounds",
]


def numpy() -> Any:
    """numpy, or MissingExtraError naming the extra (it comes with scipy)."""
    try:
        return importlib.import_module("numpy")
    except ImportError:
        raise MissingExtraError("prin-guard calibrate", "eval", "numpy") from None


def _stats() -> Any:
    # imported by name: scipy ships no type information, and a lazy import keeps
    # `import prin_guard.calibrate` light
    try:
        return importlib.import_module("scipy.stats")
    except ImportError:
        raise MissingExtraError("prin-guard calibrate", "eval", "scipy") from None


def binomial_p_values(errors: Any, accepted: Any, alpha: float) -> Any:
    """``P(Binomial(accepted, alpha) <= errors)`` elementwise; 1 where nothing is accepted."""
    np = numpy()
    errors = np.asarray(errors, dtype=float)
    accepted = np.asarray(accepted, dtype=float)
    p = _stats().binom.cdf(errors, accepted, alpha)
    return np.where(accepted > 0, p, 1.0)


def upper_bounds(errors: Any, accepted: Any, delta: float) -> Any:
    """One-sided Clopper-Pearson upper bounds at level ``1 - delta`` on the error rate,
    each on its own (not simultaneous); 1 where nothing is accepted."""
    np = numpy()
    errors = np.asarray(errors, dtype=float)
    accepted = np.asarray(accepted, dtype=float)
    safe = np.maximum(accepted - errors, 1.0)
    bound = _stats().beta.ppf(1 - delta, errors + 1, safe)
    return np.where((accepted > 0) & (errors < accepted), bound, 1.0)


def fixed_sequence(p_values: Any, delta: float, start: int = 0) -> int | None:
    """Index of the last hypothesis rejected by fixed-sequence testing from ``start``
    (``p <= delta`` at every step up to it), or None when the first one fails."""
    np = numpy()
    tail = np.asarray(p_values)[start:] > delta
    if not tail.size:
        return None
    fails = np.flatnonzero(tail)
    rejected = int(fails[0]) if fails.size else int(tail.size)
    return start + rejected - 1 if rejected else None


@dataclass(frozen=True)
class Curve:
    """Risk and coverage of every threshold of one signal, strict to permissive."""

    thresholds: Any
    """The observed signal values (ascending for ``<=`` signals, descending for ``>=``)."""
    accepted: Any
    """Items each threshold accepts."""
    errors: Any
    """Accepted items whose verdict is wrong."""
    total: int
    """All items, those without the signal included."""

    @property
    def coverage(self) -> Any:
        return self.accepted / max(self.total, 1)

    @property
    def risk(self) -> Any:
        np = numpy()
        return np.divide(
            self.errors,
            self.accepted,
            out=np.full(len(self.accepted), np.nan),
            where=self.accepted > 0,
        )


def grid() -> Any:
    """The thresholds every signal is tested at, ascending: 0 to 1 in steps of 0.01, and
    ten to the power -2 to -8 (in quarter steps) from either end, where log-probability
    confidences and small inconsistencies live."""
    np = numpy()
    tails = 10.0 ** (-np.arange(8, 33) / 4)
    return np.unique(np.concatenate([np.linspace(0.0, 1.0, 101), tails, 1.0 - tails]))


def threshold_curve(
    values: Any, wrong: Any, higher_is_better: bool, thresholds: Any | None = None
) -> Curve:
    """Accepted and wrong counts of the rule at each threshold, strict to permissive.

    ``values`` holds the signal per item (NaN where missing: never accepted), ``wrong``
    whether the item's verdict is wrong. ``thresholds``: the distinct observed values
    when None.
    """
    np = numpy()
    values = np.asarray(values, dtype=float)
    wrong = np.asarray(wrong, dtype=bool)
    present = ~np.isnan(values)
    keys = -values[present] if higher_is_better else values[present]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cumulative = np.concatenate([[0], np.cumsum(wrong[present][order])])
    if thresholds is None:
        at = np.unique(sorted_keys)
    else:
        given = np.asarray(thresholds, dtype=float)
        at = np.sort(-given if higher_is_better else given)
    accepted = np.searchsorted(sorted_keys, at, side="right")
    return Curve(
        thresholds=-at if higher_is_better else at,
        accepted=accepted.astype(int),
        errors=cumulative[accepted].astype(int),
        total=len(values),
    )


@dataclass(frozen=True)
class ThresholdFit:
    """Fixed-sequence testing over one signal's thresholds."""

    curve: Curve
    p_values: Any
    start: int
    """The first threshold tested: the strictest accepting at least ``min_items``."""
    chosen: int | None
    """Index of the chosen (most permissive rejected) threshold; None: none passed."""
    level: float
    """The delta each test was run at (``delta`` divided among the signals tried)."""

    @property
    def threshold(self) -> float | None:
        return None if self.chosen is None else float(self.curve.thresholds[self.chosen])

    @property
    def accepted(self) -> int:
        return 0 if self.chosen is None else int(self.curve.accepted[self.chosen])

    @property
    def errors(self) -> int:
        return 0 if self.chosen is None else int(self.curve.errors[self.chosen])

    @property
    def p_value(self) -> float | None:
        return None if self.chosen is None else float(self.p_values[self.chosen])

    @property
    def coverage(self) -> float:
        """Share of all the items (``curve.total``) the chosen threshold accepts."""
        return self.accepted / max(self.curve.total, 1)


def start_count(alpha: float, level: float, n: int, start_coverage: float) -> int:
    """Accepted items at which the sequence starts: ``start_coverage`` of ``n``, and
    never fewer than :func:`min_items`."""
    return max(min_items(alpha, level), math.ceil(start_coverage * n))


def fit_threshold(
    values: Any,
    wrong: Any,
    alpha: float,
    level: float,
    higher_is_better: bool,
    *,
    start_coverage: float = 0.1,
) -> ThresholdFit:
    """The most permissive threshold of :func:`grid` that fixed-sequence testing at
    ``level`` certifies, starting at the strictest one that accepts
    :func:`start_count` items."""
    np = numpy()
    curve = threshold_curve(values, wrong, higher_is_better, grid())
    p = binomial_p_values(curve.errors, curve.accepted, alpha)
    need = start_count(alpha, level, curve.total, start_coverage)
    enough = np.flatnonzero(curve.accepted >= need)
    start = int(enough[0]) if enough.size else len(p)
    return ThresholdFit(
        curve=curve,
        p_values=p,
        start=start,
        chosen=fixed_sequence(p, level, start),
        level=level,
    )


@dataclass(frozen=True)
class SignalScore:
    """How one signal did on the part of the items that chooses the signal."""

    certified: float
    """The coverage fixed-sequence testing certifies with it there (at alpha, delta)."""
    auroc: float | None
    """Its AUROC as a predictor of a wrong verdict there (0.5 chance; None when every
    verdict there is right or every one wrong)."""
    items: int
    """Items of that part."""
    values: int
    """Distinct values the signal takes there (1: it cannot rank the verdicts)."""


def compare_signals(
    candidates: dict[str, tuple[Any, bool]],
    wrong: Any,
    alpha: float,
    delta: float,
    items: Any,
    *,
    start_coverage: float = 0.1,
) -> dict[str, SignalScore]:
    """Each candidate signal (``name: (values, higher_is_better)``) scored on ``items``
    only: the coverage it certifies there and its AUROC."""
    from prin_guard.eval import signal_auroc

    np = numpy()
    chosen = np.asarray(items, dtype=int)
    wrong = np.asarray(wrong, dtype=bool)[chosen]
    out: dict[str, SignalScore] = {}
    for name, (values, higher) in candidates.items():
        part = np.asarray(values, dtype=float)[chosen]
        fit = fit_threshold(part, wrong, alpha, delta, higher, start_coverage=start_coverage)
        present = [None if np.isnan(v) else float(v) for v in part]
        auroc = signal_auroc(present, [bool(w) for w in wrong], "lower" if higher else "higher")
        out[name] = SignalScore(
            certified=fit.coverage,
            auroc=auroc,
            items=len(chosen),
            values=len({v for v in present if v is not None}),
        )
    return out


def choose_signal(scores: dict[str, SignalScore]) -> str:
    """The signal certifying the most coverage; on a tie one that varies, then the higher
    AUROC (None counts as chance, 0.5), then the first in order."""

    def key(name: str) -> tuple[float, bool, float]:
        score = scores[name]
        return (score.certified, score.values > 1, 0.5 if score.auroc is None else score.auroc)

    return max(scores, key=key)
