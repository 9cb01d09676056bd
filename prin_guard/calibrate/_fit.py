"""From calibration items to an :class:`~prin_guard._acceptance.Acceptance`, and back.

:func:`calibrate` fits one tier with fixed-sequence testing over each signal's
thresholds (``_stats``) and a cascade jointly (``_cascade``); :func:`evaluate` applies
an acceptance file to items exactly as a guard does (through
:meth:`Acceptance.decide`), for held-out figures; :func:`holdout_split` keeps a seeded
share of the items out of calibration for that.
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prin_guard._acceptance import SIGNALS, Acceptance, Rule, Tier
from prin_guard._exceptions import UsageError
from prin_guard.calibrate._cascade import CHAINS, CascadeFit, fit_cascade, pick_signal
from prin_guard.calibrate._data import CalibrationData
from prin_guard.calibrate._stats import ThresholdFit, fit_threshold, min_items, numpy

__all__ = ["Baseline", "Calibration", "Outcome", "calibrate", "evaluate", "holdout_split"]


@dataclass(frozen=True)
class Baseline:
    """One tier on its own (always cheap, always strong), calibrated on all items."""

    tier: int
    fit: ThresholdFit
    signal: str
    calls_per_item: float
    """Judge calls of this tier per item (it is asked about every item)."""
    cost_per_item: float | None
    """Its cost in USD per item, when every verdict reports one."""
    accuracy: float
    """Share of all items whose verdict is right (no abstention)."""


@dataclass(frozen=True)
class Calibration:
    """What :func:`calibrate` found: the file to write and what the report shows."""

    acceptance: Acceptance
    fits: dict[str, ThresholdFit]
    """One tier: the fixed-sequence test of every signal tried."""
    cascade: CascadeFit | None = None
    baselines: tuple[Baseline, ...] = ()
    """A cascade: each tier alone, for comparison."""
    tested: Outcome | None = None
    """A cascade: the chosen rules applied to the test part, as a guard applies them."""

    @property
    def signal(self) -> str:
        return self.acceptance.tiers[0].rule.signal


@dataclass(frozen=True)
class Outcome:
    """An acceptance applied to items with gold sets."""

    n: int
    accepted: int
    errors: int
    decided_by: tuple[int, ...]
    """Items accepted by each tier."""
    asked: tuple[int, ...]
    """Items that reached each tier."""
    calls: float
    """Judge calls over every tier asked."""
    calls_by_tier: tuple[float, ...]
    """The same, tier by tier."""
    cost_usd: float | None
    """Their cost, when every verdict reports one."""

    @property
    def coverage(self) -> float:
        return self.accepted / self.n if self.n else 0.0

    @property
    def error_rate(self) -> float | None:
        return self.errors / self.accepted if self.accepted else None

    @property
    def abstained(self) -> int:
        return self.n - self.accepted

    @property
    def calls_per_item(self) -> float:
        return self.calls / self.n if self.n else 0.0

    @property
    def cost_per_item(self) -> float | None:
        return None if self.cost_usd is None or not self.n else self.cost_usd / self.n


def _version() -> str:
    try:
        return f"prin-guard {importlib.metadata.version('prin-guard')}"
    except importlib.metadata.PackageNotFoundError:
        return "prin-guard"


def _check_level(alpha: float, delta: float) -> None:
    for name, value in (("alpha", alpha), ("delta", delta)):
        if not (isinstance(value, int | float) and 0 < value < 1):
            raise UsageError(f"{name}: must be between 0 and 1 (exclusive), got {value!r}")


def _signals(data: CalibrationData, tier: int, wanted: str) -> list[str]:
    available = data.tiers[tier].available()
    if wanted == "auto":
        if not available:
            raise UsageError(f"runs: no verdict of tier {tier} has any signal (no legs?)")
        return list(available)
    if wanted not in SIGNALS:
        raise UsageError(f"signal: unknown {wanted!r}; known: auto, {', '.join(SIGNALS)}")
    if wanted not in available:
        raise UsageError(
            f"signal: no verdict of tier {tier} has {wanted!r} (run eval with the check "
            "that produces it)"
        )
    return [wanted]


def _too_few(n: int, need: int, alpha: float, delta: float, why: str) -> UsageError:
    return UsageError(
        f"too few calibration items: alpha={alpha}, delta={delta} needs at least {need} "
        f"items with a gold set{why}; the runs have {n}. Evaluate more items, or loosen "
        "alpha or delta (with no error among m accepted items, a rule passes once "
        "(1 - alpha)^m <= delta)"
    )


def calibrate(
    data: CalibrationData,
    *,
    alpha: float,
    delta: float,
    signals: str | Sequence[str] = "auto",
    seed: int = 0,
    path_fraction: float = 0.3,
    coverage_slack: float = 0.02,
    start_coverage: float = 0.1,
) -> Calibration:
    """The most permissive acceptance whose error among accepted verdicts is at most
    ``alpha`` with probability at least ``1 - delta``; UsageError when there are too
    few items to certify any rule.

    ``signals``: ``auto`` (every signal the verdicts carry; one tier: ``delta`` is
    split evenly between them; a cascade: each tier's is chosen on the path part), one
    signal name for every tier, or one per tier. ``start_coverage``: one tier's test
    sequence starts at the strictest threshold accepting this share of the items.
    ``path_fraction``, ``coverage_slack``: a cascade's split and its choice among the
    certified combinations (:mod:`~prin_guard.calibrate._cascade`).
    """
    _check_level(alpha, delta)
    tiers = len(data.tiers)
    wanted = [signals] * tiers if isinstance(signals, str) else list(signals)
    if len(wanted) not in (1, tiers):
        raise UsageError(f"signal: give one signal, or one per tier ({tiers})")
    wanted = wanted * tiers if len(wanted) == 1 else wanted
    if not 0 <= start_coverage < 1:
        raise UsageError(f"start_coverage: must be in [0, 1), got {start_coverage!r}")
    if tiers == 1:
        candidates = _signals(data, 0, wanted[0])
        return _calibrate_one(data, alpha, delta, candidates, seed, start_coverage)
    return _calibrate_cascade(
        data, alpha, delta, wanted, seed, path_fraction, coverage_slack, start_coverage
    )


def _calibrate_one(
    data: CalibrationData,
    alpha: float,
    delta: float,
    candidates: list[str],
    seed: int,
    start_coverage: float,
) -> Calibration:
    level = delta / len(candidates)
    need = min_items(alpha, level)
    if data.n < need:
        why = f" (delta split between {len(candidates)} signals)" if len(candidates) > 1 else ""
        raise _too_few(data.n, need, alpha, delta, why)
    tier = data.tiers[0]
    wrong = data.wrong(0)
    fits = {
        name: fit_threshold(
            tier.signal(name),
            wrong,
            alpha,
            level,
            SIGNALS[name].higher_is_better,
            start_coverage=start_coverage,
        )
        for name in candidates
    }
    best = max(candidates, key=lambda name: fits[name].accepted)  # first on ties
    fit = fits[best]
    acceptance = Acceptance(
        alpha=alpha,
        delta=delta,
        n=data.n,
        tested=data.n,
        accepted=fit.accepted,
        errors=fit.errors,
        coverage=fit.accepted / data.n,
        p_value=fit.p_value,
        method="fixed_sequence",
        signals_tested=tuple(candidates),
        tiers=(
            Tier(
                judge=tier.judge,
                options=tier.options,
                rule=Rule(signal=best, threshold=fit.threshold),  # type: ignore[arg-type]
                asked=1.0,
                accepted=fit.accepted / data.n,
            ),
        ),
        calibration_sha256=data.digest(),
        runs=(tier.runs,),
        seed=seed,
        created_with=_version(),
    )
    return Calibration(acceptance=acceptance, fits=fits)


def _calibrate_cascade(
    data: CalibrationData,
    alpha: float,
    delta: float,
    wanted: list[str],
    seed: int,
    path_fraction: float,
    coverage_slack: float,
    start_coverage: float,
) -> Calibration:
    np = numpy()
    if not 0 < path_fraction < 1:
        raise UsageError(f"path_fraction: must be between 0 and 1, got {path_fraction!r}")
    need = min_items(alpha, delta / CHAINS)
    n_path = round(path_fraction * data.n)
    if data.n - n_path < need:
        total = math.ceil(need / (1 - path_fraction))
        while total - round(path_fraction * total) < need:
            total += 1
        raise _too_few(
            data.n,
            total,
            alpha,
            delta,
            f" ({need} in the test part, delta split between up to {CHAINS} chains, once "
            f"{path_fraction:.0%} go to the path part)",
        )
    order = np.random.default_rng(seed).permutation(data.n)
    path, test = order[:n_path], order[n_path:]
    chosen: list[str] = []
    for k, want in enumerate(wanted):
        names = _signals(data, k, want)
        candidates = {
            name: (data.tiers[k].signal(name), SIGNALS[name].higher_is_better) for name in names
        }
        chosen.append(pick_signal(candidates, data.wrong(k), alpha, path))
    higher = [SIGNALS[name].higher_is_better for name in chosen]
    values = [data.tiers[k].signal(name) for k, name in enumerate(chosen)]
    wrong = [data.wrong(k) for k in range(len(chosen))]
    calls = [data.tiers[k].calls() for k in range(len(chosen))]
    fit = fit_cascade(
        values,
        wrong,
        calls,
        higher_is_better=higher,
        alpha=alpha,
        delta=delta,
        path_items=path,
        test_items=test,
        coverage_slack=coverage_slack,
        start_coverage=start_coverage,
    )
    tiers = tuple(
        Tier(
            judge=tier.judge,
            options=tier.options,
            rule=Rule(signal=chosen[k], threshold=fit.thresholds[k]),  # type: ignore[arg-type]
            asked=fit.asked[k],
            accepted=fit.accepted_by[k],
        )
        for k, tier in enumerate(data.tiers)
    )
    acceptance = Acceptance(
        alpha=alpha,
        delta=delta,
        n=data.n,
        tested=fit.tested,
        accepted=fit.accepted,
        errors=fit.errors,
        coverage=fit.coverage,
        p_value=fit.p_value,
        method="pareto_fixed_sequence",
        signals_tested=tuple(dict.fromkeys(chosen)),
        tiers=tiers,
        calibration_sha256=data.digest(),
        runs=tuple(t.runs for t in data.tiers),
        seed=seed,
        created_with=_version(),
    )
    baselines = tuple(
        Baseline(
            tier=k,
            fit=fit_threshold(
                values[k],
                wrong[k],
                alpha,
                delta,
                higher[k],
                start_coverage=start_coverage,
            ),
            signal=chosen[k],
            calls_per_item=float(calls[k].mean()),
            cost_per_item=_mean_or_none(data.tiers[k].cost()),
            accuracy=1.0 - float(wrong[k].mean()),
        )
        for k in range(len(chosen))
    )
    return Calibration(
        acceptance=acceptance,
        fits={},
        cascade=fit,
        baselines=baselines,
        tested=evaluate(acceptance, data.subset(test), check=False),
    )


def _mean_or_none(values: Any) -> float | None:
    np = numpy()
    return None if np.isnan(values).any() else float(values.mean())


def evaluate(acceptance: Acceptance, data: CalibrationData, *, check: bool = True) -> Outcome:
    """Apply ``acceptance`` to every item as a guard with those tiers would: ask tier 0,
    then the next tier while no tier has accepted. With ``check``, the items' judges
    and options must be those the file was calibrated for."""
    if check:
        acceptance.check_compatible([t.judge for t in data.tiers], [t.options for t in data.tiers])
    tiers = len(acceptance.tiers)
    decided = [0] * tiers
    asked = [0] * tiers
    accepted = errors = 0
    calls = [0.0] * tiers
    cost = 0.0
    cost_known = True
    for index, gold in enumerate(data.gold):
        for k in range(tiers):
            verdict = data.tiers[k].verdicts[index]
            asked[k] += 1
            if verdict is None:
                continue
            calls[k] += verdict.judge_calls or len(verdict.legs())
            if verdict.usage.cost_usd is None:
                cost_known = False
            else:
                cost += verdict.usage.cost_usd
            if acceptance.decide(verdict, k).accepted:
                decided[k] += 1
                accepted += 1
                errors += frozenset(verdict.correct) != gold
                break
    return Outcome(
        n=data.n,
        accepted=accepted,
        errors=errors,
        decided_by=tuple(decided),
        asked=tuple(asked),
        calls=sum(calls),
        calls_by_tier=tuple(calls),
        cost_usd=cost if cost_known else None,
    )


def holdout_split(
    data: CalibrationData, share: float, seed: int
) -> tuple[CalibrationData, CalibrationData | None]:
    """``(calibration part, held-out part)``: a seeded random ``share`` of the items
    held out (None when ``share`` is 0)."""
    if share == 0:
        return data, None
    if not 0 < share < 1:
        raise UsageError(f"holdout: must be between 0 and 1, got {share!r}")
    np = numpy()
    order = np.random.default_rng([seed, 1]).permutation(data.n)
    cut = data.n - round(share * data.n)
    return data.subset(sorted(order[:cut])), data.subset(sorted(order[cut:]))
