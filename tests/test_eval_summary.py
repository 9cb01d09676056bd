"""The typed evaluation summary against run directories written before it existed.

tests/data/summary holds runs made with a scripted judge by the version whose
``summarize`` returned a plain dict (see its README): the records, the
summary.json it wrote and the report it rendered. The typed summary must dump
to exactly that JSON, read those files back, and render the same report.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from prin_guard import UsageError
from prin_guard.eval import EvalSummary
from prin_guard.eval._report import Run, load_run, write_report
from prin_guard.eval._summary import summarize
from prin_guard.eval._summary_models import ConfigSummary, EvalRunConfig, EvalRunInfo, MethodScore

DATA = Path(__file__).parent / "data" / "summary"
EVAL_RUNS = ("eval_full", "eval_small", "eval_failed")
# runs whose run info the CLI wrote: their summary.json is reproduced byte for byte
CLI_RUNS = ("eval_full", "eval_failed")


def _records(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name / "items.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def _stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name / "summary.json").read_text(encoding="utf-8"))
    return data


def _html(folder: Path) -> str:
    # the plots depend on matplotlib's version: compare the page around them
    html = (folder / "report.html").read_text(encoding="utf-8")
    return re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,PNG", html)


def _assert_same_report(written: Path, expected: Path) -> None:
    assert (written / "report.md").read_text(encoding="utf-8") == (
        expected / "report.md"
    ).read_text(encoding="utf-8")
    assert _html(written) == (expected / "report.html").read_text(encoding="utf-8")
    figures = json.loads((expected / "figures.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in written.glob("*.png")) == figures


@pytest.mark.parametrize("name", EVAL_RUNS)
def test_summary_dumps_to_the_dict_of_earlier_versions(name: str) -> None:
    stored = _stored(name)
    summary = summarize(_records(name), run=stored["run"])
    assert isinstance(summary, EvalSummary)
    assert summary.model_dump(mode="json") == stored


@pytest.mark.parametrize("name", CLI_RUNS)
def test_to_json_is_the_summary_json_earlier_versions_wrote(name: str) -> None:
    stored = _stored(name)
    summary = summarize(_records(name), run=stored["run"])
    assert summary.to_json() == (DATA / name / "summary.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", EVAL_RUNS)
def test_an_old_summary_json_validates_into_the_model(name: str) -> None:
    text = (DATA / name / "summary.json").read_text(encoding="utf-8")
    summary = EvalSummary.model_validate_json(text)
    assert summary.model_dump(mode="json") == json.loads(text)
    assert summary == summarize(_records(name), run=_stored(name)["run"])


@pytest.mark.parametrize("name", EVAL_RUNS)
def test_load_run_reads_an_old_run_directory(name: str) -> None:
    run = load_run(DATA / name)
    assert run.name == name  # from the recorded name, or the directory's
    assert run.path == DATA / name
    assert isinstance(run.summary, EvalSummary)
    assert run.summary.model_dump(mode="json") == _stored(name)


@pytest.mark.parametrize("name", EVAL_RUNS)
def test_the_report_of_an_old_run_is_unchanged(name: str, tmp_path: Path) -> None:
    html = write_report([load_run(DATA / name)], tmp_path)
    assert html == tmp_path / "report.html"
    _assert_same_report(tmp_path, DATA / name)


def test_the_comparison_of_old_runs_is_unchanged(tmp_path: Path) -> None:
    write_report([load_run(DATA / name) for name in EVAL_RUNS], tmp_path)
    _assert_same_report(tmp_path, DATA / "eval_compare")


def test_typed_access_to_every_section() -> None:
    summary = load_run(DATA / "eval_full").summary
    assert list(summary.configs) == ["none", "cot", "neg_exp", "cot+neg_exp"]
    base = summary.configs["none"]
    assert isinstance(base, ConfigSummary)
    assert base.methods["direct"] == MethodScore(accuracy=0.6667, f1=0.6667)
    assert base.flag_rates == {
        "inconsistent": 0.5,
        "unparseable_reverse": 0.25,
        "empty_verdict": 0.25,
    }
    assert summary.base_config == "none"
    assert summary.set_valued_gold is True
    assert summary.self_consistency is not None
    assert (summary.self_consistency.samples, summary.self_consistency.temperature) == (5, 0.7)
    assert summary.randomness_inconsistency == 0.45
    assert summary.prin_by_template == {"v0": 0.4, "v1": 0.4, "v2": 0.4}
    assert summary.paraphrase_inconsistency == 0.2
    assert {n: b.items for n, b in summary.prin_by_option_count.items()} == {"2": 4, "3": 4, "4": 2}
    assert summary.prin_repeats is not None
    assert summary.prin_repeats.per_run == (0.15, 0.2333, 0.4)
    assert summary.flag_quality is not None
    assert summary.flag_quality.inconsistent_flag.lift is None
    assert [p.kept for p in summary.flag_quality.coverage_curve] == [2, 3]
    assert summary.cost is not None
    assert (summary.cost.judge_calls, summary.cost.cost_usd) == (112, 0.00816)
    assert [(f.id, f.error) for f in summary.failures] == [
        ("i5", "direct leg failed: ValueError: provider refused")
    ]
    config = summary.run.config
    assert isinstance(config, EvalRunConfig)
    assert (config.dataset, config.mitigations, config.repeats) == ("toy", ("cot", "neg_exp"), 3)
    assert summary.run.skipped_rows is not None
    assert summary.run.skipped_rows[0].line == 9


def test_sections_not_measured_are_absent_and_measured_nones_stay() -> None:
    failed = load_run(DATA / "eval_failed").summary
    assert set(failed.model_dump(mode="json")) == {
        "items",
        "items_judged",
        "items_failed",
        "failures",
        "run",
    }
    assert failed.configs == {} and failed.cost is None and failed.flag_quality is None
    small = load_run(DATA / "eval_small").summary.model_dump(mode="json")
    assert "self_consistency" not in small and "prin_repeats" not in small
    # one-label gold: F1 is not reported, as null
    assert small["configs"]["none"]["methods"]["direct"] == {"accuracy": 0.5, "f1": None}
    assert small["run"]["config"]["limit"] is None


def test_run_info_is_kept_as_given() -> None:
    run = {
        "config": {"dataset": "toy", "sc_samples": 3},
        "judge_calls": 8,
        "notes": {"by": "someone", "tags": ["a"]},
        "partial": None,
    }
    summary = summarize(_records("eval_small"), run=run)
    assert summary.model_dump(mode="json")["run"] == run
    assert summary.run.model_extra == {"judge_calls": 8, "notes": {"by": "someone", "tags": ["a"]}}
    assert summarize([], run=None).model_dump(mode="json") == {
        "items": 0,
        "items_judged": 0,
        "items_failed": 0,
        "failures": [],
        "run": {},
    }
    typed = EvalRunInfo(name="x", wall_seconds=2.0)
    assert summarize([], run=typed).run == typed


def test_the_recorded_config_decides_which_sampled_analyses_count() -> None:
    stored = _stored("eval_full")
    no_sc = {**stored["run"]["config"], "methods": ["direct"], "analyses": []}
    summary = summarize(_records("eval_full"), run={**stored["run"], "config": no_sc})
    assert summary.self_consistency is None
    assert summary.randomness_inconsistency is None
    assert summary.prin_repeats == load_run(DATA / "eval_full").summary.prin_repeats


def test_summaries_are_frozen() -> None:
    summary = load_run(DATA / "eval_full").summary
    with pytest.raises(ValidationError, match="frozen"):
        summary.items = 3  # type: ignore[misc]
    assert summary.cost is not None
    with pytest.raises(ValidationError, match="frozen"):
        summary.cost.judge_calls = 0  # type: ignore[misc]


def test_report_of_a_typed_summary_written_by_hand(tmp_path: Path) -> None:
    summary = EvalSummary(
        items=1,
        items_judged=0,
        items_failed=1,
        failures=(),
        run=EvalRunInfo(name="hand"),
    )
    assert summary.model_dump(mode="json") == {
        "items": 1,
        "items_judged": 0,
        "items_failed": 1,
        "failures": [],
        "run": {"name": "hand"},
    }
    write_report([Run("hand", tmp_path, summary)], tmp_path)
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert markdown.startswith("# prin-guard evaluation: hand\n")
    assert [line for line in markdown.splitlines() if line.startswith("## ")] == ["## Run"]


def test_load_run_rejects_a_summary_json_that_is_not_one(tmp_path: Path) -> None:
    shutil.copy(DATA / "eval_small" / "items.jsonl", tmp_path / "items.jsonl")
    (tmp_path / "summary.json").write_text(json.dumps({"items": "many", "run": {}}))
    with pytest.raises(UsageError, match="not an evaluation summary: items"):
        load_run(tmp_path)
    (tmp_path / "summary.json").write_text("{not json")
    with pytest.raises(UsageError, match="not an evaluation summary"):
        load_run(tmp_path)
    (tmp_path / "summary.json").unlink()
    assert load_run(tmp_path).summary.run == EvalRunInfo()
