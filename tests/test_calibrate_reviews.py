"""Calibrated acceptance for reviews (issue 41, item 7): `prin-guard calibrate` on an
`eval iclr2017` run writes a file whose error is a review's decision (`decision_wrong`),
bound to the review form and the guard's options, and a guard with it decides review
verdicts: accepted, or escalated through its tiers and flagged `not_accepted`. Scripted
reviewers on a small synthetic papers file (and on the real one when ../shared has it)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Acceptance, Flag, Guard, InvalidItemError, UsageError
from prin_guard._review import form_identity, review_form
from prin_guard._route._acceptance import content_sha256
from prin_guard.calibrate import calibrate, load_runs
from prin_guard.cli import main
from prin_guard.eval._reviews import review_item, run_reviews

PAPERS = 60
TITLE = re.compile(r"^# (.+)$", re.M)


def _number(prompt: str) -> int:
    found = TITLE.search(prompt)
    assert found is not None, prompt[:400]
    return int(found.group(1).rsplit(" ", 1)[1])


def _accepted(number: int) -> bool:
    return number % 2 == 0


def _form(fields: dict[str, Any]) -> str:
    return "THOUGHT:\nI weighed it.\n\nREVIEW JSON:\n```json\n" + json.dumps(fields) + "\n```"


def _reply(prompt: str, good: bool, contradicts: bool) -> str:
    rating, decision = (8, "Accept") if good else (3, "Reject")
    if "This time, do not fill in the review form" in prompt:
        if contradicts:  # the same numbers (mirror ignored), the decision flipped
            return _form({"Rating": rating, "Confidence": 4, "Reject": "No" if not good else "Yes"})
        return _form({"Rating": 11 - rating, "Confidence": 2, "Reject": "No" if good else "Yes"})
    return _form({"Review": "A review.", "Rating": rating, "Confidence": 4, "Decision": decision})


def careful(prompt: str) -> str:
    """The venue's decision, both legs agreeing, but on every fifth paper, whose mirrored
    leg contradicts the direct one (no decision: inconsistent, wrong)."""
    number = _number(prompt)
    return _reply(prompt, _accepted(number), contradicts=number % 5 == 0)


def stronger(prompt: str) -> str:  # another judge's identity: a cascade's second tier
    """The venue's decision on every paper, both legs agreeing."""
    return _reply(prompt, _accepted(_number(prompt)), contradicts=False)


def _paper(number: int) -> dict[str, Any]:
    good = _accepted(number)
    return {
        "paper_id": f"syn:{number}",
        "title": f"Synthetic paper {number}",
        "abstract": f"We study problem {number} and report what we found.",
        "keywords": [],
        "decision": "Accept (Poster)" if good else "Reject",
        "accepted": good,
        "reviews": [
            {
                "review_index": k,
                "review_title": "A review",
                "text": "Fine work." if good else "Weak work.",
                "rating": 7 if good else 4,
                "confidence": 3,
            }
            for k in range(3)
        ],
    }


@pytest.fixture(scope="module")
def papers_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("papers") / "papers.jsonl"
    path.write_text("".join(json.dumps(_paper(n)) + "\n" for n in range(PAPERS)))
    return path


