"""The judge-call layer: every call prin-guard makes to a judge goes through here.

Public: :class:`JudgeCaller` (the cache key, cache reads and writes, single flight,
retries and the bound on calls in flight) and :class:`CallLimit` (one bound on calls in
flight for several callers). A :class:`~prin_guard.Guard` builds its own caller from
``cache=``, ``concurrency=`` and ``retry=``; guards that should share a cache, a single
flight and a limit are given one::

    from prin_guard import Guard
    from prin_guard.calls import JudgeCaller

    caller = JudgeCaller(judge, cache=cache, concurrency=16)
    strict, lenient = Guard(caller, policy="synergy"), Guard(caller, policy="direct")

A :class:`JudgeCaller` wraps one judge and owns everything about calling it:

- the cache key of a call (the judge's identity plus everything else that
  changes its answer, never timeouts or retries);
- cache reads, a batch at a time (:meth:`JudgeCaller.prefetch`), and writes;
- single flight: identical calls in this process are one judge call, whether
  they overlap in time or one finished before the other started (a prefetched
  miss is read again before the judge is called: it may be stale), for one
  caller and for every caller sharing its cache; with a cache that supports
  :class:`~prin_guard.cache.SingleFlight` (Redis) identical calls in other
  processes wait for the one that claimed the key;
- a start gate (:class:`StartGate`): a batch that is stopping (Ctrl-C) lets the
  items whose judge calls started finish, and starts no call for the others;
- retries of transient failures (:class:`Retry`);
- the bound on calls in flight (:class:`CallLimit`, which several callers may
  share: one provider behind many judges);
- events that say what each call is for (``call="direct"``, ``"reverse"``,
  ``"follow_up"``, ``"pool_sample"``, ...).

The guard, the probe, the candidate-pool generator and the eval runner all ask
their judge through it. A cache that fails costs no verdict: reads become
misses and writes are skipped, with at most one ``cache_error`` warning every
30 seconds, unless the cache raises :class:`~prin_guard.errors.CacheError` (a
``RedisCache`` with ``cache_errors="raise"``), which reaches the caller.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from prin_guard._infra._events import bounded, log
from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit, Retry
from prin_guard._infra._tracing import record_attempt, record_usage, set_attributes, span
from prin_guard.cache import Cache, MemoryCache, SingleFlight, cache_key
from prin_guard.cache._base import KEY_PREFIX
from prin_guard.errors import CacheError, JudgeError, TransientJudgeError, UsageError
from prin_guard.judges import FunctionJudge, Judge, JudgeResponse
from prin_guard.judges._base import PrefixCachingJudge, SharedPrefix, Stagger, checked, is_logprob
from prin_guard.models import Message, Usage

__all__ = ["CallLimit", "JudgeCaller"]  # the public names; the rest is the package's

_CACHE_SCHEMA = 1
_WARN_INTERVAL = 30.0


@dataclass(frozen=True, slots=True)
class Call:
    """One conversation to put to the judge, and what it is for."""

    key: str
    """The cache key (from :meth:`KeyScope.key` or :meth:`JudgeCaller.conversation_key`)."""
    messages: Sequence[Message]
    labels: tuple[str, ...] = ()
    """The item's candidate labels, which a judge may use to constrain its output."""
    item_id: str = ""
    """For events."""
    purpose: str = "direct"
    """What the call is, for events: ``direct``, ``reverse``, ``follow_up``, ``pool_sample``."""
    prefix: SharedPrefix | None = None
    """What the call's prompt shares with the other legs of its verdict, for a judge whose
    provider caches prompt prefixes (given only when the legs are staggered)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The judge's answer to one :class:`Call`."""

    response: JudgeResponse
    cached: bool
    """From the cache (or from another process's call, through single flight)."""
    latency_ms: float
    """Time spent waiting for the judge; 0 when cached."""


