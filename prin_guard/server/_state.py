"""The per-worker state of the HTTP service: its judge, cache, callers and guards.

:class:`_State` is built by ``create_app`` and started by its lifespan: the judge
and cache come from the configuration unless injected; one
:class:`~prin_guard.calls.JudgeCaller` per judge wraps the (metered) judge, and one
:class:`~prin_guard.Guard` per distinct options (and, with ``cache_scope="key"``, per
API key: ``_tenants``) asks through it.

It also decides what of a verdict may leave the service (:meth:`_State.public`: a
failing judge's text goes to the log, the client gets a kind and the request id) and
runs each request's judging in a task of its own (:meth:`_State.judged`), so that a
request answers at its timeout, or stops at once when its client leaves, while the
judge's clean-up after cancellation finishes in the background.
"""

from __future__ import annotations

import asyncio
import enum
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Final, Literal, TypeVar

from fastapi.responses import Response

from prin_guard._infra._ratelimit import provider_limit
from prin_guard._infra._redact import redact
from prin_guard._infra._retry import CallLimit
from prin_guard._prompting._prompts import TEMPLATES, Template, get_template, packs, template_file
from prin_guard._route._guard import Guard
from prin_guard._route._options import GuardOptions
from prin_guard.cache import Cache, open_cache
from prin_guard.calls import JudgeCaller
from prin_guard.errors import UsageError
from prin_guard.judges import Judge, JudgeResponse, PrefixCachingJudge, SharedPrefix, Stagger
from prin_guard.judges._base import checked
from prin_guard.models import Message, Verdict
from prin_guard.server._config import ServerConfig
from prin_guard.server._limits import Charge, Limits, Refusal, Reservation
from prin_guard.server._logs import REQUEST_ID, event
from prin_guard.server._metrics import ServerMetrics
from prin_guard.server._schemas import VerdictOptions
from prin_guard.server._tenants import Tenants
from prin_guard.tasks._words import TASKS

__all__ = ["FROM_CONFIG", "Bill", "build_judges", "check_servable", "judge_threads"]

T = TypeVar("T")

_MAX_GUARDS: Final = 256
_STOP_WAIT: Final = 5.0
"""Seconds the lifespan's end waits for judging abandoned by requests to clean up."""


class _Default(enum.Enum):
    FROM_CONFIG = "from_config"


FROM_CONFIG: Final = _Default.FROM_CONFIG
"""``create_app(cache=FROM_CONFIG)``: build the cache from the configuration at startup."""


@dataclass
class Bill:
    """What one request owes its key's daily budget: what it reserved, and the judge
    calls made for it, metered where they are made (:class:`_MeteredJudge`).

    Set by :meth:`_State.billing` for the request's context, so every judge call made in
    it (its legs, follow-ups, every tier's, in the tasks it starts) is counted here and
    nowhere else; an answer another request's call brought (single flight, the cache)
    costs this one nothing.
    """

    reservation: Reservation
    usd: float = 0.0
    """The cost of the judge calls made for the request, as the judge reported it."""
    calls: int = 0
    """Those calls whose cost the judge reported."""
    unpriced: int = 0
    """Judge calls made for the request whose cost the judge did not report: charged the
    reservation's price of a call (:attr:`Reservation.per_call`), never 0."""
    started: bool = False
    """Judging began: judge calls may have been made."""
    missing: int | None = None
    """Items whose verdict the request did not get (timed out, abandoned); ``None``: not
    known (the request ended before it could say: each item counts as missing)."""

    def charge(self) -> Charge:
        """What the request costs: its calls, and the reservation of the verdicts it did
        not get (their calls had started); nothing when judging never began."""
        if not self.started:
            return Charge(0.0)
        reservation = self.reservation
        spent = self.usd + self.unpriced * reservation.per_call
        if self.missing is None:
            usd = max(spent, reservation.usd)
        else:
            usd = spent + self.missing * reservation.per_item
        return Charge(usd, self.calls, self.usd)


