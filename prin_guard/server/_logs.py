"""The service's log lines: request ids, bounded fields, redacted paths and access lines.

Every request gets an id (the client's ``X-Request-ID`` when it is a short safe
token, else a fresh one), held in a context variable for the request's duration
and bound to every prin-guard event emitted meanwhile (``prin_guard._infra._events``, which
also scrubs every event of secrets). :func:`event` emits a server event with every
field cut to :data:`MAX_FIELD_CHARS`, so no request can make a log line as long as
its body. A request's path is logged only as :func:`shown_path` shows it: decoded,
and cut at its first ``?``, ``;`` or ``#`` (a key sent as ``?api_key=...``,
``%3Fapi_key=...`` or ``;api_key=...`` is refused, but the log would otherwise keep
it). Two logging filters, installed by :func:`install_log_filters`, put the id on the
records of the ``prin_guard`` logger and of uvicorn's access log, and show the access
line's path that way.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any, Final
from urllib.parse import quote, unquote

from prin_guard._infra._events import log
from prin_guard._infra._redact import REDACTED, redact

__all__ = [
    "MAX_FIELD_CHARS",
    "REQUEST_ID",
    "AccessLogFilter",
    "RequestIdFilter",
    "bounded",
    "event",
    "install_log_filters",
    "request_id_from",
    "shown_path",
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
    """Emit the prin-guard event ``name`` with bounded fields (the request id is bound)."""
    emit = getattr(log(), level)
    emit(name, **{key: bounded(value) for key, value in fields.items()})


# Where a path stops being a path: a query, parameters, a fragment. The service reads
# none of them, so what follows is never shown (it may be a key).
_CUT: Final = re.compile(r"[?;#]")
_SAFE_CHARS: Final = "/:@!$&'()*+,=-._~[]?;#"


def shown_path(target: str) -> str:
    """A request target (path and query) as a log line may show it.

    Decoded first (``%3F`` is a ``?``, ``%253F`` too), then cut after its first ``?``,
    ``;`` or ``#`` (``/v1/verdicts?[redacted]``), encoded again (no space or line
    break reaches the line), bounded, and scrubbed (a configured key as a path
    segment is one of the secrets).
    """
    text = target
    for _ in range(4):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    cut = _CUT.search(text)
    if cut is not None:
        text = text[: cut.start() + 1] + REDACTED
    return redact(str(bounded(quote(text, safe=_SAFE_CHARS))))


class RequestIdFilter(logging.Filter):
    """Puts ``request_id`` on a record (``-`` outside a request), for formats that show it.

    prin-guard's events carry it in their text already (``_events`` binds it).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get() or "-"
        return True


class AccessLogFilter(RequestIdFilter):
    """uvicorn's access line with its path shown by :func:`shown_path`, and the id.

    uvicorn logs ``'%s - "%s %s HTTP/%s" %d'`` with the path and query as the
    third argument.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (*args[:2], shown_path(args[2]), *args[3:])
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
