"""``prin_guard.probe.run_probe``: the Ask Again experiment on a dataset, from items to report.

For each item the judge is asked the direct question ("which are correct?", the
paper's output-format control prompt already ends it), then followed up: in the
Direct Form once per chosen follow-up type (each a separate conversation), in
the Progressive Form closed, open and leading in one conversation. Every answer
is compared with the gold set; the records feed the metrics of the paper's
appendix A.1 (Modification, Modification Rate, E→R rate).

:func:`run_probe` loads the dataset, asks every item through :func:`probe_records` and writes
the run directory (``items.jsonl``, ``summary.json``, ``report.md``,
``report.html``) as ``prin_guard.eval.run`` does. ``prin-guard probe`` is this
function plus argument parsing and printing.

An answer that cannot be read counts as wrong: a right first answer followed by
an unreadable one counts as modified.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from prin_guard._output._runs import (
    ITEMS,
    SUMMARY,
    drive,
    new_run_dir,
    open_run_cache,
    progress_meter,
    read_records,
    say,
    skip_reporter,
    write_records,
)
from prin_guard._prompting._prompts import Template, build_messages, get_template, template_for
from prin_guard._route._reading import read_answer
from prin_guard.cache import Cache
from prin_guard.calls import JudgeCaller
from prin_guard.datasets import LabeledItem, SkipHandler, load_dataset
from prin_guard.errors import JudgeError
from prin_guard.judges import Judge
from prin_guard.models import Polarity
from prin_guard.probe._probe import Probe, run_rounds
from prin_guard.probe._prompts import FollowUpForm, FollowUpType, get_prompt_set
from prin_guard.probe._report import write_probe_report
from prin_guard.probe._summary import ProbeSummary, probe_summary

__all__ = ["ProbeRun", "probe_records", "run_probe"]


async def _probe_item(
    caller: JudgeCaller,
    record: LabeledItem,
    probe: Probe,
    types: Sequence[FollowUpType],
    template: str | Template | None = None,
) -> dict[str, Any]:
    item = record.item
    out: dict[str, Any] = {"id": item.key, "line": record.line, "gold": list(record.gold)}
    try:
        # the item's task and template (the task's bundled one by default: choice v0)
        chosen = template_for(template, item)
        asked = build_messages(item, Polarity.DIRECT, chosen, ())
        first_messages = probe.initial_conversation(asked)
        first = await caller.converse(
            first_messages,
            labels=item.labels if chosen.builtin else (),
            item_id=item.key,
            purpose="direct",
        )
        response, cached, latency = first.response, first.cached, first.latency_ms
        parsed, _ = read_answer(response.text, item, Polarity.DIRECT, chosen, ())
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
                    caller,
                    item,
                    Polarity.DIRECT,
                    asked,
                    response.text or "",
                    parsed.labels,
                    plan,
                    template=chosen,
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


async def probe_records(
    judge: Judge,
    records: Iterable[LabeledItem],
    probe: Probe,
    *,
    types: Sequence[FollowUpType] = tuple(FollowUpType),
    items_path: Path,
    cache: Cache | None,
    concurrency: int = 4,
    progress: Any = None,
    template: str | Template | None = None,
) -> None:
    """Probe every record, asked in ``template`` (default: each item's task's); append
    one JSON record per item to ``items_path``."""
    caller = JudgeCaller(judge, cache=cache, concurrency=concurrency)

    async def one(record: LabeledItem) -> dict[str, Any]:
        return await _probe_item(caller, record, probe, types, template)

    await write_records(
        records,
        one,
        items_path,
        concurrency=concurrency,
        on_record=None if progress is None else lambda _: progress.update(None),
    )


@dataclass(frozen=True)
class ProbeRun:
    """What :func:`run_probe` wrote and measured."""

    path: Path
    """The run directory."""
    summary: ProbeSummary
    report: Path
    """``report.md`` (``report.html`` beside it)."""
    interrupted: bool
    """Stopped by Ctrl-C: the summary covers the items finished before."""


def run_probe(
    judge: Judge,
    dataset: str,
    probe: Probe | str = "progressive",
    *,
    types: Sequence[FollowUpType | str] = tuple(FollowUpType),
    path: str | Path | None = None,
    limit: int | None = None,
    concurrency: int = 4,
    cache: Cache | str | None = "sqlite",
    out: str | Path | None = None,
    progress: bool = True,
    on_skip: SkipHandler | None = None,
    template: str | Template | None = None,
) -> ProbeRun:
    """Ask ``judge`` the first question and the follow-ups of ``probe`` on ``dataset``.

    ``probe`` is a :class:`Probe` or ``closed``, ``open``, ``leading``,
    ``progressive``; in the Direct Form each of ``types`` is asked in a separate
    conversation. The questions are asked, the follow-ups end and the replies are read
    in ``template`` (default: each item's task's bundled template). ``cache`` as for
    ``prin_guard.eval.run``. Ctrl-C stops the run; what was finished is summarised and
    reported, and the result says ``interrupted``.
    """
    spec = Probe.of(probe)
    kinds = [FollowUpType(t) for t in types]

    records = list(load_dataset(dataset, path=path, limit=limit, on_skip=skip_reporter(on_skip)))
    store = open_run_cache(cache)
    where = new_run_dir(out, "probe", dataset)
    say(
        f"prin-guard probe: {len(records)} items of {dataset}, {spec.form.value} form, "
        f"writing {where}"
    )
    started = time.monotonic()
    with progress_meter(len(records), enabled=progress, show_prin=False) as meter:
        _, interrupted = drive(
            probe_records(
                judge,
                records,
                spec,
                types=kinds,
                items_path=where / ITEMS,
                cache=store,
                concurrency=concurrency,
                progress=meter,
                template=template,
            )
        )
    identity = dict(judge.identity())
    run_info: dict[str, Any] = {
        "dataset": dataset,
        "judge": identity,
        "judge_name": f"{identity.get('kind')}: {identity.get('model') or identity.get('name')}",
        "form": spec.form.value,
        "types": [t.value for t in kinds],
        "prompt_set": get_prompt_set(spec.prompt_set).name,
        "mitigations": [m.value for m in spec.mitigations],
        "position": spec.position.value,
        "seed": spec.seed,
        "template": None if template is None else get_template(template).prompt_id,
        "partial": interrupted,
        "wall_seconds": round(time.monotonic() - started, 2),
    }
    summary = probe_summary(read_records(where / ITEMS), run=run_info)
    (where / SUMMARY).write_text(summary.to_json(), encoding="utf-8")
    report = write_probe_report(summary, where, title=f"prin-guard probe: {dataset}")
    return ProbeRun(path=where, summary=summary, report=report, interrupted=interrupted)
