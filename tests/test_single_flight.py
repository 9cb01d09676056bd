"""Single flight across processes: a fleet sharing one Redis pays each judge call once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
import redis
from _helpers import HANG, wait_until

REDIS_URL = "redis://127.0.0.1:6379/0"

WORKER = textwrap.dedent(
    """
    import asyncio, os, sys, time
    import prin_guard
    from prin_guard.cache import RedisCache

    namespace, barrier, calls_file = sys.argv[1], sys.argv[2], sys.argv[3]

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
        # the barrier: say ready, then wait for the test's go (all workers are ready)
        open(f"{barrier}/ready-{os.getpid()}", "w").close()
        while not os.path.exists(f"{barrier}/go"):
            await asyncio.sleep(0.005)
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
    barrier = tmp_path / "barrier"  # all workers start judging at the same moment
    barrier.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, namespace, str(barrier), str(calls_file)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    wait_until(
        lambda: (
            len(list(barrier.glob("ready-*"))) == 8 or any(w.poll() is not None for w in workers)
        ),
        "eight workers ready",
    )
    (barrier / "go").touch()
    for worker in workers:
        _, err = worker.communicate(timeout=HANG)
        assert worker.returncode == 0, err
    assert len(calls_file.read_text().splitlines()) == 40  # 20 items x 2 legs
