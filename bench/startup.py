"""6. Start-up: ``import prin_guard`` and ``prin-guard --help`` in fresh processes.

Median of 15 fresh subprocesses each, interleaved with the baseline ``python -c pass``
(the interpreter alone) round by round. Targets: the import ≤ 0.20 s, ``--help`` ≤ 0.6 s.
Also ``python -X importtime`` top entries (median over runs), and what a program pays
for its first verdict (the import, a guard, one ``check`` with a function judge): names
imported on first use move time out of the import, and this figure shows where it went.

Before and after a change, in one run (the two checkouts alternate round by round, so
the shared machine's load falls on both alike)::

    git archive <ref> prin_guard | tar -x -C /tmp/before
    .venv/bin/python -m bench.startup --before /tmp/before --after .
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from bench._common import (
    PYTHON,
    Context,
    Figure,
    Section,
    interleave,
    md_table,
    median,
    paired,
    spread,
    wall,
)

NAME = "startup"
TITLE = "6. Start-up"
TARGET = "`import prin_guard` ≤ 0.20 s; `prin-guard --help` ≤ 0.6 s (median of 15 fresh processes)"
IMPORT_LIMIT = 0.2
HELP_LIMIT = 0.6
_IMPORT_TIMED = (
    "import time; t = time.perf_counter(); import prin_guard; print(time.perf_counter() - t)"
)
_FIRST_CHECK = (
    "import time; t = time.perf_counter(); import prin_guard\n"
    "@prin_guard.guard\n"
    "def judge(prompt):\n"
    "    return 'Answer: C' if 'incorrect' not in prompt else 'Answer: A, B'\n"
    "verdict = judge.check({'question': '2 + 2?', 'candidates': ['3', '5', '4']})\n"
    "assert verdict.correct == ('C',), verdict\n"
    "print(time.perf_counter() - t)"
)
"""The package docstring's example: the import, a guard, one verdict (both legs read)."""
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def _timed(code: str = _IMPORT_TIMED, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds of the whole process, seconds the code itself reports)."""
    started = time.perf_counter()
    done = subprocess.run(
        [PYTHON, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
        env={**os.environ, **(env or {})},
    )
    return time.perf_counter() - started, float(done.stdout.strip().splitlines()[-1])


def _importtime(code: str, runs: int) -> dict[str, tuple[float, float, int]]:
    """module -> (median self ms, median cumulative ms, depth) over ``runs`` processes."""
    selfs: dict[str, list[float]] = defaultdict(list)
    cumulative: dict[str, list[float]] = defaultdict(list)
    depth: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(
            [PYTHON, "-X", "importtime", "-c", code],
            capture_output=True,
            text=True,
            check=False,
            cwd="/",
        )
        for match in _LINE.finditer(done.stderr):
            own, cum, indent, module = match.groups()
            selfs[module].append(int(own) / 1000)
            cumulative[module].append(int(cum) / 1000)
            depth.setdefault(module, len(indent) // 2)
    return {m: (median(selfs[m]), median(cumulative[m]), depth[m]) for m in selfs}


def run(ctx: Context) -> Section:
    section = Section(NAME, TITLE, TARGET)
    rounds = ctx.pick(15, 1)
    cli = str(Path(PYTHON).parent / "prin-guard")
    imports: list[float] = []

    firsts: list[float] = []

    def import_run() -> float:
        total, inside = _timed()
        imports.append(inside)
        return total

    def first_check_run() -> float:
        total, inside = _timed(_FIRST_CHECK)
        firsts.append(inside)
        return total

    got = interleave(
        rounds,
        {
            "pass": lambda: wall([PYTHON, "-c", "pass"]),
            "import": import_run,
            "help": lambda: wall([cli, "--help"]),
            "first": first_check_run,
        },
    )
    inside = imports[1:]  # the warm-up round's is dropped, as interleave drops its others
    section.add(
        Figure(
            "`import prin_guard`, time in the import statement (fresh process)",
            median(inside),
            unit="s",
            baseline="target",
            baseline_value=IMPORT_LIMIT,
            ratio=median(inside) / IMPORT_LIMIT,
            spread=spread([v / IMPORT_LIMIT for v in inside]),
            target=f"≤ {IMPORT_LIMIT} s",
            met=median(inside) <= IMPORT_LIMIT,
        )
    )
    section.add(
        paired(
            '`python -c "import prin_guard"`, whole process',
            got["import"],
            '`python -c "pass"` (the interpreter alone)',
            got["pass"],
            unit="s",
            note=f"− interpreter = {median(got['import']) - median(got['pass']):.3f} s",
        )
    )
    section.add(
        Figure(
            "`import prin_guard` + `@prin_guard.guard` + the first `check` (function judge), "
            "time in the code (fresh process)",
            median(firsts[1:]),
            unit="s",
            spread=spread(firsts[1:]),
            note="what a program pays for its first verdict; no target",
        )
    )
    section.add(
        paired(
            "`prin-guard --help`, whole process",
            got["help"],
            '`python -c "pass"`',
            got["pass"],
            unit="s",
        )
    )
    section.add(
        Figure(
            "`prin-guard --help`, whole process",
            median(got["help"]),
            unit="s",
            baseline="target",
            baseline_value=HELP_LIMIT,
            ratio=median(got["help"]) / HELP_LIMIT,
            spread=spread([v / HELP_LIMIT for v in got["help"]]),
            target=f"≤ {HELP_LIMIT} s",
            met=median(got["help"]) <= HELP_LIMIT,
        )
    )
    section.notes.append(
        f"{rounds} rounds after a warm-up round; each round spawns the four processes (the "
        "interpreter, the import, `--help`, the first verdict) back to back in alternating "
        "order (cwd `/`, so nothing is imported from the checkout by accident; prin-guard "
        "is installed in the venv in editable mode)."
    )

    runs = ctx.pick(5, 1)
    table = _importtime("import prin_guard", runs)
    top = sorted(table.items(), key=lambda kv: kv[1][1], reverse=True)[:15]
    section.tables.append(
        (
            f"`python -X importtime -c 'import prin_guard'`: top 15 by cumulative time "
            f"(median of {runs} processes; depth 0 = imported by the statement itself)",
            md_table(
                ["module", "depth", "cumulative ms", "self ms"],
                [[f"`{m}`", d, f"{c:.1f}", f"{s:.1f}"] for m, (s, c, d) in top],
            ),
        )
    )
    by_self = sorted(table.items(), key=lambda kv: kv[1][0], reverse=True)[:10]
    section.tables.append(
        (
            "Same runs: top 10 by self time",
            md_table(
                ["module", "self ms", "cumulative ms"],
                [[f"`{m}`", f"{s:.1f}", f"{c:.1f}"] for m, (s, c, _d) in by_self],
            ),
        )
    )
    packages: dict[str, float] = defaultdict(float)
    for module, (own, _cum, _depth) in table.items():
        packages[module.split(".")[0]] += own
    section.tables.append(
        (
            "Same runs, self time summed by top-level package (where `import prin_guard` "
            "spends its time)",
            md_table(
                ["package", "self ms, summed over its modules"],
                [
                    [f"`{name}`", f"{ms:.1f}"]
                    for name, ms in sorted(packages.items(), key=lambda kv: -kv[1])[:10]
                ],
            ),
        )
    )
    if section.figures[0].met is False:
        heaviest = sorted(packages.items(), key=lambda kv: -kv[1])[:3]
        section.why(
            f"`import prin_guard` takes {section.figures[0].value:.3f} s; the largest shares "
            "of self time: "
            + ", ".join(f"`{name}` {ms:.0f} ms" for name, ms in heaviest)
            + " (tables below)."
        )
    help_code = (
        "import sys; sys.argv = ['prin-guard', '--help']\n"
        "from prin_guard.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    help_table = _importtime(help_code, runs)
    rows = [
        [f"`{m}`", f"{help_table[m][1]:.1f}", f"{help_table[m][0]:.1f}"]
        for m in ("prin_guard.cli", "prin_guard")
        if m in help_table
    ]
    extra = sorted(
        ((m, v) for m, v in help_table.items() if m not in table and m != "prin_guard.cli"),
        key=lambda kv: kv[1][1],
        reverse=True,
    )[:6]
    rows += [
        [f"`{m}` (not imported by `import prin_guard`)", f"{v[1]:.1f}", f"{v[0]:.1f}"]
        for m, v in extra
    ]
    section.tables.append(
        (
            "`prin-guard --help` under `-X importtime`: what the command line imports "
            "besides `import prin_guard` (its flags are derived from the guard's set-up, "
            "`GuardConfig`)",
            md_table(["module", "cumulative ms", "self ms"], rows),
        )
    )
    return section


def compare(before: Path, after: Path, rounds: int) -> str:
    """A markdown table: the import and the first verdict under two checkouts and the
    interpreter alone, the three alternating round by round (ABBA) in one run."""

    def timed(code: str, checkout: Path) -> Callable[[], float]:
        return lambda: _timed(code, {"PYTHONPATH": str(checkout.resolve())})[1]

    def interpreter() -> float:
        return _timed("import time; t = time.perf_counter(); print(time.perf_counter() - t)")[0]

    got = interleave(
        rounds,
        {
            "interpreter": interpreter,
            "import, before": timed(_IMPORT_TIMED, before),
            "import, after": timed(_IMPORT_TIMED, after),
            "first verdict, before": timed(_FIRST_CHECK, before),
            "first verdict, after": timed(_FIRST_CHECK, after),
        },
    )
    rows = [
        ['`python -c "pass"`-like process, whole (the interpreter alone)', got["interpreter"]],
        ["`import prin_guard` (time in the statement), before", got["import, before"]],
        ["`import prin_guard` (time in the statement), after", got["import, after"]],
        ["import + `@prin_guard.guard` + first `check`, before", got["first verdict, before"]],
        ["import + `@prin_guard.guard` + first `check`, after", got["first verdict, after"]],
    ]
    return md_table(
        ["measured", "median s", "range s"],
        [
            [name, f"{median(values):.3f}", "{:.3f}–{:.3f}".format(*spread(values))]
            for name, values in rows
        ],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start-up before and after, in one run.")
    parser.add_argument("--before", type=Path, required=True, help="a checkout (holds prin_guard/)")
    parser.add_argument("--after", type=Path, required=True, help="a checkout (holds prin_guard/)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    for checkout in (args.before, args.after):
        if not (checkout / "prin_guard" / "__init__.py").is_file():
            parser.error(f"{checkout}: no prin_guard/ package in it")
    print(compare(args.before, args.after, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
