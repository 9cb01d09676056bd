"""The server's configuration: one frozen model, loaded from a file and the environment.

:func:`server_settings_from_env` (settings) and :func:`provider_keys_from_env`
(secrets to scrub) are the only functions of the server that read environment
variables. :func:`load_config` merges, lowest first: the model's
defaults, a TOML or JSON file (``path``, or ``PRIN_GUARD_CONFIG``), then the
``PRIN_GUARD_*`` variables that are set, then explicit overrides (command-line
flags).

Secrets (API keys, a Redis URL with a password) are :class:`~pydantic.SecretStr`:
they never show in ``repr``, in a dump, in a log line or in an error message.
This module does not import FastAPI, so the command line can read and check a
configuration without the ``server`` extra.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from prin_guard._exceptions import UsageError

__all__ = [
    "ENV_VARS",
    "ServerConfig",
    "load_config",
    "provider_keys_from_env",
    "publish_for_workers",
    "server_settings_from_env",
]

_KEY_RE: Final = re.compile(r"[A-Za-z0-9._~+/=-]{16,512}")

ENV_VARS: Final[Mapping[str, str]] = {
    "PRIN_GUARD_JUDGE": "judge",
    "PRIN_GUARD_PANEL": "panel",
    "PRIN_GUARD_ACCEPTANCE": "acceptance",
    "PRIN_GUARD_API_BASE": "api_base",
    "PRIN_GUARD_STRUCTURED": "structured",
    "PRIN_GUARD_REDIS_URL": "redis_url",
    "PRIN_GUARD_REDIS_NAMESPACE": "redis_namespace",
    "PRIN_GUARD_CACHE_TTL": "cache_ttl",
    "PRIN_GUARD_API_KEYS": "api_keys",
    "PRIN_GUARD_ALLOW_NO_AUTH": "allow_no_auth",
    "PRIN_GUARD_METRICS_OPEN": "metrics_open",
    "PRIN_GUARD_DOCS_OPEN": "docs_open",
    "PRIN_GUARD_MAX_BODY_BYTES": "max_body_bytes",
    "PRIN_GUARD_MAX_BATCH": "max_batch",
    "PRIN_GUARD_MAX_CHARS": "max_chars",
    "PRIN_GUARD_MAX_CANDIDATES": "max_candidates",
    "PRIN_GUARD_CORS_ORIGINS": "cors_origins",
    "PRIN_GUARD_CONCURRENCY": "concurrency",
    "PRIN_GUARD_REQUEST_TIMEOUT": "request_timeout",
    "PRIN_GUARD_JUDGE_THREADS": "judge_threads",
    "PRIN_GUARD_SHUTDOWN_GRACE": "shutdown_grace",
    "PRIN_GUARD_HOST": "host",
    "PRIN_GUARD_PORT": "port",
    "PRIN_GUARD_WORKERS": "workers",
    "PRIN_GUARD_RATE_LIMIT": "rate_limit",
    "PRIN_GUARD_DAILY_BUDGET_USD": "daily_budget_usd",
    "PRIN_GUARD_PROVIDER_RATE_LIMIT": "provider_rate_limit",
    "PRIN_GUARD_PROVIDER_TOKEN_LIMIT": "provider_token_limit",
}
"""Environment variable → configuration field."""

_LIST_FIELDS: Final = frozenset({"api_keys", "cors_origins", "panel"})
_KEYS_FILE_VAR: Final = "PRIN_GUARD_API_KEYS_FILE"
_CONFIG_FILE_VAR: Final = "PRIN_GUARD_CONFIG"
# Set by `serve` for its worker processes: the parent's resolved configuration.
_WORKER_VAR: Final = "_PRIN_GUARD_SERVE_CONFIG"


class ServerConfig(BaseModel):
    """Everything ``prin-guard serve`` needs. Frozen; unknown keys are an error."""

    # hide_input_in_errors: a ValidationError must not quote a key or a Redis URL
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    judge: str = Field("local", min_length=1)
    """The judge, as for ``prin-guard check --judge``: ``local``, ``local:<model>``, a
    litellm model string, or ``python:<module>:<callable>`` (a function returning a
    Judge, called once per worker)."""
    panel: tuple[str, ...] = ()
    """Judges of a panel, each spelled as ``judge`` (at least two; replaces ``judge``): a
    verdict is what a strict majority of all members calls correct."""
    tiers: tuple[str, ...] = ()
    """An escalation cascade, cheapest first: each tier a judge spec, or several
    comma-separated (a panel); replaces ``judge`` and needs ``acceptance``."""
    acceptance: Path | None = None
    """An acceptance file from ``prin-guard calibrate``, for the judge (or the tiers) and
    the options it was calibrated for: each verdict is accepted or flagged
    ``not_accepted``; a request whose options differ from the calibration's gets a 422."""
    api_base: str | None = None
    """Base URL of an OpenAI-compatible server, for a litellm judge."""
    structured: Literal["none", "auto", "json-schema", "json-object"] | None = None
    """Constrain a litellm judge's answer to JSON (as ``--structured``)."""
    redis_url: SecretStr | None = None
    """A shared cache (``redis://``, ``rediss://``, ``unix://``); per-worker memory when unset."""
    redis_namespace: str = "server"
    cache_ttl: float | None = Field(7 * 24 * 3600.0, gt=0)
    """Seconds a cached answer lives in Redis; ``None`` never expires."""
    api_keys: tuple[SecretStr, ...] = ()
    """Keys accepted as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    allow_no_auth: bool = False
    """Serve without API keys. Off by default: startup refuses to run without keys."""
    metrics_open: bool = False
    """Serve ``/metrics`` without a key (for a scraper on a private network)."""
    docs_open: bool = False
    """Serve the OpenAPI schema (``/openapi.json``) without a key. Off by default: like
    every other path, it needs a key, so the key also hides what the service offers.
    There is no Swagger UI or ReDoc page (they load their assets from a public CDN)."""
    max_body_bytes: int = Field(1_048_576, ge=64)
    """Largest request body, in bytes."""
    max_batch: int = Field(100, ge=1)
    """Most items in one request."""
    max_chars: int = Field(32_000, ge=1)
    """Longest text field of an item (question, context, candidate text or reasoning)."""
    max_candidates: int = Field(64, ge=2)
    """Most candidates in one item. Counted before anything else is read of the item, so
    an item with thousands of candidates costs the worker nothing."""
    cors_origins: tuple[str, ...] = ()
    """Origins allowed to call the API from a browser; none (CORS off) by default."""
    concurrency: int = Field(16, ge=1)
    """Judge calls in flight at once, per worker."""
    request_timeout: float = Field(300.0, gt=0)
    """Seconds a request may take; a verdict not ready by then is a timeout."""
    judge_threads: int | None = Field(None, ge=1)
    """Threads that run synchronous function judges, per worker (default
    ``min(32, 4 * cores)``). A thread cannot be stopped: a sync judge still running
    when its request times out or its client leaves runs to its end, its answer is
    discarded, and it holds one of these threads meanwhile (so later calls queue)."""
    shutdown_grace: float = Field(30.0, ge=0)
    """Seconds a worker waits, on SIGTERM or SIGINT, for the requests in flight to
    finish (it accepts no new ones, and ``/readyz`` answers 503 meanwhile); requests
    still running then are cancelled, and with them their judge calls."""
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    workers: int = Field(1, ge=1)
    rate_limit: str | None = None
    """Verdict requests each API key may make, e.g. ``"60/minute"`` (a batch counts
    one per item); off when unset. Shared by every worker through ``redis_url``."""
    daily_budget_usd: float | None = Field(None, gt=0)
    """USD each API key may spend on the judge per UTC day (from the verdicts'
    ``usage.cost_usd``); off when unset. A request already running may overshoot it
    by its own cost."""

    @field_validator("api_keys")
    @classmethod
    def _keys_form(cls, keys: tuple[SecretStr, ...]) -> tuple[SecretStr, ...]:
        seen: dict[str, SecretStr] = {}
        for index, key in enumerate(keys):
            value = key.get_secret_value()
            # The message never contains the key itself.
            if not _KEY_RE.fullmatch(value):
                raise ValueError(
                    f"key {index} is not usable: a key is 16 to 512 characters of "
                    "A-Z a-z 0-9 . _ ~ + / = -"
                )
            seen.setdefault(value, key)
        return tuple(seen.values())

    @field_validator("cache_ttl", mode="before")
    @classmethod
    def _ttl_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and value.strip().lower() == "none" else value

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: SecretStr | None) -> SecretStr | None:
        if url is None:
            return None
        if not url.get_secret_value().startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must be a redis://, rediss:// or unix:// URL")
        return url

    provider_rate_limit: str | None = None
    """The judge provider's limit on calls, e.g. ``"500/minute"``: every judge call waits
    for a slot, shared through ``redis_url`` with every worker (and every ``grade`` or
    ``eval`` process using the same Redis and judge); a provider's 429 with Retry-After
    holds them all. Off when unset."""
    provider_token_limit: str | None = None
    """The provider's limit on tokens, e.g. ``"200000/minute"`` (counted from the usage
    the judge reports); off when unset."""

    @field_validator("rate_limit", "provider_rate_limit", "provider_token_limit")
    @classmethod
    def _rate_form(cls, rate: str | None) -> str | None:
        if rate is None:
            return None
        from limits import parse  # the server extra

        try:
            parse(rate)
        except ValueError:
            raise ValueError(
                "not a rate: write '<count>/<second|minute|hour|day>', e.g. '60/minute'"
            ) from None
        return rate

    @field_validator("cors_origins")
    @classmethod
    def _origins_form(cls, origins: tuple[str, ...]) -> tuple[str, ...]:
        for origin in origins:
            if origin != "*" and not re.fullmatch(r"https?://[^/\s]+", origin):
                raise ValueError(
                    f"{origin!r} is not an origin: use scheme://host[:port] (no path) or '*'"
                )
        return origins

    @field_validator("judge")
    @classmethod
    def _judge_form(cls, judge: str) -> str:
        if judge.startswith("python:") and judge.count(":") != 2:
            raise ValueError("a python judge is 'python:<module>:<callable>'")
        return judge

    @model_validator(mode="after")
    def _who_judges(self) -> ServerConfig:
        if self.panel and len(self.panel) < 2:
            raise ValueError("panel: a panel needs at least two judges")
        if self.panel and self.tiers:
            raise ValueError("tiers: give a panel or tiers, not both")
        if self.tiers:
            if len(self.tiers) < 2:
                raise ValueError("tiers: a cascade needs at least two tiers, cheapest first")
            if self.acceptance is None:
                raise ValueError("tiers: a cascade escalates by a calibrated rule: set acceptance")
        for spec in (*self.panel, *(s for tier in self.tiers for s in tier.split(","))):
            if spec.strip().startswith("python:") and spec.strip().count(":") != 2:
                raise ValueError("a python judge is 'python:<module>:<callable>'")
        return self

    def levels(self) -> list[list[str]]:
        """Who judges, as judge specs per tier: one tier (one judge, or the panel), or the
        cascade's tiers."""
        if self.tiers:
            return [[s.strip() for s in tier.split(",") if s.strip()] for tier in self.tiers]
        return [list(self.panel)] if self.panel else [[self.judge]]

    def secrets(self) -> tuple[str, ...]:
        """Every secret value, for scrubbing text that leaves the process."""
        found = [key.get_secret_value() for key in self.api_keys]
        if self.redis_url is not None:
            password = urlsplit(self.redis_url.get_secret_value()).password
            if password:
                found.append(password)
        return tuple(found)


