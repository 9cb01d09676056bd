"""What every command shares: the real stdout, logging, and the guard's set-up.

The flags that describe a guard are derived from :class:`~prin_guard.GuardConfig` by
:func:`prin_guard._setup.add_arguments`; :func:`config_from_args` reads them back.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from prin_guard import GuardConfig

__all__ = ["config_from_args", "configure_logging", "emit", "stdout", "use_stdout"]

# What the user asked for goes to the real stdout; anything a dependency prints
# while a command runs (litellm's help banner, for one) goes to stderr, so that
# `--json` output stays parseable.
_stdout: TextIO = sys.stdout


def stdout() -> TextIO:
    """The real standard output of this command (results only)."""
    return _stdout


def use_stdout(stream: TextIO) -> None:
    global _stdout
    _stdout = stream


def emit(text: str = "") -> None:
    """Print a result line to the real standard output."""
    print(text, file=_stdout, flush=True)


def configure_logging(verbosity: int) -> None:
    import logging

    import structlog

    level = logging.WARNING - 10 * min(verbosity, 2)
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="%H:%M:%S"),
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def config_from_args(args: argparse.Namespace, **changes: Any) -> GuardConfig:
    """The GuardConfig the command's flags describe (``changes`` on top).

    Only the flags given count: an unset flag keeps the setting's default.
    """
    from prin_guard import GuardConfig
    from prin_guard._setup import settings_from_args

    return GuardConfig.from_settings({**settings_from_args(args), **changes})
