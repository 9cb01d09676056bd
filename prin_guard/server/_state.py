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
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi.responses import Response

from prin_guard._calls import JudgeCaller
from prin_guard._exceptions import UsageError
from prin_guard._guard import Guard
from prin_guard._options import GuardOptions
from prin_guard.cache import Cache, MemoryCache
from prin_guard.judges import Judge, JudgeResponse, Message, judge_from_spec
from prin_guard.server._config import ServerConfig
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
    """The worker's one call layer (cache, single flight, limit), shared by every guard."""
    guards: OrderedDict[tuple[Any, ...], Guard] = field(default_factory=OrderedDict)

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
        cache = self.live_cache()
        if self.cache_owned and cache is not None:
            closer = getattr(cache, "aclose", None)
            if closer is not None:
                await closer()
        if self.executor is not None:
            # Threads still running a judge cannot be stopped; do not wait for them here
            # (the event loop's own shutdown joins them).
            self.executor.shutdown(wait=False, cancel_futures=True)

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
        made = Guard(self.caller, options=options)
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
