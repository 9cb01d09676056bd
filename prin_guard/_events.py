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
whichever way it goes, by :func:`scrub`: credentials in URLs
(``scheme://user:pass@host``), ``Authorization`` values and bearer tokens,
``api_key=``/``password=``-like parameters, the values of ``*_API_KEY`` environment
variables, and the secrets a host registered with :func:`add_secrets` (the
server's API keys and Redis password). An event is scrubbed only once it is known
to be wanted: on the standard-library path, an event below the logger's level is
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
import os
import re
import sys
import threading
from collections.abc import Iterable, Mapping
from contextvars import ContextVar, Token
from typing import Any, Final

__all__ = [
    "REDACTED",
    "add_secrets",
    "bind_context",
    "bounded",
    "environment_api_keys",
    "log",
    "redact_secrets",
    "reset_context",
    "scrub",
]

_NAME = "prin_guard"
_std = logging.getLogger(_NAME)

REDACTED: Final = "[redacted]"

# -- scrubbing -------------------------------------------------------------------------

# scheme://user:pass@host (or scheme://token@host): everything between :// and @.
_URL_CREDENTIALS: Final = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/@'\"<>]+@")
# An Authorization header or field as text: "Authorization: Bearer x", "'authorization': 'x'",
# authorization=x. The scheme word is kept (it tells what kind of credential it was).
_AUTHORIZATION: Final = re.compile(
    r"(?i)(?P<name>\b(?:proxy-)?authorization['\"]?\s*[:=]\s*['\"]?)"
    r"(?:(?P<scheme>bearer|basic|token|digest)\s+)?[^\s'\",;}\]]+"
)
# A bare bearer token, wherever it is quoted.
_BEARER: Final = re.compile(r"(?i)\b(?P<scheme>bearer)\s+[A-Za-z0-9._~+/=-]{8,}")
# key=value and "key": "value" for parameter names that carry credentials.
_KEY_VALUE: Final = re.compile(
    r"(?i)(?P<name>\b(?:x-)?(?:api[_-]?key|access[_-]?token|secret|password|passwd)"
    r"['\"]?\s*[:=]\s*['\"]?)[^\s'\",;&}\]]+"
)
# What every pattern above needs somewhere in the text: most text has none of it, and
# one search is cheaper than four substitutions.
_TRIGGER: Final = re.compile(r"(?i)://|bearer|authoriz|api[_-]?key|access[_-]?token|secret|passw")
_MIN_SECRET: Final = 8
"""Shorter values of ``*_API_KEY`` variables are not scrubbed: replacing them would mangle
ordinary words, and a provider key is never that short."""


def _authorization(match: re.Match[str]) -> str:
    scheme = match.group("scheme")
    return match.group("name") + (f"{scheme} " if scheme else "") + REDACTED


def environment_api_keys(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of ``*_API_KEY`` variables in ``environ`` (provider keys), 8+ characters."""
    return tuple(
        value.strip()
        for name, value in environ.items()
        if name.upper().endswith("_API_KEY") and len(value.strip()) >= _MIN_SECRET
    )


class _Secrets:
    """The exact values to scrub: the registered secrets and the provider keys in
    ``os.environ``, longest first (so a secret containing another goes whole).

    The environment is read again only when it changed: a different number of
    variables, or another value of a ``*_API_KEY`` variable seen before.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._registered: frozenset[str] = frozenset()
        self._size = -1
        self._names: tuple[str, ...] = ()
        self._seen: tuple[str | None, ...] = ()
        self._values: tuple[str, ...] = ()

    def add(self, values: Iterable[str]) -> None:
        with self._lock:
            # Whatever its length: a host's secret is known to be one (a short Redis
            # password too), unlike a variable's value.
            self._registered |= {value for value in values if isinstance(value, str) and value}
            self._size = -1  # recompute

    def current(self) -> tuple[str, ...]:
        env = os.environ
        if len(env) != self._size or tuple(map(env.get, self._names)) != self._seen:
            with self._lock:
                names = tuple(name for name in env if name.upper().endswith("_API_KEY"))
                found = set(environment_api_keys({name: env.get(name) or "" for name in names}))
                self._values = tuple(sorted(found | self._registered, key=len, reverse=True))
                self._names, self._seen = names, tuple(map(env.get, names))
                self._size = len(env)
        return self._values


_secrets = _Secrets()


def add_secrets(values: Iterable[str]) -> None:
    """Scrub these values (the server's API keys, a Redis password) from every event
    and from :func:`redact_secrets`, for the rest of the process."""
    _secrets.add(values)


def redact_secrets(text: str) -> str:
    """``text`` with the exact secrets replaced (registered ones and provider keys),
    nothing else touched: for text that must otherwise reach its reader unchanged
    (a response body, whose item text may well say ``password=``)."""
    for secret in _secrets.current():
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def scrub(text: str) -> str:
    """``text`` with secrets replaced by ``[redacted]``: the exact ones
    (:func:`redact_secrets`), ``Authorization`` values (the scheme word stays), bearer
    tokens, ``api_key``/``password``-like parameters, and URL credentials
    (``scheme://user:pass@host`` → ``scheme://[redacted]@host``)."""
    text = redact_secrets(text)
    if _TRIGGER.search(text) is None:
        return text
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    text = _AUTHORIZATION.sub(_authorization, text)
    text = _BEARER.sub(lambda m: f"{m.group('scheme')} {REDACTED}", text)
    return _KEY_VALUE.sub(lambda m: m.group("name") + REDACTED, text)


def _scrubbed(value: Any) -> Any:
    """An event's field, scrubbed: text, and the text inside lists, tuples and dicts."""
    if isinstance(value, str):
        return scrub(value)
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
    return scrub(_key_values()(logger, method, event_dict))


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
        getattr(logger, method)(scrub(event), **fields)

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
