"""RedisCache against real Redis servers: the shared one and servers of our own.

No mocks of redis: the shared server at 127.0.0.1:6379 (override with
PRIN_GUARD_TEST_REDIS_URL) serves the functional tests, each in a namespace of
its own that is deleted afterwards; outages are real ``redis-server`` processes
that this file starts, kills (SIGKILL), freezes (SIGSTOP) and restarts.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Callable, MutableMapping, Sequence
from datetime import timedelta
from typing import Any

import pytest
import redis.asyncio as aioredis
from _helpers import HANG, RedisServer, free_port
from redis.exceptions import AuthenticationError, RedisError
from structlog.testing import capture_logs

import prin_guard
from prin_guard import UsageError
from prin_guard.cache import Cache, RedisCache, cache_key
from prin_guard.errors import CacheError
from prin_guard.judges import ScriptedJudge

URL = os.environ.get("PRIN_GUARD_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
RUN_ID = uuid.uuid4().hex[:12]
_serial = itertools.count()

PROMPT_TEXT = "What is the capital of France?"


def _key(i: int) -> str:
    return cache_key({"question": PROMPT_TEXT, "i": i})


def _value(i: int) -> str:
    return json.dumps({"schema": 1, "kind": "leg", "text": f"Answer: {i} — é ✓"})


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _warnings(events: Sequence[MutableMapping[str, Any]]) -> list[MutableMapping[str, Any]]:
    return [e for e in events if e["event"] == "cache_unavailable"]


# -- fixtures --------------------------------------------------------------------------


@pytest.fixture
async def raw() -> AsyncIterator[aioredis.Redis]:
    """A plain client on the shared server, to look behind the cache's back."""
    client = aioredis.Redis.from_url(URL, socket_timeout=2)
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        await client.aclose()
        pytest.skip(f"no Redis at {URL}: {exc}")
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def namespace(raw: aioredis.Redis) -> AsyncIterator[str]:
    """A namespace unique to this test of this run; everything in it is deleted after."""
    name = f"test-{RUN_ID}-{next(_serial)}"
    try:
        yield name
    finally:
        names = [n async for n in raw.scan_iter(match=f"prin_guard:v1:{name}:*", count=500)]
        if names:
            await raw.delete(*names)


@pytest.fixture
async def cache(namespace: str) -> AsyncIterator[RedisCache]:
    c = RedisCache.from_url(URL, namespace=namespace)
    try:
        yield c
    finally:
        await c.aclose()


async def _names(raw: aioredis.Redis, namespace: str) -> set[str]:
    return {
        n.decode() async for n in raw.scan_iter(match=f"prin_guard:v1:{namespace}:*", count=500)
    }


@pytest.fixture
def acl_redis(start_redis: Callable[..., RedisServer]) -> RedisServer:
    """A server of the test's own that admits only the ACL user alice (password s3cret)."""
    return start_redis(
        "--user", "default", "off",
        "--user", "alice", "on", ">s3cret", "~*", "&*", "+@all",
    )  # fmt: skip


# -- the Cache protocol ----------------------------------------------------------------


