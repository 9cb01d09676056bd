"""The acceptance file: its model, its compatibility checks, and the decisions it makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from prin_guard import GuardOptions, UsageError
from prin_guard._acceptance import SIGNALS, Acceptance, Rule, Tier, signal_value
from prin_guard.models import Scores, Verdict, VerdictError

JUDGE = {"kind": "scripted", "name": "cheap", "seed": None}
STRONG = {"kind": "scripted", "name": "strong", "seed": None}
OPTIONS = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}


def verdict(**scores: float | None) -> Verdict:
    prin = scores.get("prin")
    return Verdict(item_id="q1", prin_score=prin, scores=Scores(**scores))


def acceptance(*rules: Rule, judges: tuple[dict[str, Any], ...] = (JUDGE, STRONG)) -> Acceptance:
    tiers = tuple(
        Tier(judge=judge, options=OPTIONS, rule=rule, asked=1.0, accepted=0.5)
        for judge, rule in zip(judges, rules, strict=False)
    )
    return Acceptance(
        alpha=0.1,
        delta=0.1,
        n=200,
        tested=200,
        accepted=100,
        errors=4,
        coverage=0.5,
        p_value=0.001,
        method="fixed_sequence" if len(tiers) == 1 else "pareto_fixed_sequence",
        signals_tested=("prin",),
        tiers=tiers,
        calibration_sha256="0" * 64,
    )


@pytest.mark.parametrize(
    ("rule", "score", "accepted"),
    [
        pytest.param(Rule(signal="prin", threshold=0.25), 0.25, True, id="prin-at-threshold"),
        pytest.param(Rule(signal="prin", threshold=0.25), 0.26, False, id="prin-above"),
        pytest.param(Rule(signal="confidence", threshold=0.9), 0.9, True, id="confidence-at"),
        pytest.param(Rule(signal="confidence", threshold=0.9), 0.89, False, id="confidence-under"),
        pytest.param(
            Rule(signal="panel_agreement", threshold=1.0), 1.0, True, id="panel-unanimous"
        ),
        pytest.param(Rule(signal="prin", threshold=None), 0.0, False, id="never-accepts"),
        pytest.param(Rule(signal="prin", threshold=1.0), None, False, id="missing-signal"),
    ],
)
def test_a_rule_accepts_on_the_good_side_of_its_threshold(
    rule: Rule, score: float | None, accepted: bool
) -> None:
    assert rule.accepts(score) is accepted


def test_a_rule_reads_as_its_signal_direction_and_threshold() -> None:
    assert Rule(signal="prin", threshold=0.0).text == "prin <= 0.0"
    assert Rule(signal="confidence", threshold=0.93).text == "confidence >= 0.93"
    assert Rule(signal="order_inconsistency", threshold=None).text == "order_inconsistency: never"


def test_a_threshold_must_be_finite() -> None:
    with pytest.raises(ValueError, match="finite"):
        Rule(signal="prin", threshold=float("inf"))


def test_signals_are_read_from_the_verdicts_scores() -> None:
    v = verdict(prin=0.2, order_inconsistency=0.5, confidence=0.7, panel_agreement=0.8)
    assert signal_value(v, "prin") == 0.2
    assert signal_value(v, "order_inconsistency") == 0.5
    assert signal_value(v, "inconsistency") == 0.5
    assert signal_value(v, "confidence") == 0.7
    assert signal_value(v, "panel_agreement") == 0.8
    assert set(SIGNALS) == {
        "prin",
        "order_inconsistency",
        "inconsistency",
        "panel_agreement",
        "confidence",
    }


def test_prin_falls_back_to_prin_score_for_records_without_scores() -> None:
    old = Verdict(item_id="q1", prin_score=0.4)
    assert signal_value(old, "prin") == 0.4
    assert signal_value(old, "inconsistency") == 0.4
    assert signal_value(old, "confidence") is None


def test_a_verdict_with_an_error_has_no_signal() -> None:
    failed = Verdict(
        item_id="q1",
        prin_score=0.0,
        scores=Scores(prin=0.0),
        error=VerdictError(kind="judge", message="timeout"),
    )
    assert signal_value(failed, "prin") is None
    assert not acceptance(Rule(signal="prin", threshold=1.0)).decide(failed).accepted


def test_decide_reports_the_score_the_rule_and_the_tier() -> None:
    file = acceptance(Rule(signal="prin", threshold=0.0), Rule(signal="prin", threshold=0.5))
    first = file.decide(verdict(prin=0.4), tier=0)
    assert (first.accepted, first.score, first.rule, first.tier, first.tiers_asked) == (
        False,
        0.4,
        "prin <= 0.0",
        0,
        1,
    )
    second = file.decide(verdict(prin=0.4), tier=1)
    assert (second.accepted, second.rule, second.tier, second.tiers_asked) == (
        True,
        "prin <= 0.5",
        1,
        2,
    )
    stamped = verdict(prin=0.4).model_copy(update={"decision": second})
    assert stamped.accepted is True


def test_decide_refuses_a_tier_the_file_does_not_have() -> None:
    with pytest.raises(UsageError, match="tier: 2 is not a tier"):
        acceptance(Rule(signal="prin", threshold=0.0)).decide(verdict(prin=0.0), tier=2)


def test_the_file_round_trips_through_json(tmp_path: Path) -> None:
    file = acceptance(
        Rule(signal="prin", threshold=1 / 3), Rule(signal="confidence", threshold=0.9)
    )
    path = tmp_path / "acceptance.json"
    file.save(path)
    loaded = Acceptance.load(path)
    assert loaded == file
    assert loaded.tiers[0].rule.threshold == 1 / 3  # floats survive exactly
    assert json.loads(path.read_text())["format"] == "prin-guard-acceptance"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("{not json", "not JSON", id="not-json"),
        pytest.param('{"format": "other"}', "not a prin-guard acceptance file", id="format"),
        pytest.param(
            '{"format": "prin-guard-acceptance", "version": 2}', "version 2", id="version"
        ),
    ],
)
def test_a_foreign_file_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "a.json"
    path.write_text(text)
    with pytest.raises(UsageError, match=message):
        Acceptance.load(path)


def test_a_bad_field_is_named(tmp_path: Path) -> None:
    data = json.loads(acceptance(Rule(signal="prin", threshold=0.0)).to_json())
    data["alpha"] = 1.5
    path = tmp_path / "a.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match=r"a\.json: alpha: "):
        Acceptance.load(path)


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read"):
        Acceptance.load(tmp_path / "absent.json")


def test_the_calibrated_judge_and_options_are_compatible() -> None:
    file = acceptance(Rule(signal="prin", threshold=0.0), judges=(JUDGE,))
    file.check_compatible(JUDGE, GuardOptions())
    file.check_compatible([JUDGE], [OPTIONS])
    # options that change neither sets nor scores do not matter
    file.check_compatible(JUDGE, GuardOptions(threshold=0.3, max_chars=100, probe="closed"))


def test_another_judge_is_refused_naming_what_differs() -> None:
    file = acceptance(Rule(signal="prin", threshold=0.0), judges=(JUDGE,))
    other = {**JUDGE, "name": "strong"}
    with pytest.raises(UsageError, match=r"another judge \(name: calibrated \"cheap\", given"):
        file.check_compatible(other, GuardOptions())


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param(GuardOptions(template="v1"), "template", id="template"),
        pytest.param(GuardOptions(mitigations=["cot"]), "mitigations", id="mitigations"),
        pytest.param(GuardOptions(policy="direct"), "policy", id="policy"),
        pytest.param(GuardOptions(checks=["reverse", "order"]), "checks", id="checks"),
    ],
)
def test_other_options_are_refused_naming_the_option(options: GuardOptions, field: str) -> None:
    file = acceptance(Rule(signal="prin", threshold=0.0), judges=(JUDGE,))
    with pytest.raises(UsageError, match=f"calibrated with {field}="):
        file.check_compatible(JUDGE, options)


def test_mitigations_compare_as_a_set() -> None:
    both = {**OPTIONS, "mitigations": ["cot", "neg_exp"]}
    tier = Tier(
        judge=JUDGE, options=both, rule=Rule(signal="prin", threshold=0.0), asked=1, accepted=0
    )
    file = acceptance(Rule(signal="prin", threshold=0.0), judges=(JUDGE,)).model_copy(
        update={"tiers": (tier,)}
    )
    file.check_compatible(JUDGE, {**OPTIONS, "mitigations": ["neg_exp", "cot"]})


def test_a_cascade_needs_as_many_tiers_in_the_same_order() -> None:
    file = acceptance(Rule(signal="prin", threshold=0.0), Rule(signal="prin", threshold=0.5))
    file.check_compatible([JUDGE, STRONG], GuardOptions())
    with pytest.raises(UsageError, match="calibrated for 2 tiers; the guard has 1 tier"):
        file.check_compatible([JUDGE], GuardOptions())
    with pytest.raises(UsageError, match="tier 0 was calibrated for another judge"):
        file.check_compatible([STRONG, JUDGE], GuardOptions())
    with pytest.raises(UsageError, match="options: 1 given for 2 tiers"):
        file.check_compatible([JUDGE, STRONG], [GuardOptions()])
