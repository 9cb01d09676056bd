"""The commands check, demo, eval, probe, serve and report, and their arguments."""

from __future__ import annotations

import argparse
from typing import Any

from prin_guard.cli._common import (
    add_decision_options,
    add_guard_options,
    add_judge_options,
    build_guard,
    build_judge,
    build_judges,
    emit,
    guard_options,
    stdout,
)
from prin_guard.cli._grade import add_rate_limit_options, rate_limit_from_args

# -- commands ---------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    from prin_guard import Item
    from prin_guard._terminal import print_verdict

    options = guard_options(args)
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
    verdict = build_guard(args, options).check(item)
    if args.json:
        emit(verdict.model_dump_json(indent=2))
    else:
        print_verdict(verdict, item.question, [c.text for c in item.candidates], stdout())
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    import itertools

    from prin_guard._terminal import print_verdict
    from prin_guard.eval import load_mathqa, sample_path

    options = guard_options(args)
    records = list(itertools.islice(load_mathqa(sample_path("mathqa")), args.limit))
    guard = build_guard(args, options)
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
        print_verdict(verdict, record.item.question, texts, stdout())
        emit(f"Gold answer: {', '.join(record.gold)}\n" + "-" * 72)
    emit(f"{flagged} of {len(records)} verdicts flagged.")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from prin_guard import eval as evaluation
    from prin_guard._terminal import print_eval_summary

    mitigations = [] if args.mitigation == ["none"] else (args.mitigation or ["cot", "neg_exp"])
    options = guard_options(args, mitigations=(), probe=None)
    judge = build_judges(args)
    generator = None if args.generator is None else build_judge(args, args.generator)
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
        rate_limit=rate_limit_from_args(args, args.cache),
    )
    print_eval_summary(result.summary.model_dump(mode="json"), stdout())
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
        build_judge(args),
        args.dataset,
        spec,
        types=types,
        path=args.path,
        limit=args.limit,
        concurrency=args.concurrency,
        cache=args.cache,
        out=args.out,
    )
    print_probe_table(result.summary.model_dump(mode="json"), stdout())
    emit(f"\nreport: {result.report}")
    return 130 if result.interrupted else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from prin_guard.server._cli import run_serve

    return run_serve(args)


def cmd_report(args: argparse.Namespace) -> int:
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


def add_check(commands: Any) -> None:
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
    add_guard_options(check)
    add_decision_options(check)
    check.set_defaults(run=_cmd_check)

    demo = commands.add_parser("demo", help="verdicts for a few real MathQA items")
    demo.add_argument("--limit", type=int, default=5, help="how many items (default 5)")
    add_guard_options(demo)
    add_decision_options(demo)
    demo.set_defaults(run=_cmd_demo)


def add_eval(commands: Any) -> None:
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
    add_rate_limit_options(ev)
    add_guard_options(
        ev,
        mitigation_help="mitigations to compare: every combination of those given is run "
        "(default: cot and neg-exp, so none, cot, neg_exp, cot+neg_exp); 'none' for the "
        "bare prompts only",
        probe=False,
    )
    ev.set_defaults(run=_cmd_eval)


def add_probe(commands: Any) -> None:
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
    add_judge_options(pr)
    pr.set_defaults(run=_cmd_probe)
