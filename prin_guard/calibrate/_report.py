"""What a calibration found, in words and in a picture.

:func:`summary_lines` is what ``prin-guard calibrate`` prints; :func:`write_report`
writes ``calibration.md`` and ``risk-coverage.png`` (matplotlib, from the ``eval``
extra; without it the Markdown is written alone): the error rate among accepted
verdicts against coverage for every threshold tested, the calibrated point marked,
and for a cascade each tier alone beside it (always cheap, always strong).
"""

from __future__ import annotations

from pathlib import Path

from prin_guard._route._acceptance import Rule
from prin_guard.calibrate._fit import Calibration, Outcome
from prin_guard.calibrate._stats import SignalScore, numpy, upper_bounds
from prin_guard.errors import MissingExtraError

__all__ = ["cal_judges", "left_out_lines", "risk_coverage_png", "summary_lines", "write_report"]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _judge(identity: dict[str, object]) -> str:
    name = identity.get("model") or identity.get("name") or identity.get("kind") or "judge"
    return str(name)


def summary_lines(cal: Calibration, holdout: Outcome | None = None) -> list[str]:
    """The calibration in a few lines of plain text."""
    acc = cal.acceptance
    part = "the path" if cal.cascade is not None else "choosing the signal"
    split = f" ({acc.tested} tested, {acc.n - acc.tested} kept apart for {part})"
    lines = [
        f"alpha {acc.alpha}, delta {acc.delta}: {acc.n} calibration items of the "
        f"{acc.task} task" + (split if acc.n != acc.tested else "")
    ]
    if acc.tolerance is not None:
        lines.append(
            f"a rating is wrong when it is none or more than {acc.tolerance:g} points from "
            f"the human score: P(|rating - human| > {acc.tolerance:g} | accepted) <= {acc.alpha}"
        )
    if acc.error == "ranking":
        tau = (
            f" or its Kendall's tau-b with it is under {acc.min_tau:g}"
            if acc.min_tau is not None
            else ""
        )
        lines.append(
            "a ranking is wrong when it is none, its best is not among the human ranking's "
            f"best{tau}"
        )
    names = _tier_names(cal)
    for index, tier in enumerate(acc.tiers):
        lines.append(
            f"tier {index} ({names[index]}): {tier.rule.words}; asked {_pct(tier.asked)}, "
            f"accepted {_pct(tier.accepted)} of the tested items"
        )
    lines += left_out_lines(cal)
    lines += _signal_lines(cal)
    rate = acc.errors / acc.accepted if acc.accepted else None
    lines.append(
        f"accepted {acc.accepted} of {acc.tested} (coverage {_pct(acc.coverage)}), "
        f"{acc.errors} wrong (error among accepted {_pct(rate)}, p = {_num(acc.p_value, 4)})"
    )
    alone = [base for base in cal.baselines if base.fit.accepted]
    if not acc.accepted:
        lines.append(
            "no rule reaches the guarantee on these items: a guard with this file accepts "
            "nothing (every verdict goes to review). More items, a better judge or a looser "
            "alpha can change that."
        )
    elif cal.baselines and not alone:
        lines.append(
            "no judge's rule reaches the guarantee alone on these items, but the cascade "
            f"does: it accepts {_pct(acc.coverage)} of the tested items within alpha"
        )
    if cal.calls_per_item is not None:
        if cal.tested is not None:
            per_tier = " + ".join(
                f"{_num(c / max(cal.tested.n, 1))} (tier {k})"
                for k, c in enumerate(cal.tested.calls_by_tier)
            )
            lines.append(
                f"judge calls per item with this file: {_num(cal.calls_per_item)} on the test "
                f"part = {per_tier}"
            )
        else:
            lines.append(f"judge calls per item with this file: {_num(cal.calls_per_item)}")
    for base in cal.baselines:
        rate = base.fit.errors / base.fit.accepted if base.fit.accepted else None
        rule = Rule(signal=base.signal, threshold=base.fit.threshold)  # type: ignore[arg-type]
        lines.append(
            f"tier {base.tier} alone ({_judge(cal_judges(cal)[base.tier])}), calibrated on all "
            f"items: {rule.words}, coverage "
            f"{_pct(base.fit.accepted / max(base.fit.curve.total, 1))}, error among "
            f"accepted {_pct(rate)}, {_num(base.calls_per_item)} judge calls per item"
        )
    if holdout is not None:
        lines.append(
            f"held out ({holdout.n} items): accepted {holdout.accepted} (coverage "
            f"{_pct(holdout.coverage)}), {holdout.errors} wrong (error among accepted "
            f"{_pct(holdout.error_rate)}), {_num(holdout.calls_per_item)} judge calls per item"
        )
    return lines


