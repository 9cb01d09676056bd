"""The ``prin-guard`` command line.

This is the only place that configures logging: warnings and errors go to
stderr, ``-v`` adds info events, ``-vv`` debug events (prompts and replies).
Heavy modules are imported inside the commands so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prin_guard import Guard, Judge, Verdict

__all__ = ["main"]


def _configure_logging(verbosity: int) -> None:
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


def build_judge(spec: str, *, api_base: str | None = None) -> Judge:
    """A judge from its command-line spelling: ``local`` or ``local:<model id or path>``."""
    from prin_guard._exceptions import UsageError
    from prin_guard.judges import LocalJudge

    if spec == "local":
        judge: Judge = LocalJudge()
        return judge
    if spec.startswith("local:"):
        return LocalJudge(spec.removeprefix("local:"))
    raise UsageError(f"--judge: unknown judge {spec!r}; use 'local' or 'local:<model id or path>'")


def _add_guard_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--judge",
        default="local",
        help="'local' (bundled SmolLM2-135M-Instruct) or 'local:<HF model id or path>'",
    )
    parser.add_argument(
        "--template",
        default="v0",
        choices=["v0", "v1", "v2"],
        help="prompt wording: v0 the paper's (correct/incorrect), v1 right/wrong, "
        "v2 appropriate/inappropriate",
    )
    parser.add_argument(
        "--mitigation",
        action="append",
        default=[],
        choices=["cot", "neg-exp", "neg_exp"],
        help="cot: show reasoning paths or ask for step-by-step reasoning; "
        "neg-exp: explain the negation in the reverse prompt (repeatable)",
    )
    parser.add_argument(
        "--policy",
        default="synergy",
        choices=["synergy", "direct", "reverse"],
        help="which set is reported as correct (default: synergy, what both legs agree on)",
    )
    parser.add_argument(
        "--threshold",
        type=float,
        default=0.0,
        help="largest PRIN still called consistent (default 0)",
    )


def _guard_from(args: argparse.Namespace) -> Guard:
    from prin_guard import Guard

    return Guard(
        build_judge(args.judge),
        template=args.template,
        mitigations=args.mitigation,
        policy=args.policy,
        threshold=args.threshold,
    )


def _one_line(text: str | None, width: int = 100) -> str:
    if text is None:
        return "(no reply)"
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def render_verdict(verdict: Verdict, question: str, texts: Sequence[str]) -> str:
    """A verdict as a table a person can read in a terminal."""
    lines = [f"Question: {_one_line(question, 200)}", ""]
    direct = set(verdict.direct.labels) if verdict.direct else set()
    reverse = set(verdict.reverse.labels) if verdict.reverse else set()
    correct = set(verdict.correct)
    width = max([len(t) for t in texts] + [9])
    width = min(width, 40)
    lines.append(f"  {'label':<5}  {'candidate':<{width}}  {'direct':<8}  {'reverse':<9}  verdict")
    for label, text in zip(verdict.labels, texts, strict=True):
        lines.append(
            f"  {label:<5}  {_one_line(text, width):<{width}}  "
            f"{'correct' if label in direct else '-':<8}  "
            f"{'incorrect' if label in reverse else '-':<9}  "
            f"{'CORRECT' if label in correct else ''}"
        )
    lines.append("")
    for leg in (verdict.direct, verdict.reverse):
        if leg is None:
            continue
        how = leg.parse_method.value if leg.parse_method else "unparseable"
        source = "cache" if leg.cached else f"{leg.latency_ms / 1000:.2f} s"
        lines.append(
            f"{leg.polarity.value.capitalize():<7} leg ({leg.template}, {source}): "
            f"{_one_line(leg.raw_text, 70)!r}"
        )
        lines.append(
            f"        read as {{{', '.join(leg.labels)}}} ({leg.parse_status.value}, {how})"
            + ("  ! answers the opposite question" if leg.polarity_confusion else "")
        )
    if verdict.error is not None:
        lines.append(f"Error: {verdict.error.message}")
    else:
        lines.append(f"Reverse leg implies correct: {{{', '.join(verdict.reverse_implied)}}}")
        lines.append(
            f"PRIN {verdict.prin_score:.3f}: "
            + ("consistent" if verdict.consistent else "INCONSISTENT")
        )
    lines.append(f"Flags: {', '.join(f.value for f in verdict.flags) or 'none'}")
    shown = ", ".join(verdict.correct) or "(none)"
    lines.append(f"Verdict ({verdict.policy}): {shown}")
    return "\n".join(lines)


def _cmd_check(args: argparse.Namespace) -> int:
    from prin_guard._guard import coerce_item

    # Validate before loading a model: a bad item fails in milliseconds.
    item = coerce_item(
        {
            "question": args.question,
            "candidates": args.candidate,
            "context": args.context,
            "id": args.id,
        },
        max_chars=32_000,
    )
    verdict = _guard_from(args).check(item)
    if args.json:
        print(verdict.model_dump_json(indent=2))
    else:
        print(render_verdict(verdict, item.question, [c.text for c in item.candidates]))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    import itertools

    from prin_guard.eval import load_mathqa, sample_path

    records = list(itertools.islice(load_mathqa(sample_path("mathqa")), args.limit))
    guard = _guard_from(args)
    print(
        f"prin-guard demo: {len(records)} MathQA items, judge {args.judge}, "
        f"template {args.template}. The bundled model is tiny and often wrong: "
        "it shows the mechanics, not judging quality.\n"
    )
    flagged = 0
    for record in records:
        verdict = guard.check(record.item)
        flagged += bool(verdict.flags)
        print(
            render_verdict(verdict, record.item.question, [c.text for c in record.item.candidates])
        )
        print(f"Gold answer: {', '.join(record.gold)}\n" + "-" * 72)
    print(f"{flagged} of {len(records)} verdicts flagged.")
    return 0


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

    check = commands.add_parser("check", help="judge one question and its candidates")
    check.add_argument("--question", required=True)
    check.add_argument(
        "--candidate",
        action="append",
        required=True,
        help="a candidate answer (repeat: at least two)",
    )
    check.add_argument("--context", help="material the judge needs (a passage, a rubric)")
    check.add_argument("--id", help="an id for the item, shown in the verdict and the logs")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    _add_guard_options(check)
    check.set_defaults(run=_cmd_check)

    demo = commands.add_parser("demo", help="verdicts for a few real MathQA items")
    demo.add_argument("--limit", type=int, default=5, help="how many items (default 5)")
    _add_guard_options(demo)
    demo.set_defaults(run=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _configure_logging(args.verbose)
    from prin_guard._exceptions import PrinGuardError

    try:
        result: Any = args.run(args)
    except PrinGuardError as exc:
        print(f"prin-guard: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("prin-guard: interrupted", file=sys.stderr)
        return 130
    return int(result)


if __name__ == "__main__":
    sys.exit(main())
