"""The commands check, demo, eval, probe, prompts, serve and report, and their arguments."""

from __future__ import annotations

import argparse
from typing import Any

from prin_guard._route._setup import JUDGE_SETTINGS, SETTINGS, add_arguments
from prin_guard.cli._common import (
    FAILED_ON_FLAG,
    add_fail_on_flag,
    build_guard,
    config_from_args,
    counted_flags,
    emit,
    fails_on,
    stdout,
)
from prin_guard.cli._grade import add_rate_limit_options, rate_limit_from_args
from prin_guard.errors import UsageError
from prin_guard.models import CHECKLIST_KINDS, TASKS

# -- commands ---------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    from prin_guard import Item
    from prin_guard._output._terminal import print_verdict

    counted_flags(args)  # an unknown flag name fails before a model loads
    config = config_from_args(args)
    options = config.options
    if args.task == "rating":
        return _check_rating(args, config)
    if args.task == "ranking":
        return _check_ranking(args, config)
    # Validate before loading a model: a bad item fails in milliseconds.
    given = {
        "task": args.task,
        "question": args.question,
        "candidates": args.candidate,
        "context": args.context,
        "response": args.response,
        "kind": args.kind,
        "id": args.id,
    }
    item = Item.coerce(
        {name: value for name, value in given.items() if value is not None},
        max_chars=options.max_chars,
        max_candidates=options.max_candidates,
    )
    verdict = build_guard(config).check(item)
    if args.json:
        emit(verdict.model_dump_json(indent=2))
    else:
        print_verdict(
            verdict,
            item.question or "",
            [c.text for c in item.candidates],
            stdout(),
            response=item.response,
        )
    return FAILED_ON_FLAG if fails_on(args, verdict.flags) else 0


def _check_ranking(args: argparse.Namespace, config: Any) -> int:
    from prin_guard._output._terminal import ranking_lines
    from prin_guard.models import RankingItem

    for flag, value in (("--response", args.response), ("--kind", args.kind)):
        if value is not None:
            raise UsageError(f"{flag}: a ranking ranks its --candidate responses")
    given = {
        "task": "ranking",
        "question": args.question,
        "candidates": args.candidate,
        "context": args.context,
        "id": args.id,
    }
    raw = {name: value for name, value in given.items() if value is not None}
    item = RankingItem.coerce(raw, max_chars=config.options.max_chars)  # before a model loads
    verdict = build_guard(config).check(item)
    failed = FAILED_ON_FLAG if fails_on(args, verdict.flags) else 0
    if args.json:
        emit(verdict.model_dump_json(indent=2))
        return failed
    for line in ranking_lines(verdict, [c.text for c in item.candidates]):
        emit(line)
    return failed


def _check_rating(args: argparse.Namespace, config: Any) -> int:
    from prin_guard._output._terminal import rating_lines
    from prin_guard._prompting._rating import RatingItem

    if args.candidate:
        raise UsageError("--candidate: a rating has no candidates; give --response")
    low, _, high = (args.scale or "1-10").partition("-")
    try:
        scale = {"min": int(low), "max": int(high)}
    except ValueError:
        raise UsageError(f"--scale: expected MIN-MAX such as 1-10, got {args.scale!r}") from None
    given = {
        "task": "rating",
        "question": args.question,
        "response": args.response,
        "reference": args.reference,
        "context": args.context,
        "id": args.id,
        "scale": scale,
    }
    raw = {name: value for name, value in given.items() if value is not None}
    RatingItem.coerce(raw)  # a bad item fails before a model loads
    verdict = build_guard(config).check(raw)
    failed = FAILED_ON_FLAG if fails_on(args, verdict.flags) else 0
    if args.json:
        emit(verdict.model_dump_json(indent=2))
        return failed
    for line in rating_lines(
        verdict, scale["min"], scale["max"], expected_asked=config.top_logprobs is not None
    ):
        emit(line)
    return failed


