"""A judge behind any chat API that litellm speaks: OpenAI, Anthropic, Ollama, vLLM, llama.cpp...

litellm is imported when the first :class:`LiteLLMJudge` is built, never when this
module is imported: ``import prin_guard`` must stay fast, and ``import litellm``
costs about three seconds on its own.

Every setting goes with each call (``litellm.acompletion(..., api_key=...)``); no
litellm module global is ever assigned, so two judges (or prin-guard and the
application around it) never fight over litellm's configuration. litellm's own
retries are switched off per call: prin-guard's engine retries, with its own
bounds, and a second retry loop underneath would multiply the attempts.

**What litellm prints.** On every failed call litellm prints a banner to stdout ("Give
Feedback / Get Help: https://github.com/BerriAI/litellm/issues/new", "LiteLLM.Info: If you
need to debug this error, use `litellm.turn_on_debug()'."; ``exception_type`` in
``litellm_core_utils/exception_mapping_utils.py``), and for a model it cannot place its
provider list (``get_llm_provider``). Both are ``print`` calls gated by one module global,
``litellm.suppress_debug_info``; litellm (1.110) has no per-call switch for them. So the
judge holds back what is printed *by its own calls*: while a call runs, ``sys.stdout`` and
``sys.stderr`` are wrapped by :class:`_CallOutput`, which drops (to a debug event,
``litellm_output``) what is written in the context of a call in flight (a context
variable, set for the call's task and the threads litellm starts with its context) and
passes everything else through unchanged; the wrapper is removed when the last call in
flight ends. litellm's configuration is never touched.

Below the judge and its calls: which failures are worth a retry, what a call cost,
and the reply's tokens from its log-probabilities. These read what litellm returns
or raises, so they are what changes when litellm does.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import email.utils
import importlib
import json
import math
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from prin_guard._infra._events import bounded, log
from prin_guard._infra._settings import prefer_bundled_litellm_cost_map
from prin_guard.errors import (
    JudgeError,
    TransientJudgeError,
    UsageError,
)
from prin_guard.judges._base import JudgeResponse, Message, SharedPrefix, Stagger, is_logprob
from prin_guard.judges._local_text import _pieces
from prin_guard.models import Usage

__all__ = ["LiteLLMJudge", "StructuredMode"]

StructuredMode = Literal["json_schema", "json_object"]
"""How a structured answer is requested.

``json_schema``: ``response_format={"type": "json_schema", "json_schema": {...,
"strict": true}}``, the OpenAI form, which litellm translates for other providers.
``json_object``: ``response_format={"type": "json_object", "schema": {...}}``, the
form llama.cpp's server and some other OpenAI-compatible servers understand.
"""

_STRUCTURED_CHOICES = ("auto", "json_schema", "json_object")
_MAX_TOP_LOGPROBS = 20
"""The most alternatives per token OpenAI's API returns (``top_logprobs``)."""

# Arguments the judge sets itself. ``response_format`` comes from ``structured``;
# ``stream`` and ``n`` would change the shape of the reply the judge reads.
_RESERVED = frozenset(
    {
        "model",
        "messages",
        "stream",
        "n",
        "response_format",
        "num_retries",
        "max_retries",
        "kind",
        "structured",
    }
)

# Arguments that change how a call is made, never what the model answers: left
# out of the identity (and so of cache keys).
_TRANSPORT_ONLY = frozenset(
    {
        "timeout",
        "stream_timeout",
        "metadata",
        "litellm_metadata",
        "client",
        "shared_session",
        "ssl_verify",
        "organization",
        "user",
        "api_version",
        "litellm_call_id",
        "litellm_logging_obj",
        # How many alternatives to list beside each token's log-probability: the reply
        # is the same.
        "top_logprobs",
        # Which of the provider's prompt caches serves the call: the reply is the same.
        "prompt_cache_key",
    }
)

# A name is secret-looking when one of its "_"/"-"-separated words is one of these,
# or when it contains one of the fragments. ("tokens" in max_completion_tokens is a
# count, not a credential; "token" alone, as in api_token, is a credential.)
_SECRET_WORDS = frozenset({"key", "keys", "token", "secret", "secrets", "password", "bearer"})
_SECRET_FRAGMENTS = (
    "secret",
    "password",
    "passwd",
    "apikey",
    "auth",
    "credential",
    "cookie",
    "header",
)

