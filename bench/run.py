"""Run prin-guard's benchmarks and write BENCHMARKS.md.

    .venv/bin/python bench/run.py                     # the full suite -> BENCHMARKS.md
    .venv/bin/python bench/run.py --smoke             # tiny sizes, a few minutes, nothing asserted
    .venv/bin/python bench/run.py --only overhead --only warm_cache
    .venv/bin/python bench/run.py --smoke --out /tmp/bench.md

Every benchmark reports ratios against a baseline measured in the same run (pairs timed
back to back, medians over rounds). A missed target is reported, never raised: the exit
status is 1 only when a benchmark itself failed to run.

With ``--only`` and an existing output file, only the sections that ran are replaced.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import importlib
import json
import re
import shlex
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._common import (  # noqa: E402 - the repository root must be on sys.path first
    Context,
    Section,
    fmt,
    fmt_ratio,
    load_average,
    machine,
    md_table,
    quiet_logging,
)

BENCHMARKS = (
    "overlap",
    "overhead",
    "throughput",
    "warm_cache",
    "startup",
    "reader",
    "reader_generated",
    "long_replies",
    "local",
    "local_batch",
    "cost",
    "premium",
    "load",
    "grade",
)
"""In running order: the ones that load the model (and torch) last."""

SHARED_MACHINE_NOTE = (
    "The machine has 2 cores and is shared: other engineers run test suites on it at the "
    "same time, so absolute timings are noisy. That is why every figure is a ratio against "
    "a baseline timed back to back with it in the same run, repeated, with the median "
    "reported and the range of the per-round ratios beside it."
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes; checks that all runs")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help=f"run only these benchmarks (repeatable or comma-separated): {', '.join(BENCHMARKS)}",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="markdown file to write (default: BENCHMARKS.md; with --smoke, none)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    args = parser.parse_args(argv)

    chosen = [name for spec in args.only for name in spec.split(",") if name]
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; known: {', '.join(BENCHMARKS)}")
    names = [name for name in BENCHMARKS if not chosen or name in chosen]
    out = args.out if args.out is not None else (None if args.smoke else ROOT / "BENCHMARKS.md")

    quiet_logging()
    ctx = Context(smoke=args.smoke)
    command = _command(argv)
    started_at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    info = machine()  # at the start: the source measured is the one checked out now
    print(f"prin-guard benchmarks ({'smoke' if ctx.smoke else 'full'}): {', '.join(names)}")
    sections: list[Section] = []
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {module.TITLE} ...", flush=True)
        started = time.perf_counter()
        load = load_average()
        try:
            section = module.run(ctx)
        except Exception as exc:  # noqa: BLE001 - report it and go on with the others
            section = Section(name, module.TITLE, module.TARGET)
            section.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
        section.seconds = time.perf_counter() - started
        section.notes.append(
            f"Ran {started_at} in {section.seconds:.1f} s; load average (1/5/15 min) "
            f"{load} before, {load_average()} after."
        )
        sections.append(section)
        _print_section(section)

    info["load_average"] = f"{load_before} at start, {load_average()} at the end"
    text = render(sections, info, command=command, smoke=ctx.smoke, started_at=started_at)
    if out is not None:
        if chosen and out.exists():
            text = merge(out.read_text(encoding="utf-8"), sections)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    else:
        print(text)
    if args.json is not None:
        payload = {
            "machine": info,
            "command": command,
            "smoke": ctx.smoke,
            "sections": [dataclasses.asdict(s) for s in sections],
        }
        args.json.write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    failed = [s.name for s in sections if s.error]
    if failed:
        print(f"benchmarks that failed to run: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _command(argv: list[str] | None) -> str:
    python = Path(sys.executable)
    with_root = python.relative_to(ROOT) if python.is_relative_to(ROOT) else python
    args = sys.argv[1:] if argv is None else argv
    return shlex.join([str(with_root), "bench/run.py", *args])


def _print_section(section: Section) -> None:
    if section.error:
        print(f"   ERROR {section.error.splitlines()[0]}")
    if section.skipped:
        print(f"   skipped: {section.skipped}")
    for figure in section.figures:
        status = {True: "met", False: "MISSED", None: ""}[figure.met]
        ratio = f"  ratio {fmt_ratio(figure.ratio)}" if figure.ratio is not None else ""
        print(f"   {figure.name}: {fmt(figure.value, figure.unit)}{ratio}  {status}")
    print(f"   ({section.seconds:.1f} s)", flush=True)


# -- markdown ---------------------------------------------------------------------------


def _status(met: bool | None) -> str:
    return {True: "✅ met", False: "❌ missed", None: "—"}[met]


def render_section(section: Section) -> str:
    out = [f"<!-- bench:{section.name} -->", f"## {section.title}", ""]
    out.append(f"**Target:** {section.target}  ")
    out.append(f"Run alone: `.venv/bin/python bench/run.py --only {section.name}`")
    out.append("")
    if section.error:
        out += ["**This benchmark failed to run:**", "", "```text", section.error.strip(), "```"]
    if section.skipped:
        out += [f"**Skipped:** {section.skipped}", ""]
    if section.figures:
        rows = []
        for f in section.figures:
            baseline = (
                f"{f.baseline}: {fmt(f.baseline_value, f.unit)}" if f.baseline is not None else "—"
            )
            ratio = fmt_ratio(f.ratio) if f.ratio is not None else "—"
            if f.spread is not None and f.ratio is not None:
                ratio += f" ({f.spread[0]:.3f}–{f.spread[1]:.3f})"
            value = fmt(f.value, f.unit)
            if f.note:
                value += f" ({f.note})"
            rows.append([f.name, value, baseline, ratio, f.target or "—", _status(f.met)])
        out.append(
            md_table(
                ["figure", "value (median)", "baseline, same run", "ratio (range)", "target", ""],
                rows,
            )
        )
        out.append("")
    for caption, table in section.tables:
        out += [f"**{caption}**", "", table, ""]
    for note in section.notes:
        out += [note, ""]
    for caption, block in section.blocks:
        out += [f"<details><summary>{caption}</summary>", "", "```text", block.rstrip(), "```", ""]
        out += ["</details>", ""]
    out.append(f"<!-- /bench:{section.name} -->")
    return "\n".join(out)


def render(
    sections: list[Section],
    info: dict[str, object],
    *,
    command: str,
    smoke: bool,
    started_at: str,
) -> str:
    versions = info.get("versions", {})
    assert isinstance(versions, dict)
    lines = ["# prin-guard benchmarks", ""]
    if smoke:
        lines += [
            "> **Smoke run**: tiny sizes to check that every benchmark runs. These numbers "
            "mean nothing; run the full suite for figures.",
            "",
        ]
    lines += [
        f"Generated {started_at} by `{command}` (the full suite is "
        "`.venv/bin/python bench/run.py`; `--smoke` runs every benchmark at tiny sizes in "
        "a few minutes; `--only NAME` runs one).",
        "",
        SHARED_MACHINE_NOTE,
        "",
        "## Machine",
        "",
        md_table(
            ["", ""],
            [
                ["CPU", info.get("cpu")],
                [
                    "cores",
                    f"{info.get('cores')} ({info.get('usable_cores')} usable by this process)",
                ],
                ["memory", f"{info.get('memory_gib')} GiB"],
                ["OS", info.get("os")],
                ["Python", f"{info.get('python')} ({info.get('python_path')})"],
                ["Redis server", f"{info.get('redis_server')} on 127.0.0.1:6379 (loopback)"],
                ["prin-guard source", info.get("git")],
                ["load average (1/5/15 min)", info.get("load_average")],
                *[[name, version] for name, version in versions.items()],
            ],
        ),
        "",
        "## Summary",
        "",
    ]
    rows = []
    for section in sections:
        if section.error:
            rows.append([section.title, "failed to run", "—", "—", "—", "❌ error"])
        for f in section.figures:
            if f.met is None:
                continue
            shown = fmt_ratio(f.ratio) if f.ratio is not None else "—"
            rows.append(
                [section.title, f.name, fmt(f.value, f.unit), shown, f.target, _status(f.met)]
            )
    lines += [
        md_table(["benchmark", "figure", "value", "ratio", "target", ""], rows),
        "",
        "Ratios are medians of per-round ratios (subject / baseline measured back to back); "
        "absolute values are medians too. The baselines are in each section.",
        "",
    ]
    lines += [render_section(section) + "\n" for section in sections]
    findings = Path(__file__).with_name("FINDINGS.md")
    if findings.is_file():
        lines.append(findings.read_text(encoding="utf-8"))
    return "\n".join(lines).rstrip() + "\n"


def merge(existing: str, sections: list[Section]) -> str:
    """Replace only the sections that ran in an existing file; keep everything else.

    Each section carries its own run note (time, load), so a file updated piecemeal
    still says when each figure was measured; the summary is that of the last full run.
    """
    text = existing
    for section in sections:
        block = render_section(section)
        name = re.escape(section.name)
        pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->", re.DOTALL)
        if pattern.search(text):
            text = pattern.sub(lambda _m, block=block: block, text)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    return text


if __name__ == "__main__":
    sys.exit(main())
