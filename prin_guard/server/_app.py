"""The HTTP service: ``create_app(config)`` builds the FastAPI application.

One judge and one cache per worker process, built at startup (the lifespan) or
injected, behind one :class:`~prin_guard.JudgeCaller`: one single flight and one
limit (``concurrency`` calls in flight per worker) for every request. One
:class:`~prin_guard.Guard` per distinct combination of options (a
:class:`~prin_guard.GuardOptions` with the server's ``max_chars``), all asking
through that caller; the judge under it counts and times every call.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.params import Depends
from fastapi.responses import Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException

from prin_guard._calls import JudgeCaller
from prin_guard._events import log
from prin_guard._exceptions import InvalidItemError, JudgeError, UsageError
from prin_guard._guard import Guard
from prin_guard._models import Flag, Item, Verdict, VerdictError
from prin_guard._options import GuardOptions
from prin_guard.cache import Cache, MemoryCache
from prin_guard.judges import Judge, JudgeResponse, Message, judge_from_spec
from prin_guard.server._config import ServerConfig
from prin_guard.server._metrics import ServerMetrics
from prin_guard.server._middleware import ApiKeys, GuardMiddleware, error_body
from prin_guard.server._schemas import (
    BatchVerdictResponse,
    ErrorResponse,
    HealthResponse,
    SingleVerdictResponse,
    VerdictOptions,
    VerdictRequest,
)

__all__ = ["FROM_CONFIG", "check_servable", "create_app"]

_MAX_GUARDS: Final = 64
_DOC_PATHS: Final = ("/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc")
_STATUS_TYPES: Final = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    503: "unavailable",
}


class _Default(enum.Enum):
    FROM_CONFIG = "from_config"


FROM_CONFIG: Final = _Default.FROM_CONFIG
"""``create_app(cache=FROM_CONFIG)``: build the cache from the configuration at startup."""


class _MeteredJudge:
    """The app's judge, with every call counted by outcome and timed.

    Same identity as the judge it wraps, so cache keys do not change. It has no
    limit of its own: the worker's JudgeCaller admits ``concurrency`` calls at a
    time, so only calls that reach the judge are timed (never a wait for a slot).
    """

    def __init__(self, inner: Judge, metrics: ServerMetrics) -> None:
        self.inner = inner
        self._metrics = metrics

    def identity(self) -> Mapping[str, Any]:
        return self.inner.identity()

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        started = time.perf_counter()
        try:
            response = await self.inner.complete(messages, labels=labels)
        except asyncio.CancelledError:
            self._metrics.observe_judge_call("cancelled", started)
            raise
        except BaseException:
            self._metrics.observe_judge_call("error", started)
            raise
        self._metrics.observe_judge_call("ok", started)
        return response


@dataclass
class _State:
    config: ServerConfig
    metrics: ServerMetrics
    judge: Judge | None
    cache: Cache | _Default | None
    secrets: tuple[str, ...]
    cache_owned: bool = False
    caller: JudgeCaller | None = None
    """The worker's one call layer (cache, single flight, limit), shared by every guard."""
    guards: OrderedDict[tuple[Any, ...], Guard] = field(default_factory=OrderedDict)

    @property
    def ready(self) -> bool:
        return self.caller is not None

    def live_cache(self) -> Cache | None:
        return None if isinstance(self.cache, _Default) else self.cache

    async def start(self) -> None:
        if self.judge is None:
            # Loading a local model takes seconds: off the event loop.
            self.judge = await asyncio.to_thread(build_judge, self.config)
        if isinstance(self.cache, _Default):
            self.cache = _build_cache(self.config)
            self.cache_owned = True
        self.caller = JudgeCaller(
            _MeteredJudge(self.judge, self.metrics),
            cache=self.live_cache(),
            concurrency=self.config.concurrency,
        )
        log().info("server_started", judge=_public_identity(self.judge))

    async def stop(self) -> None:
        cache = self.live_cache()
        if self.cache_owned and cache is not None:
            closer = getattr(cache, "aclose", None)
            if closer is not None:
                await closer()

    def options(self, requested: VerdictOptions) -> GuardOptions:
        """The guard options of a request: the client's, with the server's own limits."""
        return requested.to_options(max_chars=self.config.max_chars, on_inconsistent="flag")

    def guard(self, options: GuardOptions) -> Guard:
        """The guard for these options (created on first use, least recently used evicted).

        Guards are cheap (a template, a key scope): everything costly is the caller's,
        which every guard shares.
        """
        key = options.key()
        found = self.guards.get(key)
        if found is not None:
            self.guards.move_to_end(key)
            return found
        assert self.caller is not None
        made = Guard(self.caller, options=options)
        self.guards[key] = made
        while len(self.guards) > _MAX_GUARDS:
            self.guards.popitem(last=False)
        return made

    def scrub(self, text: str) -> str:
        """``text`` with every configured secret replaced (keys, the Redis password)."""
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def json(self, status: int, content: str | bytes, **headers: str) -> Response:
        text = content.decode() if isinstance(content, bytes) else content
        return Response(
            self.scrub(text), status_code=status, media_type="application/json", headers=headers
        )


