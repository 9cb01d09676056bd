"""2. Engine overhead: what a verdict costs in prin-guard itself.

Judge: answers at once (an ``async def`` with no await). Cache off. ``acheck_many`` over
5,000 MathQA-shaped items. Baseline, measured back to back: the same 10,000 judge calls
made with bare asyncio (two calls per item under a semaphore of the same size, the
judge's own cost). Overhead per verdict = (guard - bare) / items.
Target: < 0.25 ms per verdict on this machine.

Also: a cProfile of the guard run (top functions), a breakdown of one verdict's work
timed piece by piece, the events it emits, and what-if runs in which candidate fixes are
monkeypatched into this process (the library's files are never touched).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from bench._common import (
    Context,
    Figure,
    InstantJudge,
    Section,
    ainterleave,
    fmt,
    make_item,
    md_table,
    median,
    paired,
    profile_text,
    profiled,
    ratios,
    spread,
)

NAME = "overhead"
TITLE = "2. Engine overhead"
TARGET = "< 0.25 ms of prin-guard time per verdict (instant judge, cache off, acheck_many)"
LIMIT_MS = 0.25


def _messages(item: dict[str, Any]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    q = item["question"]
    return (
        [{"role": "user", "content": f"{q} please output the correct ones."}],
        [{"role": "user", "content": f"{q} please output the incorrect ones."}],
    )


async def _bare(judge: InstantJudge, pairs: list[Any], concurrency: int) -> float:
    """Two judge calls per item, concurrently, bounded like the guard: no prin-guard."""
    slots = asyncio.Semaphore(concurrency)

    async def leg(messages: Any) -> Any:
        async with slots:
            return await judge.complete(messages)

    async def one(pair: Any) -> Any:
        return await asyncio.gather(leg(pair[0]), leg(pair[1]))

    started = time.perf_counter()
    await asyncio.gather(*(one(pair) for pair in pairs))
    return time.perf_counter() - started


def run(ctx: Context) -> Section:
    from prin_guard import Guard

    section = Section(NAME, TITLE, TARGET)
    n = ctx.pick(5000, 200)
    rounds = ctx.pick(5, 2)
    data = [make_item(i) for i in range(n)]
    pairs = [_messages(item) for item in data]
    judge = InstantJudge()

    async def guarded(concurrency: int, patch: str | None = None) -> float:
        guard = Guard(judge, cache=None, concurrency=concurrency)
        gc.collect()  # every run starts from the same heap
        with _patched(patch, guard):
            started = time.perf_counter()
            verdicts = await guard.acheck_many(data)
            took = time.perf_counter() - started
        assert len(verdicts) == n
        assert verdicts[-1].correct == ("C",), verdicts[-1]
        return took

    async def main() -> dict[str, list[float]]:
        return await ainterleave(
            rounds,
            {
                "bare": lambda: _bare(judge, pairs, 8),
                "guard": lambda: guarded(8),
                "bare64": lambda: _bare(judge, pairs, 64),
                "guard64": lambda: guarded(64),
            },
        )

    got = asyncio.run(main())
    per_ms = 1000.0 / n
    overhead = [(g - b) * per_ms for g, b in zip(got["guard"], got["bare"], strict=True)]
    overhead64 = [(g - b) * per_ms for g, b in zip(got["guard64"], got["bare64"], strict=True)]
    section.add(
        Figure(
            f"prin-guard time per verdict, concurrency 8 (default), {n:,} items",
            median(overhead),
            unit="ms",
            baseline="limit",
            baseline_value=LIMIT_MS,
            ratio=median([o / LIMIT_MS for o in overhead]),
            spread=spread([o / LIMIT_MS for o in overhead]),
            target=f"< {LIMIT_MS} ms",
            met=median(overhead) < LIMIT_MS,
            note="guard − bare, per item",
        )
    )
    section.add(
        paired(
            f"`acheck_many` wall time, {n:,} items, concurrency 8",
            [g * 1000 for g in got["guard"]],
            "bare asyncio, same judge calls",
            [b * 1000 for b in got["bare"]],
            unit="ms",
        )
    )
    section.add(
        Figure(
            "prin-guard time per verdict, concurrency 64",
            median(overhead64),
            unit="ms",
            baseline="limit",
            baseline_value=LIMIT_MS,
            ratio=median([o / LIMIT_MS for o in overhead64]),
            spread=spread([o / LIMIT_MS for o in overhead64]),
            note="context: the setting of benchmark 3",
        )
    )
    section.add(
        paired(
            f"`acheck_many` wall time, {n:,} items, concurrency 64",
            [g * 1000 for g in got["guard64"]],
            "bare asyncio, same judge calls",
            [b * 1000 for b in got["bare64"]],
            unit="ms",
        )
    )
    section.notes.append(
        f"{rounds} rounds after a warm-up round, the four runs of a round back to back in "
        "alternating order. The instant judge's replies are consistent (direct `Answer: C`, "
        "reverse `Answer: A, B, D, E`), so every verdict parses, reconciles and is clean."
    )

    # -- where the time goes ----------------------------------------------------------------
    profile_n = ctx.pick(2000, 100)

    async def profile_run() -> None:
        guard = Guard(judge, cache=None)
        await guard.acheck_many(data[:profile_n])

    asyncio.run(profile_run())  # warm
    with profiled() as profiler:
        asyncio.run(profile_run())
    section.blocks.append(
        (
            f"cProfile of acheck_many over {profile_n:,} items: top 15 by own time",
            profile_text(profiler, top=15, sort="tottime"),
        )
    )
    section.blocks.append(
        (
            f"cProfile of acheck_many over {profile_n:,} items: top 25 by cumulative time",
            profile_text(profiler, top=25, sort="cumulative"),
        )
    )

    breakdown, events = _breakdown(ctx, data[: ctx.pick(2000, 100)])
    section.tables.append(
        (
            "One verdict's work, piece by piece (each piece timed alone in a loop, no "
            "profiler; µs per verdict = µs per call × calls per verdict)",
            md_table(
                ["piece", "where", "calls / verdict", "µs / call", "µs / verdict"],
                breakdown,
            ),
        )
    )
    garbage = _garbage(data[:200])
    section.tables.append(
        (
            "Cyclic garbage left per verdict (objects the garbage collector has to find; "
            "`gc.DEBUG_SAVEALL` census over 200 verdicts, top types)",
            md_table(["type", "objects / verdict"], garbage),
        )
    )
    section.tables.append(
        (
            "Events emitted per verdict (counted by wrapping `log()`; at the logger's default "
            "level each one is dropped: the two `log()` rows above price that)",
            md_table(["method", "event", "per verdict"], events),
        )
    )

    # -- what-if: candidate fixes, monkeypatched in this process ---------------------------------
    whatif_rounds = ctx.pick(5, 1)

    applicable = applicable_patches()
    skipped = [name for name in PATCHES if name not in applicable]
    if skipped:
        section.notes.append(
            "What-ifs not run because the library already does what they simulate "
            f"(counted per verdict: {USES['protocol checks']:g} runtime Protocol checks, "
            f"{USES['retry loops']:g} tenacity loops): {', '.join(f'`{s}`' for s in skipped)}."
        )

    async def whatif() -> dict[str, list[float]]:
        runs: dict[str, Callable[[], Any]] = {"as is": lambda: guarded(8)}
        for patch in applicable:
            runs[patch] = lambda patch=patch: guarded(8, patch)
        return await ainterleave(whatif_rounds, runs)

    try:
        trial = asyncio.run(whatif())
    except Exception as exc:  # noqa: BLE001 - the patches lean on private names
        section.notes.append(f"What-if runs failed (the library changed?): {exc!r}")
    else:
        rows = []
        base = trial["as is"]
        bare = median(got["bare"])
        for name, values in trial.items():
            r = ratios(values, base)
            rows.append(
                [
                    name,
                    PATCHES.get(name, ("the library unchanged", ""))[0],
                    fmt(median(values) * per_ms, "ms"),
                    fmt(max(median(values) - bare, 0) * per_ms, "ms"),
                    f"{median(r):.3f}× ({min(r):.3f}–{max(r):.3f})",
                ]
            )
        section.tables.append(
            (
                "What-if: candidate fixes monkeypatched into the benchmark process (library "
                "files untouched), each timed back to back with the unpatched guard, "
                f"{whatif_rounds} rounds",
                md_table(
                    [
                        "variant",
                        "what it simulates",
                        "wall per verdict",
                        "≈ prin-guard per verdict (− bare median)",
                        "vs as is",
                    ],
                    rows,
                ),
            )
        )
        own = {name: max(median(values) - bare, 0) * per_ms for name, values in trial.items()}
        if section.figures[0].met is False and {"all three", "tenacity"} <= own.keys():
            fixed = own["all three"]
            section.why(
                f"{median(overhead):.3f} ms of prin-guard work per verdict against < {LIMIT_MS} "
                "ms. The breakdown, the garbage census and the what-if runs below point at "
                "three avoidable costs: a tenacity retry loop built around every judge call, "
                f"even one that succeeds (without it {own['tenacity']:.3f} ms; it is also "
                "where all the cyclic garbage comes from, whose collection the `gc off` row "
                "prices); the runtime-checkable Protocol check `isinstance(cache, "
                f"SingleFlight)` on every leg (without it {own['singleflight']:.3f} ms); and "
                "seven structlog events per verdict built and then dropped (without them "
                f"{own['logging']:.3f} ms). With the three fixed: {fixed:.3f} ms, "
                + ("within the target." if fixed < LIMIT_MS else "still above the target.")
            )
    return section


# -- the breakdown ---------------------------------------------------------------------------


def _per_call(fn: Callable[[], Any], calls: int) -> float:
    """µs per call of ``fn`` (median of 5 loops of ``calls``)."""
    times = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - started) / calls * 1e6)
    return median(times)


def _breakdown(ctx: Context, data: list[dict[str, Any]]) -> tuple[list[list[Any]], list[list[Any]]]:
    from prin_guard import Guard
    from prin_guard._infra._events import log as events_log
    from prin_guard._route._decide import MemberLegs, assess
    from prin_guard.cache import SingleFlight
    from prin_guard.models import Item, Leg, Polarity, Usage, Verdict
    from prin_guard.reader import detect_polarity_confusion, parse_reply

    guard = Guard(InstantJudge(), cache=None)
    items = [Item.coerce(raw, max_chars=guard.options.max_chars) for raw in data]
    n = len(items)
    cursor = {"i": 0}

    def nxt() -> int:
        cursor["i"] = (cursor["i"] + 1) % n
        return cursor["i"]

    item0 = items[0]
    texts0 = [c.text for c in item0.candidates]
    direct_reply, reverse_reply = "Answer: C", "Answer: A, B, D, E"
    parsed = parse_reply(direct_reply, item0.labels, texts0)

    def make_leg() -> Any:
        return Leg(
            polarity=Polarity.DIRECT,
            template=guard.template_for(item0).id,
            template_version=guard.template_for(item0).version,
            mitigations=(),
            output_format="text",
            raw_text=direct_reply,
            labels=parsed.labels,
            parse_status=parsed.status,
            parse_method=parsed.method,
            polarity_confusion=False,
            latency_ms=0.01,
            usage=None,
            cached=False,
        )

    leg = make_leg()
    legs = MemberLegs(leg, leg)
    result = assess(item0.labels, legs, guard.options)

    def make_verdict() -> Any:
        return Verdict(
            item_id=item0.key,
            labels=item0.labels,
            correct=result.correct,
            direct=leg,
            reverse=leg,
            reverse_implied=result.reverse_implied,
            scores=result.scores,
            consistent=result.consistent,
            flags=tuple(result.flags),
            policy="synergy",
            threshold=0.0,
            cached=False,
            usage=Usage(),
            probe=(),
        )

    async def tenacity_attempt() -> None:
        async for attempt in guard.retry.retrying():
            with attempt:
                pass

    runner = asyncio.Runner()

    def tenacity_loop(calls: int) -> float:
        async def body() -> float:
            started = time.perf_counter()
            for _ in range(calls):
                await tenacity_attempt()
            return (time.perf_counter() - started) / calls * 1e6

        return median([runner.run(body()) for _ in range(5)])

    def task_loop(calls: int) -> float:
        async def noop() -> None:
            return None

        async def body() -> float:
            started = time.perf_counter()
            for _ in range(calls):
                await asyncio.gather(noop(), noop())
            return (time.perf_counter() - started) / calls * 1e6

        return median([runner.run(body()) for _ in range(5)])

    calls = ctx.pick(2000, 100)
    log = events_log()
    USES.update(count_uses(data[:100]))
    events = _count_events(data[:100])
    per_method = Counter()
    for method, _event, count in events:
        per_method[method] += float(count)
    rows: list[list[Any]] = []

    def row(piece: str, where: str, per_verdict: float, micro: float) -> None:
        rows.append(
            [piece, where, f"{per_verdict:g}", f"{micro:.1f}", f"{micro * per_verdict:.1f}"]
        )

    row(
        "validate the item (pydantic `Item`, labels)",
        "`Item.coerce` → `Item._labels_and_duplicates`",
        1,
        _per_call(lambda: Item.coerce(data[nxt()], max_chars=guard.options.max_chars), calls),
    )
    row(
        "plan both legs (prompts + 2 cache keys: canonical JSON + sha256)",
        "`VerdictEngine.plan`",
        1,
        _per_call(lambda: guard._engine.plan(items[nxt()]), calls),
    )
    row(
        "parse a reply",
        "`_parsing.parse_reply`",
        2,
        _per_call(lambda: parse_reply(reverse_reply, item0.labels, texts0), calls),
    )
    row(
        "polarity-confusion check",
        "`_parsing.detect_polarity_confusion`",
        2,
        _per_call(lambda: detect_polarity_confusion(reverse_reply, Polarity.REVERSE), calls),
    )
    row("build a `Leg` (pydantic, strict)", "`LegAsker.read`", 2, _per_call(make_leg, calls))
    row(
        "decide (PRIN, synergy, flags)",
        "`_decide.assess`",
        1,
        _per_call(lambda: assess(item0.labels, legs, guard.options), calls),
    )
    row(
        "build the `Verdict` (pydantic, strict)",
        "`_decide.make_verdict`",
        1,
        _per_call(make_verdict, calls),
    )
    row(
        "`Usage() + Usage()` (two pydantic models)",
        "`VerdictEngine.verdict`",
        1,
        _per_call(lambda: Usage() + Usage(), calls),
    )
    row(
        "`isinstance(x, <runtime-checkable Protocol>)`, e.g. `SingleFlight`",
        "checks counted during verdicts",
        USES["protocol checks"],
        _per_call(lambda: isinstance(None, SingleFlight), calls),
    )
    row(
        "a tenacity `AsyncRetrying` loop around a call that succeeds",
        "`Retry.retrying()` calls counted during verdicts",
        USES["retry loops"],
        tenacity_loop(calls),
    )
    row(
        "a disabled `log().debug(...)` event",
        "`_events.log` (stdlib-backed structlog), from `calls` and `_judging`",
        per_method["debug"],
        _per_call(
            lambda: log.debug("judge_prompt", item_id="x", call="direct", messages=[]), calls
        ),
    )
    row(
        "a disabled `log().info(...)` event",
        "`_events.log`",
        per_method["info"],
        _per_call(
            lambda: log.info("judge_call", item_id="x", call="direct", latency_ms=1.0), calls
        ),
    )
    row(
        "asyncio: gather two coroutines (two tasks)",
        "`VerdictEngine.verdict` (`asyncio.gather`)",
        1,
        task_loop(calls),
    )
    runner.close()
    rows.append(
        [
            "**sum of the pieces**",
            "",
            "",
            "",
            f"**{sum(float(r[4]) for r in rows):.1f}**",
        ]
    )
    return rows, events


def _census(data: list[dict[str, Any]], patch: str | None = None) -> Counter[str]:
    """Objects left by one run that only the cycle collector frees, by type."""
    from prin_guard import Guard

    async def one_run() -> None:
        guard = Guard(InstantJudge(), cache=None)
        with _patched(patch, guard):
            await guard.acheck_many(data)

    asyncio.run(one_run())  # warm: first-use caches are not garbage
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        asyncio.run(one_run())
        gc.collect()
        return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def _garbage(data: list[dict[str, Any]]) -> list[list[Any]]:
    """Cyclic garbage per verdict by type, and how much is left without tenacity."""
    found = _census(data)
    without = _census(data, "tenacity")
    n = len(data)
    rows = [[f"`{name}`", f"{count / n:g}"] for name, count in found.most_common(12)]
    rows.append(["**all types**", f"**{sum(found.values()) / n:g}**"])
    rows.append(
        [
            "all types, with the first attempt outside tenacity (what-if below)",
            f"{sum(without.values()) / n:g}",
        ]
    )
    return rows


USES: dict[str, float] = {"protocol checks": 0.0, "retry loops": 0.0}
"""Per verdict: runtime Protocol checks and tenacity retry loops (see ``count_uses``)."""


def count_uses(data: list[dict[str, Any]]) -> dict[str, float]:
    """Runtime-checkable Protocol checks and ``Retry.retrying()`` calls per verdict.

    Counted by wrapping ``typing._ProtocolMeta.__instancecheck__`` and
    ``Retry.retrying`` while a guard (built beforehand) judges ``data``.
    """
    from prin_guard import Guard, Retry
    from prin_guard.cache import SingleFlight

    counts: Counter[str] = Counter()
    meta = type(SingleFlight)
    real_check = meta.__instancecheck__
    real_retrying = Retry.retrying

    def check(cls: Any, obj: Any) -> bool:
        counts["protocol checks"] += 1
        return bool(real_check(cls, obj))

    def retrying(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["retry loops"] += 1
        return real_retrying(self, *args, **kwargs)

    guard = Guard(InstantJudge(), cache=None)
    meta.__instancecheck__ = check  # type: ignore[method-assign]
    Retry.retrying = retrying  # type: ignore[method-assign]
    try:
        asyncio.run(guard.acheck_many(data))
    finally:
        meta.__instancecheck__ = real_check  # type: ignore[method-assign]
        Retry.retrying = real_retrying  # type: ignore[method-assign]
    return {name: counts[name] / len(data) for name in ("protocol checks", "retry loops")}


def _count_events(data: list[dict[str, Any]]) -> list[list[Any]]:
    """How many events a verdict emits, counted by wrapping ``log`` where it is called.

    The guard emits ``verdict`` (``prin_guard._route._judging``); the judge-call layer emits
    the per-call events (``prin_guard.calls``). Both modules' ``log`` are wrapped.
    """
    from prin_guard import Guard

    counts: Counter[tuple[str, str]] = Counter()
    modules = _event_modules()
    real = {module: module.log for module in modules}

    class Counting:
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def __getattr__(self, method: str) -> Any:
            target = getattr(self._inner, method)

            def emit(event: str, *args: Any, **kwargs: Any) -> Any:
                counts[(method, event)] += 1
                return target(event, *args, **kwargs)

            return emit

    for module in modules:
        module.log = lambda inner=real[module]: Counting(inner())  # type: ignore[attr-defined]
    try:
        asyncio.run(Guard(InstantJudge(), cache=None).acheck_many(data))
    finally:
        for module, value in real.items():
            module.log = value  # type: ignore[attr-defined]
    return [
        [method, event, f"{count / len(data):g}"]
        for (method, event), count in sorted(counts.items())
    ]


# -- what-if patches -------------------------------------------------------------------------


class _NotSingleFlight:
    """Stands in for the runtime-checkable Protocol: ``isinstance`` is then a plain check."""


class _NullLogger:
    def __getattr__(self, method: str) -> Callable[..., None]:
        return _null


def _null(*args: Any, **kwargs: Any) -> None:
    return None


_NULL = _NullLogger()


class _OneShot:
    """A retry policy of one attempt without tenacity: the cost of a call that succeeds."""

    attempts = 1

    def retrying(self, *args: Any, **kwargs: Any) -> Any:
        return _Attempts()


class _Attempts:
    def __init__(self) -> None:
        self._done = False

    def __aiter__(self) -> _Attempts:
        return self

    async def __anext__(self) -> contextlib.nullcontext[None]:
        if self._done:
            raise StopAsyncIteration
        self._done = True
        return contextlib.nullcontext()


class _Unvalidated(type):
    """``Model(**kw)`` becomes ``Model.model_construct(**kw)``; isinstance still works."""

    def __call__(cls, **kwargs: Any) -> Any:
        return cls._model.model_construct(**kwargs)  # type: ignore[attr-defined]

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls._model)  # type: ignore[attr-defined]


PATCHES: dict[str, tuple[str, str]] = {
    "singleflight": (
        "decide `isinstance(cache, SingleFlight)` once in `JudgeCaller.__init__`",
        "singleflight",
    ),
    "logging": (
        "emit no event when the logger's level drops it (here: no event at all)",
        "logging",
    ),
    "tenacity": ("first attempt outside tenacity (retry loop only after a failure)", "tenacity"),
    "no-validation": (
        "`Leg`/`Verdict` built with `model_construct` (engine-made values, already typed)",
        "validation",
    ),
    "all three": (
        "`singleflight` + `logging` + `tenacity` together (not `no-validation`, which does "
        "not help)",
        "all",
    ),
    "gc off": (
        "diagnostic, not a fix: the garbage collector off during the run (what its passes cost)",
        "gc",
    ),
}


def applicable_patches() -> list[str]:
    """The what-ifs that still change something in this version of the library.

    ``singleflight`` and ``tenacity`` only matter while verdicts make runtime Protocol
    checks or build retry loops (``USES``, counted by ``_breakdown``); ``all three`` only
    while at least two of its parts do.
    """
    live = {
        "singleflight": USES["protocol checks"] > 0,
        "tenacity": USES["retry loops"] > 0,
        "logging": True,
        "no-validation": True,
        "gc off": True,
    }
    live["all three"] = sum(live[p] for p in ("singleflight", "logging", "tenacity")) >= 2
    return [name for name in PATCHES if live[name]]


def _event_modules() -> list[Any]:
    """The modules that emit events, each through its own imported ``log``."""
    import prin_guard._route._judging as engine
    import prin_guard.calls as calls

    return [calls, engine]


@contextlib.contextmanager
def _patched(kind: str | None, guard: Any) -> Iterator[None]:
    """Apply the what-if ``kind`` to ``guard`` (already built) and the engine's modules.

    Events come from ``prin_guard.calls`` (judge calls) and ``prin_guard._route._judging``
    (``verdict``): ``logging`` silences both. Single-flight support is decided in
    ``JudgeCaller.__init__``: ``singleflight`` swaps the Protocol in ``calls`` and
    decides ``guard.caller._flight`` again as a caller built under the swap would.
    ``tenacity`` swaps the caller's retry policy (``guard.retry`` is read-only).
    ``Leg`` is built in ``prin_guard._route._legs`` and ``Verdict`` in
    ``prin_guard._route._judging``.
    """
    import prin_guard._route._judging as engine
    import prin_guard._route._legs as legs
    import prin_guard.calls as calls
    import prin_guard.models as models

    if kind is None:
        yield
        return
    if kind == "gc off":
        gc.disable()
        try:
            yield
        finally:
            gc.enable()
        return
    chosen = {"all three": {"singleflight", "logging", "tenacity"}}.get(kind, {kind})
    saved = [(module, "log", module.log) for module in _event_modules()]
    saved += [(calls, "SingleFlight", calls.SingleFlight)]
    saved += [(legs, "Leg", legs.Leg), (engine, "Verdict", engine.Verdict)]
    caller = guard.caller
    saved += [(caller, "retry", caller.retry), (caller, "_flight", caller._flight)]
    try:
        if "singleflight" in chosen:
            calls.SingleFlight = _NotSingleFlight  # type: ignore[misc,assignment]
            cache = caller.cache
            caller._flight = cache if isinstance(cache, _NotSingleFlight) else None
        if "logging" in chosen:
            for module in _event_modules():
                module.log = lambda: _NULL
        if "tenacity" in chosen:
            caller.retry = _OneShot()
        if "no-validation" in chosen:
            legs.Leg = _Unvalidated("Leg", (), {"_model": models.Leg})  # type: ignore[misc]
            engine.Verdict = _Unvalidated("Verdict", (), {"_model": models.Verdict})  # type: ignore[misc]
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
