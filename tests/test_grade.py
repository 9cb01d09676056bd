"""prin-guard grade, the local engine: formats, bad rows, resume, Ctrl-C, the summary."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from prin_guard import Guard, UsageError
from prin_guard.cli import main
from prin_guard.grade import columns, count_rows, grade, read_rows, verdict_row
from prin_guard.grade._progress import GradeProgress
from prin_guard.grade._summary import GradeStats
from prin_guard.judges import JudgeResponse
from prin_guard.models import Usage

ROOT = Path(__file__).resolve().parents[1]

# Direct: A; reverse: every other label, so every verdict is consistent; a question
# with "WRONG" gets a reverse answer naming A too (inconsistent). Every call is
# appended to the file GRADE_CALLS names (one line per call), across processes.
JUDGE_MODULE = """
import asyncio, os, re

def _record(prompt):
    path = os.environ.get("GRADE_CALLS")
    if path:
        with open(path, "a") as f:
            f.write(str(hash(prompt)) + "\\n")

async def judge(prompt):
    _record(prompt)
    await asyncio.sleep(float(os.environ.get("GRADE_DELAY", "0")))
    labels = re.findall(r'^"([A-Z])\\)', prompt, flags=re.M) or re.findall(r'"([A-Z])\\)', prompt)
    if "incorrect ones" in prompt:
        others = [l for l in labels if l != "A"] + (["A"] if "WRONG" in prompt else [])
        return "Answer: " + (", ".join(others) or "none")
    return "Answer: A"

def make():
    return judge
