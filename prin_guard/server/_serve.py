"""Run the service under uvicorn: one process, or ``workers`` processes on one socket.

Every worker builds its own judge and cache at startup; with ``redis_url`` they
share the Redis cache and its cross-process single flight, so identical legs
asked of several workers at once cost one judge call. With one worker the judges
are built before uvicorn starts, so a judge that cannot be built (a ``python:``
module that does not import) is a one-line error, as for ``check``; a worker of
several says it in one line too, and uvicorn stops.

prin-guard's events go to the standard-library logger ``prin_guard``, on uvicorn's
handler at ``log_level``, each with the id of the request it belongs to.
"""

from __future__ import annotations

import copy
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from prin_guard.server._app import check_servable, create_app
from prin_guard.server._config import (
    ServerConfig,
    load_config,
    publish_for_workers,
    server_settings_from_env,
)
from prin_guard.server._state import build_judges

__all__ = ["serve", "worker_app"]


def _log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, with prin-guard's events on the same handler.

    Access lines end with the request id; ``create_app`` puts the filters that set
    it (and that redact query strings) on the loggers, whatever the configuration.
    """
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    access = config["formatters"]["access"]
    access["fmt"] = str(access["fmt"]) + " request_id=%(request_id)s"
    config["loggers"]["prin_guard"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


def _reset_multiprocess_dir() -> None:
    """Empty ``PROMETHEUS_MULTIPROC_DIR`` of a previous run's samples, as its docs require."""
    directory = server_settings_from_env()["prometheus_multiproc_dir"]
    if directory is None:
        return
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)


SWITCH_INTERVAL = 0.001
"""The interpreter's thread switch interval in a serving process (Python's default is
5 ms). Long replies are read and long items planned in a worker thread; each time the
event loop comes back from waiting on a socket it must take the interpreter lock back
from that thread, and waited up to the whole interval for it, several times per
request: /healthz took a p99 of about 100 ms while 0.8 MB replies were read (bench
section 12). A shorter interval costs the worker thread a little throughput."""


def _responsive() -> None:
    """Make this serving process's event loop take the interpreter lock back sooner."""
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


def serve(config: ServerConfig, *, log_level: str = "info", access_log: bool = True) -> None:
    """Serve ``config`` on ``config.host:config.port`` until interrupted.

    Raises :class:`~prin_guard.UsageError` before binding anything when the
    configuration cannot serve (no API keys without ``allow_no_auth``).
    """
    import uvicorn

    check_servable(config)  # before binding anything or starting a worker
    _responsive()
    # Before any metric exists in this process: a sample file deleted after its
    # creation would keep being written to, unseen.
    _reset_multiprocess_dir()
    options: dict[str, Any] = {
        "host": config.host,
        "port": config.port,
        "log_level": log_level,
        "log_config": _log_config(log_level),
        "access_log": access_log,
        "server_header": False,
        "timeout_graceful_shutdown": config.shutdown_grace,
    }
    # uvicorn answers SIGTERM and SIGINT alike: it stops accepting connections, waits
    # up to timeout_graceful_shutdown for the requests in flight, cancels the rest and
    # runs the lifespan's shutdown. Then it raises the signal again for the handler it
    # found: SIGTERM's default action would kill the process (status 143) after a clean
    # drain, while SIGINT's KeyboardInterrupt ends uvicorn.run normally. So SIGTERM
    # gets SIGINT's handler here, and a drained server exits 0 on either.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler) if main else None
    try:
        if config.workers == 1:
            built = build_judges(config)  # a UsageError here is one line, like check's
            app = create_app(config)
            app.state.prin_guard.built = built
            uvicorn.run(app, **options)
            return
        publish_for_workers(config)
        uvicorn.run(
            "prin_guard.server._serve:worker_app", factory=True, workers=config.workers, **options
        )
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def worker_app() -> FastAPI:
    """The app of one worker process, from the configuration its parent published."""
    _responsive()
    return create_app(load_config())
