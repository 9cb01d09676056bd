"""Making a verdict: every planned leg asked at once, then decided, for one judge or a panel.

:class:`VerdictEngine` is the guard's working part: it asks the legs a guard planned
(``_legs``) through the call layer, runs the probe's follow-ups, and hands what each
judge answered to ``_decide``, which makes the :class:`~prin_guard.Verdict`.
:func:`escalate` applies a calibrated acceptance rule and asks the next tier of a
cascade about a verdict the rule did not accept. The guard keeps the public API, the
options and the sync driver.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from prin_guard._infra._events import log
from prin_guard._infra._tracing import record_verdict, span
from prin_guard._prompting._prompts import Template
from prin_guard._route._decide import (
    Answers,
    MemberLegs,
    confident_verdict,
    decided,
    identical_pair_verdict,
    make_verdict,
)
from prin_guard._route._legs import (
    LegAsker,
    LegPlan,
    ReadLeg,
    prefix_route,
    scope_parts,
    shared_prefix,
)
from prin_guard._route._options import GuardOptions
from prin_guard._route._usage import answers_of, split
from prin_guard.calls import Answer, Call, JudgeCaller, KeyScope
from prin_guard.errors import JudgeError
from prin_guard.judges import Stagger
from prin_guard.models import (
    TASKS,
    Item,
    Leg,
    ParseStatus,
    Polarity,
    ProbeRound,
    Task,
    Verdict,
)

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard.probe._probe import Probe
    from prin_guard.tasks import Planned
    from prin_guard.tasks import Task as TaskKind

__all__ = ["VerdictEngine", "escalate", "judges_identity", "member_names"]


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
        # each member's key scope per template in use (one per task, usually)
        self._scopes: dict[Template, list[KeyScope]] = {}
        self._options = options
        self.probe = probe

    def _scopes_of(self, template: Template) -> list[KeyScope]:
        found = self._scopes.get(template)
        if found is None:
            parts = scope_parts(template, self._options.mitigations, self._options.prompt_layout)
            found = [caller.scope(**parts) for caller in self._callers]
            self._scopes[template] = found
        return found

    @property
    def names(self) -> tuple[str, ...] | None:
        return self._names

    @property
    def options(self) -> GuardOptions:
        return self._options

    @property
    def asker(self) -> LegAsker:
        """What plans and reads a label task's legs."""
        return self._asker

    @property
    def callers(self) -> tuple[JudgeCaller, ...]:
        return self._callers

    @property
    def identity(self) -> dict[str, Any]:
        """The judge's identity; a panel's is its members' (as eval records it)."""
        return judges_identity([caller.identity for caller in self._callers])

    def plan(self, item: Item) -> list[LegPlan]:
        """Every leg of ``item`` for every member, for the checks the options ask."""
        return self._asker.plan(item, self._scopes_of, order=self._options.second_order(item.task))

    def max_calls(self, task: Task | None = None) -> int:
        """The most judge calls one item of ``task`` can cost here (None: an item of any
        task): each member's direct and reverse legs, both again in the second order with
        the ``order`` check or the direct one with ``swap`` (each asked once more with
        ``reask``), and the probe's
        follow-up rounds after each of the first two (every one a cache miss)."""
        tasks = TASKS if task is None else (task,)
        legs = 2 + max(len(self._options.second_order(one)) for one in tasks)
        legs *= 2 if self._options.reask else 1
        rounds = 2 * len(self.probe.rounds) if self.probe is not None else 0
        return (legs + rounds) * len(self._callers)

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

    async def decide(
        self,
        task: TaskKind,
        item: Any,
        plans: Sequence[Planned],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """The route's last steps on this tier, the same for every task: ``task`` asks the
        planned legs, reads them and reconciles them into the verdict, under the verdict's
        tracing span, and the verdict's log line is written."""
        with span("prin_guard.verdict", {"prin_guard.item_id": task.key(item)}) as current:
            started = time.perf_counter()
            verdict = await task.ask(self, item, plans, prefetched)
            self._log_verdict(verdict, started)
            record_verdict(current, verdict)
            return verdict

    async def ask_labels(
        self, item: Item, plans: list[LegPlan], prefetched: Mapping[str, str | None]
    ) -> Verdict:
        """A label item's verdict from its planned legs (the label tasks' ``ask``)."""
        if item.identical_pair:  # a tie by construction: nothing to ask
            return identical_pair_verdict(item, self._options, panel=self._names is not None)
        by_member: list[list[LegPlan]] = [[] for _ in self._callers]
        for plan in plans:
            by_member[plan.member].append(plan)
        selected: Literal["uncertain", "confident", "monitored"] | None = None
        done: dict[int, ReadLeg] = {}
        if self._options.reverse_legs == "uncertain" and self._names is None:
            # the direct leg first; the others only where it is not confident enough
            selected, done = await self._direct_first(item, by_member[0], prefetched)
            if selected == "confident":
                ((index, first),) = done.items()
                only = [by_member[0][index]]
                alone = await self._member(item, 0, only, prefetched, {0: first})
                return confident_verdict(item, alone, self._options)
        outcomes = await asyncio.gather(
            *(
                self._member(item, index, member_plans, prefetched, done if index == 0 else {})
                for index, member_plans in enumerate(by_member)
            ),
            return_exceptions=True,
        )
        # Every leg ran to the end (and was cached) before a failure is raised.
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, JudgeError):
                raise outcome
        failures = [outcome for outcome in outcomes if isinstance(outcome, JudgeError)]
        if len(failures) == len(outcomes):
            raise failures[0]  # nobody answered: a judge error, not a verdict
        answers = [
            Answers(None, failure=f"judge error: {outcome}", name=self._name(index))
            if isinstance(outcome, BaseException)
            else outcome
            for index, outcome in enumerate(outcomes)
        ]
        verdict = make_verdict(item, answers, self._options, panel=self._names is not None)
        if selected is not None:
            verdict = verdict.model_copy(update={"selected": selected})
        return verdict

    def _log_verdict(self, verdict: Verdict, started: float) -> None:
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

    async def _direct_first(
        self, item: Item, plans: Sequence[LegPlan], prefetched: Mapping[str, str | None]
    ) -> tuple[Literal["uncertain", "confident", "monitored"], dict[int, ReadLeg]]:
        """Ask the direct leg alone and say which legs the verdict needs: ``confident`` (its
        confidence at or above ``reverse_below``: no other), ``monitored`` (confident, but
        drawn for monitoring) or ``uncertain`` (under it, or unknown)."""
        index = next(
            i
            for i, plan in enumerate(plans)
            if plan.polarity is Polarity.DIRECT and plan.order is None
        )
        first = await self._asker.read(self._callers[0], item, plans[index], prefetched)
        threshold = self._options.reverse_below
        confidence = first.leg.confidence
        if threshold is None or confidence is None or confidence < threshold:
            return "uncertain", {index: first}
        if monitored(item.key, self._options.monitor_share):
            return "monitored", {index: first}
        return "confident", {index: first}

    def _name(self, member: int) -> str | None:
        return None if self._names is None else self._names[member]

    async def _member(
        self,
        item: Item,
        member: int,
        plans: Sequence[LegPlan],
        prefetched: Mapping[str, str | None],
        done: Mapping[int, ReadLeg] | None = None,
    ) -> Answers:
        """One judge's legs of one item, all asked at once (but those ``done`` already, by
        their index in ``plans``), then its follow-ups."""
        caller = self._callers[member]
        done = done or {}
        asks = self._asks(caller, item, plans, prefetched, done)
        outcomes = await asyncio.gather(*asks, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        read = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        by_kind = {
            (plan.polarity, plan.order is None): entry
            for plan, entry in zip(plans, read, strict=True)
        }
        direct = by_kind[(Polarity.DIRECT, True)].leg
        if (Polarity.REVERSE, True) not in by_kind:  # a confident direct leg alone
            answered = answers_of([direct], (), direct=[direct])
            usage, saved = split(answered)
            return Answers(
                name=self._name(member),
                legs=MemberLegs(direct, direct, echoed=read[0].echoed),
                usage=usage,
                saved=saved,
                answered=tuple(answered),
                calls=1,
                cached=direct.cached,
            )
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
        answered = answers_of([entry.leg for entry in read], rounds, direct=[direct])
        usage, saved = split(answered)
        return Answers(
            name=self._name(member),
            legs=legs,
            rounds=rounds,
            usage=usage,
            saved=saved,
            answered=tuple(answered),
            calls=len(read) + len(rounds),
            cached=all(entry.leg.cached for entry in read) and all(r.cached for r in rounds),
        )

    def _asks(
        self,
        caller: JudgeCaller,
        item: Item,
        plans: Sequence[LegPlan],
        prefetched: Mapping[str, str | None],
        done: Mapping[int, ReadLeg],
    ) -> list[Coroutine[Any, Any, ReadLeg]]:
        """One judge's legs of one item, as coroutines in the plans' order: at once, or
        staggered where the judge's provider would cache the prefix they share; a leg
        already ``done`` as it is (the provider has read the prefix it shares)."""
        groups: dict[str, list[int]] = {}
        for index, plan in enumerate(plans):
            if plan.prefix is not None and not any(
                done_plan.prefix == plan.prefix for i, done_plan in enumerate(plans) if i in done
            ):
                groups.setdefault(plan.prefix.key, []).append(index)
        staggered: dict[int, Coroutine[Any, Any, ReadLeg]] = {}
        # The first group's leg goes first of all: the other groups' first legs wait for
        # it too when they share part of its prefix (the order check's: the instruction),
        # so that they read that part from the provider's cache.
        leader: asyncio.Event | None = None
        for indexes in groups.values():
            group = [plans[index] for index in indexes]
            # a group of one (the swap check's leg) only reads what another group's first
            # leg wrote: staggered behind it, or not at all
            mode = self._stagger_mode(caller, group, prefetched, behind=leader is not None)
            if mode is not None:
                assert group[0].prefix is not None
                after = leader if group[0].prefix.common or len(group) == 1 else None
                asks, began = self._staggered(caller, item, group, prefetched, mode, after)
                staggered.update(zip(indexes, asks, strict=True))
                leader = leader or began
        return [
            _done(done[index])
            if index in done
            else staggered[index]
            if index in staggered
            else self._asker.read(caller, item, plan, prefetched)
            for index, plan in enumerate(plans)
        ]

    def _stagger_mode(
        self,
        caller: JudgeCaller,
        group: Sequence[LegPlan],
        prefetched: Mapping[str, str | None],
        *,
        behind: bool = False,
    ) -> Stagger | None:
        """How to stagger ``group`` (legs sharing a prefix, the direct one first), or
        ``None``: all at once (stagger off, the first leg's answer or all the others' in
        the cache, a judge whose provider would not cache the prefix). A group of one
        leg is staggered only ``behind`` another group's first leg, whose prefix it reads."""
        lead = group[0]
        if self._options.stagger == "off" or lead.prefix is None:
            return None
        if prefetched.get(lead.key) is not None:
            return None
        if len(group) < 2:
            if not behind:
                return None
        elif all(prefetched.get(plan.key) is not None for plan in group[1:]):
            return None
        return caller.prefix_caching(lead.messages, lead.prefix)

    def _staggered(
        self,
        caller: JudgeCaller,
        item: Item,
        group: Sequence[LegPlan],
        prefetched: Mapping[str, str | None],
        mode: Stagger,
        after: asyncio.Event | None = None,
    ) -> tuple[list[Coroutine[Any, Any, ReadLeg]], asyncio.Event]:
        """The first leg asked at once (or once ``after`` is set: another group's first leg
        has begun answering), the others once it has begun answering (:func:`stagger`).
        Returns the legs' coroutines and the event that says the first has begun."""
        lead, rest = group[0], group[1:]
        assert lead.prefix is not None
        prefix = lead.prefix

        def first(started: Callable[[], None] | None) -> Awaitable[ReadLeg]:
            shared = dataclasses.replace(prefix, started=started)
            return self._asker.read(caller, item, lead, prefetched, prefix=shared)

        return stagger(
            first,
            [
                functools.partial(
                    self._asker.read, caller, item, plan, prefetched, prefix=plan.prefix
                )
                for plan in rest
            ],
            mode,
            self._options.stagger_delay,
            after,
            [(item.key, plan.polarity.value) for plan in group],
        )

    def staggered_answers(
        self,
        caller: JudgeCaller,
        calls: Sequence[Call],
        prefetched: Mapping[str, str | None] | None,
    ) -> list[Coroutine[Any, Any, Answer]]:
        """One verdict's ``calls`` of one judge (a rating's legs, the first the direct one)
        as coroutines: the others staggered behind the first (:func:`stagger`) where the
        guard staggers and the judge's provider would cache the prefix they share (each
        call marked with it, routed by the item), else all at once."""
        cached = prefetched or {}

        def ask(call: Call) -> Coroutine[Any, Any, Answer]:
            return caller.answer(call, prefetched=prefetched)

        lead = calls[0] if calls else None
        prefix = shared_prefix([call.messages for call in calls])
        mode = (
            None
            if self._options.stagger == "off"
            or lead is None
            or prefix is None
            or cached.get(lead.key) is not None
            or all(cached.get(call.key) is not None for call in calls[1:])
            else caller.prefix_caching(lead.messages, prefix)
        )
        if mode is None or lead is None or prefix is None:
            return [ask(call) for call in calls]
        shared = dataclasses.replace(prefix, route=prefix_route(lead.item_id))

        def first(started: Callable[[], None] | None) -> Awaitable[Answer]:
            return ask(
                dataclasses.replace(lead, prefix=dataclasses.replace(shared, started=started))
            )

        asks, _ = stagger(
            first,
            [
                functools.partial(ask, dataclasses.replace(call, prefix=shared))
                for call in calls[1:]
            ],
            mode,
            self._options.stagger_delay,
            None,
            [(call.item_id, call.purpose) for call in calls],
        )
        return asks

    async def _follow_up(
        self, caller: JudgeCaller, item: Item, plans: Sequence[LegPlan], legs: Sequence[Leg]
    ) -> tuple[ProbeRound, ...]:
        """Follow-up rounds on each leg that gave a readable answer; they only flag."""
        from prin_guard.probe._probe import run_rounds  # a guard without a probe never loads it

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
                template=plan.template,
                mitigations=self._options.mitigations,
            )
            for plan, leg in zip(plans, legs, strict=True)
            if leg.parse_status is not ParseStatus.FAILED
        ]
        results = await asyncio.gather(*jobs)
        return tuple(entry for rounds in results for entry in rounds)


