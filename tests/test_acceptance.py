"""The acceptance file: its model, its checks, its compatibility, and the decisions it makes."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from scipy import stats
from structlog.testing import capture_logs

from prin_guard import Acceptance, GuardOptions, UsageError
from prin_guard._route._acceptance import (
    FIELDS_SINCE,
    MAX_FILE_BYTES,
    SIGNALS,
    Rule,
    Tier,
    binomial_cdf,
    content_sha256,
    signal_value,
    signature,
)
from prin_guard.calibrate import min_items
from prin_guard.models import Scores, Verdict, VerdictError

JUDGE = {"kind": "scripted", "name": "cheap", "seed": None}
STRONG = {"kind": "scripted", "name": "strong", "seed": None}
OPTIONS = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}


def verdict(**scores: float | None) -> Verdict:
    prin = scores.get("prin")
    return Verdict(item_id="q1", prin_score=prin, scores=Scores(**scores))


def acceptance(
    *rules: Rule,
    judges: tuple[dict[str, Any], ...] = (JUDGE, STRONG),
    options: dict[str, Any] = OPTIONS,
) -> Acceptance:
    """A consistent acceptance with these rules: of 200 tested items, each tier accepts
    half of those it is asked about (none with a rule that never accepts), 4 wrong."""
    tested = asked = 200
    tiers, total = [], 0
    for judge, rule in zip(judges, rules, strict=False):
        taken = 0 if rule.threshold is None else asked // 2
        tiers.append(
            Tier(
                judge=judge,
                options=options,
                rule=rule,
                asked=asked / tested,
                accepted=taken / tested,
            )
        )
        total, asked = total + taken, asked - taken
    errors = min(4, total)
    one = len(tiers) == 1
    return Acceptance(
        alpha=0.1,
        delta=0.1,
        n=tested if one else 300,
        tested=tested,
        accepted=total,
        errors=errors,
        coverage=total / tested,
        p_value=binomial_cdf(errors, total, 0.1) if total else None,
        method="fixed_sequence" if one else "pareto_fixed_sequence",
        signals_tested=tuple(dict.fromkeys(rule.signal for rule in rules)),
        tiers=tuple(tiers),
        calibration_sha256="0" * 64,
    )


def with_digest(data: dict[str, Any]) -> str:
    """A file with this content and its digest: what calibrate would write for it."""
    data = {key: value for key, value in data.items() if key != "content_sha256"}
    return json.dumps({**data, "content_sha256": content_sha256(data)})


def version_1(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as a file of the first version: without the fields it never had."""
    return {**{k: v for k, v in data.items() if k not in FIELDS_SINCE}, "version": 1}


def file_data(*rules: Rule) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(acceptance(*rules).to_json())
    return data


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


@pytest.mark.parametrize(
    "threshold",
    [
        pytest.param(float("inf"), id="infinite"),
        pytest.param(float("nan"), id="nan"),
        pytest.param(-0.1, id="under-0"),
        pytest.param(1.5, id="over-1"),
    ],
)
def test_a_threshold_lies_in_its_signals_range(threshold: float) -> None:
    with pytest.raises(ValueError, match=r"is not a threshold: signals lie in \[0, 1\]"):
        Rule(signal="prin", threshold=threshold)
    assert Rule(signal="confidence", threshold=1.0).threshold == 1.0


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
        "direct_confidence",
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
            '{"format": "prin-guard-acceptance", "version": 4}', "version 4", id="version"
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
    with pytest.raises(UsageError, match=r"absent\.json: cannot read"):
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
    file = acceptance(Rule(signal="prin", threshold=0.0), judges=(JUDGE,), options=both)
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


# -- the file is checked, not trusted (issue 21 item 17) ------------------------------------

PRIN = Rule(signal="prin", threshold=0.0)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[last] = value

    return edit


def _edits(*edits: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)

    return edit


