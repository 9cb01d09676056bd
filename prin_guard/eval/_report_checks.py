"""The report's sections on a verdict's checks: one function of the runs per section.

Each returns None when no run of the report has a ``checks`` summary (runs made
before verdicts recorded their checks), so those runs' reports are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from prin_guard.eval._checks_models import (
    ChecksSummary,
    ConfidenceSummary,
    FlagSignalSummary,
    OrderSummary,
    PanelSummary,
    ScoreSignalSummary,
    SignalPoint,
)
from prin_guard.eval._plots import signal_plot
from prin_guard.eval._render import Section, num, pct

if TYPE_CHECKING:
    from prin_guard.eval._report import Run

__all__ = ["checks_section", "position_section", "signal_coverage_section", "signal_section"]

_LEGS = {
    "direct": "direct",
    "reverse": "reverse",
    "direct_permuted": "direct, second order",
    "reverse_permuted": "reverse, second order",
}
_SCORES = {
    "prin": "PRIN",
    "order_inconsistency": "order inconsistency",
    "panel_agreement": "panel agreement",
    "confidence": "confidence",
}
# most points of one curve in the coverage table (the plot shows them all)
_CURVE_ROWS = 10


def _checks(runs: Sequence[Run]) -> list[tuple[str, ChecksSummary]]:
    return [(run.name, run.summary.checks) for run in runs if run.summary.checks is not None]


def _both(a: float | None, b: float | None) -> str:
    return f"{pct(a)} / {pct(b)}"


def _order_cells(order: OrderSummary) -> dict[str, str]:
    return {
        "order inconsistency (%)": pct(order.inconsistency),
        "order inconsistency, direct / reverse leg (%)": _both(order.direct, order.reverse),
        "answer changed in the second order (%)": pct(order.changed_rate),
        "flagged order_sensitive (%)": pct(order.flag_rate),
    }


def _panel_cells(panel: PanelSummary) -> dict[str, str]:
    return {
        "panel members": ", ".join(panel.members),
        "Fleiss' kappa": num(panel.kappa),
        "observed / chance agreement (%)": _both(
            panel.observed_agreement, panel.expected_agreement
        ),
        "members' answers abstaining (%)": pct(panel.abstention_rate),
        "flagged panel_split (%)": pct(panel.split_rate),
        "accuracy of each member (%)": ", ".join(
            f"{name} {pct(accuracy)}" for name, accuracy in panel.member_accuracy.items()
        ),
    }


def _confidence_cells(confidence: ConfidenceSummary) -> dict[str, str]:
    return {
        "verdicts with a confidence": str(confidence.verdicts),
        "mean confidence": num(confidence.mean),
        "confidence min / 25% / median / 75% / max": " / ".join(
            num(q, 2) for q in confidence.quartiles
        ),
        "flagged low_confidence (%)": pct(confidence.low_rate),
    }


def checks_section(runs: Sequence[Run]) -> Section | None:
    """What the order check, a panel and the judge's confidence say about the verdicts."""
    measured = _checks(runs)
    if not measured:
        return None
    parts = ["Measured on the base verdicts (no mitigation)."]
    if any(c.order for _, c in measured):
        parts.append(
            "Order inconsistency: 1 − F1 of the answer and the answer with the candidates "
            "shown in a second order (a verdict's is the larger of its two legs'); 0 means "
            "the order never mattered."
        )
    if any(c.panel for _, c in measured):
        parts.append(
            "Fleiss' kappa: the panel members' agreement on each candidate beyond chance "
            "(1 perfect, 0 chance); a member that abstained rates none of that item's "
            "candidates."
        )
    if any(c.confidence for _, c in measured):
        parts.append(
            "Confidence: the judge's own probability of the answer it wrote (the lowest "
            "over a verdict's legs), not a calibrated probability of being right."
        )
    section = Section("Checks", " ".join(parts), ["", *[name for name, _ in measured]])
    columns: list[dict[str, str]] = [{"checks run": ", ".join(c.checks)} for _, c in measured]
    for cells, (_, checks) in zip(columns, measured, strict=True):
        if checks.order is not None:
            cells.update(_order_cells(checks.order))
        if checks.panel is not None:
            cells.update(_panel_cells(checks.panel))
        if checks.confidence is not None:
            cells.update(_confidence_cells(checks.confidence))
    labels: list[str] = []
    for cells in columns:
        labels += [label for label in cells if label not in labels]
    for label in labels:
        section.rows.append([label, *[cells.get(label, "–") for cells in columns]])
    return section


