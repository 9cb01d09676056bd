"""prin-guard grade on Ray: a real local cluster (2 CPUs on 127.0.0.1) started here.

The judge is scripted and counts its calls in Redis (the actors are other
processes), per worker process: how many it started and how many it finished,
so the calls a killed actor had in flight are known exactly.

Select these with ``pytest -m ray``; they run in the default suite too.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ray = pytest.importorskip("ray")
import pyarrow.parquet as pq  # noqa: E402 - after the skip

from prin_guard.grade import grade as grade_locally  # noqa: E402
from prin_guard.ray import WorkerSpec, grade_on_ray  # noqa: E402

pytestmark = pytest.mark.ray

REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parents[1]

JUDGE_MODULE = """
import asyncio, dataclasses, os, re
import redis
from prin_guard.cache import RedisCache
from prin_guard.ray import WorkerSpec

_client = redis.Redis.from_url("redis://127.0.0.1:6379/0")

def answer(prompt):
    shown = re.findall(r"\\[The Start of Response (\\w+)\\]\\n(.*?)\\n\\[The End", prompt, re.S)
    if shown:  # a ranking's leg: the longer the better
        ranked = [label for label, _ in sorted(shown, key=lambda pair: -len(pair[1]))]
        if "from the worst to the best" in prompt:
            return "Ranking from worst to best: " + ", ".join(reversed(ranked))
        return "Ranking from best to worst: " + ", ".join(ranked)
    labels = re.findall(r'"([A-Z])\\)', prompt)
    if "incorrect ones" in prompt:
        return "Answer: " + (", ".join(l for l in labels if l != "A") or "none")
    return "Answer: A"

def make(key, delay):
    async def judge(prompt):
        _client.hincrby(key + ":started", str(os.getpid()), 1)
        await asyncio.sleep(delay)
        return answer(prompt)

    return judge

def plain():
    return answer

class CountingCache(RedisCache):
    key = ""

    async def set_many(self, entries):
        await super().set_many(entries)  # stored: a call no longer in flight
        _client.hincrby(self.key + ":stored", str(os.getpid()), len(entries))

@dataclasses.dataclass(frozen=True)
class CountingSpec(WorkerSpec):
    key: str = ""

    def build_cache(self):
        cache = CountingCache.from_url(
            self.redis_url, namespace=self.namespace, lock_ttl=self.lock_ttl
        )
        cache.key = self.key
        return cache
"""


# -- the command line on a cluster of its own (before the module's cluster starts) -----

CLI_JUDGE = """
import os, time

def judge(prompt):
    with open(os.environ["RAY_CLI_CALLS"], "a") as f:
        f.write("x\\n")
    time.sleep(float(os.environ.get("RAY_CLI_DELAY", "0")))
    if "incorrect ones" in prompt:
        return "Answer: B"
    return "Answer: A"
"""


def _cli_run(
    tmp_path: Path, given: Path, out: Path, delay: float
) -> tuple[subprocess.Popen[str], Path]:
    """``prin-guard grade --engine ray`` in a process of its own: it starts (and must
    stop) a local cluster; every judge call appends a line to the calls file."""
    (tmp_path / "ray_cli_judge.py").write_text(CLI_JUDGE)
    calls = tmp_path / "calls.txt"
    calls.touch()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH")])
        ),
        "RAY_CLI_CALLS": str(calls),
        "RAY_CLI_DELAY": str(delay),
    }
    env.pop("RAY_ADDRESS", None)
    args = [sys.executable, "-m", "prin_guard.cli", "grade", str(given), "--out", str(out)]
    args += ["--engine", "ray", "--judge", "python:ray_cli_judge:judge", "--cache", REDIS]
    args += ["--concurrency", "4", "--actors", "2", "--batch-size", "10"]
    process = subprocess.Popen(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    return process, calls


def _count(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def _family(pid: int) -> dict[int, float]:
    """Every process below ``pid``, by pid, with its start time."""
    import psutil

    found = {}
    for child in psutil.Process(pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            found[child.pid] = child.create_time()
    return found


def _survivors(family: dict[int, float]) -> list[str]:
    import psutil

    alive = []
    for pid, started in family.items():
        with contextlib.suppress(psutil.Error):
            process = psutil.Process(pid)
            if process.create_time() == started and process.status() != psutil.STATUS_ZOMBIE:
                alive.append(f"{pid} {' '.join(process.cmdline())[:80]}")
    return alive


def _wait(condition: Any, what: str, seconds: float = 240.0) -> None:
    deadline = time.monotonic() + seconds  # only to catch a hang
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _quiet(stderr: str) -> None:
    """Only grade's own lines: its progress lines and "prin-guard: ..." lines."""
    for line in stderr.splitlines():
        assert not line.strip() or line.startswith(("[", "prin-guard: ")), line
    for noise in ("INFO", "WARNING", "core_worker", "UserWarning", "Token authentication"):
        assert noise not in stderr


