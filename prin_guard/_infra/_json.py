"""The one rule for the JSON prin-guard writes: JSON, never JavaScript.

Python's ``json.dumps`` writes a float that is not finite as the bare words ``NaN``,
``Infinity`` and ``-Infinity``, which no JSON parser but Python's and JavaScript's
``eval`` reads. Every file and every response prin-guard writes as JSON (grade's
JSONL rows, eval's ``items.jsonl`` and ``summary.json``, acceptance files, the
service's bodies, the command line's ``--json``) goes through :func:`dumps`, which
refuses such a number (``ValueError``) instead of writing it. What is written is made
finite first, where it is decided: a verdict cannot hold a number that is not finite
(its models refuse one), and a summary's figure that cannot be computed is ``null``
(:func:`finite`).
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "finite"]


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)`` that refuses NaN and the infinities."""
    return json.dumps(value, allow_nan=False, **options)


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by ``None`` (in lists,
    tuples and dicts too): for figures where "could not be computed" is ``null``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(entry) for key, entry in value.items()}
    if isinstance(value, list | tuple):
        return [finite(entry) for entry in value]
    return value
