"""``prin_guard.eval.run``: a whole evaluation, from dataset to report.

Loads the dataset (or builds candidate pools for a problem dataset), runs every
method of the PRIN paper through :func:`~prin_guard.eval._runner.run_eval`,
writes the run directory (``items.jsonl``, ``summary.json``, ``report.md``,
``report.html``) and returns the typed summary. ``prin-guard eval`` is this
function plus argument parsing and printing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from prin_guard._exceptions import UsageError
from prin_guard._judging import judges_identity
from prin_guard._options import GuardOptions
from prin_guard._ratelimit import RateLimit
from prin_guard.cache import Cache
from prin_guard.eval._datasets import LabeledItem, SkipHandler, load_dataset
from prin_guard.eval._pool import PROBLEM_DATASETS, build_pool, load_problems
from prin_guard.eval._report import Run, write_report
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
from prin_guard.eval._runner import ANALYSES, METHODS, EvalConfig, run_eval
from prin_guard.eval._summary import summarize
from prin_guard.eval._summary_models import EvalSummary
from prin_guard.judges import Judge

__all__ = ["EvalRun", "run"]


@dataclass(frozen=True)
class EvalRun:
    """What :func:`run` wrote and measured."""

    path: Path
    """The run directory."""
    summary: EvalSummary
    report: Path
    """``report.md`` (``report.html`` beside it)."""
    interrupted: bool
    """Stopped by Ctrl-C: the summary covers the items finished before."""


def run(
    judge: Judge | Sequence[Judge],
    dataset: str,
    *,
    path: str | Path | None = None,
    limit: int | None = None,
    options: GuardOptions | None = None,
    mitigations: Sequence[str] = ("cot", "neg_exp"),
    methods: Sequence[str] = METHODS,
    analyses: Sequence[str] = ANALYSES,
    repeats: int = 1,
    samples: int = 5,
    temperature: float = 0.7,
    seed: int = 0,
    concurrency: int = 4,
    cache: Cache | str | None = "sqlite",
    generate_pool: int | None = None,
    generator: Judge | None = None,
    out: str | Path | None = None,
    name: str | None = None,
    progress: bool = True,
    on_skip: SkipHandler | None = None,
    rate_limit: RateLimit | None = None,
) -> EvalRun:
    """Evaluate ``judge`` on ``dataset`` and write the run directory.

    ``judge`` may be a panel, a list of judges: every verdict is then the panel's
    (methods direct, reverse and synergy and the ``options`` analysis only), and the
    summary reports the members' agreement (Fleiss' kappa).

    ``dataset`` is a registered name (its shipped sample, or ``path`` for the full
    original file), a problem dataset (``gsm8k``, ``math``, ... with ``path``:
    candidates are built the paper's way, ``generate_pool`` samples per problem
    from ``generator``, default the judge) or a generic ``.jsonl`` file.
    ``options`` are the guards' options (template, policy, threshold, max_chars);
    every subset of ``mitigations`` is compared. ``cache`` is a Cache or its
    command-line spelling (``sqlite`` by default: a re-run costs no judge call for
    finished items). ``rate_limit`` is the judge provider's (a
    :class:`~prin_guard._ratelimit.RateLimit`, shared through Redis by every process
    using it). Ctrl-C stops the run; what was finished is summarised and reported,
    and the result says ``interrupted``.
    """
    options = options or GuardOptions()
    skipped: list[tuple[int, str]] = []
    skip = skip_reporter(on_skip, skipped)

    config = EvalConfig(
        dataset=dataset,
        mitigations=tuple(mitigations),
        template=options.template,
        methods=tuple(m.replace("-", "_") for m in methods),
        analyses=tuple(analyses),
        repeats=repeats,
        sc_samples=samples,
        temperature=temperature,
        seed=seed,
        concurrency=concurrency,
        limit=limit,
        judge=_identity(judge),
        options=options,
    )
    store = open_cache(cache)
    records = _records(
        judge, dataset, path, limit, store, config, generate_pool, generator, skip, rate_limit
    )
    judge_name = str(config.judge.get("model") or config.judge.get("name") or "judge")
    where = new_run_dir(out, dataset, judge_name)
    title = name or where.name
    say(f"prin-guard eval: {len(records)} items of {dataset}, writing {where}")
    started = time.monotonic()
    with progress_meter(len(records), enabled=progress) as meter:
        stats, interrupted = drive(
            run_eval(
                judge,
                records,
                config,
                items_path=where / ITEMS,
                cache=store,
                progress=meter,
                rate_limit=rate_limit,
            )
        )
    run_info: dict[str, Any] = {
        "name": title,
        "config": config.to_dict(),
        "wall_seconds": (stats or {}).get("wall_seconds", time.monotonic() - started),
        "partial": interrupted,
        "skipped_rows": [{"line": line, "reason": reason} for line, reason in skipped],
        "finished": datetime.now().isoformat(timespec="seconds"),
    }
    summary = summarize(read_records(where / ITEMS), run=run_info)
    (where / SUMMARY).write_text(summary.to_json(), encoding="utf-8")
    report = write_report([Run(name=title, path=where, summary=summary)], where)
    return EvalRun(path=where, summary=summary, report=report, interrupted=interrupted)


def _identity(judge: Judge | Sequence[Judge]) -> dict[str, Any]:
    if isinstance(judge, Judge):
        return dict(judge.identity())
    return judges_identity([dict(member.identity()) for member in judge])


def _records(
    judge: Judge | Sequence[Judge],
    dataset: str,
    path: str | Path | None,
    limit: int | None,
    cache: Cache | None,
    config: EvalConfig,
    generate_pool: int | None,
    generator: Judge | None,
    on_skip: SkipHandler,
    rate_limit: RateLimit | None = None,
) -> list[LabeledItem]:
    """The items to evaluate: a candidate dataset, or a problem dataset given
    candidates the paper's way (distinct answers sampled from a generator)."""
    key = dataset.strip().lower().replace("_", "-")
    if key not in PROBLEM_DATASETS:
        if generate_pool:
            raise UsageError(f"generate_pool: {dataset!r} already has candidates")
        return list(load_dataset(dataset, path=path, limit=limit, on_skip=on_skip))
    if not path:
        raise UsageError(
            f"path: {dataset!r} ships no sample; give the original file "
            f"(problem datasets: {', '.join(PROBLEM_DATASETS)})"
        )
    problems = load_problems(key, path, limit=limit, on_skip=on_skip)
    n = generate_pool or 5
    say(f"prin-guard eval: building candidate pools ({n} samples per problem)")
    built, interrupted = drive(
        build_pool(
            generator or (judge if isinstance(judge, Judge) else judge[0]),
            problems,
            n=n,
            temperature=config.temperature,
            seed=config.seed,
            cache=cache,
            concurrency=config.concurrency,
            on_skip=on_skip,
            rate_limit=rate_limit,
        )
    )
    if interrupted or built is None:
        raise KeyboardInterrupt
    return built