class KeyScope:
    """Cache keys for calls that share everything but a few parts (one guard's legs).

    The scope (judge identity, template, mitigations) is serialised once; each key
    then hashes it with the parts that vary (the item, the polarity).
    """

    __slots__ = ("_scope",)

    def __init__(self, scope: Mapping[str, Any]) -> None:
        self._scope = json.dumps(
            dict(scope), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )

    def key(self, *parts: str) -> str:
        joined = "\x1f".join((self._scope, *parts))
        return f"{KEY_PREFIX}:{hashlib.sha256(joined.encode()).hexdigest()}"


class JudgeCaller:
    """One judge, called through a cache, single flight, retries and a limit.

    ``judge`` is a :class:`~prin_guard.judges.Judge` or a function
    ``fn(prompt) -> str`` (sync or async). ``cache`` defaults to an in-memory LRU;
    ``None`` turns caching off. ``concurrency`` bounds this caller's calls in
    flight, unless ``limit`` is given: a :class:`CallLimit` shared with other
    callers. ``calls`` counts judge calls made (attempts, retries included).
    """

    def __init__(
        self,
        judge: Judge | Callable[[str], Any],
        *,
        cache: Cache | Literal["memory"] | None = "memory",
        concurrency: int = 8,
        retry: Retry | None = None,
        limit: CallLimit | None = None,
        rate_limit: RateLimit | None = None,
    ) -> None:
        if isinstance(judge, Judge):
            self._judge: Judge = judge
        elif callable(judge):
            self._judge = FunctionJudge(judge)
        else:
            raise UsageError(
                f"judge: expected a Judge or a function of a prompt, got {type(judge).__name__}"
            )
        if cache == "memory":
            self._cache: Cache | None = MemoryCache()
        elif cache is None or isinstance(cache, Cache):
            self._cache = cache
        else:
            raise UsageError(f"cache: expected a Cache or None, got {type(cache).__name__}")
        self._limit = limit if limit is not None else CallLimit(concurrency)
        if retry is not None and not isinstance(retry, Retry):
            raise UsageError(f"retry: expected a Retry, got {type(retry).__name__}")
        self.retry = retry or Retry()
        if rate_limit is not None and not isinstance(rate_limit, RateLimit):
            raise UsageError(f"rate_limit: expected a RateLimit, got {type(rate_limit).__name__}")
        self.rate_limit = rate_limit
        # runtime Protocol checks are slow: decide once
        self._flight: SingleFlight | None = (
            self._cache if isinstance(self._cache, SingleFlight) else None
        )
        self._prefixes: PrefixCachingJudge | None = (
            self._judge if isinstance(self._judge, PrefixCachingJudge) else None
        )
        self._identity: dict[str, Any] = json.loads(json.dumps(dict(self._judge.identity())))
        self._flights = _flights_of(self._cache)
        self._inflight: dict[str, _Shared] = {}
        self._inflight_loop: asyncio.AbstractEventLoop | None = None
        self._last_cache_warning: float | None = None
        self._warned: set[tuple[str, ...]] = set()
        self.calls = 0
        """Judge calls made through this caller (attempts; cache hits excluded)."""

    def __repr__(self) -> str:
        return f"JudgeCaller(judge={self._identity!r}, cache={type(self._cache).__name__})"

    @property
    def judge(self) -> Judge:
        return self._judge

    @property
    def cache(self) -> Cache | None:
        return self._cache

    @property
    def limit(self) -> CallLimit:
        return self._limit

    @property
    def concurrency(self) -> int:
        return self._limit.calls

    @property
    def identity(self) -> dict[str, Any]:
        """The judge's identity as it goes into cache keys (a copy)."""
        copied: dict[str, Any] = json.loads(json.dumps(self._identity))
        return copied

    def prefix_caching(self, messages: Sequence[Message], prefix: SharedPrefix) -> Stagger | None:
        """Whether the judge's provider would cache ``prefix`` for the legs after the first,
        and how the judge tells that the first has begun answering; ``None`` for a judge
        that caches nothing (or cannot say)."""
        if self._prefixes is None:
            return None
        try:
            return self._prefixes.prefix_caching(messages, prefix)
        except Exception as exc:  # noqa: BLE001 - a hint is never worth a failed verdict
            log().debug("prefix_caching_unknown", error=bounded(f"{type(exc).__name__}: {exc}"))
            return None

    # -- keys ---------------------------------------------------------------------

    def scope(self, **parts: Any) -> KeyScope:
        """A :class:`KeyScope` of this judge and ``parts``."""
        return KeyScope({"judge": self._identity, **parts})

    def conversation_key(self, messages: Sequence[Message], labels: Sequence[str] = ()) -> str:
        """The key of a whole conversation with this judge (follow-ups, pool samples)."""
        return cache_key(
            {
                "judge": self._identity,
                "kind": "conversation",
                "messages": [dict(m) for m in messages],
                "labels": list(labels),
            }
        )

    # -- the calls ----------------------------------------------------------------

    async def prefetch(self, keys: Iterable[str]) -> dict[str, str | None]:
        """Cached values of ``keys`` in one round trip; ``{}`` without a cache."""
        if self._cache is None:
            return {}
        unique = list(dict.fromkeys(keys))
        if not unique:
            return {}
        try:
            values = await self._cache.get_many(unique)
        except CacheError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failing cache must not cost a verdict
            self._cache_failed("get_many", exc)
            return {}
        return dict(zip(unique, values, strict=True))

    async def answer(
        self, call: Call, *, prefetched: Mapping[str, str | None] | None = None
    ) -> Answer:
        """The judge's answer to ``call``: from the cache or from one judge call.

        ``prefetched`` holds values already read with :meth:`prefetch`: a hit there is
        the answer; a miss may be stale (an identical call may have stored its answer
        since), so the cache is read again before the judge is called. Without it the
        cache is read here.
        """
        with span("prin_guard.judge_call", self._span_attributes(call)) as current:
            if prefetched is not None:
                value = prefetched.get(call.key)
                response = read_cached(value) if value is not None else None
                if response is not None:
                    log().debug("cache_hit", item_id=call.item_id, call=call.purpose)
                    set_attributes(current, {"prin_guard.cache_hit": True})
                    return Answer(response, True, 0.0)
            # A SingleFlight cache is read again after its claim (in _judge_or_wait).
            read = self._cache is not None and (prefetched is None or self._flight is None)
            started = time.perf_counter()
            response, cached = await self._judge_once(call, read=read)
            set_attributes(current, {"prin_guard.cache_hit": cached})
            if not cached:
                record_usage(current, response.usage)
            latency_ms = 0.0 if cached else (time.perf_counter() - started) * 1000
            return Answer(response, cached, latency_ms)

    def _span_attributes(self, call: Call) -> dict[str, Any]:
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "prin_guard.item_id": call.item_id,
            "prin_guard.call": call.purpose,
            "prin_guard.cache_hit": False,
        }
        model = self._identity.get("model")
        if isinstance(model, str):
            attributes["gen_ai.request.model"] = model
        return attributes

    async def converse(
        self,
        messages: Sequence[Message],
        *,
        labels: Sequence[str] = (),
        item_id: str = "",
        purpose: str = "follow_up",
        prefetched: Mapping[str, str | None] | None = None,
    ) -> Answer:
        """The judge's answer to a whole conversation, cached like a leg (``prefetched``:
        as for :meth:`answer`)."""
        key = self.conversation_key(messages, labels)
        call = Call(key, list(messages), tuple(labels), item_id, purpose)
        return await self.answer(call, prefetched=prefetched)

    async def _judge_once(self, call: Call, *, read: bool) -> tuple[JudgeResponse, bool]:
        """Call the judge for ``call``, unless someone else already is.

        The first caller of a key leads: it reads the cache (with ``read``) and makes
        the call itself (no task of its own: the common case costs nothing extra);
        identical calls arriving meanwhile, through this caller or any caller sharing
        its cache, wait for its outcome through a shield, so a waiter that is cancelled
        (a request timeout, a client gone) never cancels the call for the others. When
        the leader is cancelled while others wait, its call is abandoned and started
        again for them in the background; when the last of those is cancelled too, that
        call is cancelled, so abandoned work stops, and it is no longer handed out: a
        caller arriving while it is being cancelled starts a fresh call. A caller that
        did not cancel anything never gets a CancelledError.

        Returns the answer and whether it came from the cache (stored by an identical
        call since the caller's prefetch, or by another process's, through single
        flight).
        """
        loop = asyncio.get_running_loop()
        if self._inflight_loop is not loop:
            # futures belong to one loop (a guard's private loop may be replaced)
            self._inflight = self._flights.table(loop)
            self._inflight_loop = loop
        table = self._inflight
        while (shared := table.get(call.key)) is not None:
            try:
                return await _wait(table, call.key, shared)
            except _Abandoned:
                continue  # its callers cancelled it, or it was not started: lead afresh
        shared = _Shared(loop.create_future())
        table[call.key] = shared
        try:
            outcome = await self._lead(call, read)
        except asyncio.CancelledError:
            if shared.waiters:
                # Restarted for the others, outside this caller's start gate (the gate of
                # this caller's item, not theirs).
                context = contextvars.copy_context()
                context.run(_GATE.set, None)
                shared.task = loop.create_task(self._lead(call, True), context=context)
                shared.task.add_done_callback(lambda task: _settle(table, call.key, shared, task))
            else:
                _forget(table, call.key, shared)
            raise
        except BaseException as exc:
            _forget(table, call.key, shared)
            # A call this caller's gate refused is not refused for the others: they lead.
            shared.future.set_exception(_Abandoned() if isinstance(exc, NotStarted) else exc)
            shared.future.exception()  # mark retrieved: the waiters, if any, re-raise it
            raise
        _forget(table, call.key, shared)
        shared.future.set_result(outcome)
        return outcome

    async def _lead(self, call: Call, read: bool) -> tuple[JudgeResponse, bool]:
        if read:
            # Registered in flight before reading: an identical call that stored its
            # answer after the caller's prefetch is found here, one still running is
            # joined (in _judge_once), so no answer is asked of the judge twice.
            found = await self._lookup(call.key)
            if found is not None:
                log().debug("cache_hit", item_id=call.item_id, call=call.purpose)
                return found, True
        if self._cache is not None:
            log().debug("cache_miss", item_id=call.item_id, call=call.purpose)
        # One slot per call being judged, held through claiming, calling (with its
        # retries: a rate-limited provider slows everyone down, as it should) and
        # storing, so a batch never floods the judge or the cache.
        async with self._limit.slot():
            return await self._judge_or_wait(call)

    async def _judge_or_wait(self, call: Call) -> tuple[JudgeResponse, bool]:
        flight = self._flight
        if flight is None:
            _admit(call)
            response = await self._call_judge(call)
            await self._store(call.key, response)
            return response, False
        while True:
            if await flight.claim(call.key):
                try:
                    # Another process may have stored it between our lookup and our claim.
                    found = await self._lookup(call.key)
                    if found is not None:
                        return found, True
                    _admit(call)
                    response = await self._call_judge(call)
                    await self._store(call.key, response)
                    return response, False
                finally:
                    await flight.release(call.key)
            log().debug("single_flight_wait", item_id=call.item_id, call=call.purpose)
            value = await flight.wait(call.key, timeout=flight.lock_ttl + 1.0)
            found = read_cached(value) if value is not None else None
            if found is not None:
                return found, True
            # The holder gave up or died: try to claim the key ourselves.

    async def _lookup(self, key: str) -> JudgeResponse | None:
        value = (await self.prefetch([key])).get(key)
        return read_cached(value) if value is not None else None

    async def _call_judge(self, call: Call) -> JudgeResponse:
        """One judge call, retried on transient failures.

        The first attempt runs straight; tenacity takes over only after a transient
        failure, so a judge that answers costs no retry bookkeeping.
        """
        started = time.monotonic()
        attempt = 1
        try:
            try:
                return await self._attempt(call, attempt)
            except TransientJudgeError as exc:
                if self.retry.attempts <= 1:
                    raise
                await self.retry.sleep(self.retry.wait_after(1, exc))
            async for try_ in self.retry.retrying(
                first_attempt=2, elapsed=time.monotonic() - started
            ):
                with try_:
                    attempt += 1
                    return await self._attempt(call, attempt)
        except JudgeError as exc:
            if not isinstance(exc, TransientJudgeError):
                raise
            error, failed = str(exc), f"failed after {attempt} attempts"
            cause: Exception = exc
        except Exception as exc:  # noqa: BLE001 (re-raised below as a JudgeError)
            error, failed, cause = f"{type(exc).__name__}: {exc}", "failed", exc
        log().warning(
            "judge_error",
            item_id=call.item_id,
            call=call.purpose,
            attempts=attempt,
            error=bounded(error),
        )
        raise JudgeError(f"{_what(call)} {failed}: {error}") from cause

    async def _attempt(self, call: Call, attempt: int) -> JudgeResponse:
        rate = self.rate_limit
        if rate is not None:
            await rate.acquire()
        started = time.perf_counter()
        self.calls += 1
        record_attempt(attempt)
        log().debug("judge_prompt", item_id=call.item_id, call=call.purpose, messages=call.messages)
        if call.prefix is not None and self._prefixes is not None:
            reply = self._prefixes.complete(call.messages, labels=call.labels, prefix=call.prefix)
        else:
            reply = self._judge.complete(call.messages, labels=call.labels)
        response = await (reply if rate is None else rate.watch(reply))
        latency_ms = (time.perf_counter() - started) * 1000
        log().info(
            "judge_call",
            item_id=call.item_id,
            call=call.purpose,
            attempt=attempt,
            latency_ms=round(latency_ms, 3),
        )
        if not isinstance(response, JudgeResponse):
            raise JudgeError(f"judge returned {type(response).__name__}, expected JudgeResponse")
        log().debug("judge_reply", item_id=call.item_id, call=call.purpose, text=response.text)
        return self._checked(response, call)

    def _checked(self, response: JudgeResponse, call: Call) -> JudgeResponse:
        """The reply as the guard reads it (:func:`~prin_guard.judges.checked`): where every
        judge's reply enters, the one place its usage and log-probabilities are checked.
        Warned about once per judge and kind of fault, not once per call."""
        found = checked(response)
        faults: list[tuple[str, dict[str, Any]]] = []
        if found.usage:
            faults.append(("judge_usage_invalid", {"fields": found.usage}))
        if found.logprobs is not None:
            faults.append(("judge_logprobs_invalid", {"error": found.logprobs}))
        for name, fields in faults:
            seen = (name, *sorted(fields.get("fields", ())))
            if seen in self._warned:
                continue
            self._warned.add(seen)
            log().warning(
                name,
                item_id=call.item_id,
                call=call.purpose,
                judge=self._identity.get("model") or self._identity.get("name"),
                **fields,
            )
        return found.response

    async def _store(self, key: str, response: JudgeResponse) -> None:
        if self._cache is None:
            return
        try:
            await self._cache.set_many({key: dump_cached(response)})
        except CacheError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failing cache must not cost a verdict
            self._cache_failed("set_many", exc)

    def _cache_failed(self, op: str, exc: BaseException) -> None:
        # A cache that is down fails every call: one warning per interval, not one each.
        now = time.monotonic()
        if self._last_cache_warning is None or now - self._last_cache_warning >= _WARN_INTERVAL:
            self._last_cache_warning = now
            log().warning("cache_error", op=op, error=bounded(f"{type(exc).__name__}: {exc}"))