def cal_judges(cal: Calibration) -> list[dict[str, object]]:
    """Every tier's judge identity as calibrated, by its place among the runs (the file's
    tiers and the ones left out)."""
    return list(cal.judges) if cal.judges else [tier.judge for tier in cal.acceptance.tiers]


def _tier_names(cal: Calibration) -> list[str]:
    """The file's tiers' judges, by name."""
    return [_judge(tier.judge) for tier in cal.acceptance.tiers]


def left_out_lines(cal: Calibration) -> list[str]:
    """The tiers left out of a cascade's file, and which judges a guard with it asks."""
    if not cal.left_out:
        return []
    judges = cal_judges(cal)
    out = ", ".join(f"tier {k} ({_judge(judges[k])})" for k in cal.left_out)
    kept = [k for k in range(len(judges)) if k not in cal.left_out]
    used = ", then ".join(_judge(judges[k]) for k in kept)
    return [
        f"left out of the file: {out}: its certified rule accepts nothing, so a guard would "
        "ask it about every item and decide nothing with it; a guard with the file asks "
        f"{used} (calibrate --keep-idle-tiers keeps every tier)"
    ]


def _compared(scores: dict[str, SignalScore], chosen: str) -> str:
    return ", ".join(
        f"{name} certifies {_pct(score.certified)} (AUROC {_num(score.auroc)})"
        + (" (chosen)" if name == chosen else "")
        for name, score in scores.items()
    )


def _signal_lines(cal: Calibration) -> list[str]:
    """How the signal was chosen, when there was a choice: one tier, every signal on the
    selection part and the chosen one's test on the rest; a cascade, each tier's choice
    on the path part."""
    lines = []
    if cal.selection:
        items = next(iter(cal.selection.values())).items
        lines.append(
            f"signals compared on {items} items kept apart (seed {cal.acceptance.seed}): "
            + _compared(cal.selection, cal.signal)
        )
        fit = cal.fits[cal.signal]
        if fit.chosen is None:
            lines.append(
                f"tested {cal.signal} on the other {fit.curve.total} items at delta "
                f"{fit.level:.3g}: no rule passes"
            )
        else:
            rule = Rule(signal=cal.signal, threshold=fit.threshold)  # type: ignore[arg-type]
            rate = fit.errors / fit.accepted if fit.accepted else None
            lines.append(
                f"tested {cal.signal} on the other {fit.curve.total} items at delta "
                f"{fit.level:.3g}: {rule.words} accepts {fit.accepted} "
                f"({_pct(fit.coverage)}), {fit.errors} wrong "
                f"({_pct(rate)}), p = {_num(fit.p_value, 4)}"
            )
    for k, scores in enumerate(cal.path_signals):
        if len(scores) > 1:
            chosen = cal.acceptance.tiers[k].rule.signal
            lines.append(
                f"tier {k} signals compared on the path part: " + _compared(scores, chosen)
            )
    return lines


