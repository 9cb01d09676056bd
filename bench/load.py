"""8. Load and soak: `prin-guard serve` under a maintained load generator (locust), on loopback.

The service runs as ``prin-guard serve`` (one worker, its own free port on 127.0.0.1,
an API key, the default per-worker MemoryCache) with a function judge that sleeps
100 ms (``bench/_load_judge.py``). locust runs headless in a subprocess
(``bench/_locustfile.py``): each user posts single-item verdict requests back to back,
every one with a question never asked before, so every request is judged (the cache
never answers; the server's own counters check it). Two phases:

1. load: 200 concurrent users for 60 s;
2. soak: 50 users for 5 minutes, the server's RSS sampled throughout.

The bound on throughput is the server's ``concurrency`` (judge calls in flight per
worker): ``concurrency`` calls / 0.1 s / 2 legs per verdict, 80 verdicts/s at the
default 16. Targets: 0 errors; achieved verdicts/s ≥ 90 % of that bound; the server's
RSS at the end of the soak within 10 % of its RSS at the start.

Everything is bounded: locust's ``--run-time`` (and a kill after a grace period), a
deadline on the server's start, timeouts on every HTTP call, and the server stopped in
a ``finally`` (SIGTERM, then SIGKILL).
"""

from __future__ import annotations

import contextlib
import csv
import gc
import importlib.util
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench._common import PYTHON, ROOT, Context, Figure, Section, md_table

NAME = "load"
TITLE = "8. Load and soak over HTTP (locust)"
TARGET = (
    "0 errors; verdicts/s ≥ 90 % of the concurrency bound (16 calls in flight, 100 ms "
    "judge: 80/s); server RSS flat within 10 % over a 5-minute soak"
)
LATENCY = 0.100
CONCURRENCY = 16
"""The server's ``concurrency`` (judge calls in flight per worker), set explicitly."""
BOUND_SHARE = 0.90
RSS_LIMIT = 1.10
KEY = "bench-load-key-" + "0123456789abcdef"
METRICS_TOKEN = "bench-metrics-token-" + "0123456789abcdef"
LOCUSTFILE = ROOT / "bench" / "_locustfile.py"
JUDGE_SPEC = "python:bench._load_judge:judge"
STOP_TIMEOUT = 10
"""Seconds locust lets users finish the request they are in at the end of a phase."""

TODAY = (
    "Before this benchmark (quoted in issue 11): 1,000 requests at concurrency 200, 0 "
    "errors, 77 verdicts/s (bound 80/s), p99 2.6 s, RSS 64 -> 65 MiB."
)


