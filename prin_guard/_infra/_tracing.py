"""OpenTelemetry spans: one per verdict, one per judge call under it.

prin-guard depends on ``opentelemetry-api`` only. The application configures
the SDK and its exporters; without them the API hands out a no-op tracer and a
span costs next to nothing. ``opentelemetry.trace`` is imported on first use,
not with ``import prin_guard``.

Spans carry what was asked and how it went (ids, the model, token counts, the
PRIN score, flags, attempts, whether the cache answered), never prompts,
replies, keys or headers. A failure is recorded by its exception type and the
frames it went through: its message, which may quote a provider's error text
(and with it a key or the prompt), stays out of the span.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

    from prin_guard.models import Usage, Verdict

__all__ = ["record_attempt", "record_usage", "record_verdict", "set_attributes", "span", "tracer"]

_tracer: Tracer | None = None
_api: Any = None  # opentelemetry.trace, once imported


def tracer() -> Tracer | None:
    """prin-guard's tracer; None while no tracer provider is configured.

    Without a provider every span would be a no-op, yet starting one and making
    it current still costs microseconds: then spans are skipped altogether. The
    tracer is kept once a provider is there.
    """
    global _tracer, _api
    if _tracer is None:
        if _api is None:
            from opentelemetry import trace

            _api = trace
        provider = _api.get_tracer_provider()
        if isinstance(provider, _api.ProxyTracerProvider | _api.NoOpTracerProvider):
            return None
        _tracer = provider.get_tracer("prin_guard", _release())
    return _tracer


def _release() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("prin-guard")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return None


def span(name: str, attributes: dict[str, Any]) -> AbstractContextManager[Span]:
    """A span around the block, current while it runs; a failure marks it an error."""
    current_tracer = tracer()
    if current_tracer is None:
        return _NoSpan(_api.INVALID_SPAN)
    return _span(current_tracer, name, attributes)


class _NoSpan:
    """No span: what is set on the one it hands out goes nowhere."""

    __slots__ = ("_span",)

    def __init__(self, span: Span) -> None:
        self._span = span

    def __enter__(self) -> Span:
        return self._span

    def __exit__(self, *exc_info: object) -> None:
        return None


@contextmanager
def _span(current_tracer: Tracer, name: str, attributes: dict[str, Any]) -> Iterator[Span]:
    with current_tracer.start_as_current_span(
        name, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as current:
        try:
            yield current
        except Exception as exc:
            _record_failure(current, exc)
            raise


def set_attributes(current: Span, attributes: dict[str, Any]) -> None:
    """Set ``attributes`` (``None`` values skipped) if the span is still recording."""
    if current.is_recording():
        current.set_attributes({k: v for k, v in attributes.items() if v is not None})


def record_attempt(attempt: int) -> None:
    """Count an attempt on the current span (a judge call's)."""
    if _tracer is not None:  # else no provider, no spans
        from opentelemetry.trace import get_current_span

        set_attributes(get_current_span(), {"prin_guard.attempts": attempt})


def record_usage(current: Span, usage: Usage | None) -> None:
    if usage is not None:
        set_attributes(
            current,
            {
                "gen_ai.usage.input_tokens": usage.prompt_tokens,
                "gen_ai.usage.output_tokens": usage.completion_tokens,
                # OpenTelemetry's names for the provider's prompt cache at work
                "gen_ai.usage.cache_read.input_tokens": usage.cached_prompt_tokens,
                "gen_ai.usage.cache_creation.input_tokens": usage.cache_write_tokens,
            },
        )


def record_verdict(current: Span, verdict: Verdict) -> None:
    set_attributes(
        current,
        {
            "prin_guard.prin_score": verdict.prin_score,
            "prin_guard.order_inconsistency": verdict.scores.order_inconsistency,
            "prin_guard.panel_agreement": verdict.scores.panel_agreement,
            "prin_guard.confidence": verdict.scores.confidence,
            "prin_guard.judge_calls": verdict.judge_calls,
            "prin_guard.consistent": verdict.consistent,
            "prin_guard.flags": [flag.value for flag in verdict.flags],
            "prin_guard.cached": verdict.cached,
        },
    )


def _record_failure(current: Span, exc: Exception) -> None:
    if not current.is_recording():
        return
    from opentelemetry.trace import Status, StatusCode

    kind = type(exc).__name__
    cause = exc.__cause__
    current.record_exception(
        exc,
        attributes={
            "exception.message": f"{kind} (from {type(cause).__name__})" if cause else kind,
            # frames only: format_exception would add each chained exception's message
            "exception.stacktrace": "".join(traceback.format_tb(exc.__traceback__)),
        },
    )
    current.set_status(Status(StatusCode.ERROR, kind))
    current.set_attribute("error.type", kind)
