"""Where the modules of the flat layout live since the package was regrouped (issue 39,
item 4): for benchmarks that load an older commit's source beside today's package."""

from __future__ import annotations

import re

MOVED: dict[str, str] = {
    "_guard": "_route._guard",
    "_setup": "_route._setup",
    "_decorator": "_route._decorator",
    "_judging": "_route._judging",
    "_legs": "_route._legs",
    "_reading": "_route._reading",
    "_decide": "_route._decide",
    "_stream": "_route._stream",
    "_informative": "_route._informative",
    "_acceptance": "_route._acceptance",
    "_options": "_route._options",
    "_usage": "_route._usage",
    "_prompts": "_prompting._prompts",
    "_rating": "_prompting._rating",
    "_contract": "_prompting._contract",
    "_wording": "_prompting._wording",
    "_quotes": "_prompting._quotes",
    "_retry": "_infra._retry",
    "_ratelimit": "_infra._ratelimit",
    "_tracing": "_infra._tracing",
    "_events": "_infra._events",
    "_redact": "_infra._redact",
    "_settings": "_infra._settings",
    "_offloop": "_infra._offloop",
    "_json": "_infra._json",
    "_runs": "_output._runs",
    "_terminal": "_output._terminal",
    "_tasks": "tasks._words",
    "_calls": "calls",
    "_exceptions": "errors",
    "_models": "models",
}
"""Old module (under ``prin_guard``) -> its module now."""


def moved_imports(source: str) -> str:
    """``source`` (a module of an older commit) with its imports of moved modules pointed at
    where they live now."""
    for was, now in MOVED.items():
        source = re.sub(
            rf"\b(from|import) prin_guard\.{re.escape(was)}(?![\w.])",
            rf"\1 prin_guard.{now}",
            source,
        )
    return source
