"""prin-guard: make LLM-as-judge verdicts trustworthy.

Ask the judge which candidates are correct *and* which are incorrect, keep only
what both answers agree on, and flag the verdicts where the judge contradicted
itself (Prompt-Reverse Inconsistency, PRIN).

    >>> import prin_guard
    >>> @prin_guard.guard
    ... def judge(prompt: str) -> str:
    ...     return "Answer: C" if "incorrect" not in prompt else "Answer: A, B"
    >>> judge.check({"question": "2 + 2?", "candidates": ["3", "5", "4"]}).correct
    ('C',)
"""

import importlib
from typing import TYPE_CHECKING, Any

from prin_guard._decorator import guard
from prin_guard._exceptions import InvalidItemError, JudgeError, PrinGuardError, UsageError
from prin_guard._guard import Guard
from prin_guard._models import Flag, Item, Verdict
from prin_guard._options import GuardOptions
from prin_guard._prompts import Template
from prin_guard._ratelimit import RateLimit
from prin_guard._reading import read_reply
from prin_guard._retry import Retry
from prin_guard.cache import MemoryCache
from prin_guard.judges import FunctionJudge, Judge

if TYPE_CHECKING:
    from prin_guard._acceptance import Acceptance
    from prin_guard._setup import GuardConfig
    from prin_guard.cache._redis import RedisCache
    from prin_guard.judges._litellm import LiteLLMJudge
    from prin_guard.judges._local import LocalJudge

__version__ = "0.1.0"

_LAZY = {
    "Acceptance": "prin_guard._acceptance",
    "GuardConfig": "prin_guard._setup",
    "LiteLLMJudge": "prin_guard.judges._litellm",
    "LocalJudge": "prin_guard.judges._local",
    "RedisCache": "prin_guard.cache._redis",
}

__all__ = [
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
]


_SUBPACKAGES = frozenset(
    {"cache", "calibrate", "calls", "datasets", "errors", "eval", "grade", "judges", "models"}
    | {"probe", "ray", "reader"}
)


def __getattr__(name: str) -> Any:
    # Heavy judges load their dependencies only when built; even their modules
    # stay off `import prin_guard`, as do the set-up and acceptance models (only
    # the programs that read a configuration need them).
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        return getattr(module, name)
    if name in _SUBPACKAGES:  # prin_guard.models.Candidate with only `import prin_guard`
        return importlib.import_module(f"prin_guard.{name}")
    raise AttributeError(f"module 'prin_guard' has no attribute {name!r}")
