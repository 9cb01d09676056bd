"""Judges built from plain Python: a user's function, or a script for tests."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import re
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from prin_guard._exceptions import TransientJudgeError, UsageError
from prin_guard._models import Usage
from prin_guard._prompts import TEMPLATES
from prin_guard.judges._base import JudgeResponse, Message

__all__ = ["FunctionJudge", "ScriptedJudge"]

PromptFn = Callable[[str], "str | Awaitable[str | None] | None"]

# Failures of a user's function that a retry may cure. Anything else is permanent.
_TRANSIENT = (TimeoutError, ConnectionError)


def _render_conversation(messages: Sequence[Message]) -> str:
    """The prompt a single-string function sees.

    One user message is passed as it is. A longer conversation (a probe's
    follow-up) is written out turn by turn, so a plain ``fn(prompt)`` can still
    answer it.
    """
    if len(messages) == 1:
        return messages[0]["content"]
    names = {"system": "System", "user": "User", "assistant": "Assistant"}
    return "\n\n".join(f"{names[m['role']]}: {m['content']}" for m in messages)


class FunctionJudge:
    """Wrap any function ``fn(prompt: str) -> str`` (sync or async) as a judge.

    With ``messages=True`` the function takes the chat messages instead, as a list of
    ``{"role": "system" | "user" | "assistant", "content": str}`` dicts (a template of
    one's own may have a system message): code that already calls a model with its own
    client runs unchanged.

    The function returns the reply's text (``None``: no reply), or the text and what the
    call cost, so that the guard counts it: a ``(text, usage)`` pair or a mapping
    ``{"text": ..., "usage": ...}``, the usage a :class:`~prin_guard.models.Usage` or a
    mapping of its fields (``prompt_tokens``, ``completion_tokens``, ``cost_usd``, ...).

    ``name`` identifies the judge in cache keys: two different functions must
    not share a name, or one will be served the other's cached answers. It
    defaults to the function's qualified name.

    A sync function runs in a worker thread so that a batch can overlap calls.
    ``TimeoutError`` and ``ConnectionError`` from the function are retried;
    other exceptions fail the call at once.
    """

    def __init__(
        self, fn: Callable[..., Any], *, name: str | None = None, messages: bool = False
    ) -> None:
        if not callable(fn):
            raise UsageError(f"fn: expected a callable, got {type(fn).__name__}")
        if not isinstance(messages, bool):
            raise UsageError(f"messages: expected a bool, got {type(messages).__name__}")
        self._fn = fn
        self._messages = messages
        self._is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
            getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
        )
        self.name = (
            name or f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
        )

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "function", "name": self.name}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        argument: Any = (
            [dict(message) for message in messages]
            if self._messages
            else _render_conversation(messages)
        )
        try:
            if self._is_async:
                result = await self._fn(argument)
            else:
                result = await asyncio.to_thread(self._fn, argument)
                if inspect.isawaitable(result):
                    result = await result
        except _TRANSIENT as exc:
            raise TransientJudgeError(f"{type(exc).__name__}: {exc}") from exc
        return _response(result)


def _response(result: Any) -> JudgeResponse:
    """What a judge function returned, as a response: text, or text and usage."""
    if isinstance(result, JudgeResponse):
        return result
    usage: Any = None
    if isinstance(result, tuple) and len(result) == 2:
        result, usage = result
    elif isinstance(result, Mapping):
        unknown = sorted(set(result) - {"text", "usage"})
        if unknown or "text" not in result:
            raise TypeError(
                "judge function returned a mapping: it holds 'text' (and 'usage'), "
                f"got keys {sorted(result)}"
            )
        result, usage = result["text"], result.get("usage")
    if result is not None and not isinstance(result, str):
        raise TypeError(
            f"judge function returned {type(result).__name__}: expected the reply's text, "
            "a (text, usage) pair or {'text': ..., 'usage': ...}"
        )
    if usage is not None and not isinstance(usage, Usage):
        if not isinstance(usage, Mapping):
            raise TypeError(f"judge function returned usage as {type(usage).__name__}")
        try:
            usage = Usage.model_validate(dict(usage), strict=False)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            raise TypeError(f"judge function returned usage.{field}: {first['msg']}") from None
    return JudgeResponse(text=result, usage=usage)


Rule = Callable[[str], "str | None"]


class ScriptedJudge:
    """A judge that answers from a script, for tests of code that uses prin-guard.

    ``direct`` and ``reverse`` are the replies to the direct and the reverse
    question; each may be a string, ``None`` (no reply), an exception instance to
    raise, or a list of these consumed one call at a time (the last one repeats).
    ``fn`` replaces both with a function of the prompt; ``sampled(prompt, seed)``
    answers for the judge's sampling twins (self-consistency, repeats). ``calls``
    records every conversation received, in order.
    """

    def __init__(
        self,
        direct: Any = None,
        reverse: Any = None,
        *,
        fn: Rule | None = None,
        sampled: Callable[[str, int], str | None] | None = None,
        name: str = "scripted",
        usage: Usage | None = None,
    ) -> None:
        self.name = name
        self._fn = fn
        self._sampled = sampled
        self._seed: int | None = None
        self._usage = usage
        self._scripts = {"direct": _cycle_last(direct), "reverse": _cycle_last(reverse)}
        self.calls: list[list[Message]] = []
        self._lock = threading.Lock()

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "scripted", "name": self.name, "seed": self._seed}

    def with_sampling(self, temperature: float, seed: int) -> ScriptedJudge:
        """A sampling twin answering ``sampled(prompt, seed)`` (needs ``sampled``).

        Its calls are recorded on this judge's ``calls`` too.
        """
        if self._sampled is None:
            raise UsageError("ScriptedJudge: pass sampled=fn(prompt, seed) to sample from it")
        twin = ScriptedJudge(fn=lambda prompt: self._sampled(prompt, seed))  # type: ignore[misc]
        twin.name, twin._seed, twin.calls, twin._lock = self.name, seed, self.calls, self._lock
        return twin

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        with self._lock:
            self.calls.append(list(messages))
        prompt = messages[-1]["content"]
        if self._fn is not None:
            reply: Any = self._fn(prompt)
        else:
            reply = next(self._scripts[_polarity_of(prompt)])
        if isinstance(reply, BaseException):
            raise reply
        return JudgeResponse(text=reply, usage=self._usage)

    @property
    def call_count(self) -> int:
        return len(self.calls)


def _polarity_of(prompt: str) -> str:
    """Which question a prompt asks, read from its last "please output the ..." phrase:
    the reverse one ends in a template's negative word ("the incorrect ones", "the worse
    one", "the criteria it fails to meet", "the claims the sources do not support")."""
    asked = re.findall(r"please output the ([^.\n]+)\.", prompt)
    if not asked:
        return "direct"
    phrase = asked[-1].removesuffix(" ones").removesuffix(" one")
    negative = {template.negative for template in TEMPLATES.values()}
    reverse = any(phrase == word or phrase.endswith(f" {word}") for word in negative)
    return "reverse" if reverse else "direct"


def _cycle_last(script: Any) -> Any:
    items = list(script) if isinstance(script, list | tuple) else [script]
    return itertools.chain(items, itertools.repeat(items[-1]))