class _Shared:
    """One judge call in flight: its outcome, the callers waiting for it, and the
    background task that makes it once its first caller was cancelled."""

    __slots__ = ("future", "task", "waiters")

    def __init__(self, future: asyncio.Future[tuple[JudgeResponse, bool]]) -> None:
        self.future = future
        self.task: asyncio.Task[tuple[JudgeResponse, bool]] | None = None
        self.waiters = 0


class _Abandoned(Exception):
    """The outcome of a shared call for its waiters when it was not made (cancelled by
    its callers, or refused by its leader's start gate): each of them starts afresh."""


async def _wait(table: dict[str, _Shared], key: str, shared: _Shared) -> tuple[JudgeResponse, bool]:
    shared.waiters += 1
    try:
        return await asyncio.shield(shared.future)
    except asyncio.CancelledError:
        task = shared.task
        if shared.waiters == 1 and task is not None and not task.done():
            # The last one waiting for a background call is gone: stop it, and hand it to
            # no one else (its clean-up may take a while; a caller arriving meanwhile
            # would only get its cancellation).
            task.cancel()
            _forget(table, key, shared)
        raise
    finally:
        shared.waiters -= 1


def _settle(
    table: dict[str, _Shared],
    key: str,
    shared: _Shared,
    task: asyncio.Task[tuple[JudgeResponse, bool]],
) -> None:
    """Hand a background call's outcome to the callers still waiting for it."""
    _forget(table, key, shared)
    if task.cancelled():
        shared.future.set_exception(_Abandoned())
    elif (exc := task.exception()) is not None:
        shared.future.set_exception(exc)
    else:
        shared.future.set_result(task.result())
        return
    shared.future.exception()  # mark retrieved: the waiters, if any, re-raise it


