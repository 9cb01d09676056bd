"""``prin-guard serve`` (and ``python -m prin_guard.server``): arguments and command.

Imports nothing heavy, so that ``prin-guard --help`` stays fast; FastAPI and
uvicorn are imported when the command runs.
"""

from __future__ import annotations

import argparse

__all__ = ["add_serve_arguments", "run_serve"]


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` options. Each overrides the config file and the environment."""
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
    parser.add_argument(
        "--judge",
        help="'local', 'local:<model>', a litellm model string, or python:<module>:<callable> "
        "(default 'local')",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument(
        "--structured", choices=["none", "auto", "json-schema", "json-object"], default=None
    )
    parser.add_argument(
        "--allow-no-auth",
        action="store_true",
        default=None,
        help="serve without API keys (refused by default)",
    )
    parser.add_argument(
        "--metrics-open", action="store_true", default=None, help="serve /metrics without a key"
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's and prin-guard's log level (default info)",
    )


def run_serve(args: argparse.Namespace) -> int:
    """Load the configuration, apply the options and serve until interrupted."""
    from prin_guard.server._config import load_config

    config = load_config(
        args.config,
        overrides={
            "host": args.host,
            "port": args.port,
            "workers": args.workers,
            "judge": args.judge,
            "api_base": args.api_base,
            "structured": args.structured,
            "allow_no_auth": args.allow_no_auth,
            "metrics_open": args.metrics_open,
        },
    )
    try:
        from prin_guard.server._serve import serve
    except ImportError as exc:
        from prin_guard._exceptions import MissingExtraError

        raise MissingExtraError("prin-guard serve", "server", exc.name or "fastapi") from None
    serve(config, log_level=args.log_level)
    return 0
