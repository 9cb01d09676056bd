"""The one place prin-guard reads environment variables."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "ACCEPTANCE_KEY_VARIABLE",
    "acceptance_key",
    "env_is_set",
    "home_dir",
    "model_cache_dir",
    "prefer_bundled_litellm_cost_map",
]

ACCEPTANCE_KEY_VARIABLE = "PRIN_GUARD_ACCEPTANCE_KEY"
"""The operator's key for acceptance files' HMAC signatures (docs/security.md)."""


def home_dir() -> Path:
    """Where prin-guard keeps files between runs.

    ``PRIN_GUARD_HOME`` if set, else ``$XDG_CACHE_HOME/prin-guard``, else
    ``~/.cache/prin-guard``.
    """
    explicit = os.environ.get("PRIN_GUARD_HOME")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "prin-guard"


def model_cache_dir() -> Path:
    """Where converted local models (safetensors) are kept."""
    return home_dir() / "models"


def prefer_bundled_litellm_cost_map() -> None:
    """Make litellm use its bundled price list instead of fetching one at import.

    The fetch costs seconds offline and makes costs depend on the day. An
    application that set ``LITELLM_LOCAL_MODEL_COST_MAP`` itself keeps its choice.
    The same for the table of Anthropic's beta headers litellm fetches at the first
    Anthropic call (``LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS``).
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")


def env_is_set(name: str) -> bool:
    """Whether an environment variable is set (its value is never read here)."""
    return bool(os.environ.get(name))


def acceptance_key() -> bytes | None:
    """The operator's key that signs and checks acceptance files
    (:data:`ACCEPTANCE_KEY_VARIABLE`, its UTF-8 bytes), or ``None`` when it is not set.
    Read at each use, never kept, logged or written anywhere."""
    value = os.environ.get(ACCEPTANCE_KEY_VARIABLE)
    return value.encode("utf-8") if value else None
