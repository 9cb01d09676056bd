"""Inspect's entry point: importing it registers the scorer and the metrics by name.

Inspect loads it (``[project.entry-points.inspect_ai]``) when it needs a name it does
not know, for instance to re-score a log with ``inspect score``.
"""

from prin_guard_inspect._scorer import (
    flagged_rate,
    inconsistent_rate,
    mean_prin,
    prin_guard_scorer,
)

__all__ = ["flagged_rate", "inconsistent_rate", "mean_prin", "prin_guard_scorer"]
