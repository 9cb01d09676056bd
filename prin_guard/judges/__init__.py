"""Judges: the protocol, function and scripted judges, and (lazily) the local model judge."""

from typing import TYPE_CHECKING, Any

from prin_guard.judges._base import Judge, JudgeResponse, Message
from prin_guard.judges._function import FunctionJudge, ScriptedJudge

if TYPE_CHECKING:
    from prin_guard.judges._local import LocalJudge

__all__ = ["FunctionJudge", "Judge", "JudgeResponse", "LocalJudge", "Message", "ScriptedJudge"]


def __getattr__(name: str) -> Any:
    # The local judge's module is light, but keep the import off the common path.
    if name == "LocalJudge":
        from prin_guard.judges._local import LocalJudge

        return LocalJudge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
