"""Calibrated acceptance for ratings (issue 30): eval summeval's runs calibrated with a
tolerance, the file's guarantee P(|rating - human| > tolerance | accepted) <= alpha, and a
guard (one judge or a cascade) applying it to ratings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prin_guard import Acceptance, Flag, Guard, InvalidItemError, UsageError
from prin_guard._route._acceptance import rating_wrong
from prin_guard.calibrate import calibrate, evaluate, load_runs
from prin_guard.eval._ratings import run_ratings

ARTICLES = 8
PER_ARTICLE = 16


def _summeval(path: Path) -> dict[str, float]:
    """A SummEval-shaped file: 8 articles x 16 summaries; each summary's text names it
    (``S<n>``), its human coherence score known to the judges below."""
    human: dict[str, float] = {}
    rows = []
    for article in range(ARTICLES):
        for system in range(PER_ARTICLE):
            key = f"S{article * PER_ARTICLE + system}"
            score = 1 + (article + system) % 5
            human[key] = float(score)
            rows.append(
                {
                    "id": f"summeval:{key}",
                    "doc_id": f"doc{article}",
                    "source": f"Article {article}.",
                    "response": f"Summary {key}.",
                    "expert_mean": {"coherence": score, "consistency": score},
                }
            )
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return human


def _judge(human: dict[str, float], *, sloppy: bool, asked: list[str] | None = None):
    """A judge that rates a summary's human score on the direct leg and its mirror on the
    reverse one (consistent, right), except on every fourth summary, where a ``sloppy``
    judge rates it 4 points off on the direct leg and ignores the mirror (inconsistent,
    and wrong whatever the tolerance); a careful one is right there too."""

    def careful(prompt: str) -> str:
        if asked is not None:
            asked.append("careful")
        key = re.search(r"Summary (S\d+)\.", prompt)
        assert key is not None, prompt
        score = human[key.group(1)]
        return f"Rating: {6 - score if 'how poor' in prompt else score:g}"

    def sloppy_judge(prompt: str) -> str:  # another judge's identity: its own cache keys
        key = re.search(r"Summary S(\d+)\.", prompt)
        assert key is not None, prompt
        if int(key.group(1)) % 4 == 0:
            if asked is not None:
                asked.append("sloppy")
            off = 5.0 if human[f"S{key.group(1)}"] <= 2 else 1.0
            return f"Rating: {off:g}"
        answer = careful(prompt)
        if asked is not None:
            asked[-1] = "sloppy"
        return answer

    return sloppy_judge if sloppy else careful


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("ratings")
    path = folder / "summeval.jsonl"
    human = _summeval(path)
    out = {"path": path, "human": human}
    for name, sloppy in (("cheap", True), ("strong", False)):
        guard = Guard(_judge(human, sloppy=sloppy), cache=None)
        run_ratings(guard, path, aspects=["coherence"], out=folder / name)
        out[name] = folder / name
    return out


def test_a_rating_is_wrong_beyond_the_tolerance_or_without_a_rating() -> None:
    assert not rating_wrong(4.0, 3.0, 1.0)  # exactly the tolerance away: right
    assert rating_wrong(4.5, 3.0, 1.0)
    assert rating_wrong(None, 3.0, 1.0)


def test_rating_runs_need_a_tolerance_and_label_runs_refuse_one(runs: dict) -> None:
    with pytest.raises(UsageError, match=r"^tolerance: the runs rate on a scale"):
        load_runs([[runs["cheap"]]])
    with pytest.raises(UsageError, match=r"^tolerance: must be a positive"):
        load_runs([[runs["cheap"]]], tolerance=0)
    data = load_runs([[runs["cheap"]]], tolerance=1.0)
    assert (data.task, data.n, data.tolerance) == ("rating", ARTICLES * PER_ARTICLE, 1.0)
    wrong = data.wrong(0)
    # the sloppy judge's every fourth summary is inconsistent: no rating, so wrong
    assert wrong.sum() == ARTICLES * PER_ARTICLE // 4
    assert data.human[0] == runs["human"]["S0"]


def test_a_calibrated_rating_file_accepts_consistent_ratings_only(
    runs: dict, tmp_path: Path
) -> None:
    data = load_runs([[runs["cheap"]]], tolerance=1.0)
    cal = calibrate(data, alpha=0.1, delta=0.1, signals="prin")
    acc = cal.acceptance
    assert (acc.task, acc.error, acc.tolerance) == ("rating", "rating", 1.0)
    assert acc.tiers[0].rule.signal == "prin"
    # the consistent three quarters are accepted, none wrong; the rest not
    assert (acc.accepted, acc.errors) == (96, 0)
    file = tmp_path / "acceptance.json"
    acc.save(file)
    loaded = Acceptance.load(file)
    assert loaded == acc
    outcome = evaluate(loaded, data)
    assert (outcome.accepted, outcome.errors) == (96, 0)

    human = runs["human"]
    guard = Guard(_judge(human, sloppy=True), acceptance=file)
    item = {
        "task": "rating",
        "question": "Rate the summary's coherence.",
        "context": "Article 0.",
        "response": "Summary S1.",
        "scale": {"min": 1, "max": 5},
    }
    clean = guard.check(item)
    assert clean.decision is not None and clean.decision.accepted
    assert clean.rating == human["S1"]
    sloppy = guard.check({**item, "response": "Summary S4."})
    assert sloppy.decision is not None and not sloppy.decision.accepted
    assert Flag.NOT_ACCEPTED in sloppy.flags and sloppy.rating is None

    # a rule holds for its own task, its aspects and its options only
    with pytest.raises(InvalidItemError, match=r"^task: the item is a choice item"):
        guard.check({"question": "2 + 2?", "candidates": ["4", "5"]})
    with pytest.raises(InvalidItemError, match=r"^aspects: the guard's acceptance file"):
        guard.check({**item, "aspects": ["coherence", "fluency"]})
    with pytest.raises(UsageError, match=r"calibrated with checks="):
        Guard(_judge(human, sloppy=True), acceptance=file, checks=["reverse", "order"])


def test_a_rating_file_is_refused_without_its_tolerance(runs: dict) -> None:
    data = load_runs([[runs["cheap"]]], tolerance=1.0)
    text = calibrate(data, alpha=0.1, delta=0.1, signals="prin").acceptance.to_json()
    record = json.loads(text)
    record.pop("content_sha256")
    record["tolerance"] = None
    from prin_guard._route._acceptance import content_sha256

    record["content_sha256"] = content_sha256(record)
    with pytest.raises(UsageError, match=r"tolerance: missing"):
        Acceptance.from_json(json.dumps(record))


def test_a_rating_file_records_its_scales_and_refuses_others(runs: dict, tmp_path: Path) -> None:
    # issue 37, item 2: a file calibrated on 1-5 items accepted a 0-1 item's rating
    data = load_runs([[runs["cheap"]]], tolerance=1.0)
    acc = calibrate(data, alpha=0.1, delta=0.1, signals="prin").acceptance
    assert [s.model_dump(exclude_none=True) for s in acc.scales] == [
        {"min": 1, "max": 5, "decimals": False}
    ]
    file = tmp_path / "acceptance.json"
    acc.save(file)
    assert json.loads(file.read_text())["scales"] == [
        {"min": 1, "max": 5, "decimals": False, "tolerance": None}
    ]
    guard = Guard(_judge(runs["human"], sloppy=True), acceptance=file)
    item = {
        "task": "rating",
        "question": "Rate the summary's coherence.",
        "context": "Article 0.",
        "response": "Summary S1.",
        "scale": {"min": 1, "max": 5},
    }
    assert guard.check(item).decision.accepted
    for other, shown in (
        ({"min": 0, "max": 1}, "0-1"),
        ({"min": 1, "max": 5, "decimals": True}, "1-5 with decimals"),
        ({"min": 1, "max": 5, "tolerance": 2}, "1-5, tolerance 2"),
    ):
        with pytest.raises(InvalidItemError) as raised:
            guard.check({**item, "scale": other})
        assert raised.value.field == "scale"
        assert raised.value.reason.startswith(f"the item rates on {shown}; the guard's acceptance")
        assert "calibrated on 1-5" in raised.value.reason
    # the item's own words (a rubric) are no other scale
    rubric = {str(level): f"level {level}" for level in range(1, 6)}
    assert guard.check({**item, "scale": {"min": 1, "max": 5, "rubric": rubric}}).decision

    # a rating file without its scales (as version 2 wrote them) is refused
    record = json.loads(acc.to_json())
    record.pop("content_sha256")
    record["scales"] = []
    from prin_guard._route._acceptance import content_sha256

    record["content_sha256"] = content_sha256(record)
    with pytest.raises(UsageError, match=r"scales: missing; a rating file records the scales"):
        Acceptance.from_json(json.dumps(record))


def test_rating_runs_without_their_scale_are_refused(runs: dict, tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / "summary.json").write_text((runs["cheap"] / "summary.json").read_text())
    rows = [json.loads(line) for line in (runs["cheap"] / "items.jsonl").read_text().splitlines()]
    assert rows[0]["scale"] == {"min": 1, "max": 5}
    for row in rows:
        del row["scale"]
    (old / "items.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(UsageError, match=r"^runs: item .* records no scale"):
        load_runs([[old]], tolerance=1.0)


def test_a_cascade_escalates_ratings_to_the_next_tier(runs: dict, tmp_path: Path) -> None:
    data = load_runs([[runs["cheap"]], [runs["strong"]]], tolerance=1.0)
    cal = calibrate(data, alpha=0.1, delta=0.1, signals="prin", keep_idle_tiers=True)
    acc = cal.acceptance
    assert len(acc.tiers) == 2 and acc.errors == 0
    file = tmp_path / "cascade.json"
    acc.save(file)

    human = runs["human"]
    asked: list[str] = []
    guard = Guard(
        tiers=[
            _judge(human, sloppy=True, asked=asked),
            _judge(human, sloppy=False, asked=asked),
        ],
        acceptance=file,
    )
    item = {
        "task": "rating",
        "question": "Rate the summary's coherence.",
        "context": "Article 0.",
        "response": "Summary S4.",
        "scale": {"min": 1, "max": 5},
    }
    verdict = guard.check(item)
    # the cheap judge contradicted itself; the strong one was asked and accepted
    assert asked == ["sloppy", "sloppy", "careful", "careful"]
    assert verdict.decision is not None and verdict.decision.accepted
    assert (verdict.decision.tier, verdict.rating, verdict.judge_calls) == (1, human["S4"], 4)
    asked.clear()
    assert guard.check({**item, "response": "Summary S5."}).decision.tier == 0
    assert asked == ["sloppy", "sloppy"]


def test_calibrate_on_the_command_line_states_the_rating_guarantee(
    runs: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard.cli import main

    out = tmp_path / "a.json"
    report = tmp_path / "report"
    args = ["calibrate", str(runs["cheap"]), "--signal", "prin", "--out", str(out)]
    assert main([*args, "--report", str(report)]) == 2  # no --tolerance
    assert "tolerance: the runs rate on a scale" in capsys.readouterr().err
    assert main([*args, "--tolerance", "1", "--report", str(report)]) == 0
    printed = capsys.readouterr().out
    assert "P(|rating - human| > 1 | accepted) <= 0.1" in printed
    assert "more than 1 points from the human score" in (report / "calibration.md").read_text()
    assert Acceptance.load(out).tolerance == 1.0


def test_a_run_without_any_rating_says_so(tmp_path: Path) -> None:
    # the bundled 135M model on SummEval: it summarizes instead of rating, no leg is read
    path = tmp_path / "summeval.jsonl"
    _summeval(path)
    run_ratings(Guard(lambda prompt: "The article is about a council.", cache=None), path,
                aspects=["coherence"], articles=2, out=tmp_path / "run")  # fmt: skip
    data = load_runs([[tmp_path / "run"]], tolerance=1.0)
    with pytest.raises(UsageError, match=r"^runs: tier 0 gave a rating on 0 of 32 items"):
        calibrate(data, alpha=0.1, delta=0.1)


def test_a_cascade_reserves_every_tiers_rating_calls(runs: dict, tmp_path: Path) -> None:
    data = load_runs([[runs["cheap"]], [runs["strong"]]], tolerance=1.0)
    file = tmp_path / "cascade.json"
    calibrate(data, alpha=0.1, delta=0.1, signals="prin", keep_idle_tiers=True).acceptance.save(
        file
    )
    human = runs["human"]
    guard = Guard(tiers=[_judge(human, sloppy=True), _judge(human, sloppy=False)], acceptance=file)
    # what a budget reserves for a rating: both legs of each tier
    assert guard.max_judge_calls_for("rating") == 4