def _cmd_demo(args: argparse.Namespace) -> int:
    import itertools

    from prin_guard._output._terminal import print_verdict
    from prin_guard.datasets import load_mathqa, sample_path

    config = config_from_args(args)
    records = list(itertools.islice(load_mathqa(sample_path("mathqa")), args.limit))
    guard = build_guard(config)
    judges = " + ".join(",".join(level) for level in config.levels())
    # the template the items are asked in (the options name none: the task's default)
    template = guard.template_for(records[0].item).id if records else config.options.template
    emit(
        f"prin-guard demo: {len(records)} MathQA items, judge {judges}, "
        f"template {template}. The bundled model is tiny and often wrong: "
        "it shows the mechanics, not judging quality.\n"
    )
    flagged = 0
    for record in records:
        verdict = guard.check(record.item)
        flagged += bool(verdict.flags)
        texts = [c.text for c in record.item.candidates]
        print_verdict(verdict, record.item.question or "", texts, stdout())
        emit(f"Gold answer: {', '.join(record.gold)}\n" + "-" * 72)
    emit(f"{flagged} of {len(records)} verdicts flagged.")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from prin_guard import eval as evaluation
    from prin_guard._output._terminal import print_eval_summary

    if args.dataset == "summeval":
        return _eval_ratings(args)
    from prin_guard.eval._rankings import RANKING_DATASETS

    if args.dataset in RANKING_DATASETS:
        return _eval_rankings(args)
    if args.dataset == "iclr2017":
        return _eval_reviews(args)
    given = args.mitigations or []
    mitigations = [] if given == ["none"] else (given or ["cot", "neg_exp"])
    # The mitigations are what the runs compare, not one guard's option.
    config = config_from_args(args, mitigations=())
    options = config.options
    (level,) = config.build_judges()
    judge = level[0] if len(level) == 1 else level
    generator = None if args.generator is None else config.build_judge(args.generator)
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
        rate_limit=rate_limit_from_args(args, args.cache, config.judge),
    )
    print_eval_summary(result.summary.model_dump(mode="json"), stdout())
    emit(f"\nreport: {result.report}")
    return 130 if result.interrupted else 0


def _eval_ratings(args: argparse.Namespace) -> int:
    import math
    import time

    from prin_guard.eval._ratings import ASPECTS, report_text, run_ratings

    if args.path is None:
        raise UsageError(
            "--path: SummEval's articles are CNN/Daily Mail text, which prin-guard does not "
            "ship; give the full file (../shared/data/ratings/summeval.jsonl in this project)"
        )
    aspects = [a.strip() for a in (args.aspects or ",".join(ASPECTS)).split(",") if a.strip()]
    for aspect in aspects:
        if aspect not in ASPECTS:
            raise UsageError(f"--aspects: unknown aspect {aspect!r}; known: {', '.join(ASPECTS)}")
    config = config_from_args(args, mitigations=())
    guard = config.build()
    # per-article correlation needs each article's 16 summaries: --limit rounds up to them
    articles = None if args.limit is None else max(1, math.ceil(args.limit / 16))
    out = args.out or f"runs/summeval-{time.strftime('%Y%m%d-%H%M%S')}"
    summary = run_ratings(guard, args.path, aspects=aspects, articles=articles, out=out)
    emit(report_text(summary))
    emit(f"report: {out}/report.md")
    return 0


def _eval_rankings(args: argparse.Namespace) -> int:
    import sys
    import time

    from prin_guard._output._runs import open_run_cache
    from prin_guard.eval._rankings import load_ranked, ranking_report_text, run_ranking_modes

    aspects = [a.strip() for a in (args.aspects or "coherence").split(",") if a.strip()]
    if len(aspects) != 1:
        raise UsageError("--aspects: a ranking run ranks by one aspect; run once per aspect")
    modes = [m.strip() for m in args.ranking_modes.split(",") if m.strip()]
    items = load_ranked(
        args.dataset,
        args.path,
        aspect=aspects[0],
        summaries=args.summaries,
        seed=args.seed,
        limit=args.limit,
    )
    config = config_from_args(args, mitigations=())
    (level,) = config.build_judges()
    if len(level) != 1:
        raise UsageError("--judge: a ranking is judged by one judge, not by a panel")
    out = args.out or f"runs/{args.dataset}-{time.strftime('%Y%m%d-%H%M%S')}"
    summary = run_ranking_modes(
        level[0],
        args.dataset,
        items,
        options=config.options,
        modes=modes,
        cache=open_run_cache(args.cache),
        out=out,
        progress=lambda line: print(f"prin-guard: {line}", file=sys.stderr, flush=True),
    )
    emit(ranking_report_text(summary))
    emit(f"report: {out}/report.md")
    return 0


