from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable

import pytest
import structlog
from structlog.testing import capture_logs

import prin_guard
from prin_guard import (
    Flag,
    Guard,
    GuardOptions,
    InvalidItemError,
    Item,
    JudgeError,
    MemoryCache,
    Retry,
    UsageError,
    Verdict,
)
from prin_guard.errors import InconsistentVerdictError, TransientJudgeError
from prin_guard.judges import ScriptedJudge
from prin_guard.models import TEMPLATES, Polarity, Template, Usage


async def _no_sleep(_: float) -> None:
    return None


FAST_RETRY = Retry(attempts=3, sleep=_no_sleep)


def _question_number(prompt: str) -> str:
    match = re.search(r"\bq(\d+)\b", prompt)
    assert match is not None, prompt
    return match.group(1)


def _items(n: int) -> list[Item]:
    return [
        Item(question=f"q{i}", candidates=[f"{i}", f"{i + 1}", f"{i + 2}"], id=f"i{i}")
        for i in range(n)
    ]


def test_table1_contradiction_is_flagged(table1_item: Item) -> None:
    judge = ScriptedJudge(direct="Answer: C", reverse="Answer: C, D, E")
    verdict = Guard(judge).check(table1_item)
    assert verdict.correct == ()
    assert verdict.reverse_implied == ("A", "B")
    assert verdict.prin_score == 1.0
    assert not verdict.consistent
    assert verdict.flags == (Flag.INCONSISTENT, Flag.EMPTY_VERDICT)
    assert judge.call_count == 2


def test_consistent_judge_gives_clean_verdict(table1_item: Item) -> None:
    judge = ScriptedJudge(direct="Answer: C", reverse="Answer: A, B, D, E")
    verdict = Guard(judge).check(table1_item)
    assert verdict.correct == ("C",)
    assert verdict.consistent
    assert verdict.prin_score == 0.0
    assert verdict.flags == ()
    assert verdict.ok


def test_decorator_wraps_a_plain_function_into_a_guard(table1_item: Item) -> None:
    @prin_guard.guard(template="v1", mitigations=["neg-exp"])
    def my_judge(prompt: str) -> str:
        """My judge."""
        return "Answer: A, B, D, E" if "wrong ones" in prompt else "Answer: C"

    assert isinstance(my_judge.guard, Guard)
    assert my_judge.__doc__ == "My judge."
    assert my_judge.__name__ == "my_judge"
    verdict = my_judge.check(table1_item)
    assert verdict.correct == ("C",)
    assert verdict.direct is not None
    assert verdict.direct.template == "v1"
    assert verdict.reverse is not None
    assert verdict.reverse.mitigations == ("neg_exp",)


def test_a_decorated_function_is_still_the_function_its_callers_call(table1_item: Item) -> None:
    # Decorating the grading function a program already calls must not break those
    # calls: the guarded form sits beside it.
    @prin_guard.guard(template="v1")
    def grade(prompt: str) -> str:
        return "Answer: A, B, D, E" if "wrong ones" in prompt else "Answer: C"

    assert grade("What is 2 + 2?") == "Answer: C"
    assert grade.check(table1_item).correct == ("C",)
    assert grade.guard.options.template == "v1"

    @prin_guard.guard
    async def agrade(prompt: str) -> str:
        return "Answer: C"

    assert asyncio.run(agrade("anything")) == "Answer: C"


def test_bare_decorator_and_async_function(table1_item: Item) -> None:
    @prin_guard.guard
    async def my_judge(prompt: str) -> str:
        await asyncio.sleep(0)
        return "Answer: C" if "incorrect" not in prompt else "Answer: A, B, D, E"

    assert my_judge.check(table1_item).correct == ("C",)


async def test_sync_and_async_give_equal_verdicts(table1_item: Item) -> None:
    def fn(prompt: str) -> str:
        return "Answer: B, C" if "incorrect" not in prompt else "Answer: A, D"

    async_verdict = await Guard(fn, cache=None).acheck(table1_item)
    sync_verdict = await asyncio.to_thread(Guard(fn, cache=None).check, table1_item)

    def strip(v: Verdict) -> dict[str, object]:
        data = v.model_dump()
        for leg in ("direct", "reverse"):
            data[leg]["latency_ms"] = 0
        return data

    assert strip(async_verdict) == strip(sync_verdict)


