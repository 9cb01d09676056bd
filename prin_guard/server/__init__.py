"""prin-guard as an HTTP service: ``prin-guard serve`` (FastAPI on uvicorn).

Needs the ``server`` extra (``pip install 'prin-guard[server]'``). ``import
prin_guard`` never imports this package; this package imports FastAPI only when
:func:`create_app` or :func:`serve` is first used, so the configuration can be
read and checked without it.

    from prin_guard.server import ServerConfig, create_app

    app = create_app(ServerConfig(api_keys=["..."], judge="openai/gpt-4o-mini"))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from prin_guard.server._config import ServerConfig, load_config, server_settings_from_env

if TYPE_CHECKING:
    from prin_guard.server._app import FROM_CONFIG, create_app
    from prin_guard.server._serve import serve

__all__ = [
    "FROM_CONFIG",
    "ServerConfig",
    "create_app",
    "load_config",
    "serve",
    "server_settings_from_env",
]

_LAZY = {
    "FROM_CONFIG": "prin_guard.server._app",
    "create_app": "prin_guard.server._app",
    "serve": "prin_guard.server._serve",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        try:
            module = importlib.import_module(_LAZY[name])
        except ImportError as exc:
            if exc.name and exc.name.split(".")[0] in {"fastapi", "uvicorn", "prometheus_client"}:
                from prin_guard.errors import MissingExtraError

                raise MissingExtraError("prin_guard.server", "server", exc.name) from exc
            raise
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
