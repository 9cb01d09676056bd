"""The one place prin-guard reads environment variables."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["home_dir", "model_cache_dir"]


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
