"""Judges built from plain Python: a user's function, or a script for tests."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import inspect
import itertools
import os
import re
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from pydantic import ValidationError

from prin_guard._prompting._prompts import TEMPLATES
from prin_guard.errors import TransientJudgeError, UsageError
from prin_guard.judges._base import JudgeResponse, Message
from prin_guard.models import Usage

__all__ = ["FunctionJudge", "ScriptedJudge", "SourcedJudge", "source_digest", "source_file"]

PromptFn = Callable[[str], "str | Awaitable[str | None] | None"]

# Failures of a user's function that a retry may cure. Anything else is permanent.
_TRANSIENT = (TimeoutError, ConnectionError)

_AUTO: Final[Any] = object()


def source_file(obj: object) -> str | None:
    """The file that defines ``obj`` (a function, a method or a class), or ``None`` when
    it is none of these or has no file that can be read (a builtin, code typed at a
    prompt). An instance has none of its own: its class may be a library's."""
    target = getattr(obj, "__func__", obj)  # a bound method: its function
    if not (inspect.isfunction(target) or inspect.isclass(target)):
        return None
    try:
        path = inspect.getsourcefile(target)
    except TypeError:  # a builtin
        return None
    return path if path is not None and os.path.isfile(path) else None


def source_digest(files: Iterable[str | None]) -> str | None:
    """16 hex digits of the sha256 of the files' contents (in no particular order, and
    wherever they are), or ``None`` when none can be read: what a judge written in
    Python runs, for its cache identity."""
    digests = sorted({d for path in files if path and (d := _file_digest(path)) is not None})
    if not digests:
        return None
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()[:16]


def _file_digest(path: str) -> str | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _digest_of(os.path.realpath(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _digest_of(path: str, mtime_ns: int, size: int) -> str | None:
    # keyed by the file's time and size: an edited file is read again, an unedited one once
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


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
    defaults to the function's qualified name. ``source`` goes into the cache keys too:
    by default a digest of the file that defines ``fn`` (:func:`source_digest`), so an
    edited function is not served the answers its old self gave (a file cache outlives
    the process); ``None`` for none (and a function without a file has none).

    A sync function runs in a worker thread so that a batch can overlap calls.
    ``TimeoutError`` and ``ConnectionError`` from the function are retried;
    other exceptions fail the call at once.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        messages: bool = False,
        source: Any = _AUTO,
    ) -> None:
        if not callable(fn):
            raise UsageError(f"fn: expected a callable, got {type(fn).__name__}")
        if not isinstance(messages, bool):
            raise UsageError(f"messages: expected a bool, got {type(messages).__name__}")
        if source is not _AUTO and source is not None and not isinstance(source, str):
            raise UsageError(f"source: expected a string or None, got {type(source).__name__}")
        self._fn = fn
        self._messages = messages
        self.source: str | None = source_digest([source_file(fn)]) if source is _AUTO else source
        self._is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
            getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
        )
        self.name = (
            name or f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
        )

    def identity(self) -> Mapping[str, Any]:
        if self.source is None:
            return {"kind": "function", "name": self.name}
        return {"kind": "function", "name": self.name, "source": self.source}

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


class SourcedJudge:
    """A judge built by Python code (a ``python:`` judge's object or factory), known
    also by that code: its identity is the judge's own plus ``source``, a digest of the
    files that define it, so its cache keys change when the script behind it does.
    Everything else is the judge's."""

    def __init__(self, judge: Any, source: str) -> None:
        self._judge = judge
        self.source = source

    @property
    def judge(self) -> Any:
        """The judge it wraps."""
        return self._judge

    def identity(self) -> Mapping[str, Any]:
        return {**self._judge.identity(), "source": self.source}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        response: JudgeResponse = await self._judge.complete(messages, labels=labels)
        return response

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._judge, name)  # AttributeError when the judge lacks it too
        if name == "with_sampling":
            # a sampling twin runs the same code: it keeps the source
            return lambda *args, **kwargs: SourcedJudge(found(*args, **kwargs), self.source)
        return found

    def __repr__(self) -> str:
        return f"SourcedJudge({self._judge!r}, source={self.source!r})"


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
