"""Per-API-key rate limits and daily budgets of the HTTP service, over real HTTP.

The helpers that serve the app under a real uvicorn server on a free loopback port are
tests/test_server.py's; a redis-server of the test's own is conftest.py's fixture.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("limits")

import redis
from _helpers import RedisServer, wait_until
from server_judges import rule, scripted
from test_server import (
    AUTH,
    ITEM,
    KEY,
    OTHER_KEY,
    config,
    metrics_of,
    service,
    serving,
)

from prin_guard import MemoryCache, UsageError
from prin_guard.judges import JudgeResponse, ScriptedJudge
from prin_guard.models import Message, Usage
from prin_guard.server import ServerConfig, create_app, load_config
from prin_guard.server._limits import COOLDOWN, Limits, _Outage, key_identity

OTHER = {"Authorization": f"Bearer {OTHER_KEY}"}


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


@pytest.mark.server
def test_limits_are_off_by_default() -> None:
    app = create_app(config(), judge=scripted(), cache=MemoryCache())
    with serving(app) as client:
        for n in range(12):
            assert client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH).is_success
        samples = metrics_of(client)
    assert app.state.prin_guard.limits is None
    assert samples['prin_guard_limited_requests_total{reason="rate_limited"}'] == 0
    assert samples['prin_guard_limited_requests_total{reason="budget_exhausted"}'] == 0


@pytest.mark.server
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


@pytest.mark.server
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


@pytest.mark.server
@pytest.mark.parametrize(
    "shared",
    [
        pytest.param(False, id="memory"),
        pytest.param(True, id="redis", marks=pytest.mark.redis_server),  # asked for below
    ],
)
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
        while True:
            client = clients[n % 2]
            response = client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
            if response.status_code == 429:
                break
            assert response.status_code == 200, response.text
            cost = response.json()["verdict"]["usage"]["cost_usd"]
            assert cost == pytest.approx(0.02)  # two legs
            spent += cost
            n += 1
        # refused before passing the budget: the next verdict (0.02, as the key's
        # verdicts cost) would have made it 0.06
        assert spent == pytest.approx(0.04)
        now = dt.datetime.now(dt.UTC)
        midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
        retry_after = assert_refused(response, "budget_exhausted", 86400)
        assert abs(retry_after - (midnight - now).total_seconds()) < 5
        assert "daily_budget_usd" in response.json()["error"]["message"]
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
        mine = f"prin_guard:spend:budget:{key_identity(KEY)}:{day}"
        account = cast("dict[str, str]", store.hgetall(mine))
        assert float(account["spent"]) == pytest.approx(0.04)
        assert float(account["reserved"]) == pytest.approx(0.0, abs=1e-9)
        assert (account["calls"], float(account["calls_cost"])) == ("4", pytest.approx(0.04))
        assert 0 < store.ttl(mine) <= 2 * 86400
        store.close()


@pytest.mark.server
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


# -- hardening, second round (issue 21) -----------------------------------------------


class PricedJudge:
    """The `rule` judge after ``delay`` seconds, every call costing ``cost`` USD."""

    def __init__(self, *, cost: float, delay: float = 0.0, name: str = "priced") -> None:
        self.cost, self.delay, self.name = cost, delay, name
        self.calls = 0

    def identity(self) -> dict[str, Any]:
        return {"kind": "priced", "name": self.name}

    async def complete(self, messages: Sequence[Message], *, labels: Sequence[str] = ()) -> Any:
        await asyncio.sleep(self.delay)
        self.calls += 1
        reply = rule(str(messages[-1]["content"]))
        assert isinstance(reply, str)
        return JudgeResponse(text=reply, usage=Usage(cost_usd=self.cost))


def post_all(client: httpx.Client, bodies: list[dict[str, Any]], key: str = KEY) -> list[Any]:
    """Every body at once (a connection each), the responses in order."""
    base = str(client.base_url)

    def post(body: dict[str, Any]) -> httpx.Response:
        with httpx.Client(base_url=base, timeout=30) as own:
            return own.post("/v1/verdicts", json=body, headers={"Authorization": f"Bearer {key}"})

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(post, bodies))


def batch_cost(response: httpx.Response) -> float:
    return float(sum(v["usage"]["cost_usd"] or 0 for v in response.json()["verdicts"]))


@pytest.mark.server
@pytest.mark.parametrize(
    "shared",
    [
        pytest.param(False, id="memory"),
        pytest.param(True, id="redis", marks=pytest.mark.redis_server),
    ],
)
@pytest.mark.parametrize("estimate", [0.002, None], ids=["estimated", "learned"])
def test_concurrent_batches_cannot_overrun_the_daily_budget(
    shared: bool, estimate: float | None, request: pytest.FixtureRequest
) -> None:
    """Item 12: 100 concurrent batches of 10 against a 0.01 USD budget all passed (200x).

    Each verdict costs 0.002 (two legs of 0.001); 12 batches of 2 (0.004 each) at once
    against 0.01. With the cost estimated, two batches fit (0.008) and the rest are
    refused; learned, the key's first batch runs alone (its cost unknown), then two fit.
    """
    settings: dict[str, Any] = {"daily_budget_usd": 0.01, "estimated_cost_usd": estimate}
    if shared:
        server: RedisServer = request.getfixturevalue("redis_server")
        settings.update(redis_url=server.url, redis_namespace="overrun")
    judge = PricedJudge(cost=0.001, delay=0.3)
    apps = [create_app(config(**settings), judge=judge, cache=MemoryCache()) for _ in range(2)]
    with serving(apps[0]) as first, serving(apps[1]) as second:
        spent = 0.0
        for round_ in range(3):
            bodies = [{"items": [item(100 * round_ + 2 * n), item(100 * round_ + 2 * n + 1)]}
                      for n in range(12)]  # fmt: skip
            half = len(bodies) // 2
            with ThreadPoolExecutor(2) as pool:
                answered = [
                    *pool.submit(post_all, first, bodies[:half]).result(),
                    *pool.submit(post_all, second if shared else first, bodies[half:]).result(),
                ]
            passed = [r for r in answered if r.status_code == 200]
            for refused in answered:
                if refused.status_code != 200:
                    assert_refused(refused, "budget_exhausted", 86400)
            spent += sum(batch_cost(r) for r in passed)
    assert spent <= 0.01 + 1e-9
    assert spent == pytest.approx(0.008)
    assert judge.calls * 0.001 == pytest.approx(spent)


@pytest.mark.server
def test_requests_that_time_out_or_leave_are_charged_what_they_started() -> None:
    """Item 12: requests that disconnect or time out started judge calls and paid nothing.

    Each verdict is estimated at 0.01 of a 0.03 budget; the judge never answers. Two
    requests time out and one client leaves: each is charged its 0.01, and the key is
    then out of budget (before, it was charged nothing and never ran out).
    """

    class Stuck(PricedJudge):
        async def complete(self, messages: Sequence[Message], *, labels: Sequence[str] = ()) -> Any:
            await asyncio.sleep(3600)

    settings = {"daily_budget_usd": 0.03, "estimated_cost_usd": 0.01, "request_timeout": 0.3}
    app = create_app(config(**settings), judge=Stuck(cost=0.01), cache=MemoryCache())
    with serving(app) as client:
        timed_out = [
            client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH) for n in range(2)
        ]
        with (
            httpx.Client(base_url=str(client.base_url), timeout=0.2) as impatient,
            pytest.raises(httpx.ReadTimeout),
        ):
            impatient.post("/v1/verdicts", json={"item": item(9)}, headers=AUTH)
        refusals: list[httpx.Response] = []

        def spent() -> bool:
            # until the one that left is settled (in the background): its reservation
            # holds the rest of the budget meanwhile ("retry when they are done")
            refusals.append(client.post("/v1/verdicts", json={"item": item(10)}, headers=AUTH))
            assert refusals[-1].status_code == 429, refusals[-1].text
            return refusals[-1].headers["retry-after"] != "1"

        wait_until(spent, "the settling of the request that left", every=0.05)
        refused = refusals[-1]
        other = client.post("/v1/verdicts", json={"item": item(11)}, headers=OTHER)
    assert [r.status_code for r in timed_out] == [504, 504]
    assert_refused(refused, "budget_exhausted", 86400)
    assert "spent its daily budget" in refused.json()["error"]["message"]
    assert other.status_code == 504  # another key has its own budget


@pytest.mark.server
def test_answers_from_the_cache_cost_a_key_nothing() -> None:
    """Item 18: a key was charged the cost of an answer it got from the cache."""
    settings = {"daily_budget_usd": 0.05, "cache_scope": "shared"}
    judge = PricedJudge(cost=0.01)
    app = create_app(config(**settings), judge=judge, cache=MemoryCache())
    with serving(app) as client:
        assert client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH).status_code == 200
        again = [
            client.post("/v1/verdicts", json={"item": ITEM}, headers=key)
            for key in [OTHER] * 5 + [AUTH] * 5
        ]
    for response in again:
        assert response.status_code == 200, response.text
        assert response.json()["verdict"]["cached"] is True
    assert judge.calls == 2


@pytest.mark.server
def test_limits_with_redis_hung_fail_open_at_once_and_log_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 16: with Redis stopped (SIGSTOP) each request waited out Redis, and a 15 s
    outage logged 4,237 limits_unavailable lines."""
    caplog.set_level(logging.INFO)
    # The outage's cool-down runs on a clock of the test's own, still while Redis is
    # stopped: then only the first request may wait out Redis, whatever the machine's speed.
    now = [0.0]
    monkeypatch.setitem(Limits.__init__.__kwdefaults__, "clock", lambda: now[0])
    waited: list[str] = []
    failed = _Outage.failed
    monkeypatch.setattr(
        _Outage, "failed", lambda self, exc: (waited.append(type(exc).__name__), failed(self, exc))
    )
    settings = {"redis_url": redis_server.url, "rate_limit": "100/minute", "daily_budget_usd": 1.0}
    judge = PricedJudge(cost=0.001)
    with serving(create_app(config(**settings), judge=judge, cache=MemoryCache())) as client:
        assert client.post("/v1/verdicts", json={"item": item(0)}, headers=AUTH).is_success
        redis_server.pause()
        try:
            # the first request waits out Redis's timeout (2 s) once; the others do not
            answers = [
                client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH)
                for n in range(1, 9)
            ]
        finally:
            redis_server.resume()
        now[0] += COOLDOWN + 1  # the cool-down is over: the next request tries Redis
        back: list[httpx.Response] = []

        def answered_with_redis_back() -> bool:
            back.append(client.post("/v1/verdicts", json={"item": item(20)}, headers=AUTH))
            return "limits_available" in caplog.text

        wait_until(answered_with_redis_back, "limits_available", every=0.1)
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert all(b.status_code == 200 for b in back), [b.text for b in back]
    # before: two timeouts (admission, spending) per request, sixteen for eight
    assert len(waited) == 1, waited
    warnings = [r.getMessage() for r in caplog.records if "limits_unavailable" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "limits_available" in caplog.text
    assert KEY not in caplog.text


def test_the_limits_outage_cools_down_probes_once_and_counts() -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    from prin_guard.server._limits import COOLDOWN, _Outage

    now = [100.0]
    outage = _Outage(clock=lambda: now[0])
    calls: list[str] = []

    async def failing() -> str:
        calls.append("failing")
        raise RedisConnectionError("down")

    async def working() -> str:
        calls.append("working")
        return "ok"

    async def scenario() -> list[str]:
        results = [await outage.guarded(failing, "open")]  # fails: cool-down starts
        results += [await outage.guarded(working, "open") for _ in range(3)]  # skipped
        now[0] += COOLDOWN
        results.append(await outage.guarded(working, "open"))  # the probe: Redis is back
        results.append(await outage.guarded(working, "open"))
        return results

    assert asyncio.run(scenario()) == ["open", "open", "open", "open", "ok", "ok"]
    assert calls == ["failing", "working", "working"]


def test_budget_settings() -> None:
    loaded = load_config(
        environ={"PRIN_GUARD_DAILY_BUDGET_USD": "2", "PRIN_GUARD_ESTIMATED_COST_USD": "0.003"}
    )
    assert (loaded.daily_budget_usd, loaded.estimated_cost_usd) == (2.0, 0.003)
    assert ServerConfig().estimated_cost_usd is None
    with pytest.raises(UsageError, match="estimated_cost_usd"):
        load_config(environ={"PRIN_GUARD_ESTIMATED_COST_USD": "-1"})


# -- hardening, third round (issue 27) ------------------------------------------------

PAIR = {"task": "pairwise", "question": "Say hi.", "candidates": ["Hi!", "Hello there."]}
CLAIMS = {
    "task": "checklist",
    "response": "Paris is the capital of France.",
    "candidates": ["Paris is the capital of France."],
}


def pairwise_acceptance(path: Any) -> Any:
    """An acceptance file calibrated on pairwise verdicts of ``server_judges:scripted``."""
    from prin_guard import Acceptance
    from prin_guard._route._acceptance import Rule, Tier, binomial_cdf

    options = {
        "template": "pairwise",
        "mitigations": [],
        "policy": "synergy",
        "checks": ["reverse", "order"],  # a pair's default
    }
    Acceptance(
        alpha=0.1,
        delta=0.1,
        task="pairwise",
        n=200,
        tested=200,
        accepted=100,
        errors=1,
        coverage=0.5,
        p_value=binomial_cdf(1, 100, 0.1),
        method="fixed_sequence",
        signals_tested=("prin",),
        tiers=(
            Tier(
                judge={"kind": "scripted", "name": "scripted", "seed": None},
                options=options,
                rule=Rule(signal="prin", threshold=0.0),
                asked=1.0,
                accepted=0.5,
            ),
        ),
        calibration_sha256="0" * 64,
    ).save(path)
    return path


def budget_account(server: RedisServer, namespace: str, key: str = KEY) -> dict[str, float]:
    store = redis.Redis.from_url(server.url, decode_responses=True)
    day = dt.datetime.now(dt.UTC).date().isoformat()
    fields = cast(
        "dict[str, str]", store.hgetall(f"prin_guard:{namespace}:budget:{key_identity(key)}:{day}")
    )
    store.close()
    return {name: float(value) for name, value in fields.items()}


def settled(server: RedisServer, namespace: str) -> dict[str, float]:
    """The key's account once nothing is reserved (a cancelled request settles in the
    background)."""
    accounts: list[dict[str, float]] = []

    def nothing_reserved() -> bool:
        accounts.append(budget_account(server, namespace))
        return abs(accounts[-1].get("reserved", 0.0)) < 1e-9

    wait_until(nothing_reserved, "the reservation's settling", every=0.05)
    return accounts[-1]


INVALID_FOR_THE_GUARD = [
    pytest.param({"item": PAIR, "options": {"template": "v1"}}, "task", id="pairwise-under-v1"),
    pytest.param(
        {"item": CLAIMS, "options": {"template": "claims"}}, "context", id="claims-no-sources"
    ),
    pytest.param({"item": ITEM}, "task", id="choice-under-a-pairwise-acceptance-file"),
]


@pytest.mark.server
@pytest.mark.parametrize(("body", "field"), INVALID_FOR_THE_GUARD)
def test_an_item_the_guard_cannot_ask_is_a_422_and_releases_its_reservation(
    body: dict[str, Any], field: str, redis_server: RedisServer, tmp_path: Any
) -> None:
    """Issue 27, item 3: each was a 500 whose reservation stayed in Redis, so the key got
    429 budget_exhausted until midnight, across restarts. Without estimated_cost_usd the
    key's first request reserves its whole budget: a reservation left behind locks it."""
    settings: dict[str, Any] = {
        "daily_budget_usd": 1.0,
        "redis_url": redis_server.url,
        "redis_namespace": "invalid",
    }
    if "options" not in body:
        settings["acceptance"] = pairwise_acceptance(tmp_path / "pairwise.json")
    judge = ScriptedJudge(fn=rule, usage=Usage(cost_usd=0.01))  # type: ignore[arg-type]
    app = create_app(config(**settings), judge=judge, cache=MemoryCache())
    with serving(app) as client:
        refused = client.post("/v1/verdicts", json=body, headers=AUTH)
        batch = client.post(
            "/v1/verdicts", json={**body, "items": [body["item"]] * 2, "item": None}, headers=AUTH
        )
        after = settled(redis_server, "invalid")
        good = PAIR if "options" not in body else ITEM
        judged = client.post("/v1/verdicts", json={"item": good}, headers=AUTH)
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["type"] == "invalid_item"
    assert error["field"] == field
    assert error["message"].startswith(f"{field}: ")
    assert batch.status_code == 200, batch.text
    for entry in batch.json()["errors"]:
        assert (entry["kind"], entry["field"]) == ("input", field)
    assert after.get("reserved", 0.0) == pytest.approx(0.0, abs=1e-9)
    assert after.get("spent", 0.0) == 0.0  # no judge call was made
    assert judged.status_code == 200, judged.text


class PathJudge(PricedJudge):
    """Answers as `rule` at 0.001 a call; EXPLODE fails, HANG never answers, and CANCEL
    is cancelled under the request (by nobody the request knows)."""

    async def complete(self, messages: Sequence[Message], *, labels: Sequence[str] = ()) -> Any:
        prompt = str(messages[-1]["content"])
        if "HANG" in prompt:
            await asyncio.sleep(3600)
        if "CANCEL" in prompt:
            raise asyncio.CancelledError
        if "EXPLODE" in prompt:
            raise ValueError("the judge exploded")
        return await super().complete(messages, labels=labels)


def question(text: str) -> dict[str, Any]:
    return {"item": {**ITEM, "question": text}}


@pytest.mark.server
@pytest.mark.parametrize(
    ("path", "spent"),
    [
        pytest.param("answered", 0.002, id="answered"),
        pytest.param("invalid", 0.0, id="invalid-item"),
        pytest.param("judge-error", 0.0, id="judge-error"),
        pytest.param("timeout", 0.01, id="timeout"),
        pytest.param("abandoned", 0.01, id="judging-cancelled-under-it"),
        pytest.param("client-left", 0.01, id="client-disconnect"),
        pytest.param("left-while-admitted", 0.0, id="client-disconnect-during-admission"),
        pytest.param("server-error", 0.002, id="server-error"),
    ],
)
def test_every_way_a_request_ends_settles_its_reservation(
    path: str, spent: float, redis_server: RedisServer
) -> None:
    """Issue 27, item 3: a reservation is settled (or released) however the request ends;
    what it is charged: its calls, or its reservation for the verdicts it did not get."""
    settings = {
        "daily_budget_usd": 1.0,
        "estimated_cost_usd": 0.01,
        "request_timeout": 0.5,
        "rate_limit": "1000/minute",
        "redis_url": redis_server.url,
        "redis_namespace": "paths",
    }
    app = create_app(config(**settings), judge=PathJudge(cost=0.001), cache=MemoryCache())
    state = app.state.prin_guard
    if path == "server-error":

        def broken(verdict: Any) -> Any:
            raise RuntimeError("a bug after judging")

        state.public = broken  # what leaves the service: fails after the judge answered
    bodies = {
        "answered": question("What is 2 + 2?"),
        "invalid": {"item": {**ITEM, "candidates": ["4"]}},
        "judge-error": question("EXPLODE"),
        "timeout": question("HANG"),
        "abandoned": question("CANCEL"),
        "client-left": question("HANG please"),
        "left-while-admitted": question("What is 4 + 4?"),
        "server-error": question("What is 3 + 3?"),
    }
    statuses = {"answered": 200, "invalid": 422, "judge-error": 502, "timeout": 504}
    statuses["abandoned"] = 502
    with serving(app) as client:
        if path == "left-while-admitted":
            # the budget is reserved, then the rate is counted (slowly): the client leaves
            limits = state.limits
            counted = limits._limiter.hit

            async def slow_hit(*args: Any, **kwargs: Any) -> Any:
                await asyncio.sleep(0.6)
                return await counted(*args, **kwargs)

            limits._limiter.hit = slow_hit
        if path in ("client-left", "left-while-admitted"):
            with (
                httpx.Client(base_url=str(client.base_url), timeout=0.2) as impatient,
                pytest.raises(httpx.ReadTimeout),
            ):
                impatient.post("/v1/verdicts", json=bodies[path], headers=AUTH)
        else:
            response = client.post("/v1/verdicts", json=bodies[path], headers=AUTH)
            assert response.status_code == statuses.get(path, 500), response.text
        account = settled(redis_server, "paths")
    assert account.get("reserved", 0.0) == pytest.approx(0.0, abs=1e-9)
    assert account.get("spent", 0.0) == pytest.approx(spent)


HEAVY_OPTIONS = [
    {},
    {"checks": ["reverse", "order"]},
    {"probe": "progressive"},
    {"checks": ["reverse", "order"], "probe": "progressive"},
    {"checks": ["reverse", "order", "confidence"], "probe": "leading", "mitigations": ["cot"]},
]


@pytest.mark.server
@pytest.mark.parametrize(
    "shared",
    [
        pytest.param(False, id="memory"),
        pytest.param(True, id="redis", marks=pytest.mark.redis_server),
    ],
)
@pytest.mark.parametrize("estimate", [0.002, None], ids=["estimated", "learned"])
def test_no_option_a_client_sets_lets_50_concurrent_requests_pass_the_budget(
    shared: bool, estimate: float | None, request: pytest.FixtureRequest
) -> None:
    """Issue 27, item 2: with checks=[reverse, order] and probe=progressive, 50 concurrent
    requests spent 5x the daily budget: each reserved what a verdict with the default
    options costs (two calls), and asked ten.

    Every call costs 0.001, so a default verdict 0.002 (``estimated_cost_usd``) and the
    heaviest request 0.01. Learned, the key first asks one default verdict (its mean per
    call is then known), then 50 requests go at once; then 50 more. Spending never passes
    the budget by more than one request's most (here it never passes it at all).
    """
    budget = 0.03
    settings: dict[str, Any] = {"daily_budget_usd": budget, "estimated_cost_usd": estimate}
    if shared:
        server: RedisServer = request.getfixturevalue("redis_server")
        settings.update(redis_url=server.url, redis_namespace="options")
    judge = PricedJudge(cost=0.001, delay=0.2)
    apps = [create_app(config(**settings), judge=judge, cache=MemoryCache()) for _ in range(2)]
    with serving(apps[0]) as first, serving(apps[1]) as second:
        warm = first.post("/v1/verdicts", json={"item": item(9999)}, headers=AUTH)
        assert warm.status_code == 200, warm.text
        answered: list[httpx.Response] = []
        for round_ in range(2):
            bodies = [
                {
                    "item": item(1000 * (round_ + 1) + n),
                    "options": HEAVY_OPTIONS[n % len(HEAVY_OPTIONS)],
                }
                for n in range(50)
            ]
            with ThreadPoolExecutor(2) as pool:
                answered += [
                    *pool.submit(post_all, first, bodies[:25]).result(),
                    *pool.submit(post_all, second if shared else first, bodies[25:]).result(),
                ]
    for response in answered:
        if response.status_code != 200:
            assert_refused(response, "budget_exhausted", 86400)
    passed = [r for r in answered if r.status_code == 200]
    assert passed, "no request got through"
    spent = judge.calls * 0.001
    assert spent == pytest.approx(
        0.002 + sum(r.json()["verdict"]["usage"]["cost_usd"] for r in passed)
    )
    heaviest = 0.01  # order and progressive: 4 legs, then 3 follow-ups of the first 2
    assert spent <= budget + heaviest + 1e-9
    # every call costs what it was priced at, so here the budget holds exactly
    assert spent <= budget + 1e-9


@pytest.mark.server
def test_ratings_with_aspects_and_every_option_cannot_pass_the_budget() -> None:
    """A rating asks each aspect in calls of its own: a request reserves its aspects'
    calls too (four aspects, a rubric, the order check and the progressive probe: 4 x 9
    calls), so 10 such requests at once never spend past the budget by more than one."""
    budget = 0.05
    judge = PricedJudge(cost=0.001, delay=0.1)
    app = create_app(config(daily_budget_usd=budget), judge=judge, cache=MemoryCache())
    scale = {"min": 1, "max": 5, "rubric": {"1": "poor", "5": "excellent"}}
    options = {"checks": ["reverse", "order"], "probe": "progressive"}
    bodies = [
        {
            "item": {
                "task": "rating",
                "id": f"r{n}",
                "response": f"Answer number {n}.",
                "scale": scale,
                "aspects": ["accuracy", "clarity", "brevity", "tone"],
            },
            "options": options,
        }
        for n in range(10)
    ]
    with serving(app) as client:
        # the key's first request teaches the service what a call costs (0.001)
        warm = client.post("/v1/verdicts", json={"item": item(9999)}, headers=AUTH)
        assert warm.status_code == 200, warm.text
        answered = post_all(client, bodies)
    passed = [r for r in answered if r.status_code == 200]
    assert passed, [r.text for r in answered]
    for response in answered:
        if response.status_code != 200:
            assert_refused(response, "budget_exhausted", 86400)
    most = 4 * (3 + 2 * 3) * 0.001  # four aspects: three legs, three rounds on two
    verdict = passed[0].json()["verdict"]
    assert verdict["judge_calls"] == 36 and len(verdict["aspects"]) == 4
    spent = judge.calls * 0.001  # the warm-up's two calls and the ratings'
    assert spent <= budget + most + 1e-9


@pytest.mark.server
def test_aspects_asked_together_reserve_one_ratings_calls() -> None:
    """With rating_aspects='together' four aspects cost two calls, and the budget reserves
    two: a request that apart (eight calls) would pass the budget is answered."""
    judge = PricedJudge(cost=0.001, delay=0.0)
    app = create_app(config(daily_budget_usd=0.005), judge=judge, cache=MemoryCache())
    rating = {
        "task": "rating",
        "response": "An answer.",
        "scale": {"min": 1, "max": 5},
        "aspects": ["accuracy", "clarity", "brevity", "tone"],
    }
    with serving(app) as client:
        warm = client.post("/v1/verdicts", json={"item": item(9999)}, headers=AUTH)
        assert warm.status_code == 200, warm.text  # 0.002 spent, 0.003 left
        apart = client.post("/v1/verdicts", json={"item": rating}, headers=AUTH)
        assert_refused(apart, "budget_exhausted", 86400)
        together = client.post(
            "/v1/verdicts",
            json={"item": rating, "options": {"rating_aspects": "together"}},
            headers=AUTH,
        )
    assert together.status_code == 200, together.text
    verdict = together.json()["verdict"]
    assert verdict["judge_calls"] == 2 and len(verdict["aspects"]) == 4


@pytest.mark.server
def test_a_cascade_is_charged_every_tiers_calls(tmp_path: Any) -> None:
    """The bill meters every judge call made for a request: the first tier's too, which a
    verdict decided by the second tier does not show as legs (it was charged nothing)."""
    from prin_guard import Acceptance
    from prin_guard._route._acceptance import Rule, Tier, binomial_cdf
    from prin_guard.judges import judge_from_spec

    options = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}
    cascade = (
        "python:server_judges:priced_contradicting",
        "python:server_judges:priced_consistent",
    )
    tiers = tuple(
        Tier(
            # a python: judge is known by its code too (the digest of its file)
            judge=dict(judge_from_spec(spec).identity()),
            options=options,
            rule=Rule(signal="prin", threshold=0.0),
            asked=asked,
            accepted=accepted,
        )
        for spec, asked, accepted in zip(cascade, (1.0, 0.5), (0.5, 0.25), strict=True)
    )
    Acceptance(
        alpha=0.1,
        delta=0.1,
        n=300,
        tested=200,
        accepted=150,
        errors=1,
        coverage=0.75,
        p_value=binomial_cdf(1, 150, 0.1),
        method="pareto_fixed_sequence",
        signals_tested=("prin",),
        tiers=tiers,
        calibration_sha256="0" * 64,
    ).save(tmp_path / "cascade.json")
    settings = {"tiers": cascade, "acceptance": tmp_path / "cascade.json", "daily_budget_usd": 0.1}
    app = create_app(config(**settings), cache=MemoryCache())
    with serving(app) as client:
        decided = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
    assert decided.status_code == 200, decided.text
    verdict = decided.json()["verdict"]
    assert (verdict["decision"]["tier"], verdict["judge_calls"]) == (1, 4)
    limits = app.state.prin_guard.limits
    ((name, account),) = limits._accounts.items()
    assert key_identity(KEY) in name
    assert account.spent == pytest.approx(0.04)  # both tiers' two legs
    assert (account.calls, account.reserved) == (4, pytest.approx(0.0, abs=1e-9))


