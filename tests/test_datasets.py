from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from prin_guard import UsageError
from prin_guard.datasets import (
    DATASETS,
    load_aqua_rat,
    load_coinflip,
    load_commonsenseqa,
    load_dataset,
    load_expertqa_claims,
    load_gsm8k,
    load_gsm8k_solutions,
    load_jsonl,
    load_last_letters,
    load_llmbar,
    load_math,
    load_mathqa,
    load_mmlu,
    load_mt_bench_human,
    load_multiarith,
    load_strategyqa,
    load_svamp,
    sample_path,
    write_jsonl,
)


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


# --------------------------------------------------------------------------- helpers

Skips = list[tuple[int, str]]


def _collect() -> tuple[Skips, Callable[[int, str], None]]:
    skipped: Skips = []
    return skipped, lambda line, reason: skipped.append((line, reason))


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- real files


def test_aqua_rat_full_files_load(shared_data: Path) -> None:
    for name, rows, expected_skips in (("test.json", 254, 7), ("dev.json", 254, 1)):
        skipped, on_skip = _collect()
        records = list(load_aqua_rat(shared_data / "aqua_rat" / name, on_skip=on_skip))
        assert len(records) + len(skipped) == rows
        assert len(skipped) == expected_skips
        assert all("same text" in reason for _, reason in skipped)
    first = next(load_aqua_rat(shared_data / "aqua_rat" / "test.json"))
    assert first.item.id == "aqua-rat-1"
    assert first.item.labels == ("A", "B", "C", "D", "E")
    assert first.item.candidates[0].text == "5(√3 + 1)"
    assert first.gold == ("A",)


def test_commonsenseqa_full_file_loads(shared_data: Path) -> None:
    skipped, on_skip = _collect()
    path = shared_data / "commonsenseqa" / "dev_rand_split.jsonl"
    records = list(load_commonsenseqa(path, on_skip=on_skip))
    assert len(records) + len(skipped) == 1221
    assert all("same text" in reason for _, reason in skipped)
    first = records[0]
    assert first.item.id == "commonsenseqa-1afa02df02c908a558b4036e80242fac"
    assert first.item.question.endswith("security measure at a what?")
    assert [c.text for c in first.item.candidates][:2] == ["bank", "library"]
    assert first.gold == ("A",)
    assert Counter(r.gold for r in records).keys() == {("A",), ("B",), ("C",), ("D",), ("E",)}


def test_mmlu_splits_load_from_the_repository_folder(shared_data: Path) -> None:
    root = shared_data / "mmlu"
    for split, rows in (("dev", 285), ("val", 1542), ("test", 14079)):
        skipped, on_skip = _collect()
        records = list(load_mmlu(root, split=split, on_skip=on_skip))
        assert len(records) + len(skipped) == rows
        assert all("same text" in reason for _, reason in skipped)
        assert all(reason.split(":")[0].endswith(f"_{split}.csv") for _, reason in skipped)
    first = next(load_mmlu(root))  # default split: test
    assert first.item.id == "mmlu-abstract_algebra-1"
    assert first.item.question.startswith("Find the degree for the given field extension")
    assert [c.text for c in first.item.candidates] == ["0", "4", "2", "6"]
    assert first.gold == ("B",)
    one = list(load_mmlu(root / "data" / "val" / "anatomy_val.csv"))
    assert len(one) == 14
    assert [r.item.id for r in one[:2]] == ["mmlu-anatomy-1", "mmlu-anatomy-2"]


def test_mmlu_quoted_newlines_and_commas_load_intact(shared_data: Path) -> None:
    path = shared_data / "mmlu" / "data" / "test" / "high_school_computer_science_test.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    index = next(i for i, row in enumerate(rows) if any("\n" in field for field in row[1:5]))
    row = rows[index]
    records = {r.item.id: r for r in load_mmlu(path)}
    record = records[f"mmlu-high_school_computer_science-{index + 1}"]
    assert record.item.question == row[0]
    assert [c.text for c in record.item.candidates] == row[1:5]
    assert "\n" in record.item.candidates[0].text
    assert record.gold == (row[5],)
    # ``line`` is where the record starts in the file, not its record number
    lines = path.read_text(encoding="utf-8").split("\n")
    assert record.line > index + 1
    assert lines[record.line - 1].lstrip('"').startswith(row[0].split("\n")[0][:40])
    # every record after a multi-line one still loads, in order
    assert len(records) == len(rows)