@pytest.fixture(scope="module")
def run(papers_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "careful"
    run_reviews(Guard(careful, concurrency=4), papers_file, out=out, rebuttals=())
    return out


def test_a_review_run_calibrates_a_decision_file(run: Path) -> None:
    data = load_runs([[run]])
    assert data.task == "review" and data.n == PAPERS and data.forms == ("iclr",)
    assert [sorted(g) for g in data.gold[:2]] == [["accept"], ["reject"]]
    wrong = data.wrong(0)
    assert int(wrong.sum()) == PAPERS // 5  # the contradicted papers give no decision
    result = calibrate(data, alpha=0.1, delta=0.1, signals="prin")
    acc = result.acceptance
    assert acc.task == "review" and acc.error == "decision" and acc.forms == ("iclr",)
    # every decided paper's legs agree (PRIN 0), none is wrong: the most permissive rule
    assert acc.tiers[0].rule.text == "prin <= 1.0"
    assert acc.accepted == PAPERS - PAPERS // 5 and acc.errors == 0
    assert acc.coverage == pytest.approx(0.8)
    assert set(acc.tiers[0].options) == {
        "template",
        "mitigations",
        "policy",
        "checks",
        "prompt_layout",
    }
    # written and read back, as any file
    again = Acceptance.from_json(acc.to_json())
    assert again == acc


def test_the_command_line_writes_it_and_a_guard_decides_reviews(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "acceptance.json"
    code = main(["calibrate", str(run), "--signal", "prin", "--out", str(file)])
    assert code == 0, capsys.readouterr().err
    written = json.loads(file.read_text())
    assert written["task"] == "review" and written["error"] == "decision"
    assert written["forms"] == ["iclr"]
    guard = Guard(careful, acceptance=file)
    kept, contradicted = guard.check_many([review_item(_row_paper(2)), review_item(_row_paper(5))])
    assert kept.decision is not None and kept.decision.accepted
    assert kept.review is not None and kept.review.decision == "accept"
    assert Flag.NOT_ACCEPTED not in kept.flags
    assert contradicted.decision is not None and not contradicted.decision.accepted
    assert contradicted.review is not None and contradicted.review.decision is None
    assert Flag.NOT_ACCEPTED in contradicted.flags
    # a review without a decision is never accepted, whatever its PRIN
    assert contradicted.decision.rule == written["tiers"][0]["rule"]["signal"] + " <= 1.0"
    assert contradicted.decision.score is None and kept.decision.score == 0.0


def test_a_cascade_escalates_what_the_first_tier_does_not_accept(
    papers_file: Path, run: Path, tmp_path: Path
) -> None:
    second = tmp_path / "stronger"
    run_reviews(Guard(stronger, concurrency=4), papers_file, out=second, rebuttals=())
    data = load_runs([[run], [second]])
    acc = calibrate(data, alpha=0.1, delta=0.1, signals="prin", keep_idle_tiers=True).acceptance
    assert acc.task == "review" and len(acc.tiers) == 2
    guard = Guard(tiers=[careful, stronger], acceptance=acc)
    verdict = guard.check(review_item(_row_paper(5)))
    assert verdict.decision is not None
    assert verdict.decision.tiers_asked == 2
    # tier 0 leaves the contradicted papers (a fifth) to tier 1, which decides them all
    assert [t.rule.text for t in acc.tiers] == ["prin <= 0.0", "prin <= 0.0"]
    assert acc.coverage == 1.0 and acc.errors == 0
    assert acc.tiers[1].asked == pytest.approx(acc.tiers[1].accepted)
    assert acc.tiers[1].accepted > 0
    # the contradicted paper: not accepted at tier 0, asked of tier 1, accepted there
    assert verdict.decision.accepted and verdict.decision.tier == 1
    assert verdict.review is not None and verdict.review.decision == "reject"
    assert Flag.NOT_ACCEPTED not in verdict.flags
    # a paper tier 0 decides asks no more of tier 1
    first = guard.check(review_item(_row_paper(4)))
    assert first.decision is not None and first.decision.tier == 0 and first.decision.accepted
    assert first.decision.tiers_asked == 1


def test_a_review_file_is_bound_to_its_task_form_and_options(run: Path, tmp_path: Path) -> None:
    acc = calibrate(load_runs([[run]]), alpha=0.1, delta=0.1, signals="prin").acceptance
    guard = Guard(careful, acceptance=acc)
    # another task's item is refused naming the task
    with pytest.raises(InvalidItemError, match="task"):
        guard.check({"question": "2 + 2?", "candidates": ["4", "5"]})
    # a form of one's own, even a copy of the shipped one edited, is refused naming form
    own = review_form("iclr").model_copy(update={"id": "mine"})
    assert form_identity(own).startswith("mine@")
    assert form_identity(review_form("iclr")) == "iclr"
    with pytest.raises(InvalidItemError, match="form"):
        acc.check_task("review", form=form_identity(own))
    with pytest.raises(InvalidItemError, match="form"):
        guard.check({**review_item(_row_paper(2)), "form": "ai-scientist"})
    # a guard with other bound options is refused naming the option
    with pytest.raises(UsageError, match="policy"):
        Guard(careful, acceptance=acc, policy="strict")
    # a review file without forms, or with a label task's error, is not what calibrate writes
    data = json.loads(acc.to_json())
    del data["content_sha256"]
    changes: list[tuple[dict[str, Any], str]] = [
        ({"forms": []}, "forms: missing"),
        ({"error": "set"}, "error: 'set' for review verdicts"),
        ({"forms": ["iclr", "iclr"]}, "names a form twice"),
        ({"task": "choice", "error": "set"}, "a choice file has no review form"),
    ]
    for change, word in changes:
        edited = {**data, **change}
        edited["content_sha256"] = content_sha256(edited)  # digest right: the content is not
        with pytest.raises(UsageError, match=re.escape(word)):
            Acceptance.from_json(json.dumps(edited))


def test_a_review_run_is_read_only_as_one(run: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="config"):
        load_runs([[run]], config="cot")
    with pytest.raises(UsageError, match="tolerance"):
        load_runs([[run]], tolerance=1.0)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "summary.json").write_text((run / "summary.json").read_text())
    rows = [json.loads(line) for line in (run / "items.jsonl").read_text().splitlines()]
    rows[0]["accepted"] = "yes"
    (broken / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(UsageError, match="accepted 'yes'"):
        load_runs([[broken]])


def _row_paper(number: int) -> Any:
    return _PAPERS_CACHE[number]


_PAPERS_CACHE: dict[int, Any] = {}


@pytest.fixture(autouse=True)
def _papers(papers_file: Path) -> None:
    from prin_guard.eval._reviews import load_papers

    if not _PAPERS_CACHE:
        _PAPERS_CACHE.update({int(p.id.split(":")[1]): p for p in load_papers(papers_file)})


def test_on_the_real_papers_a_guard_decides_what_the_file_certifies(tmp_path: Path) -> None:
    real = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "reviews"
    if not (real / "papers.jsonl").is_file():
        pytest.skip(f"benchmark data not found at {real}")
    from prin_guard.eval._reviews import load_papers, sample_papers

    sample = sample_papers(load_papers(real / "papers.jsonl"), 50, seed=0)
    venue = {p.title: p.accepted for p in sample}
    doubted = {p.title for p in sample[::5]}  # every fifth paper: the legs contradict

    def reviewer(prompt: str) -> str:
        found = re.search(r"^# (.+)$", prompt, re.M)
        assert found is not None
        title = found.group(1)
        return _reply(prompt, venue[title], contradicts=title in doubted)

    out = tmp_path / "real"
    run_reviews(Guard(reviewer, concurrency=4), real / "papers.jsonl", out=out, limit=50)
    data = load_runs([[out]])
    assert data.n == 50 and data.forms == ("iclr",)
    acc = calibrate(data, alpha=0.1, delta=0.1, signals="prin").acceptance
    assert acc.accepted == 40 and acc.errors == 0 and acc.error == "decision"
    guard = Guard(reviewer, acceptance=acc)
    verdicts = guard.check_many([review_item(p) for p in sample[:10]])
    accepted = [v.decision is not None and v.decision.accepted for v in verdicts]
    assert accepted == [p.title not in doubted for p in sample[:10]]
    assert all(
        Flag.NOT_ACCEPTED in v.flags for v, ok in zip(verdicts, accepted, strict=True) if not ok
    )
