"""prin-guard as an HTTP service, over real HTTP.

Each test starts the real app under uvicorn on a free loopback port (in a thread,
with a scripted judge injected, or as ``python -m prin_guard.server`` in a
subprocess with several workers) and talks to it with httpx.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")

import uvicorn
from prometheus_client.parser import text_string_to_metric_families
from server_judges import rule, scripted, slow

from prin_guard import FunctionJudge, MemoryCache, UsageError
from prin_guard.judges import ScriptedJudge
from prin_guard.server import ServerConfig, create_app, load_config, server_settings_from_env

ROOT = Path(__file__).resolve().parents[1]
KEY = "test-key-0123456789abcdefghij"
OTHER_KEY = "other-key-0123456789abcdefghij"
WRONG_KEY = "wrong-key-9876543210zyxwvutsrq"
AUTH = {"Authorization": f"Bearer {KEY}"}
ITEM = {"question": "What is 2 + 2?", "candidates": ["3", "5", "4"]}


# -- running servers ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[httpx.Client]:
    """The app under a real uvicorn server in a thread; a client for its base URL."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    # log_config=None: uvicorn's loggers propagate to the root, where caplog sees them
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, log_level="info"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.005)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            yield client
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def config(**settings: Any) -> ServerConfig:
    settings.setdefault("api_keys", [KEY, OTHER_KEY])
    return ServerConfig(**settings)


@contextmanager
def service(judge: Any = None, cache: Any = None, **settings: Any) -> Iterator[httpx.Client]:
    """An app with a scripted judge (and an in-memory cache unless given), served."""
    app = create_app(
        config(**settings),
        judge=judge if judge is not None else scripted(),
        cache=cache if cache is not None else MemoryCache(),
    )
    with serving(app) as client:
        yield client


def metrics_of(client: httpx.Client, headers: dict[str, str] | None = None) -> dict[str, float]:
    """The samples of /metrics, as ``name{label="v",...}`` → value."""
    response = client.get("/metrics", headers=AUTH if headers is None else headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


# -- authentication -------------------------------------------------------------------


def test_api_keys_are_required_and_never_echoed(
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    with service() as client:
        missing = client.post("/v1/verdicts", json={"item": ITEM})
        wrong = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={"Authorization": f"Bearer {WRONG_KEY}"}
        )
        wrong_header = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={"X-API-Key": WRONG_KEY}
        )
        basic = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={"Authorization": f"Basic {KEY}"}
        )
        unknown_path = client.get("/admin", headers={"X-API-Key": WRONG_KEY})
        bearer = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        header = client.post("/v1/verdicts", json={"item": ITEM}, headers={"X-API-Key": OTHER_KEY})
        lowercase = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={"authorization": f"bearer {KEY}"}
        )
    for refused in (missing, wrong, wrong_header, basic, unknown_path):
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"]["type"] == "unauthorized"
        assert "Bearer" in refused.json()["error"]["message"]
        assert refused.headers["www-authenticate"].startswith("Bearer")
        for key in (KEY, OTHER_KEY, WRONG_KEY):
            assert key not in refused.text
    for accepted in (bearer, header, lowercase):
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["verdict"]["correct"] == ["C"]
    out, err = capfd.readouterr()
    logged = caplog.text + out + err
    assert "auth_failed" in logged
    for key in (KEY, OTHER_KEY, WRONG_KEY):
        assert key not in logged


def test_auth_is_checked_before_the_body_is_read() -> None:
    with service(max_body_bytes=1000) as client:
        response = client.post("/v1/verdicts", content=b"x" * 5000)
    assert response.status_code == 401


def test_startup_refuses_to_run_without_keys_unless_told() -> None:
    with pytest.raises(UsageError, match="no API keys configured"):
        create_app(ServerConfig(), judge=scripted())
    app = create_app(ServerConfig(allow_no_auth=True), judge=scripted())
    with serving(app) as client:
        assert client.post("/v1/verdicts", json={"item": ITEM}).status_code == 200
        assert client.get("/metrics").status_code == 200
        schema = client.get("/openapi.json").json()
    assert "security" not in schema["paths"]["/v1/verdicts"]["post"]