def test_strategyqa_full_file_loads_with_record_lines(shared_data: Path) -> None:
    path = shared_data / "strategyqa" / "task.json"
    skipped, on_skip = _collect()
    records = list(load_strategyqa(path, on_skip=on_skip))
    assert (len(records), skipped) == (2290, [])
    first = records[0]
    assert first.item.question == "Is it common to see frost during some college commencements?"
    assert [c.text for c in first.item.candidates] == ["Yes", "No"]
    assert first.gold == ("A",)
    assert Counter(r.gold for r in records) == {("B",): 1219, ("A",): 1071}
    lines = path.read_text(encoding="utf-8").split("\n")
    for record in (records[0], records[1], records[-1]):
        assert lines[record.line - 1].strip() == "{"
        assert json.dumps(record.item.question)[1:-1] in lines[record.line]
    assert records[-1].item.id == "strategyqa-2290"


def test_coinflip_full_file_loads(shared_data: Path) -> None:
    skipped, on_skip = _collect()
    records = list(load_coinflip(shared_data / "coin_flip" / "coin_flip.json", on_skip=on_skip))
    assert (len(records), skipped) == (500, [])
    assert [c.text for c in records[0].item.candidates] == ["yes", "no"]
    assert (records[0].gold, records[1].gold) == (("A",), ("B",))
    assert Counter(r.gold for r in records) == {("A",): 253, ("B",): 247}


def test_gsm8k_solutions_every_item_loads_with_0_to_4_gold(shared_data: Path) -> None:
    skipped, on_skip = _collect()
    path = shared_data / "gsm8k" / "example_model_solutions.jsonl"
    records = list(load_gsm8k_solutions(path, on_skip=on_skip))
    assert (len(records), skipped) == (1319, [])
    sizes = Counter(len(r.gold) for r in records)
    assert sizes == {0: 432, 1: 290, 2: 236, 3: 205, 4: 156}
    assert len(sizes) > 1
    for record in records:
        assert record.item.labels == ("A", "B", "C", "D")
        assert [c.text.split(":")[0] for c in record.item.candidates] == [
            f"Solution {k}" for k in range(1, 5)
        ]
        # calculator annotations removed (an unclosed one in a cut-off solution stays)
        assert all(
            c.reasoning and not re.search(r"<<[^<>]*>>", c.reasoning)
            for c in record.item.candidates
        )
    # the four final answers repeat (three solutions say 3) and the item still loads
    second = records[1]
    assert [c.text for c in second.item.candidates] == [
        "Solution 1: 3",
        "Solution 2: 3",
        "Solution 3: 250",
        "Solution 4: 3",
    ]
    assert second.gold == ("A", "B", "D")
    assert second.item.candidates[0].reasoning == (
        "It takes 2*1/2=1 bolt of white fiber\n"
        "So it takes 2+1=3 bolts of blue and white fiber\nA: 3"
    )
    # a solution without an "A:" line
    assert records[852].item.candidates[3].text == "Solution 4: (no final answer)"
    assert records[852].item.candidates[3].reasoning == "25"


def test_problem_loaders_read_the_real_files(shared_data: Path) -> None:
    gsm8k = list(load_gsm8k(shared_data / "gsm8k" / "test.jsonl"))
    assert len(gsm8k) == 1319
    assert (gsm8k[0].answer, gsm8k[0].id, gsm8k[0].line) == ("18", "gsm8k-1", 1)
    assert gsm8k[0].question.startswith("Janet’s ducks lay 16 eggs per day.")
    assert all(re.fullmatch(r"-?\d+", p.answer) for p in gsm8k)  # "5,600" -> "5600"

    multiarith = list(load_multiarith(shared_data / "multiarith" / "MultiArith.json"))
    assert len(multiarith) == 600
    assert (multiarith[0].answer, multiarith[0].id) == ("39", "multiarith-0")
    assert multiarith[0].question.startswith("For Halloween Debby")

    svamp = list(load_svamp(shared_data / "svamp" / "SVAMP.json"))
    assert len(svamp) == 1000
    assert (svamp[0].answer, svamp[0].id) == ("51", "svamp-chal-1")
    assert svamp[0].question == (
        "Each pack of dvds costs 76 dollars. If there is a discount of 25 dollars on each "
        "pack How much do you have to pay to buy each pack?"
    )

    math = list(load_math(shared_data / "math" / "test.jsonl"))
    assert len(math) == 5000
    assert (math[0].answer, math[0].id) == ("2", "math-0")
    assert math[2].answer == "\\dfrac{9}{7}"  # nested braces in \boxed{}
    math500 = list(load_math(shared_data / "math" / "math_oai_500" / "test.jsonl"))
    assert len(math500) == 500
    assert math500[0].answer == "\\left( 3, \\frac{\\pi}{2} \\right)"
    assert math500[0].id == "math-test/precalculus/807.json"

    letters = list(load_last_letters(shared_data / "last_letters" / "last_letters.json"))
    assert len(letters) == 500
    assert (letters[0].answer, letters[0].id, letters[0].line) == ("yajo", "last-letters-1", 3)


# --------------------------------------------------------------------------- shipped samples


