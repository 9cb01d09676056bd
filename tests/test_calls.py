"""The judge-call layer: JudgeCaller and CallLimit, alone and under the guard."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import free_port
from structlog.testing import capture_logs
from test_redis_cache import RedisServer

from prin_guard import (
    CacheError,
    CallLimit,
    Guard,
    GuardOptions,
    Item,
    JudgeCaller,
    JudgeError,
    UsageError,
)
from prin_guard.cache import RedisCache
from prin_guard.eval._datasets import Problem
from prin_guard.eval._pool import build_pool
from prin_guard.judges import JudgeResponse, Message, ScriptedJudge

ITEM = Item(question="2 + 2?", candidates=["3", "4", "5"], id="sum")


def _items(n: int) -> list[Item]:
    """``n`` items that differ in content (the id alone does not change a cache key)."""
    return [Item(question=f"{k} + 2?", candidates=["3", "4", "5"], id=f"i{k}") for k in range(n)]


class CountingJudge:
    """Answers by polarity after a short wait; records how many calls overlap."""

    def __init__(self, delay: float = 0.02) -> None:
        self.delay = delay
        self.calls = 0
        self.in_flight = 0
        self.most_in_flight = 0

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "counting"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.in_flight -= 1
        reverse = "incorrect" in messages[-1]["content"]
        return JudgeResponse(text="Answer: A, C" if reverse else "Answer: B")


# -- a cache that fails, and one that is asked to raise ------------------------------


@pytest.fixture
def stopped_redis(tmp_path: Path) -> str:
    """The URL of a Redis that ran, answered, and was then stopped."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(free_port(), tmp_path)
    server.start()
    server.kill()
    return server.url


def test_guard_raises_cache_error_from_a_stopped_redis_when_asked(stopped_redis: str) -> None:
    # The bug: the guard caught every cache exception, so cache_errors="raise" never
    # reached the caller. Now the CacheError does, before any judge call is spent.
    judge = CountingJudge()
    cache = RedisCache.from_url(stopped_redis, cache_errors="raise")
    guard = Guard(judge, cache=cache)
    with pytest.raises(CacheError, match="redis cache get_many failed"):
        guard.check(ITEM)
    with pytest.raises(CacheError):
        guard.check_many([ITEM, ITEM])
    assert judge.calls == 0


def test_guard_fails_open_on_a_stopped_redis_by_default(stopped_redis: str) -> None:
    judge = CountingJudge()
    guard = Guard(judge, cache=RedisCache.from_url(stopped_redis, cooldown=0))
    verdict = guard.check(ITEM)
    assert verdict.correct == ("B",)
    assert judge.calls == 2


class BrokenCache:
    """A user's cache that fails every operation with its own exception type."""

    def __init__(self) -> None:
        self.attempts = 0

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        self.attempts += 1
        raise RuntimeError("disk full")

    async def set_many(self, entries: Mapping[str, str]) -> None:
        self.attempts += 1
        raise RuntimeError("disk full")


def test_a_failing_user_cache_costs_no_verdict_and_warns_once_per_interval() -> None:
    cache = BrokenCache()
    guard = Guard(CountingJudge(delay=0), cache=cache)
    with capture_logs() as events:
        verdicts = guard.check_many(_items(20))
    assert all(v.correct == ("B",) for v in verdicts)
    assert cache.attempts > 20  # every read and write was tried ...
    warnings = [e for e in events if e["event"] == "cache_error"]
    assert len(warnings) == 1  # ... and reported once, not once per call
    assert warnings[0]["error"] == "RuntimeError: disk full"


# -- sharing: one caller, many guards; one limit, many callers ----------------------------


async def test_guards_sharing_a_caller_share_its_single_flight() -> None:
    judge = CountingJudge(delay=0.05)
    caller = JudgeCaller(judge, cache=None)
    first = Guard(caller, options=GuardOptions(policy="synergy"))
    second = Guard(caller, options=GuardOptions(policy="direct"))
    verdicts = await asyncio.gather(first.acheck(ITEM), second.acheck(ITEM), first.acheck(ITEM))
    assert [v.correct for v in verdicts] == [("B",), ("B",), ("B",)]
    assert judge.calls == 2  # the same two legs, asked once for all three verdicts
    assert caller.calls == first.judge_calls == second.judge_calls == 2


