"""The one worker thread of a process that reads long replies and plans long items, so
that the event loop goes on serving meanwhile (the guard's legs, a rating's, the probe's
rounds, the service's answers)."""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["OFF_LOOP_CHARS", "off_loop", "off_loop_if"]


OFF_LOOP_CHARS = 16_384
"""Replies longer than this are read, and items whose texts are longer than this are
planned (their prompts built and hashed), in a worker thread, not on the event loop."""

_T = TypeVar("_T")
_reader: tuple[int, ThreadPoolExecutor] | None = None
_reader_lock = threading.Lock()


async def off_loop(work: Callable[[], _T]) -> _T:
    """``work()`` in the one worker thread of this process that reads long replies and
    plans long items, so that the event loop goes on serving meanwhile. One thread: the
    work is Python, which holds the interpreter lock, so more threads would work no
    faster and would each take the lock from the loop in turn (and a thread started
    under load makes the loop wait for it)."""
    global _reader
    with _reader_lock:
        if _reader is None or _reader[0] != os.getpid():  # a forked child starts its own
            _reader = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="prin-guard-read"))
        executor = _reader[1]
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(executor, context.run, work)


async def off_loop_if(long: bool, work: Callable[[], _T]) -> _T:
    """``work()`` in the worker thread when ``long``, else here on the loop (a short
    text is read faster than a thread hands it back)."""
    return await off_loop(work) if long else work()
