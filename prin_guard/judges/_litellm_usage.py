"""What a :class:`~prin_guard.judges.LiteLLMJudge` call cost: tokens, and dollars if known.

Token counts come from the reply's ``usage``, the price from litellm's price list (the
copy bundled with litellm unless the application chose otherwise: see ``_load_litellm``
in ``_litellm``). A price is never worth failing an answer for: a model the list does
not know, or any other failure to price the call, gives a cost of ``None``.
"""

from __future__ import annotations

import math
from typing import Any

from prin_guard._events import log
from prin_guard._models import Usage
from prin_guard.judges._litellm_errors import _types

__all__ = ["_usage"]


def _usage(
    litellm: Any, response: Any, *, model: str, bare_model: str, provider: str
) -> Usage | None:
    """Tokens and price of ``response``; ``None`` when the reply says nothing of either.

    ``model`` is the judge's model as given (for the log), ``bare_model`` and ``provider``
    what litellm resolved it to.
    """
    usage = getattr(response, "usage", None)
    prompt = _count(getattr(usage, "prompt_tokens", None))
    completion = _count(getattr(usage, "completion_tokens", None))
    cost = _cost(litellm, response, model=model, bare_model=bare_model, provider=provider)
    if prompt is None and completion is None and cost is None:
        return None
    return Usage(prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost)


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
