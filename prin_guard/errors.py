"""Every error prin-guard raises, in one place. The top level re-exports the four most
programs catch: :class:`PrinGuardError`, :class:`UsageError`, :class:`InvalidItemError`
and :class:`JudgeError`.

Every error derives from :class:`PrinGuardError`. Errors the caller caused (bad
input, bad configuration) are :class:`UsageError`; errors that happen while
running (a judge that fails, a cache that fails) are :class:`RunError`::

    PrinGuardError
    ├── UsageError                  bad input or configuration; raised before any judge call
    │   ├── InvalidItemError        an item failed validation (names the field and the reason)
    │   └── MissingExtraError       an optional dependency is not installed (names the extra)
    └── RunError
        ├── JudgeError              the judge failed after retries
        │   └── TransientJudgeError a failure worth retrying (timeout, rate limit, 5xx)
        ├── CacheError              the cache failed and the caller asked to see it
        └── InconsistentVerdictError raised only with ``on_inconsistent="raise"``
                                    (it carries the verdict)

An inconsistency is data (a flag on the verdict), not an exception, unless the
caller asks for :class:`InconsistentVerdictError`.

An error's message is redacted as the error is made (:func:`prin_guard._infra._redact.redact`):
this is where a judge's failure becomes text (a JudgeError wraps whatever the judge
raised), so a key quoted in it reaches no verdict, report, file or log line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prin_guard._infra._redact import redact

if TYPE_CHECKING:
    from prin_guard.models import Verdict

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


class PrinGuardError(Exception):
    """Root of every error prin-guard raises. Its message is redacted of secrets as it is
    made: whatever text it carries (a judge's exception, a provider's reply) is safe to
    show, write and log."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*(redact(arg) if isinstance(arg, str) else arg for arg in args))


class UsageError(PrinGuardError):
    """The caller passed something prin-guard cannot use."""


class InvalidItemError(UsageError, ValueError):
    """An item (question, candidates, context) is invalid.

    ``field`` is the dotted path of the offending field (``"candidates.1.text"``),
    ``reason`` says why.
    """

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = redact(reason)
        super().__init__(f"{field}: {self.reason}")


class MissingExtraError(UsageError, ImportError):
    """An optional dependency needed by the selected feature is not installed."""

    def __init__(self, feature: str, extra: str, missing: str) -> None:
        self.extra = extra
        super().__init__(
            f"{feature} needs the '{missing}' package: pip install 'prin-guard[{extra}]'"
        )


class RunError(PrinGuardError):
    """Something failed while judging."""


class JudgeError(RunError):
    """The judge failed (after retries, when the failure was transient)."""


class TransientJudgeError(JudgeError):
    """A judge failure worth retrying: a timeout, a rate limit, a server error.

    ``retry_after`` is the delay in seconds the provider asked for, when it said.
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class CacheError(RunError):
    """The cache failed and the cache was configured to raise."""


class InconsistentVerdictError(RunError):
    """The judge contradicted itself and the guard was told to raise.

    The verdict is on ``verdict``.
    """

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(
            f"item {verdict.item_id!r}: inconsistent verdict "
            f"(PRIN {verdict.prin_score}, flags {[f.value for f in verdict.flags]})"
        )