async def test_sync_api_fails_fast_inside_a_running_loop(table1_item: Item) -> None:
    guard = Guard(ScriptedJudge("Answer: C", "Answer: A"))
    with pytest.raises(UsageError, match=r"await guard\.acheck"):
        guard.check(table1_item)
    with pytest.raises(UsageError, match=r"await guard\.acheck_many"):
        guard.check_many([table1_item])


def test_check_many_returns_verdicts_in_input_order() -> None:
    async def slow_for_early_items(prompt: str) -> str:
        # the question is "q<index>" however the template sets it off
        index = int(_question_number(prompt))
        await asyncio.sleep(0.002 * (20 - index))
        return f'Answer: "{index}"' if "incorrect" not in prompt else "Answer: B, C"

    verdicts = Guard(slow_for_early_items, concurrency=16).check_many(_items(20))
    assert [v.item_id for v in verdicts] == [f"i{i}" for i in range(20)]
    assert all(v.correct == ("A",) for v in verdicts)


def test_one_failing_item_in_a_batch_is_flagged_and_the_rest_complete() -> None:
    def fn(prompt: str) -> str:
        if _question_number(prompt) == "3":
            raise RuntimeError("model crashed on this one")
        return "Answer: A" if "incorrect" not in prompt else "Answer: B, C"

    verdicts = Guard(fn, retry=FAST_RETRY).check_many(_items(8))
    assert len(verdicts) == 8
    failed = verdicts[3]
    assert failed.flags == (Flag.JUDGE_ERROR,)
    assert failed.error is not None
    assert failed.error.kind == "judge"
    assert "model crashed" in failed.error.message
    assert failed.direct is None
    assert failed.prin_score is None
    assert not failed.consistent
    assert all(v.correct == ("A",) for i, v in enumerate(verdicts) if i != 3)


def test_bad_items_in_a_batch_are_flagged_by_field_and_cost_no_judge_call() -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    batch = [
        {"question": "fine", "candidates": ["x", "y"]},
        {"question": "", "candidates": ["x", "y"]},
        {"question": "dup", "candidates": ["x", "x"]},
        {"question": "q", "candidates": ["x", "y"], "context": "c" * 50},
        "not an item",
    ]
    verdicts = Guard(judge, max_chars=40).check_many(batch)
    assert verdicts[0].correct == ("A",)
    assert [v.error.field if v.error else None for v in verdicts] == [
        None,
        "question",
        "candidates",
        "context",
        "item",
    ]
    assert all(Flag.INVALID_ITEM in v.flags for v in verdicts[1:])
    assert judge.call_count == 2


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        pytest.param({"question": " ", "candidates": ["a", "b"]}, "question", id="blank"),
        pytest.param({"question": "q", "candidates": ["a"]}, "candidates", id="one-candidate"),
        pytest.param({"question": "q", "candidates": ["a", 1]}, "candidates", id="non-string"),
        pytest.param({"question": "q" * 41, "candidates": ["a", "b"]}, "question", id="too-long"),
        pytest.param(
            {"question": "q", "candidates": [{"text": "a", "reasoning": "r" * 41}, "b"]},
            "candidates.0.reasoning",
            id="reasoning-too-long",
        ),
    ],
)
def test_check_rejects_bad_input_before_any_judge_call(bad: dict[str, object], field: str) -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    with pytest.raises(InvalidItemError) as info:
        Guard(judge, max_chars=40).check(bad)
    assert info.value.field == field
    assert judge.call_count == 0


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("", id="empty"),
        pytest.param(None, id="none"),
        pytest.param("as an AI I cannot", id="garbage"),
    ],
)
def test_judge_returning_nothing_readable_is_a_parse_failure_flag(
    reply: str | None, table1_item: Item
) -> None:
    verdict = Guard(ScriptedJudge(reply, "Answer: A, B")).check(table1_item)
    assert Flag.UNPARSEABLE_DIRECT in verdict.flags
    assert verdict.direct is not None
    assert verdict.direct.raw_text == reply
    assert verdict.prin_score == 1.0