# litellm is loaded once per process, under a lock.
_litellm: Any = None
_openai: Any = None
_import_lock = threading.Lock()


def _load_litellm() -> Any:
    """Import litellm (once), without letting it fetch its price list from the network.

    On import, litellm downloads its model cost map from GitHub unless
    ``LITELLM_LOCAL_MODEL_COST_MAP`` is true. Offline or behind a firewall that
    drops packets, that fetch adds up to five seconds (its timeout) to the import
    and leaves a thread retrying in the background, which may swap the prices in
    while a run is going; online, it makes costs depend on the day. The copy of the
    map bundled with the installed litellm is enough to price calls, so prin-guard
    asks for it, but only when the application has not chosen itself: an explicit
    ``LITELLM_LOCAL_MODEL_COST_MAP=False`` is respected.
    """
    global _litellm, _openai
    with _import_lock:
        if _litellm is None:
            prefer_bundled_litellm_cost_map()
            try:
                module = importlib.import_module("litellm")
                openai = importlib.import_module("openai")
            except ImportError as exc:
                raise UsageError(
                    "LiteLLMJudge needs litellm, a dependency of prin-guard: "
                    "pip install 'litellm>=1.83,!=1.82.7,!=1.82.8'"
                ) from exc
            _litellm, _openai = module, openai
        return _litellm


def _is_secret_name(name: str) -> bool:
    lowered = name.lower()
    words = set(lowered.replace("-", "_").split("_"))
    return bool(words & _SECRET_WORDS) or any(f in lowered for f in _SECRET_FRAGMENTS)


def _public_value(value: Any) -> Any:
    """``value`` with secret-looking keys of nested mappings removed."""
    if isinstance(value, Mapping):
        return {
            str(k): _public_value(v)
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
            if not _is_secret_name(str(k))
        }
    if isinstance(value, list | tuple):
        return [_public_value(v) for v in value]
    return value


def _public_url(url: str | None) -> str | None:
    """``url`` without user, password, query or fragment: only where the server is."""
    if url is None:
        return None
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"{host}:{port}" if port is not None else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


SCHEMA_VERSION = 2
"""Version of the answer schema: 2 has the reasoning before the labels (1: labels only).
Part of the judge's identity, so answers asked under another schema are not reused."""


def _labels_schema(labels: Sequence[str]) -> dict[str, Any]:
    """``{"reasoning": "...", "labels": [...]}``: room to reason first (judges conclude
    better after reasoning, and a structured answer would otherwise skip it), then the
    labels, each one of the item's. A pair's tie is both labels; "none" is an empty list."""
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "labels": {
                "type": "array",
                "items": {"type": "string", "enum": list(labels)},
                "maxItems": len(labels),
            },
        },
        # in this order: providers generate properties in the schema's order
        "required": ["reasoning", "labels"],
        # OpenAI's strict mode rejects an object schema without it.
        "additionalProperties": False,
    }


def _response_format(mode: StructuredMode, labels: Sequence[str]) -> dict[str, Any]:
    schema = _labels_schema(labels)
    if mode == "json_object":
        return {"type": "json_object", "schema": schema}
    return {
        "type": "json_schema",
        "json_schema": {"name": "labels", "schema": schema, "strict": True},
    }


