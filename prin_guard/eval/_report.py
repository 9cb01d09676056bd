"""Reports of evaluation runs: ``report.md`` and a self-contained ``report.html``.

A report is built from one or more run summaries as a list of sections (a
title, a sentence saying how to read it, a table, maybe a plot); the Markdown
and HTML renderers only lay those sections out. Two or more runs give one
report with a column (and a plot series) per run: two judges side by side, or
one judge before and after a prompt change.

Plots are matplotlib PNGs embedded in the HTML as data URIs (and written next to
the Markdown, which links them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard._exceptions import UsageError
from prin_guard.eval._render import Section, figure_png, num, pct, pyplot, write_files

__all__ = ["Run", "load_run", "write_report"]


@dataclass(frozen=True)
class Run:
    name: str
    path: Path
    summary: dict[str, Any]


def load_run(path: str | Path) -> Run:
    """A run directory's summary (recomputed from items.jsonl when the summary is stale)."""
    from prin_guard.eval._summary import summarize

    folder = Path(path)
    items = folder / "items.jsonl"
    summary_file = folder / "summary.json"
    if not items.is_file():
        raise UsageError(f"run: {str(folder)!r} is not a run directory (no items.jsonl)")
    run_info: dict[str, Any] = {}
    if summary_file.is_file():
        run_info = json.loads(summary_file.read_text(encoding="utf-8")).get("run", {})
    records = [json.loads(line) for line in items.read_text(encoding="utf-8").splitlines() if line]
    summary = summarize(records, run=run_info)
    name = run_info.get("name") or folder.name
    return Run(name=name, path=folder, summary=summary)


