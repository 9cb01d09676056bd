"""API keys, the body size limit and request timing, as one plain ASGI middleware.

The key is checked from the headers before the body is read, so a client
without a key never makes the server buffer a body. The body is then read here,
up to the limit, before the application sees it: a ``Content-Length`` over the
limit is refused at once, and a streamed (chunked) body is refused as soon as
it passes the limit. Paths not in the open set need a key, including unknown
ones, so the key also hides which paths exist.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, MutableMapping
from typing import Any

from prin_guard._events import log
from prin_guard.server._metrics import ServerMetrics

__all__ = ["ApiKeys", "GuardMiddleware", "error_body"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_HINT = "send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"


def error_body(kind: str, message: str, **extra: Any) -> bytes:
    """The JSON of an error response: ``{"error": {"type", "message", ...}}``."""
    error = {"type": kind, "message": message}
    error.update({k: v for k, v in extra.items() if v is not None})
    return json.dumps({"error": error}, ensure_ascii=False).encode()


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


class GuardMiddleware:
    """Refuse requests without a valid key (401) or with a body over the limit (413)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        keys: ApiKeys,
        open_paths: Collection[str],
        max_body_bytes: int,
        metrics: ServerMetrics,
        routes: Callable[[], Collection[str]],
    ) -> None:
        self.app = app
        self.keys = keys
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

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self._handle(scope, receive, send_status)
        finally:
            path = str(scope.get("path", ""))
            route = path if path in self._routes() else "unmatched"
            self.metrics.observe_request(
                str(scope.get("method", "")), route, status, time.perf_counter() - started
            )

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers: list[tuple[bytes, bytes]] = list(scope.get("headers") or [])
        path = str(scope.get("path", ""))
        if path not in self.open_paths and self.keys.enabled:
            presented = ApiKeys.presented(headers)
            if not self.keys.check(presented):
                client = scope.get("client")
                log().warning(
                    "auth_failed",
                    reason="missing" if presented is None else "invalid",
                    path=path,
                    client=client[0] if client else None,
                )
                await _respond(
                    send,
                    401,
                    error_body("unauthorized", f"a valid API key is required: {_HINT}"),
                    extra_headers=[(b"www-authenticate", b'Bearer realm="prin-guard"')],
                )
                return
        length = _content_length(headers)
        if length == -1:
            await _respond(
                send, 400, error_body("invalid_request", "Content-Length is not a number")
            )
            return
        if length is not None and length > self.max_body_bytes:
            await self._too_large(send, f"Content-Length is {length} bytes")
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                # the client left before sending its body: nothing to answer
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.max_body_bytes:
                await self._too_large(send, f"the body passed {self.max_body_bytes} bytes")
                return
        await self.app(scope, _replay(bytes(body), receive), send)

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


def _content_length(headers: Iterable[tuple[bytes, bytes]]) -> int | None:
    """The declared length; None when absent, -1 when not a number."""
    for name, value in headers:
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


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
