"""The verdict's decision, in one place: from legs to sets, scores, flags and the Verdict.

Pure functions, no I/O. The engine (``_judging``) asks the legs; everything a verdict
says about them is decided here, for one judge and for a panel alike, and the
:class:`~prin_guard.Verdict` is built here and nowhere else.

**The reverse check** (PRIN paper, section 3). With ``A`` all candidate labels, ``D``
the direct leg's labels and ``R`` the reverse leg's::

    reverse_implied = A − R
    PRIN            = 1 − F1(D, A − R)                  (equations 1 and 2)
    synergy         = D ∩ (A − R)                        (section 4.5)

Edge cases, as decided here:

- F1 of two empty sets is 1.0: a judge that calls nothing correct and everything
  incorrect is consistent (PRIN 0). F1 of an empty and a non-empty set is 0.0.
- Both legs empty (nothing correct, nothing incorrect) compares ∅ with A, so PRIN is
  1.0, as the paper says it must be penalised.
- A leg whose reply could not be parsed counts as the empty set, as the paper's span
  extraction does; the verdict carries ``unparseable_*`` flags so a caller can tell it
  from a real "none". An unparseable reverse leg so implies that *every* candidate is
  correct, and an unparseable direct leg that none is: PRIN is 0 only when the other
  leg happens to say exactly that. Such a verdict is still never ``consistent``: a leg
  without an answer cannot agree with anything (``inconsistent`` is raised only by
  PRIN above the threshold).

**The order check.** Each leg is compared with its twin asked with the candidates in a
second order: ``order_inconsistency = 1 − F1(first, second)``, the larger of the
direct and the reverse pair's. A pair is compared only when both of its answers were
read: an unreadable answer is flagged unparseable, not taken for a change of mind.

**Confidence.** The lower of the two first-order legs' own probability of its answer.

**Policy.** The reported set: ``synergy`` (above), ``direct``, ``reverse`` (A − R) or
``strict``, what every leg of every check agrees on: synergy ∩ second-order direct ∩
(A − second-order reverse).

**Panels.** Each member is decided alone; its set under the policy is its vote, and a
member that failed or left a first-order leg unreadable abstains. A candidate is
correct for the panel when more than half of *all* members vote for it, incorrect
when more than half vote against it; an abstaining member still counts in the
denominator, so an abstention never turns a minority into a majority. A candidate
with neither majority is split: not reported correct, flagged ``panel_split``; ties
are never broken by the order the judges were given in. The panel's PRIN and order
inconsistency are the voting members' means, its confidence their lowest, its
agreement Fleiss' observed agreement P̄ over the candidates (subjects) with the
voting members as raters and correct/incorrect as categories: for a candidate with
``n`` voters of whom ``y`` vote correct, ``P = (y(y−1) + (n−y)(n−y−1)) / (n(n−1))``,
the mean over candidates (``None`` with fewer than two voters).

**Flags from scores.** One rule for a judge and a panel (:func:`score_flags`): PRIN above
the threshold is ``inconsistent``, order inconsistency above it ``order_sensitive``,
and with the ``confidence`` check a confidence under ``min_confidence`` is
``low_confidence``. A verdict's flags are always listed in :class:`Flag`'s order.

**Signals.** :data:`SIGNALS` is the one registry of the numbers a verdict carries that
predict its errors: name, which end is riskier, how it is read from the verdict's
scores. Acceptance rules, ``calibrate`` and ``eval`` all read it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from prin_guard._prompting._rating import RatingItem, Scale, reconcile
from prin_guard._ranking import (
    Ranking,
    Vote,
    bradley_terry,
    consensus,
    intransitive_triples,
    kendall_distance,
    kendall_tau_b,
    mean_places,
    position_bias,
)
from prin_guard._review import (
    Movement,
    ReviewForm,
    ScoreField,
    coherence,
    rebuttal_movement,
    reconcile_decision,
)
from prin_guard._route._options import GuardOptions
from prin_guard._route._usage import Answered, answers_of, premium, split, verdict_answers
from prin_guard.errors import JudgeError
from prin_guard.models import (
    SECOND_ORDER_CHECKS,
    STATUS_WORDS,
    CandidateStatus,
    CandidateVerdict,
    Decision,
    Flag,
    Item,
    Leg,
    Member,
    ParseStatus,
    Polarity,
    ProbeRound,
    RankingItem,
    Review,
    ReviewRebuttal,
    Scores,
    Task,
    Tournament,
    Usage,
    Verdict,
    VerdictError,
    reply_pointer,
)
from prin_guard.reader._review import ReviewReading

__all__ = [
    "SIGNALS",
    "Answers",
    "Assessment",
    "MemberLegs",
    "Riskier",
    "Signal",
    "SignalName",
    "assess",
    "checklist_score",
    "confident_verdict",
    "could_fire",
    "decided",
    "error_verdict",
    "f1",
    "fleiss_agreement",
    "identical_pair_verdict",
    "make_verdict",
    "order_inconsistency",
    "panel_majority",
    "prin_score",
    "ranking_verdict",
    "score_flags",
    "shared_reply",
    "signal_value",
    "synergy",
    "tournament_verdict",
]


# -- the paper's set metrics ------------------------------------------------------------


def f1(predicted: Iterable[str], reference: Iterable[str]) -> float:
    """Set F1. Symmetric; F1(∅, ∅) = 1.0."""
    a, b = set(predicted), set(reference)
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def prin_score(all_labels: Iterable[str], direct: Iterable[str], reverse: Iterable[str]) -> float:
    """PRIN = 1 − F1(direct, all − reverse). 0 is consistent, 1 is fully contradictory."""
    return 1.0 - f1(direct, set(all_labels) - set(reverse))


def synergy(all_labels: Iterable[str], direct: Iterable[str], reverse: Iterable[str]) -> set[str]:
    """The candidates both legs call correct: direct ∩ (all − reverse)."""
    return set(direct) & (set(all_labels) - set(reverse))


def order_inconsistency(first: Iterable[str], second: Iterable[str]) -> float:
    """1 − F1(first, second): 0 when the second order gave the same set."""
    return 1.0 - f1(first, second)


def panel_majority(
    labels: Sequence[str], votes: Sequence[Iterable[str] | None]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(correct, split) for a panel: ``votes`` has one entry per member, ``None`` for an
    abstaining member. Both tuples follow ``labels``' order."""
    size = len(votes)
    if size == 0:
        raise ValueError("votes: a panel needs at least one member")
    cast = [set(vote) for vote in votes if vote is not None]
    correct: list[str] = []
    split: list[str] = []
    for label in labels:
        yes = sum(label in vote for vote in cast)
        no = len(cast) - yes
        if 2 * yes > size:
            correct.append(label)
        elif 2 * no <= size:
            split.append(label)
    return tuple(correct), tuple(split)


def fleiss_agreement(labels: Sequence[str], votes: Sequence[Iterable[str] | None]) -> float | None:
    """Fleiss' observed agreement over the candidates among the voting members."""
    cast = [set(vote) for vote in votes if vote is not None]
    n = len(cast)
    if n < 2 or not labels:
        return None
    total = 0.0
    for label in labels:
        yes = sum(label in vote for vote in cast)
        no = n - yes
        total += (yes * (yes - 1) + no * (no - 1)) / (n * (n - 1))
    return total / len(labels)


