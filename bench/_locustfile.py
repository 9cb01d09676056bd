"""The locust user of the load and soak benchmark (bench/load.py).

Each user posts single-item verdict requests, one after another with no wait, each
with a question no request has asked before (so every request is judged: nothing
comes from the server's cache). The API key comes from ``PRIN_GUARD_BENCH_KEY`` and a
tag naming the phase from ``PRIN_GUARD_BENCH_TAG``; the host is locust's ``--host``.
"""

from __future__ import annotations

import itertools
import os
import uuid

from locust import FastHttpUser, constant, task

KEY = os.environ["PRIN_GUARD_BENCH_KEY"]
TAG = os.environ.get("PRIN_GUARD_BENCH_TAG", "load")
RUN = uuid.uuid4().hex[:12]
"""Distinct per locust process, so no two runs (or phases) share a question."""
_numbers = itertools.count()


def make_item(index: int) -> dict[str, object]:
    """A MathQA-shaped item (a word problem, five numeric options), unique per index."""
    hours = index % 7 + 2
    speed = index / hours
    return {
        "id": f"{TAG}-{RUN}-{index}",
        "question": (
            f"A train travels {index} km in {hours} hours at a constant speed "
            f"({TAG} {RUN}). What is its average speed in km per hour, rounded to two decimals?"
        ),
        "candidates": [f"{speed + delta:.2f}" for delta in (-2.0, -1.0, 0.0, 1.0, 2.0)],
    }


class VerdictUser(FastHttpUser):
    wait_time = constant(0)
    network_timeout = 60.0
    connection_timeout = 10.0

    @task
    def verdict(self) -> None:
        item = make_item(next(_numbers))
        with self.client.post(
            "/v1/verdicts",
            json={"item": item},
            headers={"Authorization": f"Bearer {KEY}"},
            name="POST /v1/verdicts",
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            try:
                verdict = response.json()["verdict"]
            except (ValueError, KeyError, TypeError):
                response.failure("no verdict in the body")
                return
            if verdict.get("correct") != ["C"]:
                response.failure(f"unexpected verdict {verdict.get('correct')!r}")
