"""Where prin-guard's structlog events go.

The library never configures logging. When the application has configured
structlog, events flow through its pipeline (``structlog.get_logger``). When it
has not, structlog's default would print every event, debug included, to
stdout; so events go to the standard-library logger ``prin_guard`` instead,
which stays silent below WARNING until the application says otherwise.

Events are snake_case with the item id, leg and timings bound; prompts and raw
answers only at debug level; never an API key or an auth header.
"""

from __future__ import annotations

import logging
from typing import Any

import structlog

__all__ = ["log"]

_NAME = "prin_guard"
_structlog_logger: Any = structlog.get_logger(_NAME)
_stdlib_logger: Any = structlog.wrap_logger(
    logging.getLogger(_NAME),
    wrapper_class=structlog.stdlib.BoundLogger,
    processors=[
        structlog.stdlib.filter_by_level,
        structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=False),
    ],
)


def log() -> Any:
    """The logger to emit one event with, chosen at emission time."""
    return _structlog_logger if structlog.is_configured() else _stdlib_logger
