"""The HTTP service: ``create_app(config)`` builds the FastAPI application.

One judge and one cache per worker process, built at startup (the lifespan) or
injected, behind one :class:`~prin_guard.JudgeCaller`: one single flight and one
limit (``concurrency`` calls in flight per worker) for every request. One
:class:`~prin_guard.Guard` per distinct combination of options (a
:class:`~prin_guard.GuardOptions` with the server's ``max_chars``), all asking
through that caller; the judge under it counts and times every call.

Synchronous function judges run on the worker's own bounded thread pool
(``judge_threads``), set as the event loop's default executor at startup. A
judge failure reaches the client as an error kind and the request id only; its
text, scrubbed of secrets, goes to the log (``judge_failed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, Final

from fastapi import FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.params import Depends
from fastapi.responses import Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException

from prin_guard._exceptions import InvalidItemError, JudgeError, UsageError
from prin_guard._guard import Guard
from prin_guard._models import Flag, Item, Verdict, VerdictError
from prin_guard.cache import Cache
from prin_guard.judges import Judge
from prin_guard.server._config import ServerConfig, provider_keys_from_env
from prin_guard.server._limits import key_identity
from prin_guard.server._logs import REQUEST_ID, event, install_log_filters
from prin_guard.server._metrics import ServerMetrics
from prin_guard.server._middleware import ApiKeys, GuardMiddleware, error_body
from prin_guard.server._schemas import (
    BatchVerdictResponse,
    ErrorResponse,
    HealthResponse,
    ReadyResponse,
    SingleVerdictResponse,
    VerdictRequest,
)
from prin_guard.server._scrub import Scrubber
from prin_guard.server._state import (
    FROM_CONFIG,
    _Default,
    _public_identity,
    _State,
    check_servable,
    judge_threads,
)

__all__ = ["FROM_CONFIG", "check_servable", "create_app", "judge_threads"]

_SCHEMA_PATH: Final = "/openapi.json"
_STATUS_TYPES: Final = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    503: "unavailable",
}


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
    install_log_filters()
    metrics = ServerMetrics()
    state = _State(
        config=config,
        metrics=metrics,
        judge=judge,
        cache=cache,
        scrub=Scrubber((*config.secrets(), *provider_keys_from_env())),
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
        # No Swagger UI or ReDoc: their pages load scripts from a public CDN. The
        # schema stays at /openapi.json (behind a key unless docs_open).
        docs_url=None,
        redoc_url=None,
        openapi_url=_SCHEMA_PATH,
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
        code: {"model": ErrorResponse} for code in (401, 413, 422, 429, 502, 503, 504)
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
        "item and a verdict flagged `judge_error` in a batch; either way the client gets "
        "the request id (`X-Request-ID`), and the server log has the judge's error.",
    )
    async def verdicts(body: VerdictRequest, request: Request) -> Response:
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
        # Limits count a hash of the key, never the key (None: auth off, one identity).
        identity = key_identity(ApiKeys.presented(request.headers.raw) if keys.enabled else None)
        refused = await _admit(state, identity, body.items)
        if refused is not None:
            return refused
        try:
            if body.items is not None:
                return await _batch(state, guard, body.items, identity)
            return await _single(state, guard, body.item, identity)
        finally:
            metrics.sync_cache(state.live_cache())

    @app.get("/healthz", response_model=HealthResponse, summary="Liveness and dependencies")
    async def healthz() -> Response:
        if not state.ready or state.judge is None:
            return state.json(503, error_body("unavailable", "the service is starting"))
        redis = await state.redis_status()
        health = HealthResponse(
            status="ok" if redis != "unreachable" else "degraded",
            judge={**_public_identity(state.judge), "status": "ok"},
            redis=redis,
            version=__version__,
        )
        return state.json(200, health.model_dump_json())

    @app.get(
        "/readyz",
        response_model=ReadyResponse,
        responses={503: {"model": ReadyResponse}},
        summary="Readiness: can this worker serve verdicts now",
        description="200 when the judge is built, the worker has started and the Redis "
        "cache (if configured) answers a ping; 503 with a reason while starting, while "
        "shutting down (draining the requests in flight) or with Redis down. Open, like "
        "`/healthz` (which is liveness only).",
    )
    async def readyz() -> Response:
        reason = await state.not_ready()
        if reason is not None:
            ready = ReadyResponse(status="not_ready", reason=reason)
            return state.json(503, ready.model_dump_json())
        return state.json(200, ReadyResponse(status="ready").model_dump_json(exclude_none=True))

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
            message = str(error.get("msg", "")).removeprefix("Value error, ")
            if error.get("type") == "json_invalid":
                # FastAPI puts the character offset where the field goes: say "body",
                # and give the position in the message.
                loc = error.get("loc", ())
                position = loc[-1] if loc and isinstance(loc[-1], int) else None
                reason = (error.get("ctx") or {}).get("error")
                details.append(
                    {
                        "field": "body",
                        "message": "not valid JSON"
                        + (f" at position {position}" if position is not None else "")
                        + (f": {reason}" if reason else ""),
                        "type": "json_invalid",
                    }
                )
                continue
            loc = [str(part) for part in error.get("loc", ()) if part != "body"]
            details.append(
                {
                    "field": ".".join(loc) or "body",
                    "message": message,
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
        event("error", "server_error", error=state.scrub(f"{type(exc).__name__}: {exc}"))
        return state.json(500, error_body("internal_error", "internal server error"))

    routes = frozenset(getattr(route, "path", "") for route in app.routes)
    open_paths = {"/healthz", "/readyz"}
    if config.metrics_open:
        open_paths.add("/metrics")
    if config.docs_open:
        open_paths.add(_SCHEMA_PATH)
    app.add_middleware(
        GuardMiddleware,
        keys=keys,
        open_paths=open_paths,
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
            allow_headers=["Authorization", "X-API-Key", "Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID"],
            allow_credentials=False,
            max_age=600,
        )
    return app


async def _admit(state: _State, identity: str, items: list[Any] | None) -> Response | None:
    """A 429 when the key is over its rate limit or daily budget; None to go on.

    A batch counts one hit per item. A batch over ``max_batch`` is left to its 413.
    """
    if state.limits is None or (items is not None and len(items) > state.config.max_batch):
        return None
    refused = await state.limits.admit(identity, 1 if items is None else len(items))
    if refused is None:
        return None
    state.metrics.limited.labels(refused.kind).inc()
    body = error_body(
        refused.kind, refused.message, retry_after=refused.retry_after, request_id=REQUEST_ID.get()
    )
    return state.json(429, body, **{"Retry-After": str(refused.retry_after)})


async def _spend(state: _State, identity: str, verdicts: list[Verdict]) -> None:
    """Add what the verdicts cost (where the judge reports it) to the key's daily spending."""
    if state.limits is not None:
        await state.limits.spend(identity, sum(v.usage.cost_usd or 0.0 for v in verdicts))


