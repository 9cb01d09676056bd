"""Where prin-guard's structlog events go.

The library never configures logging. When the application has configured
structlog, events flow through its pipeline (``structlog.get_logger``). When it
has not, structlog's default would print every event, debug included, to
stdout; so events go to the standard-library logger ``prin_guard`` instead,
which stays silent below WARNING until the application says otherwise.

Events are snake_case with the item id, leg and timings bound; prompts and raw
answers only at debug level; never an API key or an auth header. Text that comes
from outside (an exception's message) is cut to a bounded length with
:func:`bounded` before it goes into an info or warning event.
"""

from __future__ import annotations

import logging
from typing import Any

import structlog

__all__ = ["bounded", "log"]

_NAME = "prin_guard"
_structlog_logger: Any = structlog.get_logger(_NAME)
_std = logging.getLogger(_NAME)
_stdlib_logger: Any = structlog.wrap_logger(
    _std,
    wrapper_class=structlog.stdlib.BoundLogger,
    processors=[
        structlog.stdlib.filter_by_level,
        structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=False),
    ],
)


class _StdlibEvents:
    """Events to the stdlib logger, dropped before any processing below its level.

    The guard emits several events per verdict; with nobody listening (the
    default) each must cost next to nothing.
    """

    def debug(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.DEBUG):
            _stdlib_logger.debug(event, **kw)

    def info(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.INFO):
            _stdlib_logger.info(event, **kw)

    def warning(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.WARNING):
            _stdlib_logger.warning(event, **kw)

    def error(self, event: str, **kw: Any) -> None:
        if _std.isEnabledFor(logging.ERROR):
            _stdlib_logger.error(event, **kw)


_stdlib_events = _StdlibEvents()


def bounded(text: str, limit: int = 500) -> str:
    """``text``, cut to its first ``limit`` characters with a note of its full length.

    An exception can carry a whole request or response body; a log line should not.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def log() -> Any:
    """The logger to emit one event with, chosen at emission time."""
    return _structlog_logger if structlog.is_configured() else _stdlib_events
