"""What every benchmark shares: results, statistics, judges, items, profiles, subprocesses."""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import importlib.metadata
import io
import json
import os
import platform
import pstats
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
"""The interpreter running the benchmarks (the project's .venv); children use it too."""


# -- results ---------------------------------------------------------------------------


@dataclass
class Figure:
    """One reported number, beside the baseline it is a ratio of (same run, same rounds)."""

    name: str
    value: float | None
    unit: str = ""
    baseline: str | None = None
    """What the baseline is, in words."""
    baseline_value: float | None = None
    ratio: float | None = None
    """Median over rounds of subject/baseline, each pair measured back to back."""
    spread: tuple[float, float] | None = None
    """Lowest and highest per-round ratio (or value, when there is no baseline)."""
    target: str | None = None
    met: bool | None = None
    """True/False when the figure has a target; None for context figures."""
    note: str = ""


@dataclass
class Section:
    """One benchmark's results, rendered as one section of BENCHMARKS.md."""

    name: str
    title: str
    target: str
    figures: list[Figure] = field(default_factory=list)
    tables: list[tuple[str, str]] = field(default_factory=list)
    """(caption, markdown table)."""
    blocks: list[tuple[str, str]] = field(default_factory=list)
    """(caption, preformatted text): profiles, raw tool output."""
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    skipped: str | None = None

    def add(self, figure: Figure) -> Figure:
        self.figures.append(figure)
        return figure

    def find(self, prefix: str) -> Figure | None:
        """The first figure whose name starts with ``prefix``."""
        return next((f for f in self.figures if f.name.startswith(prefix)), None)

    def why(self, text: str) -> None:
        """Explain a missed target: shown first among the section's notes."""
        self.notes.insert(0, f"**Why the target is missed:** {text}")


@dataclass(frozen=True)
class Context:
    """How big to run: the full suite, or ``--smoke`` (tiny sizes, nothing asserted)."""

    smoke: bool = False

    def pick(self, full: Any, smoke: Any) -> Any:
        return smoke if self.smoke else full


# -- statistics --------------------------------------------------------------------------


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


def spread(values: Sequence[float]) -> tuple[float, float]:
    return (float(min(values)), float(max(values)))


def ratios(subject: Sequence[float], baseline: Sequence[float]) -> list[float]:
    return [s / b for s, b in zip(subject, baseline, strict=True)]


def paired(
    name: str,
    subject: Sequence[float],
    baseline_name: str,
    baseline: Sequence[float],
    *,
    unit: str,
    target: str | None = None,
    limit: float | None = None,
    note: str = "",
) -> Figure:
    """A figure from back-to-back rounds: median value, median per-round ratio, spread.

    ``limit`` is the largest ratio that meets the target (``ratio <= limit``).
    """
    per_round = ratios(subject, baseline)
    ratio = median(per_round)
    return Figure(
        name=name,
        value=median(subject),
        unit=unit,
        baseline=baseline_name,
        baseline_value=median(baseline),
        ratio=ratio,
        spread=spread(per_round),
        target=target,
        met=None if limit is None else ratio <= limit,
        note=note,
    )


def interleave(
    rounds: int, runs: dict[str, Callable[[], float]], *, warmup: int = 1
) -> dict[str, list[float]]:
    """Run every measurement once per round, alternating the order (ABBA) to cancel drift.

    Each callable returns one measurement (seconds, a rate...). ``warmup`` rounds
    run first and are thrown away.
    """
    names = list(runs)
    out: dict[str, list[float]] = {name: [] for name in names}
    for index in range(warmup + rounds):
        order = names if index % 2 == 0 else names[::-1]
        values = {name: runs[name]() for name in order}
        if index >= warmup:
            for name in names:
                out[name].append(values[name])
    return out


async def ainterleave(
    rounds: int, runs: dict[str, Callable[[], Awaitable[float]]], *, warmup: int = 1
) -> dict[str, list[float]]:
    """:func:`interleave` for coroutines measured on the running loop."""
    names = list(runs)
    out: dict[str, list[float]] = {name: [] for name in names}
    for index in range(warmup + rounds):
        order = names if index % 2 == 0 else names[::-1]
        values = {}
        for name in order:
            values[name] = await runs[name]()
        if index >= warmup:
            for name in names:
                out[name].append(values[name])
    return out


