"""The typed summary of an evaluation run: what ``summary.json`` holds.

:func:`~prin_guard.eval._summary.summarize` returns an :class:`EvalSummary`;
``summary.model_dump(mode="json")`` is the JSON written to ``summary.json``, in
the layout the summaries had when they were plain dicts, so files written by
earlier versions validate into these models.

A section a run did not measure (no paraphrases, no repeats, no item judged) is
left out of the JSON rather than written as null: models derived from
:class:`SparseModel` drop the optional fields that were never set, and keep the ones
set to None. Run information is whatever the caller recorded: its known fields
are typed, any other key is kept as it is.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from prin_guard.eval._checks_models import ChecksSummary
from prin_guard.eval._summary_base import SparseModel, SummaryModel

__all__ = [
    "ChecksSummary",
    "ConfigSummary",
    "CostSummary",
    "CurvePoint",
    "EvalRunConfig",
    "EvalRunInfo",
    "EvalSummary",
    "Failure",
    "FlagCounts",
    "FlagQualitySummary",
    "MethodScore",
    "OptionCountPrin",
    "RepeatsSummary",
    "SelfConsistencySummary",
    "SkippedRow",
    "SparseModel",
    "SummaryModel",
]


class Failure(SummaryModel):
    """An item whose judge failed after retries."""

    id: str
    """The item's id."""
    error: str
    """The error, as the record holds it."""


class SkippedRow(SummaryModel):
    """A dataset row that could not be read into an item."""

    line: int
    """Line (or record number) of the row in the dataset file."""
    reason: str
    """Why it was skipped."""


class EvalRunConfig(SparseModel):
    """The run's :class:`~prin_guard.eval._runner.EvalConfig`, as recorded."""

    model_config = ConfigDict(frozen=True, extra="allow")

    dataset: str | None = None
    """Dataset name (or path) the items came from."""
    mitigations: tuple[str, ...] | None = None
    """Mitigations whose every subset was run."""
    template: str | None = None
    """Prompt template of the base verdicts."""
    methods: tuple[str, ...] | None = None
    """Methods asked for (direct, reverse, synergy, self_consistency)."""
    analyses: tuple[str, ...] | None = None
    """Analyses asked for (paraphrase, options, randomness)."""
    repeats: int | None = None
    """Sampled runs of the base verdict (Table 6); 1 for none."""
    sc_samples: int | None = None
    """Samples per item for self-consistency."""
    temperature: float | None = None
    """Sampling temperature for self-consistency, randomness and repeats."""
    seed: int | None = None
    """First sampling seed; also draws the option subsamples."""
    concurrency: int | None = None
    """Items judged at the same time."""
    limit: int | None = None
    """At most this many items were read, when set."""
    judge: dict[str, Any] | None = None
    """The judge's identity (kind, model or name, sampling parameters)."""


class EvalRunInfo(SparseModel):
    """What the caller recorded about the run; keys other than these are kept as given."""

    model_config = ConfigDict(frozen=True, extra="allow")

    name: str | None = None
    """The run's name in reports (the run directory's name when absent)."""
    config: EvalRunConfig | None = None
    """What the run asked of the judge."""
    wall_seconds: float | None = None
    """Wall-clock time of the run."""
    partial: bool | None = None
    """True when the run was interrupted and the summary covers the items finished."""
    skipped_rows: tuple[SkippedRow, ...] | None = None
    """Dataset rows that could not be read."""
    finished: str | None = None
    """When the run finished (ISO 8601, local time)."""


class MethodScore(SummaryModel):
    """How well one method's chosen sets match the gold sets."""

    accuracy: float | None
    """Exact-match accuracy; None when no item has a known gold set."""
    f1: float | None
    """Mean per-item F1; None unless some gold set has other than one label."""


class ConfigSummary(SummaryModel):
    """The numbers of one mitigation configuration ("none", "cot", ...)."""

    prin: float | None
    """Mean PRIN over the items."""
    consistent_rate: float | None
    """Share of items whose two legs agree (the verdict is consistent)."""
    methods: dict[str, MethodScore]
    """Accuracy of "direct", "reverse" and "synergy", by method."""
    flag_rates: dict[str, float | None]
    """Share of verdicts carrying each flag, by flag value; flags never raised are absent."""


class FlagCounts(SummaryModel):
    """Verdicts with and without a flag, and how often each group is wrong."""

    flagged: int
    """Verdicts with the flag (among items with a known gold set)."""
    unflagged: int
    """Verdicts without it."""
    error_rate_flagged: float | None
    """Share of flagged verdicts that are wrong; None when none is flagged."""
    error_rate_unflagged: float | None
    """Share of unflagged verdicts that are wrong; None when all are flagged."""
    lift: float | None
    """How many times likelier a flagged verdict is wrong; None when a rate is 0 or None."""


