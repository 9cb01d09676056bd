from __future__ import annotations

import subprocess
import sys

import prin_guard

EXPECTED = [
    "Cache",
    "CacheError",
    "Candidate",
    "Flag",
    "FunctionJudge",
    "Guard",
    "InconsistentVerdictError",
    "InvalidItemError",
    "Item",
    "Judge",
    "JudgeError",
    "JudgeResponse",
    "Leg",
    "LiteLLMJudge",
    "LocalJudge",
    "MemoryCache",
    "Message",
    "MissingExtraError",
    "Mitigation",
    "ParseMethod",
    "ParseStatus",
    "Polarity",
    "PrinGuardError",
    "RedisCache",
    "Retry",
    "RunError",
    "ScriptedJudge",
    "TransientJudgeError",
    "Usage",
    "UsageError",
    "Verdict",
    "VerdictError",
    "f1",
    "guard",
    "prin_score",
    "synergy",
]


def test_public_surface_does_not_drift() -> None:
    assert prin_guard.__all__ == sorted(prin_guard.__all__)
    assert prin_guard.__all__ == EXPECTED


def test_every_public_name_resolves() -> None:
    for name in prin_guard.__all__:
        assert getattr(prin_guard, name) is not None


def test_import_does_not_load_heavy_dependencies() -> None:
    code = (
        "import sys, prin_guard, prin_guard.cli, prin_guard.judges;"
        "heavy = [m for m in ('torch', 'transformers', 'litellm', 'redis') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_error_hierarchy() -> None:
    assert issubclass(prin_guard.InvalidItemError, prin_guard.UsageError)
    assert issubclass(prin_guard.UsageError, prin_guard.PrinGuardError)
    assert issubclass(prin_guard.TransientJudgeError, prin_guard.JudgeError)
    assert issubclass(prin_guard.JudgeError, prin_guard.RunError)
    assert issubclass(prin_guard.InconsistentVerdictError, prin_guard.RunError)
