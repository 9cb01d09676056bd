"""The command review: a paper (text or markdown) reviewed with a form, guarded."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from prin_guard._route._setup import add_arguments
from prin_guard.cli._common import (
    FAILED_ON_FLAG,
    add_fail_on_flag,
    build_guard,
    config_from_args,
    counted_flags,
    emit,
    fails_on,
)
from prin_guard.errors import UsageError

__all__ = ["add_review"]


def _form(spec: str) -> Any:
    """A shipped form's id, or a TOML file of one's own."""
    from prin_guard._review import load_review_form, review_form

    if spec.endswith(".toml") or Path(spec).is_file():
        return load_review_form(spec)
    return review_form(spec)


def _paper(path: str) -> str:
    file = Path(path)
    if file.suffix.lower() == ".pdf":
        raise UsageError(
            f"PAPER: {path!r} is a PDF; give its text or markdown (convert it first, with "
            "pdftotext or a PDF-to-markdown tool)"
        )
    try:
        return file.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"PAPER: cannot read {path!r} ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise UsageError(f"PAPER: {path!r} is not UTF-8 text (text or markdown)") from None


def _cmd_review(args: argparse.Namespace) -> int:
    from prin_guard._output._terminal import review_lines
    from prin_guard._review._item import ReviewItem

    counted_flags(args)  # an unknown flag name fails before a model loads
    config = config_from_args(args)
    rebuttal = args.rebuttal
    if rebuttal is not None and rebuttal.startswith("@"):
        try:
            rebuttal = Path(rebuttal[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--rebuttal: cannot read {rebuttal[1:]!r} ({exc.strerror})") from None
    given = {
        "task": "review",
        "document": _paper(args.paper),
        "form": _form(args.form),
        "system": args.system,
        "rebuttal": rebuttal,
        "rebuttal_tolerance": args.rebuttal_tolerance,
        "context_tokens": args.context_tokens,
        "id": args.id,
    }
    raw = {name: value for name, value in given.items() if value is not None}
    item = ReviewItem.coerce(raw, max_chars=config.options.max_chars)  # before a model loads
    verdict = build_guard(config).check(raw)
    failed = FAILED_ON_FLAG if fails_on(args, verdict.flags) else 0
    if args.json:
        emit(verdict.model_dump_json(indent=2))
        return failed
    for line in review_lines(verdict, item.form):
        emit(line)
    return failed


def add_review(commands: Any) -> None:
    review = commands.add_parser(
        "review",
        help="review a paper (text or markdown) with a reviewer's form, guarded",
        description="Ask the judge to fill in a review form for PAPER, then every score on "
        "its scale mirrored and the decision reversed ('should it be rejected?'); print the "
        "form, the reverse, the coherence flags (a decision against the overall score's "
        "side of the threshold, an overall score outside the aspects', a confidence the "
        "text disowns), the rebuttal probe's moves and the cost (docs/review.md).",
    )
    review.add_argument("paper", metavar="PAPER", help="the paper's text or markdown file")
    review.add_argument(
        "--form",
        default="iclr",
        help="a shipped review form (iclr, the default; ai-scientist) or a TOML file of one's own",
    )
    review.add_argument("--system", help="which of the form's system messages to send")
    review.add_argument(
        "--rebuttal",
        help="the rebuttal probe: no-evidence or hostile (shipped), the rebuttal's text, or @FILE",
    )
    review.add_argument(
        "--rebuttal-tolerance",
        type=float,
        help="points a score may move after the rebuttal before the review is "
        "swayed_by_rebuttal (default: each scale's tolerance)",
    )
    review.add_argument(
        "--context-tokens",
        type=int,
        help="the judge's context window in tokens: a paper whose legs would not fit is "
        "refused before any call",
    )
    review.add_argument("--id", help="an id for the item, shown in the verdict and the logs")
    review.add_argument("--json", action="store_true", help="print the verdict as JSON")
    add_fail_on_flag(review, "the verdict")
    add_arguments(review)
    review.set_defaults(run=_cmd_review)
