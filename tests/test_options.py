"""GuardOptions: the one model of a guard's options, and everything that derives from it.

Spellings it accepts and values it refuses (each error names the field), layering
with ``.of()``, frozen-ness, the request models built from it, and that the command
line and the HTTP service take their allowed values from the same registries.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from pydantic import ValidationError

from prin_guard import GuardConfig, GuardOptions, UsageError
from prin_guard._route._options import OptionsRequest
from prin_guard.models import POLICIES, PROBE_KINDS, TEMPLATES, Mitigation

COT, NEG_EXP = Mitigation.COT, Mitigation.NEG_EXP


@pytest.mark.parametrize(
    ("changes", "field", "expected"),
    [
        pytest.param({"mitigations": ["neg-exp"]}, "mitigations", (NEG_EXP,), id="neg-exp"),
        pytest.param({"mitigations": ["NEG_EXP"]}, "mitigations", (NEG_EXP,), id="upper-case"),
        pytest.param({"mitigations": ["NEG-EXP"]}, "mitigations", (NEG_EXP,), id="upper-dash"),
        pytest.param({"mitigations": "neg_exp"}, "mitigations", (NEG_EXP,), id="one-string"),
        pytest.param(
            {"mitigations": "cot,neg-exp"}, "mitigations", (COT, NEG_EXP), id="comma-string"
        ),
        pytest.param(
            {"mitigations": " neg-exp , cot ,"}, "mitigations", (COT, NEG_EXP), id="spaces"
        ),
        pytest.param(
            {"mitigations": ["neg_exp", "cot", "cot", "NEG-EXP"]},
            "mitigations",
            (COT, NEG_EXP),
            id="duplicates-collapse-sorted",
        ),
        pytest.param({"mitigations": [NEG_EXP, COT]}, "mitigations", (COT, NEG_EXP), id="enums"),
        pytest.param({"mitigations": None}, "mitigations", (), id="none-is-no-mitigation"),
        pytest.param({"mitigations": ""}, "mitigations", (), id="empty-string"),
        pytest.param({"template": "v3"}, "template", "v3", id="template"),
        pytest.param({"policy": "reverse"}, "policy", "reverse", id="policy"),
        pytest.param({"threshold": 1}, "threshold", 1.0, id="threshold-int"),
        pytest.param({"threshold": "0.5"}, "threshold", 0.5, id="threshold-string"),
        pytest.param({"max_chars": 1}, "max_chars", 1, id="max-chars-1"),
        pytest.param({"max_candidates": 2}, "max_candidates", 2, id="max-candidates-2"),
        pytest.param({"max_candidates": "500"}, "max_candidates", 500, id="max-candidates-str"),
        pytest.param({"probe": "progressive"}, "probe", "progressive", id="probe"),
        pytest.param({"probe": None}, "probe", None, id="no-probe"),
        pytest.param({"on_inconsistent": "raise"}, "on_inconsistent", "raise", id="raise"),
    ],
)
def test_accepted_spellings(changes: dict[str, Any], field: str, expected: Any) -> None:
    options = GuardOptions.of(**changes)
    assert getattr(options, field) == expected
    # the constructor and .of() agree; .of() only turns the error into a UsageError
    assert GuardOptions(**changes) == options


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        pytest.param(
            {"template": "v9"},
            "template",
            "unknown template 'v9'; known: claims, criteria, pairwise, rating, v0, v1, v2, v3, v4",
            id="unknown-template-lists-the-known",
        ),
        pytest.param(
            {"mitigations": ["louder"]}, "mitigations", "unknown mitigation 'louder'",
            id="unknown-mitigation",
        ),
        pytest.param({"mitigations": 3}, "mitigations", "", id="mitigations-not-a-list"),
        pytest.param(
            {"policy": "vote"}, "policy", "unknown policy 'vote'; known: synergy, direct, reverse",
            id="unknown-policy",
        ),
        pytest.param({"threshold": 1.5}, "threshold", "less than or equal to 1", id="above-1"),
        pytest.param({"threshold": -0.1}, "threshold", "greater than or equal to 0", id="below"),
        pytest.param({"threshold": "lots"}, "threshold", "number", id="threshold-not-a-number"),
        pytest.param({"max_chars": 0}, "max_chars", "greater than or equal to 1", id="max-0"),
        pytest.param(
            {"max_candidates": 1}, "max_candidates", "greater than or equal to 2",
            id="max-candidates-1",
        ),
        pytest.param({"probe": "sometimes"}, "probe", "'sometimes'", id="unknown-probe"),
        pytest.param({"on_inconsistent": "ignore"}, "on_inconsistent", "'flag'", id="raise-or"),
        pytest.param({"colour": "red"}, "colour", "not an option; the options are", id="extra"),
    ],
)  # fmt: skip
def test_rejected_values_name_the_field(changes: dict[str, Any], field: str, says: str) -> None:
    with pytest.raises(UsageError) as caught:
        GuardOptions.of(**changes)
    message = str(caught.value)
    assert message.startswith(f"{field}: "), message
    assert says in message


def test_of_layers_changes_over_a_base_and_leaves_the_base_alone() -> None:
    base = GuardOptions.of(template="v1", mitigations="cot", threshold=0.25)

    layered = GuardOptions.of(base, policy="direct", mitigations=["neg-exp", "cot"])

    assert (layered.template, layered.threshold, layered.policy) == ("v1", 0.25, "direct")
    assert layered.mitigations == (COT, NEG_EXP)
    assert (base.policy, base.mitigations) == ("synergy", (COT,))
    assert GuardOptions.of(base) == base
    assert GuardOptions.of(base, mitigations=()).mitigations == ()
    assert GuardOptions.of(None, template="v2").template == "v2"
    with pytest.raises(UsageError, match=r"^policy: unknown policy"):
        GuardOptions.of(base, policy="vote")


def test_options_are_frozen_and_hashable_by_key() -> None:
    options = GuardOptions.of(mitigations="cot")
    with pytest.raises(ValidationError, match="frozen"):
        options.template = "v1"  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        options.mitigations = ()  # type: ignore[misc]
    assert options.template is None  # each task's default (v0 for choice items)
    # Spellings of the same options are the same options, with the same key.
    same = GuardOptions.of(mitigations=["COT", "cot"])
    assert same == options
    assert {options.key(): "guard"}[same.key()] == "guard"
    assert GuardOptions.of(mitigations="neg_exp").key() != options.key()


# -- request models built from the options ---------------------------------------------


def request_model() -> type[OptionsRequest]:
    return GuardOptions.request_model("SomeOptions", exclude=("max_chars", "on_inconsistent"))


def test_a_request_model_has_the_options_fields_checks_and_schema_minus_the_excluded() -> None:
    model = request_model()

    assert set(model.model_fields) == set(GuardOptions.model_fields) - {
        "max_chars",
        "on_inconsistent",
    }
    for name, info in model.model_fields.items():
        assert info.description == GuardOptions.model_fields[name].description
        assert info.default == GuardOptions.model_fields[name].default
    sent = model.model_validate({"mitigations": "cot,NEG-EXP", "threshold": "0.5"})
    assert sent.mitigations == (COT, NEG_EXP)  # type: ignore[attr-defined]
    options = sent.to_options(max_chars=100, on_inconsistent="flag")
    assert options == GuardOptions.of(mitigations="cot,neg_exp", threshold=0.5, max_chars=100)
    # A client cannot set what the host keeps, nor anything unknown.
    for excluded in ({"max_chars": 5}, {"on_inconsistent": "raise"}, {"colour": "red"}):
        with pytest.raises(ValidationError) as caught:
            model.model_validate(excluded)
        assert caught.value.errors()[0]["loc"] == tuple(excluded)
        assert caught.value.errors()[0]["type"] == "extra_forbidden"
    with pytest.raises(ValidationError) as caught:
        model.model_validate({"template": "v9"})
    assert caught.value.errors()[0]["loc"] == ("template",)
    known = "known: claims, criteria, pairwise, rating, v0, v1, v2, v3, v4"
    assert known in caught.value.errors()[0]["msg"]
    with pytest.raises(ValidationError, match="frozen"):
        sent.template = "v1"  # type: ignore[misc]
    with pytest.raises(UsageError, match="exclude: not an option: colour"):
        GuardOptions.request_model("Bad", exclude=("colour",))


# -- one registry for every front end ---------------------------------------------------


def _choices(parser: argparse.ArgumentParser, command: str, flag: str) -> list[str]:
    (commands,) = (
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    sub = commands.choices[command]
    (action,) = (action for action in sub._actions if flag in action.option_strings)
    assert action.choices is not None
    return list(action.choices)


def test_the_cli_takes_its_choices_from_the_registries() -> None:
    from prin_guard.cli import _parser

    parser = _parser()
    for command in ("check", "demo"):
        assert _choices(parser, command, "--policy") == list(POLICIES)
        assert _choices(parser, command, "--probe") == list(PROBE_KINDS)
    # --template also takes a template of one's own (JSON), so the options check it
    from prin_guard.cli._common import config_from_args

    base = ["check", "--question", "q", "--candidate", "a", "--candidate", "b"]
    for template in sorted(TEMPLATES):
        args = parser.parse_args([*base, "--template", template])
        assert config_from_args(args).options.template == template
    with pytest.raises(UsageError, match=r"^template: unknown template 'v9'"):
        config_from_args(parser.parse_args([*base, "--template", "v9"]))


def test_the_service_schema_takes_its_values_from_the_registries() -> None:
    pytest.importorskip("fastapi")
    from prin_guard.judges import ScriptedJudge
    from prin_guard.server import ServerConfig, create_app

    app = create_app(ServerConfig(allow_no_auth=True), judge=ScriptedJudge(), cache=None)
    schemas = app.openapi()["components"]["schemas"]
    options = schemas["VerdictOptions"]
    properties = options["properties"]

    # a template by id, checked against the ids the operator offers (request_templates),
    # so the schema takes a name, never a template's words
    assert properties["template"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert properties["policy"]["enum"] == list(POLICIES)
    (kinds,) = (entry for entry in properties["probe"]["anyOf"] if "enum" in entry)
    assert kinds["enum"] == list(PROBE_KINDS)
    assert properties["mitigations"]["items"] == {"$ref": "#/components/schemas/Mitigation"}
    assert schemas["Mitigation"]["enum"] == [m.value for m in Mitigation]
    assert (properties["threshold"]["minimum"], properties["threshold"]["maximum"]) == (0, 1)
    # every option but the server's own limits, described as GuardOptions describes it
    assert set(properties) == set(GuardOptions.model_fields) - {
        "max_chars",
        "max_candidates",
        "on_inconsistent",
    }
    for name, schema in properties.items():
        assert schema["description"] == GuardOptions.model_fields[name].description
    assert options["additionalProperties"] is False


def test_the_default_options_bound_the_number_of_candidates() -> None:
    assert GuardOptions().max_candidates == 64
    assert GuardOptions.model_fields["max_candidates"].description


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({}, id="defaults"),
        pytest.param({"options": {"max_candidates": 8, "max_chars": 100}}, id="limits"),
        pytest.param(
            {"options": {"template": "v2", "mitigations": "cot", "threshold": 0.25}},
            id="asking",
        ),
        pytest.param(
            {
                "panel": ["openai/a", "openai/b"],
                "logprobs": True,
                "max_tokens": 9,
                "timeout": 2.5,
                "options": {"checks": "reverse,order", "probe": "closed"},
            },
            id="panel-and-judge-settings",
        ),
    ],
)
def test_a_config_round_trips_through_the_command_line(changes: dict[str, Any]) -> None:
    from prin_guard._route._setup import to_args
    from prin_guard.cli import _parser
    from prin_guard.cli._common import config_from_args

    config = GuardConfig.of(**changes)
    args = _parser().parse_args(["check", "--question", "q", "--candidate", "a", *to_args(config)])
    assert config_from_args(args) == config