_T = TypeVar("_T")


def stagger(
    first: Callable[[Callable[[], None] | None], Awaitable[_T]],
    rest: Sequence[Callable[[], Awaitable[_T]]],
    mode: Stagger,
    delay: float,
    after: asyncio.Event | None,
    named: Sequence[tuple[str, str]],
) -> tuple[list[Coroutine[Any, Any, _T]], asyncio.Event]:
    """One verdict's legs that share a prefix, staggered: ``first`` asked at once (or once
    ``after`` is set), given the callback that says it has begun answering (with
    ``stream``; ``None`` otherwise), the ``rest`` once it has begun (its first token with
    ``stream``, else after ``delay`` seconds) or is done, so that they read the prefix it
    wrote from the provider's cache. ``named``: each leg's item id and call, for the
    ``leg_staggered`` event. Returns the legs' coroutines and the event that says the
    first has begun. Every task's legs are staggered by it."""
    loop = asyncio.get_running_loop()
    began = asyncio.Event()

    def started() -> None:  # the judge may call it from another thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(began.set)

    streamed = mode == "stream"

    async def wait(event: asyncio.Event, name: tuple[str, str]) -> None:
        waited = time.perf_counter()
        if streamed:
            await event.wait()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), delay)
        log().debug(
            "leg_staggered",
            item_id=name[0],
            call=name[1],
            waited_ms=round((time.perf_counter() - waited) * 1000, 3),
        )

    async def lead() -> _T:
        try:
            if after is not None:
                await wait(after, named[0])
            return await first(started if streamed else None)
        finally:
            began.set()

    async def then(ask: Callable[[], Awaitable[_T]], name: tuple[str, str]) -> _T:
        await wait(began, name)
        return await ask()

    return [lead(), *(then(ask, name) for ask, name in zip(rest, named[1:], strict=True))], began


