"""The scheduler that batches :class:`~prin_guard.judges.LocalJudge` calls, one per model.

Calls are queued; one worker thread per loaded model takes them into a :class:`_Batch`
and generates one token for every row at each step. A call that arrives while the worker
is idle waits ``batch_wait`` seconds (or until ``batch_size`` calls are queued) so that
the two legs of a verdict start together; a call that arrives while rows are being
decoded joins at the next step. A batch never holds more rows than the smallest
``batch_size`` among them, so a judge with ``batch_size=1`` always generates alone.

A row computed with others whose decoding came within
:data:`~prin_guard.judges._local_decode.TIE_MARGIN` of another token is generated again
alone before its reply is handed back: a batched reply is the reply the call gets alone.

The worker exits after a few idle seconds; the next call starts another. One thread for
all generations also keeps a single OpenMP thread team busy instead of one per pool thread.
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

__all__ = ["_Scheduler", "_Stats"]

_IDLE_SECONDS = 5.0


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
    """Queues the calls for one loaded model and generates them on one worker thread."""

    def __init__(self, model: Any, tokenizer: Any, runtime: Any, lock: threading.Lock) -> None:
        self._model = model
        self._tokenizer = tokenizer
        self._torch = runtime.torch
        self._cache_class = runtime.transformers.DynamicCache
        self._lock = lock
        self._cond = threading.Condition()
        self._queue: collections.deque[_Call] = collections.deque()
        self._thread: threading.Thread | None = None
        self.stats = _Stats()

    def submit(self, call: _Call) -> concurrent.futures.Future[_Generated]:
        with self._cond:
            self._queue.append(call)
            if self._thread is None:
                self._start()
            self._cond.notify()
        return call.future

    def _start(self) -> None:
        """Start a worker (under ``self._cond``)."""
        self._thread = threading.Thread(
            target=self._work, name="prin-guard-local-judge", daemon=True
        )
        self._thread.start()

    # -- the worker -------------------------------------------------------------------

    def _new_batch(self) -> _Batch:
        return _Batch(self._model, self._tokenizer, self._torch, self._cache_class)

    def _work(self) -> None:
        torch = self._torch
        default_threads = torch.get_num_threads()
        batch = self._new_batch()
        try:
            while True:
                calls = self._take(batch)
                if calls is None:
                    return
                with self._lock, torch.inference_mode():
                    self._set_threads(batch, calls, default_threads)
                    batch = self._advance(batch, calls)
        except BaseException as exc:
            # Not a failure of one call (those reach their callers): fail what is in
            # hand, and let a new worker serve the queue.
            for row in batch.rows:
                _fail(row.call, exc)
            with self._cond:
                self._thread = None
                if self._queue:
                    self._start()
            raise
        finally:
            torch.set_num_threads(default_threads)

    def _advance(self, batch: _Batch, calls: list[_Call]) -> _Batch:
        """Admit ``calls`` and decode one step; returns the batch to go on with."""
        for call in calls:
            try:
                row = batch.admit(call)
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
        """The calls that join ``batch`` now; ``None`` when the worker has been idle long."""
        with self._cond:
            if not batch.rows:
                deadline = time.monotonic() + _IDLE_SECONDS
                while not self._queue:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        self._thread = None
                        return None
                    self._cond.wait(remaining)
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
                    alone.step()
            except Exception as exc:  # noqa: BLE001 - the caller gets it
                _fail(row.call, exc)
                return
            self.stats.redone += 1
        generated = _Generated(row.generated, row.logprobs, batched=row.batched, redone=redone)
        # The caller may cancel at any moment (its task was cancelled): then nobody waits.
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            row.call.future.set_result(generated)

    def _set_threads(self, batch: _Batch, calls: list[_Call], default: int) -> None:
        """torch's threads for this step: the smallest cap asked for, else torch's default."""
        caps = [c.threads for c in calls] + [r.call.threads for r in batch.rows]
        wanted = min((c for c in caps if c is not None), default=default)
        if self._torch.get_num_threads() != wanted:
            self._torch.set_num_threads(wanted)


def _fail(call: _Call, exc: BaseException) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):
        call.future.set_exception(exc)
