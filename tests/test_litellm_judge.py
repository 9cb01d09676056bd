"""LiteLLMJudge through the real litellm client, against a scripted local server."""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import os
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _helpers import HANG
from fault_server import (
    Behaviour,
    FaultServer,
    RecordedRequest,
    bad_request,
    empty_choices,
    error,
    malformed,
    null_content,
    ok,
    rate_limited,
    server_error,
    slow,
    trickle,
    unauthorized,
    unavailable,
)
from structlog.testing import capture_logs

import prin_guard
from prin_guard import Flag, Guard, Item, JudgeError, LiteLLMJudge, MemoryCache, Retry, UsageError
from prin_guard.errors import TransientJudgeError
from prin_guard.judges._litellm import _parse_retry_after
from prin_guard.models import ParseMethod, ParseStatus

SECRET = "sk-test-secret"
MODEL = "openai/test-model"
ROOT = Path(__file__).resolve().parents[1]

ITEM = Item(question="What is 2 + 2?", candidates=["4", "5"], id="sum")
"""Correct: A. A consistent judge answers "A" to the direct question and "B" to the reverse."""


def consistent(request: RecordedRequest) -> Behaviour:
    return ok("Answer: B" if request.is_reverse else "Answer: A")


class Sleeps:
    """An injectable ``Retry.sleep`` that records the delays and never waits."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer(responder=consistent) as running:
        yield running


def make_judge(server: FaultServer, **kwargs: Any) -> LiteLLMJudge:
    kwargs.setdefault("timeout", 5.0)
    return LiteLLMJudge(MODEL, api_base=server.base_url, api_key=SECRET, **kwargs)


def make_guard(judge: LiteLLMJudge, sleeps: Sleeps, **kwargs: Any) -> Guard:
    return Guard(judge, retry=Retry(attempts=3, sleep=sleeps), cache=None, **kwargs)


# -- a normal call ---------------------------------------------------------------


async def test_ok_reply_records_text_usage_and_unknown_cost(server: FaultServer) -> None:
    server.script(ok("Answer: A", usage={"prompt_tokens": 40, "completion_tokens": 2}))
    judge = make_judge(server, seed=7, max_tokens=64)
    response = await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert response.text == "Answer: A"
    assert response.output_format == "text"
    assert response.usage is not None
    assert response.usage.prompt_tokens == 40
    assert response.usage.completion_tokens == 2
    assert response.usage.cost_usd is None  # litellm has no price for test-model

    (request,) = server.chat_requests
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    body = request.body
    assert body["model"] == "test-model"
    assert body["messages"] == [{"role": "user", "content": "Which?"}]
    assert body["temperature"] == 0.0
    assert body["seed"] == 7
    assert body["max_tokens"] == 64
    assert "response_format" not in body
    assert "stream" not in body or body["stream"] is False


async def test_a_known_model_is_priced(server: FaultServer) -> None:
    judge = LiteLLMJudge("openai/gpt-4o-mini", api_base=server.base_url, api_key=SECRET)
    response = await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert response.usage is not None
    assert isinstance(response.usage.cost_usd, float)
    assert response.usage.cost_usd > 0


async def test_guard_with_a_litellm_judge_gives_a_clean_verdict(server: FaultServer) -> None:
    sleeps = Sleeps()
    verdict = await make_guard(make_judge(server), sleeps).acheck(ITEM)
    assert verdict.correct == ("A",)
    assert verdict.flags == ()
    assert verdict.usage.prompt_tokens == 24  # two legs of 12
    assert len(server.chat_requests) == 2
    assert sleeps.delays == []


async def test_a_reply_without_content_is_a_parse_failure_not_an_error(
    server: FaultServer,
) -> None:
    server.script(null_content())
    judge = make_judge(server)
    response = await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert response.text is None
    assert len(server.chat_requests) == 1


# -- transient failures are retried by the guard ------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param(rate_limited(retry_after=None), id="429"),
        pytest.param(server_error(), id="500"),
        pytest.param(error(502), id="502"),
        pytest.param(unavailable(), id="503"),
        pytest.param(error(504), id="504"),
        pytest.param(malformed(), id="malformed-json"),
        pytest.param(empty_choices(), id="empty-choices"),
    ],
)
async def test_transient_faults_are_retried_then_succeed(
    server: FaultServer, fault: Behaviour
) -> None:
    server.script(fault)  # the first request of the two legs fails once
    sleeps = Sleeps()
    verdict = await make_guard(make_judge(server), sleeps).acheck(ITEM)
    assert verdict.correct == ("A",)
    assert verdict.flags == ()
    assert len(server.chat_requests) == 3
    assert len(sleeps.delays) == 1


async def test_retry_after_of_a_429_sets_the_wait(server: FaultServer) -> None:
    server.script(rate_limited(retry_after="2"))
    sleeps = Sleeps()
    verdict = await make_guard(make_judge(server), sleeps).acheck(ITEM)
    assert verdict.correct == ("A",)
    assert sleeps.delays == [2.0]
    assert len(server.chat_requests) == 3


async def test_retry_after_as_an_http_date_and_in_milliseconds(server: FaultServer) -> None:
    judge = make_judge(server)
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    server.script(rate_limited(retry_after=when))
    with pytest.raises(TransientJudgeError) as caught:
        await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert caught.value.retry_after is not None
    assert 25 <= caught.value.retry_after <= 31

    server.script(error(503, headers={"retry-after-ms": "1500"}))
    with pytest.raises(TransientJudgeError) as caught:
        await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert caught.value.retry_after == 1.5


def test_parse_retry_after() -> None:
    assert _parse_retry_after({"retry-after": "3"}) == 3.0
    assert _parse_retry_after({"retry-after": " 0.5 "}) == 0.5
    assert _parse_retry_after({"retry-after": "-4"}) == 0.0
    assert _parse_retry_after({"retry-after": "soon"}) is None
    assert _parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert _parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert _parse_retry_after({}) is None


async def test_a_slow_server_times_out_as_a_transient_failure(server: FaultServer) -> None:
    # The server would answer after an hour: only the judge's timeout ends the call.
    judge = make_judge(server, timeout=0.5)
    server.script(slow(3600))
    async with asyncio.timeout(HANG):
        with pytest.raises(TransientJudgeError):
            await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])

    server.reset()
    server.script(slow(3600))  # one leg's first attempt; the retry is answered
    sleeps = Sleeps()
    async with asyncio.timeout(HANG):
        verdict = await make_guard(judge, sleeps).acheck(ITEM)
    assert verdict.correct == ("A",)
    assert len(sleeps.delays) == 1
    assert len(server.chat_requests) == 3


async def test_a_trickling_server_is_cut_off_by_the_whole_call_deadline(
    server: FaultServer,
) -> None:
    # Each read gets a byte within litellm's timeout; the judge's own deadline
    # (1.25 x timeout + 1 s) bounds the whole call.
    # The whole reply would take over 10 s, each byte 0.05 s after the one before, far
    # within litellm's 2 s timeout: the deadline (3.5 s here) is what ends the call.
    judge = make_judge(server, timeout=2.0)
    server.script(trickle(0.05))
    async with asyncio.timeout(HANG):
        with pytest.raises(TransientJudgeError, match=r"no complete reply within 3\.5 s"):
            await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])


async def test_litellm_does_not_retry_on_its_own(server: FaultServer) -> None:
    server.script(server_error(), server_error(), server_error())
    with pytest.raises(TransientJudgeError):
        await make_judge(server).complete([{"role": "user", "content": "Which?"}], labels=["A"])
    assert len(server.chat_requests) == 1


# -- permanent failures are not ---------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param(unauthorized(), id="401"),
        pytest.param(bad_request(), id="400"),
        pytest.param(error(403), id="403"),
        pytest.param(error(404), id="404"),
        pytest.param(error(422), id="422"),
    ],
)
async def test_permanent_faults_fail_at_once(server: FaultServer, fault: Behaviour) -> None:
    server.responder = lambda _request: fault
    judge = make_judge(server)
    with pytest.raises(JudgeError) as caught:
        await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert not isinstance(caught.value, TransientJudgeError)
    assert len(server.chat_requests) == 1

    server.reset()
    sleeps = Sleeps()
    with pytest.raises(JudgeError) as failed:
        await make_guard(judge, sleeps).acheck(ITEM)
    assert SECRET not in str(failed.value)
    assert len(server.chat_requests) == 2  # one per leg, none repeated
    assert sleeps.delays == []


async def test_a_missing_api_key_is_permanent(
    server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # litellm reports a client-side "missing credentials" as a 500.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = LiteLLMJudge(MODEL, api_base=server.base_url, timeout=5.0)
    with pytest.raises(JudgeError) as caught:
        await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])
    assert not isinstance(caught.value, TransientJudgeError)
    assert server.chat_requests == []


async def test_an_unreachable_server_is_transient() -> None:
    with FaultServer() as gone:
        base = gone.base_url
    judge = LiteLLMJudge(MODEL, api_base=base, api_key=SECRET, timeout=2.0)
    with pytest.raises(TransientJudgeError):
        await judge.complete([{"role": "user", "content": "Which?"}], labels=["A", "B"])


async def test_a_batch_with_failing_items_completes_the_others(server: FaultServer) -> None:
    items = [
        Item(question=f"Question {i}{' FAIL' if i in (1, 4) else ''}?", candidates=["4", "5"])
        for i in range(6)
    ]
    items[2] = Item(question="Question 2 REJECT?", candidates=["4", "5"])

    def route(request: RecordedRequest) -> Behaviour:
        if "FAIL" in request.prompt:
            return unavailable()
        if "REJECT" in request.prompt:
            return bad_request()
        return consistent(request)

    server.responder = route
    sleeps = Sleeps()
    verdicts = await make_guard(make_judge(server), sleeps).acheck_many(items)
    assert len(sleeps.delays) == 8  # 2 failing items x 2 legs x 2 retries, none waited out
    failed = {1, 2, 4}
    for index, verdict in enumerate(verdicts):
        if index in failed:
            assert verdict.flags == (Flag.JUDGE_ERROR,)
            assert verdict.error is not None
            assert verdict.error.kind == "judge"
            assert SECRET not in verdict.error.message
        else:
            assert verdict.flags == ()
            assert verdict.correct == ("A",)
    per_question: dict[str, int] = {}
    for request in server.chat_requests:
        found = re.search(r"Question \d( FAIL| REJECT)?", request.prompt)
        assert found, request.prompt
        question = found.group(0)
        per_question[question] = per_question.get(question, 0) + 1
    assert per_question["Question 1 FAIL"] == 6  # 2 legs x 3 attempts
    assert per_question["Question 2 REJECT"] == 2  # not retried
    assert per_question["Question 0"] == 2


# -- structured output ------------------------------------------------------------


def _schema(labels: list[str]) -> dict[str, Any]:
    # the reasoning first (judges conclude better after reasoning), then the labels
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "labels": {
                "type": "array",
                "items": {"type": "string", "enum": labels},
                "maxItems": len(labels),
            },
        },
        "required": ["reasoning", "labels"],
        "additionalProperties": False,
    }


async def test_structured_mode_sends_the_labels_schema_and_reads_json(server: FaultServer) -> None:
    server.responder = lambda r: ok(
        '{"reasoning":"C and D are wrong; B is off by one.","labels":["B"]}'
        if r.is_reverse
        else '{"reasoning":"A adds up: 2 + 2 is 4.","labels":["A"]}'
    )
    judge = make_judge(server, structured=True)
    verdict = await make_guard(judge, Sleeps()).acheck(ITEM)
    assert verdict.correct == ("A",)
    assert verdict.flags == ()
    assert verdict.reverse is not None
    assert verdict.reverse.labels == ("B",)
    assert verdict.reverse.output_format == "json"
    assert verdict.reverse.parse_method is ParseMethod.STRUCTURED
    assert verdict.reverse.parse_status is ParseStatus.OK
    for request in server.chat_requests:
        assert request.body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "labels", "schema": _schema(["A", "B"]), "strict": True},
        }


async def test_json_object_mode_for_llama_cpp_servers(server: FaultServer) -> None:
    server.script(ok('{"labels": ["B"]}'))
    judge = make_judge(server, structured="json_object")
    response = await judge.complete([{"role": "user", "content": "?"}], labels=["A", "B", "C"])
    assert response.output_format == "json"
    assert response.text == '{"labels": ["B"]}'
    assert server.chat_requests[0].body["response_format"] == {
        "type": "json_object",
        "schema": _schema(["A", "B", "C"]),
    }
    assert judge.identity()["structured"] == "json_object"


async def test_structured_without_labels_falls_back_to_text(server: FaultServer) -> None:
    judge = make_judge(server, structured=True)
    response = await judge.complete([{"role": "user", "content": "?"}])
    assert response.output_format == "text"
    assert "response_format" not in server.chat_requests[0].body


async def test_auto_structured_follows_litellm_model_info(server: FaultServer) -> None:
    assert make_judge(server, structured="auto").identity()["structured"] is False
    known = LiteLLMJudge("openai/gpt-4o-mini", api_key=SECRET, structured="auto")
    assert known.identity()["structured"] == "json_schema"
    assert make_judge(server, structured=True).identity()["structured"] == "json_schema"


# -- identity and secrets ------------------------------------------------------------


def test_identity_has_no_secrets() -> None:
    judge = LiteLLMJudge(
        MODEL,
        api_base="https://alice:pw-secret@llm.example.com:8443/v1?api-key=q-secret#frag",
        api_key=SECRET,
        seed=3,
        max_tokens=100,
        timeout=12.0,
        top_p=0.9,
        stop=["\n\n"],
        extra_headers={"X-Api-Key": "hdr-secret"},
        extra_body={"top_k": 20, "access_token": "body-secret"},
        aws_secret_access_key="aws-secret",
        vertex_credentials="cred-secret",
        api_token="token-secret",
        max_completion_tokens=50,
    )
    identity = dict(judge.identity())
    dumped = json.dumps(identity)
    for secret in (SECRET, "pw-secret", "q-secret", "hdr-secret", "body-secret", "aws-secret"):
        assert secret not in dumped
    assert "cred-secret" not in dumped
    assert "token-secret" not in dumped
    assert identity == {
        "kind": "litellm",
        "model": MODEL,
        "api_base": "https://llm.example.com:8443/v1",
        "temperature": 0.0,
        "seed": 3,
        "max_tokens": 100,
        "structured": False,
        "top_p": 0.9,
        "stop": ["\n\n"],
        "extra_body": {"top_k": 20},
        "max_completion_tokens": 50,
    }
    assert SECRET not in repr(judge)
    assert SECRET not in repr(Guard(judge))


async def test_the_key_reaches_the_server_but_no_log_or_cache_key(
    server: FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    cache = MemoryCache()
    judge = make_judge(server)
    caplog.set_level(logging.DEBUG)
    server.script(unauthorized())
    with capture_logs() as events:
        guard = Guard(judge, cache=cache, retry=Retry(attempts=3, sleep=Sleeps()))
        with pytest.raises(JudgeError):
            await guard.acheck(ITEM)
        verdict = await guard.acheck(ITEM)
    assert verdict.correct == ("A",)
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in server.chat_requests)
    assert SECRET not in json.dumps(events, default=str)
    assert SECRET not in caplog.text  # litellm's own loggers too
    stored = await cache.get_many(guard.cache_keys(ITEM))
    assert all(value is not None and SECRET not in value for value in stored)
    assert SECRET not in json.dumps(guard.caller.identity)


def test_no_litellm_global_is_assigned(server: FaultServer) -> None:
    import litellm

    def snapshot() -> dict[str, Any]:
        return {
            name: value
            for name, value in vars(litellm).items()
            if isinstance(value, str | int | float | bool | type(None))
        }

    make_judge(server)  # litellm is loaded
    before = snapshot()
    guard = make_guard(make_judge(server, structured="json_object", top_p=0.5), Sleeps())
    server.script(server_error())
    assert guard.check(ITEM).correct == ("A",)
    assert snapshot() == before


async def test_litellms_banners_never_reach_stdout_or_stderr(
    server: FaultServer, capfd: pytest.CaptureFixture[str]
) -> None:
    # issue 37, item 16: each failure printed litellm's "Give Feedback / Get Help" and
    # "LiteLLM.Info" banners into the progress output; litellm has no per-call switch (its
    # module global gates them), so the judge holds back what its own calls print
    import litellm

    before = (litellm.suppress_debug_info, sys.stdout, sys.stderr)
    server.script(server_error(), bad_request(), unauthorized(), server_error())
    judge = make_judge(server)

    async def bystander() -> None:
        # another task printing while a failing call is in flight keeps its output
        await asyncio.sleep(0.05)
        print("the application's own line")
        print("and its own error line", file=sys.stderr)

    async def failing() -> None:
        with pytest.raises(JudgeError):
            await judge.complete([{"role": "user", "content": "Which?"}])

    await asyncio.gather(bystander(), *(failing() for _ in range(4)))
    server.script(slow(0.3, server_error()))
    await asyncio.gather(bystander(), failing())
    out, err = capfd.readouterr()
    for banner in ("Give Feedback", "BerriAI/litellm/issues", "LiteLLM.Info", "turn_on_debug"):
        assert banner not in out and banner not in err
    assert out.count("the application's own line") == 2
    assert err.count("and its own error line") == 2
    # nothing of litellm's configuration or of the process's streams was left changed
    assert (litellm.suppress_debug_info, sys.stdout, sys.stderr) == before


# -- construction ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"structured": "yes"}, "structured"),
        ({"structured": 1}, "structured"),
        ({"timeout": 0}, "timeout"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"seed": 1.5}, "seed"),
        ({"num_retries": 3}, "num_retries"),
        ({"response_format": {"type": "json_object"}}, "response_format"),
        ({"stream": True}, "stream"),
        ({"logit_bias": {1: object()}}, "logit_bias"),
    ],
)
def test_bad_arguments_are_usage_errors(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(UsageError, match=field):
        LiteLLMJudge(MODEL, api_base="http://127.0.0.1:9/v1", **kwargs)


def test_an_unknown_provider_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="provider"):
        LiteLLMJudge("no-such-model-anywhere")


def test_it_is_a_judge() -> None:
    judge = LiteLLMJudge(MODEL, api_base="http://127.0.0.1:9/v1")
    assert isinstance(judge, prin_guard.Judge)


# -- import cost ---------------------------------------------------------------------------


def _run(code: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_litellm_is_imported_only_when_a_judge_is_built() -> None:
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    unset = _run(
        """
        import os, sys
        import prin_guard
        import prin_guard.judges._litellm as m
        assert "litellm" not in sys.modules, "imported with the module"
        m.LiteLLMJudge("openai/x", api_base="http://127.0.0.1:9/v1")
        assert "litellm" in sys.modules
        assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
        """,
        env,
    )
    # A choice the user made is kept. The URL answers 404, which litellm gives up on at
    # once (a refused connection it retries twice, after 2 s and 4 s).
    with FaultServer() as cost_map:
        chosen = _run(
            """
            import os
            import prin_guard.judges._litellm as m
            m.LiteLLMJudge("openai/x", api_base="http://127.0.0.1:9/v1")
            assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "False"
            """,
            {
                **env,
                "LITELLM_LOCAL_MODEL_COST_MAP": "False",
                "LITELLM_MODEL_COST_MAP_URL": f"{cost_map.base_url}/cost.json",
            },
        )
        for process in (unset, chosen):
            _, stderr = process.communicate(timeout=60)
            assert process.returncode == 0, stderr
        assert [request.path for request in cost_map.requests] == ["/v1/cost.json"]
