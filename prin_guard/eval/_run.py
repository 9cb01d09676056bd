"""``prin_guard.eval.run``: a judge over a dataset, every method of the PRIN paper in one pass.

:func:`run` loads the dataset (or builds candidate pools for a problem dataset:
``_pool``), runs every method through :func:`run_eval`, writes the run directory
(``items.jsonl``, ``summary.json``, ``report.md``, ``report.html``) and returns the
typed summary. ``prin-guard eval`` is this function plus argument parsing and
printing.

For each item the runner asks, through :class:`~prin_guard.Guard` (so every call
is cached and retried like a verdict's):

- ``configs``: the direct and reverse legs with the base template, for every
  subset of the chosen mitigations (``none``, ``cot``, ``neg_exp``,
  ``cot+neg_exp``). Direct only, Reverse only and Synergy are read from these.
- ``samples``: ``k`` sampled direct answers (temperature, seeds ``seed..seed+k−1``)
  for Self-Consistency; the first five also give Randomness Inconsistency.
- ``paraphrases``: full verdicts with templates v1 and v2 (Table 5) and direct
  answers with v3 and v4, so that five direct paraphrases give Paraphrase
  Inconsistency.
- ``options``: verdicts on subsamples of 2, 3, ... options that keep every gold
  option (Figure 5). The subsample is drawn from ``seed`` and the item id.
- ``repeats``: with ``repeats > 1``, that many sampled runs of the base verdict
  (Table 6).

The guards take the checks of ``EvalConfig.options`` (``confidence`` and
``min_confidence`` everywhere: they cost no judge call), but the ``order`` check,
which doubles a verdict's judge calls, runs only on the base verdict (the
configuration ``none``): that is where the summary measures the checks, and asking
every mitigation, paraphrase, option subsample and repeat in a second order too
would double the run's cost for numbers no report shows.

Tasks. A run judges items of one task (``choice``, ``pairwise`` or ``checklist``),
each asked in the guard's template or, when the options name none, the dataset's
(``claims`` for ExpertQA) or the task's default. The paraphrase analysis (templates v1
to v4), the option-count analysis and self-consistency are the PRIN paper's analyses of
multiple-choice answers: on other tasks they are skipped, and the summary says so
(``run.not_measured``), rather than failing the run. Randomness and repeats ask the
task's own template again and run on every task.

A panel (a list of judges) is judged as one: every verdict is the panel's, each
member's legs and vote in its record. Single answers (self-consistency samples,
the direct-only paraphrases v3 and v4) have no panel form, so a panel runs the
verdict methods and the ``options`` analysis only.

One JSON record per item is appended to ``items.jsonl`` as soon as the item is
done, so an interrupted run keeps what it finished; ``_summary`` turns the records
into the summary the report shows.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit
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
from prin_guard._prompting._prompts import DEFAULT_TEMPLATES, Template, get_template
from prin_guard._route._guard import Guard
from prin_guard._route._judging import judges_identity
from prin_guard._route._options import GuardOptions
from prin_guard.cache import Cache
from prin_guard.calls import JudgeCaller
from prin_guard.datasets import DATASETS, LabeledItem, SkipHandler, load_dataset
from prin_guard.errors import JudgeError, UsageError
from prin_guard.eval._pool import PROBLEM_DATASETS, build_pool, load_problems
from prin_guard.eval._report import Run, write_report
from prin_guard.eval._summary import summarize
from prin_guard.eval._summary_models import EvalSummary
from prin_guard.judges import Judge
from prin_guard.models import SECOND_ORDER_CHECKS, Candidate, Item, Leg, Polarity, Task, Verdict

__all__ = ["ANALYSES", "METHODS", "EvalConfig", "EvalRun", "run", "run_eval"]


METHODS = ("direct", "reverse", "synergy", "self_consistency")
ANALYSES = ("paraphrase", "options", "randomness")
PARAPHRASE_VERDICTS = ("v1", "v2")
PARAPHRASE_DIRECT_ONLY = ("v3", "v4")
CHOICE_ONLY = {
    "self_consistency": "choice only: a majority over sampled answers to multiple choice "
    "(the PRIN paper's baseline)",
    "paraphrase": "choice only: the paraphrased templates v1 to v4 ask multiple-choice questions",
    "options": "choice only: subsamples of answer options (a pair has two responses, a "
    "checklist's candidates are all asked)",
}
"""The methods and analyses a run skips on pairwise and checklist items, and why."""


@dataclass(frozen=True)
class EvalConfig:
    """What one evaluation run asks of the judge."""

    dataset: str
    mitigations: tuple[str, ...] = ("cot", "neg_exp")
    """Every subset of these is run (the empty one included)."""
    template: str | None = None
    """The base template's id: the options', else the dataset's, else the task's default
    (filled in once the items are read; ``None`` until then)."""
    task: Task = "choice"
    """The task of the run's items."""
    methods: tuple[str, ...] = METHODS
    analyses: tuple[str, ...] = ("paraphrase", "options", "randomness")
    repeats: int = 1
    sc_samples: int = 5
    temperature: float = 0.7
    """Sampling temperature for self-consistency, randomness and repeats."""
    seed: int = 0
    concurrency: int = 4
    """Items judged at the same time."""
    limit: int | None = None
    judge: dict[str, Any] = field(default_factory=dict)
    """The judge's identity, recorded in the summary."""
    options: GuardOptions = field(default_factory=GuardOptions)
    """The rest of every guard's options (policy, threshold, max_chars, checks,
    min_confidence); the run sets template and mitigations per comparison, and asks
    the ``order`` check on the base verdict only."""

    def __post_init__(self) -> None:
        unknown = [m for m in self.methods if m not in METHODS]
        if unknown or not self.methods:
            raise UsageError(
                f"methods: unknown {unknown or 'empty list'}; known: {', '.join(METHODS)}"
            )
        unknown = [a for a in self.analyses if a not in ANALYSES]
        if unknown:
            raise UsageError(f"analyses: unknown {unknown}; known: {', '.join(ANALYSES)}")
        # the options model checks template and mitigation spellings as everywhere else
        template = self.options.template if self.options.template is not None else self.template
        checked = GuardOptions.of(
            self.options, template=template, mitigations=self.mitigations, probe=None
        )
        object.__setattr__(self, "mitigations", tuple(m.value for m in checked.mitigations))
        for name, value, minimum in (
            ("repeats", self.repeats, 1),
            ("sc_samples", self.sc_samples, 1),
            ("concurrency", self.concurrency, 1),
        ):
            if not isinstance(value, int) or value < minimum:
                raise UsageError(f"{name}: must be an integer >= {minimum}, got {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-ready data (for the run's summary)."""
        data = asdict(self)
        data["options"] = self.options.model_dump(mode="json")
        return data

    @property
    def mitigation_sets(self) -> list[tuple[str, ...]]:
        chosen = list(self.mitigations)
        return [
            combo
            for size in range(len(chosen) + 1)
            for combo in itertools.combinations(chosen, size)
        ]

    @property
    def needs_sampling(self) -> bool:
        return (
            "self_consistency" in self.methods or "randomness" in self.analyses or self.repeats > 1
        )

    @property
    def n_samples(self) -> int:
        n = self.sc_samples if "self_consistency" in self.methods else 0
        return max(n, 5) if "randomness" in self.analyses else n


class ProgressSink(Protocol):
    """Told once per finished item (with its base PRIN, when it has one)."""

    def update(self, prin: float | None) -> None: ...


def config_key(mitigations: Sequence[str]) -> str:
    return "+".join(mitigations) or "none"


def subsample_options(
    record: LabeledItem, n: int, seed: int
) -> tuple[Item, tuple[str, ...]] | None:
    """The item with ``n`` of its options, every gold option kept, relabelled A, B, ...

    None when the item has fewer than ``n`` options or more than ``n`` gold ones.
    """
    candidates = record.item.candidates
    gold = set(record.gold)
    if len(candidates) < n or len(gold) > n:
        return None
    others = [c for c in candidates if c.label not in gold]
    rng = random.Random(f"{seed}:{record.item.key}:{n}")  # noqa: S311 - reproducible, not secret
    keep = gold | {c.label for c in rng.sample(others, n - len(gold))}
    chosen = [c for c in candidates if c.label in keep]
    relabelled = tuple(
        Candidate(text=c.text, reasoning=c.reasoning, label=_letter(i))
        for i, c in enumerate(chosen)
    )
    new_gold = tuple(_letter(i) for i, c in enumerate(chosen) if c.label in gold)
    item = Item(
        question=record.item.question,
        candidates=relabelled,
        context=record.item.context,
        id=f"{record.item.key}#options={n}",
    )
    return item, new_gold


def _letter(index: int) -> str:
    return chr(ord("A") + index)


def _dump(verdict: Verdict) -> dict[str, Any]:
    return verdict.model_dump(mode="json")


def _dump_leg(leg: Leg) -> dict[str, Any]:
    return leg.model_dump(mode="json")


class _Run:
    def __init__(
        self,
        judge: Judge | Sequence[Judge],
        config: EvalConfig,
        cache: Cache | None,
        rate_limit: RateLimit | None = None,
    ) -> None:
        self.config = config
        self.judge = judge
        self.cache = cache
        self.rate_limit = rate_limit  # the provider's, shared by every caller of the run
        # One judge behind many guards and sampling seeds: one bound on the calls in
        # flight across all of them, and one caller (one single flight) per judge.
        self.limit = CallLimit(2 * config.concurrency)
        self.callers: list[JudgeCaller] = []
        main: JudgeCaller | list[JudgeCaller]
        if isinstance(judge, Judge):
            main = self._caller(judge)
        else:
            _panel_can_run(config)
            main = [self._caller(member) for member in judge]
        # the options' own template (a Template of one's own too), else the dataset's
        given = config.options.label_template
        self.template: str | Template | None = given if given is not None else config.template
        self.base = self._guard(main, self.template, ())
        self.configs = {
            config_key(m): self._guard(main, self.template, m, order=not m)
            for m in config.mitigation_sets
        }
        self.paraphrases = {
            t: self._guard(main, t, ()) for t in PARAPHRASE_VERDICTS + PARAPHRASE_DIRECT_ONLY
        }
        self.samplers: list[Guard] = []
        self.repeat_guards: list[Guard] = []
        if config.needs_sampling:
            with_sampling = getattr(judge, "with_sampling", None)  # a panel never gets here
            if with_sampling is None:
                raise UsageError(
                    "judge: self-consistency, randomness and repeats need a judge that can "
                    "sample (LocalJudge or LiteLLMJudge); drop them with --methods and "
                    "--analyses, or use --repeats 1"
                )
            self.samplers = [
                self._guard(
                    self._caller(with_sampling(config.temperature, config.seed + i)),
                    self.template,
                    (),
                )
                for i in range(config.n_samples)
            ]
            if config.repeats > 1:
                self.repeat_guards = [
                    self._guard(
                        self._caller(with_sampling(config.temperature, config.seed + 1000 + r)),
                        self.template,
                        (),
                    )
                    for r in range(config.repeats)
                ]

    def _caller(self, judge: Judge) -> JudgeCaller:
        caller = JudgeCaller(judge, cache=self.cache, limit=self.limit, rate_limit=self.rate_limit)
        self.callers.append(caller)
        return caller

    def _guard(
        self,
        caller: JudgeCaller | list[JudgeCaller],
        template: str | Template | None,
        mitigations: Sequence[str],
        *,
        order: bool = False,
    ) -> Guard:
        # the order check on the base verdict only (module docstring)
        checks = [
            c
            for c in self.config.options.checks_for(self.config.task)
            if order or c not in SECOND_ORDER_CHECKS
        ]
        options = GuardOptions.of(
            self.config.options,
            template=template,
            mitigations=mitigations,
            probe=None,
            checks=checks,
        )
        return Guard(caller, options=options)

    @property
    def judge_calls(self) -> int:
        return sum(c.calls for c in self.callers)

    async def item(self, record: LabeledItem) -> dict[str, Any]:
        cfg = self.config
        item = record.item
        out: dict[str, Any] = {
            "id": item.key,
            "task": item.task,
            "line": record.line,
            "labels": list(item.labels),
            "gold": list(record.gold),
            "gold_known": getattr(record, "gold_known", True),
            "n_options": len(item.candidates),
        }
        try:
            configs = await asyncio.gather(*(g.acheck(item) for g in self.configs.values()))
            out["configs"] = {key: _dump(v) for key, v in zip(self.configs, configs, strict=True)}
            if self.samplers:
                legs = await asyncio.gather(*(g.aask(item, Polarity.DIRECT) for g in self.samplers))
                out["samples"] = [_dump_leg(leg) for leg in legs]
            if "paraphrase" in cfg.analyses:
                verdicts = await asyncio.gather(
                    *(self.paraphrases[t].acheck(item) for t in PARAPHRASE_VERDICTS)
                )
                direct_only = await asyncio.gather(
                    *(self.paraphrases[t].aask(item) for t in PARAPHRASE_DIRECT_ONLY)
                )
                out["paraphrases"] = {
                    **{t: _dump(v) for t, v in zip(PARAPHRASE_VERDICTS, verdicts, strict=True)},
                    **{
                        t: _dump_leg(leg)
                        for t, leg in zip(PARAPHRASE_DIRECT_ONLY, direct_only, strict=True)
                    },
                }
            if "options" in cfg.analyses:
                out["options"] = await self._options(record)
            if self.repeat_guards:
                repeats = await asyncio.gather(*(g.acheck(item) for g in self.repeat_guards))
                out["repeats"] = [_dump(v) for v in repeats]
        except JudgeError as exc:
            out["error"] = str(exc)
        return out

    async def _options(self, record: LabeledItem) -> dict[str, Any]:
        n_total = len(record.item.candidates)
        results: dict[str, Any] = {}
        jobs: list[tuple[int, Item, tuple[str, ...]]] = []
        for n in range(2, min(5, n_total) + 1):
            if n == n_total:
                continue
            made = subsample_options(record, n, self.config.seed)
            if made is not None:
                jobs.append((n, *made))
        verdicts = await asyncio.gather(*(self.base.acheck(item) for _, item, _ in jobs))
        for (n, _, gold), verdict in zip(jobs, verdicts, strict=True):
            results[str(n)] = {"gold": list(gold), "verdict": _dump(verdict)}
        return results


def _panel_can_run(config: EvalConfig) -> None:
    unsupported = [
        *(m for m in config.methods if m == "self_consistency"),
        *(a for a in config.analyses if a in ("paraphrase", "randomness")),
        *(["repeats"] if config.repeats > 1 else []),
    ]
    if unsupported:
        raise UsageError(
            f"judge: a panel of judges gives verdicts, not single answers: drop "
            f"{', '.join(unsupported)} (a panel runs direct, reverse, synergy and options)"
        )


async def run_eval(
    judge: Judge | Sequence[Judge],
    records: Iterable[LabeledItem],
    config: EvalConfig,
    *,
    items_path: Path,
    cache: Cache | None,
    progress: ProgressSink | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    rate_limit: RateLimit | None = None,
) -> dict[str, Any]:
    """Evaluate ``judge`` (or a panel, a list of judges) on ``records``; append each
    item's record to ``items_path``.

    Returns run statistics (judge calls, wall time). Cancelling the task (Ctrl-C)
    leaves ``items_path`` holding every finished item.
    """
    run = _Run(judge, config, cache, rate_limit)
    todo = list(records)
    started = time.monotonic()

    def done(result: dict[str, Any]) -> None:
        if on_record is not None:
            on_record(result)
        if progress is not None:
            base = result.get("configs", {}).get("none")
            progress.update(base["prin_score"] if base else None)

    written = await write_records(
        todo, run.item, items_path, concurrency=config.concurrency, on_record=done
    )
    return {
        "judge_calls": run.judge_calls,
        "wall_seconds": time.monotonic() - started,
        "items_written": written,
        "config": config.to_dict(),
    }


# ---------------------------------------------------------------- the whole run


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
    :class:`~prin_guard._infra._ratelimit.RateLimit`, shared through Redis by every process
    using it). Ctrl-C stops the run; what was finished is summarised and reported,
    and the result says ``interrupted``.
    """
    options = options or GuardOptions()
    skipped: list[tuple[int, str]] = []
    skip = skip_reporter(on_skip, skipped)

    config = EvalConfig(
        dataset=dataset,
        mitigations=tuple(mitigations),
        template=None if (chosen := options.label_template) is None else get_template(chosen).id,
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
    store = open_run_cache(cache)
    records = _records(
        judge, dataset, path, limit, store, config, generate_pool, generator, skip, rate_limit
    )
    config, not_measured = for_task(config, records)
    for skipped_name, why in not_measured.items():
        say(f"prin-guard eval: {skipped_name} not measured ({why})")
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
        "not_measured": not_measured,
        "finished": datetime.now().isoformat(timespec="seconds"),
    }
    summary = summarize(read_records(where / ITEMS), run=run_info)
    (where / SUMMARY).write_text(summary.to_json(), encoding="utf-8")
    report = write_report([Run(name=title, path=where, summary=summary)], where)
    return EvalRun(path=where, summary=summary, report=report, interrupted=interrupted)


def for_task(
    config: EvalConfig, records: Sequence[LabeledItem]
) -> tuple[EvalConfig, dict[str, str]]:
    """``config`` for the task of ``records``: its template (the dataset's when the options
    name none) and the methods and analyses it has, with the reason for each left out.

    Raises UsageError when the items mix tasks, or the template asks another task's
    question."""
    tasks = list(dict.fromkeys(record.item.task for record in records))
    if len(tasks) > 1:
        raise UsageError(
            f"dataset: its items mix tasks ({', '.join(tasks)}); evaluate one task per run"
        )
    task: Task = tasks[0] if tasks else "choice"
    template = config.template
    if template is None:
        info = DATASETS.get(config.dataset.strip().lower().replace("_", "-"))
        template = info.template if info is not None else None
    # recorded as asked: the options' template, the dataset's, or the task's default
    template = template or DEFAULT_TEMPLATES[task]
    chosen = get_template(config.options.label_template or template)
    if chosen.task != task:
        raise UsageError(
            f"template: {chosen.id!r} asks {chosen.task} questions; the items of "
            f"{config.dataset!r} are {task} items (give no template for the task's default)"
        )
    not_measured: dict[str, str] = {}
    methods, analyses = config.methods, config.analyses
    if task != "choice":
        not_measured = {
            name: why for name, why in CHOICE_ONLY.items() if name in (*methods, *analyses)
        }
        methods = tuple(m for m in methods if m not in CHOICE_ONLY)
        analyses = tuple(a for a in analyses if a not in CHOICE_ONLY)
    if not methods:
        raise UsageError(
            f"methods: none left for {task} items ({', '.join(config.methods)} are choice "
            "only); ask direct, reverse or synergy"
        )
    # the checks the run asks, recorded as asked: the options', or the task's default
    options = GuardOptions.of(config.options, checks=config.options.checks_for(task))
    changed = dataclasses.replace(
        config, task=task, template=template, methods=methods, analyses=analyses, options=options
    )
    return changed, not_measured


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
