"""One route for every task (issue 39): a rating is planned, prefetched, asked, read and
reconciled by the same steps as a label item, so it gets the prefetch (one cache round
trip for all its legs), the verdict's tracing span, the verdict log line and
``Guard.cache_keys`` from the route."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from structlog.testing import capture_logs

from prin_guard import Guard, MemoryCache
from prin_guard._infra import _tracing
from prin_guard.judges import ScriptedJudge
from prin_guard.tasks import REGISTRY, task_of

RATING = {
    "task": "rating",
    "id": "r1",
    "question": "What is 2 + 2?",
    "response": "4",
    "scale": {"min": 1, "max": 10, "rubric": {"1": "wrong", "10": "right"}},
}
ASPECTS = {
    **RATING,
    "id": "r2",
    "aspects": [{"name": "accuracy"}, {"name": "clarity", "scale": {"min": 1, "max": 5}}],
}
CHOICE = {"id": "q1", "question": "2 + 2?", "candidates": ["3", "4", "5"]}


def rater(prompt: str) -> str:
    """Direct: 9 (4 on a scale to 5); mirrored: 2 (the same rating read back)."""
    mirrored = "how poor" in prompt
    if "accuracy" in prompt and "clarity" in prompt:  # aspects asked together
        return "accuracy: [[2]]\nclarity: [[1]]" if mirrored else "accuracy: [[9]]\nclarity: [[5]]"
    top = 5 if "1 to 5" in prompt else 10
    return f"Rating: [[{(1 + top) - (top - 1) if mirrored else top - 1}]]"


class CountingCache(MemoryCache):
    """A memory cache that records each read's keys."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[list[str]] = []

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        self.reads.append(list(keys))
        return await super().get_many(keys)


def test_every_task_is_registered_and_found_by_its_items() -> None:
    assert list(REGISTRY) == ["choice", "pairwise", "checklist", "rating", "ranking", "review"]
    assert task_of(RATING) is REGISTRY["rating"]
    assert task_of({"task": "review"}) is REGISTRY["review"]
    assert task_of({"task": "pairwise"}) is REGISTRY["pairwise"]
    assert task_of(CHOICE) is REGISTRY["choice"]
    assert task_of({"task": "Rating?"}) is REGISTRY["choice"]  # its model names the field


@pytest.mark.parametrize("options", [{}, {"checks": "reverse,order"}])
def test_a_ratings_legs_are_prefetched_in_one_round_trip(options: dict[str, Any]) -> None:
    cache = CountingCache()
    Guard(rater, cache=cache, **options).check(RATING)
    cache.reads.clear()
    guard = Guard(rater, cache=cache, **options)
    verdict = guard.check(RATING)
    assert verdict.cached and verdict.rating == 9
    # one read holding every leg's key (the old path read each leg's on its own)
    assert [len(keys) for keys in cache.reads] == [3 if options else 2]
    assert cache.reads == [guard.cache_keys(RATING)]


@pytest.mark.parametrize(
    ("item", "options"),
    [
        (RATING, {}),
        (RATING, {"checks": "reverse,order"}),
        (ASPECTS, {}),
        (ASPECTS, {"rating_aspects": "together"}),
    ],
)
def test_a_ratings_cache_keys_are_the_keys_its_replies_are_stored_under(
    item: dict[str, Any], options: dict[str, Any]
) -> None:
    cache = MemoryCache()
    guard = Guard(rater, cache=cache, **options)
    keys = guard.cache_keys(item)  # before: an InvalidItemError naming the task
    assert len(set(keys)) == len(keys)
    guard.check(item)
    assert sorted(keys) == sorted(cache._data)


def test_a_panels_rating_keys_are_every_members() -> None:
    cache = MemoryCache()
    guard = Guard([rater, ScriptedJudge("Rating: [[8]]", "Rating: [[3]]")], cache=cache)
    keys = guard.cache_keys(RATING)
    assert len(keys) == 4
    guard.check(RATING)
    assert sorted(keys) == sorted(cache._data)


def test_a_rating_verdict_is_logged_as_a_label_verdict_is() -> None:
    guard = Guard(rater, cache=None)
    with capture_logs() as events:
        rated = guard.check(RATING)
        chosen = Guard(ScriptedJudge("Answer: B", "Answer: A, C"), cache=None).check(CHOICE)
    logged = [e for e in events if e["event"] == "verdict"]
    assert [e["item_id"] for e in logged] == [rated.item_id, chosen.item_id]
    assert logged[0]["judge_calls"] == 2 and logged[0]["consistent"] is True


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(_tracing, "_tracer", provider.get_tracer("prin_guard"))
    yield exporter
    provider.shutdown()


def test_a_rating_verdict_has_a_span_with_its_judge_calls_under_it(spans: Any) -> None:
    verdict = asyncio.run(Guard(rater, cache=MemoryCache()).acheck(RATING))
    finished = spans.get_finished_spans()
    (root,) = [s for s in finished if s.name == "prin_guard.verdict"]
    calls = [s for s in finished if s.name == "prin_guard.judge_call"]
    assert root.attributes["prin_guard.item_id"] == verdict.item_id == "r1"
    assert root.attributes["prin_guard.prin_score"] == verdict.scores.prin
    assert len(calls) == 2
    assert all(
        call.parent is not None and call.parent.span_id == root.context.span_id for call in calls
    )


def test_an_item_the_service_never_received_keeps_its_task() -> None:
    # the service's verdict of a batch item it never got is built by _decide.error_verdict
    # too (it said "choice" for a pairwise item: it built its own Verdict)
    from types import SimpleNamespace

    from prin_guard.server._app import _not_received

    config: Any = SimpleNamespace(guard=SimpleNamespace(options=Guard(rater).options))
    pair = {"task": "pairwise", "question": "q?", "candidates": ["x", "y"]}
    verdict = _not_received(pair, config, "timed out")
    assert (verdict.task, verdict.labels, verdict.flags) == (
        "pairwise",
        ("A", "B"),
        ("judge_error",),
    )
    rated = _not_received(RATING, config, "timed out")
    assert (rated.task, rated.item_id, rated.error and rated.error.message) == (
        "rating",
        "r1",
        "timed out",
    )


def test_one_question_of_a_rating_is_asked_by_the_route() -> None:
    from prin_guard import InvalidItemError
    from prin_guard.models import Polarity

    cache = MemoryCache()
    guard = Guard(rater, cache=cache)
    direct = asyncio.run(guard.aask(RATING))  # before: an InvalidItemError naming the task
    mirrored = asyncio.run(guard.aask(RATING, Polarity.REVERSE))
    assert (direct.score, mirrored.score, direct.cached) == (9, 2, False)
    assert sorted(cache._data) == sorted(guard.cache_keys(RATING))  # a verdict's own keys
    again = asyncio.run(Guard(rater, cache=cache).aask(RATING))
    assert again.cached and again.score == 9
    assert guard.check(RATING).cached  # and the verdict finds both legs asked
    with pytest.raises(InvalidItemError) as raised:
        asyncio.run(guard.aask(ASPECTS))
    assert raised.value.field == "aspects"
