"""The guard with a calibrated acceptance rule, alone and as a cascade of tiers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prin_guard import Acceptance, Flag, Guard, Item, UsageError
from prin_guard._route._acceptance import Rule, Tier, binomial_cdf
from prin_guard.judges import ScriptedJudge

ITEM = Item(question="What is 2+2?", candidates=["3", "4", "5"], id="sum")
OPTIONS = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}


def consistent(name: str) -> ScriptedJudge:
    return ScriptedJudge("Answer: B", "Answer: A, C", name=name)


def contradicting(name: str) -> ScriptedJudge:
    # direct B, reverse B: PRIN 1
    return ScriptedJudge("Answer: B", "Answer: B", name=name)


def identity(name: str) -> dict[str, Any]:
    return {"kind": "scripted", "name": name, "seed": None}


def acceptance(*names: str, threshold: float | None = 0.0) -> Acceptance:
    """A consistent acceptance for these judges: of 200 tested items, each tier accepts
    half of those it is asked about, 2 wrong."""
    tested = asked = 200
    tiers, total = [], 0
    for name in names:
        taken = 0 if threshold is None else asked // 2
        rule = Rule(signal="prin", threshold=threshold)
        tiers.append(
            Tier(
                judge=identity(name),
                options=OPTIONS,
                rule=rule,
                asked=asked / tested,
                accepted=taken / tested,
            )
        )
        total, asked = total + taken, asked - taken
    errors = min(2, total)
    return Acceptance(
        alpha=0.1,
        delta=0.1,
        n=tested if len(tiers) == 1 else 300,
        tested=tested,
        accepted=total,
        errors=errors,
        coverage=total / tested,
        p_value=binomial_cdf(errors, total, 0.1) if total else None,
        method="fixed_sequence" if len(tiers) == 1 else "pareto_fixed_sequence",
        signals_tested=("prin",),
        tiers=tuple(tiers),
        calibration_sha256="0" * 64,
    )


def test_an_accepted_verdict_carries_its_decision() -> None:
    verdict = Guard(consistent("cheap"), acceptance=acceptance("cheap")).check(ITEM)
    assert verdict.accepted is True
    assert verdict.decision is not None
    assert verdict.decision.score == 0.0
    assert verdict.decision.rule == "prin <= 0.0"
    assert Flag.NOT_ACCEPTED not in verdict.flags


def test_a_verdict_the_rule_refuses_is_flagged_not_accepted() -> None:
    verdict = Guard(contradicting("cheap"), acceptance=acceptance("cheap")).check(ITEM)
    assert verdict.accepted is False
    assert verdict.decision is not None and verdict.decision.score == 1.0
    assert Flag.NOT_ACCEPTED in verdict.flags
    # one tier: nothing to escalate to, and no cascade to abstain from
    assert Flag.ABSTAINED not in verdict.flags


def test_an_acceptance_file_loads_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "acceptance.json"
    acceptance("cheap").save(path)
    guard = Guard(consistent("cheap"), acceptance=path)
    assert guard.acceptance == acceptance("cheap")
    assert guard.check(ITEM).accepted is True


def test_an_acceptance_for_another_judge_or_other_options_is_refused() -> None:
    with pytest.raises(UsageError, match="acceptance was calibrated for another judge"):
        Guard(consistent("other"), acceptance=acceptance("cheap"))
    with pytest.raises(UsageError, match="acceptance was calibrated with template="):
        Guard(consistent("cheap"), template="v1", acceptance=acceptance("cheap"))
    with pytest.raises(UsageError, match="calibrated for 2 tiers; the guard has 1 tier"):
        Guard(consistent("cheap"), acceptance=acceptance("cheap", "strong"))


def test_the_cascade_asks_the_strong_tier_only_when_the_cheap_one_is_not_accepted() -> None:
    cheap, strong = consistent("cheap"), consistent("strong")
    guard = Guard(tiers=[cheap, strong], acceptance=acceptance("cheap", "strong"))
    verdict = guard.check(ITEM)
    assert verdict.accepted and verdict.decision is not None
    assert verdict.decision.tier == 0 and verdict.decision.tiers_asked == 1
    assert len(strong.calls) == 0
    assert verdict.judge_calls == 2


def test_the_cascade_escalates_and_the_strong_tier_decides() -> None:
    cheap, strong = contradicting("cheap"), consistent("strong")
    guard = Guard(tiers=[cheap, strong], acceptance=acceptance("cheap", "strong"))
    verdict = guard.check(ITEM)
    assert verdict.accepted is True
    assert verdict.decision is not None
    assert verdict.decision.tier == 1 and verdict.decision.tiers_asked == 2
    assert verdict.correct == ("B",)
    assert verdict.judge_calls == 4
    assert len(cheap.calls) == 2 and len(strong.calls) == 2


def test_a_verdict_no_tier_accepts_abstains_for_human_review() -> None:
    guard = Guard(
        tiers=[contradicting("cheap"), contradicting("strong")],
        acceptance=acceptance("cheap", "strong"),
    )
    [verdict] = guard.check_many([ITEM])
    assert verdict.accepted is False
    assert Flag.NOT_ACCEPTED in verdict.flags and Flag.ABSTAINED in verdict.flags
    assert verdict.decision is not None and verdict.decision.tier == 1


def test_a_cascade_tier_can_be_a_panel() -> None:
    panel = [consistent("a"), consistent("b"), contradicting("c")]
    panel_identity = {
        "kind": "panel",
        "name": "panel-of-3",
        "members": [identity("a"), identity("b"), identity("c")],
    }
    base = acceptance("cheap", "x")
    tiers = (base.tiers[0], base.tiers[1].model_copy(update={"judge": panel_identity}))
    # the panel's PRIN is the voting members' mean (1/3): a rule of prin <= 0.5 accepts it
    rule = Rule(signal="prin", threshold=0.5)
    tiers = tuple(tier.model_copy(update={"rule": rule}) for tier in tiers)
    guard = Guard(
        tiers=[contradicting("cheap"), panel],
        acceptance=base.model_copy(update={"tiers": tiers}),
    )
    verdict = guard.check(ITEM)
    assert verdict.decision is not None and verdict.decision.tier == 1
    assert verdict.accepted is True
    assert [m.judge for m in verdict.members] == ["a", "b", "c"]


def test_tiers_need_an_acceptance_and_at_least_two_levels() -> None:
    with pytest.raises(UsageError, match="acceptance: tiers escalate by a calibrated rule"):
        Guard(tiers=[consistent("a"), consistent("b")])
    with pytest.raises(UsageError, match="tiers: a cascade needs at least two tiers"):
        Guard(tiers=[consistent("a")], acceptance=acceptance("a"))
    with pytest.raises(UsageError, match="judge: give a judge"):
        Guard(consistent("a"), tiers=[consistent("b"), consistent("c")])
    with pytest.raises(UsageError, match="this guard is a cascade"):
        _ = Guard(
            tiers=[consistent("cheap"), consistent("strong")],
            acceptance=acceptance("cheap", "strong"),
        ).judge


def test_an_acceptance_is_bound_to_every_word_of_a_template_of_ones_own() -> None:
    # issue 29, item 5: the file records the template's content hash and refuses another
    from dataclasses import replace

    from prin_guard import Template
    from prin_guard._route._acceptance import _options_view

    mine = Template.from_mapping(
        {
            "id": "mine", "version": 1, "positive": "correct", "negative": "incorrect",
            "instruction": "Which options to {question} are correct?\n{candidates}\n"
            "Reply Answer: followed by the letters.",
            "contract": {"format": {"kind": "line", "prefix": "Answer:"}},
        }
    )  # fmt: skip
    bound = _options_view({**OPTIONS, "template": mine})["template"]
    assert bound.startswith("mine@1 sha256:")
    edited = replace(mine, instruction=mine.instruction + " Be brief.")  # same id and version
    assert _options_view({**OPTIONS, "template": edited})["template"] != bound
    tier = acceptance("cheap").tiers[0]
    file = acceptance("cheap").model_copy(
        update={"tiers": (tier.model_copy(update={"options": {**OPTIONS, "template": bound}}),)}
    )
    Guard(consistent("cheap"), template=mine, acceptance=file)  # the same words: accepted
    with pytest.raises(UsageError, match="acceptance was calibrated with template="):
        Guard(consistent("cheap"), template=edited, acceptance=file)
