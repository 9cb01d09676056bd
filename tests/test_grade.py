"""prin-guard grade, the local engine: formats, bad rows, resume, Ctrl-C, the summary."""

from __future__ import annotations

import csv
import json
import os
import re
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

from prin_guard import Guard, GuardOptions, Item, UsageError
from prin_guard.cli import main
from prin_guard.grade import (
    GradeStats,
    columns,
    count_rows,
    grade,
    input_sha,
    read_rows,
    verdict_row,
)
from prin_guard.grade._progress import GradeProgress
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


@pytest.mark.parametrize("target", ["jsonl", "csv", "parquet"])
def test_ratings_are_graded_beside_other_items(tmp_path: Path, target: str) -> None:
    # issue 30: a rating row gets its rating column (and each leg's score in with_legs's
    # replies); a bad scale is its own invalid row naming the field
    def judge(prompt: str) -> str:
        if "how poor the response" in prompt:
            return "Rating: [[4]]" if "Lyon" in prompt else "Rating: [[3]]"
        return "Rating: [[8]]" if "capital" in prompt else "Answer: A"

    rating = {
        "task": "rating",
        "question": "The capital of France?",
        "scale": {"min": 1, "max": 10},
    }
    rows_in = [
        {**rating, "id": "r1", "response": "Paris."},
        ITEMS[0],
        {**rating, "id": "r2", "response": "Lyon."},
        {**rating, "id": "r3", "response": "Paris.", "scale": {"min": 1, "max": 1}},
        {**rating, "id": "r4", "response": "Paris.", "aspects": ["accuracy", "brevity"]},
    ]
    given = _write_input(tmp_path / "in.jsonl", rows_in)
    out = tmp_path / f"out.{target}"
    summary = grade(judge, given, out)
    assert summary.items == 5 and summary.rated == 3 and summary.mean_rating == 7.75
    rows = {row["id"]: row for row in _read_output(out)}
    aspects = rows["r4"]["aspect_ratings"]
    assert (aspects.split(";") if target == "csv" else aspects) == ["accuracy:8", "brevity:8"]
    value = (lambda v: float(v) if v != "" else None) if target == "csv" else (lambda v: v)
    assert value(rows["r1"]["rating"]) == 8.0 and rows["r1"]["task"] == "rating"
    assert value(rows["r2"]["rating"]) == 7.5  # 8 and 4 mirrored to 7: within a point
    assert value(rows["q1"]["rating"]) is None
    assert rows["r3"]["error_field"] == "scale.max" and rows["r3"]["task"] == "rating"
    assert value(rows["r1"]["score_prin"]) == 0.0
    # each leg's score (issue 39, item 7): the mirrored one as the judge gave it
    keys = ["r1", "q1", "r2", "r3", "r4"]
    legs = [(value(rows[k]["rating_direct"]), value(rows[k]["rating_mirrored"])) for k in keys]
    assert legs == [(8.0, 3.0), (None, None), (8.0, 4.0), (None, None), (None, None)]
    # a run again finds every rating row done
    again = grade(judge, given, out)
    assert again.skipped == 5


def test_ratings_from_a_csv_and_a_parquet_file(tmp_path: Path) -> None:
    # a CSV gives the scale as MIN-MAX or as JSON; a Parquet file as a struct
    def judge(prompt: str) -> str:
        return "Rating: [[2]]" if "how poor the response" in prompt else "Rating: [[4]]"

    given = tmp_path / "in.csv"
    given.write_text(
        "id,task,question,response,scale\n"
        "a,rating,Q?,An answer.,1-5\n"
        'b,rating,Q?,An answer.,"{""min"": 1, ""max"": 5, ""tolerance"": 0}"\n'
        "c,rating,Q?,An answer.,one to five\n"
    )
    grade(judge, given, tmp_path / "out.jsonl")
    rows = {row["id"]: row for row in _read_output(tmp_path / "out.jsonl")}
    assert rows["a"]["rating"] == 4.0 and rows["b"]["rating"] == 4.0
    assert rows["c"]["error_field"] == "scale" and "MIN-MAX" in rows["c"]["error"]
    table = pa.Table.from_pylist(
        [
            {"id": "p", "task": "rating", "response": "An answer.", "scale": {"min": 1, "max": 5}},
            {"id": "q", "task": "rating", "response": "An answer.", "scale": {"min": 1, "max": 5}},
        ]
    )
    pq.write_table(table, tmp_path / "in.parquet")
    grade(judge, tmp_path / "in.parquet", tmp_path / "out.parquet")
    ratings = [row["rating"] for row in _read_output(tmp_path / "out.parquet")]
    assert ratings == [4.0, 4.0]