def build_judge(config: ServerConfig) -> Judge:
    """The configured judge, spelled as :func:`~prin_guard.judges.judge_from_spec` reads it."""
    return judge_from_spec(config.judge, api_base=config.api_base, structured=config.structured)


def _build_cache(config: ServerConfig) -> Cache:
    if config.redis_url is None:
        return MemoryCache()
    from prin_guard.cache import RedisCache

    return RedisCache.from_url(
        config.redis_url.get_secret_value(),
        namespace=config.redis_namespace,
        ttl=config.cache_ttl,
    )


def _public_identity(judge: Judge) -> dict[str, Any]:
    """What /healthz may tell anyone: the judge's kind and model or name, nothing else."""
    identity = dict(judge.identity())
    shown = {"kind": identity.get("kind")}
    for name in ("model", "name"):
        if isinstance(identity.get(name), str):
            shown[name] = identity[name]
    return shown


def check_servable(config: ServerConfig) -> None:
    """Raise :class:`~prin_guard.UsageError` when ``config`` must not be served."""
    if not config.api_keys and not config.allow_no_auth:
        raise UsageError(
            "no API keys configured: set PRIN_GUARD_API_KEYS (or api_keys in the config "
            "file), or set allow_no_auth=true to serve without authentication"
        )


def create_app(
    config: ServerConfig,
    *,
    judge: Judge | None = None,
    cache: Cache | _Default | None = FROM_CONFIG,
) -> FastAPI:
    """The prin-guard HTTP service for ``config``.

    ``judge`` and ``cache`` are built from the configuration at startup unless
    given (``cache=None``: no cache). Raises :class:`~prin_guard.UsageError` when
    no API key is configured and ``allow_no_auth`` is not set.
    """
    check_servable(config)
    if judge is not None and not isinstance(judge, Judge):
        raise UsageError(f"judge: expected a Judge, got {type(judge).__name__}")
    metrics = ServerMetrics()
    state = _State(
        config=config, metrics=metrics, judge=judge, cache=cache, secrets=config.secrets()
    )
    keys = ApiKeys(key.get_secret_value() for key in config.api_keys)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await state.start()
        try:
            yield
        finally:
            await state.stop()

    from prin_guard import __version__

    app = FastAPI(
        title="prin-guard",
        version=__version__,
        description="Ask an LLM judge which candidates are correct *and* which are incorrect, "
        "keep what both answers agree on, and flag where the judge contradicts itself "
        "(Prompt-Reverse Inconsistency).",
        lifespan=lifespan,
    )
    app.state.prin_guard = state

    bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <key>")
    header_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="X-API-Key: <key>")

    async def require_key(
        credentials: HTTPAuthorizationCredentials | None = Security(bearer),  # noqa: B008
        api_key: str | None = Security(header_key),
    ) -> None:
        # The middleware already refused requests without a valid key; this keeps
        # the routes safe should they ever be mounted without it, and documents
        # the schemes in the OpenAPI schema.
        presented = credentials.credentials if credentials is not None else api_key
        if keys.enabled and not keys.check(presented):
            raise StarletteHTTPException(401, "a valid API key is required")

    secured: list[Depends] = [Security(require_key)] if keys.enabled else []
    metrics_deps = [] if config.metrics_open else secured
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorResponse} for code in (401, 413, 422, 502, 503, 504)
    }

    @app.post(
        "/v1/verdicts",
        response_model=SingleVerdictResponse | BatchVerdictResponse,
        responses=errors,
        dependencies=secured,
        summary="Judge one item or a batch",
        description="Send `item` for one verdict or `items` for a batch (at most `max_batch`). "
        "A bad single item is a 422 naming the field; in a batch it gets a verdict flagged "
        "`invalid_item` and an entry in `errors`. A judge that fails is a 502 for a single "
        "item and a verdict flagged `judge_error` in a batch.",
    )
    async def verdicts(body: VerdictRequest) -> Response:
        if not state.ready:
            return state.json(503, error_body("unavailable", "the service is starting"))
        try:
            guard = state.guard(state.options(body.options))
        except UsageError as exc:
            # The request model checked each field; what is left (a check across
            # fields, the guard's own) names its field as "field: reason".
            named, sep, reason = str(exc).partition(": ")
            if sep and named.isidentifier():
                where, message = f"options.{named}", f"options.{named}: {reason}"
            else:
                where, message = "options", f"options: {exc}"
            return state.json(422, error_body("invalid_request", message, field=where))
        try:
            if body.items is not None:
                return await _batch(state, guard, body.items)
            return await _single(state, guard, body.item)
        finally:
            metrics.sync_cache(state.live_cache())

    @app.get("/healthz", response_model=HealthResponse, summary="Liveness and dependencies")
    async def healthz() -> Response:
        if not state.ready or state.judge is None:
            return state.json(503, error_body("unavailable", "the service is starting"))
        redis = "not_configured"
        live = state.live_cache()
        ping = getattr(live, "ping", None)
        if ping is not None:
            try:
                async with asyncio.timeout(2.0):
                    redis = "ok" if await ping() else "unreachable"
            except TimeoutError:
                redis = "unreachable"
        health = HealthResponse(
            status="ok" if redis != "unreachable" else "degraded",
            judge={**_public_identity(state.judge), "status": "ok"},
            redis=redis,
            version=__version__,
        )
        return state.json(200, health.model_dump_json())

    @app.get(
        "/metrics",
        dependencies=metrics_deps,
        response_class=Response,
        responses={200: {"content": {"text/plain": {}}}, 401: {"model": ErrorResponse}},
        summary="Prometheus metrics",
    )
    async def prometheus() -> Response:
        metrics.sync_cache(state.live_cache())
        content, content_type = metrics.render()
        return Response(content, media_type=content_type)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> Response:
        details = []
        for error in exc.errors():
            loc = [str(part) for part in error.get("loc", ()) if part != "body"]
            details.append(
                {
                    "field": ".".join(loc) or "body",
                    "message": str(error.get("msg", "")).removeprefix("Value error, "),
                    "type": error.get("type"),
                }
            )
        first = details[0] if details else {"field": "body", "message": "invalid request"}
        return state.json(
            422,
            error_body(
                "invalid_request",
                f"{first['field']}: {first['message']}",
                field=first["field"],
                errors=details,
            ),
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> Response:
        kind = _STATUS_TYPES.get(exc.status_code, "http_error")
        headers = {"WWW-Authenticate": "Bearer"} if exc.status_code == 401 else {}
        return state.json(exc.status_code, error_body(kind, str(exc.detail)), **headers)

    @app.exception_handler(Exception)
    async def internal_error(_: Request, exc: Exception) -> Response:
        log().error("server_error", error=state.scrub(f"{type(exc).__name__}: {exc}"))
        return state.json(500, error_body("internal_error", "internal server error"))

    routes = frozenset(getattr(route, "path", "") for route in app.routes)
    app.add_middleware(
        GuardMiddleware,
        keys=keys,
        open_paths={"/healthz", *_DOC_PATHS, *(["/metrics"] if config.metrics_open else [])},
        max_body_bytes=config.max_body_bytes,
        metrics=metrics,
        routes=lambda: routes,
    )
    if config.cors_origins:
        # Outermost, so that a browser's preflight (which carries no key) is answered.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type"],
            allow_credentials=False,
            max_age=600,
        )
    return app


