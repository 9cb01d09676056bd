"""The service's log lines: request ids, bounded fields, redacted access lines.

Every request gets an id (the client's ``X-Request-ID`` when it is a short safe
token, else a fresh one), held in a context variable for the request's duration.
:func:`event` emits a prin-guard event with that id and every field cut to
:data:`MAX_FIELD_CHARS`, so no request can make a log line as long as its body.
Two logging filters, installed by :func:`install_log_filters`, add the id to
the lines of the ``prin_guard`` logger and of uvicorn's access log, and replace
the query string in access lines (a key sent as ``?api_key=...`` is refused, but
the access line would otherwise keep it).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any, Final

from prin_guard._events import log
from prin_guard.server._scrub import REDACTED

__all__ = [
    "MAX_FIELD_CHARS",
    "REQUEST_ID",
    "AccessLogFilter",
    "RequestIdFilter",
    "bounded",
    "event",
    "install_log_filters",
    "request_id_from",
]

MAX_FIELD_CHARS: Final = 500
"""Longest value of one field of a server log event; longer ones are cut."""

REQUEST_ID: ContextVar[str | None] = ContextVar("prin_guard_request_id", default=None)
"""The id of the request being served in this context (None outside a request)."""

# Short, and nothing a log reader or a header could misread (no spaces, quotes, =).
_SAFE_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def request_id_from(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The client's ``X-Request-ID`` when it is a safe token, else a new random id."""
    for name, value in headers:
        if name.lower() == b"x-request-id":
            text = value.decode("latin-1").strip()
            if _SAFE_ID.fullmatch(text):
                return text
            break
    return uuid.uuid4().hex


def bounded(value: Any, limit: int = MAX_FIELD_CHARS) -> Any:
    """``value``, with text longer than ``limit`` cut and the cut length said."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return value
    return f"{text[:limit]}...[{len(text) - limit} more chars]"


def event(level: str, name: str, **fields: Any) -> None:
    """Emit the prin-guard event ``name`` with the request id and bounded fields."""
    fields.setdefault("request_id", REQUEST_ID.get())
    emit = getattr(log(), level)
    emit(name, **{key: bounded(value) for key, value in fields.items()})


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to a record, and to the text of prin-guard's own lines.

    prin-guard's library events (the guard's, the call layer's) do not know the
    request; this puts its id on them when they are logged during one.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        record.request_id = request_id or "-"
        if request_id is not None and record.name.startswith("prin_guard"):
            message = record.getMessage()
            if "request_id=" not in message:
                record.msg, record.args = f"{message} request_id={request_id!r}", None
        return True


class AccessLogFilter(RequestIdFilter):
    """uvicorn's access line with its query string redacted, its path bounded, and the id.

    uvicorn logs ``'%s - "%s %s HTTP/%s" %d'`` with the path and query as the
    third argument. The service reads nothing from a query string, so all of it
    goes: a key sent there is then never written to the log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            path, question, _ = args[2].partition("?")
            shown = bounded(path) + (f"?{REDACTED}" if question else "")
            record.args = (*args[:2], shown, *args[3:])
        super().filter(record)
        request_id = REQUEST_ID.get()
        if request_id is not None and isinstance(record.msg, str) and "%d" in record.msg:
            # The default access format shows the message's arguments only.
            record.msg = record.msg + " request_id=" + request_id.replace("%", "%%")
        return True


def install_log_filters() -> None:
    """Put the filters on the ``prin_guard`` and ``uvicorn.access`` loggers (once).

    On the loggers rather than on handlers, so they hold whatever logging
    configuration the application (or uvicorn) sets up.
    """
    for name, kind in (("prin_guard", RequestIdFilter), ("uvicorn.access", AccessLogFilter)):
        logger = logging.getLogger(name)
        if not any(type(existing) is kind for existing in logger.filters):
            logger.addFilter(kind())
