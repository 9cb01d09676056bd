"""Per-API-key rate limits and daily budgets of the HTTP service, over real HTTP.

The helpers (a real uvicorn server on a free loopback port, a redis-server of the
test's own) are tests/test_server.py's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("limits")

import redis
from server_judges import rule, scripted
from test_server import (
    AUTH,
    ITEM,
    KEY,
    OTHER_KEY,
    RedisServer,
    config,
    metrics_of,
    service,
    serving,
)

from prin_guard import MemoryCache, UsageError
from prin_guard.judges import ScriptedJudge, Usage
from prin_guard.server import create_app, load_config
from prin_guard.server._limits import key_identity

OTHER = {"Authorization": f"Bearer {OTHER_KEY}"}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH")
    server = RedisServer(tmp_path)
    try:
        yield server
    finally:
        server.kill()


def item(n: int) -> dict[str, Any]:
    """A distinct item each time, so that no verdict comes from the cache."""
    return {**ITEM, "question": f"What is 2 + 2? (#{n})"}


def assert_refused(response: httpx.Response, kind: str, most: int) -> int:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["type"] == kind
    assert error["request_id"] == response.headers["x-request-id"]
    retry_after = int(response.headers["retry-after"])
    assert 1 <= retry_after <= most
    assert error["retry_after"] == retry_after
    return retry_after


def test_limits_are_off_by_default() -> None:
    app = create_app(config(), judge=scripted(), cache=MemoryCache())
    with serving(app) as client:
        for n in range(12):
            assert client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH).is_success
        samples = metrics_of(client)
    assert app.state.prin_guard.limits is None
    assert samples['prin_guard_limited_requests_total{reason="rate_limited"}'] == 0
    assert samples['prin_guard_limited_requests_total{reason="budget_exhausted"}'] == 0


def test_a_key_over_its_rate_gets_429_and_other_keys_do_not() -> None:
    with service(rate_limit="3/minute") as client:
        for n in range(3):
            response = client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
            assert response.status_code == 200, response.text
        fourth = client.post("/v1/verdicts", json={"item": item(3)}, headers=AUTH)
        assert_refused(fourth, "rate_limited", 60)
        assert "rate_limit" in fourth.json()["error"]["message"]
        assert KEY not in fourth.text
        # another key has its own count
        assert client.post("/v1/verdicts", json={"item": ITEM}, headers=OTHER).status_code == 200
        # a batch counts one per item: 2 left for OTHER_KEY, a batch of 3 is refused...
        batch = client.post("/v1/verdicts", json={"items": [item(1)] * 3}, headers=OTHER)
        assert_refused(batch, "rate_limited", 60)
        # ...and consumed nothing: a batch of 2 still passes, then the key is out
        two = client.post("/v1/verdicts", json={"items": [item(1)] * 2}, headers=OTHER)
        assert two.status_code == 200, two.text
        assert_refused(
            client.post("/v1/verdicts", json={"item": ITEM}, headers=OTHER), "rate_limited", 60
        )
        samples = metrics_of(client)
    assert samples['prin_guard_limited_requests_total{reason="rate_limited"}'] == 3


def test_two_workers_share_the_rate_through_redis(redis_server: RedisServer) -> None:
    settings = {
        "redis_url": redis_server.url,
        "redis_namespace": "limits",
        "rate_limit": "3/minute",
    }
    apps = [create_app(config(**settings), judge=scripted(), cache=MemoryCache()) for _ in "ab"]
    with serving(apps[0]) as first, serving(apps[1]) as second:
        for n, client in enumerate((first, second, first)):
            response = client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
            assert response.status_code == 200, response.text
        assert_refused(
            second.post("/v1/verdicts", json={"item": item(9)}, headers=AUTH), "rate_limited", 60
        )
        assert_refused(
            first.post("/v1/verdicts", json={"item": item(9)}, headers=AUTH), "rate_limited", 60
        )
        assert second.post("/v1/verdicts", json={"item": ITEM}, headers=OTHER).status_code == 200
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    names = cast("list[str]", store.keys("*"))
    assert names, "the limiter wrote nothing to Redis"
    identity = key_identity(KEY)
    assert identity == hashlib.sha256(KEY.encode()).hexdigest()[:24]
    assert any(identity in name for name in names)
    for name in names:
        assert name.startswith("prin_guard:limits:rate"), name
        assert KEY not in name and OTHER_KEY not in name
    store.close()


@pytest.mark.parametrize("shared", [False, True], ids=["memory", "redis"])
def test_a_key_that_spent_its_daily_budget_gets_429(
    shared: bool, request: pytest.FixtureRequest
) -> None:
    settings: dict[str, Any] = {"daily_budget_usd": 0.05}
    if shared:
        server: RedisServer = request.getfixturevalue("redis_server")
        settings.update(redis_url=server.url, redis_namespace="spend")
    judge = ScriptedJudge(fn=rule, usage=Usage(cost_usd=0.01))  # type: ignore[arg-type]
    apps = [create_app(config(**settings), judge=judge, cache=None) for _ in range(2)]
    spent = 0.0
    with serving(apps[0]) as first, serving(apps[1]) as second:
        # with Redis the two workers share the spending; in memory use one worker
        clients = (first, second) if shared else (first, first)
        n = 0
        while spent < 0.05:
            client = clients[n % 2]
            response = client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
            assert response.status_code == 200, response.text
            cost = response.json()["verdict"]["usage"]["cost_usd"]
            assert cost > 0
            spent += cost
            n += 1
        # spending reached the budget (the last request overshot it by its own cost)
        refused = clients[n % 2].post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
        now = dt.datetime.now(dt.UTC)
        midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
        retry_after = assert_refused(refused, "budget_exhausted", 86400)
        assert abs(retry_after - (midnight - now).total_seconds()) < 5
        assert "daily_budget_usd" in refused.json()["error"]["message"]
        assert_refused(
            clients[(n + 1) % 2].post("/v1/verdicts", json={"items": [ITEM]}, headers=AUTH),
            "budget_exhausted",
            86400,
        )
        # another key has a budget of its own
        assert first.post("/v1/verdicts", json={"item": ITEM}, headers=OTHER).status_code == 200
        samples = metrics_of(clients[n % 2])
    assert samples['prin_guard_limited_requests_total{reason="budget_exhausted"}'] >= 1
    if shared:
        store = redis.Redis.from_url(server.url, decode_responses=True)
        names = cast("list[str]", store.keys("*"))
        day = now.date().isoformat()
        assert sorted(names) == sorted(
            f"prin_guard:spend:budget:{key_identity(key)}:{day}" for key in (KEY, OTHER_KEY)
        )
        assert float(store.get(names[0]) or 0) > 0
        assert 0 < store.ttl(names[0]) <= 2 * 86400
        store.close()


@pytest.mark.parametrize(
    "limits",
    [{"rate_limit": "1/minute"}, {"rate_limit": "1/minute", "daily_budget_usd": 1.0}],
    ids=["rate", "rate-and-budget"],
)
def test_limits_fail_open_when_redis_is_down(
    limits: dict[str, Any], redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    settings = {"redis_url": redis_server.url, **limits}
    judge = ScriptedJudge(fn=rule, usage=Usage(cost_usd=0.01))  # type: ignore[arg-type]
    with serving(create_app(config(**settings), judge=judge, cache=MemoryCache())) as client:
        redis_server.kill()
        for n in range(3):
            response = client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
            assert response.status_code == 200, response.text
    assert "limits_unavailable" in caplog.text
    assert KEY not in caplog.text


def test_limit_settings_from_the_environment() -> None:
    loaded = load_config(
        environ={
            "PRIN_GUARD_API_KEYS": KEY,
            "PRIN_GUARD_RATE_LIMIT": "60/minute",
            "PRIN_GUARD_DAILY_BUDGET_USD": "2.5",
        }
    )
    assert loaded.rate_limit == "60/minute" and loaded.daily_budget_usd == 2.5
    for variable, value in (
        ("PRIN_GUARD_RATE_LIMIT", "lots"),
        ("PRIN_GUARD_DAILY_BUDGET_USD", "-1"),
    ):
        with pytest.raises(UsageError, match=variable):
            load_config(environ={"PRIN_GUARD_API_KEYS": KEY, variable: value})
