"""``prin-guard grade``: a file of items in, one output row per item out."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from prin_guard.cli._common import (
    add_decision_options,
    add_guard_options,
    build_guard,
    emit,
    guard_options,
    tier_specs,
)

if TYPE_CHECKING:
    from prin_guard._ratelimit import RateLimit

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


def rate_limit_from_args(args: argparse.Namespace, cache: str | None) -> RateLimit | None:
    """The RateLimit the options ask for: in the cache's Redis when it is one."""
    if args.rate_limit is None and args.token_limit is None:
        return None
    from prin_guard._ratelimit import RateLimit

    shared = cache if cache is not None and cache.startswith(_REDIS) else None
    return RateLimit(args.rate_limit, tokens=args.token_limit, redis_url=shared, name=args.judge)


def _cmd_grade(args: argparse.Namespace) -> int:
    from prin_guard.grade import summary_text

    options = guard_options(args)
    rate_limit = rate_limit_from_args(args, args.cache)
    if args.engine == "ray":
        summary = _ray(args, options, rate_limit)
    else:
        from prin_guard.grade import grade, open_cache

        guard = build_guard(
            args,
            options,
            cache=open_cache(args.cache, concurrency=args.concurrency),
            concurrency=args.concurrency,
            rate_limit=rate_limit,
        )
        summary = grade(
            guard,
            args.input,
            args.out,
            input_format=args.input_format,
            output_format=args.output_format,
            with_legs=args.with_legs,
            progress=not args.no_progress,
            on_invalid=_say_invalid,
        )
    emit(summary.model_dump_json(indent=2) if args.json else summary_text(summary))
    return 130 if summary.interrupted else 0


def _read(path: str) -> str:
    """An acceptance file's text, checked here (the actors get the text, not the path)."""
    from prin_guard._acceptance import Acceptance

    return Acceptance.load(path).to_json()


def _say_invalid(line: int, reason: str) -> None:
    print(f"prin-guard: line {line}: {reason}", file=sys.stderr, flush=True)


def _ray(args: argparse.Namespace, options: Any, rate_limit: RateLimit | None) -> Any:
    from prin_guard._exceptions import UsageError

    if args.cache not in ("memory", "none") and not args.cache.startswith(_REDIS):
        raise UsageError("cache: the Ray engine shares a redis:// cache (or 'memory' per actor)")
    from prin_guard import ray as on_ray

    spec = on_ray.WorkerSpec(
        judge=args.judge,
        options=options,
        redis_url=args.cache if args.cache.startswith(_REDIS) else None,
        concurrency=args.concurrency,
        rate_limit=rate_limit,
        with_legs=args.with_legs,
        panel=tuple(args.panel or ()),
        tiers=tuple(tuple(level) for level in tier_specs(args)),
        acceptance=None if args.acceptance is None else _read(args.acceptance),
        api_base=args.api_base,
        structured=args.structured,
        max_tokens=args.max_tokens,
    )
    return on_ray.grade(
        args.input,
        args.out,
        spec,
        input_format=args.input_format,
        output_format=args.output_format or "parquet",
        actors=args.actors,
        batch_size=args.batch_size,
        address=args.address,
    )


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
        help="output file (.jsonl, .csv, .parquet); with --engine ray a directory",
    )
    gr.add_argument("--input-format", choices=["jsonl", "csv", "parquet"])
    gr.add_argument(
        "--output-format",
        choices=["jsonl", "csv", "parquet"],
        help="default: from OUTPUT's suffix (the Ray engine: parquet)",
    )
    gr.add_argument("--with-legs", action="store_true", help="add every leg's raw reply")
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
    add_guard_options(gr)
    add_decision_options(gr)
    gr.set_defaults(run=_cmd_grade)
