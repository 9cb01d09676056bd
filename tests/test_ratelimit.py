"""The provider's rate limit: windows, tokens, the shared cooldown, and the call layer.

Shared behaviour is tested against the real Redis at 127.0.0.1:6379, each test
under a name of its own, so tests never see each other's windows. Waits are read from
the limit's injected sleep (a minute asked for, never spent), not timed.
"""

from __future__ import annotations

import asyncio
import pickle
import socket
import uuid
from typing import Any

import pytest
from _helpers import free_port
from structlog.testing import capture_logs

from prin_guard import Guard, JudgeError, RateLimit, Retry, UsageError
from prin_guard.calls import JudgeCaller
from prin_guard.errors import TransientJudgeError
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


class Held(Exception):
    """Raised by a holding :class:`Sleeps`: the limit made its caller wait."""


class Sleeps:
    """RateLimit's injected sleep: records each wait the limit asks for.

    With ``hold`` it stops the waiting caller there (raises :class:`Held`), so a test
    sees a wait of a minute asked for without spending it; otherwise it really sleeps.
    """

    def __init__(self, *, hold: bool = False) -> None:
        self.delays: list[float] = []
        self.hold = hold

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        if self.hold:
            raise Held(seconds)
        await asyncio.sleep(seconds)


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
    sleeps = Sleeps(hold=True)
    limit = RateLimit("10/minute", sleep=sleeps)
    for _ in range(10):
        await limit.acquire()
    assert sleeps.delays == []  # the first ten go at once
    with pytest.raises(Held):
        await limit.acquire()
    [wait] = sleeps.delays  # the eleventh waits for the first to leave the window
    assert 30 < wait <= 60
    # In a window of a second, waited out for real: the third call goes once a slot is free.
    sleeps = Sleeps()
    limit = RateLimit("2/second", sleep=sleeps)
    for _ in range(3):
        await limit.acquire()
    assert sleeps.delays
    assert all(0 < wait <= 1 for wait in sleeps.delays)


async def test_a_token_limit_holds_new_calls_once_the_window_is_spent() -> None:
    sleeps = Sleeps(hold=True)
    limit = RateLimit(tokens="100/minute", sleep=sleeps)
    await limit.acquire()
    await limit.record(None)  # unknown usage counts nothing
    await limit.acquire()
    await limit.record(Usage(prompt_tokens=90, completion_tokens=10))
    assert sleeps.delays == []
    with pytest.raises(Held):
        await limit.acquire()
    [wait] = sleeps.delays  # until the window resets
    assert 30 < wait <= 60


async def test_a_back_off_holds_every_caller_and_takes_the_longest() -> None:
    sleeps = Sleeps(hold=True)
    limit = RateLimit("100/second", sleep=sleeps)
    await limit.back_off(40)
    await limit.back_off(10)  # a shorter one does not shorten it
    assert 30 < await limit.cooldown() <= 40
    with pytest.raises(Held):
        await limit.acquire()
    [wait] = sleeps.delays
    assert 30 < wait <= 40
    assert limit.back_offs == 2


# -- shared through Redis -------------------------------------------------------------


async def test_two_limits_with_one_name_share_one_window(redis_url: str, name: str) -> None:
    sleeps = Sleeps(hold=True)
    first = RateLimit("5/minute", redis_url=redis_url, name=name, sleep=sleeps)
    second = RateLimit("5/minute", redis_url=redis_url, name=name, sleep=sleeps)
    other = RateLimit("5/minute", redis_url=redis_url, name=name + "-other", sleep=sleeps)
    for _ in range(5):
        await first.acquire()
    await other.acquire()  # another name: its own window
    assert sleeps.delays == []
    with pytest.raises(Held):
        await second.acquire()  # the same name: waits for the first's calls to leave
    [wait] = sleeps.delays
    assert 30 < wait <= 60
    for limit in (first, second, other):
        await limit.aclose()


async def test_a_back_off_in_one_process_holds_the_others(redis_url: str, name: str) -> None:
    sleeps = Sleeps(hold=True)
    told = RateLimit("100/second", redis_url=redis_url, name=name)
    other = RateLimit("100/second", redis_url=redis_url, name=name, sleep=sleeps)
    await told.back_off(40)
    await told.back_off(10)
    assert 30 < await other.cooldown() <= 40
    with pytest.raises(Held):
        await other.acquire()
    [wait] = sleeps.delays
    assert 30 < wait <= 40
    await told.aclose()
    await other.aclose()


