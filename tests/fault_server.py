"""A scripted OpenAI-compatible HTTP server, for testing judges against real clients.

The server listens on 127.0.0.1 on a free port, in a background thread. Each
``POST /v1/chat/completions`` takes the next behaviour from a queue (or, when the
queue is empty, asks the ``responder`` function, which sees the request), so a
test can script "a 429, then a 500, then an answer". ``GET /v1/models`` lists one
model. Every request is recorded with its headers and its parsed JSON body::

    with FaultServer() as server:
        server.script(rate_limited(retry_after="2"), ok("Answer: A"))
        ...  # point a client at server.base_url
        assert server.requests[0].headers["authorization"] == "Bearer sk-..."

Behaviours: :func:`ok`, :func:`error` (any status, with headers),
:func:`rate_limited`, :func:`server_error`, :func:`unavailable`,
:func:`unauthorized`, :func:`bad_request`, :func:`slow`, :func:`malformed`,
:func:`empty_choices`, :func:`null_content`.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "Behaviour",
    "FaultServer",
    "RecordedRequest",
    "bad_request",
    "empty_choices",
    "error",
    "malformed",
    "null_content",
    "ok",
    "rate_limited",
    "server_error",
    "slow",
    "trickle",
    "unauthorized",
    "unavailable",
]

DEFAULT_USAGE = {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    """Header names in lower case."""
    body: Any
    """The JSON body, parsed (``None`` for a GET or a body that is not JSON)."""
    raw_body: bytes = b""

    @property
    def prompt(self) -> str:
        """The content of the last message, for a chat completion request (its text
        blocks joined, when it is a list of blocks)."""
        if not isinstance(self.body, dict):
            return ""
        messages = self.body.get("messages") or [{}]
        content = messages[-1].get("content", "")
        if isinstance(content, list):
            texts = [block.get("text") for block in content if isinstance(block, dict)]
            if all(isinstance(text, str) for text in texts):
                return "".join(texts)  # type: ignore[arg-type]
        return content if isinstance(content, str) else json.dumps(content)

    @property
    def is_reverse(self) -> bool:
        """Whether the prompt asks prin-guard's reverse question."""
        first_line = self.prompt.lower()
        return any(
            word in first_line for word in ("incorrect ones", "wrong ones", "inappropriate ones")
        )


@dataclass(frozen=True)
class Behaviour:
    """How the server answers one request."""

    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (interrupted when the server stops)."""
    trickle: float = 0.0
    """Seconds between the bytes of the body, when set: each read is quick, the whole is not."""
    name: str = "ok"
    chunks: tuple[tuple[float, bytes], ...] = ()
    """A streamed body instead of ``body``: each part sent after its delay (seconds)."""
    on_first_byte: Callable[[], None] | None = None
    """Called just before the first byte of the body is sent (the provider has begun
    answering: a prompt cache entry is ready then)."""


def _completion(message: Mapping[str, Any] | None, usage: Mapping[str, int] | None) -> bytes:
    payload: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "test-model",
        "choices": (
            []
            if message is None
            else [{"index": 0, "message": dict(message), "finish_reason": "stop"}]
        ),
    }
    if usage is not None:
        payload["usage"] = dict(usage)
    return json.dumps(payload).encode()


_JSON = {"Content-Type": "application/json"}


def ok(text: str | None = "Answer: A", usage: Mapping[str, int] | None = None) -> Behaviour:
    """A normal completion with ``text`` as the assistant's content."""
    body = _completion({"role": "assistant", "content": text}, usage or DEFAULT_USAGE)
    return Behaviour(200, body, _JSON, name="ok")


def null_content(usage: Mapping[str, int] | None = None) -> Behaviour:
    """A completion whose message has ``content: null``."""
    return ok(None, usage)


def empty_choices(usage: Mapping[str, int] | None = None) -> Behaviour:
    """A 200 whose ``choices`` list is empty."""
    return Behaviour(200, _completion(None, usage or DEFAULT_USAGE), _JSON, name="empty_choices")


