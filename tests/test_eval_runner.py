"""The evaluation runner, summary and report, on a scripted judge with answers
small enough to compute every metric by hand."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from prin_guard import UsageError
from prin_guard.cache import MemoryCache, SQLiteCache
from prin_guard.datasets import LabeledItem, load_jsonl
from prin_guard.eval import EvalConfig, EvalSummary
from prin_guard.eval._report import Run, load_run, write_report
from prin_guard.eval._run import run_eval, subsample_options
from prin_guard.eval._summary import summarize
from prin_guard.judges import ScriptedJudge

NEGATIVE = ("incorrect", "wrong", "inappropriate", "inaccurate", "invalid")

# question -> (direct reply, reverse reply, sampled direct replies by seed)
SCRIPT: dict[str, tuple[str, str, list[str]]] = {
    # consistent and right
    "q1": (
        "Answer: A",
        "Answer: B, C",
        ["Answer: A", "Answer: A", "Answer: B", "Answer: B", "Answer: B"],
    ),
    # contradiction: direct A, reverse implies B (gold B)
    "q2": ("Answer: A", "Answer: A, C", ["Answer: B"] * 5),
}


def _question(prompt: str) -> str:
    # the question sits in a fenced block under "Given this question"
    match = re.search(r"Given this question\s+`{3,}\n(q\d)", prompt)
    assert match, prompt
    return match.group(1)


def _is_reverse(prompt: str) -> bool:
    asked = re.findall(r"please output the (\w+) ones\.", prompt)
    return asked[-1] in NEGATIVE


def _reply(prompt: str) -> str:
    direct, reverse, _ = SCRIPT[_question(prompt)]
    return reverse if _is_reverse(prompt) else direct


def _sampled(prompt: str, seed: int) -> str:
    # self-consistency samples use seeds 0..4, repeats 1000 and up
    direct, reverse, samples = SCRIPT[_question(prompt)]
    if _is_reverse(prompt):
        return reverse
    return samples[seed] if seed < len(samples) else direct


def _records(tmp_path: Path) -> list[LabeledItem]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "input.jsonl"
    rows = [
        {"id": "i1", "question": "q1", "candidates": ["x", "y", "z"], "gold": ["A"]},
        {"id": "i2", "question": "q2", "candidates": ["x", "y", "z"], "gold": "B"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return list(load_jsonl(path))


def _run(
    tmp_path: Path, config: EvalConfig, cache: Any = None, judge: ScriptedJudge | None = None
) -> tuple[dict[str, Any], ScriptedJudge]:
    judge = judge or ScriptedJudge(fn=_reply, sampled=_sampled)
    out = tmp_path / "run"
    stats = asyncio.run(
        run_eval(
            judge,
            _records(tmp_path),
            config,
            items_path=out / "items.jsonl",
            cache=cache if cache is not None else MemoryCache(),
        )
    )
    records = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    summary = summarize(records, run={"config": stats["config"], **stats})
    return summary.model_dump(mode="json"), judge


def test_hand_computed_metrics(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=(), analyses=("randomness",))
    summary, judge = _run(tmp_path, config)
    base = summary["configs"]["none"]
    # q1: PRIN 0; q2: 1 − F1({A}, {B}) = 1
    assert base["prin"] == pytest.approx(0.5)
    assert base["consistent_rate"] == pytest.approx(0.5)
    assert base["methods"]["direct"]["accuracy"] == pytest.approx(0.5)
    assert base["methods"]["reverse"]["accuracy"] == pytest.approx(1.0)
    assert base["methods"]["synergy"]["accuracy"] == pytest.approx(0.5)
    # self-consistency: q1 votes A:2 B:3 -> {B} (wrong); q2 B:5 -> {B} (right)
    assert summary["self_consistency"]["accuracy"] == pytest.approx(0.5)
    # randomness: q1 two distinct answers in five, q2 one -> (0.4 + 0.2) / 2
    assert summary["randomness_inconsistency"] == pytest.approx(0.3)
    # flags: only q2 is flagged inconsistent, and it is wrong
    quality = summary["flag_quality"]
    assert quality["inconsistent_flag"]["error_rate_flagged"] == pytest.approx(1.0)
    assert quality["inconsistent_flag"]["error_rate_unflagged"] == pytest.approx(0.0)
    assert quality["auroc_prin_predicts_wrong"] == pytest.approx(1.0)
    assert [(p["threshold"], p["coverage"], p["accuracy"]) for p in quality["coverage_curve"]] == [
        (0.0, 0.5, 1.0),
        (1.0, 1.0, 0.5),
    ]
    # 2 items x (2 legs + 5 samples)
    assert summary["cost"]["judge_calls"] == 14
    assert judge.call_count == 14


def test_every_mitigation_combination_and_paraphrase_and_options(tmp_path: Path) -> None:
    config = EvalConfig(
        dataset="toy", methods=("direct", "reverse", "synergy"), analyses=("paraphrase", "options")
    )
    summary, judge = _run(tmp_path, config)
    assert list(summary["configs"]) == ["none", "cot", "neg_exp", "cot+neg_exp"]
    assert summary["prin_by_template"] == {"v0": 0.5, "v1": 0.5, "v2": 0.5}
    # q1 direct answers are A under all five paraphrases; q2 too: one distinct each
    assert summary["paraphrase_inconsistency"] == pytest.approx(0.2)
    assert set(summary["prin_by_option_count"]) == {"2", "3"}
    assert summary["prin_by_option_count"]["3"]["items"] == 2
    # 4 configs x 2 legs + v1, v2 (2 legs) + v3, v4 (1 leg) + one 2-option verdict (2 legs)
    assert judge.call_count == 2 * (8 + 4 + 2 + 2)


def test_option_subsamples_keep_the_gold_and_are_reproducible() -> None:
    from prin_guard import Item

    record = LabeledItem(
        item=Item(question="q", candidates=["a", "b", "c", "d", "e"], id="x"), gold=("D",), line=1
    )
    first = subsample_options(record, 3, seed=7)
    again = subsample_options(record, 3, seed=7)
    assert first is not None and again is not None
    item, gold = first
    assert item == again[0] and gold == again[1]
    assert len(item.candidates) == 3 and item.labels == ("A", "B", "C")
    assert [c.text for c in item.candidates if c.label in gold] == ["d"]
    assert subsample_options(record, 6, seed=7) is None


def test_results_are_deterministic_for_a_fixed_seed(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=("neg_exp",), seed=3)
    first, _ = _run(tmp_path / "a", config)
    second, _ = _run(tmp_path / "b", config)
    for summary in (first, second):
        summary.pop("run")
        summary.pop("cost")
    assert first == second


def test_rerun_resumes_from_a_persistent_cache_without_judge_calls(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=("cot",))
    db = tmp_path / "cache.sqlite3"
    first, judge = _run(tmp_path / "a", config, cache=SQLiteCache(db))
    assert judge.call_count > 0
    second, again = _run(tmp_path / "b", config, cache=SQLiteCache(db))
    assert again.call_count == 0
    assert second["cost"]["judge_calls"] == 0
    assert second["configs"] == first["configs"]


def test_judge_failure_costs_only_that_item(tmp_path: Path) -> None:
    def reply(prompt: str) -> str:
        if _question(prompt) == "q2":
            raise ValueError("provider refused")
        return _reply(prompt)

    config = EvalConfig(
        dataset="toy", mitigations=(), methods=("direct", "reverse", "synergy"), analyses=()
    )
    summary, _ = _run(tmp_path, config, judge=ScriptedJudge(fn=reply))
    assert summary["items_judged"] == 1 and summary["items_failed"] == 1
    assert "provider refused" in summary["failures"][0]["error"]
    assert summary["configs"]["none"]["methods"]["direct"]["accuracy"] == 1.0


def test_sampling_methods_need_a_sampling_judge(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=())
    with pytest.raises(UsageError, match="sample"):
        _run(tmp_path, config, judge=ScriptedJudge(fn=_reply))


def test_bad_configuration_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="methods"):
        EvalConfig(dataset="toy", methods=("vote",))
    with pytest.raises(UsageError, match="analyses"):
        EvalConfig(dataset="toy", analyses=("psychic",))
    with pytest.raises(UsageError, match="repeats"):
        EvalConfig(dataset="toy", repeats=0)


def test_report_files_and_embedded_images(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", repeats=2)
    summary, _ = _run(tmp_path, config)
    assert summary["prin_repeats"]["runs"] == 2
    run_dir = tmp_path / "run"
    (run_dir / "summary.json").write_text(json.dumps(summary))
    html_path = write_report([Run("toy", run_dir, EvalSummary.model_validate(summary))], run_dir)
    html = html_path.read_text()
    # the four figures of the paper's analyses and the coverage of the checks' signals
    assert html.count('src="data:image/png;base64,') == 5
    markdown = (run_dir / "report.md").read_text()
    for title in (
        "PRIN by mitigation",
        "Accuracy by method",
        "Position bias",
        "Flag quality by signal",
        "PRIN against the number of options",
        "Flag quality",
        "PRIN over repeated runs",
    ):
        assert f"## {title}" in markdown
    assert "| synergy | none |" in markdown


def test_report_compares_two_runs_side_by_side(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=(), analyses=())
    for name in ("a", "b"):
        summary, _ = _run(tmp_path / name, config)
        (tmp_path / name / "run" / "summary.json").write_text(
            json.dumps({**summary, "run": {**summary["run"], "name": f"judge-{name}"}})
        )
    runs = [load_run(tmp_path / name / "run") for name in ("a", "b")]
    assert [r.name for r in runs] == ["judge-a", "judge-b"]
    write_report(runs, tmp_path / "cmp")
    markdown = (tmp_path / "cmp" / "report.md").read_text()
    assert "| mitigation | PRIN judge-a | PRIN judge-b |" in markdown
    with pytest.raises(UsageError, match="not a run directory"):
        load_run(tmp_path)