def test_docs_grade_names_every_column_the_writer_writes() -> None:
    """Issue 39, item 7: docs/grade.md's table lacked six columns the output had. Every
    column of the writer is named in the table's first cell of some row, and no other."""
    import re

    text = (Path(__file__).parents[1] / "docs" / "grade.md").read_text(encoding="utf-8")
    table = text.split("| column | |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    named = [
        name for row in table.splitlines() for name in re.findall(r"`(\w+)`", row.split("|")[1])
    ]
    assert sorted(named) == sorted(columns(with_legs=True))


def test_the_column_set_is_stable() -> None:
    assert list(columns()) == [
        "id",
        "line",
        "input_sha",
        "task",
        "correct",
        "correct_texts",
        "winner",
        "winner_text",
        "tie",
        "score",
        "rating",
        "rating_direct",
        "rating_mirrored",
        "aspect_ratings",
        "ranking",
        "best",
        "worst",
        "statuses",
        "consistent",
        "score_prin",
        "score_order_inconsistency",
        "score_probe_move",
        "score_panel_agreement",
        "score_confidence",
        "score_direct_confidence",
        "score_legs_tau",
        "score_orders_tau",
        "score_position_bias",
        "score_tournament_tau",
        "flags",
        "accepted",
        "decision_score",
        "decision_rule",
        "decision_tier",
        "decision_tiers_asked",
        "judge_calls",
        "cached",
        "selected",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "cached_prompt_tokens",
        "cache_write_tokens",
        "saved_cost_usd",
        "premium",
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
    with pytest.raises(UsageError, match="no candidates column"):
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
    verdict = Guard(lambda prompt: "Answer: A").check(new)
    row = verdict_row(verdict, line=5, input_sha=input_sha(Item.coerce(new)))
    journal.write_text(json.dumps(row) + "\n")
    summary = grade(lambda prompt: "Answer: A", given, out)
    assert summary.skipped == 5 and summary.items == 1 and summary.changed == 0
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
    at_signal = len(out.read_text().splitlines())
    first.send_signal(signal.SIGINT)
    stdout, stderr = first.communicate(timeout=60)
    assert first.returncode == 130, stderr
    assert "interrupted" in stdout and "finishing the items in flight" in stderr
    written = len(_read_output(out))
    assert 100 <= written < 200
    # no item is started after the interrupt: only those whose calls were in flight (at
    # most 8 calls at a time) are finished, plus what was written while the signal went
    assert written - at_signal <= 2 * 8
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


# -- resume by input line (issue 20 bug 3, issue 21 item 3) -------------------------------


def _judge_counting(calls: list[str]) -> Any:
    def judge(prompt: str) -> str:
        calls.append(prompt)
        return "Answer: A"

    return judge


def test_resume_with_duplicate_ids_judges_each_line_once(tmp_path: Path) -> None:
    items = [
        {"id": "dup", "question": "first?", "candidates": ["a", "b"]},
        {"id": "dup", "question": "second?", "candidates": ["a", "b"]},
        {"id": "other", "question": "third?", "candidates": ["a", "b"]},
    ]
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"
    grade(lambda prompt: "Answer: A", given, out)
    # killed after the second `dup` row was written, the first still in flight
    rows = _read_output(out)
    out.write_text("".join(json.dumps(row) + "\n" for row in rows if row["line"] == 2))
    calls: list[str] = []
    summary = grade(_judge_counting(calls), given, out, cache=None)
    assert sorted(row["line"] for row in _read_output(out)) == [1, 2, 3]
    assert len(calls) == 4  # lines 1 and 3, two legs each
    assert (summary.skipped, summary.items, summary.changed) == (1, 2, 0)


def test_an_input_changed_since_its_row_was_written_is_told_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from structlog.testing import capture_logs

    from prin_guard.grade import summary_text

    items = [{"id": f"i{n}", "question": f"{n}?", "candidates": ["a", "b"]} for n in range(4)]
    items.append({"question": "no id?", "candidates": ["a", "b"]})
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"
    grade(lambda prompt: "Answer: A", given, out)
    before = out.read_text()
    items[1]["question"] = "1, edited?"  # same id, new content
    items[4]["question"] = "no id, edited?"  # its id (the content hash) changes too
    _write_input(given, items)
    calls: list[str] = []
    with capture_logs() as events:
        summary = grade(_judge_counting(calls), given, out)
    (warning,) = [e for e in events if e["event"] == "grade_changed_rows"]
    assert warning["lines"] == (2, 5)
    assert calls == [] and out.read_text() == before  # told, not judged again
    assert (summary.skipped, summary.items, summary.changed) == (5, 0, 2)
    assert summary.changed_lines == (2, 5)
    assert "changed since written" in summary_text(summary) and "lines 2, 5" in summary_text(
        summary
    )
    # the same rows, unchanged, resume silently
    assert grade(lambda prompt: "Answer: A", given, tmp_path / "fresh.jsonl").changed == 0


# -- outputs grade did not write are never touched (issue 21 item 1) ----------------------


def _foreign_outputs(tmp_path: Path) -> dict[str, Path]:
    given = _write_input(tmp_path / "in.jsonl", ITEMS)
    given.write_text(given.read_text().rstrip("\n"))  # no final newline
    note = tmp_path / "note.jsonl"
    note.write_text("my only notes, no final newline")
    table = tmp_path / "table.csv"
    table.write_text("name,score\nada,1")
    data = tmp_path / "data.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), data)
    return {"the input": given, "a one-line file": note, "a csv": table, "a parquet": data}


@pytest.mark.parametrize("which", ["the input", "a one-line file", "a csv", "a parquet"])
def test_an_output_grade_did_not_write_is_refused_untouched(
    tmp_path: Path, judge_spec: str, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _foreign_outputs(tmp_path)
    given, target = files["the input"], files[which]
    before = target.read_bytes()
    code = main(["grade", str(given), "--out", str(target), "--judge", judge_spec])
    assert target.read_bytes() == before
    assert code == 2
    error = capsys.readouterr().err
    assert f"prin-guard: error: output: {str(target)!r}" in error


def test_the_input_as_output_is_refused_by_name(tmp_path: Path) -> None:
    given = _write_input(tmp_path / "in.jsonl", ITEMS)
    before = given.read_bytes()
    with pytest.raises(UsageError, match="is the input file"):
        grade(lambda prompt: "Answer: A", given, given)
    assert given.read_bytes() == before


# -- one bad id does not stop the file (issue 21 item 2) ---------------------------------


def test_an_id_that_is_not_text_is_an_invalid_row_and_the_file_goes_on(tmp_path: Path) -> None:
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(
        json.dumps(ITEMS[0]) + "\n"
        '{"id": "s\\ud800", "question": "q?", "candidates": ["a", "b"]}\n'
        + json.dumps(ITEMS[2])
        + "\n"
    )
    table = tmp_path / "in.csv"
    table.write_bytes(b"id,question,candidates\nq1,2 + 2?,4;5\n\xff\xfe,q?,a;b\nq3,1 + 1?,2;3\n")
    for given, bad_line in ((jsonl, 2), (table, 3)):
        out = tmp_path / f"out-{given.suffix[1:]}.jsonl"
        summary = grade(lambda prompt: "Answer: A", given, out)
        assert (summary.items, summary.invalid) == (3, 1)
        rows = {row["line"]: row for row in _read_output(out)}
        bad = rows[bad_line]
        assert bad["id"] == f"line:{bad_line}" and bad["error_field"] == "id"
        assert bad["flags"] == ["invalid_item"] and "not valid Unicode" in bad["error"]
        again = grade(lambda prompt: "Answer: A", given, out)  # resuming reads it back
        assert (again.items, again.skipped) == (0, 3)


def test_text_that_is_not_unicode_from_a_judge_is_written_escaped(tmp_path: Path) -> None:
    given = _write_input(tmp_path / "in.jsonl", ITEMS[:1])
    for suffix in ("jsonl", "csv", "parquet"):
        out = tmp_path / f"out.{suffix}"
        grade(lambda prompt: "Answer: A \ud83d", given, out, with_legs=True)
        (row,) = _read_output(out)
        assert "\\ud83d" in str(row["legs"])


# -- Parquet's commit point (issue 21 item 4) --------------------------------------------


class _Killed(BaseException):
    """A SIGKILL, as far as the code under test can tell: nothing after it runs."""


@pytest.mark.parametrize("step", ["writing", "replace", "journal removal"])
def test_a_parquet_run_killed_at_any_step_of_its_commit_resumes_without_doubling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    items = [{"id": f"i{n}", "question": f"{n}?", "candidates": ["a", "b"]} for n in range(6)]
    given = _write_input(tmp_path / "in.jsonl", items[:3])
    out = tmp_path / "out.parquet"
    grade(lambda prompt: "Answer: A", given, out)  # three rows committed
    _write_input(given, items)

    def kill(*args: Any, **kwargs: Any) -> None:
        raise _Killed

    with monkeypatch.context() as patch:
        if step == "writing":
            patch.setattr(pq.ParquetWriter, "write_table", kill)
        elif step == "replace":
            patch.setattr(os, "replace", kill)
        else:
            unlink = Path.unlink

            def unlink_but_the_journal(self: Path, missing_ok: bool = False) -> None:
                if self.name.endswith(".partial.jsonl"):
                    raise _Killed
                unlink(self, missing_ok=missing_ok)

            patch.setattr(Path, "unlink", unlink_but_the_journal)
        with pytest.raises(_Killed):
            grade(lambda prompt: "Answer: A", given, out)
    summary = grade(lambda prompt: "Answer: A", given, out)
    assert summary.items == 0 and summary.skipped == 6
    lines = [row["line"] for row in _read_output(out)]
    assert sorted(lines) == [1, 2, 3, 4, 5, 6]
    assert not (tmp_path / "out.parquet.partial.jsonl").exists()


# -- unreadable inputs, full disks, over-long rows (issue 21 item 5) ---------------------


@pytest.mark.parametrize("damage", ["not parquet", "cut short"])
def test_a_corrupt_parquet_input_is_one_line_naming_the_file(
    tmp_path: Path, judge_spec: str, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    given = _write_input(tmp_path / "in.parquet", ITEMS)
    data = given.read_bytes()
    given.write_bytes(b"PAR1 this is not a parquet file" if damage == "not parquet" else data[:-9])
    out = tmp_path / "out.jsonl"
    assert main(["grade", str(given), "--out", str(out), "--judge", judge_spec]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"prin-guard: error: input: {str(given)!r} is not a readable Parquet")
    assert len(error.strip().splitlines()) == 1 and not out.exists()


def test_a_full_disk_is_one_line_naming_the_output(tmp_path: Path) -> None:
    import resource

    (tmp_path / "grade_test_judge.py").write_text(JUDGE_MODULE)
    items = [{"id": f"i{n}", "question": f"{n}?", "candidates": ["a", "b"]} for n in range(50)]
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"

    def small_disk() -> None:  # writing past 4 KiB fails with EFBIG, as a full disk would
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    run = subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", "grade", str(given), "--out", str(out),
         "--judge", "python:grade_test_judge:make", "--no-progress"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])},
        capture_output=True, text=True, preexec_fn=small_disk, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert (
        run.stderr.strip()
        == f"prin-guard: error: output: cannot write {str(out)!r}: File too large"
    )
    written = out.read_text().count("\n")
    assert 0 < written < 50  # what fitted is there; the row that did not is cut short
    again = grade(lambda prompt: "Answer: A", given, out)
    assert (again.skipped, again.items) == (written, 50 - written)
    assert sorted(row["line"] for row in _read_output(out)) == list(range(1, 51))


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_a_row_over_max_row_bytes_is_an_invalid_row_and_the_file_goes_on(
    tmp_path: Path, suffix: str
) -> None:
    long = {"id": "long", "question": "x" * 1100, "candidates": ["a", "b"]}
    given = _write_input(tmp_path / f"in.{suffix}", [ITEMS[0], long, ITEMS[2]])
    out = tmp_path / "out.jsonl"
    summary = grade(lambda prompt: "Answer: A", given, out, max_row_bytes=1000)
    assert (summary.items, summary.invalid) == (3, 1)
    rows = sorted(_read_output(out), key=lambda row: row["line"])
    first = 2 if suffix == "csv" else 1
    assert [row["line"] for row in rows] == [first, first + 1, first + 2]
    assert rows[1]["id"] == f"line:{first + 1}" and rows[1]["flags"] == ["invalid_item"]
    assert "bytes long; the limit is 1,000 bytes (max_row_bytes)" in rows[1]["error"]
    assert rows[2]["id"] == "q3" and rows[2]["error"] is None


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_an_over_long_row_is_streamed_past_not_held_in_memory(tmp_path: Path, suffix: str) -> None:
    import tracemalloc

    huge = {"id": "huge", "question": "y" * (16 << 20), "candidates": ["a", "b"]}
    given = _write_input(tmp_path / f"in.{suffix}", [ITEMS[0], huge, ITEMS[2]])
    tracemalloc.start()
    try:
        rows = list(read_rows(given, max_row_bytes=1 << 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [row.fields is None for row in rows] == [False, True, False]
    assert peak < 6 << 20  # a 16 MiB row read whole would take 16 MiB at least


def test_the_cli_takes_max_row_bytes(
    tmp_path: Path, judge_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    long = {"id": "long", "question": "x" * 1100, "candidates": ["a", "b"]}
    given = _write_input(tmp_path / "in.jsonl", [ITEMS[0], long])
    out = tmp_path / "out.jsonl"
    args = ["grade", str(given), "--out", str(out), "--judge", judge_spec, "--max-row-bytes"]
    assert main([*args, "1000", "--no-progress"]) == 0
    assert "prin-guard: line 2: the row is" in capsys.readouterr().err


# -- CSV injection (issue 21 item 6) -----------------------------------------------------


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text_and_read_back(
    tmp_path: Path,
) -> None:
    ids = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\tx", "'quoted", "plain"]
    items = [{"id": i, "question": f"{n}?", "candidates": ["a", "b"]} for n, i in enumerate(ids)]
    items.append({"id": "bad", "question": "", "candidates": ["a", "b"]})
    given = _write_input(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.csv"
    grade(lambda prompt: "Answer: A" if "incorrect" not in prompt else "Answer: B", given, out)
    rows = {int(row["line"]): row for row in _read_output(out)}
    assert [rows[n + 1]["id"] for n in range(len(ids))] == [
        "'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "'\tx", "''quoted", "plain",
    ]  # fmt: skip
    assert rows[1]["score_prin"] == "0.0" and rows[1]["line"] == "1"  # numbers as they are
    with out.open(newline="") as handle:
        for record in list(csv.reader(handle))[1:]:
            assert not record[0].startswith(("=", "+", "-", "@", "\t", "\r"))
    again = grade(lambda prompt: "Answer: A", given, out)  # resuming matches the ids
    assert (again.items, again.skipped, again.changed) == (0, 8, 0)


def test_a_negative_score_in_a_csv_stays_a_number() -> None:
    from prin_guard.grade._rows import csv_value

    assert csv_value("score_prin", -0.5) == -0.5
    assert csv_value("decision_score", -1.0) == -1.0
    assert csv_value("decision_rule", "-prin <= 0.2") == "'-prin <= 0.2"


def test_pairwise_and_checklist_rows_name_the_winner_the_score_and_each_status(
    tmp_path: Path,
) -> None:
    def judge(prompt: str) -> str:
        if "please output the better one" in prompt:
            return "Answer: B"
        if "please output the worse one" in prompt:
            return "Answer: A"
        if "criteria it meets" in prompt:
            return "Answer: A, C"
        return "Answer: B"

    given = tmp_path / "in.jsonl"
    given.write_text(
        "\n".join(
            json.dumps(row)
            for row in (
                {"task": "pairwise", "question": "Say hi.", "candidates": ["hi", "hello!"]},
                {
                    "task": "checklist",
                    "response": "Paris is the capital.",
                    "candidates": [{"text": "Names Paris", "weight": 2}, "Is long", "Is true"],
                },
            )
        )
        + "\n"
    )
    for target in ("jsonl", "csv"):
        out = tmp_path / f"out.{target}"
        grade(judge, given, out)
        pair, checklist = sorted(_read_output(out), key=lambda row: int(row["line"]))
        if target == "csv":
            assert (pair["task"], pair["winner"], pair["winner_text"], pair["tie"]) == (
                "pairwise", "B", "hello!", "false"
            )  # fmt: skip
            assert pair["statuses"] == "A:worse;B:better"
            assert (checklist["correct_texts"], checklist["score"]) == (
                "Names Paris;Is true",
                "0.75",
            )
            continue
        assert (pair["task"], pair["winner"], pair["winner_text"], pair["tie"]) == (
            "pairwise", "B", "hello!", False
        )  # fmt: skip
        assert pair["statuses"] == ["A:worse", "B:better"]
        assert pair["score"] is None
        assert checklist["correct"] == ["A", "C"]
        assert checklist["correct_texts"] == ["Names Paris", "Is true"]
        assert checklist["score"] == 0.75  # (2 + 1) / (2 + 1 + 1)
        assert checklist["statuses"] == ["A:met", "B:failed", "C:met"]
        assert checklist["winner"] is None and checklist["tie"] is None


def _strict_json(line: str) -> Any:
    """A JSON value as any JSON parser reads it: NaN and Infinity are not JSON."""

    def refuse(word: str) -> Any:
        raise ValueError(f"{word} is not JSON")

    return json.loads(line, parse_constant=refuse)


def test_checklist_weights_of_1e308_score_the_share_met_and_write_json(tmp_path: Path) -> None:
    def judge(prompt: str) -> str:
        return "Answer: A" if "criteria it meets" in prompt else "Answer: B"

    def every(prompt: str) -> str:
        return "Answer: A, B, C" if "criteria it meets" in prompt else "Answer: none"

    given = tmp_path / "in.jsonl"
    huge = [{"text": text, "weight": 1e308} for text in ("Is short", "Is polite", "Is true")]
    _write_input(
        given,
        [
            {"id": "half", "task": "checklist", "response": "ok", "candidates": huge[:2]},
            {"id": "all", "task": "checklist", "response": "ok", "candidates": huge},
        ],
    )
    half, out = tmp_path / "half.jsonl", tmp_path / "all.jsonl"
    grade(judge, given, half)
    grade(every, given, out)
    # 1e308 + 1e308 overflows: the score was 1e308 / inf = 0.0, and inf / inf a bare NaN
    (first, _) = [_strict_json(line) for line in half.read_text().splitlines()]
    assert first["score"] == 0.5
    (_, second) = [_strict_json(line) for line in out.read_text().splitlines()]
    assert second["score"] == 1.0


def test_rows_that_do_not_fit_the_template_are_invalid_rows_and_a_rerun_changes_nothing(
    tmp_path: Path,
) -> None:
    calls: list[str] = []

    def judge(prompt: str) -> str:
        calls.append(prompt)
        # "hi" is better, wherever it is shown (a pair is asked in both orders)
        better, worse = ("A", "B") if "Response A:\n```\nhi\n" in prompt else ("B", "A")
        return f"Answer: {better}" if "better one" in prompt else f"Answer: {worse}"

    given = tmp_path / "mixed.jsonl"
    _write_input(
        given,
        [
            {"id": "c1", "question": "2 + 2?", "candidates": ["4", "5"]},
            {"id": "p1", "task": "pairwise", "question": "Say hi.", "candidates": ["hi", "bye"]},
            {"task": "checklist", "response": "Paris.", "candidates": ["Names Paris"]},
            {"question": "3 + 3?", "candidates": ["6", "7"]},
        ],
    )
    out = tmp_path / "out.jsonl"
    told: list[tuple[int, str]] = []
    options = GuardOptions(template="pairwise")
    first = grade(
        judge, given, out, options=options, on_invalid=lambda n, why: told.append((n, why))
    )
    rows = {row["line"]: row for row in _read_output(out)}
    # each keeps its own id (or its line) and task, and says why: not "#0" of "choice"
    assert [(rows[n]["id"], rows[n]["task"], rows[n]["flags"]) for n in (1, 2, 3, 4)] == [
        ("c1", "choice", ["invalid_item"]),
        ("p1", "pairwise", []),
        ("line:3", "checklist", ["invalid_item"]),
        ("line:4", "choice", ["invalid_item"]),
    ]
    assert [line for line, _ in told] == [1, 3, 4]
    assert all("template 'pairwise'" in why for _, why in told)
    assert rows[3]["error_field"] == "task"
    assert (first.invalid, len(calls)) == (3, 4)  # the pair's 2 legs, swapped too
    again = grade(judge, given, out, options=options)
    assert (again.items, again.skipped, again.changed, len(calls)) == (0, 4, 0, 4)


def test_an_invalid_row_carries_the_task_it_says_it_has(tmp_path: Path) -> None:
    given = tmp_path / "in.jsonl"
    given.write_text(
        "\n".join(
            [
                json.dumps({"task": "pairwise", "question": "Hi?", "candidates": ["a", "b", "c"]}),
                json.dumps({"task": " Checklist", "candidates": ["met"]}),  # no response
                json.dumps({"question": " ", "candidates": ["a", "b"]}),
                json.dumps({"task": "ranking", "question": "Hi?", "candidates": ["a", "b"]}),
                json.dumps({"task": "sorting", "question": "Hi?", "candidates": ["a", "b"]}),
                "not json",
            ]
        )
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    grade(lambda prompt: "Answer: A", given, out)
    rows = sorted(_read_output(out), key=lambda row: row["line"])
    tasks = ["pairwise", "checklist", "choice", "ranking", None, None]
    assert [row["task"] for row in rows] == tasks
    assert all(row["flags"] == ["invalid_item"] for row in rows)


def test_input_hashes_and_keys_are_the_ones_earlier_versions_wrote() -> None:
    # Pinned from 6ecafad, before items could say their kind: outputs written then
    # resume without their rows being told as changed.
    choice = Item.coerce({"question": "2 + 2?", "candidates": ["4", "5"], "context": "c"})
    rubric = Item.coerce(
        {"task": "checklist", "response": "r", "candidates": [{"text": "a", "weight": 2}]}
    )
    assert (input_sha(choice), input_sha(rubric)) == ("33f75273008e3abc", "e24b481ed794c5a0")
    assert rubric.key == "af2693ebd8f2"
    claims = Item.coerce({**rubric.model_dump(exclude={"kind"}), "kind": "claims", "context": "s"})
    assert input_sha(claims) != input_sha(claims.model_copy(update={"kind": None}))


def test_the_summary_counts_winners_ties_and_undecided_pairs_and_the_mean_score(
    tmp_path: Path,
) -> None:
    from prin_guard.grade import summary_text

    def judge(prompt: str) -> str:
        shown = re.findall(r"Response [AB]:\n```\n([^\n]*)", prompt)
        if shown:  # pairs: "good" wins, "same"/"twin" tie, "torn" has no agreed winner
            if "torn" in shown:
                return "Answer: A"
            if {"same", "twin"} == set(shown):
                return "Answer: tie"
            good = "A" if shown[0] == "good" else "B"
            return (
                f"Answer: {good}" if "better one" in prompt else f"Answer: {'AB'.replace(good, '')}"
            )
        return "Answer: A" if "criteria it meets" in prompt else "Answer: B"

    rows = [
        {"task": "pairwise", "question": "q1", "candidates": ["good", "bad"]},
        {"task": "pairwise", "question": "q2", "candidates": ["meh", "good"]},
        {"task": "pairwise", "question": "q3", "candidates": ["same", "twin"]},
        {"task": "pairwise", "question": "q4", "candidates": ["torn", "other"]},
        {"task": "pairwise", "question": "q5", "candidates": ["x"]},  # invalid: not counted
        {"task": "checklist", "response": "r", "candidates": ["met", "not met"]},
        {"task": "checklist", "response": "r", "candidates": [{"text": "m", "weight": 3}, "n"]},
    ]
    given = tmp_path / "in.jsonl"
    _write_input(given, rows)
    summary = grade(judge, given, tmp_path / "out.jsonl", options=GuardOptions(checks="reverse"))
    assert (summary.winners, summary.ties, summary.undecided) == (2, 1, 1)
    assert (summary.scored, summary.mean_score) == (2, pytest.approx((0.5 + 0.75) / 2))
    text = summary_text(summary)
    assert "  pairs: 2 with a winner, 1 ties, 1 undecided (the answers agree on neither)" in text
    assert "  checklists: 2 scored, mean score 0.625" in text


def test_the_ray_engine_takes_the_format_from_the_suffix_before_judging(tmp_path: Path) -> None:
    # issue 27: --out out.jsonl --engine ray silently wrote a directory of Parquet files
    pytest.importorskip("ray")
    import ray

    from prin_guard.ray import WorkerSpec, grade_on_ray

    given = _write_input(tmp_path / "in.jsonl", ITEMS)
    spec = WorkerSpec(judge=lambda: "Answer: A")
    folder = tmp_path / "graded"
    folder.mkdir()
    with pytest.raises(UsageError, match=r"is a directory; the Ray engine writes one file"):
        grade_on_ray(given, folder, spec)
    with pytest.raises(UsageError, match=r"cannot tell the format of .* from its suffix"):
        grade_on_ray(given, tmp_path / "graded-out", spec)
    (tmp_path / "notes.csv").write_text("a,b\n1,2\n")
    with pytest.raises(UsageError, match=r"is not an output of prin-guard grade"):
        grade_on_ray(given, tmp_path / "notes.csv", spec)
    assert not ray.is_initialized()  # refused before any cluster, any judge
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graded", "in.jsonl", "notes.csv"]
