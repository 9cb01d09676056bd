"""6. Start-up: ``import prin_guard`` and ``prin-guard --help`` in fresh processes.

Median of 15 fresh subprocesses each, interleaved with the baseline ``python -c pass``
(the interpreter alone) round by round. Targets: the import ≤ 0.20 s, ``--help`` ≤ 0.6 s.
Also ``python -X importtime`` top entries (median over runs).
"""

from __future__ import annotations

import re
import subprocess
import time
from collections import defaultdict
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
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def _timed_import() -> tuple[float, float]:
    """(wall seconds of the whole process, seconds spent in the import statement)."""
    started = time.perf_counter()
    done = subprocess.run(
        [PYTHON, "-c", _IMPORT_TIMED], capture_output=True, text=True, check=True, cwd="/"
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

    def import_run() -> float:
        total, inside = _timed_import()
        imports.append(inside)
        return total

    got = interleave(
        rounds,
        {
            "pass": lambda: wall([PYTHON, "-c", "pass"]),
            "import": import_run,
            "help": lambda: wall([cli, "--help"]),
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
        f"{rounds} rounds after a warm-up round; each round spawns the three processes back "
        "to back in alternating order (cwd `/`, so nothing is imported from the checkout by "
        "accident; prin-guard is installed in the venv in editable mode)."
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
            "spends its time; `rich` comes in through `structlog.dev` → `structlog.tracebacks`)",
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
        logging_stack = sum(packages.get(name, 0.0) for name in ("structlog", "rich", "pygments"))
        section.why(
            f"`import prin_guard` takes {section.figures[0].value:.3f} s. structlog and what "
            f"`structlog.dev` pulls in (rich, pygments) account for {logging_stack:.0f} ms of "
            "self time (tables below), imported by `prin_guard._events` at import time "
            "though no event is emitted until a verdict."
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
            "`prin-guard --help` under `-X importtime`: the CLI module lives inside the "
            "package, so `--help` first imports all of `prin_guard` (its `__init__` imports "
            "the engine, pydantic, structlog, asyncio, tenacity)",
            md_table(["module", "cumulative ms", "self ms"], rows),
        )
    )
    return section