class LiteLLMJudge:
    """A judge that asks a hosted or local chat model through litellm.

    ``model`` is spelled as litellm spells it: ``openai/gpt-4o-mini``,
    ``anthropic/claude-...``, ``ollama/llama3.1``, or ``openai/<name>`` with
    ``api_base`` for any OpenAI-compatible server (vLLM, llama.cpp, a gateway).
    ``api_key`` goes with each call and nowhere else (never into the identity,
    cache keys or logs); without it litellm reads the provider's usual
    environment variable. ``temperature``, ``seed`` and ``max_tokens`` are sent
    when set; ``timeout`` bounds each call, in seconds.

    ``structured`` asks for a JSON answer ``{"reasoning": "...", "labels": [...]}``,
    the reasoning first and the labels constrained to the item's: ``"auto"`` (the
    default: ``json_schema`` when litellm says the model supports response schemas, else
    plain text), ``True`` or ``"json_schema"`` (the OpenAI form), ``"json_object"``
    (llama.cpp's server) or ``False``. The prompt still asks for an ``Answer:`` line; the
    reader reads either. A template of one's own (a prompt asking for its own verdict
    format) is asked in plain text: the guard sends such calls without labels.

    ``logprobs=True`` asks for the reply's token log-probabilities
    (:attr:`~prin_guard.judges.JudgeResponse.tokens`: ``logprobs`` and ``top_logprobs=1``,
    which llama.cpp's server needs before it returns any, are sent with each call). Off by
    default: not every provider accepts them. It changes what comes back beside the
    reply, never the reply, so it is not part of the identity: a reply cached without
    tokens is served without tokens to a judge that asks for them. Tokens are ``None``
    when the provider sends none or sends tokens that do not join to the reply (see
    :func:`_reply_tokens`). ``top_logprobs=k`` (1 to 20; implies ``logprobs``) asks for the
    ``k`` likeliest tokens at each position too
    (:attr:`~prin_guard.judges.JudgeResponse.alternatives`), from which a rating's expected
    score is taken (G-Eval: ``top_logprobs=20``); likewise not part of the identity.

    ``prompt_cache`` says whether the provider caches prompt prefixes, so that the guard
    staggers the legs of a verdict to read the prefix they share from that cache
    (``GuardOptions.stagger``): ``"auto"`` (the default) as litellm's model information
    says (OpenAI's and Anthropic's models, Gemini; the minimum prefix from
    ``prompt_cache_min_tokens``, else 1,024 tokens), ``True`` for a cache with that
    minimum, an integer for the fewest tokens the server caches (``0`` for llama.cpp's
    or vLLM's prefix cache), or ``False``. A staggered leg is marked for the cache per
    call: Anthropic's ``cache_control`` on the shared block of a Claude model's prompt,
    OpenAI's ``prompt_cache_key`` (one per shared prefix). The first leg is then asked as
    a stream (its first chunk releases the others) unless ``logprobs`` is on. It changes
    what a call costs, never its reply, so it is not part of the identity.

    Other keyword arguments (``top_p``, ``stop``, ``extra_body``,
    ``extra_headers``, ...) go to ``litellm.acompletion`` unchanged; those that
    can change the answer are part of the identity, except secret-looking ones.

    Failures: rate limits (429), timeouts, connection errors, 5xx and malformed
    replies raise :class:`~prin_guard.errors.TransientJudgeError` (carrying the
    provider's Retry-After), which prin-guard retries; authentication, bad
    requests, unknown models and refused content raise
    :class:`~prin_guard.JudgeError` at once. A reply without any choice is
    transient too (and so never cached); a choice with no content is an answer
    that cannot be parsed.
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        temperature: float | None = 0.0,
        seed: int | None = None,
        max_tokens: int | None = None,
        timeout: float | None = 60.0,
        structured: bool | Literal["auto", "json_schema", "json_object"] = "auto",
        logprobs: bool = False,
        top_logprobs: int | None = None,
        prompt_cache: bool | int | Literal["auto"] = "auto",
        **call_kwargs: Any,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise UsageError(f"model: expected a litellm model name, got {model!r}")
        if api_base is not None and not isinstance(api_base, str):
            raise UsageError(f"api_base: expected a URL, got {type(api_base).__name__}")
        if api_key is not None and not isinstance(api_key, str):
            raise UsageError(f"api_key: expected a string, got {type(api_key).__name__}")
        if temperature is not None and (
            isinstance(temperature, bool) or not isinstance(temperature, int | float)
        ):
            raise UsageError(f"temperature: expected a number, got {temperature!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise UsageError(f"seed: expected an integer, got {seed!r}")
        if max_tokens is not None and (
            isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1
        ):
            raise UsageError(f"max_tokens: expected a positive integer, got {max_tokens!r}")
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
        ):
            raise UsageError(f"timeout: expected a positive number of seconds, got {timeout!r}")
        if not (
            structured is True
            or structured is False
            or (isinstance(structured, str) and structured in _STRUCTURED_CHOICES)
        ):
            raise UsageError(
                "structured: expected True, False, 'auto', 'json_schema' or 'json_object', "
                f"got {structured!r}"
            )
        if not isinstance(logprobs, bool):
            raise UsageError(f"logprobs: expected a bool, got {type(logprobs).__name__}")
        if top_logprobs is not None and (
            isinstance(top_logprobs, bool)
            or not isinstance(top_logprobs, int)
            or not 1 <= top_logprobs <= _MAX_TOP_LOGPROBS
        ):
            raise UsageError(
                f"top_logprobs: expected an integer from 1 to {_MAX_TOP_LOGPROBS}, "
                f"got {top_logprobs!r}"
            )
        if not (
            prompt_cache == "auto"
            or isinstance(prompt_cache, bool)
            or (isinstance(prompt_cache, int) and prompt_cache >= 0)
        ):
            raise UsageError(
                "prompt_cache: expected 'auto', True, False or the fewest prompt tokens the "
                f"server caches (an integer >= 0), got {prompt_cache!r}"
            )
        reserved = sorted(_RESERVED & call_kwargs.keys())
        if reserved:
            raise UsageError(
                f"{', '.join(reserved)}: set by LiteLLMJudge itself "
                "(use structured= for response_format; prin-guard's Retry for retries)"
            )

        litellm = _load_litellm()
        self.model = model
        self.api_base = api_base
        self.temperature = None if temperature is None else float(temperature)
        self.seed = seed
        self.max_tokens = max_tokens
        self.timeout = None if timeout is None else float(timeout)
        self.logprobs = logprobs or top_logprobs is not None
        self.top_logprobs = top_logprobs
        self._api_key = api_key
        self._call_kwargs = dict(call_kwargs)
        try:
            bare_model, provider, _, _ = litellm.get_llm_provider(
                model=model,
                custom_llm_provider=call_kwargs.get("custom_llm_provider"),
                api_base=api_base,
            )
        except litellm.BadRequestError as exc:
            raise UsageError(
                f"model: litellm cannot tell which provider serves {model!r}; "
                "spell it as '<provider>/<model>', such as 'openai/gpt-4o-mini'"
            ) from exc
        self._bare_model: str = bare_model
        self._provider: str = provider
        if structured == "auto":
            supported = bool(
                litellm.supports_response_schema(model=bare_model, custom_llm_provider=provider)
            )
            self.structured: StructuredMode | None = "json_schema" if supported else None
        elif structured is True:
            self.structured = "json_schema"
        elif structured is False:
            self.structured = None
        else:
            self.structured = structured
        self._identity = self._build_identity()
        self._cache_min = self._prompt_cache_minimum(litellm, prompt_cache)
        # how a shared prefix is marked for the provider: Anthropic's cache_control on a
        # content block (Claude models, also on Bedrock and Vertex AI), OpenAI's
        # prompt_cache_key (routes a verdict's legs to the same cache) where litellm
        # knows the model caches and takes the key (an OpenAI model, directly or through
        # a gateway; never an unknown model a server of one's own serves)
        self._marks_blocks = "claude" in bare_model.lower()
        try:
            params = litellm.get_supported_openai_params(
                model=bare_model, custom_llm_provider=provider
            )
            known = bool(
                litellm.utils.supports_prompt_caching(
                    model=bare_model, custom_llm_provider=provider
                )
            )
        except Exception:  # noqa: BLE001 - a model litellm knows nothing of: no key
            params, known = None, False
        self._sends_cache_key = known and "prompt_cache_key" in (params or ())

    def _prompt_cache_minimum(self, litellm: Any, given: bool | int | str) -> int | None:
        """The fewest prompt tokens the provider caches, or ``None`` when it caches none
        (as litellm's model information says, unless ``prompt_cache`` says otherwise)."""
        if given is False:
            return None
        if given == "auto":
            try:
                caches = litellm.utils.supports_prompt_caching(
                    model=self._bare_model, custom_llm_provider=self._provider
                )
            except Exception:  # noqa: BLE001 - a model litellm does not know: no cache
                caches = False
            if not caches:
                return None
        if isinstance(given, int) and not isinstance(given, bool):
            return given
        return int(litellm.utils.get_prompt_cache_min_tokens(self.model))

    # -- identity -----------------------------------------------------------------

    def _build_identity(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        for name, value in sorted(self._call_kwargs.items()):
            if name in _TRANSPORT_ONLY or _is_secret_name(name):
                continue
            public = _public_value(value)
            try:
                json.dumps(public)
            except (TypeError, ValueError) as exc:
                raise UsageError(
                    f"{name}: LiteLLMJudge keeps its arguments in the judge's identity (the "
                    f"cache key) and needs JSON values there, got {type(value).__name__}"
                ) from exc
            extra[name] = public
        return {
            **extra,
            "kind": "litellm",
            "model": self.model,
            "api_base": _public_url(self.api_base),
            "temperature": self.temperature,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "structured": self.structured or False,
            **({"schema": SCHEMA_VERSION} if self.structured else {}),
        }

    def identity(self) -> Mapping[str, Any]:
        return dict(self._identity)

    def __repr__(self) -> str:
        return f"LiteLLMJudge({self._identity!r})"

    def with_sampling(self, temperature: float, seed: int) -> LiteLLMJudge:
        """The same judge sampling at ``temperature`` with ``seed`` (self-consistency, repeats).

        The seed is sent to providers that honour it and is part of the identity,
        so each sample has its own cache entry.
        """
        clone = copy.copy(self)
        clone.temperature = float(temperature)
        clone.seed = seed
        clone._identity = clone._build_identity()
        return clone

    # -- calls --------------------------------------------------------------------

    def prefix_caching(self, messages: Sequence[Message], prefix: SharedPrefix) -> Stagger | None:
        """Whether the provider caches ``prefix`` (a model that caches, at least its minimum
        of tokens; ``prompt_cache`` overrides what litellm's model information says), and
        how this judge tells that a reply has begun: it streams the first leg and calls
        ``prefix.started`` at its first chunk, or (with ``logprobs``, read from a whole
        reply) it cannot tell."""
        minimum = self._cache_min
        if minimum is None or not messages:
            return None
        head = [{"role": m["role"], "content": m["content"]} for m in messages[:-1]]
        shared, _ = prefix.split(messages)
        head.append({"role": messages[-1]["role"], "content": shared})
        size = sum(len(m["content"].encode()) for m in head)
        # a token is at least a byte: only a prefix of enough bytes can be long enough
        if minimum and (
            size < minimum
            or _load_litellm().token_counter(model=self.model, messages=head) < minimum
        ):
            return None
        return "delay" if self.logprobs else "stream"

    def _marked(
        self, messages: Sequence[Message], prefix: SharedPrefix | None
    ) -> list[dict[str, Any]]:
        """The conversation as sent: with a shared prefix, the last message's content in
        blocks, the shared ones marked for Anthropic's prompt cache (what every leg of the
        verdict shares, when the order check's legs share less; what the leg's group
        shares), the leg's own last. The text is unchanged: the blocks join to it."""
        out: list[dict[str, Any]] = [dict(m) for m in messages]
        if prefix is None or not self._marks_blocks or not out:
            return out
        *marked, own = prefix.blocks(messages)
        blocks: list[dict[str, Any]] = [
            {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}
            for text in marked
        ]
        if own:
            blocks.append({"type": "text", "text": own})
        out[-1]["content"] = blocks
        return out

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        prefix: SharedPrefix | None = None,
    ) -> JudgeResponse:
        litellm = _load_litellm()
        kwargs: dict[str, Any] = dict(self._call_kwargs)
        if prefix is not None and self._sends_cache_key:
            kwargs.setdefault("prompt_cache_key", prefix.route or prefix.key)
        kwargs.update(
            model=self.model,
            messages=self._marked(messages, prefix),
            api_base=self.api_base,
            api_key=self._api_key,
            timeout=self.timeout,
            num_retries=0,  # prin-guard's engine retries, with its own bounds
            max_retries=0,  # ... and so must not the provider's SDK underneath
        )
        for name in ("temperature", "seed", "max_tokens"):
            value = getattr(self, name)
            if value is not None:
                kwargs[name] = value
        # An empty enum is not a schema every server compiles (llama.cpp answers 500):
        # without labels, ask in plain text.
        structured = self.structured if labels else None
        if structured is not None:
            kwargs["response_format"] = _response_format(structured, labels)
        if self.logprobs:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = self.top_logprobs or kwargs.get("top_logprobs") or 1

        # litellm's timeout bounds each network read; this deadline bounds the whole
        # call (a server that trickles bytes), a little later so that litellm's wins.
        deadline = None if self.timeout is None else self.timeout * 1.25 + 1.0
        started = prefix.started if prefix is not None and not self.logprobs else None
        reported = True
        try:
            with held_back():  # litellm's banners, printed by this call, stay off the terminal
                async with asyncio.timeout(deadline):
                    if started is None:
                        response = await litellm.acompletion(**kwargs)
                    else:
                        response, reported = await _streamed(litellm, kwargs, started)
        except TimeoutError as exc:
            within = "" if deadline is None else f" within {deadline:.3g} s"
            raise TransientJudgeError(f"{self.model}: no complete reply{within}") from exc
        except Exception as exc:  # sorted by type in _translate
            raise self._translate(exc) from exc

        choices = getattr(response, "choices", None) or []
        if not choices:
            raise TransientJudgeError(f"{self.model}: the reply had no choices")
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
        text = content if isinstance(content, str) else None
        return JudgeResponse(
            text=text,
            usage=self._usage(litellm, response) if reported else None,
            output_format="json" if structured is not None else "text",
            tokens=_reply_tokens(choices[0], text) if self.logprobs else None,
            alternatives=_reply_alternatives(choices[0], text) if self.top_logprobs else None,
        )

    def _usage(self, litellm: Any, response: Any) -> Usage | None:
        return _priced_usage(
            litellm,
            response,
            model=self.model,
            bare_model=self._bare_model,
            provider=self._provider,
        )

    # -- failures -----------------------------------------------------------------

    def _translate(self, exc: Exception) -> JudgeError:
        """A JudgeError for a failed call: transient when a retry may cure it.

        Decided by the exception's type and, for generic API errors, its HTTP status;
        never by its message (see :func:`_judge_error`).
        """
        return _judge_error(exc, self._message(exc), _litellm, _openai)

    def _message(self, exc: BaseException) -> str:
        text = f"{self.model}: {type(exc).__name__}: {exc}"
        if self._api_key:
            # litellm redacts keys from its messages; this is a second line of defence.
            text = text.replace(self._api_key, "***")
        return text[:2000]


async def _streamed(
    litellm: Any, kwargs: dict[str, Any], started: Callable[[], None]
) -> tuple[Any, bool]:
    """The reply, asked as a stream so that ``started`` is called at its first chunk (the
    provider has read the prompt and cached its prefix: the legs waiting for it go),
    then rebuilt whole as litellm builds a streamed reply; and whether the provider
    reported the usage. A provider that sends none in its stream (llama-cpp-python's
    server) gets usage litellm estimated with another tokenizer: not a count to report.
    A stream cut short (no finish reason) is raised by litellm as a transient failure.
    """
    stream = await litellm.acompletion(
        **kwargs, stream=True, stream_options={"include_usage": True}
    )
    chunks: list[Any] = []
    async for chunk in stream:
        if not chunks:
            started()
        chunks.append(chunk)
    # the provider's own chunks, before litellm adds a usage chunk of its making
    raw = getattr(stream, "chunks", None)
    reported = isinstance(raw, list) and any(_field(c, "usage") is not None for c in raw)
    if not chunks:
        return None, reported
    # The builder prices the reply by the model name the provider sent; for a model it
    # has no price for (a local server's "smollm2") it prints litellm's provider list to
    # stdout on every call: held back, as it runs inside the call (``held_back``). The
    # price is read afterwards with the provider given (``_cost``).
    return litellm.stream_chunk_builder(chunks, messages=kwargs["messages"]), reported


# -- what litellm prints during a call ---------------------------------------------------

_IN_CALL: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "prin_guard_litellm_call", default=False
)
_held_lock = threading.Lock()
_held_calls = 0
_held_streams: dict[str, _CallOutput] = {}


