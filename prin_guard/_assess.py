"""From legs to a verdict's decision: one judge's assessment, and a panel's. Pure.

One judge (:func:`assess`): the reverse check is reconciled as the PRIN paper says
(``_reconcile``); the order check compares each leg with its second-order twin; the
confidence check looks at the first-order legs. ``consistent`` needs every computed
score at or under the threshold and every leg read. Policy ``strict`` keeps what every
leg agrees on: synergy ∩ second-order direct ∩ (all − second-order reverse).

A panel (:func:`assess_panel`): each member is assessed alone; its set under the policy
is its vote; a member that failed or left a first-order leg unreadable abstains. The
panel's set is the strict majority over the whole panel (``_checks.panel_majority``); its
scores are the means over voting members (the lowest confidence); its flags are the
panel's own (``panel_split``, ``panel_abstention``) plus those its scores earn, plus the
members' unparseable, echo and polarity flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prin_guard._checks import fleiss_agreement, order_inconsistency, panel_majority
from prin_guard._models import Flag, Leg, Member, ParseStatus, Scores
from prin_guard._reconcile import Policy, reconcile

__all__ = ["Assessment", "MemberLegs", "assess", "assess_panel"]


@dataclass(frozen=True, slots=True)
class MemberLegs:
    """The legs one judge answered for one item."""

    direct: Leg
    reverse: Leg
    permuted_direct: Leg | None = None
    permuted_reverse: Leg | None = None
    echoed: bool = False

    @property
    def permuted(self) -> tuple[Leg, ...]:
        return tuple(leg for leg in (self.permuted_direct, self.permuted_reverse) if leg)


@dataclass(frozen=True, slots=True)
class Assessment:
    correct: tuple[str, ...]
    reverse_implied: tuple[str, ...]
    scores: Scores
    consistent: bool
    flags: tuple[Flag, ...]


def _failed(leg: Leg | None) -> bool:
    return leg is not None and leg.parse_status is ParseStatus.FAILED


def _add(flags: list[Flag], flag: Flag) -> None:
    if flag not in flags:
        flags.append(flag)


def assess(
    labels: Sequence[str],
    legs: MemberLegs,
    *,
    policy: Policy,
    threshold: float,
    checks: Sequence[str],
    min_confidence: float,
) -> Assessment:
    """One judge's verdict on one item from its legs."""
    every = [legs.direct, legs.reverse, *legs.permuted]
    base = reconcile(
        labels,
        legs.direct.labels,
        legs.reverse.labels,
        direct_status=legs.direct.parse_status,
        reverse_status=legs.reverse.parse_status,
        polarity_confusion=any(leg.polarity_confusion for leg in every),
        policy=policy,
        threshold=threshold,
    )
    flags = list(base.flags)
    # A pair is compared only when both of its answers were read: an unreadable answer
    # is flagged unparseable, not taken for a change of mind.
    pairs = [
        (first, second)
        for first, second in (
            (legs.direct, legs.permuted_direct),
            (legs.reverse, legs.permuted_reverse),
        )
        if second is not None and not _failed(first) and not _failed(second)
    ]
    order = (
        max(order_inconsistency(first.labels, second.labels) for first, second in pairs)
        if pairs
        else None
    )
    if _failed(legs.permuted_direct):
        _add(flags, Flag.UNPARSEABLE_DIRECT)
    if _failed(legs.permuted_reverse):
        _add(flags, Flag.UNPARSEABLE_REVERSE)
    if order is not None and order > threshold:
        _add(flags, Flag.ORDER_SENSITIVE)
    if legs.echoed:
        _add(flags, Flag.ECHOED_PROMPT)
    known = [leg.confidence for leg in (legs.direct, legs.reverse) if leg.confidence is not None]
    confidence = min(known) if known else None
    if "confidence" in checks and confidence is not None and confidence < min_confidence:
        _add(flags, Flag.LOW_CONFIDENCE)
    correct = base.correct
    if policy == "strict":
        keep = set(correct)
        if legs.permuted_direct is not None:
            keep &= set(legs.permuted_direct.labels)
        if legs.permuted_reverse is not None:
            keep -= set(legs.permuted_reverse.labels)
        correct = tuple(label for label in labels if label in keep)
        if not correct:
            _add(flags, Flag.EMPTY_VERDICT)
    consistent = (
        base.consistent
        and not any(_failed(leg) for leg in legs.permuted)
        and (order is None or order <= threshold)
    )
    scores = Scores(prin=base.prin_score, order_inconsistency=order, confidence=confidence)
    return Assessment(correct, base.reverse_implied, scores, consistent, tuple(flags))


