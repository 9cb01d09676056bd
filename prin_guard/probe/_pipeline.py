"""``prin_guard.probe.run``: the Ask Again experiment, from dataset to report.

Loads the dataset, asks every item's first question and its follow-ups through
:func:`~prin_guard.probe._run.run_probe`, and writes the run directory
(``items.jsonl``, ``summary.json``, ``report.md``, ``report.html``) on the same
run-directory helper as ``prin_guard.eval.run``. ``prin-guard probe`` is this
function plus argument parsing and printing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard.cache import Cache
from prin_guard.eval._datasets import SkipHandler, load_dataset
from prin_guard.eval._rundir import (
    ITEMS,
    SUMMARY,
    drive,
    new_run_dir,
    open_cache,
    progress_meter,
    read_records,
    say,
    skip_reporter,
)
from prin_guard.followup import FollowUpType, Probe, get_prompt_set
from prin_guard.judges import Judge
from prin_guard.probe._report import write_probe_report
from prin_guard.probe._run import run_probe
from prin_guard.probe._summary import ProbeSummary, probe_summary

__all__ = ["ProbeRun", "run"]


@dataclass(frozen=True)
class ProbeRun:
    """What :func:`run` wrote and measured."""

    path: Path
    """The run directory."""
    summary: ProbeSummary
    report: Path
    """``report.md`` (``report.html`` beside it)."""
    interrupted: bool
    """Stopped by Ctrl-C: the summary covers the items finished before."""


def run(
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
) -> ProbeRun:
    """Ask ``judge`` the first question and the follow-ups of ``probe`` on ``dataset``.

    ``probe`` is a :class:`Probe` or ``closed``, ``open``, ``leading``,
    ``progressive``; in the Direct Form each of ``types`` is asked in a separate
    conversation. ``cache`` as for ``prin_guard.eval.run``. Ctrl-C stops the run;
    what was finished is summarised and reported, and the result says
    ``interrupted``.
    """
    spec = Probe.of(probe)
    kinds = [FollowUpType(t) for t in types]

    records = list(load_dataset(dataset, path=path, limit=limit, on_skip=skip_reporter(on_skip)))
    store = open_cache(cache)
    where = new_run_dir(out, "probe", dataset)
    say(
        f"prin-guard probe: {len(records)} items of {dataset}, {spec.form.value} form, "
        f"writing {where}"
    )
    started = time.monotonic()
    with progress_meter(len(records), enabled=progress, show_prin=False) as meter:
        _, interrupted = drive(
            run_probe(
                judge,
                records,
                spec,
                types=kinds,
                items_path=where / ITEMS,
                cache=store,
                concurrency=concurrency,
                progress=meter,
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
        "partial": interrupted,
        "wall_seconds": round(time.monotonic() - started, 2),
    }
    summary = probe_summary(read_records(where / ITEMS), run=run_info)
    (where / SUMMARY).write_text(summary.to_json(), encoding="utf-8")
    report = write_probe_report(summary, where, title=f"prin-guard probe: {dataset}")
    return ProbeRun(path=where, summary=summary, report=report, interrupted=interrupted)