@pytest.mark.parametrize(
    "template",
    [
        pytest.param(TEMPLATES["v3"], id="v3"),
        pytest.param(Template("mine", 1, "good", "bad"), id="custom"),
    ],
)
def test_a_reverse_leg_naming_its_answer_in_the_templates_positive_word_is_confused(
    template: Template, table1_item: Item
) -> None:
    # issue 20, bug 1: only the paper's words ("the correct answer") were flagged
    def reply(prompt: str) -> str:
        if f"output the {template.negative} ones" in prompt:
            return f"The {template.positive} answer is C."
        return "Answer: C"

    verdict = Guard(ScriptedJudge(fn=reply), template=template).check(table1_item)
    assert verdict.direct is not None
    assert not verdict.direct.polarity_confusion
    assert verdict.reverse is not None
    assert verdict.reverse.raw_text == f"The {template.positive} answer is C."
    assert verdict.reverse.polarity_confusion


def test_transient_errors_are_retried_then_succeed(table1_item: Item) -> None:
    judge = ScriptedJudge(
        direct=[TransientJudgeError("429"), TransientJudgeError("503"), "Answer: C"],
        reverse="Answer: A, B, D, E",
    )
    slept: list[float] = []

    async def record(seconds: float) -> None:
        slept.append(seconds)

    guard = Guard(judge, retry=Retry(attempts=4, initial=0.5, max_wait=10, sleep=record))
    verdict = guard.check(table1_item)
    assert verdict.correct == ("C",)
    assert judge.call_count == 4
    # full jitter under an exponential ceiling: 0.5 s, then 1 s
    assert len(slept) == 2
    assert 0 <= slept[0] <= 0.5
    assert 0 <= slept[1] <= 1.0


def test_retry_honours_retry_after_and_stops_after_bounded_attempts(table1_item: Item) -> None:
    judge = ScriptedJudge(
        direct=TransientJudgeError("rate limited", retry_after=2.5), reverse="Answer: A"
    )
    slept: list[float] = []

    async def record(seconds: float) -> None:
        slept.append(seconds)

    guard = Guard(judge, retry=Retry(attempts=3, sleep=record))
    with pytest.raises(JudgeError, match="direct leg failed after 3 attempts"):
        guard.check(table1_item)
    assert slept == [2.5, 2.5]
    # the reverse leg finished and was cached before the error was raised
    assert judge.call_count == 4


def test_function_judge_timeouts_are_transient(table1_item: Item) -> None:
    calls = {"n": 0}

    def flaky(prompt: str) -> str:
        calls["n"] += 1
        if calls["n"] <= 2:
            raise ConnectionError("reset")
        return "Answer: C" if "incorrect" not in prompt else "Answer: A, B, D, E"

    verdict = Guard(flaky, retry=FAST_RETRY, concurrency=1).check(table1_item)
    assert verdict.correct == ("C",)
    assert calls["n"] == 4


def test_permanent_errors_are_not_retried(table1_item: Item) -> None:
    judge = ScriptedJudge(direct=ValueError("bad request"), reverse="Answer: A")
    with pytest.raises(JudgeError, match="ValueError: bad request"):
        Guard(judge, retry=FAST_RETRY).check(table1_item)
    assert judge.call_count == 2


def test_on_inconsistent_raise(table1_item: Item) -> None:
    guard = Guard(ScriptedJudge("Answer: C", "Answer: C, D, E"), on_inconsistent="raise")
    with pytest.raises(InconsistentVerdictError) as info:
        guard.check(table1_item)
    assert info.value.verdict.prin_score == 1.0


def test_second_run_is_served_from_cache_without_judge_calls() -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B, C")
    cache = MemoryCache()
    first = Guard(judge, cache=cache).check_many(_items(10))
    assert judge.call_count == 20
    second = Guard(judge, cache=cache).check_many(_items(10))
    assert judge.call_count == 20
    assert all(v.cached for v in second)
    assert not any(v.cached for v in first)
    assert [v.correct for v in first] == [v.correct for v in second]


def test_changing_policy_or_threshold_costs_no_judge_call(table1_item: Item) -> None:
    judge = ScriptedJudge("Answer: B, C", "Answer: C, D, E")
    cache = MemoryCache()
    synergy = Guard(judge, cache=cache).check(table1_item)
    direct = Guard(judge, cache=cache, policy="direct", threshold=1.0).check(table1_item)
    assert judge.call_count == 2
    assert synergy.correct == ("B",)
    assert not synergy.consistent
    assert direct.correct == ("B", "C")
    assert direct.consistent


