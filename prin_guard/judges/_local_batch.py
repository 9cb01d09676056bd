"""The scheduler that batches :class:`~prin_guard.judges.LocalJudge` calls, one per model.

Calls are queued per loaded model; the model's scheduler takes them into a :class:`_Batch`
and generates one token for every row at each step, on the process's one torch thread
(``_local_thread``: torch ran up to twice as slow in a thread other than the one that
loaded the model). A call that arrives while the worker
is idle waits ``batch_wait`` seconds (or until ``batch_size`` calls are queued) so that
the two legs of a verdict start together; a call that arrives while rows are being
decoded joins at the next step. A batch never holds more rows than the smallest
``batch_size`` among them, so a judge with ``batch_size=1`` always generates alone.

A row computed with others whose decoding came within
:data:`~prin_guard.judges._local_decode.TIE_MARGIN` of another token is generated again
alone before its reply is handed back: a batched reply is the reply the call gets alone.

The scheduler runs as a job on the torch thread while it has calls; it returns when the
queue and the batch are empty (the next call submits it again), and between two steps
when another job waits there (another model's scheduler, a model being loaded), resuming
after it: models take turns step by step. When the torch thread is stopping (the process
exits), the job fails the calls in hand and in the queue between two steps and returns.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any

from prin_guard.judges._local_decode import _Batch, _Call, _Generated, _Row
from prin_guard.judges._local_thread import TorchThread

__all__ = ["_Scheduler", "_Stats"]


@dataclass
class _Stats:
    """What the scheduler did, for benchmarks and tests (counts since it was made)."""

    calls: int = 0
    steps: int = 0
    """Decoding steps (one token for every row of the batch)."""
    row_steps: int = 0
    """Tokens decoded over all steps: ``row_steps / steps`` is the mean batch size."""
    largest: int = 0
    """The most rows decoded in one step."""
    batched: int = 0
    """Calls computed with other rows or from another row's prompt prefix."""
    redone: int = 0
    """Batched calls generated again alone after a near tie."""
    shared_tokens: int = 0
    """Prompt tokens whose keys and values were copied from another row."""


