"""The judge of the load and soak benchmark (bench/load.py), loaded by a server process.

``prin-guard serve --judge python:bench._load_judge:judge`` (the repository root on
``PYTHONPATH``) wraps :func:`judge` in a ``FunctionJudge``: every call sleeps 100 ms
on the event loop (``asyncio.sleep``, like a remote model that answers in 100 ms) and
gives the consistent answer of :func:`bench._common.reply_for`: C is correct, and the
reverse question gets every other label.
"""

from __future__ import annotations

import asyncio

LATENCY = 0.100
"""Seconds per judge call."""


async def judge(prompt: str) -> str:
    await asyncio.sleep(LATENCY)
    return "Answer: A, B, D, E" if "incorrect ones" in prompt else "Answer: C"
