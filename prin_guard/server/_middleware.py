"""Request ids, API keys, the body size limit, disconnects and timing: one plain ASGI middleware.

The key is checked from the headers before the body is read, so a client
without a key never makes the server buffer a body. The body is then read here,
up to the limit, before the application sees it: a ``Content-Length`` over the
limit is refused at once, and a streamed (chunked) body is refused as soon as
it passes the limit. Paths not in the open set need a key, including unknown
ones, so the key also hides which paths exist (``/openapi.json`` too, unless
``docs_open``). ``/metrics`` needs the operator's metrics token instead
(:class:`MetricsAccess`: an API key gets 403), unless ``metrics_open``. A request
with two ``Authorization`` (or two ``X-API-Key``) headers is refused (400): no two
readers can disagree on which one counts.

Every response carries ``X-Request-ID`` (the client's, when it is a safe token),
and the id is in the context of everything logged while the request runs.

While the application works, the middleware listens for the client leaving:
when it does, the application's task is cancelled (and with it the judge calls
only this request was waiting for), and the request is counted with status 499.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from prin_guard._infra._events import bind_context, reset_context
from prin_guard._infra._json import dumps
from prin_guard.server._logs import REQUEST_ID, event, request_id_from, shown_path
from prin_guard.server._metrics import ServerMetrics

if TYPE_CHECKING:
    from contextvars import Token

    from opentelemetry.context import Context

__all__ = [
    "CLIENT_GONE",
    "METRICS_PATH",
    "ApiKeys",
    "GuardMiddleware",
    "MetricsAccess",
    "error_body",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_HINT = "send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
_CREDENTIAL_HEADERS = (b"authorization", b"x-api-key")

CLIENT_GONE = 499
"""The status a request is counted with when its client left before the answer (nginx's)."""


def error_body(kind: str, message: str, **extra: Any) -> bytes:
    """The JSON of an error response: ``{"error": {"type", "message", ...}}``."""
    error = {"type": kind, "message": message}
    error.update({k: v for k, v in extra.items() if v is not None})
    return dumps({"error": error}, ensure_ascii=False).encode()


class ApiKeys:
    """The configured keys, held as SHA-256 digests and compared in constant time."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._digests = [hashlib.sha256(key.encode()).digest() for key in keys]

    @property
    def enabled(self) -> bool:
        return bool(self._digests)

    def check(self, presented: str | None) -> bool:
        """Whether ``presented`` is one of the keys.

        Digests make every comparison the same length, and every configured key
        is compared (no early exit), so timing tells nothing about the keys.
        """
        if presented is None:
            return False
        digest = hashlib.sha256(presented.encode("utf-8", "surrogateescape")).digest()
        found = False
        for known in self._digests:
            found |= hmac.compare_digest(digest, known)
        return found

    @staticmethod
    def presented(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
        """The key a request carries: a Bearer token, else ``X-API-Key``."""
        bearer: str | None = None
        api_key: str | None = None
        for name, value in headers:
            lowered = name.lower()
            if lowered == b"authorization":
                text = value.decode("latin-1").strip()
                scheme, _, token = text.partition(" ")
                if scheme.lower() == "bearer" and token.strip():
                    bearer = token.strip()
            elif lowered == b"x-api-key":
                api_key = value.decode("latin-1").strip() or None
        return bearer if bearer is not None else api_key


METRICS_PATH = "/metrics"


class MetricsAccess:
    """Who reads ``/metrics``: the one decision, for the middleware and the route.

    The metrics count every key's traffic (verdicts, cache hits), so they are the
    operator's: with a ``metrics_token``, a request carrying it; no API key (403). Without
    one, nobody (403 to every key; 401 without a key), except when the service runs
    without keys at all (``allow_no_auth``), where every path is open. ``metrics_open``
    (decided by the caller) opens them to anyone.
    """

    def __init__(self, token: str | None, keys: ApiKeys) -> None:
        self._token = ApiKeys([token] if token is not None else [])
        self._keys = keys

    def refusal(self, presented: str | None) -> tuple[int, str, str] | None:
        """``None`` to serve the metrics, else the refusal's status, type and message."""
        if self._token.check(presented):
            return None
        if not self._token.enabled and not self._keys.enabled:
            return None  # no keys, no token: every path is open (allow_no_auth)
        if self._keys.check(presented):
            why = (
                "the metrics are the operator's: an API key does not read them; scrape "
                "with the metrics token (metrics_token, PRIN_GUARD_METRICS_TOKEN)"
                if self._token.enabled
                else "the metrics are the operator's and this service has no metrics token: "
                "set metrics_token (PRIN_GUARD_METRICS_TOKEN) and scrape with it"
            )
            return 403, "forbidden", why
        return 401, "unauthorized", "the metrics token is required: 'Authorization: Bearer <token>'"


class GuardMiddleware:
    """Refuse requests without a valid key (401) or with a body over the limit (413)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        keys: ApiKeys,
        metrics_access: MetricsAccess,
        open_paths: Collection[str],
        max_body_bytes: int,
        metrics: ServerMetrics,
        routes: Callable[[], Collection[str]],
    ) -> None:
        self.app = app
        self.keys = keys
        self.metrics_access = metrics_access
        self.open_paths = frozenset(open_paths)
        self.max_body_bytes = max_body_bytes
        self.metrics = metrics
        self._routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        request_id = request_id_from(scope.get("headers") or [])
        token = REQUEST_ID.set(request_id)
        context = bind_context(request_id=request_id)  # on every prin-guard event
        bound = _bind_structlog(request_id)
        # the caller's trace (W3C traceparent): verdict spans become children of its span
        traced = _attach_trace_context(scope.get("headers") or [])

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [
                    *message.get("headers", ()),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        try:
            if await self._handle(scope, receive, send_status):
                status = CLIENT_GONE
        finally:
            path = str(scope.get("path", ""))
            route = path if path in self._routes() else "unmatched"
            self.metrics.observe_request(
                str(scope.get("method", "")), route, status, time.perf_counter() - started
            )
            _detach_trace_context(traced)
            _unbind_structlog(bound)
            reset_context(context)
            REQUEST_ID.reset(token)

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Answer the request; True when the client left before its answer was sent."""
        headers: list[tuple[bytes, bytes]] = list(scope.get("headers") or [])
        path = str(scope.get("path", ""))
        repeated = _repeated(headers)
        if repeated is not None:
            await _respond(
                send,
                400,
                error_body(
                    "invalid_request",
                    f"more than one {repeated} header: send one",
                    field=f"headers.{repeated}",
                ),
            )
            return False
        if path == METRICS_PATH and path not in self.open_paths:
            refused = self.metrics_access.refusal(ApiKeys.presented(headers))
            if refused is not None:
                status, kind, why = refused
                event("warning", "metrics_refused", status=status)
                extra = (
                    [(b"www-authenticate", b'Bearer realm="prin-guard"')] if status == 401 else []
                )
                await _respond(send, status, error_body(kind, why), extra_headers=extra)
                return False
        elif path not in self.open_paths and self.keys.enabled:
            presented = ApiKeys.presented(headers)
            if not self.keys.check(presented):
                client = scope.get("client")
                event(
                    "warning",
                    "auth_failed",
                    reason="missing" if presented is None else "invalid",
                    path=shown_path(path),
                    client=client[0] if client else None,
                )
                await _respond(
                    send,
                    401,
                    error_body("unauthorized", f"a valid API key is required: {_HINT}"),
                    extra_headers=[(b"www-authenticate", b'Bearer realm="prin-guard"')],
                )
                return False
        length = _content_length(headers)
        if length == -1:
            await _respond(
                send, 400, error_body("invalid_request", "Content-Length is not a number")
            )
            return False
        if length is not None and length > self.max_body_bytes:
            await self._too_large(send, f"Content-Length is {length} bytes")
            return False
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                # the client left before sending its body: nothing to answer
                return True
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.max_body_bytes:
                await self._too_large(send, f"the body passed {self.max_body_bytes} bytes")
                return False
        return await self._run_app(scope, bytes(body), receive, send)

    async def _run_app(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> bool:
        """Run the application, cancelling it if the client disconnects first.

        Only this middleware reads from the client once the body is in: the
        application gets the body, then (should it ask again) the disconnect.
        """
        gone = asyncio.Event()
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def listen() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        app = asyncio.ensure_future(self.app(scope, replay, send))
        listener = asyncio.ensure_future(listen())
        try:
            await asyncio.wait((app, listener), return_when=asyncio.FIRST_COMPLETED)
            if app.done():
                app.result()  # re-raises what the application raised
                return False
            # The client left: nobody will read the answer, so stop working on it.
            app.cancel()
            await asyncio.wait((app,))  # its cleanup done; never re-raises its cancellation
            client = scope.get("client")
            event(
                "info",
                "client_disconnected",
                path=shown_path(str(scope.get("path", ""))),
                client=client[0] if client else None,
                status=CLIENT_GONE,
            )
            return True
        finally:
            for task in (app, listener):
                if not task.done():
                    task.cancel()

    async def _too_large(self, send: Send, what: str) -> None:
        await _respond(
            send,
            413,
            error_body(
                "body_too_large",
                f"request body too large: {what}; the limit is {self.max_body_bytes} bytes "
                "(max_body_bytes, PRIN_GUARD_MAX_BODY_BYTES)",
                limit="max_body_bytes",
                max=self.max_body_bytes,
            ),
            extra_headers=[(b"connection", b"close")],
        )


def _repeated(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The credential header sent more than once, if any."""
    seen: set[bytes] = set()
    for name, _ in headers:
        lowered = name.lower()
        if lowered in _CREDENTIAL_HEADERS:
            if lowered in seen:
                return lowered.decode()
            seen.add(lowered)
    return None


def _bind_structlog(request_id: str) -> Mapping[str, Any]:
    """The request id in structlog's context too, for the application's own events
    (those of a judge it wrote, say) when its pipeline merges structlog's contextvars."""
    import structlog

    return structlog.contextvars.bind_contextvars(request_id=request_id)


def _unbind_structlog(tokens: Mapping[str, Any]) -> None:
    import structlog

    structlog.contextvars.reset_contextvars(**tokens)


def _attach_trace_context(headers: Iterable[tuple[bytes, bytes]]) -> Token[Context]:
    """Make the trace context the request's headers carry current; a token to detach it."""
    from opentelemetry import context, propagate

    carrier = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in headers}
    return context.attach(propagate.extract(carrier))


def _detach_trace_context(token: Token[Context]) -> None:
    from opentelemetry import context

    context.detach(token)


def _content_length(headers: Iterable[tuple[bytes, bytes]]) -> int | None:
    """The declared length; None when absent, -1 when not a number."""
    for name, value in headers:
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


async def _respond(
    send: Send,
    status: int,
    body: bytes,
    *,
    extra_headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra_headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})
