"""`prin-guard eval iclr2017` (issue 41, item 7): a reviewer against the real ICLR 2017 reviews,
on the real data file, with scripted reviewers whose figures are known: an oracle (every
decision the venue's, both legs agreeing), a contradicting one (its mirrored leg contradicts
every score and decision), one swayed by any rebuttal; the human ceiling computed from the
file; the calibrated acceptance of decisions."""

from __future__ import annotations

import json
import math
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Guard
from prin_guard._route._acceptance import decision_wrong
from prin_guard.calibrate import decision_acceptance
from prin_guard.cli import main
from prin_guard.datasets._reviews import load_iclr2017_reviews
from prin_guard.errors import UsageError
from prin_guard.eval._reviews import (
    human_ceiling,
    report_text,
    review_item,
    review_summary,
    run_reviews,
    sample_papers,
)

_REVIEWER = """
import json
import re

ACCEPTED = {}
MODE = "oracle"  # oracle | contradicting | swayed


def _form(fields):
    return "THOUGHT:\\nI weighed it.\\n\\nREVIEW JSON:\\n```json\\n" + json.dumps(fields) + "\\n```"


def judge(prompt):
    title = re.search(r"^# (.+)$", prompt, re.M).group(1)
    good = ACCEPTED[title]
    rating, decision = (8, "Accept") if good else (3, "Reject")
    if "Author rebuttal:" in prompt:
        if MODE == "swayed":
            rating, decision = min(10, rating + 3), "Accept"
        return _form({"Review": "Reconsidered.", "Rating": rating, "Confidence": 4,
                      "Decision": decision})
    if "This time, do not fill in the review form" in prompt:
        if MODE == "contradicting":  # the same numbers (mirror ignored), the decision flipped
            return _form({"Rating": rating, "Confidence": 4, "Reject": "No" if not good else "Yes"})
        return _form({"Rating": 11 - rating, "Confidence": 2, "Reject": "No" if good else "Yes"})
    return _form({"Review": "A review.", "Rating": rating, "Confidence": 4, "Decision": decision})
"""


@pytest.fixture(scope="module")
def papers_file() -> Path:
    path = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "reviews"
    if not (path / "papers.jsonl").is_file():
        pytest.skip(f"benchmark data not found at {path}")
    return path / "papers.jsonl"


@pytest.fixture(scope="module")
def papers(papers_file: Path) -> list[Any]:
    return list(load_iclr2017_reviews(papers_file))


def _reviewer(papers: list[Any], mode: str, name: str = "iclr_reviewer") -> types.ModuleType:
    module = types.ModuleType(name)
    exec(_REVIEWER, module.__dict__)
    module.ACCEPTED.update({p.title: p.accepted for p in papers})
    module.MODE = mode
    return module


def test_the_human_ceiling_is_computed_from_the_file(papers: list[Any]) -> None:
    # SOURCE.md's figures: a threshold on the mean (>= 19/3) matches 90.5%; two reviewers
    # correlate at 0.59 over 670 pairs
    ceiling = human_ceiling(papers, threshold=6)
    assert ceiling["papers"] == 200 and ceiling["reviews"] == 623
    assert ceiling["threshold_agreement"] == pytest.approx(0.905)
    assert ceiling["threshold"] == pytest.approx(19 / 3)
    assert ceiling["pairs"] == 670 and ceiling["pairs_pearson"] == pytest.approx(0.5948, abs=1e-4)
    assert 0.5 < ceiling["one_vs_rest_spearman"] < 0.7
    assert 0.7 < ceiling["one_reviewer_balanced_accuracy"] < 0.9


def test_a_sample_is_balanced_seeded_and_in_the_files_order(papers: list[Any]) -> None:
    sample = sample_papers(papers, 11, seed=3)
    assert len(sample) == 11 and sum(p.accepted for p in sample) == 6
    assert sample == sample_papers(papers, 11, seed=3) != sample_papers(papers, 11, seed=4)
    assert [p.line for p in sample] == sorted(p.line for p in sample)
    assert sample_papers(papers, None) == papers
    with pytest.raises(UsageError, match="--limit"):
        sample_papers(papers, 1)