# each: an edit to a consistent one-tier file (200 items, 100 accepted, 4 wrong), and
# the field the error must name
IMPOSSIBLE = [
    pytest.param(_set("errors", 150), "errors: 150 wrong of 100 accepted", id="errors>accepted"),
    pytest.param(_set("accepted", 300), "accepted: 300 accepted of 200 tested", id="acc>tested"),
    pytest.param(_set("tested", 500), "tested: 500 items tested of 200", id="tested>n"),
    pytest.param(
        _edits(_set("n", 50), _set("tested", 50), _set("coverage", 1.0)),
        "accepted: 100 accepted of 50 tested",
        id="all-out-of-order",
    ),
    pytest.param(_set("p_value", 5.0), "p_value: Input should be less than or equal", id="p>1"),
    pytest.param(
        _set("p_value", 0.001), "p_value: 0.001 is not P(Binomial(100, 0.1) <= 4)", id="p"
    ),
    pytest.param(
        _edits(_set("errors", 9), _set("p_value", binomial_cdf(9, 100, 0.1))),
        "is above 0.1, the level the rule was tested at",
        id="p-not-certified",
    ),
    pytest.param(_set("p_value", None), "p_value: None; it is null exactly when", id="p-null"),
    pytest.param(_set("coverage", 0.9), "coverage: 0.9 is not accepted / tested", id="coverage"),
    pytest.param(_set("alpha", 0.0), "alpha: Input should be greater than 0", id="alpha"),
    pytest.param(_set("delta", 1.0), "delta: Input should be less than 1", id="delta"),
    pytest.param(_set("n", 10**12), "n: Input should be less than or equal", id="n-huge"),
    pytest.param(
        _edits(_set("tiers.0.rule.threshold", None), _set("tiers.0.accepted", 0.0)),
        "accepted: 100, but every rule accepts nothing",
        id="never-accepts-yet-accepted",
    ),
    pytest.param(_set("tiers.0.rule.threshold", 1.5), "tiers.0.rule.threshold: 1.5", id="prin>1"),
    pytest.param(_set("tiers.0.rule.threshold", -1.0), "tiers.0.rule.threshold: -1.0", id="<0"),
    pytest.param(
        _set("tiers.0.options", {}),
        "tiers.0.options: lacks template, mitigations, policy, checks",
        id="options-empty",
    ),
    pytest.param(
        _set("tiers.0.options", {k: v for k, v in OPTIONS.items() if k != "checks"}),
        "tiers.0.options: lacks checks",
        id="options-without-checks",
    ),
    pytest.param(
        _set("tiers.0.options", {**OPTIONS, "threshold": 0.5}),
        "threshold: not an option a tier is bound to",
        id="options-extra",
    ),
    pytest.param(
        _set("tiers.0.options.policy", "vibes"),
        "tiers.0.options: policy: unknown policy",
        id="policy",
    ),
    pytest.param(_set("tiers.0.asked", 0.5), "tiers.0.asked: 0.5; the first tier", id="asked"),
    pytest.param(_set("tiers.0.accepted", 0.6), "the tiers accept 120 items in all", id="share"),
    pytest.param(_set("tiers.0.accepted", 0.5001), "is not a share of the 200", id="not-a-share"),
    pytest.param(
        _set("signals_tested", ["confidence"]),
        "tiers.0.rule.signal: 'prin' is not among signals_tested",
        id="signal-not-tested",
    ),
    pytest.param(
        _set("signals_tested", ["prin", "prin"]), "names a signal twice", id="signal-twice"
    ),
    pytest.param(
        _set("method", "pareto_fixed_sequence"), "method: pareto_fixed_sequence", id="method"
    ),
    pytest.param(
        _edits(
            _set("n", 15),
            _set("tested", 15),
            _set("accepted", 0),
            _set("errors", 0),
            _set("coverage", 0.0),
            _set("p_value", None),
            _set("tiers.0.rule.threshold", None),
            _set("tiers.0.accepted", 0.0),
        ),
        "tested: 15 items cannot certify any rule at alpha=0.1, delta=0.1 (at least 22)",
        id="too-few-items",
    ),
    pytest.param(
        _set("calibration_sha256", "x"), "calibration_sha256: String should match", id="sha"
    ),
    pytest.param(_set("runs", [["a"], ["b"]]), "runs: 2 lists of run directories", id="runs"),
]


