"""OpenTelemetry spans: a verdict span, judge-call spans under it, and the service
continuing the caller's trace.

Each test reads its spans from an in-memory exporter behind a tracer provider of
its own, put in place of prin-guard's tracer (the global provider is left alone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from prin_guard import Guard, JudgeError, MemoryCache, Retry
from prin_guard._infra import _tracing
from prin_guard.errors import TransientJudgeError
from prin_guard.judges import ScriptedJudge
from prin_guard.models import Usage

FAKE_KEY = "sk-fake-0123456789abcdefSECRET"
QUESTION = "Which planet is known as the red planet, tracing-question-marker?"
ITEM = {"id": "q1", "question": QUESTION, "candidates": ["Venus", "Mars", "Jupiter"]}


class ModelJudge(ScriptedJudge):
    """A scripted judge that names a model, as provider judges do."""

    def identity(self) -> Mapping[str, Any]:
        return {**super().identity(), "model": "test-model-1", "api_key_hint": "none"}


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(_tracing, "_tracer", provider.get_tracer("prin_guard"))
    yield exporter
    provider.shutdown()


def named(exporter: InMemorySpanExporter, name: str) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name == name]


def all_attribute_text(exporter: InMemorySpanExporter) -> str:
    """Every attribute of every span and span event, as one string."""
    parts: list[str] = []
    for finished in exporter.get_finished_spans():
        parts.extend(f"{k}={v!r}" for k, v in (finished.attributes or {}).items())
        for ev in finished.events:
            parts.extend(f"{k}={v!r}" for k, v in (ev.attributes or {}).items())
        parts.append(finished.status.description or "")
    return "\n".join(parts)


def guard(judge: Any, **kw: Any) -> Guard:
    return Guard(judge, cache=MemoryCache(), **kw)


def test_a_verdict_span_with_two_judge_call_children(spans: InMemorySpanExporter) -> None:
    judge = ModelJudge(
        "Answer: B", "Answer: A, C", usage=Usage(prompt_tokens=11, completion_tokens=3)
    )
    verdict = asyncio.run(guard(judge).acheck(ITEM))

    (root,) = named(spans, "prin_guard.verdict")
    calls = named(spans, "prin_guard.judge_call")
    assert len(calls) == 2
    assert root.attributes is not None
    assert root.attributes["prin_guard.item_id"] == "q1"
    assert root.attributes["prin_guard.prin_score"] == verdict.prin_score
    assert list(root.attributes["prin_guard.flags"]) == [f.value for f in verdict.flags]
    assert root.status.status_code is StatusCode.UNSET
    assert {c.attributes["prin_guard.call"] for c in calls if c.attributes} == {
        "direct",
        "reverse",
    }
    for call in calls:
        assert call.parent is not None
        assert call.parent.span_id == root.context.span_id
        assert call.context.trace_id == root.context.trace_id
        attrs = call.attributes
        assert attrs is not None
        assert attrs["prin_guard.item_id"] == "q1"
        assert attrs["prin_guard.cache_hit"] is False
        assert attrs["prin_guard.attempts"] == 1
        assert attrs["gen_ai.operation.name"] == "chat"
        assert attrs["gen_ai.request.model"] == "test-model-1"
        assert attrs["gen_ai.usage.input_tokens"] == 11
        assert attrs["gen_ai.usage.output_tokens"] == 3


def test_a_cache_hit_is_marked_and_calls_no_judge(spans: InMemorySpanExporter) -> None:
    checker = guard(ModelJudge("Answer: B", "Answer: A, C"))

    async def twice() -> None:
        await checker.acheck(ITEM)
        spans.clear()
        await checker.acheck(ITEM)

    asyncio.run(twice())
    assert len(named(spans, "prin_guard.verdict")) == 1
    calls = named(spans, "prin_guard.judge_call")
    assert len(calls) == 2
    for call in calls:
        assert call.attributes is not None
        assert call.attributes["prin_guard.cache_hit"] is True
        assert "prin_guard.attempts" not in call.attributes
        assert "gen_ai.usage.input_tokens" not in call.attributes


def test_a_failing_judge_records_the_error_without_its_message(
    spans: InMemorySpanExporter,
) -> None:
    failure = RuntimeError(f"401 Incorrect API key {FAKE_KEY} for prompt {QUESTION}")
    checker = guard(ModelJudge(failure, "Answer: A, C"))
    with pytest.raises(JudgeError):
        asyncio.run(checker.acheck(ITEM))

    (root,) = named(spans, "prin_guard.verdict")
    (failed,) = [c for c in named(spans, "prin_guard.judge_call") if c.status.is_ok is False]
    for errored in (root, failed):
        assert errored.status.status_code is StatusCode.ERROR
        (ev,) = [e for e in errored.events if e.name == "exception"]
        assert ev.attributes is not None
        assert str(ev.attributes["exception.type"]).endswith("JudgeError")
        assert ev.attributes["exception.message"] == "JudgeError (from RuntimeError)"
    assert failed.attributes is not None
    assert failed.attributes["prin_guard.call"] == "direct"
    assert failed.attributes["prin_guard.attempts"] == 1
    text = all_attribute_text(spans)
    assert FAKE_KEY not in text
    assert "tracing-question-marker" not in text


def test_retries_are_counted_on_the_call_span(spans: InMemorySpanExporter) -> None:
    async def no_wait(_: float) -> None:
        return None

    judge = ModelJudge(
        [TransientJudgeError("busy"), TransientJudgeError("busy"), "Answer: B"], "Answer: A, C"
    )
    asyncio.run(guard(judge, retry=Retry(attempts=4, sleep=no_wait)).acheck(ITEM))
    attempts = {
        c.attributes["prin_guard.call"]: c.attributes["prin_guard.attempts"]
        for c in named(spans, "prin_guard.judge_call")
        if c.attributes
    }
    assert attempts == {"direct": 3, "reverse": 1}


def test_no_span_carries_prompts_or_replies(spans: InMemorySpanExporter) -> None:
    reply = "Answer: B  reply-marker-text"
    asyncio.run(guard(ModelJudge(reply, "Answer: A, C"), probe="closed").acheck(ITEM))
    assert {
        c.attributes["prin_guard.call"]
        for c in named(spans, "prin_guard.judge_call")
        if c.attributes
    } >= {
        "direct",
        "reverse",
    }
    text = all_attribute_text(spans)
    for secret in ("tracing-question-marker", "reply-marker-text", "Mars", FAKE_KEY):
        assert secret not in text


def test_a_batch_makes_one_verdict_span_per_item(spans: InMemorySpanExporter) -> None:
    items = [{**ITEM, "id": f"q{i}", "question": f"{QUESTION} {i}"} for i in range(3)]
    asyncio.run(guard(ModelJudge("Answer: B", "Answer: A, C")).acheck_many(items))
    roots = named(spans, "prin_guard.verdict")
    assert sorted(r.attributes["prin_guard.item_id"] for r in roots if r.attributes) == [
        "q0",
        "q1",
        "q2",
    ]
    by_id = {r.context.span_id: r for r in roots}
    calls = named(spans, "prin_guard.judge_call")
    assert len(calls) == 6
    for call in calls:
        assert call.parent is not None
        parent = by_id[call.parent.span_id]
        assert parent.attributes is not None and call.attributes is not None
        assert parent.attributes["prin_guard.item_id"] == call.attributes["prin_guard.item_id"]


@pytest.mark.server
def test_the_service_continues_the_callers_trace(spans: InMemorySpanExporter) -> None:
    pytest.importorskip("fastapi")
    from test_server import AUTH, KEY, service

    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    parent_id = "00f067aa0ba902b7"
    headers = {**AUTH, "traceparent": f"00-{trace_id}-{parent_id}-01"}
    with service() as client:
        traced = client.post("/v1/verdicts", json={"item": {**ITEM, "id": "s1"}}, headers=headers)
        untraced = client.post("/v1/verdicts", json={"item": {**ITEM, "id": "s2"}}, headers=AUTH)
    assert traced.status_code == 200, traced.text
    assert untraced.status_code == 200, untraced.text
    roots = {
        r.attributes["prin_guard.item_id"]: r
        for r in named(spans, "prin_guard.verdict")
        if r.attributes
    }
    assert format(roots["s1"].context.trace_id, "032x") == trace_id
    assert roots["s1"].parent is not None
    assert format(roots["s1"].parent.span_id, "016x") == parent_id
    assert roots["s1"].parent.is_remote
    # a request without one starts a trace of its own
    assert format(roots["s2"].context.trace_id, "032x") != trace_id
    assert roots["s2"].parent is None
    for call in named(spans, "prin_guard.judge_call"):
        if call.attributes and call.attributes["prin_guard.item_id"] == "s1":
            assert format(call.context.trace_id, "032x") == trace_id
    text = all_attribute_text(spans)
    assert KEY not in text
    assert "Bearer" not in text
    assert "tracing-question-marker" not in text


def test_spans_start_once_an_application_configures_a_provider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from opentelemetry import trace

    monkeypatch.setattr(_tracing, "_tracer", None)
    # no provider configured (the API's default proxy): no tracer, spans are skipped
    monkeypatch.setattr(trace, "get_tracer_provider", trace.ProxyTracerProvider)
    assert _tracing.tracer() is None
    verdict = asyncio.run(guard(ModelJudge("Answer: B", "Answer: A, C")).acheck(ITEM))
    assert verdict.prin_score is not None
    assert _tracing._tracer is None
    # the application sets one up later: the next verdict is traced
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    asyncio.run(guard(ModelJudge("Answer: B", "Answer: A, C")).acheck(ITEM))
    assert len(named(exporter, "prin_guard.verdict")) == 1
    assert len(named(exporter, "prin_guard.judge_call")) == 2
    assert _tracing._tracer is not None
    provider.shutdown()
