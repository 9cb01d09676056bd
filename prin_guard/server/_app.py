"""The HTTP service: ``create_app(config)`` builds the FastAPI application.

One judge and one cache per worker process, built at startup (the lifespan) or
injected, behind one :class:`~prin_guard.calls.JudgeCaller`: one single flight and one
limit (``concurrency`` calls in flight per worker) for every request. One
:class:`~prin_guard.Guard` per distinct combination of options (a
:class:`~prin_guard.GuardOptions` with the server's ``max_chars``), all asking
through that caller; the judge under it counts and times every call.

Synchronous function judges run on the worker's own bounded thread pool
(``judge_threads``), set as the event loop's default executor at startup. A
judge failure reaches the client as an error kind and the request id only, for a
single item, in a batch and for each panel member; its text, scrubbed of secrets,
goes to the log (``judge_failed``).

A request's judging runs in a task of its own: the request answers 504 at
``request_timeout`` (and stops at once when its client leaves) while the judge's
clean-up after cancellation finishes in the background; a judging cancelled under a
request by something else is answered as a judge failure, never a 500. An item the
request's guard cannot ask (its template is another task's, claims without sources, an
acceptance file of another task) is a 422 naming the field. With a daily budget, each
request reserves the most its options can cost before judging (``_limits``); the
request's bill (``_State.billing``) meters its judge calls and settles the reservation
with their actual cost on every way out: answered, refused, failed, timed out,
cancelled.
"""

from __future__ import annotations

import contextlib
import time
import typing
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

from prin_guard._infra._json import dumps
from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop
from prin_guard._infra._redact import add_secrets
from prin_guard._prompting._rating import MAX_ASPECTS
from prin_guard._route._decide import error_verdict
from prin_guard._route._guard import Guard
from prin_guard.cache import Cache
from prin_guard.errors import InvalidItemError, JudgeError, UsageError
from prin_guard.judges import Judge
from prin_guard.models import (
    RANKING_MAX_CANDIDATES,
    TASKS,
    Item,
    Task,
    Verdict,
    VerdictError,
)
from prin_guard.server._config import ServerConfig
from prin_guard.server._limits import Reservation, key_identity
from prin_guard.server._logs import REQUEST_ID, event, install_log_filters
from prin_guard.server._metrics import ServerMetrics
from prin_guard.server._middleware import (
    METRICS_PATH,
    ApiKeys,
    GuardMiddleware,
    MetricsAccess,
    Receive,
    Scope,
    Send,
    error_body,
)
from prin_guard.server._schemas import (
    BatchVerdictResponse,
    ErrorResponse,
    HealthResponse,
    ReadyResponse,
    SingleVerdictResponse,
    VerdictRequest,
)
from prin_guard.server._state import (
    FROM_CONFIG,
    Bill,
    _Default,
    _public_identity,
    _State,
    check_servable,
    judge_threads,
)
from prin_guard.tasks import REGISTRY
from prin_guard.tasks._ranking import ranking_calls

__all__ = ["FROM_CONFIG", "check_servable", "create_app", "judge_threads"]