@pytest.mark.parametrize("name", [n for n, info in DATASETS.items() if info.sample])
def test_each_shipped_sample_loads_fully_by_name(name: str) -> None:
    path = sample_path(name)
    folder = path if path.is_dir() else path.parent
    assert (folder / "LICENSE").is_file()
    source = (folder / "SOURCE.md").read_text()
    assert "commit" in source
    assert "license" in source.lower()
    skipped, on_skip = _collect()
    records = list(load_dataset(name, on_skip=on_skip))
    if name == "mathqa":  # the first 200 lines unchanged, three with repeated options
        assert len(records) + len(skipped) == 200
        assert all("same text" in reason for _, reason in skipped)
    else:
        assert skipped == []
    # samples of a hundred or more; ExpertQA's answers and MT-Bench's pairs are long
    assert 30 <= len(records) <= 200
    assert len({r.item.key for r in records}) == len(records)
    assert all(r.gold_known for r in records)
    assert {r.item.task for r in records} == {DATASETS[name].task}


def test_shipped_samples_are_prefixes_of_the_originals(shared_data: Path) -> None:
    originals = {
        "aqua-rat": shared_data / "aqua_rat" / "test.json",
        "gsm8k-solutions": shared_data / "gsm8k" / "example_model_solutions.jsonl",
    }
    for name, original in originals.items():
        assert original.read_bytes().startswith(sample_path(name).read_bytes())
    for file in sample_path("mmlu").glob("*.csv"):
        full = shared_data / "mmlu" / "data" / "test" / file.name
        assert full.read_bytes().startswith(file.read_bytes())
    # so the sample's ids are the full file's ids
    full = {r.item.id: r for r in load_dataset("mmlu", path=shared_data / "mmlu")}
    for record in load_dataset("mmlu"):
        assert full[record.item.id].item == record.item


def test_shipped_data_is_small() -> None:
    data = Path(str(resources.files("prin_guard") / "data"))
    total = sum(f.stat().st_size for f in data.rglob("*") if f.is_file())
    assert total < 1_500_000
    # package-data ships data/*/*: nothing may sit deeper
    assert all(len(f.relative_to(data).parts) == 2 for f in data.rglob("*") if f.is_file())


def test_registered_name_without_a_sample_needs_a_path(shared_data: Path) -> None:
    for name in ("commonsenseqa", "strategyqa", "coinflip"):
        assert DATASETS[name].sample is None
        with pytest.raises(UsageError, match=r"no shipped sample.*pass path="):
            load_dataset(name)
        with pytest.raises(UsageError, match="available: mathqa, aqua-rat, mmlu"):
            sample_path(name)
    records = load_dataset("coinflip", path=shared_data / "coin_flip" / "coin_flip.json", limit=3)
    assert [r.item.id for r in records] == ["coinflip-1", "coinflip-2", "coinflip-3"]


def test_load_dataset_names_paths_and_limit(tmp_path: Path) -> None:
    assert len(list(load_dataset("aqua_rat", limit=5))) == 5  # "_" for "-", any case
    assert len(list(load_dataset("MMLU", limit=0))) == 0
    with pytest.raises(UsageError, match="limit"):
        load_dataset("mathqa", limit=-1)
    path = _write(
        tmp_path / "mine.jsonl", [json.dumps({"question": "q", "candidates": ["a", "b"]})]
    )
    assert [r.item.question for r in load_dataset(str(path))] == ["q"]
    assert [r.item.question for r in load_dataset(path)] == ["q"]
    with pytest.raises(UsageError, match="already a path"):
        load_dataset(path, path=path)


def test_unknown_name_and_missing_files_list_the_names(tmp_path: Path) -> None:
    names = "mathqa, aqua-rat, commonsenseqa, mmlu, strategyqa, coinflip, gsm8k-solutions"
    with pytest.raises(UsageError, match=f"unknown dataset 'nope'; available: {names}"):
        load_dataset("nope")
    with pytest.raises(UsageError, match=f"no such file .*{names}"):
        load_dataset(str(tmp_path / "missing.jsonl"))
    with pytest.raises(UsageError, match=r"no such file .*mathqa"):
        load_dataset("mathqa", path=tmp_path / "missing.jsonl")
    for loader in (load_aqua_rat, load_commonsenseqa, load_strategyqa, load_jsonl, load_gsm8k):
        with pytest.raises(UsageError, match="no such file"):
            loader(tmp_path / "missing.json")
    with pytest.raises(UsageError, match="no such file or directory"):
        load_mmlu(tmp_path / "missing")
    with pytest.raises(UsageError, match="no MMLU"):
        load_mmlu(tmp_path)
    with pytest.raises(UsageError, match="split"):
        load_mmlu(tmp_path, split="train")


