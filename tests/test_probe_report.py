"""The typed probe summary and its report against probe runs written before it existed
(tests/data/summary, see its README)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from prin_guard.probe import ProbeSummary
from prin_guard.probe._report import write_probe_report
from prin_guard.probe._summary import FollowUpMetrics, ProbeRunInfo, probe_summary

DATA = Path(__file__).parent / "data" / "summary"
PROBE_RUNS = ("probe_progressive", "probe_direct")


def _records(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name / "items.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def _text(name: str) -> str:
    return (DATA / name / "summary.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", PROBE_RUNS)
def test_probe_summary_dumps_to_the_dict_of_earlier_versions(name: str) -> None:
    stored = json.loads(_text(name))
    summary = probe_summary(_records(name), run=stored["run"])
    assert isinstance(summary, ProbeSummary)
    assert summary.model_dump(mode="json") == stored
    assert summary.to_json() == _text(name)
    assert ProbeSummary.model_validate_json(_text(name)) == summary


@pytest.mark.parametrize("name", PROBE_RUNS)
def test_the_probe_report_is_unchanged(name: str, tmp_path: Path) -> None:
    summary = ProbeSummary.model_validate_json(_text(name))
    html_path = write_probe_report(summary, tmp_path, title=f"prin-guard probe: {name}")
    assert html_path == tmp_path / "report.html"
    expected = DATA / name
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == (
        expected / "report.md"
    ).read_text(encoding="utf-8")
    html = re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,PNG", html_path.read_text(encoding="utf-8"))
    assert html == (expected / "report.html").read_text(encoding="utf-8")
    figures = json.loads((expected / "figures.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == figures


def test_typed_access_to_the_probe_summary() -> None:
    progressive = ProbeSummary.model_validate_json(_text("probe_progressive"))
    assert progressive.by_type == {}
    assert list(progressive.by_round) == ["closed", "open", "leading"]
    closed = progressive.by_round["closed"]
    assert isinstance(closed, FollowUpMetrics)
    assert (closed.round, closed.items, closed.accuracy_before, closed.accuracy_after) == (
        1,
        5,
        0.4,
        0.8,
    )
    assert progressive.unreadable_first_answers == 1
    assert [f.id for f in progressive.failures] == ["i5"]
    assert progressive.run.types == ("closed", "open", "leading")
    direct = ProbeSummary.model_validate_json(_text("probe_direct"))
    assert direct.by_round == {}
    assert sorted(direct.by_type) == ["closed", "leading", "open"]
    assert direct.run.mitigations == ("emotion",)
    with pytest.raises(ValidationError, match="frozen"):
        closed.items = 0  # type: ignore[misc]


def test_run_info_is_kept_as_given_and_read_for_the_prompt_set() -> None:
    records = _records("probe_direct")
    assert probe_summary(records, run={}).model_dump(mode="json")["run"] == {}
    extra = {"prompt_set": "C", "note": [1, 2]}
    summary = probe_summary(records, run=extra)
    assert summary.model_dump(mode="json")["run"] == extra
    assert summary.run.model_extra == {"note": [1, 2]}
    # the prompt set only labels the records: the numbers are the same
    assert summary.by_type == probe_summary(records, run=ProbeRunInfo()).by_type