def _get(summary: dict[str, Any], *path: str) -> Any:
    node: Any = summary
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _sections(runs: Sequence[Run]) -> list[Section]:
    names = [run.name for run in runs]
    many = len(runs) > 1
    sections: list[Section] = []

    overview = Section(
        "Run",
        "What was evaluated and what it cost. Judge calls count only calls not served "
        "from the cache.",
        ["", *names],
    )
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("dataset", lambda s: str(_get(s, "run", "config", "dataset") or "–")),
        ("judge", lambda s: _judge_name(_get(s, "run", "config", "judge"))),
        ("items judged", lambda s: f"{s.get('items_judged', 0)} of {s.get('items', 0)}"),
        ("items failed (judge error)", lambda s: str(s.get("items_failed", 0))),
        ("judge calls", lambda s: str(_get(s, "cost", "judge_calls") or 0)),
        ("judge calls per item", lambda s: num(_get(s, "cost", "judge_calls_per_item"), 1)),
        (
            "tokens (prompt / completion)",
            lambda s: (
                f"{_get(s, 'cost', 'prompt_tokens') or 0} / "
                f"{_get(s, 'cost', 'completion_tokens') or 0}"
            ),
        ),
        ("cost (USD)", lambda s: num(_get(s, "cost", "cost_usd"), 4)),
        (
            "mean time in a judge call (ms, with queueing)",
            lambda s: num(_get(s, "cost", "mean_judge_latency_ms"), 0),
        ),
        ("wall time (s)", lambda s: num(_get(s, "cost", "wall_seconds"), 1)),
        ("items per second", lambda s: num(_get(s, "cost", "items_per_second"), 3)),
    ]
    for label, fn in rows:
        overview.rows.append([label, *[fn(run.summary) for run in runs]])
    sections.append(overview)

    configs = _ordered_union(list(_get(r.summary, "configs") or {}) for r in runs)
    if configs:
        prin = Section(
            "PRIN by mitigation",
            "Mean PRIN = 1 − F1(direct, all − reverse) over items, in percent; lower is "
            "better (the paper's Figure 2). 'consistent' is the share of items with PRIN 0.",
            [
                "mitigation",
                *[f"PRIN {n}" if many else "PRIN (%)" for n in names],
                *[f"consistent {n}" if many else "consistent (%)" for n in names],
            ],
            figure="prin_by_mitigation.png",
        )
        for key in configs:
            prin.rows.append(
                [
                    key,
                    *[pct(_get(r.summary, "configs", key, "prin")) for r in runs],
                    *[pct(_get(r.summary, "configs", key, "consistent_rate")) for r in runs],
                ]
            )
        sections.append(prin)

        set_valued = any(r.summary.get("set_valued_gold") for r in runs)
        acc = Section(
            "Accuracy by method",
            "Exact match of the chosen set with the gold set, in percent (the paper's "
            "Table 7). Direct: the direct answer. Reverse: all − the reverse answer. "
            "Synergy: what both agree on (prin-guard's verdict). Self-consistency: a "
            "strict majority of sampled direct answers"
            + ("; F1 is the mean per-item F1 against the gold set." if set_valued else "."),
            ["method", "mitigation", *names],
            figure="accuracy_by_method.png",
        )
        for key in configs:
            for method in ("direct", "reverse", "synergy"):
                acc.rows.append(
                    [
                        method,
                        key,
                        *[
                            _acc_cell(
                                _get(r.summary, "configs", key, "methods", method), set_valued
                            )
                            for r in runs
                        ],
                    ]
                )
        if any(r.summary.get("self_consistency") for r in runs):
            acc.rows.append(
                [
                    "self-consistency",
                    "none",
                    *[_acc_cell(r.summary.get("self_consistency"), set_valued) for r in runs],
                ]
            )
        sections.append(acc)

    if any(r.summary.get("prin_by_template") for r in runs):
        para = Section(
            "PRIN by prompt paraphrase",
            "Mean PRIN (%) with the paper's wording v0 (correct/incorrect) and its "
            "paraphrases v1 (right/wrong) and v2 (appropriate/inappropriate); Table 5.",
            ["template", *names],
        )
        for template in ("v0", "v1", "v2"):
            para.rows.append(
                [template, *[pct(_get(r.summary, "prin_by_template", template)) for r in runs]]
            )
        sections.append(para)

    if any(
        "randomness_inconsistency" in r.summary or "paraphrase_inconsistency" in r.summary
        for r in runs
    ):
        inc = Section(
            "Other inconsistencies",
            "Randomness: distinct direct answers over five sampled runs, k/5. Paraphrase: "
            "distinct direct answers over five paraphrases, k/5 (section 4.4). 0.2 means "
            "always the same answer; 1.0 a different answer every time.",
            ["measure", *names],
        )
        inc.rows.append(
            [
                "randomness inconsistency",
                *[num(r.summary.get("randomness_inconsistency")) for r in runs],
            ]
        )
        inc.rows.append(
            [
                "paraphrase inconsistency",
                *[num(r.summary.get("paraphrase_inconsistency")) for r in runs],
            ]
        )
        sections.append(inc)

    if any(r.summary.get("prin_repeats") for r in runs):
        rep = Section(
            "PRIN over repeated runs",
            "Mean ± standard deviation of the run-level PRIN (%) over repeated sampled runs "
            "(Table 6).",
            ["", *names],
        )
        rep.rows.append(["PRIN", *[_mean_std(r.summary.get("prin_repeats")) for r in runs]])
        sections.append(rep)

    counts = _ordered_union(
        sorted(_get(r.summary, "prin_by_option_count") or {}, key=int) for r in runs
    )
    if counts:
        opt = Section(
            "PRIN against the number of options",
            "Mean PRIN (%) on subsamples of the options that keep every gold option "
            "(Figure 5); items in brackets.",
            ["options", *names],
            figure="prin_by_option_count.png",
        )
        for n in counts:
            opt.rows.append(
                [n, *[_count_cell(_get(r.summary, "prin_by_option_count", n)) for r in runs]]
            )
        sections.append(opt)

    if any(r.summary.get("flag_quality") for r in runs):
        fq = Section(
            "Flag quality",
            "Does a flag mean the verdict is likelier wrong? Error rate (%) of synergy "
            "verdicts flagged 'inconsistent' against those not flagged, the lift (how many "
            "times likelier a flagged verdict is wrong), and the AUROC of the PRIN score "
            "as a predictor of a wrong verdict (0.5 = no better than chance).",
            ["", *names],
            figure="coverage_accuracy.png",
        )
        for label, path, fmt in (
            ("flagged inconsistent", ("inconsistent_flag", "flagged"), str),
            ("error rate when flagged", ("inconsistent_flag", "error_rate_flagged"), pct),
            ("not flagged", ("inconsistent_flag", "unflagged"), str),
            ("error rate when not flagged", ("inconsistent_flag", "error_rate_unflagged"), pct),
            ("lift", ("inconsistent_flag", "lift"), num),
            ("error rate with any flag", ("any_flag", "error_rate_flagged"), pct),
            ("error rate with no flag", ("any_flag", "error_rate_unflagged"), pct),
            ("AUROC of PRIN", ("auroc_prin_predicts_wrong",), num),
        ):
            fq.rows.append([label, *[fmt(_get(r.summary, "flag_quality", *path)) for r in runs]])
        sections.append(fq)

        cov = Section(
            "Coverage and accuracy",
            "Accept only verdicts whose PRIN is at or under a threshold: the share of items "
            "kept (coverage) and the accuracy of the synergy verdict on them. The plot above "
            "shows the same curve.",
            ["run", "PRIN ≤", "coverage (%)", "accuracy (%)", "items kept"],
        )
        for run in runs:
            for point in _get(run.summary, "flag_quality", "coverage_curve") or []:
                cov.rows.append(
                    [
                        run.name,
                        num(point["threshold"], 2),
                        pct(point["coverage"]),
                        pct(point["accuracy"]),
                        str(point["kept"]),
                    ]
                )
        sections.append(cov)

    failures = [(r.name, f) for r in runs for f in r.summary.get("failures", [])]
    if failures:
        fail = Section(
            "Failed items",
            "Items whose judge failed after retries; they are left out of every metric.",
            ["run", "item", "error"],
        )
        for name, failure in failures:
            fail.rows.append([name, failure["id"], failure["error"]])
        sections.append(fail)
    return sections


