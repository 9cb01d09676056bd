"""``prin-guard serve`` (and ``python -m prin_guard.server``): arguments and command.

Imports nothing heavy, so that ``prin-guard --help`` stays fast; FastAPI and
uvicorn are imported when the command runs.
"""

from __future__ import annotations

import argparse

__all__ = ["add_serve_arguments", "run_serve"]


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` options. Each overrides the config file and the environment."""
    from prin_guard._route._setup import add_arguments

    parser.add_argument(
        "--config",
        help="a TOML or JSON file of settings (default: $PRIN_GUARD_CONFIG); "
        "PRIN_GUARD_* variables override it, these options override both",
    )
    parser.add_argument("--host", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to bind (default 8000)")
    parser.add_argument(
        "--workers",
        type=int,
        help="worker processes (default 1); give them a shared cache with PRIN_GUARD_REDIS_URL",
    )
    # who judges and how: every setting of the guard, as every command spells it
    add_arguments(parser)
    parser.add_argument(
        "--allow-no-auth",
        action="store_true",
        default=None,
        help="serve without API keys (refused by default)",
    )
    parser.add_argument(
        "--metrics-open",
        action="store_true",
        default=None,
        help="serve /metrics to anyone who reaches the port (every key's traffic); by "
        "default it needs the operator's PRIN_GUARD_METRICS_TOKEN",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="the log level of uvicorn and of prin-guard's events (default info)",
    )


def run_serve(args: argparse.Namespace) -> int:
    """Load the configuration, apply the options and serve until interrupted."""
    from prin_guard._route._setup import settings_from_args

    try:
        from prin_guard.server._config import load_config
    except ImportError as exc:
        from prin_guard.errors import MissingExtraError

        raise MissingExtraError("prin-guard serve", "server", exc.name or "fastapi") from None

    config = load_config(
        args.config,
        overrides={
            **settings_from_args(args),
            "host": args.host,
            "port": args.port,
            "workers": args.workers,
            "allow_no_auth": args.allow_no_auth,
            "metrics_open": args.metrics_open,
        },
    )
    try:
        from prin_guard.server._serve import serve
    except ImportError as exc:
        from prin_guard.errors import MissingExtraError

        raise MissingExtraError("prin-guard serve", "server", exc.name or "fastapi") from None
    serve(config, log_level=args.log_level)
    return 0
