"""An Inspect model as a prin-guard judge.

Every leg goes through ``Model.generate``, so the judge's calls use Inspect's own
retries, connection limits, token accounting and transcript: they show up in the
eval log as model events of the sample being scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelUsage,
    get_model,
)

from prin_guard import JudgeError
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message, Usage

__all__ = ["InspectJudge"]

# Settings that change how a call is made, not what the model answers, and headers
# (which may carry credentials): kept out of the identity, hence out of cache keys.
_NOT_IDENTITY = frozenset(
    {
        "max_retries",
        "timeout",
        "attempt_timeout",
        "stream_idle_timeout",
        "max_connections",
        "adaptive_connections",
        "extra_headers",
        "cache",
        "batch",
    }
)


class InspectJudge:
    """A prin-guard judge that asks an Inspect model.

    ``model`` is a :class:`inspect_ai.model.Model` or a model string
    (``"openai/gpt-4o-mini"``); ``None`` means the model bound to ``role``
    (``"grader"`` in ``eval(..., model_roles={"grader": ...})``) when there is one,
    else the model being evaluated. The model is resolved when the judge is built,
    so build it inside an eval (the scorer does) or pass ``model``.

    ``config`` is merged over the model's own config for every call (for instance
    ``GenerateConfig(temperature=0)``); ``cache`` is Inspect's response cache for
    these calls (off by default, as for ``generate``).
    """

    def __init__(
        self,
        model: str | Model | None = None,
        *,
        role: str | None = "grader",
        config: GenerateConfig | None = None,
        cache: bool | CachePolicy = False,
    ) -> None:
        if model is not None:
            self.model = get_model(model)
        elif role is not None:
            # An unbound role falls back to the model being evaluated.
            self.model = get_model(role=role)
        else:
            self.model = get_model()
        self.config = config or GenerateConfig()
        self.cache = cache

    def __repr__(self) -> str:
        return f"InspectJudge({str(self.model)!r})"

    def identity(self) -> Mapping[str, Any]:
        merged = self.model.config.merge(self.config)
        settings = {
            key: value
            for key, value in merged.model_dump(mode="json", exclude_none=True).items()
            if key not in _NOT_IDENTITY
        }
        return {
            "kind": "inspect",
            "model": str(self.model),
            "base_url": _without_credentials(self.model.api.base_url),
            "config": settings,
        }

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        output = await self.model.generate(
            [_chat_message(message) for message in messages],
            config=self.config,
            cache=self.cache,
        )
        text = output.completion
        if not text and output.error:
            # A refusal reported as an error rather than as text: a failed leg.
            raise JudgeError(f"{self.model}: {output.error}")
        return JudgeResponse(text=text, usage=_usage(output.usage))


def _chat_message(message: Message) -> ChatMessage:
    role, content = message["role"], message["content"]
    if role == "system":
        return ChatMessageSystem(content=content)
    if role == "assistant":
        return ChatMessageAssistant(content=content)
    return ChatMessageUser(content=content)


def _usage(usage: ModelUsage | None) -> Usage | None:
    if usage is None:
        return None
    prompt = (
        usage.input_tokens
        + (usage.input_tokens_cache_read or 0)
        + (usage.input_tokens_cache_write or 0)
    )
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=usage.output_tokens,
        cost_usd=usage.total_cost,
        # Inspect reports the prompt cache's reads and writes, or None where unknown
        cached_prompt_tokens=usage.input_tokens_cache_read,
        cache_write_tokens=usage.input_tokens_cache_write,
    )


def _without_credentials(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))
