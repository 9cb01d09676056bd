"""Reports of evaluation runs: ``report.md`` and a self-contained ``report.html``.

A report is built from one or more run summaries as a list of sections (a
title, a sentence saying how to read it, a table, maybe a plot); the Markdown
and HTML renderers only lay those sections out. Each section is one function of
the runs below (the checks' sections in ``_report_checks``), returning None
when no run measured what it shows; :func:`write_report` lists them in report
order. Two or more runs give one
report with a column (and a plot series) per run: two judges side by side, or
one judge before and after a prompt change.

Plots are matplotlib PNGs embedded in the HTML as data URIs (and written next to
the Markdown, which links them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from prin_guard._exceptions import UsageError
from prin_guard.eval._plots import (
    accuracy_plot,
    coverage_plot,
    curve,
    method_score,
    options_plot,
    prin_plot,
)
from prin_guard.eval._render import Section, num, pct, write_files
from prin_guard.eval._report_checks import (
    checks_section,
    position_section,
    signal_coverage_section,
    signal_section,
)
from prin_guard.eval._summary import summarize
from prin_guard.eval._summary_models import (
    CostSummary,
    EvalRunConfig,
    EvalRunInfo,
    EvalSummary,
    FlagQualitySummary,
    MethodScore,
    OptionCountPrin,
    RepeatsSummary,
    SelfConsistencySummary,
)

__all__ = ["Run", "load_run", "write_report"]


@dataclass(frozen=True)
class Run:
    """One run in a report: a column of its tables and a series of its plots."""

    name: str
    """What the report calls the run."""
    path: Path
    """The run directory."""
    summary: EvalSummary
    """Its numbers."""


def load_run(path: str | Path) -> Run:
    """A run directory's summary, recomputed from items.jsonl.

    The metrics are recomputed so that a report shows what this version measures;
    the run information (name, config, wall time) comes from summary.json, which
    must validate as an :class:`EvalSummary` (earlier versions' files do).
    """
    folder = Path(path)
    items = folder / "items.jsonl"
    summary_file = folder / "summary.json"
    if not items.is_file():
        raise UsageError(f"run: {str(folder)!r} is not a run directory (no items.jsonl)")
    run_info = EvalRunInfo()
    if summary_file.is_file():
        run_info = _read_summary(summary_file).run
    records = [json.loads(line) for line in items.read_text(encoding="utf-8").splitlines() if line]
    summary = summarize(records, run=run_info)
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


def run_section(runs: Sequence[Run]) -> Section:
    """What was evaluated, by which judge, and what it cost."""
    section = Section(
        "Run",
        "What was evaluated and what it cost. Judge calls count only calls not served "
        "from the cache.",
        ["", *[run.name for run in runs]],
    )
    configs = [r.summary.run.config or EvalRunConfig() for r in runs]
    section.rows += [
        ["dataset", *[config.dataset or "–" for config in configs]],
        ["judge", *[_judge_name(config.judge) for config in configs]],
        ["items judged", *[f"{r.summary.items_judged} of {r.summary.items}" for r in runs]],
        ["items failed (judge error)", *[str(r.summary.items_failed) for r in runs]],
    ]
    cost_rows: list[tuple[str, Callable[[CostSummary], str]]] = [
        ("judge calls", lambda c: str(c.judge_calls)),
        ("judge calls per item", lambda c: num(c.judge_calls_per_item, 1)),
        ("tokens (prompt / completion)", lambda c: f"{c.prompt_tokens} / {c.completion_tokens}"),
        ("cost (USD)", lambda c: num(c.cost_usd, 4)),
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
    section = Section(
        "Accuracy by method",
        "Exact match of the chosen set with the gold set, in percent (the paper's "
        "Table 7). Direct: the direct answer. Reverse: all − the reverse answer. "
        "Synergy: what both agree on (prin-guard's verdict). Self-consistency: a "
        "strict majority of sampled direct answers"
        + ("; F1 is the mean per-item F1 against the gold set." if set_valued else "."),
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
    prin_section,
    accuracy_section,
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


# -- plots ------------------------------------------------------------------------