class CurvePoint(SummaryModel):
    """One threshold of the coverage–accuracy curve."""

    threshold: float
    """Verdicts with PRIN at or under this are accepted."""
    coverage: float
    """Share of the items accepted."""
    accuracy: float | None
    """Accuracy of the synergy verdict on the accepted items; None when none is."""
    kept: int
    """Items accepted."""


class FlagQualitySummary(SummaryModel):
    """Does a flag mean the verdict is likelier wrong? Measured on one configuration."""

    config: str
    """The configuration measured (the base one)."""
    inconsistent_flag: FlagCounts
    """Verdicts flagged ``inconsistent`` against the others."""
    any_flag: FlagCounts
    """Verdicts with any flag against clean ones."""
    auroc_prin_predicts_wrong: float | None
    """AUROC of the PRIN score as a predictor of a wrong verdict; None when all are
    right or all wrong."""
    coverage_curve: tuple[CurvePoint, ...]
    """Coverage and accuracy, one point per distinct PRIN value."""


class SelfConsistencySummary(SummaryModel):
    """The self-consistency baseline: a strict majority of sampled direct answers."""

    samples: int
    """Samples per item."""
    temperature: float | None
    """Their sampling temperature, when recorded."""
    accuracy: float | None
    """Exact-match accuracy of the majority sets."""
    f1: float | None
    """Mean per-item F1; None unless the gold is set-valued."""


class OptionCountPrin(SummaryModel):
    """Mean PRIN over verdicts asked with a given number of options."""

    prin: float | None
    """Mean PRIN."""
    items: int
    """Verdicts averaged (an item's own option count and its subsamples)."""


class RepeatsSummary(SummaryModel):
    """Run-level PRIN over repeated sampled runs of the base verdict (Table 6)."""

    runs: int
    """Number of repeated runs."""
    mean: float | None
    """Mean of the run-level PRIN."""
    std: float | None
    """Sample standard deviation of the run-level PRIN (0 for one run)."""
    per_run: tuple[float | None, ...]
    """Each run's PRIN."""


class CostSummary(SummaryModel):
    """What the run cost: judge calls, tokens, money, time."""

    legs: int
    """Judge answers the records hold, cached or not."""
    judge_calls: int
    """Answers not served from the cache."""
    cached_legs: int
    """Answers served from the cache."""
    judge_calls_per_item: float | None
    """Judge calls per judged item."""
    prompt_tokens: int
    """Prompt tokens of the judge calls (0 where unknown)."""
    completion_tokens: int
    """Completion tokens of the judge calls (0 where unknown)."""
    cost_usd: float | None
    """Money spent, over the calls whose cost is known; None when none is."""
    cost_usd_per_item: float | None
    """Money spent per judged item."""
    mean_judge_latency_ms: float | None
    """Mean time in a judge call, queueing included."""
    wall_seconds: float | None
    """Wall-clock time of the run, from the run information."""
    items_per_second: float | None
    """Judged items per second of wall-clock time."""


class EvalSummary(SparseModel):
    """Every number of an evaluation report, for one run.

    The counts, failures and run information are always there; the rest only
    once an item was judged, and each analysis only when the run measured it.
    """

    items: int
    """Records read, failed ones included."""
    items_judged: int
    """Records whose judge answered; every metric is over these."""
    items_failed: int
    """Records whose judge failed after retries."""
    failures: tuple[Failure, ...]
    """The first 20 failed items."""
    run: EvalRunInfo
    """What the caller recorded about the run."""
    set_valued_gold: bool = False
    """Some gold set has other than one label: F1 is reported next to accuracy."""
    configs: dict[str, ConfigSummary] = Field(default_factory=dict)
    """The numbers of each mitigation configuration, by name ("none", "cot", ...)."""
    base_config: str | None = None
    """The configuration the analyses use: "none" when run, else the first."""
    flag_quality: FlagQualitySummary | None = None
    """Flag quality of the base configuration."""
    checks: ChecksSummary | None = None
    """Every check's numbers and the quality of every signal, on the base configuration;
    only for runs whose verdicts record their checks."""
    self_consistency: SelfConsistencySummary | None = None
    """The self-consistency baseline, when sampled."""
    randomness_inconsistency: float | None = None
    """Mean k/5 of distinct answers over five sampled direct answers."""
    prin_by_template: dict[str, float | None] = Field(default_factory=dict)
    """Mean PRIN by prompt paraphrase ("v0", "v1", "v2"; Table 5)."""
    paraphrase_inconsistency: float | None = None
    """Mean k/5 of distinct direct answers over five paraphrases."""
    prin_by_option_count: dict[str, OptionCountPrin] = Field(default_factory=dict)
    """Mean PRIN by number of options ("2" to "5"; Figure 5)."""
    prin_repeats: RepeatsSummary | None = None
    """Run-level PRIN over repeated runs, when repeated."""
    cost: CostSummary | None = None
    """What the run cost."""
