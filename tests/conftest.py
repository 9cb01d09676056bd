from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import structlog
from _helpers import RedisServer, free_port

from prin_guard import Item

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def table1_item() -> Item:
    """The PRIN paper's Table 1 question."""
    return Item(
        question=(
            "If n is an integer and 101 n^2 is at most 10000, what is the greatest "
            "possible value of n?"
        ),
        candidates=["7", "8", "9", "10", "11"],
        id="table1",
    )


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _reset_structlog() -> Iterator[None]:
    """The CLI configures structlog for its process; don't let that leak between tests."""
    yield
    structlog.reset_defaults()


# -- lanes: a mark for each real component a test starts -----------------------------
# `make test-fast` deselects them all. Where a fixture starts the component, the mark
# follows the fixture (directly or through another fixture), so a test cannot forget it.

MARKS_BY_FIXTURE = {
    "llama_server": ("llama_cpp", "model"),  # llama.cpp serves the bundled GGUF
    "start_llama_server": ("llama_cpp", "model"),
    "start_redis": ("redis_server",),
    "proxy": ("proxy",),  # tests/test_adapter_litellm_proxy.py: LiteLLM Proxy
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        for fixture, marks in MARKS_BY_FIXTURE.items():
            if fixture in fixtures:
                for mark in marks:
                    item.add_marker(mark)


@pytest.fixture
def start_redis(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    """Starts redis-server processes of the test's own (arguments go to redis-server),
    each on a free port in a directory of its own; kills them all afterwards."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH")
    servers: list[RedisServer] = []

    def start(*extra: str) -> RedisServer:
        workdir = tmp_path / f"redis-{len(servers)}"
        workdir.mkdir()
        server = RedisServer(workdir, *extra)
        servers.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.kill()


@pytest.fixture
def redis_server(start_redis: Callable[..., RedisServer]) -> RedisServer:
    """A running redis-server of the test's own (not the machine's shared one on 6379)."""
    return start_redis()


class LlamaServer:
    """llama.cpp's OpenAI-compatible server (llama-cpp-python's) with the bundled SmolLM2
    GGUF on loopback, its output (the server's own report of each request: the prompt
    tokens it took from its cache, ``prefix-match hit``) in ``log``."""

    def __init__(self, *extra: str) -> None:
        from prin_guard import LocalJudge

        gguf = LocalJudge._bundled_gguf()
        port = free_port()
        handle, name = tempfile.mkstemp(prefix="llama-server-", suffix=".log")
        os.close(handle)
        self.log = Path(name)
        self._out = self.log.open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(gguf),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--model_alias",
                "smollm2",
                "--n_ctx",
                "4096",
                "--n_threads",
                "2",
                *extra,
            ],
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"llama.cpp server did not start: {self.output()[-2000:]}")
            time.sleep(0.25)

    def output(self) -> str:
        self._out.flush()
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._out.close()
        self.log.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def llama_server() -> Iterator[str]:
    """llama.cpp's OpenAI-compatible server with the bundled SmolLM2 GGUF, on loopback.

    Yields the base URL (``http://127.0.0.1:<port>/v1``); stops the server afterwards.
    """
    server = LlamaServer()
    try:
        yield server.base
    finally:
        server.stop()


@pytest.fixture
def start_llama_server() -> Iterator[Callable[..., LlamaServer]]:
    """Starts llama.cpp servers of the test's own (arguments go to the server); stops
    them afterwards."""
    servers: list[LlamaServer] = []

    def start(*extra: str) -> LlamaServer:
        server = LlamaServer(*extra)
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.stop()