def test_open_paths_and_metrics_auth() -> None:
    with service() as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/openapi.json").status_code == 200
        assert client.get("/docs").status_code == 200
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers=AUTH).status_code == 200
        assert client.get("/nowhere", headers=AUTH).json()["error"]["type"] == "not_found"
        wrong_method = client.get("/v1/verdicts", headers=AUTH)
        assert wrong_method.status_code == 405
        assert wrong_method.json()["error"]["type"] == "method_not_allowed"
    with service(metrics_open=True) as client:
        assert client.get("/metrics").status_code == 200
        assert client.post("/v1/verdicts", json={"item": ITEM}).status_code == 401


# -- limits ---------------------------------------------------------------------------


def test_body_too_large_by_content_length_and_by_stream() -> None:
    big = {"item": {**ITEM, "context": "x" * 3000}}
    with service(max_body_bytes=2000) as client:
        declared = client.post("/v1/verdicts", json=big, headers=AUTH)

        def chunks() -> Iterator[bytes]:
            body = json.dumps(big).encode()
            for start in range(0, len(body), 500):
                yield body[start : start + 500]

        streamed = client.post("/v1/verdicts", content=chunks(), headers=AUTH)
        small = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
    assert "content-length" not in streamed.request.headers
    assert streamed.request.headers["transfer-encoding"] == "chunked"
    for response in (declared, streamed):
        assert response.status_code == 413, response.text
        error = response.json()["error"]
        assert error["type"] == "body_too_large"
        assert error["limit"] == "max_body_bytes"
        assert error["max"] == 2000
        assert "max_body_bytes" in error["message"]
    assert "Content-Length is" in declared.json()["error"]["message"]
    assert small.status_code == 200


def test_batch_too_large() -> None:
    with service(max_batch=3) as client:
        too_many = client.post("/v1/verdicts", json={"items": [ITEM] * 4}, headers=AUTH)
        enough = client.post("/v1/verdicts", json={"items": [ITEM] * 3}, headers=AUTH)
    assert too_many.status_code == 413
    error = too_many.json()["error"]
    assert error["type"] == "batch_too_large"
    assert error["limit"] == "max_batch"
    assert error["max"] == 3
    assert "4 items" in error["message"]
    assert enough.status_code == 200
    assert len(enough.json()["verdicts"]) == 3


def test_a_field_too_long_names_the_field() -> None:
    long_candidate = {"question": "Q?", "candidates": ["short", "y" * 51]}
    with service(max_chars=50) as client:
        question = client.post(
            "/v1/verdicts", json={"item": {**ITEM, "question": "q" * 51}}, headers=AUTH
        )
        candidate = client.post("/v1/verdicts", json={"item": long_candidate}, headers=AUTH)
        batch = client.post("/v1/verdicts", json={"items": [ITEM, long_candidate]}, headers=AUTH)
    assert question.status_code == 422
    assert question.json()["error"]["type"] == "invalid_item"
    assert question.json()["error"]["field"] == "question"
    assert "max_chars" in question.json()["error"]["message"]
    assert candidate.status_code == 422
    assert candidate.json()["error"]["field"] == "candidates.1.text"
    assert batch.status_code == 200
    assert batch.json()["errors"][0]["index"] == 1
    assert batch.json()["errors"][0]["field"] == "candidates.1.text"


# -- verdicts -------------------------------------------------------------------------


def test_single_verdict_and_a_bad_single_item() -> None:
    with service() as client:
        ok = client.post("/v1/verdicts", json={"item": {**ITEM, "id": "q1"}}, headers=AUTH)
        bad = client.post(
            "/v1/verdicts", json={"item": {"question": "Q?", "candidates": ["only one"]}},
            headers=AUTH,
        )  # fmt: skip
        unknown_field = client.post(
            "/v1/verdicts", json={"item": {**ITEM, "answer": "4"}}, headers=AUTH
        )
        neither = client.post("/v1/verdicts", json={"options": {}}, headers=AUTH)
        not_json = client.post(
            "/v1/verdicts",
            content=b"{not json",
            headers={**AUTH, "Content-Type": "application/json"},
        )
    assert ok.status_code == 200
    verdict = ok.json()["verdict"]
    assert verdict["item_id"] == "q1"
    assert verdict["correct"] == ["C"]
    assert verdict["direct"]["labels"] == ["B", "C"]
    assert verdict["reverse_implied"] == ["C"]
    assert "inconsistent" in verdict["flags"]
    assert bad.status_code == 422
    assert bad.json()["error"] == {
        "type": "invalid_item",
        "message": "candidates: needs at least two candidates, got 1",
        "field": "candidates",
        "reason": "needs at least two candidates, got 1",
    }
    assert unknown_field.status_code == 422
    assert unknown_field.json()["error"]["field"] == "answer"
    assert neither.status_code == 422
    assert "either 'item'" in neither.json()["error"]["message"]
    assert not_json.status_code == 422
    assert not_json.json()["error"]["type"] == "invalid_request"