def test_default_skip_handler_logs_a_warning_with_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.jsonl", ["{broken"])
    with capture_logs() as events:
        assert list(load_jsonl(path)) == []
    assert events == [
        {
            "event": "dataset_row_skipped",
            "log_level": "warning",
            "path": str(path),
            "line": 1,
            "reason": "not valid JSON: Expecting property name enclosed in double quotes "
            "(column 2)",
        }
    ]


# --------------------------------------------------------------------------- generic JSONL


def test_generic_jsonl_round_trip_with_every_optional_field(tmp_path: Path) -> None:
    rows = [
        {
            "id": "q1",
            "question": "What is 6 x 7?",
            "context": "Grade-school arithmetic.",
            "candidates": [
                "42",
                {"text": "48", "label": "Q", "reasoning": "6 x 8 = 48"},
                {"text": "36", "reasoning": "6 x 6"},
            ],
            "gold": ["a"],
        },
        {"question": "Pick", "candidates": ["x", "y", "z"], "gold": "C"},
        {"question": "None right", "candidates": ["x", "y"], "gold": []},
        {"question": "Unknown", "candidates": ["x", "y"], "gold": None},
        {"question": "No gold field", "candidates": ["x", "y"]},
        {"question": "Both", "candidates": ["x", "y"], "gold": ["B", "A", "B"]},
    ]
    path = _write(
        tmp_path / "in.jsonl", [json.dumps(r) for r in rows[:3]] + ["", *map(json.dumps, rows[3:])]
    )
    skipped, on_skip = _collect()
    records = list(load_jsonl(path, on_skip=on_skip))
    assert skipped == []
    first = records[0]
    assert first.item.id == "q1"
    assert first.item.context == "Grade-school arithmetic."
    assert [(c.label, c.text, c.reasoning) for c in first.item.candidates] == [
        ("A", "42", None),
        ("Q", "48", "6 x 8 = 48"),
        ("B", "36", "6 x 6"),
    ]
    assert first.gold == ("A",)
    assert [r.gold for r in records] == [("A",), ("C",), (), (), (), ("A", "B")]
    assert [r.gold_known for r in records] == [True, True, True, False, False, True]
    assert [r.line for r in records] == [1, 2, 3, 5, 6, 7]

    out = tmp_path / "out.jsonl"
    assert write_jsonl(records, out) == 6
    again = list(load_jsonl(out))
    assert [(r.item, r.gold, r.gold_known) for r in again] == [
        (r.item, r.gold, r.gold_known) for r in records
    ]
    assert json.loads(out.read_text().splitlines()[3])["gold"] is None
    # any loader's items can be converted to the generic format
    solutions = list(load_dataset("gsm8k-solutions", limit=5))
    write_jsonl(solutions, out)
    assert [(r.item, r.gold) for r in load_jsonl(out)] == [(r.item, r.gold) for r in solutions]


# --------------------------------------------------------------------------- malformed rows


def _skips(records: Iterator[Any], skipped: Skips) -> tuple[list[int], list[int]]:
    return [r.line for r in records], [line for line, _ in skipped]


def test_malformed_generic_rows_are_skipped_with_readable_reasons(tmp_path: Path) -> None:
    good = {"question": "q", "candidates": ["a", "b"], "gold": "A"}
    path = _write(
        tmp_path / "x.jsonl",
        [
            json.dumps(good),
            "{broken",
            json.dumps({**good, "contxt": "typo"}),
            json.dumps({**good, "gold": "C"}),
            json.dumps({**good, "candidates": ["a", " a"]}),
            json.dumps({**good, "candidates": ["a", {"text": "b", "lable": "B"}]}),
            json.dumps({**good, "question": " "}),
            json.dumps({**good, "candidates": "a, b"}),
            json.dumps(["not", "an", "object"]),
            json.dumps({**good, "gold": 1}),
            json.dumps({"candidates": ["a", "b"]}),
            json.dumps(good),
        ],
    )
    skipped, on_skip = _collect()
    loaded, lines = _skips(load_jsonl(path, on_skip=on_skip), skipped)
    assert loaded == [1, 12]
    assert lines == list(range(2, 12))
    reasons = [reason for _, reason in skipped]
    assert reasons[0].startswith("not valid JSON")
    assert (
        reasons[1] == "unknown field 'contxt' (the fields are id, task, kind, question, "
        "context, response, candidates, gold)"
    )
    assert reasons[2] == "gold label 'C' is not a candidate label (A, B)"
    assert "same text" in reasons[3]
    assert reasons[4].startswith("candidates.1.lable:")
    assert reasons[5] == "question: must not be empty or whitespace"
    assert reasons[6] == "field 'candidates' is a string, not a list"
    assert reasons[7] == "the row is a list, not a JSON object"
    assert reasons[8].startswith("field 'gold' is a number")
    assert reasons[9] == "question: a choice item needs a question"


def test_malformed_aqua_and_commonsenseqa_rows(tmp_path: Path) -> None:
    aqua = {"question": "q", "options": ["A)1", "B)2", "C)3"], "rationale": "", "correct": "B"}
    path = _write(
        tmp_path / "aqua.json",
        [
            json.dumps(aqua),
            json.dumps({**aqua, "correct": "E"}),
            json.dumps({**aqua, "options": ["A)1", "2"]}),
            json.dumps({**aqua, "options": ["A)1", "C)2"]}),
            json.dumps({k: v for k, v in aqua.items() if k != "question"}),
            json.dumps(aqua),
        ],
    )
    skipped, on_skip = _collect()
    assert _skips(load_aqua_rat(path, on_skip=on_skip), skipped) == ([1, 6], [2, 3, 4, 5])
    assert [r for _, r in skipped] == [
        "answer key 'E' is not one of the options",
        "option 2 ('2') is not of the form 'A)text'",
        "option letters A, C are not A, B, C, ...",
        "missing field 'question'",
    ]

    choice = [{"label": "A", "text": "x"}, {"label": "B", "text": "y"}]
    row = {"answerKey": "A", "id": "i", "question": {"stem": "q", "choices": choice}}
    path = _write(
        tmp_path / "csqa.jsonl",
        [
            json.dumps({**row, "answerKey": "Z"}),
            json.dumps(row),
            json.dumps({**row, "question": "q"}),
            json.dumps({**row, "question": {"stem": "q", "choices": [{"label": "A"}]}}),
        ],
    )
    skipped, on_skip = _collect()
    assert _skips(load_commonsenseqa(path, on_skip=on_skip), skipped) == ([2], [1, 3, 4])
    assert [r for _, r in skipped] == [
        "answer key 'Z' is not one of the labels A, B",
        "field 'question' is a string, not an object",
        "missing field 'question.choices.0.text'",
    ]


def test_malformed_mmlu_rows_keep_their_start_lines(tmp_path: Path) -> None:
    path = tmp_path / "logic_test.csv"
    path.write_text(
        "q1,a,b,c,d,A\n"
        '"multi\nline, question",a,b,c,d,B\n'
        "too,few,columns\n"
        "\n"
        "q4,a,b,c,d,E\n"
        'q5,"x,\ny",b,a,a,C\n'
        "q6,a,b,c,d,D\n"
        'q7,"x,\ny",b,c,d,A\n',
        encoding="utf-8",
    )
    skipped, on_skip = _collect()
    records = list(load_mmlu(path, on_skip=on_skip))
    assert [(r.line, r.item.id) for r in records] == [
        (1, "mmlu-logic-1"),
        (2, "mmlu-logic-2"),
        (9, "mmlu-logic-6"),
        (10, "mmlu-logic-7"),
    ]
    assert records[1].item.question == "multi\nline, question"
    assert records[3].item.candidates[0].text == "x,\ny"
    assert skipped == [
        (4, "logic_test.csv: expected 6 columns (question, A, B, C, D, answer), got 3"),
        (6, "logic_test.csv: answer 'E' is not A, B, C or D"),
        (7, "logic_test.csv: candidates: candidates 2 and 3 have the same text 'a'"),
    ]


def test_mmlu_folder_of_csv_files_and_split_filter(tmp_path: Path) -> None:
    (tmp_path / "b_test.csv").write_text("qb,1,2,3,4,A\n")
    (tmp_path / "a_test.csv").write_text("qa,1,2,3,4,B\n")
    (tmp_path / "a_dev.csv").write_text("qd,1,2,3,4,C\n")
    assert [r.item.id for r in load_mmlu(tmp_path)] == ["mmlu-a-1", "mmlu-a-1", "mmlu-b-1"]
    assert [r.item.question for r in load_mmlu(tmp_path, split="test")] == ["qa", "qb"]
    (tmp_path / "data" / "val").mkdir(parents=True)
    (tmp_path / "data" / "val" / "x_val.csv").write_text("qv,1,2,3,4,D\n")
    assert [r.gold for r in load_mmlu(tmp_path, split="val")] == [("D",)]


def test_malformed_big_bench_records_are_skipped_with_their_lines(tmp_path: Path) -> None:
    document = {
        "name": "strategyqa",
        "examples": [
            {"input": "q1", "target_scores": {"Yes": 1, "No": 0}},
            {"input": "q2"},
            {"input": "q3", "target_scores": {"Yes": 0, "No": 0}},
            "not an example",
            {"input": "q5", "target_scores": {"Yes": "1", "No": 0}},
            {"input": "q6", "target_scores": {"Yes": 0, "No": 1}},
        ],
    }
    path = tmp_path / "task.json"
    path.write_text(json.dumps(document, indent=2))
    skipped, on_skip = _collect()
    records = list(load_strategyqa(path, on_skip=on_skip))
    lines = path.read_text().split("\n")
    assert [r.item.id for r in records] == ["strategyqa-1", "strategyqa-6"]
    assert [r.gold for r in records] == [("A",), ("B",)]
    assert [lines[line - 1].strip()[:1] for line, _ in skipped] == ["{", "{", '"', "{"]
    assert [r for _, r in skipped] == [
        "missing field 'target_scores'",
        "no option in 'target_scores' has a positive score",
        "the row is a string, not a JSON object",
        "target_scores['Yes'] is a string, not a number",
    ]
    assert [line for line, _ in skipped] == sorted(line for line, _ in skipped)

    coins = {"examples": [{"question": "q", "answer": "maybe"}, {"question": "q", "answer": "Yes"}]}
    path.write_text(json.dumps(coins, indent=1))
    skipped, on_skip = _collect()
    assert [r.gold for r in load_coinflip(path, on_skip=on_skip)] == [("A",)]
    assert skipped == [(3, "answer 'maybe' is not 'yes' or 'no'")]


def test_broken_json_documents_are_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "task.json"
    path.write_text('{"examples": [\n  {"input": "q"\n]}')
    with pytest.raises(UsageError, match=r"not valid JSON: .*line 3"):
        load_strategyqa(path)
    path.write_text('{"no_examples": []}')
    with pytest.raises(UsageError, match="'examples' list"):
        load_coinflip(path)
    path.write_text('{"examples": []}')
    with pytest.raises(UsageError, match="JSON list of records"):
        load_svamp(path)


def test_malformed_gsm8k_solutions_rows(tmp_path: Path) -> None:
    solution = {"is_correct": True, "solution": "1 + 1 = <<1+1=2>>2\nA: 2"}
    row = {"question": "q", "ground_truth": "A: 2"} | dict.fromkeys(
        ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"),
        solution,
    )
    path = _write(
        tmp_path / "s.jsonl",
        [
            json.dumps(row),
            json.dumps({**row, "6b_verification": {**solution, "is_correct": "yes"}}),
            json.dumps({k: v for k, v in row.items() if k != "175b_finetuning"}),
            json.dumps({**row, "175b_verification": {"is_correct": False, "solution": ""}}),
        ],
    )
    skipped, on_skip = _collect()
    records = list(load_gsm8k_solutions(path, on_skip=on_skip))
    assert [r.line for r in records] == [1]
    assert records[0].gold == ("A", "B", "C", "D")
    assert records[0].item.candidates[0].reasoning == "1 + 1 = 2\nA: 2"
    assert skipped == [
        (2, "field '6b_verification.is_correct' is a string, not a boolean"),
        (3, "missing field '175b_finetuning'"),
        (4, "field '175b_verification.solution' is empty"),
    ]


def test_malformed_problem_rows(tmp_path: Path) -> None:
    gsm = _write(
        tmp_path / "g.jsonl",
        [
            json.dumps({"question": "q", "answer": "2 + 2\n#### 4"}),
            json.dumps({"question": "q", "answer": "no marker"}),
            json.dumps({"question": "q", "answer": "work\n#### 1,234"}),
        ],
    )
    skipped, on_skip = _collect()
    assert [p.answer for p in load_gsm8k(gsm, on_skip=on_skip)] == ["4", "1234"]
    assert skipped == [(2, "field 'answer' has no '#### <answer>' line")]

    math = _write(
        tmp_path / "m.jsonl",
        [
            json.dumps({"problem": "p", "solution": "so $\\boxed{\\frac{1}{2}}$", "idx": 7}),
            json.dumps({"problem": "p", "solution": "no box"}),
            json.dumps({"problem": "p", "solution": "open \\boxed{1"}),
            json.dumps({"problem": "p", "answer": "3", "unique_id": "test/x/1.json"}),
        ],
    )
    skipped, on_skip = _collect()
    problems = list(load_math(math, on_skip=on_skip))
    assert [(p.answer, p.id) for p in problems] == [
        ("\\frac{1}{2}", "math-7"),
        ("3", "math-test/x/1.json"),
    ]
    assert [line for line, _ in skipped] == [2, 3]

    arith = tmp_path / "a.json"
    arith.write_text(
        json.dumps(
            [
                {"iIndex": 0, "sQuestion": " q ", "lSolutions": [2.5]},
                {"iIndex": 1, "sQuestion": "q", "lSolutions": []},
                {"iIndex": 2, "sQuestion": "q", "lSolutions": ["7"]},
            ],
            indent=1,
        )
    )
    skipped, on_skip = _collect()
    assert [(p.question, p.answer) for p in load_multiarith(arith, on_skip=on_skip)] == [
        ("q", "2.5")
    ]
    assert [r for _, r in skipped] == [
        "field 'lSolutions' is empty",
        "field 'lSolutions' is a string, not a number",
    ]

    svamp = tmp_path / "s.json"
    svamp.write_text(
        json.dumps([{"ID": "x", "Body": "b", "Question": "q", "Answer": 3.0}, {"ID": "y"}])
    )
    skipped, on_skip = _collect()
    assert [(p.question, p.answer, p.line) for p in load_svamp(svamp, on_skip=on_skip)] == [
        ("b q", "3", 1)
    ]
    assert skipped == [(1, "missing field 'Body'")]

    letters = tmp_path / "l.json"
    letters.write_text(
        json.dumps({"examples": [{"question": "q", "answer": "ab"}, {"question": "q"}]})
    )
    skipped, on_skip = _collect()
    assert [p.answer for p in load_last_letters(letters, on_skip=on_skip)] == ["ab"]
    assert skipped == [(1, "missing field 'answer'")]


# ------------------------------------------------------------------ pairwise and checklists


def test_llmbar_natural_is_shipped_whole_as_pairs_of_the_shared_copy(shared_data: Path) -> None:
    shipped = list(load_dataset("llmbar"))
    full = list(load_llmbar(shared_data / "llmbar" / "natural.jsonl"))
    original = shared_data / "llmbar" / "natural.jsonl"
    assert sample_path("llmbar").read_bytes() == original.read_bytes()
    assert [(r.item, r.gold) for r in shipped] == [(r.item, r.gold) for r in full]
    assert len(shipped) == 100
    first = shipped[0]
    assert first.item.task == "pairwise"
    assert first.item.id == "llmbar-natural-0"
    assert first.item.question.startswith("Summarize the following content.")
    assert first.item.labels == ("A", "B")
    raw = json.loads((shared_data / "llmbar" / "natural.jsonl").read_text().splitlines()[0])
    assert [c.text for c in first.item.candidates] == [raw["output_1"], raw["output_2"]]
    assert first.gold == ({1: "A", 2: "B"}[raw["label"]],)
    assert Counter(r.gold for r in shipped) == {("A",): 42, ("B",): 58}  # no ties


def test_mt_bench_human_sample_is_a_prefix_and_the_full_file_has_no_ties(
    shared_data: Path,
) -> None:
    original = shared_data / "llmbar" / "mt-bench-human.jsonl"
    assert original.read_bytes().startswith(sample_path("mt-bench-human").read_bytes())
    full = list(load_mt_bench_human(original))
    assert len(full) == 200
    assert Counter(r.gold for r in full) == {("A",): 101, ("B",): 99}
    sample = list(load_dataset("mt-bench-human"))
    assert [r.item for r in sample] == [r.item for r in full[: len(sample)]]
    assert sample[0].item.id == "llmbar-mtbench-0"


def test_llmbar_loader_reads_llmbars_own_json_list_and_refuses_other_labels(
    tmp_path: Path,
) -> None:
    # LLMBar's dataset.json: one JSON list, "input" for the instruction, no ids
    rows = [
        {"input": "Say hi.", "output_1": "Hi!", "output_2": "Bye.", "label": 1},
        {"input": "Say bye.", "output_1": "Hi!", "output_2": "Bye.", "label": "2"},
        {"input": "Tie?", "output_1": "a", "output_2": "b", "label": 0},
        {"input": "Same", "output_1": "a", "output_2": " a", "label": 1},
    ]
    path = tmp_path / "dataset.json"
    path.write_text(json.dumps(rows, indent=2))
    skipped, on_skip = _collect()
    records = list(load_llmbar(path, on_skip=on_skip))
    assert [(r.item.id, r.item.question, r.gold) for r in records] == [
        ("llmbar-1", "Say hi.", ("A",)),
        ("llmbar-2", "Say bye.", ("B",)),
    ]
    assert [reason for _, reason in skipped] == [
        "label 0 is not 1 or 2 (the better output)",
        "outputs 1 and 2 are the same text, yet label 1 calls one better",
    ]
    assert [r.item.id for r in load_mt_bench_human(path, on_skip=on_skip)] == [
        "mt-bench-human-1",
        "mt-bench-human-2",
    ]


def _answer(claims: list[tuple[str, str, list[str]]]) -> dict[str, Any]:
    return {
        "answer_string": "An answer [1]. Another [2].",
        "claims": [
            {"claim_string": text, "support": support, "evidence": evidence}
            for text, support, evidence in claims
        ],
    }


def test_expertqa_answers_become_claim_checklists_with_expert_gold(tmp_path: Path) -> None:
    row = {
        "question": "Why?",
        "answers": {
            "rr_gs_gpt4": _answer(
                [
                    (" Supported [2].", "Complete", ["[2] https://b\n\nPassage two."]),
                    ("Partly [1].", "Partial", ["[1] https://a\n\nPassage one."]),
                    ("Cites nothing.", "Missing", []),
                    ("Needs no support [1].", "N/A", ["[1] https://a\n\nPassage one."]),
                    (
                        "Half [1][2].",
                        "Incomplete",
                        ["[1] https://a\n\nPassage one.", "[2] https://b\n\nPassage two."],
                    ),
                ]
            ),
            "gpt4": _answer([("Bare URL [1].", "Complete", ["[1] https://a"])]),
        },
    }
    path = _write(tmp_path / "expertqa.jsonl", [json.dumps(row)])
    skipped, on_skip = _collect()
    (record,) = load_expertqa_claims(path, on_skip=on_skip)
    item = record.item
    assert skipped == []  # a row's other systems are not reported: they cite URLs only
    assert item.task == "checklist"
    assert item.question == "Why?"
    assert item.response == "An answer [1]. Another [2]."
    # each cited passage once, in the order of its number
    assert item.context == "[1] https://a\n\nPassage one.\n\n[2] https://b\n\nPassage two."
    assert [c.text for c in item.candidates] == ["Supported [2].", "Partly [1].", "Half [1][2]."]
    assert record.gold == ("A",)  # Complete only; N/A and Missing left out
    assert re.fullmatch(r"expertqa-claims-[0-9a-f]{10}-rr_gs_gpt4", item.key)


def test_expertqa_rows_without_passages_are_skipped_with_a_reason(tmp_path: Path) -> None:
    only_urls = {"question": "q", "answers": {"bing_chat": _answer([("c", "Complete", ["[1] u"])])}}
    nothing = {
        "question": "q2",
        "answers": {"post_hoc_gs_gpt4": _answer([("c", "Missing", []), ("d", "N/A", ["[1] u"])])},
    }
    path = _write(tmp_path / "x.jsonl", [json.dumps(only_urls), json.dumps(nothing), "{bad"])
    skipped, on_skip = _collect()
    assert list(load_expertqa_claims(path, on_skip=on_skip)) == []
    reasons = dict(skipped)
    assert reasons[1].startswith("no answer with cited passages (systems bing_chat;")
    assert reasons[2] == "post_hoc_gs_gpt4: no claim with cited passages and a support label"
    assert reasons[3].startswith("not valid JSON")


def test_expertqa_sample_ids_match_the_full_file(tmp_path: Path) -> None:
    mirror = Path("/work/.mirror/chaitanyamalaviya+ExpertQA/repo")
    if not mirror.is_dir():
        pytest.skip("no ExpertQA snapshot here")
    import subprocess

    shown = subprocess.run(
        ["git", "-C", str(mirror), "show", "HEAD:data/lfqa/rand_test.jsonl"],
        capture_output=True,
        check=False,
    )
    if shown.returncode:
        pytest.skip("ExpertQA's rand_test.jsonl is not in the snapshot")
    full_path = tmp_path / "rand_test.jsonl"
    full_path.write_bytes(shown.stdout)
    skipped, on_skip = _collect()
    full = {r.item.id: r for r in load_expertqa_claims(full_path, on_skip=on_skip)}
    assert len(full) == 151
    assert len(skipped) == 219 - 151  # answers of gpt4 and bing_chat, and two without claims
    assert sum(len(r.item.candidates) for r in full.values()) == 793
    sample = list(load_dataset("expertqa-claims"))
    assert len(sample) == 32
    for record in sample:
        assert full[record.item.id].item == record.item
        assert full[record.item.id].gold == record.gold


def test_generic_jsonl_reads_and_writes_pairwise_and_checklist_rows(tmp_path: Path) -> None:
    rows = [
        {"task": "pairwise", "question": "Say hi.", "candidates": ["Hi!", "Bye."], "gold": "A"},
        {"task": "pairwise", "question": "Same?", "candidates": ["x", "y"], "gold": ["A", "B"]},
        {
            "task": "checklist",
            "response": "Paris, 3M people.",
            "context": "Paris has 2.1M people.",
            "candidates": [{"text": "in Paris", "weight": 2}, "3M people"],
            "gold": ["A"],
        },
    ]
    path = _write(tmp_path / "tasks.jsonl", [json.dumps(r) for r in rows])
    records = list(load_jsonl(path))
    assert [(r.item.task, r.gold) for r in records] == [
        ("pairwise", ("A",)),
        ("pairwise", ("A", "B")),
        ("checklist", ("A",)),
    ]
    assert records[2].item.candidates[0].weight == 2.0
    out = tmp_path / "out.jsonl"
    write_jsonl(records, out)
    assert [(r.item, r.gold) for r in load_jsonl(out)] == [(r.item, r.gold) for r in records]
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row.get("task") for row in written] == ["pairwise", "pairwise", "checklist"]
    assert written[2]["response"] == "Paris, 3M people."
    # a choice row is written as it always was: no task field
    choice = list(load_dataset("mathqa", limit=1))
    write_jsonl(choice, out)
    assert "task" not in json.loads(out.read_text())
