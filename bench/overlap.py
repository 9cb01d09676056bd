"""1. Leg overlap: a verdict asks two questions, concurrently, so it should cost one call.

Judge: a fixed 100 ms latency (``asyncio.sleep``). Baseline: one call to that judge,
measured back to back with one guarded verdict, round after round.
Target: verdict / call <= 1.10, also with the order check (four legs), for a pairwise item
with the order check (the swap: four legs), for a panel of three judges with the order
check (twelve legs), and for a rating (two legs; three with a rubric and the order check).
Reading a rating's score adds no measurable time: its cost per reply is reported beside
the call it reads.
"""

from __future__ import annotations

import asyncio
import itertools

from bench._common import (
    Context,
    Figure,
    Section,
    SleepJudge,
    aelapsed,
    ainterleave,
    elapsed,
    interleave,
    make_item,
    paired,
)

NAME = "overlap"
TITLE = "1. Leg overlap"
TARGET = (
    "one guarded verdict ≤ 1.10× one judge call (judge latency 100 ms), also with "
    "checks reverse+order, for a pairwise item with the swap, for a 3-judge panel, and for a "
    "rating (both legs overlapped)"
)
LATENCY = 0.100
LIMIT = 1.10


def run(ctx: Context) -> Section:
    from prin_guard import Guard

    section = Section(NAME, TITLE, TARGET)
    rounds = ctx.pick(15, 3)
    judge = SleepJudge(LATENCY)
    item = make_item(7)
    messages = [{"role": "user", "content": item["question"]}]

    panel = [SleepJudge(LATENCY, name=f"panel-{n}") for n in range(3)]
    rating = {
        "task": "rating",
        "question": item["question"],
        "response": item["candidates"][2],
        "scale": {"min": 1, "max": 10},
    }
    levels = {"1": "wrong", "5": "partly right", "10": "right"}
    rubric = {**rating, "scale": {"min": 1, "max": 10, "rubric": levels}}
    pair = {
        "task": "pairwise",
        "question": item["question"],
        "candidates": item["candidates"][:2],
        "id": "pair",
    }

    async def measure() -> dict[str, list[float]]:
        guard_off = Guard(judge, cache=None)
        guard_mem = Guard(judge)  # the default in-memory cache, a new item every round
        guard_order = Guard(judge, cache=None, checks=("reverse", "order"))
        guard_panel = Guard(panel, cache=None, checks=("reverse", "order"), concurrency=16)
        fresh = itertools.count()
        per_verdict: dict[str, list[int]] = {
            "order": [],
            "panel": [],
            "pairwise": [],
            "rating": [],
            "rubric": [],
        }
        fresh_rating = itertools.count()

        async def verdict_rating() -> float:
            started = asyncio.get_running_loop().time()
            given = {**rating, "id": f"rating-{next(fresh_rating)}"}
            verdict = await guard_off.acheck(given)
            assert verdict.rating == 8.0, verdict
            per_verdict["rating"].append(verdict.judge_calls)
            return asyncio.get_running_loop().time() - started

        async def verdict_rubric() -> float:
            started = asyncio.get_running_loop().time()
            verdict = await guard_order.acheck(rubric)
            assert verdict.rating == 8.0, verdict
            per_verdict["rubric"].append(verdict.judge_calls)
            return asyncio.get_running_loop().time() - started

        async def verdict_order() -> float:
            started = asyncio.get_running_loop().time()
            verdict = await guard_order.acheck(item)
            per_verdict["order"].append(verdict.judge_calls)
            return asyncio.get_running_loop().time() - started

        async def verdict_pairwise() -> float:
            started = asyncio.get_running_loop().time()
            verdict = await guard_order.acheck(pair)
            per_verdict["pairwise"].append(verdict.judge_calls)
            return asyncio.get_running_loop().time() - started

        async def verdict_panel() -> float:
            started = asyncio.get_running_loop().time()
            verdict = await guard_panel.acheck(item)
            per_verdict["panel"].append(verdict.judge_calls)
            return asyncio.get_running_loop().time() - started

        async def one_call() -> float:
            return await aelapsed(judge.complete(messages))

        async def verdict_off() -> float:
            return await aelapsed(guard_off.acheck(item))

        async def verdict_mem() -> float:
            cold = make_item(next(fresh), "-cold")
            return await aelapsed(guard_mem.acheck(cold))

        got = await ainterleave(
            rounds,
            {
                "call": one_call,
                "off": verdict_off,
                "mem": verdict_mem,
                "order": verdict_order,
                "pairwise": verdict_pairwise,
                "panel": verdict_panel,
                "rating": verdict_rating,
                "rubric": verdict_rubric,
            },
        )
        calls.update({name: sum(n) / len(n) for name, n in per_verdict.items()})
        return got

    calls: dict[str, float] = {}
    calls_before = judge.calls
    got = asyncio.run(measure())
    verdicts = 2 * (rounds + 1)  # two guards, one warm-up round
    order_calls = 4 * (rounds + 1) * 2  # the choice item's and the pair's four legs
    rating_calls = (2 + 3) * (rounds + 1)  # the rating's two legs, the rubric's three
    calls_per_verdict = (
        judge.calls - calls_before - (rounds + 1) - order_calls - rating_calls
    ) / verdicts

    # The synchronous API drives a private event loop; its baseline does the same.
    runner = asyncio.Runner()
    guard_sync = Guard(judge, cache=None)
    try:
        sync = interleave(
            rounds,
            {
                "call": lambda: elapsed(lambda: runner.run(judge.complete(messages))),
                "check": lambda: elapsed(lambda: guard_sync.check(item)),
            },
        )
    finally:
        guard_sync.close()
        runner.close()

    to_ms = 1000.0
    rows = [
        ("`await guard.acheck(item)`, cache off", got, "off"),
        ("`await guard.acheck(item)`, default MemoryCache, a new item each round", got, "mem"),
        ("`await guard.acheck(item)`, checks reverse+order (four legs), cache off", got, "order"),
        (
            "`await guard.acheck(pair)`, a pairwise item, checks reverse+order (the swap: "
            "four legs), cache off",
            got,
            "pairwise",
        ),
        (
            "`await guard.acheck(item)`, a panel of 3 judges, checks reverse+order "
            "(twelve legs), cache off",
            got,
            "panel",
        ),
        (
            "`await guard.acheck(rating)`, a rating on 1-10 (both legs), cache off",
            got,
            "rating",
        ),
        (
            "`await guard.acheck(rating)`, a rating with a rubric, checks reverse+order "
            "(three legs), cache off",
            got,
            "rubric",
        ),
        ("`guard.check(item)` (sync API, private loop), cache off", sync, "check"),
    ]
    for label, times, name in rows:
        baseline = (
            "one `runner.run(judge.complete(...))`"
            if times is sync
            else "one `await judge.complete(...)`"
        )
        section.add(
            paired(
                label,
                [v * to_ms for v in times[name]],
                baseline,
                [v * to_ms for v in times["call"]],
                unit="ms",
                target=f"≤ {LIMIT:.2f}×",
                limit=LIMIT,
            )
        )
    section.add(
        Figure(
            "judge calls per verdict (sanity check: both legs really ran)",
            calls_per_verdict,
            unit="calls",
        )
    )
    section.add(
        Figure("judge calls per verdict, checks reverse+order", calls["order"], unit="calls")
    )
    section.add(
        Figure(
            "judge calls per verdict, pairwise, checks reverse+order",
            calls["pairwise"],
            unit="calls",
        )
    )
    section.add(
        Figure(
            "judge calls per verdict, 3-judge panel, checks reverse+order",
            calls["panel"],
            unit="calls",
        )
    )
    section.add(Figure("judge calls per rating", calls["rating"], unit="calls"))
    section.add(
        Figure("judge calls per rating, rubric, reverse+order", calls["rubric"], unit="calls")
    )
    section.add(_reading_a_score())
    section.notes.append(
        f"{rounds} rounds after one warm-up round; in each round the baseline call and the "
        "verdicts are timed back to back (order alternating), and the ratio is the median of "
        "the per-round ratios; the range is the lowest and highest per-round ratio."
    )
    return section


def _reading_a_score() -> Figure:
    """What reading a rating's score costs per reply (both legs of a verdict read one
    each), measured on the bench judge's reply; beside a 100 ms call it is noise."""
    import timeit

    from bench._common import RATING_REPLY
    from prin_guard._prompting._rating import Scale
    from prin_guard.reader import read_score

    scale = Scale(1, 10)
    texts = ("What is the capital of France?", "Paris is the capital of France.")
    number = 2000
    best = min(
        timeit.repeat(
            lambda: read_score(RATING_REPLY, scale, copied_from=texts), number=number, repeat=5
        )
    )
    return Figure(
        "reading a rating's score (one reply, copies looked for in the item's texts); "
        f"a verdict reads two, {2 * best / number * 1e6 / (LATENCY * 1e6) * 100:.3f}% of "
        "one 100 ms call",
        best / number * 1e6,
        unit="µs",
    )
