"""Helpers the test files share: a free loopback port, a redis-server of a test's own,
and how long a test waits before it calls something hung.

The fixtures that use them (``redis_server``, ``start_redis``, ``llama_server``) are in
conftest.py; import from here only what a fixture cannot give (a port, the type).
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["HANG", "RedisServer", "free_port", "wait_until"]

HANG = 60.0
"""Seconds after which a test gives up on a call as hung (``asyncio.timeout(HANG)``, a
process's ``wait(timeout=HANG)``). A guard against a stuck run, never a speed check: what
is tested takes a second or two, and the failure it guards against waits an hour (an hour's
timeout, a judge that never answers), so only a stuck run reaches it."""


def wait_until(
    happened: Callable[[], object], what: str, *, timeout: float = HANG, every: float = 0.02
) -> None:
    """Poll ``happened()`` until it is true; a test's one way to wait for something another
    thread or process does. ``timeout`` only catches a hang (it fails the test naming
    ``what``): never a speed check."""
    deadline = time.monotonic() + timeout
    while not happened():
        if time.monotonic() > deadline:
            raise AssertionError(f"hung: {what} did not happen within {timeout:.0f} s")
        time.sleep(every)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (free when this returns)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A redis-server process of a test's own: a free loopback port, no persistence.

    ``start`` again after ``kill`` (SIGKILL) restarts it on the same port, empty;
    ``pause`` (SIGSTOP) and ``resume`` freeze and thaw it. ``extra`` arguments go to
    redis-server as they are (ACL users, say). It also listens on ``socket_path``.
    """

    def __init__(self, workdir: Path, *extra: str) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.extra = extra
        self.socket_path = workdir / "redis.sock"
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not on PATH"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--loglevel", "warning",
             "--unixsocket", str(self.socket_path), "--unixsocketperm", "700", *self.extra],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 30  # hang protection only
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64)[:1] in (b"+", b"-"):  # PONG, or NOAUTH: it answers
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def pause(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)


def check_reading(
    reply: str, item: dict[str, object], polarity: str, expected: tuple[str, ...] | None
) -> None:
    """Read ``reply`` on ``item``'s ``polarity`` leg. ``expected``: the labels read,
    confidently; None: failed or marked (never a confident reading)."""
    from prin_guard import read_reply

    reading = read_reply(reply, item, polarity=polarity)
    marked = reading.weak or reading.polarity_confusion
    got = (reading.labels, reading.status.value, marked)
    if expected is None:
        assert reading.status.value == "failed" or marked, got
    else:
        assert got == (expected, "ok" if expected else "none", False), got
