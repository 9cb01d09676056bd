"""Batched generation in LocalJudge, on the real bundled SmolLM2-135M-Instruct.

The promise under test: batching changes speed, never the reply. Greedy replies batched
together are the replies each call gets alone (``batch_size=1``), on 6 real MathQA items
(12 legs of 147 to 187 prompt tokens: padded to each other, and more than a batch holds);
seeded samples do not depend on what they were batched with; a batched row that came
within a hair of another token is generated again alone. And the scheduling itself: calls
join a running batch, a ``batch_size=1`` judge never shares a step, cancelled calls
leave, a failing call fails alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import time
from collections.abc import Sequence
from typing import Any

import pytest

from prin_guard import Guard
from prin_guard.datasets import load_mathqa, sample_path
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message, Polarity

torch = pytest.importorskip("torch")

model = pytest.mark.model


def mathqa_legs(items: int) -> list[list[Message]]:
    """Both legs of the first ``items`` MathQA sample items, as a Guard asks them."""
    guard = Guard(lambda prompt: "", cache=None)
    records = itertools.islice(load_mathqa(sample_path("mathqa")), items)
    return [
        guard.messages(record.item, polarity)
        for record in records
        for polarity in (Polarity.DIRECT, Polarity.REVERSE)
    ]


def user(text: str) -> list[Message]:
    return [{"role": "user", "content": text}]


async def together(calls: Sequence[tuple[Any, list[Message]]]) -> list[JudgeResponse]:
    return list(await asyncio.gather(*(judge.complete(messages) for judge, messages in calls)))


def one_by_one(judge: Any, conversations: Sequence[list[Message]]) -> list[JudgeResponse]:
    return [asyncio.run(judge.complete(messages)) for messages in conversations]


def stats(judge: Any) -> dict[str, int]:
    return dataclasses.asdict(judge.batch_stats)


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {name: after[name] - before[name] for name in before}


@pytest.fixture(scope="module")
def judges() -> dict[str, Any]:
    from prin_guard import LocalJudge

    return {"alone": LocalJudge(batch_size=1), "batched": LocalJudge(batch_size=8)}


# -- the replies ------------------------------------------------------------------------------


@model
def test_batched_greedy_replies_are_the_unbatched_ones_on_6_mathqa_items(
    judges: dict[str, Any],
) -> None:
    # 12 legs for batches of 8: prompts of six lengths padded together, and the last four
    # join the batch as the first rows finish
    legs = mathqa_legs(6)
    alone = one_by_one(judges["alone"], legs)
    before = stats(judges["batched"])
    batched = asyncio.run(together([(judges["batched"], messages) for messages in legs]))
    did = delta(before, stats(judges["batched"]))

    assert [r.text for r in batched] == [r.text for r in alone]
    assert [r.usage for r in batched] == [r.usage for r in alone]
    for one, many in zip(alone, batched, strict=True):
        assert one.tokens is not None
        assert many.tokens is not None
        assert [t for t, _ in many.tokens] == [t for t, _ in one.tokens]
        # The same tokens, their log-probabilities a few ulps apart (or equal, if redone).
        drift = max(abs(a - b) for (_, a), (_, b) in zip(one.tokens, many.tokens, strict=True))
        assert drift < 1e-3
    # It was batching: rows shared steps and prompt prefixes.
    assert did["calls"] == len(legs)
    assert did["batched"] >= len(legs) - 1
    assert did["row_steps"] > 2 * did["steps"]
    assert did["shared_tokens"] > 0


@model
def test_seeded_samples_do_not_depend_on_what_they_are_batched_with(
    judges: dict[str, Any],
) -> None:
    sampled_alone = judges["alone"].with_sampling(0.8, 5)
    sampled = judges["batched"].with_sampling(0.8, 5)
    greedy = judges["batched"]
    legs = mathqa_legs(2)
    alone = one_by_one(sampled_alone, legs)
    with_greedy = asyncio.run(
        together([(sampled, m) for m in legs] + [(greedy, m) for m in reversed(legs)])
    )[: len(legs)]
    reordered = asyncio.run(together([(sampled, m) for m in reversed(legs)]))[::-1]
    assert [r.text for r in with_greedy] == [r.text for r in alone]
    assert [r.text for r in reordered] == [r.text for r in alone]
    # Different seeds draw differently (else the test above proves nothing).
    other = one_by_one(judges["alone"].with_sampling(0.8, 6), legs)
    assert [r.text for r in other] != [r.text for r in alone]


@model
def test_a_near_tie_in_a_batch_is_generated_again_alone(
    judges: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import prin_guard.judges._local_decode as decode
    from prin_guard import LocalJudge

    legs = [user("Name a colour."), user("Name a fruit."), user("Name an animal.")]
    short = LocalJudge(max_new_tokens=6, batch_size=8)
    alone = one_by_one(LocalJudge(max_new_tokens=6, batch_size=1), legs)
    monkeypatch.setattr(decode, "TIE_MARGIN", float("inf"))  # every step is a near tie
    before = stats(short)
    batched = asyncio.run(together([(short, m) for m in legs]))
    did = delta(before, stats(short))
    assert did["redone"] == did["batched"] == len(legs)
    assert batched == alone  # redone alone: the very same computation, bit for bit


@model
def test_sampled_judges_name_their_sampler_in_the_identity(judges: dict[str, Any]) -> None:
    # Draws are Gumbel-max since batching: answers cached by the earlier sampler differ.
    assert "sampler" not in judges["alone"].identity()
    assert judges["alone"].with_sampling(0.7, 1).identity()["sampler"] == "gumbel_max"


# -- scheduling -------------------------------------------------------------------------------


def call(judge: Any, text: str, **changes: Any) -> Any:
    """A raw generation call for ``judge``'s scheduler (prompt ids, settings)."""
    from prin_guard.judges._local_decode import _Call

    tokenizer = judge._loaded.tokenizer
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": text}], add_generation_prompt=True, return_dict=True
    )["input_ids"]
    settings: dict[str, Any] = {
        "prompt": list(prompt),
        "max_new_tokens": 8,
        "stop_at_answer_line": False,
        "temperature": 0.0,
        "seed": 0,
        "batch_size": judge.batch_size,
        "batch_wait": 0.05,
        "threads": None,
    }
    return _Call(**{**settings, **changes})


