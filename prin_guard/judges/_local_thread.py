"""The one thread that runs every torch computation of LocalJudge in a process.

torch's CPU build parallelises each operation with OpenMP (GNU libgomp). libgomp keeps a
team of worker threads for every thread that has started a parallel region, and once it
manages more threads than there are CPUs it stops spinning between regions: each worker
sleeps on a futex and is woken for the next region, thousands of times per decoding step.
A model loaded in the application's thread and run in another one pays exactly that:
measured here (2 cores, torch 2.13), a decoding step of 8 rows took 1.6 to 1.9 times as
long in a second thread as in the thread that loaded the model, with about 1,800
voluntary context switches per step instead of none. The same step in a thread that also
did the loading ran as fast as in the main thread.

So loading a model and generating with it happen on this single daemon thread, and the
application's threads never run a parallel region for LocalJudge. Jobs run one at a time,
in the order they were submitted; a long job that should let others through returns and
submits its continuation (the scheduler does so between decoding steps).

**Exit.** The interpreter must never finalize while this thread is inside torch: in
Python 3.11 a daemon thread that comes back from a torch operation (which released the
GIL) during finalization is ended with ``pthread_exit``, whose unwinding through torch's
C++ frames calls ``std::terminate`` ("terminate called without an active exception",
SIGABRT, exit 134 instead of the 130 of a Ctrl-C). So the thread is stopped at exit
(:func:`atexit`): queued jobs are cancelled, a job that can stop early (the scheduler,
between two decoding steps) does (:attr:`TorchThread.stopping`), one that cannot (a
model being loaded) is waited for, and the thread ends before the interpreter goes on.
A Ctrl-C during that wait, or a wait longer than :data:`EXIT_WAIT`, ends the process at
once (``os._exit``, after flushing the standard streams) rather than finalizing around a
thread inside torch.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from prin_guard._infra._events import log

__all__ = ["EXIT_WAIT", "TorchThread"]

T = TypeVar("T")

EXIT_WAIT = 60.0
"""Seconds the process waits at exit for the job on the torch thread to end.

Long enough for any load of a model this judge is meant for (the bundled model's first
load, which converts the GGUF file, takes about 20 s here); generating stops within a
decoding step."""

_Job = tuple[concurrent.futures.Future[Any], Callable[[], Any]]


class TorchThread:
    """A daemon thread that runs submitted jobs one after the other, stopped at exit."""

    _instance: ClassVar[TorchThread | None] = None
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _exit_hook: ClassVar[bool] = False

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._pid = os.getpid()
        self._stopping = threading.Event()
        # submit() and stop() under one lock: no job is queued behind the stop, where it
        # would never run and its submitter would wait forever
        self._submitting = threading.Lock()
        self._interrupted = False
        self._thread = threading.Thread(target=self._run, name="prin-guard-torch", daemon=True)
        self._thread.start()

    @classmethod
    def get(cls) -> TorchThread:
        """The process's torch thread (a new one in a forked child, which has no threads)."""
        with cls._lock:
            if cls._instance is None or cls._instance._pid != os.getpid():
                cls._instance = cls()
                if not cls._exit_hook:
                    atexit.register(_stop_at_exit)
                    cls._exit_hook = True
            return cls._instance

    @property
    def stopping(self) -> bool:
        """Whether the thread is being stopped: a long job returns at its next step."""
        return self._stopping.is_set()

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue ``job``; once the thread is stopping, the future is cancelled at once."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._submitting:
            if self._stopping.is_set():
                future.cancel()
            else:
                self._jobs.put((future, job))
        return future

    def call(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the torch thread and return its result (directly when already there).

        Interrupted (Ctrl-C) while waiting, the job is cancelled if it has not started;
        one that has (a model loading) runs on, and the exit waits for it.
        """
        if threading.current_thread() is self._thread:
            return job()
        future = self.submit(job)
        try:
            return future.result()
        except KeyboardInterrupt:
            future.cancel()
            self._interrupted = True
            raise

    def others_waiting(self) -> bool:
        """Whether jobs are queued behind the one running (for long jobs that can yield)."""
        return not self._jobs.empty()

    def stop(self, timeout: float) -> bool:
        """Cancel the queued jobs, let the running one end, and wait up to ``timeout``
        seconds for the thread to end. Returns whether it did. For the exit hook."""
        with self._submitting:
            self._stopping.set()
            self._jobs.put(None)  # wakes the thread if it is idle
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            entry = self._jobs.get()
            if self._stopping.is_set():
                self._cancel_queued(entry)
                return
            assert entry is not None
            future, job = entry
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = job()
            except BaseException as exc:  # noqa: BLE001 - the submitter gets it
                future.set_exception(exc)
            else:
                future.set_result(result)

    def _cancel_queued(self, entry: _Job | None) -> None:
        while True:
            if entry is not None:
                entry[0].cancel()
            try:
                entry = self._jobs.get_nowait()
            except queue.Empty:
                return


def _stop_at_exit() -> None:
    """Stop this process's torch thread before the interpreter finalizes (see the module)."""
    torch_thread = TorchThread._instance
    if torch_thread is None or torch_thread._pid != os.getpid():
        return  # none started here (a forked child inherits its parent's hooks)
    code = 130
    try:
        if torch_thread.stop(timeout=0.5):
            return
        log().warning("local_judge_exit_wait", reason="a job is still running on the torch thread")
        if torch_thread.stop(timeout=EXIT_WAIT):
            return
        log().error("local_judge_exit_abandoned", waited_s=EXIT_WAIT)
        code = 130 if torch_thread._interrupted else 1
    except KeyboardInterrupt:
        pass  # Ctrl-C again while waiting: leave now
    # Finalizing now would abort the process (std::terminate): end it without finalizing.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
