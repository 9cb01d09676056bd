"""The guard: both questions about each item, reconciled into a verdict.

:class:`Guard` plans the legs of a verdict (the direct and the reverse question,
and the follow-up rounds of a probe), asks them through its
:class:`~prin_guard.JudgeCaller` (the call layer: cache, single flight, retries,
the limit on calls in flight) and reconciles the answers with the pure
functions of ``_reconcile``. It makes no judge call of its own.

One async core. ``Guard.check`` and ``Guard.check_many`` drive it on a private
event loop kept by the guard (so judges and caches that hold loop-bound
connections keep working across calls) and refuse to run inside a running
loop, where they would block it: use ``acheck`` there.
"""

from __future__ import annotations

import asyncio
import enum
import json
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from prin_guard._calls import Call, JudgeCaller
from prin_guard._events import log
from prin_guard._exceptions import (
    InconsistentVerdictError,
    JudgeError,
    UsageError,
)
from prin_guard._models import (
    Flag,
    Item,
    Leg,
    Message,
    ParseStatus,
    Polarity,
    ProbeRound,
    Usage,
    Verdict,
    VerdictError,
)
from prin_guard._options import GuardOptions
from prin_guard._parsing import detect_polarity_confusion, parse_reply
from prin_guard._prompts import Mitigation, Template, build_messages, get_template
from prin_guard._reconcile import Policy, reconcile
from prin_guard._retry import CallLimit, Retry
from prin_guard._stream import LoopDriver, invalid_verdict, stream_verdicts
from prin_guard._tracing import record_verdict, span
from prin_guard.cache import Cache
from prin_guard.followup import Probe, run_rounds
from prin_guard.judges import Judge

__all__ = ["Guard"]

T = TypeVar("T")


class _Unset(enum.Enum):
    UNSET = "unset"


_UNSET: Any = _Unset.UNSET
_DEFAULTS = GuardOptions()


@dataclass(frozen=True, slots=True)
class _LegPlan:
    polarity: Polarity
    messages: list[Message]
    key: str


