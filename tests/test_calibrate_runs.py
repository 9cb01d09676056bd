"""Calibration end to end: scripted judges, real eval runs, ``prin-guard calibrate``.

Two scripted judges with a known error structure answer every item of a generated
dataset in one of four ways (the gold answer is always A of four candidates):

- ``right``: direct A, reverse B, C, D: correct, PRIN 0;
- ``wrong``: direct B, reverse A, C, D: wrong, PRIN 0;
- ``split``: direct A, reverse B: the synergy set is A (correct), PRIN 0.5;
- ``confused``: direct B, reverse B: the synergy set is empty (wrong), PRIN 1.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from prin_guard import Acceptance, GuardOptions, UsageError
from prin_guard.calibrate import calibrate, evaluate, load_runs
from prin_guard.cli import main
from prin_guard.eval import run as eval_run
from prin_guard.judges import ScriptedJudge

REPLIES = {
    "right": ("Answer: A", "Answer: B, C, D"),
    "wrong": ("Answer: B", "Answer: A, C, D"),
    "split": ("Answer: A", "Answer: B"),
    "confused": ("Answer: B", "Answer: B"),
}
CHEAP = {"right": 0.57, "wrong": 0.03, "split": 0.15, "confused": 0.25}
STRONG = {"right": 0.85, "wrong": 0.02, "split": 0.08, "confused": 0.05}


def scripted(name: str, mix: dict[str, float], n: int, seed: int) -> ScriptedJudge:
    rng = random.Random(seed)
    kinds = rng.choices(list(mix), weights=list(mix.values()), k=n)

    def reply(prompt: str) -> str:
        match = re.search(r"item-(\d+)", prompt)
        assert match is not None
        direct, reverse = REPLIES[kinds[int(match.group(1))]]
        return reverse if "incorrect ones" in prompt else direct

    return ScriptedJudge(fn=reply, name=name)


def dataset(folder: Path, n: int) -> Path:
    path = folder / "items.jsonl"
    with path.open("w") as handle:
        for i in range(n):
            item = {
                "id": f"item-{i}",
                "question": f"item-{i}: which one is right?",
                "candidates": [f"a{i}", f"b{i}", f"c{i}", f"d{i}"],
                "gold": ["A"],
            }
            handle.write(json.dumps(item) + "\n")
    return path


def evaluate_judge(
    judge: ScriptedJudge, data: Path, out: Path, options: GuardOptions | None = None
) -> Path:
    eval_run(
        judge,
        str(data),
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        mitigations=(),
        cache="memory",
        progress=False,
        out=out,
        options=options,
    )
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("calibrate-runs")
    data = dataset(folder, 400)
    (folder / "few").mkdir()
    few = dataset(folder / "few", 15)
    return {
        "cheap": evaluate_judge(scripted("cheap", CHEAP, 400, 1), data, folder / "cheap"),
        "strong": evaluate_judge(scripted("strong", STRONG, 400, 2), data, folder / "strong"),
        # right or wrong at random, always consistent: no rule of its accepts anything
        "coin": evaluate_judge(
            scripted("coin", {"right": 0.5, "wrong": 0.5}, 400, 3), data, folder / "coin"
        ),
        "small": evaluate_judge(scripted("cheap", CHEAP, 15, 1), few, folder / "small"),
        # asked in a second candidate order too: three signals to choose among
        "ordered": evaluate_judge(
            scripted("cheap", CHEAP, 400, 1),
            data,
            folder / "ordered",
            GuardOptions(checks=("reverse", "order")),
        ),
    }


def cli(*args: str) -> int:
    return main(["calibrate", *args])


def test_calibrate_writes_an_acceptance_bound_to_the_judge(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "acceptance.json"
    assert cli(str(runs["cheap"]), "--out", str(out), "--report", str(tmp_path / "rep")) == 0
    printed = capsys.readouterr().out
    assert "tier 0 (cheap): PRIN < 1; " in printed  # as people read the rule
    acc = Acceptance.load(out)
    rule = acc.tiers[0].rule
    # PRIN 0 and 0.5 verdicts are right 57+15 times in 75 (4%); PRIN 1 ones never
    assert rule.signal == "prin"
    assert rule.threshold is not None
    assert 0.5 <= rule.threshold < 1.0
    assert acc.tiers[0].judge == {"kind": "scripted", "name": "cheap", "seed": None}
    assert acc.tiers[0].options == {
        "template": "v0",
        "mitigations": [],
        "policy": "synergy",
        "checks": ["reverse"],
        "prompt_layout": "template",
    }
    assert (acc.n, acc.alpha, acc.delta) == (400, 0.1, 0.1)
    assert acc.errors / acc.accepted <= 0.1
    assert acc.runs == ((str(runs["cheap"]),),)
    assert (tmp_path / "rep" / "calibration.md").read_text().count("**(chosen") == 1
    assert (tmp_path / "rep" / "risk-coverage.png").stat().st_size > 1000


def test_a_guard_applying_the_file_accepts_what_calibration_counted(runs: dict[str, Path]) -> None:
    data = load_runs([[runs["cheap"]]])
    result = calibrate(data, alpha=0.1, delta=0.1)
    outcome = evaluate(result.acceptance, data)  # through Acceptance.decide, verdict by verdict
    assert (outcome.accepted, outcome.errors) == (
        result.acceptance.accepted,
        result.acceptance.errors,
    )
    assert outcome.calls_per_item == 2.0


def test_holdout_reports_the_items_kept_apart(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.json"
    assert cli(str(runs["cheap"]), "--out", str(out), "--holdout", "0.5", "--json") == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["acceptance"]["n"] == 200
    held = payload["holdout"]
    assert held["items"] == 200
    assert 0.5 < held["coverage"] < 0.95
    assert held["error_rate"] < 0.1
    assert held["judge_calls_per_item"] == 2.0


def test_evaluate_refuses_a_file_calibrated_for_another_judge(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.json"
    assert cli(str(runs["cheap"]), "--out", str(out)) == 0
    capsys.readouterr()
    assert cli(str(runs["cheap"]), "--evaluate", str(out), "--json") == 0
    assert json.loads(capsys.readouterr().out)["items"] == 400
    assert cli(str(runs["strong"]), "--evaluate", str(out)) == 2
    assert 'calibrated for another judge (name: calibrated "cheap"' in capsys.readouterr().err


def test_a_cascade_is_calibrated_jointly_and_asks_the_strong_judge_less(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cascade.json"
    code = cli(str(runs["cheap"]), "--tier", str(runs["strong"]), "--out", str(out), "--json")
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    acc = Acceptance.load(out)
    assert acc.method == "pareto_fixed_sequence"
    assert [t.judge["name"] for t in acc.tiers] == ["cheap", "strong"]
    assert (acc.n, acc.tested) == (400, 280)
    tested = payload["cascade_test_part"]
    # the rules applied verdict by verdict agree with what calibration counted
    assert (tested["accepted"], tested["errors"]) == (acc.accepted, acc.errors)
    assert acc.errors <= 0.1 * acc.accepted
    assert tested["asked_by_tier"][1] < tested["items"]  # fewer strong calls than always-strong
    assert acc.coverage > 0.8


def test_a_cascade_tier_that_accepts_nothing_is_left_out_with_a_warning(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cascade.json"
    assert cli(str(runs["coin"]), "--tier", str(runs["strong"]), "--out", str(out)) == 0
    printed = capsys.readouterr()
    assert "prin-guard: warning: left out of the file: tier 0 (coin)" in printed.err
    assert "a guard with the file asks strong" in printed.err
    assert "judge calls per item with this file: 2.00 on the test part" in printed.out
    acc = Acceptance.load(out)
    assert [t.judge["name"] for t in acc.tiers] == ["strong"] and acc.accepted > 0
    # evaluated as a guard with the file runs: the strong judge alone, 2 calls per item
    assert evaluate(acc, load_runs([[runs["strong"]]])).calls_per_item == 2.0
    # the user insists: every tier stays, asked about every item it reaches
    assert cli(str(runs["coin"]), "--tier", str(runs["strong"]), "--out", str(out),
               "--keep-idle-tiers") == 0  # fmt: skip
    assert "warning" not in capsys.readouterr().err
    assert [t.judge["name"] for t in Acceptance.load(out).tiers] == ["coin", "strong"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ("--signal", "confidence"), "no verdict of tier 0 has 'confidence'", id="absent"
        ),
        pytest.param(("--signal", "vibes"), "signal: unknown 'vibes'", id="unknown"),
        pytest.param(("--config", "cot"), "has no configuration 'cot' (it has none)", id="config"),
        pytest.param(("--alpha", "1.5"), "alpha: must be between 0 and 1", id="alpha"),
    ],
)
def test_bad_arguments_name_what_is_wrong(
    runs: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
) -> None:
    assert cli(str(runs["cheap"]), "--out", str(tmp_path / "a.json"), *args) == 2
    assert message in capsys.readouterr().err


def test_too_few_items_say_how_many_are_needed(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(str(runs["small"]), "--out", str(tmp_path / "a.json")) == 2
    err = capsys.readouterr().err
    assert "needs at least 22 items with a gold set" in err
    assert "the runs have 15" in err


def test_runs_must_be_distinct_items_and_match_across_tiers(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    with pytest.raises(UsageError, match="item 'item-0' appears twice"):
        load_runs([[runs["cheap"], runs["cheap"]]])
    with pytest.raises(UsageError, match="tier 1 does not hold the items of tier 0"):
        load_runs([[runs["cheap"]], [runs["small"]]])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UsageError, match="is not an eval run directory"):
        load_runs([[empty]])
    (empty / "items.jsonl").write_text("")
    with pytest.raises(UsageError, match=r"has no summary\.json"):
        load_runs([[empty]])


def test_calibrate_prints_how_it_chose_the_signal_and_what_it_tested(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.json"
    assert cli(str(runs["ordered"]), "--out", str(out)) == 0
    printed = capsys.readouterr().out.splitlines()
    acc = Acceptance.load(out)
    assert acc.signals_compared == ("prin", "order_inconsistency", "inconsistency")
    assert acc.signals_tested == (acc.tiers[0].rule.signal,)
    assert acc.selection == round(0.3 * acc.n) and acc.tested == acc.n - acc.selection
    (compared,) = [line for line in printed if line.startswith("signals compared on ")]
    assert compared.startswith(f"signals compared on {acc.selection} items kept apart (seed 0): ")
    assert all(f"{name} certifies " in compared for name in acc.signals_compared)
    assert f"{acc.tiers[0].rule.signal} certifies " in compared.split(" (chosen)")[0]
    (tested,) = [line for line in printed if line.startswith("tested ")]
    assert tested.startswith(
        f"tested {acc.tiers[0].rule.signal} on the other {acc.tested} items at delta 0.1: "
    )
    assert f": {acc.tiers[0].rule.words} accepts {acc.accepted} " in tested
    assert cli(str(runs["ordered"]), "--out", str(out), "--json") == 0
    payload = json.loads(capsys.readouterr().out)
    assert list(payload["selection"]) == list(acc.signals_compared)
    assert [n for n, s in payload["selection"].items() if s["chosen"]] == list(acc.signals_tested)
    assert {s["items"] for s in payload["selection"].values()} == {acc.selection}
    assert list(payload["signals"]) == list(acc.signals_tested)
    assert payload["signals"][acc.tiers[0].rule.signal]["level"] == 0.1
    # another seed, another selection part: the split is the seed's
    assert cli(str(runs["ordered"]), "--out", str(out), "--seed", "5") == 0
    assert Acceptance.load(out).seed == 5


def test_an_edited_acceptance_file_is_refused_naming_the_file(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.json"
    assert cli(str(runs["cheap"]), "--out", str(out)) == 0
    written = json.loads(out.read_text())
    assert written["version"] == 3 and len(written["content_sha256"]) == 64
    capsys.readouterr()
    # a careless edit: the rule loosened to accept every verdict, within PRIN's range
    written["tiers"][0]["rule"]["threshold"] = 1.0
    out.write_text(json.dumps(written, indent=2))
    assert cli(str(runs["cheap"]), "--evaluate", str(out)) == 2
    assert f"{out}: content_sha256: the digest does not match" in capsys.readouterr().err