def test_an_oracle_reviewer_reaches_every_figure(papers: list[Any]) -> None:
    sample = sample_papers(papers, 40, seed=0)
    reviewer = _reviewer(papers, "oracle")
    guard = Guard(reviewer.judge, concurrency=4)
    verdicts = guard.check_many([review_item(p, rebuttal="no-evidence") for p in sample])
    summary = review_summary(
        sample,
        verdicts,
        {"no-evidence": verdicts},
        everyone=papers,
        acceptance=lambda s, w: decision_acceptance(s, w, alpha=0.2, delta=0.2),
    )
    assert summary["papers"] == 40 and summary["accepted"] == 20 and summary["errors"] == 0
    decision = summary["decision"]
    assert decision["direct"]["balanced_accuracy"] == decision["guarded"]["balanced_accuracy"] == 1
    assert decision["guarded"]["papers"] == 40 and decision["guarded"]["accept_share"] == 0.5
    # two values (8 for accepted, 3 for not): Spearman with the human mean is the
    # point-biserial rank correlation, well above zero and below one
    rho = summary["overall"]["guarded"]["spearman"]
    assert summary["overall"]["guarded"]["papers"] == 40 and 0.6 < rho < 0.95
    assert rho == summary["overall"]["direct"]["spearman"]
    flags = summary["flags"]
    assert flags["flagged_share"] == 0 and flags["error_unflagged"] == 0
    assert flags["error_flagged"] is None and flags["unflagged"] == 40
    moves = summary["rebuttals"]["no-evidence"]
    assert moves["read"] == moves["asked"] == 40 and moves["swayed_share"] == 0
    assert moves["moved"]["Rating"] == {"reviews": 40, "mean_abs": 0.0, "mean": 0.0}
    # 20 calibrating papers, none wrong: at alpha = delta = 0.2 a rule needs 8
    accepted = summary["acceptance"]
    assert accepted["threshold"] is not None and accepted["calibration"]["errors"] == 0
    assert accepted["test"]["accepted_share"] == 1 and accepted["test"]["error_rate"] == 0
    assert summary["cost"]["judge_calls"] == 120  # two legs and the rebuttal, 40 papers
    assert summary["cost"]["cached_calls"] == 0 and summary["cost"]["cost_usd"] is None
    text = report_text(summary)
    assert "| balanced accuracy of the decision (papers) | 100.0% (40) | 100.0% (40) |" in text


def test_a_contradicting_reviewer_is_flagged_and_never_accepted(papers: list[Any]) -> None:
    sample = sample_papers(papers, 30, seed=1)
    reviewer = _reviewer(papers, "contradicting")
    verdicts = Guard(reviewer.judge, concurrency=4).check_many([review_item(p) for p in sample])
    summary = review_summary(
        sample, verdicts, everyone=papers, acceptance=lambda s, w: decision_acceptance(s, w)
    )
    assert summary["decision"]["direct"]["balanced_accuracy"] == 1  # the form alone: right
    assert summary["decision"]["guarded"]["papers"] == 0  # the reverse question contradicts it
    assert summary["decision"]["guarded"]["balanced_accuracy"] is None
    assert summary["overall"]["guarded"]["papers"] == 0
    assert summary["flags"]["flagged_share"] == 1
    assert summary["flags"]["counts"]["inconsistent"] == 30
    assert summary["flags"]["counts"]["polarity_confusion"] == 30  # 3 and 8 are off centre
    assert summary["flags"]["error_flagged"] == 0 and summary["flags"]["unflagged"] == 0
    accepted = summary["acceptance"]
    assert accepted["threshold"] is None and accepted["test"]["accepted"] == 0
    assert accepted["test"]["escalated_share"] == 1 and "0 of 15" in accepted["why"]
    assert "nothing certified" in report_text(summary)


