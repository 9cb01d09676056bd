"""``prin-guard probe``: the Ask Again experiment on a dataset, and its report.

For each item the judge is asked the direct question ("which are correct?", the
paper's output-format control prompt already ends it), then followed up: in the
Direct Form once per chosen follow-up type (each a separate conversation), in
the Progressive Form closed, open and leading in one conversation. Every answer
is compared with the gold set; the records feed the metrics of the paper's
appendix A.1 (Modification, Modification Rate, E→R rate).

An answer that cannot be read counts as wrong: a right first answer followed by
an unreadable one counts as modified.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from prin_guard._exceptions import JudgeError
from prin_guard._guard import Guard
from prin_guard._models import ParseStatus, Polarity
from prin_guard._parsing import parse_reply
from prin_guard._prompts import build_messages, get_template
from prin_guard.cache._base import Cache
from prin_guard.eval._datasets import LabeledItem
from prin_guard.eval._render import Section, figure_png, pct, pyplot, write_files
from prin_guard.judges._base import Judge
from prin_guard.probe._engine import Probe, run_rounds
from prin_guard.probe._metrics import ProbeRecord, consistency_metrics
from prin_guard.probe._prompts import FollowUpForm, FollowUpType

__all__ = ["probe_summary", "run_probe", "write_probe_report"]


def _correct(status: str, labels: Sequence[str], gold: Sequence[str]) -> bool | None:
    if status == ParseStatus.FAILED.value:
        return None
    return set(labels) == set(gold)


async def _probe_item(
    guard: Guard, record: LabeledItem, probe: Probe, types: Sequence[FollowUpType]
) -> dict[str, Any]:
    item = record.item
    out: dict[str, Any] = {"id": item.key, "line": record.line, "gold": list(record.gold)}
    try:
        asked = build_messages(item, Polarity.DIRECT, get_template("v0"), ())
        first_messages = probe.initial_conversation(asked)
        response, cached, latency = await guard.converse(item, Polarity.DIRECT, first_messages)
        texts = [c.text for c in item.candidates]
        parsed = parse_reply(response.text, item.labels, texts)
        out["first"] = {
            "raw_text": response.text,
            "labels": list(parsed.labels),
            "parse_status": parsed.status.value,
            "cached": cached,
            "latency_ms": latency,
        }
        runs: dict[str, list[dict[str, Any]]] = {}
        if probe.form is FollowUpForm.PROGRESSIVE:
            plans = [("progressive", probe)]
        else:
            plans = [(kind.value, replace(probe, followup_type=kind)) for kind in types]
        results = await asyncio.gather(
            *(
                run_rounds(
                    guard, item, Polarity.DIRECT, asked, response.text or "", parsed.labels, plan
                )
                for _, plan in plans
            )
        )
        for (name, _), rounds in zip(plans, results, strict=True):
            runs[name] = [r.model_dump(mode="json") for r in rounds]
        out["runs"] = runs
    except JudgeError as exc:
        out["error"] = str(exc)
    return out


async def run_probe(
    judge: Judge,
    records: Iterable[LabeledItem],
    probe: Probe,
    *,
    types: Sequence[FollowUpType] = tuple(FollowUpType),
    items_path: Path,
    cache: Cache | None,
    concurrency: int = 4,
    progress: Any = None,
) -> None:
    """Probe every record; append one JSON record per item to ``items_path``."""
    guard = Guard(judge, cache=cache, concurrency=concurrency)
    slots = asyncio.Semaphore(concurrency)
    items_path.parent.mkdir(parents=True, exist_ok=True)
    with items_path.open("w", encoding="utf-8") as handle:

        async def one(record: LabeledItem) -> None:
            async with slots:
                result = await _probe_item(guard, record, probe, types)
            handle.write(json.dumps(result, ensure_ascii=False) + "\n")
            handle.flush()
            if progress is not None:
                progress.update(None)

        tasks = [asyncio.create_task(one(record)) for record in records]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()


def probe_summary(records: Iterable[dict[str, Any]], *, run: dict[str, Any]) -> dict[str, Any]:
    """Table 8's numbers (and the per-round ones of the Progressive Form)."""
    all_records = list(records)
    ok = [r for r in all_records if "error" not in r and "runs" in r]
    summary: dict[str, Any] = {
        "items": len(all_records),
        "items_judged": len(ok),
        "items_failed": len(all_records) - len(ok),
        "failures": [{"id": r["id"], "error": r["error"]} for r in all_records if "error" in r][
            :20
        ],
        "run": run,
        "unreadable_first_answers": sum(
            r["first"]["parse_status"] == ParseStatus.FAILED.value for r in ok
        ),
        "by_type": {},
        "by_round": {},
    }
    prompt_set = str(run.get("prompt_set", "A"))
    names = sorted({name for r in ok for name in r["runs"]})
    for name in names:
        probe_records: list[ProbeRecord] = []
        for r in ok:
            rounds = r["runs"].get(name)
            if rounds is None:
                continue
            before = _correct(r["first"]["parse_status"], r["first"]["labels"], r["gold"])
            after = [_correct(x["parse_status"], x["labels"], r["gold"]) for x in rounds]
            if name == "progressive":
                # a leading round not asked (the judge named every candidate) keeps its
                # previous answer: nothing was suggested, nothing could change
                while len(after) < 3:
                    after.append(after[-1] if after else before)
                probe_records.append(
                    ProbeRecord.progressive(before, after, prompt_set=prompt_set, item_id=r["id"])
                )
            elif rounds:
                probe_records.append(
                    ProbeRecord.direct(
                        name, before, after[0], prompt_set=prompt_set, item_id=r["id"]
                    )
                )
        if not probe_records:
            continue
        rounds_n = 3 if name == "progressive" else 1
        blocks = []
        for number in range(1, rounds_n + 1):
            m = consistency_metrics(probe_records, number)
            blocks.append(
                {
                    "round": number,
                    "items": len(probe_records),
                    "accuracy_before": m.accuracy_before,
                    "accuracy_after": m.accuracy_after,
                    "modification": m.modification,
                    "modification_rate": m.modification_rate,
                    "e_to_r_rate": m.e_to_r_rate,
                }
            )
        if name == "progressive":
            summary["by_round"] = {
                kind.value: block for kind, block in zip(FollowUpType, blocks, strict=True)
            }
        else:
            summary["by_type"][name] = blocks[0]
    return summary


