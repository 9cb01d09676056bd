"""Every task by its name: the one place a task is registered (see :mod:`prin_guard.tasks`
for what a task gives). Adding a task is adding its module and a line here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from prin_guard.tasks._labels import LABEL_TASKS
from prin_guard.tasks._ranking import RANKING
from prin_guard.tasks._ratings import RATING
from prin_guard.tasks._review import REVIEW

if TYPE_CHECKING:
    from prin_guard.tasks import Task

__all__ = ["REGISTRY", "task_of"]

REGISTRY: dict[str, Task] = {
    **LABEL_TASKS,
    RATING.name: RATING,
    RANKING.name: RANKING,
    REVIEW.name: REVIEW,
}
"""Every task by its name."""


def task_of(raw: Any) -> Task:
    """The task ``raw`` (an item model, or a mapping) says it is: its ``task`` field when
    it names a registered task exactly, else the choice task (whose item model reads a
    missing, a misspelt or an unknown task and says what is wrong)."""
    named = getattr(raw, "task", None)
    if isinstance(raw, Mapping):
        named = raw.get("task")
    found = REGISTRY.get(named) if isinstance(named, str) else None
    return found if found is not None else REGISTRY["choice"]
