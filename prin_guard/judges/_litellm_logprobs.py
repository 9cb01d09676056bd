"""The tokens of a :class:`~prin_guard.judges.LiteLLMJudge` reply, from its log-probabilities.

OpenAI-compatible servers return ``choices[0].logprobs.content``: one entry per token,
with its text (``token``) and natural-log probability (``logprob``). Usually the texts
join to the reply. A server that returns text per token cannot spell the first bytes of
a character that the next token completes (an emoji, an accent, in byte-level
vocabularies): llama.cpp's server gives those tokens an empty text, others a
replacement character. Such tokens are merged with the token that completes the
character (log-probabilities summed: the probability of the bytes together), so that
the entries still join to exactly the reply. Anything else that does not line up gives
``None``: tokens are never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from prin_guard.judges._local_text import _pieces

__all__ = ["_reply_tokens"]

_REPLACEMENT = "\ufffd"


def _reply_tokens(choice: Any, text: str | None) -> tuple[tuple[str, float], ...] | None:
    """``choice``'s tokens and log-probabilities, joined to exactly ``text``; else ``None``."""
    entries = _entries(choice)
    if entries is None or not text or not entries:
        return None
    ends: list[int] = []
    position = 0
    pending = False  # tokens so far that spell part of a character only
    for token, _ in entries:
        if not token or _REPLACEMENT in token:
            ends.append(position)
            pending = True
            continue
        if pending:
            # The partial tokens before this one spell what lies between.
            found = text.find(token, position)
        else:
            found = position if text.startswith(token, position) else -1
        if found < 0:
            return None
        position = found + len(token)
        ends.append(position)
        pending = False
    if pending and position < len(text):
        ends[-1] = len(text)  # trailing partial tokens spell the rest
    if ends[-1] != len(text):
        return None
    return _pieces(text, ends, [logprob for _, logprob in entries], 0, len(text))


def _entries(choice: Any) -> list[tuple[str, float]] | None:
    content = _field(_field(choice, "logprobs"), "content")
    if not isinstance(content, list | tuple):
        return None
    entries: list[tuple[str, float]] = []
    for item in content:
        token, logprob = _field(item, "token"), _field(item, "logprob")
        if (
            not isinstance(token, str)
            or isinstance(logprob, bool)
            or not isinstance(logprob, int | float)
            or math.isnan(logprob)
        ):
            return None
        entries.append((token, float(logprob)))
    return entries


def _field(obj: Any, name: str) -> Any:
    """``obj.name`` or ``obj[name]``: litellm returns objects, or dicts from some providers."""
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)
