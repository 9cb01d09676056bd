"""The provider's rate limit: windows, tokens, the shared cooldown, and the call layer.

Shared behaviour is tested against the real Redis at 127.0.0.1:6379, each test
under a name of its own, so tests never see each other's windows.
"""

from __future__ import annotations

import asyncio
import pickle
import socket
import time
import uuid
from typing import Any

import pytest
from structlog.testing import capture_logs

from prin_guard import Guard, JudgeCaller, Retry, TransientJudgeError, UsageError
from prin_guard._ratelimit import RateLimit
from prin_guard.judges import FunctionJudge, JudgeResponse
from prin_guard.models import Usage

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="module")
def redis_url() -> str:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    return REDIS


@pytest.fixture
def name() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


async def _acquired_at(limit: RateLimit, n: int) -> list[float]:
    started = time.monotonic()

    async def one() -> float:
        await limit.acquire()
        return time.monotonic() - started

    return sorted(await asyncio.gather(*(one() for _ in range(n))))


# -- spelling ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        pytest.param({"calls": "lots"}, "rate_limit", id="bad-calls"),
        pytest.param({"calls": "10/fortnight"}, "rate_limit", id="unknown-unit"),
        pytest.param({"tokens": "many/minute"}, "token_limit", id="bad-tokens"),
        pytest.param({}, "rate_limit", id="neither"),
    ],
)
def test_a_bad_rate_is_a_usage_error_naming_the_option(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(UsageError, match=f"^{field}: "):
        RateLimit(**kwargs)


def test_a_redis_url_of_another_scheme_is_refused() -> None:
    with pytest.raises(UsageError, match="redis_url"):
        RateLimit("1/second", redis_url="http://127.0.0.1:6379")


def test_a_rate_limit_travels_to_another_process_as_its_configuration(name: str) -> None:
    limit = RateLimit("5/second", tokens="100/minute", redis_url=REDIS, name=name)
    copy = pickle.loads(pickle.dumps(limit))
    assert repr(copy) == repr(limit)
    assert copy.shared


# -- in one process -------------------------------------------------------------------


async def test_calls_beyond_the_window_wait_for_a_free_slot() -> None:
    limit = RateLimit("10/second")
    await limit.cooldown()  # builds the storage: its imports are not what is measured
    times = await _acquired_at(limit, 12)
    assert times[9] - times[0] < 0.3  # the first ten go at once
    assert times[10] - times[0] >= 0.8  # the eleventh waits for the first to leave
    assert limit.waited > 0.8


async def test_a_token_limit_holds_new_calls_once_the_window_is_spent() -> None:
    limit = RateLimit(tokens="100/second")
    await limit.acquire()
    await limit.record(Usage(prompt_tokens=90, completion_tokens=10))
    started = time.monotonic()
    await limit.acquire()
    assert time.monotonic() - started >= 0.05  # waited for the window to reset
    await limit.record(None)  # unknown usage counts nothing


async def test_a_back_off_holds_every_caller_and_takes_the_longest() -> None:
    limit = RateLimit("100/second")
    await limit.back_off(0.4)
    await limit.back_off(0.1)  # a shorter one does not shorten it
    assert 0.3 < await limit.cooldown() <= 0.4
    started = time.monotonic()
    await limit.acquire()
    assert time.monotonic() - started >= 0.3
    assert limit.back_offs == 2


# -- shared through Redis -------------------------------------------------------------


async def test_two_limits_with_one_name_share_one_window(redis_url: str, name: str) -> None:
    first = RateLimit("5/second", redis_url=redis_url, name=name)
    second = RateLimit("5/second", redis_url=redis_url, name=name)
    other = RateLimit("5/second", redis_url=redis_url, name=name + "-other")
    await _acquired_at(first, 5)
    started = time.monotonic()
    await other.acquire()  # another name: its own window
    assert time.monotonic() - started < 0.3
    await second.acquire()  # the same name: waits for the first's calls to leave
    assert time.monotonic() - started >= 0.6
    for limit in (first, second, other):
        await limit.aclose()


async def test_a_back_off_in_one_process_holds_the_others(redis_url: str, name: str) -> None:
    told = RateLimit("100/second", redis_url=redis_url, name=name)
    other = RateLimit("100/second", redis_url=redis_url, name=name)
    await told.back_off(0.5)
    await told.back_off(0.1)
    assert 0.35 < await other.cooldown() <= 0.5
    started = time.monotonic()
    await other.acquire()
    assert time.monotonic() - started >= 0.35
    await told.aclose()
    await other.aclose()


async def test_the_shared_token_window_counts_every_process(redis_url: str, name: str) -> None:
    first = RateLimit(tokens="50/second", redis_url=redis_url, name=name)
    second = RateLimit(tokens="50/second", redis_url=redis_url, name=name)
    await first.acquire()
    await first.record(Usage(prompt_tokens=60))
    started = time.monotonic()
    await second.acquire()
    assert time.monotonic() - started >= 0.05
    await first.aclose()
    await second.aclose()


async def test_an_unreachable_redis_fails_open_with_one_warning() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once closed
    limit = RateLimit("1/minute", redis_url=f"redis://127.0.0.1:{port}/0", name="down")
    with capture_logs() as logs:
        started = time.monotonic()
        for _ in range(3):
            await limit.acquire()
        await limit.back_off(1.0)
    assert time.monotonic() - started < 5
    warnings = [e for e in logs if e["event"] == "rate_limit_unavailable"]
    assert len(warnings) == 1


# -- the call layer ---------------------------------------------------------------------


async def test_the_caller_waits_for_the_limit_before_each_judge_call() -> None:
    limit = RateLimit("4/second")
    caller = JudgeCaller(lambda prompt: "Answer: A", cache=None, rate_limit=limit)
    guard = Guard(caller)
    started = time.monotonic()
    items = [{"question": f"q{i}?", "candidates": ["a", "b"]} for i in range(3)]
    await guard.acheck_many(items)  # six calls, four a second
    assert time.monotonic() - started >= 0.8
    assert caller.calls == 6


class _SlowDown:
    """Says "429, retry after 0.4 s" once, then answers; reports usage."""

    def __init__(self) -> None:
        self.calls = 0

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "slow-down"}

    async def complete(self, messages: Any, *, labels: Any = ()) -> JudgeResponse:
        self.calls += 1
        if self.calls == 1:
            raise TransientJudgeError("rate limited", retry_after=0.4)
        return JudgeResponse(text="Answer: A", usage=Usage(prompt_tokens=7, completion_tokens=3))