@dataclass(frozen=True, slots=True)
class MemberResult:
    """One member's part in a panel verdict: its legs and assessment, or why it has none."""

    judge: str
    legs: MemberLegs | None
    assessment: Assessment | None
    reason: str | None = None


def _abstention(result: MemberResult) -> str | None:
    if result.legs is None or result.assessment is None:
        return result.reason or "no answer"
    if _failed(result.legs.direct):
        return "the direct answer could not be read"
    if _failed(result.legs.reverse):
        return "the reverse answer could not be read"
    return None


def _mean(values: Sequence[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else None


@dataclass(frozen=True, slots=True)
class PanelAssessment:
    correct: tuple[str, ...]
    scores: Scores
    consistent: bool
    flags: tuple[Flag, ...]
    members: tuple[Member, ...]


_CARRIED = (
    Flag.UNPARSEABLE_DIRECT,
    Flag.UNPARSEABLE_REVERSE,
    Flag.POLARITY_CONFUSION,
    Flag.ECHOED_PROMPT,
)


def assess_panel(
    labels: Sequence[str],
    results: Sequence[MemberResult],
    *,
    threshold: float,
    checks: Sequence[str],
    min_confidence: float,
) -> PanelAssessment:
    """A panel's verdict on one item from each member's legs and assessment."""
    members: list[Member] = []
    votes: list[tuple[str, ...] | None] = []
    voting: list[Assessment] = []
    flags: list[Flag] = []
    for result in results:
        reason = _abstention(result)
        legs, assessment = result.legs, result.assessment
        if reason is None and assessment is not None:
            votes.append(assessment.correct)
            voting.append(assessment)
        else:
            votes.append(None)
        if assessment is not None:
            for flag in assessment.flags:
                if flag in _CARRIED:
                    _add(flags, flag)
        members.append(
            Member(
                judge=result.judge,
                direct=legs.direct if legs else None,
                reverse=legs.reverse if legs else None,
                permuted=legs.permuted if legs else (),
                correct=assessment.correct if assessment and reason is None else (),
                scores=assessment.scores if assessment else Scores(),
                abstained=reason is not None,
                reason=reason,
            )
        )
    correct, split = panel_majority(labels, votes)
    confidences = [a.scores.confidence for a in voting if a.scores.confidence is not None]
    scores = Scores(
        prin=_mean([a.scores.prin for a in voting]),
        order_inconsistency=_mean([a.scores.order_inconsistency for a in voting]),
        panel_agreement=fleiss_agreement(labels, votes),
        confidence=min(confidences) if confidences else None,
    )
    if scores.prin is not None and scores.prin > threshold:
        _add(flags, Flag.INCONSISTENT)
    if scores.order_inconsistency is not None and scores.order_inconsistency > threshold:
        _add(flags, Flag.ORDER_SENSITIVE)
    low = scores.confidence is not None and scores.confidence < min_confidence
    if "confidence" in checks and low:
        _add(flags, Flag.LOW_CONFIDENCE)
    if any(member.abstained for member in members):
        _add(flags, Flag.PANEL_ABSTENTION)
    if split:
        _add(flags, Flag.PANEL_SPLIT)
    if not correct:
        _add(flags, Flag.EMPTY_VERDICT)
    consistent = (
        not split
        and len(voting) == len(results)
        and all(assessment.consistent for assessment in voting)
    )
    return PanelAssessment(correct, scores, consistent, tuple(flags), tuple(members))
