"""``prin-guard grade``: a file of items in, one output row per item out."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from prin_guard._route._setup import add_arguments
from prin_guard.cli._common import (
    FAILED_ON_FLAG,
    add_fail_on_flag,
    config_from_args,
    counted_flags,
    emit,
    fails_on,
)

if TYPE_CHECKING:
    from prin_guard._infra._ratelimit import RateLimit

__all__ = ["add_grade", "add_rate_limit_options", "rate_limit_from_args"]

_REDIS = ("redis://", "rediss://", "unix://")


def add_rate_limit_options(parser: argparse.ArgumentParser) -> None:
    """``--rate-limit`` and ``--token-limit``: the judge provider's limit, shared
    through the ``--cache`` Redis when it is one."""
    parser.add_argument(
        "--rate-limit",
        metavar="RATE",
        help="the judge provider's limit on calls, e.g. 500/minute; every process using "
        "the same Redis cache (--cache redis://...) and judge shares it, and a provider's "
        "429 with Retry-After makes all of them wait",
    )
    parser.add_argument(
        "--token-limit",
        metavar="RATE",
        help="the provider's limit on tokens, e.g. 200000/minute (counted from the usage "
        "the judge reports)",
    )


def rate_limit_from_args(
    args: argparse.Namespace, cache: str | None, judge: str
) -> RateLimit | None:
    """The RateLimit the options ask for: in the cache's Redis when it is one."""
    from prin_guard._infra._ratelimit import provider_limit

    return provider_limit(args.rate_limit, args.token_limit, cache=cache, judge=judge)


def _cmd_grade(args: argparse.Namespace) -> int:
    from prin_guard.grade import summary_text

    counted_flags(args)  # an unknown flag name fails before any item is judged
    config = config_from_args(args)
    rate_limit = rate_limit_from_args(args, args.cache, config.judge)
    if args.engine == "ray":
        summary = _ray(args, config, rate_limit)
    else:
        from prin_guard.grade import grade

        summary = grade(
            config,
            args.input,
            args.out,
            input_format=args.input_format,
            output_format=args.output_format,
            with_legs=args.with_legs,
            progress=not args.no_progress,
            on_invalid=_say_invalid,
            cache=args.cache,
            concurrency=args.concurrency,
            rate_limit=rate_limit,
            max_row_bytes=_row_cap(args),
        )
    emit(summary.model_dump_json(indent=2) if args.json else summary_text(summary))
    if summary.interrupted:
        return 130
    flagged = [flag for flag, n in summary.flag_counts.items() if n]
    return FAILED_ON_FLAG if fails_on(args, flagged) else 0


def _say_invalid(line: int, reason: str) -> None:
    print(f"prin-guard: line {line}: {reason}", file=sys.stderr, flush=True)


def _ray(args: argparse.Namespace, config: Any, rate_limit: RateLimit | None) -> Any:
    from prin_guard.errors import UsageError

    if args.cache not in ("memory", "none") and not args.cache.startswith(_REDIS):
        raise UsageError("cache: the Ray engine shares a redis:// cache (or 'memory' per actor)")
    from prin_guard import ray as on_ray

    spec = on_ray.WorkerSpec(
        config=config,
        redis_url=args.cache if args.cache.startswith(_REDIS) else None,
        concurrency=args.concurrency,
        rate_limit=rate_limit,
        with_legs=args.with_legs,
    )
    return on_ray.grade_on_ray(
        args.input,
        args.out,
        spec,
        input_format=args.input_format,
        output_format=args.output_format,
        actors=args.actors,
        batch_size=args.batch_size,
        address=args.address,
        max_row_bytes=_row_cap(args),
        progress=not args.no_progress,
        on_invalid=_say_invalid,
    )


def _row_cap(args: argparse.Namespace) -> int:
    # the default lives with the reader, not imported while the parser is built
    from prin_guard.grade._read import DEFAULT_MAX_ROW_BYTES

    return DEFAULT_MAX_ROW_BYTES if args.max_row_bytes is None else int(args.max_row_bytes)


def add_grade(commands: Any) -> None:
    gr = commands.add_parser(
        "grade",
        help="judge every item of a JSONL, CSV or Parquet file (resumable)",
        description="Judge every item of INPUT (JSONL, CSV or Parquet; columns question, "
        "candidates, context, id) and write one row per item to OUTPUT: id, line, the "
        "labels judged correct, every check's score, flags, the acceptance decision, cost "
        "(--with-legs adds the judge's raw replies). Items already in OUTPUT are skipped, "
        "so running again resumes; a bad row is reported with its line number and written "
        "as an invalid_item row. Ctrl-C finishes the items in flight, writes them and "
        "exits with 130.",
    )
    gr.add_argument("input", metavar="INPUT")
    gr.add_argument(
        "--out",
        required=True,
        metavar="OUTPUT",
        help="output file (.jsonl, .csv, .parquet), on either engine",
    )
    gr.add_argument("--input-format", choices=["jsonl", "csv", "parquet"])
    gr.add_argument(
        "--output-format",
        choices=["jsonl", "csv", "parquet"],
        help="default: from OUTPUT's suffix",
    )
    gr.add_argument("--with-legs", action="store_true", help="add every leg's raw reply")
    gr.add_argument(
        "--max-row-bytes",
        type=int,
        metavar="BYTES",
        help="the longest JSONL line or CSV record read; a longer one is written as an "
        "invalid row without being read whole (default 8 MiB)",
    )
    gr.add_argument(
        "--concurrency",
        type=int,
        default=64,
        help="judge calls in flight (per actor with --engine ray; default 64)",
    )
    gr.add_argument(
        "--cache",
        default="memory",
        help="memory (default), none, sqlite (a file under PRIN_GUARD_HOME), a .sqlite3 "
        "path, or a redis:// URL (shared by every process, and by the Ray actors)",
    )
    add_rate_limit_options(gr)
    gr.add_argument(
        "--engine",
        choices=["local", "ray"],
        default="local",
        help="local: this process; ray: a Ray Data pipeline (needs the 'ray' extra)",
    )
    gr.add_argument(
        "--address",
        help="the Ray cluster to use (ray.init's address, e.g. auto or ray://head:10001); "
        "default: the one RAY_ADDRESS names, else a local one",
    )
    gr.add_argument("--actors", type=int, default=2, help="Ray actors grading (default 2)")
    gr.add_argument("--batch-size", type=int, default=256, help="items per Ray batch (default 256)")
    gr.add_argument("--json", action="store_true", help="print the summary as JSON")
    gr.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_fail_on_flag(gr, "a row this run judged (rows resumed from OUTPUT are not counted)")
    add_arguments(gr)
    gr.set_defaults(run=_cmd_grade)