def test_is_a_cache_and_not_imported_by_prin_guard() -> None:
    assert issubclass(RedisCache, Cache)
    code = (
        "import sys, prin_guard, prin_guard.cache; "
        "assert 'redis' not in sys.modules, 'redis imported'; "
        "assert 'prin_guard.cache._redis' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


async def test_round_trip(cache: RedisCache) -> None:
    entries = {_key(i): _value(i) for i in range(3)}
    await cache.set_many(entries)
    assert await cache.get_many(list(entries)) == list(entries.values())


async def test_get_many_keeps_key_order_with_misses(cache: RedisCache) -> None:
    await cache.set_many({_key(1): _value(1), _key(3): _value(3)})
    keys = [_key(0), _key(1), _key(2), _key(3), _key(1)]
    assert await cache.get_many(keys) == [None, _value(1), None, _value(3), _value(1)]
    assert await cache.get_many([]) == []
    await cache.set_many({})


async def test_ttl_is_set(namespace: str, raw: aioredis.Redis) -> None:
    async with RedisCache.from_url(URL, namespace=namespace, ttl=timedelta(seconds=100)) as c:
        await c.set_many({_key(0): _value(0)})
        assert 99_000 < await raw.pttl(c.key_name(_key(0))) <= 100_000
    async with RedisCache.from_url(URL, namespace=namespace, ttl=2.5) as c:  # PX, not EX
        await c.set_many({_key(1): _value(1)})
        assert 2_000 < await raw.pttl(c.key_name(_key(1))) <= 2_500
    async with RedisCache.from_url(URL, namespace=namespace) as c:  # default: 7 days
        await c.set_many({_key(2): _value(2)})
        assert 7 * 86_400 - 5 < await raw.ttl(c.key_name(_key(2))) <= 7 * 86_400


async def test_ttl_none_never_expires(namespace: str, raw: aioredis.Redis) -> None:
    async with RedisCache.from_url(URL, namespace=namespace, ttl=None) as c:
        await c.set_many({_key(0): _value(0)})
        assert await raw.ttl(c.key_name(_key(0))) == -1


async def test_key_layout_inserts_namespace_and_holds_no_prompt_text(
    cache: RedisCache, namespace: str, raw: aioredis.Redis
) -> None:
    key = _key(0)
    digest = key.rsplit(":", 1)[1]
    await cache.set_many({key: _value(0)})
    await cache.claim(key)
    assert await _names(raw, namespace) == {
        f"prin_guard:v1:{namespace}:{digest}",
        f"prin_guard:v1:{namespace}:lock:{digest}",
    }
    assert all(
        PROMPT_TEXT not in name and "France" not in name for name in await _names(raw, namespace)
    )
    # the stored value is exactly the engine's JSON text, UTF-8, not pickled
    assert await raw.get(f"prin_guard:v1:{namespace}:{digest}") == _value(0).encode()
    # nothing outside the namespace was written
    assert await raw.exists(key) == 0


async def test_namespaces_are_separate(namespace: str) -> None:
    other = f"{namespace}-other"
    async with (
        RedisCache.from_url(URL, namespace=namespace) as a,
        RedisCache.from_url(URL, namespace=other) as b,
    ):
        try:
            await a.set_many({_key(0): _value(0)})
            assert await b.get_many([_key(0)]) == [None]
        finally:
            await b.clear()


async def test_refuses_keys_that_are_not_engine_hashes(cache: RedisCache) -> None:
    for bad in [f"prin_guard:v1:{PROMPT_TEXT}", "abc", "prin_guard:v1:" + "A" * 64]:
        with pytest.raises(ValueError, match="not a prin-guard cache key") as info:
            await cache.get_many([bad])
        assert PROMPT_TEXT not in str(info.value)
    with pytest.raises(ValueError, match="not a prin-guard cache key"):
        await cache.set_many({"raw prompt": "{}"})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("namespace", ""),
        ("namespace", "a" * 65),
        ("namespace", "has:colon"),
        ("namespace", "sp ace"),
        ("namespace", "glob*"),
        ("ttl", 0),
        ("ttl", -1),
        ("ttl", float("nan")),
        ("ttl", timedelta(0)),
        ("lock_ttl", 0),
        ("cache_errors", "ignore"),
        ("cooldown", -1),
    ],
)
def test_bad_options_are_usage_errors(option: str, value: object) -> None:
    with pytest.raises(UsageError, match=option):
        RedisCache.from_url(URL, **{option: value})  # type: ignore[arg-type]


def test_constructor_takes_an_existing_client_and_leaves_it_open() -> None:
    client = aioredis.Redis.from_url(URL)

    async def run() -> None:
        cache = RedisCache(client, namespace=f"test-{RUN_ID}-client")
        assert await cache.ping()
        await cache.aclose()
        assert await client.ping()  # still the caller's, still open
        await client.aclose()

    asyncio.run(run())
    with pytest.raises(UsageError, match="client"):
        RedisCache("redis://nope")  # type: ignore[arg-type]


async def test_counters(cache: RedisCache, raw: aioredis.Redis) -> None:
    await cache.set_many({_key(0): _value(0)})
    await cache.get_many([_key(0), _key(1), _key(2)])
    assert (cache.hits, cache.misses, cache.errors) == (1, 2, 0)
    assert cache.stats() == {"hits": 1, "misses": 2, "errors": 0, "skipped": 0}