@pytest.mark.parametrize(("edit", "message"), IMPOSSIBLE)
def test_impossible_statistics_are_refused_naming_the_file_and_field(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = file_data(PRIN)
    edit(data)
    path = tmp_path / "acceptance.json"
    # with a digest that matches (what it says is impossible all the same), and as a file
    # of the first version, without one (when the edit is to a field version 1 had)
    texts = [with_digest(data)]
    if all(data.get(name) == file_data(PRIN).get(name) for name in FIELDS_SINCE):
        texts.append(json.dumps(version_1(data)))
    for text in texts:
        path.write_text(text)
        with pytest.raises(UsageError) as raised:
            Acceptance.load(path)
        assert str(raised.value).startswith(f"{path}: ")
        assert message in str(raised.value)


def test_an_acceptance_is_built_consistent_in_python_too() -> None:
    good = acceptance(PRIN)
    with pytest.raises(ValidationError, match="errors: 150 wrong of 100 accepted"):
        Acceptance(**{**good.model_dump(), "errors": 150})


def test_a_cascades_tiers_share_out_the_tested_items() -> None:
    good = file_data(PRIN, Rule(signal="prin", threshold=0.5))
    assert [(t["asked"], t["accepted"]) for t in good["tiers"]] == [(1.0, 0.5), (0.5, 0.25)]
    Acceptance.from_json(with_digest(good))
    _set("tiers.1.asked", 1.0)(good)  # tier 0 accepted half: only half reach tier 1
    with pytest.raises(UsageError, match=r"tiers\.1\.asked: 1\.0; tier 0 left 0\.5 of the items"):
        Acceptance.from_json(with_digest(good))


def test_a_rule_edited_within_its_range_is_refused_by_the_digest(tmp_path: Path) -> None:
    path = tmp_path / "acceptance.json"
    acceptance(PRIN).save(path)
    text = path.read_text()
    assert '"threshold": 0.0' in text
    path.write_text(text.replace('"threshold": 0.0', '"threshold": 1.0'))  # prin <= 1.0
    with pytest.raises(UsageError, match=r"acceptance\.json: content_sha256: the digest does not"):
        Acceptance.load(path)


def test_the_digest_is_over_the_content_not_its_layout(tmp_path: Path) -> None:
    path = tmp_path / "acceptance.json"
    acceptance(PRIN, Rule(signal="confidence", threshold=1.0)).save(path)
    data = json.loads(path.read_text())
    assert data["version"] == 3
    assert data["content_sha256"] == content_sha256(data)
    # keys in another order, another indentation, 1.0 written 1: the same content
    data["delta"], data["tiers"][1]["rule"]["threshold"] = 0.1, 1
    path.write_text(json.dumps(dict(reversed(list(data.items()))), indent=4, sort_keys=True))
    assert Acceptance.load(path) == acceptance(PRIN, Rule(signal="confidence", threshold=1.0))


def test_a_file_needs_its_digest_from_version_2(tmp_path: Path) -> None:
    data = file_data(PRIN)
    del data["content_sha256"]
    with pytest.raises(UsageError, match="content_sha256: missing; a version-3 file carries the"):
        Acceptance.from_json(json.dumps(data), where="a.json")
    older = {key: value for key, value in data.items() if FIELDS_SINCE.get(key, 0) < 3}
    with pytest.raises(UsageError, match="content_sha256: missing; a version-2 file carries the"):
        Acceptance.from_json(json.dumps({**older, "version": 2}), where="a.json")


def test_a_version_1_file_without_digest_loads_with_a_warning(tmp_path: Path) -> None:
    data = version_1(file_data(PRIN))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with capture_logs() as events:
        loaded = Acceptance.load(path)
    assert loaded.version == 1
    assert loaded.rules == (PRIN,)
    (warning,) = [e for e in events if e["event"] == "acceptance_no_digest"]
    assert warning["log_level"] == "warning"
    assert warning["file"] == str(path)
    # still checked: an impossible version-1 file is refused all the same
    data["tiers"][0]["options"] = {}
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match=r"tiers\.0\.options: lacks template"):
        Acceptance.load(path)
    # saved again, it is a version-3 file with its digest
    Acceptance.from_json(json.dumps(version_1(file_data(PRIN)))).save(path)
    assert json.loads(path.read_text())["version"] == 3
    with capture_logs() as events:
        Acceptance.load(path)
    assert not events