def _eval_reviews(args: argparse.Namespace) -> int:
    import functools
    import time

    from prin_guard._output._runs import open_run_cache
    from prin_guard._review import review_form
    from prin_guard.calibrate import decision_acceptance
    from prin_guard.eval._reviews import REBUTTALS, report_text, run_reviews

    if args.path is None:
        raise UsageError(
            "--path: the ICLR 2017 reviews are not shipped; give their papers.jsonl "
            "(../shared/data/reviews/papers.jsonl in this project)"
        )
    form = args.form or "iclr"
    review_form(form)  # an unknown form fails before a model loads
    given = args.rebuttals if args.rebuttals is not None else ",".join(REBUTTALS)
    rebuttals = [] if given == "none" else [r.strip() for r in given.split(",") if r.strip()]
    for name in rebuttals:
        if name not in REBUTTALS:
            raise UsageError(
                f"--rebuttals: unknown rebuttal {name!r}; known: {', '.join(REBUTTALS)}, or none"
            )
    for name in ("alpha", "delta"):  # a bad level fails before a model loads
        if not 0 < getattr(args, name) < 1:
            raise UsageError(f"--{name}: must be between 0 and 1, got {getattr(args, name)}")
    acceptance = functools.partial(
        decision_acceptance, alpha=args.alpha, delta=args.delta, seed=args.seed
    )
    config = config_from_args(args, mitigations=())
    guard = build_guard(config, cache=open_run_cache(args.cache), concurrency=args.concurrency)
    out = args.out or f"runs/iclr2017-{time.strftime('%Y%m%d-%H%M%S')}"
    summary = run_reviews(
        guard,
        args.path,
        out=out,
        limit=args.limit,
        seed=args.seed,
        form=form,
        rebuttals=rebuttals,
        acceptance=acceptance,
        chunk=max(1, args.concurrency),
    )
    emit(report_text(summary))
    emit(f"report: {out}/report.md")
    return 130 if summary["interrupted"] else 0


