"""Secrets out of text: the one function every surface redacts with, :func:`redact`.

A judge's failure becomes text once, when a prin-guard error is made of it
(:class:`~prin_guard.PrinGuardError` redacts its message as it is built): that text
is what a verdict's ``error.message``, a panel member's abstain reason, the line
``check`` prints, grade's ``error`` column, eval's reports and the service's and the
guardrail's logs show. Every log event is redacted again on its way out
(``prin_guard._infra._events``), and the service's responses lose the exact secrets.

What is replaced by ``[redacted]``:

- exact values: the secrets a host registered with :func:`add_secrets` (the
  service's API keys, its Redis password), and the values of the environment's
  secret variables (:func:`is_secret_variable`: ``*_API_KEY``, ``*_KEY``,
  ``*_TOKEN``, ``*_SECRET``, ``*PASSWORD``, ``*_PAT``, ``*_CREDENTIALS``, ...), each
  of at least :data:`MIN_SECRET_CHARS` characters (a shorter value would blank
  ordinary words; no provider key is that short), the whole value and each
  comma-separated part of it. The environment is read when it changed, so a variable
  set after import counts;
- shapes, whatever their value (``shapes=True``, the default): ``Authorization``
  values (the scheme word stays), bearer tokens, ``api_key=``/``token=``/
  ``secret=``/``password=``-like parameters (``"x-api-key": "..."`` too, and
  "API key provided: ..."), provider keys (``sk-...``, ``sk-ant-...``,
  ``sk-proj-...``), keys shown in part (``sk-abc***xyz``, ``abcd****wxyz``: a
  partial key is still a key), credentials in URLs (``scheme://user:pass@host``) and
  ``?key=``/``&sig=`` query parameters; an ``Authorization`` value of any scheme, AWS
  Signature Version 4's ``Credential=`` and ``Signature=``, ``passphrase=``, a
  ``private_key`` value and any PEM private key, Hugging Face (``hf_``) and GitHub
  fine-grained (``github_pat_``) tokens; and every token the regex detectors of Yelp's
  detect-secrets (a maintained set: GitHub, GitLab, Slack, Stripe, AWS key ids, JWTs,
  npm, PyPI, SendGrid, Twilio, Discord, ...) find, wherever it stands.

Text that must otherwise reach its reader unchanged (a response body, whose item
text may well say ``password=``) is redacted with ``shapes=False``: the exact
values only.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = [
    "MIN_SECRET_CHARS",
    "REDACTED",
    "add_secrets",
    "environment_secrets",
    "is_secret_variable",
    "redact",
]

REDACTED: Final = "[redacted]"

MIN_SECRET_CHARS: Final = 8
"""The shortest value of a secret environment variable that is redacted: a shorter one
(``true``, ``1``, ``none``) would blank ordinary words, and no provider key, token or
password worth the name is that short. A host's registered secrets have no minimum."""

# The name of a variable that holds a secret: its last part after "_" (or the whole
# name) is one of these words, or it ends in PASSWORD (PGPASSWORD). PWD alone (the working
# directory) is not one.
_SECRET_NAME: Final = re.compile(
    r"(?:(?:^|_)(?:API_?KEYS?|KEYS?|TOKENS?|SECRETS?|PASS|PWD|PAT|CREDENTIALS?)|PASSWORDS?|PASSWD)$"
)
_NOT_SECRET_NAMES: Final = frozenset({"PWD", "OLDPWD"})