class _CallOutput:
    """A standard stream, less what is written in the context of a litellm call in
    flight (litellm's banners), which goes to a debug event instead."""

    def __init__(self, stream: Any, name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, text: str) -> int:
        if not _IN_CALL.get():
            return int(self._stream.write(text))
        if text.strip():
            log().debug("litellm_output", stream=self._name, text=bounded(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def held_back() -> Iterator[None]:
    """For the ``with`` block (a judge's call): what litellm prints in its context is held
    back from stdout and stderr; the streams are wrapped while any call is in flight, and
    given back, unchanged, when the last one ends (unless someone replaced them since)."""
    global _held_calls
    with _held_lock:
        if _held_calls == 0:
            for name in ("stdout", "stderr"):
                stream = getattr(sys, name)
                if not isinstance(stream, _CallOutput):
                    wrapper = _CallOutput(stream, name)
                    _held_streams[name] = wrapper
                    setattr(sys, name, wrapper)
        _held_calls += 1
    token = _IN_CALL.set(True)
    try:
        yield
    finally:
        _IN_CALL.reset(token)
        with _held_lock:
            _held_calls -= 1
            if _held_calls == 0:
                for name, wrapper in _held_streams.items():
                    if getattr(sys, name) is wrapper:
                        setattr(sys, name, wrapper._stream)
                _held_streams.clear()


# -- failures: retry, or give up -------------------------------------------------------
# A failure is transient (TransientJudgeError, which the engine retries, after the
# provider's Retry-After when it sent one) or permanent (JudgeError), decided by the
# exception's type and, for generic API errors, its HTTP status: never by its message,
# whose wording litellm and the providers change freely.


def _judge_error(exc: Exception, message: str, litellm: Any, openai: Any) -> JudgeError:
    """A JudgeError for a failed call: transient when a retry may cure it.

    Decided by the exception's type and, for generic API errors, its HTTP status;
    never by its message. ``message`` is the text of the error returned (redacted by
    the judge), ``litellm`` and ``openai`` the modules the call went through.
    """
    errors = litellm.exceptions
    permanent = _types(
        errors,
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "BadRequestError",  # includes ContentPolicyViolation, ContextWindowExceeded
        "UnprocessableEntityError",
        "BudgetExceededError",
    )
    transient = (
        *_types(
            errors,
            "RateLimitError",
            "Timeout",
            "APIConnectionError",
            "InternalServerError",
            "ServiceUnavailableError",
            "BadGatewayError",
        ),
        openai.APIConnectionError,  # also openai.APITimeoutError
        TimeoutError,
        ConnectionError,
    )
    if isinstance(exc, permanent):
        return JudgeError(message)
    if isinstance(exc, transient):
        if _raised_before_any_request(exc, openai):
            # litellm reports some client-side configuration errors (a missing
            # API key) as a 500; no retry will cure them.
            return JudgeError(message)
        return TransientJudgeError(message, retry_after=_parse_retry_after(_response_headers(exc)))
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and not isinstance(status, bool):
        if status >= 500 or status in (408, 409, 429):
            return TransientJudgeError(
                message, retry_after=_parse_retry_after(_response_headers(exc))
            )
        return JudgeError(message)
    return JudgeError(message)


def _parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP-date)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return max(value, 0.0)
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        value = float(raw)
    except ValueError:
        pass
    else:
        return max(value, 0.0) if math.isfinite(value) else None
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP-date is GMT
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _response_headers(exc: BaseException) -> dict[str, str]:
    """The HTTP response headers an exception carries, names in lower case."""
    found: dict[str, str] = {}
    response = getattr(exc, "response", None)
    sources = (
        getattr(exc, "headers", None),
        getattr(response, "headers", None) if response is not None else None,
        getattr(exc, "litellm_response_headers", None),
    )
    for source in sources:
        if not isinstance(source, Mapping):  # a dict, or httpx.Headers
            continue
        for name, value in source.items():
            if isinstance(name, str) and isinstance(value, str | int | float):
                found[name.lower()] = str(value)
    return found


def _types(module: Any, *names: str) -> tuple[type[BaseException], ...]:
    """The exception classes of ``module`` with these names; those it lacks are skipped."""
    found = (getattr(module, name, None) for name in names)
    return tuple(t for t in found if isinstance(t, type) and issubclass(t, BaseException))


def _raised_before_any_request(exc: BaseException, openai: Any) -> bool:
    """Whether the chain of causes shows a client-side error and no HTTP exchange.

    The OpenAI SDK raises its base ``OpenAIError`` (never a subclass) for
    configuration it refuses before sending anything, such as a missing API key;
    every network failure or HTTP status has a subclass (``APIError``) or a
    transport error below it.
    """
    seen: set[int] = {id(exc)}
    # ``exc`` itself is litellm's translation (an APIError subclass even for a 500
    # it made up); the evidence is in what it was raised from.
    current: BaseException | None = exc.__cause__ or exc.__context__
    client_side = False
    while current is not None and id(current) not in seen and len(seen) < 16:
        seen.add(id(current))
        if isinstance(current, (openai.APIError, OSError, TimeoutError)):
            return False
        if type(current) is openai.OpenAIError:
            client_side = True
        current = current.__cause__ or current.__context__
    return client_side


# -- what a call cost ------------------------------------------------------------------
# Token counts come from the reply's ``usage``, the price from litellm's price list (the
# copy bundled with litellm unless the application chose otherwise: see
# ``_load_litellm``). A price is never worth failing an answer for: a model the list
# does not know, or any other failure to price the call, gives a cost of ``None``.


def _priced_usage(
    litellm: Any, response: Any, *, model: str, bare_model: str, provider: str
) -> Usage | None:
    """Tokens and price of ``response``; ``None`` when the reply says nothing of either.

    ``model`` is the judge's model as given (for the log), ``bare_model`` and ``provider``
    what litellm resolved it to.
    """
    usage = _field(response, "usage")
    prompt = _count(_field(usage, "prompt_tokens"))
    completion = _count(_field(usage, "completion_tokens"))
    cached, written = _cache_tokens(usage)
    cost = _cost(litellm, response, model=model, bare_model=bare_model, provider=provider)
    if prompt is None and completion is None and cost is None:
        return None
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
        cached_prompt_tokens=cached,
        cache_write_tokens=written,
    )