def _curve_rows(cal: Calibration) -> list[str]:
    if cal.cascade is not None:
        rows = [
            "| chain | thresholds | accepted | coverage | error among accepted | p | certified |",
            "|---|---|---|---|---|---|---|",
        ]
        previous: tuple[int, int] | None = None
        for i, point in enumerate(cal.cascade.path):
            # a chain's grid thresholds between two observed values repeat a row
            same = previous == (point.chain, point.accepted)
            previous = (point.chain, point.accepted)
            if not point.tested or (same and i != cal.cascade.chosen):
                continue
            mark = " **(chosen)**" if i == cal.cascade.chosen else ""
            rate = point.errors / point.accepted if point.accepted else None
            cuts = ", ".join("never" if t is None else f"{t:g}" for t in point.thresholds)
            rows.append(
                f"| {point.chain} | {cuts}{mark} | {point.accepted} | {_pct(point.coverage)} | "
                f"{_pct(rate)} | {point.p_value:.3g} | {'yes' if point.rejected else 'no'} |"
            )
        return rows
    rows = []
    for name in cal.fits:
        if len(cal.fits) > 1:
            rows += ["", f"### {name}" + (" (chosen)" if name == cal.signal else ""), ""]
        rows += _signal_rows(cal, name)
    return rows[1:] if rows and not rows[0] else rows


def _signal_rows(cal: Calibration, name: str) -> list[str]:
    """One tier: the fixed-sequence test of one signal's thresholds, as a table."""
    np = numpy()
    acc = cal.acceptance
    fit = cal.fits[name]
    curve = fit.curve
    bounds = upper_bounds(curve.errors, curve.accepted, acc.delta)
    rows = [
        f"| {name} threshold | accepted | coverage | error among accepted | "
        f"upper bound ({1 - acc.delta:.0%}, pointwise) | p | tested at {fit.level:.3g} |",
        "|---|---|---|---|---|---|---|",
    ]
    # the chosen rule is the chosen signal's; another signal shows its last passing one
    word = "chosen" if name == cal.signal else "last passed"
    # grid thresholds between two observed values accept the same items: one row each
    changes = np.flatnonzero(np.diff(np.concatenate([[-1], curve.accepted])) != 0)
    ends = [*(changes[1:] - 1), len(curve.accepted) - 1]
    for i, end in zip(changes, ends, strict=True):
        chosen = fit.chosen is not None and i <= fit.chosen <= end
        span = f"{curve.thresholds[i]:.10g}" + (
            f" to {curve.thresholds[end]:.10g}" if end > i else ""
        )
        mark = f" **({word}: {curve.thresholds[fit.chosen]:.10g})**" if chosen else ""
        rate = curve.errors[i] / curve.accepted[i] if curve.accepted[i] else None
        if fit.chosen is not None and fit.start <= i <= fit.chosen:
            tested = "passed"
        elif i <= (fit.start if fit.chosen is None else fit.chosen + 1) <= end:
            tested = "failed (stop)"
        else:
            tested = ""
        rows.append(
            f"| {span}{mark} | {curve.accepted[i]} | "
            f"{_pct(float(curve.coverage[i]))} | {_pct(rate)} | {_pct(float(bounds[i]))} | "
            f"{fit.p_values[i]:.3g} | {tested} |"
        )
    return rows


