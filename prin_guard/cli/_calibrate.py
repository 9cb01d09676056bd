"""``prin-guard calibrate``: an acceptance file with a guaranteed error rate, from eval runs."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from prin_guard._infra._json import dumps, finite
from prin_guard.cli._common import emit

__all__ = ["add_calibrate"]

_DESCRIPTION = (
    "Choose, from eval runs with gold labels, the most permissive acceptance rule whose error "
    "rate among accepted verdicts is at most ALPHA with probability at least 1 - DELTA over "
    "the draw of the calibration items (exact binomial tests, fixed-sequence testing), and "
    "write it as an acceptance file a guard applies. With --tier, the runs of a stronger "
    "judge on the same items make a cascade, calibrated jointly: the guarantee holds for "
    "everything the cascade accepts. It holds for items exchangeable with the calibration "
    "items, judged by the same judge with the same options (docs/calibration.md)."
)


def add_calibrate(commands: Any) -> None:
    """Register ``calibrate`` on the command line's subparsers."""
    from prin_guard._route._decide import SIGNALS

    cal = commands.add_parser(
        "calibrate",
        help="choose acceptance rules with a guaranteed error rate from eval runs",
        description=_DESCRIPTION,
    )
    cal.add_argument("runs", nargs="+", metavar="RUN_DIR", help="eval runs of the (first) judge")
    cal.add_argument(
        "--tier",
        action="append",
        default=[],
        metavar="RUN_DIR[,RUN_DIR...]",
        help="eval runs of the next judge of a cascade, on the same items (repeat per tier)",
    )
    cal.add_argument("--alpha", type=float, default=0.1, help="error rate among accepted (0.1)")
    cal.add_argument(
        "--delta", type=float, default=0.1, help="chance that the guarantee fails (0.1)"
    )
    cal.add_argument("--out", default="acceptance.json", help="the acceptance file to write")
    cal.add_argument(
        "--tolerance",
        type=float,
        metavar="POINTS",
        help="rating runs (eval summeval): a rating within this many points of the human "
        "score is right; the guarantee is P(|rating - human| > POINTS | accepted) <= alpha",
    )
    cal.add_argument(
        "--min-tau",
        type=float,
        metavar="TAU",
        help="ranking runs: a ranking is right when its best is among the human best and its "
        "Kendall's tau-b with the human ranking is at least TAU (default: top-1 alone)",
    )
    cal.add_argument(
        "--signal",
        action="append",
        metavar="NAME",
        help=f"auto (default) or {', '.join(SIGNALS)}; once for every tier or once per tier",
    )
    cal.add_argument(
        "--config", default="none", help="the runs' mitigation configuration (none, cot, ...)"
    )
    cal.add_argument(
        "--holdout",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="keep this share of the items (seeded) out of calibration and report on them",
    )
    cal.add_argument(
        "--seed", type=int, default=0, help="seed of the hold-out, selection and path splits"
    )
    cal.add_argument(
        "--selection-fraction",
        type=float,
        default=0.3,
        help="--signal auto, one judge: share of the items kept apart to choose the signal; "
        "the rest tests it (0.3)",
    )
    cal.add_argument(
        "--start-coverage",
        type=float,
        default=0.1,
        help="testing starts at the strictest rule accepting this share of the items (0.1)",
    )
    cal.add_argument(
        "--path-fraction",
        type=float,
        default=0.3,
        help="cascade: share of the items that orders the rules; the rest tests them (0.3)",
    )
    cal.add_argument(
        "--coverage-slack",
        type=float,
        default=0.02,
        help="cascade: give up this much coverage for fewer calls to later tiers (0.02)",
    )
    cal.add_argument(
        "--keep-idle-tiers",
        action="store_true",
        help="cascade: keep a tier whose certified rule accepts nothing (by default it is "
        "left out of the file, with a warning: a guard would ask it about every item and "
        "decide nothing with it)",
    )
    cal.add_argument("--report", metavar="DIR", help="write calibration.md and a plot there")
    cal.add_argument(
        "--evaluate",
        metavar="ACCEPTANCE",
        help="apply this acceptance file to the runs instead of calibrating",
    )
    cal.add_argument("--json", action="store_true", help="print the result as JSON")
    cal.set_defaults(run=_cmd_calibrate)