async def test_a_shared_call_limit_bounds_calls_across_callers() -> None:
    judges = [CountingJudge(delay=0.02) for _ in range(3)]
    shared = CallLimit(2)
    in_flight = 0
    most = 0

    class Watched:
        def __init__(self, inner: CountingJudge, n: int) -> None:
            self.inner = inner
            self.n = n

        def identity(self) -> Mapping[str, Any]:
            return {"kind": "watched", "n": self.n}

        async def complete(
            self, messages: Sequence[Message], *, labels: Sequence[str] = ()
        ) -> JudgeResponse:
            nonlocal in_flight, most
            in_flight += 1
            most = max(most, in_flight)
            try:
                return await self.inner.complete(messages, labels=labels)
            finally:
                in_flight -= 1

    guards = [
        Guard(JudgeCaller(Watched(j, n), cache=None, limit=shared)) for n, j in enumerate(judges)
    ]
    items = _items(6)
    await asyncio.gather(*(g.acheck_many(items) for g in guards))
    assert sum(j.calls for j in judges) == 36
    assert most == 2


def test_call_limit_refuses_a_bad_bound() -> None:
    with pytest.raises(UsageError, match=r"^concurrency:"):
        CallLimit(0)


# -- what a call is, in events --------------------------------------------------------


def test_follow_up_calls_say_so_in_events() -> None:
    judge = ScriptedJudge("Answer: B", "Answer: A, C")
    with capture_logs() as events:
        Guard(judge, probe="closed").check(ITEM)
    calls = sorted(str(e["call"]) for e in events if e["event"] == "judge_call")
    assert calls == ["direct", "follow_up", "follow_up", "reverse"]


async def test_pool_samples_say_so_in_events() -> None:
    class Sampler(CountingJudge):
        def __init__(self, seed: int = 0) -> None:
            super().__init__(delay=0)
            self.seed = seed

        def identity(self) -> Mapping[str, Any]:
            return {"kind": "sampler", "seed": self.seed}

        def with_sampling(self, temperature: float, seed: int) -> Sampler:
            return Sampler(seed)

        async def complete(
            self, messages: Sequence[Message], *, labels: Sequence[str] = ()
        ) -> JudgeResponse:
            return JudgeResponse(text=f"Reasoning.\nAnswer: {self.seed % 2 + 1}")

    problem = Problem(id="p1", question="1 + 1?", answer="2", line=1)
    with capture_logs() as events:
        pool = await build_pool(Sampler(), [problem], n=2, cache=None)
    assert [c.text for c in pool[0].item.candidates] == ["1", "2"]
    calls = [e for e in events if e["event"] == "judge_call"]
    assert len(calls) == 2
    assert {e["call"] for e in calls} == {"pool_sample"}
    assert {e["item_id"] for e in calls} == {"p1"}


# -- read-only configuration, one way to give options ------------------------------------


@pytest.mark.parametrize(
    "name", ["template", "mitigations", "policy", "threshold", "judge", "cache", "options"]
)
def test_what_feeds_cache_keys_is_read_only(name: str) -> None:
    guard = Guard(ScriptedJudge())
    with pytest.raises(AttributeError):
        setattr(guard, name, getattr(guard, name))


def test_options_as_a_model_or_as_keywords_not_both() -> None:
    options = GuardOptions(template="v1", mitigations=("neg-exp",))
    guard = Guard(ScriptedJudge(), options=options)
    assert guard.options == Guard(ScriptedJudge(), template="v1", mitigations=["neg_exp"]).options
    with pytest.raises(UsageError, match=r"^options:"):
        Guard(ScriptedJudge(), options=options, threshold=0.5)


def test_a_caller_brings_its_own_cache_and_limits() -> None:
    caller = JudgeCaller(ScriptedJudge())
    with pytest.raises(UsageError, match=r"^judge:"):
        Guard(caller, cache=None)
    with pytest.raises(UsageError, match=r"^judge:"):
        Guard(caller, concurrency=2)