async def _single(state: _State, guard: Guard, raw: Any) -> Response:
    config = state.config
    try:
        item = Item.coerce(raw, max_chars=config.max_chars)
    except InvalidItemError as exc:
        return state.json(
            422,
            error_body("invalid_item", str(exc), field=exc.field, reason=exc.reason),
        )
    started = time.perf_counter()
    try:
        async with asyncio.timeout(config.request_timeout):
            verdict = await guard.acheck(item)
    except JudgeError as exc:
        state.metrics.verdicts.labels("judge_error").inc()
        return state.json(502, error_body("judge_error", f"the judge failed: {exc}"))
    except TimeoutError:
        state.metrics.verdicts.labels("judge_error").inc()
        return state.json(
            504,
            error_body(
                "timeout",
                f"no verdict within {config.request_timeout:g} s "
                "(request_timeout, PRIN_GUARD_REQUEST_TIMEOUT)",
                limit="request_timeout",
            ),
        )
    state.metrics.observe_verdict(verdict, time.perf_counter() - started)
    return state.json(200, '{"verdict":' + verdict.model_dump_json() + "}")


async def _batch(state: _State, guard: Guard, raws: list[Any]) -> Response:
    config = state.config
    if len(raws) > config.max_batch:
        return state.json(
            413,
            error_body(
                "batch_too_large",
                f"the batch has {len(raws)} items; the limit is {config.max_batch} "
                "(max_batch, PRIN_GUARD_MAX_BATCH)",
                limit="max_batch",
                max=config.max_batch,
            ),
        )
    started = time.perf_counter()
    results: dict[int, Verdict] = {}
    try:
        async with asyncio.timeout(config.request_timeout):
            async for index, verdict in guard.astream(raws):
                results[index] = verdict
                state.metrics.observe_verdict(verdict, time.perf_counter() - started)
    except TimeoutError:
        for index, raw in enumerate(raws):
            if index not in results:
                verdict = _timed_out(raw, config)
                results[index] = verdict
                state.metrics.observe_verdict(verdict, None)
    ordered = [results[index] for index in range(len(raws))]
    errors = [
        {
            "index": index,
            "kind": verdict.error.kind,
            "field": verdict.error.field,
            "reason": _reason(verdict.error),
        }
        for index, verdict in enumerate(ordered)
        if verdict.error is not None
    ]
    body = (
        '{"verdicts":['
        + ",".join(verdict.model_dump_json() for verdict in ordered)
        + '],"errors":'
        + json.dumps(errors, ensure_ascii=False)
        + "}"
    )
    return state.json(200, body)


def _reason(error: VerdictError) -> str:
    if error.field is not None:
        return error.message.removeprefix(f"{error.field}: ")
    return error.message


def _timed_out(raw: Any, config: ServerConfig) -> Verdict:
    item_id: str = "?"
    labels: tuple[str, ...] = ()
    with contextlib.suppress(InvalidItemError):  # invalid items never wait, but still
        item = Item.coerce(raw, max_chars=config.max_chars)
        item_id, labels = item.key, item.labels
    return Verdict(
        item_id=item_id,
        labels=labels,
        flags=(Flag.JUDGE_ERROR,),
        error=VerdictError(
            kind="judge",
            message=f"no verdict within {config.request_timeout:g} s (request_timeout)",
        ),
    )
