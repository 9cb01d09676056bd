"""Judges for tests/test_server.py, importable by a server subprocess.

The server loads one with ``judge = "python:server_judges:<name>"`` (``tests/`` on
``PYTHONPATH``); in process the tests build them directly.
"""

from __future__ import annotations

import asyncio
import re

from prin_guard import FunctionJudge, Judge
from prin_guard.judges import ScriptedJudge
from prin_guard.models import Usage

NEGATIVE = {"incorrect", "wrong", "inappropriate", "inaccurate", "invalid"}


def is_reverse(prompt: str) -> bool:
    asked = re.findall(r"please output the (\w+) ones\.", prompt)
    return bool(asked) and asked[-1] in NEGATIVE


def rule(prompt: str) -> str | Exception:
    """Direct: B and C; reverse: A and B (synergy C); a rating 4, and 2 on the mirrored
    scale. A question with EXPLODE fails."""
    if "EXPLODE" in prompt:
        return ValueError("the judge exploded")
    if "[The Start of Assistant's Answer]" in prompt:  # a rating: 4, mirrored 2 (on 1-5)
        return "Rating: [[2]]" if "how poor the response" in prompt else "Rating: [[4]]"
    return "Answer: A, B" if is_reverse(prompt) else "Answer: B, C"


def scripted() -> Judge:
    return ScriptedJudge(fn=rule)  # type: ignore[arg-type]  # an Exception reply is raised


def slow() -> Judge:
    """The same answers after 0.3 s: long enough for concurrent requests to overlap."""

    async def answer(prompt: str) -> str:
        await asyncio.sleep(0.3)
        reply = rule(prompt)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return FunctionJudge(answer, name="slow-scripted")


def consistent() -> Judge:
    """Direct B, reverse A and C: consistent (PRIN 0), synergy B."""
    return ScriptedJudge("Answer: B", "Answer: A, C", name="consistent")


def contradicting() -> Judge:
    """B to both questions: PRIN 1."""
    return ScriptedJudge("Answer: B", "Answer: B", name="contradicting")


def priced_contradicting() -> Judge:
    """`contradicting`, each call costing 0.01 USD (a cascade's first tier)."""
    return ScriptedJudge("Answer: B", "Answer: B", name="contradicting", usage=Usage(cost_usd=0.01))


def priced_consistent() -> Judge:
    """`consistent`, each call costing 0.01 USD (a cascade's second tier)."""
    return ScriptedJudge("Answer: B", "Answer: A, C", name="consistent", usage=Usage(cost_usd=0.01))
