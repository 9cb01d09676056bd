"""One streaming run in a fresh process: time per verdict and peak RSS (benchmark 3).

    python -m bench._stream_child --n 20000 --latency 0.02 --concurrency 64 --cache none

Items come from a lazy generator and verdicts are counted, never kept, so whatever the
peak RSS (``VmHWM``, see ``max_rss_mb``) grows by with ``n`` is what prin-guard holds.
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from bench._common import SleepJudge, items, max_rss_mb, quiet_logging


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.02)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--cache", choices=["none", "memory"], default="none")
    args = parser.parse_args()
    quiet_logging()

    from prin_guard import Guard

    judge = SleepJudge(args.latency)
    guard = Guard(
        judge, cache=None if args.cache == "none" else "memory", concurrency=args.concurrency
    )

    async def stream() -> tuple[int, int]:
        seen = clean = 0
        async for _index, verdict in guard.astream(items(args.n)):
            seen += 1
            clean += verdict.ok
        return seen, clean

    rss_before = max_rss_mb()
    started = time.perf_counter()
    cpu_started = time.process_time()
    seen, clean = asyncio.run(stream())
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(
        json.dumps(
            {
                "n": args.n,
                "cache": args.cache,
                "verdicts": seen,
                "clean": clean,
                "judge_calls": judge.calls,
                "seconds": seconds,
                "cpu_seconds": cpu,
                "rss_before_mb": rss_before,
                "rss_peak_mb": max_rss_mb(),
            }
        )
    )


if __name__ == "__main__":
    main()