def test_a_batch_with_one_bad_item() -> None:
    items = [
        {**ITEM, "id": "first"},
        {"question": "   ", "candidates": ["a", "b"]},
        {"question": "What is 3 + 3?", "candidates": ["5", "7", "6"], "id": "third"},
        "not an item",
    ]
    with service() as client:
        response = client.post("/v1/verdicts", json={"items": items}, headers=AUTH)
    assert response.status_code == 200
    body = response.json()
    verdicts = body["verdicts"]
    assert [v["item_id"] for v in verdicts] == ["first", "#1", "third", "#3"]
    assert verdicts[0]["correct"] == ["C"] and verdicts[2]["correct"] == ["C"]
    assert verdicts[1]["flags"] == ["invalid_item"]
    assert verdicts[1]["error"]["field"] == "question"
    assert body["errors"] == [
        {
            "index": 1,
            "kind": "input",
            "field": "question",
            "reason": "must not be empty or whitespace",
        },
        {
            "index": 3,
            "kind": "input",
            "field": "item",
            "reason": "expected an Item or a mapping, got str",
        },
    ]


def test_options_are_honoured() -> None:
    judge = scripted()
    with service(judge=judge) as client:
        v1 = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"template": "v1"}}, headers=AUTH
        ).json()["verdict"]
        direct = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"policy": "direct"}}, headers=AUTH
        ).json()["verdict"]
        lenient = client.post(
            "/v1/verdicts",
            json={"items": [ITEM], "options": {"threshold": 1, "mitigations": ["neg_exp", "cot"]}},
            headers=AUTH,
        ).json()["verdicts"][0]
        same_options = client.post(
            "/v1/verdicts",
            json={"item": ITEM, "options": {"threshold": 1.0, "mitigations": ["cot", "neg_exp"]}},
            headers=AUTH,
        )
        probed = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"probe": "closed"}}, headers=AUTH
        ).json()["verdict"]
        bad_option = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"policy": "vote"}}, headers=AUTH
        )
        bad_threshold = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"threshold": 2}}, headers=AUTH
        )
    assert v1["direct"]["template"] == "v1"
    prompts = [call[-1]["content"] for call in judge.calls]  # type: ignore[attr-defined]
    assert any("please output the right ones." in p for p in prompts)
    assert any("please output the wrong ones." in p for p in prompts)
    assert direct["policy"] == "direct"
    assert direct["correct"] == ["B", "C"]
    assert lenient["threshold"] == 1.0
    assert lenient["consistent"] is True
    assert "inconsistent" not in lenient["flags"]
    assert sorted(lenient["direct"]["mitigations"]) == ["cot", "neg_exp"]
    assert same_options.status_code == 200
    assert same_options.json()["verdict"]["cached"] is True
    assert len(probed["probe"]) >= 1
    assert bad_option.status_code == 422
    assert bad_option.json()["error"]["field"] == "options.policy"
    assert bad_threshold.status_code == 422
    assert bad_threshold.json()["error"]["field"] == "options.threshold"


def test_options_share_one_guard_per_combination() -> None:
    app = create_app(config(), judge=scripted(), cache=MemoryCache())
    with serving(app) as client:
        for mitigations in (["cot", "neg_exp"], ["neg_exp", "cot"], ["cot", "cot", "neg_exp"]):
            options = {"mitigations": mitigations, "threshold": 0}
            client.post("/v1/verdicts", json={"item": ITEM, "options": options}, headers=AUTH)
        client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
    assert len(app.state.prin_guard.guards) == 2


