"""From calibration items to an :class:`~prin_guard._route._acceptance.Acceptance`, and back.

:func:`calibrate` fits one tier with fixed-sequence testing over a signal's thresholds
(``_stats``) and a cascade jointly (``_cascade``); :func:`evaluate` applies an
acceptance file to items exactly as a guard does (through :meth:`Acceptance.decide`),
for held-out figures; :func:`holdout_split` keeps a seeded share of the items out of
calibration for that.

With ``signals="auto"`` and more than one signal on the verdicts, one tier's signal is
chosen on a *selection part*, a seeded share of the items (``selection_fraction``, 30%;
``numpy.random.default_rng([seed, 2])``) kept apart from the items the guarantee is
tested on: each signal is scored there by the coverage it certifies (the same test at
``alpha`` and ``delta``), then by its AUROC; the chosen one alone is tested on the rest
at the whole ``delta``. The choice so follows what predicts errors on these items
without spending the guarantee (choosing on the tested items would: a signal that
looks best there by chance is then favoured). Named signals, and a single signal on
the verdicts, are tested on every item.
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from prin_guard._infra._events import log
from prin_guard._route._acceptance import Acceptance, Rule, Tier, error_of
from prin_guard._route._decide import SIGNALS
from prin_guard.calibrate._cascade import CHAINS, CascadeFit, fit_cascade
from prin_guard.calibrate._data import CalibrationData
from prin_guard.calibrate._stats import (
    SignalScore,
    ThresholdFit,
    choose_signal,
    compare_signals,
    fit_threshold,
    min_items,
    numpy,
)
from prin_guard.errors import UsageError

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
    """One tier: the fixed-sequence test of the signal tested (``signals_tested``), on the
    tested items."""
    cascade: CascadeFit | None = None
    selection: dict[str, SignalScore] | None = None
    """One tier with ``auto``: every signal compared on the selection part."""
    path_signals: tuple[dict[str, SignalScore], ...] = ()
    """A cascade: per tier, every signal compared on the path part."""
    baselines: tuple[Baseline, ...] = ()
    """A cascade: each tier alone, for comparison."""
    tested: Outcome | None = None
    """A cascade: the chosen rules applied to the test part, as a guard applies them."""
    left_out: tuple[int, ...] = ()
    """A cascade: the tiers (their places among the runs given) whose certified rule
    accepts nothing, left out of the file: asking them costs calls and decides nothing."""
    calls_per_item: float | None = None
    """Judge calls per item of a guard with the file (one tier: the tier's; a cascade:
    on the test part, every tier asked)."""
    judges: tuple[dict[str, Any], ...] = ()
    """Every tier's judge identity as calibrated (a cascade: the file's tiers and the ones
    left out, in the runs' order)."""

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
            if data.task == "rating":
                rated = sum(
                    v is not None and v.rating is not None for v in data.tiers[tier].verdicts
                )
                raise UsageError(
                    f"runs: tier {tier} gave a rating on {rated} of {data.n} items (its legs "
                    "disagreed or were unread on the others): no rating to accept"
                )
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


