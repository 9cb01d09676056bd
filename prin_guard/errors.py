"""Every error prin-guard raises, in one place (the hierarchy is in
:mod:`prin_guard._exceptions`' docstring). The top level re-exports the four most
programs catch: :class:`PrinGuardError`, :class:`UsageError`,
:class:`InvalidItemError` and :class:`JudgeError`."""

from __future__ import annotations

from prin_guard._exceptions import (
    CacheError,
    InvalidItemError,
    JudgeError,
    MissingExtraError,
    PrinGuardError,
    RunError,
    TransientJudgeError,
    UsageError,
)
from prin_guard._models import InconsistentVerdictError

__all__ = [
    "CacheError",
    "InconsistentVerdictError",
    "InvalidItemError",
    "JudgeError",
    "MissingExtraError",
    "PrinGuardError",
    "RunError",
    "TransientJudgeError",
    "UsageError",
]