def run(ctx: Context) -> Section:
    section = Section(NAME, TITLE, TARGET)
    if importlib.util.find_spec("locust") is None:
        section.skipped = (
            "locust is not installed: `.venv/bin/pip install 'locust>=2.20'` "
            "(it is in the `dev` extra)"
        )
        return section
    load_users, load_secs = ctx.pick((200, 60), (10, 2))
    soak_users, soak_secs = ctx.pick((50, 300), (10, 2))
    sample_every = ctx.pick(10.0, 1.0)
    bound = CONCURRENCY / LATENCY / 2

    with tempfile.TemporaryDirectory(prefix="prin-guard-load-") as tmp:
        work = Path(tmp)
        with Server(work) as server:
            load = locust(server.base, load_users, load_secs, work, "load")
            server_after_load = server.metrics()
            sampler = RssSampler(server.pid, sample_every)
            rss_start = sampler.start()
            soak = locust(server.base, soak_users, soak_secs, work, "soak")
            rss_end = sampler.stop()
            server_after_soak = server.metrics()
        samples = sampler.samples

    per_entry = cache_entry_bytes(ctx.pick(2000, 200))
    soak_verdicts = _delta(server_after_soak, server_after_load, "prin_guard_verdicts_total")
    soak_entries = _delta(
        server_after_soak, server_after_load, "prin_guard_cache_misses_total"
    )  # a judged leg is one miss, and one entry written
    cache_growth = soak_entries * per_entry / 2**20

    for phase, got, users, secs in (
        ("load", load, load_users, load_secs),
        ("soak", soak, soak_users, soak_secs),
    ):
        label = f"{phase}: {users} users, {secs} s"
        section.add(
            Figure(
                f"{label}: errors",
                got["failures"],
                unit="errors",
                note=f"of {got['requests']:,} requests",
                target="0",
                met=got["failures"] == 0,
            )
        )
        section.add(
            Figure(
                f"{label}: achieved verdicts/s",
                got["rate"],
                unit="verdicts/s",
                baseline=f"bound: {CONCURRENCY} calls in flight / {LATENCY:.1f} s / 2 legs",
                baseline_value=bound,
                ratio=got["rate"] / bound,
                target=f"≥ {BOUND_SHARE:.0%} of the bound",
                met=got["rate"] >= BOUND_SHARE * bound,
            )
        )
        section.add(Figure(f"{label}: p50 latency", got["p50"], unit="ms"))
        section.add(Figure(f"{label}: p99 latency", got["p99"], unit="ms"))

    section.add(
        Figure(
            f"server RSS, end of the soak against its start ({soak_secs} s)",
            rss_end,
            unit="MiB",
            baseline="RSS at the start of the soak (after the load phase)",
            baseline_value=rss_start,
            ratio=rss_end / rss_start,
            spread=(min(samples) / rss_start, max(samples) / rss_start) if samples else None,
            target=f"≤ {RSS_LIMIT:.2f}× (flat within 10 %)",
            met=rss_end / rss_start <= RSS_LIMIT,
            note=f"{soak_verdicts:,.0f} verdicts in the soak; range: lowest and highest sample",
        )
    )
    section.add(
        Figure(
            "server RSS growth over the soak beyond the MemoryCache's own (estimated) growth",
            rss_end - rss_start - cache_growth,
            unit="MiB",
            note=(
                f"{soak_entries:,.0f} cache entries written during the soak × "
                f"~{per_entry:.0f} B each = {cache_growth:.1f} MiB"
            ),
        )
    )
    if rss_end / rss_start > RSS_LIMIT:
        section.why(
            "every request asks a new question, so every judged leg writes an entry to the "
            "worker's MemoryCache, which is bounded (100,000 entries, least recently used "
            f"out) but not full within the run: {soak_entries:,.0f} entries were written "
            f"during the soak, ~{per_entry:.0f} bytes each as measured in process "
            f"(tracemalloc over {ctx.pick(2000, 200):,} verdicts through the same judge), "
            f"{cache_growth:.1f} MiB. The figure below the RSS ratio is what is left once "
            "that is taken off. Once the cache is full its size stays put; a deployment "
            "with Redis keeps no entries in the worker at all."
        )

    server_verdicts = _total(server_after_soak, "prin_guard_verdicts_total")
    judged = server_after_soak.get('prin_guard_judge_calls_total{outcome="ok"}', 0.0)
    hits = server_after_soak.get("prin_guard_cache_hits_total", 0.0)
    failed_calls = server_after_soak.get(
        'prin_guard_judge_calls_total{outcome="error"}', 0.0
    ) + server_after_soak.get('prin_guard_judge_calls_total{outcome="cancelled"}', 0.0)
    section.add(
        Figure(
            "judge calls per verdict on the server (both phases; every request judged)",
            judged / server_verdicts if server_verdicts else None,
            unit="calls",
            note=f"{server_verdicts:,.0f} verdicts, {hits:,.0f} cache hits, "
            f"{failed_calls:,.0f} failed or cancelled calls",
        )
    )

    rows = []
    for phase, got, users, secs in (
        ("load", load, load_users, load_secs),
        ("soak", soak, soak_users, soak_secs),
    ):
        rows.append(
            [
                phase,
                users,
                f"{secs} s",
                f"{got['requests']:,}",
                got["failures"],
                f"{got['rate']:.1f}",
                f"{got['first_rate']:.1f} / {got['last_rate']:.1f}",
                f"{got['p50']:,.0f}",
                f"{got['p99']:,.0f}",
                f"{got['max']:,.0f}",
            ]
        )
    section.tables.append(
        (
            "Both phases, as locust counted them",
            md_table(
                [
                    "phase",
                    "users",
                    "run time",
                    "requests",
                    "errors",
                    "verdicts/s",
                    f"verdicts/s first / last {load['window']:.0f} s (load), "
                    f"{soak['window']:.0f} s (soak)",
                    "p50 ms",
                    "p99 ms",
                    "max ms",
                ],
                rows,
            ),
        )
    )
    if samples:
        section.tables.append(
            (
                f"Server RSS during the soak, sampled every {sample_every:.0f} s (MiB)",
                md_table(
                    ["t (s)", *[f"{t:.0f}" for t, _ in sampler.timeline]],
                    [["RSS", *[f"{v:.1f}" for _, v in sampler.timeline]]],
                ),
            )
        )
    section.notes.append(
        f"The service: `prin-guard serve --host 127.0.0.1 --port <free> --workers 1 --judge "
        f"{JUDGE_SPEC}` with `PRIN_GUARD_API_KEYS` set, `PRIN_GUARD_CONCURRENCY={CONCURRENCY}`, "
        "no Redis (the default MemoryCache), log level warning. The load: `python -m locust "
        "-f bench/_locustfile.py --headless -u <users> -r <users> --run-time <s> "
        f"--stop-timeout {STOP_TIMEOUT}` (FastHttpUser, no wait between requests, a new "
        "question on every request), all on 127.0.0.1, on the same two cores as the server. "
        "Latency is locust's, request sent to body read; locust rounds it (to 10 ms above "
        "100 ms, to 100 ms above 1 s). Verdicts/s is locust's rate (requests over the time "
        "from the first to the last). With N users always waiting on a server that can answer "
        "80 verdicts/s, a request waits about N / 80 s: 2.5 s for 200 users, 0.6 s for 50."
    )
    section.notes.append(
        "RSS is the server process's resident set size (psutil, else VmRSS from "
        "/proc/<pid>/status), read just before the soak starts (after the load phase has "
        "warmed the server) and just after it ends."
    )
    section.notes.append(TODAY)
    return section


