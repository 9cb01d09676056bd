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

if TYPE_CHECKING:
    from prin_guard._infra._ratelimit import RateLimit
    from prin_guard._infra._retry import Retry
    from prin_guard._prompting._prompts import Template
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._decorator import guard
    from prin_guard._route._guard import Guard
    from prin_guard._route._options import GuardOptions
    from prin_guard._route._reading import read_reply
    from prin_guard._route._setup import GuardConfig
    from prin_guard.cache import MemoryCache
    from prin_guard.cache._redis import RedisCache
    from prin_guard.errors import InvalidItemError, JudgeError, PrinGuardError, UsageError
    from prin_guard.judges import FunctionJudge, Judge
    from prin_guard.judges._litellm import LiteLLMJudge
    from prin_guard.judges._local import LocalJudge
    from prin_guard.models import Flag, Item, Verdict

__version__ = "0.1.0"

# Each public name's home, imported on first use (PEP 562): `import prin_guard` costs a
# few milliseconds, and a program pays for pydantic, asyncio and the engine when it first
# touches a name that needs them (`prin_guard.guard`, `from prin_guard import Guard`).
# The heavy judges' modules load only when such a judge is built.
_HOMES = {
    "Acceptance": "prin_guard._route._acceptance",
    "Flag": "prin_guard.models",
    "FunctionJudge": "prin_guard.judges",
    "Guard": "prin_guard._route._guard",
    "GuardConfig": "prin_guard._route._setup",
    "GuardOptions": "prin_guard._route._options",
    "InvalidItemError": "prin_guard.errors",
    "Item": "prin_guard.models",
    "Judge": "prin_guard.judges",
    "JudgeError": "prin_guard.errors",
    "LiteLLMJudge": "prin_guard.judges._litellm",
    "LocalJudge": "prin_guard.judges._local",
    "MemoryCache": "prin_guard.cache",
    "PrinGuardError": "prin_guard.errors",
    "RateLimit": "prin_guard._infra._ratelimit",
    "RedisCache": "prin_guard.cache._redis",
    "Retry": "prin_guard._infra._retry",
    "Template": "prin_guard._prompting._prompts",
    "UsageError": "prin_guard.errors",
    "Verdict": "prin_guard.models",
    "guard": "prin_guard._route._decorator",
    "read_reply": "prin_guard._route._reading",
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
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value  # found once; later lookups do not come here
        return value
    if name in _SUBPACKAGES:  # prin_guard.models.Candidate with only `import prin_guard`
        return importlib.import_module(f"prin_guard.{name}")
    raise AttributeError(f"module 'prin_guard' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