def test_options_accept_every_spelling_the_options_model_accepts() -> None:
    # The CLI always took neg-exp; the service refused it before it used GuardOptions.
    app = create_app(config(), judge=scripted(), cache=MemoryCache())
    spellings: list[Any] = [["neg-exp"], ["NEG_EXP"], "neg_exp", ["NEG-EXP", "neg_exp"]]
    with serving(app) as client:
        answers = [
            client.post(
                "/v1/verdicts", json={"item": ITEM, "options": {"mitigations": m}}, headers=AUTH
            )
            for m in spellings
        ]
        both = client.post(
            "/v1/verdicts",
            json={"item": ITEM, "options": {"mitigations": "cot,neg-exp", "template": "v2"}},
            headers=AUTH,
        )
    for answer in answers:
        assert answer.status_code == 200, answer.text
        assert answer.json()["verdict"]["reverse"]["mitigations"] == ["neg_exp"]
    assert [a.json()["verdict"]["cached"] for a in answers] == [False, True, True, True]
    assert both.status_code == 200, both.text
    assert both.json()["verdict"]["reverse"]["mitigations"] == ["cot", "neg_exp"]
    assert len(app.state.prin_guard.guards) == 2  # one per distinct options, however spelled


def test_a_client_cannot_change_the_servers_own_limits() -> None:
    app = create_app(config(max_chars=50), judge=scripted(), cache=MemoryCache())
    with serving(app) as client:
        refused = {
            name: client.post(
                "/v1/verdicts", json={"item": ITEM, "options": {name: value}}, headers=AUTH
            )
            for name, value in (("max_chars", 10_000), ("on_inconsistent", "raise"))
        }
        template = client.post(
            "/v1/verdicts", json={"item": ITEM, "options": {"template": "v9"}}, headers=AUTH
        )
        judged = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
    for name, response in refused.items():
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["type"] == "invalid_request"
        assert error["field"] == f"options.{name}"
        assert error["message"] == f"options.{name}: Extra inputs are not permitted"
    assert template.status_code == 422
    assert template.json()["error"]["field"] == "options.template"
    assert "known: v0, v1, v2, v3, v4" in template.json()["error"]["message"]
    assert judged.status_code == 200
    assert "inconsistent" in judged.json()["verdict"]["flags"]  # flagged, never raised
    (guard,) = app.state.prin_guard.guards.values()
    assert (guard.max_chars, guard.on_inconsistent) == (50, "flag")


def test_options_the_guard_refuses_are_a_422_naming_the_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every field is checked by the request model; a check beyond it (across fields,
    # or the guard's own) still answers 422 in the same shape.
    app = create_app(config(), judge=scripted(), cache=MemoryCache())

    def refuse(requested: Any) -> Any:
        raise UsageError("probe: not with this template")

    monkeypatch.setattr(app.state.prin_guard, "options", refuse)
    with serving(app) as client:
        response = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
    assert response.status_code == 422
    assert response.json()["error"] == {
        "type": "invalid_request",
        "message": "options.probe: not with this template",
        "field": "options.probe",
    }


def test_every_guard_shares_the_workers_one_caller() -> None:
    """One single flight and one call limit for every combination of options."""
    in_flight: list[int] = [0, 0]  # now, most
    calls: list[str] = []

    async def counted(prompt: str) -> str:
        import asyncio

        calls.append(prompt)
        in_flight[0] += 1
        in_flight[1] = max(in_flight[1], in_flight[0])
        try:
            await asyncio.sleep(0.3)
        finally:
            in_flight[0] -= 1
        reply = rule(prompt)
        assert isinstance(reply, str)
        return reply

    # No cache: only single flight can make two requests share a judge call.
    app = create_app(config(concurrency=1), judge=FunctionJudge(counted, name="c"), cache=None)
    state = app.state.prin_guard
    with serving(app) as client:

        def ask(options: dict[str, Any]) -> dict[str, Any]:
            body = {"item": ITEM, "options": options}
            response = client.post("/v1/verdicts", json=body, headers=AUTH)
            assert response.status_code == 200, response.text
            return dict(response.json()["verdict"])

        # The policy is not part of what the judge is asked: two guards, same calls.
        with ThreadPoolExecutor(2) as pool:
            synergy, direct = pool.map(ask, [{"policy": "synergy"}, {"policy": "direct"}])
        assert len(calls) == 2  # one per leg, for both requests
        assert (synergy["correct"], direct["correct"]) == (["C"], ["B", "C"])
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(ask, [{"template": "v1"}, {"template": "v2"}]))
        samples = metrics_of(client)
    assert len(calls) == 6
    assert in_flight[1] == 1  # concurrency=1 holds across every guard
    assert len(state.guards) == 4
    assert all(guard.caller is state.caller for guard in state.guards.values())
    assert state.caller.concurrency == 1
    assert state.caller.calls == 6
    assert samples['prin_guard_judge_calls_total{outcome="ok"}'] == 6


