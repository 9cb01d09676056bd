"""The typed summary of an evaluation run: what ``summary.json`` holds.

:func:`~prin_guard.eval._summary.summarize` returns an :class:`EvalSummary`;
``summary.model_dump(mode="json")`` is the JSON written to ``summary.json``, in
the layout the summaries had when they were plain dicts, so files written by
earlier versions validate into these models.

A section a run did not measure (no paraphrases, no repeats, no item judged) is
left out of the JSON rather than written as null: models derived from
:class:`~prin_guard._output._runs.SparseModel` drop the optional fields that were never
set, and keep the ones set to None. Run information is whatever the caller
recorded: its known fields are typed, any other key is kept as it is.

The ``checks`` section (:class:`ChecksSummary`) is written only for runs whose
verdicts record their checks (prin-guard with ``GuardOptions.checks``); runs written
before have no such section. Within it, a part a run did not measure (no ``order``
check, no panel, no log-probabilities) is left out of the JSON. Its definitions are
those of :mod:`prin_guard.eval._metrics`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field

from prin_guard._output._runs import Failure, SparseModel, SummaryModel
from prin_guard._route._decide import Riskier
from prin_guard._route._usage import UsageSummary
from prin_guard.models import Task

__all__ = [
    "ChecklistSummary",
    "ChecksSummary",
    "ConfidenceSummary",
    "ConfigSummary",
    "CostSummary",
    "CurvePoint",
    "EvalRunConfig",
    "EvalRunInfo",
    "EvalSummary",
    "FlagCounts",
    "FlagQualitySummary",
    "FlagSignalSummary",
    "MethodScore",
    "OptionCountPrin",
    "OrderSummary",
    "PairwiseSummary",
    "PanelSummary",
    "PositionSummary",
    "RepeatsSummary",
    "Run",
    "ScoreSignalSummary",
    "SelfConsistencySummary",
    "SkippedRow",
    "UninformativeSummary",
]


# -------------------------------------------------------------------- checks


class CurvePoint(SummaryModel):
    """One threshold of a coverage–accuracy curve: PRIN's (verdicts with PRIN at or under
    the threshold are accepted) or a signal's (at or under it when higher is riskier, at
    or over it when lower is)."""

    threshold: float
    """Verdicts whose score is this or safer are accepted."""
    coverage: float
    """Share of all verdicts accepted (a verdict without the score never is)."""
    accuracy: float | None
    """Accuracy of the accepted verdicts' ``correct`` set (the synergy verdict's); None
    when none is accepted."""
    kept: int
    """Verdicts accepted."""


class FlagSignalSummary(SummaryModel):
    """How well one flag (or any flag) picks out wrong verdicts."""

    flagged: int
    """Verdicts with the flag (among items with a known gold set)."""
    unflagged: int
    """Verdicts without it."""
    share_flagged: float | None
    """Flagged over all; None for no verdict."""
    error_rate_flagged: float | None
    """Share of flagged verdicts that are wrong; None when none is flagged."""
    error_rate_unflagged: float | None
    """Share of unflagged verdicts that are wrong; None when all are flagged."""
    lift: float | None
    """How many times likelier a flagged verdict is wrong; None when a rate is 0 or None."""
    auroc: float | None
    """AUROC of the flag as a predictor of a wrong verdict; None when all are right or
    all wrong."""


class ScoreSignalSummary(SummaryModel):
    """How well one check's score predicts a wrong verdict."""

    riskier: Riskier
    """Which end of the score means a likelier wrong verdict."""
    verdicts: int
    """Verdicts with the score (among items with a known gold set)."""
    missing: int
    """Verdicts without it (never accepted on the curve)."""
    auroc: float | None
    """AUROC of the score, oriented by ``riskier`` (1 perfect, 0.5 chance); None when
    all verdicts with the score are right or all wrong."""
    coverage_curve: tuple[CurvePoint, ...]
    """Coverage and accuracy, one point per distinct value, safest first."""


