"""The guard end to end on the real bundled model (SmolLM2-135M-Instruct).

The model is tiny and often wrong, so these tests assert structure (both legs
present, parsed or flagged, PRIN computed), never accuracy.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from prin_guard import Flag, Guard, LocalJudge
from prin_guard.datasets import load_mathqa
from prin_guard.models import ParseStatus, Polarity

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def judge() -> LocalJudge:
    return LocalJudge()


def test_guard_on_three_real_mathqa_items(judge: LocalJudge, shared_data: Path) -> None:
    path = shared_data / "mathqa" / "math-evaluation-harness" / "test.jsonl"
    records = list(itertools.islice(load_mathqa(path), 3))
    guard = Guard(judge)
    verdicts = guard.check_many([r.item for r in records])
    assert guard.judge_calls == 6
    for record, verdict in zip(records, verdicts, strict=True):
        assert verdict.item_id == record.item.id
        assert verdict.direct is not None
        assert verdict.reverse is not None
        assert verdict.direct.polarity is Polarity.DIRECT
        assert verdict.reverse.polarity is Polarity.REVERSE
        for leg, flag in (
            (verdict.direct, Flag.UNPARSEABLE_DIRECT),
            (verdict.reverse, Flag.UNPARSEABLE_REVERSE),
        ):
            assert leg.raw_text is not None
            assert leg.usage is not None
            assert (leg.usage.completion_tokens or 0) > 0
            assert leg.latency_ms > 0
            assert not leg.cached
            assert (leg.parse_status is ParseStatus.FAILED) == (flag in verdict.flags)
            assert set(leg.labels) <= set(verdict.labels)
        assert verdict.prin_score is not None
        assert 0.0 <= verdict.prin_score <= 1.0
        assert verdict.consistent == (verdict.prin_score == 0.0)
        assert set(verdict.correct) <= set(verdict.direct.labels)
    again = guard.check_many([r.item for r in records])
    assert guard.judge_calls == 6
    assert [v.correct for v in again] == [v.correct for v in verdicts]
    assert all(v.cached for v in again)


def test_mitigations_and_paraphrases_run_on_the_real_model(
    judge: LocalJudge, table1_item: object
) -> None:
    verdict = Guard(judge, template="v2", mitigations=["neg_exp"]).check(table1_item)  # type: ignore[arg-type]
    assert verdict.reverse is not None
    assert verdict.reverse.template == "v2"
    assert verdict.reverse.mitigations == ("neg_exp",)
    assert verdict.prin_score is not None


def test_cli_check_json_prints_a_verdict_with_both_legs_from_the_bundled_model() -> None:
    question = (
        "If n is an integer and 101 n^2 is at most 10000, what is the greatest possible value of n?"
    )
    args = ["check", "--question", question]
    for candidate in ["7", "8", "9", "10", "11"]:
        args += ["--candidate", candidate]
    out = subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", *args, "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    verdict = json.loads(out.stdout)
    assert verdict["labels"] == ["A", "B", "C", "D", "E"]
    for leg in ("direct", "reverse"):
        assert verdict[leg]["polarity"] == leg
        assert verdict[leg]["raw_text"]
        assert verdict[leg]["parse_status"] in {"ok", "none", "failed"}
    assert 0.0 <= verdict["prin_score"] <= 1.0
