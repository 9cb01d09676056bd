"""The ``prin-guard`` command line: it parses arguments and prints, nothing else.

Every command is a thin shell over the library: judges come from
:func:`~prin_guard.judges.judge_from_spec`, guard options from
:class:`~prin_guard.GuardOptions`, runs from :func:`prin_guard.eval.run` and
:func:`prin_guard.probe.run_probe`, output from ``_terminal`` (rich tables on a
terminal, plain text otherwise).

The command line configures logging for its own process (the library never
does; ``serve`` hands logging to uvicorn): warnings and errors go to stderr,
``-v`` adds info events, ``-vv`` debug events (prompts and replies). Heavy
modules are imported inside the commands so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import Any

from prin_guard.cli import _common
from prin_guard.cli._calibrate import add_calibrate
from prin_guard.cli._commands import (
    add_check,
    add_eval,
    add_probe,
    add_prompts,
    cmd_report,
    cmd_serve,
)
from prin_guard.cli._grade import add_grade
from prin_guard.cli._review import add_review

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prin-guard",
        description="Ask an LLM judge which candidates are correct and which are incorrect, "
        "and flag where it contradicts itself (Prompt-Reverse Inconsistency).",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log events to stderr (-v info, -vv debug with prompts)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_check(commands)
    add_eval(commands)
    add_probe(commands)
    add_grade(commands)
    add_calibrate(commands)
    add_prompts(commands)
    add_review(commands)

    rep = commands.add_parser(
        "report", help="re-render a run's report, or compare runs side by side"
    )
    rep.add_argument("runs", nargs="+", metavar="RUN_DIR")
    rep.add_argument("--out", help="where to write the report (default: the run directory)")
    rep.set_defaults(run=cmd_report)

    from prin_guard.server._cli import add_serve_arguments  # light: no fastapi import

    srv = commands.add_parser(
        "serve",
        help="serve verdicts over HTTP (needs the 'server' extra)",
        description="Run prin-guard as an HTTP service (FastAPI on uvicorn): POST /v1/verdicts, "
        "GET /healthz, GET /readyz, GET /metrics, the OpenAPI schema at /openapi.json. "
        "Settings come from "
        "--config (TOML or JSON), then PRIN_GUARD_* variables, then these options.",
    )
    add_serve_arguments(srv)
    srv.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (``EXIT_CODES`` in ``_common``, docs/cli.md)."""
    try:
        return _run(argv)
    except BrokenPipeError:
        # `prin-guard check ... --json | head`: the reader has what it wanted. Stop
        # quietly, as Unix tools do, and leave nothing for the interpreter to flush into
        # the closed pipe at exit (it would print "Exception ignored ... BrokenPipeError").
        _detach_stdout()
        return 141


def _run(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command != "serve":  # serve hands logging to uvicorn (--log-level)
        _common.configure_logging(args.verbose)
    from prin_guard.errors import PrinGuardError

    _common.use_stdout(sys.stdout)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            result: Any = args.run(args)
    except PrinGuardError as exc:
        print(f"prin-guard: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("prin-guard: interrupted", file=sys.stderr)
        return 130
    return int(result)


def _detach_stdout() -> None:
    """Point the process's standard output at the null device (its pipe is closed)."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a captured or replaced stream
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