async def _done(read: ReadLeg) -> ReadLeg:
    return read


def monitored(key: str, share: float) -> bool:
    """Whether the item ``key`` is drawn for monitoring, at ``share`` of the items: a hash
    of the key, so the same item is always drawn or not (and its legs stay cached)."""
    digest = hashlib.sha256(("monitor\x00" + key).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


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


async def escalate(
    first: Verdict,
    ask: Callable[[int], Awaitable[Verdict]],
    tiers: int,
    acceptance: Acceptance,
) -> Verdict:
    """Decide ``first`` (tier 0's verdict) and ask the next tier (``ask(tier)``: that
    tier's judge's verdict on the same item) while no tier accepts.

    The rule of tier ``t`` decides the verdict of tier ``t``'s judge (or panel); the
    first tier that accepts decides the item. A verdict no tier accepts is the last
    tier's, flagged ``not_accepted`` (and ``abstained`` in a cascade). The guarantee of
    the acceptance file (docs/calibration.md) is about exactly this procedure: the
    tiers in their order, the same options, each asked only when the previous one did
    not accept. Label items and ratings go through it alike.
    """
    verdict = first
    calls, usage, saved, cached = 0, first.usage, first.saved_usage, True
    for tier in range(tiers):
        if tier > 0:
            verdict = await ask(tier)
            usage, saved = usage + verdict.usage, saved + verdict.saved_usage
        calls += verdict.judge_calls
        cached = cached and verdict.cached
        decision = acceptance.decide(verdict, tier)
        if decision.accepted:
            break
    return decided(
        verdict,
        decision,
        tiers=tiers,
        judge_calls=calls,
        usage=usage,
        cached=cached,
        saved=saved,
    )
