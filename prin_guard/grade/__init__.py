"""Batch grading: a file of items in, one output row per item out.

``prin-guard grade INPUT --out OUTPUT`` is :func:`grade` plus argument parsing and
printing. Input and output are JSONL, CSV or Parquet (Parquet needs the
``grade`` extra, pyarrow); the input columns are ``question``, ``candidates``,
``context`` and ``id`` (see ``_read``), the output columns those of
:func:`columns` (see :func:`verdict_row`). A run resumes: items already in the
output (each output row records its input ``line``) are not judged again, and a
line whose content changed since its row was written is told, by line, in the
summary. ``OUTPUT`` is touched only when it is new, empty or one of grade's
outputs.

This is the local engine (one process, asyncio); :mod:`prin_guard.ray` runs the
same rows on a Ray cluster.
"""

from prin_guard.grade._local import agrade, build_guard, check_gradable, grade
from prin_guard.grade._read import FORMATS, count_rows, detect_format, read_rows
from prin_guard.grade._rows import columns, input_sha, invalid_row, verdict_row
from prin_guard.grade._summary import GradeStats, GradeSummary, summary_text
from prin_guard.grade._write import arrow_schema, open_sink

__all__ = [
    "FORMATS",
    "GradeStats",
    "GradeSummary",
    "agrade",
    "arrow_schema",
    "build_guard",
    "check_gradable",
    "columns",
    "count_rows",
    "detect_format",
    "grade",
    "input_sha",
    "invalid_row",
    "open_sink",
    "read_rows",
    "summary_text",
    "verdict_row",
]
