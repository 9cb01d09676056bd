"""Batch grading: a file of items in, one output row per item out.

``prin-guard grade INPUT --out OUTPUT`` is :func:`grade` plus argument parsing and
printing. Input and output are JSONL, CSV or Parquet (Parquet needs the
``grade`` extra, pyarrow); the input columns are ``question``, ``candidates``,
``context`` and ``id`` (see ``_read``), the output columns those of
:func:`columns` (see :func:`verdict_row`). A run resumes: items already in the
output (matched on ``id``, or on the item's content hash when it has no id) are
not judged again.

This is the local engine (one process, asyncio); :mod:`prin_guard.ray` runs the
same rows on a Ray cluster.
"""

from prin_guard.grade._local import agrade, build_guard, grade, open_cache
from prin_guard.grade._read import FORMATS, count_rows, detect_format, read_rows
from prin_guard.grade._rows import columns, invalid_row, verdict_row
from prin_guard.grade._summary import GradeStats, GradeSummary, summary_text
from prin_guard.grade._write import arrow_schema, open_sink

__all__ = [
    "FORMATS",
    "GradeStats",
    "GradeSummary",
    "agrade",
    "arrow_schema",
    "build_guard",
    "columns",
    "count_rows",
    "detect_format",
    "grade",
    "invalid_row",
    "open_cache",
    "open_sink",
    "read_rows",
    "summary_text",
    "verdict_row",
]
