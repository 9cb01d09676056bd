"""GuardConfig: one description of who judges and how, read by every surface.

The drift test: every setting of :data:`prin_guard._route._setup.SETTINGS` reaches the
command line, the service (environment and file), the Ray workers and both
adapters, or is left out of one of them on purpose, with the reason written down.
And the bugs found where the surfaces had drifted (issue 20, bugs 2, 4, 5, 6).
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import prin_guard
from prin_guard import Guard, GuardConfig, GuardOptions, UsageError
from prin_guard._route._acceptance import content_sha256
from prin_guard._route._setup import CLI_EXCLUDED, JUDGE_SETTINGS, SETTINGS, flag_of
from prin_guard.judges import ScriptedJudge

ROOT = Path(__file__).resolve().parents[1]
GUARDRAIL_FILE = ROOT / "adapters" / "litellm-proxy" / "prin_guard_guardrail.py"
OPTIONS = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}
ACCEPTANCE = {
    "format": "prin-guard-acceptance",
    "version": 2,
    "alpha": 0.2,
    "delta": 0.1,
    "n": 40,
    "tested": 20,
    "accepted": 15,
    "errors": 0,
    "coverage": 0.75,
    "p_value": 0.8**15,
    "method": "pareto_fixed_sequence",
    "signals_tested": ["prin"],
    "tiers": [
        {
            "judge": {"kind": "function", "name": "a"},
            "options": OPTIONS,
            "rule": {"signal": "prin", "threshold": 0.0},
            "asked": 1.0,
            "accepted": 0.5,
        },
        {
            "judge": {"kind": "function", "name": "b"},
            "options": OPTIONS,
            "rule": {"signal": "prin", "threshold": 0.0},
            "asked": 0.5,
            "accepted": 0.25,
        },
    ],
    "calibration_sha256": "0" * 64,
}


@pytest.fixture
def acceptance_file(tmp_path: Path) -> Path:
    path = tmp_path / "acceptance.json"
    path.write_text(json.dumps({**ACCEPTANCE, "content_sha256": content_sha256(ACCEPTANCE)}))
    return path


def _flags(parser: argparse.ArgumentParser, command: str | None = None) -> set[str]:
    if command is not None:
        (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = commands.choices[command]
    return {flag for action in parser._actions for flag in action.option_strings}


# -- the drift test -----------------------------------------------------------------


def test_every_setting_is_a_flag_of_every_command_that_judges() -> None:
    from prin_guard.cli import _parser

    parser = _parser()
    wanted = {flag_of(name) for name in SETTINGS if name not in CLI_EXCLUDED}
    for command in ("check", "demo", "grade", "serve"):
        assert wanted <= _flags(parser, command), command
    # eval measures one judge or a panel (no escalation, no probe); probe, the judge only
    assert {flag_of(n) for n in SETTINGS if n not in (*CLI_EXCLUDED, "tiers", "acceptance",
            "probe")} <= _flags(parser, "eval")  # fmt: skip
    assert {flag_of(name) for name in JUDGE_SETTINGS} <= _flags(parser, "probe")
    # and a setting left out says why
    assert all(reason.strip() for reason in CLI_EXCLUDED.values())
    assert set(CLI_EXCLUDED) <= set(SETTINGS)


def test_every_setting_is_a_variable_and_a_file_key_of_the_service(tmp_path: Path) -> None:
    pytest.importorskip("pydantic_settings")
    from prin_guard.server import load_config
    from prin_guard.server._config import env_vars

    variables = env_vars()
    for name in SETTINGS:
        assert variables[f"PRIN_GUARD_{name.upper()}"] == name
    given = {
        "judge": "python:mod:attr",
        "api_base": "http://127.0.0.1:1/v1",
        "structured": "json-object",
        "max_tokens": "7",
        "logprobs": "true",
        "timeout": "2.5",
        "top_logprobs": "20",
        "template": "v1",
        "mitigations": "cot,neg-exp",
        "policy": "direct",
        "threshold": "0.25",
        "checks": "reverse,order",
        "min_confidence": "0.75",
        "max_chars": "100",
        "max_candidates": "9",
        "probe": "closed",
        "reask": "true",
        "reverse_legs": "uncertain",
        "reverse_below": "0.9",
        "monitor_share": "0.1",
        "prompt_layout": "shared_first",
        "stagger": "off",
        "stagger_delay": "1.5",
        "rating_aspects": "together",
        "ranking_mode": "best",
        "ranking_orders": "4",
        "ranking_adaptive": "true",
        "ranking_tolerance": "0.2",
        "ranking_window": "8",
        "ranking_tournament": "true",
        "on_inconsistent": "flag",
    }
    # every setting but who judges instead of the judge (panel, tiers, acceptance: below)
    assert set(given) | {"panel", "tiers", "acceptance"} == set(SETTINGS)
    from_env = load_config(environ={f"PRIN_GUARD_{k.upper()}": v for k, v in given.items()})
    file = tmp_path / "server.toml"
    file.write_text("".join(f"{name} = {json.dumps(value)}\n" for name, value in given.items()))
    from_file = load_config(file, environ={})
    expected = GuardConfig.from_settings(given)
    assert from_env.guard == from_file.guard == expected
    assert expected.logprobs and expected.max_tokens == 7 and expected.options.max_chars == 100


def test_the_ray_workers_take_the_config_itself() -> None:
    pytest.importorskip("ray")
    from prin_guard.ray import WorkerSpec

    fields = {field.name for field in __import__("dataclasses").fields(WorkerSpec)}
    assert "config" in fields
    # nothing of the guard's set-up spelled again beside it (``judge`` there is a
    # factory of judge objects, for judges no spec can name)
    assert fields & set(SETTINGS) <= {"judge"}


@pytest.fixture(scope="module")
def guardrail() -> ModuleType:
    pytest.importorskip("litellm")
    from prin_guard._infra._settings import prefer_bundled_litellm_cost_map

    prefer_bundled_litellm_cost_map()
    spec = importlib.util.spec_from_file_location("prin_guard_guardrail_setup", GUARDRAIL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guardrail_takes_every_option_as_a_setting(guardrail: ModuleType) -> None:
    # on_inconsistent is the guardrail's own (flag or block), not the guard's
    assert set(guardrail.GUARD_SETTINGS) == set(GuardOptions.model_fields) - {"on_inconsistent"}
    made = guardrail.PrinGuardGuardrail(
        guardrail_name="g", max_candidates=3, max_chars=50, template="v2"
    )
    assert (made.options.max_candidates, made.options.max_chars) == (3, 50)
    with pytest.raises(UsageError, match="max_candidates"):
        guardrail.PrinGuardGuardrail(guardrail_name="g", max_candidates=1)


def test_the_inspect_scorer_takes_every_option_as_a_keyword() -> None:
    pytest.importorskip("inspect_ai")
    from prin_guard_inspect import prin_guard_scorer

    wrapped = getattr(prin_guard_scorer, "__wrapped__", prin_guard_scorer)
    keywords = set(inspect.signature(wrapped).parameters)
    # on_inconsistent is fixed: a scorer scores an inconsistent verdict, never raises
    assert set(GuardOptions.model_fields) - {"on_inconsistent"} <= keywords


# -- the config itself ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        pytest.param({"panel": ["openai/a"]}, "panel", "at least two judges", id="panel-of-one"),
        pytest.param(
            {"judge": "openai/a", "panel": "openai/b,openai/c"},
            "judge",
            "not judge and panel",
            id="judge-and-panel",
        ),
        pytest.param(
            {"tiers": "openai/a;openai/b"},
            "acceptance",
            "calibrated rule",
            id="tiers-without-acceptance",
        ),
        pytest.param({"judge": "python:mod"}, "judge", "python:<module>:<attr>", id="python-form"),
        pytest.param({"max_tokens": 0}, "max_tokens", "greater than or equal to 1", id="tokens"),
        pytest.param({"template": "v9"}, "template", "unknown template", id="option"),
        pytest.param({"colour": "red"}, "colour", "not a setting", id="unknown"),
        pytest.param({"acceptance": "/no/such/file"}, "acceptance", "cannot read", id="no-file"),
    ],
)
def test_bad_settings_name_the_setting(settings: dict[str, Any], field: str, says: str) -> None:
    with pytest.raises(UsageError) as caught:
        GuardConfig.from_settings(settings)
    assert str(caught.value).startswith(f"{field}: "), str(caught.value)
    assert says in str(caught.value)


def test_tiers_read_from_one_string(acceptance_file: Path) -> None:
    config = GuardConfig.from_settings(
        {"tiers": "openai/a; openai/b, openai/c", "acceptance": str(acceptance_file)}
    )
    assert config.tiers == (("openai/a",), ("openai/b", "openai/c"))
    assert config.levels() == [["openai/a"], ["openai/b", "openai/c"]]
    assert config.acceptance is not None and len(config.acceptance.tiers) == 2


def test_build_makes_the_guard_it_describes() -> None:
    config = GuardConfig.of(options={"template": "v1", "checks": "reverse,order"})
    judge = ScriptedJudge()
    guard = config.build(judges=[[judge]], concurrency=3)
    assert isinstance(guard, Guard)
    assert guard.options == config.options and guard.judge is judge and guard.concurrency == 3
    panel = GuardConfig(panel=("a/x", "a/y")).build(judges=[[ScriptedJudge(), ScriptedJudge()]])
    assert len(panel.judges) == 2
    with pytest.raises(UsageError, match="one list per tier"):
        config.build(judges=[[judge, judge]])


# -- the drift bugs (issue 20) --------------------------------------------------------


def test_bug2_grade_on_ray_keeps_logprobs_and_serve_keeps_logprobs_and_max_tokens() -> None:
    from prin_guard.cli import _parser
    from prin_guard.cli._common import config_from_args

    parser = _parser()
    grade = parser.parse_args(
        ["grade", "in.jsonl", "--out", "o", "--engine", "ray", "--judge", "openai/x",
         "--logprobs", "--max-tokens", "5"]
    )  # fmt: skip
    assert config_from_args(grade).logprobs is True  # what the Ray WorkerSpec is given
    pytest.importorskip("pydantic_settings")
    from prin_guard._route._setup import settings_from_args
    from prin_guard.server import load_config

    serve = parser.parse_args(["serve", "--judge", "openai/x", "--logprobs", "--max-tokens", "5"])
    config = load_config(environ={}, overrides=settings_from_args(serve))
    assert (config.guard.logprobs, config.guard.max_tokens) == (True, 5)
    env = load_config(environ={"PRIN_GUARD_LOGPROBS": "true", "PRIN_GUARD_MAX_TOKENS": "5"})
    assert (env.guard.logprobs, env.guard.max_tokens) == (True, 5)


def test_bug4_both_grading_engines_refuse_to_raise_on_an_inconsistency(tmp_path: Path) -> None:
    from prin_guard.grade import grade

    config = GuardConfig.of(options={"on_inconsistent": "raise"})
    items = tmp_path / "in.jsonl"
    items.write_text(json.dumps({"question": "q", "candidates": ["a", "b"]}) + "\n")
    with pytest.raises(UsageError, match="on_inconsistent"):
        grade(config, items, tmp_path / "out.jsonl")
    pytest.importorskip("ray")
    from prin_guard.ray import WorkerSpec

    spec = WorkerSpec(config=config, judge=ScriptedJudge)
    with pytest.raises(UsageError, match="on_inconsistent"):
        spec.build_guard()


def test_bug5_a_panel_of_one_is_refused_everywhere() -> None:
    judge = ScriptedJudge()
    with pytest.raises(UsageError, match="at least two judges"):
        Guard([judge])
    with pytest.raises(UsageError, match="at least two judges"):
        Guard(tiers=[[judge], judge], acceptance=None)
    with pytest.raises(UsageError, match="at least two judges"):
        GuardConfig.of(panel=("openai/a",))
    from prin_guard.cli import main

    assert main(["check", "--question", "q", "--candidate", "a", "--candidate", "b",
                 "--panel", "openai/a"]) == 2  # fmt: skip
    pytest.importorskip("pydantic_settings")
    from prin_guard.server import load_config

    with pytest.raises(UsageError, match=r"panel \(PRIN_GUARD_PANEL\): a panel needs at least two"):
        load_config(environ={"PRIN_GUARD_PANEL": "openai/a"})
    assert Guard(judge).judge is judge  # a judge on its own is a judge


def test_bug6_tiers_from_the_environment(acceptance_file: Path) -> None:
    pytest.importorskip("pydantic_settings")
    from prin_guard.server import load_config

    config = load_config(
        environ={
            "PRIN_GUARD_TIERS": "python:m:a;python:m:b,python:m:c",
            "PRIN_GUARD_ACCEPTANCE": str(acceptance_file),
        }
    )
    assert config.guard.tiers == (("python:m:a",), ("python:m:b", "python:m:c"))


def test_the_public_names() -> None:
    assert prin_guard.GuardConfig is GuardConfig
    assert "GuardConfig" in prin_guard.__all__ and "Acceptance" in prin_guard.__all__
