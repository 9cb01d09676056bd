"""Joint calibration of a cascade: one threshold per tier, one guarantee for the whole.

A cascade asks tier 0 first and the next tier only about the items the tiers before
did not accept; an item no tier accepts is abstained (sent to a human). The guarantee
is on the cascade's accepted set as a whole: with probability at least ``1 - delta``,
the error rate among the items the cascade accepts (each judged by the tier that
accepted it) is at most ``alpha``.

A cascade's rules form a grid (one threshold per tier), with no natural order from
strict to permissive to test them in. So the calibration items are split at random
(seeded) into a *path* part and a *test* part, as in Pareto Testing
(Laufer-Goldshtein et al. 2023, on Learn then Test):

1. On the path part only, a few *chains* are chosen. A chain fixes the thresholds of
   every tier but the last (its prefix) and runs the last tier's threshold over the
   fixed grid, strict to permissive: along a chain the accepted sets are nested, as
   for one judge. Chain 0 has every earlier tier accept nothing (always the last
   judge); the others are prefixes on the path part's front of coverage (at an error
   rate at most ``alpha`` there) against calls to the later tiers, spread over that
   front from the most covering to the cheapest.
2. On the test part only, each chain is tested with fixed-sequence testing and the
   exact binomial p-value at level ``delta / chains`` (Bonferroni over the chains),
   from the strictest threshold accepting ``start_count`` test items. The chains
   depend on the path part alone, so for the test part they are fixed in advance:
   with probability at least ``1 - delta`` no chain certifies a rule whose error rate
   exceeds ``alpha``.
3. Among all certified combinations: the highest coverage on the test part; then,
   among those within ``coverage_slack`` of it, the fewest calls to the later tiers
   (any certified combination carries the guarantee, so this choice is free).

With ``signal="auto"``, a tier's signal is also chosen on the path part, at no cost to
the test, as one judge's is on its selection part (``_stats.compare_signals``: the
coverage each signal certifies there, then its AUROC).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prin_guard.calibrate._stats import (
    binomial_p_values,
    fixed_sequence,
    grid,
    numpy,
    start_count,
    threshold_curve,
)

__all__ = [
    "CHAINS",
    "CascadeFit",
    "PathPoint",
    "badness",
    "decided_tier",
    "fit_cascade",
]

CHAINS = 4
"""Chains tested at most (``delta`` is divided between those chosen)."""
_PREFIXES = 256  # prefix combinations scored on the path part


@dataclass(frozen=True)
class PathPoint:
    """One combination of thresholds of a tested chain, measured on the test part."""

    chain: int
    thresholds: tuple[float | None, ...]
    """Per tier, in the signal's own scale (None: the tier accepts nothing)."""
    accepted: int
    errors: int
    coverage: float
    p_value: float
    calls_beyond_first: float
    """Judge calls of tiers 1, 2, ... per test item."""
    tested: bool
    """Reached by fixed-sequence testing (at or after the chain's start)."""
    rejected: bool
    """Certified: its error rate is at most alpha (with the others, at 1 - delta)."""


@dataclass(frozen=True)
class CascadeFit:
    """The outcome of :func:`fit_cascade`."""

    thresholds: tuple[float | None, ...]
    """Chosen threshold per tier (None everywhere when no combination passed)."""
    tested: int
    """Items of the test part."""
    path_items: int
    """Items of the path part."""
    accepted: int
    errors: int
    p_value: float | None
    asked: tuple[float, ...]
    """Share of test items that reached each tier."""
    accepted_by: tuple[float, ...]
    """Share of test items each tier accepted."""
    chains: int
    """Chains tested (``delta / chains`` each)."""
    path: tuple[PathPoint, ...] = ()
    chosen: int | None = None
    """Index of the chosen point in ``path``."""

    @property
    def coverage(self) -> float:
        return self.accepted / self.tested if self.tested else 0.0


def badness(values: Any, higher_is_better: bool) -> Any:
    """A signal turned so that a rule reads "accept when at or under t"."""
    np = numpy()
    values = np.asarray(values, dtype=float)
    return -values if higher_is_better else values