def test_cache_key_changes_with_what_changes_the_answer(table1_item: Item) -> None:
    judge = ScriptedJudge("Answer: C", "Answer: A")
    cache = MemoryCache()
    Guard(judge, cache=cache).check(table1_item)
    Guard(judge, cache=cache, template="v1").check(table1_item)
    Guard(judge, cache=cache, mitigations=["neg_exp"]).check(table1_item)
    Guard(judge, cache=cache, retry=Retry(attempts=9), concurrency=2).check(table1_item)
    other = ScriptedJudge("Answer: C", "Answer: A", name="another-model")
    Guard(other, cache=cache).check(table1_item)
    # v0, v1 and neg_exp are new prompts; retries/concurrency are not; another judge is
    assert judge.call_count == 6
    assert other.call_count == 2
    # neg_exp changes only the reverse prompt, but mitigations are part of both keys
    assert len(cache) == 8


def test_corrupt_or_foreign_cache_values_are_misses(table1_item: Item) -> None:
    judge = ScriptedJudge("Answer: C", "Answer: A, B, D, E")
    cache = MemoryCache()
    Guard(judge, cache=cache).check(table1_item)
    keys = list(cache._data)
    bad_values = ["{not json", json.dumps({"schema": 99, "kind": "leg", "text": "x"})]
    for key, value in zip(keys, bad_values, strict=True):
        cache._data[key] = value
    verdict = Guard(judge, cache=cache).check(table1_item)
    assert judge.call_count == 4
    assert verdict.correct == ("C",)
    assert not verdict.cached
    # the misses were written again and are readable now
    assert Guard(judge, cache=cache).check(table1_item).cached


class _BrokenCache:
    async def get_many(self, keys: object) -> list[str | None]:
        raise ConnectionError("cache down")

    async def set_many(self, entries: object) -> None:
        raise ConnectionError("cache down")


def test_a_failing_cache_never_costs_a_verdict(table1_item: Item) -> None:
    judge = ScriptedJudge("Answer: C", "Answer: A, B, D, E")
    with capture_logs() as events:
        verdict = Guard(judge, cache=_BrokenCache()).check(table1_item)
    assert verdict.correct == ("C",)
    assert {e["event"] for e in events if e["log_level"] == "warning"} == {"cache_error"}


def test_identical_legs_in_flight_share_one_judge_call() -> None:
    async def slow(prompt: str) -> str:
        await asyncio.sleep(0.01)
        return "Answer: A" if "incorrect" not in prompt else "Answer: B, C"

    guard = Guard(slow, cache=None)
    items = _items(1) * 5
    verdicts = guard.check_many(items)
    assert len(verdicts) == 5
    assert guard.judge_calls == 2


def test_usage_is_summed_over_the_legs(table1_item: Item) -> None:
    usage = Usage(prompt_tokens=100, completion_tokens=5, cost_usd=None)
    verdict = Guard(ScriptedJudge("Answer: C", "Answer: A", usage=usage)).check(table1_item)
    assert verdict.usage == Usage(prompt_tokens=200, completion_tokens=10, cost_usd=None)


def test_events_carry_item_leg_and_latency_and_prompts_only_at_debug(table1_item: Item) -> None:
    with capture_logs() as events:
        Guard(ScriptedJudge("Answer: C", "Answer: A, B")).check(table1_item)
    by_name: dict[str, list[dict[str, object]]] = {}
    for event in events:
        by_name.setdefault(str(event["event"]), []).append(event)
    assert {e["call"] for e in by_name["judge_call"]} == {"direct", "reverse"}
    assert all(e["item_id"] == "table1" and "latency_ms" in e for e in by_name["judge_call"])
    assert by_name["verdict"][0]["flags"] == ["inconsistent"]
    assert len(by_name["cache_miss"]) == 2
    for event in events:
        has_text = any("Given this question" in str(v) for v in event.values())
        assert not has_text or event["log_level"] == "debug"


def test_library_does_not_print_events_when_structlog_is_unconfigured(
    table1_item: Item, capsys: pytest.CaptureFixture[str]
) -> None:
    structlog.reset_defaults()
    Guard(ScriptedJudge("Answer: C", "Answer: A")).check(table1_item)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "judge_call" not in captured.err