def test_judge_errors() -> None:
    exploding = {"question": "EXPLODE: what is 1 + 1?", "candidates": ["2", "3"], "id": "boom"}
    with service() as client:
        single = client.post("/v1/verdicts", json={"item": exploding}, headers=AUTH)
        batch = client.post("/v1/verdicts", json={"items": [ITEM, exploding]}, headers=AUTH)
        samples = metrics_of(client)
    assert single.status_code == 502
    assert single.json()["error"]["type"] == "judge_error"
    assert "the judge exploded" in single.json()["error"]["message"]
    assert batch.status_code == 200
    good, bad = batch.json()["verdicts"]
    assert good["correct"] == ["C"]
    assert bad["item_id"] == "boom"
    assert bad["flags"] == ["judge_error"]
    assert bad["error"]["kind"] == "judge"
    assert batch.json()["errors"] == [
        {"index": 1, "kind": "judge", "field": None, "reason": bad["error"]["message"]}
    ]
    assert samples['prin_guard_verdicts_total{outcome="judge_error"}'] == 2
    assert samples['prin_guard_judge_calls_total{outcome="error"}'] >= 2


def test_judge_error_messages_never_carry_the_keys() -> None:
    def leaky(prompt: str) -> str:
        raise ValueError(f"upstream said: bad key {KEY}")

    with service(judge=FunctionJudge(leaky, name="leaky")) as client:
        single = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        batch = client.post("/v1/verdicts", json={"items": [ITEM]}, headers=AUTH)
    assert single.status_code == 502
    for response in (single, batch):
        assert KEY not in response.text
        assert "[redacted]" in response.text


def test_a_request_that_takes_too_long() -> None:
    async def stuck(prompt: str) -> str:
        import asyncio

        await asyncio.sleep(30)
        return "Answer: A"

    with service(judge=FunctionJudge(stuck, name="stuck"), request_timeout=0.3) as client:
        single = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        batch = client.post("/v1/verdicts", json={"items": [ITEM, {"x": 1}]}, headers=AUTH)
        samples = metrics_of(client)
    assert samples['prin_guard_judge_calls_total{outcome="cancelled"}'] == 4
    assert samples['prin_guard_judge_calls_total{outcome="error"}'] == 0
    assert single.status_code == 504
    assert single.json()["error"]["limit"] == "request_timeout"
    assert batch.status_code == 200
    timed_out, invalid = batch.json()["verdicts"]
    assert timed_out["flags"] == ["judge_error"]
    assert "request_timeout" in timed_out["error"]["message"]
    assert invalid["flags"] == ["invalid_item"]


# -- CORS -----------------------------------------------------------------------------


def test_cors_is_off_unless_configured() -> None:
    preflight = {
        "Origin": "https://grader.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
    }
    with service() as client:
        response = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={**AUTH, "Origin": preflight["Origin"]}
        )
        assert "access-control-allow-origin" not in response.headers
        assert client.options("/v1/verdicts", headers=preflight).status_code == 401
    with service(cors_origins=["https://grader.example"]) as client:
        answered = client.options("/v1/verdicts", headers=preflight)
        assert answered.status_code == 200
        assert answered.headers["access-control-allow-origin"] == "https://grader.example"
        response = client.post(
            "/v1/verdicts", json={"item": ITEM}, headers={**AUTH, "Origin": preflight["Origin"]}
        )
        assert response.headers["access-control-allow-origin"] == "https://grader.example"
        other = client.options(
            "/v1/verdicts", headers={**preflight, "Origin": "https://evil.example"}
        )
        assert "access-control-allow-origin" not in other.headers