# -- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``prin-guard serve`` in a subprocess; stopped on exit, whatever happened."""

    def __init__(
        self,
        work: Path,
        *,
        start_timeout: float = 60.0,
        judge: str = JUDGE_SPEC,
        env: dict[str, str] | None = None,
    ) -> None:
        self.work = work
        self.judge = judge
        self.extra_env = dict(env or {})
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = work / "server.log"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def __enter__(self) -> Server:
        import httpx

        env = {k: v for k, v in os.environ.items() if not k.startswith("PRIN_GUARD_")}
        env.update(
            {
                "PYTHONPATH": os.pathsep.join(
                    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
                ),
                "PRIN_GUARD_API_KEYS": KEY,
                "PRIN_GUARD_METRICS_TOKEN": METRICS_TOKEN,
                "PRIN_GUARD_CONCURRENCY": str(CONCURRENCY),
                **self.extra_env,
            }
        )
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        binary = Path(PYTHON).with_name("prin-guard")
        command = [str(binary)] if binary.exists() else [PYTHON, "-m", "prin_guard.cli"]
        command += [
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
            "--judge",
            self.judge,
            "--log-level",
            "warning",
        ]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                command, env=env, cwd=self.work, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            deadline = time.monotonic() + self.start_timeout
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{self.base}/readyz", timeout=2).status_code == 200:
                        break
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {self._log_tail()}")
                time.sleep(0.2)
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def metrics(self) -> dict[str, float]:
        import httpx

        response = httpx.get(
            f"{self.base}/metrics",
            headers={"Authorization": f"Bearer {METRICS_TOKEN}"},
            timeout=10,
        )
        response.raise_for_status()
        samples = {}
        for line in response.text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                with contextlib.suppress(ValueError):
                    samples[name] = float(value)
        return samples

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-3000:]
        return ""


def _total(samples: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in samples.items() if re.match(rf"{re.escape(prefix)}(\{{|$)", k))


def _delta(after: dict[str, float], before: dict[str, float], prefix: str) -> float:
    return _total(after, prefix) - _total(before, prefix)


# -- RSS ---------------------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    try:
        import psutil

        return float(psutil.Process(pid).memory_info().rss) / 2**20
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no VmRSS for process {pid}") from None


class RssSampler:
    """The server's RSS at the start, every ``every`` seconds, and at the end."""

    def __init__(self, pid: int, every: float) -> None:
        self.pid = pid
        self.every = every
        self.timeline: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._t0 = 0.0

    @property
    def samples(self) -> list[float]:
        return [v for _, v in self.timeline]

    def start(self) -> float:
        self._t0 = time.monotonic()
        first = rss_mib(self.pid)
        self.timeline.append((0.0, first))
        self._thread.start()
        return first

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            with contextlib.suppress(Exception):
                self.timeline.append((time.monotonic() - self._t0, rss_mib(self.pid)))

    def stop(self) -> float:
        self._stop.set()
        self._thread.join(timeout=10)
        last = rss_mib(self.pid)
        self.timeline.append((time.monotonic() - self._t0, last))
        return last


