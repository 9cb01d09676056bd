"""The plots of evaluation reports: matplotlib PNGs, one function per figure.

Each takes the runs of a report (one series or panel per run) and returns the PNG
bytes that ``_report`` puts in its section; matplotlib is imported only when a
report is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

from prin_guard._output._runs import figure_png, pyplot
from prin_guard.eval._summary_models import (
    ConfigSummary,
    CurvePoint,
    EvalSummary,
    MethodScore,
    Run,
)

__all__ = [
    "accuracy_plot",
    "coverage_plot",
    "curve",
    "method_score",
    "options_plot",
    "prin_plot",
    "signal_plot",
]


def method_score(summary: EvalSummary, config: str, method: str) -> MethodScore | None:
    block: ConfigSummary | None = summary.configs.get(config)
    return block.methods.get(method) if block else None


def curve(summary: EvalSummary) -> Sequence[CurvePoint]:
    return summary.flag_quality.coverage_curve if summary.flag_quality else ()


def prin_plot(runs: Sequence[Run], configs: Sequence[str]) -> bytes:
    plt = pyplot()
    width = 0.8 / max(len(runs), 1)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for i, run in enumerate(runs):
        blocks = [run.summary.configs.get(c) for c in configs]
        values = [100 * ((b.prin if b else None) or 0) for b in blocks]
        xs = [x + (i - (len(runs) - 1) / 2) * width for x in range(len(configs))]
        bars = ax.bar(xs, values, width, label=run.name)
        ax.bar_label(bars, fmt="%.1f", fontsize=8)
    ax.set_xticks(range(len(configs)), configs)
    ax.set_ylabel("PRIN (%)  (lower is better)")
    ax.set_ylim(0, 105)
    ax.set_title("PRIN by mitigation")
    if len(runs) > 1:
        ax.legend(fontsize=8)
    return figure_png(fig)


def accuracy_plot(runs: Sequence[Run], configs: Sequence[str]) -> bytes:
    # One panel per run: mitigations along x, a bar per method, self-consistency
    # (asked without mitigations) as a dashed line across the panel.
    plt = pyplot()
    methods = ("direct", "reverse", "synergy")
    fig, axes = plt.subplots(
        len(runs), 1, figsize=(7.0, 3.2 * len(runs)), squeeze=False, sharex=True
    )
    bar = 0.8 / len(methods)
    for panel, run in zip(axes[:, 0], runs, strict=True):
        for j, method in enumerate(methods):
            scores = [method_score(run.summary, c, method) for c in configs]
            values = [100 * ((s.accuracy if s else None) or 0) for s in scores]
            xs = [x + (j - 1) * bar for x in range(len(configs))]
            bars = panel.bar(xs, values, bar, label=method)
            panel.bar_label(bars, fmt="%.0f", fontsize=7)
        sc = run.summary.self_consistency
        if sc is not None and sc.accuracy is not None:
            panel.axhline(
                100 * sc.accuracy,
                linestyle="--",
                color="black",
                linewidth=1,
                label="self-consistency",
            )
        panel.set_xticks(range(len(configs)), configs)
        panel.set_ylabel("accuracy (%)")
        panel.set_ylim(0, 105)
        panel.set_title(
            run.name if len(runs) > 1 else "Accuracy by method and mitigation", fontsize=10
        )
        panel.legend(fontsize=7, ncols=4, loc="upper right")
    return figure_png(fig)


def options_plot(runs: Sequence[Run]) -> bytes:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.2, 3.4))
    for run in runs:
        block = run.summary.prin_by_option_count
        ns = sorted(block, key=int)
        ax.plot(
            [int(n) for n in ns],
            [100 * (block[n].prin or 0) for n in ns],
            marker="o",
            label=run.name,
        )
    ax.set_xlabel("number of options")
    ax.set_ylabel("PRIN (%)")
    ax.set_ylim(0, 105)
    ax.set_title("PRIN against the number of options")
    ax.legend(fontsize=8)
    return figure_png(fig)


def coverage_plot(runs: Sequence[Run]) -> bytes | None:
    if not any(curve(r.summary) for r in runs):
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.2, 3.4))
    for run in runs:
        points = [
            (100 * p.coverage, 100 * p.accuracy, p.threshold)
            for p in curve(run.summary)
            if p.accuracy is not None
        ]
        ax.plot([x for x, _, _ in points], [y for _, y, _ in points], marker="o", label=run.name)
        for x, y, threshold in points:
            ax.annotate(
                f"≤{threshold:.2f}",
                (x, y),
                fontsize=7,
                textcoords="offset points",
                xytext=(3, 3),
            )
    ax.set_xlabel("coverage: items accepted (%)")
    ax.set_ylabel("accuracy of accepted verdicts (%)")
    ax.set_xlim(0, 105)
    ax.set_ylim(0, 105)
    ax.set_title("Coverage and accuracy by PRIN threshold")
    ax.legend(fontsize=8)
    return figure_png(fig)


def signal_plot(runs: Sequence[Run]) -> bytes | None:
    """Coverage against accuracy when accepting verdicts in order of each check's score."""
    series = [
        (f"{name} ({run.name})" if len(runs) > 1 else name, quality.coverage_curve)
        for run in runs
        if run.summary.checks is not None
        for name, quality in run.summary.checks.score_quality.items()
        if any(p.accuracy is not None for p in quality.coverage_curve)
    ]
    if not series:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.2, 3.4))
    for label, points in series:
        kept = [(100 * p.coverage, 100 * p.accuracy) for p in points if p.accuracy is not None]
        ax.plot([x for x, _ in kept], [y for _, y in kept], marker="o", markersize=3, label=label)
    ax.set_xlabel("coverage: verdicts accepted (%)")
    ax.set_ylabel("accuracy of accepted verdicts (%)")
    ax.set_xlim(0, 105)
    ax.set_ylim(0, 105)
    ax.set_title("Coverage and accuracy by signal")
    ax.legend(fontsize=7)
    return figure_png(fig)