def _cmd_probe(args: argparse.Namespace) -> int:
    from prin_guard import probe as probing
    from prin_guard._output._terminal import print_probe_table

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
    config = config_from_args(args)
    result = probing.run_probe(
        config.build_judge(config.judge),
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
    check = commands.add_parser(
        "check",
        help="judge one item: answer options, two responses, or a checklist",
        description="Ask the judge both questions about one item and print the verdict. "
        "--task choice (the default): a question and its answer options; pairwise: an "
        "instruction (--question) and exactly two responses (--candidate twice); "
        "checklist: a --response and the criteria (or claims, with --kind claims and "
        "the sources as --context) it is checked against; rating: a --response (to "
        "--question) rated on --scale, and on the mirrored scale; ranking: three to twenty "
        "responses (--candidate, repeated) to a --question ranked from the best to the "
        "worst, and from the worst to the best.",
    )
    check.add_argument(
        "--task",
        choices=[*TASKS, "rating", "ranking"],
        default="choice",
        help="choice (default), pairwise, checklist, rating (a --response on a --scale) or "
        "ranking (3 to 20 --candidate responses)",
    )
    check.add_argument("--question", help="the question, or the instruction (pairwise)")
    check.add_argument(
        "--candidate",
        action="append",
        help="an answer option, a response or a criterion (repeat; not for rating)",
    )
    check.add_argument("--scale", help="rating: the scale's integer bounds, MIN-MAX (default 1-10)")
    check.add_argument("--reference", help="rating: a reference answer to compare with")
    check.add_argument("--response", help="checklist: the response under evaluation")
    check.add_argument(
        "--kind",
        choices=list(CHECKLIST_KINDS),
        help="checklist: the candidates are criteria (default) or claims (checked against "
        "the sources in --context)",
    )
    check.add_argument(
        "--context", help="material the judge needs (a passage, a rubric, the sources)"
    )
    check.add_argument("--id", help="an id for the item, shown in the verdict and the logs")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    add_fail_on_flag(check, "the verdict")
    add_arguments(check)
    check.set_defaults(run=_cmd_check)

    demo = commands.add_parser("demo", help="verdicts for a few real MathQA items")
    demo.add_argument("--limit", type=int, default=5, help="how many items (default 5)")
    add_arguments(demo)
    demo.set_defaults(run=_cmd_demo)


def add_eval(commands: Any) -> None:
    ev = commands.add_parser(
        "eval",
        help="measure a judge's PRIN, accuracy and flag quality on a benchmark",
        description="Run the PRIN paper's methods on a dataset and write items.jsonl, "
        "summary.json, report.md and report.html. DATASET is a name (multiple choice: "
        "mathqa, aqua-rat, commonsenseqa, mmlu, strategyqa, coinflip, gsm8k-solutions; "
        "pairwise: llmbar, mt-bench-human; checklist: expertqa-claims; the shipped sample, "
        "or --path for the full original file; ratings: summeval, with --path only; "
        "rankings: oasst-rankings and summeval-rankings with --path, mt-bench-rankings; "
        "reviews: iclr2017, with --path only) or a "
        "generic .jsonl file of one task. On "
        "pairwise and checklist items, self-consistency and the paraphrase and options "
        "analyses (multiple choice only) are skipped with a note.",
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
    ev.add_argument(
        "--aspects",
        help="summeval: comma-separated aspects to rate (default all four: coherence, "
        "consistency, fluency, relevance)",
    )
    ev.add_argument(
        "--ranking-modes",
        default="one-pass,direct+reverse,permutations,adaptive",
        help="rankings (oasst-rankings, summeval-rankings, mt-bench-rankings): comma-"
        "separated modes to compare: one-pass, direct+reverse, permutations, adaptive, "
        "best-of-n, tournament (every pair in both orders through the pairwise task); "
        "permutations and adaptive use --ranking-orders orders (default 4)",
    )
    ev.add_argument(
        "--summaries",
        type=int,
        default=4,
        help="summeval-rankings: how many of an article's summaries to rank (default 4)",
    )
    ev.add_argument(
        "--form",
        help="iclr2017: the review form the papers are reviewed in (iclr, the default, or "
        "ai-scientist)",
    )
    ev.add_argument(
        "--rebuttals",
        help="iclr2017: comma-separated rebuttals to probe each review with (default "
        "no-evidence,hostile; one more call each), or none",
    )
    ev.add_argument(
        "--alpha",
        type=float,
        default=0.1,
        help="iclr2017: the error rate the calibrated acceptance of decisions guarantees "
        "(default 0.1)",
    )
    ev.add_argument(
        "--delta",
        type=float,
        default=0.1,
        help="iclr2017: the probability that guarantee may fail (default 0.1)",
    )
    ev.add_argument("--name", help="the run's name in reports")
    add_rate_limit_options(ev)
    # every setting but escalation and probing (eval measures one judge, or a panel)
    add_arguments(
        ev,
        [n for n in SETTINGS if n not in ("tiers", "acceptance", "probe")],
        help={
            "mitigations": "mitigations to compare: every combination of those given is run "
            "(default: cot and neg-exp, so none, cot, neg_exp, cot+neg_exp); 'none' for "
            "the bare prompts only"
        },
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
    add_arguments(pr, JUDGE_SETTINGS)
    pr.set_defaults(run=_cmd_probe)


def _cmd_prompts(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from prin_guard import Guard
    from prin_guard.errors import UsageError

    config = config_from_args(args)
    try:
        data = json.loads(Path(args.item).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"item: cannot read {args.item}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(f"item: {args.item} is not JSON: {exc}") from None

    def no_judge(prompt: str) -> str:
        raise UsageError("prompts: calls no judge")

    # the guard's own legs (a label item's or a rating's), with no judge to ask
    legs = Guard(no_judge, options=config.options, cache=None).prompts(data)
    if args.json:
        emit(json.dumps([
            {"leg": leg.name, "messages": leg.messages, "reads": leg.reads,
             "order": list(leg.order) if leg.order else None}
            for leg in legs
        ], indent=2, ensure_ascii=False))  # fmt: skip
        return 0
    rule = "=" * 72
    for leg in legs:
        shown = f" (candidates shown as {', '.join(leg.order)})" if leg.order else ""
        emit(f"{rule}\n{leg.name} leg{shown}\n{rule}")
        for message in leg.messages:
            emit(f"--- {message['role']} ---\n{message['content']}")
        emit(f"--- the reader looks for ---\n{leg.reads}\n")
    return 0


def add_prompts(commands: Any) -> None:
    pr = commands.add_parser(
        "prompts",
        help="print every leg's messages for one item, before a run spends money",
        description="Print the messages of every leg the guard would ask of one item: the "
        "direct and the reverse leg (derived from your template by its word flips, or "
        "given), with the mitigations, and with --checks reverse,order the two legs with "
        "the candidates in the second order; a rating's direct and mirrored leg (under "
        "prin-guard's wording or a rating prompt given as --template), with --checks "
        "reverse,order and a rubric the direct leg with the rubric reversed, and each "
        "aspect's legs; and what the reader looks for in each reply. Calls no judge.",
    )
    pr.add_argument("--item", required=True, help="a JSON file holding one item")
    pr.add_argument("--json", action="store_true", help="print the legs as JSON")
    add_arguments(pr, ["template", "mitigations", "checks", "rating_aspects"])
    pr.set_defaults(run=_cmd_prompts)
