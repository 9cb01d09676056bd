"""What every command shares: the real stdout, logging, judge and guard options."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from prin_guard import Guard, GuardOptions, Judge

__all__ = [
    "add_decision_options",
    "add_guard_options",
    "add_judge_options",
    "build_guard",
    "build_judge",
    "build_judges",
    "configure_logging",
    "emit",
    "guard_judges",
    "guard_options",
    "stdout",
    "tier_specs",
    "use_stdout",
]

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


_JUDGE_HELP = (
    "'local' (bundled SmolLM2-135M-Instruct), 'local:<HF model id or path>', a litellm "
    "model string such as 'openai/gpt-4o-mini' (keys from the provider's usual environment "
    "variables), or 'python:<module>:<factory>'"
)


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


# -- shared options ---------------------------------------------------------------


def add_judge_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judge", default="local", help=_JUDGE_HELP)
    parser.add_argument(
        "--api-base",
        help="base URL of an OpenAI-compatible server for a litellm judge "
        "(e.g. http://127.0.0.1:8000/v1)",
    )
    parser.add_argument(
        "--max-tokens", type=int, help="cap on a litellm judge's reply length, in tokens"
    )
    parser.add_argument(
        "--logprobs",
        action="store_true",
        help="ask a litellm judge for its tokens' log-probabilities (the confidence check; "
        "providers and OpenAI-compatible servers that support them, llama.cpp's included)",
    )
    parser.add_argument(
        "--structured",
        choices=["none", "auto", "json-schema", "json-object"],
        help="constrain a litellm judge's answer to JSON over the labels "
        "(json-object for llama.cpp's server)",
    )


def add_guard_options(
    parser: argparse.ArgumentParser, *, mitigation_help: str = "", probe: bool = True
) -> None:
    """The GuardOptions fields as flags; allowed values come from the registries."""
    from prin_guard._models import CHECKS
    from prin_guard._options import PROBE_KINDS
    from prin_guard._prompts import TEMPLATES, Mitigation
    from prin_guard._reconcile import POLICIES

    add_judge_options(parser)
    parser.add_argument(
        "--panel",
        action="append",
        metavar="JUDGE",
        help="a panel member, spelled as --judge (repeat: at least two); the panel's verdict "
        "is what a strict majority of all members calls correct (flags panel_split, "
        "panel_abstention); replaces --judge",
    )
    parser.add_argument(
        "--template",
        default="v0",
        choices=sorted(TEMPLATES),
        help="prompt wording: v0 the paper's (correct/incorrect), v1 right/wrong, "
        "v2 appropriate/inappropriate (the paper's paraphrases); v3, v4 our own",
    )
    known = ", ".join(m.value for m in Mitigation)
    parser.add_argument(
        "--mitigation",
        action="append",
        default=[],
        metavar="NAME",
        help=mitigation_help
        or f"{known} (neg-exp works too; repeatable): cot shows reasoning paths or asks for "
        "step-by-step reasoning; neg_exp explains the negation in the reverse prompt",
    )
    parser.add_argument(
        "--policy",
        default="synergy",
        choices=list(POLICIES),
        help="which set is reported as correct (default: synergy, what both legs agree on)",
    )
    parser.add_argument(
        "--threshold", type=float, default=0.0, help="largest PRIN still called consistent"
    )
    parser.add_argument(
        "--max-chars", type=int, default=32_000, help="longest text field accepted in an item"
    )
    parser.add_argument(
        "--max-candidates", type=int, default=64, help="most candidates accepted in an item"
    )
    parser.add_argument(
        "--checks",
        default="reverse",
        metavar="NAMES",
        help=f"comma-separated checks on every verdict, of {', '.join(CHECKS)}: reverse "
        "(always), order (ask again with the candidates in a second order: twice the judge "
        "calls; flag order_sensitive), confidence (flag low_confidence; judges with "
        "log-probabilities only)",
    )
    parser.add_argument(
        "--min-confidence",
        type=float,
        default=0.5,
        help="with the confidence check: the lowest probability of a leg's answer not "
        "flagged low_confidence (default 0.5)",
    )
    if not probe:
        return
    parser.add_argument(
        "--probe",
        choices=list(PROBE_KINDS),
        help="ask each leg again after its answer and flag 'vacillating' (more judge calls)",
    )


def build_judge(args: argparse.Namespace, spec: str | None = None) -> Judge:
    from prin_guard.judges import judge_from_spec

    return judge_from_spec(
        spec or args.judge,
        api_base=args.api_base,
        structured=args.structured,
        max_tokens=args.max_tokens,
        logprobs=getattr(args, "logprobs", False),
    )


def guard_options(args: argparse.Namespace, **changes: Any) -> GuardOptions:
    from prin_guard._options import GuardOptions

    fields = {
        "template": args.template,
        "mitigations": args.mitigation,
        "policy": args.policy,
        "threshold": args.threshold,
        "max_chars": args.max_chars,
        "max_candidates": args.max_candidates,
        "checks": args.checks,
        "min_confidence": args.min_confidence,
        "probe": getattr(args, "probe", None),
    }
    return GuardOptions.of(**{**fields, **changes})


def build_judges(args: argparse.Namespace) -> Judge | list[Judge]:
    """The judge, or with ``--panel`` the panel's judges (each spelled as ``--judge``)."""
    panel = getattr(args, "panel", None) or []
    if len(panel) == 1:
        from prin_guard._exceptions import UsageError

        raise UsageError("panel: a panel needs at least two judges (repeat --panel)")
    if panel:
        return [build_judge(args, spec) for spec in panel]
    return build_judge(args)


