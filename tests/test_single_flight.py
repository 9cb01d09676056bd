"""Single flight across processes: a fleet sharing one Redis pays each judge call once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
import redis

REDIS_URL = "redis://127.0.0.1:6379/0"

WORKER = textwrap.dedent(
    """
    import asyncio, os, sys, time
    import prin_guard
    from prin_guard.cache import RedisCache

    namespace, start_at, calls_file = sys.argv[1], float(sys.argv[2]), sys.argv[3]

    async def judge(prompt: str) -> str:
        with open(calls_file, "a") as f:  # one line per real judge call, O_APPEND
            f.write("x\\n")
        await asyncio.sleep(0.05)
        return "Answer: A" if "incorrect" not in prompt else "Answer: B, C"

    async def main() -> None:
        cache = RedisCache.from_url(
            "redis://127.0.0.1:6379/0", namespace=namespace, lock_ttl=5.0
        )
        guard = prin_guard.Guard(prin_guard.FunctionJudge(judge, name="sf-judge"),
                                 cache=cache, concurrency=8)
        items = [
            {"question": f"q{i}", "candidates": [str(i), str(i + 1), str(i + 2)], "id": f"i{i}"}
            for i in range(20)
        ]
        time.sleep(max(0.0, start_at - time.time()))
        verdicts = await guard.acheck_many(items)
        assert all(v.correct == ("A",) for v in verdicts), verdicts
        await cache.aclose()

    asyncio.run(main())
    """
)


@pytest.fixture
def namespace() -> str:
    name = f"test-sf-{uuid.uuid4().hex[:12]}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"prin_guard:v1:{name}:*"))
    if keys:
        client.delete(*keys)


def test_eight_processes_judging_the_same_items_make_each_call_once(
    namespace: str, tmp_path: Path
) -> None:
    calls_file = tmp_path / "calls.txt"
    calls_file.touch()
    start_at = time.time() + 4.0  # all workers start judging at the same moment
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, namespace, str(start_at), str(calls_file)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    assert len(calls_file.read_text().splitlines()) == 40  # 20 items x 2 legs
