"""The guard engine: two legs per item, cached, retried, reconciled.

One async core. ``Guard.check`` and ``Guard.check_many`` drive it on a private
event loop kept by the guard (so judges and caches that hold loop-bound
connections keep working across calls) and refuse to run inside a running
loop, where they would block it: use ``acheck`` there.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import random
import threading
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, overload

import tenacity
from pydantic import ValidationError

from prin_guard._events import log
from prin_guard._exceptions import (
    InconsistentVerdictError,
    InvalidItemError,
    JudgeError,
    TransientJudgeError,
    UsageError,
)
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
from prin_guard._parsing import detect_polarity_confusion, parse_reply
from prin_guard._prompts import (
    Mitigation,
    Template,
    build_messages,
    get_template,
    parse_mitigations,
)
from prin_guard._reconcile import POLICIES, Policy, reconcile
from prin_guard.cache import Cache, MemoryCache, SingleFlight, cache_key
from prin_guard.cache._base import KEY_PREFIX
from prin_guard.judges._base import Judge, JudgeResponse, Message
from prin_guard.judges._function import FunctionJudge

if TYPE_CHECKING:
    from prin_guard.probe._engine import Probe

__all__ = ["Guard", "Retry", "guard"]

T = TypeVar("T")

_CACHE_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class Retry:
    """How transient judge failures are retried.

    At most ``attempts`` calls and ``max_seconds`` of waiting in all; waits grow
    exponentially from ``initial`` up to ``max_wait`` with full jitter, or follow
    the provider's Retry-After when it gives one. ``sleep`` is injectable so
    tests never wait for real.
    """

    attempts: int = 4
    max_seconds: float = 120.0
    initial: float = 0.5
    max_wait: float = 10.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def wait_after(self, attempt: int, exc: BaseException | None) -> float:
        """Seconds to wait after failed attempt number ``attempt``."""
        if isinstance(exc, TransientJudgeError) and exc.retry_after is not None:
            return min(max(exc.retry_after, 0.0), self.max_wait)
        ceiling = min(self.max_wait, self.initial * 2 ** (attempt - 1))
        return random.uniform(0, ceiling)  # noqa: S311 - jitter, not cryptography

    def retrying(self, *, first_attempt: int = 1, elapsed: float = 0.0) -> tenacity.AsyncRetrying:
        """Attempts ``first_attempt`` .. ``attempts``, within what is left of ``max_seconds``."""
        offset = first_attempt - 1

        def wait(state: tenacity.RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            return self.wait_after(state.attempt_number + offset, exc)

        return tenacity.AsyncRetrying(
            stop=tenacity.stop_after_attempt(max(self.attempts - offset, 1))
            | tenacity.stop_after_delay(max(self.max_seconds - elapsed, 0.0)),
            wait=wait,
            retry=tenacity.retry_if_exception_type(TransientJudgeError),
            sleep=self.sleep,
            reraise=True,
        )


def coerce_item(item: Any, max_chars: int) -> Item:
    """An Item from an Item or a mapping, or InvalidItemError naming the field."""
    if isinstance(item, Item):
        checked = item
    elif isinstance(item, Mapping):
        try:
            checked = Item.model_validate(dict(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "item"
            message = first["msg"].removeprefix("Value error, ")
            if message.startswith("candidates: "):
                field, message = "candidates", message.removeprefix("candidates: ")
            raise InvalidItemError(field, message) from None
    else:
        raise InvalidItemError("item", f"expected an Item or a mapping, got {type(item).__name__}")
    fields: list[tuple[str, str | None]] = [
        ("question", checked.question),
        ("context", checked.context),
    ]
    for index, candidate in enumerate(checked.candidates):
        fields.append((f"candidates.{index}.text", candidate.text))
        fields.append((f"candidates.{index}.reasoning", candidate.reasoning))
    for name, value in fields:
        if value is not None and len(value) > max_chars:
            raise InvalidItemError(
                name, f"is {len(value)} characters long; the limit is {max_chars} (max_chars)"
            )
    return checked


class Subject(Protocol):
    """What a judge call is about: an id for events and the labels it may answer with."""

    @property
    def key(self) -> str: ...

    @property
    def labels(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class _LegPlan:
    polarity: Polarity
    messages: list[Message]
    key: str


class Guard:
    """Ask a judge both questions about each item and reconcile the answers.

    ``judge`` is a :class:`~prin_guard.judges.Judge` or a plain function
    ``fn(prompt) -> str`` (sync or async). ``template`` is ``v0`` (the paper's
    wording), ``v1`` or ``v2``; ``mitigations`` any of ``cot`` and ``neg_exp``.
    ``cache`` defaults to an in-memory LRU; pass ``None`` to turn caching off.
    ``threshold`` is the largest PRIN still called consistent. ``policy`` chooses
    the reported set: ``synergy`` (both legs agree), ``direct`` or ``reverse``.
    ``concurrency`` bounds judge calls in flight. ``on_inconsistent="raise"``
    raises :class:`~prin_guard.InconsistentVerdictError` instead of flagging.
    ``max_chars`` bounds every text field of an item. ``probe`` (``"closed"``,
    ``"open"``, ``"leading"``, ``"progressive"`` or a :class:`~prin_guard.probe.Probe`)
    asks each leg again after its answer ("Are you sure?") and flags the verdict
    ``vacillating`` when the judge changes its answer; the verdict itself stays
    the judge's first answer.
    """

    def __init__(
        self,
        judge: Judge | Callable[[str], Any],
        *,
        template: str | Template = "v0",
        mitigations: Iterable[str | Mitigation] = (),
        cache: Cache | Literal["memory"] | None = "memory",
        threshold: float = 0.0,
        policy: Policy = "synergy",
        concurrency: int = 8,
        retry: Retry | None = None,
        on_inconsistent: Literal["flag", "raise"] = "flag",
        max_chars: int = 32_000,
        probe: str | Probe | None = None,
    ) -> None:
        if isinstance(judge, Judge):
            self.judge: Judge = judge
        elif callable(judge):
            self.judge = FunctionJudge(judge)
        else:
            raise UsageError(
                f"judge: expected a Judge or a function of a prompt, got {type(judge).__name__}"
            )
        self.template = get_template(template)
        self.mitigations = parse_mitigations(tuple(mitigations))
        if cache == "memory":
            self.cache: Cache | None = MemoryCache()
        elif cache is None or isinstance(cache, Cache):
            self.cache = cache
        else:
            raise UsageError(f"cache: expected a Cache or None, got {type(cache).__name__}")
        if not isinstance(threshold, int | float) or not 0.0 <= threshold <= 1.0:
            raise UsageError(f"threshold: must be a number from 0 to 1, got {threshold!r}")
        self.threshold = float(threshold)
        if policy not in POLICIES:
            raise UsageError(f"policy: unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        self.policy: Policy = policy
        if not isinstance(concurrency, int) or concurrency < 1:
            raise UsageError(f"concurrency: must be a positive integer, got {concurrency!r}")
        self.concurrency = concurrency
        self.retry = retry or Retry()
        if on_inconsistent not in ("flag", "raise"):
            raise UsageError(f"on_inconsistent: must be 'flag' or 'raise', got {on_inconsistent!r}")
        self.on_inconsistent = on_inconsistent
        if not isinstance(max_chars, int) or max_chars < 1:
            raise UsageError(f"max_chars: must be a positive integer, got {max_chars!r}")
        self.max_chars = max_chars
        self.probe = self._check_probe(probe)
        # runtime Protocol checks are slow: decide once
        self._flight: SingleFlight | None = (
            self.cache if isinstance(self.cache, SingleFlight) else None
        )
        self.judge_calls = 0
        """Judge calls made by this guard (cache hits excluded)."""
        self._identity = json.loads(json.dumps(dict(self.judge.identity())))
        self._key_part = json.dumps(
            {
                "judge": self._identity,
                "template": self.template.id,
                "template_version": self.template.version,
                "mitigations": [m.value for m in self.mitigations],
            },
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        self._semaphore: asyncio.Semaphore | None = None
        self._inflight: dict[str, asyncio.Future[tuple[JudgeResponse, bool]]] = {}
        self._runner: asyncio.Runner | None = None
        self._runner_lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    @staticmethod
    def _check_probe(probe: str | Probe | None) -> Probe | None:
        if probe is None:
            return None
        from prin_guard.probe._engine import Probe

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
            f"Guard(judge={self._identity!r}, template={self.template.prompt_id!r}, "
            f"mitigations={[m.value for m in self.mitigations]!r}, policy={self.policy!r})"
        )

    # -- the async core -----------------------------------------------------------

    async def acheck(self, item: Item | Mapping[str, Any]) -> Verdict:
        """Judge one item. Raises on bad input and on a judge that keeps failing."""
        checked = coerce_item(item, self.max_chars)
        plans = self._plan(checked)
        prefetched = await self._prefetch([plan.key for plan in plans])
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
        checked = coerce_item(item, self.max_chars)
        plan = next(p for p in self._plan(checked) if p.polarity is Polarity(polarity))
        prefetched = await self._prefetch([plan.key])
        return await self._leg(checked, plan, prefetched.get(plan.key))

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
        size = chunk_size or max(64, 4 * self.concurrency)
        window = asyncio.Semaphore(max(2 * self.concurrency, size))
        done: asyncio.Queue[tuple[int, Verdict] | None] = asyncio.Queue()
        tasks: set[asyncio.Task[None]] = set()

        async def one(
            index: int,
            item: Any,
            plans: list[_LegPlan] | None,
            prefetched: Mapping[str, str | None],
        ) -> None:
            try:
                if isinstance(item, InvalidItemError):
                    verdict = _invalid_verdict(index, item)
                else:
                    assert plans is not None
                    verdict = await self._verdict_or_error(item, plans, prefetched)
                await done.put((index, verdict))
            finally:
                window.release()

        async def produce() -> None:
            chunk: list[tuple[int, Any]] = []
            for index, raw in enumerate(items):
                chunk.append((index, raw))
                if len(chunk) >= size:
                    await feed(chunk)
                    chunk = []
            if chunk:
                await feed(chunk)

        async def feed(chunk: list[tuple[int, Any]]) -> None:
            checked: list[tuple[int, Item | InvalidItemError, list[_LegPlan] | None]] = []
            for index, raw in chunk:
                try:
                    item = coerce_item(raw, self.max_chars)
                except InvalidItemError as exc:
                    checked.append((index, exc, None))
                else:
                    checked.append((index, item, self._plan(item)))
            keys = [plan.key for _, _, plans in checked if plans for plan in plans]
            prefetched = await self._prefetch(keys)
            for index, entry, plans in checked:
                await window.acquire()
                task = asyncio.create_task(one(index, entry, plans, prefetched))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

        async def run_producer() -> None:
            try:
                await produce()
                while tasks:
                    await asyncio.gather(*list(tasks))
            finally:
                await done.put(None)

        producer = asyncio.create_task(run_producer())
        try:
            while (entry := await done.get()) is not None:
                yield entry
            await producer  # re-raises an exception from reading the items
        finally:
            if not producer.done():
                producer.cancel()
            for task in list(tasks):
                task.cancel()

    # -- the sync driver ----------------------------------------------------------

    def check(self, item: Item | Mapping[str, Any]) -> Verdict:
        """Synchronous :meth:`acheck`. Not callable inside a running event loop."""
        return self._run(self.acheck(item), "check", "acheck")

    def check_many(self, items: Iterable[Item | Mapping[str, Any]]) -> list[Verdict]:
        """Synchronous :meth:`acheck_many`. Not callable inside a running event loop."""
        return self._run(self.acheck_many(items), "check_many", "acheck_many")

    def close(self) -> None:
        """Close the private event loop the sync methods use (also done at exit)."""
        if self._finalizer is not None:
            self._finalizer()

    def _run(self, coro: Awaitable[T], name: str, async_name: str) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            if asyncio.iscoroutine(coro):
                coro.close()
            raise UsageError(
                f"Guard.{name}() was called inside a running event loop, where it would "
                f"block the loop; use 'await guard.{async_name}(...)' instead"
            )
        with self._runner_lock:
            if self._runner is None:
                self._runner = asyncio.Runner()
                self._finalizer = weakref.finalize(self, _close_runner, self._runner)
                # the semaphore and in-flight map belong to one loop
                self._semaphore = None
                self._inflight = {}
            return self._runner.run(coro)  # type: ignore[arg-type]

    # -- internals ----------------------------------------------------------------

    def _plan(self, item: Item) -> list[_LegPlan]:
        # The key covers the guard's part (judge, template, mitigations; serialised
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
        plans = []
        for polarity in (Polarity.DIRECT, Polarity.REVERSE):
            digest = hashlib.sha256(
                f"{self._key_part}\x1f{item_part}\x1f{polarity.value}".encode()
            ).hexdigest()
            messages = build_messages(item, polarity, self.template, self.mitigations)
            plans.append(_LegPlan(polarity, messages, f"{KEY_PREFIX}:{digest}"))
        return plans

    async def _prefetch(self, keys: Sequence[str]) -> dict[str, str | None]:
        if self.cache is None or not keys:
            return {}
        unique = list(dict.fromkeys(keys))
        try:
            values = await self.cache.get_many(unique)
        except Exception as exc:  # noqa: BLE001 - a failing cache must not cost a verdict
            log().warning("cache_error", op="get_many", error=f"{type(exc).__name__}: {exc}")
            return {}
        return dict(zip(unique, values, strict=True))

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
        started = time.perf_counter()
        outcomes = await asyncio.gather(
            *(self._leg(item, plan, prefetched.get(plan.key)) for plan in plans),
            return_exceptions=True,
        )
        # Both legs ran to the end (and were cached) before a failure is raised.
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        direct, reverse = outcomes
        assert isinstance(direct, Leg)
        assert isinstance(reverse, Leg)
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
        flags = result.flags
        rounds: tuple[ProbeRound, ...] = ()
        if self.probe is not None:
            rounds = await self._probe(item, plans, (direct, reverse))
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
        return verdict

    async def _probe(
        self, item: Item, plans: Sequence[_LegPlan], legs: Sequence[Leg]
    ) -> tuple[ProbeRound, ...]:
        """Follow-up rounds on each leg that gave a readable answer; they only flag."""
        from prin_guard.probe._engine import run_rounds

        assert self.probe is not None
        jobs = [
            run_rounds(
                self, item, plan.polarity, plan.messages, leg.raw_text or "", leg.labels, self.probe
            )
            for plan, leg in zip(plans, legs, strict=True)
            if leg.parse_status is not ParseStatus.FAILED
        ]
        results = await asyncio.gather(*jobs)
        return tuple(entry for rounds in results for entry in rounds)

    async def _answer(
        self, item: Subject, plan: _LegPlan, cached_value: str | None
    ) -> tuple[JudgeResponse, bool, float]:
        """The judge's answer to one conversation: from the cache or from a call."""
        response = _read_cached(cached_value) if cached_value is not None else None
        leg_name = plan.polarity.value
        if response is not None:
            log().debug("cache_hit", item_id=item.key, leg=leg_name)
            return response, True, 0.0
        if self.cache is not None:
            log().debug("cache_miss", item_id=item.key, leg=leg_name)
        started = time.perf_counter()
        response, cached = await self._judge_once(item, plan)
        return response, cached, 0.0 if cached else (time.perf_counter() - started) * 1000

    async def _leg(self, item: Item, plan: _LegPlan, cached_value: str | None) -> Leg:
        response, cached, latency_ms = await self._answer(item, plan, cached_value)
        parsed = parse_reply(
            response.text, item.labels, [candidate.text for candidate in item.candidates]
        )
        return Leg(
            polarity=plan.polarity,
            template=self.template.id,
            template_version=self.template.version,
            mitigations=tuple(m.value for m in self.mitigations),
            output_format=response.output_format,
            raw_text=response.text,
            labels=parsed.labels,
            parse_status=parsed.status,
            parse_method=parsed.method,
            polarity_confusion=detect_polarity_confusion(response.text, plan.polarity),
            latency_ms=latency_ms,
            usage=response.usage,
            cached=cached,
        )

    async def converse(
        self, item: Subject, polarity: Polarity, messages: Sequence[Message]
    ) -> tuple[JudgeResponse, bool, float]:
        """The judge's answer to a whole conversation about ``item`` (probe rounds,
        candidate generation).

        ``item`` is an :class:`Item` or anything with a ``key`` and ``labels``.
        Cached, retried and single-flighted like a leg; the key covers the judge
        and every message. Returns the answer, whether it was cached, and the
        latency in milliseconds.
        """
        key = cache_key(
            {
                "judge": self._identity,
                "kind": "conversation",
                "messages": [dict(m) for m in messages],
                "labels": list(item.labels),
            }
        )
        plan = _LegPlan(polarity, list(messages), key)
        prefetched = await self._prefetch([key])
        return await self._answer(item, plan, prefetched.get(key))

    async def _judge_once(self, item: Subject, plan: _LegPlan) -> tuple[JudgeResponse, bool]:
        """Call the judge for one leg, unless someone else already is.

        Identical legs in flight in this guard share one call. With a shared cache
        that supports single flight, identical legs in other processes do too: one
        process claims the key and calls the judge, the others wait for its answer.
        Returns the answer and whether it came from the cache.
        """
        pending = self._inflight.get(plan.key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[JudgeResponse, bool]] = (
            asyncio.get_running_loop().create_future()
        )
        self._inflight[plan.key] = future
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.concurrency)
        try:
            # One slot per leg being judged, held through claiming, calling (with
            # its retries: a rate-limited provider slows the whole guard down, as
            # it should) and storing, so a batch never floods the judge or the cache.
            async with self._semaphore:
                outcome = await self._judge_or_wait(item, plan)
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # mark retrieved: the waiters, if any, re-raise it
            raise
        else:
            future.set_result(outcome)
            return outcome
        finally:
            self._inflight.pop(plan.key, None)

    async def _judge_or_wait(self, item: Subject, plan: _LegPlan) -> tuple[JudgeResponse, bool]:
        flight = self._flight
        if flight is None:
            response = await self._call_judge(item, plan)
            await self._store(plan.key, response)
            return response, False
        while True:
            if await flight.claim(plan.key):
                try:
                    # Another process may have stored it between our lookup and our claim.
                    found = await self._lookup(plan.key)
                    if found is not None:
                        return found, True
                    response = await self._call_judge(item, plan)
                    await self._store(plan.key, response)
                    return response, False
                finally:
                    await flight.release(plan.key)
            log().debug("single_flight_wait", item_id=item.key, leg=plan.polarity.value)
            value = await flight.wait(plan.key, timeout=flight.lock_ttl + 1.0)
            found = _read_cached(value) if value is not None else None
            if found is not None:
                return found, True
            # The holder gave up or died: try to claim the key ourselves.

    async def _lookup(self, key: str) -> JudgeResponse | None:
        values = await self._prefetch([key])
        value = values.get(key)
        return _read_cached(value) if value is not None else None

    async def _call_judge(self, item: Subject, plan: _LegPlan) -> JudgeResponse:
        """One judge call, retried on transient failures.

        The first attempt runs straight; tenacity takes over only after a transient
        failure, so a judge that answers costs no retry bookkeeping.
        """
        leg_name = plan.polarity.value
        started = time.monotonic()
        attempt = 1
        try:
            try:
                return await self._attempt(item, plan, attempt)
            except TransientJudgeError as exc:
                if self.retry.attempts <= 1:
                    raise
                await self.retry.sleep(self.retry.wait_after(1, exc))
            async for try_ in self.retry.retrying(
                first_attempt=2, elapsed=time.monotonic() - started
            ):
                with try_:
                    attempt += 1
                    return await self._attempt(item, plan, attempt)
        except TransientJudgeError as exc:
            log().warning(
                "judge_error", item_id=item.key, leg=leg_name, attempts=attempt, error=str(exc)
            )
            raise JudgeError(f"{leg_name} leg failed after {attempt} attempts: {exc}") from exc
        except JudgeError:
            raise
        except Exception as exc:
            log().warning(
                "judge_error",
                item_id=item.key,
                leg=leg_name,
                attempts=attempt,
                error=f"{type(exc).__name__}: {exc}",
            )
            raise JudgeError(f"{leg_name} leg failed: {type(exc).__name__}: {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    async def _attempt(self, item: Subject, plan: _LegPlan, attempt: int) -> JudgeResponse:
        leg_name = plan.polarity.value
        started = time.perf_counter()
        self.judge_calls += 1
        log().debug("judge_prompt", item_id=item.key, leg=leg_name, messages=plan.messages)
        response = await self.judge.complete(plan.messages, labels=item.labels)
        latency_ms = (time.perf_counter() - started) * 1000
        log().info(
            "judge_call",
            item_id=item.key,
            leg=leg_name,
            attempt=attempt,
            latency_ms=round(latency_ms, 3),
        )
        if not isinstance(response, JudgeResponse):
            raise JudgeError(f"judge returned {type(response).__name__}, expected JudgeResponse")
        log().debug("judge_reply", item_id=item.key, leg=leg_name, text=response.text)
        return response

    async def _store(self, key: str, response: JudgeResponse) -> None:
        if self.cache is None:
            return
        value = json.dumps(
            {
                "schema": _CACHE_SCHEMA,
                "kind": "leg",
                "text": response.text,
                "output_format": response.output_format,
                "usage": response.usage.model_dump() if response.usage else None,
            },
            ensure_ascii=False,
        )
        try:
            await self.cache.set_many({key: value})
        except Exception as exc:  # noqa: BLE001 - a failing cache must not cost a verdict
            log().warning("cache_error", op="set_many", error=f"{type(exc).__name__}: {exc}")

    def _maybe_raise(self, verdicts: Sequence[Verdict]) -> None:
        if self.on_inconsistent != "raise":
            return
        for verdict in verdicts:
            if Flag.INCONSISTENT in verdict.flags:
                raise InconsistentVerdictError(verdict)


def share_call_limit(guards: Iterable[Guard], calls: int) -> None:
    """Make ``guards`` share one bound on judge calls in flight, as if they were one.

    For runs that ask one judge through many guards (every template, mitigation
    and sampling seed of an evaluation): without it, each guard would allow its
    own ``concurrency`` calls and the judge would see their sum. Use from async
    code only (the bound belongs to the running event loop).
    """
    limit = asyncio.Semaphore(calls)
    for guard in guards:
        guard._semaphore = limit


def _close_runner(runner: asyncio.Runner) -> None:
    """Close a guard's private loop; from inside another running loop, without running it."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        runner.close()
        return
    loop = runner.get_loop()
    if not loop.is_closed():
        loop.close()


def _read_cached(value: str) -> JudgeResponse | None:
    """A cached judge answer, or None for anything unreadable (treated as a miss)."""
    try:
        data = json.loads(value)
        if not isinstance(data, dict) or data.get("schema") != _CACHE_SCHEMA:
            return None
        if data.get("kind") != "leg":
            return None
        text = data["text"]
        if text is not None and not isinstance(text, str):
            return None
        output_format = data.get("output_format", "text")
        if output_format not in ("text", "json"):
            return None
        usage = Usage.model_validate(data["usage"]) if data.get("usage") else None
    except (ValueError, KeyError, TypeError, ValidationError):
        return None
    return JudgeResponse(text=text, usage=usage, output_format=output_format)


def _invalid_verdict(index: int, exc: InvalidItemError) -> Verdict:
    return Verdict(
        item_id=f"#{index}",
        flags=(Flag.INVALID_ITEM,),
        error=VerdictError(kind="input", message=str(exc), field=exc.field),
    )


@overload
def guard(fn: Callable[[str], Any], /) -> Guard: ...
@overload
def guard(fn: None = None, /, **options: Any) -> Callable[[Callable[[str], Any]], Guard]: ...


def guard(
    fn: Callable[[str], Any] | None = None, /, **options: Any
) -> Guard | Callable[[Callable[[str], Any]], Guard]:
    """Turn a judge function ``fn(prompt) -> str`` into a :class:`Guard`.

    Use as ``@guard`` or ``@guard(template="v1", mitigations=["neg_exp"])``; the
    options are :class:`Guard`'s. The result has ``check``, ``acheck``,
    ``check_many`` and ``acheck_many``.
    """

    def wrap(function: Callable[[str], Any]) -> Guard:
        built = Guard(FunctionJudge(function), **options)
        functools.update_wrapper(built, function)  # type: ignore[arg-type]
        return built

    return wrap(fn) if fn is not None else wrap
