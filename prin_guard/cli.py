"""The ``prin-guard`` command line.

This is the only place that configures logging: warnings and errors go to
stderr, ``-v`` adds info events, ``-vv`` debug events (prompts and replies).
Heavy modules are imported inside the commands so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from prin_guard import Guard, Judge, Verdict

__all__ = ["main"]

# What the user asked for goes to the real stdout; anything a dependency prints
# while a command runs (litellm's help banner, for one) goes to stderr, so that
# `--json` output stays parseable.
_stdout: TextIO = sys.stdout


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


def build_judge(
    spec: str,
    *,
    api_base: str | None = None,
    structured: str | None = None,
    max_tokens: int | None = None,
) -> Judge:
    """A judge from its command-line spelling.

    ``local`` (the bundled model), ``local:<model id or path>``, or any litellm
    model string (``openai/gpt-4o-mini``, ``ollama/llama3``, ``openai/<name>`` with
    ``--api-base`` for an OpenAI-compatible server). API keys come from the
    provider's usual environment variables (``OPENAI_API_KEY``, ...), read by litellm.
    """
    from prin_guard._exceptions import UsageError
    from prin_guard.judges import LiteLLMJudge, LocalJudge

    judge: Judge
    if spec == "local" or spec.startswith("local:"):
        if api_base is not None or structured is not None or max_tokens is not None:
            raise UsageError(
                "--api-base, --structured and --max-tokens apply to litellm judges only"
            )
        judge = LocalJudge(spec.removeprefix("local").removeprefix(":") or None)
        return judge
    if "/" not in spec:
        raise UsageError(
            f"--judge: unknown judge {spec!r}; use 'local', 'local:<model id or path>' or a "
            "litellm model string such as 'openai/gpt-4o-mini'"
        )
    mode: Any = {
        "none": False,
        None: False,
        "auto": "auto",
        "json-schema": "json_schema",
        "json-object": "json_object",
    }[structured]
    from prin_guard._settings import env_is_set

    api_key = None
    if api_base is not None and spec.startswith("openai/") and not env_is_set("OPENAI_API_KEY"):
        # A local OpenAI-compatible server (llama.cpp, vLLM) needs no key, but the
        # OpenAI client refuses to send a request without one.
        api_key = "no-key"
    judge = LiteLLMJudge(
        spec, api_base=api_base, api_key=api_key, structured=mode, max_tokens=max_tokens
    )
    return judge


def _add_guard_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--judge",
        default="local",
        help="'local' (bundled SmolLM2-135M-Instruct), 'local:<HF model id or path>', or a "
        "litellm model string such as 'openai/gpt-4o-mini' (keys from the provider's usual "
        "environment variables)",
    )
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
    parser.add_argument(
        "--template",
        default="v0",
        choices=["v0", "v1", "v2", "v3", "v4"],
        help="prompt wording: v0 the paper's (correct/incorrect), v1 right/wrong, "
        "v2 appropriate/inappropriate (the paper's paraphrases); v3, v4 our own",
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
        build_judge(
            args.judge,
            api_base=args.api_base,
            structured=args.structured,
            max_tokens=args.max_tokens,
        ),
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
        emit(verdict.model_dump_json(indent=2))
    else:
        emit(render_verdict(verdict, item.question, [c.text for c in item.candidates]))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    import itertools

    from prin_guard.eval import load_mathqa, sample_path

    records = list(itertools.islice(load_mathqa(sample_path("mathqa")), args.limit))
    guard = _guard_from(args)
    emit(
        f"prin-guard demo: {len(records)} MathQA items, judge {args.judge}, "
        f"template {args.template}. The bundled model is tiny and often wrong: "
        "it shows the mechanics, not judging quality.\n"
    )
    flagged = 0
    for record in records:
        verdict = guard.check(record.item)
        flagged += bool(verdict.flags)
        emit(
            render_verdict(verdict, record.item.question, [c.text for c in record.item.candidates])
        )
        emit(f"Gold answer: {', '.join(record.gold)}\n" + "-" * 72)
    emit(f"{flagged} of {len(records)} verdicts flagged.")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    import asyncio
    import json
    import time
    from datetime import datetime
    from pathlib import Path

    from prin_guard.eval._report import Run, write_report
    from prin_guard.eval._runner import EvalConfig, Progress, run_eval
    from prin_guard.eval._summary import summarize

    skipped: list[tuple[int, str]] = []

    def on_skip(line: int, reason: str) -> None:
        skipped.append((line, reason))
        print(f"prin-guard: skipped row at line {line}: {reason}", file=sys.stderr)

    mitigations = [] if args.mitigation == ["none"] else (args.mitigation or ["cot", "neg_exp"])
    methods = [m.replace("-", "_") for m in args.methods.split(",") if m]
    analyses = [] if args.analyses == "none" else [a for a in args.analyses.split(",") if a]
    judge = build_judge(
        args.judge,
        api_base=args.api_base,
        structured=args.structured,
        max_tokens=args.max_tokens,
    )
    cache = _eval_cache(args.cache)
    records = _eval_records(args, judge, cache, on_skip)
    config = EvalConfig(
        dataset=args.dataset,
        mitigations=tuple(m.replace("-", "_") for m in mitigations),
        template=args.template,
        methods=tuple(methods),
        analyses=tuple(analyses),
        repeats=args.repeats,
        sc_samples=args.samples,
        temperature=args.temperature,
        seed=args.seed,
        concurrency=args.concurrency,
        limit=args.limit,
        judge=dict(judge.identity()),
    )
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    judge_name = str(config.judge.get("model") or config.judge.get("name") or "judge")
    judge_name = judge_name.replace("/", "_").replace(":", "_")[:40]
    out = Path(args.out or Path("runs") / f"{args.dataset.replace('/', '_')}-{judge_name}-{stamp}")
    out.mkdir(parents=True, exist_ok=True)
    name = args.name or out.name
    print(
        f"prin-guard eval: {len(records)} items of {args.dataset}, judge {args.judge}, "
        f"writing {out}",
        file=sys.stderr,
    )
    started = time.monotonic()
    progress = Progress(len(records))
    interrupted = False
    stats: dict[str, Any] = {}
    try:
        stats = asyncio.run(
            run_eval(
                judge,
                records,
                config,
                items_path=out / "items.jsonl",
                cache=cache,
                progress=progress,
            )
        )
    except KeyboardInterrupt:
        interrupted = True
        print("\nprin-guard: interrupted; writing the partial results", file=sys.stderr)
    from dataclasses import asdict

    run_info = {
        "name": name,
        "config": asdict(config),
        "wall_seconds": stats.get("wall_seconds", time.monotonic() - started),
        "partial": interrupted,
        "skipped_rows": [{"line": line, "reason": reason} for line, reason in skipped],
        "finished": datetime.now().isoformat(timespec="seconds"),
    }
    lines = (out / "items.jsonl").read_text(encoding="utf-8").splitlines()
    summary = summarize([json.loads(line) for line in lines if line], run=run_info)
    (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    report = write_report([Run(name=name, path=out, summary=summary)], out)
    emit(_summary_text(summary))
    emit(f"\nreport: {report}")
    return 130 if interrupted else 0


def _eval_records(args: argparse.Namespace, judge: Judge, cache: Any, on_skip: Any) -> list[Any]:
    """The items to evaluate: a candidate dataset, or a problem dataset given candidates
    the paper's way (distinct answers sampled from a generator)."""
    import asyncio

    from prin_guard._exceptions import UsageError
    from prin_guard.eval import load_dataset
    from prin_guard.eval._pool import PROBLEM_DATASETS, build_pool, load_problems

    name = args.dataset.strip().lower().replace("_", "-")
    if name not in PROBLEM_DATASETS:
        if args.generate_pool:
            raise UsageError(f"--generate-pool: {args.dataset!r} already has candidates")
        return list(load_dataset(args.dataset, path=args.path, limit=args.limit, on_skip=on_skip))
    if not args.path:
        raise UsageError(
            f"--path: {args.dataset!r} ships no sample; give the original file "
            f"(problem datasets: {', '.join(PROBLEM_DATASETS)})"
        )
    problems = load_problems(name, args.path, limit=args.limit, on_skip=on_skip)
    generator = (
        judge
        if args.generator is None
        else build_judge(args.generator, api_base=args.api_base, max_tokens=args.max_tokens)
    )
    n = args.generate_pool or 5
    print(f"prin-guard eval: building candidate pools ({n} samples per problem)", file=sys.stderr)
    return asyncio.run(
        build_pool(
            generator,
            problems,
            n=n,
            temperature=args.temperature,
            seed=args.seed,
            cache=cache,
            concurrency=args.concurrency,
            on_skip=on_skip,
        )
    )


