"""Reports of evaluation runs: ``report.md`` and a self-contained ``report.html``.

A report is built from one or more run summaries as a list of sections (a
title, a sentence saying how to read it, a table, maybe a plot); the Markdown
and HTML renderers only lay those sections out. Each section is one function of
the runs below, returning None when no run measured what it shows;
:func:`write_report` lists them in report order. The sections on a verdict's
checks return None when no run has a ``checks`` summary (runs made before verdicts
recorded their checks), so those runs' reports are unchanged. Two or more runs give
one report with a column (and a plot series) per run: two judges side by side, or
one judge before and after a prompt change.

Plots are matplotlib PNGs embedded in the HTML as data URIs (and written next to
the Markdown, which links them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from prin_guard._output._runs import ITEMS, SUMMARY, Section, num, pct, read_records, write_files
from prin_guard._route._usage import UsageSummary
from prin_guard.errors import UsageError
from prin_guard.eval._plots import (
    accuracy_plot,
    coverage_plot,
    curve,
    method_score,
    options_plot,
    prin_plot,
    signal_plot,
)
from prin_guard.eval._summary import summarize
from prin_guard.eval._summary_models import (
    ChecklistSummary,
    ChecksSummary,
    ConfidenceSummary,
    CostSummary,
    CurvePoint,
    EvalRunConfig,
    EvalRunInfo,
    EvalSummary,
    FlagQualitySummary,
    FlagSignalSummary,
    MethodScore,
    OptionCountPrin,
    OrderSummary,
    PairwiseSummary,
    PanelSummary,
    RepeatsSummary,
    ReverseLegsSummary,
    Run,
    ScoreSignalSummary,
    SelfConsistencySummary,
)

__all__ = ["Run", "load_run", "write_report"]


def load_run(path: str | Path) -> Run:
    """A run directory's summary, recomputed from items.jsonl.

    The metrics are recomputed so that a report shows what this version measures;
    the run information (name, config, wall time) comes from summary.json, which
    must validate as an :class:`EvalSummary` (earlier versions' files do).
    """
    folder = Path(path)
    items = folder / ITEMS
    summary_file = folder / SUMMARY
    if not items.is_file():
        raise UsageError(f"run: {str(folder)!r} is not a run directory (no items.jsonl)")
    run_info = EvalRunInfo()
    if summary_file.is_file():
        run_info = _read_summary(summary_file).run
    summary = summarize(read_records(items), run=run_info)
    return Run(name=run_info.name or folder.name, path=folder, summary=summary)


def _read_summary(path: Path) -> EvalSummary:
    try:
        return EvalSummary.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise UsageError(
            f"run: {str(path)!r} is not an evaluation summary: {where}: {first['msg']}"
        ) from exc


# -- sections ---------------------------------------------------------------------

# Stands in for a run that judged no item: no calls, no tokens, nothing measured.
_NO_COST = CostSummary(
    legs=0,
    judge_calls=0,
    cached_legs=0,
    judge_calls_per_item=None,
    prompt_tokens=0,
    completion_tokens=0,
    cost_usd=None,
    cost_usd_per_item=None,
    mean_judge_latency_ms=None,
    wall_seconds=None,
    items_per_second=None,
)


def _usage(cost: CostSummary) -> UsageSummary:
    return cost.usage or UsageSummary()


def _n(value: int | None) -> str:
    return "unknown" if value is None else str(value)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def run_section(runs: Sequence[Run]) -> Section:
    """What was evaluated, by which judge, and what it cost."""
    section = Section(
        "Run",
        "What was evaluated and what it cost. Judge calls count only calls not served "
        "from the cache.",
        ["", *[run.name for run in runs]],
    )
    configs = [r.summary.run.config or EvalRunConfig() for r in runs]
    section.rows.append(["dataset", *[config.dataset or "–" for config in configs]])
    if any(r.summary.task != "choice" for r in runs):
        section.rows.append(["task", *[r.summary.task for r in runs]])
    section.rows += [
        ["judge", *[_judge_name(config.judge) for config in configs]],
        ["items judged", *[f"{r.summary.items_judged} of {r.summary.items}" for r in runs]],
        ["items failed (judge error)", *[str(r.summary.items_failed) for r in runs]],
    ]
    cost_rows: list[tuple[str, Callable[[CostSummary], str]]] = [
        ("judge calls", lambda c: str(c.judge_calls)),
        ("judge calls per item", lambda c: num(c.judge_calls_per_item, 1)),
        (
            "tokens (prompt / completion)",
            lambda c: f"{_n(c.prompt_tokens)} / {_n(c.completion_tokens)}",
        ),
        ("cost (USD)", lambda c: num(c.cost_usd, 4)),
    ]
    if any(r.summary.cost is not None and r.summary.cost.usage is not None for r in runs):
        # runs summarised under the one rule of a verdict's cost (older ones have no usage)
        cost_rows += [
            ("prompt tokens from a provider's prompt cache", lambda c: _pct(_usage(c).cache_share)),
            (
                "answers from prin-guard's cache (first asked for, USD)",
                lambda c: f"{_usage(c).answers_from_cache} ({num(_usage(c).saved_cost_usd, 4)})",
            ),
            (
                "guard premium (every answer's cost / the direct legs')",
                lambda c: "–" if _usage(c).premium is None else f"{_usage(c).premium:.2f}×",
            ),
        ]
    cost_rows += [
        (
            "mean time in a judge call (ms, with queueing)",
            lambda c: num(c.mean_judge_latency_ms, 0),
        ),
        ("wall time (s)", lambda c: num(c.wall_seconds, 1)),
        ("items per second", lambda c: num(c.items_per_second, 3)),
    ]
    costs = [r.summary.cost or _NO_COST for r in runs]
    for label, cell in cost_rows:
        section.rows.append([label, *[cell(cost) for cost in costs]])
    selective = [r.summary.reverse_legs for r in runs]
    if any(block is not None for block in selective):
        # reverse_legs='uncertain': what skipping the reverse legs saved and missed
        rows: list[tuple[str, Callable[[ReverseLegsSummary], str]]] = [
            (
                "verdicts of a confident direct leg alone",
                lambda b: f"{b.confident} of {b.verdicts}",
            ),
            (
                "judge calls saved (about USD)",
                lambda b: f"{b.judge_calls_saved} ({num(b.cost_saved_usd, 4)})",
            ),
            (
                "error rate: confident / uncertain",
                lambda b: f"{pct(b.confident_error_rate)} / {pct(b.uncertain_error_rate)}",
            ),
            (
                "monitored: flagged (of them wrong)",
                lambda b: (
                    f"{b.monitored_flagged} of {b.monitored} ({num(b.monitored_flagged_wrong, 0)})"
                ),
            ),
        ]
        for label, show in rows:
            section.rows.append([label, *["–" if b is None else show(b) for b in selective]])
    return section


def prin_section(runs: Sequence[Run]) -> Section | None:
    """Mean PRIN and the share of consistent verdicts, by mitigation."""
    configs = _configs(runs)
    if not configs:
        return None
    many = len(runs) > 1
    names = [run.name for run in runs]
    section = Section(
        "PRIN by mitigation",
        "Mean PRIN = 1 − F1(direct, all − reverse) over items, in percent; lower is "
        "better (the paper's Figure 2). 'consistent' is the share of items with PRIN 0.",
        [
            "mitigation",
            *[f"PRIN {n}" if many else "PRIN (%)" for n in names],
            *[f"consistent {n}" if many else "consistent (%)" for n in names],
        ],
        figure="prin_by_mitigation.png",
        png=prin_plot(runs, configs),
    )
    for key in configs:
        blocks = [r.summary.configs.get(key) for r in runs]
        section.rows.append(
            [
                key,
                *[pct(b.prin if b else None) for b in blocks],
                *[pct(b.consistent_rate if b else None) for b in blocks],
            ]
        )
    return section


def accuracy_section(runs: Sequence[Run]) -> Section | None:
    """Accuracy of direct, reverse and synergy by mitigation, and of self-consistency."""
    configs = _configs(runs)
    if not configs:
        return None
    set_valued = any(r.summary.set_valued_gold for r in runs)
    tasks = {r.summary.task for r in runs}
    per_task = ""
    if "pairwise" in tasks:
        per_task += (
            " Pairwise items: the right winner (a tie is right only where the gold is one; "
            "a verdict naming no winner is wrong)."
        )
    if "checklist" in tasks:
        per_task += (
            " Checklist items: the exact met set; in brackets the share of candidates on "
            "the gold's side."
        )
    section = Section(
        "Accuracy by method",
        "Exact match of the chosen set with the gold set, in percent (the paper's "
        "Table 7). Direct: the direct answer. Reverse: all − the reverse answer. "
        "Synergy: what both agree on (prin-guard's verdict). Self-consistency: a "
        "strict majority of sampled direct answers"
        + ("; F1 is the mean per-item F1 against the gold set." if set_valued else ".")
        + per_task,
        ["method", "mitigation", *[run.name for run in runs]],
        figure="accuracy_by_method.png",
        png=accuracy_plot(runs, configs),
    )
    for key in configs:
        for method in ("direct", "reverse", "synergy"):
            cells = [_acc_cell(method_score(r.summary, key, method), set_valued) for r in runs]
            section.rows.append([method, key, *cells])
    if any(r.summary.self_consistency for r in runs):
        cells = [_acc_cell(r.summary.self_consistency, set_valued) for r in runs]
        section.rows.append(["self-consistency", "none", *cells])
    return section


def paraphrase_section(runs: Sequence[Run]) -> Section | None:
    """Mean PRIN with the paper's wording and two paraphrases of it."""
    if not any(r.summary.prin_by_template for r in runs):
        return None
    section = Section(
        "PRIN by prompt paraphrase",
        "Mean PRIN (%) with the paper's wording v0 (correct/incorrect) and its "
        "paraphrases v1 (right/wrong) and v2 (appropriate/inappropriate); Table 5.",
        ["template", *[run.name for run in runs]],
    )
    for template in ("v0", "v1", "v2"):
        section.rows.append(
            [template, *[pct(r.summary.prin_by_template.get(template)) for r in runs]]
        )
    return section


def inconsistency_section(runs: Sequence[Run]) -> Section | None:
    """Randomness and paraphrase inconsistency (distinct answers, k/5)."""
    if not any(
        r.summary.randomness_inconsistency is not None
        or r.summary.paraphrase_inconsistency is not None
        for r in runs
    ):
        return None
    section = Section(
        "Other inconsistencies",
        "Randomness: distinct direct answers over five sampled runs, k/5. Paraphrase: "
        "distinct direct answers over five paraphrases, k/5 (section 4.4). 0.2 means "
        "always the same answer; 1.0 a different answer every time.",
        ["measure", *[run.name for run in runs]],
    )
    section.rows.append(
        ["randomness inconsistency", *[num(r.summary.randomness_inconsistency) for r in runs]]
    )
    section.rows.append(
        ["paraphrase inconsistency", *[num(r.summary.paraphrase_inconsistency) for r in runs]]
    )
    return section


def repeats_section(runs: Sequence[Run]) -> Section | None:
    """Mean ± standard deviation of the run-level PRIN over repeated runs."""
    if not any(r.summary.prin_repeats for r in runs):
        return None
    section = Section(
        "PRIN over repeated runs",
        "Mean ± standard deviation of the run-level PRIN (%) over repeated sampled runs (Table 6).",
        ["", *[run.name for run in runs]],
    )
    section.rows.append(["PRIN", *[_mean_std(r.summary.prin_repeats) for r in runs]])
    return section


def options_section(runs: Sequence[Run]) -> Section | None:
    """Mean PRIN against the number of options shown."""
    counts = _ordered_union(sorted(r.summary.prin_by_option_count, key=int) for r in runs)
    if not counts:
        return None
    section = Section(
        "PRIN against the number of options",
        "Mean PRIN (%) on subsamples of the options that keep every gold option "
        "(Figure 5); items in brackets.",
        ["options", *[run.name for run in runs]],
        figure="prin_by_option_count.png",
        png=options_plot(runs),
    )
    for n in counts:
        section.rows.append(
            [n, *[_count_cell(r.summary.prin_by_option_count.get(n)) for r in runs]]
        )
    return section


def flag_quality_section(runs: Sequence[Run]) -> Section | None:
    """Error rates of flagged and unflagged verdicts, lift, and the AUROC of PRIN."""
    if not any(r.summary.flag_quality for r in runs):
        return None
    section = Section(
        "Flag quality",
        "Does a flag mean the verdict is likelier wrong? Error rate (%) of synergy "
        "verdicts flagged 'inconsistent' against those not flagged, the lift (how many "
        "times likelier a flagged verdict is wrong), and the AUROC of the PRIN score "
        "as a predictor of a wrong verdict (0.5 = no better than chance).",
        ["", *[run.name for run in runs]],
        figure="coverage_accuracy.png",
        png=coverage_plot(runs),
    )
    rows: list[tuple[str, Callable[[FlagQualitySummary], Any], Callable[[Any], str]]] = [
        ("flagged inconsistent", lambda q: q.inconsistent_flag.flagged, str),
        ("error rate when flagged", lambda q: q.inconsistent_flag.error_rate_flagged, pct),
        ("not flagged", lambda q: q.inconsistent_flag.unflagged, str),
        ("error rate when not flagged", lambda q: q.inconsistent_flag.error_rate_unflagged, pct),
        ("lift", lambda q: q.inconsistent_flag.lift, num),
        ("error rate with any flag", lambda q: q.any_flag.error_rate_flagged, pct),
        ("error rate with no flag", lambda q: q.any_flag.error_rate_unflagged, pct),
        ("AUROC of PRIN", lambda q: q.auroc_prin_predicts_wrong, num),
    ]
    qualities = [r.summary.flag_quality for r in runs]
    for label, value, fmt in rows:
        # A run that judged no item has no flag quality: fmt(None), "None" for the counts.
        section.rows.append([label, *[fmt(value(q) if q else None) for q in qualities]])
    return section


def coverage_section(runs: Sequence[Run]) -> Section | None:
    """The coverage–accuracy curve of every run, as a table."""
    if not any(r.summary.flag_quality for r in runs):
        return None
    section = Section(
        "Coverage and accuracy",
        "Accept only verdicts whose PRIN is at or under a threshold: the share of items "
        "kept (coverage) and the accuracy of the synergy verdict on them. The plot above "
        "shows the same curve.",
        ["run", "PRIN ≤", "coverage (%)", "accuracy (%)", "items kept"],
    )
    for run in runs:
        for point in curve(run.summary):
            section.rows.append(
                [
                    run.name,
                    num(point.threshold, 2),
                    pct(point.coverage),
                    pct(point.accuracy),
                    str(point.kept),
                ]
            )
    return section


# -- the checks' sections ---------------------------------------------------------

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
    for label in _ordered_union(columns):
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
        "first candidate keeps the share it had in the direct leg)."
        + (
            " Pairwise items: only the answers naming one response count (a tie names both), "
            "so a judge blind to position names the first shown half the time."
            if any(r.summary.task == "pairwise" for r in runs)
            else ""
        ),
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
    flags = _ordered_union(checks.flag_quality for _, checks in measured)
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


def _thin(points: Sequence[CurvePoint], most: int) -> list[CurvePoint]:
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


# -- the tasks ----------------------------------------------------------------------


def pairwise_section(runs: Sequence[Run]) -> Section | None:
    """Who wins, how often the judge decides, and how often the first response wins."""
    measured = [(r.name, r.summary.pairwise) for r in runs if r.summary.pairwise is not None]
    if not measured:
        return None
    section = Section(
        "Pairwise verdicts",
        "The base configuration's verdicts on pairs of responses. A verdict names a winner "
        "when both answers agree on it (the better one is not also called the worse), a tie "
        "when both call the responses equal, and neither when they contradict each other "
        "or an answer could not be read: those pairs are the ones the judge could not "
        "decide. First shown wins: of the direct answers naming one response, the share "
        "naming the one shown first; with the order check over both orders, where a judge "
        "blind to position gives 50%.",
        ["", *[name for name, _ in measured]],
    )
    rows: list[tuple[str, Callable[[PairwiseSummary], str]]] = [
        ("verdicts (with gold)", lambda p: f"{p.verdicts} ({p.scored})"),
        ("winner accuracy (%)", lambda p: pct(p.winner_accuracy)),
        ("accuracy when a winner is named (%)", lambda p: pct(p.accuracy_when_decided)),
        ("a winner named (%)", lambda p: pct(p.decided_rate)),
        ("tie (%)", lambda p: pct(p.tie_rate)),
        ("not decided (%)", lambda p: pct(p.undecided_rate)),
        (
            "first shown wins (%) / blind to position (%)",
            lambda p: (
                f"{pct(p.first_shown_wins)} / {pct(p.expected_first_shown)}"
                + (" (both orders)" if p.both_orders else " (item order only)")
            ),
        ),
        ("direct answers naming one response", lambda p: str(p.first_shown_answers)),
        ("gold winner shown first in the item's order (%)", lambda p: pct(p.gold_first_shown)),
    ]
    for label, cell in rows:
        section.rows.append([label, *[cell(block) for _, block in measured]])
    return section


def checklist_section(runs: Sequence[Run]) -> Section | None:
    """Criteria or claims: each candidate, and the met set as a whole."""
    measured = [(r.name, r.summary.checklist) for r in runs if r.summary.checklist is not None]
    if not measured:
        return None
    section = Section(
        "Checklist verdicts",
        "The base configuration's verdicts on checklists (criteria met, claims supported). "
        "Exact set: the met set is the gold set (the error calibration bounds). Per "
        "candidate: the share of criteria or claims on the gold's side. False met: of the "
        "candidates the gold says are not met, the share called met; missed: of those met, "
        "the share not called met (a contradicted candidate is not called met). Score: the "
        "weighted share met.",
        ["", *[name for name, _ in measured]],
    )
    rows: list[tuple[str, Callable[[ChecklistSummary], str]]] = [
        ("items (with gold)", lambda c: f"{c.verdicts} ({c.scored})"),
        ("candidates", lambda c: str(c.candidates)),
        ("exact set accuracy (%)", lambda c: pct(c.exact_accuracy)),
        ("per-candidate accuracy (%)", lambda c: pct(c.per_candidate_accuracy)),
        ("false met (%)", lambda c: pct(c.false_met)),
        ("missed (%)", lambda c: pct(c.missed)),
        ("contradicted candidates (%)", lambda c: pct(c.contradicted_rate)),
        ("mean score / gold score", lambda c: f"{num(c.mean_score)} / {num(c.mean_gold_score)}"),
        ("mean score error", lambda c: num(c.score_error)),
    ]
    for label, cell in rows:
        section.rows.append([label, *[cell(block) for _, block in measured]])
    return section


def not_measured_section(runs: Sequence[Run]) -> Section | None:
    """Methods and analyses asked for that the run's task does not have."""
    notes = [
        (r.name, name, why)
        for r in runs
        for name, why in (r.summary.run.not_measured or {}).items()
    ]
    if not notes:
        return None
    section = Section(
        "Not measured",
        "Asked for, but not part of this task's evaluation (they are the PRIN paper's "
        "analyses of multiple-choice answers).",
        ["run", "method or analysis", "why"],
    )
    for run, name, why in notes:
        section.rows.append([run, name, why])
    return section


def uninformative_section(runs: Sequence[Run]) -> Section | None:
    """Runs whose judge's answers carry no information, with the share and threshold."""
    found = [(r.name, f) for r in runs for f in r.summary.uninformative]
    if not found:
        return None
    section = Section(
        "Warning: answers that carry no information",
        "A judge that gives one answer to most items, prefers one position whatever the "
        "order, or writes mostly unreadable replies can pass every verdict's check (a tie "
        "in both orders is consistent); the run as a whole shows it. Read its other "
        "numbers with this in mind.",
        ["run", "what", "share (%)", "warned from (%)", "finding"],
    )
    for name, finding in found:
        section.rows.append(
            [
                name,
                finding.kind,
                pct(finding.share),
                pct(finding.threshold),
                finding.message,
            ]
        )
    return section


# -- failures ---------------------------------------------------------------------


def failures_section(runs: Sequence[Run]) -> Section | None:
    """Items whose judge failed, left out of every metric."""
    failures = [(r.name, f) for r in runs for f in r.summary.failures]
    if not failures:
        return None
    section = Section(
        "Failed items",
        "Items whose judge failed after retries; they are left out of every metric.",
        ["run", "item", "error"],
    )
    for name, failure in failures:
        section.rows.append([name, failure.id, failure.error])
    return section


_SECTIONS: tuple[Callable[[Sequence[Run]], Section | None], ...] = (
    run_section,
    uninformative_section,
    prin_section,
    accuracy_section,
    pairwise_section,
    checklist_section,
    paraphrase_section,
    inconsistency_section,
    repeats_section,
    options_section,
    flag_quality_section,
    coverage_section,
    checks_section,
    position_section,
    signal_section,
    signal_coverage_section,
    not_measured_section,
    failures_section,
)


def write_report(runs: Sequence[Run], out_dir: str | Path, *, title: str | None = None) -> Path:
    """Write report.md, report.html and the plots into ``out_dir``; return the HTML path."""
    if not runs:
        raise UsageError("runs: need at least one run")
    if title is None:
        title = "prin-guard evaluation: " + " vs ".join(r.name for r in runs)
    sections = [section for build in _SECTIONS if (section := build(runs)) is not None]
    return write_files(Path(out_dir), title, sections)


# -- cells ------------------------------------------------------------------------


def _judge_name(identity: dict[str, Any] | None) -> str:
    if not isinstance(identity, dict):
        return "–"
    model = identity.get("model") or identity.get("name") or "?"
    return f"{identity.get('kind', '?')}: {model}"


def _acc_cell(block: MethodScore | SelfConsistencySummary | None, set_valued: bool) -> str:
    if block is None:
        return "–"
    cell = pct(block.accuracy)
    if set_valued and block.f1 is not None:
        cell += f" (F1 {pct(block.f1)})"
    per_candidate = getattr(block, "per_candidate", None)
    if per_candidate is not None:
        cell += f" [per candidate {pct(per_candidate)}]"
    return cell


def _mean_std(block: RepeatsSummary | None) -> str:
    if block is None or block.mean is None:
        return "–"
    return f"{100 * block.mean:.2f} ± {100 * (block.std or 0):.2f} ({block.runs} runs)"


def _count_cell(block: OptionCountPrin | None) -> str:
    if block is None:
        return "–"
    return f"{pct(block.prin)} ({block.items})"


def _configs(runs: Sequence[Run]) -> list[str]:
    return _ordered_union(list(r.summary.configs) for r in runs)


def _ordered_union(groups: Iterable[Iterable[str]]) -> list[str]:
    out: list[str] = []
    for group in groups:
        for key in group:
            if key not in out:
                out.append(key)
    return out