class _Scheduler:
    """Queues the calls for one loaded model and generates them on the torch thread."""

    def __init__(self, model: Any, tokenizer: Any, runtime: Any, lock: threading.Lock) -> None:
        self._model = model
        self._tokenizer = tokenizer
        self._torch = runtime.torch
        self._cache_class = runtime.transformers.DynamicCache
        self._lock = lock
        self._cond = threading.Condition()
        self._queue: collections.deque[_Call] = collections.deque()
        self._scheduled = False
        """Whether a job of this scheduler is queued or running on the torch thread."""
        self._batch = self._new_batch()
        self.stats = _Stats()

    def forget(self) -> None:
        """Drop what the batch keeps of finished rows' keys and values, on the torch
        thread (for benchmarks that time a call without any prefix computed before)."""
        TorchThread.get().call(lambda: self._batch.forget())

    def submit(self, call: _Call) -> concurrent.futures.Future[_Generated]:
        with self._cond:
            self._queue.append(call)
            if not self._scheduled:
                self._schedule()
            self._cond.notify()
        return call.future

    def _schedule(self) -> None:
        """Queue a job on the torch thread (under ``self._cond``)."""
        self._scheduled = True
        # Looked up each time: a forked child has its own torch thread.
        if TorchThread.get().submit(self._work).cancelled():
            self._abandon()  # the thread is stopping: nothing will run these calls

    # -- the job on the torch thread ---------------------------------------------------

    def _new_batch(self) -> _Batch:
        return _Batch(self._model, self._tokenizer, self._torch, self._cache_class)

    def _work(self) -> None:
        """Admit and decode until nothing is left, or until another job waits its turn."""
        torch = self._torch
        default_threads = torch.get_num_threads()
        torch_thread = TorchThread.get()
        try:
            while True:
                if torch_thread.stopping:
                    with self._cond:
                        self._abandon()
                    return
                calls = self._take(self._batch)
                if calls is None:
                    return
                with self._lock, torch.inference_mode():
                    self._set_threads(self._batch, calls, default_threads)
                    self._batch = self._advance(self._batch, calls)
                if torch_thread.others_waiting():
                    # still scheduled: resume after them
                    if torch_thread.submit(self._work).cancelled():
                        with self._cond:
                            self._abandon()
                    return
        except BaseException as exc:
            # Not a failure of one call (those reach their callers): fail what is in
            # hand, and let a new job serve the queue.
            for row in self._batch.rows:
                _fail(row.call, exc)
            self._batch = self._new_batch()
            with self._cond:
                self._scheduled = False
                if self._queue:
                    self._schedule()
            raise
        finally:
            torch.set_num_threads(default_threads)

    def _advance(self, batch: _Batch, calls: list[_Call]) -> _Batch:
        """Admit ``calls`` and decode one step; returns the batch to go on with."""
        for call in calls:
            try:
                row = batch.admit(call, share=call.batch_size > 1)
            except Exception as exc:  # noqa: BLE001 - the caller gets it
                _fail(call, exc)
                continue
            self.stats.shared_tokens += row.shared
            if row.done:
                self._hand_back(row)
        batch.drop([row for row in batch.rows if row.call.future.cancelled()])
        if not batch.rows:
            return batch
        rows = len(batch.rows)
        try:
            done = batch.step()
        except Exception as exc:  # noqa: BLE001 - every row's caller gets it
            for row in batch.rows:
                _fail(row.call, exc)
            return self._new_batch()
        self.stats.steps += 1
        self.stats.row_steps += rows
        self.stats.largest = max(self.stats.largest, rows)
        for row in done:
            self._hand_back(row)
        return batch

    def _take(self, batch: _Batch) -> list[_Call] | None:
        """The calls that join ``batch`` now; ``None`` (and unscheduled) when there is nothing."""
        with self._cond:
            if not batch.rows:
                if not self._queue:
                    self._scheduled = False
                    return None
                first = self._queue[0]
                # Wait a little for the calls that come with this one (a verdict's other leg).
                deadline = time.monotonic() + first.batch_wait
                while len(self._queue) < first.batch_size:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
            calls: list[_Call] = []
            while self._queue:
                call = self._queue[0]
                size = len(batch.rows) + len(calls) + 1
                limit = min(
                    [row.call.batch_size for row in batch.rows]
                    + [c.batch_size for c in calls]
                    + [call.batch_size]
                )
                if size > limit:
                    break  # first come, first served: nothing overtakes it
                self._queue.popleft()
                if not call.future.cancelled():
                    calls.append(call)
            return calls

    def _hand_back(self, row: _Row) -> None:
        """Resolve ``row``'s future, after generating it again alone if it came close."""
        self.stats.calls += 1
        if row.call.future.cancelled():
            return  # nobody waits for it: not worth generating again
        self.stats.batched += row.batched
        redone = row.batched and row.close_call
        if redone:
            alone = self._new_batch()
            try:
                row = alone.admit(row.call, share=False)
                while alone.rows:
                    if TorchThread.get().stopping:
                        _fail(row.call, _stopped())
                        return
                    alone.step()
            except Exception as exc:  # noqa: BLE001 - the caller gets it
                _fail(row.call, exc)
                return
            self.stats.redone += 1
        generated = _Generated(
            row.generated,
            row.logprobs,
            batched=row.batched,
            redone=redone,
            alternatives=row.alternatives if row.call.top_logprobs else None,
        )
        # The caller may cancel at any moment (its task was cancelled): then nobody waits.
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            row.call.future.set_result(generated)

    def _abandon(self) -> None:
        """Fail every call in hand and queued, and unschedule (under ``self._cond``): the
        torch thread is stopping."""
        error = _stopped()
        for row in self._batch.rows:
            _fail(row.call, error)
        while self._queue:
            _fail(self._queue.popleft(), error)
        self._batch = self._new_batch()
        self._scheduled = False

    def _set_threads(self, batch: _Batch, calls: list[_Call], default: int) -> None:
        """torch's threads for this step: the smallest cap asked for, else torch's default."""
        caps = [c.threads for c in calls] + [r.call.threads for r in batch.rows]
        wanted = min((c for c in caps if c is not None), default=default)
        if self._torch.get_num_threads() != wanted:
            self._torch.set_num_threads(wanted)


def _stopped() -> RuntimeError:
    return RuntimeError("LocalJudge: the torch thread stopped (the process is exiting)")


def _fail(call: _Call, exc: BaseException) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):
        call.future.set_exception(exc)
