"""The judge protocol: chat messages in, text (and usage when known) out.

A judge is anything with an ``identity()`` and an async ``complete()``. prin-guard
never subclasses judges; users plug their own in by matching this protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from prin_guard._models import Message, Usage

__all__ = ["Judge", "JudgeResponse", "Message"]


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


@runtime_checkable
class Judge(Protocol):
    """Anything that answers chat messages.

    ``identity()`` returns a JSON-serialisable mapping of everything about the judge
    that changes its answer (model, revision, sampling parameters) and nothing
    secret (no API keys, no auth headers): it goes into cache keys.

    ``complete()`` receives the conversation (the last message is the user's
    question) and the labels of the item's candidates, which a judge may use to
    constrain its output. Raise :class:`~prin_guard.TransientJudgeError` for
    failures worth retrying and any other exception for permanent ones.
    """

    def identity(self) -> Mapping[str, Any]: ...

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse: ...