def tier_specs(args: argparse.Namespace) -> list[list[str]]:
    """``--tier`` as lists of judge specs, one list per tier (several: a panel)."""
    tiers = getattr(args, "tier", None) or []
    specs = [[spec.strip() for spec in tier.split(",") if spec.strip()] for tier in tiers]
    if any(not level for level in specs):
        from prin_guard._exceptions import UsageError

        raise UsageError("tier: an empty tier; give a judge spec (or several, comma-separated)")
    if specs and getattr(args, "panel", None):
        from prin_guard._exceptions import UsageError

        raise UsageError("tier: give --tier (a cascade) or --panel, not both")
    return specs


def guard_judges(args: argparse.Namespace) -> dict[str, Any]:
    """The Guard keywords that say who judges: ``judge`` (one, or a panel) or ``tiers``,
    and ``acceptance``."""
    acceptance = getattr(args, "acceptance", None)
    specs = tier_specs(args)
    if specs:
        levels: list[Any] = []
        for level in specs:
            members = [build_judge(args, spec) for spec in level]
            levels.append(members[0] if len(members) == 1 else members)
        return {"tiers": levels, "acceptance": acceptance}
    return {"judge": build_judges(args), "acceptance": acceptance}


def build_guard(args: argparse.Namespace, options: GuardOptions, **calling: Any) -> Guard:
    """The Guard the arguments describe; ``calling`` (cache, concurrency, ...) on top."""
    from prin_guard import Guard

    return Guard(**guard_judges(args), options=options, **calling)


def add_decision_options(parser: argparse.ArgumentParser) -> None:
    """--acceptance and --tier: calibrated decisions and escalation (commands that judge)."""
    parser.add_argument(
        "--acceptance",
        metavar="FILE",
        help="an acceptance file from 'prin-guard calibrate': each verdict is accepted or "
        "flagged not_accepted by the calibrated rule (for the judge and options it was "
        "calibrated for)",
    )
    parser.add_argument(
        "--tier",
        action="append",
        metavar="JUDGE[,JUDGE...]",
        help="escalation: a tier of judges, cheapest first (repeat; a comma-separated list "
        "is a panel); a verdict not accepted by --acceptance goes to the next tier, and one "
        "no tier accepts is flagged abstained; replaces --judge",
    )