def malformed() -> Behaviour:
    """A 200 whose body is not JSON (a truncated reply, or a proxy's HTML page)."""
    return Behaviour(200, b'{"id": "chatcmpl-test", "choices": [{"ind', _JSON, name="malformed")


def error(
    status: int,
    message: str = "error",
    *,
    headers: Mapping[str, str] | None = None,
    kind: str = "server_error",
) -> Behaviour:
    """An error status with an OpenAI-style error body."""
    body = json.dumps({"error": {"message": message, "type": kind, "code": str(status)}})
    return Behaviour(status, body.encode(), {**_JSON, **(headers or {})}, name=f"http_{status}")


def rate_limited(retry_after: str | None = "2") -> Behaviour:
    """A 429, with a ``Retry-After`` header unless ``retry_after`` is None."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return error(429, "Rate limit reached", headers=headers, kind="rate_limit_error")


def server_error() -> Behaviour:
    return error(500, "The server had an error while processing your request")


def unavailable() -> Behaviour:
    return error(503, "The server is overloaded")


def unauthorized() -> Behaviour:
    return error(401, "Incorrect API key provided", kind="invalid_request_error")


def bad_request() -> Behaviour:
    return error(400, "Invalid value for 'messages'", kind="invalid_request_error")


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Answer like ``then`` (default: :func:`ok`), but only after ``seconds``."""
    base = then or ok()
    return Behaviour(base.status, base.body, base.headers, delay=seconds, name="slow")


def trickle(interval: float = 0.2, then: Behaviour | None = None) -> Behaviour:
    """Send the headers at once, then the body one byte every ``interval`` seconds."""
    base = then or ok()
    return Behaviour(base.status, base.body, base.headers, trickle=interval, name="trickle")


Responder = Callable[[RecordedRequest], Behaviour]