async def test_the_shared_token_window_counts_every_process(redis_url: str, name: str) -> None:
    sleeps = Sleeps(hold=True)
    first = RateLimit(tokens="50/minute", redis_url=redis_url, name=name, sleep=sleeps)
    second = RateLimit(tokens="50/minute", redis_url=redis_url, name=name, sleep=sleeps)
    await first.acquire()
    await first.record(Usage(prompt_tokens=60))
    with pytest.raises(Held):
        await second.acquire()
    [wait] = sleeps.delays
    assert 30 < wait <= 60
    await first.aclose()
    await second.aclose()


async def test_an_unreachable_redis_fails_open_with_one_warning() -> None:
    sleeps = Sleeps(hold=True)
    url = f"redis://127.0.0.1:{free_port()}/0"
    limit = RateLimit("1/minute", redis_url=url, name="down", sleep=sleeps)
    with capture_logs() as logs:
        for _ in range(3):
            await limit.acquire()  # a working limit would hold the second
        await limit.back_off(60)
        await limit.acquire()
    assert sleeps.delays == []
    warnings = [e for e in logs if e["event"] == "rate_limit_unavailable"]
    assert len(warnings) == 1


# -- the call layer ---------------------------------------------------------------------


async def test_the_caller_waits_for_the_limit_before_each_judge_call() -> None:
    sleeps = Sleeps(hold=True)
    limit = RateLimit("4/minute", sleep=sleeps)
    caller = JudgeCaller(lambda prompt: "Answer: A", cache=None, rate_limit=limit)
    items = [{"question": f"q{i}?", "candidates": ["a", "b"]} for i in range(3)]
    await Guard(caller).acheck_many(items)  # six legs, four calls a minute
    assert caller.calls == 4
    assert len(sleeps.delays) == 2  # the fifth and sixth were held before the judge


class _SlowDown:
    """Says "429, retry after 40 s" once, then answers; reports usage."""

    def __init__(self) -> None:
        self.calls = 0

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "slow-down"}

    async def complete(self, messages: Any, *, labels: Any = ()) -> JudgeResponse:
        self.calls += 1
        if self.calls == 1:
            raise TransientJudgeError("rate limited", retry_after=40)
        return JudgeResponse(text="Answer: A", usage=Usage(prompt_tokens=7, completion_tokens=3))


async def test_a_providers_retry_after_becomes_everyones_cooldown(
    redis_url: str, name: str
) -> None:
    theirs = RateLimit("100/second", redis_url=redis_url, name=name)
    seen: list[float] = []  # the cooldown another process saw while this one was held

    async def held(seconds: float) -> None:
        seen.append(await theirs.cooldown())
        raise Held(seconds)

    mine = RateLimit("100/second", tokens="1000/minute", redis_url=redis_url, name=name, sleep=held)
    judge = _SlowDown()

    async def no_wait(_: float) -> None:
        return None

    caller = JudgeCaller(judge, cache=None, rate_limit=mine, retry=Retry(sleep=no_wait))
    with pytest.raises(JudgeError) as caught:
        await Guard(caller).acheck({"question": "q?", "candidates": ["a", "b"]})
    assert mine.back_offs == 1
    # The retry was held by the shared cooldown (the Retry's own sleep does not wait
    # here), and the other process saw that cooldown meanwhile.
    assert isinstance(caught.value.__cause__, Held)
    assert seen
    assert all(30 < cooldown <= 40 for cooldown in seen)
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

    sleeps = Sleeps(hold=True)
    limit = RateLimit("3/minute", sleep=sleeps)
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
    # Two items, two legs each: the fourth call is held (and fails that item's verdict).
    [wait] = sleeps.delays
    assert 30 < wait <= 60
    assert run.summary.items_judged == 1


async def test_the_server_builds_the_provider_limit_from_its_settings() -> None:
    pytest.importorskip("fastapi")
    from prin_guard.judges import ScriptedJudge
    from prin_guard.server import ServerConfig, create_app

    async def started_limit(config: ServerConfig) -> RateLimit | None:
        app = create_app(config, judge=ScriptedJudge(), cache=None)
        async with app.router.lifespan_context(app):
            caller = app.state.prin_guard.caller
            assert caller is not None
            return caller.rate_limit

    assert await started_limit(ServerConfig(allow_no_auth=True)) is None
    limit = await started_limit(
        ServerConfig(
            judge="openai/gpt-4o-mini",
            redis_url=REDIS,
            provider_rate_limit="500/minute",
            provider_token_limit="200000/minute",
            allow_no_auth=True,
        )
    )
    assert limit is not None and limit.shared and limit.name == "openai/gpt-4o-mini"
    assert repr(limit).startswith("RateLimit(calls='500/minute', tokens='200000/minute'")
    with pytest.raises(ValueError, match="not a rate"):
        ServerConfig(provider_rate_limit="fast")