"""

ITEMS = [
    {"id": "q1", "question": "2 + 2?", "candidates": ["4", "5", "6"]},
    {"question": "3 + 3?", "candidates": ["6", "7"], "context": "arithmetic"},
    {"id": "q3", "question": "WRONG 1 + 1?", "candidates": ["2", "3"]},
]


@pytest.fixture
def judge_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "grade_test_judge.py").write_text(JUDGE_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "python:grade_test_judge:make"


def _write_input(path: Path, items: list[dict[str, Any]]) -> Path:
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(item) + "\n" for item in items))
    elif path.suffix == ".csv":
        with path.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", "question", "candidates", "context", "gold"])
            for item in items:
                cells = ";".join(item["candidates"])
                writer.writerow(
                    [item.get("id", ""), item["question"], cells, item.get("context", ""), "A"]
                )
    else:
        table = pa.Table.from_pylist(
            [{"id": None, "context": None, **item} for item in items],
        )
        pq.write_table(table, path)
    return path


def _read_output(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines() if line]
    if path.suffix == ".csv":
        with path.open(newline="") as handle:
            return list(csv.DictReader(handle))
    return list(pq.read_table(path).to_pylist())


# -- formats --------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("target", ["jsonl", "csv", "parquet"])
def test_every_format_in_gives_one_row_per_item_out(
    tmp_path: Path, judge_spec: str, source: str, target: str
) -> None:
    from prin_guard.judges import judge_from_spec

    given = _write_input(tmp_path / f"in.{source}", ITEMS)
    out = tmp_path / f"out.{target}"
    summary = grade(judge_from_spec(judge_spec), given, out)
    assert summary.items == 3
    assert summary.judge_calls == 6
    rows = sorted(_read_output(out), key=lambda row: int(row["line"]))
    first = 2 if source == "csv" else 1  # a CSV's line 1 is its header
    assert [int(row["line"]) for row in rows] == [first, first + 1, first + 2]
    assert rows[0]["id"] == "q1"
    assert len(rows[1]["id"]) == 12  # no id: the item's content hash
    assert rows[2]["id"] == "q3"
    if target == "csv":
        assert [row["correct"] for row in rows] == ["A", "A", ""]
        assert rows[2]["flags"] == "inconsistent;empty_verdict"
        assert rows[0]["consistent"] == "true"
    else:
        assert [row["correct"] for row in rows] == [["A"], ["A"], []]
        assert rows[2]["flags"] == ["inconsistent", "empty_verdict"]
        assert rows[0]["consistent"] is True
        assert rows[0]["score_prin"] == 0.0
    assert list(rows[0]) == list(columns())


def test_the_column_set_is_stable() -> None:
    assert list(columns()) == [
        "id",
        "line",
        "correct",
        "consistent",
        "score_prin",
        "score_order_inconsistency",
        "score_panel_agreement",
        "score_confidence",
        "flags",
        "accepted",
        "decision_score",
        "decision_rule",
        "decision_tier",
        "decision_tiers_asked",
        "judge_calls",
        "cached",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "error_kind",
        "error",
        "error_field",
    ]
    assert list(columns(with_legs=True))[-1] == "legs"


def test_with_legs_adds_every_raw_reply(tmp_path: Path, judge_spec: str) -> None:
    from prin_guard.judges import judge_from_spec

    given = _write_input(tmp_path / "in.jsonl", ITEMS[:1])
    grade(judge_from_spec(judge_spec), given, tmp_path / "out.parquet", with_legs=True)
    (row,) = _read_output(tmp_path / "out.parquet")
    assert row["legs"] == [
        {"name": "direct", "raw_text": "Answer: A"},
        {"name": "reverse", "raw_text": "Answer: B, C"},
    ]


# -- bad rows -------------------------------------------------------------------------


def test_bad_rows_are_written_as_invalid_items_with_their_line(tmp_path: Path) -> None:
    given = tmp_path / "in.jsonl"
    given.write_text(
        json.dumps(ITEMS[0])
        + "\nnot json\n[1, 2]\n\n"
        + json.dumps({"id": "empty", "question": " ", "candidates": ["a", "b"]})
        + "\n"
        + json.dumps({"question": "no candidates"})
        + "\n"
        + json.dumps(ITEMS[2])
        + "\n"
    )
    told: list[tuple[int, str]] = []
    summary = grade(
        lambda prompt: "Answer: A",
        given,
        tmp_path / "out.jsonl",
        on_invalid=lambda line, reason: told.append((line, reason)),
    )
    rows = {row["line"]: row for row in _read_output(tmp_path / "out.jsonl")}
    assert sorted(rows) == [1, 2, 3, 5, 6, 7]
    assert [line for line, _ in told] == [2, 3, 5, 6]
    assert rows[2]["id"] == "line:2" and "not JSON" in rows[2]["error"]
    assert "not an object" in rows[3]["error"]
    assert rows[5]["id"] == "empty" and rows[5]["error_field"] == "question"
    assert rows[6]["error_field"] == "candidates"
    for line in (2, 3, 5, 6):
        assert rows[line]["flags"] == ["invalid_item"]
        assert rows[line]["error_kind"] == "input"
    assert summary.items == 6 and summary.invalid == 4


def test_csv_reads_candidates_as_json_or_semicolons_and_numbers_records_by_line(
    tmp_path: Path,
) -> None:
    given = tmp_path / "in.csv"
    given.write_text(
        "question,candidates,id\n"
        '"multi\nline question",7;8;9,m\n'
        'json,"[""x; y"", {""text"": ""z"", ""label"": ""Q""}]",j\n'
        "short,only-one-field\n"
        'broken,"[not json",b\n'
    )
    rows = list(read_rows(given))
    assert [row.line for row in rows] == [2, 4, 5, 6]
    assert rows[0].fields == {
        "question": "multi\nline question",
        "candidates": ["7", "8", "9"],
        "id": "m",
    }
    assert rows[1].fields is not None
    assert rows[1].fields["candidates"] == ["x; y", {"text": "z", "label": "Q"}]
    assert rows[2].error is not None and "2 fields" in rows[2].error
    assert rows[3].field == "candidates" and rows[3].item_id == "b"
    assert count_rows(given) == 4


def test_a_csv_without_the_required_columns_is_refused(tmp_path: Path) -> None:
    given = tmp_path / "in.csv"
    given.write_text("prompt,answers\nx,y\n")
    with pytest.raises(UsageError, match="no question, candidates column"):
        list(read_rows(given))


# -- resume -----------------------------------------------------------------------------


def test_a_rerun_skips_what_is_written_and_redoes_a_cut_row(tmp_path: Path) -> None:
    calls: list[str] = []

    def judge(prompt: str) -> str:
        calls.append(prompt)
        return "Answer: A"

    items = [{"id": f"i{n}", "question": f"{n}?", "candidates": ["a", "b"]} for n in range(5)]
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"
    grade(judge, given, out, cache=None)
    assert len(calls) == 10
    text = out.read_text()
    out.write_text(text[: text.rindex('"line"')])  # the last row cut short by a kill
    summary = grade(judge, given, out, cache=None)
    assert summary.skipped == 4 and summary.items == 1
    assert len(calls) == 12  # only the cut row was judged again
    assert sorted(row["id"] for row in _read_output(out)) == [f"i{n}" for n in range(5)]


def test_a_parquet_run_killed_before_closing_resumes_from_its_journal(tmp_path: Path) -> None:
    items = [{"id": f"i{n}", "question": f"{n}?", "candidates": ["a", "b"]} for n in range(4)]
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.parquet"
    grade(lambda prompt: "Answer: A", given, out)
    journal = tmp_path / "out.parquet.partial.jsonl"
    # a second run that died after writing one row to its journal
    new = {"id": "new", "question": "n?", "candidates": ["a", "b"]}
    late = {"id": "late", "question": "l?", "candidates": ["a", "b"]}
    _write_input(given, [*items, new, late])
    row = verdict_row(Guard(lambda prompt: "Answer: A").check(new), line=5)
    journal.write_text(json.dumps(row) + "\n")
    summary = grade(lambda prompt: "Answer: A", given, out)
    assert summary.skipped == 5 and summary.items == 1
    assert not journal.exists()
    assert sorted(r["id"] for r in _read_output(out)) == ["i0", "i1", "i2", "i3", "late", "new"]


def test_an_output_with_other_columns_is_refused(tmp_path: Path) -> None:
    given = _write_input(tmp_path / "in.jsonl", ITEMS[:1])
    out = tmp_path / "out.jsonl"
    grade(lambda prompt: "Answer: A", given, out)
    with pytest.raises(UsageError, match="other columns"):
        grade(lambda prompt: "Answer: A", given, out, with_legs=True)


def _cli(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "prin_guard.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_writes_what_is_done_exits_130_and_a_rerun_judges_nothing_twice(
    tmp_path: Path,
) -> None:
    (tmp_path / "grade_test_judge.py").write_text(JUDGE_MODULE)
    items = [{"id": f"i{n}", "question": f"{n} + 1?", "candidates": ["a", "b"]} for n in range(200)]
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"
    calls = tmp_path / "calls.txt"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "GRADE_CALLS": str(calls),
        "GRADE_DELAY": "0.02",
    }
    args = ["grade", str(given), "--out", str(out), "--judge", "python:grade_test_judge:make",
            "--concurrency", "8", "--no-progress"]  # fmt: skip
    first = _cli(*args, env=env)
    deadline = time.monotonic() + 60
    while (not out.exists() or len(out.read_text().splitlines()) < 100) and first.poll() is None:
        assert time.monotonic() < deadline, "the first run wrote too few rows"
        time.sleep(0.02)
    first.send_signal(signal.SIGINT)
    stdout, stderr = first.communicate(timeout=60)
    assert first.returncode == 130, stderr
    assert "interrupted" in stdout and "finishing the items in flight" in stderr
    written = len(_read_output(out))
    assert 100 <= written < 200
    assert len(calls.read_text().splitlines()) == 2 * written  # the items in flight finished

    second = _cli(*args, "--json", env=env)
    stdout, stderr = second.communicate(timeout=120)
    assert second.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["skipped"] == written and summary["items"] == 200 - written
    recorded = Counter(calls.read_text().splitlines())
    assert len(recorded) == 400 and set(recorded.values()) == {1}  # no leg judged twice
    assert sorted(row["id"] for row in _read_output(out)) == sorted(i["id"] for i in items)


# -- summary and progress ---------------------------------------------------------------


class _Costly:
    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "costly"}

    async def complete(self, messages: Any, *, labels: Any = ()) -> JudgeResponse:
        text = "Answer: B" if "incorrect" in messages[-1]["content"] else "Answer: A"
        usage = Usage(prompt_tokens=100, completion_tokens=5, cost_usd=0.001)
        return JudgeResponse(text=text, usage=usage)


def test_the_summary_counts_calls_tokens_cost_and_flags(tmp_path: Path) -> None:
    given = _write_input(tmp_path / "in.jsonl", ITEMS)
    guard = Guard(_Costly())
    first = grade(guard, given, tmp_path / "a.jsonl")
    assert first.judge_calls == 6
    assert (first.prompt_tokens, first.completion_tokens) == (600, 30)
    assert first.cost_usd == pytest.approx(0.006)
    assert first.flag_counts == {"inconsistent": 1}  # "B" alone is wrong for three candidates
    # the same guard again, into another file: every answer from its cache, no cost now
    again = grade(guard, given, tmp_path / "b.jsonl")
    assert again.judge_calls == 0 and again.cost_usd == 0
    assert all(row["cached"] for row in _read_output(tmp_path / "b.jsonl"))


def test_the_cli_prints_the_summary_and_reports_bad_rows_by_line(
    tmp_path: Path, judge_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    given = tmp_path / "in.jsonl"
    given.write_text(json.dumps(ITEMS[0]) + "\n{oops\n" + json.dumps(ITEMS[2]) + "\n")
    out = tmp_path / "out.csv"
    assert main(["grade", str(given), "--out", str(out), "--judge", judge_spec]) == 0
    captured = capsys.readouterr()
    assert "prin-guard: line 2: the line is not JSON" in captured.err
    assert "graded 3 items" in captured.out
    assert "flagged 66.7%: " in captured.out
    for flag in ("inconsistent", "empty_verdict", "invalid_item"):
        assert f"{flag} 33.3%" in captured.out
    assert "judge calls 4" in captured.out


def test_progress_shows_eta_rate_and_flag_rate_of_what_is_left(tmp_path: Path) -> None:
    import io

    stats = GradeStats()
    stream = io.StringIO()
    progress = GradeProgress(6, stats, stream=stream)
    progress.already_done(2)  # a resumed run: two rows of six are in the output
    for flags in (["inconsistent"], [], [], []):
        stats.add({"flags": flags, "error_kind": None})
        progress.update()
    progress.close()
    line = stream.getvalue().splitlines()[-1]
    assert line.startswith("[4/4] 100%")
    assert "ETA 0s" in line and "items/s" in line and "flagged 25.0%" in line


def test_the_ray_engine_needs_a_shared_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = _write_input(tmp_path / "in.jsonl", ITEMS)
    args = ["grade", str(given), "--out", str(tmp_path / "out"), "--engine", "ray"]
    assert main([*args, "--cache", "sqlite"]) == 2
    assert "redis://" in capsys.readouterr().err


def test_a_decision_fills_the_acceptance_columns_and_the_summary() -> None:
    from prin_guard.models import Decision, Flag, Verdict

    decision = Decision(accepted=False, score=0.4, rule="prin <= 0.2", tier=1, tiers_asked=2)
    verdict = Verdict(
        item_id="x", labels=("A", "B"), correct=("A",), flags=(Flag.NOT_ACCEPTED,),
        decision=decision,
    )  # fmt: skip
    row = verdict_row(verdict, line=3)
    assert {key: row[key] for key in row if key == "accepted" or key.startswith("decision_")} == {
        "accepted": False,
        "decision_score": 0.4,
        "decision_rule": "prin <= 0.2",
        "decision_tier": 1,
        "decision_tiers_asked": 2,
    }
    stats = GradeStats()
    stats.add(row, verdict)
    stats.add(verdict_row(verdict.model_copy(update={"decision": None, "flags": ()}), line=4))
    summary = stats.summary("out.jsonl")
    assert (summary.accepted, summary.flagged, summary.flag_counts) == (0, 1, {"not_accepted": 1})
