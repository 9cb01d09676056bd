"""The public surface: what each public module exports, and that it does not drift.

A name added to or removed from an ``__all__`` must be added to or removed from
the tables here too, deliberately; every list is sorted the way ruff sorts it.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import prin_guard

PUBLIC = {
    "prin_guard": [
        "Cache",
        "CacheError",
        "CallLimit",
        "Candidate",
        "Flag",
        "FunctionJudge",
        "Guard",
        "GuardOptions",
        "InconsistentVerdictError",
        "InvalidItemError",
        "Item",
        "Judge",
        "JudgeCaller",
        "JudgeError",
        "LiteLLMJudge",
        "LocalJudge",
        "MemoryCache",
        "MissingExtraError",
        "PrinGuardError",
        "RateLimit",
        "RedisCache",
        "Retry",
        "RunError",
        "TransientJudgeError",
        "UsageError",
        "Verdict",
        "guard",
        "judge_from_spec",
    ],
    "prin_guard.models": [
        "CHECKS",
        "POLICIES",
        "PROBE_KINDS",
        "TEMPLATES",
        "Candidate",
        "CheckName",
        "Decision",
        "Flag",
        "GuardOptions",
        "Item",
        "Leg",
        "Member",
        "Message",
        "Mitigation",
        "ParseMethod",
        "ParseStatus",
        "Polarity",
        "Policy",
        "ProbeKind",
        "ProbeRound",
        "Scores",
        "Template",
        "Usage",
        "Verdict",
        "VerdictError",
    ],
    "prin_guard.judges": [
        "FunctionJudge",
        "Judge",
        "JudgeResponse",
        "LiteLLMJudge",
        "LocalJudge",
        "Message",
        "ScriptedJudge",
        "Usage",
        "judge_from_spec",
    ],
    "prin_guard.cache": [
        "Cache",
        "MemoryCache",
        "RedisCache",
        "SQLiteCache",
        "SingleFlight",
        "cache_key",
    ],
    "prin_guard.eval": [
        "DATASETS",
        "DatasetInfo",
        "EvalConfig",
        "EvalRun",
        "EvalSummary",
        "LabeledItem",
        "Loader",
        "Problem",
        "SkipHandler",
        "f1",
        "load_aqua_rat",
        "load_coinflip",
        "load_commonsenseqa",
        "load_dataset",
        "load_gsm8k",
        "load_gsm8k_solutions",
        "load_jsonl",
        "load_last_letters",
        "load_math",
        "load_mathqa",
        "load_mmlu",
        "load_multiarith",
        "load_strategyqa",
        "load_svamp",
        "prin_score",
        "run",
        "sample_path",
        "synergy",
        "write_jsonl",
    ],
    "prin_guard.probe": [
        "ConsistencyMetrics",
        "FollowUpForm",
        "FollowUpType",
        "MetricsKey",
        "MitigationPosition",
        "Probe",
        "ProbeKind",
        "ProbeMitigation",
        "ProbeRecord",
        "ProbeRun",
        "ProbeSummary",
        "PromptSet",
        "accuracy_after",
        "accuracy_before",
        "consistency_metrics",
        "e_to_r_rate",
        "error_rate",
        "metrics_breakdown",
        "metrics_by_followup_type",
        "metrics_by_prompt_set",
        "metrics_by_round",
        "modification",
        "modification_rate",
        "run",
    ],
    "prin_guard.probe.paper": [
        "DATASET_TASK_TYPES",
        "DEFAULT_CONTROL_PROMPT",
        "EMOTION_PROMPT",
        "FEW_SHOT_OPENING",
        "MISLEADING_PLACEHOLDER",
        "PAPER_CONTROL_PROMPTS",
        "PAPER_DEMONSTRATIONS",
        "PROGRESSIVE_ORDER",
        "PROMPT_SETS",
        "PROMPT_SET_A",
        "PROMPT_SET_B",
        "PROMPT_SET_C",
        "ZERO_SHOT_COT_PROMPT",
        "Demonstration",
        "TaskType",
    ],
}


def _ruff_order(names: list[str]) -> list[str]:
    # RUF022: SCREAMING_CASE first, then CamelCase, then everything else, each sorted
    def key(name: str) -> tuple[int, str]:
        if name.isupper():
            return (0, name)
        return (1, name) if name[0].isupper() else (2, name)

    return sorted(names, key=key)


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_public_surface_does_not_drift(module: str) -> None:
    exported = list(importlib.import_module(module).__all__)
    assert exported == _ruff_order(exported), f"{module}.__all__ is not sorted"
    assert exported == PUBLIC[module]


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_resolves(module: str) -> None:
    imported = importlib.import_module(module)
    for name in imported.__all__:
        assert getattr(imported, name) is not None, f"{module}.{name}"


def test_top_level_stays_small() -> None:
    # The top level is for what most programs need; the rest lives in submodules.
    assert len(prin_guard.__all__) <= 28


def test_import_does_not_load_heavy_dependencies() -> None:
    code = (
        "import sys, prin_guard, prin_guard.cli, prin_guard.judges;"
        "heavy = [m for m in ('torch', 'transformers', 'litellm', 'redis', 'fastapi')"
        " if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_error_hierarchy() -> None:
    assert issubclass(prin_guard.InvalidItemError, prin_guard.UsageError)
    assert issubclass(prin_guard.UsageError, prin_guard.PrinGuardError)
    assert issubclass(prin_guard.TransientJudgeError, prin_guard.JudgeError)
    assert issubclass(prin_guard.JudgeError, prin_guard.RunError)
    assert issubclass(prin_guard.CacheError, prin_guard.RunError)
    assert issubclass(prin_guard.InconsistentVerdictError, prin_guard.RunError)
    assert issubclass(prin_guard.MissingExtraError, prin_guard.UsageError)
