"""Long replies kept cheap: the one worker thread of a process that reads long replies
and plans long items, so that the event loop goes on serving meanwhile (the guard's legs,
a rating's, the probe's rounds, the service's answers); and a reply's long runs of
whitespace cut short before it is read (a looping model writes them), with the offsets
back into the reply."""

from __future__ import annotations

import asyncio
import contextvars
import os
import re
import threading
from bisect import bisect_right
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["LONG_SPACE", "OFF_LOOP_CHARS", "off_loop", "off_loop_if", "squeeze", "unsqueeze"]


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


LONG_SPACE = 64
"""A run of whitespace longer than this is read as its first ``LONG_SPACE`` characters:
nothing a reader looks for needs more, and the patterns that step over whitespace then
cost nothing per character of a run however long (a reply of a million spaces)."""


_LONG_SPACE = re.compile(rf"\s{{{LONG_SPACE + 1},}}")


Offsets = tuple[list[int], list[int]]


def squeeze(text: str) -> tuple[str, Offsets]:
    """``text`` with every run of whitespace longer than :data:`LONG_SPACE` cut to its
    first ``LONG_SPACE`` characters and the first two line breaks after them (a line that
    ends, a paragraph that ends, still does), and where each kept piece starts in the
    result and in ``text`` (empty when nothing was cut), for :func:`unsqueeze`."""
    parts: list[str] = []
    read_at, text_at = [0], [0]
    pos = size = 0

    def keep(lo: int, hi: int) -> None:
        nonlocal size
        if text_at[-1] != lo:  # a new piece
            read_at.append(size)
            text_at.append(lo)
        parts.append(text[lo:hi])
        size += hi - lo

    for run in _LONG_SPACE.finditer(text):
        keep(pos, run.start() + LONG_SPACE)
        at = run.start() + LONG_SPACE
        for _ in range(2):
            at = text.find("\n", at, run.end())
            if at < 0:
                break
            keep(at, at + 1)
            at += 1
        pos = run.end()
        read_at.append(size)
        text_at.append(pos)
    if not parts:
        return text, ([], [])
    parts.append(text[pos:])
    return "".join(parts), (read_at, text_at)


def unsqueeze(span: tuple[int, int] | None, offsets: Offsets) -> tuple[int, int] | None:
    """A span of a squeezed text as offsets in the text it was squeezed from."""
    read_at, text_at = offsets
    if span is None or not read_at:
        return span

    def back(offset: int) -> int:
        piece = bisect_right(read_at, offset) - 1
        return text_at[piece] + offset - read_at[piece]

    start, end = span
    return back(start), back(end - 1) + 1 if end > start else back(start)