def test_bad_configuration_names_the_option() -> None:
    judge = ScriptedJudge()
    for kwargs, name in [
        ({"threshold": 2}, "threshold"),
        ({"policy": "vote"}, "policy"),
        ({"concurrency": 0}, "concurrency"),
        ({"template": "v7"}, "template"),
        ({"mitigations": ["magic"]}, "mitigations"),
        ({"on_inconsistent": "ignore"}, "on_inconsistent"),
        ({"cache": object()}, "cache"),
    ]:
        with pytest.raises(UsageError, match=f"^{name}:"):
            Guard(judge, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^judge:"):
        Guard(42)  # type: ignore[arg-type]


async def test_astream_yields_every_item_once() -> None:
    guard = Guard(ScriptedJudge("Answer: A", "Answer: B, C"), cache=None, concurrency=4)
    seen = [index async for index, _ in guard.astream(iter(_items(50)), chunk_size=7)]
    assert sorted(seen) == list(range(50))


# -- robustness (issue 11) ---------------------------------------------------------------


def _many(n: int) -> dict[str, object]:
    return {"question": "q", "candidates": [f"c{i}" for i in range(n)]}


GuardCall = Callable[[Guard, dict[str, object]], object]


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda guard, item: guard.check(item), id="check"),
        pytest.param(lambda guard, item: guard.messages(item, Polarity.DIRECT), id="messages"),
        pytest.param(
            lambda guard, item: asyncio.run(guard.aask(item, Polarity.REVERSE)), id="aask"
        ),
    ],
)
def test_the_guard_bounds_the_number_of_candidates(call: GuardCall) -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    guard = Guard(judge, options=GuardOptions(max_candidates=3))
    assert guard.options.max_candidates == 3
    assert call(guard, _many(3)) is not None
    calls = judge.call_count
    with pytest.raises(InvalidItemError) as info:
        call(guard, _many(4))
    assert (info.value.field, info.value.reason) == (
        "candidates",
        "has 4 candidates; the limit is 3 (max_candidates)",
    )
    assert judge.call_count == calls


def test_too_many_candidates_cost_a_batch_only_that_items_verdict() -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    guard = Guard(judge, options=GuardOptions(max_candidates=3))
    fine, too_many = guard.check_many([_many(3), _many(4)])
    assert fine.correct == ("A",)
    assert too_many.flags == (Flag.INVALID_ITEM,)
    assert too_many.error is not None
    assert (too_many.error.field, too_many.error.message) == (
        "candidates",
        "candidates: has 4 candidates; the limit is 3 (max_candidates)",
    )
    assert judge.call_count == 2


def test_the_default_limit_is_64_candidates() -> None:
    judge = ScriptedJudge("Answer: A", "Answer: B")
    guard = Guard(judge)
    assert guard.options.max_candidates == 64
    assert guard.check(_many(64)).correct == ("A",)
    with pytest.raises(InvalidItemError, match=r"^candidates: has 65 candidates; the limit is 64"):
        guard.check(_many(65))


def test_items_the_guard_could_not_encode_are_invalid_items_of_a_batch() -> None:
    # Lone surrogates passed validation and failed in planning with UnicodeEncodeError,
    # which a batch does not catch; a 900 KB id was accepted (and logged).
    judge = ScriptedJudge("Answer: A", "Answer: B")
    batch: list[dict[str, object]] = [
        {"question": "fine", "candidates": ["x", "y"]},
        {"question": "q\ud800", "candidates": ["x", "y"]},
        {"question": "q", "candidates": ["x", "y"], "context": "\udc00"},
        {"question": "q", "candidates": ["x", "y"], "id": "\ud83d"},
        {"question": "q", "candidates": [{"text": "x", "reasoning": "\ud800"}, "y"]},
        {"question": "q", "candidates": ["x", "y"], "id": "i" * 900_000},
        {"question": "also fine", "candidates": ["x", "y"]},
    ]
    verdicts = Guard(judge).check_many(batch)
    assert [v.error.field if v.error else None for v in verdicts] == [
        None,
        "question",
        "context",
        "id",
        "candidates.0.reasoning",
        "id",
        None,
    ]
    assert all(v.flags == (Flag.INVALID_ITEM,) for v in verdicts[1:-1])
    assert all("unpaired surrogate" in v.error.message for v in verdicts[1:5] if v.error)
    assert verdicts[-1].correct == ("A",)
    assert judge.call_count == 4


