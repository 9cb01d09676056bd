"""Running a judge over a dataset: every method of the PRIN paper in one pass.

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

A panel (a list of judges) is judged as one: every verdict is the panel's, each
member's legs and vote in its record. Single answers (self-consistency samples,
the direct-only paraphrases v3 and v4) have no panel form, so a panel runs the
verdict methods and the ``options`` analysis only.

One JSON record per item is appended to ``items.jsonl`` as soon as the item is
done, so an interrupted run keeps what it finished; :func:`summarize` turns the
records into the summary the report shows.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from prin_guard._calls import JudgeCaller
from prin_guard._exceptions import JudgeError, UsageError
from prin_guard._guard import Guard
from prin_guard._models import Candidate, Item, Leg, Polarity, Verdict
from prin_guard._options import GuardOptions
from prin_guard._ratelimit import RateLimit
from prin_guard._retry import CallLimit
from prin_guard.cache import Cache
from prin_guard.eval._datasets import LabeledItem
from prin_guard.judges import Judge

__all__ = ["ANALYSES", "METHODS", "EvalConfig", "run_eval"]

METHODS = ("direct", "reverse", "synergy", "self_consistency")
ANALYSES = ("paraphrase", "options", "randomness")
PARAPHRASE_VERDICTS = ("v1", "v2")
PARAPHRASE_DIRECT_ONLY = ("v3", "v4")


@dataclass(frozen=True)
class EvalConfig:
    """What one evaluation run asks of the judge."""

    dataset: str
    mitigations: tuple[str, ...] = ("cot", "neg_exp")
    """Every subset of these is run (the empty one included)."""
    template: str = "v0"
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
        checked = GuardOptions.of(
            self.options, template=self.template, mitigations=self.mitigations, probe=None
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
        self.base = self._guard(main, config.template, ())
        self.configs = {
            config_key(m): self._guard(main, config.template, m, order=not m)
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
                    config.template,
                    (),
                )
                for i in range(config.n_samples)
            ]
            if config.repeats > 1:
                self.repeat_guards = [
                    self._guard(
                        self._caller(with_sampling(config.temperature, config.seed + 1000 + r)),
                        config.template,
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
        template: str,
        mitigations: Sequence[str],
        *,
        order: bool = False,
    ) -> Guard:
        # the order check on the base verdict only (module docstring)
        checks = [c for c in self.config.options.checks if order or c != "order"]
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
    slots = asyncio.Semaphore(config.concurrency)
    items_path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with items_path.open("w", encoding="utf-8") as handle:

        async def one(record: LabeledItem) -> None:
            nonlocal written
            async with slots:
                result = await run.item(record)
            handle.write(json.dumps(result, ensure_ascii=False) + "\n")
            handle.flush()
            written += 1
            if on_record is not None:
                on_record(result)
            if progress is not None:
                base = result.get("configs", {}).get("none")
                progress.update(base["prin_score"] if base else None)

        tasks = [asyncio.create_task(one(record)) for record in todo]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
    return {
        "judge_calls": run.judge_calls,
        "wall_seconds": time.monotonic() - started,
        "items_written": written,
        "config": config.to_dict(),
    }