def _redis_available() -> None:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        pytest.skip("no Redis at 127.0.0.1:6379")


def test_a_killed_driver_leaves_its_rows_no_ray_process_and_a_resume_asks_the_rest(
    tmp_path: Path,
) -> None:
    # issue 27: after kill -9 of the driver the folder held no file, a resume re-judged
    # everything, and Ray's processes were left running
    _redis_available()
    n = 200
    given = _write(tmp_path / "in.jsonl", _items(n, tag=uuid.uuid4().hex), {})
    out = tmp_path / "out.jsonl"
    process, calls = _cli_run(tmp_path, given, out, delay=0.1)
    try:
        # rows are written as they finish: some are in the file well before the end
        _wait(lambda: _count(out) >= 20 or process.poll() is not None, "the first rows")
        assert process.poll() is None, process.communicate()
        family = _family(process.pid)
        assert any("raylet" in entry for entry in _survivors(family))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    # every process the run started is stopped (the reaper's grace included)
    _wait(lambda: not _survivors(family), "the run's Ray processes to stop", 120.0)
    written = _rows(out)
    kept = len(written)
    assert 20 <= kept < n
    first_calls = _count(calls)
    # a run again asks only what is missing (answers the killed run had stored are
    # read from the shared cache): at most two calls per missing item
    again, _ = _cli_run(tmp_path, given, out, delay=0.0)
    stdout, stderr = again.communicate(timeout=600)
    assert again.returncode == 0, stderr
    resumed_calls = _count(calls) - first_calls
    assert resumed_calls <= 2 * (n - kept)
    assert first_calls + resumed_calls >= 2 * n
    rows = _rows(out)
    assert [row["line"] for row in rows] == list(range(1, n + 1))  # each line once
    _quiet(stderr)
    assert "[" in stderr  # the local engine's progress lines
    assert f"already done (skipped): {kept}" in stdout
    assert "ray logs: " in stdout


def test_sigterm_writes_what_is_finished_and_stops_the_cluster(tmp_path: Path) -> None:
    _redis_available()
    given = _write(tmp_path / "in.jsonl", _items(200, tag=uuid.uuid4().hex), {})
    out = tmp_path / "out.jsonl"
    process, _ = _cli_run(tmp_path, given, out, delay=0.1)
    try:
        _wait(lambda: _count(out) >= 10 or process.poll() is not None, "the first rows")
        family = _family(process.pid)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "interrupted" in stdout
    lines = [row["line"] for row in _rows(out)]
    assert len(lines) == len(set(lines)) >= 10
    _wait(lambda: not _survivors(family), "the run's Ray processes to stop", 120.0)
    _quiet(stderr)


@pytest.fixture(scope="module")
def judges(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The judge module, importable here and in every Ray worker; and the cluster."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    where = tmp_path_factory.mktemp("ray_judges")
    (where / "ray_grade_judge.py").write_text(JUDGE_MODULE)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(where), old]))
    sys.path.insert(0, str(where))
    import ray_grade_judge  # type: ignore[import-not-found]

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    try:
        yield ray_grade_judge
    finally:
        ray.shutdown()
        sys.path.remove(str(where))
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def _items(n: int, tag: str = "") -> list[dict[str, Any]]:
    return [
        {"id": f"i{k}", "question": f"{k} + 1?{tag}", "candidates": [str(k + 1), str(k + 2), "x"]}
        for k in range(n)
    ]


def _write(path: Path, items: list[dict[str, Any]], bad: dict[int, str]) -> Path:
    lines = [json.dumps(item) for item in items]
    for at, text in sorted(bad.items()):
        lines.insert(at - 1, text)
    path.write_text("\n".join(lines) + "\n")
    return path


def _rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    elif path.suffix == ".csv":
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:
            row["line"] = int(row["line"])
    else:
        rows = pq.read_table(str(path)).to_pylist()
    return sorted(rows, key=lambda row: row["line"])