def wait_for(condition: Any, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@model
def test_a_call_that_arrives_mid_batch_joins_at_the_next_token(judges: dict[str, Any]) -> None:
    judge = judges["batched"]
    scheduler = judge._scheduler
    long = call(judge, "Write a long story about a cat.", max_new_tokens=40)
    steps = judge.batch_stats.steps
    first = scheduler.submit(long)
    wait_for(lambda: judge.batch_stats.steps >= steps + 3)
    second = scheduler.submit(call(judge, "Name a fruit."))
    late, early = second.result(timeout=300), first.result(timeout=300)
    assert late.batched
    assert early.batched
    assert len(early.ids) == 40


@model
def test_a_batch_size_one_judge_never_shares_a_step(judges: dict[str, Any]) -> None:
    alone, batched = judges["alone"], judges["batched"]
    # One scheduler per model: all four queue together; first come, first served.
    calls = [
        call(batched, "Name a colour."),
        call(batched, "Name an animal."),
        call(alone, "Name a fruit."),
        call(alone, "Name a country."),
    ]
    futures = [batched._scheduler.submit(c) for c in calls]
    results = [f.result(timeout=300) for f in futures]
    assert [r.batched for r in results] == [True, True, False, False]


@model
def test_a_cancelled_call_leaves_the_batch(judges: dict[str, Any]) -> None:
    judge = judges["batched"]
    scheduler = judge._scheduler
    before = stats(judge)
    doomed = call(judge, "Write a long story about a dog.", max_new_tokens=48)
    future = scheduler.submit(doomed)
    wait_for(lambda: judge.batch_stats.steps >= before["steps"] + 2)
    assert future.cancel()
    kept = scheduler.submit(call(judge, "Name a fruit.", max_new_tokens=4)).result(timeout=300)
    assert len(kept.ids) <= 4
    did = delta(before, stats(judge))
    assert did["calls"] == 1  # only the kept call was handed back
    assert did["row_steps"] < 48  # the cancelled row stopped early


@model
def test_a_failing_call_fails_alone_and_the_worker_goes_on(judges: dict[str, Any]) -> None:
    judge = judges["batched"]
    scheduler = judge._scheduler
    broken = call(judge, "Name a fruit.")
    broken.prompt = [10**9]  # not a token of the vocabulary
    failing = scheduler.submit(broken)
    with pytest.raises(Exception, match="index"):
        failing.result(timeout=300)
    fine = scheduler.submit(call(judge, "Name a fruit.", max_new_tokens=4)).result(timeout=300)
    assert fine.ids


@model
async def test_cancelling_the_awaiting_task_cancels_the_call(judges: dict[str, Any]) -> None:
    from prin_guard import LocalJudge

    judge = LocalJudge(max_new_tokens=48, stop_at_answer_line=False)
    before = stats(judge)
    task = asyncio.create_task(judge.complete(user("Write a long story about a bird.")))
    while judge.batch_stats.steps < before["steps"] + 2:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await judge.complete(user("Say hi."))
    assert delta(before, stats(judge))["calls"] == 1


@model
def test_a_leg_asked_after_the_other_has_left_still_shares_its_prefix(
    judges: dict[str, Any],
) -> None:
    # The shared prefix is computed once per verdict even when the legs do not meet in
    # the batch (the first finished before the second came): the finished row's keys
    # and values are kept for a while.
    direct, reverse = mathqa_legs(1)
    batched, alone = judges["batched"], judges["alone"]
    asyncio.run(batched.complete(direct))
    before = stats(batched)
    second = asyncio.run(batched.complete(reverse))
    did = delta(before, stats(batched))
    assert did["shared_tokens"] > 50  # the item's question and options, not computed again
    assert did["batched"] == 1
    # and the reply is the one the leg gets alone
    assert second.text == asyncio.run(alone.complete(reverse)).text