def position_section(runs: Sequence[Run]) -> Section | None:
    """How often each leg names the candidate shown first."""
    measured = _checks(runs)
    if not any(c.position_bias for _, c in measured):
        return None
    section = Section(
        "Position bias",
        "Share of each leg's answers naming the candidate shown first, against the share "
        "a judge blind to position would reach with answers of the same sizes (expected). "
        "A first-shown share well above expected in the direct and reverse legs is a "
        "preference for the first position or for that candidate; the second-order legs "
        "tell them apart. There the candidates are shown in another order: a judge with "
        "a position bias still names whatever is shown first (first-shown share stays "
        "high, the item's first candidate falls to about its expected share); a judge "
        "preferring that candidate's content follows it to its new place (the item's "
        "first candidate keeps the share it had in the direct leg).",
        [
            "leg",
            "run",
            "answers",
            "names the first shown (%)",
            "expected (%)",
            "names the item's first candidate (%)",
        ],
    )
    for key, label in _LEGS.items():
        for name, checks in measured:
            share = checks.position_bias.get(key)
            if share is None:
                continue
            section.rows.append(
                [
                    label,
                    name,
                    str(share.answers),
                    pct(share.first_shown),
                    pct(share.expected),
                    pct(share.first_shown if share.item_first is None else share.item_first),
                ]
            )
    return section


def _flag_row(label: str, name: str, q: FlagSignalSummary) -> list[str]:
    return [
        label,
        name,
        str(q.flagged + q.unflagged),
        pct(q.share_flagged),
        pct(q.error_rate_flagged),
        pct(q.error_rate_unflagged),
        num(q.lift, 2),
        num(q.auroc),
    ]


def _score_row(label: str, name: str, q: ScoreSignalSummary) -> list[str]:
    return [label, name, str(q.verdicts), "–", "–", "–", "–", num(q.auroc)]


def signal_section(runs: Sequence[Run]) -> Section | None:
    """Error rates of flagged and unflagged verdicts per flag, and every signal's AUROC."""
    measured = _checks(runs)
    if not measured:
        return None
    section = Section(
        "Flag quality by signal",
        "Does a signal mean the verdict is likelier wrong (its set is not the gold set)? "
        "For each flag, and for any flag: the share of verdicts flagged, the error rate "
        "(%) of flagged and unflagged verdicts, the lift (how many times likelier a "
        "flagged verdict is wrong) and the AUROC of the flag. For each score, the AUROC "
        "as a predictor of a wrong verdict, higher PRIN and order inconsistency and lower "
        "agreement and confidence counting as riskier (1 perfect, 0.5 chance). Items with "
        "unknown gold are left out.",
        [
            "signal",
            "run",
            "verdicts",
            "flagged (%)",
            "error when flagged (%)",
            "error when not flagged (%)",
            "lift",
            "AUROC",
        ],
        figure="coverage_by_signal.png",
        png=signal_plot(runs),
    )
    flags: list[str] = []
    for _, checks in measured:
        flags += [flag for flag in checks.flag_quality if flag not in flags]
    flags.sort(key=lambda flag: flag == "any")
    for flag in flags:
        for name, checks in measured:
            if flag in checks.flag_quality:
                label = "any flag" if flag == "any" else flag
                section.rows.append(_flag_row(label, name, checks.flag_quality[flag]))
    for score, label in _SCORES.items():
        for name, checks in measured:
            if score in checks.score_quality:
                section.rows.append(_score_row(label, name, checks.score_quality[score]))
    return section


def _thin(points: Sequence[SignalPoint], most: int) -> list[SignalPoint]:
    """At most ``most`` points, evenly spread, the first and last kept."""
    if len(points) <= most:
        return list(points)
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def signal_coverage_section(runs: Sequence[Run]) -> Section | None:
    """Coverage and accuracy when accepting verdicts in order of each score."""
    measured = _checks(runs)
    if not any(q.coverage_curve for _, c in measured for q in c.score_quality.values()):
        return None
    section = Section(
        "Coverage by signal",
        "Accept verdicts in order of a score, safest first: the share of all verdicts "
        "accepted (coverage) and the accuracy of those accepted. A verdict without the "
        f"score is never accepted. At most {_CURVE_ROWS} points per curve, evenly spread; "
        "the plot above shows them all.",
        ["signal", "run", "accept when", "coverage (%)", "accuracy (%)", "kept"],
    )
    for score, label in _SCORES.items():
        for name, checks in measured:
            quality = checks.score_quality.get(score)
            if quality is None:
                continue
            sign = "≤" if quality.riskier == "higher" else "≥"
            for point in _thin(quality.coverage_curve, _CURVE_ROWS):
                section.rows.append(
                    [
                        label,
                        name,
                        f"{sign} {num(point.threshold, 2)}",
                        pct(point.coverage),
                        pct(point.accuracy),
                        str(point.kept),
                    ]
                )
    return section
