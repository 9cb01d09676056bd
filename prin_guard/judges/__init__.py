"""Judges: the protocol, function and scripted judges, and (lazily) the model judges.

What a judge is given and returns besides :class:`JudgeResponse` (``Message``,
``Usage``) lives in :mod:`prin_guard.models`."""

import importlib
from typing import TYPE_CHECKING, Any

from prin_guard.judges._base import (
    Judge,
    JudgeResponse,
    PrefixCachingJudge,
    SharedPrefix,
    Stagger,
)
from prin_guard.judges._function import FunctionJudge, ScriptedJudge
from prin_guard.judges._spec import judge_from_spec

if TYPE_CHECKING:
    from prin_guard.judges._litellm import LiteLLMJudge
    from prin_guard.judges._local import LocalJudge

__all__ = [
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
]

_LAZY = {"LiteLLMJudge": "prin_guard.judges._litellm", "LocalJudge": "prin_guard.judges._local"}


def __getattr__(name: str) -> Any:
    # Model judges import their heavy dependencies only when built; even their
    # modules stay off the common path.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