class Guard:
    """Ask a judge both questions about each item and reconcile the answers.

    ``judge`` is a :class:`~prin_guard.judges.Judge`, a plain function
    ``fn(prompt) -> str`` (sync or async), or a :class:`~prin_guard.JudgeCaller`
    to share one cache, single flight and call limit among several guards.

    How to ask and decide is a :class:`~prin_guard.GuardOptions`, given as
    ``options=`` or as keywords (not both): ``template`` is ``v0`` (the paper's
    wording) to ``v4``; ``mitigations`` any of ``cot`` and ``neg_exp``;
    ``threshold`` the largest PRIN still called consistent; ``policy`` the
    reported set (``synergy``: what both legs agree on, ``direct`` or
    ``reverse``); ``max_chars`` bounds every text field of an item and ``max_candidates`` its
    candidates;
    ``on_inconsistent="raise"`` raises :class:`~prin_guard.InconsistentVerdictError`
    instead of flagging; ``probe`` (``"closed"``, ``"open"``, ``"leading"``,
    ``"progressive"``, or a :class:`~prin_guard.probe.Probe` for the Python API
    only) asks each leg again after its answer ("Are you sure?") and flags the
    verdict ``vacillating`` when the judge changes its answer; the verdict itself
    stays the judge's first answer.

    How to call the judge, unless ``judge`` is a JudgeCaller already: ``cache``
    (default: an in-memory LRU; ``None`` turns caching off), ``concurrency``
    (judge calls in flight, default 8) or a shared ``limit``, and ``retry``.

    Everything that feeds cache keys (judge, template, mitigations) is read-only
    after construction.
    """

    def __init__(
        self,
        judge: Judge | JudgeCaller | Callable[[str], Any],
        *,
        options: GuardOptions | None = None,
        template: str | Template = "v0",
        mitigations: Iterable[str | Mitigation] = (),
        threshold: float = 0.0,
        policy: Policy = "synergy",
        on_inconsistent: Literal["flag", "raise"] = "flag",
        max_chars: int = 32_000,
        max_candidates: int = 64,
        probe: str | Probe | None = None,
        cache: Cache | Literal["memory"] | None = _UNSET,
        concurrency: int | None = None,
        retry: Retry | None = None,
        limit: CallLimit | None = None,
    ) -> None:
        custom_template = template if isinstance(template, Template) else None
        custom_probe = probe if isinstance(probe, Probe) else None
        keywords = {
            "template": "v0" if custom_template is not None else template,
            "mitigations": tuple(mitigations) if not isinstance(mitigations, str) else mitigations,
            "threshold": threshold,
            "policy": policy,
            "on_inconsistent": on_inconsistent,
            "max_chars": max_chars,
            "max_candidates": max_candidates,
            "probe": None if custom_probe is not None else probe,
        }
        if options is not None:
            if not isinstance(options, GuardOptions):
                raise UsageError(f"options: expected GuardOptions, got {type(options).__name__}")
            given = GuardOptions.of(**keywords)
            if given != _DEFAULTS or custom_template is not None or custom_probe is not None:
                raise UsageError(
                    "options: pass the guard's options either as options=GuardOptions(...) "
                    "or as keywords, not both"
                )
            self._options = options
        else:
            self._options = GuardOptions.of(**keywords)
        if isinstance(judge, JudgeCaller):
            if cache is not _UNSET or concurrency is not None or retry is not None or limit:
                raise UsageError(
                    "judge: a JudgeCaller brings its own cache, concurrency, retry and limit; "
                    "set them on the JudgeCaller"
                )
            self._caller = judge
        else:
            if concurrency is not None and limit is not None:
                raise UsageError("concurrency: give concurrency or a shared limit, not both")
            self._caller = JudgeCaller(
                judge,
                cache="memory" if cache is _UNSET else cache,
                concurrency=8 if concurrency is None else concurrency,
                retry=retry,
                limit=limit,
            )
        self._template = custom_template or get_template(self._options.template)
        self._probe = self._check_probe(custom_probe or self._options.probe)
        self._scope = self._caller.scope(
            template=self._template.id,
            template_version=self._template.version,
            mitigations=[m.value for m in self._options.mitigations],
        )
        self._driver = LoopDriver()

    # -- read-only configuration -----------------------------------------------------

    @property
    def options(self) -> GuardOptions:
        """How this guard asks and decides."""
        return self._options

    @property
    def caller(self) -> JudgeCaller:
        """The call layer this guard asks its judge through."""
        return self._caller

    @property
    def judge(self) -> Judge:
        return self._caller.judge

    @property
    def cache(self) -> Cache | None:
        return self._caller.cache

    @property
    def concurrency(self) -> int:
        return self._caller.concurrency

    @property
    def retry(self) -> Retry:
        return self._caller.retry

    @property
    def template(self) -> Template:
        return self._template

    @property
    def mitigations(self) -> tuple[Mitigation, ...]:
        return self._options.mitigations

    @property
    def policy(self) -> Policy:
        return self._options.policy

    @property
    def threshold(self) -> float:
        return self._options.threshold

    @property
    def max_chars(self) -> int:
        return self._options.max_chars

    @property
    def max_candidates(self) -> int:
        return self._options.max_candidates

    @property
    def on_inconsistent(self) -> Literal["flag", "raise"]:
        return self._options.on_inconsistent

    @property
    def probe(self) -> Probe | None:
        return self._probe

    @property
    def judge_calls(self) -> int:
        """Judge calls made through this guard's caller (attempts; cache hits excluded).

        A :class:`~prin_guard.JudgeCaller` shared by several guards counts them all.
        """
        return self._caller.calls

    @staticmethod
    def _check_probe(probe: str | Probe | None) -> Probe | None:
        if probe is None:
            return None
        checked = Probe.of(probe)
        if checked.changes_first_question():
            raise UsageError(
                "probe: in the guard the first question is the verdict's own leg, so probe "
                "mitigations can only go into follow-ups: use position='follow_up' and no "
                "few-shot demonstrations (prin-guard probe measures the other placements)"
            )
        return checked

    def __repr__(self) -> str:
        return (
            f"Guard(judge={self._caller.identity!r}, template={self.template.prompt_id!r}, "
            f"mitigations={[m.value for m in self.mitigations]!r}, policy={self.policy!r})"
        )

    def messages(
        self, item: Item | Mapping[str, Any], polarity: Polarity = Polarity.DIRECT
    ) -> list[Message]:
        """The conversation this guard sends the judge for one leg of ``item``.

        For hosts that route the judge call themselves (a proxy's guardrail) and
        hand the answer back through a judge of their own.
        """
        checked = Item.coerce(item, max_chars=self.max_chars, max_candidates=self.max_candidates)
        return build_messages(checked, Polarity(polarity), self._template, self.mitigations)

    # -- the async core -----------------------------------------------------------

    async def acheck(self, item: Item | Mapping[str, Any]) -> Verdict:
        """Judge one item. Raises on bad input and on a judge that keeps failing."""
        checked = Item.coerce(item, max_chars=self.max_chars, max_candidates=self.max_candidates)
        plans = self._plan(checked)
        prefetched = await self._caller.prefetch([plan.key for plan in plans])
        verdict = await self._verdict(checked, plans, prefetched)
        self._maybe_raise([verdict])
        return verdict

    async def aask(
        self, item: Item | Mapping[str, Any], polarity: Polarity = Polarity.DIRECT
    ) -> Leg:
        """Ask one of the two questions only, cached like a verdict's leg.

        For evaluations that need single answers (self-consistency samples,
        paraphrase inconsistency); a verdict needs both legs, so use ``acheck``.
        """
        checked = Item.coerce(item, max_chars=self.max_chars, max_candidates=self.max_candidates)
        plan = next(p for p in self._plan(checked) if p.polarity is Polarity(polarity))
        prefetched = await self._caller.prefetch([plan.key])
        return await self._leg(checked, plan, prefetched)

    async def acheck_many(self, items: Iterable[Item | Mapping[str, Any]]) -> list[Verdict]:
        """Judge many items; one verdict per item, in input order.

        A bad item or a judge that keeps failing costs only that item's verdict,
        which carries ``invalid_item`` or ``judge_error``; the rest complete.
        """
        results: dict[int, Verdict] = {}
        async for index, verdict in self.astream(items):
            results[index] = verdict
        verdicts = [results[index] for index in range(len(results))]
        self._maybe_raise(verdicts)
        return verdicts

    async def astream(
        self, items: Iterable[Item | Mapping[str, Any]], *, chunk_size: int | None = None
    ) -> AsyncIterator[tuple[int, Verdict]]:
        """Yield ``(index, verdict)`` as verdicts complete, in completion order.

        Items are read lazily a chunk at a time and each chunk's cache entries are
        fetched in one round trip; no verdict is kept once yielded, so memory stays
        flat however many items there are.
        """
        async for entry in stream_verdicts(
            items,
            concurrency=self.concurrency,
            chunk_size=chunk_size,
            plan=self._checked_plan,
            prefetch=self._caller.prefetch,
            verdict=self._verdict_or_error,
            invalid=invalid_verdict,
        ):
            yield entry

    # -- the sync driver ----------------------------------------------------------

    def check(self, item: Item | Mapping[str, Any]) -> Verdict:
        """Synchronous :meth:`acheck`. Not callable inside a running event loop."""
        return self._run(self.acheck(item), "check", "acheck")

    def check_many(self, items: Iterable[Item | Mapping[str, Any]]) -> list[Verdict]:
        """Synchronous :meth:`acheck_many`. Not callable inside a running event loop."""
        return self._run(self.acheck_many(items), "check_many", "acheck_many")

    def close(self) -> None:
        """Close the private event loop the sync methods use (also done at exit)."""
        self._driver.close()

    def _run(self, coro: Coroutine[Any, Any, T], name: str, async_name: str) -> T:
        return self._driver.run(coro, f"Guard.{name}", f"guard.{async_name}")

    # -- internals ----------------------------------------------------------------

    def _checked_plan(self, raw: Any) -> tuple[Item, list[_LegPlan]]:
        item = Item.coerce(raw, max_chars=self.max_chars, max_candidates=self.max_candidates)
        return item, self._plan(item)

    def _plan(self, item: Item) -> list[_LegPlan]:
        # The key covers the guard's scope (judge, template, mitigations; serialised
        # once per guard), the item (once per item) and the polarity.
        item_part = json.dumps(
            [
                item.question,
                [[c.label, c.text, c.reasoning] for c in item.candidates],
                item.context,
            ],
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return [
            _LegPlan(
                polarity,
                build_messages(item, polarity, self._template, self.mitigations),
                self._scope.key(item_part, polarity.value),
            )
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
        ]

    async def _verdict_or_error(
        self, item: Item, plans: list[_LegPlan], prefetched: Mapping[str, str | None]
    ) -> Verdict:
        try:
            return await self._verdict(item, plans, prefetched)
        except JudgeError as exc:
            return Verdict(
                item_id=item.key,
                labels=item.labels,
                flags=(Flag.JUDGE_ERROR,),
                policy=self.policy,
                threshold=self.threshold,
                error=VerdictError(kind="judge", message=str(exc)),
            )

    async def _verdict(
        self, item: Item, plans: list[_LegPlan], prefetched: Mapping[str, str | None]
    ) -> Verdict:
        with span("prin_guard.verdict", {"prin_guard.item_id": item.key}) as current:
            started = time.perf_counter()
            outcomes = await asyncio.gather(
                *(self._read_leg(item, plan, prefetched) for plan in plans),
                return_exceptions=True,
            )
            # Both legs ran to the end (and were cached) before a failure is raised.
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
            read = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
            (direct, direct_echoed), (reverse, reverse_echoed) = read
            result = reconcile(
                item.labels,
                direct.labels,
                reverse.labels,
                direct_status=direct.parse_status,
                reverse_status=reverse.parse_status,
                polarity_confusion=direct.polarity_confusion or reverse.polarity_confusion,
                policy=self.policy,
                threshold=self.threshold,
            )
            usage = (direct.usage or Usage()) + (reverse.usage or Usage())
            # A leg that repeats its prompt was read from its own lines only; say so.
            echoed = direct_echoed or reverse_echoed
            flags = (*result.flags, Flag.ECHOED_PROMPT) if echoed else result.flags
            rounds: tuple[ProbeRound, ...] = ()
            if self.probe is not None:
                rounds = await self._follow_up(item, plans, (direct, reverse))
                for entry in rounds:
                    usage = usage + (entry.usage or Usage())
                if any(entry.changed for entry in rounds):
                    flags = (*flags, Flag.VACILLATING)
            verdict = Verdict(
                item_id=item.key,
                labels=item.labels,
                correct=result.correct,
                direct=direct,
                reverse=reverse,
                reverse_implied=result.reverse_implied,
                prin_score=result.prin_score,
                consistent=result.consistent,
                flags=flags,
                policy=self.policy,
                threshold=self.threshold,
                cached=direct.cached and reverse.cached and all(r.cached for r in rounds),
                usage=usage,
                probe=rounds,
            )
            log().info(
                "verdict",
                item_id=verdict.item_id,
                prin=round(result.prin_score, 4),
                consistent=result.consistent,
                flags=[flag.value for flag in flags],
                cached=verdict.cached,
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
            )
            record_verdict(current, verdict)
            return verdict

    async def _follow_up(
        self, item: Item, plans: Sequence[_LegPlan], legs: Sequence[Leg]
    ) -> tuple[ProbeRound, ...]:
        """Follow-up rounds on each leg that gave a readable answer; they only flag."""
        assert self.probe is not None
        jobs = [
            run_rounds(
                self._caller,
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

    async def _leg(self, item: Item, plan: _LegPlan, prefetched: Mapping[str, str | None]) -> Leg:
        leg, _ = await self._read_leg(item, plan, prefetched)
        return leg

    async def _read_leg(
        self, item: Item, plan: _LegPlan, prefetched: Mapping[str, str | None]
    ) -> tuple[Leg, bool]:
        """One leg asked and read, and whether its reply repeated the prompt."""
        call = Call(plan.key, plan.messages, item.labels, item.key, plan.polarity.value)
        answer = await self._caller.answer(call, prefetched=prefetched)
        response = answer.response
        texts = [candidate.text for candidate in item.candidates]
        # Text the judge may copy from its prompt: an "Answer:" line copied from it
        # (from a candidate, the question, ...) is not the judge's answer.
        echo = [
            *(message["content"] for message in plan.messages),
            item.question,
            item.context or "",
            *texts,
            *(candidate.reasoning or "" for candidate in item.candidates),
        ]
        parsed = parse_reply(response.text, item.labels, texts, echo=echo)
        leg = Leg(
            polarity=plan.polarity,
            template=self._template.id,
            template_version=self._template.version,
            mitigations=tuple(m.value for m in self.mitigations),
            output_format=response.output_format,
            raw_text=response.text,
            labels=parsed.labels,
            parse_status=parsed.status,
            parse_method=parsed.method,
            polarity_confusion=detect_polarity_confusion(response.text, plan.polarity),
            latency_ms=answer.latency_ms,
            usage=response.usage,
            cached=answer.cached,
        )
        return leg, parsed.echoed

    def _maybe_raise(self, verdicts: Sequence[Verdict]) -> None:
        if self.on_inconsistent != "raise":
            return
        for verdict in verdicts:
            if Flag.INCONSISTENT in verdict.flags:
                raise InconsistentVerdictError(verdict)
