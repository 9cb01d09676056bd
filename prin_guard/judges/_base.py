"""The judge protocol: chat messages in, text (and usage when known) out.

A judge is anything with an ``identity()`` and an async ``complete()``. prin-guard
never subclasses judges; users plug their own in by matching this protocol.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from prin_guard._route._usage import checked as checked_usage
from prin_guard.models import Message, Usage

__all__ = [
    "Checked",
    "Judge",
    "JudgeResponse",
    "Message",
    "PrefixCachingJudge",
    "SharedPrefix",
    "Stagger",
    "checked",
    "is_logprob",
]

_LOGPROB_SLACK = 1e-6
"""How far above 0 a log-probability may round (a probability of 1 as a server prints it)."""


@dataclass(frozen=True, slots=True)
class JudgeResponse:
    """What a judge returns for one call."""

    text: str | None
    """The reply; ``None`` or ``""`` when the judge said nothing (a parse failure, not an error)."""
    usage: Usage | None = None
    """Tokens and cost, when the judge knows them."""
    output_format: Literal["text", "json"] = "text"
    """``json`` when the judge was constrained to a JSON answer (``{"labels": [...]}``)."""
    tokens: tuple[tuple[str, float], ...] | None = None
    """The reply's tokens with their natural-log probabilities, in order, when the judge
    can return them (``None`` otherwise; never estimated). Their texts joined give
    ``text``; the guard reads a leg's confidence from the tokens that spell its answer."""
    alternatives: tuple[tuple[tuple[str, float], ...], ...] | None = None
    """For each of :attr:`tokens`, the most likely tokens at its position (its own among
    them) with their natural-log probabilities, when the judge was asked for more than
    one (``top_logprobs``); what a rating's expected score is taken from. ``None``
    otherwise, and whenever they do not line up one to one with :attr:`tokens`."""


def is_logprob(value: object) -> bool:
    """Whether ``value`` is a natural-log probability: a finite number at most 0."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value <= _LOGPROB_SLACK
    )


@dataclass(frozen=True, slots=True)
class Checked:
    """A judge's response as the guard reads it (:func:`checked`), and what was wrong."""

    response: JudgeResponse
    usage: dict[str, str]
    """The usage figures made unknown, and why (``prin_guard._route._usage.checked``)."""
    logprobs: str | None = None
    """Why the tokens' log-probabilities were dropped; ``None``: they were not."""


def checked(response: JudgeResponse) -> Checked:
    """``response`` with what it cannot mean taken out, where a reply enters the guard
    (the call layer, for every judge): usage figures that cannot be are unknown, and
    tokens whose log-probabilities are not all finite numbers at most 0 (a function
    judge's 1000, NaN, inf) are dropped with their alternatives, as a judge that gives
    none: that leg has no confidence or expected score, and nothing else changes."""
    usage, why = (None, {}) if response.usage is None else checked_usage(response.usage)
    logprobs = _bad_logprob(response)
    if not why and logprobs is None:
        return Checked(response, why)
    update: dict[str, Any] = {"usage": usage} if why else {}
    if logprobs is not None:
        update.update(tokens=None, alternatives=None)
    return Checked(dataclasses.replace(response, **update), why, logprobs)


def _bad_logprob(response: JudgeResponse) -> str | None:
    """Why ``response``'s log-probabilities cannot be read, or ``None``."""
    entries = list(response.tokens or ())
    for at in response.alternatives or ():
        entries += at
    for entry in entries:
        if not (isinstance(entry, tuple) and len(entry) == 2 and is_logprob(entry[1])):
            shown = entry[1] if isinstance(entry, tuple) and len(entry) == 2 else entry
            return f"a log-probability of {repr(shown)[:40]}: not a finite number at most 0"
    return None


@runtime_checkable
class Judge(Protocol):
    """Anything that answers chat messages.

    ``identity()`` returns a JSON-serialisable mapping of everything about the judge
    that changes its answer (model, revision, sampling parameters) and nothing
    secret (no API keys, no auth headers): it goes into cache keys.

    ``complete()`` receives the conversation (the last message is the user's
    question) and the labels of the item's candidates, which a judge may use to
    constrain its output. Raise :class:`~prin_guard.errors.TransientJudgeError` for
    failures worth retrying and any other exception for permanent ones.
    """

    def identity(self) -> Mapping[str, Any]: ...

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse: ...


Stagger = Literal["stream", "delay"]
"""How a :class:`PrefixCachingJudge` tells that the first leg has begun answering:
``stream``: it calls :attr:`SharedPrefix.started` at the reply's first token; ``delay``:
it cannot tell, so the guard waits ``GuardOptions.stagger_delay``."""


@dataclass(frozen=True, slots=True)
class SharedPrefix:
    """What a leg's prompt shares with the other legs of its verdict, byte for byte.

    The guard's prompts put what the legs share first (the system message, the item,
    the candidates, the reasoning paths) and each leg's own instruction last, so a
    provider that caches prompt prefixes can serve the shared part of every leg but
    the first from its cache.
    """

    chars: int
    """Every message but the last, and the first ``chars`` characters of the last one's
    content, are the same in the legs that share this prefix."""
    key: str
    """A stable name of the prefix (a hash of it), the same for every leg sharing it."""
    route: str = ""
    """A stable name of the item, the same for every leg of its verdict (whatever prefix
    they share): a provider that routes requests to its caches by a key (OpenAI's
    ``prompt_cache_key``) gets it, so that all of them meet one cache. Empty: ``key``."""
    common: int = 0
    """Of those ``chars``, how many every leg of the verdict shares, whatever its group
    (the order check's legs show the candidates in another order: they share the
    instruction and the context with the first order's, not the candidates); 0 when it is
    all of them or nothing. A provider that caches prefixes up to marked blocks (Anthropic)
    gets it marked too, so that a second order's legs read it."""
    started: Callable[[], None] | None = None
    """Set for the leg that goes first while others wait: call it once its reply has
    begun (the provider has read the prompt and cached it); the others then go."""

    def split(self, messages: Sequence[Message]) -> tuple[str, str]:
        """The last message's content cut at the end of the shared prefix."""
        content = messages[-1]["content"]
        return content[: self.chars], content[self.chars :]

    def blocks(self, messages: Sequence[Message]) -> list[str]:
        """The last message's content in the blocks a provider caches up to: what every
        leg shares (when ``common``), what this leg's group shares, the leg's own."""
        shared, own = self.split(messages)
        parts = [shared[: self.common], shared[self.common :]] if self.common else [shared]
        return [*parts, own]


@runtime_checkable
class PrefixCachingJudge(Judge, Protocol):
    """A judge whose provider caches prompt prefixes, and that can say so (optional).

    The guard then sends the first leg of a verdict ahead and the others once it has
    begun answering, so that they read the shared prefix from the provider's cache
    rather than pay for it again (see ``GuardOptions.stagger``). ``prefix_caching``
    says whether the provider would cache ``prefix`` (a model that caches, a prefix at
    least as long as its minimum) and how the judge tells that a reply has begun
    (:data:`Stagger`); ``None``: ask every leg at once. ``complete`` receives the prefix
    of each leg that shares one, to mark it for the provider (Anthropic's
    ``cache_control``, OpenAI's ``prompt_cache_key``); the prompt text is unchanged.
    """

    def prefix_caching(
        self, messages: Sequence[Message], prefix: SharedPrefix
    ) -> Stagger | None: ...

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        prefix: SharedPrefix | None = None,
    ) -> JudgeResponse: ...