async def test_foreign_bytes_are_a_miss(cache: RedisCache, raw: aioredis.Redis) -> None:
    await raw.set(cache.key_name(_key(0)), b"\x80\x04\x95pickle\xff")
    await cache.set_many({_key(1): _value(1)})
    assert await cache.get_many([_key(0), _key(1)]) == [None, _value(1)]


async def test_ping_and_clear(cache: RedisCache, namespace: str, raw: aioredis.Redis) -> None:
    assert await cache.ping() is True
    await cache.set_many({_key(i): _value(i) for i in range(5)})
    await cache.claim(_key(0))
    assert await cache.clear() == 6
    assert await _names(raw, namespace) == set()


@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_a_cache_from_url_follows_the_event_loop(namespace: str) -> None:
    # asyncio.run once per batch: each run has a new loop, which the pool of the
    # first cannot serve; the cache opens a fresh pool rather than failing. The
    # dropped pool's sockets are closed by the garbage collector (hence the
    # ResourceWarning, collected here so that it stays in this test).
    cache = RedisCache.from_url(URL, namespace=namespace)
    asyncio.run(cache.set_many({_key(0): _value(0)}))
    assert asyncio.run(cache.get_many([_key(0)])) == [_value(0)]
    asyncio.run(cache.aclose())
    assert cache.errors == 0
    gc.collect()


async def test_urls_with_acl_user_and_password_tcp_and_unix(acl_redis: RedisServer) -> None:
    urls = [
        f"redis://alice:s3cret@127.0.0.1:{acl_redis.port}/0",
        f"unix://alice:s3cret@{acl_redis.socket_path}?db=0",
    ]
    for i, url in enumerate(urls):
        async with RedisCache.from_url(url, namespace="acl") as c:
            await c.set_many({_key(i): _value(i)})
            assert await c.get_many([_key(i)]) == [_value(i)]
            assert c.errors == 0


async def test_a_wrong_password_fails_open_as_auth(acl_redis: RedisServer) -> None:
    url = f"redis://alice:wrong@127.0.0.1:{acl_redis.port}/0"
    with capture_logs() as events:
        async with RedisCache.from_url(url) as c:
            assert await c.get_many([_key(0)]) == [None]
    [warning] = _warnings(events)
    assert warning["reason"] == "auth"
    assert "wrong" not in str(warning)  # the password is not logged
    async with RedisCache.from_url(url, cache_errors="raise") as c:
        with pytest.raises(CacheError) as info:
            await c.get_many([_key(0)])
    assert isinstance(info.value.__cause__, AuthenticationError)


def test_rediss_url_makes_tls_connections() -> None:
    cache = RedisCache.from_url("rediss://alice:pw@cache.example:6380/2", ssl_cert_reqs="required")
    pool = cache._client.connection_pool
    assert pool.connection_class.__name__ == "SSLConnection"
    assert pool.connection_kwargs["username"] == "alice"
    assert pool.connection_kwargs["db"] == 2
    assert pool.connection_kwargs["socket_timeout"] == 1.0
    assert pool.connection_kwargs["socket_connect_timeout"] == 1.0


# -- failing open --------------------------------------------------------------------


async def test_nothing_listening_means_misses_and_one_warning() -> None:
    clock = FakeClock()
    cache = RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/0", clock=clock, cooldown=0)
    with capture_logs() as events:
        for i in range(20):
            assert await cache.get_many([_key(i), _key(i + 1)]) == [None, None]
            await cache.set_many({_key(i): _value(i)})
            clock.advance(1.0)  # 40 failing calls over 20 s: still one warning
    assert cache.errors == 40
    assert cache.misses == 40
    assert cache.hits == 0
    [warning] = _warnings(events)
    assert warning["log_level"] == "warning"
    assert warning["reason"] == "connection"
    assert "127.0.0.1" not in str(warning.get("url", ""))
    with capture_logs() as events:
        clock.advance(10.0)  # 30 s after the first warning
        await cache.get_many([_key(0)])
    [warning] = _warnings(events)
    assert warning["suppressed"] == 39
    assert await cache.ping() is False
    await cache.aclose()


