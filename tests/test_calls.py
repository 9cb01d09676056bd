"""The judge-call layer: JudgeCaller and CallLimit, alone and under the guard."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
from _helpers import HANG, RedisServer
from structlog.testing import capture_logs

from prin_guard import FunctionJudge, Guard, GuardOptions, Item, JudgeError, UsageError, Verdict
from prin_guard.cache import MemoryCache, RedisCache
from prin_guard.calls import CallLimit, JudgeCaller
from prin_guard.datasets import Problem
from prin_guard.errors import CacheError
from prin_guard.eval._pool import build_pool
from prin_guard.judges import JudgeResponse, ScriptedJudge
from prin_guard.models import Message

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
def stopped_redis(redis_server: RedisServer) -> str:
    """The URL of a Redis that ran, answered, and was then stopped."""
    redis_server.kill()
    return redis_server.url


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


@pytest.mark.parametrize("name", ["template", "judge", "cache", "options"])
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
    keys = guard.cache_keys(ITEM)
    assert keys == [
        "prin_guard:v1:" + k
        for k in (
            _legacy_digest(guard, ITEM, "direct"),
            _legacy_digest(guard, ITEM, "reverse"),
        )
    ]


KEYED = Item(
    question="What is 2 + 2?",
    candidates=["3", "4", {"text": "5", "reasoning": "r"}],
    context="ctx",
    id="k",
)


@pytest.mark.parametrize(
    ("options", "keys"),
    [
        pytest.param(
            {},
            [
                "e306fbde8c74df63cc6a893ebfd486dafa09248988e8c92de31a7d71bb78aadb",
                "76338d13dad69cde115bc08a64aa9f711f74a2a547e5ae81c3fdf76a3dd20632",
            ],
            id="defaults",
        ),
        pytest.param(
            {"template": "v3", "mitigations": ["cot", "neg_exp"], "checks": "reverse,order"},
            [
                "e37b9672796f5f89978f049b17e058ce164be9100c3ab94a5d5e51d0356553b4",
                "424405db8c99d54fa85eeac08ed8474b53218007fc3344c9f1525ea246a24111",
                "4f1d5f09cce690dd71c9708cda6fd9ebac0b702b54cd7ca8569edca010b9197e",
                "7eb48ac82018d73162b41e0652cbc9ba766579211dd963b3ef7a88915d7f5d34",
            ],
            id="v3-mitigations-order",
        ),
    ],
)
def test_cache_keys_are_the_ones_earlier_versions_wrote(
    options: dict[str, Any], keys: list[str]
) -> None:
    # Pinned from prin-guard at 45557e5 (before the decision module and GuardConfig):
    # a cache filled then keeps serving.
    guard = Guard(ScriptedJudge(), **options)
    assert guard.cache_keys(KEYED) == [f"prin_guard:v1:{k}" for k in keys]


def _legacy_digest(guard: Guard, item: Item, polarity: str) -> str:
    import hashlib
    import json

    key_part = json.dumps(
        {
            "judge": dict(guard.judge.identity()),
            "template": guard.template_for(item).id,
            "template_version": guard.template_for(item).version,
            "mitigations": [m.value for m in guard.options.mitigations],
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


async def _until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds (the 60 s bound only catches a hang)."""
    async with asyncio.timeout(HANG):
        while not condition():
            await asyncio.sleep(0.005)