def decided_tier(bad: Sequence[Any], thresholds: Sequence[float]) -> Any:
    """Per item, the first tier whose (badness) signal is at or under its threshold;
    -1 when none is (abstained). NaN signals and ``-inf`` thresholds accept nothing."""
    np = numpy()
    tier = np.full(len(bad[0]), -1)
    for k in range(len(bad) - 1, -1, -1):
        tier = np.where(np.asarray(bad[k]) <= thresholds[k], k, tier)
    return tier


def _best_coverage(accepted: Any, errors: Any, alpha: float, total: int) -> float:
    ok = (errors <= alpha * accepted) & (accepted > 0)
    return float(accepted[ok].max()) / max(total, 1) if ok.any() else 0.0


@dataclass(frozen=True)
class _Tiers:
    """Every tier's arrays, restricted to some items."""

    bad: list[Any]
    values: list[Any]
    wrong: list[Any]
    calls: list[Any]
    higher: Sequence[bool]

    def prefix(self, thresholds: Sequence[float]) -> tuple[Any, int, int, float]:
        """Items reaching the last tier, and what the earlier tiers accepted, got wrong
        and cost beyond tier 0 under these thresholds."""
        np = numpy()
        n = len(self.bad[0])
        reach = np.ones(n, dtype=bool)
        accepted = errors = 0
        extra = 0.0
        for k, t in enumerate(thresholds):
            if k:
                extra += float(self.calls[k][reach].sum())
            takes = reach & (self.bad[k] <= t)
            accepted += int(takes.sum())
            errors += int((takes & self.wrong[k]).sum())
            reach &= ~takes
        extra += float(self.calls[-1][reach].sum())
        return reach, accepted, errors, extra

    def chain(self, thresholds: Sequence[float]) -> tuple[Any, Any, float, Any]:
        """Accepted and wrong counts over the last tier's grid, with this prefix."""
        reach, accepted, errors, extra = self.prefix(thresholds)
        last = threshold_curve(
            self.values[-1][reach], self.wrong[-1][reach], self.higher[-1], grid()
        )
        return accepted + last.accepted, errors + last.errors, extra, last.thresholds


def _prefix_grids(tiers: _Tiers, size: int) -> list[Any]:
    np = numpy()
    grids = []
    for bad in tiers.bad[:-1]:
        finite = bad[~np.isnan(bad)]
        levels = np.linspace(0.0, 1.0, size)
        quantiles = np.quantile(finite, levels, method="inverted_cdf") if finite.size else []
        grids.append(np.concatenate([[-np.inf], np.unique(quantiles)]))
    return grids


def _choose_chains(tiers: _Tiers, alpha: float, slack: float) -> list[tuple[float, ...]]:
    """Chain 0 (earlier tiers accept nothing) and up to ``CHAINS - 1`` prefixes spread
    over the front of coverage against cost on these (path) items."""
    np = numpy()
    n = len(tiers.bad[0])
    size = max(2, round(_PREFIXES ** (1.0 / max(len(tiers.bad) - 1, 1))))
    never = (-np.inf,) * (len(tiers.bad) - 1)
    scored = []
    for prefix in itertools.product(*_prefix_grids(tiers, size)):
        accepted, errors, extra, _ = tiers.chain(prefix)
        scored.append((prefix, _best_coverage(accepted, errors, alpha, n), extra / max(n, 1)))
    best = max(coverage for _, coverage, _ in scored)
    front: list[tuple[tuple[float, ...], float, float]] = []
    for prefix, coverage, cost in sorted(scored, key=lambda s: (s[2], -s[1])):
        if prefix == never or coverage < best - 5 * slack:
            continue
        if not front or coverage > front[-1][1]:
            front.append((prefix, coverage, cost))
    picks = np.unique(np.linspace(0, len(front) - 1, min(CHAINS - 1, len(front))).round())
    return [never, *(front[int(i)][0] for i in picks)] if front else [never]