def test_a_reviewer_swayed_by_a_rebuttal_moves_every_score(papers: list[Any]) -> None:
    sample = sample_papers(papers, 10, seed=2)
    reviewer = _reviewer(papers, "swayed")
    guard = Guard(reviewer.judge, concurrency=4)
    rebutted = {
        name: guard.check_many([review_item(p, rebuttal=name) for p in sample])
        for name in ("no-evidence", "hostile")
    }
    summary = review_summary(sample, rebutted["no-evidence"], rebutted, everyone=papers)
    for name in ("no-evidence", "hostile"):
        moves = summary["rebuttals"][name]
        assert moves["read"] == 10 and moves["swayed_share"] == 1
        assert moves["decision_changed_share"] == 0.5  # the rejected half now accepts
        # 3 to 6 for the rejected half, 8 to 10 (the top) for the accepted one
        assert moves["moved"]["Rating"]["mean_abs"] == 2.5 and moves["moved"]["Confidence"] == {
            "reviews": 10,
            "mean_abs": 0.0,
            "mean": 0.0,
        }
    assert summary["flags"]["counts"]["swayed_by_rebuttal"] == 10
    assert "acceptance" not in summary


def test_decision_acceptance_guarantees_on_the_held_out_half() -> None:
    pytest.importorskip("scipy")
    # 200 papers: PRIN 0 is right 95 times in 100, PRIN 0.5 wrong every time, no decision
    # 20 times: the rule accepts PRIN 0 only
    signal: list[float | None] = [0.0] * 100 + [0.5] * 80 + [None] * 20
    wrong = [i % 20 == 0 for i in range(100)] + [True] * 100
    figures = decision_acceptance(signal, wrong, alpha=0.2, delta=0.1, seed=0)
    assert figures["threshold"] is not None and figures["threshold"] < 0.5
    assert figures["rule"].startswith("prin <= ")
    test = figures["test"]
    assert test["papers"] == 100 and test["error_rate"] is not None and test["error_rate"] < 0.2
    assert test["accepted_share"] + test["escalated_share"] == pytest.approx(1)
    with pytest.raises(UsageError, match="wrong"):
        decision_acceptance([0.0], [True, False])
    assert decision_wrong(None, True) and decision_wrong("reject", True)
    assert not decision_wrong("accept", True) and not decision_wrong("reject", False)