@pytest.mark.parametrize(
    ("version", "field"),
    [
        pytest.param(1, "selection", id="to-1"),
        pytest.param(2, "scales", id="to-2"),
    ],
)
def test_a_file_rewritten_as_an_earlier_version_is_refused(version: int, field: str) -> None:
    # issue 37, item 8: the digest deleted and "version": 1 written, a file loaded with
    # fields version 1 never had, and a warning only
    data = file_data(PRIN)
    del data["content_sha256"]
    data["version"] = version
    with pytest.raises(UsageError) as raised:
        Acceptance.from_json(json.dumps(data), where="a.json")
    assert str(raised.value).startswith(f"a.json: {field}: version-{version} files never had it")
    assert "rewritten as an earlier version" in str(raised.value)
    # a field version 1 had, left at a value version 1 could not write, is no way round
    old = version_1(file_data(PRIN))
    with pytest.raises(UsageError, match=r"a\.json: error: 'rating' for choice verdicts"):
        Acceptance.from_json(json.dumps({**old, "error": "rating"}), where="a.json")


KEY = "k" * 32


def test_the_operators_key_signs_a_file_and_checks_it_on_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "acceptance.json"
    monkeypatch.setenv("PRIN_GUARD_ACCEPTANCE_KEY", KEY)
    acceptance(PRIN).save(path)
    data = json.loads(path.read_text())
    assert data["signature"] == signature(data, KEY.encode())
    assert data["signature"].startswith("hmac-sha256:") and KEY not in path.read_text()
    assert Acceptance.load(path) == acceptance(PRIN)
    # an edit with the digest computed again, as anyone can: the signature refuses it
    edited = {**data, "seed": 7}  # consistent, so only the signature can tell
    path.write_text(with_digest(edited))
    with pytest.raises(UsageError, match=r"signature: does not match the file's content under"):
        Acceptance.load(path)
    # signed with another key
    path.write_text(json.dumps({**data, "signature": signature(data, b"x" * 32)}))
    with pytest.raises(UsageError, match=r"signature: does not match"):
        Acceptance.load(path)
    # unsigned, and a version-1 file (which cannot carry one), with the key set
    for unsigned in (json.loads(with_digest(data)), version_1(data)):
        unsigned.pop("signature", None)
        path.write_text(json.dumps(unsigned))
        with pytest.raises(
            UsageError, match=r"signature: missing; PRIN_GUARD_ACCEPTANCE_KEY is set"
        ):
            Acceptance.load(path)
    # without the key, a signed file loads (the digest still checked), with a warning
    path.write_text(json.dumps(data))
    monkeypatch.delenv("PRIN_GUARD_ACCEPTANCE_KEY")
    with capture_logs() as events:
        assert Acceptance.load(path) == acceptance(PRIN)
    assert [e["event"] for e in events] == ["acceptance_signature_unchecked"]
    assert KEY not in json.dumps(events)


def test_a_short_operators_key_is_refused_naming_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRIN_GUARD_ACCEPTANCE_KEY", "short")
    with pytest.raises(UsageError, match=r"^PRIN_GUARD_ACCEPTANCE_KEY: 5 bytes; .* at least 16"):
        acceptance(PRIN).save(tmp_path / "a.json")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(34 * 1024 * 1024)  # sparse: 34 MB that cost nothing to write
    with pytest.raises(UsageError, match=r"huge\.json: 35,651,584 bytes; an acceptance file"):
        Acceptance.load(path)
    with pytest.raises(UsageError, match="is at most 1,048,576 bytes"):
        Acceptance.from_json(" " * (MAX_FILE_BYTES + 1))
    # a device (or a pipe) has no size to look at: read no further than the limit
    with pytest.raises(UsageError, match="is at most 1,048,576 bytes"):
        Acceptance.load("/dev/zero")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("[" * 100_000 + "]" * 100_000, "not an acceptance file", id="nested"),
        pytest.param('{"n": ' + "9" * 5000 + "}", "not an acceptance file", id="huge-number"),
        pytest.param(b"\xff\xfe{}", "not UTF-8", id="not-utf8"),
    ],
)
def test_hostile_json_is_a_usage_error(tmp_path: Path, text: str | bytes, message: str) -> None:
    path = tmp_path / "a.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(UsageError, match=message):
        Acceptance.load(path)


def test_options_a_tier_lacks_never_match_any_guard() -> None:
    # a model built around validation (model_copy): check_compatible still compares
    # every bound option, so an absent one is no wildcard
    file = acceptance(PRIN, judges=(JUDGE,))
    bare = file.model_copy(update={"tiers": (file.tiers[0].model_copy(update={"options": {}}),)})
    with pytest.raises(UsageError, match="the file does not record the option 'template'"):
        bare.check_compatible(JUDGE, GuardOptions(template="v1"))