def test_warnings_carry_a_bounded_error_message(table1_item: Item) -> None:
    body = "x" * 100_000

    def fn(prompt: str) -> str:
        raise RuntimeError(body)

    class HugeErrorCache:
        async def get_many(self, keys: object) -> list[str | None]:
            raise ConnectionError(body)

        async def set_many(self, entries: object) -> None:
            raise ConnectionError(body)

    with capture_logs() as events, pytest.raises(JudgeError):
        Guard(fn, cache=HugeErrorCache(), retry=FAST_RETRY).check(table1_item)
    warnings = [e for e in events if e["log_level"] == "warning"]
    assert {e["event"] for e in warnings} == {"judge_error", "cache_error"}
    for event in warnings:
        assert 500 <= len(str(event["error"])) < 600, event["event"]
        assert str(event["error"]).endswith("characters)")


def test_bounded_keeps_short_text_and_cuts_long_text() -> None:
    from prin_guard._infra._events import bounded

    assert bounded("short") == "short"
    assert bounded("x" * 500) == "x" * 500
    assert bounded("x" * 501) == "x" * 500 + "... (501 characters)"
    assert bounded("abcdef", limit=3) == "abc... (6 characters)"


# -- an item under another task's template (issue 37, papercuts) -----------------------------


def test_an_item_without_the_templates_task_is_told_to_say_it() -> None:
    guard = Guard(ScriptedJudge("[[A]]", "[[B]]"), template="mt-bench-pair")
    with pytest.raises(InvalidItemError) as info:
        guard.check({"question": "Which is kinder?", "candidates": ["Thanks!", "No."]})
    message = str(info.value)
    assert message.startswith("task: the item is a choice item (an item that names no task")
    assert 'give the item "task": "pairwise"' in message
    assert "set no template" not in message
    pair = {"task": "pairwise", "question": "Which is kinder?", "candidates": ["Thanks!", "No."]}
    judged = guard.check(pair)  # judged once it says its task
    assert judged.direct is not None and judged.direct.labels == ("A",)


def test_a_rating_under_a_label_template_is_refused_not_asked_in_other_words() -> None:
    def judge(prompt: str) -> str:  # 8 of 10, and 3 on the mirrored scale
        return "Rating: [[3]]" if "how poor the response" in prompt else "Rating: [[8]]"

    rating = {"task": "rating", "question": "Capital of France?", "response": "Paris."}
    rating["scale"] = {"min": 1, "max": 10}
    with pytest.raises(UsageError) as info:
        Guard(judge, template="mt-bench-pair").check(rating)
    assert str(info.value).startswith(
        "template: the guard's template 'mt-bench-pair' asks pairwise questions, not ratings"
    )
    # in a batch, that item alone is flagged, and the rest is judged
    choice = {"question": "2 + 2?", "candidates": ["4", "5"]}
    refused, judged = Guard(ScriptedJudge("Answer: A", "Answer: B"), template="v1").check_many(
        [rating, choice]
    )
    assert refused.flags == (Flag.INVALID_ITEM,) and refused.error is not None
    assert "a rating cannot be judged here: template: the guard's template 'v1'" in (
        refused.error.message
    )
    assert judged.correct == ("A",)
    # under no template, or a rating prompt, it is rated
    assert Guard(judge).check(rating).rating == 8.0
    assert Guard(judge, template="mt-bench-single").check(rating).rating == 8.0


def test_a_garbage_collected_guards_loop_is_closed_without_waiting() -> None:
    # The cyclic garbage collector runs a guard's loop finalizer in whatever thread it
    # happens to run in (one being started, whose starter waits for it): closing the loop
    # there must not wait for its executor's threads, or a later check deadlocks.
    import threading

    from prin_guard._route._stream import LoopDriver

    release = threading.Event()
    driver = LoopDriver()

    async def busy() -> None:
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, release.wait)  # a thread of the loop's executor, busy

    driver.run(busy(), "check", "acheck")
    assert driver._finalizer is not None
    closing = threading.Thread(target=driver._finalizer)
    closing.start()
    closing.join(timeout=10)
    stuck = closing.is_alive()
    release.set()
    closing.join()
    assert not stuck