def _forget(table: dict[str, _Shared], key: str, shared: _Shared) -> None:
    """Take ``shared`` out of the table, if it is still the call in flight for ``key``."""
    if table.get(key) is shared:
        del table[key]


class _Flights:
    """The calls in flight of the callers of one cache, per event loop (a future
    belongs to one loop), so that callers sharing a cache share single flight."""

    __slots__ = ("_lock", "_tables")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Shared]] = (
            weakref.WeakKeyDictionary()
        )

    def table(self, loop: asyncio.AbstractEventLoop) -> dict[str, _Shared]:
        with self._lock:
            table = self._tables.get(loop)
            if table is None:
                table = self._tables[loop] = {}
            return table


_FLIGHTS: dict[int, tuple[weakref.ref[Any], _Flights]] = {}
_FLIGHTS_LOCK = threading.RLock()  # re-entered by a weakref callback run by the GC


def _flights_of(cache: Cache | None) -> _Flights:
    """The in-flight table of ``cache``'s callers (by identity), or a caller's own."""
    if cache is None:
        return _Flights()
    key = id(cache)
    with _FLIGHTS_LOCK:
        entry = _FLIGHTS.get(key)
        if entry is not None and entry[0]() is cache:
            return entry[1]
        flights = _Flights()

        def gone(ref: weakref.ref[Any]) -> None:
            with _FLIGHTS_LOCK:
                if _FLIGHTS.get(key, (None,))[0] is ref:
                    del _FLIGHTS[key]

        try:
            ref = weakref.ref(cache, gone)
        except TypeError:  # a cache that cannot be referenced weakly: this caller's own
            return flights
        _FLIGHTS[key] = (ref, flights)
        return flights