# -- judges and items ----------------------------------------------------------------------


RATING_REPLY = (
    "The response is accurate and clear, with one minor omission in its second paragraph. "
    "Rating: [[8]]"
)
MIRRORED_REPLY = (
    "The response has few flaws: one minor omission in its second paragraph. Rating: [[3]]"
)


def reply_for(messages: Sequence[Any]) -> str:
    """A consistent judge: C is correct, and the reverse question gets every other label; a
    rating is 8 of 10, and 3 on the mirrored scale."""
    asked = messages[-1]["content"]
    if "[The Start of Assistant's Answer]" in asked:
        return MIRRORED_REPLY if "how poor the response" in asked else RATING_REPLY
    return "Answer: A, B, D, E" if "incorrect ones" in asked else "Answer: C"


class SleepJudge:
    """A judge with a fixed latency (an ``asyncio.sleep``) and a consistent answer."""

    def __init__(self, seconds: float, *, record: bool = False, name: str | None = None) -> None:
        self.seconds = seconds
        self.calls = 0
        self.record = record
        self.name = name
        self.realised: list[float] = []
        """How long each call really took, sleep to resumption (a busy loop resumes late)."""

    def identity(self) -> dict[str, Any]:
        named = {} if self.name is None else {"name": self.name}
        return {"kind": "bench-sleep", "seconds": self.seconds, **named}

    async def complete(self, messages: Sequence[Any], *, labels: Sequence[str] = ()) -> Any:
        from prin_guard.judges import JudgeResponse

        self.calls += 1
        started = time.perf_counter()
        await asyncio.sleep(self.seconds)
        if self.record:
            self.realised.append(time.perf_counter() - started)
        return JudgeResponse(text=reply_for(messages))


class InstantJudge:
    """A judge that answers at once: whatever a verdict costs beyond it is prin-guard's."""

    def __init__(self) -> None:
        self.calls = 0

    def identity(self) -> dict[str, Any]:
        return {"kind": "bench-instant"}

    async def complete(self, messages: Sequence[Any], *, labels: Sequence[str] = ()) -> Any:
        from prin_guard.judges import JudgeResponse

        self.calls += 1
        return JudgeResponse(text=reply_for(messages))


def make_item(index: int, tag: str = "") -> dict[str, Any]:
    """A MathQA-shaped item (a word problem, five numeric options), unique per index."""
    hours = index % 7 + 2
    speed = index / hours
    return {
        "question": (
            f"A train travels {index} km in {hours} hours at a constant speed{tag}. "
            "What is its average speed in km per hour, rounded to two decimals?"
        ),
        "candidates": [f"{speed + delta:.2f}" for delta in (-2.0, -1.0, 0.0, 1.0, 2.0)],
        "id": f"bench{tag}-{index}",
    }


def items(n: int, tag: str = "") -> Iterator[dict[str, Any]]:
    """``n`` items, made one at a time (a lazy generator, as a stream would be read)."""
    for index in range(n):
        yield make_item(index, tag)


# -- profiles --------------------------------------------------------------------------------

_SITE = re.compile(r"\S*/site-packages/")
_STDLIB = re.compile(r"\S*/lib/python3\.\d+/")


def profile_text(
    profiler: cProfile.Profile,
    *,
    top: int = 15,
    sort: str = "tottime",
    title: str = "",
    exclude: Sequence[str] = (),
    keep: int | None = None,
) -> str:
    """The ``top`` functions of a cProfile run, paths shortened, as pstats prints them.

    Lines containing any of ``exclude`` (import machinery, say) are dropped, and then
    at most ``keep`` rows are kept.
    """
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats(sort).print_stats(top)
    lines = buffer.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    total = next((line.strip() for line in lines if "function calls" in line), "")
    body = [
        _STDLIB.sub("", _SITE.sub("", line.replace(str(ROOT) + "/", "")))
        for line in lines[start:]
        if line.strip() and not any(part in line for part in exclude)
    ]
    if keep is not None:
        body = body[: keep + 1]  # the header line and ``keep`` rows
    head = [title] if title else []
    return "\n".join([*head, f"{total}; sorted by {sort}", *body])


