"""The report of a ``prin-guard probe`` run: ``report.md`` and ``report.html``.

Two sections, each one function of the typed summary: what was run, and the
paper's Table 8 (by follow-up type, or by round in the Progressive Form) with a
plot of the accuracy before and after the follow-ups.
"""

from __future__ import annotations

from pathlib import Path

from prin_guard._output._runs import Section, figure_png, pct, pyplot, write_files
from prin_guard.probe._summary import FollowUpMetrics, ProbeSummary

__all__ = ["consistency_section", "run_section", "write_probe_report"]


def run_section(summary: ProbeSummary) -> Section:
    """What was probed, with which judge and prompts."""
    run = summary.run
    section = Section(
        "Run",
        "The judge is asked which candidates are correct, then questioned again. An "
        "unreadable answer counts as wrong, so a right answer that turns unreadable counts "
        "as modified.",
        ["", "value"],
    )
    for label, value in (
        ("dataset", run.dataset),
        ("judge", run.judge_name),
        ("form", run.form),
        ("prompt set", run.prompt_set),
        ("mitigations", ", ".join(run.mitigations or ()) or "none"),
        ("position", run.position),
        ("items judged", f"{summary.items_judged} of {summary.items}"),
        ("unreadable first answers", summary.unreadable_first_answers),
    ):
        # str(): a value the run did not record shows as "None"
        section.rows.append([label, str(value)])
    return section


def consistency_section(summary: ProbeSummary) -> Section:
    """Table 8: accuracy before and after, Modification, its rate and E→R."""
    progressive = bool(summary.by_round)
    rows = summary.by_type or summary.by_round
    section = Section(
        "Judgement consistency" + (" by follow-up type" if summary.by_type else " by round"),
        "Before: accuracy (%) of the first answer. M.: Modification, accuracy before minus "
        "accuracy after. M. Rate: Modification divided by accuracy before. E→R: share of "
        "first answers that were wrong and became right (the paper's Table 8 and appendix "
        "A.1)."
        + (" Progressive rounds are compared with the first answer." if progressive else ""),
        ["follow-up", "items", "Before", "After", "M.", "M. Rate", "E→R"],
        figure="probe_accuracy.png",
        png=_probe_plot(rows, progressive),
    )
    for name, block in rows.items():
        section.rows.append(
            [
                name,
                str(block.items),
                pct(block.accuracy_before),
                pct(block.accuracy_after),
                pct(block.modification),
                pct(block.modification_rate),
                pct(block.e_to_r_rate),
            ]
        )
    return section


def write_probe_report(summary: ProbeSummary, out_dir: Path, *, title: str) -> Path:
    """report.md and a self-contained report.html with Table 8 and the accuracy plot."""
    sections = [run_section(summary), consistency_section(summary)]
    return write_files(Path(out_dir), title, sections)


def _probe_plot(rows: dict[str, FollowUpMetrics], progressive: bool) -> bytes:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    if progressive:
        before = next(iter(rows.values())).accuracy_before if rows else 0
        xs = ["before", *[f"round {b.round}\n{name}" for name, b in rows.items()]]
        ys = [100 * before, *[100 * b.accuracy_after for b in rows.values()]]
        ax.plot(xs, ys, marker="o")
    else:
        names = list(rows)
        width = 0.38
        ax.bar(
            [i - width / 2 for i in range(len(names))],
            [100 * rows[n].accuracy_before for n in names],
            width,
            label="before",
        )
        ax.bar(
            [i + width / 2 for i in range(len(names))],
            [100 * rows[n].accuracy_after for n in names],
            width,
            label="after follow-up",
        )
        ax.set_xticks(range(len(names)), names)
        ax.legend(fontsize=8)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Accuracy before and after follow-up questions")
    return figure_png(fig)