def risk_coverage_png(cal: Calibration) -> bytes:
    """The error rate among accepted verdicts against coverage, calibrated point marked."""
    from prin_guard._output._runs import figure_png, pyplot

    np = numpy()
    plt = pyplot()
    acc = cal.acceptance
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    if cal.cascade is not None:
        path = cal.cascade.path
        for chain in sorted({p.chain for p in path}):
            points = [p for p in path if p.chain == chain and p.accepted]
            ax.plot(
                [p.coverage for p in points],
                [p.errors / p.accepted for p in points],
                marker=".",
                label=f"chain {chain}" + (" (last tier only)" if chain == 0 else ""),
            )
        for base in cal.baselines:
            if base.fit.chosen is not None:
                curve = base.fit.curve
                ax.scatter(
                    [curve.coverage[base.fit.chosen]],
                    [curve.risk[base.fit.chosen]],
                    marker="s",
                    label=f"tier {base.tier} alone, calibrated",
                )
        chosen = (acc.coverage, acc.errors / acc.accepted) if acc.accepted else None
    else:
        fit = cal.fits[cal.signal]
        curve = fit.curve
        keep = curve.accepted > 0
        label = f"{cal.signal} thresholds"
        ax.plot(curve.coverage[keep], curve.risk[keep], marker=".", label=label)
        bounds = upper_bounds(curve.errors, curve.accepted, acc.delta)
        ax.plot(
            curve.coverage[keep],
            np.asarray(bounds)[keep],
            linestyle=":",
            label=f"pointwise {1 - acc.delta:.0%} upper bound",
        )
        chosen = (
            (float(curve.coverage[fit.chosen]), float(curve.risk[fit.chosen]))
            if fit.chosen is not None
            else None
        )
    ax.axhline(acc.alpha, color="grey", linestyle="--", label=f"alpha = {acc.alpha}")
    if chosen is not None:
        ax.scatter(
            [chosen[0]],
            [chosen[1]],
            s=120,
            facecolors="none",
            edgecolors="red",
            linewidths=2,
            zorder=5,
            label="calibrated",
        )
    ax.set_xlabel("coverage (share of items accepted)")
    ax.set_ylabel("error among accepted")
    ax.set_xlim(0, 1.02)
    seen = [y for line in ax.get_lines() for y in np.asarray(line.get_ydata(), dtype=float)]
    top = max([3 * acc.alpha, *(y + 0.05 for y in seen if np.isfinite(y))])
    ax.set_ylim(0, min(1.02, top))
    ax.set_title("Risk and coverage of the acceptance rules (calibration items)")
    ax.legend(fontsize=7)
    return figure_png(fig)


def write_report(cal: Calibration, folder: str | Path, *, holdout: Outcome | None = None) -> Path:
    """``calibration.md`` (and ``risk-coverage.png`` when matplotlib is there) in ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    acc = cal.acceptance
    parts = [
        "# Calibration",
        "",
        f"With probability at least {1 - acc.delta:.0%} over the draw of the calibration "
        f"items, at most {acc.alpha:.0%} of the verdicts this acceptance accepts are wrong"
        + (
            f" (a rating none or more than {acc.tolerance:g} points from the human score)"
            if acc.tolerance is not None
            else " (a ranking none, or whose best is not among the human best"
            + (
                f", or with a Kendall's tau-b under {acc.min_tau:g})"
                if acc.min_tau is not None
                else ")"
            )
            if acc.error == "ranking"
            else ""
        )
        + ", "
        "for future items exchangeable with the calibration items (drawn from the same "
        "source, judged the same way). See docs/calibration.md for what this does not cover.",
        "",
        *(f"- {line}" for line in summary_lines(cal, holdout)),
        "",
    ]
    if cal.tested is not None:
        tested = cal.tested
        parts += [
            "## Cascade against each tier alone",
            "",
            "| | coverage | error among accepted | accuracy (all items) | judge calls per item "
            "| cost per item |",
            "|---|---|---|---|---|---|",
            f"| cascade (test part) | {_pct(tested.coverage)} | {_pct(tested.error_rate)} | - | "
            f"{_num(tested.calls_per_item)} | {_num(tested.cost_per_item, 6)} |",
        ]
        for base in cal.baselines:
            rate = base.fit.errors / base.fit.accepted if base.fit.accepted else None
            parts.append(
                f"| tier {base.tier} alone ({base.signal}, calibrated on all items) | "
                f"{_pct(base.fit.accepted / max(base.fit.curve.total, 1))} | {_pct(rate)} | "
                f"{_pct(base.accuracy)} | {_num(base.calls_per_item)} | "
                f"{_num(base.cost_per_item, 6)} |"
            )
        parts.append("")
    try:
        (out / "risk-coverage.png").write_bytes(risk_coverage_png(cal))
        parts += ["![risk and coverage](risk-coverage.png)", ""]
    except MissingExtraError as exc:
        parts += [f"(no plot: {exc})", ""]
    parts += ["## Every rule tested", "", *_curve_rows(cal), ""]
    path = out / "calibration.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
