"""The benchmark suite runs end to end at smoke size and writes its report.

Nothing about speed is asserted: ``bench/run.py --smoke`` only checks that every
benchmark still runs against the current library. It loads the bundled model
(benchmark 5), hence the ``model`` mark besides ``bench``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = (
    "overlap",
    "overhead",
    "throughput",
    "warm_cache",
    "startup",
    "local",
    "local_batch",
    "cost",
)


@pytest.mark.bench
@pytest.mark.model
def test_bench_smoke_runs_every_benchmark_and_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "BENCHMARKS.md"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--smoke", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + "\n" + done.stderr[-4000:]
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# prin-guard benchmarks")
    assert "Smoke run" in text
    for name in BENCHMARKS:
        assert f"<!-- bench:{name} -->" in text, name
        assert f"<!-- /bench:{name} -->" in text, name
    assert "This benchmark failed to run" not in text


def test_premium_configurations_ask_the_legs_their_names_say() -> None:
    # A pairwise item gets the order check by default: premium's "two legs" configurations
    # once named no checks and measured four legs under a two-leg name.
    import re

    from bench import premium
    from prin_guard import Guard, Item
    from prin_guard.judges import ScriptedJudge

    pair = Item(task="pairwise", question="Which is kinder?", candidates=["Thanks.", "No."])
    words = {"two": 2, "three": 3, "four": 4}
    for config, described in premium.CONFIGS.items():
        if config == "unguarded":
            continue
        named = re.search(r"\b(two|three|four) legs\b", described)
        assert named is not None, described
        judge = ScriptedJudge("Answer: A", "Answer: B")
        verdict = Guard(judge, **premium.guard_options(config)).check(pair)
        assert len(list(verdict.legs())) == words[named.group(1)] == premium.LEGS[config]
        assert premium.CHECKS[config].replace(",", ", ") in described