def test_cache_keys_do_not_change_with_the_refactor() -> None:
    # Keys are the sha256 of the same canonical JSON as before the call layer existed:
    # caches filled by earlier versions keep serving.
    guard = Guard(ScriptedJudge())
    keys = [plan.key for plan in guard._plan(ITEM)]
    assert keys == [
        "prin_guard:v1:" + k
        for k in (
            _legacy_digest(guard, ITEM, "direct"),
            _legacy_digest(guard, ITEM, "reverse"),
        )
    ]


def _legacy_digest(guard: Guard, item: Item, polarity: str) -> str:
    import hashlib
    import json

    key_part = json.dumps(
        {
            "judge": dict(guard.judge.identity()),
            "template": guard.template.id,
            "template_version": guard.template.version,
            "mitigations": [m.value for m in guard.mitigations],
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    item_part = json.dumps(
        [item.question, [[c.label, c.text, c.reasoning] for c in item.candidates], item.context],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(f"{key_part}\x1f{item_part}\x1f{polarity}".encode()).hexdigest()


# -- cancelling one caller of a shared call --------------------------------------------


class SlowJudge:
    """Answers after ``delay`` seconds; records calls started, finished and cancelled."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.started = 0
        self.finished = 0
        self.cancelled = 0

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "slow"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        self.started += 1
        try:
            await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.finished += 1
        return JudgeResponse(text="Answer: B")


async def test_a_cancelled_waiter_never_cancels_the_shared_call() -> None:
    # Issue 11, item 2: one request timed out, and another identical request, which
    # shared its judge call, got CancelledError (a 500).
    judge = SlowJudge(delay=0.2)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    first = asyncio.create_task(caller.converse(messages, item_id="x"))
    await asyncio.sleep(0.02)
    waiter = asyncio.create_task(caller.converse(messages, item_id="x"))
    await asyncio.sleep(0.02)
    waiter.cancel()
    answer = await first
    assert answer.response.text == "Answer: B"
    assert waiter.cancelled()
    assert (judge.started, judge.finished, judge.cancelled) == (1, 1, 0)


async def test_when_the_first_caller_is_cancelled_the_others_still_get_an_answer() -> None:
    # Its call is abandoned and made again for the callers that still wait.
    judge = SlowJudge(delay=0.2)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    first = asyncio.create_task(caller.converse(messages, item_id="x"))
    await asyncio.sleep(0.02)
    others = [asyncio.create_task(caller.converse(messages, item_id="x")) for _ in range(2)]
    await asyncio.sleep(0.02)
    first.cancel()
    answers = await asyncio.gather(*others)
    assert [a.response.text for a in answers] == ["Answer: B", "Answer: B"]
    assert first.cancelled()
    assert (judge.started, judge.finished, judge.cancelled) == (2, 1, 1)


async def test_a_shared_call_stops_when_every_caller_is_gone() -> None:
    # Abandoned work does not keep the judge (and a call slot) busy.
    judge = SlowJudge(delay=5)
    caller = JudgeCaller(judge, cache=None, concurrency=1)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    waiting = [asyncio.create_task(caller.converse(messages)) for _ in range(3)]
    await asyncio.sleep(0.05)
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    for _ in range(3):
        await asyncio.sleep(0)  # let a handed-over call see its cancellation
    assert judge.finished == 0
    assert judge.started == judge.cancelled  # nothing still running
    # the slot is free again: a new call is not stuck behind the abandoned one
    judge.delay = 0
    other: list[Message] = [{"role": "user", "content": "another"}]
    answer = await asyncio.wait_for(caller.converse(other), timeout=2)
    assert answer.response.text == "Answer: B"


async def test_a_failure_of_the_shared_call_reaches_every_caller() -> None:
    class Failing(SlowJudge):
        async def complete(
            self, messages: Sequence[Message], *, labels: Sequence[str] = ()
        ) -> JudgeResponse:
            await super().complete(messages, labels=labels)
            raise ValueError("boom")

    judge = Failing(delay=0.05)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    results = await asyncio.gather(
        caller.converse(messages), caller.converse(messages), return_exceptions=True
    )
    assert all(isinstance(r, JudgeError) for r in results), results
    assert judge.started == 1
