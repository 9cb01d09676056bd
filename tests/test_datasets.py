from __future__ import annotations

import json
from pathlib import Path

import pytest

from prin_guard import UsageError
from prin_guard.eval import load_mathqa, sample_path


def test_mathqa_full_file_loads_with_letter_keys(shared_data: Path) -> None:
    skipped: list[tuple[int, str]] = []
    path = shared_data / "mathqa" / "math-evaluation-harness" / "test.jsonl"
    records = list(load_mathqa(path, on_skip=lambda n, r: skipped.append((n, r))))
    assert len(records) + len(skipped) == 1000
    first = records[0]
    assert first.item.question.startswith("if log 8 x + log 8 1 / 6 = 1 / 3")
    assert [c.text for c in first.item.candidates] == ["12", "16", "18", "24", "26"]
    assert first.gold == ("A",)
    # rows skipped only for duplicate option texts, reported with their line numbers
    assert skipped
    assert all("same text" in reason for _, reason in skipped)


def test_mathqa_list_literal_rows_are_read(shared_data: Path) -> None:
    path = shared_data / "mathqa" / "math-evaluation-harness" / "test.jsonl"
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if '"options":"[' in line)
    record = next(r for r in load_mathqa(path) if r.line == number)
    options = json.loads(lines[number - 1])["options"]
    assert options.startswith("['a )")
    assert len(record.item.candidates) == 5
    assert all(not c.text.startswith(("'", "[")) for c in record.item.candidates)


def test_mathqa_option_text_with_commas_is_kept_whole(tmp_path: Path) -> None:
    row = {"problem": "p", "options": "a ) 1,000 , b ) 2 , 3 , c ) 4", "correct": "b"}
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(row) + "\n")
    record = next(load_mathqa(path))
    assert [c.text for c in record.item.candidates] == ["1,000", "2 , 3", "4"]


def test_malformed_rows_are_skipped_with_line_numbers(tmp_path: Path) -> None:
    good = {"problem": "p", "options": "a ) 1 , b ) 2", "correct": "a"}
    path = tmp_path / "x.jsonl"
    path.write_text(
        "\n".join(
            [json.dumps(good), "{broken", json.dumps({**good, "correct": "z"}), json.dumps(good)]
        )
        + "\n"
    )
    skipped: list[tuple[int, str]] = []
    records = list(load_mathqa(path, on_skip=lambda n, r: skipped.append((n, r))))
    assert [r.line for r in records] == [1, 4]
    assert [n for n, _ in skipped] == [2, 3]


def test_shipped_sample_is_small_licensed_and_loads() -> None:
    path = sample_path("mathqa")
    assert sum(1 for _ in path.open()) <= 200
    assert (path.parent / "LICENSE").is_file()
    assert (path.parent / "SOURCE.md").is_file()
    assert len(list(load_mathqa(path, on_skip=lambda n, r: None))) > 190


def test_unknown_sample_and_missing_file_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="available: mathqa"):
        sample_path("nope")
    with pytest.raises(UsageError, match="no such file"):
        list(load_mathqa(tmp_path / "missing.jsonl"))