async def _single(state: _State, guard: Guard, raw: Any, identity: str) -> Response:
    config = state.config
    try:
        # Candidates are counted before anything else is read of the item, so an
        # item with thousands of them is refused at the cost of a len().
        item = Item.coerce(raw, max_chars=config.max_chars, max_candidates=config.max_candidates)
    except InvalidItemError as exc:
        over = _candidate_count(raw) > config.max_candidates
        return state.json(
            422,
            error_body(
                "invalid_item",
                str(exc) + (" (PRIN_GUARD_MAX_CANDIDATES)" if over else ""),
                field=exc.field,
                reason=exc.reason,
                limit="max_candidates" if over else None,
                max=config.max_candidates if over else None,
            ),
        )
    started = time.perf_counter()
    try:
        async with asyncio.timeout(config.request_timeout):
            verdict = await guard.acheck(item)
    except JudgeError as exc:
        state.metrics.verdicts.labels("judge_error").inc()
        message = state.judge_failed(exc, item_id=item.key)
        return state.json(502, error_body("judge_error", message, request_id=REQUEST_ID.get()))
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
    state.metrics.observe_verdict(verdict, time.perf_counter() - started, cached=state.caching)
    await _spend(state, identity, [verdict])
    return state.json(200, '{"verdict":' + verdict.model_dump_json() + "}")


async def _batch(state: _State, guard: Guard, raws: list[Any], identity: str) -> Response:
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
                if verdict.error is not None and verdict.error.kind == "judge":
                    verdict = _judge_failed(state, verdict)
                results[index] = verdict
                state.metrics.observe_verdict(
                    verdict, time.perf_counter() - started, cached=state.caching
                )
    except TimeoutError:
        for index, raw in enumerate(raws):
            if index not in results:
                verdict = _timed_out(raw, config)
                results[index] = verdict
                state.metrics.observe_verdict(verdict, None)
    ordered = [results[index] for index in range(len(raws))]
    await _spend(state, identity, ordered)
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


def _judge_failed(state: _State, verdict: Verdict) -> Verdict:
    """``verdict`` with the judge's error text logged, and replaced for the client."""
    assert verdict.error is not None
    message = state.judge_failed(JudgeError(verdict.error.message), item_id=verdict.item_id)
    return verdict.model_copy(
        update={"error": verdict.error.model_copy(update={"message": message})}
    )


def _candidate_count(raw: Any) -> int:
    candidates = raw.get("candidates") if isinstance(raw, Mapping) else None
    return len(candidates) if isinstance(candidates, list | tuple) else 0


def _reason(error: VerdictError) -> str:
    if error.field is not None:
        return error.message.removeprefix(f"{error.field}: ")
    return error.message


def _timed_out(raw: Any, config: ServerConfig) -> Verdict:
    item_id: str = "?"
    labels: tuple[str, ...] = ()
    with contextlib.suppress(InvalidItemError):  # invalid items never wait, but still
        item = Item.coerce(raw, max_chars=config.max_chars, max_candidates=config.max_candidates)
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
