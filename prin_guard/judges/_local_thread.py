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
"""

from __future__ import annotations

import concurrent.futures
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

__all__ = ["TorchThread"]

T = TypeVar("T")

_Job = tuple[concurrent.futures.Future[Any], Callable[[], Any]]


class TorchThread:
    """A daemon thread that runs submitted jobs one after the other."""

    _instance: ClassVar[TorchThread | None] = None
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._run, name="prin-guard-torch", daemon=True)
        self._thread.start()

    @classmethod
    def get(cls) -> TorchThread:
        """The process's torch thread (a new one in a forked child, which has no threads)."""
        with cls._lock:
            if cls._instance is None or cls._instance._pid != os.getpid():
                cls._instance = cls()
            return cls._instance

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._jobs.put((future, job))
        return future

    def call(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the torch thread and return its result (directly when already there)."""
        if threading.current_thread() is self._thread:
            return job()
        return self.submit(job).result()

    def others_waiting(self) -> bool:
        """Whether jobs are queued behind the one running (for long jobs that can yield)."""
        return not self._jobs.empty()

    def _run(self) -> None:
        while True:
            future, job = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = job()
            except BaseException as exc:  # noqa: BLE001 - the submitter gets it
                future.set_exception(exc)
            else:
                future.set_result(result)
