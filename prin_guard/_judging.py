"""Making a verdict: every planned leg asked at once, assessed, for one judge or a panel.

:class:`VerdictEngine` is the guard's working part: it asks the legs a guard planned
(``_legs``), runs the probe's follow-ups, and turns the answers into a
:class:`~prin_guard.Verdict` with the pure assessments of ``_assess``. The guard keeps
the public API, the options and the sync driver.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prin_guard._assess import Assessment, MemberLegs, MemberResult, assess, assess_panel
from prin_guard._calls import JudgeCaller
from prin_guard._events import log
from prin_guard._exceptions import JudgeError
from prin_guard._legs import LegAsker, LegPlan
from prin_guard._models import (
    Flag,
    Item,
    Leg,
    ParseStatus,
    Polarity,
    ProbeRound,
    Usage,
    Verdict,
    VerdictError,
)
from prin_guard._options import GuardOptions
from prin_guard._tracing import record_verdict, span
from prin_guard.followup import Probe, run_rounds

__all__ = ["VerdictEngine", "judges_identity", "member_names"]


class VerdictEngine:
    """Asks and assesses the legs of a guard's verdicts."""

    def __init__(
        self,
        callers: Sequence[JudgeCaller],
        asker: LegAsker,
        options: GuardOptions,
        probe: Probe | None,
    ) -> None:
        self._callers = tuple(callers)
        self._names = member_names(self._callers) if len(self._callers) > 1 else None
        self._asker = asker
        template = asker.template
        self._scopes = [
            caller.scope(
                template=template.id,
                template_version=template.version,
                mitigations=[m.value for m in options.mitigations],
            )
            for caller in self._callers
        ]
        self._options = options
        self.policy = options.policy
        self.threshold = options.threshold
        self.probe = probe

    @property
    def names(self) -> tuple[str, ...] | None:
        return self._names

    @property
    def callers(self) -> tuple[JudgeCaller, ...]:
        return self._callers

    @property
    def identity(self) -> dict[str, Any]:
        """The judge's identity; a panel's is its members' (as eval records it)."""
        return judges_identity([caller.identity for caller in self._callers])

    def plan(self, item: Item) -> list[LegPlan]:
        """Every leg of ``item`` for every member, for the checks the options ask."""
        return self._asker.plan(item, self._scopes, order="order" in self._options.checks)

    async def prefetch(self, keys: Iterable[str]) -> dict[str, str | None]:
        wanted = list(keys)
        # one round trip per distinct cache (a panel's members usually share one)
        readers: dict[int, JudgeCaller] = {}
        for caller in self._callers:
            readers.setdefault(id(caller.cache), caller)
        found = await asyncio.gather(*(caller.prefetch(wanted) for caller in readers.values()))
        merged: dict[str, str | None] = {}
        for entries in found:
            for key, value in entries.items():
                if value is not None or key not in merged:
                    merged[key] = value
        return merged

    def failed_verdict(self, item: Item, exc: JudgeError) -> Verdict:
        return Verdict(
            item_id=item.key,
            labels=item.labels,
            flags=(Flag.JUDGE_ERROR,),
            policy=self.policy,
            threshold=self.threshold,
            checks=self._options.checks,
            error=VerdictError(kind="judge", message=str(exc)),
        )

    async def verdict(
        self, item: Item, plans: list[LegPlan], prefetched: Mapping[str, str | None]
    ) -> Verdict:
        with span("prin_guard.verdict", {"prin_guard.item_id": item.key}) as current:
            started = time.perf_counter()
            by_member: list[list[LegPlan]] = [[] for _ in self._callers]
            for plan in plans:
                by_member[plan.member].append(plan)
            outcomes = await asyncio.gather(
                *(
                    self._member(item, index, member_plans, prefetched)
                    for index, member_plans in enumerate(by_member)
                ),
                return_exceptions=True,
            )
            # Every leg ran to the end (and was cached) before a failure is raised.
            for outcome in outcomes:
                if isinstance(outcome, BaseException) and not isinstance(outcome, JudgeError):
                    raise outcome
            if self._names is None:
                if isinstance(outcomes[0], BaseException):
                    raise outcomes[0]
                verdict = self._single_verdict(item, outcomes[0])
            else:
                verdict = self._panel_verdict(item, outcomes)
            log().info(
                "verdict",
                item_id=verdict.item_id,
                prin=None if verdict.prin_score is None else round(verdict.prin_score, 4),
                consistent=verdict.consistent,
                flags=[flag.value for flag in verdict.flags],
                cached=verdict.cached,
                judge_calls=verdict.judge_calls,
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
            )
            record_verdict(current, verdict)
            return verdict

    def _assess(self, item: Item, legs: MemberLegs) -> Assessment:
        return assess(
            item.labels,
            legs,
            policy=self.policy,
            threshold=self.threshold,
            checks=self._options.checks,
            min_confidence=self._options.min_confidence,
        )

    def _single_verdict(self, item: Item, outcome: _MemberOutcome) -> Verdict:
        legs, rounds = outcome.legs, outcome.rounds
        result = self._assess(item, legs)
        flags = result.flags
        if any(entry.changed for entry in rounds):
            flags = (*flags, Flag.VACILLATING)
        return Verdict(
            item_id=item.key,
            labels=item.labels,
            correct=result.correct,
            direct=legs.direct,
            reverse=legs.reverse,
            reverse_implied=result.reverse_implied,
            prin_score=result.scores.prin,
            consistent=result.consistent,
            flags=flags,
            policy=self.policy,
            threshold=self.threshold,
            checks=self._options.checks,
            scores=result.scores,
            permuted=legs.permuted,
            judge_calls=outcome.calls,
            cached=outcome.cached,
            usage=outcome.usage,
            probe=rounds,
        )

    def _panel_verdict(self, item: Item, outcomes: Sequence[Any]) -> Verdict:
        assert self._names is not None
        failures = [outcome for outcome in outcomes if isinstance(outcome, JudgeError)]
        if len(failures) == len(outcomes):
            raise failures[0]  # nobody answered: a judge error, not a panel's verdict
        results: list[MemberResult] = []
        rounds: list[ProbeRound] = []
        usage, calls, cached = Usage(), 0, True
        for name, outcome in zip(self._names, outcomes, strict=True):
            if isinstance(outcome, JudgeError):
                results.append(MemberResult(name, None, None, f"judge error: {outcome}"))
                cached = False
                continue
            results.append(MemberResult(name, outcome.legs, self._assess(item, outcome.legs)))
            rounds += outcome.rounds
            usage, calls = usage + outcome.usage, calls + outcome.calls
            cached = cached and outcome.cached
        panel = assess_panel(
            item.labels,
            results,
            threshold=self.threshold,
            checks=self._options.checks,
            min_confidence=self._options.min_confidence,
        )
        flags = panel.flags
        if any(entry.changed for entry in rounds):
            flags = (*flags, Flag.VACILLATING)
        return Verdict(
            item_id=item.key,
            labels=item.labels,
            correct=panel.correct,
            prin_score=panel.scores.prin,
            consistent=panel.consistent,
            flags=flags,
            policy=self.policy,
            threshold=self.threshold,
            checks=self._options.checks,
            scores=panel.scores,
            members=panel.members,
            judge_calls=calls,
            cached=cached,
            usage=usage,
            probe=tuple(rounds),
        )

    async def _member(
        self,
        item: Item,
        member: int,
        plans: Sequence[LegPlan],
        prefetched: Mapping[str, str | None],
    ) -> _MemberOutcome:
        """One judge's legs of one item, all asked at once, then its follow-ups."""
        caller = self._callers[member]
        outcomes = await asyncio.gather(
            *(self._asker.read(caller, item, plan, prefetched) for plan in plans),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        read = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        by_kind = {
            (plan.polarity, plan.order is None): entry
            for plan, entry in zip(plans, read, strict=True)
        }
        direct = by_kind[(Polarity.DIRECT, True)].leg
        reverse = by_kind[(Polarity.REVERSE, True)].leg
        second_direct = by_kind.get((Polarity.DIRECT, False))
        second_reverse = by_kind.get((Polarity.REVERSE, False))
        legs = MemberLegs(
            direct,
            reverse,
            second_direct.leg if second_direct else None,
            second_reverse.leg if second_reverse else None,
            echoed=any(entry.echoed for entry in read),
        )
        rounds: tuple[ProbeRound, ...] = ()
        if self.probe is not None:
            first = [plan for plan in plans if plan.order is None]
            rounds = await self._follow_up(caller, item, first, (direct, reverse))
        usage = Usage()
        for entry in read:
            usage = usage + (entry.leg.usage or Usage())
        for probe_round in rounds:
            usage = usage + (probe_round.usage or Usage())
        return _MemberOutcome(
            legs=legs,
            rounds=rounds,
            usage=usage,
            calls=len(read) + len(rounds),
            cached=all(entry.leg.cached for entry in read) and all(r.cached for r in rounds),
        )

    async def _follow_up(
        self, caller: JudgeCaller, item: Item, plans: Sequence[LegPlan], legs: Sequence[Leg]
    ) -> tuple[ProbeRound, ...]:
        """Follow-up rounds on each leg that gave a readable answer; they only flag."""
        assert self.probe is not None
        jobs = [
            run_rounds(
                caller,
                item,
                plan.polarity,
                plan.messages,
                leg.raw_text or "",
                leg.labels,
                self.probe,
            )
            for plan, leg in zip(plans, legs, strict=True)
            if leg.parse_status is not ParseStatus.FAILED
        ]
        results = await asyncio.gather(*jobs)
        return tuple(entry for rounds in results for entry in rounds)


@dataclass(frozen=True, slots=True)
class _MemberOutcome:
    legs: MemberLegs
    rounds: tuple[ProbeRound, ...]
    usage: Usage
    calls: int
    cached: bool


def member_names(callers: Sequence[JudgeCaller]) -> tuple[str, ...]:
    """Short, unique names for a panel's members: the model, else the judge's class."""
    names: list[str] = []
    for caller in callers:
        identity = caller.identity
        base = str(identity.get("model") or identity.get("name") or type(caller.judge).__name__)
        name, n = base, 2
        while name in names:
            name, n = f"{base}#{n}", n + 1
        names.append(name)
    return tuple(names)


def judges_identity(identities: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One judge's identity, or a panel's: ``{"kind": "panel", "members": [...]}``."""
    if len(identities) == 1:
        return dict(identities[0])
    members = [dict(identity) for identity in identities]
    return {"kind": "panel", "name": f"panel-of-{len(members)}", "members": members}