async def test_cooldown_skips_redis_then_tries_again() -> None:
    clock = FakeClock()
    cache = RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/0", clock=clock, cooldown=5)
    with capture_logs() as events:
        for _ in range(10):
            assert await cache.get_many([_key(0)]) == [None]
        assert (cache.errors, cache.skipped) == (1, 9)
        clock.advance(5.0)
        assert await cache.get_many([_key(0)]) == [None]
        assert cache.errors == 2
    assert len(_warnings(events)) == 1
    await cache.aclose()


async def test_raise_mode_raises_cache_error_from_the_redis_error() -> None:
    cache = RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/0", cache_errors="raise")
    with pytest.raises(CacheError, match="get_many") as info:
        await cache.get_many([_key(0)])
    assert isinstance(info.value.__cause__, RedisError | OSError)
    with pytest.raises(CacheError, match="set_many"):  # no cooldown in raise mode
        await cache.set_many({_key(0): _value(0)})
    # the single-flight methods fail open whatever cache_errors says
    assert await cache.claim(_key(0)) is True
    assert await cache.release(_key(0)) is False
    assert await cache.wait(_key(0), timeout=5) is None
    assert (cache.errors, cache.skipped) == (2, 2)  # lock calls skip Redis in the cooldown
    await cache.aclose()


async def test_single_flight_fails_open_when_redis_is_down() -> None:
    cache = RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/0", cooldown=0)
    assert await cache.claim(_key(0)) is True
    await cache.release(_key(0))
    # An hour's wait unless it gives up on the failed poll; the guard only stops a hang.
    async with asyncio.timeout(HANG):
        assert await cache.wait(_key(0), timeout=3600) is None
    assert cache.errors == 2  # the claim, and the wait's one poll (no claim: no release)
    await cache.aclose()


async def test_outage_and_recovery(redis_server: RedisServer) -> None:
    clock = FakeClock()
    cache = RedisCache.from_url(redis_server.url, namespace="outage", clock=clock)
    try:
        await cache.set_many({_key(0): _value(0)})
        assert await cache.get_many([_key(0)]) == [_value(0)]

        redis_server.kill()
        with capture_logs() as events:
            for i in range(10):
                assert await cache.get_many([_key(0), _key(i)]) == [None, None]
                await cache.set_many({_key(i): _value(i)})
                assert await cache.claim(_key(i)) is True
                assert await cache.wait(_key(i), timeout=1) is None
                await cache.release(_key(i))
                clock.advance(0.5)  # through several cooldowns, so Redis is retried
        assert cache.errors > 1
        assert len(_warnings(events)) == 1

        redis_server.start()  # same port, empty (no persistence)
        clock.advance(cache.cooldown)
        with capture_logs() as events:
            await cache.set_many({_key(1): _value(1)})
            assert await cache.get_many([_key(0), _key(1)]) == [None, _value(1)]
        assert [e["event"] for e in events] == ["cache_available"]
        assert await cache.claim(_key(2)) is True
        assert await cache.claim(_key(2)) is False  # locks work again too
    finally:
        await cache.aclose()


async def test_stale_pooled_connections_recover_after_a_restart(redis_server: RedisServer) -> None:
    cache = RedisCache.from_url(redis_server.url, namespace="restart")
    try:
        await asyncio.gather(*(cache.set_many({_key(i): _value(i)}) for i in range(4)))
        redis_server.kill()  # no call in between: the pool holds only dead sockets
        redis_server.start()
        await cache.set_many({_key(9): _value(9)})
        assert await cache.get_many([_key(0), _key(9)]) == [None, _value(9)]
        assert cache.errors == 0  # one immediate retry on a fresh connection sufficed
    finally:
        await cache.aclose()