def _judge_name(identity: Any) -> str:
    if not isinstance(identity, dict):
        return "–"
    model = identity.get("model") or identity.get("name") or "?"
    return f"{identity.get('kind', '?')}: {model}"


def _acc_cell(block: Any, set_valued: bool) -> str:
    if not isinstance(block, dict):
        return "–"
    cell = pct(block.get("accuracy"))
    if set_valued and block.get("f1") is not None:
        cell += f" (F1 {pct(block['f1'])})"
    return cell


def _mean_std(block: Any) -> str:
    if not isinstance(block, dict) or block.get("mean") is None:
        return "–"
    return f"{100 * block['mean']:.2f} ± {100 * (block.get('std') or 0):.2f} ({block['runs']} runs)"


def _count_cell(block: Any) -> str:
    if not isinstance(block, dict):
        return "–"
    return f"{pct(block.get('prin'))} ({block.get('items')})"


def _ordered_union(groups: Sequence[Sequence[str]] | Any) -> list[str]:
    out: list[str] = []
    for group in groups:
        for key in group:
            if key not in out:
                out.append(key)
    return out


# -- plots ------------------------------------------------------------------------


def _plots(runs: Sequence[Run]) -> dict[str, bytes]:
    plt = pyplot()
    out: dict[str, bytes] = {}

    def save(fig: Any, name: str) -> None:
        out[name] = figure_png(fig)

    width = 0.8 / max(len(runs), 1)
    configs = _ordered_union(list(_get(r.summary, "configs") or {}) for r in runs)
    if configs:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        for i, run in enumerate(runs):
            values = [100 * (_get(run.summary, "configs", c, "prin") or 0) for c in configs]
            xs = [x + (i - (len(runs) - 1) / 2) * width for x in range(len(configs))]
            bars = ax.bar(xs, values, width, label=run.name)
            ax.bar_label(bars, fmt="%.1f", fontsize=8)
        ax.set_xticks(range(len(configs)), configs)
        ax.set_ylabel("PRIN (%)  (lower is better)")
        ax.set_ylim(0, 105)
        ax.set_title("PRIN by mitigation")
        if len(runs) > 1:
            ax.legend(fontsize=8)
        save(fig, "prin_by_mitigation.png")

        # One panel per run: mitigations along x, a bar per method, self-consistency
        # (asked without mitigations) as a dashed line across the panel.
        methods = ("direct", "reverse", "synergy")
        fig, axes = plt.subplots(
            len(runs), 1, figsize=(7.0, 3.2 * len(runs)), squeeze=False, sharex=True
        )
        bar = 0.8 / len(methods)
        for panel, run in zip(axes[:, 0], runs, strict=True):
            for j, method in enumerate(methods):
                values = [
                    100 * (_get(run.summary, "configs", c, "methods", method, "accuracy") or 0)
                    for c in configs
                ]
                xs = [x + (j - 1) * bar for x in range(len(configs))]
                bars = panel.bar(xs, values, bar, label=method)
                panel.bar_label(bars, fmt="%.0f", fontsize=7)
            sc = _get(run.summary, "self_consistency", "accuracy")
            if sc is not None:
                panel.axhline(
                    100 * sc, linestyle="--", color="black", linewidth=1, label="self-consistency"
                )
            panel.set_xticks(range(len(configs)), configs)
            panel.set_ylabel("accuracy (%)")
            panel.set_ylim(0, 105)
            panel.set_title(
                run.name if len(runs) > 1 else "Accuracy by method and mitigation", fontsize=10
            )
            panel.legend(fontsize=7, ncols=4, loc="upper right")
        save(fig, "accuracy_by_method.png")

    if any(_get(r.summary, "prin_by_option_count") for r in runs):
        fig, ax = plt.subplots(figsize=(5.2, 3.4))
        for run in runs:
            block = _get(run.summary, "prin_by_option_count") or {}
            ns = sorted(block, key=int)
            ax.plot(
                [int(n) for n in ns],
                [100 * (block[n]["prin"] or 0) for n in ns],
                marker="o",
                label=run.name,
            )
        ax.set_xlabel("number of options")
        ax.set_ylabel("PRIN (%)")
        ax.set_ylim(0, 105)
        ax.set_title("PRIN against the number of options")
        ax.legend(fontsize=8)
        save(fig, "prin_by_option_count.png")

    if any(_get(r.summary, "flag_quality", "coverage_curve") for r in runs):
        fig, ax = plt.subplots(figsize=(5.2, 3.4))
        for run in runs:
            curve = _get(run.summary, "flag_quality", "coverage_curve") or []
            points = [p for p in curve if p["accuracy"] is not None]
            ax.plot(
                [100 * p["coverage"] for p in points],
                [100 * p["accuracy"] for p in points],
                marker="o",
                label=run.name,
            )
            for p in points:
                ax.annotate(
                    f"≤{p['threshold']:.2f}",
                    (100 * p["coverage"], 100 * p["accuracy"]),
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
        save(fig, "coverage_accuracy.png")
    return out


def write_report(runs: Sequence[Run], out_dir: str | Path, *, title: str | None = None) -> Path:
    """Write report.md, report.html and the plots into ``out_dir``; return the HTML path."""
    if not runs:
        raise UsageError("runs: need at least one run")
    if title is None:
        title = (
            f"prin-guard evaluation: {runs[0].name}"
            if len(runs) == 1
            else "prin-guard evaluation: " + " vs ".join(r.name for r in runs)
        )
    return write_files(Path(out_dir), title, _sections(runs), _plots(runs))
