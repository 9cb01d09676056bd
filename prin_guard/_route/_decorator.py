"""``@prin_guard.guard``: a judge function guarded, and still the function it was."""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, ParamSpec, TypeVar, overload

from prin_guard._route._guard import Guard
from prin_guard.judges import FunctionJudge
from prin_guard.models import Item, Verdict

__all__ = ["GuardedFunction", "guard"]

P = ParamSpec("P")
R = TypeVar("R")


class GuardedFunction(Generic[P, R]):
    """A judge function with its :class:`~prin_guard.Guard`.

    Calling it calls the function, unchanged: every existing caller of a grading
    function keeps working once it is decorated. The guarded form is ``.guard`` (the
    :class:`~prin_guard.Guard`), and its four methods are here too: ``check``,
    ``acheck``, ``check_many``, ``acheck_many``.
    """

    def __init__(self, function: Callable[P, R], guard: Guard) -> None:
        self.__wrapped__ = function
        self.guard = guard
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.__wrapped__(*args, **kwargs)

    def check(self, item: Item | Mapping[str, Any]) -> Verdict:
        """:meth:`Guard.check <prin_guard.Guard.check>` of the guard."""
        return self.guard.check(item)

    async def acheck(self, item: Item | Mapping[str, Any]) -> Verdict:
        """:meth:`Guard.acheck <prin_guard.Guard.acheck>` of the guard."""
        return await self.guard.acheck(item)

    def check_many(self, items: Iterable[Item | Mapping[str, Any]]) -> list[Verdict]:
        """:meth:`Guard.check_many <prin_guard.Guard.check_many>` of the guard."""
        return self.guard.check_many(items)

    async def acheck_many(self, items: Iterable[Item | Mapping[str, Any]]) -> list[Verdict]:
        """:meth:`Guard.acheck_many <prin_guard.Guard.acheck_many>` of the guard."""
        return await self.guard.acheck_many(items)

    def __repr__(self) -> str:
        return f"<guarded {getattr(self, '__qualname__', 'function')}: {self.guard!r}>"


@overload
def guard(fn: Callable[P, R], /) -> GuardedFunction[P, R]: ...
@overload
def guard(
    fn: None = None, /, **options: Any
) -> Callable[[Callable[P, R]], GuardedFunction[P, R]]: ...


def guard(
    fn: Callable[P, R] | None = None, /, **options: Any
) -> GuardedFunction[P, R] | Callable[[Callable[P, R]], GuardedFunction[P, R]]:
    """Guard a judge function ``fn(prompt) -> str`` (sync or async).

    Use as ``@guard`` or ``@guard(template="v1", mitigations=["neg_exp"])``; the
    keywords are :class:`~prin_guard.Guard`'s. The decorated function is still the
    function (``grade("...")`` calls it as before); ``grade.check(item)``,
    ``grade.acheck``, ``grade.check_many`` and ``grade.acheck_many`` judge items, and
    ``grade.guard`` is the :class:`~prin_guard.Guard` itself.
    """

    def wrap(function: Callable[P, R]) -> GuardedFunction[P, R]:
        judge = FunctionJudge(typing.cast("Callable[[str], Any]", function))
        return GuardedFunction(function, Guard(judge, **options))

    return wrap(fn) if fn is not None else wrap