def write_probe_report(summary: dict[str, Any], out_dir: Path, *, title: str) -> Path:
    """report.md and a self-contained report.html with Table 8 and the accuracy plot."""

    sections: list[Section] = []
    run = summary.get("run", {})
    overview = Section(
        "Run",
        "The judge is asked which candidates are correct, then questioned again. An "
        "unreadable answer counts as wrong, so a right answer that turns unreadable counts "
        "as modified.",
        ["", "value"],
    )
    for label, value in (
        ("dataset", run.get("dataset")),
        ("judge", run.get("judge_name")),
        ("form", run.get("form")),
        ("prompt set", run.get("prompt_set")),
        ("mitigations", ", ".join(run.get("mitigations", [])) or "none"),
        ("position", run.get("position")),
        ("items judged", f"{summary['items_judged']} of {summary['items']}"),
        ("unreadable first answers", summary.get("unreadable_first_answers")),
    ):
        overview.rows.append([label, str(value)])
    sections.append(overview)
    rows = summary["by_type"] or summary["by_round"]
    table = Section(
        "Judgement consistency" + (" by follow-up type" if summary["by_type"] else " by round"),
        "Before: accuracy (%) of the first answer. M.: Modification, accuracy before minus "
        "accuracy after. M. Rate: Modification divided by accuracy before. E→R: share of "
        "first answers that were wrong and became right (the paper's Table 8 and appendix "
        "A.1)."
        + (
            " Progressive rounds are compared with the first answer." if summary["by_round"] else ""
        ),
        ["follow-up", "items", "Before", "After", "M.", "M. Rate", "E→R"],
        figure="probe_accuracy.png",
    )
    for name, block in rows.items():
        table.rows.append(
            [
                name,
                str(block["items"]),
                pct(block["accuracy_before"]),
                pct(block["accuracy_after"]),
                pct(block["modification"]),
                pct(block["modification_rate"]),
                pct(block["e_to_r_rate"]),
            ]
        )
    sections.append(table)
    figures = {"probe_accuracy.png": _probe_plot(rows, bool(summary["by_round"]))}
    return write_files(out_dir, title, sections, figures)


def _probe_plot(rows: dict[str, dict[str, Any]], progressive: bool) -> bytes:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    if progressive:
        before = next(iter(rows.values()))["accuracy_before"] if rows else 0
        xs = ["before", *[f"round {b['round']}\n{name}" for name, b in rows.items()]]
        ys = [100 * before, *[100 * b["accuracy_after"] for b in rows.values()]]
        ax.plot(xs, ys, marker="o")
    else:
        names = list(rows)
        width = 0.38
        ax.bar(
            [i - width / 2 for i in range(len(names))],
            [100 * rows[n]["accuracy_before"] for n in names],
            width,
            label="before",
        )
        ax.bar(
            [i + width / 2 for i in range(len(names))],
            [100 * rows[n]["accuracy_after"] for n in names],
            width,
            label="after follow-up",
        )
        ax.set_xticks(range(len(names)), names)
        ax.legend(fontsize=8)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Accuracy before and after follow-up questions")
    return figure_png(fig)