# -- the start gate ----------------------------------------------------------------------


class NotStarted(Exception):
    """The item's judge call was not started: its batch is stopping (see StartGate)."""


class StartGate:
    """Whether one item of a batch may start judge calls.

    Until ``stopping()`` is true every call starts; after, only the calls of an item
    that already started one (the item is in flight: its other legs, follow-ups and
    tiers are needed for its verdict). A call refused raises :class:`NotStarted`. An
    item's task runs in :meth:`context`; cache hits and calls joined in flight never
    ask the gate (they start nothing).
    """

    __slots__ = ("_started", "_stopping")

    def __init__(self, stopping: Callable[[], bool]) -> None:
        self._stopping = stopping
        self._started = False

    def admit(self) -> bool:
        if not self._started:
            if self._stopping():
                return False
            self._started = True
        return True

    def context(self) -> contextvars.Context:
        """A copy of the current context in which this gate is the item's."""
        context = contextvars.copy_context()
        context.run(_GATE.set, self)
        return context


_GATE: contextvars.ContextVar[StartGate | None] = contextvars.ContextVar(
    "prin_guard_start_gate", default=None
)


def _admit(call: Call) -> None:
    gate = _GATE.get()
    if gate is not None and not gate.admit():
        raise NotStarted(f"{_what(call)} of {call.item_id!r} not started: the batch is stopping")


