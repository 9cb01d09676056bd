"""A judge whose answers carry no information is named by the run (issue 37, item 15).

A 1.5B model answered "Answer: tie" on 86 of 96 legs of LLMBar Natural: every verdict a
clean tie with no flag. Per verdict that is consistent; a run can tell. Scripted judges
here answer the same whatever they are asked, and the eval and grade summaries, the
verdict stream's log and (in test_server) the service's metrics say so, with the share and
the threshold; an informative judge gets no warning.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from prin_guard import Guard, Item
from prin_guard._route._informative import (
    MIN_VERDICTS,
    ONE_ANSWER_SHARE,
    SAME_POSITION_SHARE,
    UNREADABLE_SHARE,
    AnswerTally,
    uninformative,
)
from prin_guard.eval import run as eval_run
from prin_guard.grade import grade
from prin_guard.judges import ScriptedJudge

PAIRS = [
    Item(task="pairwise", question=f"Say hello ({i}).", candidates=[f"Hello {i}!", f"Go {i}."])
    for i in range(24)
]


def _by_content(prompt: str) -> str:
    """An informative judge: it prefers the response that says hello, wherever it is
    shown, and calls the other one worse."""
    first = re.search(r"Response A:\n(`{3,})\n(.*?)\n\1", prompt, re.S)
    assert first is not None
    hello_first = first.group(2).startswith("Hello")
    worse = "please output the worse one." in prompt
    return "Answer: " + ("A" if hello_first != worse else "B")


def _kinds(verdicts: list[object]) -> dict[str, float]:
    return {f.kind: f.share for f in uninformative(verdicts)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("direct", "reverse", "found"),
    [
        pytest.param("Answer: tie", "Answer: tie", {"one_answer": 1.0}, id="tie-to-everything"),
        pytest.param(
            "Answer: A",
            "Answer: B",
            {"one_answer": 1.0, "same_position": 1.0},
            id="first-position-whatever-the-order",
        ),
        pytest.param("I cannot say.", "Hmm.", {"unreadable": 1.0}, id="unreadable"),
    ],
)
def test_a_judge_that_says_one_thing_to_everything_is_named(
    direct: str, reverse: str, found: dict[str, float]
) -> None:
    verdicts = Guard(ScriptedJudge(direct, reverse), cache=None).check_many(PAIRS)
    # each verdict alone passes (no flag raised by a constant answer) where the answer is read
    if direct == "Answer: tie":
        assert all(v.tie and not v.flags for v in verdicts)
    assert _kinds(verdicts) == found
    # the verdicts as JSON (eval's records, grade's) say the same
    assert _kinds([json.loads(v.model_dump_json()) for v in verdicts]) == found


def test_an_informative_judge_gets_no_finding() -> None:
    verdicts = Guard(ScriptedJudge(fn=_by_content), cache=None).check_many(PAIRS)
    assert all(not v.flags and v.winner == "A" for v in verdicts)  # "Hello" is always A
    assert uninformative(verdicts) == []
    measures = {m.kind: m.share for m in _tally_of(verdicts).measures()}
    # the content decides: "A" in the item's order, "B" in the swapped one
    assert measures == {"one_answer": 0.5, "same_position": 0.0, "unreadable": 0.0}


def _tally_of(verdicts: list[object]) -> AnswerTally:
    tally = AnswerTally()
    for verdict in verdicts:
        tally.add(verdict)  # type: ignore[arg-type]
    return tally


def test_nothing_is_said_on_fewer_verdicts_than_the_minimum() -> None:
    judge = ScriptedJudge("Answer: tie", "Answer: tie")
    verdicts = Guard(judge, cache=None).check_many(PAIRS[: MIN_VERDICTS - 1])
    assert uninformative(verdicts) == []
    assert uninformative(Guard(judge, cache=None).check_many(PAIRS[:MIN_VERDICTS])) != []


def test_the_thresholds_are_the_messages() -> None:
    verdicts = Guard(ScriptedJudge("Answer: A", "Answer: B"), cache=None).check_many(PAIRS)
    by_kind = {f.kind: f for f in uninformative(verdicts)}
    assert by_kind["one_answer"].threshold == ONE_ANSWER_SHARE
    assert by_kind["same_position"].threshold == SAME_POSITION_SHARE
    assert by_kind["one_answer"].message.endswith("(100%; warned from 90%)")
    assert '"A" (direct legs read)' in by_kind["one_answer"].message
    assert "24 of 24 pairs" in by_kind["same_position"].message
    assert UNREADABLE_SHARE == 0.5


def test_the_stream_warns_once_per_run_and_kind(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="prin_guard")
    guard = Guard(ScriptedJudge("Answer: tie", "Answer: tie"), cache=None)
    guard.check_many(PAIRS * 3)  # 72 verdicts: checked at 10, 16, 32, 64 and the end
    warned = [r.getMessage() for r in caplog.records if "uninformative_judge" in r.getMessage()]
    assert len(warned) == 1
    assert "kind='one_answer'" in warned[0] and "threshold=0.9" in warned[0]
    caplog.clear()
    Guard(ScriptedJudge(fn=_by_content), cache=None).check_many(PAIRS)
    assert not [r for r in caplog.records if "uninformative_judge" in r.getMessage()]


def test_grade_summary_warns_with_share_and_threshold(tmp_path: Path) -> None:
    from prin_guard.grade import summary_text

    given = tmp_path / "in.jsonl"
    given.write_text(
        "".join(
            json.dumps(item.model_dump(mode="json", exclude_none=True)) + "\n" for item in PAIRS
        )
    )
    summary = grade(ScriptedJudge("Answer: tie", "Answer: tie"), given, tmp_path / "out.jsonl")
    (finding,) = summary.uninformative
    assert (finding["kind"], finding["share"], finding["threshold"]) == ("one_answer", 1.0, 0.9)
    assert f"warning: {finding['message']}" in summary_text(summary)
    informative = grade(ScriptedJudge(fn=_by_content), given, tmp_path / "out2.jsonl")
    assert informative.uninformative == ()
    assert "warning" not in summary_text(informative)


def test_eval_summary_and_report_warn(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = eval_run(
        ScriptedJudge("Answer: tie", "Answer: tie"),
        "llmbar",
        limit=12,
        methods=("synergy",),
        analyses=(),
        mitigations=(),
        cache="memory",
        progress=False,
        out=out,
    )
    (finding,) = result.summary.uninformative
    assert finding.kind == "one_answer" and finding.share == 1.0 and finding.threshold == 0.9
    written = json.loads((out / "summary.json").read_text())
    assert written["uninformative"][0]["kind"] == "one_answer"
    report = (out / "report.md").read_text()
    assert "answers that carry no information" in report and "tie" in report
