"""The per-worker state of the HTTP service: its judge, cache, caller and guards.

:class:`_State` is built by ``create_app`` and started by its lifespan: the judge
and cache come from the configuration unless injected; one
:class:`~prin_guard.JudgeCaller` wraps the (metered) judge for every request, and
one :class:`~prin_guard.Guard` per distinct options asks through it.
"""

from __future__ import annotations

import asyncio
import enum
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Final, Literal

from fastapi.responses import Response

from prin_guard._acceptance import Acceptance
from prin_guard._calls import JudgeCaller
from prin_guard._exceptions import UsageError
from prin_guard._guard import Guard
from prin_guard._options import GuardOptions
from prin_guard._ratelimit import RateLimit
from prin_guard._retry import CallLimit
from prin_guard.cache import Cache, MemoryCache
from prin_guard.judges import Judge, JudgeResponse, Message, judge_from_spec
from prin_guard.server._config import ServerConfig
from prin_guard.server._limits import Limits
from prin_guard.server._logs import REQUEST_ID, event
from prin_guard.server._metrics import ServerMetrics
from prin_guard.server._schemas import VerdictOptions
from prin_guard.server._scrub import Scrubber

__all__ = ["FROM_CONFIG", "build_judge", "check_servable", "judge_threads"]

_MAX_GUARDS: Final = 64


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
    scrub: Scrubber
    """Removes the configured secrets, provider keys and credentials from text."""
    cache_owned: bool = False
    executor: ThreadPoolExecutor | None = None
    """The pool sync function judges run on (the loop's default executor)."""
    caller: JudgeCaller | None = None
    """The worker's call layer of its (first) judge, shared by every guard."""
    levels: list[list[JudgeCaller]] = field(default_factory=list)
    """Who judges: one caller per judge, per tier (one tier: the judge, or the panel)."""
    acceptance: Acceptance | None = None
    """The calibrated acceptance rule(s), when configured."""
    guards: OrderedDict[tuple[Any, ...], Guard] = field(default_factory=OrderedDict)
    draining: bool = False
    """Shutdown has begun (SIGTERM or SIGINT, or the lifespan's end): /readyz says 503
    while the server finishes the requests in flight."""
    chained_signals: dict[int, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    """Signal → (our handler, the one it chains to), to put back at stop."""
    limits: Limits | None = None
    """Per-API-key rate limit and daily budget, when configured (built at startup)."""

    @property
    def ready(self) -> bool:
        return self.caller is not None

    @property
    def caching(self) -> bool:
        """A cache is configured (so verdicts count cache hits and misses)."""
        return self.live_cache() is not None

    def live_cache(self) -> Cache | None:
        return None if isinstance(self.cache, _Default) else self.cache

    async def start(self) -> None:
        # FunctionJudge runs a sync function with asyncio.to_thread, that is on the
        # loop's default executor: a pool of our own, sized by the configuration
        # rather than by the interpreter's guess for the machine.
        self.executor = ThreadPoolExecutor(
            judge_threads(self.config), thread_name_prefix="prin-guard-judge"
        )
        asyncio.get_running_loop().set_default_executor(self.executor)
        if self.judge is not None:
            judges = [[self.judge]]
        else:
            # Loading a local model takes seconds: off the event loop.
            judges = await asyncio.to_thread(build_judges, self.config)
            self.judge = judges[0][0]
        if isinstance(self.cache, _Default):
            self.cache = _build_cache(self.config)
            self.cache_owned = True
        limits = Limits(self.config)
        if limits.enabled:
            limits.start()
            self.limits = limits
        limit = CallLimit(self.config.concurrency)  # one bound for every judge of the worker
        rate_limit = _provider_rate_limit(self.config)
        self.levels = [
            [
                JudgeCaller(
                    _MeteredJudge(judge, self.metrics),
                    cache=self.live_cache(),
                    limit=limit,
                    rate_limit=rate_limit,
                )
                for judge in level
            ]
            for level in judges
        ]
        self.caller = self.levels[0][0]
        if self.config.acceptance is not None:
            acceptance = Acceptance.load(self.config.acceptance)
            # the judges now; the options per request (a 422 when they differ)
            acceptance.check_compatible(
                [_identity(level) for level in self.levels],
                [tier.options for tier in acceptance.tiers],
            )
            self.acceptance = acceptance
        self._drain_on_signals()
        event(
            "info",
            "server_started",
            judge=_public_identity(self.judge),
            judge_threads=judge_threads(self.config),
        )
        if not self.config.api_keys:
            event(
                "warning",
                "auth_disabled",
                message="allow_no_auth is set and no API key is configured: every path, "
                "judging included, is open to anyone who can reach this port",
            )

    async def stop(self) -> None:
        self.draining = True
        for signum, (ours, chained) in self.chained_signals.items():
            if signal.getsignal(signum) is ours:
                signal.signal(signum, chained)
        self.chained_signals.clear()
        if self.limits is not None:
            await self.limits.stop()
        cache = self.live_cache()
        if self.cache_owned and cache is not None:
            closer = getattr(cache, "aclose", None)
            if closer is not None:
                await closer()
        if self.executor is not None:
            # Threads still running a judge cannot be stopped; do not wait for them here
            # (the event loop's own shutdown joins them).
            self.executor.shutdown(wait=False, cancel_futures=True)

    def _drain_on_signals(self) -> None:
        """Set ``draining`` on SIGTERM and SIGINT, then run the server's own handler.

        uvicorn installs its handlers before the lifespan starts: on the signal it
        stops accepting connections and waits (up to ``timeout_graceful_shutdown``)
        for the requests in flight, and runs the lifespan's shutdown only after them,
        too late to tell /readyz. Signals are the main thread's only; a server that
        leaves a signal to its default action stops without draining anyway.
        """
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGTERM, signal.SIGINT):
            chained = signal.getsignal(signum)
            if callable(chained):
                ours = self._draining_handler(chained)
                signal.signal(signum, ours)
                self.chained_signals[signum] = (ours, chained)

    def _draining_handler(self, chained: Any) -> Any:
        def handler(signum: int, frame: FrameType | None) -> None:
            self.draining = True
            chained(signum, frame)

        return handler

    async def redis_status(self) -> Literal["ok", "unreachable", "not_configured"]:
        """Whether the cache answers a ping (within 2 s), when it is one that can."""
        ping = getattr(self.live_cache(), "ping", None)
        if ping is None:
            return "not_configured"
        try:
            async with asyncio.timeout(2.0):
                return "ok" if await ping() else "unreachable"
        except TimeoutError:
            return "unreachable"

    async def not_ready(self) -> Literal["starting", "draining"] | None:
        """Why this worker cannot serve verdicts now (for /readyz); ``None`` when it can.

        A Redis that does not answer is no reason: the cache fails open and verdicts
        go on (``/healthz`` reports it as degraded), and taking every worker out of
        rotation because a shared cache is down would stop the whole service.
        """
        if self.draining:
            return "draining"
        if not self.ready or self.judge is None:
            return "starting"
        return None

    def options(self, requested: VerdictOptions) -> GuardOptions:
        """The guard options of a request: the client's, with the server's own limits."""
        return requested.to_options(
            max_chars=self.config.max_chars,
            max_candidates=self.config.max_candidates,
            on_inconsistent="flag",
        )

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
        levels: list[Any] = [level[0] if len(level) == 1 else level for level in self.levels]
        if len(levels) > 1:
            made = Guard(tiers=levels, options=options, acceptance=self.acceptance)
        else:
            made = Guard(levels[0], options=options, acceptance=self.acceptance)
        self.guards[key] = made
        while len(self.guards) > _MAX_GUARDS:
            self.guards.popitem(last=False)
        return made

    def judge_failed(self, error: BaseException, *, item_id: str | None) -> str:
        """Log a judge failure in full (scrubbed); the message a client gets instead."""
        request_id = REQUEST_ID.get()
        event(
            "error",
            "judge_failed",
            item_id=item_id,
            error_type=type(error).__name__,
            error=self.scrub(str(error)),
        )
        return f"the judge failed; the server log has the details (request id {request_id})"

    def json(self, status: int, content: str | bytes, **headers: str) -> Response:
        text = content.decode() if isinstance(content, bytes) else content
        # Exact secrets only: a verdict's own text must reach the client unchanged.
        return Response(
            self.scrub.secrets_only(text),
            status_code=status,
            media_type="application/json",
            headers=headers,
        )


