"""``@prin_guard.guard``: a judge function turned into a :class:`~prin_guard.Guard`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, overload

from prin_guard._guard import Guard
from prin_guard.judges import FunctionJudge

__all__ = ["guard"]


@overload
def guard(fn: Callable[[str], Any], /) -> Guard: ...
@overload
def guard(fn: None = None, /, **options: Any) -> Callable[[Callable[[str], Any]], Guard]: ...


def guard(
    fn: Callable[[str], Any] | None = None, /, **options: Any
) -> Guard | Callable[[Callable[[str], Any]], Guard]:
    """Turn a judge function ``fn(prompt) -> str`` into a :class:`Guard`.

    Use as ``@guard`` or ``@guard(template="v1", mitigations=["neg_exp"])``; the
    options are :class:`Guard`'s. The result has ``check``, ``acheck``,
    ``check_many`` and ``acheck_many``.
    """

    def wrap(function: Callable[[str], Any]) -> Guard:
        built = Guard(FunctionJudge(function), **options)
        functools.update_wrapper(built, function)  # type: ignore[arg-type]
        return built

    return wrap(fn) if fn is not None else wrap