def provider_keys_from_env(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The values of ``*_API_KEY`` variables (provider keys), to scrub from logs.

    ``environ`` defaults to ``os.environ``. Values under 8 characters are left out:
    scrubbing them would mangle ordinary words and leak nothing worth hiding.
    """
    env = os.environ if environ is None else environ
    return tuple(
        value.strip()
        for name, value in env.items()
        if name.upper().endswith("_API_KEY") and len(value.strip()) >= 8
    )


def server_settings_from_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings the environment gives, as raw field values (the only env reader).

    ``environ`` defaults to ``os.environ``. Returns ``{"config_file": path?,
    "fields": {...}, "sources": {field: variable}}``; ``fields`` holds only the
    variables that are set and not empty. Comma-separated variables
    (``PRIN_GUARD_API_KEYS``, ``PRIN_GUARD_CORS_ORIGINS``) become lists;
    ``PRIN_GUARD_API_KEYS_FILE`` names a file of keys, one a line, added to them.
    ``_PRIN_GUARD_SERVE_CONFIG`` (set by ``serve`` for its workers) is the whole
    configuration as JSON and replaces everything else. ``PROMETHEUS_MULTIPROC_DIR``
    (which prometheus-client reads too) comes back as ``prometheus_multiproc_dir``.
    """
    env = os.environ if environ is None else environ
    multiproc = env.get("PROMETHEUS_MULTIPROC_DIR", "").strip() or None
    worker = env.get(_WORKER_VAR)
    if worker:
        return {
            "worker_config": worker,
            "fields": {},
            "sources": {},
            "prometheus_multiproc_dir": multiproc,
        }
    fields: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for variable, name in ENV_VARS.items():
        value = env.get(variable, "").strip()
        if not value:
            continue
        if name in _LIST_FIELDS:
            fields[name] = [part.strip() for part in value.split(",") if part.strip()]
        else:
            fields[name] = value
        sources[name] = variable
    keys_file = env.get(_KEYS_FILE_VAR, "").strip()
    if keys_file:
        try:
            lines = Path(keys_file).expanduser().read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise UsageError(
                f"{_KEYS_FILE_VAR}: cannot read {keys_file}: {exc.strerror or exc}"
            ) from None
        from_file = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        fields["api_keys"] = [*fields.get("api_keys", []), *from_file]
        earlier = sources.get("api_keys")
        sources["api_keys"] = f"{earlier} and {_KEYS_FILE_VAR}" if earlier else _KEYS_FILE_VAR
    config_file = env.get(_CONFIG_FILE_VAR, "").strip() or None
    return {
        "config_file": config_file,
        "fields": fields,
        "sources": sources,
        "prometheus_multiproc_dir": multiproc,
    }


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"config file {path}: cannot read it: {exc.strerror or exc}") from None
    try:
        data: Any = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        # Parser messages quote positions, never values.
        kind = "JSON" if path.suffix == ".json" else "TOML"
        raise UsageError(f"config file {path}: not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(f"config file {path}: expected a table of settings")
    if isinstance(data.get("server"), dict) and len(data) == 1:
        data = data["server"]
    return dict(data)


def load_config(
    path: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> ServerConfig:
    """The configuration from defaults, a file, the environment and overrides (in that order).

    ``path`` is a ``.toml`` or ``.json`` file (keys at the top level or under
    ``[server]``); without it, ``PRIN_GUARD_CONFIG`` names one. ``overrides`` are
    values that win over everything (``None`` values are ignored). Raises
    :class:`~prin_guard.UsageError` naming the setting and where it came from;
    the message never contains a secret.
    """
    env = server_settings_from_env(environ)
    if "worker_config" in env:
        try:
            return ServerConfig.model_validate_json(env["worker_config"])
        except ValidationError as exc:
            raise UsageError(
                "server configuration from the parent: " + _describe(exc, {})
            ) from None
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    file = Path(path) if path is not None else None
    if file is None and env["config_file"]:
        file = Path(env["config_file"])
    if file is not None:
        from_file = _read_file(file.expanduser())
        values.update(from_file)
        sources.update(dict.fromkeys(from_file, f"config file {file}"))
    values.update(env["fields"])
    sources.update(env["sources"])
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = value
            sources[name] = "command line"
    try:
        return ServerConfig.model_validate(values)
    except ValidationError as exc:
        raise UsageError("server configuration: " + _describe(exc, sources)) from None


def _describe(exc: ValidationError, sources: Mapping[str, str]) -> str:
    """Validation errors as text: field, source and message, never the input value."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False):
        loc = [str(part) for part in error["loc"]]
        name = loc[0] if loc else "config"
        where = f" ({sources[name]})" if name in sources else ""
        shown = ".".join(loc)  # an index into the keys at most, never a value
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{shown}{where}: {message}")
    return "; ".join(parts)


def publish_for_workers(config: ServerConfig) -> None:
    """Hand ``config`` to the worker processes ``serve`` is about to start.

    Workers are fresh interpreters started by uvicorn; they inherit this process's
    environment, and :func:`load_config` there returns this configuration. The
    entry holds the secrets in clear (as ``PRIN_GUARD_API_KEYS`` would): the
    environment of a process is readable only by its user and root.
    """
    data = config.model_dump(mode="json")
    data["api_keys"] = [key.get_secret_value() for key in config.api_keys]
    data["redis_url"] = config.redis_url.get_secret_value() if config.redis_url else None
    os.environ[_WORKER_VAR] = json.dumps(data)
