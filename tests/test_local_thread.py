"""The torch thread (``_local_thread``): LocalJudge's loading and generating run on one thread.

What is promised: jobs run one after the other on a single daemon thread, in the order
they were submitted; a job's exception reaches its submitter and the thread goes on; a job
cancelled before it starts never runs; a job that calls in from the torch thread itself
runs there at once (no deadlock). With the real model: the model is loaded and every
forward pass runs on that thread, never on the caller's, and a long generation lets a
job queued behind it through between two decoding steps. At exit the thread is stopped
before the interpreter finalizes (a job that can stop early does, one that cannot is
waited for, a Ctrl-C during that wait leaves at once), so a Ctrl-C with the local judge
exits with 130, never with an abort.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from _helpers import HANG, wait_until

from prin_guard.judges._local_thread import TorchThread

ROOT = Path(__file__).resolve().parents[1]


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
        wait_until(lambda: stats.steps >= steps + 2, "the generation's first steps", every=0.01)
        at_job = TorchThread.get().call(lambda: stats.steps)
        response = loop.run_until_complete(task)
    finally:
        loop.close()
    assert response.usage.completion_tokens == 40
    # The scheduler hands over after the step in progress: the job ran a step or two after
    # it was queued, not after the 39 steps of the whole reply.
    assert at_job <= steps + 10


# -- stopping: at exit, and on Ctrl-C ------------------------------------------------


def test_stop_cancels_queued_jobs_and_lets_a_stoppable_job_return() -> None:
    torch_thread = TorchThread()  # not the process's: stopping it must not stop that one
    steps: list[int] = []

    def long_job() -> str:
        while not torch_thread.stopping:  # a decoding loop checks between steps
            steps.append(1)
            time.sleep(0.01)
        return "stopped"

    running = torch_thread.submit(long_job)
    queued = torch_thread.submit(lambda: "never")
    wait_until(lambda: steps or running.done(), "the long job's start", every=0.01)
    assert torch_thread.stop(timeout=10)
    assert running.result(timeout=0) == "stopped"
    assert queued.cancelled()
    assert torch_thread.submit(lambda: "late").cancelled()  # nothing queues behind a stop


EXITING = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from prin_guard.judges._local_thread import TorchThread

    marker, mode = Path(sys.argv[1]), sys.argv[2]
    torch_thread = TorchThread.get()

    def job():
        print("running", flush=True)
        if mode == "stoppable":  # like generating: stops between two steps
            while not torch_thread.stopping:
                time.sleep(0.01)
            time.sleep(0.2)  # the step in progress ends
        else:  # like loading a model: cannot stop early
            time.sleep(float(mode))
        marker.write_text("ended")

    torch_thread.submit(job)
    sys.stdin.readline()  # the test says when to leave
    sys.exit(130)
    """
)


def _exiting(tmp_path: Path, mode: str) -> tuple[subprocess.Popen[str], Path]:
    marker = tmp_path / "ended"
    child = subprocess.Popen(
        [sys.executable, "-c", EXITING, str(marker), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None and child.stdout.readline() == "running\n"
    return child, marker


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("1.0", id="a-job-that-cannot-stop-early-is-waited-for"),
        pytest.param("stoppable", id="a-job-that-can-stop-early-is-told-to"),
    ],
)
def test_the_process_exits_only_after_the_torch_thread_ended(tmp_path: Path, mode: str) -> None:
    # Issue 21, item 20: the interpreter finalized while the torch thread was inside
    # torch, and the process aborted ("terminate called without an active exception").
    # Now the exit stops the thread and waits for the job in progress to end.
    child, marker = _exiting(tmp_path, mode)
    _, err = child.communicate("\n", timeout=60)
    assert child.returncode == 130, err
    assert marker.read_text() == "ended"


def test_ctrl_c_while_the_exit_waits_for_the_torch_thread_leaves_at_once(
    tmp_path: Path,
) -> None:
    # The job takes an hour: a process that waited for it would hang, and the timeout
    # (HANG) only catches that; a process that left at once did not wait.
    child, marker = _exiting(tmp_path, "3600")
    assert child.stdin is not None and child.stderr is not None
    child.stdin.write("\n")
    child.stdin.flush()
    # the exit hook says it waits for a job that cannot stop early
    assert "local_judge_exit_wait" in child.stderr.readline()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=HANG)
    assert child.returncode == 130, err
    assert not marker.exists()  # left while the job was still running


CTRL_C = textwrap.dedent(
    """
    import sys
    from prin_guard.judges import _local_decode, _local_model

    # Say on stderr when the model starts loading and when the first decoding step
    # starts, so that the test interrupts in that phase (timings vary too much).
    load = _local_model._Loader.load
    def loading(self):
        print("phase: loading", file=sys.stderr, flush=True)
        return load(self)
    _local_model._Loader.load = loading

    step = _local_decode._Batch.step
    said = []
    def stepping(self):
        if not said:
            said.append(True)
            print("phase: generating", file=sys.stderr, flush=True)
        return step(self)
    _local_decode._Batch.step = stepping

    from prin_guard.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


@pytest.mark.model
@pytest.mark.parametrize(
    ("command", "phase", "interrupts"),
    [
        pytest.param("check", "loading", 1, id="check-ctrl-c-while-loading"),
        pytest.param("check", "loading", 2, id="check-ctrl-c-twice-while-loading"),
        pytest.param("check", "generating", 1, id="check-ctrl-c-while-generating"),
        pytest.param("check", "generating", 2, id="check-ctrl-c-twice-while-generating"),
        pytest.param("grade", "generating", 2, id="grade-ctrl-c-twice-while-generating"),
    ],
)
def test_ctrl_c_with_the_local_judge_exits_130_and_never_aborts(
    tmp_path: Path, command: str, phase: str, interrupts: int
) -> None:
    # Issue 21, item 20: exit 134 ("terminate called without an active exception") after
    # a Ctrl-C while the torch thread was inside torch. A second Ctrl-C may end the
    # process by SIGINT itself (what Python does with an uncaught KeyboardInterrupt):
    # shells report that as 130 too. Never SIGABRT.
    pytest.importorskip("torch")
    if command == "check":
        args = ["check", "--question", "2 + 2?", "--candidate", "3", "--candidate", "4"]
    else:
        items = tmp_path / "items.jsonl"
        rows = [
            {"question": f"{n} + 2?", "candidates": [str(n + 1), str(n + 2)]} for n in range(30)
        ]
        items.write_text("".join(json.dumps(row) + "\n" for row in rows))
        args = ["grade", str(items), "--out", str(tmp_path / "out.jsonl"), "--no-progress"]
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C, *args, "--judge", "local"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    assert child.stderr is not None
    seen: list[str] = []
    for line in child.stderr:
        seen.append(line)
        if line == f"phase: {phase}\n":
            break
    else:
        child.wait(timeout=60)
        pytest.fail(f"never reached {phase}: {''.join(seen)}")
    child.send_signal(signal.SIGINT)
    if interrupts == 2:
        time.sleep(0.1 if command == "check" else 0.3)  # grade's first Ctrl-C only stops
        child.send_signal(signal.SIGINT)
    _, rest = child.communicate(timeout=180)
    err = "".join(seen) + rest
    assert child.returncode in (130, -signal.SIGINT), err
    assert "terminate called" not in err
    assert "Traceback" not in err