def _outcome(outcome: Any) -> dict[str, Any]:
    return {
        "items": outcome.n,
        "accepted": outcome.accepted,
        "errors": outcome.errors,
        "coverage": outcome.coverage,
        "error_rate": outcome.error_rate,
        "abstained": outcome.abstained,
        "decided_by_tier": list(outcome.decided_by),
        "asked_by_tier": list(outcome.asked),
        "judge_calls_per_item": outcome.calls_per_item,
        "judge_calls_per_item_by_tier": [c / max(outcome.n, 1) for c in outcome.calls_by_tier],
        "cost_usd_per_item": outcome.cost_per_item,
    }


def _fit(fit: Any, *, chosen: bool) -> dict[str, Any]:
    """One signal's fixed-sequence test (one tier)."""
    return {
        "chosen": chosen,
        "level": fit.level,
        "threshold": fit.threshold,
        "accepted": fit.accepted,
        "errors": fit.errors,
        "coverage": fit.coverage,
        "p_value": fit.p_value,
    }


def _score(score: Any, *, chosen: bool) -> dict[str, Any]:
    """One signal compared on the items kept apart to choose the signal."""
    return {
        "chosen": chosen,
        "items": score.items,
        "certified_coverage": score.certified,
        "auroc": score.auroc,
    }


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard.calibrate import calibrate, evaluate, holdout_split, load_runs
    from prin_guard.calibrate._report import summary_lines, write_report

    tiers = [list(args.runs)] + [[p for p in spec.split(",") if p] for spec in args.tier]
    data = load_runs(tiers, config=args.config, tolerance=args.tolerance, min_tau=args.min_tau)
    if args.evaluate:
        acceptance = Acceptance.load(args.evaluate)
        outcome = evaluate(acceptance, data)
        if args.json:
            emit(dumps(finite(_outcome(outcome)), indent=2))
        else:
            emit(
                f"{outcome.n} items: accepted {outcome.accepted} (coverage "
                f"{100 * outcome.coverage:.1f}%), {outcome.errors} wrong, "
                f"{outcome.abstained} not accepted; "
                f"{outcome.calls_per_item:.2f} judge calls per item"
            )
        return 0
    part, held = holdout_split(data, args.holdout, args.seed)
    result = calibrate(
        part,
        alpha=args.alpha,
        delta=args.delta,
        signals=args.signal or "auto",
        seed=args.seed,
        path_fraction=args.path_fraction,
        coverage_slack=args.coverage_slack,
        start_coverage=args.start_coverage,
        selection_fraction=args.selection_fraction,
        keep_idle_tiers=args.keep_idle_tiers,
    )
    result.acceptance.save(args.out)
    if result.left_out:
        from prin_guard.calibrate._report import left_out_lines

        for line in left_out_lines(result):
            print(f"prin-guard: warning: {line}", file=sys.stderr, flush=True)
    held_out = None if held is None else evaluate(result.acceptance, held)
    report = write_report(result, args.report, holdout=held_out) if args.report else None
    if args.json:
        payload: dict[str, Any] = {
            "acceptance": result.acceptance.model_dump(mode="json"),
            "out": args.out,
            "skipped_unknown_gold": data.skipped_unknown_gold,
            "left_out_tiers": list(result.left_out),
            "judge_calls_per_item": result.calls_per_item,
        }
        if result.fits:
            payload["signals"] = {
                name: _fit(fit, chosen=name == result.signal) for name, fit in result.fits.items()
            }
        if result.selection:
            payload["selection"] = {
                name: _score(score, chosen=name == result.signal)
                for name, score in result.selection.items()
            }
        if result.path_signals:
            rules = [tier.rule.signal for tier in result.acceptance.tiers]
            payload["path_signals"] = [
                {name: _score(score, chosen=name == rules[k]) for name, score in tier.items()}
                for k, tier in enumerate(result.path_signals)
            ]
        if held_out is not None:
            payload["holdout"] = _outcome(held_out)
        if result.tested is not None:
            payload["cascade_test_part"] = _outcome(result.tested)
        if report is not None:
            payload["report"] = str(report)
        emit(dumps(finite(payload), indent=2))
        return 0
    if data.skipped_unknown_gold:
        emit(f"({data.skipped_unknown_gold} items without a gold set left out)")
    for line in summary_lines(result, held_out):
        emit(line)
    emit(f"wrote {args.out}" + (f" and {report}" if report else ""))
    return 0