class OrderSummary(SummaryModel):
    """The ``order`` check: answers with the candidates shown in a second order."""

    verdicts: int
    """Verdicts with an order inconsistency score (none when no pair of answers was read)."""
    inconsistency: float | None
    """Mean order inconsistency (the verdict's score: the larger of its legs')."""
    direct: float | None
    """Mean 1 − F1(direct answer, direct answer in the second order), over the pairs
    whose two answers were read (a panel: every member's pair)."""
    reverse: float | None
    """The same for the reverse answers."""
    changed_rate: float | None
    """Share of verdicts whose order inconsistency is above 0."""
    flag_rate: float | None
    """Share of verdicts flagged ``order_sensitive`` (above the guard's threshold)."""


class PositionSummary(SummaryModel):
    """How often one kind of leg names the candidate shown first."""

    answers: int
    """Answers read (a parse failure is no answer; "none" is one)."""
    first_shown: float | None
    """Share of the answers naming the candidate shown first."""
    expected: float | None
    """The share a judge blind to position would reach with answers of these sizes:
    the mean of |answer| / candidates."""
    item_first: float | None
    """For a leg in the second order: share naming the item's own first candidate
    (shown elsewhere); None for legs in the item's order, where it is ``first_shown``."""


class PanelSummary(SummaryModel):
    """A panel of judges: how much its members agree, and how often they abstain."""

    members: tuple[str, ...]
    """The members' names, in panel order."""
    kappa: float | None
    """Fleiss' kappa over (item, candidate) subjects, the members that voted as raters,
    correct/incorrect as categories; None when undefined."""
    observed_agreement: float | None
    """Mean share of agreeing member pairs per subject."""
    expected_agreement: float | None
    """The agreement expected by chance from the pooled shares of the two categories."""
    subjects: int
    """Subjects with at least two voting members."""
    abstention_rate: float | None
    """Share of the members' answers that abstained."""
    split_rate: float | None
    """Share of verdicts flagged ``panel_split``."""
    member_accuracy: dict[str, float | None]
    """Exact-match accuracy of each member's own vote, over the items it did not
    abstain on."""


class ConfidenceSummary(SummaryModel):
    """The judge's own probability of its answers (the lowest per verdict)."""

    verdicts: int
    """Verdicts with a confidence."""
    legs: int
    """Legs with a confidence."""
    mean: float | None
    """Mean verdict confidence."""
    quartiles: tuple[float | None, ...]
    """Minimum, first quartile, median, third quartile, maximum."""
    histogram: tuple[int, ...]
    """Verdicts with confidence in [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]."""
    low_rate: float | None
    """Share of all verdicts flagged ``low_confidence``."""


class ChecksSummary(SparseModel):
    """What each check of the base configuration's verdicts says, and how well its
    signals predict a wrong verdict."""

    config: str
    """The configuration measured (the base one: the only one asked in a second order)."""
    checks: tuple[str, ...]
    """The checks its verdicts ran."""
    verdicts: int
    """Verdicts measured."""
    scored: int
    """Of these, verdicts with a known gold set (flag and score quality are over these)."""
    order: OrderSummary | None = None
    """The ``order`` check, when it ran."""
    position_bias: dict[str, PositionSummary] = Field(default_factory=dict)
    """By leg: ``direct``, ``reverse``, and ``direct_permuted``, ``reverse_permuted``
    for the legs in the second order (a panel's members pooled)."""
    panel: PanelSummary | None = None
    """Panel agreement, when the verdicts have members."""
    confidence: ConfidenceSummary | None = None
    """The confidence distribution, when some leg has one."""
    flag_quality: dict[str, FlagSignalSummary] = Field(default_factory=dict)
    """By flag: every flag of the checks that ran and every other flag raised, then
    ``any`` (a verdict with any flag)."""
    score_quality: dict[str, ScoreSignalSummary] = Field(default_factory=dict)
    """By score: ``prin``, ``order_inconsistency``, ``panel_agreement``, ``confidence``
    (those measured)."""


# ---------------------------------------------------------------- the tasks