@contextlib.contextmanager
def profiled() -> Iterator[cProfile.Profile]:
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        yield profiler
    finally:
        profiler.disable()


# -- subprocesses ---------------------------------------------------------------------------


def run_child(
    args: Sequence[str],
    *,
    timeout: float = 600.0,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> dict[str, Any]:
    """Run ``python <args>`` from ``cwd`` (the repository root); its last stdout line is JSON."""
    done = subprocess.run(
        [PYTHON, *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"child {' '.join(args)} exited {done.returncode}: {done.stderr[-3000:]}"
        )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return dict(json.loads(lines[-1]))


def wall(
    argv: Sequence[str], *, env: dict[str, str] | None = None, timeout: float | None = None
) -> float:
    """Seconds from spawning ``argv`` to its exit (output discarded; must exit 0)."""
    started = time.perf_counter()
    subprocess.run(
        list(argv),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd="/",
    )
    return time.perf_counter() - started


def max_rss_mb() -> float:
    """This process's peak resident set size so far, in MiB.

    Read from ``VmHWM`` in ``/proc/self/status``, the high-water mark of this
    process's own address space. Not ``ru_maxrss``: Linux carries the parent's
    high-water mark into a child across fork and exec, so a child spawned by a
    benchmark process that holds the model would report the parent's peak.
    """
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- the machine -------------------------------------------------------------------------------

PACKAGES = (
    "prin-guard",
    "pydantic",
    "pydantic-core",
    "structlog",
    "tenacity",
    "redis",
    "hiredis",
    "litellm",
    "llama_cpp_python",
    "torch",
    "transformers",
    "gguf",
)


def machine() -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = None
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = round(int(line.split()[1]) / 1024 / 1024, 1)
    versions = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)),
        "memory_gib": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "python_path": sys.executable,
        "versions": versions,
        "redis_server": _redis_version(),
        "git": _git(),
    }


def _redis_version() -> str:
    try:
        out = subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "INFO", "server"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "unreachable"
    found = re.search(r"redis_version:(\S+)", out)
    return found.group(1) if found else "unknown"


def _git() -> str:
    """The commit and whether the library tree differs from it (read-only git commands)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "prin_guard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    changed = [line[3:] for line in dirty if line.strip()]
    if not changed:
        return f"{head} (library clean)"
    return f"{head} + uncommitted changes in {', '.join(changed)}"


# -- formatting ----------------------------------------------------------------------------------


def fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "n/a"
    magnitude = abs(value)
    if magnitude >= 1000:
        text = f"{value:,.0f}"
    elif magnitude >= 100:
        text = f"{value:.0f}"
    elif magnitude >= 10:
        text = f"{value:.1f}"
    elif magnitude >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3f}"
    return f"{text} {unit}".strip()


def fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}×"


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = [
        "| " + " | ".join(cell(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def quiet_logging() -> None:
    """Keep prin-guard's events (and third-party chatter) out of the benchmark output."""
    import logging
    import warnings

    logging.getLogger("prin_guard").setLevel(logging.WARNING)
    for name in ("LiteLLM", "litellm", "httpx", "transformers"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def elapsed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


async def aelapsed(coro: Awaitable[Any]) -> float:
    started = time.perf_counter()
    await coro
    return time.perf_counter() - started


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


# -- the bundled model ---------------------------------------------------------------------------

_LOCAL_JUDGES: dict[tuple[int, int | None], Any] = {}


def local_judge(ctx: Context, *, threads: int | None = None) -> Any:
    """A bundled-model judge, built once per process and settings; all share the weights.

    The full run measures LocalJudge's defaults unless ``threads`` is given. ``--smoke``
    caps replies at 4 new tokens and uses one torch thread (on a busy 2-core machine two
    threads can be ten times slower, see benchmark 5): the run must stay short, and smoke
    figures mean nothing anyway.
    """
    max_new_tokens = ctx.pick(48, 4)
    threads = 1 if ctx.smoke else threads
    key = (max_new_tokens, threads)
    if key not in _LOCAL_JUDGES:
        from prin_guard import LocalJudge

        _LOCAL_JUDGES[key] = LocalJudge(max_new_tokens=max_new_tokens, threads=threads)
    return _LOCAL_JUDGES[key]