async def test_a_frozen_server_times_out_into_misses(redis_server: RedisServer) -> None:
    clock = FakeClock()
    cache = RedisCache.from_url(
        redis_server.url, namespace="frozen", socket_timeout=0.2, clock=clock
    )
    try:
        await cache.set_many({_key(0): _value(0)})
        redis_server.pause()
        with capture_logs() as events:
            async with asyncio.timeout(HANG):  # a frozen server never answers
                assert await cache.get_many([_key(0)]) == [None]
                await cache.set_many({_key(1): _value(1)})  # in the cooldown: not sent
        assert (cache.errors, cache.skipped) == (1, 1)
        [warning] = _warnings(events)
        assert warning["reason"] == "timeout"
        redis_server.resume()
        clock.advance(cache.cooldown)
        assert await cache.get_many([_key(0)]) == [_value(0)]  # no stale reply read
    finally:
        redis_server.resume()
        await cache.aclose()


# -- single flight ---------------------------------------------------------------------


async def test_claim_is_exclusive_until_released(namespace: str, raw: aioredis.Redis) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=5) as a,
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=5) as b,
    ):
        assert await a.claim(_key(0)) is True
        assert await b.claim(_key(0)) is False
        assert 4_000 < await raw.pttl(a.lock_name(_key(0))) <= 5_000
        assert await b.release(_key(0)) is False  # not b's to release
        assert await raw.exists(a.lock_name(_key(0))) == 1
        assert await a.release(_key(0)) is True
        assert await raw.exists(a.lock_name(_key(0))) == 0
        assert await b.claim(_key(0)) is True
        assert await b.release(_key(0)) is True


async def test_expired_holder_cannot_release_the_new_holders_lock(
    namespace: str, raw: aioredis.Redis
) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=0.1) as a,
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=5) as b,
    ):
        assert await a.claim(_key(0)) is True
        assert await b.claim(_key(0)) is False
        await asyncio.sleep(0.2)  # a stalls past its lock's TTL
        assert await b.claim(_key(0)) is True  # b takes over
        assert await a.release(_key(0)) is False
        assert await raw.exists(b.lock_name(_key(0))) == 1  # b's lock survived
        assert await b.release(_key(0)) is True


async def test_wait_returns_the_value_the_holder_stores(namespace: str) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace) as holder,
        RedisCache.from_url(URL, namespace=namespace) as waiter,
    ):
        assert await holder.claim(_key(0))
        assert not await waiter.claim(_key(0))

        async def compute() -> None:
            await asyncio.sleep(0.15)
            await holder.set_many({_key(0): _value(0)})
            await holder.release(_key(0))

        task = asyncio.create_task(compute())
        # still locked at the first polls: a wait that gave up at once would get None
        async with asyncio.timeout(HANG):
            assert await waiter.wait(_key(0), timeout=3600, poll=0.02) == _value(0)
        await task
        # a value already there is returned at once, lock or no lock
        assert await waiter.wait(_key(0), timeout=5) == _value(0)


async def test_wait_gives_up_when_the_holder_releases_without_a_value(namespace: str) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace) as holder,
        RedisCache.from_url(URL, namespace=namespace) as waiter,
    ):
        assert await holder.claim(_key(0))

        async def fail() -> None:
            await asyncio.sleep(0.1)
            await holder.release(_key(0))

        task = asyncio.create_task(fail())
        # An hour's timeout: only the release can end this wait (the guard stops a hang).
        async with asyncio.timeout(HANG):
            assert await waiter.wait(_key(0), timeout=3600, poll=0.02) is None
        await task
        assert await waiter.claim(_key(0)) is True  # so the waiter computes it itself


async def test_wait_gives_up_when_the_holder_dies(namespace: str, raw: aioredis.Redis) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=0.5) as holder,
        RedisCache.from_url(URL, namespace=namespace) as waiter,
    ):
        assert await holder.claim(_key(0))  # and never stores nor releases
        # An hour's timeout: only the lock's expiry can end this wait.
        async with asyncio.timeout(HANG):
            assert await waiter.wait(_key(0), timeout=3600, poll=0.02) is None
        assert await raw.exists(holder.lock_name(_key(0))) == 0  # not given up before


async def test_wait_times_out(namespace: str, raw: aioredis.Redis) -> None:
    async with (
        RedisCache.from_url(URL, namespace=namespace, lock_ttl=10) as holder,
        RedisCache.from_url(URL, namespace=namespace) as waiter,
    ):
        assert await holder.claim(_key(0))
        async with asyncio.timeout(HANG):
            assert await waiter.wait(_key(0), timeout=0.2, poll=0.05) is None
            assert await waiter.wait(_key(1), timeout=3600) is None  # nobody holds it
        assert await raw.exists(holder.lock_name(_key(0))) == 1  # the timeout ended it
        with pytest.raises(UsageError, match="poll"):
            await waiter.wait(_key(0), timeout=1, poll=0)
        await holder.release(_key(0))