class PairwiseSummary(SummaryModel):
    """Pairwise items: who wins, how often the judge decides, and the first position.

    Measured on the base configuration's synergy verdicts."""

    verdicts: int
    """Verdicts measured."""
    scored: int
    """Of these, with a known gold winner (accuracy is over these)."""
    winner_accuracy: float | None
    """Share naming the gold winner (a tie verdict is right only where the gold is a tie;
    a verdict with no winner is wrong)."""
    accuracy_when_decided: float | None
    """The same among the verdicts that name a winner."""
    decided_rate: float | None
    """Share of verdicts naming one winner."""
    tie_rate: float | None
    """Share of verdicts calling the pair a tie (both answers agree neither is better)."""
    undecided_rate: float | None
    """Share naming neither a winner nor a tie: the two answers contradict each other
    (the same response better and worse) or one could not be read."""
    first_shown_wins: float | None
    """Share of the direct answers naming one response that name the one shown first;
    over both orders when the order check ran."""
    first_shown_answers: int
    """Direct answers naming one response (ties and unread answers left out)."""
    expected_first_shown: float | None
    """What a judge blind to position gives: 0.5 over both orders (each response is shown
    first once); None without the order check, where the item's order alone cannot tell
    a position preference from the dataset's balance (``gold_first_shown``)."""
    gold_first_shown: float | None
    """Share of the scored pairs whose gold winner is the response the item shows first:
    what an always-right judge names first in the item's order."""
    both_orders: bool
    """The order check ran: the first-shown share pools both orders."""


class ChecklistSummary(SummaryModel):
    """Checklist items: the met set, candidate by candidate and as a whole.

    Measured on the base configuration's synergy verdicts, over items with a known gold
    set."""

    verdicts: int
    """Verdicts measured."""
    scored: int
    """Of these, with a known gold set."""
    candidates: int
    """Criteria or claims of the scored items."""
    exact_accuracy: float | None
    """Share of items whose met set is exactly the gold set (the error calibration
    bounds)."""
    per_candidate_accuracy: float | None
    """Share of candidates on the gold's side: called met and met, or not called met and
    not met (a contradicted candidate is not called met)."""
    false_met: float | None
    """Share of the candidates the gold says are not met that the verdict calls met."""
    missed: float | None
    """Share of the candidates the gold says are met that the verdict does not call met."""
    contradicted_rate: float | None
    """Share of candidates the two answers contradict each other on."""
    mean_score: float | None
    """Mean verdict score (weighted share met)."""
    mean_gold_score: float | None
    """Mean score of the gold sets (same weights)."""
    score_error: float | None
    """Mean absolute difference between a verdict's score and its gold set's."""


# ---------------------------------------------------------------- the summary


class SkippedRow(SummaryModel):
    """A dataset row that could not be read into an item."""

    line: int
    """Line (or record number) of the row in the dataset file."""
    reason: str
    """Why it was skipped."""


class EvalRunConfig(SparseModel):
    """The run's :class:`~prin_guard.eval.EvalConfig`, as recorded."""

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
    task: str | None = None
    """The task of the run's items (``choice``, ``pairwise``, ``checklist``)."""


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
    not_measured: dict[str, str] | None = None
    """Methods and analyses asked for that the run's task does not have, and why
    (self-consistency, paraphrase and options are multiple-choice analyses)."""
    finished: str | None = None
    """When the run finished (ISO 8601, local time)."""


class MethodScore(SparseModel):
    """How well one method's chosen sets match the gold sets."""

    accuracy: float | None
    """Exact-match accuracy; None when no item has a known gold set. Pairwise: the right
    winner (a tie is right only where the gold is one); checklist: the exact met set."""
    f1: float | None
    """Mean per-item F1; None unless some gold set has other than one label."""
    per_candidate: float | None = None
    """Checklists only: the share of all candidates put on the gold's side (met or not)."""


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


