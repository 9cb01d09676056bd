"""prin-guard grade on Ray: a real local cluster (2 CPUs on 127.0.0.1) started here.

The judge is scripted and counts its calls in Redis (the actors are other
processes), per worker process: how many it started and how many it finished,
so the calls a killed actor had in flight are known exactly.

Select these with ``pytest -m ray``; they run in the default suite too.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
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
import pyarrow.dataset as pads  # noqa: E402 - after the skip

from prin_guard.grade import grade as grade_locally  # noqa: E402
from prin_guard.ray import WorkerSpec, grade  # noqa: E402

pytestmark = pytest.mark.ray

REDIS = "redis://127.0.0.1:6379/0"

JUDGE_MODULE = """
import asyncio, dataclasses, os, re
import redis
from prin_guard.cache import RedisCache
from prin_guard.ray import WorkerSpec

_client = redis.Redis.from_url("redis://127.0.0.1:6379/0")

def answer(prompt):
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
    if path.is_dir() and list(path.glob("*.jsonl")):
        rows = [
            json.loads(line)
            for file in sorted(path.glob("*.jsonl"))
            for line in file.read_text().splitlines()
            if line
        ]
    elif path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    else:
        rows = pads.dataset(str(path), format="parquet").to_table().to_pylist()
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
    on_ray = grade(given, tmp_path / "ray", _spec(judges, key), rows_per_chunk=16, batch_size=8)
    expected = _rows(tmp_path / "local.parquet")
    assert len(expected) == 63 and local.invalid == 3
    assert _rows(tmp_path / "ray") == expected
    assert (on_ray.items, on_ray.invalid, on_ray.judge_calls) == (63, 3, 120)
    assert on_ray.flag_counts == local.flag_counts
    assert expected[32]["error_field"] == "id" and expected[32]["id"] == "line:33"

    # JSONL: the same lines as the local engine's JSONL
    grade_locally(judges.answer, given, tmp_path / "local.jsonl")
    grade(given, tmp_path / "ray-jsonl", _spec(judges, key), output_format="jsonl")
    assert _rows(tmp_path / "ray-jsonl") == _rows(tmp_path / "local.jsonl")

    # running again resumes: nothing left to judge
    again = grade(given, tmp_path / "ray", _spec(judges, key))
    assert (again.items, again.skipped, again.judge_calls) == (0, 63, 0)
    assert len(_rows(tmp_path / "ray")) == 63
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
    # a run killed after the second `dup` row was written: its directory holds only that
    out = tmp_path / "out"
    out.mkdir()
    (out / "earlier.jsonl").write_text(json.dumps(_rows(tmp_path / "local.jsonl")[1]) + "\n")
    summary = grade(given, out, _spec(judges, key), output_format="jsonl")
    assert [row["line"] for row in _rows(out)] == [1, 2, 3]
    assert (summary.items, summary.skipped) == (2, 1)
    # a question edited on a line that is done is told by line, not judged again
    items[2]["question"] = "third, edited?"
    _write(given, items, {})
    again = grade(given, out, _spec(judges, key), output_format="jsonl")
    assert (again.items, again.skipped, again.changed, again.changed_lines) == (0, 3, 1, (3,))
    # a file in the directory that grade did not write is refused, untouched
    (out / "notes.jsonl").write_text("mine, no final newline")
    with pytest.raises(UsageError, match=r"notes\.jsonl"):
        grade(given, out, _spec(judges, key), output_format="jsonl")
    assert (out / "notes.jsonl").read_text() == "mine, no final newline"
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
            outcome["summary"] = grade(given, tmp_path / "out", spec, rows_per_chunk=50)
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

    rows = _rows(tmp_path / "out")
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
    out = tmp_path / "out"
    args = ["grade", str(given), "--out", str(out), "--engine", "ray", "--judge",
            "python:ray_grade_judge:plain", "--cache", REDIS, "--output-format", "jsonl",
            "--json"]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert (summary["engine"], summary["items"], summary["invalid"]) == ("ray", 21, 1)
    assert summary["judge_calls"] == 40
    assert [row["line"] for row in _rows(out)] == list(range(1, 22))
