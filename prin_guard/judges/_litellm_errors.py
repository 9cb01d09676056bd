"""How :class:`~prin_guard.judges.LiteLLMJudge` sorts a failed call: retry, or give up.

A failure is transient (:class:`~prin_guard.TransientJudgeError`, which the engine
retries, after the provider's Retry-After when it sent one) or permanent
(:class:`~prin_guard.JudgeError`), decided by the exception's type and, for generic
API errors, its HTTP status: never by its message, whose wording litellm and the
providers change freely. Kept apart from the judge because these rules, and the
header parsing under them, are what changes when litellm does.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Mapping
from typing import Any

from prin_guard._exceptions import JudgeError, TransientJudgeError

__all__ = ["_judge_error", "_parse_retry_after", "_types"]


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