def _spec(judges: ModuleType, key: str, **changes: Any) -> WorkerSpec:
    fields: dict[str, Any] = {
        "judge": functools.partial(judges.make, key, 0.0),
        "redis_url": REDIS,
        "namespace": f"t{uuid.uuid4().hex[:10]}",
        "concurrency": 8,
    }
    return WorkerSpec(**{**fields, **changes})


def test_ray_writes_the_rows_the_local_engine_writes(judges: ModuleType, tmp_path: Path) -> None:
    key = f"ray-test:{uuid.uuid4().hex}"
    bad = {
        5: "not json",
        20: '{"question": ""}',
        33: '{"id": "s\\ud800", "question": "q?", "candidates": ["a", "b"]}',  # not text
    }
    given = _write(tmp_path / "in.jsonl", _items(60), bad)
    local = grade_locally(
        functools.partial(judges.make, key + ":local", 0.0)(), given, tmp_path / "local.parquet"
    )
    on_ray = grade_on_ray(
        given, tmp_path / "ray.parquet", _spec(judges, key), rows_per_chunk=16, batch_size=8
    )
    expected = _rows(tmp_path / "local.parquet")
    assert len(expected) == 63 and local.invalid == 3
    assert _rows(tmp_path / "ray.parquet") == expected
    assert (on_ray.items, on_ray.invalid, on_ray.judge_calls) == (63, 3, 120)
    assert on_ray.flag_counts == local.flag_counts
    assert expected[32]["error_field"] == "id" and expected[32]["id"] == "line:33"

    # JSONL and CSV, by the output's suffix: the same lines as the local engine's
    for suffix in ("jsonl", "csv"):
        grade_locally(judges.answer, given, tmp_path / f"local.{suffix}")
        grade_on_ray(given, tmp_path / f"ray.{suffix}", _spec(judges, key))
        assert _rows(tmp_path / f"ray.{suffix}") == _rows(tmp_path / f"local.{suffix}")

    # running again resumes: nothing left to judge
    again = grade_on_ray(given, tmp_path / "ray.parquet", _spec(judges, key))
    assert (again.items, again.skipped, again.judge_calls) == (0, 63, 0)
    assert len(_rows(tmp_path / "ray.parquet")) == 63
    # and the local engine resumes the Ray engine's file (one writer, one format)
    assert grade_locally(judges.answer, given, tmp_path / "ray.jsonl").skipped == 63
    import redis

    redis.Redis.from_url(REDIS).delete(
        *(f"{key}{suffix}:{kind}" for suffix in ("", ":local") for kind in ("started", "finished"))
    )


def test_rankings_go_through_ray_as_through_the_local_engine(
    judges: ModuleType, tmp_path: Path
) -> None:
    # issue 40: ranking items (and a list of two, invalid) among label items: the same
    # rows (ranking, best, worst columns) from both engines
    key = f"ray-test:{uuid.uuid4().hex}"
    ranked = [
        {
            "id": f"r{k}",
            "task": "ranking",
            "question": f"Rank {k}?",
            "candidates": ["no" * (k + 1), "yes, because " * 3, "maybe" + "!" * (k + 2)],
        }
        for k in range(6)
    ]
    pair = '{"id": "two", "task": "ranking", "question": "q?", "candidates": ["a", "b"]}'
    given = _write(tmp_path / "in.jsonl", [*ranked, *_items(3)], {4: pair})
    local = grade_locally(
        functools.partial(judges.make, key + ":local", 0.0)(), given, tmp_path / "local.jsonl"
    )
    on_ray = grade_on_ray(given, tmp_path / "ray.jsonl", _spec(judges, key), rows_per_chunk=4)
    expected = _rows(tmp_path / "local.jsonl")
    assert _rows(tmp_path / "ray.jsonl") == expected
    assert (on_ray.items, on_ray.invalid, on_ray.judge_calls) == (10, 1, 18)
    assert local.invalid == 1
    rankings = [row for row in expected if str(row.get("id", "")).startswith("r")]
    assert len(rankings) == 6 and all(row["best"] == "B" for row in rankings)
    assert rankings[0]["ranking"] == "B > C > A"
    assert next(row for row in expected if row["line"] == 4)["error_field"] == "candidates"
    import redis

    redis.Redis.from_url(REDIS).delete(
        *(f"{key}{suffix}:{kind}" for suffix in ("", ":local") for kind in ("started", "finished"))
    )


