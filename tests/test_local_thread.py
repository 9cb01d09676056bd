"""The torch thread (``_local_thread``): LocalJudge's loading and generating run on one thread.

What is promised: jobs run one after the other on a single daemon thread, in the order
they were submitted; a job's exception reaches its submitter and the thread goes on; a job
cancelled before it starts never runs; a job that calls in from the torch thread itself
runs there at once (no deadlock). With the real model: the model is loaded and every
forward pass runs on that thread, never on the caller's, and a long generation lets a
job queued behind it through between two decoding steps.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from prin_guard.judges._local_thread import TorchThread


def test_jobs_run_in_order_on_one_thread() -> None:
    torch_thread = TorchThread.get()
    seen: list[tuple[int, str]] = []
    futures = [
        torch_thread.submit(lambda n=n: seen.append((n, threading.current_thread().name)))
        for n in range(20)
    ]
    for future in futures:
        future.result(timeout=30)
    assert [n for n, _ in seen] == list(range(20))
    assert {name for _, name in seen} == {"prin-guard-torch"}
    assert TorchThread.get() is torch_thread


def test_an_exception_reaches_the_submitter_and_the_thread_goes_on() -> None:
    torch_thread = TorchThread.get()

    def boom() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        torch_thread.submit(boom).result(timeout=30)
    assert torch_thread.call(lambda: 41 + 1) == 42


def test_a_job_cancelled_before_it_starts_never_runs() -> None:
    torch_thread = TorchThread.get()
    gate = threading.Event()
    ran: list[str] = []
    blocker = torch_thread.submit(lambda: gate.wait(30))
    doomed = torch_thread.submit(lambda: ran.append("doomed"))
    assert torch_thread.others_waiting()
    assert doomed.cancel()
    gate.set()
    blocker.result(timeout=30)
    assert torch_thread.call(lambda: "after") == "after"
    assert ran == []


def test_a_call_from_the_torch_thread_runs_there_at_once() -> None:
    torch_thread = TorchThread.get()
    outer = torch_thread.call(lambda: torch_thread.call(lambda: threading.current_thread().name))
    assert outer == "prin-guard-torch"


@pytest.mark.model
def test_the_model_loads_and_runs_on_the_torch_thread_only() -> None:
    pytest.importorskip("torch")
    from prin_guard import LocalJudge

    judge = LocalJudge(max_new_tokens=4)
    model = judge._loaded.model
    names: list[str] = []
    original = model.forward

    def recording(*args: object, **kwargs: object) -> object:
        names.append(threading.current_thread().name)
        return original(*args, **kwargs)

    model.forward = recording
    try:
        response = asyncio.run(judge.complete([{"role": "user", "content": "Name a fruit."}]))
    finally:
        del model.forward
    assert response.text
    assert names and set(names) == {"prin-guard-torch"}


@pytest.mark.model
def test_a_long_generation_lets_a_queued_job_through_between_steps() -> None:
    pytest.importorskip("torch")
    from prin_guard import LocalJudge

    judge = LocalJudge(max_new_tokens=40, stop_at_answer_line=False)
    stats = judge.batch_stats
    steps = stats.steps
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(
            judge.complete([{"role": "user", "content": "Write a long story about a cat."}])
        )
        loop.run_until_complete(asyncio.sleep(0))
        deadline = time.monotonic() + 120
        while stats.steps < steps + 2:
            assert time.monotonic() < deadline, "the generation never started"
            time.sleep(0.01)
        at_job = TorchThread.get().call(lambda: stats.steps)
        response = loop.run_until_complete(task)
    finally:
        loop.close()
    assert response.usage.completion_tokens == 40
    # The scheduler hands over after the step in progress: the job ran a step or two after
    # it was queued, not after the 39 steps of the whole reply.
    assert at_job <= steps + 10