# A value already redacted is left alone (redacting twice changes nothing).
_VALUE: Final = r"(?!\[redacted\])"
# scheme://user:pass@host (or scheme://token@host): everything between :// and @.
# Bounded runs, here and below: a long text costs linear time, never quadratic.
_URL_CREDENTIALS: Final = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]{0,31}://)[^\s/@'\"<>]{1,2048}@"
)
# An Authorization header or field as text: "Authorization: Bearer x", "'authorization': 'x'",
# authorization=x, with any scheme (AWS4-HMAC-SHA256, a gateway's own). The scheme word is
# kept (it tells what kind of credential it was); a value of one word has none.
_AUTHORIZATION: Final = re.compile(
    r"(?i)(?P<name>\b(?:proxy-)?authorization['\"]?\s*[:=]\s*['\"]?)"
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9._-]{0,63})[ \t]+)?+" + _VALUE + r"[^\s'\",;}\]]+"
)
# A bare bearer token, wherever it is quoted.
_BEARER: Final = re.compile(r"(?i)\b(?P<scheme>bearer)\s+[A-Za-z0-9._~+/=*-]{8,}")
# key=value and "key": "value" for parameter names that carry credentials (access_token=,
# client_secret: ...), and "API key provided: ..." as providers word it. Never
# max_tokens= (the name must end in the word).
# AWS Signature Version 4's Credential= (the access key id) and Signature=, private_key and
# passphrase as well. Credential and signature only as AWS writes them, with "=": in prose
# ("signature: does not match") they are words, and an HMAC signature is no secret.
_KEY_VALUE: Final = re.compile(
    r"(?i)(?P<name>(?:\b|(?<=[_-]))(?:x-)?(?:api[_ -]?key(?:\s+provided)?|token|secret|"
    r"password|passwd|pwd|passphrase|private[_ -]?key)['\"]?\s*[:=]\s*"
    r"['\"]?|(?:credential|signature)=)" + _VALUE + r"[^\s'\",;&}\]]+"
)
# A PEM private key, whole, also as a JSON string (its line breaks written \n): from its
# BEGIN line to its END line, or to the end of the string it is in.
_PEM_KEY: Final = re.compile(
    r"-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[^'\"]{0,20000}?"
    r"(?:-----END[A-Z ]{0,40}PRIVATE KEY-----|(?=['\"])|$)"
)
# Tokens by their prefix that detect-secrets has no detector for: Hugging Face's (hf_) and
# GitHub's fine-grained ones (github_pat_).
_PREFIXED_TOKEN: Final = re.compile(r"\b(?:hf_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})")
# Provider keys by their prefix (OpenAI sk-, sk-proj-; Anthropic sk-ant-), whole or shown
# in part with asterisks.
_PROVIDER_KEY: Final = re.compile(r"\bsk-[A-Za-z0-9_*-]{6,}")
# A key shown in part: characters, a run of asterisks, maybe more characters.
_MASKED: Final = re.compile(r"[A-Za-z0-9_-]{2,64}\*{3,}[A-Za-z0-9_-]{0,64}")
# Credentials in a URL's query.
_QUERY_KEY: Final = re.compile(
    r"(?i)(?<=[?&])(?P<name>(?:key|sig|signature)=)" + _VALUE + r"[^\s&'\"#]+"
)
# What some pattern above needs somewhere in the text: most text has none of it, and
# one search is cheaper than seven substitutions.
_TRIGGER: Final = re.compile(
    r"(?i)://|bearer|authoriz|api[_ -]?key|token|secret|passw|pwd|sk-|\*\*\*|[?&](?:key|sig)"
    r"|passphrase|private[_ -]?key|credential|signature|hf_|github_pat_"
)

# detect-secrets' regex detectors (provider tokens by their format: GitHub, GitLab, Slack,
# Stripe, AWS key ids, JWTs, npm, PyPI, SendGrid, Twilio, ...) but these: public IP
# addresses are no secret; a private key's BEGIN line is not the key (_PEM_KEY); URL
# credentials are _URL_CREDENTIALS's (which keeps the scheme); and the four that find a
# value by a keyword near it, as short as "cl" or "sl", blank prose and take 1-3 ms per
# 10 kB each (the others together take 0.3 ms).
_NOT_SECRETS: Final = frozenset(
    {
        "IPPublicDetector",
        "PrivateKeyDetector",
        "BasicAuthDetector",
        "CloudantDetector",
        "IbmCloudIamDetector",
        "IbmCosHmacDetector",
        "SoftlayerDetector",
    }
)


def is_secret_variable(name: str) -> bool:
    """Whether the environment variable ``name`` holds a secret (by its name)."""
    upper = name.upper()
    return upper not in _NOT_SECRET_NAMES and _SECRET_NAME.search(upper) is not None