# -- with the engine -------------------------------------------------------------------


def _batch(n: int) -> list[dict[str, Any]]:
    return [
        {"question": f"q{i} {PROMPT_TEXT}", "candidates": ["x", "y"], "id": f"i{i}"}
        for i in range(n)
    ]


async def test_guard_second_run_makes_no_judge_calls(
    cache: RedisCache, namespace: str, raw: aioredis.Redis
) -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    first = await prin_guard.Guard(judge, cache=cache).acheck_many(_batch(100))
    assert judge.call_count == 200
    assert [v.correct for v in first] == [("A",)] * 100
    assert not any(v.cached for v in first)

    # another guard, as another process would be: everything comes from Redis
    second = await prin_guard.Guard(judge, cache=cache).acheck_many(_batch(100))
    assert judge.call_count == 200
    assert all(v.cached for v in second)
    assert [v.correct for v in second] == [v.correct for v in first]
    names = await _names(raw, namespace)
    assert len(names) == 200
    assert not any(PROMPT_TEXT in name for name in names)


@pytest.mark.parametrize(
    "corrupt",
    [
        b"{not json",
        b"\xff\xfe\x00",
        json.dumps({"schema": 0, "kind": "leg", "text": "Answer: B"}).encode(),
        b'"a foreign string"',
    ],
)
async def test_guard_treats_a_corrupt_value_as_a_miss_and_overwrites_it(
    cache: RedisCache, namespace: str, raw: aioredis.Redis, corrupt: bytes
) -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    guard = prin_guard.Guard(judge, cache=cache)
    await guard.acheck_many(_batch(2))
    assert judge.call_count == 4
    victim = sorted(await _names(raw, namespace))[0]
    await raw.set(victim, corrupt)

    verdicts = await guard.acheck_many(_batch(2))
    assert judge.call_count == 5  # only the corrupt leg was judged again
    assert [v.correct for v in verdicts] == [("A",), ("A",)]
    stored = await raw.get(victim)
    assert stored is not None
    repaired = json.loads(stored)
    assert repaired["schema"] == 1
    assert repaired["kind"] == "leg"
    assert await raw.ttl(victim) > 0


async def test_redis_killed_during_a_batch_of_200_costs_no_verdict(
    redis_server: RedisServer,
) -> None:
    """Kill Redis in the middle of check_many, restart it: every item still gets a
    verdict, nothing escapes, and what is judged after the restart is cached again."""
    cache = RedisCache.from_url(
        redis_server.url, namespace="outage", socket_timeout=0.2, cooldown=0.05
    )
    done = 0

    async def judge(prompt: str) -> str:
        nonlocal done
        await asyncio.sleep(0.002)
        done += 1
        if done == 120:
            redis_server.kill()  # mid-batch, from inside a judge call
        if done == 260:
            redis_server.start()
        return "Answer: A" if "incorrect" not in prompt else "Answer: B"

    guard = prin_guard.Guard(
        prin_guard.FunctionJudge(judge, name="outage-judge"), cache=cache, concurrency=4
    )
    with capture_logs() as events:
        verdicts = await guard.acheck_many(_batch(200))
    assert len(verdicts) == 200
    assert all(v.correct == ("A",) and not v.flags for v in verdicts)
    warnings = [e for e in events if e["log_level"] == "warning"]
    assert 1 <= len([e for e in warnings if e["event"] == "cache_unavailable"]) <= 2

    # The legs judged after the restart were stored again: a second pass calls the
    # judge only for the legs whose writes fell into the outage.
    second = prin_guard.Guard(prin_guard.FunctionJudge(judge, name="outage-judge"), cache=cache)
    again = await second.acheck_many(_batch(200))
    assert all(v.correct == ("A",) for v in again)
    assert sum(v.cached for v in again) > 0
    assert 0 < second.judge_calls < guard.judge_calls
    await cache.aclose()