def fit_cascade(
    values: Sequence[Any],
    wrong: Sequence[Any],
    calls: Sequence[Any],
    *,
    higher_is_better: Sequence[bool],
    alpha: float,
    delta: float,
    path_items: Any,
    test_items: Any,
    coverage_slack: float = 0.02,
    start_coverage: float = 0.1,
) -> CascadeFit:
    """Jointly calibrated thresholds for a cascade (see the module docstring).

    ``values[k]``: tier k's signal (NaN where missing), ``higher_is_better[k]`` its
    direction; ``wrong[k]``: whether tier k's verdict is wrong; ``calls[k]``: its judge
    calls. ``path_items`` and ``test_items``: disjoint index arrays of the split.
    """
    np = numpy()

    def restrict(items: Any) -> _Tiers:
        vals = [np.asarray(v, dtype=float)[items] for v in values]
        return _Tiers(
            bad=[badness(v, h) for v, h in zip(vals, higher_is_better, strict=True)],
            values=vals,
            wrong=[np.asarray(w, dtype=bool)[items] for w in wrong],
            calls=[np.asarray(c, dtype=float)[items] for c in calls],
            higher=higher_is_better,
        )

    path_part, test_part = restrict(path_items), restrict(test_items)
    chains = _choose_chains(path_part, alpha, coverage_slack)
    level = delta / len(chains)
    n_test = len(test_items)
    need = start_count(alpha, level, n_test, start_coverage)

    def scale(k: int, t: float) -> float | None:
        if np.isneginf(t):
            return None
        return -float(t) if higher_is_better[k] else float(t)

    path: list[PathPoint] = []
    for index, prefix in enumerate(chains):
        accepted, errors, extra, last_grid = test_part.chain(prefix)
        p = binomial_p_values(errors, accepted, alpha)
        enough = np.flatnonzero(accepted >= need)
        start = int(enough[0]) if enough.size else len(p)
        last = fixed_sequence(p, level, start)
        for j in range(len(p)):
            path.append(
                PathPoint(
                    chain=index,
                    thresholds=(
                        *(scale(k, t) for k, t in enumerate(prefix)),
                        float(last_grid[j]),
                    ),
                    accepted=int(accepted[j]),
                    errors=int(errors[j]),
                    coverage=float(accepted[j]) / max(n_test, 1),
                    p_value=float(p[j]),
                    calls_beyond_first=extra / max(n_test, 1),
                    tested=j >= start,
                    rejected=last is not None and start <= j <= last,
                )
            )
    certified = [i for i, point in enumerate(path) if point.rejected]
    tiers = len(values)
    if not certified:
        return CascadeFit(
            thresholds=(None,) * tiers,
            tested=n_test,
            path_items=len(path_items),
            accepted=0,
            errors=0,
            p_value=None,
            # no tier accepts anything: a guard asks every tier about every item
            asked=(1.0,) * tiers,
            accepted_by=(0.0,) * tiers,
            chains=len(chains),
            path=tuple(path),
        )
    top = max(path[i].accepted for i in certified)
    near = [i for i in certified if path[i].accepted >= top - coverage_slack * n_test]
    chosen = min(near, key=lambda i: (path[i].calls_beyond_first, -path[i].accepted))
    point = path[chosen]
    cuts = [
        -np.inf if t is None else (-t if higher_is_better[k] else t)
        for k, t in enumerate(point.thresholds)
    ]
    decided = decided_tier(test_part.bad, cuts)
    reached = [float((decided == -1).mean() + (decided >= k).mean()) for k in range(tiers)]
    return CascadeFit(
        thresholds=point.thresholds,
        tested=n_test,
        path_items=len(path_items),
        accepted=point.accepted,
        errors=point.errors,
        p_value=point.p_value,
        asked=tuple(reached),
        accepted_by=tuple(float((decided == k).mean()) for k in range(tiers)),
        chains=len(chains),
        path=tuple(path),
        chosen=chosen,
    )