# -- health and metrics ---------------------------------------------------------------


class RedisServer:
    """A redis-server process of our own on a free port, without persistence."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        binary = shutil.which("redis-server")
        assert binary is not None
        self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(workdir), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH")
    server = RedisServer(tmp_path)
    try:
        yield server
    finally:
        server.kill()


def test_healthz_with_redis_up_then_down(own_redis: RedisServer) -> None:
    # The cache is built from the configuration at startup, as in production.
    app = create_app(config(redis_url=own_redis.url, redis_namespace="healthz"), judge=scripted())
    with serving(app) as client:
        up = client.get("/healthz").json()
        first = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        again = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        own_redis.kill()
        down = client.get("/healthz")
        later = client.post(
            "/v1/verdicts", json={"item": {**ITEM, "question": "What is 2 + 3?"}}, headers=AUTH
        )
        samples = metrics_of(client)
    assert up == {
        "status": "ok",
        "judge": {"kind": "scripted", "name": "scripted", "status": "ok"},
        "redis": "ok",
        "version": up["version"],
    }
    assert first.json()["verdict"]["cached"] is False
    assert again.json()["verdict"]["cached"] is True
    assert down.status_code == 200
    assert down.json()["status"] == "degraded"
    assert down.json()["redis"] == "unreachable"
    assert later.status_code == 200
    assert later.json()["verdict"]["correct"] == ["C"]
    assert samples["prin_guard_cache_hits_total"] >= 2
    assert samples["prin_guard_cache_errors_total"] >= 1


def test_metrics_count_requests_verdicts_flags_judge_calls_and_cache() -> None:
    with service() as client:
        before = metrics_of(client)
        client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        client.post(
            "/v1/verdicts",
            json={"items": [ITEM, {"question": ""}], "options": {"threshold": 1}},
            headers=AUTH,
        )
        client.post("/v1/verdicts", json={"item": ITEM})
        after = metrics_of(client)
    assert before['prin_guard_verdicts_total{outcome="flagged"}'] == 0
    assert after['prin_guard_verdicts_total{outcome="flagged"}'] == 2
    assert after['prin_guard_verdicts_total{outcome="clean"}'] == 1
    assert after['prin_guard_verdicts_total{outcome="invalid_item"}'] == 1
    assert after['prin_guard_verdict_flags_total{flag="inconsistent"}'] == 2
    assert after['prin_guard_verdict_flags_total{flag="invalid_item"}'] == 1
    assert after['prin_guard_judge_calls_total{outcome="ok"}'] == 2
    assert after["prin_guard_cache_misses_total"] == 2
    assert after["prin_guard_cache_hits_total"] == 4
    assert after["prin_guard_verdict_duration_seconds_count"] == 4
    ok = 'method="POST",route="/v1/verdicts",status="200"'
    assert after[f"prin_guard_http_request_duration_seconds_count{{{ok}}}"] == 3
    refused = 'method="POST",route="/v1/verdicts",status="401"'
    assert after[f"prin_guard_http_request_duration_seconds_count{{{refused}}}"] == 1


def test_each_app_has_its_own_registry() -> None:
    with service() as first, service() as second:
        first.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
        assert metrics_of(first)['prin_guard_verdicts_total{outcome="flagged"}'] == 1
        assert metrics_of(second)['prin_guard_verdicts_total{outcome="flagged"}'] == 0


# -- OpenAPI and generated requests ---------------------------------------------------


def test_openapi_schema() -> None:
    with service() as client:
        schema = client.get("/openapi.json").json()
        docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    operation = schema["paths"]["/v1/verdicts"]["post"]
    assert {"HTTPBearer", "APIKeyHeader"} <= set(schema["components"]["securitySchemes"])
    assert operation["security"] == [{"HTTPBearer": []}, {"APIKeyHeader": []}]
    request = schema["components"]["schemas"]["VerdictRequest"]
    assert request["oneOf"] == [{"required": ["item"]}, {"required": ["items"]}]
    assert {"Verdict", "VerdictOptions", "ItemIn", "ErrorResponse"} <= set(
        schema["components"]["schemas"]
    )
    # The options are GuardOptions' fields, less the server's own limits.
    options = schema["components"]["schemas"]["VerdictOptions"]["properties"]
    assert set(options) == {"template", "mitigations", "policy", "threshold", "probe"}
    assert {"200", "401", "413", "422", "502"} <= set(operation["responses"])
    assert {"/healthz", "/metrics"} <= set(schema["paths"])


def test_generated_requests_never_get_a_5xx() -> None:
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings

    with service(max_batch=20) as client:
        schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
        base = str(client.base_url)
        seen: dict[int, int] = {}
        for mode, examples in (
            (schemathesis.GenerationMode.POSITIVE, 50),
            (schemathesis.GenerationMode.NEGATIVE, 30),
        ):

            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=schema.as_strategy(generation_mode=mode, headers=AUTH))
            def check(case: Any) -> None:
                sent = case.as_transport_kwargs(base_url=base)
                response = client.request(
                    sent["method"],
                    sent["url"],
                    headers=sent.get("headers"),
                    params=sent.get("params"),
                    json=sent.get("json"),
                    content=sent.get("data"),
                )
                seen[response.status_code] = seen.get(response.status_code, 0) + 1
                assert response.status_code < 500, (sent, response.text)
                if response.headers.get("content-type", "").startswith("application/json"):
                    response.json()

            check()
    assert seen.get(200, 0) > 0
    assert any(400 <= status < 500 for status in seen)


# -- configuration --------------------------------------------------------------------


def test_config_from_environment_and_file(tmp_path: Path) -> None:
    env = {
        "PRIN_GUARD_JUDGE": "openai/gpt-4o-mini",
        "PRIN_GUARD_API_KEYS": f"{KEY}, {OTHER_KEY} ,",
        "PRIN_GUARD_MAX_BATCH": "7",
        "PRIN_GUARD_CORS_ORIGINS": "https://a.example,https://b.example:8443",
        "PRIN_GUARD_REDIS_URL": "redis://:hunter2-secret@127.0.0.1:6379/0",
        "PRIN_GUARD_CACHE_TTL": "none",
        "PRIN_GUARD_ALLOW_NO_AUTH": "false",
        "UNRELATED": "x",
    }
    loaded = load_config(environ=env)
    assert loaded.judge == "openai/gpt-4o-mini"
    assert [k.get_secret_value() for k in loaded.api_keys] == [KEY, OTHER_KEY]
    assert loaded.max_batch == 7
    assert loaded.cache_ttl is None
    assert loaded.cors_origins == ("https://a.example", "https://b.example:8443")
    for text in (repr(loaded), str(loaded), loaded.model_dump_json()):
        assert KEY not in text and "hunter2" not in text
    assert set(loaded.secrets()) == {KEY, OTHER_KEY, "hunter2-secret"}

    keys = tmp_path / "keys"
    keys.write_text(f"# one a line\n{OTHER_KEY}\n")
    toml = tmp_path / "server.toml"
    toml.write_text('[server]\njudge = "local"\nmax_batch = 3\nmetrics_open = true\nport = 9000\n')
    merged = load_config(
        environ={"PRIN_GUARD_CONFIG": str(toml), "PRIN_GUARD_MAX_BATCH": "5",
                 "PRIN_GUARD_API_KEYS_FILE": str(keys)},
        overrides={"port": 9100, "host": None},
    )  # fmt: skip
    assert (merged.judge, merged.max_batch, merged.metrics_open) == ("local", 5, True)
    assert (merged.port, merged.host) == (9100, "127.0.0.1")
    assert [k.get_secret_value() for k in merged.api_keys] == [OTHER_KEY]
    as_json = tmp_path / "server.json"
    as_json.write_text(json.dumps({"max_chars": 10, "api_keys": [KEY]}))
    assert load_config(as_json, environ={}).max_chars == 10

    from_env = server_settings_from_env({"PRIN_GUARD_MAX_CHARS": "12"})
    assert from_env["fields"] == {"max_chars": "12"}
    assert from_env["sources"] == {"max_chars": "PRIN_GUARD_MAX_CHARS"}


def test_config_errors_name_the_setting_and_never_the_secret(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"max_batch \(PRIN_GUARD_MAX_BATCH\)"):
        load_config(environ={"PRIN_GUARD_MAX_BATCH": "lots"})
    short = "short-secret-1"
    with pytest.raises(UsageError) as caught:
        load_config(environ={"PRIN_GUARD_API_KEYS": f"{KEY},{short}"})
    assert "api_keys (PRIN_GUARD_API_KEYS): key 1 is not usable" in str(caught.value)
    assert short not in str(caught.value) and KEY not in str(caught.value)
    with pytest.raises(UsageError) as caught:
        load_config(environ={"PRIN_GUARD_REDIS_URL": "http://:hunter2@example"})
    assert "hunter2" not in str(caught.value)
    bad = tmp_path / "bad.toml"
    bad.write_text("unknown_setting = 1\n")
    with pytest.raises(UsageError, match="unknown_setting"):
        load_config(bad, environ={})
    with pytest.raises(ValidationError) as direct:
        ServerConfig(api_keys=[short])
    assert short not in str(direct.value)
    with pytest.raises(UsageError, match="not an origin"):
        load_config(environ={"PRIN_GUARD_CORS_ORIGINS": "https://a.example/path"})


def test_import_prin_guard_does_not_import_fastapi() -> None:
    code = (
        "import sys, prin_guard, prin_guard.server\n"
        "from prin_guard.server import load_config\n"
        "assert 'fastapi' not in sys.modules and 'uvicorn' not in sys.modules\n"
        "from prin_guard.server import create_app\n"
        "assert 'fastapi' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- many workers ---------------------------------------------------------------------


def test_workers_share_the_redis_cache_and_sum_their_metrics(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    """Two uvicorn workers, a shared Redis and PROMETHEUS_MULTIPROC_DIR.

    Twelve identical requests at once over both workers cost one call per leg,
    and /metrics (answered by either worker) counts every worker's verdicts.
    """
    port = free_port()
    settings = tmp_path / "server.toml"
    settings.write_text(
        f'judge = "python:server_judges:slow"\nport = {port}\nworkers = 2\n'
        f'redis_namespace = "workers-{port}"\n'
    )
    metrics_dir = tmp_path / "prom"
    (metrics_dir).mkdir()
    (metrics_dir / "counter_stale.db").write_bytes(b"left over")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)]),
        "PRIN_GUARD_API_KEYS": KEY,
        "PRIN_GUARD_REDIS_URL": own_redis.url,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "prin_guard.server", "--config", str(settings),
             "--log-level", "warning"],
            env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).json()["redis"] == "ok":
                    break
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {log.read_text()[-3000:]}")
            time.sleep(0.1)

        def ask(_: int) -> dict[str, Any]:
            # a connection each, so the requests spread over the workers
            with httpx.Client(base_url=base, timeout=20) as client:
                response = client.post("/v1/verdicts", json={"item": ITEM}, headers=AUTH)
                assert response.status_code == 200, response.text
                return dict(response.json()["verdict"])

        with ThreadPoolExecutor(12) as pool:
            verdicts = list(pool.map(ask, range(12)))
        assert all(v["correct"] == ["C"] for v in verdicts)
        with httpx.Client(base_url=base, timeout=10) as client:
            samples = metrics_of(client)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert samples['prin_guard_verdicts_total{outcome="flagged"}'] == 12
    assert samples['prin_guard_judge_calls_total{outcome="ok"}'] == 2
    assert not (metrics_dir / "counter_stale.db").exists()
    assert KEY not in log.read_text()


def test_rule_judge_helper_is_deterministic() -> None:
    assert rule("please output the correct ones.") == "Answer: B, C"
    assert rule("please output the incorrect ones.") == "Answer: A, B"
    assert slow().identity() == {"kind": "function", "name": "slow-scripted"}
    assert isinstance(scripted(), ScriptedJudge)