_BILL: ContextVar[Bill | None] = ContextVar("prin_guard_server_bill", default=None)


class _MeteredJudge:
    """The app's judge, with every call counted by outcome and timed, and its cost put
    on the bill of the request it is made for.

    Same identity as the judge it wraps, so cache keys do not change. It has no
    limit of its own: the worker's JudgeCaller admits ``concurrency`` calls at a
    time, so only calls that reach the judge are timed (never a wait for a slot).
    """

    def __init__(self, inner: Judge, metrics: ServerMetrics, *, estimated: bool = False) -> None:
        self.inner = inner
        self._metrics = metrics
        self._estimated = estimated
        self._warned = False

    def identity(self) -> Mapping[str, Any]:
        return self.inner.identity()

    def prefix_caching(self, messages: Sequence[Message], prefix: SharedPrefix) -> Stagger | None:
        # the judge's own answer: a metered judge staggers its legs as the judge would
        if isinstance(self.inner, PrefixCachingJudge):
            return self.inner.prefix_caching(messages, prefix)
        return None

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        prefix: SharedPrefix | None = None,
    ) -> JudgeResponse:
        started = time.perf_counter()
        try:
            if prefix is not None and isinstance(self.inner, PrefixCachingJudge):
                response = await self.inner.complete(messages, labels=labels, prefix=prefix)
            else:
                response = await self.inner.complete(messages, labels=labels)
        except asyncio.CancelledError:
            self._metrics.observe_judge_call("cancelled", started)
            raise
        except BaseException:
            self._metrics.observe_judge_call("error", started)
            raise
        self._metrics.observe_judge_call("ok", started)
        bill = _BILL.get()
        if bill is not None:
            # the figure the guard reads (a negative cost is unknown, not a refund)
            cost = checked(response).response.usage
            if cost is not None and cost.cost_usd is not None:
                bill.usd += cost.cost_usd
                bill.calls += 1
            else:
                bill.unpriced += 1
                self._unpriced(bill.reservation)
        return response

    def _unpriced(self, reservation: Reservation) -> None:
        """Warn, once for this judge, that a daily budget charges its calls a price of
        the service's own (the judge reports none)."""
        if self._warned or reservation.account is None:
            return
        self._warned = True
        identity = self.inner.identity()
        event(
            "warning",
            "judge_cost_unknown",
            judge=str(identity.get("model") or identity.get("name") or identity.get("kind")),
            charged_per_call_usd=round(reservation.per_call, 8),
            charged="estimated_cost_usd's share of a verdict"
            if self._estimated
            else "the key's reservation (set estimated_cost_usd)",
        )


