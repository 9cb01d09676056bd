"""The golden record (issue 39, item 5): every verdict the test corpora give with scripted
judges, every reading, the cache keys and the legs' messages of the bundled templates,
packs and rating prompts, and the examples' output, as recorded under tests/data/golden
by ``bench.golden``. A refactor that changes none of them passes; one that changes any
prints the first differences, and if the change is meant, the record is written again
(``PYTHONPATH=. .venv/bin/python -m bench.golden --update``) in the same commit."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bench import golden


@pytest.fixture(scope="module")
def now() -> dict[str, list[golden.Entry]]:
    return golden.compute()


def test_the_record_holds_every_group() -> None:
    for name in golden.FILES:
        assert golden.recorded(name), f"tests/data/golden/{name}.jsonl.gz is missing or empty"


def test_verdicts_readings_keys_and_examples_are_as_recorded(
    now: dict[str, list[golden.Entry]],
) -> None:
    found = golden.compare(now)
    assert not found, "differs from tests/data/golden (bench/golden.py):\n" + "\n".join(found)


def test_the_record_covers_what_the_issue_names(now: dict[str, list[golden.Entry]]) -> None:
    groups = {name: {case.split(":")[0] for case, _ in entries} for name, entries in now.items()}
    assert {"corpus", "rating", "aspects"} <= groups["readings"]
    assert {"corpus", "rating", "aspects", "checks"} <= groups["verdicts"]
    if not golden.absent():
        assert {"llmbar", "summeval"} <= groups["verdicts"]
    keys = dict(now["keys"])
    # every bundled template and pack, and every rating prompt, gives keys and legs
    for setup in ("template:v0:choice", "template:arena-hard:pairwise", "rating:rating"):
        assert keys[setup]["stored"] and keys[setup]["legs"], setup
    assert keys["rating:prometheus-absolute:rating-rubric"]["legs"][0]["messages"]
    assert len(now["examples"]) == len(golden.EXAMPLES)


def _changed(entries: list[golden.Entry], case: str, update: dict[str, Any]) -> list[golden.Entry]:
    out = copy.deepcopy(entries)
    for index, (name, value) in enumerate(out):
        if name == case:
            out[index] = (name, {**value, **update})
    return out


def test_a_difference_is_reported_readably(now: dict[str, list[golden.Entry]]) -> None:
    verdicts = now["verdicts"]
    case = next(name for name, value in verdicts if value.get("rating") is not None)
    rating = dict(verdicts)[case]["rating"]
    lines = golden.differences("verdicts", _changed(verdicts, case, {"rating": 1.5}), verdicts)
    text = "\n".join(lines)
    assert lines[0] == f"verdicts: 1 changed, 0 gone, 0 new (of {len(verdicts)} recorded)"
    assert f"-- {case}" in text
    assert f'- "rating": {rating},' in text and '+ "rating": 1.5,' in text
    gone = golden.differences("verdicts", verdicts[1:], verdicts)
    assert gone[0].endswith(f"0 changed, 1 gone, 0 new (of {len(verdicts)} recorded)")
    assert gone[1] == f"  gone: {verdicts[0][0]}"