# -- the statistics the checks use -----------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        pytest.param(0, 22, 0.1, id="no-error"),
        pytest.param(4, 100, 0.1, id="small"),
        pytest.param(16, 280, 0.1, id="cascade"),
        pytest.param(99_000, 1_000_000, 0.1, id="million-lower-tail"),
        pytest.param(100_500, 1_000_000, 0.1, id="million-upper-tail"),
        pytest.param(99_990_000, 1_000_000_000, 0.1, id="billion"),
        pytest.param(0, 1_000_000, 0.1, id="underflow"),
        pytest.param(9, 10, 0.99, id="high-p"),
        pytest.param(10, 10, 0.5, id="all"),
    ],
)
def test_binomial_cdf_matches_scipy(k: int, n: int, p: float) -> None:
    assert binomial_cdf(k, n, p) == pytest.approx(stats.binom.cdf(k, n, p), rel=1e-9, abs=1e-300)


@given(
    n=st.integers(1, 10**7),
    p=st.floats(1e-4, 1 - 1e-4),
    spread=st.floats(-12.0, 12.0),
)
def test_binomial_cdf_matches_scipy_anywhere(n: int, p: float, spread: float) -> None:
    k = min(n, max(0, round(n * p + spread * math.sqrt(n * p * (1 - p)))))
    expected = float(stats.binom.cdf(k, n, p))
    assert math.isclose(binomial_cdf(k, n, p), expected, rel_tol=1e-9, abs_tol=1e-14)


def test_min_items_is_where_an_error_free_rule_first_passes() -> None:
    assert min_items(0.1, 0.1) == 22
    assert binomial_cdf(0, 22, 0.1) <= 0.1 < binomial_cdf(0, 21, 0.1)


# -- the error of a verdict, and the task a file holds for ------------------------------


@pytest.mark.parametrize(
    ("labels", "correct", "gold", "wrong", "off"),
    [
        pytest.param("ABCD", "B", "B", False, 0, id="choice-right"),
        pytest.param("ABCD", "BC", "B", True, 1, id="choice-one-too-many"),
        pytest.param("ABCD", "", "B", True, 1, id="choice-empty"),
        pytest.param("AB", "A", "A", False, 0, id="pairwise-winner"),
        pytest.param("AB", "B", "A", True, 2, id="pairwise-other-winner"),
        pytest.param("AB", "AB", "A", True, 1, id="pairwise-tie-where-gold-has-a-winner"),
        pytest.param("AB", "", "A", True, 1, id="pairwise-undecided"),
        pytest.param("AB", "AB", "AB", False, 0, id="pairwise-tie-where-gold-is-a-tie"),
        pytest.param("AB", "A", "AB", True, 1, id="pairwise-winner-where-gold-is-a-tie"),
        pytest.param("ABCDE", "ACE", "ACE", False, 0, id="checklist-exact"),
        pytest.param("ABCDE", "AC", "ACE", True, 1, id="checklist-one-missed"),
        pytest.param("ABCDE", "ABD", "ACE", True, 4, id="checklist-mostly-wrong"),
        pytest.param("ABC", "", "", False, 0, id="checklist-none-met"),
    ],
)
def test_the_error_of_a_verdict_is_its_set_against_the_gold_for_every_task(
    labels: str, correct: str, gold: str, wrong: bool, off: int
) -> None:
    from prin_guard._route._acceptance import candidate_errors, verdict_wrong

    assert verdict_wrong(correct, gold) is wrong
    assert candidate_errors(labels, correct, gold) == off
    assert (off > 0) is wrong


def _pairwise_file() -> Acceptance:
    data = file_data(Rule(signal="order_inconsistency", threshold=0.0))
    data["task"] = "pairwise"
    data["tiers"][0]["options"] = {
        **OPTIONS,
        "template": "pairwise",
        "checks": ["reverse", "order"],
    }
    return Acceptance.from_json(with_digest(data))


def test_a_file_records_its_task_and_files_without_one_are_choice() -> None:
    old = file_data(Rule(signal="prin", threshold=0.0))
    del old["task"]  # a version-2 file written before tasks, its digest without the field
    assert Acceptance.from_json(with_digest(old)).task == "choice"
    pairwise = _pairwise_file()
    assert pairwise.task == "pairwise"
    assert json.loads(pairwise.to_json())["task"] == "pairwise"
    assert Acceptance.from_json(pairwise.to_json()) == pairwise


