"""12. The service while it reads long replies: /healthz stays fast.

``prin-guard serve`` (one worker, loopback) with a judge that repeats its whole prompt
(``bench/_echo_judge.py``): 4 concurrent requests, each a batch of 8 checklist items whose
response is 0.79 MB, so every leg's reply is about 0.8 MB. Meanwhile a client asks
``/healthz`` every 20 ms; its latencies under that load are compared with the same client's
on the idle service, in the same run. Before the reader ran long replies off the event
loop (and read them in time linear in their length), the event loop was blocked for
seconds per leg: /healthz took 7.0 s and 10.4 s (issue 27, item 5).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._common import Context, Figure, Section, md_table, median
from bench.load import KEY, Server

NAME = "long_replies"
TITLE = "12. The service while it reads long replies"
TARGET = (
    "/healthz p99 < 100 ms while 4 batches of 8 items of 0.79 MB are judged and read; "
    "every adversarial 1 MB reply read in < 0.2 s on every task"
)
LIMIT_MS = 100.0


def _response(size: int, seed: int) -> str:
    rng = random.Random(seed)
    words = [
        "the",
        "essay",
        "argues",
        "that",
        "cities",
        "grow",
        "where",
        "rivers",
        "meet",
        "and",
        "trade",
        "follows",
    ]
    out: list[str] = []
    length = 0
    while length < size:
        sentence = " ".join(rng.choice(words) for _ in range(14)).capitalize() + "."
        out.append(sentence)
        length += len(sentence) + 1
    return " ".join(out)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _poll(base: str, stop: Any, out: Any) -> None:
    """Ask /healthz every 20 ms until ``stop`` is set, then put the latencies (ms) on
    ``out``. Run in a process of its own: the posters' threads (which encode and receive
    megabytes of JSON) would otherwise delay it in this one."""
    import httpx

    latencies: list[float] = []
    with httpx.Client(timeout=30) as client:
        while not stop.is_set():
            started = time.perf_counter()
            client.get(f"{base}/healthz").raise_for_status()
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(0.02)
    out.put(latencies)


def _probe(base: str, until: Callable[[], None]) -> list[float]:
    """/healthz latencies (ms) from a separate process while ``until()`` runs."""
    context = multiprocessing.get_context("spawn")
    stop, out = context.Event(), context.Queue()
    poller = context.Process(target=_poll, args=(base, stop, out))
    poller.start()
    try:
        time.sleep(0.5)  # the poller's interpreter has started
        until()
    finally:
        stop.set()
    latencies: list[float] = out.get(timeout=60)
    poller.join(timeout=60)
    return latencies


SHAPE_LIMIT_S = 0.2
"""Each adversarial shape of a 1 MB reply is read in under this, on every task."""


# one item per task, as read_reply reads them (the rating with two aspects whose names
# share a word, the "one line of spaces against two aspects")
READ_ITEMS: dict[str, dict[str, Any]] = {
    "rating": {"task": "rating", "response": "Paris.", "scale": {"min": 1, "max": 10}},
    "aspects": {
        "task": "rating",
        "response": "Paris.",
        "scale": {"min": 1, "max": 5},
        "aspects": ["fluency", "fluency score"],
    },
    "pairwise": {"task": "pairwise", "question": "Capital?", "candidates": ["Paris", "Lyon"]},
    "choice": {"task": "choice", "question": "2 + 2?", "candidates": ["3", "4", "5"]},
    "checklist": {
        "task": "checklist",
        "response": "Rome is a city.",
        "candidates": ["Names a city.", "Cites a source."],
    },
}


def shapes(size: int) -> dict[str, str]:
    """Replies of ``size`` characters that a looping model writes (issue 37, item 3: each
    took seconds at 16 kB when the reader was quadratic on it), and prose."""
    return {
        "prose": _response(size, 0),
        "whitespace only": " " * size,
        "newlines only": "\n" * size,
        '"Score:" then spaces': "Score:" + " " * (size - 6),
        '"Answer" then spaces': "Answer" + " " * (size - 6),
        'a run of "{"': "{" * size,
        '"Rating: [[8]]" then spaces': "Rating: [[8]]" + " " * (size - 13),
        '"Fluency:" then spaces': "Fluency:" + " " * (size - 8),
        '"7" then spaces': "7" + " " * (size - 1),
        '"I" then spaces': "I" + " " * (size - 1),
    }


# What a judge that loops writes: its answer line, or a paragraph of its reasoning, over
# and over until the token limit; per task, in that task's labels
LOOPS: dict[str, dict[str, str]] = {
    "an answer line, repeated": {
        "choice": "Answer: The answer is (C). It is not (A).\n",
        "pairwise": "Answer: The better response is (B). It is not (A).\n",
    },
    "a paragraph of reasoning, repeated": {
        "choice": (
            "Let me think about this step by step. Option A says 3, which is wrong because "
            "2 + 2 is 4. Option B says 4, which is correct. Option C says 5, which is too "
            "large. So the answer is B.\n\n"
        ),
        "pairwise": (
            "Let me compare the two responses. Response A says Paris, which is the capital "
            "of France. Response B says Lyon, which is a large city but not the capital. So "
            "the better response is A.\n\n"
        ),
    },
}
LOOP_LEGS = (("choice", "direct"), ("choice", "reverse"), ("pairwise", "direct"))
"""The legs a looping reply is read on: a choice's both questions, a pair's direct one."""
LOOP_SIZES = (10_000, 40_000, 160_000, 1_000_000)


def looped(unit: str, size: int) -> str:
    """``unit`` repeated to ``size`` characters (the last copy cut, as a token limit cuts)."""
    return (unit * (size // len(unit) + 1))[:size]


def _loop_times(sizes: tuple[int, ...], rounds: int) -> dict[tuple[str, int], dict[str, float]]:
    """Seconds ``read_reply`` takes on each looping reply of each size, per leg (best of
    ``rounds``)."""
    from prin_guard import read_reply

    for task, leg in LOOP_LEGS:  # patterns compiled, caches warm
        read_reply("Answer: A", READ_ITEMS[task], polarity=leg)
    out: dict[tuple[str, int], dict[str, float]] = {}
    for name, units in LOOPS.items():
        for size in sizes:
            times = out[(name, size)] = {}
            for task, leg in LOOP_LEGS:
                text = looped(units[task], size)
                best = float("inf")
                for _ in range(rounds):
                    started = time.perf_counter()
                    read_reply(text, READ_ITEMS[task], polarity=leg)
                    best = min(best, time.perf_counter() - started)
                times[f"{task} {leg}"] = best
    return out


def _loop_figures(section: Section, sizes: tuple[int, ...], rounds: int) -> None:
    times = _loop_times(sizes, rounds)
    largest = max(sizes)
    for name in LOOPS:
        leg, slowest = max(times[(name, largest)].items(), key=lambda entry: entry[1])
        section.add(
            Figure(
                f"read_reply on {largest / 1e6:g} MB: {name}",
                slowest * 1000,
                unit="ms",
                target=f"< {SHAPE_LIMIT_S * 1000:.0f} ms",
                met=slowest < SHAPE_LIMIT_S,
                note=f"slowest leg: {leg}",
            )
        )
    legs = [f"{task} {leg}" for task, leg in LOOP_LEGS]
    section.tables.append(
        (
            f"read_reply on a looping reply, ms (best of {rounds}), per leg",
            md_table(
                ["reply", "size", *legs],
                [
                    [name, f"{size / 1000:g} kB", *(f"{times[(name, size)][leg] * 1000:.0f}"
                                                    for leg in legs)]
                    for (name, size) in times
                ],
            ),
        )
    )  # fmt: skip


def _read_times(size: int, rounds: int) -> dict[str, dict[str, float]]:
    """Seconds ``read_reply`` takes on each shape for each task (best of ``rounds``)."""
    from prin_guard import read_reply

    for item in READ_ITEMS.values():  # patterns compiled, caches warm
        read_reply("Rating: [[3]]" if item["task"] == "rating" else "Answer: A", item)
    out: dict[str, dict[str, float]] = {}
    for name, text in shapes(size).items():
        out[name] = {}
        for task, item in READ_ITEMS.items():
            best = float("inf")
            for _ in range(rounds):
                started = time.perf_counter()
                read_reply(text, item)
                best = min(best, time.perf_counter() - started)
            out[name][task] = best
    return out


def _shape_figures(section: Section, size: int, rounds: int) -> None:
    times = _read_times(size, rounds)
    for name, by_task in times.items():
        task, slowest = max(by_task.items(), key=lambda entry: entry[1])
        section.add(
            Figure(
                f"read_reply on {size / 1e6:g} MB: {name}",
                slowest * 1000,
                unit="ms",
                target=f"< {SHAPE_LIMIT_S * 1000:.0f} ms",
                met=slowest < SHAPE_LIMIT_S,
                note=f"slowest task: {task}",
            )
        )
    tasks = list(READ_ITEMS)
    section.tables.append(
        (
            f"read_reply on a {size / 1e6:g} MB reply, ms (best of {rounds}), per task",
            md_table(
                ["shape", *tasks],
                [[name, *(f"{times[name][t] * 1000:.0f}" for t in tasks)] for name in times],
            ),
        )
    )


def run(ctx: Context) -> Section:
    import httpx

    section = Section(NAME, TITLE, TARGET)
    _shape_figures(section, ctx.pick(1_000_000, 20_000), ctx.pick(3, 1))
    _loop_figures(section, ctx.pick(LOOP_SIZES, (10_000, 40_000)), ctx.pick(3, 1))
    batches, per_batch = ctx.pick((4, 8), (2, 2))
    size = ctx.pick(790_000, 200_000)
    items = [
        [
            {
                "task": "checklist",
                "id": f"b{b}-{n}",
                "response": _response(size, b * 100 + n),
                "candidates": ["Names a city.", "Cites a source."],
            }
            for n in range(per_batch)
        ]
        for b in range(batches)
    ]
    env = {
        "PRIN_GUARD_MAX_CHARS": str(size + 1000),
        "PRIN_GUARD_MAX_BODY_BYTES": str(per_batch * size * 2 + 100_000),
        "PRIN_GUARD_REQUEST_TIMEOUT": "600",
    }
    with tempfile.TemporaryDirectory(prefix="prin-guard-long-") as tmp, Server(
        Path(tmp), judge="python:bench._echo_judge:judge", env=env
    ) as server:  # fmt: skip
        idle = _probe(server.base, lambda: time.sleep(ctx.pick(3.0, 0.5)))
        # the bodies encoded before the clock starts; the answers read, not decoded
        bodies = [json.dumps({"items": batch}).encode() for batch in items]
        statuses: list[int] = []

        def post(body: bytes) -> None:
            with httpx.Client(timeout=600) as client:
                answer = client.post(
                    f"{server.base}/v1/verdicts",
                    content=body,
                    headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"},
                )
                statuses.append(answer.status_code)

        timing: list[float] = []

        def judge_all() -> None:
            posters = [threading.Thread(target=post, args=(body,)) for body in bodies]
            started = time.perf_counter()
            for poster in posters:
                poster.start()
            for poster in posters:
                poster.join()
            timing.append(time.perf_counter() - started)

        loaded = _probe(server.base, judge_all)
        wall = timing[0]
    p99 = _percentile(loaded, 0.99)
    section.add(
        Figure(
            "/healthz p99 while long replies are judged and read",
            p99,
            unit="ms",
            baseline="/healthz p99 on the idle service",
            baseline_value=_percentile(idle, 0.99),
            ratio=p99 / max(_percentile(idle, 0.99), 1e-9),
            target=f"< {LIMIT_MS:.0f} ms",
            met=p99 < LIMIT_MS and statuses == [200] * len(items),
            note=f"{len(loaded)} probes in {wall:.1f} s; responses {sorted(set(statuses))}",
        )
    )
    section.tables.append(
        (
            "/healthz latency (ms)",
            md_table(
                ["service", "probes", "p50", "p99", "max"],
                [
                    [name, len(values), f"{median(values):.1f}", f"{_percentile(values, 0.99):.1f}",
                     f"{max(values):.1f}"]
                    for name, values in (("idle", idle), ("judging long replies", loaded))
                ],
            ),
        )
    )  # fmt: skip
    section.notes.append(
        f"{batches} concurrent requests of {per_batch} checklist items, each response "
        f"{size / 1e6:.2f} MB; the judge repeats its prompt, so each leg's reply is about as "
        "long. The reader reads a reply longer than 16 kB in a worker thread, and a reply "
        "longer than 64 kB in its first and last 32 kB."
    )
    return section
