"""The tasks a guard judges, each one module registered here; the route asks the registry.

A task is what the route (``Guard.acheck``: plan -> prefetch -> ask -> read -> reconcile
-> verdict, with the acceptance file's tiers after) needs to know of one kind of item,
and nothing the route does itself (the span, the verdict log line, the prefetch, the
escalation, a failed judge's verdict in a batch):

- its item model: :meth:`Task.coerce` (a bad input: an InvalidItemError naming the field)
  and :meth:`Task.check` (an item this guard cannot ask: its template, its limits, its
  acceptance file), :meth:`Task.refuse` (an option of the guard the task cannot honour),
  :meth:`Task.key` (the item's id, or a hash of its content);
- its legs: :meth:`Task.plan` (every leg the guard's checks ask, for every panel member,
  each with its cache key), :meth:`Task.messages`, :meth:`Task.prompts` (what each leg
  sends and what the reader looks for), :meth:`Task.max_calls`;
- asking, reading and reconciling: :meth:`Task.ask` (the planned legs asked through the
  engine's callers, each reply read, the legs reconciled into the verdict's fields),
  :meth:`Task.ask_leg` (one leg alone);
- its words (:attr:`Task.words`: the label tasks' :data:`~prin_guard.tasks._words.TASK_WORDS`,
  which the prompts, the reader and the probe read).

The label tasks (choice, pairwise, checklist) share one module, as they share the set
machinery (``_labels``); the rating is ``_ratings``, the listwise ranking ``_ranking``, a
reviewer's form ``_review``. Adding a task is adding a module that gives these and
registering it in :data:`REGISTRY`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._judging import VerdictEngine
    from prin_guard._route._legs import LegPrompt
    from prin_guard._route._options import GuardOptions
    from prin_guard.errors import JudgeError
    from prin_guard.models import Leg, Message, Polarity, Verdict
    from prin_guard.tasks._registry import REGISTRY, task_of

__all__ = ["REGISTRY", "Planned", "Task", "task_of"]


class Planned(Protocol):
    """One planned leg, as the route sees it: where its reply is cached, and which
    question it asks."""

    @property
    def key(self) -> str: ...

    @property
    def polarity(self) -> Polarity: ...


class Task(Protocol):
    """What the route needs of a task (see the module's docstring)."""

    @property
    def name(self) -> str: ...

    def coerce(self, raw: Any, options: GuardOptions) -> Any:
        """``raw`` as this task's item model, within the options' limits."""
        ...

    def refuse(self, options: GuardOptions) -> None:
        """A UsageError naming the first of ``options`` this task cannot honour."""
        ...

    def check(self, item: Any, engine: VerdictEngine, acceptance: Acceptance | None) -> None:
        """An InvalidItemError when the guard (its template, its acceptance file) cannot
        ask ``item``."""
        ...

    def key(self, item: Any) -> str: ...

    def chars(self, item: Any) -> int:
        """How long the item's texts are (a long item's legs are planned off the loop)."""
        ...

    def plan(self, engine: VerdictEngine, item: Any) -> Sequence[Planned]: ...

    async def ask(
        self,
        engine: VerdictEngine,
        item: Any,
        plans: Sequence[Planned],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """The planned legs asked, read and reconciled into the verdict (no span, no log
        line, no escalation: the route's)."""
        ...

    async def ask_leg(
        self,
        engine: VerdictEngine,
        item: Any,
        plan: Planned,
        prefetched: Mapping[str, str | None],
    ) -> Leg:
        """One planned leg asked and read, alone (``Guard.aask``)."""
        ...

    def failed(self, item: Any, error: JudgeError, options: GuardOptions) -> Verdict: ...

    def messages(self, engine: VerdictEngine, item: Any, polarity: Polarity) -> list[Message]: ...

    def prompts(self, engine: VerdictEngine, item: Any) -> list[LegPrompt]: ...

    def max_calls(self, engine: VerdictEngine) -> int: ...


def __getattr__(name: str) -> Any:
    # The registry imports every task module, and they import the route's lower layers;
    # the package itself stays light, so that its words module (``_words``, at the bottom
    # of the layers: the models, the prompts and the reader read it) imports nothing above.
    if name in {"REGISTRY", "task_of"}:
        return getattr(importlib.import_module("prin_guard.tasks._registry"), name)
    raise AttributeError(f"module 'prin_guard.tasks' has no attribute {name!r}")
