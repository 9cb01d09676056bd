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

from prin_guard._calls import JudgeCaller
from prin_guard._exceptions import JudgeError
from prin_guard._models import Polarity
from prin_guard._parsing import parse_reply
from prin_guard._prompts import build_messages, get_template
from prin_guard.cache import Cache
from prin_guard.eval._datasets import LabeledItem
from prin_guard.followup import Probe, run_rounds
from prin_guard.followup._prompts import FollowUpForm, FollowUpType
from prin_guard.judges import Judge
from prin_guard.probe._report import write_probe_report
from prin_guard.probe._summary import probe_summary

__all__ = ["probe_summary", "run_probe", "write_probe_report"]


async def _probe_item(
    caller: JudgeCaller, record: LabeledItem, probe: Probe, types: Sequence[FollowUpType]
) -> dict[str, Any]:
    item = record.item
    out: dict[str, Any] = {"id": item.key, "line": record.line, "gold": list(record.gold)}
    try:
        asked = build_messages(item, Polarity.DIRECT, get_template("v0"), ())
        first_messages = probe.initial_conversation(asked)
        first = await caller.converse(
            first_messages, labels=item.labels, item_id=item.key, purpose="direct"
        )
        response, cached, latency = first.response, first.cached, first.latency_ms
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
                    caller, item, Polarity.DIRECT, asked, response.text or "", parsed.labels, plan
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
    caller = JudgeCaller(judge, cache=cache, concurrency=concurrency)
    slots = asyncio.Semaphore(concurrency)
    items_path.parent.mkdir(parents=True, exist_ok=True)
    with items_path.open("w", encoding="utf-8") as handle:

        async def one(record: LabeledItem) -> None:
            async with slots:
                result = await _probe_item(caller, record, probe, types)
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
