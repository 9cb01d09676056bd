"""The ``prin-guard`` command line: it parses arguments and prints, nothing else.

Every command is a thin shell over the library: judges come from
:func:`~prin_guard.judges.judge_from_spec`, guard options from
:class:`~prin_guard.GuardOptions`, runs from :func:`prin_guard.eval.run` and
:func:`prin_guard.probe.run`, output from ``_terminal`` (rich tables on a
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
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from prin_guard import Guard, GuardOptions, Judge

__all__ = ["main"]

# What the user asked for goes to the real stdout; anything a dependency prints
# while a command runs (litellm's help banner, for one) goes to stderr, so that
# `--json` output stays parseable.
_stdout: TextIO = sys.stdout

_JUDGE_HELP = (
    "'local' (bundled SmolLM2-135M-Instruct), 'local:<HF model id or path>', a litellm "
    "model string such as 'openai/gpt-4o-mini' (keys from the provider's usual environment "
    "variables), or 'python:<module>:<factory>'"
)


def emit(text: str = "") -> None:
    """Print a result line to the real standard output."""
    print(text, file=_stdout, flush=True)


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


# -- shared options ---------------------------------------------------------------


def _add_judge_options(parser: argparse.ArgumentParser) -> None:
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
        "--structured",
        choices=["none", "auto", "json-schema", "json-object"],
        help="constrain a litellm judge's answer to JSON over the labels "
        "(json-object for llama.cpp's server)",
    )


def _add_guard_options(
    parser: argparse.ArgumentParser, *, mitigation_help: str = "", probe: bool = True
) -> None:
    """The GuardOptions fields as flags; allowed values come from the registries."""
    from prin_guard._options import PROBE_KINDS
    from prin_guard._prompts import TEMPLATES, Mitigation
    from prin_guard._reconcile import POLICIES

    _add_judge_options(parser)
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
    if not probe:
        return
    parser.add_argument(
        "--probe",
        choices=list(PROBE_KINDS),
        help="ask each leg again after its answer and flag 'vacillating' (more judge calls)",
    )


def _judge(args: argparse.Namespace, spec: str | None = None) -> Judge:
    from prin_guard.judges import judge_from_spec

    return judge_from_spec(
        spec or args.judge,
        api_base=args.api_base,
        structured=args.structured,
        max_tokens=args.max_tokens,
    )


def _options(args: argparse.Namespace, **changes: Any) -> GuardOptions:
    from prin_guard._options import GuardOptions

    fields = {
        "template": args.template,
        "mitigations": args.mitigation,
        "policy": args.policy,
        "threshold": args.threshold,
        "max_chars": args.max_chars,
        "max_candidates": args.max_candidates,
        "probe": getattr(args, "probe", None),
    }
    return GuardOptions.of(**{**fields, **changes})


def _guard(args: argparse.Namespace, options: GuardOptions) -> Guard:
    from prin_guard import Guard

    return Guard(_judge(args), options=options)


# -- commands ---------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    from prin_guard import Item
    from prin_guard._terminal import print_verdict

    options = _options(args)
    # Validate before loading a model: a bad item fails in milliseconds.
    item = Item.coerce(
        {
            "question": args.question,
            "candidates": args.candidate,
            "context": args.context,
            "id": args.id,
        },
        max_chars=options.max_chars,
        max_candidates=options.max_candidates,
    )
    verdict = _guard(args, options).check(item)
    if args.json:
        emit(verdict.model_dump_json(indent=2))
    else:
        print_verdict(verdict, item.question, [c.text for c in item.candidates], _stdout)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    import itertools

    from prin_guard._terminal import print_verdict
    from prin_guard.eval import load_mathqa, sample_path

    options = _options(args)
    records = list(itertools.islice(load_mathqa(sample_path("mathqa")), args.limit))
    guard = _guard(args, options)
    emit(
        f"prin-guard demo: {len(records)} MathQA items, judge {args.judge}, "
        f"template {options.template}. The bundled model is tiny and often wrong: "
        "it shows the mechanics, not judging quality.\n"
    )
    flagged = 0
    for record in records:
        verdict = guard.check(record.item)
        flagged += bool(verdict.flags)
        texts = [c.text for c in record.item.candidates]
        print_verdict(verdict, record.item.question, texts, _stdout)
        emit(f"Gold answer: {', '.join(record.gold)}\n" + "-" * 72)
    emit(f"{flagged} of {len(records)} verdicts flagged.")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from prin_guard import eval as evaluation
    from prin_guard._terminal import print_eval_summary

    mitigations = [] if args.mitigation == ["none"] else (args.mitigation or ["cot", "neg_exp"])
    options = _options(args, mitigations=(), probe=None)
    judge = _judge(args)
    generator = None if args.generator is None else _judge(args, args.generator)
    result = evaluation.run(
        judge,
        args.dataset,
        path=args.path,
        limit=args.limit,
        options=options,
        mitigations=mitigations,
        methods=[m for m in args.methods.split(",") if m],
        analyses=[] if args.analyses == "none" else [a for a in args.analyses.split(",") if a],
        repeats=args.repeats,
        samples=args.samples,
        temperature=args.temperature,
        seed=args.seed,
        concurrency=args.concurrency,
        cache=args.cache,
        generate_pool=args.generate_pool,
        generator=generator,
        out=args.out,
        name=args.name,
    )
    print_eval_summary(result.summary.model_dump(mode="json"), _stdout)
    emit(f"\nreport: {result.report}")
    return 130 if result.interrupted else 0


def _cmd_probe(args: argparse.Namespace) -> int:
    from prin_guard import probe as probing
    from prin_guard._terminal import print_probe_table

    form = probing.FollowUpForm(args.form)
    types = list(probing.FollowUpType) if args.type == "all" else [probing.FollowUpType(args.type)]
    spec = probing.Probe(
        form=form,
        followup_type=None if form is probing.FollowUpForm.PROGRESSIVE else types[0],
        prompt_set=args.prompt_set,
        mitigations=tuple(args.mitigation),
        position=args.position.replace("-", "_"),
        seed=args.seed,
    )
    result = probing.run(
        _judge(args),
        args.dataset,
        spec,
        types=types,
        path=args.path,
        limit=args.limit,
        concurrency=args.concurrency,
        cache=args.cache,
        out=args.out,
    )
    print_probe_table(result.summary.model_dump(mode="json"), _stdout)
    emit(f"\nreport: {result.report}")
    return 130 if result.interrupted else 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from prin_guard.server._cli import run_serve

    return run_serve(args)


def _cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from prin_guard.eval._report import load_run, write_report

    runs = [load_run(path) for path in args.runs]
    out = Path(args.out) if args.out else runs[0].path
    if len(runs) > 1 and not args.out:
        out = Path("runs") / ("compare-" + "-vs-".join(r.path.name for r in runs))[:120]
    report = write_report(runs, out)
    emit(f"report: {report}")
    return 0


# -- the parser -------------------------------------------------------------------


def _add_check(commands: Any) -> None:
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


def _add_eval(commands: Any) -> None:
    ev = commands.add_parser(
        "eval",
        help="measure a judge's PRIN, accuracy and flag quality on a benchmark",
        description="Run the PRIN paper's methods on a dataset and write items.jsonl, "
        "summary.json, report.md and report.html. DATASET is a name (mathqa, aqua-rat, "
        "commonsenseqa, mmlu, strategyqa, coinflip, gsm8k-solutions: the shipped sample, or "
        "--path for the full original file) or a generic .jsonl file.",
    )
    ev.add_argument("dataset", metavar="DATASET")
    ev.add_argument("--path", help="the full original dataset file (default: shipped sample)")
    ev.add_argument("--limit", type=int, help="judge at most this many items")
    ev.add_argument("--seed", type=int, default=0, help="seed for sampling and option subsamples")
    ev.add_argument("--concurrency", type=int, default=4, help="items judged at once")
    ev.add_argument(
        "--methods",
        default="direct,reverse,synergy,self-consistency",
        help="comma-separated: direct, reverse, synergy, self-consistency",
    )
    ev.add_argument(
        "--analyses",
        default="paraphrase,options,randomness",
        help="comma-separated: paraphrase (Table 5, paraphrase inconsistency), options "
        "(Figure 5), randomness (randomness inconsistency); or 'none'",
    )
    ev.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="sampled repeats of the base run for PRIN mean ± std (Table 6)",
    )
    ev.add_argument("--samples", type=int, default=5, help="self-consistency samples (k)")
    ev.add_argument(
        "--temperature",
        type=float,
        default=0.7,
        help="sampling temperature for self-consistency, randomness and repeats",
    )
    ev.add_argument(
        "--cache",
        default="sqlite",
        help="sqlite (default, under PRIN_GUARD_HOME: re-runs resume), a .sqlite3 "
        "path, memory, none, or a redis:// URL",
    )
    ev.add_argument(
        "--generate-pool",
        type=int,
        metavar="N",
        help="for datasets without candidates (gsm8k, math, multiarith, svamp, last-letters; "
        "give --path): sample N solutions from the generator and judge their distinct "
        "answers, as the paper built its MATH options (default 5)",
    )
    ev.add_argument("--generator", help="judge spec of the generator (default: the judge)")
    ev.add_argument("--out", help="run directory (default runs/<dataset>-<judge>-<time>)")
    ev.add_argument("--name", help="the run's name in reports")
    _add_guard_options(
        ev,
        mitigation_help="mitigations to compare: every combination of those given is run "
        "(default: cot and neg-exp, so none, cot, neg_exp, cot+neg_exp); 'none' for the "
        "bare prompts only",
        probe=False,
    )
    ev.set_defaults(run=_cmd_eval)


def _add_probe(commands: Any) -> None:
    pr = commands.add_parser(
        "probe",
        help="ask the judge again ('Are you sure?') and measure how often it changes its mind",
        description="The Ask Again experiment: the judge answers which candidates are correct, "
        "then is questioned (closed: 'Are you sure?', open: 'I don't agree with you. Think "
        "again.', leading: 'I think the answer should be X. What do you think?'). Writes "
        "items.jsonl, summary.json, report.md and report.html with the paper's Table 8.",
    )
    pr.add_argument("dataset", metavar="DATASET")
    pr.add_argument("--path", help="the full original dataset file (default: shipped sample)")
    pr.add_argument("--limit", type=int)
    pr.add_argument(
        "--form",
        choices=["direct", "progressive"],
        default="direct",
        help="direct: one follow-up per conversation; progressive: closed, open, "
        "then leading in one conversation",
    )
    pr.add_argument(
        "--type",
        choices=["closed", "open", "leading", "all"],
        default="all",
        help="the Direct Form's follow-up type (default: all three)",
    )
    pr.add_argument(
        "--prompt-set",
        choices=["A", "B", "C"],
        default="A",
        help="the paper's prompt sets (Table 4)",
    )
    pr.add_argument(
        "--mitigation",
        action="append",
        default=[],
        choices=["zero-shot-cot", "emotion", "few-shot"],
        help="Zero-shot-CoT, EmotionPrompt or few-shot demonstrations (repeatable)",
    )
    pr.add_argument(
        "--position",
        choices=["initial", "follow-up", "both"],
        default="both",
        help="where zero-shot mitigations go",
    )
    pr.add_argument("--seed", type=int, default=0, help="seed for the leading answer")
    pr.add_argument("--concurrency", type=int, default=4)
    pr.add_argument("--cache", default="sqlite", help="as for eval")
    pr.add_argument("--out", help="run directory (default runs/probe-<dataset>-<time>)")
    _add_judge_options(pr)
    pr.set_defaults(run=_cmd_probe)


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
    _add_check(commands)
    _add_eval(commands)
    _add_probe(commands)

    rep = commands.add_parser(
        "report", help="re-render a run's report, or compare runs side by side"
    )
    rep.add_argument("runs", nargs="+", metavar="RUN_DIR")
    rep.add_argument("--out", help="where to write the report (default: the run directory)")
    rep.set_defaults(run=_cmd_report)

    from prin_guard.server._cli import add_serve_arguments  # light: no fastapi import

    srv = commands.add_parser(
        "serve",
        help="serve verdicts over HTTP (needs the 'server' extra)",
        description="Run prin-guard as an HTTP service (FastAPI on uvicorn): POST /v1/verdicts, "
        "GET /healthz, GET /metrics, OpenAPI at /openapi.json and /docs. Settings come from "
        "--config (TOML or JSON), then PRIN_GUARD_* variables, then these options.",
    )
    add_serve_arguments(srv)
    srv.set_defaults(run=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _configure_logging(args.verbose)
    from prin_guard._exceptions import PrinGuardError

    global _stdout
    _stdout = sys.stdout
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


if __name__ == "__main__":
    sys.exit(main())