# -- one judge --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MemberLegs:
    """The legs one judge answered for one item."""

    direct: Leg
    reverse: Leg
    permuted_direct: Leg | None = None
    permuted_reverse: Leg | None = None
    echoed: bool = False
    """A leg's reply repeated its prompt (only what followed it was read)."""

    @property
    def permuted(self) -> tuple[Leg, ...]:
        return tuple(leg for leg in (self.permuted_direct, self.permuted_reverse) if leg)

    @property
    def every(self) -> tuple[Leg, ...]:
        return (self.direct, self.reverse, *self.permuted)


@dataclass(frozen=True, slots=True)
class Assessment:
    """What one judge's legs say about one item."""

    correct: tuple[str, ...]
    """The judge's set under the policy (a panel member's vote)."""
    reverse_implied: tuple[str, ...]
    scores: Scores
    consistent: bool
    flags: frozenset[Flag]


def _failed(leg: Leg | None) -> bool:
    return leg is not None and leg.parse_status is ParseStatus.FAILED


def _ordered(labels: Sequence[str], found: Collection[str]) -> tuple[str, ...]:
    return tuple(label for label in labels if label in found)


_NEEDS_CHECK: dict[Flag, frozenset[str]] = {
    Flag.INCONSISTENT: frozenset({"reverse"}),
    Flag.UNPARSEABLE_REVERSE: frozenset({"reverse"}),
    Flag.ORDER_SENSITIVE: SECOND_ORDER_CHECKS,
    Flag.LOW_CONFIDENCE: frozenset({"confidence"}),
}


def could_fire(flag: Flag | str, checks: Collection[str] | None) -> bool:
    """Whether a verdict that ran ``checks`` could carry ``flag`` (``None``: a verdict
    written before it recorded its checks, which could). A verdict of a confident direct
    leg alone (``reverse_legs='uncertain'``) ran no reverse check: a flag rate of
    ``inconsistent`` counts only the verdicts that could be."""
    needed = _NEEDS_CHECK.get(Flag(flag))
    return checks is None or needed is None or not needed.isdisjoint(checks)


def score_flags(scores: Scores, options: GuardOptions, task: Task = "choice") -> set[Flag]:
    """The flags a verdict's scores earn under the options' thresholds (a judge or a panel,
    of an item of ``task``)."""
    flags: set[Flag] = set()
    if scores.prin is not None and scores.prin > options.threshold:
        flags.add(Flag.INCONSISTENT)
    if scores.order_inconsistency is not None and scores.order_inconsistency > options.threshold:
        flags.add(Flag.ORDER_SENSITIVE)
    low = scores.confidence is not None and scores.confidence < options.min_confidence
    if low and "confidence" in options.checks_for(task):
        flags.add(Flag.LOW_CONFIDENCE)
    return flags


def _leg_flags(legs: MemberLegs) -> set[Flag]:
    """What the legs' readings say, whatever their answers: unreadable, confused, echoed."""
    flags: set[Flag] = set()
    if _failed(legs.direct) or _failed(legs.permuted_direct):
        flags.add(Flag.UNPARSEABLE_DIRECT)
    if _failed(legs.reverse) or _failed(legs.permuted_reverse):
        flags.add(Flag.UNPARSEABLE_REVERSE)
    if any(leg.polarity_confusion for leg in legs.every):
        flags.add(Flag.POLARITY_CONFUSION)
    if legs.echoed:
        flags.add(Flag.ECHOED_PROMPT)
    if any(leg.answer_mismatch for leg in legs.every):
        flags.add(Flag.ANSWER_MISMATCH)
    if any(leg.copied for leg in legs.every):
        flags.add(Flag.COPIED_ANSWER)
    return flags


def _said_none(labels: Sequence[str], legs: MemberLegs, policy: str, task: str) -> bool:
    """Whether the answers the policy reads say that no candidate qualifies: "none" read
    from the direct leg (not an unreadable reply), every candidate named by the reverse
    leg. An answer, not a missing one, where the task allows it: a checklist of which no
    criterion is met, a choice item with no correct option; never a pair (its "neither"
    is a tie)."""
    if task == "pairwise":
        return False
    direct_none = legs.direct.parse_status is ParseStatus.NONE
    reverse_all = not _failed(legs.reverse) and set(labels) <= set(legs.reverse.labels)
    if policy == "direct":
        return direct_none
    if policy == "reverse":
        return reverse_all
    return direct_none and reverse_all


def assess(
    labels: Sequence[str], legs: MemberLegs, options: GuardOptions, *, task: Task = "choice"
) -> Assessment:
    """One judge's decision on one item (of ``task``) from its legs."""
    policy = options.policy
    direct, reverse = set(legs.direct.labels), set(legs.reverse.labels)
    implied = set(labels) - reverse
    prin = 1.0 - f1(direct, implied)
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
    known = [leg.confidence for leg in (legs.direct, legs.reverse) if leg.confidence is not None]
    scores = Scores(
        prin=prin,
        order_inconsistency=order,
        confidence=min(known) if known else None,
        direct_confidence=legs.direct.confidence,
    )

    if policy == "direct":
        chosen = direct
    elif policy == "reverse":
        chosen = implied
    else:
        chosen = direct & implied
        if policy == "strict":
            if legs.permuted_direct is not None:
                chosen &= set(legs.permuted_direct.labels)
            if legs.permuted_reverse is not None:
                chosen -= set(legs.permuted_reverse.labels)

    scored = score_flags(scores, options, task)
    flags = _leg_flags(legs) | scored
    if not chosen and not _said_none(labels, legs, policy, task):
        flags.add(Flag.EMPTY_VERDICT)
    # An answer must not look consistent because another leg said nothing readable:
    # a score of 0 is then a coincidence, not agreement.
    consistent = not (scored & {Flag.INCONSISTENT, Flag.ORDER_SENSITIVE}) and not any(
        _failed(leg) for leg in legs.every
    )
    return Assessment(
        _ordered(labels, chosen), _ordered(labels, implied), scores, consistent, frozenset(flags)
    )


# -- what the engine hands over, and the verdict ----------------------------------------


@dataclass(frozen=True, slots=True)
class Answers:
    """What one judge (a panel member, or the only judge) answered about one item."""

    legs: MemberLegs | None
    """``None`` when the judge failed (``failure`` says why)."""
    rounds: tuple[ProbeRound, ...] = ()
    usage: Usage = field(default_factory=Usage)
    """What was paid now for these answers (unknown for a judge that failed)."""
    saved: Usage = field(default_factory=Usage)
    """What the answers served from prin-guard's cache cost when first asked."""
    answered: tuple[Answered, ...] = ()
    """Every answer's cost, for the guard's premium (``_usage``)."""
    calls: int = 0
    cached: bool = False
    failure: str | None = None
    name: str | None = None
    """The member's name in a panel."""


def _abstention(answers: Answers) -> str | None:
    if answers.legs is None:
        return answers.failure or "no answer"
    if _failed(answers.legs.direct):
        return "the direct answer could not be read"
    if _failed(answers.legs.reverse):
        return "the reverse answer could not be read"
    return None


