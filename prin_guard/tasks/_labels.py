"""The label tasks: choice, pairwise and checklist, one module as they share the set
machinery. Their item model is :class:`~prin_guard.Item`, their legs are planned and read
by :class:`~prin_guard._route._legs.LegAsker` (the direct and the reverse question, both again in
a second order with the order check) and reconciled by ``_decide.make_verdict`` (PRIN,
the policy's set); their words are :data:`~prin_guard.tasks._words.TASK_WORDS`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prin_guard._route._decide import error_verdict
from prin_guard._route._legs import LegPlan, LegPrompt, item_chars, leg_prompts
from prin_guard.errors import InvalidItemError
from prin_guard.models import Item, Leg, Message, Polarity, Verdict
from prin_guard.tasks._words import TASK_WORDS, TASKS, Task, TaskWords

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._judging import VerdictEngine
    from prin_guard._route._options import GuardOptions
    from prin_guard.errors import JudgeError

__all__ = ["LABEL_TASKS", "LabelTask"]


class LabelTask:
    """One label task (see :mod:`prin_guard.tasks` for what each method is)."""

    def __init__(self, name: Task) -> None:
        self.name: Task = name
        self.words: TaskWords = TASK_WORDS[name]

    def __repr__(self) -> str:
        return f"LabelTask({self.name!r})"

    def coerce(self, raw: Any, options: GuardOptions) -> Item:
        return Item.coerce(raw, max_chars=options.max_chars, max_candidates=options.max_candidates)

    def refuse(self, options: GuardOptions) -> None:
        return None  # every option is a label task's

    def check(self, item: Item, engine: VerdictEngine, acceptance: Acceptance | None) -> None:
        rating = engine.options.rating_template
        if rating is not None:
            raise InvalidItemError(
                "task",
                f"the item is a {item.task} item; the guard's template {rating.id!r} is a "
                "rating prompt: it asks rating items only",
            )
        if acceptance is not None:
            acceptance.check_task(item.task)  # a rule holds for its own task only
        engine.asker.template_for(item)

    def key(self, item: Item) -> str:
        return item.key

    def chars(self, item: Item) -> int:
        return item_chars(item)

    def plan(self, engine: VerdictEngine, item: Item) -> list[LegPlan]:
        return engine.plan(item)

    async def ask(
        self,
        engine: VerdictEngine,
        item: Item,
        plans: Sequence[Any],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        return await engine.ask_labels(item, list(plans), prefetched)

    async def ask_leg(
        self,
        engine: VerdictEngine,
        item: Item,
        plan: Any,
        prefetched: Mapping[str, str | None],
    ) -> Leg:
        caller = engine.callers[plan.member]
        return (await engine.asker.read(caller, item, plan, prefetched)).leg

    def failed(self, item: Item, error: JudgeError, options: GuardOptions) -> Verdict:
        return error_verdict(item.key, "judge", str(error), item=item, options=options)

    def messages(self, engine: VerdictEngine, item: Item, polarity: Polarity) -> list[Message]:
        return engine.asker.messages(item, polarity, engine.asker.template_for(item))

    def prompts(self, engine: VerdictEngine, item: Item) -> list[LegPrompt]:
        options = engine.options
        return leg_prompts(
            item,
            options.label_template,
            options.mitigations,
            order=options.second_order(item.task),
            layout=options.prompt_layout,
        )

    def max_calls(self, engine: VerdictEngine) -> int:
        return engine.max_calls(self.name)


LABEL_TASKS: dict[str, LabelTask] = {name: LabelTask(name) for name in TASKS}
"""The label tasks by name."""