def judge_threads(config: ServerConfig) -> int:
    """Threads for sync function judges: ``judge_threads``, else ``min(32, 4 * cores)``."""
    if config.judge_threads is not None:
        return config.judge_threads
    return min(32, 4 * (os.cpu_count() or 1))


def build_judge(config: ServerConfig, spec: str | None = None) -> Judge:
    """The configured judge, spelled as :func:`~prin_guard.judges.judge_from_spec` reads it."""
    return judge_from_spec(
        spec or config.judge, api_base=config.api_base, structured=config.structured
    )


def build_judges(config: ServerConfig) -> list[list[Judge]]:
    """Every configured judge, per tier (one tier: the judge, or the panel)."""
    return [[build_judge(config, spec) for spec in level] for level in config.levels()]


def _identity(level: list[JudgeCaller]) -> dict[str, Any]:
    from prin_guard._judging import judges_identity

    return judges_identity([caller.identity for caller in level])


def _build_cache(config: ServerConfig) -> Cache:
    if config.redis_url is None:
        return MemoryCache()
    from prin_guard.cache import RedisCache

    return RedisCache.from_url(
        config.redis_url.get_secret_value(),
        namespace=config.redis_namespace,
        ttl=config.cache_ttl,
    )


def _provider_rate_limit(config: ServerConfig) -> RateLimit | None:
    """The judge provider's limit, shared through the cache's Redis (named by the judge)."""
    if config.provider_rate_limit is None and config.provider_token_limit is None:
        return None
    url = config.redis_url.get_secret_value() if config.redis_url is not None else None
    return RateLimit(
        config.provider_rate_limit,
        tokens=config.provider_token_limit,
        redis_url=url,
        name=config.judge,
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
