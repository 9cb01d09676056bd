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
        "Acceptance",
        "Cache",
        "CacheError",
        "CallLimit",
        "Candidate",
        "Flag",
        "FunctionJudge",
        "Guard",
        "GuardConfig",
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
        "Template",
        "TransientJudgeError",
        "UsageError",
        "Verdict",
        "guard",
        "judge_from_spec",
        "read_reply",
    ],
    "prin_guard.models": [
        "CHECKS",
        "POLICIES",
        "PROBE_KINDS",
        "TASKS",
        "TEMPLATES",
        "AnswerContract",
        "Candidate",
        "CandidateStatus",
        "CandidateVerdict",
        "CheckName",
        "Conclusion",
        "Decision",
        "FirstLine",
        "Flag",
        "GuardOptions",
        "Item",
        "JsonField",
        "JsonRanking",
        "Leg",
        "Line",
        "Member",
        "Message",
        "Mitigation",
        "Ordering",
        "ParseMethod",
        "ParseStatus",
        "Polarity",
        "Policy",
        "ProbeKind",
        "ProbeRound",
        "Reading",
        "Scores",
        "ScoresFormat",
        "Tag",
        "Task",
        "Template",
        "Usage",
        "Verdict",
        "VerdictError",
        "VerdictFormat",
    ],
    "prin_guard.judges": [
        "FunctionJudge",
        "Judge",
        "JudgeResponse",
        "LiteLLMJudge",
        "LocalJudge",
        "Message",
        "PrefixCachingJudge",
        "ScriptedJudge",
        "SharedPrefix",
        "Stagger",
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
        "open_cache",
    ],
    "prin_guard.datasets": [
        "DATASETS",
        "DatasetInfo",
        "LabeledItem",
        "Loader",
        "Problem",
        "SkipHandler",
        "load_aqua_rat",
        "load_coinflip",
        "load_commonsenseqa",
        "load_dataset",
        "load_expertqa_claims",
        "load_gsm8k",
        "load_gsm8k_solutions",
        "load_jsonl",
        "load_last_letters",
        "load_llmbar",
        "load_math",
        "load_mathqa",
        "load_mmlu",
        "load_mt_bench_human",
        "load_multiarith",
        "load_strategyqa",
        "load_svamp",
        "sample_path",
        "write_jsonl",
    ],
    "prin_guard.eval": [
        "EvalConfig",
        "EvalRun",
        "EvalSummary",
        "f1",
        "prin_score",
        "run",
        "signal_auroc",
        "synergy",
    ],
    "prin_guard.probe": [
        "FollowUpForm",
        "FollowUpType",
        "MitigationPosition",
        "Probe",
        "ProbeMitigation",
        "ProbeRun",
        "ProbeSummary",
        "PromptSet",
        "control_prompt",
        "get_prompt_set",
        "prompt_sets",
        "run",
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


# Exported by two submodules on purpose: what a judge author needs, next to the Judge
# protocol, is also a part of a verdict.
SHARED = {"Message", "Usage"}


def test_each_public_name_has_one_home() -> None:
    # The top level re-exports what most programs need; below it, an object is
    # exported by one namespace only (a name such as `run` may mean one thing per
    # namespace).
    homes: dict[int, list[str]] = {}
    for module in sorted(set(PUBLIC) - {"prin_guard"}):
        imported = importlib.import_module(module)
        for name in imported.__all__:
            homes.setdefault(id(getattr(imported, name)), []).append(f"{module}.{name}")
    twice = [where for where in homes.values() if len(where) > 1]
    assert {where[0].rsplit(".", 1)[1] for where in twice} == SHARED, twice


def test_top_level_stays_small() -> None:
    # The top level is for what most programs need; the rest lives in submodules.
    # 28, then GuardConfig and Acceptance (the set-up and the type of Guard(acceptance=)),
    # then read_reply and Template (the reader's entry point, a judge prompt of one's own)
    assert len(prin_guard.__all__) <= 32


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