def _about(data: CalibrationData, alpha: float, delta: float, seed: int) -> dict[str, Any]:
    """What every acceptance file says of its calibration, one tier or a cascade: the
    level, the items' task and what makes a verdict wrong on them, how many there were
    and their digest, the seed and the version that wrote it."""
    return {
        "alpha": alpha,
        "delta": delta,
        "task": data.task,
        "error": error_of(data.task),
        "tolerance": data.tolerance,
        "min_tau": data.min_tau,
        "scales": data.scales,
        "forms": data.forms,
        "n": data.n,
        "calibration_sha256": data.digest(),
        "seed": seed,
        "created_with": _version(),
    }


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
    selection_fraction: float = 0.3,
    keep_idle_tiers: bool = False,
) -> Calibration:
    """The most permissive acceptance whose error among accepted verdicts is at most
    ``alpha`` with probability at least ``1 - delta``; UsageError when there are too
    few items to certify any rule.

    A cascade's tier whose certified rule accepts nothing is left out of the file (a
    guard would ask it about every item it reaches and decide nothing with it), with a
    ``calibrate_idle_tiers`` warning; when no tier accepts anything, the first (the
    cheapest) is kept alone. ``keep_idle_tiers`` keeps every tier.

    ``signals``: ``auto`` (every signal the verdicts carry, one chosen on items kept
    apart: one tier's ``selection_fraction`` of them, seeded by ``seed``; a cascade's
    path part), one signal name for every tier, or one per tier. ``start_coverage``:
    the test sequence starts at the strictest threshold accepting this share of the
    items. ``path_fraction``, ``coverage_slack``: a cascade's split and its choice among
    the certified combinations (:mod:`~prin_guard.calibrate._cascade`).
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
        if len(candidates) == 1:
            return _calibrate_one(data, alpha, delta, candidates[0], seed, start_coverage)
        return _calibrate_auto(
            data, alpha, delta, candidates, seed, start_coverage, selection_fraction
        )
    return _calibrate_cascade(
        data,
        alpha,
        delta,
        wanted,
        seed,
        path_fraction,
        coverage_slack,
        start_coverage,
        keep_idle_tiers,
    )


def _calibrate_one(
    data: CalibrationData,
    alpha: float,
    delta: float,
    signal: str,
    seed: int,
    start_coverage: float,
    *,
    tested: Any = None,
    selection: dict[str, SignalScore] | None = None,
) -> Calibration:
    """One signal tested with fixed-sequence testing at ``delta`` on ``tested`` (every
    item when None); the others were the selection part."""
    np = numpy()
    items = np.arange(data.n) if tested is None else np.sort(np.asarray(tested, dtype=int))
    need = min_items(alpha, delta)
    if len(items) < need:
        raise _too_few(data.n, need, alpha, delta, "")
    tier = data.tiers[0]
    fit = fit_threshold(
        tier.signal(signal)[items],
        data.wrong(0)[items],
        alpha,
        delta,
        SIGNALS[signal].higher_is_better,
        start_coverage=start_coverage,
    )
    count = len(items)
    acceptance = Acceptance(
        **_about(data, alpha, delta, seed),
        selection=data.n - count,
        tested=count,
        accepted=fit.accepted,
        errors=fit.errors,
        coverage=fit.coverage,
        p_value=fit.p_value,
        method="fixed_sequence",
        signals_tested=(signal,),  # type: ignore[arg-type]
        signals_compared=tuple(selection or ()),  # type: ignore[arg-type]
        tiers=(
            Tier(
                judge=tier.judge,
                options=tier.options,
                rule=Rule(signal=signal, threshold=fit.threshold),  # type: ignore[arg-type]
                asked=1.0,
                accepted=fit.coverage,
            ),
        ),
        runs=(tier.runs,),
    )
    calls = float(tier.calls().mean()) if data.n else 0.0
    return Calibration(
        acceptance=acceptance, fits={signal: fit}, selection=selection, calls_per_item=calls
    )


def _calibrate_auto(
    data: CalibrationData,
    alpha: float,
    delta: float,
    candidates: list[str],
    seed: int,
    start_coverage: float,
    selection_fraction: float,
) -> Calibration:
    """Choose the signal on a seeded selection part, test it on the rest (module
    docstring)."""
    need = min_items(alpha, delta)
    chosen_part, tested = _split(
        data,
        ("selection_fraction", selection_fraction),
        need,
        alpha,
        delta,
        f" ({need} to test the rule once {selection_fraction:.0%} are kept apart to "
        f"choose among {', '.join(candidates)}; name one with --signal to test on all "
        "of them)",
        [seed, 2],
    )
    wrong = data.wrong(0)
    values = {
        name: (data.tiers[0].signal(name), SIGNALS[name].higher_is_better) for name in candidates
    }
    scores = compare_signals(
        values, wrong, alpha, delta, chosen_part, start_coverage=start_coverage
    )
    best = choose_signal(scores)
    return _calibrate_one(
        data, alpha, delta, best, seed, start_coverage, tested=tested, selection=scores
    )


def _split(
    data: CalibrationData,
    part: tuple[str, float],
    need: int,
    alpha: float,
    delta: float,
    why: str,
    seed: int | list[int],
) -> tuple[Any, Any]:
    """The items in two seeded parts: the share ``part`` (its option's name and value)
    kept apart, and the rest, which must hold ``need`` items to test a rule on."""
    name, fraction = part
    if not 0 < fraction < 1:
        raise UsageError(f"{name}: must be between 0 and 1, got {fraction!r}")
    n_apart = round(fraction * data.n)
    if data.n - n_apart < need:
        raise _too_few(data.n, _with_a_part_apart(need, fraction), alpha, delta, why)
    order = numpy().random.default_rng(seed).permutation(data.n)
    return order[:n_apart], order[n_apart:]


def _with_a_part_apart(need: int, fraction: float) -> int:
    """How many items leave ``need`` to test once ``fraction`` of them are kept apart."""
    total = math.ceil(need / (1 - fraction))
    while total - round(fraction * total) < need:
        total += 1
    return total


def _calibrate_cascade(
    data: CalibrationData,
    alpha: float,
    delta: float,
    wanted: list[str],
    seed: int,
    path_fraction: float,
    coverage_slack: float,
    start_coverage: float,
    keep_idle_tiers: bool = False,
) -> Calibration:
    need = min_items(alpha, delta / CHAINS)
    path, test = _split(
        data,
        ("path_fraction", path_fraction),
        need,
        alpha,
        delta,
        f" ({need} in the test part, delta split between up to {CHAINS} chains, once "
        f"{path_fraction:.0%} go to the path part)",
        seed,
    )
    chosen: list[str] = []
    compared: list[dict[str, SignalScore]] = []
    for k, want in enumerate(wanted):
        names = _signals(data, k, want)
        candidates = {
            name: (data.tiers[k].signal(name), SIGNALS[name].higher_is_better) for name in names
        }
        scores = compare_signals(
            candidates, data.wrong(k), alpha, delta, path, start_coverage=start_coverage
        )
        chosen.append(choose_signal(scores))
        compared.append(scores)
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
    # A tier that accepts nothing is asked about every item it reaches and decides none:
    # out of the file (the others accept exactly what they did, so the figures and the
    # guarantee stand), unless asked to keep it. Accepting nothing anywhere, the first
    # (cheapest) tier alone says so at the least cost.
    kept = [k for k, t in enumerate(fit.thresholds) if t is not None] or [0]
    if keep_idle_tiers:
        kept = list(range(len(tiers)))
    left_out = tuple(k for k in range(len(tiers)) if k not in kept)
    if left_out:
        log().warning(
            "calibrate_idle_tiers",
            tiers=list(left_out),
            judges=[_name(data.tiers[k].judge) for k in left_out],
            reason="their certified rules accept nothing: a guard would ask them and decide "
            "nothing with them",
        )
    acceptance = Acceptance(
        **_about(data, alpha, delta, seed),
        selection=data.n - fit.tested,
        tested=fit.tested,
        accepted=fit.accepted,
        errors=fit.errors,
        coverage=fit.coverage,
        p_value=fit.p_value,
        method="pareto_fixed_sequence",
        signals_tested=tuple(dict.fromkeys(chosen)),  # type: ignore[arg-type]
        signals_compared=_compared(compared),
        tiers=tuple(tiers[k] for k in kept),
        runs=tuple(data.tiers[k].runs for k in kept),
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
    asked = replace(data, tiers=tuple(data.tiers[k] for k in kept))
    tested = evaluate(acceptance, asked.subset(test), check=False)
    return Calibration(
        acceptance=acceptance,
        fits={},
        cascade=fit,
        path_signals=tuple(compared),
        baselines=baselines,
        tested=tested,
        left_out=left_out,
        calls_per_item=tested.calls_per_item,
        judges=tuple(tier.judge for tier in data.tiers),
    )


def _name(identity: dict[str, Any]) -> str:
    return str(identity.get("model") or identity.get("name") or identity.get("kind") or "judge")


def _compared(per_tier: Sequence[dict[str, SignalScore]]) -> tuple[Any, ...]:
    """Every signal the tiers compared on the path part (none when no tier chose)."""
    if not any(len(tier) > 1 for tier in per_tier):
        return ()
    return tuple(dict.fromkeys(name for tier in per_tier for name in tier))


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
    for index in range(data.n):
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
                errors += data.verdict_wrong(index, verdict)
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