def _mean(values: Sequence[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else None


# Flags of the members' legs that a panel's verdict carries: the members' readings.
_CARRIED = frozenset(
    {
        Flag.UNPARSEABLE_DIRECT,
        Flag.UNPARSEABLE_REVERSE,
        Flag.POLARITY_CONFUSION,
        Flag.ECHOED_PROMPT,
        Flag.ANSWER_MISMATCH,
        Flag.COPIED_ANSWER,
    }
)


def _flag_tuple(flags: Iterable[Flag]) -> tuple[Flag, ...]:
    present = set(flags)
    return tuple(flag for flag in Flag if flag in present)


def _task_view(
    item: Item,
    correct: Sequence[str],
    contradicted: Collection[str],
    unread: Collection[str] = (),
) -> dict[str, Any]:
    """What a verdict says in its task's terms: each candidate by label and text with its
    side, a pairwise winner or tie, a checklist's weighted score."""
    positive, negative = STATUS_WORDS[item.task]
    chosen = set(correct)

    def status(label: str | None) -> CandidateStatus:
        if label in unread:
            return "unread"
        if label in contradicted:
            return "contradicted"
        return positive if label in chosen else negative

    candidates = tuple(
        CandidateVerdict(label=c.label or "", text=c.text, status=status(c.label), weight=c.weight)
        for c in item.candidates
    )
    view: dict[str, Any] = {"candidates": candidates}
    if item.task == "pairwise":
        view["tie"] = len(chosen) == len(item.candidates)
        view["winner"] = next(iter(chosen)) if len(chosen) == 1 else None
    if item.task == "checklist":
        view["score"] = checklist_score(item, chosen)
    return view


def checklist_score(item: Item, met: Collection[str]) -> float:
    """The weighted share of ``item``'s candidates in ``met``, 0 to 1.

    Weights are finite and positive (the item checks them), yet their sum may not be:
    two weights of 1e308 add up to infinity, and 1e308 / inf is 0 where 0.5 is right.
    So each weight is first divided by the largest (each share is then at most 1, the
    sum at most the number of candidates) and the shares are added exactly
    (``math.fsum``): the score of any valid weights is a finite number.
    """
    weights = {c.label: 1.0 if c.weight is None else c.weight for c in item.candidates}
    largest = max(weights.values())
    shares = {label: weight / largest for label, weight in weights.items()}
    total = math.fsum(shares.values())
    return math.fsum(shares[label] for label in met if label in shares) / total


def _contradicted(labels: Sequence[str], legs: MemberLegs) -> set[str]:
    """Candidates named in both answers or in neither (an unreadable answer names none)."""
    direct, reverse = set(legs.direct.labels), set(legs.reverse.labels)
    return {label for label in labels if (label in direct) == (label in reverse)}


def _unread(labels: Sequence[str], correct: Sequence[str], legs: MemberLegs) -> set[str]:
    """Candidates the verdict cannot place because a leg of the two was not read: every one
    outside the verdict's set when the direct or the reverse leg failed (named in neither
    answer, they are not contradicted: one answer is missing)."""
    if not (_failed(legs.direct) or _failed(legs.reverse)):
        return set()
    return set(labels) - set(correct)


def make_verdict(
    item: Item, answers: Sequence[Answers], options: GuardOptions, *, panel: bool
) -> Verdict:
    """The verdict of one judge (``panel=False``, one entry) or a panel (one per member).

    A single judge's ``answers[0]`` must have legs (a failed judge is an error verdict,
    :func:`error_verdict`); a panel's members may have failed, as long as one answered.
    """
    labels = item.labels
    rounds = tuple(entry for member in answers for entry in member.rounds)
    usage, saved, calls, cached = Usage.zero(), Usage.zero(), 0, True
    for member in answers:
        usage, saved = usage + member.usage, saved + member.saved
        calls += member.calls
        cached = cached and member.legs is not None and member.cached
    answered = [entry for member in answers for entry in member.answered]
    guard_premium = None if any(m.legs is None for m in answers) else premium(answered)
    common: dict[str, Any] = {
        "item_id": item.key,
        "task": item.task,
        "labels": labels,
        "policy": options.policy,
        "threshold": options.threshold,
        "checks": options.checks_for(item.task),
        "judge_calls": calls,
        "cached": cached,
        "usage": usage,
        "saved_usage": saved,
        "premium": guard_premium,
        "probe": rounds,
    }
    vacillating = {Flag.VACILLATING} if any(entry.changed for entry in rounds) else set()
    if not panel:
        (only,) = answers
        if only.legs is None:
            raise ValueError("answers: a single judge's verdict needs its legs")
        result = assess(labels, only.legs, options, task=item.task)
        return Verdict(
            **_task_view(
                item,
                result.correct,
                _contradicted(labels, only.legs),
                _unread(labels, result.correct, only.legs),
            ),
            correct=result.correct,
            direct=only.legs.direct,
            reverse=only.legs.reverse,
            reverse_implied=result.reverse_implied,
            consistent=result.consistent,
            flags=_flag_tuple(result.flags | vacillating),
            scores=result.scores,
            permuted=only.legs.permuted,
            **common,
        )

    members: list[Member] = []
    votes: list[tuple[str, ...] | None] = []
    voting: list[Assessment] = []
    flags: set[Flag] = set(vacillating)
    for member in answers:
        legs = member.legs
        decided_alone = assess(labels, legs, options, task=item.task) if legs else None
        reason = _abstention(member)
        if reason is None and decided_alone is not None:
            votes.append(decided_alone.correct)
            voting.append(decided_alone)
        else:
            votes.append(None)
        if decided_alone is not None:
            flags |= decided_alone.flags & _CARRIED
        members.append(
            Member(
                judge=member.name or "judge",
                direct=legs.direct if legs else None,
                reverse=legs.reverse if legs else None,
                permuted=legs.permuted if legs else (),
                correct=decided_alone.correct if decided_alone and reason is None else (),
                scores=decided_alone.scores if decided_alone is not None else Scores(),
                abstained=reason is not None,
                reason=reason,
            )
        )
    correct, split = panel_majority(labels, votes)
    confidences = [a.scores.confidence for a in voting if a.scores.confidence is not None]
    directs = [a.scores.direct_confidence for a in voting]
    scores = Scores(
        prin=_mean([a.scores.prin for a in voting]),
        order_inconsistency=_mean([a.scores.order_inconsistency for a in voting]),
        panel_agreement=fleiss_agreement(labels, votes),
        confidence=min(confidences) if confidences else None,
        direct_confidence=None
        if not directs or None in directs
        else min(d for d in directs if d is not None),
    )
    flags |= score_flags(scores, options, item.task)
    if len(voting) < len(answers):
        flags.add(Flag.PANEL_ABSTENTION)
    if split:
        flags.add(Flag.PANEL_SPLIT)
    # empty is an answer when a majority said "none" and meant it: no split, and every
    # voter with an empty set said none (its own set is not empty for want of agreement)
    empty_votes = [a for a in voting if not a.correct]
    if not correct and (
        item.task == "pairwise" or split or any(Flag.EMPTY_VERDICT in a.flags for a in empty_votes)
    ):
        flags.add(Flag.EMPTY_VERDICT)
    consistent = not split and len(voting) == len(answers) and all(a.consistent for a in voting)
    return Verdict(
        **_task_view(item, correct, split),
        correct=correct,
        consistent=consistent,
        flags=_flag_tuple(flags),
        scores=scores,
        members=tuple(members),
        **common,
    )


def identical_pair_verdict(item: Item, options: GuardOptions, *, panel: bool) -> Verdict:
    """The verdict of a pair of identical responses: a tie, by construction.

    No judge is asked: whatever it answered, the right verdict is a tie (and a reader
    could not tell the two responses apart by their text), so asking would cost calls
    for nothing. The verdict is as certain as a verdict gets: every consistency score
    the guard's checks produce is at its best (PRIN 0, the swap's order inconsistency 0,
    a panel's agreement 1), so an acceptance rule on them accepts it; ``confidence`` is
    the judge's own probability, and no judge spoke (``None``).
    """
    labels = item.labels
    scores = Scores(
        prin=0.0,
        order_inconsistency=0.0 if options.second_order(item.task) else None,
        panel_agreement=1.0 if panel else None,
    )
    return Verdict(
        item_id=item.key,
        task=item.task,
        labels=labels,
        correct=labels,
        reverse_implied=labels,
        **_task_view(item, labels, ()),
        consistent=True,
        policy=options.policy,
        threshold=options.threshold,
        checks=options.checks_for(item.task),
        scores=scores,
    )


def confident_verdict(item: Item, answers: Answers, options: GuardOptions) -> Verdict:
    """The verdict of a confident direct leg alone (``reverse_legs='uncertain'``): its
    answer is the verdict's set, whatever the policy (no other answer to reconcile with);
    only the flags its own reading can raise; no reverse or order check ran."""
    legs = answers.legs
    if legs is None:
        raise ValueError("answers: a confident verdict needs its direct leg")
    direct = legs.direct
    labels = item.labels
    scores = Scores(confidence=direct.confidence, direct_confidence=direct.confidence)
    flags = _leg_flags(MemberLegs(direct, direct, echoed=legs.echoed)) - {Flag.UNPARSEABLE_REVERSE}
    flags |= score_flags(scores, options, item.task)
    correct = _ordered(labels, set(direct.labels))
    if not correct:
        flags.add(Flag.EMPTY_VERDICT)
    return Verdict(
        **_task_view(item, correct, ()),
        item_id=item.key,
        task=item.task,
        labels=labels,
        correct=correct,
        direct=direct,
        consistent=not _failed(direct),
        flags=_flag_tuple(flags),
        policy=options.policy,
        threshold=options.threshold,
        checks=tuple(c for c in options.checks_for(item.task) if c == "confidence"),
        scores=scores,
        judge_calls=answers.calls,
        cached=answers.cached,
        usage=answers.usage,
        saved_usage=answers.saved,
        premium=premium(answers.answered),
        selected="confident",
    )


def error_verdict(
    item_id: str,
    kind: Literal["judge", "input"],
    message: str,
    *,
    item: Item | RankingItem | None = None,
    field: str | None = None,
    task: Task | None = None,
    options: GuardOptions | None,
) -> Verdict:
    """The verdict of an item that has no legs: the judge failed (``item`` is known), or
    the item is invalid (of ``task``, when it says one it has). Without ``options`` (a
    host that never asked: the service's item not received), the Verdict's defaults for
    the policy, the threshold and the checks."""
    flag = Flag.JUDGE_ERROR if kind == "judge" else Flag.INVALID_ITEM
    task = item.task if item is not None else task or "choice"
    asked: dict[str, Any] = {}
    if options is not None:
        asked = {
            "policy": options.policy,
            "threshold": options.threshold,
            "checks": options.checks_for(task),
        }
    return Verdict(
        item_id=item_id,
        task=task,
        labels=item.labels if item is not None else (),
        flags=(flag,),
        error=VerdictError(kind=kind, message=message, field=field),
        **asked,
    )


def decided(
    verdict: Verdict,
    decision: Decision,
    *,
    tiers: int,
    judge_calls: int,
    usage: Usage,
    cached: bool,
    saved: Usage | None = None,
) -> Verdict:
    """``verdict`` (the deciding tier's) with the acceptance rule's decision, and the calls,
    usage and cache status summed over every tier asked.

    Not accepted: flagged ``not_accepted``, and in a cascade of two tiers or more
    ``abstained`` (no tier accepted it: send it for human review).
    """
    flags = set(verdict.flags)
    if not decision.accepted:
        flags.add(Flag.NOT_ACCEPTED)
        if tiers > 1:
            flags.add(Flag.ABSTAINED)
    return verdict.model_copy(
        update={
            "decision": decision,
            "flags": _flag_tuple(flags),
            "judge_calls": judge_calls,
            "usage": usage,
            "saved_usage": verdict.saved_usage if saved is None else saved,
            "cached": cached,
        }
    )


# -- the signals ------------------------------------------------------------------------

SignalName = Literal[
    "prin",
    "order_inconsistency",
    "inconsistency",
    "panel_agreement",
    "confidence",
    "direct_confidence",
]
Riskier = Literal["higher", "lower"]
"""Which end of a signal means a likelier wrong verdict."""


@dataclass(frozen=True, slots=True)
class Signal:
    """One number of a verdict that predicts whether it is wrong."""

    name: SignalName
    riskier: Riskier
    """``higher`` for the inconsistency scores, ``lower`` for agreement and confidence."""
    read: Callable[[Scores], float | None]
    doc: str
    said: str = ""
    """How people name it ("order inconsistency"); its name when empty."""
    at_best: str = ""
    """How people say a verdict at its best value ("order-consistent")."""

    @property
    def higher_is_better(self) -> bool:
        return self.riskier == "lower"

    @property
    def op(self) -> str:
        """How an acceptance rule compares it with its threshold."""
        return ">=" if self.higher_is_better else "<="

    def words(self, threshold: float | None) -> str:
        """A rule on this signal as people read it: ``order-consistent``, ``confidence >=
        0.83``, ``order inconsistency < 1`` (the calibration grid's 0.99999999),
        ``never`` (``None``: the rule accepts nothing). The machine form (``signal op
        threshold``) is the acceptance file's."""
        name = self.said or self.name
        if threshold is None:
            return "never (accepts nothing)"
        best = 1.0 if self.higher_is_better else 0.0
        if threshold == best:
            return self.at_best or f"{name} {best:g}"
        if threshold == 1.0 - best:
            return f"any {name}"
        near = round(threshold, 2)
        if near != threshold and abs(threshold - near) < _GRID_TAIL:
            # the grid's steps next to a round value: the rule is a strict bound on it
            if self.higher_is_better and threshold > near:
                return f"{name} > {near:g}"
            if not self.higher_is_better and threshold < near:
                return f"{name} < {near:g}"
        return f"{name} {self.op} {threshold:.10g}"


_GRID_TAIL = 1e-6
# calibration's grid steps within this of a round threshold (0.99999999, 1e-08) and is
# read as a strict bound on it


def _inconsistency(scores: Scores) -> float | None:
    present = [v for v in (scores.prin, scores.order_inconsistency) if v is not None]
    return max(present) if present else None


SIGNALS: dict[str, Signal] = {
    signal.name: signal
    for signal in (
        Signal(
            "prin",
            "higher",
            lambda s: s.prin,
            "Prompt-Reverse Inconsistency, 0 consistent to 1",
            "PRIN",
            "reverse-consistent (PRIN 0)",
        ),
        Signal(
            "order_inconsistency",
            "higher",
            lambda s: s.order_inconsistency,
            "1 - F1 between the answers in two candidate orders (the order check)",
            "order inconsistency",
            "order-consistent",
        ),
        Signal(
            "inconsistency",
            "higher",
            _inconsistency,
            "the larger of prin and order_inconsistency, over those present",
            "inconsistency",
            "consistent in every check",
        ),
        Signal(
            "panel_agreement",
            "lower",
            lambda s: s.panel_agreement,
            "a panel's observed agreement over the candidates, 1 unanimous",
            "panel agreement",
            "unanimous panel",
        ),
        Signal(
            "confidence",
            "lower",
            lambda s: s.confidence,
            "the judge's own probability of its answer (the confidence check)",
            "confidence",
        ),
        Signal(
            "direct_confidence",
            "lower",
            lambda s: s.direct_confidence,
            "the judge's own probability of its direct answer (what reverse_legs='uncertain' "
            "compares with reverse_below; calibrate it on runs with policy direct)",
        ),
    )
}
"""Every signal, by name (registry order: the order ``calibrate --signal auto`` tries them)."""


def signal_value(verdict: Verdict, signal: str) -> float | None:
    """The verdict's value of ``signal``; ``None`` when it has none (or is an error, or
    a rating verdict that gives no rating: nothing there to accept)."""
    if verdict.error is not None or (verdict.task == "rating" and verdict.rating is None):
        return None
    if verdict.task == "ranking" and verdict.ranking is None:
        return None  # no ranking (a leg unread, best and worst the same): nothing to accept
    value = SIGNALS[signal].read(verdict.scores)
    return None if value is None or math.isnan(value) else float(value)


# -- a rating's verdict ----------------------------------------------------------------------


def rating_verdict(
    item_id: str,
    item: RatingItem,
    direct: Leg,
    reverse: Leg,
    permuted: Sequence[Leg],
    rounds: Sequence[ProbeRound],
    *,
    order: bool,
    probed: bool,
    calls: Sequence[tuple[Usage | None, bool]],
) -> Verdict:
    """The verdict of a rating's legs (``item_id``: the item's key): the rating reconciled
    from the direct and the mirrored score, PRIN, the rubric-order move and the probe's,
    the flags, and what the judge ``calls`` (usage, cached) cost."""
    decision = reconcile(direct.score, reverse.score, item.scale)
    moved: float | None = None
    if permuted and direct.score is not None and permuted[0].score is not None:
        moved = abs(direct.score - permuted[0].score)
    flags: list[Flag] = []
    if direct.score is None:
        flags.append(Flag.UNPARSEABLE_DIRECT)
    if reverse.score is None:
        flags.append(Flag.UNPARSEABLE_REVERSE)
    if decision.inconsistent:
        flags.append(Flag.INCONSISTENT)
    if decision.polarity_confusion:
        flags.append(Flag.POLARITY_CONFUSION)
    if moved is not None and moved > item.scale.agreement:
        flags.append(Flag.ORDER_SENSITIVE)
    if any(leg.copied for leg in (direct, reverse, *permuted)):
        flags.append(Flag.COPIED_ANSWER)
    if any(entry.changed for entry in rounds):
        flags.append(Flag.VACILLATING)
    firsts = {direct.polarity: direct.score, reverse.polarity: reverse.score}
    moves = [
        abs(entry.score - first)
        for entry in rounds
        if entry.score is not None and (first := firsts[entry.polarity]) is not None
    ]
    expected, expected_from = _expected(item, direct, reverse, decision.rating)
    paid, saved = call_costs(calls)
    return Verdict(
        item_id=item_id,
        task="rating",
        direct=direct,
        reverse=reverse,
        rating=decision.rating,
        expected_rating=expected,
        expected_from=expected_from,
        scores=Scores(
            prin=decision.prin,
            order_inconsistency=None
            if moved is None
            else moved / (item.scale.max - item.scale.min),
            probe_move=max(moves) / (item.scale.max - item.scale.min)
            if probed and moves
            else (0.0 if probed and rounds else None),
        ),
        consistent=decision.rating is not None and Flag.ORDER_SENSITIVE not in flags,
        checks=("reverse", "order") if order else ("reverse",),
        permuted=tuple(permuted),
        probe=tuple(rounds),
        flags=tuple(flags),
        judge_calls=len(calls),
        cached=all(cached for _, cached in calls),
        usage=paid,
        saved_usage=saved,
        premium=premium(answers_of((direct, reverse, *permuted), rounds, direct=(direct,))),
    )


def call_costs(calls: Sequence[tuple[Usage | None, bool]]) -> tuple[Usage, Usage]:
    """What judge ``calls`` (usage, cached) cost: the paid ones' usage, and the cached
    ones' (what the cache saved)."""
    paid = sum((usage or Usage() for usage, cached in calls if not cached), Usage.zero())
    saved = sum((usage or Usage() for usage, cached in calls if cached), Usage.zero())
    return paid, saved


def _expected(
    item: RatingItem, direct: Leg, reverse: Leg, rating: float | None
) -> tuple[float | None, Literal["logprobs", "read"] | None]:
    """The expected rating and where it came from: the legs' expected scores (the
    reverse one mirrored back), or the read rating when a leg has none; nothing without
    a rating."""
    if rating is None:
        return None, None
    if direct.expected_score is None or reverse.expected_score is None:
        return rating, "read"
    mirrored = item.scale.mirror(reverse.expected_score)
    return (direct.expected_score + mirrored) / 2, "logprobs"


def rating_panel_verdict(
    item_id: str,
    scale: Scale,
    names: Sequence[str],
    outcomes: Sequence[Verdict | BaseException],
    *,
    order: bool,
) -> Verdict:
    """A panel's rating from each member's verdict (or its judge's error, in ``names``'
    order): the median of the members' ratings, flagged ``panel_split`` when they spread
    beyond the scale's tolerance and ``panel_abstention`` when a member gave none;
    ``scores.panel_agreement`` is 1 − the spread over the scale's range, ``scores.prin``
    the members' mean. Every member's judge failed: that error, raised."""
    members: list[Member] = []
    for name, outcome in zip(names, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            if not isinstance(outcome, JudgeError):
                raise outcome
            members.append(Member(judge=name, abstained=True, reason=f"judge error: {outcome}"))
            continue
        members.append(
            Member(
                judge=name,
                direct=outcome.direct,
                reverse=outcome.reverse,
                permuted=outcome.permuted,
                scores=outcome.scores,
                rating=outcome.rating,
                abstained=outcome.rating is None,
                reason=", ".join(outcome.flags) or None,
            )
        )
    verdicts = [outcome for outcome in outcomes if isinstance(outcome, Verdict)]
    if not verdicts:  # every member's judge failed: the item's judge error
        raise next(o for o in outcomes if isinstance(o, JudgeError))
    ratings = [member.rating for member in members if member.rating is not None]
    flags: list[Flag] = []
    spread = max(ratings) - min(ratings) if ratings else None
    if spread is not None and spread > scale.agreement:
        flags.append(Flag.PANEL_SPLIT)
    if any(member.abstained for member in members):
        flags.append(Flag.PANEL_ABSTENTION)
    carried = (Flag.POLARITY_CONFUSION, Flag.ORDER_SENSITIVE, Flag.COPIED_ANSWER, Flag.VACILLATING)
    for flag in carried:
        if any(flag in verdict.flags for verdict in verdicts):
            flags.append(flag)
    rating = statistics.median(ratings) if ratings else None
    expected: float | None = None
    expected_from: Literal["logprobs", "read"] | None = None
    if rating is not None:
        rated = [verdict for verdict in verdicts if verdict.rating is not None]
        if all(verdict.expected_from == "logprobs" for verdict in rated):
            expected = statistics.median(v.expected_rating or 0.0 for v in rated)
            expected_from = "logprobs"
        else:
            expected, expected_from = rating, "read"
    prins = [v.scores.prin for v in verdicts if v.scores.prin is not None]
    moves = [
        v.scores.order_inconsistency for v in verdicts if v.scores.order_inconsistency is not None
    ]
    probed = [v.scores.probe_move for v in verdicts if v.scores.probe_move is not None]
    return Verdict(
        item_id=item_id,
        task="rating",
        rating=rating,
        expected_rating=expected,
        expected_from=expected_from,
        members=tuple(members),
        scores=Scores(
            prin=statistics.fmean(prins) if prins else None,
            order_inconsistency=statistics.fmean(moves) if moves else None,
            probe_move=max(probed) if probed else None,
            panel_agreement=None if spread is None else 1 - spread / (scale.max - scale.min),
        ),
        # as for one judge: a rating that every check let stand (a member without one,
        # or a probe that moved a score, is flagged, not inconsistent)
        consistent=rating is not None
        and Flag.PANEL_SPLIT not in flags
        and Flag.ORDER_SENSITIVE not in flags,
        checks=("reverse", "order") if order else ("reverse",),
        flags=tuple(flags),
        judge_calls=sum(verdict.judge_calls for verdict in verdicts),
        cached=bool(verdicts) and all(verdict.cached for verdict in verdicts),
        usage=sum((verdict.usage for verdict in verdicts), Usage.zero()),
        saved_usage=sum((verdict.saved_usage for verdict in verdicts), Usage.zero()),
        # as a pairwise panel's: unknown when a member's judge failed (its cost is)
        premium=None
        if len(verdicts) < len(outcomes)
        else premium(answer for verdict in verdicts for answer in verdict_answers(verdict)),
    )


def aspects_verdict(
    item_id: str,
    aspects: Sequence[str],
    verdicts: Sequence[Verdict],
    *,
    judge_calls: int,
    cached: bool,
    usage: Usage,
    saved: Usage,
) -> Verdict:
    """An item's verdict from its aspects' (in the item's order): no rating of its own,
    every aspect's flags (each once), consistent when every aspect is, PRIN their mean,
    and what the calls that rated them cost."""
    flags = list(dict.fromkeys(flag for verdict in verdicts for flag in verdict.flags))
    prins = [v.scores.prin for v in verdicts if v.scores.prin is not None]
    verdict = Verdict(
        item_id=item_id,
        task="rating",
        aspects=dict(zip(aspects, verdicts, strict=True)),
        scores=Scores(prin=statistics.fmean(prins) if prins else None),
        consistent=all(verdict.consistent for verdict in verdicts),
        checks=verdicts[0].checks,
        flags=tuple(flags),
        judge_calls=judge_calls,
        cached=cached,
        usage=usage,
        saved_usage=saved,
    )
    # the premium of every aspect's answers (:func:`verdict_answers` counts a reply shared
    # by the aspects once); unknown when an aspect's judge failed (its cost is)
    failed = any(aspect.error is not None for aspect in verdicts)
    return verdict.model_copy(
        update={"premium": None if failed else premium(verdict_answers(verdict))}
    )


# -- a ranking's verdict ------------------------------------------------------------------

_RANKING_UNCLEAN = frozenset(
    {
        Flag.UNPARSEABLE_DIRECT,
        Flag.UNPARSEABLE_REVERSE,
        Flag.INCONSISTENT,
        Flag.POLARITY_CONFUSION,
        Flag.ORDER_SENSITIVE,
        Flag.BEST_IS_WORST,
        Flag.POSITION_BIAS,
    }
)


def _plurality(picks: Sequence[str]) -> str | None:
    """The label picked most often, ``None`` when none was picked or two share the most."""
    counts: dict[str, int] = {}
    for pick in picks:
        counts[pick] = counts.get(pick, 0) + 1
    if not counts:
        return None
    most = max(counts.values())
    leaders = [label for label, count in counts.items() if count == most]
    return leaders[0] if len(leaders) == 1 else None


def _leg_ranking(leg: Leg) -> Ranking | None:
    """A ranking leg's ranking, best first (the reverse leg's read worst first, reversed)."""
    if leg.ranking is None:
        return None
    return leg.ranking if leg.polarity is Polarity.DIRECT else tuple(reversed(leg.ranking))


def _joined(rankings: Sequence[Ranking]) -> Ranking:
    """One ranking of several (the Kemeny consensus), or the one."""
    if len(rankings) == 1:
        return rankings[0]
    return consensus([Vote(ranking) for ranking in rankings]).ranking


def _orders_agreement(groups: Sequence[Sequence[Ranking]]) -> tuple[float | None, float | None]:
    """The mean Kendall's tau-b and the mean normalised Kendall distance between two
    rankings of one group (one leg's orders), over every such pair; ``None`` without one."""
    taus: list[float] = []
    distances: list[float] = []
    for rankings in groups:
        for later in range(1, len(rankings)):
            for earlier in range(later):
                tau = kendall_tau_b(rankings[earlier], rankings[later])
                if tau is not None:
                    taus.append(tau)
                distances.append(kendall_distance(rankings[earlier], rankings[later]))
    return (
        statistics.fmean(taus) if taus else None,
        statistics.fmean(distances) if distances else None,
    )


def ranking_verdict(
    item: RankingItem,
    direct: Sequence[Leg],
    reverse: Sequence[Leg],
    *,
    mode: Literal["full", "best"],
    tolerance: float,
    checks: tuple[str, ...],
    calls: Sequence[tuple[Usage | None, bool]],
) -> Verdict:
    """The verdict of a ranking's legs: ``direct`` and ``reverse`` hold each leg as asked
    in each order (the first order first; the reverse may be asked in fewer, with the swap
    check), each with its ``ranking`` read (``full``: the reverse leg's worst first) or
    its pick in ``labels`` (``best``: the best, and on the reverse leg the worst).

    ``full``: the ranking is the Kemeny consensus of every readable leg of every order
    (a reverse leg's ranking reversed first); ``scores.prin`` is the normalised Kendall
    distance between the direct legs' ranking and the reverse legs' (each joined over the
    orders), ``scores.legs_tau`` their Kendall's tau-b; ``inconsistent`` above
    ``tolerance``, ``polarity_confusion`` when the reverse ranking is the direct one (the
    distance at least 1 - ``tolerance``: the reverse leg ranked best first),
    ``best_is_worst`` when a response the direct leg ranks first the reverse leg ranks
    last. Over several orders: ``scores.orders_tau`` and ``order_inconsistency`` (the
    mean tau-b and distance between two orders' rankings of one leg; ``order_sensitive``
    above ``tolerance``) and ``scores.position_bias`` (flagged ``position_bias``).

    ``best``: the best is the direct legs' most frequent pick, the worst the reverse
    legs'; the same response for both is ``best_is_worst`` and ``inconsistent`` (PRIN 1,
    else 0), and the verdict then has no ranking; ``order_inconsistency`` is the share of
    orders that picked other than the most frequent pick (the larger leg's).
    """
    flags: set[Flag] = set()
    if any(leg.parse_status is ParseStatus.FAILED for leg in direct):
        flags.add(Flag.UNPARSEABLE_DIRECT)
    if any(leg.parse_status is ParseStatus.FAILED for leg in reverse):
        flags.add(Flag.UNPARSEABLE_REVERSE)
    if any(leg.copied for leg in (*direct, *reverse)):
        flags.add(Flag.COPIED_ANSWER)
    prin: float | None = None
    legs_tau: float | None = None
    orders_tau: float | None = None
    moved: float | None = None
    bias: float | None = None
    ranking: Ranking | None = None
    best: str | None = None
    worst: str | None = None
    if mode == "full":
        by_leg = [
            [r for leg in legs if (r := _leg_ranking(leg)) is not None]
            for legs in (direct, reverse)
        ]
        read = [r for rankings in by_leg for r in rankings]
        if read:
            ranking = _joined(read)
        if all(by_leg):
            ours, theirs = (_joined(rankings) for rankings in by_leg)
            prin = kendall_distance(ours, theirs)
            legs_tau = kendall_tau_b(ours, theirs)
            if prin > tolerance:
                flags.add(Flag.INCONSISTENT)
            if prin > 0.5 and prin >= 1 - tolerance:  # the reverse leg listed best first
                flags.add(Flag.POLARITY_CONFUSION)
            if len(ours) > 1 and len(theirs) > 1 and set(ours[0]) & set(theirs[-1]):
                flags.add(Flag.BEST_IS_WORST)
        orders_tau, moved = _orders_agreement(by_leg)
        shown = [
            (leg.order or item.labels, r)
            for leg in (*direct, *reverse)
            if (r := _leg_ranking(leg)) is not None
        ]
        if len({order for order, _ in shown}) > 1:
            found = position_bias([order for order, _ in shown], [r for _, r in shown])
            bias = found.correlation
            if found.flagged:
                flags.add(Flag.POSITION_BIAS)
        if ranking is not None:
            best = ranking[0][0] if len(ranking[0]) == 1 else None
            worst = ranking[-1][0] if len(ranking[-1]) == 1 and len(ranking) > 1 else None
    else:
        picks = [[leg.labels[0] for leg in legs if leg.labels] for legs in (direct, reverse)]
        best, worst = (_plurality(one) for one in picks)
        shares = [1 - max(map(one.count, one)) / len(one) for one in picks if len(one) > 1]
        moved = max(shares) if shares else None
        if best is not None and worst is not None:
            prin = 1.0 if best == worst else 0.0
            if best == worst:
                flags.update((Flag.BEST_IS_WORST, Flag.INCONSISTENT))
                best = worst = None
            else:
                middle = tuple(label for label in item.labels if label not in (best, worst))
                ranking = ((best,), *((middle,) if middle else ()), (worst,))
    if moved is not None and moved > tolerance:
        flags.add(Flag.ORDER_SENSITIVE)
    positions = (
        {label: place + 1 for label, place in mean_places(ranking).items()}
        if ranking is not None
        else {}
    )
    firsts = [*direct[:1], *reverse[:1]]
    # the other orders' legs, each order's direct leg then its reverse one
    permuted = [
        legs[order]
        for order in range(1, max(len(direct), len(reverse)))
        for legs in (direct, reverse)
        if order < len(legs)
    ]
    paid, saved = call_costs(calls)
    return Verdict(
        item_id=item.key,
        task="ranking",
        labels=item.labels,
        direct=direct[0] if direct else None,
        reverse=reverse[0] if reverse else None,
        ranking=ranking,
        best=best,
        worst=worst,
        positions=positions,
        scores=Scores(
            prin=prin,
            legs_tau=legs_tau,
            orders_tau=orders_tau,
            order_inconsistency=moved,
            position_bias=bias,
        ),
        consistent=ranking is not None and not flags & _RANKING_UNCLEAN,
        threshold=tolerance,
        checks=checks,
        permuted=tuple(permuted),
        flags=_flag_tuple(flags),
        judge_calls=len(calls),
        cached=all(cached for _, cached in calls),
        usage=paid,
        saved_usage=saved,
        premium=premium(answers_of([*firsts, *permuted], direct=firsts[:1])),
    )


def _pair_score(verdict: Verdict) -> float:
    """A pairwise verdict as a tournament's outcome for its first response: 1 its winner,
    0 the other's, 0.5 a tie or no winner (the legs disagree, a leg unread, no verdict)."""
    if verdict.winner is None:
        return 0.5
    return 1.0 if verdict.winner == verdict.labels[0] else 0.0


def tournament_verdict(verdict: Verdict, pairs: Sequence[tuple[str, str, Verdict]]) -> Verdict:
    """A ranking's ``verdict`` with its pairwise tournament: ``pairs`` holds each pair of
    its responses (their labels) with the pairwise verdict on them (the first shown as
    A). The tournament's cycles flag ``intransitive``; its Bradley-Terry ranking (95%
    Wald intervals) is compared with the listwise ranking (``scores.tournament_tau``);
    the pairs' calls and cost join the verdict's."""
    outcomes = [(a, b, _pair_score(pair)) for a, b, pair in pairs]
    found = intransitive_triples(outcomes)
    fit = bradley_terry(outcomes)
    flags = set(verdict.flags)
    if found.cycles:
        flags.add(Flag.INTRANSITIVE)
    tau = None if verdict.ranking is None else kendall_tau_b(fit.ranking, verdict.ranking)
    answers = verdict_answers(verdict)
    for _, _, pair in pairs:
        answers += [Answered(a.usage, a.cached) for a in verdict_answers(pair)]
    paid, saved = split(answers)
    return verdict.model_copy(
        update={
            "tournament": Tournament(
                outcomes=tuple(outcomes),
                cycles=found.cycles,
                decided=found.decided,
                ranking=fit.ranking,
                strength=fit.strength,
                lower=fit.lower,
                upper=fit.upper,
                level=fit.level,
            ),
            "flags": _flag_tuple(flags),
            "scores": verdict.scores.model_copy(update={"tournament_tau": tau}),
            "consistent": verdict.consistent and not found.cycles,
            "judge_calls": verdict.judge_calls + sum(pair.judge_calls for _, _, pair in pairs),
            "cached": verdict.cached and all(pair.cached for _, _, pair in pairs),
            "usage": paid,
            "saved_usage": saved,
            "premium": premium(answers),
        }
    )


# -- a review's verdict ----------------------------------------------------------------------


def shared_reply(leg: Leg, *path: str) -> dict[str, str | None]:
    """The update that makes ``leg`` a view of a reply kept once at ``path`` in the top
    verdict (its ``raw_text`` there: ``raw_text`` none here, ``raw_text_ref`` the JSON
    Pointer to it); nothing when the leg has no reply."""
    if leg.raw_text is None:
        return {}
    return {"raw_text": None, "raw_text_ref": reply_pointer(*path, "raw_text")}


def field_scale(field: ScoreField) -> Scale:
    """A review form's score field as a rating scale (its mirror, its tolerance: the rating
    task's rules)."""
    scale = field.scale
    return Scale(scale.min, scale.max, labels=dict(scale.labels) or None, tolerance=scale.tolerance)


@dataclass(frozen=True, slots=True)
class Rebutted:
    """The rebuttal probe's round, as asked: the shipped rebuttal's name (or ``custom``),
    the round (the follow-up sent, the reply, its cost), the form read from its reply and
    the item's tolerance."""

    name: str
    round: ProbeRound
    reading: ReviewReading
    tolerance: float | None


def rebuttal_moved(
    form: ReviewForm,
    before: ReviewReading,
    after: ReviewReading,
    tolerance: float | None,
) -> Movement:
    """How far the form moved between the direct leg and the reply after the rebuttal (each
    score's tolerance its scale's, as a rating's, unless ``tolerance`` points are given)."""
    return rebuttal_movement(
        form,
        before.scores,
        after.scores,
        before.decision,
        after.decision,
        tolerances={f.name: field_scale(f).agreement for f in form.scores},
        tolerance=tolerance,
    )


def _score_leg(leg: Leg, reading: ReviewReading, name: str) -> Leg:
    """A review leg as one score's leg: the score read for ``name``, and where the reply
    is (the review's own leg of that polarity keeps it, once)."""
    score = reading.scores.get(name)
    return leg.model_copy(
        update={
            "score": None if score is None else float(score),
            "parse_status": ParseStatus.OK if score is not None else ParseStatus.FAILED,
            "parse_method": leg.parse_method if score is not None else None,
            **shared_reply(leg, leg.polarity.value),
        }
    )


def review_verdict(
    item_id: str,
    form: ReviewForm,
    paper: str,
    direct: Leg,
    reverse: Leg,
    direct_reading: ReviewReading,
    reverse_reading: ReviewReading,
    rebutted: Rebutted | None = None,
) -> Verdict:
    """The verdict of a review's two legs (``item_id``: the item's key): each score of
    ``form`` reconciled from the direct and the mirrored leg as a rating is (its own
    verdict in ``aspects``), the decision from the direct leg and the reverse question
    ("should it be rejected?"), the coherence rules on the direct leg's form, and the
    rebuttal probe's movement; the flags of all of them, and what the calls cost.

    ``reverse_reading``: the mirrored reply read with the decision field ``Reject``
    (its "Yes" the reject side)."""
    aspects: dict[str, Verdict] = {}
    for score_field in form.scores:
        scale = field_scale(score_field)
        aspects[score_field.name] = rating_verdict(
            f"{item_id}:{score_field.name}",
            RatingItem(response=paper, scale=scale),
            _score_leg(direct, direct_reading, score_field.name),
            _score_leg(reverse, reverse_reading, score_field.name),
            (),
            (),
            order=False,
            probed=False,
            calls=(),
        ).model_copy(update={"cached": direct.cached and reverse.cached})
    rejected = None if reverse_reading.decision is None else reverse_reading.decision == "reject"
    decided_both = reconcile_decision(direct_reading.decision, rejected)
    checked = coherence(
        form,
        direct_reading.scores,
        direct_reading.decision,
        [direct_reading.text, direct_reading.thought or ""],
    )
    flags: list[Flag] = []
    if not direct_reading.found or direct_reading.decision is None:
        flags.append(Flag.UNPARSEABLE_DIRECT)
    if not reverse_reading.found or reverse_reading.decision is None:
        flags.append(Flag.UNPARSEABLE_REVERSE)
    if decided_both.inconsistent:
        flags.append(Flag.INCONSISTENT)
    flags += [flag for verdict in aspects.values() for flag in verdict.flags]
    rules = tuple(Flag(name) for name in checked.flags)
    flags += rules
    rebuttal: ReviewRebuttal | None = None
    rounds: list[ProbeRound] = []
    probe_move: float | None = None
    if rebutted is not None:
        after = rebutted.reading
        movement = rebuttal_moved(form, direct_reading, after, rebutted.tolerance)
        rebuttal = ReviewRebuttal(
            follow_up=rebutted.name,
            scores={name: float(score) for name, score in after.scores.items()},
            decision=after.decision,
            moved=movement.scores,
            decision_changed=movement.decision_changed,
            swayed=movement.swayed,
            tolerance=rebutted.tolerance,
            unread=after.reason,
        )
        rounds.append(rebutted.round)
        spans = {f.name: f.scale.max - f.scale.min for f in form.scores}
        moves = [abs(delta) / spans[name] for name, delta in movement.scores.items()]
        if after.found:
            probe_move = max([*moves, 1.0 if movement.decision_changed else 0.0])
        if movement.swayed:
            flags.append(Flag.SWAYED_BY_REBUTTAL)
    prins = [v.scores.prin for v in aspects.values() if v.scores.prin is not None]
    if direct_reading.decision is not None and rejected is not None:
        prins.append(1.0 if decided_both.inconsistent else 0.0)
    answered = answers_of((direct, reverse), rounds, direct=(direct,))
    paid, saved = split(answered)
    confidence = form.confidence
    overall = aspects[form.overall.name]
    return Verdict(
        item_id=item_id,
        task="review",
        direct=direct,
        reverse=reverse,
        rating=overall.rating,
        expected_rating=overall.expected_rating,
        expected_from=overall.expected_from,
        aspects=aspects,
        scores=Scores(prin=statistics.fmean(prins) if prins else None, probe_move=probe_move),
        consistent=decided_both.decision is not None
        and all(verdict.consistent for verdict in aspects.values()),
        checks=("reverse",),
        probe=tuple(rounds),
        flags=_flag_tuple(flags),
        judge_calls=len(answered),
        cached=all(answer.cached for answer in answered),
        usage=paid,
        saved_usage=saved,
        premium=premium(answered),
        review=Review(
            form=form.id,
            form_version=form.version,
            overall=form.overall.name,
            confidence=None if confidence is None else confidence.name,
            decision=decided_both.decision,  # type: ignore[arg-type]
            decision_direct=direct_reading.decision,
            rejected=rejected,
            decision_inconsistent=decided_both.inconsistent,
            text=dict(direct_reading.text),
            thought=direct_reading.thought,
            unread=dict(direct_reading.unread)
            if direct_reading.found
            else {"form": direct_reading.reason or "unread"},
            unread_reverse=dict(reverse_reading.unread)
            if reverse_reading.found
            else {"form": reverse_reading.reason or "unread"},
            coherence=rules,
            disowning=checked.phrase,
            rebuttal=rebuttal,
        ),
    )
