"""Prometheus metrics of one app, in a registry of its own.

Each app has its own :class:`~prometheus_client.CollectorRegistry` (never the
global one), so several apps can live in one process (tests do that).

With ``uvicorn --workers N`` every worker is a process with its own counters,
and a scrape of ``/metrics`` reaches one worker at random. Set
``PROMETHEUS_MULTIPROC_DIR`` (read by prometheus-client itself, before it is
imported) to an empty directory to have every worker write its samples there
and ``/metrics`` serve the sum over all workers; ``serve`` empties it at start.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    values,
)
from prometheus_client.multiprocess import MultiProcessCollector

from prin_guard._infra._events import log
from prin_guard._route._informative import AnswerTally
from prin_guard._route._usage import UsageTally, verdict_answers
from prin_guard.models import Flag, Verdict

__all__ = ["OUTCOMES", "ServerMetrics", "multiprocess_mode"]

OUTCOMES: Final = ("clean", "flagged", "judge_error", "invalid_item")
"""clean: no flags; flagged: judged, with flags; judge_error and invalid_item: not judged."""

_LLM_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
_METHODS: Final = frozenset({"GET", "POST", "HEAD", "OPTIONS"})
ANSWER_WINDOW: Final = 1000
"""Verdicts over which the service tells whether its judge's answers carry information:
the count starts again after as many, so that a judge that stops answering usefully is
seen within a thousand verdicts however long the service has run."""
_UNINFORMATIVE_KINDS: Final = ("one_answer", "same_position", "unreadable")


def multiprocess_mode() -> bool:
    """Whether prometheus-client writes samples to ``PROMETHEUS_MULTIPROC_DIR``."""
    return values.ValueClass is not values.MutexValue


def outcome_of(verdict: Verdict) -> str:
    if Flag.INVALID_ITEM in verdict.flags:
        return "invalid_item"
    if Flag.JUDGE_ERROR in verdict.flags:
        return "judge_error"
    return "flagged" if verdict.flags else "clean"


class ServerMetrics:
    """The server's counters and histograms, and their text exposition."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.verdicts = Counter(
            "prin_guard_verdicts", "Verdicts returned, by outcome.", ["outcome"], registry=r
        )
        self.flags = Counter(
            "prin_guard_verdict_flags", "Flags on returned verdicts, by kind.", ["flag"], registry=r
        )
        self.judge_calls = Counter(
            "prin_guard_judge_calls",
            "Calls to the judge (cache hits excluded; each retry counts), by outcome.",
            ["outcome"],
            registry=r,
        )
        self.judge_latency = Histogram(
            "prin_guard_judge_call_duration_seconds",
            "Time one judge call took.",
            buckets=_LLM_BUCKETS,
            registry=r,
        )
        # Counted per judge answer a verdict needed (legs and probe rounds), not per
        # cache read: with single flight a judged leg reads the cache twice (before
        # and after claiming the key), and that is still one miss.
        self.cache_hits = Counter(
            "prin_guard_cache_hits", "Judge answers found in the cache.", registry=r
        )
        self.cache_misses = Counter(
            "prin_guard_cache_misses",
            "Judge answers not found in the cache (judged, or shared with an identical call).",
            registry=r,
        )
        self.cache_errors = Counter(
            "prin_guard_cache_errors", "Failed cache calls (the guard fails open).", registry=r
        )
        self.request_latency = Histogram(
            "prin_guard_http_request_duration_seconds",
            "Time to answer an HTTP request, by method, route and status.",
            ["method", "route", "status"],
            buckets=_LLM_BUCKETS,
            registry=r,
        )
        self.verdict_latency = Histogram(
            "prin_guard_verdict_duration_seconds",
            "Time from the start of a request to each of its verdicts.",
            buckets=_LLM_BUCKETS,
            registry=r,
        )
        self.limited = Counter(
            "prin_guard_limited_requests",
            "Verdict requests refused by a per-key limit (429), by reason.",
            ["reason"],
            registry=r,
        )
        # What verdicts cost, by the one rule of Verdict.usage (prin_guard._route._usage): paid
        # now, and what the answers from the cache cost when first asked. The guard's
        # premium is guarded / direct (over the verdicts whose answers are all priced),
        # the share from a prompt cache tokens{kind="cached_prompt"} / tokens{kind="prompt"}.
        self.tokens = Counter(
            "prin_guard_judge_tokens",
            "Tokens of the judge calls made for verdicts (paid now), by kind: prompt (all of "
            "them), cached_prompt and cache_write (of those, read from and written to the "
            "provider's prompt cache, where it says), completion.",
            ["kind"],
            registry=r,
        )
        self.cost = Counter(
            "prin_guard_judge_cost_usd",
            "USD of the judge answers of verdicts: spent now, or saved (answers from the "
            "cache, at what they cost when first asked).",
            ["spent"],
            registry=r,
        )
        self.premium_cost = Counter(
            "prin_guard_premium_cost_usd",
            "For the guard's premium, over verdicts whose answers are all priced: the cost "
            "of every answer (guarded) and of the direct legs (direct).",
            ["part"],
            registry=r,
        )
        # Whether the judge's answers carry information (prin_guard._route._informative): a share
        # at or over its threshold is a judge that answers the same whatever it is asked.
        self.uninformative = Gauge(
            "prin_guard_judge_uninformative_share",
            "Over the last verdicts (up to 1,000, counted again after): the share of the "
            "judge's read legs of one polarity giving its commonest answer (one_answer), of "
            "the order check's direct pairs naming one position in both orders "
            "(same_position), of legs unreadable (unreadable). At or over "
            "prin_guard_judge_uninformative_threshold, the answers carry no information.",
            ["kind"],
            registry=r,
            multiprocess_mode="max",
        )
        self.uninformative_threshold = Gauge(
            "prin_guard_judge_uninformative_threshold",
            "The share of prin_guard_judge_uninformative_share from which the service warns "
            "(uninformative_judge, once per process and kind).",
            ["kind"],
            registry=r,
            multiprocess_mode="max",
        )
        self._answers = AnswerTally()
        self._warned: set[str] = set()
        for kind in ("prompt", "cached_prompt", "cache_write", "completion"):
            self.tokens.labels(kind)
        for spent in ("now", "saved"):
            self.cost.labels(spent)
        for part in ("guarded", "direct"):
            self.premium_cost.labels(part)
        for reason in ("rate_limited", "budget_exhausted"):
            self.limited.labels(reason)
        for outcome in OUTCOMES:
            self.verdicts.labels(outcome)
        for flag in Flag:
            self.flags.labels(flag.value)
        for outcome in ("ok", "error", "cancelled"):
            self.judge_calls.labels(outcome)
        self._cache_seen: dict[str, float] = {}

    def observe_verdict(
        self, verdict: Verdict, seconds: float | None, *, cached: bool = False
    ) -> None:
        """Count ``verdict``; ``cached``: a cache is configured, so count its answers too."""
        self.verdicts.labels(outcome_of(verdict)).inc()
        for flag in verdict.flags:
            self.flags.labels(flag.value).inc()
        if seconds is not None:
            self.verdict_latency.observe(seconds)
        self._observe_usage(verdict)
        self._observe_answers(verdict)
        if cached:
            found = total = 0
            answers = [answer.cached for answer in verdict_answers(verdict)]
            total, found = len(answers), sum(answers)
            if found:
                self.cache_hits.inc(found)
            if total > found:
                self.cache_misses.inc(total - found)

    def _observe_answers(self, verdict: Verdict) -> None:
        if self._answers.verdicts >= ANSWER_WINDOW:
            self._answers = AnswerTally()
        self._answers.add(verdict)
        for measure in self._answers.measures():
            self.uninformative.labels(measure.kind).set(measure.share)
            self.uninformative_threshold.labels(measure.kind).set(measure.threshold)
            if measure.share >= measure.threshold and measure.kind not in self._warned:
                self._warned.add(measure.kind)
                log().warning("uninformative_judge", **measure.as_dict())

    def _observe_usage(self, verdict: Verdict) -> None:
        tally = UsageTally()
        tally.add(verdict)
        for kind, field in (
            ("prompt", "prompt_tokens"),
            ("cached_prompt", "cached_prompt_tokens"),
            ("cache_write", "cache_write_tokens"),
            ("completion", "completion_tokens"),
        ):
            value = tally.sums.get(field)
            if value:
                self.tokens.labels(kind).inc(value)
        if tally.sums.get("cost_usd"):
            self.cost.labels("now").inc(tally.sums["cost_usd"])
        if tally.saved_cost:
            self.cost.labels("saved").inc(tally.saved_cost)
        if tally.premium_verdicts:
            self.premium_cost.labels("guarded").inc(tally.guarded)
            self.premium_cost.labels("direct").inc(tally.direct)

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        method = method if method in _METHODS else "other"
        self.request_latency.labels(method, route, str(status)).observe(seconds)

    def observe_judge_call(self, outcome: str, started: float) -> None:
        """``outcome``: ok, error, or cancelled (the request timed out or went away)."""
        self.judge_calls.labels(outcome).inc()
        self.judge_latency.observe(time.perf_counter() - started)

    def sync_cache(self, cache: Any) -> None:
        """Add the cache's failed calls since the last sync to the error counter.

        Counters rather than a collector reading the cache at scrape time, so that
        multiprocess mode sums them over workers like every other counter.
        """
        if cache is None:
            return
        stats: Mapping[str, Any]
        if callable(getattr(cache, "stats", None)):
            stats = cache.stats()
        else:
            stats = {"errors": getattr(cache, "errors", None)}
        for name, counter in (("errors", self.cache_errors),):
            value = stats.get(name)
            if not isinstance(value, int | float):
                continue
            delta = value - self._cache_seen.get(name, 0)
            if delta > 0:
                counter.inc(delta)
            self._cache_seen[name] = value

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type (all workers' in multiprocess mode)."""
        if multiprocess_mode():
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