def _cache_tokens(usage: Any) -> tuple[int | None, int | None]:
    """The prompt tokens read from and written to the provider's prompt cache, as litellm
    reports them (``None`` each where the reply does not say).

    Read: OpenAI's ``prompt_tokens_details.cached_tokens`` (litellm puts Anthropic's
    ``cache_read_input_tokens`` there too, and keeps it as a field of its own). Written:
    Anthropic's ``cache_creation_input_tokens`` (litellm also copies it into
    ``prompt_tokens_details.cache_creation_tokens``). litellm counts both inside
    ``prompt_tokens``.
    """
    details = _field(usage, "prompt_tokens_details")
    read = _count(_field(details, "cached_tokens"))
    if read is None:
        read = _count(_field(usage, "cache_read_input_tokens"))
    written = _count(_field(usage, "cache_creation_input_tokens"))
    if written is None:
        written = _count(_field(details, "cache_creation_tokens"))
    return read, written


def _cost(
    litellm: Any, response: Any, *, model: str, bare_model: str, provider: str
) -> float | None:
    """The call's price from litellm's price list; ``None`` for a model it does not know."""
    try:
        # The bare model and the provider, given explicitly, spare litellm a lookup
        # that prints to stdout when the response names a model it does not know.
        cost = litellm.completion_cost(
            completion_response=response,
            model=bare_model,
            custom_llm_provider=provider,
        )
    except _types(litellm.exceptions, "ModelNotMappedError"):
        return None  # a model litellm has no price for
    except Exception as exc:  # noqa: BLE001 - a price is never worth a failed answer
        log().debug("judge_cost_unknown", model=model, error=type(exc).__name__)
        return None
    if isinstance(cost, bool) or not isinstance(cost, int | float) or not math.isfinite(cost):
        return None
    return float(cost)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


