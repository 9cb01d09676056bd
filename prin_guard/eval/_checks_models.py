"""The typed summary of a run's checks: the ``checks`` section of ``summary.json``.

Written only for runs whose verdicts record their checks (prin-guard with
``GuardOptions.checks``); runs written before have no such section. Within it, a
part a run did not measure (no ``order`` check, no panel, no log-probabilities)
is left out of the JSON. The definitions are those of :mod:`prin_guard.eval._signals`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from prin_guard.eval._summary_base import SparseModel, SummaryModel

__all__ = [
    "ChecksSummary",
    "ConfidenceSummary",
    "FlagSignalSummary",
    "OrderSummary",
    "PanelSummary",
    "PositionSummary",
    "ScoreSignalSummary",
    "SignalPoint",
]


class SignalPoint(SummaryModel):
    """One threshold of a signal's coverage–accuracy curve."""

    threshold: float
    """Verdicts whose score is this or safer are accepted (at or under it when higher
    is riskier, at or over it when lower is)."""
    coverage: float
    """Share of all verdicts accepted (a verdict without the score never is)."""
    accuracy: float | None
    """Accuracy of the accepted verdicts' ``correct`` set."""
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

    riskier: Literal["higher", "lower"]
    """Which end of the score means a likelier wrong verdict."""
    verdicts: int
    """Verdicts with the score (among items with a known gold set)."""
    missing: int
    """Verdicts without it (never accepted on the curve)."""
    auroc: float | None
    """AUROC of the score, oriented by ``riskier`` (1 perfect, 0.5 chance); None when
    all verdicts with the score are right or all wrong."""
    coverage_curve: tuple[SignalPoint, ...]
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
