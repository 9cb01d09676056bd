"""Acceptance and escalation: a calibrated rule decides each verdict, and a verdict not
accepted is asked again of the next, stronger tier.

The rule of tier ``t`` decides the verdict of tier ``t``'s judge (or panel); the first
tier that accepts decides the item. A verdict that no tier accepts is the last tier's
verdict, flagged ``not_accepted`` (and, in a cascade of two tiers or more,
``abstained``: send it for human review). The verdict's ``judge_calls``, ``usage`` and
``cached`` cover every tier asked; ``decision`` says which tier decided and how many were
asked. The guarantee of the acceptance file (docs/calibration.md) is about exactly this
procedure: the tiers in their order, the same options, each tier asked only when the
previous one did not accept.
"""

from __future__ import annotations

from collections.abc import Sequence

from prin_guard._acceptance import Acceptance
from prin_guard._judging import VerdictEngine
from prin_guard._models import Flag, Item, Verdict

__all__ = ["escalate"]


async def escalate(
    item: Item, first: Verdict, engines: Sequence[VerdictEngine], acceptance: Acceptance
) -> Verdict:
    """Decide ``first`` (tier 0's verdict) and escalate it while no tier accepts."""
    verdict = first
    calls, usage, cached = 0, first.usage, True
    for tier, engine in enumerate(engines):
        if tier > 0:
            plans = engine.plan(item)
            prefetched = await engine.prefetch([plan.key for plan in plans])
            verdict = await engine.verdict(item, plans, prefetched)
            usage = usage + verdict.usage
        calls += verdict.judge_calls
        cached = cached and verdict.cached
        decision = acceptance.decide(verdict, tier)
        if decision.accepted:
            break
    flags = verdict.flags
    if not decision.accepted:
        flags = (*flags, Flag.NOT_ACCEPTED)
        if len(engines) > 1:
            flags = (*flags, Flag.ABSTAINED)
    return verdict.model_copy(
        update={
            "decision": decision,
            "flags": flags,
            "judge_calls": calls,
            "usage": usage,
            "cached": cached,
        }
    )
