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
from prin_guard import errors

PUBLIC = {
    "prin_guard": [
        "Acceptance",
        "Flag",
        "FunctionJudge",
        "Guard",
        "GuardConfig",
        "GuardOptions",
        "InvalidItemError",
        "Item",
        "Judge",
        "JudgeError",
        "LiteLLMJudge",
        "LocalJudge",
        "MemoryCache",
        "PrinGuardError",
        "RateLimit",
        "RedisCache",
        "Retry",
        "Template",
        "UsageError",
        "Verdict",
        "guard",
        "read_reply",
    ],
    "prin_guard.models": [
        "CHECKS",
        "POLICIES",
        "PROBE_KINDS",
        "REBUTTALS",
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
        "Ranked",
        "RankingItem",
        "RatingItem",
        "Reading",
        "Review",
        "ReviewForm",
        "ReviewItem",
        "ReviewRebuttal",
        "Scale",
        "Scores",
        "ScoresFormat",
        "Tag",
        "Task",
        "Template",
        "Tournament",
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
        "PrefixCachingJudge",
        "ScriptedJudge",
        "SharedPrefix",
        "Stagger",
        "judge_from_spec",
    ],
    "prin_guard.errors": [
        "CacheError",
        "InconsistentVerdictError",
        "InvalidItemError",
        "JudgeError",
        "MissingExtraError",
        "PrinGuardError",
        "RunError",
        "TransientJudgeError",
        "UsageError",
    ],
    "prin_guard.calls": ["CallLimit", "JudgeCaller"],
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
        "run_probe",
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


def test_each_public_name_has_one_home() -> None:
    # The top level re-exports what most programs need; below it, each name is exported
    # by one namespace only and means one thing (issue 32: Message and Usage were in
    # judges and models, grade in grade and ray, run in eval and probe).
    homes: dict[str, list[str]] = {}
    for module in sorted(set(PUBLIC) - {"prin_guard"}):
        for name in importlib.import_module(module).__all__:
            homes.setdefault(name, []).append(module)
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}


def test_the_top_level_reexports_from_the_homes() -> None:
    below = {name: module for module in set(PUBLIC) - {"prin_guard"} for name in PUBLIC[module]}
    for name in prin_guard.__all__:
        if name in below:
            home = importlib.import_module(below[name])
            assert getattr(prin_guard, name) is getattr(home, name), name


def test_top_level_stays_small() -> None:
    # The top level is for what most programs need (the style guide aims for about 20);
    # the rest lives in its home: the rarer errors in prin_guard.errors, the call layer in
    # prin_guard.calls, Candidate in models, Cache in cache, judge_from_spec in judges.
    assert len(prin_guard.__all__) <= 22


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
    assert issubclass(errors.InvalidItemError, errors.UsageError)
    assert issubclass(errors.UsageError, errors.PrinGuardError)
    assert issubclass(errors.TransientJudgeError, errors.JudgeError)
    assert issubclass(errors.JudgeError, errors.RunError)
    assert issubclass(errors.CacheError, errors.RunError)
    assert issubclass(errors.InconsistentVerdictError, errors.RunError)
    assert issubclass(errors.MissingExtraError, errors.UsageError)
    assert issubclass(errors.RunError, errors.PrinGuardError)
    for name in ("PrinGuardError", "UsageError", "InvalidItemError", "JudgeError"):
        assert getattr(prin_guard, name) is getattr(errors, name)


def test_subpackages_resolve_from_the_top_level() -> None:
    # `import prin_guard` then `prin_guard.models.Candidate`, as the examples write it,
    # without importing each subpackage first; an unknown name is still an AttributeError.
    code = (
        "import prin_guard;"
        "print(prin_guard.models.Candidate.__name__, prin_guard.errors.RunError.__name__,"
        " prin_guard.calls.CallLimit.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Candidate", "RunError", "CallLimit"]
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        prin_guard.nonesuch  # noqa: B018


def test_import_loads_no_name_until_it_is_used() -> None:
    # `import prin_guard` is a few milliseconds (issue 38, item 7): each public name's home
    # is imported on first use, so pydantic, asyncio and the engine wait for a program
    # that touches a name needing them. A guard's first verdict loads no probe when it asks
    # for none (the rating task is registered with the others: issue 39).
    code = (
        "import sys, prin_guard\n"
        "watched = ('pydantic', 'asyncio', 'prin_guard.models', 'prin_guard._route._guard',"
        " 'prin_guard.reader', 'prin_guard.probe')\n"
        "before = [m for m in watched if m in sys.modules]\n"
        "@prin_guard.guard\n"
        "def judge(prompt):\n"
        "    return 'Answer: C' if 'incorrect' not in prompt else 'Answer: A, B'\n"
        "assert judge.check({'question': '2 + 2?', 'candidates': ['3', '5', '4']}).correct"
        " == ('C',)\n"
        "print(','.join(before), '|', ','.join(m for m in watched if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = (part.strip() for part in out.stdout.split("|"))
    assert before == ""
    assert after == "pydantic,asyncio,prin_guard.models,prin_guard._route._guard,prin_guard.reader"


def test_names_resolve_once_and_star_import_gives_all() -> None:
    namespace: dict[str, object] = {}
    exec("from prin_guard import *", namespace)  # the star import users write
    assert {name for name in namespace if not name.startswith("__")} == set(prin_guard.__all__)
    assert prin_guard.Guard is namespace["Guard"]
    assert set(prin_guard.__all__) <= set(dir(prin_guard))
