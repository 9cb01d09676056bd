"""The judge of the long-reply benchmark (bench/long_replies.py), loaded by a server
process: it repeats its whole prompt (a 0.79 MB item makes a reply of about as much),
then answers, as a small model that echoes its input does."""

from __future__ import annotations


async def judge(prompt: str) -> str:
    return f"{prompt}\n\nAnswer: A"
