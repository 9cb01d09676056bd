"""Batch grading on a Ray cluster: ``prin-guard grade --engine ray`` (extra ``ray``).

A Ray Data pipeline reads the input in chunks and grades it on a pool of actors
(each builds one :class:`~prin_guard.Guard`: judge, options, the shared Redis
cache with single flight, the shared rate limit); the driver writes the rows as
they finish into one file, with the local engine's writer (:mod:`prin_guard.grade`):
the same file, format and resuming as the local engine::

    from prin_guard.ray import WorkerSpec, grade_on_ray

    spec = WorkerSpec(config=GuardConfig(judge="openai/gpt-4o-mini"),
                      redis_url="redis://cache:6379/0",
                      rate_limit=RateLimit("500/minute", redis_url="redis://cache:6379/0"))
    summary = grade_on_ray("items.jsonl", "graded.parquet", spec, actors=8, address="auto")

For a pipeline of your own, :func:`read_items` makes the input rows and
:func:`grade_dataset` grades any Dataset of rows with the same columns.
Ray is imported only here: ``import prin_guard`` never loads it.
"""

from prin_guard.errors import MissingExtraError

try:
    import ray as _ray  # noqa: F401 - fail here, naming the extra
except ImportError:
    raise MissingExtraError("the Ray engine", "ray", "ray[data]") from None

from prin_guard.ray._pipeline import grade_dataset, grade_on_ray, read_items
from prin_guard.ray._worker import WorkerSpec

__all__ = ["WorkerSpec", "grade_dataset", "grade_on_ray", "read_items"]
