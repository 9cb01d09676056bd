"""What every command shares: the real stdout, logging, and the guard's set-up.

The flags that describe a guard are derived from :class:`~prin_guard.GuardConfig` by
:func:`prin_guard._route._setup.add_arguments`; :func:`config_from_args` reads them back.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from prin_guard import GuardConfig

__all__ = [
    "EXIT_CODES",
    "add_fail_on_flag",
    "build_guard",
    "config_from_args",
    "configure_logging",
    "emit",
    "fails_on",
    "stdout",
    "use_stdout",
]

# Every exit status a command returns, and when: docs/cli.md is written from this.
EXIT_CODES: dict[int, str] = {
    0: "done (with --fail-on-flag: and no verdict carries a flag it counts)",
    1: "--fail-on-flag: a verdict (check) or a row (grade) carries a flag it counts",
    2: "bad input or configuration; the message names the field and the reason",
    130: "interrupted (Ctrl-C); grade, eval and probe first write the items that finished",
    141: "the output's reader went away (a closed pipe, as in check --json | head): the "
    "command stops printing and exits quietly, as Unix tools do (128 + SIGPIPE)",
}
FAILED_ON_FLAG = 1

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


def add_fail_on_flag(parser: argparse.ArgumentParser, what: str) -> None:
    """``--fail-on-flag [FLAG,...]``: exit 1 when ``what`` carries a flag (any, or one named)."""
    parser.add_argument(
        "--fail-on-flag",
        nargs="?",
        const="any",
        action=_FlagNames,
        metavar="FLAG,...",
        help=f"exit with status 1 when {what} carries a flag: any flag when none is named "
        "(--fail-on-flag), or only those named (--fail-on-flag inconsistent,order_sensitive; "
        "the names are the verdict's flags, docs/verdict.md)",
    )


_FLAG_NAMES = re.compile(r"\s*[A-Za-z_-]+(?:\s*,\s*[A-Za-z_-]+)*\s*")


class _FlagNames(argparse.Action):
    """``--fail-on-flag``'s value, refused at once when it is not a list of names: its
    optional value would otherwise take the command's input file (``grade --fail-on-flag
    in.jsonl``) and the error would say the input is missing."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Any,
        option_string: str | None = None,
    ) -> None:
        if isinstance(values, str) and not _FLAG_NAMES.fullmatch(values):
            raise argparse.ArgumentError(
                self,
                f"{values!r} is not a list of flag names (a file or another option's "
                "value?): write --fail-on-flag=any or name the flags, or put the option "
                "after the input",
            )
        setattr(namespace, self.dest, values)


def fails_on(args: argparse.Namespace, flags: Iterable[str]) -> bool:
    """Whether ``flags`` (a verdict's, or every flag of a run) hold one ``--fail-on-flag``
    counts. A UsageError names an unknown flag (checked before any judge is asked, by
    :func:`counted_flags`)."""
    counted = counted_flags(args)
    if counted is None:
        return False
    present = {str(flag) for flag in flags}
    return bool(present if isinstance(counted, str) else present & counted)


def counted_flags(args: argparse.Namespace) -> frozenset[str] | str | None:
    """The flags ``--fail-on-flag`` counts: ``"any"``, a set of flag names, or None (not
    given); an unknown name is a UsageError naming the option."""
    given: str | None = getattr(args, "fail_on_flag", None)
    if given is None:
        return None
    if given.strip() == "any":
        return "any"
    from prin_guard.errors import UsageError
    from prin_guard.models import Flag

    known = [flag.value for flag in Flag]
    names = frozenset(name.strip().replace("-", "_") for name in given.split(",") if name.strip())
    unknown = sorted(names - set(known))
    if unknown or not names:
        raise UsageError(
            f"--fail-on-flag: unknown flag {unknown[0] if unknown else given!r}; "
            f"known: any, {', '.join(known)}"
        )
    return names


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
    from prin_guard._route._setup import settings_from_args

    return GuardConfig.from_settings({**settings_from_args(args), **changes})


def build_guard(config: GuardConfig, **calling: Any) -> Any:
    """``config``'s guard, saying on stderr while a local model loads: the first verdict of
    a cold local model takes seconds (tens on a small CPU), and silence looks like a hang.
    ``calling``: what :meth:`GuardConfig.build` takes besides (a cache, the concurrency)."""
    import time

    local = [
        spec
        for level in config.levels()
        for spec in level
        if spec == "local" or spec.startswith("local:")
    ]
    if not local:
        return config.build(**calling)
    print(f"prin-guard: loading the model of {', '.join(local)} ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    guard = config.build(**calling)
    print(
        f"prin-guard: model loaded in {time.monotonic() - started:.1f} s; the first verdict "
        "also warms it up and takes longest",
        file=sys.stderr,
        flush=True,
    )
    return guard
