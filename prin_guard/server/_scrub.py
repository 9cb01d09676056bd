"""Secrets out of text that leaves the process: one function, :func:`scrub`.

Error text from a judge (a provider's message, an exception from a client
library) can quote an API key, an ``Authorization`` header or a URL with a
password in it. Clients never see that text at all (they get an error kind and a
request id); the server log gets it through :func:`scrub`, and so does every
response body, as a last line of defence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["REDACTED", "Scrubber", "scrub"]

REDACTED: Final = "[redacted]"

# scheme://user:pass@host (or scheme://token@host): everything between :// and @.
_URL_CREDENTIALS: Final = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/@'\"<>]+@")
# An Authorization header or field as text: "Authorization: Bearer x", "'authorization': 'x'",
# authorization=x. The scheme word is kept (it tells what kind of credential it was).
_AUTHORIZATION: Final = re.compile(
    r"(?i)(?P<name>\b(?:proxy-)?authorization['\"]?\s*[:=]\s*['\"]?)"
    r"(?:(?P<scheme>bearer|basic|token|digest)\s+)?[^\s'\",;}\]]+"
)
# A bare bearer token, wherever it is quoted.
_BEARER: Final = re.compile(r"(?i)\b(?P<scheme>bearer)\s+[A-Za-z0-9._~+/=-]{8,}")
# key=value and "key": "value" for parameter names that carry credentials.
_KEY_VALUE: Final = re.compile(
    r"(?i)(?P<name>\b(?:x-)?(?:api[_-]?key|access[_-]?token|secret|password|passwd)"
    r"['\"]?\s*[:=]\s*['\"]?)[^\s'\",;&}\]]+"
)


def _authorization(match: re.Match[str]) -> str:
    scheme = match.group("scheme")
    return match.group("name") + (f"{scheme} " if scheme else "") + REDACTED


class Scrubber:
    """:func:`scrub` with a fixed set of secrets (the server's, read once)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so a secret containing another is replaced whole.
        self.secrets = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))

    def secrets_only(self, text: str) -> str:
        """``text`` with the known secrets replaced, and nothing else touched.

        For response bodies: they carry no upstream text any more, and the patterns
        of :meth:`__call__` would alter an item's own text (``password=`` in a question).
        """
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def __call__(self, text: str) -> str:
        text = self.secrets_only(text)
        text = _URL_CREDENTIALS.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
        text = _AUTHORIZATION.sub(_authorization, text)
        text = _BEARER.sub(lambda m: f"{m.group('scheme')} {REDACTED}", text)
        return _KEY_VALUE.sub(lambda m: m.group("name") + REDACTED, text)


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with secrets replaced by ``[redacted]``.

    Replaced: every value in ``secrets`` (the configured API keys, the Redis
    password, provider keys from the environment), ``Authorization`` values (the
    scheme word stays), bearer tokens, ``api_key``/``password``-like parameters,
    and URL credentials (``scheme://user:pass@host`` → ``scheme://[redacted]@host``).
    """
    return Scrubber(secrets)(text)