# -- the reply's tokens ----------------------------------------------------------------
# OpenAI-compatible servers return ``choices[0].logprobs.content``: one entry per token,
# with its text (``token``) and natural-log probability (``logprob``). Usually the texts
# join to the reply. A server that returns text per token cannot spell the first bytes
# of a character that the next token completes (an emoji, an accent, in byte-level
# vocabularies): llama.cpp's server gives those tokens an empty text, others a
# replacement character. Such tokens are merged with the token that completes the
# character (log-probabilities summed: the probability of the bytes together), so that
# the entries still join to exactly the reply. Anything else that does not line up gives
# ``None``: tokens are never guessed.

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


def _reply_alternatives(
    choice: Any, text: str | None
) -> tuple[tuple[tuple[str, float], ...], ...] | None:
    """Each token's ``top_logprobs`` (its most likely alternatives), where every token
    spells its own part of ``text`` (no character split over tokens); else ``None``."""
    entries = _entries(choice)
    content = _field(_field(choice, "logprobs"), "content")
    if entries is None or not text or "".join(token for token, _ in entries) != text:
        return None
    if any(not token or _REPLACEMENT in token for token, _ in entries):
        return None
    out = []
    for item in content:
        top = _field(item, "top_logprobs")
        if not isinstance(top, list | tuple) or not top:
            return None
        found = _entries_of(top)
        if found is None:
            return None
        out.append(tuple(found))
    return tuple(out)


def _entries(choice: Any) -> list[tuple[str, float]] | None:
    content = _field(_field(choice, "logprobs"), "content")
    if not isinstance(content, list | tuple):
        return None
    return _entries_of(content)


def _entries_of(content: Sequence[Any]) -> list[tuple[str, float]] | None:
    """``(token, logprob)`` of each entry, or ``None`` if any is malformed."""
    entries: list[tuple[str, float]] = []
    for item in content:
        token, logprob = _field(item, "token"), _field(item, "logprob")
        if not isinstance(token, str) or not is_logprob(logprob):
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