_SCHEMA_PATH: Final = "/openapi.json"
_STATUS_TYPES: Final = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
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
    add_secrets(config.secrets())  # scrubbed from every log line and response
    metrics = ServerMetrics()
    state = _State(config=config, metrics=metrics, judge=judge, cache=cache)
    keys = ApiKeys(key.get_secret_value() for key in config.api_keys)
    token = config.metrics_token
    metrics_access = MetricsAccess(token.get_secret_value() if token else None, keys)

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
    metrics_bearer = HTTPBearer(
        scheme_name="MetricsToken",
        auto_error=False,
        description="Authorization: Bearer <metrics_token> (the operator's, not an API key)",
    )
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

    async def require_metrics_token(
        credentials: HTTPAuthorizationCredentials | None = Security(metrics_bearer),  # noqa: B008
        api_key: str | None = Security(header_key),
    ) -> None:
        # As require_key: the middleware decided already (MetricsAccess, the one rule).
        presented = credentials.credentials if credentials is not None else api_key
        refused = metrics_access.refusal(presented)
        if refused is not None:
            raise StarletteHTTPException(refused[0], refused[2])

    secured: list[Depends] = [Security(require_key)] if keys.enabled else []
    metrics_deps = [] if config.metrics_open else [Security(require_metrics_token)]
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
        # Limits and cache scopes know a hash of the key, never the key (None: auth off).
        identity = key_identity(ApiKeys.presented(request.headers.raw) if keys.enabled else None)
        try:
            guard = state.guard(state.options(body.options), identity)
        except UsageError as exc:
            # The request model checked each field; what is left (a check across
            # fields, the guard's own) names its field as "field: reason".
            named, sep, reason = str(exc).partition(": ")
            if sep and named.isidentifier():
                where, message = f"options.{named}", f"options.{named}: {reason}"
            else:
                where, message = "options", f"options: {exc}"
            return state.json(422, error_body("invalid_request", message, field=where))
        if body.items is not None and len(body.items) > config.max_batch:
            return _batch_too_large(state, len(body.items))
        given = [body.item] if body.items is None else body.items
        calls = sum(_max_calls(guard, raw) for raw in given)
        admitted = await _admit(state, identity, len(given), calls)
        if isinstance(admitted, Response):
            return admitted
        try:
            # settled on every way out of it (the bill's context): no reservation is left
            async with state.billing(admitted) as bill:
                if body.items is not None:
                    return await _batch(state, guard, body.items, bill)
                return await _single(state, guard, body.item, bill)
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
        METRICS_PATH,
        dependencies=metrics_deps,
        response_class=Response,
        responses={
            200: {"content": {"text/plain": {}}},
            401: {"model": ErrorResponse},
            403: {"model": ErrorResponse},
        },
        summary="Prometheus metrics (the operator's: the metrics token, never an API key)",
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
        event("error", "server_error", error=f"{type(exc).__name__}: {exc}")
        return state.json(500, error_body("internal_error", "internal server error"))

    app.add_middleware(_StartupErrorInOneLine, state=state)
    routes = frozenset(getattr(route, "path", "") for route in app.routes)
    open_paths = {"/healthz", "/readyz"}
    if config.metrics_open:
        open_paths.add(METRICS_PATH)
    if config.docs_open:
        open_paths.add(_SCHEMA_PATH)
    app.add_middleware(
        GuardMiddleware,
        keys=keys,
        metrics_access=metrics_access,
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


class _StartupErrorInOneLine:
    """A worker that cannot start because of its configuration (a judge that cannot be
    built) says so in one line, as ``check`` does, instead of the 45-line traceback
    that the lifespan's failure would print."""

    def __init__(self, app: Any, *, state: _State) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def send_short(message: Any) -> None:
            error = self.state.start_error
            if message["type"] == "lifespan.startup.failed" and error is not None:
                message = {**message, "message": f"prin-guard: error: {error}"}
            await send(message)

        await self.app(scope, receive, send_short)


async def _admit(state: _State, identity: str, items: int, calls: int) -> Response | Reservation:
    """A 429 when the key is over its rate limit or daily budget; else its reservation.

    A batch counts one hit per item, and reserves what its ``calls`` (the most judge
    calls its items can make with the request's options) can cost.
    """
    if state.limits is None:
        return Reservation(None, 0.0, items)
    admitted = await state.admit(identity, items, calls)
    if isinstance(admitted, Reservation):
        return admitted
    state.metrics.limited.labels(admitted.kind).inc()
    body = error_body(
        admitted.kind,
        admitted.message,
        retry_after=admitted.retry_after,
        request_id=REQUEST_ID.get(),
    )
    return state.json(429, body, **{"Retry-After": str(admitted.retry_after)})


def _judge_error(state: _State, item_id: str | None, error: str, error_type: str) -> Response:
    state.metrics.verdicts.labels("judge_error").inc()
    message = state.judge_failed(error, error_type=error_type, item_id=item_id)
    return state.json(502, error_body("judge_error", message, request_id=REQUEST_ID.get()))


async def _single(state: _State, guard: Guard, raw: Any, bill: Bill) -> Response:
    config = state.config
    item: Any
    try:
        if _declared_task(raw) in _OWN_MODELS:
            # its fields (a rating's scale, a review's paper and form) and whether this
            # request's options suit its task
            item = guard.validate(raw)
        else:
            # Candidates are counted before anything else is read of the item, so an
            # item with thousands of them is refused at the cost of a len().
            item = Item.coerce(
                raw,
                max_chars=config.guard.options.max_chars,
                max_candidates=config.guard.options.max_candidates,
            )
            # and whether the request's guard can ask it: its template's task (a pairwise
            # item under a choice template), the claims' sources, the acceptance file's task
            guard.template_for(item)
    except InvalidItemError as exc:
        return _invalid_item(state, raw, exc)
    item_id = REGISTRY[item.task].key(item)
    started = time.perf_counter()
    try:
        outcome = await state.judged(guard.acheck(item))
    except JudgeError as exc:
        bill.missing = 0
        return _judge_error(state, item_id, str(exc), type(exc).__name__)
    if outcome == "abandoned":
        bill.missing = 1
        return _judge_error(
            state,
            item_id,
            "a judge call this request waited for was cancelled",
            "CancelledError",
        )
    if outcome == "timeout":
        bill.missing = 1
        state.metrics.verdicts.labels("judge_error").inc()
        return state.json(
            504,
            error_body(
                "timeout",
                f"no verdict within {config.request_timeout:g} s "
                "(request_timeout, PRIN_GUARD_REQUEST_TIMEOUT)",
                limit="request_timeout",
                request_id=REQUEST_ID.get(),
            ),
        )
    bill.missing = 0
    verdict = state.public(outcome)
    state.metrics.observe_verdict(verdict, time.perf_counter() - started, cached=state.caching)
    return state.json(200, '{"verdict":' + verdict.model_dump_json() + "}")


def _invalid_item(state: _State, raw: Any, exc: InvalidItemError) -> Response:
    """The 422 of a single item the guard cannot ask, naming the field and why."""
    limit = state.config.guard.options.max_candidates
    over = _candidate_count(raw) > limit
    return state.json(
        422,
        error_body(
            "invalid_item",
            str(exc) + (" (PRIN_GUARD_MAX_CANDIDATES)" if over else ""),
            field=exc.field,
            reason=exc.reason,
            limit="max_candidates" if over else None,
            max=limit if over else None,
        ),
    )


def _max_calls(guard: Guard, raw: Any) -> int:
    """The most judge calls an item as sent can cost: its task's, times its aspects (a
    rating asks each of them in calls of its own, unless the guard asks them together, in
    one rating's calls; a list longer than allowed is refused before any call, so it
    reserves the most an item may have)."""
    task = _declared_task(raw)
    calls = guard.max_judge_calls_for(task)
    if task == "ranking":  # legs x orders x the windows (and pairs) of the list as sent
        count = min(max(_candidate_count(raw), 3), RANKING_MAX_CANDIDATES)
        options = guard.options
        pairs = _pair_calls(guard)  # builds a guard of its own: once per request
        tiers = calls // ranking_calls(options, pair_calls=pairs)
        calls = tiers * ranking_calls(options, count, pair_calls=pairs)
    aspects = raw.get("aspects") if task == "rating" and isinstance(raw, Mapping) else None
    if isinstance(aspects, list) and aspects and guard.options.rating_aspects == "apart":
        calls *= min(len(aspects), MAX_ASPECTS)
    return calls


_OWN_MODELS: Final = tuple(name for name in REGISTRY if name not in TASKS)
"""The tasks whose items are not :class:`~prin_guard.Item` (rating, review): read by their
task's model, through the guard."""


def _pair_calls(guard: Guard) -> int:
    """The calls one pair of a ranking's tournament makes (0 without the tournament)."""
    if not guard.options.ranking_tournament:
        return 0
    pairs = Guard(
        guard.judge,
        options=guard.options.model_copy(update={"checks": ("reverse", "order")}),
        cache=None,
    )
    try:
        return pairs.max_judge_calls_for("pairwise")
    finally:
        pairs.close()


def _declared_task(raw: Any) -> str | None:
    """The task an item as sent says it is (``choice`` when it names none, as the item
    model reads it), for what a budget reserves; None when it names no task a guard
    knows (the reservation is then the costliest task's)."""
    if isinstance(raw, Mapping):
        task = raw.get("task", "choice")
        return task.strip().lower() if isinstance(task, str) else None
    return getattr(raw, "task", None)


def _batch_too_large(state: _State, size: int) -> Response:
    limit = state.config.max_batch
    return state.json(
        413,
        error_body(
            "batch_too_large",
            f"the batch has {size} items; the limit is {limit} (max_batch, PRIN_GUARD_MAX_BATCH)",
            limit="max_batch",
            max=limit,
        ),
    )


async def _batch(state: _State, guard: Guard, raws: list[Any], bill: Bill) -> Response:
    config = state.config
    started = time.perf_counter()
    results: dict[int, Verdict] = {}

    async def judge_all() -> None:
        async for index, verdict in guard.astream(raws):
            verdict = state.public(verdict)
            results[index] = verdict
            state.metrics.observe_verdict(
                verdict, time.perf_counter() - started, cached=state.caching
            )

    outcome = await state.judged(judge_all())
    bill.missing = len(raws) - len(results)
    if outcome is not None:  # timed out, or abandoned: the verdicts not received
        why = (
            f"no verdict within {config.request_timeout:g} s (request_timeout)"
            if outcome == "timeout"
            else state.judge_failed(
                "a judge call this request waited for was cancelled",
                error_type="CancelledError",
                item_id=None,
            )
        )
        for index, raw in enumerate(raws):
            if index not in results:
                verdict = _not_received(raw, config, why)
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

    def answer() -> Response:
        body = (
            '{"verdicts":['
            + ",".join(verdict.model_dump_json() for verdict in ordered)
            + '],"errors":'
            + dumps(errors, ensure_ascii=False)
            + "}"
        )
        return state.json(200, body)

    # Verdicts that carry long replies make megabytes of JSON: written (and checked for
    # secrets) in the worker thread, so that the event loop goes on serving meanwhile.
    # (an aspect's legs too: each reply is kept once, ``raw_text_ref`` pointing to it)
    replies = sum(
        len(leg.raw_text or "")
        for verdict in ordered
        for owner in (verdict, *verdict.aspects.values())
        for leg in owner.legs()
    )
    return await off_loop(answer) if replies > OFF_LOOP_CHARS else answer()


def _candidate_count(raw: Any) -> int:
    candidates = raw.get("candidates") if isinstance(raw, Mapping) else None
    return len(candidates) if isinstance(candidates, list | tuple) else 0


def _reason(error: VerdictError) -> str:
    if error.field is not None:
        return error.message.removeprefix(f"{error.field}: ")
    return error.message


def _not_received(raw: Any, config: ServerConfig, message: str) -> Verdict:
    """The verdict of a batch item the request did not get (timed out, abandoned)."""
    item_id: str = "?"
    declared = _declared_task(raw)
    if declared in _OWN_MODELS:
        task = REGISTRY[declared]
        with contextlib.suppress(InvalidItemError):
            item_id = task.key(task.coerce(raw, config.guard.options))
        named = typing.cast(Task, declared)
        return error_verdict(item_id, "judge", message, task=named, options=None)
    with contextlib.suppress(InvalidItemError):  # invalid items never wait, but still
        item = Item.coerce(
            raw,
            max_chars=config.guard.options.max_chars,
            max_candidates=config.guard.options.max_candidates,
        )
        return error_verdict(item.key, "judge", message, item=item, options=None)
    return error_verdict(item_id, "judge", message, options=None)