@pytest.mark.server
@pytest.mark.parametrize(
    ("estimate", "passed"),
    [
        pytest.param(0.004, 2, id="settled-at-the-estimate"),
        pytest.param(None, 1, id="no-estimate-settled-at-the-reservation"),
    ],
)
def test_a_budget_holds_when_the_judge_reports_no_cost(
    estimate: float | None, passed: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 37, item 4: with a 0.01 USD budget and ``estimated_cost_usd`` 0.004, twelve
    requests to a judge that reports no cost all passed, each settled at 0, nothing
    logged. A call of unknown cost is settled at the price its request reserved for it
    (the estimate's share; without an estimate, the rest of the budget the key's first
    request reserved), never at 0, and the operator is warned once per judge."""
    caplog.set_level(logging.WARNING)
    settings: dict[str, Any] = {"daily_budget_usd": 0.01, "estimated_cost_usd": estimate}
    judge = ScriptedJudge(fn=rule, name="unpriced")  # type: ignore[arg-type]
    app = create_app(config(**settings), judge=judge, cache=MemoryCache())
    with serving(app) as client:
        answered = [
            client.post("/v1/verdicts", json={"item": item(n)}, headers=AUTH) for n in range(12)
        ]
    assert [r.status_code for r in answered] == [200] * passed + [429] * (12 - passed)
    for refused in answered[passed:]:
        assert_refused(refused, "budget_exhausted", 86400)
    assert caplog.text.count("judge_cost_unknown") == 1