def _summary_text(summary: dict[str, Any]) -> str:
    def pct(value: Any) -> str:
        return "-" if value is None else f"{100 * value:.1f}%"

    lines = [
        f"items judged: {summary.get('items_judged', 0)} of {summary.get('items', 0)}"
        + (" (partial run)" if summary.get("run", {}).get("partial") else "")
    ]
    for key, block in (summary.get("configs") or {}).items():
        methods = block["methods"]
        lines.append(
            f"  {key:<13} PRIN {pct(block['prin']):>6}   accuracy: direct "
            f"{pct(methods['direct']['accuracy'])}, reverse {pct(methods['reverse']['accuracy'])}"
            f", synergy {pct(methods['synergy']['accuracy'])}"
        )
    sc = summary.get("self_consistency")
    if sc:
        lines.append(f"  self-consistency (k={sc['samples']}) accuracy {pct(sc['accuracy'])}")
    quality = (summary.get("flag_quality") or {}).get("inconsistent_flag")
    if quality:
        lines.append(
            f"  error rate: flagged inconsistent {pct(quality['error_rate_flagged'])}, "
            f"not flagged {pct(quality['error_rate_unflagged'])}"
        )
    return "\n".join(lines)


def _cmd_probe(args: argparse.Namespace) -> int:
    import asyncio
    import json
    import time
    from datetime import datetime
    from pathlib import Path

    from prin_guard.eval import load_dataset
    from prin_guard.eval._runner import Progress
    from prin_guard.probe import Probe
    from prin_guard.probe._prompts import FollowUpForm, FollowUpType
    from prin_guard.probe._run import probe_summary, run_probe, write_probe_report

    def on_skip(line: int, reason: str) -> None:
        print(f"prin-guard: skipped row at line {line}: {reason}", file=sys.stderr)

    records = list(load_dataset(args.dataset, path=args.path, limit=args.limit, on_skip=on_skip))
    form = FollowUpForm(args.form)
    types = list(FollowUpType) if args.type == "all" else [FollowUpType(args.type)]
    probe = Probe(
        form=form,
        followup_type=None if form is FollowUpForm.PROGRESSIVE else types[0],
        prompt_set=args.prompt_set,
        mitigations=tuple(args.mitigation),
        position=args.position.replace("-", "_"),
        seed=args.seed,
    )
    judge = build_judge(
        args.judge,
        api_base=args.api_base,
        structured=args.structured,
        max_tokens=args.max_tokens,
    )
    cache = _eval_cache(args.cache)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"probe-{args.dataset.replace('/', '_')}-{stamp}")
    print(
        f"prin-guard probe: {len(records)} items of {args.dataset}, {form.value} form, "
        f"writing {out}",
        file=sys.stderr,
    )
    started = time.monotonic()
    interrupted = False
    try:
        asyncio.run(
            run_probe(
                judge,
                records,
                probe,
                types=types,
                items_path=out / "items.jsonl",
                cache=cache,
                concurrency=args.concurrency,
                progress=Progress(len(records), show_prin=False),
            )
        )
    except KeyboardInterrupt:
        interrupted = True
        print("\nprin-guard: interrupted; writing the partial results", file=sys.stderr)
    identity = dict(judge.identity())
    run_info = {
        "dataset": args.dataset,
        "judge": identity,
        "judge_name": f"{identity.get('kind')}: {identity.get('model') or identity.get('name')}",
        "form": form.value,
        "types": [t.value for t in types],
        "prompt_set": args.prompt_set,
        "mitigations": list(args.mitigation),
        "position": args.position,
        "seed": args.seed,
        "partial": interrupted,
        "wall_seconds": round(time.monotonic() - started, 2),
    }
    lines = (out / "items.jsonl").read_text(encoding="utf-8").splitlines()
    summary = probe_summary([json.loads(line) for line in lines if line], run=run_info)
    (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    report = write_probe_report(summary, out, title=f"prin-guard probe: {args.dataset}")
    emit(_probe_table(summary))
    emit(f"\nreport: {report}")
    return 130 if interrupted else 0


def _probe_table(summary: dict[str, Any]) -> str:
    def pct(value: Any) -> str:
        return "-" if value is None else f"{100 * value:.2f}"

    rows = summary["by_type"] or summary["by_round"]
    lines = [
        f"items judged: {summary['items_judged']} of {summary['items']}",
        f"{'follow-up':<10} {'Before':>7} {'M.':>7} {'M. Rate':>8} {'E->R':>7}",
    ]
    for name, block in rows.items():
        lines.append(
            f"{name:<10} {pct(block['accuracy_before']):>7} {pct(block['modification']):>7} "
            f"{pct(block['modification_rate']):>8} {pct(block['e_to_r_rate']):>7}"
        )
    return "\n".join(lines)


def _eval_cache(spec: str) -> Any:
    from pathlib import Path

    from prin_guard._settings import home_dir
    from prin_guard.cache import MemoryCache, SQLiteCache

    if spec == "none":
        return None
    if spec == "memory":
        return MemoryCache()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from prin_guard.cache import RedisCache

        return RedisCache.from_url(spec, namespace="eval")
    return SQLiteCache(Path(spec) if spec != "sqlite" else home_dir() / "eval-cache.sqlite3")


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
    _add_guard_options(ev)
    ev.set_defaults(run=_cmd_eval)
    for action in ev._actions:
        if action.dest == "mitigation":
            action.choices = ["cot", "neg-exp", "neg_exp", "none"]
            action.help = (
                "mitigations to compare: every combination of those given is run "
                "(default: cot and neg-exp, so none, cot, neg_exp, cot+neg_exp); 'none' "
                "for the bare prompts only"
            )

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
    pr.add_argument("--judge", default="local", help="as for check")
    pr.add_argument("--api-base")
    pr.add_argument("--structured", choices=["none", "auto", "json-schema", "json-object"])
    pr.add_argument("--max-tokens", type=int)
    pr.set_defaults(run=_cmd_probe)

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