async def _joined() -> None:
    """Let the tasks just created run to where they wait: a caller that joins a call in
    flight waits on it within a step of the loop (a few turns, no wall-clock time)."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_cancelled_waiter_never_cancels_the_shared_call() -> None:
    # Issue 11, item 2: one request timed out, and another identical request, which
    # shared its judge call, got CancelledError (a 500).
    judge = SlowJudge(delay=0.2)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    first = asyncio.create_task(caller.converse(messages, item_id="x"))
    await _until(lambda: judge.started == 1)
    waiter = asyncio.create_task(caller.converse(messages, item_id="x"))
    await _joined()
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
    await _until(lambda: judge.started == 1)
    others = [asyncio.create_task(caller.converse(messages, item_id="x")) for _ in range(2)]
    await _joined()
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
    await _until(lambda: judge.started == 1)
    await _joined()
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


class CleaningUpJudge(SlowJudge):
    """A :class:`SlowJudge` that takes ``cleanup`` seconds to stop once cancelled (closing
    a stream, telling the provider)."""

    def __init__(self, delay: float, cleanup: float) -> None:
        super().__init__(delay)
        self.cleanup = cleanup

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        self.started += 1
        try:
            await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            self.cancelled += 1
            await asyncio.sleep(self.cleanup)
            raise
        self.finished += 1
        return JudgeResponse(text="Answer: B")


@pytest.mark.parametrize(
    "arrives",
    [
        pytest.param("while-the-restarted-call-is-cancelled", id="fresh-call"),
        pytest.param("while-the-first-call-is-cancelled", id="handed-over-call"),
    ],
)
async def test_a_caller_arriving_during_a_cancellation_gets_an_answer(arrives: str) -> None:
    # Issue 21, item 11: a judge that takes 3 s and 1.5 s to clean up (here a tenth):
    # A leaves, the call restarts for B, B leaves, and C, arriving while that call was
    # being cancelled, got its CancelledError (a 500 in the service). C cancelled
    # nothing: it gets the answer of a fresh call, or of the call handed over to it.
    judge = CleaningUpJudge(delay=0.3, cleanup=0.15)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    a = asyncio.create_task(caller.converse(messages, item_id="x"))
    await _until(lambda: judge.started == 1)
    b = asyncio.create_task(caller.converse(messages, item_id="x"))
    await _joined()
    a.cancel()  # A leaves: after the clean-up its call starts again, for B
    await _until(lambda: judge.cancelled == 1)
    if arrives == "while-the-first-call-is-cancelled":
        b.cancel()
        await _joined()
    else:
        await _until(lambda: judge.started == 2)
        b.cancel()  # B leaves: nobody waits, the restarted call is cancelled
        await _until(lambda: judge.cancelled == 2)
    c = asyncio.create_task(caller.converse(messages, item_id="x"))
    answer = await asyncio.wait_for(c, timeout=5)
    assert answer.response.text == "Answer: B"
    results = await asyncio.gather(a, b, return_exceptions=True)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    assert judge.finished == 1  # C's answer, from one call that ran to the end


# -- identical calls in one process are one judge call ------------------------------------


def _repeated(distinct: int, times: int) -> list[Item]:
    """``distinct * times`` items, each distinct content ``times`` times, interleaved."""
    return [
        Item(question=f"{k % distinct} + 2?", candidates=["3", "4", "5"], id=f"r{k}")
        for k in range(distinct * times)
    ]


@pytest.mark.parametrize(
    ("concurrency", "chunk_size"),
    [
        pytest.param(None, None, id="defaults"),
        pytest.param(1, None, id="concurrency-1"),
        pytest.param(None, 7, id="chunks-of-7"),
        pytest.param(1, 3, id="concurrency-1-chunks-of-3"),
        pytest.param(4, 15, id="concurrency-4-chunks-of-15"),
    ],
)
def test_identical_legs_in_a_batch_are_judged_once(
    concurrency: int | None, chunk_size: int | None
) -> None:
    # Issue 21, item 22: 100 items made of 10 distinct ones, default Guard: 20 distinct
    # legs, 32 judge calls. A chunk's cache entries were read before its calls started,
    # and an identical call that finished in between was asked again.
    judge = CountingJudge(delay=0.005)
    guard = Guard(judge) if concurrency is None else Guard(judge, concurrency=concurrency)
    items = _repeated(10, 10)
    if chunk_size is None:
        verdicts = guard.check_many(items)
    else:

        async def stream() -> list[Verdict]:
            return [v async for _, v in guard.astream(items, chunk_size=chunk_size)]

        verdicts = asyncio.run(stream())
    assert len(verdicts) == 100
    assert all(v.correct == ("B",) for v in verdicts)
    assert judge.calls == 20


async def test_callers_sharing_a_cache_share_their_calls() -> None:
    # Two guards (two callers) over one cache: identical calls are one judge call,
    # whether they overlap in time or one finished before the other started.
    judge = CountingJudge(delay=0.02)
    cache = MemoryCache()
    first, second = Guard(judge, cache=cache), Guard(judge, cache=cache)
    items = _repeated(5, 4)
    await asyncio.gather(first.acheck_many(items), second.acheck_many(items))
    assert judge.calls == 10
    await second.acheck_many(items)
    assert judge.calls == 10


async def test_without_a_cache_only_overlapping_calls_are_shared() -> None:
    judge = CountingJudge(delay=0.02)
    caller = JudgeCaller(judge, cache=None)
    messages: list[Message] = [{"role": "user", "content": "q"}]
    await asyncio.gather(*(caller.converse(messages) for _ in range(5)))
    assert judge.calls == 1
    await caller.converse(messages)
    assert judge.calls == 2  # nothing stored, nothing to read again


# -- stopping a batch: no judge call starts after the stop ---------------------------


async def test_after_stopping_no_call_starts_and_the_items_in_flight_are_yielded() -> None:
    # Issue 21, item 21: a Ctrl-C meant "finish up to two chunks" (127 more items, 254
    # paid calls): items read and started before the stop went on to call the judge.
    # Now only the items whose calls started before the stop finish.
    stopped = False
    starts: list[tuple[str, bool]] = []  # (item, started after the stop)

    async def judge(prompt: str) -> str:
        nonlocal stopped
        item = prompt.split(" + 2?")[0].rsplit(maxsplit=1)[-1]
        starts.append((item, stopped))
        if len(starts) == 3:
            stopped = True  # Ctrl-C while the third call runs
        await asyncio.sleep(0.02)
        return "Answer: A, C" if "incorrect" in prompt else "Answer: B"

    read = 0

    def rows() -> Iterator[Item]:
        nonlocal read
        for item in _items(40):
            read += 1
            yield item

    guard = Guard(FunctionJudge(judge, name="stopping"), concurrency=2)
    yielded = [v async for _, v in guard.astream(rows(), chunk_size=4, stopping=lambda: stopped)]
    before = {item for item, after in starts if not after}
    assert all(item in before for item, after in starts)  # nothing new after the stop
    assert sorted(v.item_id for v in yielded) == sorted(f"i{item}" for item in before)
    assert all(v.correct == ("B",) and v.judge_calls == 2 for v in yielded)  # complete
    assert len(starts) == 2 * len(before)
    assert read <= 8  # the chunk in hand and the one read ahead, not the 40 rows
