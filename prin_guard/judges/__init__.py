"""Judges: the protocol, function and scripted judges, and (lazily) the model judges."""

import importlib
from typing import TYPE_CHECKING, Any

from prin_guard._models import Usage
from prin_guard.judges._base import (
    Judge,
    JudgeResponse,
    Message,
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
    "Message",
    "PrefixCachingJudge",
    "ScriptedJudge",
    "SharedPrefix",
    "Stagger",
    "Usage",
    "judge_from_spec",
]

_LAZY = {"LiteLLMJudge": "prin_guard.judges._litellm", "LocalJudge": "prin_guard.judges._local"}


def __getattr__(name: str) -> Any:
    # Model judges import their heavy dependencies only when built; even their
    # modules stay off the common path.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