def test_ray_resumes_by_input_line_duplicate_ids_included(
    judges: ModuleType, tmp_path: Path
) -> None:
    import redis

    from prin_guard import UsageError

    key = f"ray-test:{uuid.uuid4().hex}"
    items = [
        {"id": "dup", "question": "first?", "candidates": ["a", "b"]},
        {"id": "dup", "question": "second?", "candidates": ["a", "b"]},
        {"id": "other", "question": "third?", "candidates": ["a", "b"]},
    ]
    given = _write(tmp_path / "in.jsonl", items, {})
    grade_locally(judges.answer, given, tmp_path / "local.jsonl")
    # a run killed after the second `dup` row was written: the output holds only that
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(_rows(tmp_path / "local.jsonl")[1]) + "\n")
    summary = grade_on_ray(given, out, _spec(judges, key))
    assert [row["line"] for row in _rows(out)] == [1, 2, 3]
    assert (summary.items, summary.skipped) == (2, 1)
    # a question edited on a line that is done is told by line, not judged again
    items[2]["question"] = "third, edited?"
    _write(given, items, {})
    again = grade_on_ray(given, out, _spec(judges, key))
    assert (again.items, again.skipped, again.changed, again.changed_lines) == (0, 3, 1, (3,))
    # an output grade did not write is refused, untouched
    notes = tmp_path / "notes.jsonl"
    notes.write_text("mine, no final newline")
    with pytest.raises(UsageError, match=r"notes\.jsonl"):
        grade_on_ray(given, notes, _spec(judges, key))
    assert notes.read_text() == "mine, no final newline"
    redis.Redis.from_url(REDIS).delete(f"{key}:started")


def test_killing_an_actor_mid_run_loses_no_row_and_few_calls(
    judges: ModuleType, tmp_path: Path
) -> None:
    import redis

    client = redis.Redis.from_url(REDIS, decode_responses=True)
    key = f"ray-test:{uuid.uuid4().hex}"
    n = 300
    given = _write(tmp_path / "in.jsonl", _items(n), {})
    # short single-flight claims: the retried batch waits 2 s, not 30, for a dead claim;
    # the cache counts what each process stored, so the calls in flight are known
    spec = judges.CountingSpec(
        judge=functools.partial(judges.make, key, 0.05),
        redis_url=REDIS,
        namespace=f"t{uuid.uuid4().hex[:10]}",
        concurrency=8,
        lock_ttl=2.0,
        key=key,
    )
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["summary"] = grade_on_ray(
                given, tmp_path / "out.jsonl", spec, rows_per_chunk=50
            )
        except BaseException as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()

    def started() -> dict[str, int]:
        return {pid: int(v) for pid, v in client.hgetall(key + ":started").items()}

    deadline = time.monotonic() + 120
    while sum(started().values()) < 0.3 * 2 * n:
        assert worker.is_alive() and time.monotonic() < deadline, outcome
        time.sleep(0.02)
    victim = max(started().items(), key=lambda entry: entry[1])[0]
    os.kill(int(victim), signal.SIGKILL)
    worker.join(timeout=180)
    assert not worker.is_alive() and "error" not in outcome, outcome
    stored = {pid: int(v) for pid, v in client.hgetall(key + ":stored").items()}
    # legs the dead actor had asked for and not stored: its calls in flight
    in_flight = started()[victim] - stored.get(victim, 0)
    total = sum(started().values())
    client.delete(key + ":started", key + ":stored")

    rows = _rows(tmp_path / "out.jsonl")
    assert sorted(row["id"] for row in rows) == sorted(f"i{k}" for k in range(n))
    assert len({row["line"] for row in rows}) == n  # exactly one row per item
    assert 1 <= in_flight <= spec.concurrency  # it really died in the middle of judging
    assert 2 * n <= total <= 2 * n + in_flight


def test_the_command_line_grades_on_the_cluster(
    judges: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard.cli import main

    # questions of their own: the command line's Redis cache outlives the test
    given = _write(tmp_path / "in.jsonl", _items(20, tag=uuid.uuid4().hex), {3: "{broken"})
    out = tmp_path / "out.jsonl"
    args = ["grade", str(given), "--out", str(out), "--engine", "ray", "--judge",
            "python:ray_grade_judge:plain", "--cache", REDIS, "--json"]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert (summary["engine"], summary["items"], summary["invalid"]) == ("ray", 21, 1)
    assert summary["judge_calls"] == 40
    assert [row["line"] for row in _rows(out)] == list(range(1, 22))  # JSONL, by its suffix
    assert "prin-guard: line 3: " in captured.err  # a bad row, told as the local engine does