async def test_a_providers_retry_after_becomes_everyones_cooldown(
    redis_url: str, name: str
) -> None:
    mine = RateLimit("100/second", tokens="1000/minute", redis_url=redis_url, name=name)
    theirs = RateLimit("100/second", redis_url=redis_url, name=name)
    judge = _SlowDown()

    async def no_wait(_: float) -> None:
        return None

    caller = JudgeCaller(judge, cache=None, rate_limit=mine, retry=Retry(sleep=no_wait))
    started = time.monotonic()
    task = asyncio.create_task(Guard(caller).acheck({"question": "q?", "candidates": ["a", "b"]}))
    seen = 0.0  # the longest cooldown another process saw while the guard worked
    while not task.done():
        seen = max(seen, await theirs.cooldown())
        await asyncio.sleep(0.02)
    verdict = await task
    assert verdict.direct is not None and verdict.direct.raw_text == "Answer: A"
    assert mine.back_offs == 1
    assert 0.2 < seen <= 0.4
    # the retry waited out the shared cooldown (the Retry's own sleep does not wait here)
    assert time.monotonic() - started >= 0.35
    assert mine.waited >= 0.35
    await mine.aclose()
    await theirs.aclose()


def test_guard_passes_its_rate_limit_to_its_caller() -> None:
    limit = RateLimit("10/second")
    guard = Guard(FunctionJudge(lambda prompt: "Answer: A"), rate_limit=limit)
    assert guard.caller.rate_limit is limit
    with pytest.raises(UsageError, match="rate_limit"):
        Guard(JudgeCaller(lambda prompt: "Answer: A"), rate_limit=limit)
    with pytest.raises(UsageError, match="rate_limit"):
        JudgeCaller(lambda prompt: "Answer: A", rate_limit="10/second")  # type: ignore[arg-type]


# -- eval and serve honour it -----------------------------------------------------------


def test_an_evaluation_asks_its_judge_within_the_rate_limit(tmp_path: Any) -> None:
    from prin_guard import eval as evaluation

    limit = RateLimit("3/second")
    run = evaluation.run(
        FunctionJudge(lambda prompt: "Answer: A"),
        "mathqa",
        limit=2,
        mitigations=(),
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        cache="memory",
        out=tmp_path / "run",
        progress=False,
        rate_limit=limit,
    )
    assert run.summary.cost is not None
    calls = run.summary.cost.judge_calls
    assert calls >= 4
    assert limit.waited >= (calls - 3) // 3 * 0.9  # every call past the first three waited


def test_the_server_builds_the_provider_limit_from_its_settings() -> None:
    from prin_guard.server._config import ServerConfig
    from prin_guard.server._state import _provider_rate_limit

    assert _provider_rate_limit(ServerConfig()) is None
    config = ServerConfig(
        judge="openai/gpt-4o-mini",
        redis_url=REDIS,
        provider_rate_limit="500/minute",
        provider_token_limit="200000/minute",
    )
    limit = _provider_rate_limit(config)
    assert limit is not None and limit.shared and limit.name == "openai/gpt-4o-mini"
    assert repr(limit).startswith("RateLimit(calls='500/minute', tokens='200000/minute'")
    with pytest.raises(ValueError, match="not a rate"):
        ServerConfig(provider_rate_limit="fast")