def _what(call: Call) -> str:
    return f"{call.purpose} leg" if call.purpose in ("direct", "reverse") else call.purpose


def dump_cached(response: JudgeResponse) -> str:
    """The JSON a judge answer is cached as."""
    return json.dumps(
        {
            "schema": _CACHE_SCHEMA,
            "kind": "leg",
            "text": response.text,
            "output_format": response.output_format,
            "usage": response.usage.model_dump() if response.usage else None,
            # written only when present: entries without log-probabilities keep their bytes
            **({"tokens": [list(t) for t in response.tokens]} if response.tokens else {}),
            **(
                {"alternatives": [[list(a) for a in at] for at in response.alternatives]}
                if response.alternatives
                else {}
            ),
        },
        ensure_ascii=False,
    )


def read_cached(value: str) -> JudgeResponse | None:
    """A cached judge answer, or None for anything unreadable (treated as a miss)."""
    try:
        data = json.loads(value)
        if not isinstance(data, dict) or data.get("schema") != _CACHE_SCHEMA:
            return None
        if data.get("kind") != "leg":
            return None
        text = data["text"]
        if text is not None and not isinstance(text, str):
            return None
        output_format = data.get("output_format", "text")
        if output_format not in ("text", "json"):
            return None
        usage = Usage.model_validate(data["usage"]) if data.get("usage") else None
        tokens = _read_tokens(data.get("tokens"))
        alternatives = _read_alternatives(data.get("alternatives"), tokens)
    except (ValueError, KeyError, TypeError, ValidationError):
        return None
    # the rule a judge's reply is read by (a cache another version or process wrote)
    return checked(
        JudgeResponse(
            text=text,
            usage=usage,
            output_format=output_format,
            tokens=tokens,
            alternatives=alternatives,
        )
    ).response


def _read_alternatives(
    value: Any, tokens: tuple[tuple[str, float], ...] | None
) -> tuple[tuple[tuple[str, float], ...], ...] | None:
    """Cached token alternatives, one list per token; anything malformed is dropped."""
    if not isinstance(value, list) or tokens is None or len(value) != len(tokens):
        return None
    out = []
    for at in value:
        read = _read_tokens(at)
        if read is None:
            return None
        out.append(read)
    return tuple(out)


def _read_tokens(value: Any) -> tuple[tuple[str, float], ...] | None:
    """Cached token log-probabilities; anything malformed is dropped (confidence unknown)."""
    if not isinstance(value, list):
        return None
    out: list[tuple[str, float]] = []
    for entry in value:
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], str)
            and is_logprob(entry[1])
        ):
            return None
        out.append((entry[0], float(entry[1])))
    return tuple(out)