class ReverseLegsSummary(SummaryModel):
    """With ``reverse_legs='uncertain'``: which verdicts asked which legs, what skipping
    the reverse legs saved, and what it missed (the base configuration's verdicts)."""

    verdicts: int
    confident: int
    """The direct leg alone: its confidence was at or above ``reverse_below``."""
    uncertain: int
    """Every leg: the direct leg's confidence was under the threshold (or unknown)."""
    monitored: int
    """Confident, but asked in full for monitoring."""
    judge_calls_saved: int
    """Legs not asked: per confident verdict, the legs a verdict asked in full asks, less
    its direct leg."""
    cost_saved_usd: float | None
    """What those legs would have cost: each confident verdict's direct leg's cost times
    the guard's premium less one, as measured on the verdicts asked in full (an estimate;
    ``None`` without prices)."""
    confident_wrong: int | None
    """Confident verdicts (the direct answer alone) that the gold calls wrong: errors the
    reverse legs were not asked to catch (``None`` without gold)."""
    confident_error_rate: float | None
    uncertain_error_rate: float | None
    """Verdicts asked in full because the direct leg was not confident: their error rate."""
    monitored_flagged: int
    """Monitored verdicts flagged by a check the confident ones skip (inconsistent,
    order_sensitive): what the skipped legs would have said about that share."""
    monitored_flagged_wrong: int | None
    """Of those, the ones whose direct answer the gold calls wrong: errors missed on the
    confident verdicts, at the monitored share."""


class CostSummary(SparseModel):
    """What the run cost: judge calls, tokens, money, time."""

    legs: int
    """Judge answers the records hold, cached or not."""
    judge_calls: int
    """Answers not served from the cache."""
    cached_legs: int
    """Answers served from the cache."""
    judge_calls_per_item: float | None
    """Judge calls per judged item."""
    prompt_tokens: int | None
    """Prompt tokens of the judge calls made now, over those that reported them (``None``:
    none did)."""
    completion_tokens: int | None
    """Completion tokens of the judge calls made now (``None``: none reported them)."""
    cost_usd: float | None
    """Money spent now, over the calls whose cost is known (``usage.priced_calls``); 0
    when every answer came from the cache; ``None`` when no call was priced."""
    cost_usd_per_item: float | None
    """Money spent per judged item."""
    mean_judge_latency_ms: float | None
    """Mean time in a judge call, queueing included."""
    wall_seconds: float | None
    """Wall-clock time of the run, from the run information."""
    items_per_second: float | None
    """Judged items per second of wall-clock time."""
    usage: UsageSummary | None = None
    """What the run's answers cost by the one rule of ``Verdict.usage`` (paid now, saved
    by prin-guard's cache, the provider's prompt cache at work, the guard's premium);
    ``None`` in summaries written before it existed."""


class UninformativeSummary(SummaryModel):
    """One way the run's judge answers carry no information
    (:mod:`prin_guard._route._informative`)."""

    kind: Literal["one_answer", "same_position", "unreadable"]
    """``one_answer``: one answer on most legs of a polarity; ``same_position``: the same
    position preferred in both candidate orders; ``unreadable``: most legs unread."""
    share: float
    threshold: float
    """The share from which it is reported."""
    count: int
    total: int
    answer: str = ""
    """``one_answer``: the polarity's legs and the answer."""
    message: str
    """The finding in one sentence."""


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
    task: Task = "choice"
    """The task of the run's items (written for pairwise and checklist runs only)."""
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
    pairwise: PairwiseSummary | None = None
    """Pairwise runs: winners, ties, undecided pairs and the first position."""
    checklist: ChecklistSummary | None = None
    """Checklist runs: per-candidate and exact-set accuracy, scores."""
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
    uninformative: tuple[UninformativeSummary, ...] = ()
    """How the base configuration's judge answers carry no information, each with its share
    and threshold; empty when they do (or too few verdicts to tell)."""
    reverse_legs: ReverseLegsSummary | None = None
    """With ``reverse_legs='uncertain'``: the legs asked, the calls and cost saved, the
    errors missed."""
    """What the run cost."""


@dataclass(frozen=True)
class Run:
    """One run in a report: a column of its tables and a series of its plots."""

    name: str
    """What the report calls the run."""
    path: Path
    """The run directory."""
    summary: EvalSummary
    """Its numbers."""
