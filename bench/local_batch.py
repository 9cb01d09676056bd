"""5b. Local judge batching: LocalJudge's batched generation against its unbatched path.

Every measurement runs in a fresh child process (``python -m bench._local_batch_child``),
the configurations of a round back to back in alternating order, so that all of them pay
the same load on this shared 2-core machine:

- verdict / one leg on 10 MathQA items (target ≤ 1.30×), for the batched LocalJudge
  (defaults), the unbatched path (``LocalJudge(batch_size=1)``) and the code before
  batching (``--before``, a commit: its ``prin_guard/judges/_local*.py`` over a copy of
  the current tree);
- verdicts per minute on 20 MathQA items, ``Guard(concurrency=8, cache=None)``: batched
  vs unbatched (target ≥ 2×), vs the code before batching, and vs the same GGUF served by
  llama.cpp's server through ``LiteLLMJudge`` (started as tests/conftest.py starts it);
- one forward pass (a decoding step of 1 to 12 rows, a 170-token prompt) with each
  linear product of ``_local_kernels`` (oneDNN's packed one, the few-row BLAS one) against
  torch's own, on the torch thread;
- time to first verdict in a fresh process (``LocalJudge()`` + one verdict), and
  ``make demo``'s command (``prin-guard demo --limit 5``) from a warm venv, before and
  after.

    .venv/bin/python -m bench.local_batch [--smoke] [--rounds N] [--before REV]
        [--out FILE.md] [--json FILE.json]

``--smoke`` runs the same code at the fewest sizes: one item, one round, no demo, replies
of 4 new tokens on one torch thread, and the children of a tree (the current one, the
one before batching) as one child each (``_children``), the kernel table's apart.

``run(ctx)`` makes it a section of ``bench/run.py`` too.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._common import (  # noqa: E402 - the repository root must be on sys.path first
    PYTHON,
    Context,
    Figure,
    Section,
    load_average,
    md_table,
    median,
    paired,
    quiet_logging,
    ratios,
    run_child,
    spread,
    wall,
)
from bench._moved import moved_imports  # noqa: E402

NAME = "local_batch"
TITLE = "5b. Local judge batching (bundled model)"
TARGET = (
    "verdict ≤ 1.30× one leg; verdicts per minute on 20 MathQA items (concurrency 8, cache "
    "off) ≥ 2× the unbatched LocalJudge; llama.cpp, time to first verdict and `make demo` "
    "reported"
)
VERDICT_LIMIT = 1.30
THROUGHPUT_GOAL = 2.0
BEFORE = "a42a8a9"
"""The last commit before batching: LocalJudge generating one call at a time under a lock."""

_BEFORE_FILES = ("_local.py", "_local_model.py", "_local_runtime.py")


# -- the code before batching -----------------------------------------------------------------


@contextlib.contextmanager
def _before_tree(revision: str) -> Iterator[Path]:
    """A copy of the current ``prin_guard`` with LocalJudge's modules as of ``revision``."""
    with tempfile.TemporaryDirectory(prefix="bench-before-") as tmp:
        tree = Path(tmp) / "prin_guard"
        shutil.copytree(ROOT / "prin_guard", tree, ignore=shutil.ignore_patterns("__pycache__"))
        judges = tree / "judges"
        for name in _BEFORE_FILES:  # the modules added since are left, unused
            source = subprocess.run(
                ["git", "show", f"{revision}:prin_guard/judges/{name}"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            (judges / name).write_text(moved_imports(source), encoding="utf-8")
        yield Path(tmp)


def _child_run(args: list[str], *, before: Path | None = None) -> dict[str, Any]:
    """``python -m bench._local_batch_child ARGS`` in a fresh process; its JSON line.

    For ``before``, the child starts in the copied tree, whose ``prin_guard`` then comes
    first on ``sys.path`` (``-m`` puts the working directory there, ahead of PYTHONPATH).
    """
    result = run_child(
        ["-m", "bench._local_batch_child", *args],
        timeout=3600,
        cwd=before,
        env=None if before is None else {"PYTHONPATH": str(ROOT)},
    )
    if before is not None and not Path(result["local_judge_module"]).is_relative_to(before):
        raise RuntimeError(f"the 'before' child imported {result['local_judge_module']}")
    return result


def _children(plan: list[tuple[list[str], Path | None]], *, smoke: bool) -> list[dict[str, Any]]:
    """The results of ``plan``'s commands (each with its tree: ``None`` or the code before
    batching), in order, each from a fresh child process; with ``smoke``, all of a tree's
    commands in one child, back to back (the same code, one load of torch and the model),
    at the child's smoke size."""
    if not smoke:
        return [_child_run(args, before=tree) for args, tree in plan]
    results: list[dict[str, Any]] = [{} for _ in plan]
    for tree in dict.fromkeys(tree for _, tree in plan):
        indices = [index for index, (_, of) in enumerate(plan) if of == tree]
        joined = [arg for index in indices for arg in ("+", *plan[index][0])]
        got = _child_run(["--smoke", *joined[1:]], before=tree)
        for index, run in zip(indices, got["runs"] if len(indices) > 1 else [got], strict=True):
            results[index] = run
    return results


# -- the benchmark --------------------------------------------------------------------------------


def run(ctx: Context, *, before_revision: str = BEFORE, rounds: int | None = None) -> Section:
    from bench.local import llama_server

    section = Section(NAME, TITLE, TARGET)
    load = load_average()
    rounds = rounds or ctx.pick(3, 1)
    items = ctx.pick(20, 1)
    server = llama_server(ctx.pick(180, 60), threads=ctx.pick(2, 1))  # as benchmark 5's
    with _before_tree(before_revision) as before, server as base:
        step_rounds = ctx.pick(8, 1)
        smoke = ["--smoke"] if ctx.smoke else []
        _kernel_table(
            section,
            run_child(
                ["-m", "bench._local_batch_child", *smoke, "steps", str(step_rounds)],
                timeout=1800,
                env={"PRIN_GUARD_LOCAL_KERNEL": "torch"},
            ),
            step_rounds,
        )
        kinds = ["batched", "unbatched", "before", "llama"]
        plan: list[tuple[list[str], Path | None]] = [
            (["drift", str(items)], None),
            (["legs", "batched,unbatched", str(ctx.pick(10, 1))], None),
            (["legs", "batched", str(ctx.pick(10, 1))], before),
        ]
        for index in range(rounds):
            for kind in kinds if index % 2 == 0 else kinds[::-1]:
                args = ["throughput", kind, str(items), "8", base if kind == "llama" else ""]
                plan.append((args, before if kind == "before" else None))
        drift, legs_after, legs_before, *throughput = _children(plan, smoke=ctx.smoke)
        _drift_figures(section, drift)
        _verdict_figures(section, legs_after["rows"], legs_before["rows"])
        got: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
        for (args, _), result in zip(plan[3:], throughput, strict=True):
            got[args[1]].append(result)
        _throughput_figures(section, got, items)

        demo = [str(Path(PYTHON).with_name("prin-guard")), "demo", "--limit", "5"]
        walls: dict[str, list[float]] = {"after": [], "before": []}
        for index in range(ctx.pick(rounds, 0)):
            order = ["after", "before"] if index % 2 == 0 else ["before", "after"]
            for which in order:
                env = {"PYTHONPATH": str(before)} if which == "before" else None
                walls[which].append(wall(demo, env=env, timeout=1800))
        if walls["after"]:
            section.add(
                paired(
                    "`make demo` (`prin-guard demo --limit 5`, warm venv), after",
                    walls["after"],
                    "the same command, before batching",
                    walls["before"],
                    unit="s",
                    note=f"{len(walls['after'])} runs each, alternating",
                )
            )
    section.notes.append(
        f"Before = {before_revision} (LocalJudge generating one call at a time under a "
        "process-wide lock): its `prin_guard/judges/_local*.py` over a copy of the current "
        "tree, imported through PYTHONPATH. Unbatched = `LocalJudge(batch_size=1)`: the same "
        "code with batching off (each call generated alone, one after the other). The "
        "llama.cpp server is started as tests/conftest.py starts it (`--n_ctx 4096 "
        "--n_threads 2`, one request at a time); `max_tokens=48`, and unlike LocalJudge it "
        "does not stop after the `Answer:` line. Every figure comes from fresh child "
        f"processes; throughput: {rounds} rounds, the four configurations of a round back "
        "to back, order alternating. Load average (1/5/15 min): "
        f"{load} at the start, {load_average()} at the end: the machine is shared, and "
        "torch's two threads per process slow down several times over when other "
        "processes want the same two cores, batched or not."
    )
    return section


def _kernel_table(section: Section, steps: dict[str, Any], rounds: int) -> None:
    kernels = [k for k in ("torch", "few-row", "onednn") if f"1-{k}" in steps]
    keys = sorted(
        {key.split("-")[0] for key in steps if key.endswith("-torch")},
        key=lambda k: (k == "prompt", k.zfill(4)),
    )

    def cell(key: str, kernel: str) -> str:
        value, torch_value = steps[f"{key}-{kernel}"], steps[f"{key}-torch"]
        ratio = "" if kernel == "torch" else f" ({value / torch_value:.2f}×)"
        return f"{value * 1000:.1f} ms{ratio}"

    section.tables.append(
        (
            "One forward pass of the bundled model on the torch thread (median of "
            f"{rounds} rounds, one child process): a decoding step for several rows, and a "
            "170-token prompt, with each product of `_local_kernels` against torch's own "
            "`nn.Linear` kernel",
            md_table(
                ["rows", *kernels],
                [
                    [
                        "170-token prompt" if key == "prompt" else key,
                        *(cell(key, kernel) for kernel in kernels),
                    ]
                    for key in keys
                ],
            ),
        )
    )


def _drift_figures(section: Section, drift: dict[str, Any]) -> None:
    from prin_guard.judges._local_decode import TIE_MARGIN

    section.add(
        Figure(
            "greedy replies, batched 8 at a time, identical to the same calls alone",
            float(drift["same"]),
            unit=f"of {drift['legs']} legs",
            note="before any near tie is redone: the batched decoding itself",
        )
    )
    section.add(
        Figure(
            "largest change batching made to any log-probability (whole vocabulary, every step)",
            drift["drift"],
            baseline="`TIE_MARGIN / 2`, the drift the redo rule allows for",
            baseline_value=TIE_MARGIN / 2,
            ratio=drift["drift"] / (TIE_MARGIN / 2),
            note=(
                f"{drift['drift']:.2g}; the closest two best logits seen alone: "
                f"{drift['closest_gap']:.2g} apart"
            ),
        )
    )


def _verdict_figures(
    section: Section, after: list[dict[str, Any]], before: list[dict[str, Any]]
) -> None:
    def ratio_figure(rows: list[dict[str, Any]], kind: str, name: str, **kw: Any) -> None:
        section.add(
            paired(
                name,
                [r[f"{kind}_verdict"] for r in rows],
                "its direct leg alone (`judge.complete`)",
                [r[f"{kind}_leg"] for r in rows],
                unit="s",
                note=f"median over {len(rows)} MathQA items",
                **kw,
            )
        )

    ratio_figure(
        after,
        "batched",
        "`guard.acheck(item)`, batched LocalJudge (defaults), cache off",
        target=f"≤ {VERDICT_LIMIT}×",
        limit=VERDICT_LIMIT,
    )
    ratio_figure(after, "unbatched", "the same, `LocalJudge(batch_size=1)` (unbatched path)")
    ratio_figure(before, "batched", "the same, LocalJudge before batching")
    section.add(
        paired(
            "one leg alone, batched LocalJudge",
            [r["batched_leg"] for r in after],
            "the same leg, `LocalJudge(batch_size=1)`",
            [r["unbatched_leg"] for r in after],
            unit="s",
            note="what a lone call pays for batching: the wait for companions",
        )
    )
    section.tables.append(
        (
            "Verdict and one leg per item (seconds; completion tokens in brackets)",
            md_table(
                ["item", "leg", "verdict", "leg, unbatched", "verdict, unbatched"],
                [
                    [
                        r["id"],
                        *(
                            f"{r[key]:.2f} ({r[key + '_tokens']})"
                            for key in (
                                "batched_leg",
                                "batched_verdict",
                                "unbatched_leg",
                                "unbatched_verdict",
                            )
                        ),
                    ]
                    for r in after
                ],
            ),
        )
    )


def _throughput_figures(section: Section, got: dict[str, list[dict[str, Any]]], items: int) -> None:
    rate = {kind: [r["per_minute"] for r in runs] for kind, runs in got.items()}
    per_round = ratios(rate["batched"], rate["unbatched"])
    section.add(
        Figure(
            f"verdicts per minute, batched LocalJudge ({items} MathQA items, concurrency 8, "
            "cache off)",
            median(rate["batched"]),
            unit="/min",
            baseline="the unbatched path, `LocalJudge(batch_size=1)`, same round",
            baseline_value=median(rate["unbatched"]),
            ratio=median(per_round),
            spread=spread(per_round),
            target=f"≥ {THROUGHPUT_GOAL:g}×",
            met=median(per_round) >= THROUGHPUT_GOAL,
        )
    )
    for kind, baseline in (
        ("before", "LocalJudge before batching, same round"),
        ("llama", "the same GGUF, llama.cpp server via `LiteLLMJudge`, same round"),
    ):
        section.add(
            paired(
                "verdicts per minute, batched LocalJudge",
                rate["batched"],
                baseline,
                rate[kind],
                unit="/min",
            )
        )
    first_after = median([r["first_verdict"] for r in got["batched"]])
    first_before = median([r["first_verdict"] for r in got["before"]])
    section.add(
        paired(
            "time to first verdict in a fresh process (`LocalJudge()` + one verdict), after",
            [r["to_first_verdict"] for r in got["batched"]],
            "the same, before batching",
            [r["to_first_verdict"] for r in got["before"]],
            unit="s",
            note=f"of which the verdict: {first_after:.2f} s (before: {first_before:.2f} s)",
        )
    )
    stats = [r["stats"] for r in got["batched"] if r["stats"]]
    if stats:
        mean_rows = statistics.mean(s["row_steps"] / max(s["steps"], 1) for s in stats)
        section.notes.append(
            f"Batched runs: {mean_rows:.1f} rows per decoding step on average (largest "
            f"{max(s['largest'] for s in stats)}), {sum(s['redone'] for s in stats)} of "
            f"{sum(s['calls'] for s in stats)} calls generated again alone after a near tie, "
            f"{statistics.mean(s['shared_tokens'] for s in stats):.0f} prompt tokens per run "
            "copied from another row's prefix instead of computed."
        )
    section.tables.append(
        (
            "Throughput runs (verdicts per minute; completion tokens per run in brackets)",
            md_table(
                ["round", *got],
                [
                    [
                        index + 1,
                        *(
                            f"{runs[index]['per_minute']:.1f} ({runs[index]['completion_tokens']})"
                            for runs in got.values()
                        ),
                    ]
                    for index in range(len(rate["batched"]))
                ],
            ),
        )
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--before", default=BEFORE, help=f"commit before batching ({BEFORE})")
    parser.add_argument("--out", type=Path, default=None, help="write the section here (markdown)")
    parser.add_argument("--json", type=Path, default=None, help="write the raw section here")
    parsed = parser.parse_args(args)
    quiet_logging()
    from bench.run import _print_section, render_section

    started = time.perf_counter()
    section = run(Context(smoke=parsed.smoke), before_revision=parsed.before, rounds=parsed.rounds)
    section.seconds = time.perf_counter() - started
    section.notes.append(
        f"Ran {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} in {section.seconds:.0f} s "
        f"by `.venv/bin/python -m bench.local_batch {' '.join(args)}`."
    )
    _print_section(section)
    text = render_section(section)
    if parsed.out is not None:
        parsed.out.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    if parsed.json is not None:
        import dataclasses

        parsed.json.write_text(json.dumps(dataclasses.asdict(section), indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