def test_eval_iclr2017_from_the_command_line(
    papers_file: Path,
    papers: list[Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reviewer = _reviewer(papers, "oracle", "iclr_cli_reviewer")
    monkeypatch.setitem(sys.modules, "iclr_cli_reviewer", reviewer)
    args = ["eval", "iclr2017", "--judge", "python:iclr_cli_reviewer:judge", "--cache", "memory"]
    out = tmp_path / "run"
    code = main([*args, "--path", str(papers_file), "--limit", "6", "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "# ICLR 2017 reviews" in printed and "100.0% (6)" in printed
    assert "90.5%" in printed and "0.595 (670)" in printed  # the ceiling, from the file
    summary = json.loads((out / "summary.json").read_text())
    assert summary["papers"] == 6 and summary["sample"]["rebuttals"] == ["no-evidence", "hostile"]
    # hostile: the same two legs, answered by the cache, and its own rebuttal call
    assert summary["cost"]["judge_calls"] == 36 and summary["cost"]["cached_calls"] == 12
    assert summary["acceptance"]["threshold"] is None  # 3 calibrating papers certify nothing
    rows = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and set(rows[0]["rebuttals"]) == {"no-evidence", "hostile"}
    abstracts = {p.id: p.abstract for p in papers}
    assert all(abstracts[row["id"]][:80] not in json.dumps(row) for row in rows)  # no paper text
    assert rows[0]["verdict"]["direct"]["raw_text"].startswith("THOUGHT:")
    hostile = rows[0]["rebuttals"]["hostile"]
    assert hostile["follow_up"] == "hostile" and hostile["rounds"][0]["raw_text"].startswith("THO")
    assert math.isclose(rows[0]["human_mean"], sum(rows[0]["human_ratings"]) / 3, rel_tol=0.34)
    assert "<table>" in (out / "report.html").read_text()
    # refused before any call, each naming its flag
    assert main([*args]) == 2
    assert "--path: the ICLR 2017 reviews" in capsys.readouterr().err
    assert main([*args, "--path", str(papers_file), "--rebuttals", "polite"]) == 2
    assert "--rebuttals: unknown rebuttal 'polite'" in capsys.readouterr().err
    assert main([*args, "--path", str(papers_file), "--alpha", "1.5"]) == 2
    assert "--alpha" in capsys.readouterr().err
    assert main([*args, "--path", str(papers_file), "--form", "neurips"]) == 2
    assert "neurips" in capsys.readouterr().err


class _StopsAfter:
    """A guard that is interrupted (Ctrl-C) on its ``calls``-th check_many."""

    def __init__(self, guard: Guard, calls: int) -> None:
        self.guard, self.calls = guard, calls
        self.judge, self.options = guard.judge, guard.options

    def check_many(self, items: list[Any]) -> list[Any]:
        self.calls -= 1
        if self.calls == 0:
            raise KeyboardInterrupt
        return self.guard.check_many(items)


def test_an_interrupted_run_summarises_the_papers_it_finished(
    papers_file: Path, papers: list[Any], tmp_path: Path
) -> None:
    reviewer = _reviewer(papers, "oracle")
    # chunks of 2 papers, each asked with two rebuttals: interrupted in the third chunk
    guard = _StopsAfter(Guard(reviewer.judge), calls=5)
    summary = run_reviews(guard, papers_file, out=tmp_path, limit=8, chunk=2)
    assert summary["interrupted"] and summary["papers"] == 4
    assert summary["sample"]["sampled"] == 8
    assert summary["rebuttals"]["hostile"]["asked"] == 4
    assert len((tmp_path / "items.jsonl").read_text().splitlines()) == 4
    assert "Interrupted: 4 of the 8 papers sampled were reviewed" in report_text(summary)
    with pytest.raises(UsageError, match="chunk"):
        run_reviews(guard, papers_file, out=tmp_path, chunk=0)
    with pytest.raises(UsageError, match="before any paper"):
        run_reviews(_StopsAfter(Guard(reviewer.judge), 1), papers_file, out=tmp_path, limit=4)


def test_papers_the_judge_failed_on_count_in_no_figure(papers: list[Any]) -> None:
    sample = sample_papers(papers, 6, seed=5)
    reviewer = _reviewer(papers, "oracle")
    failing = sample[0].title

    def judge(prompt: str) -> str:
        if f"# {failing}\n" in prompt:
            raise RuntimeError("server gone")
        return str(reviewer.judge(prompt))

    verdicts = Guard(judge).check_many([review_item(p) for p in sample])
    summary = review_summary(sample, verdicts, everyone=papers)
    assert summary["errors"] == 1 and summary["flags"]["counts"] == {"judge_error": 1}
    assert summary["flags"]["flagged_share"] == 0  # of the 5 papers reviewed
    assert summary["decision"]["direct"]["papers"] == 5
    assert "1 papers were not reviewed (the judge failed" in report_text(summary)


RECORDED = Path(__file__).parent / "data" / "reviews" / "qwen2.5-coder-1.5b-iclr2017.jsonl"


def test_a_real_reviewers_recorded_replies_are_read_as_they_were(papers: list[Any]) -> None:
    # Qwen2.5-Coder-1.5B's replies on two ICLR 2017 papers (tests/data/reviews/SOURCE.md),
    # replayed: the same forms, flags and rebuttal moves as when they were recorded
    by_id = {p.id: p for p in papers}
    rows = [json.loads(line) for line in RECORDED.read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        replies = row["replies"]

        def judge(prompt: str, replies: dict[str, str] = replies) -> str:
            if "Author rebuttal:" in prompt:
                return replies["rebuttal"]
            if "This time, do not fill in the review form" in prompt:
                return replies["reverse"]
            return replies["direct"]

        paper = by_id[row["id"]]
        verdict = Guard(judge).check(review_item(paper, row["form"], row["rebuttal"]))
        recorded = row["recorded"]
        assert [f.value for f in verdict.flags] == recorded["flags"]
        assert verdict.rating == recorded["rating"]
        assert verdict.aspects["Rating"].direct.score == recorded["direct_overall"]
        assert verdict.review.decision == recorded["decision"]
        assert verdict.review.rejected == recorded["rejected"]
        assert verdict.review.rebuttal.moved == recorded["rebuttal_moved"]
        assert paper.accepted == row["accepted"]
