"""Where prin-guard's structlog events go, scrubbed of secrets and with their context.

The library never configures logging. When the application has configured
structlog, events flow through its pipeline (``structlog.get_logger``). When it
has not, structlog's default would print every event, debug included, to
stdout; so events go to the standard-library logger ``prin_guard`` instead,
which stays silent below WARNING until the application says otherwise.

Events are snake_case with the item id, leg and timings bound; prompts and raw
answers only at debug level; never an API key or an auth header. Text that comes
from outside (an exception's message) is cut to a bounded length with
:func:`bounded` before it goes into an info or warning event.

Every event is scrubbed here, whoever emits it (the library, the server) and
whichever way it goes, by :func:`prin_guard._infra._redact.redact`, the one redaction of
every surface (what it replaces: that module's docstring). An event is scrubbed only
once it is known to be wanted: on the standard-library path, an event below the logger's level is
dropped before anything else is done with it, as it is on structlog's filtering
loggers (its default), so events nobody listens to cost next to nothing.

Fields bound with :func:`bind_context` (the server binds a request's id while it
handles the request) are added to every event emitted in that context, including
the library's own events, in tasks and threads started from it.

structlog itself is imported when an event is first emitted to someone listening, not
at ``import prin_guard`` (it pulls in ``rich`` for its console renderer: a tenth of a
second). An application that configured structlog has imported it already.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Mapping
from contextvars import ContextVar, Token
from typing import Any

from prin_guard._infra._redact import redact

__all__ = ["bind_context", "bounded", "log", "reset_context"]

_NAME = "prin_guard"
_std = logging.getLogger(_NAME)


def _scrubbed(value: Any) -> Any:
    """An event's field, scrubbed: text, and the text inside lists, tuples and dicts."""
    if isinstance(value, str):
        return redact(value)
    if type(value) in (list, tuple):
        return type(value)(_scrubbed(entry) for entry in value)
    if isinstance(value, dict):
        return {key: _scrubbed(entry) for key, entry in value.items()}
    return value


# -- context ---------------------------------------------------------------------------

_CONTEXT: ContextVar[Mapping[str, Any] | None] = ContextVar(
    "prin_guard_event_context", default=None
)


def bind_context(**fields: Any) -> Token[Mapping[str, Any] | None]:
    """Add ``fields`` to every event emitted in this context (and the tasks it starts);
    :func:`reset_context` with the token returned ends it."""
    return _CONTEXT.set({**(_CONTEXT.get() or {}), **fields})


def reset_context(token: Token[Mapping[str, Any] | None]) -> None:
    _CONTEXT.reset(token)


def _fields(kw: dict[str, Any]) -> dict[str, Any]:
    context = _CONTEXT.get()
    return {**context, **kw} if context else kw


# -- emitting --------------------------------------------------------------------------


@functools.cache
def _structlog_logger() -> Any:
    import structlog

    return structlog.get_logger(_NAME)


def _render_scrubbed(logger: Any, method: str, event_dict: Any) -> str:
    # One pass over the whole line: whatever a field holds, its text is in the line.
    return redact(_key_values()(logger, method, event_dict))


@functools.cache
def _key_values() -> Any:
    import structlog

    return structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=False)


@functools.cache
def _stdlib_logger() -> Any:
    import structlog

    return structlog.wrap_logger(
        _std,
        wrapper_class=structlog.stdlib.BoundLogger,
        processors=[structlog.stdlib.filter_by_level, _render_scrubbed],
    )


class _StdlibEvents:
    """Events to the stdlib logger, dropped before any processing below its level.

    The guard emits several events per verdict; with nobody listening (the
    default) each must cost next to nothing.
    """

    def debug(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.DEBUG):
            _stdlib_logger().debug(event, **_fields(kw))

    def info(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.INFO):
            _stdlib_logger().info(event, **_fields(kw))

    def warning(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.WARNING):
            _stdlib_logger().warning(event, **_fields(kw))

    def error(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.ERROR):
            _stdlib_logger().error(event, **_fields(kw))


class _StructlogEvents:
    """Events into the application's structlog pipeline, scrubbed field by field
    (the pipeline is the application's: nothing can be added to it).

    Asked first whether the level is wanted, where the logger can say (structlog's
    filtering loggers, its stdlib ``BoundLogger``), so that a debug event's prompt is
    never scrubbed for a pipeline that drops it.
    """

    def _emit(self, level: int, method: str, event: str, kw: dict[str, Any]) -> None:
        logger = _structlog_logger().bind()
        enabled = getattr(logger, "is_enabled_for", None) or getattr(logger, "isEnabledFor", None)
        if enabled is not None and not enabled(level):
            return
        fields = {key: _scrubbed(value) for key, value in _fields(kw).items()}
        getattr(logger, method)(redact(event), **fields)

    def debug(self, event: str, **kw: Any) -> None:
        self._emit(logging.DEBUG, "debug", event, kw)

    def info(self, event: str, **kw: Any) -> None:
        self._emit(logging.INFO, "info", event, kw)

    def warning(self, event: str, **kw: Any) -> None:
        self._emit(logging.WARNING, "warning", event, kw)

    def error(self, event: str, **kw: Any) -> None:
        self._emit(logging.ERROR, "error", event, kw)


_stdlib_events = _StdlibEvents()
_structlog_events = _StructlogEvents()


def bounded(text: str, limit: int = 500) -> str:
    """``text``, cut to its first ``limit`` characters with a note of its full length.

    An exception can carry a whole request or response body; a log line should not.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def log() -> Any:
    """The logger to emit one event with, chosen at emission time."""
    # Not imported yet: nobody has configured it (configuring means importing).
    structlog = sys.modules.get("structlog")
    if structlog is not None and structlog.is_configured():
        return _structlog_events
    return _stdlib_events
