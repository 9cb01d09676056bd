"""The rating task: how good one response is on a scale. Its item model is
:class:`~prin_guard.models.RatingItem`; its legs are the direct question and the mirrored
one (how poor, on the scale mirrored), with the order check the direct one again with the
rubric's levels from the top down, each aspect's apart (or every aspect in one reply,
``rating_aspects="together"``); a reply is read for its declared score and the two legs
reconciled into ``rating`` (:mod:`prin_guard._rating` holds the rules, ``_rate`` the
wording and the asking)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prin_guard._decide import error_verdict
from prin_guard._exceptions import InvalidItemError, UsageError
from prin_guard._legs import LegPrompt
from prin_guard._models import Message, Polarity, Verdict
from prin_guard._prompts import get_template
from prin_guard._rating import RatingItem

if TYPE_CHECKING:
    from prin_guard._acceptance import Acceptance
    from prin_guard._exceptions import JudgeError
    from prin_guard._judging import VerdictEngine
    from prin_guard._options import GuardOptions
    from prin_guard._rate import RatingPlan

__all__ = ["RATING", "RatingTask"]


class RatingTask:
    """The rating task (see :mod:`prin_guard.tasks` for what each method is)."""

    name = "rating"

    def __repr__(self) -> str:
        return "RatingTask()"

    def coerce(self, raw: Any, options: GuardOptions) -> RatingItem:
        return RatingItem.coerce(raw, max_chars=options.max_chars)

    def refuse(self, options: GuardOptions) -> None:
        rating_prompt = options.rating_prompt
        template = None if rating_prompt is not None else options.label_template
        if template is not None:
            # asked anyway, a rating would get prin-guard's own rating prompt, not the
            # words the guard was set up with: refused, as a rating prompt refuses labels
            named = template if isinstance(template, str) else template.id
            raise UsageError(
                f"template: the guard's template {named!r} asks "
                f"{get_template(template).task} questions, not ratings; rate under a "
                "rating prompt (such as 'mt-bench-single') or under no template "
                "(prin-guard's own rating prompt)"
            )
        if not set(options.checks or ("reverse",)) <= {"reverse", "order"}:
            raise UsageError(
                "checks: a rating is guarded by the reverse and order checks and the probe "
                "alone, so far"
            )

    def check(self, item: RatingItem, engine: VerdictEngine, acceptance: Acceptance | None) -> None:
        if acceptance is not None:
            # a rule holds for its own task and the scales it was calibrated on only
            acceptance.check_task("rating", item.scale)
            if item.aspects:
                raise InvalidItemError(
                    "aspects",
                    "the guard's acceptance file was calibrated on ratings of one "
                    "aspect each; rate each aspect as an item of its own",
                )
        prompt = engine.options.rating_prompt
        if prompt is not None:  # the item fits the prompt: its scale, the fields shown
            if item.aspects:
                raise InvalidItemError(
                    "aspects",
                    f"the prompt {prompt.id!r} names no aspect: rate aspects with "
                    "prin-guard's own wording (no rating prompt)",
                )
            prompt.check(item)

    def key(self, item: RatingItem) -> str:
        from prin_guard._rate import rating_id  # the rating's calls load with the first rating

        return rating_id(item)

    def chars(self, item: RatingItem) -> int:
        return sum(len(text) for text in item.texts)

    def plan(self, engine: VerdictEngine, item: RatingItem) -> list[RatingPlan]:
        from prin_guard._rate import rating_plans

        options = engine.options
        return rating_plans(
            engine.callers,
            item,
            options.rating_prompt,
            order="order" in options.checks_for("rating"),
            together=options.rating_aspects == "together",
        )

    async def ask(
        self,
        engine: VerdictEngine,
        item: RatingItem,
        plans: Sequence[Any],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """The rating's verdict from ``engine``'s judge (or panel); a rating with aspects,
        each aspect asked in calls of its own (or every aspect in one reply)."""
        from prin_guard._rate import rate_aspects, rate_together

        if item.aspects:
            if engine.options.rating_aspects == "together":
                return await rate_together(engine.callers[0], item, prefetched)
            return await rate_aspects(
                item, functools.partial(_rate_with, engine, prefetched), engine.options
            )
        return await _rate_with(engine, prefetched, item)

    def failed(self, item: RatingItem, error: JudgeError, options: GuardOptions) -> Verdict:
        from prin_guard._rate import rating_id

        return error_verdict(rating_id(item), "judge", str(error), task="rating", options=options)

    def messages(
        self, engine: VerdictEngine, item: RatingItem, polarity: Polarity
    ) -> list[Message]:
        from prin_guard._rate import rating_messages

        return rating_messages(item, polarity, prompt=engine.options.rating_prompt)

    def prompts(self, engine: VerdictEngine, item: RatingItem) -> list[LegPrompt]:
        from prin_guard._rate import rating_legs

        options = engine.options
        return rating_legs(
            item,
            options.rating_prompt,
            order="order" in options.checks_for("rating"),
            together=options.rating_aspects == "together",
        )

    def max_calls(self, engine: VerdictEngine) -> int:
        """Both legs, and the order check's third (with a rubric), and the probe's rounds
        after each of the first two, for every member."""
        legs = 3 if "order" in engine.options.checks_for("rating") else 2
        rounds = 2 * len(engine.probe.rounds) if engine.probe is not None else 0
        return (legs + rounds) * len(engine.callers)


async def _rate_with(
    engine: VerdictEngine, prefetched: Mapping[str, str | None], asked: RatingItem
) -> Verdict:
    """``engine``'s judge (or panel) rating ``asked``, through its callers."""
    from prin_guard._rate import rate, rate_panel

    order = "order" in engine.options.checks_for("rating")
    prompt = engine.options.rating_prompt
    if engine.names is not None:
        return await rate_panel(
            engine.callers,
            engine.names,
            asked,
            order=order,
            probe=engine.probe,
            prompt=prompt,
            prefetched=prefetched,
        )
    return await rate(
        engine.callers[0],
        asked,
        order=order,
        probe=engine.probe,
        prompt=prompt,
        prefetched=prefetched,
    )


RATING = RatingTask()
"""The rating task."""