# -- locust ------------------------------------------------------------------------------------


def locust(base: str, users: int, seconds: int, work: Path, tag: str) -> dict[str, Any]:
    """Run one headless locust phase against ``base``; its aggregated figures."""
    prefix = work / tag
    command = [
        PYTHON,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--host",
        base,
        "-u",
        str(users),
        "-r",
        str(users),
        "--run-time",
        f"{seconds}s",
        "--stop-timeout",
        str(STOP_TIMEOUT),
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
        "--exit-code-on-error",
        "0",
    ]
    env = {
        **os.environ,
        "PRIN_GUARD_BENCH_KEY": KEY,
        "PRIN_GUARD_BENCH_TAG": tag,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    log = work / f"locust-{tag}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, cwd=work, stdout=out, stderr=subprocess.STDOUT)
        try:
            code = proc.wait(timeout=seconds + STOP_TIMEOUT + 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
            raise RuntimeError(
                f"locust ({tag}) ran past its run time: {log.read_text(errors='replace')[-3000:]}"
            ) from None
    stats = Path(f"{prefix}_stats.csv")
    if code != 0 or not stats.exists():
        raise RuntimeError(
            f"locust ({tag}) exited {code}: {log.read_text(errors='replace')[-3000:]}"
        )
    with stats.open(newline="") as handle:
        aggregated = next(r for r in csv.DictReader(handle) if r["Name"] == "Aggregated")
    got: dict[str, Any] = {
        "requests": int(aggregated["Request Count"]),
        "failures": int(aggregated["Failure Count"]),
        "rate": float(aggregated["Requests/s"]),
        "p50": float(aggregated["50%"]),
        "p99": float(aggregated["99%"]),
        "max": float(aggregated["Max Response Time"]),
    }
    got.update(_windows(Path(f"{prefix}_stats_history.csv"), seconds))
    return got


def _windows(history: Path, seconds: int) -> dict[str, float]:
    """Verdicts/s over the first and the last minute (a third of the run, if shorter)."""
    window = min(60.0, seconds / 3)
    points: list[tuple[float, int]] = []
    with contextlib.suppress(OSError), history.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if row.get("Name") == "Aggregated":
                with contextlib.suppress(ValueError, KeyError):
                    points.append((float(row["Timestamp"]), int(row["Total Request Count"])))
    if len(points) < 2:
        return {"window": window, "first_rate": float("nan"), "last_rate": float("nan")}
    t0, t1 = points[0][0], points[-1][0]

    def count_at(t: float) -> int:
        return max((n for ts, n in points if ts <= t), default=0)

    first = count_at(t0 + window) / window
    last = (count_at(t1) - count_at(t1 - window)) / window
    return {"window": window, "first_rate": first, "last_rate": last}


# -- the cache's share of the RSS ----------------------------------------------------------------


def cache_entry_bytes(verdicts: int) -> float:
    """Bytes one MemoryCache entry holds, measured in process through the same judge.

    The same prompts and answers as the service's (a guard with default options and
    the benchmark's judge, without its sleep), so the same keys and values are stored.
    """
    import asyncio

    from prin_guard import FunctionJudge, Guard
    from prin_guard.cache import MemoryCache

    async def instant(prompt: str) -> str:
        return "Answer: A, B, D, E" if "incorrect ones" in prompt else "Answer: C"

    def item(index: int) -> dict[str, Any]:
        hours = index % 7 + 2
        speed = index / hours
        return {
            "id": f"soak-0123456789ab-{index}",
            "question": (
                f"A train travels {index} km in {hours} hours at a constant speed "
                "(soak 0123456789ab). What is its average speed in km per hour, rounded "
                "to two decimals?"
            ),
            "candidates": [f"{speed + delta:.2f}" for delta in (-2.0, -1.0, 0.0, 1.0, 2.0)],
        }

    cache = MemoryCache()
    guard = Guard(FunctionJudge(instant, name=JUDGE_SPEC), cache=cache)

    async def fill(start: int, stop: int) -> None:
        for index in range(start, stop):
            await guard.acheck(item(index))

    async def measure() -> tuple[int, int]:
        await fill(0, 50)  # warm: lazily built state is not counted
        gc.collect()
        entries_before = len(cache._data)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            await fill(50, 50 + verdicts)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        return grown, len(cache._data) - entries_before

    try:
        grown, entries = asyncio.run(measure())
    finally:
        with contextlib.suppress(Exception):
            guard.close()
    return grown / max(entries, 1)