def test_a_file_decides_verdicts_of_its_own_task_only() -> None:
    from prin_guard import InvalidItemError

    pairwise = _pairwise_file()
    mine = Verdict(item_id="q", task="pairwise", scores=Scores(prin=0.0, order_inconsistency=0.0))
    assert pairwise.decide(mine).accepted
    choice = Verdict(item_id="q", scores=Scores(prin=0.0, order_inconsistency=0.0))
    with pytest.raises(InvalidItemError, match=r"task: the item is a choice item.*pairwise"):
        pairwise.decide(choice)
    # an error verdict (no legs, no task of its own) is simply not accepted
    failed = Verdict(item_id="q", error=VerdictError(kind="judge", message="down"))
    assert not pairwise.decide(failed).accepted


def test_a_file_reads_no_template_as_its_tasks_default() -> None:
    pairwise = _pairwise_file()
    pairwise.check_compatible(JUDGE, GuardOptions(checks=("reverse", "order")))
    pairwise.check_compatible(JUDGE, GuardOptions(template="pairwise", checks=("reverse", "order")))
    with pytest.raises(UsageError, match=r"calibrated with template=\"pairwise\"; this guard has "):
        pairwise.check_compatible(JUDGE, GuardOptions(template="v0", checks=("reverse", "order")))
    # a choice file: no template is v0, as it always was
    acceptance(Rule(signal="prin", threshold=0.0)).check_compatible(JUDGE, GuardOptions())


def test_a_file_reads_no_checks_as_its_tasks_default() -> None:
    # issue 27: a pair gets the order check by default; a guard that names no checks
    # matches a pairwise file calibrated with both, and a choice file with the reverse alone
    pairwise = _pairwise_file()
    pairwise.check_compatible(JUDGE, GuardOptions())
    with pytest.raises(UsageError, match=r"calibrated with checks=\["):
        pairwise.check_compatible(JUDGE, GuardOptions(checks="reverse"))
    choice = acceptance(Rule(signal="prin", threshold=0.0))
    choice.check_compatible(JUDGE, GuardOptions())
    with pytest.raises(UsageError, match=r"calibrated with checks=\["):
        choice.check_compatible(JUDGE, GuardOptions(checks="reverse,order"))


def test_a_guard_with_a_file_refuses_items_of_another_task() -> None:
    from prin_guard import Guard, InvalidItemError, Item
    from prin_guard.judges import ScriptedJudge

    judge = ScriptedJudge("Answer: A", "Answer: B", name="cheap")
    guard = Guard(
        judge, acceptance=_pairwise_file(), options=GuardOptions(checks=("reverse", "order"))
    )
    pair = Item(task="pairwise", question="Say hi.", candidates=["Hi!", "Bye."])
    assert guard.check(pair).decision is not None
    choice = Item(question="2 + 2?", candidates=["4", "5"])
    calls = judge.call_count
    with pytest.raises(InvalidItemError, match="task: the item is a choice item"):
        guard.check(choice)
    assert judge.call_count == calls  # refused before any judge call
    verdicts = guard.check_many([pair, choice])
    assert verdicts[0].decision is not None
    assert verdicts[1].error is not None and verdicts[1].error.field == "task"


def test_a_file_that_kept_items_apart_tests_on_the_rest() -> None:
    data = file_data(Rule(signal="prin", threshold=0.0))
    assert data["selection"] == 0 and data["signals_compared"] == []
    data.update(n=300, selection=100, signals_compared=["prin", "confidence"])
    loaded = Acceptance.from_json(with_digest(data))
    assert (loaded.n, loaded.selection, loaded.tested) == (300, 100, 200)
    bad = {**data, "selection": 50}
    with pytest.raises(UsageError, match=r"tested: 200 items tested; 300 items less the 50"):
        Acceptance.from_json(with_digest(bad))
    unrelated = {**data, "signals_compared": ["confidence", "panel_agreement"]}
    with pytest.raises(UsageError, match=r"signals_tested: \['prin'\] were not all compared"):
        Acceptance.from_json(with_digest(unrelated))
    unsplit = {**data, "n": 200, "selection": 0}
    with pytest.raises(UsageError, match="selection: 0, but one tier compared signals"):
        Acceptance.from_json(with_digest(unsplit))
