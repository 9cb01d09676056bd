"""Stops the Ray processes a grading run started, when the run ends however it ends.

``python -m prin_guard.ray._reaper PID ...``, started by :func:`~prin_guard.ray.grade_on_ray`
right after it started a local Ray cluster, with the pids of that cluster's processes
(the ones ``ray.init`` made) and a pipe to the run as its standard input. While the run
lives, it notes every process below those (the raylet's agents and workers) every half
second. When its standard input ends (the run closed it after ``ray.shutdown``, or the
run died, ``kill -9`` included: the system closes a dead process's end of a pipe), it
stops every process it noted that is still the same process (the same start time):
SIGTERM, then SIGKILL to those still there a few seconds later.

Why: Ray stops the cluster's own processes when the process that started them dies
(they are bound to it), but not the agents its raylet starts, which wait a minute for
the dead cluster before giving up. Ray's own reaper does the same for a process group;
a run must not change its process group (Ctrl-C reaches a terminal's foreground group),
so this one works from the processes it saw.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from typing import Any

__all__ = ["main"]

_SCAN_SECONDS = 0.5
_GRACE_SECONDS = 3.0


def main(argv: list[str]) -> int:
    import psutil  # Ray's dependency: there whenever Ray is

    # Ctrl-C in a terminal reaches the whole foreground group: the run handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    roots = [int(pid) for pid in argv]
    seen: dict[int, float] = {}
    me = os.getpid()

    def note() -> None:
        for root in roots:
            try:
                process = psutil.Process(root)
                family = [process, *process.children(recursive=True)]
            except psutil.Error:
                continue
            for member in family:
                try:
                    if member.pid != me and member.pid not in seen:
                        seen[member.pid] = member.create_time()
                except psutil.Error:
                    continue

    stdin = sys.stdin.fileno()
    while True:
        note()
        ready, _, _ = select.select([stdin], [], [], _SCAN_SECONDS)
        if ready and not os.read(stdin, 4096):
            break  # the run is over, one way or another
    alive = _same(psutil, seen)
    for process in alive:
        _send(process, signal.SIGTERM)
    deadline = time.monotonic() + _GRACE_SECONDS
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [p for p in alive if _running(p)]
    for process in alive:
        _send(process, signal.SIGKILL)
    return 0


def _same(psutil: Any, seen: dict[int, float]) -> list[Any]:
    """The noted processes still running as themselves (not a reused pid)."""
    out = []
    for pid, started in seen.items():
        try:
            process = psutil.Process(pid)
            if process.create_time() == started and _running(process):
                out.append(process)
        except psutil.Error:
            continue
    return out


def _running(process: Any) -> bool:
    try:
        return bool(process.is_running()) and process.status() != "zombie"
    except Exception:  # noqa: BLE001 - gone is gone, whatever psutil calls it
        return False


def _send(process: Any, signum: int) -> None:
    try:
        process.send_signal(signum)
    except Exception:  # noqa: BLE001 - gone meanwhile
        return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
