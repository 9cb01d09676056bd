"""The server's configuration: one frozen model, loaded from a file and the environment.

:class:`ServerConfig` is a pydantic-settings model holding the guard's set-up (a
:class:`~prin_guard.GuardConfig`: the same model the command line, the Ray workers and
the adapters read) and the service's own settings. Every setting has one flat name,
from which its environment variable (``PRIN_GUARD_<NAME>``) and its key in a
configuration file are derived. :func:`load_config` merges, lowest first: the model's
defaults, a TOML or JSON file (``path``, or ``PRIN_GUARD_CONFIG``), then the
``PRIN_GUARD_*`` variables that are set, then explicit overrides (command-line
flags). :func:`server_settings_from_env` is the only function of the server that reads
environment variables (``prin_guard._infra._redact``, which redacts every log line and error,
reads the values of the secret variables: ``*_API_KEY``, ``*_TOKEN``, ...).

Secrets (API keys, the metrics token, a Redis URL with a password) are
:class:`~pydantic.SecretStr`:
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
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from prin_guard._route._setup import SETTINGS, GuardConfig
from prin_guard.cache._open import REDIS_SCHEMES
from prin_guard.errors import UsageError

__all__ = [
    "ServerConfig",
    "env_vars",
    "load_config",
    "publish_for_workers",
    "server_settings_from_env",
    "setting_names",
]

_KEY_RE: Final = re.compile(r"[A-Za-z0-9._~+/=-]{16,512}")
_PREFIX: Final = "PRIN_GUARD_"
_LIST_SETTINGS: Final = frozenset({"api_keys", "cors_origins"})
_KEYS_FILE_VAR: Final = "PRIN_GUARD_API_KEYS_FILE"
_CONFIG_FILE_VAR: Final = "PRIN_GUARD_CONFIG"
# Set by `serve` for its worker processes: the parent's resolved configuration.
_WORKER_VAR: Final = "_PRIN_GUARD_SERVE_CONFIG"


class ServerConfig(BaseSettings):
    """Everything ``prin-guard serve`` needs: who judges and how (``guard``, a
    :class:`~prin_guard.GuardConfig`) and the service's own settings. Frozen; unknown
    keys are an error.

    Every setting has one flat name, the guard's included (``judge``, ``template``,
    ``max_chars``, ``port``): ``PRIN_GUARD_<NAME>`` in the environment, ``name = ...``
    in the TOML or JSON file (at the top level or under ``[server]``), and
    ``ServerConfig.from_settings(...)`` in Python.
    """

    # hide_input_in_errors: a ValidationError must not quote a key or a Redis URL
    model_config = SettingsConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    guard: GuardConfig = Field(default_factory=GuardConfig)
    """Who judges and how: the judge (or panel, or tiers), the acceptance file, the judge's
    settings and the guard options; a request's options override the options' defaults,
    never ``max_chars``, ``max_candidates`` or ``on_inconsistent`` (the server's)."""
    redis_url: SecretStr | None = None
    """A shared cache (``redis://``, ``rediss://``, ``unix://``); per-worker memory when unset."""
    redis_namespace: str = "server"
    cache_ttl: float | None = Field(7 * 24 * 3600.0, gt=0)
    """Seconds a cached answer lives in Redis; ``None`` never expires."""
    api_keys: tuple[SecretStr, ...] = ()
    """Keys accepted as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    allow_no_auth: bool = False
    """Serve without API keys. Off by default: startup refuses to run without keys."""
    metrics_token: SecretStr | None = None
    """The operator's token for ``/metrics`` (``Authorization: Bearer <token>``, as a
    Prometheus scrape job's ``authorization`` sends it): the metrics count every key's
    traffic, so no API key reads them (403). Unset: ``/metrics`` is off (403 to every
    key), unless ``metrics_open``. 16 to 512 characters, none of them an API key."""
    metrics_open: bool = False
    """Serve ``/metrics`` to anyone who reaches the port, without a key or the token (for
    a scraper on a private network: what it shows is every key's traffic)."""
    docs_open: bool = False
    """Serve the OpenAPI schema (``/openapi.json``) without a key. Off by default: like
    every other path, it needs a key, so the key also hides what the service offers.
    There is no Swagger UI or ReDoc page (they load their assets from a public CDN)."""
    max_body_bytes: int = Field(1_048_576, ge=64)
    """Largest request body, in bytes."""
    max_batch: int = Field(100, ge=1)
    """Most items in one request."""
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
    """USD each API key may spend on the judge per UTC day (the ``usage.cost_usd`` of the
    judge calls made for its requests); off when unset. A request reserves the most it can
    cost with its own options before any judge call (its items' most judge calls times one
    call's price) and is refused when that would pass the budget; its actual cost replaces
    the reservation however the request ends."""
    estimated_cost_usd: float | None = Field(None, ge=0)
    """The cost of one verdict asked with the configured options: over their judge calls
    per item, the price of one call, which a request reserves for every call its own
    options can make. Unset: the key's mean cost per judge call today, and before its
    first one, all that is left of its budget (its first request runs alone). Set it at
    or a little above the judge's real cost per verdict for a hard cap."""
    request_templates: tuple[str, ...] | None = None
    """The templates a request may choose (``options.template``), by id: prin-guard's own
    ids, packs (``mt-bench-pair``, ...) and the configured template's. Unset: the bundled
    templates, the packs and the configured one. A request never sends a template of its
    own (its wording would be the prompt): those are the operator's, configured here."""
    cache_scope: Literal["key", "shared"] = "key"
    """Whose cached answers a key gets. ``key``: its own only (a cache namespace per API
    key; nothing a key receives depends on another key's requests). ``shared``: every
    key's (each answer is paid for once), but ``cached``, latency and response time then
    tell a key what other keys asked: for keys of one party only."""

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

    @field_validator("metrics_token")
    @classmethod
    def _token_form(cls, token: SecretStr | None) -> SecretStr | None:
        if token is not None and not _KEY_RE.fullmatch(token.get_secret_value()):
            # The message never contains the token itself.
            raise ValueError(
                "not usable: a token is 16 to 512 characters of A-Z a-z 0-9 . _ ~ + / = -"
            )
        return token

    @model_validator(mode="after")
    def _token_is_no_key(self) -> ServerConfig:
        token = self.metrics_token
        if token is not None and token.get_secret_value() in {
            key.get_secret_value() for key in self.api_keys
        }:
            raise ValueError(
                "metrics_token: it is also an API key; the metrics are the operator's, so "
                "their token must be none of the keys"
            )
        return self

    @field_validator("cache_ttl", mode="before")
    @classmethod
    def _ttl_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and value.strip().lower() == "none" else value

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: SecretStr | None) -> SecretStr | None:
        if url is None:
            return None
        if not url.get_secret_value().startswith(REDIS_SCHEMES):
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

    def secrets(self) -> tuple[str, ...]:
        """Every secret value, for scrubbing text that leaves the process."""
        found = [key.get_secret_value() for key in self.api_keys]
        if self.metrics_token is not None:
            found.append(self.metrics_token.get_secret_value())
        if self.redis_url is not None:
            password = urlsplit(self.redis_url.get_secret_value()).password
            if password:
                found.append(password)
        return tuple(found)

    @model_validator(mode="before")
    @classmethod
    def _flat_guard_settings(cls, data: Any) -> Any:
        # ServerConfig(judge="...", max_chars=10, port=8001): the guard's settings by
        # their flat names, over what the other sources said of the guard
        if not isinstance(data, dict) or not any(name in SETTINGS for name in data):
            return data
        data = dict(data)
        nested = _nest({name: data.pop(name) for name in list(data) if name in SETTINGS})
        guard = data.get("guard")
        if isinstance(guard, GuardConfig):
            guard = guard.model_dump(exclude_unset=True)
        merged = dict(guard) if isinstance(guard, dict) else {}
        update = nested["guard"]
        options = {**merged.get("options", {}), **update.pop("options", {})}
        merged.update(update)
        if options:
            merged["options"] = options
        data["guard"] = merged
        return data

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Highest first: what the program passes (the command line's flags), the
        ``PRIN_GUARD_*`` variables, then the configuration file."""
        reading = _READING.get()
        return (
            init_settings,
            _Flat(settings_cls, reading.environment),
            _Flat(settings_cls, reading.file),
        )

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> ServerConfig:
        """A configuration from flat settings only (no environment, no file)."""
        token = _READING.set(_NOTHING)
        try:
            return cls(**_nest(settings))
        finally:
            _READING.reset(token)


@dataclass(frozen=True)
class _Reading:
    """What :func:`load_config` reads from: flat settings per source."""

    environment: Mapping[str, Any]
    file: Mapping[str, Any]


_NOTHING: Final = _Reading({}, {})
_READING: ContextVar[_Reading] = ContextVar("prin_guard_server_reading", default=_NOTHING)


class _Flat(PydanticBaseSettingsSource):
    """Flat settings (``judge``, ``template``, ``port``) nested as the model has them."""

    def __init__(self, settings_cls: type[BaseSettings], flat: Mapping[str, Any]) -> None:
        super().__init__(settings_cls)
        self._flat = flat

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ reads everything at once

    def __call__(self) -> dict[str, Any]:
        return _nest(self._flat)


def _nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    """Flat settings as ServerConfig's fields: the guard's (:data:`SETTINGS`) under
    ``guard`` (its options' under ``guard.options``), the server's at the top."""
    top: dict[str, Any] = {}
    guard: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for name, value in flat.items():
        where = SETTINGS.get(name)
        if where == "options":
            options[name] = value
        elif where == "config":
            guard[name] = value
        else:
            top[name] = value  # the server's own, or unknown (an error naming it)
    if options:
        guard["options"] = options
    if guard:
        top["guard"] = guard
    return top


def setting_names() -> tuple[str, ...]:
    """Every flat setting name of the service: the guard's, then the server's."""
    server = [name for name in ServerConfig.model_fields if name != "guard"]
    return (*SETTINGS, *server)


def env_vars() -> dict[str, str]:
    """Environment variable → setting, derived from the setting names."""
    return {f"{_PREFIX}{name.upper()}": name for name in setting_names()}


def server_settings_from_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings the environment gives, as raw flat values (the only env reader).

    ``environ`` defaults to ``os.environ``. Returns ``{"config_file": path?,
    "fields": {...}, "sources": {setting: variable}}``; ``fields`` holds only the
    variables that are set and not empty. Comma-separated variables (API keys, CORS
    origins) become lists; a panel (``a,b``) and tiers (``a;b,c``: tiers by ``;``, a
    tier's panel by ``,``) stay text, which :class:`~prin_guard.GuardConfig` reads;
    ``PRIN_GUARD_API_KEYS_FILE`` names a file of keys, one a line, added to them.
    ``_PRIN_GUARD_SERVE_CONFIG`` (set by ``serve`` for its workers) is the whole
    configuration as JSON and replaces everything else.
    ``PROMETHEUS_MULTIPROC_DIR`` (which prometheus-client reads too) comes back as
    ``prometheus_multiproc_dir``.
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
    for variable, name in env_vars().items():
        value = env.get(variable, "").strip()
        if not value:
            continue
        if name in _LIST_SETTINGS:
            fields[name] = [part.strip() for part in value.split(",") if part.strip()]
        else:
            fields[name] = value  # GuardConfig reads a panel ("a,b") and tiers ("a;b,c")
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
    """The configuration from defaults, a file, the environment and overrides (in that
    order, each over the one before: pydantic-settings merges them).

    ``path`` is a ``.toml`` or ``.json`` file of flat settings (at the top level or under
    ``[server]``); without it, ``PRIN_GUARD_CONFIG`` names one. ``overrides`` are flat
    settings that win over everything (``None`` values are ignored). Raises
    :class:`~prin_guard.UsageError` naming the setting and where it came from; the
    message never contains a secret.
    """
    env = server_settings_from_env(environ)
    if "worker_config" in env:
        try:
            return ServerConfig.model_validate_json(env["worker_config"])
        except ValidationError as exc:
            raise UsageError(
                "server configuration from the parent: " + _describe(exc, {})
            ) from None
    sources: dict[str, str] = {}
    from_file: dict[str, Any] = {}
    file = Path(path) if path is not None else None
    if file is None and env["config_file"]:
        file = Path(env["config_file"])
    if file is not None:
        from_file = _read_file(file.expanduser())
        sources.update(dict.fromkeys(from_file, f"config file {file}"))
    sources.update(env["sources"])
    given = {name: value for name, value in (overrides or {}).items() if value is not None}
    sources.update(dict.fromkeys(given, "command line"))
    token = _READING.set(_Reading(env["fields"], from_file))
    try:
        return ServerConfig(**_nest(given))
    except ValidationError as exc:
        raise UsageError("server configuration: " + _describe(exc, sources)) from None
    finally:
        _READING.reset(token)


def _describe(exc: ValidationError, sources: Mapping[str, str]) -> str:
    """Validation errors as text: setting, source and message, never the input value."""
    names = set(setting_names())
    parts = []
    for error in exc.errors(include_input=False, include_url=False):
        loc = [str(part) for part in error["loc"]]
        # the flat name: the deepest part of the location that is a setting
        named = [part for part in loc if part in names]
        name = named[-1] if named else (loc[-1] if loc else "config")
        where = f" ({sources[name]})" if name in sources else ""
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "not a setting of the service"
        said = message.split(": ", 1)
        if not named and len(said) == 2 and said[0] in names:
            # a check across settings (GuardConfig's): its message names the setting
            name, message = said
            where = f" ({sources[name]})" if name in sources else ""
        shown = name
        if named and loc and loc[-1] != name:
            shown = ".".join([name, *loc[loc.index(name) + 1 :]])  # an index at most
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
    token = config.metrics_token
    data["metrics_token"] = token.get_secret_value() if token is not None else None
    os.environ[_WORKER_VAR] = json.dumps(data)