def environment_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of the secret variables in ``environ``, each whole and each of its
    comma-separated parts, those of :data:`MIN_SECRET_CHARS` characters or more."""
    found: dict[str, None] = {}
    for name, value in environ.items():
        if not is_secret_variable(name):
            continue
        for part in (value, *value.split(",")):
            stripped = part.strip()
            if len(stripped) >= MIN_SECRET_CHARS:
                found[stripped] = None
    return tuple(found)


class _Secrets:
    """The exact values to redact: the registered secrets and the secret variables'
    values in ``os.environ``, longest first (so a secret containing another goes whole).

    The environment is read again only when its secret variables changed: another set of
    names, or another value of one of them. (Its size is no guide: a variable removed and
    another added between two calls leave it the same.)
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._registered: frozenset[str] = frozenset()
        self._stale = True
        self._seen: tuple[tuple[str, str], ...] = ()
        self._values: tuple[str, ...] = ()

    def add(self, values: Iterable[str]) -> None:
        with self._lock:
            # Whatever its length: a host's secret is known to be one (a short Redis
            # password too), unlike a variable's value.
            self._registered |= {value for value in values if isinstance(value, str) and value}
            self._stale = True

    def current(self) -> tuple[str, ...]:
        env = os.environ
        seen = tuple((name, env.get(name) or "") for name in env if _is_secret_name(name))
        if self._stale or seen != self._seen:
            with self._lock:
                found = set(environment_secrets(dict(seen)))
                self._values = tuple(sorted(found | self._registered, key=len, reverse=True))
                self._seen, self._stale = seen, False
        return self._values


@functools.lru_cache(maxsize=4096)
def _is_secret_name(name: str) -> bool:
    return is_secret_variable(name)


_secrets = _Secrets()


def add_secrets(values: Iterable[str]) -> None:
    """Redact these values (the server's API keys, a Redis password) wherever
    :func:`redact` runs, for the rest of the process."""
    _secrets.add(values)


def _authorization(match: re.Match[str]) -> str:
    scheme = match.group("scheme")
    return match.group("name") + (f"{scheme} " if scheme else "") + REDACTED


@functools.cache
def _known_patterns() -> tuple[re.Pattern[str], ...]:
    """The patterns of detect-secrets' regex detectors, loaded when first needed
    (importing them takes a third of a second: never at ``import prin_guard``). Only
    their patterns are used: nothing is verified against a provider, no setting of
    theirs is changed."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    return tuple(
        pattern
        for cls in sorted(classes, key=lambda cls: cls.__name__)
        if issubclass(cls, RegexBasedDetector) and cls.__name__ not in _NOT_SECRETS
        for pattern in cls.denylist
    )


def _known_tokens(text: str) -> str:
    """``text`` without the secrets detect-secrets' detectors find in it, wherever each
    occurs: a pattern's longest group where it captures the secret (``aws ... key = "..."``),
    else its whole match (a pattern whose group is the token's prefix: ``(ghp|gho)_...``)."""
    found: set[str] = set()
    for match in (m for pattern in _known_patterns() for m in pattern.finditer(text)):
        groups = [group for group in match.groups() if group]
        value = max(groups, key=len) if groups else ""
        if len(value) < MIN_SECRET_CHARS:
            value = match.group(0)
        if len(value) >= MIN_SECRET_CHARS and REDACTED not in value:
            found.add(value)
    for value in sorted(found, key=len, reverse=True):
        text = text.replace(value, REDACTED)
    return text


def redact(text: str, *, shapes: bool = True) -> str:
    """``text`` with its secrets replaced by ``[redacted]``: the exact values (registered,
    and the environment's secret variables'), and with ``shapes`` the credential shapes
    (module docstring). Idempotent."""
    for secret in _secrets.current():
        if secret in text:
            text = text.replace(secret, REDACTED)
    if not shapes:
        return text
    text = _known_tokens(text)
    if _TRIGGER.search(text) is None:
        return text
    text = _PEM_KEY.sub(REDACTED, text)
    text = _PREFIXED_TOKEN.sub(REDACTED, text)
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    text = _AUTHORIZATION.sub(_authorization, text)
    text = _BEARER.sub(lambda m: f"{m.group('scheme')} {REDACTED}", text)
    text = _KEY_VALUE.sub(lambda m: m.group("name") + REDACTED, text)
    text = _QUERY_KEY.sub(lambda m: m.group("name") + REDACTED, text)
    text = _PROVIDER_KEY.sub(REDACTED, text)
    return _MASKED.sub(REDACTED, text)