@dataclass
class _State:
    config: ServerConfig
    metrics: ServerMetrics
    judge: Judge | None
    cache: Cache | _Default | None
    built: list[list[Judge]] | None = None
    """Judges built before the worker started (``serve`` builds them first, so that a
    judge that cannot be built is one line of error, not a traceback)."""
    start_error: str | None = None
    """Why the worker could not start (a configuration error), as one line."""
    cache_owned: bool = False
    executor: ThreadPoolExecutor | None = None
    """The pool sync function judges run on (the loop's default executor)."""
    caller: JudgeCaller | None = None
    """The worker's call layer of its (first) judge, shared by every guard."""
    levels: list[list[JudgeCaller]] = field(default_factory=list)
    """Who judges: one caller per judge, per tier (one tier: the judge, or the panel)."""
    guards: OrderedDict[tuple[Any, ...], Guard] = field(default_factory=OrderedDict)
    draining: bool = False
    """Shutdown has begun (SIGTERM or SIGINT, or the lifespan's end): /readyz says 503
    while the server finishes the requests in flight."""
    chained_signals: dict[int, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    """Signal → (our handler, the one it chains to), to put back at stop."""
    limits: Limits | None = None
    """Per-API-key rate limit and daily budget, when configured (built at startup)."""
    tenants: Tenants | None = None
    """Each API key's callers (``cache_scope="key"``); ``None``: every key shares ``levels``."""
    background: set[asyncio.Future[Any]] = field(default_factory=set)
    """Judging that requests abandoned (timed out, client gone), still cleaning up, and
    settlements of their budget: kept referenced until done."""
    _offered: dict[str, str | Template] | None = None
    """The templates a request may choose, by id (built on first use)."""

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
        self.request_templates()  # an unknown id or a bad template file fails at start
        self.executor = ThreadPoolExecutor(
            judge_threads(self.config), thread_name_prefix="prin-guard-judge"
        )
        asyncio.get_running_loop().set_default_executor(self.executor)
        if self.judge is not None:
            judges = [[self.judge]]
        elif self.built is not None:
            judges = self.built
            self.judge = judges[0][0]
        else:
            # Loading a local model takes seconds: off the event loop.
            try:
                judges = await asyncio.to_thread(build_judges, self.config)
            except UsageError as exc:
                self.start_error = str(exc)
                raise
            self.judge = judges[0][0]
        secret_url = self.config.redis_url
        redis_url = secret_url.get_secret_value() if secret_url is not None else None
        if isinstance(self.cache, _Default):
            self.cache = open_cache(
                redis_url or "memory",
                namespace=self.config.redis_namespace,
                ttl=self.config.cache_ttl,
                concurrency=self.config.concurrency,
            )
            self.cache_owned = True
        limits = Limits(self.config)
        if limits.enabled:
            limits.start()
            self.limits = limits
        limit = CallLimit(self.config.concurrency)  # one bound for every judge of the worker
        rate_limit = provider_limit(
            self.config.provider_rate_limit,
            self.config.provider_token_limit,
            cache=redis_url,
            judge=self.config.guard.judge,
        )
        self.levels = [
            [
                JudgeCaller(
                    _MeteredJudge(
                        judge, self.metrics, estimated=self.config.estimated_cost_usd is not None
                    ),
                    cache=self.live_cache(),
                    limit=limit,
                    rate_limit=rate_limit,
                )
                for judge in level
            ]
            for level in judges
        ]
        self.caller = self.levels[0][0]
        if self.config.cache_scope == "key":
            self.tenants = Tenants(self.levels)
        acceptance = self.config.guard.acceptance
        if acceptance is not None:
            # the judges now; the options per request (a 422 when they differ)
            acceptance.check_compatible(
                [_identity(level) for level in self.levels],
                [tier.options for tier in acceptance.tiers],
            )
        if self.limits is not None:
            # what estimated_cost_usd prices: an item asked with the configured options
            configured = self.config.guard.model_copy(update={"options": self.options()})
            # the fewest calls an item can cost so: never a price per call below the real one
            built = configured.build(judges=self.levels)
            self.limits.configured_calls = min(map(built.max_judge_calls_for, TASKS))
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
        if self.background:
            # judging abandoned by requests, still cleaning up; budget settlements
            _, pending = await asyncio.wait(set(self.background), timeout=_STOP_WAIT)
            for task in pending:
                task.cancel()
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

    def options(self, requested: VerdictOptions | None = None) -> GuardOptions:
        """The guard options of a request: the client's over the configured ones, with the
        server's own limits (``None``: a request that sets none)."""
        configured = self.config.guard.options
        if requested is None:
            requested = VerdictOptions()
        fixed: dict[str, Any] = {}
        chosen = requested.model_dump(exclude_unset=True).get("template")
        if chosen is not None:
            fixed["template"] = self._template(chosen)
        return requested.to_options(
            configured,
            max_chars=configured.max_chars,
            max_candidates=configured.max_candidates,
            on_inconsistent="flag",
            **fixed,
        )

    def request_templates(self) -> dict[str, str | Template]:
        """The templates a request may choose, by id (the ``request_templates`` setting):
        built-in and pack ids, and the operator's own templates (files), loaded at start."""
        if self._offered is None:
            configured = self.config.guard.options.template
            given = self.config.request_templates
            entries: list[object] = (
                [
                    *TEMPLATES,
                    *packs(),
                    *([configured] if configured is not None else []),
                ]
                if given is None
                else list(given)
            )
            offered: dict[str, str | Template] = {}
            for entry in entries:
                template = template_file(entry)  # a label or a rating template
                if isinstance(template, Template):
                    offered[template.id] = template
                elif isinstance(template, str):
                    get_template(template)  # an unknown id fails at start
                    offered[template] = template
            self._offered = offered
        return self._offered

    def _template(self, name: str) -> str | Template:
        offered = self.request_templates()
        if name not in offered:
            raise UsageError(
                f"template: {name!r} is not a template this service offers; choose among "
                f"{', '.join(offered)}"
            )
        return offered[name]

    def guard(self, options: GuardOptions, identity: str) -> Guard:
        """The guard for these options and this API key (created on first use, least
        recently used evicted).

        Guards are cheap (a template, a key scope): everything costly is the callers',
        which every guard of a key (with ``cache_scope="shared"``, of every key) shares.
        """
        tenant = identity if self.tenants is not None else None
        key = (options.key(), tenant)
        found = self.guards.get(key)
        if found is not None:
            self.guards.move_to_end(key)
            return found
        assert self.caller is not None
        levels = self.tenants.levels(identity) if self.tenants is not None else self.levels
        made = self.config.guard.model_copy(update={"options": options}).build(judges=levels)
        self.guards[key] = made
        while len(self.guards) > _MAX_GUARDS:
            self.guards.popitem(last=False)
        return made

    # -- what leaves the service ---------------------------------------------------------

    def judge_failed(
        self, error: str, *, error_type: str, item_id: str | None, judge: str | None = None
    ) -> str:
        """Log a judge failure in full (the log scrubs it); the message a client gets instead."""
        event(
            "error",
            "judge_failed",
            item_id=item_id,
            judge=judge,
            error_type=error_type,
            error=error,
        )
        return f"the judge failed; the server log has the details (request id {REQUEST_ID.get()})"

    def public(self, verdict: Verdict) -> Verdict:
        """``verdict`` as it may leave the service: the one place that decides.

        A judge's own error text (a provider's message, an exception from a client
        library: it can quote a key, a host, a credential) never reaches the client: a
        verdict's judge error and a panel member's failure are logged in full and
        replaced by a kind and the request id. A member whose answer could not be read
        keeps its reason (the library's words, about the answer).
        """
        update: dict[str, Any] = {}
        error = verdict.error
        if error is not None and error.kind == "judge":
            message = self.judge_failed(
                error.message, error_type="JudgeError", item_id=verdict.item_id
            )
            update["error"] = error.model_copy(update={"message": message})
        if any(_failed_member(member) for member in verdict.members):
            members = []
            for member in verdict.members:
                if _failed_member(member):
                    reason = self.judge_failed(
                        member.reason or "",
                        error_type="JudgeError",
                        item_id=verdict.item_id,
                        judge=member.judge,
                    )
                    member = member.model_copy(update={"reason": reason})
                members.append(member)
            update["members"] = tuple(members)
        return verdict.model_copy(update=update) if update else verdict

    # -- running a request's judging -------------------------------------------------------

    async def admit(self, identity: str, items: int, calls: int) -> Refusal | Reservation:
        """The key's admission (:meth:`Limits.admit`), run to its end even when the request
        is cancelled meanwhile (its client left): a reservation it took then is released,
        never left to hold the key's budget."""
        assert self.limits is not None
        task = asyncio.ensure_future(self.limits.admit(identity, items, calls))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(self._release)
            self._keep(task)
            raise

    def _release(self, task: asyncio.Future[Refusal | Reservation]) -> None:
        if task.cancelled() or task.exception() is not None:
            return
        admitted = task.result()
        if isinstance(admitted, Reservation):
            self._settle_later(admitted, Charge(0.0))

    @asynccontextmanager
    async def billing(self, reservation: Reservation) -> AsyncIterator[Bill]:
        """The bill of a request that holds ``reservation``, settled when the request
        ends, however it ends: answered, refused, failed, timed out, or cancelled (its
        client left; then in the background). The only place a reservation is settled."""
        bill = Bill(reservation)
        token = _BILL.set(bill)
        cancelled = False
        try:
            yield bill
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            _BILL.reset(token)
            if cancelled:
                self._settle_later(reservation, bill.charge())
            else:
                await self._settle(reservation, bill.charge())

    async def judged(self, work: Coroutine[Any, Any, T]) -> T | Literal["timeout", "abandoned"]:
        """Run ``work`` (a request's judging) in a task of its own, for at most
        ``request_timeout`` seconds, its judge calls on the request's bill.

        ``"timeout"``: the time is up; the task is cancelled and left to clean up in
        the background, so the request answers at its timeout, not after the judge's
        clean-up. ``"abandoned"``: the task was cancelled by nobody here (a judge call
        it waited for was cancelled under it): never a 500, the caller answers it as a
        judge failure. When the request itself is cancelled (its client left), the task
        is cancelled the same way (and the bill charges the reservation: its judge
        calls had started).
        """
        bill = _BILL.get()
        if bill is not None:
            bill.started = True
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait((task,), timeout=self.config.request_timeout)
        except asyncio.CancelledError:
            self._abandon(task)
            raise
        if not done:
            self._abandon(task)
            return "timeout"
        if task.cancelled():
            return "abandoned"
        return task.result()

    def _abandon(self, task: asyncio.Future[Any]) -> None:
        task.cancel()
        self._keep(task)

    def _keep(self, task: asyncio.Future[Any]) -> None:
        self.background.add(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Future[Any]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            event("warning", "background_failed", error_type=type(exc).__name__, error=str(exc))

    async def _settle(self, reservation: Reservation, charge: Charge) -> None:
        if self.limits is not None:
            await self.limits.settle(reservation, charge)

    def _settle_later(self, reservation: Reservation, charge: Charge) -> None:
        """:meth:`_settle`, from a request that is being cancelled: in the background."""
        if self.limits is not None and reservation.account is not None:
            self._keep(asyncio.ensure_future(self.limits.settle(reservation, charge)))

    def json(self, status: int, content: str | bytes, **headers: str) -> Response:
        text = content.decode() if isinstance(content, bytes) else content
        # Exact secrets only: a verdict's own text must reach the client unchanged.
        return Response(
            redact(text, shapes=False),
            status_code=status,
            media_type="application/json",
            headers=headers,
        )


def _failed_member(member: Any) -> bool:
    """A panel member that failed (no legs at all), as opposed to one whose answer
    could not be read: its reason is the judge's error text."""
    return bool(member.abstained and member.direct is None and member.reverse is None)


def build_judges(config: ServerConfig) -> list[list[Judge]]:
    """The configured judges, per tier; a :class:`~prin_guard.UsageError` (one line)
    when one cannot be built, with a hint when a ``python:`` judge's module is in the
    current directory, which is not on the import path."""
    try:
        return config.guard.build_judges()
    except UsageError as exc:
        cause = exc.__cause__
        if isinstance(cause, ModuleNotFoundError) and cause.name:
            top = cause.name.split(".")[0]
            here = Path.cwd()
            in_cwd = (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file()
            if in_cwd and not any(Path(entry or ".").resolve() == here for entry in sys.path):
                raise UsageError(
                    f"{exc} ({top} is in the current directory, which is not on the "
                    "import path: run with PYTHONPATH=.)"
                ) from exc
        raise


def judge_threads(config: ServerConfig) -> int:
    """Threads for sync function judges: ``judge_threads``, else ``min(32, 4 * cores)``."""
    if config.judge_threads is not None:
        return config.judge_threads
    return min(32, 4 * (os.cpu_count() or 1))


def _identity(level: list[JudgeCaller]) -> dict[str, Any]:
    from prin_guard._route._judging import judges_identity

    return judges_identity([caller.identity for caller in level])


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
