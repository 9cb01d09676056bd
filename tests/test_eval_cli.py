"""`prin-guard eval` and `prin-guard report` end to end: the real CLI in a
subprocess, judging through litellm against the scripted OpenAI-compatible server
(fast, deterministic), and once against the real bundled model."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fault_server import Behaviour, FaultServer, RecordedRequest, ok

from prin_guard.datasets import Problem
from prin_guard.eval._pool import final_answer, pool_item, same_answer

FAST = ["--analyses", "none", "--methods", "direct,reverse,synergy", "--mitigation", "none"]


def _responder(request: RecordedRequest) -> Behaviour:
    return ok("Answer: B, C, D, E" if request.is_reverse else "Answer: A")


def _cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env=env,
        check=False,
    )


def _main(
    *args: str, cwd: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """The command line in this process (exit code, stdout, stderr): for what does not
    need a process of its own (the other tests here run it as a user does)."""
    from prin_guard.cli import main

    monkeypatch.chdir(cwd)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_writes_all_four_files_and_a_readable_summary(tmp_path: Path) -> None:
    with FaultServer(_responder) as server:
        out = _cli(
            "eval",
            "mathqa",
            "--limit",
            "4",
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            "memory",
            "--out",
            "run",
            *FAST,
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        assert len(server.chat_requests) == 8
    run = tmp_path / "run"
    for name in ("items.jsonl", "summary.json", "report.md", "report.html"):
        assert (run / name).is_file(), name
    summary = json.loads((run / "summary.json").read_text())
    assert summary["items_judged"] == 4
    assert summary["configs"]["none"]["prin"] == 0.0
    assert "synergy" in out.stdout and "report:" in out.stdout
    html = (run / "report.html").read_text()
    assert "data:image/png;base64," in html


def test_rerun_resumes_from_the_sqlite_cache_without_judge_calls(tmp_path: Path) -> None:
    with FaultServer(_responder) as server:
        args = [
            "eval",
            "mathqa",
            "--limit",
            "3",
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            str(tmp_path / "c.sqlite3"),
            *FAST,
        ]
        assert _cli(*args, "--out", "a", cwd=tmp_path).returncode == 0
        first = len(server.chat_requests)
        assert _cli(*args, "--out", "b", cwd=tmp_path).returncode == 0
        assert len(server.chat_requests) == first
    summary = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert summary["cost"]["judge_calls"] == 0


def test_eval_of_pairs_skips_the_multiple_choice_analyses_with_a_note(tmp_path: Path) -> None:
    def first_is_better(request: RecordedRequest) -> Behaviour:
        return ok("Answer: B" if "please output the worse one." in request.prompt else "Answer: A")

    with FaultServer(first_is_better) as server:
        out = _cli(
            "eval",
            "llmbar",
            "--limit",
            "3",
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            "memory",
            "--out",
            "run",
            "--analyses",
            "paraphrase",
            "--mitigation",
            "none",
            "--checks",
            "reverse,order",
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        assert len(server.chat_requests) == 3 * 4  # both questions, in both orders
    assert "self_consistency not measured (choice only: " in out.stderr
    assert "paraphrase not measured (choice only: " in out.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["task"] == "pairwise"
    assert set(summary["run"]["not_measured"]) == {"self_consistency", "paraphrase"}
    # output 1 is the better one in natural-0..2, and this judge names the first shown:
    # right in the item's order, and every answer moves with the swap
    assert summary["pairwise"]["winner_accuracy"] == 1.0
    assert summary["pairwise"]["first_shown_wins"] == 1.0
    assert summary["checks"]["flag_quality"]["order_sensitive"]["share_flagged"] == 1.0


def test_eval_checks_order_asks_the_base_verdict_again_and_reports_it(tmp_path: Path) -> None:
    with FaultServer(_responder) as server:
        out = _cli(
            "eval",
            "mathqa",
            "--limit",
            "3",
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            "memory",
            "--out",
            "run",
            "--checks",
            "reverse,order",
            "--min-confidence",
            "0.7",
            *FAST,
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        # direct and reverse, then both again in the second order
        assert len(server.chat_requests) == 3 * 4
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    options = summary["run"]["config"]["options"]
    assert (options["checks"], options["min_confidence"]) == (["reverse", "order"], 0.7)
    checks = summary["checks"]
    # the judge always names the option shown first: in the second order that is
    # another candidate, so every verdict is order-sensitive
    assert checks["order"]["inconsistency"] == 1.0
    assert checks["position_bias"]["direct_permuted"]["first_shown"] == 1.0
    assert checks["position_bias"]["direct_permuted"]["item_first"] == 0.0
    assert set(checks["flag_quality"]) >= {"inconsistent", "order_sensitive", "any"}
    markdown = (tmp_path / "run" / "report.md").read_text()
    assert "## Position bias" in markdown and "## Flag quality by signal" in markdown


def test_eval_rejects_an_unknown_check(tmp_path: Path) -> None:
    out = _cli("eval", "mathqa", "--checks", "reverse,vibes", *FAST, cwd=tmp_path)
    assert out.returncode == 2
    assert "checks" in out.stderr and "vibes" in out.stderr


def test_ctrl_c_writes_what_is_done_and_exits_cleanly(tmp_path: Path) -> None:
    def slow(request: RecordedRequest) -> Behaviour:
        return Behaviour(**{**_responder(request).__dict__, "delay": 0.4})

    with FaultServer(slow) as server:
        env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "prin_guard.cli",
                "eval",
                "mathqa",
                "--limit",
                "40",
                "--concurrency",
                "1",
                "--judge",
                "openai/test",
                "--api-base",
                server.base_url,
                "--cache",
                "memory",
                "--out",
                "run",
                *FAST,
            ],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        items = tmp_path / "run" / "items.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if items.is_file() and len(items.read_text().splitlines()) >= 2:
                break
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["run"]["partial"] is True
    assert 2 <= summary["items_judged"] < 40
    assert (tmp_path / "run" / "report.html").is_file()
    assert "partial run" in stdout


def test_malformed_rows_are_reported_and_the_run_continues(tmp_path: Path) -> None:
    data = tmp_path / "mine.jsonl"
    good = {"question": "2 + 2?", "candidates": ["4", "5"], "gold": "A"}
    data.write_text("\n".join([json.dumps(good), "{oops", json.dumps(good | {"id": "x"})]) + "\n")
    with FaultServer(_responder) as server:
        out = _cli(
            "eval",
            str(data),
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            "memory",
            "--out",
            "run",
            *FAST,
            cwd=tmp_path,
        )
    assert out.returncode == 0, out.stderr
    assert "skipped row at line 2" in out.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["items_judged"] == 2
    assert summary["run"]["skipped_rows"][0]["line"] == 2


def test_unknown_dataset_and_missing_file_list_what_is_available(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A litellm judge, never called: the default (the bundled model) is loaded before
    # the dataset is looked at, which costs seconds and makes a test a `model` one.
    judge = ("--judge", "openai/test", "--api-base", "http://127.0.0.1:9/v1")
    here = {"cwd": tmp_path, "monkeypatch": monkeypatch, "capsys": capsys}
    code, _, err = _main("eval", "nosuchset", *judge, **here)
    assert code == 2
    assert "available: mathqa, aqua-rat" in err
    code, _, err = _main("eval", "mathqa", "--path", "missing.jsonl", *judge, **here)
    assert code == 2
    assert "no such file" in err


def test_report_command_compares_two_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = {"cwd": tmp_path, "monkeypatch": monkeypatch, "capsys": capsys}
    with FaultServer(_responder) as server:
        for name in ("a", "b"):
            code, _, err = _main(
                "eval",
                "mathqa",
                "--limit",
                "2",
                "--judge",
                "openai/test",
                "--api-base",
                server.base_url,
                "--cache",
                "memory",
                "--out",
                name,
                "--name",
                f"judge-{name}",
                *FAST,
                **here,
            )
            assert code == 0, err
    code, _, err = _main("report", "a", "b", "--out", "cmp", **here)
    assert code == 0, err
    markdown = (tmp_path / "cmp" / "report.md").read_text()
    assert "judge-a" in markdown and "judge-b" in markdown


# -- candidate pools ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("solution", "answer"),
    [
        pytest.param("3 + 4 = 7\nAnswer: 7", "7", id="answer-line"),
        pytest.param("so it costs $1,250.\n**Answer:** $1,250.", "1,250", id="markdown-money"),
        pytest.param("The total is 18 apples, then 20.", "20", id="last-number"),
        pytest.param("Answer: \\boxed{\\frac{1}{2}}", "\\frac{1}{2}", id="boxed"),
        pytest.param("no numbers here", None, id="nothing"),
    ],
)
def test_final_answer(solution: str, answer: str | None) -> None:
    assert final_answer(solution) == answer


def test_same_answer_compares_numbers_as_numbers() -> None:
    assert same_answer("$1,250", "1250")
    assert same_answer("7.0", "7")
    assert same_answer("1/2", "0.5")
    assert not same_answer("7", "8")
    assert same_answer("Yes", "yes")


def test_pool_keeps_distinct_answers_with_their_reasoning_and_marks_gold() -> None:
    problem = Problem(question="3 + 4?", answer="7", id="p1", line=1)
    item = pool_item(problem, ["3+4=7\nAnswer: 7", "Answer: 8", "It is 7.0\nAnswer: 7.0", None])
    assert not isinstance(item, str)
    assert [c.text for c in item.item.candidates] == ["7", "8"]
    assert item.item.candidates[0].reasoning == "3+4=7\nAnswer: 7"
    assert item.gold == ("A",)
    reason = pool_item(problem, ["Answer: 7", "Answer: 7.0"])
    assert reason == "the generator gave 1 distinct answer(s) in 2 samples"


def test_eval_builds_pools_for_problem_datasets(tmp_path: Path, shared_data: Path) -> None:
    by_seed = ["Answer: 18", "Answer: 20", "Answer: 18", "Answer: 9", "Answer: 18"]

    def responder(request: RecordedRequest) -> Behaviour:
        if "Solve the following problem" in request.prompt:
            return ok(by_seed[request.body["seed"]])  # sample i is asked with seed i
        return _responder(request)

    with FaultServer(responder) as server:
        out = _cli(
            "eval",
            "gsm8k",
            "--path",
            str(shared_data / "gsm8k" / "test.jsonl"),
            "--generate-pool",
            "5",
            "--limit",
            "2",
            "--judge",
            "openai/test",
            "--api-base",
            server.base_url,
            "--cache",
            "memory",
            "--out",
            "run",
            *FAST,
            cwd=tmp_path,
        )
    assert out.returncode == 0, out.stderr
    rows = [
        json.loads(line) for line in (tmp_path / "run" / "items.jsonl").read_text().splitlines()
    ]
    assert len(rows) == 2
    assert all(len(r["labels"]) >= 2 for r in rows)
    # distinct answers in sample order: 18 (A), 20 (B), 9 (C); GSM8K's first answer is 18,
    # its second is 3 (no candidate is right: an empty gold set, as pools may have)
    by_line = {r["line"]: r for r in rows}
    assert by_line[1]["labels"] == ["A", "B", "C"]
    assert by_line[1]["gold"] == ["A"]
    assert by_line[2]["gold"] == []


@pytest.mark.model
def test_real_eval_of_the_bundled_model_writes_a_report(tmp_path: Path) -> None:
    out = _cli(
        "eval",
        "mathqa",
        "--limit",
        "5",
        "--mitigation",
        "neg-exp",
        "--cache",
        "memory",
        "--out",
        "run",
        cwd=tmp_path,
        timeout=1200,
    )
    assert out.returncode == 0, out.stderr
    run = tmp_path / "run"
    for name in ("items.jsonl", "summary.json", "report.md", "report.html"):
        assert (run / name).is_file(), name
    html = (run / "report.html").read_text()
    summary = json.loads((run / "summary.json").read_text())
    # the bundled model returns log-probabilities, so confidence is a measured score and
    # the report adds its coverage-by-signal plot to the four of every run
    assert summary["checks"]["confidence"]["legs"] > 0
    assert html.count("data:image/png;base64,") == 5
    assert summary["items_judged"] == 5
    assert set(summary["configs"]) == {"none", "neg_exp"}
    assert 0.0 <= summary["configs"]["none"]["prin"] <= 1.0