class FaultServer:
    """The scripted server. Use as a context manager, or call start() and stop()."""

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder: Responder = responder or (lambda _request: ok())
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- scripting ----------------------------------------------------------------

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next chat completion requests, in order."""
        with self._lock:
            self._queue.extend(behaviours)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat completion requests received, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith(("/chat/completions", "/messages"))]

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    def _next(self, request: RecordedRequest) -> Behaviour:
        with self._lock:
            self.requests.append(request)
            if self._queue:
                return self._queue.popleft()
        return self.responder(request)

    # -- lifecycle ----------------------------------------------------------------

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FaultServer:
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fault-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes slow handlers
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ---------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None  # keep test output quiet

            def _record(self, body: bytes) -> RecordedRequest:
                try:
                    parsed = json.loads(body) if body else None
                except ValueError:
                    parsed = None
                return RecordedRequest(
                    method=self.command,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=parsed,
                    raw_body=body,
                )

            def _send(self, behaviour: Behaviour) -> None:
                if behaviour.delay and server._stopping.wait(behaviour.delay):
                    self.close_connection = True
                    return
                if behaviour.chunks:
                    self._stream(behaviour)
                    return
                if behaviour.on_first_byte is not None:
                    behaviour.on_first_byte()
                try:
                    self.send_response(behaviour.status)
                    for name, value in behaviour.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(behaviour.body)))
                    self.end_headers()
                    if not behaviour.trickle:
                        self.wfile.write(behaviour.body)
                        return
                    for index in range(len(behaviour.body)):
                        self.wfile.write(behaviour.body[index : index + 1])
                        self.wfile.flush()
                        if server._stopping.wait(behaviour.trickle):
                            self.close_connection = True
                            return
                except (BrokenPipeError, ConnectionResetError):
                    # the client gave up (a timeout): nothing to answer
                    self.close_connection = True

            def _stream(self, behaviour: Behaviour) -> None:
                total = sum(len(part) for _, part in behaviour.chunks)
                try:
                    self.send_response(behaviour.status)
                    for name, value in behaviour.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(total))
                    self.end_headers()
                    self.wfile.flush()
                    for index, (delay, part) in enumerate(behaviour.chunks):
                        if delay and server._stopping.wait(delay):
                            self.close_connection = True
                            return
                        if index == 0 and behaviour.on_first_byte is not None:
                            behaviour.on_first_byte()
                        self.wfile.write(part)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

            def do_GET(self) -> None:
                request = self._record(b"")
                with server._lock:
                    server.requests.append(request)
                if self.path.rstrip("/").endswith("/models"):
                    body = json.dumps(
                        {
                            "object": "list",
                            "data": [{"id": "test-model", "object": "model", "owned_by": "test"}],
                        }
                    ).encode()
                    self._send(Behaviour(200, body, _JSON))
                else:
                    self._send(error(404, f"no route {self.path}", kind="not_found"))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = self._record(body)
                if not self.path.rstrip("/").endswith(("/chat/completions", "/messages")):
                    with server._lock:
                        server.requests.append(request)
                    self._send(error(404, f"no route {self.path}", kind="not_found"))
                    return
                self._send(server._next(request))

        return Handler


# -- streamed and Anthropic replies --------------------------------------------------------


def _sse(events: list[tuple[str | None, Mapping[str, Any] | str]]) -> list[bytes]:
    out = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        out.append(((f"event: {name}\n" if name else "") + f"data: {text}\n\n").encode())
    return out


_SSE = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}


def openai_stream(
    text: str = "Answer: A",
    usage: Mapping[str, Any] | None = None,
    *,
    first_delay: float = 0.0,
    gap: float = 0.0,
    on_first_byte: Callable[[], None] | None = None,
    with_usage: bool = True,
    finish: bool = True,
) -> Behaviour:
    """A streamed OpenAI chat completion (``stream: true``): ``text`` in two pieces, then
    a chunk with the usage (as ``stream_options.include_usage`` asks; none without
    ``with_usage``), then ``[DONE]``. Without ``finish``: cut short after the first piece
    (no finish reason), as llama-cpp-python's server cuts a stream when another request
    waits."""
    base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0}
    base["model"] = "test-model"
    half = max(1, len(text) // 2)
    events: list[tuple[str | None, Mapping[str, Any] | str]] = [
        (
            None,
            {
                **base,
                "choices": [{"index": 0, "delta": {"role": "assistant", "content": text[:half]}}],
            },
        ),
        (None, {**base, "choices": [{"index": 0, "delta": {"content": text[half:]}}]}),
        (None, {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        (None, {**base, "choices": [], "usage": dict(usage or DEFAULT_USAGE)}),
        (None, "[DONE]"),
    ]
    if not with_usage:
        del events[3]
    if not finish:
        events = [events[0], (None, "[DONE]")]
    parts = _sse(events)
    chunks = tuple((first_delay if i == 0 else gap, part) for i, part in enumerate(parts))
    return Behaviour(200, b"", _SSE, chunks=chunks, on_first_byte=on_first_byte, name="stream")


ANTHROPIC_USAGE = {"input_tokens": 12, "output_tokens": 3}


def anthropic_message(
    text: str = "Answer: A",
    usage: Mapping[str, Any] | None = None,
    *,
    on_first_byte: Callable[[], None] | None = None,
) -> Behaviour:
    """An Anthropic Messages API reply (``POST /v1/messages``)."""
    body = {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": dict(usage or ANTHROPIC_USAGE),
    }
    return Behaviour(200, json.dumps(body).encode(), _JSON, on_first_byte=on_first_byte)


def anthropic_stream(
    text: str = "Answer: A",
    usage: Mapping[str, Any] | None = None,
    *,
    first_delay: float = 0.0,
    gap: float = 0.0,
    on_first_byte: Callable[[], None] | None = None,
) -> Behaviour:
    """A streamed Anthropic Messages API reply: message_start (with the prompt's usage),
    the text in one delta, message_delta (with the output tokens), message_stop."""
    given = dict(usage or ANTHROPIC_USAGE)
    output = given.pop("output_tokens", 3)
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {**given, "output_tokens": 1},
        },
    }
    events: list[tuple[str | None, Mapping[str, Any] | str]] = [
        ("message_start", start),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": text},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": output},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    parts = _sse(events)
    chunks = tuple((first_delay if i == 0 else gap, part) for i, part in enumerate(parts))
    return Behaviour(200, b"", _SSE, chunks=chunks, on_first_byte=on_first_byte, name="stream")
