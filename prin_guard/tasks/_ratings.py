"""The rating task: how good one response is on a scale, guarded. Its item model is
:class:`~prin_guard.models.RatingItem`; its legs are the direct question and the mirrored
one (how poor, on the scale mirrored), with the order check the direct one again with the
rubric's levels from the top down, each aspect's apart (or every aspect in one reply,
``rating_aspects="together"``), asked through the guard's call layer (cached, retried,
single-flighted like every leg); each reply's declared score is read strictly and the two
reconciled into ``rating`` (:mod:`prin_guard._prompting._rating` holds the rules, ``_decide`` builds
the verdict).

Its prompts are templates of task ``rating`` (:mod:`prin_guard._prompting._prompts`):
prin-guard's own wording (the template ``rating``: MT-Bench's single-answer grading,
"Rating: [[5]]", and its mirror), a pack or a prompt of one's own, as the guard's
``template`` says.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import typing
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop_if
from prin_guard._prompting._prompts import (
    DEFAULT_TEMPLATES,
    RATING_ASPECTS,
    Template,
    aspects_messages,
    get_template,
    rating_control,
    rating_messages,
    template_for,
)
from prin_guard._prompting._rating import (
    Aspect,
    RatingItem,
)
from prin_guard._route._decide import (
    aspects_verdict,
    call_costs,
    error_verdict,
    rating_panel_verdict,
    rating_verdict,
    shared_reply,
)
from prin_guard._route._legs import LegPrompt
from prin_guard._route._options import GuardOptions
from prin_guard.calls import Answer, Call, JudgeCaller
from prin_guard.errors import InvalidItemError, JudgeError, UsageError
from prin_guard.models import (
    Leg,
    Message,
    ParseMethod,
    ParseStatus,
    Polarity,
    ProbeRound,
    Usage,
    Verdict,
)
from prin_guard.reader import ScoreReading, expected_score, read_aspect_scores, read_score

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._judging import VerdictEngine
    from prin_guard._route._options import GuardOptions
    from prin_guard.errors import JudgeError
    from prin_guard.probe._probe import Probe

_R = TypeVar("_R")

Asks = Callable[
    [JudgeCaller, Sequence[Call], Mapping[str, str | None] | None],
    list[Coroutine[Any, Any, Answer]],
]
"""How one judge's calls of one verdict are sent (``VerdictEngine.staggered_answers``)."""


def _at_once(
    caller: JudgeCaller, calls: Sequence[Call], prefetched: Mapping[str, str | None] | None
) -> list[Coroutine[Any, Any, Answer]]:
    return [caller.answer(call, prefetched=prefetched) for call in calls]


__all__ = [
    "RATING",
    "RatingPlan",
    "RatingTask",
    "rate",
    "rate_aspects",
    "rate_panel",
    "rating_legs",
    "rating_plans",
]


def rating_template(options: GuardOptions) -> Template:
    """The rating template a guard with ``options`` asks in: its own template (a rating
    template, as :meth:`RatingTask.refuse` made sure), or prin-guard's own (``rating``)."""
    return get_template(
        options.template if options.template is not None else DEFAULT_TEMPLATES["rating"]
    )


def rating_legs(
    item: RatingItem,
    template: Template,
    *,
    order: bool = False,
    together: bool = False,
) -> list[LegPrompt]:
    """Every leg of ``item`` as :func:`rate` (or :func:`rate_together`, ``together``) will
    ask it, and what the reader looks for in each reply: the direct and the mirrored
    question, and with ``order`` (the order check) and a rubric the direct one with the
    rubric's levels from the top down; a rating with aspects asked apart, each aspect's
    legs, named after it. Asks no judge."""
    scale = item.scale
    if item.aspects and together:
        shown = ", ".join(f"{a.name} ({a.scale.min}-{a.scale.max})" for a in item.aspects)
        reads = (
            f'a score per aspect, each on a line of its own ("<aspect>: [[n]]") or a JSON '
            f"object's field named after it: {shown}; each read strictly (two scores for "
            "an aspect, or one off its scale, is none); the mirrored leg's read back"
        )
        return [
            LegPrompt(polarity.value, polarity, aspects_messages(item, polarity), reads)
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
        ]
    if item.aspects:
        return [
            replace(leg, name=f"{aspect.name}: {leg.name}")
            for aspect in item.aspects
            for leg in rating_legs(item.on(aspect), template, order=order)
        ]
    reads = (
        f'one score from {scale.min} to {scale.max}, declared ("Rating: [[n]]", "[RESULT] '
        f'n", "Score: n", "n/{scale.max}", a JSON field score or rating) or the whole reply; '
        "two different scores, one off the scale or one only in the reasoning is none"
    )
    asks = [(Polarity.DIRECT, False, ""), (Polarity.REVERSE, False, "")]
    if order and scale.rubric:
        asks.append((Polarity.DIRECT, True, ", rubric reversed"))
    return [
        LegPrompt(
            f"{polarity.value}{suffix}",
            polarity,
            rating_messages(item, polarity, template, rubric_reversed=reordered),
            reads
            if polarity is Polarity.DIRECT
            else f"{reads}; read back through the mirror ({scale.min} + {scale.max} - n)",
        )
        for polarity, reordered, suffix in asks
    ]


@dataclass(frozen=True, slots=True)
class RatingPlan:
    """One leg of a rating, planned: the conversation it sends and where it is cached."""

    key: str
    messages: list[Message]
    polarity: Polarity
    member: int = 0
    """Which panel member asks it (0 for a single judge)."""
    aspect: str | None = None
    """The aspect it asks about (aspects asked apart)."""
    reordered: bool = False
    """The order check's leg: the rubric's levels from the top down."""


def rating_plans(
    callers: Sequence[JudgeCaller],
    item: RatingItem,
    template: Template,
    *,
    order: bool = False,
    together: bool = False,
) -> list[RatingPlan]:
    """Every leg :func:`rate` (:func:`rate_panel`, :func:`rate_together`, each aspect's)
    asks of ``item``, for each of ``callers``, with its cache key: what the route
    prefetches in one round trip and ``Guard.cache_keys`` lists."""
    if item.aspects and together:  # one judge asks every aspect in one reply
        return [
            RatingPlan(callers[0].conversation_key(messages), messages, polarity)
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
            for messages in [aspects_messages(item, polarity)]
        ]
    asked: list[tuple[str | None, RatingItem]] = [
        (aspect.name, item.on(aspect)) for aspect in item.aspects
    ] or [(None, item)]
    legs = [
        (
            name,
            polarity,
            reordered,
            rating_messages(one, polarity, template, rubric_reversed=reordered),
        )
        for name, one in asked
        for polarity, reordered in (
            (Polarity.DIRECT, False),
            (Polarity.REVERSE, False),
            *([(Polarity.DIRECT, True)] if order and one.scale.rubric else []),
        )
    ]
    return [
        RatingPlan(caller.conversation_key(messages), messages, polarity, member, name, reordered)
        for member, caller in enumerate(callers)
        for name, polarity, reordered, messages in legs
    ]


def rating_id(item: RatingItem) -> str:
    """The item's id, or a hash of its content (as the other tasks' items)."""
    if item.id is not None:
        return item.id
    payload = json.dumps(
        [
            item.question,
            item.response,
            item.reference,
            item.context,
            item.scale.min,
            item.scale.max,
            sorted((item.scale.rubric or {}).items()),
            *([[a.as_dict(item.scale) for a in item.aspects]] if item.aspects else []),
            *([item.focus.name] if item.focus is not None else []),
        ],
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:12]


async def _probe(
    caller: JudgeCaller,
    item: RatingItem,
    leg: Leg,
    messages: list[Message],
    probe: Probe,
) -> list[ProbeRound]:
    """The probe's follow-up rounds after a rating leg (the Ask Again paper's questions:
    "Are you sure?", "I don't agree with you. Think again.", and the leading one with a
    score beyond the tolerance from the leg's), each reply read as a score on the leg's
    scale; a round whose score moved beyond the tolerance, or is unreadable, changed."""
    assert leg.score is not None
    from prin_guard.probe._probe import RoundReading, ask_rounds  # with the first probe
    from prin_guard.probe._prompts import FollowUpType, misleading_answer

    scale, first = item.scale, leg.score
    levels = [str(level) for level in range(scale.min, scale.max + 1)]
    near = {level for level in levels if abs(int(level) - first) <= scale.agreement}
    misleading: str | None = None
    if FollowUpType.LEADING in probe.rounds and len(near) < len(levels):
        misleading = misleading_answer(levels, near, probe.seed, rating_id(item))

    def read(text: str | None) -> RoundReading:
        found = read_score(text or "", scale, copied_from=item.texts)
        return RoundReading(
            (),
            ParseStatus.OK if found.score is not None else ParseStatus.FAILED,
            found.score is None or abs(found.score - first) > scale.agreement,
            found.score,
        )

    # no labels: a judge would constrain a labelled answer to them (a JSON schema of
    # labels), and a rating's answer is a score; the messages key the call
    return await ask_rounds(
        caller,
        probe,
        leg.polarity,
        messages,
        leg.raw_text or "",
        misleading=misleading,
        control=rating_control(item, leg.polarity),
        labels=(),
        item_id=rating_id(item),
        read=read,
    )


async def rate(
    caller: JudgeCaller,
    item: RatingItem,
    plans: Sequence[RatingPlan],
    *,
    template: Template,
    order: bool = False,
    probe: Probe | None = None,
    prefetched: Mapping[str, str | None] | None = None,
    asks: Asks | None = None,
) -> Verdict:
    """Both legs of ``item`` asked, as ``plans`` (:func:`rating_plans`, this judge's, in
    ``template``) say, and reconciled into a verdict with ``rating`` (``prefetched``: the
    cached replies the route read for the planned legs; ``asks``: how the route sends one
    verdict's calls, staggered where the provider caches the prefix they share; none:
    all at once).

    ``order`` (the ``order`` check): when the scale has a rubric, the direct question is
    asked a third time with the rubric's levels listed from the top down (the analogue of
    showing the candidates in another order); a score that moves beyond the tolerance
    flags ``order_sensitive``, and ``scores.order_inconsistency`` is the move over the
    range. Without a rubric there is no order to change and nothing more is asked.
    """
    item_id = rating_id(item)
    legs = [(plan.polarity, plan.reordered) for plan in plans]
    conversations = [plan.messages for plan in plans]
    calls = [
        Call(
            plan.key,
            plan.messages,
            (),
            item_id,
            f"{plan.polarity.value}_order" if plan.reordered else plan.polarity.value,
        )
        for plan in plans
    ]
    answers = await asyncio.gather(*(asks or _at_once)(caller, calls, prefetched))
    found = await _read_replies(
        answers, lambda text: read_score(text, item.scale, copied_from=item.texts)
    )
    direct, reverse, *permuted = (
        _leg(item, polarity, answer, template.id, template.version, read)
        for (polarity, _), answer, read in zip(legs, answers, found, strict=True)
    )
    rounds: list[ProbeRound] = []
    if probe is not None:
        probed = await asyncio.gather(
            *(
                _probe(caller, item, leg, messages, probe)  # the leg's own conversation
                for leg, messages in zip((direct, reverse), conversations, strict=False)
                if leg.score is not None
            )
        )
        rounds = [entry for found in probed for entry in found]
    costs = [(a.response.usage, a.cached) for a in answers]
    costs += [(entry.usage, entry.cached) for entry in rounds]
    return rating_verdict(
        item_id,
        item,
        direct,
        reverse,
        permuted,
        rounds,
        order=order,
        probed=probe is not None,
        calls=costs,
    )


async def _read_replies(answers: Sequence[Answer], read: Callable[[str], _R]) -> list[_R]:
    """Each answer's reply read by ``read``: off the event loop when one is long (a judge
    that repeats a long response, a model that loops), as a label leg's is."""
    texts = [answer.response.text or "" for answer in answers]
    long = any(len(text) > OFF_LOOP_CHARS for text in texts)
    return await off_loop_if(long, lambda: [read(text) for text in texts])


def _leg(
    item: RatingItem,
    polarity: Polarity,
    answer: Answer,
    template: str,
    version: int,
    found: ScoreReading | None = None,
) -> Leg:
    """A rating leg from its answer: the score ``found`` in the reply (read on the item's
    scale when not given), and its expected score where the judge gave alternatives."""
    text = answer.response.text
    if found is None:
        found = read_score(text or "", item.scale, copied_from=item.texts)
    expected = None
    if found.score is not None:
        response = answer.response
        expected = expected_score(
            text or "", found.span, response.tokens, response.alternatives, item.scale
        )
    return Leg(
        polarity=polarity,
        template=template,
        template_version=version,
        raw_text=text,
        labels=(),
        parse_status=ParseStatus.OK if found.score is not None else ParseStatus.FAILED,
        parse_method=ParseMethod.DECLARED if found.score is not None else None,
        copied=found.copied,
        latency_ms=answer.latency_ms,
        usage=answer.response.usage,
        cached=answer.cached,
        score=found.score,
        expected_score=expected,
    )


async def rate_panel(
    callers: Sequence[JudgeCaller],
    names: Sequence[str],
    item: RatingItem,
    plans: Sequence[RatingPlan],
    *,
    template: Template,
    order: bool,
    probe: Probe | None = None,
    prefetched: Mapping[str, str | None] | None = None,
    asks: Asks | None = None,
) -> Verdict:
    """A panel's rating: each member rates ``item`` (both legs, and the order check's),
    all at once; the rating is the median of the members' ratings, flagged
    ``panel_split`` when they spread beyond the scale's tolerance and
    ``panel_abstention`` when a member gave none (its legs disagreed or were unread, or
    its judge failed: the member's ``reason`` says which). ``scores.panel_agreement`` is
    1 − the spread over the scale's range; ``scores.prin`` the members' mean."""
    outcomes = await asyncio.gather(
        *(
            rate(
                caller,
                item,
                [plan for plan in plans if plan.member == member],
                template=template,
                order=order,
                probe=probe,
                prefetched=prefetched,
                asks=asks,
            )
            for member, caller in enumerate(callers)
        ),
        return_exceptions=True,
    )
    return rating_panel_verdict(rating_id(item), item.scale, names, outcomes, order=order)


async def rate_aspects(
    item: RatingItem,
    one: Callable[[RatingItem], Awaitable[Verdict]],
    options: GuardOptions,
) -> Verdict:
    """An item rated on each of its aspects, all at once: ``one`` rates the item asked
    about one aspect (a judge's or a panel's rating); each aspect's verdict is kept by
    name, a judge that keeps failing costing only its aspect's (flagged ``judge_error``).
    The verdict has no rating of its own: its flags are all the aspects' (each once), it
    is consistent when every aspect is, and its PRIN is their mean."""

    async def aspect_verdict(aspect: Aspect) -> Verdict:
        asked = item.on(aspect)
        try:
            return await one(asked)
        except JudgeError as exc:
            return error_verdict(
                rating_id(asked), "judge", str(exc), task="rating", options=options
            )

    verdicts = await asyncio.gather(*(aspect_verdict(aspect) for aspect in item.aspects))
    return aspects_verdict(
        rating_id(item),
        [aspect.name for aspect in item.aspects],
        verdicts,
        judge_calls=sum(verdict.judge_calls for verdict in verdicts),
        cached=all(verdict.cached for verdict in verdicts),
        usage=sum((verdict.usage for verdict in verdicts), Usage.zero()),
        saved=sum((verdict.saved_usage for verdict in verdicts), Usage.zero()),
    )


async def rate_together(
    caller: JudgeCaller,
    item: RatingItem,
    plans: Sequence[RatingPlan],
    template: Template,
    prefetched: Mapping[str, str | None] | None = None,
    asks: Asks | None = None,
) -> Verdict:
    """A rating's aspects asked together (``rating_aspects="together"``, in
    ``template``'s wording: prin-guard's own): one direct and one mirrored call, each reply
    read for a score per aspect (:func:`~prin_guard.reader.read_aspect_scores`), each
    aspect's two scores reconciled as a rating's are. Each aspect's verdict holds its legs
    (with its own score) and costs nothing of its own: the item's verdict counts the two
    calls. The first aspect's legs keep the two replies; every other aspect's point to
    them (``raw_text_ref``), so that the verdict holds each reply once. An aspect a reply
    gives no unambiguous score for is flagged ``unparseable_*`` alone."""
    item_id = rating_id(item)
    calls = [Call(plan.key, plan.messages, (), item_id, plan.polarity.value) for plan in plans]
    answers = await asyncio.gather(*(asks or _at_once)(caller, calls, prefetched))
    found = await _read_replies(
        answers, lambda text: read_aspect_scores(text, item.aspects, copied_from=item.texts)
    )
    name, version = RATING_ASPECTS, template.version
    verdicts = []
    first = item.aspects[0].name  # its legs keep the two replies, once
    for aspect in item.aspects:
        asked = item.on(aspect)
        direct, reverse = (
            _leg(asked, polarity, answer, name, version, read[aspect.name])
            for polarity, answer, read in zip(
                (Polarity.DIRECT, Polarity.REVERSE), answers, found, strict=True
            )
        )
        if aspect.name != first:
            direct, reverse = (
                leg.model_copy(update=shared_reply(leg, "aspects", first, leg.polarity.value))
                for leg in (direct, reverse)
            )
        verdicts.append(
            rating_verdict(
                rating_id(asked),
                asked,
                direct,
                reverse,
                (),
                (),
                order=False,
                probed=False,
                calls=(),
            ).model_copy(update={"cached": all(answer.cached for answer in answers)})
        )
    paid, saved = call_costs([(answer.response.usage, answer.cached) for answer in answers])
    return aspects_verdict(
        rating_id(item),
        [aspect.name for aspect in item.aspects],
        verdicts,
        judge_calls=len(answers),
        cached=all(answer.cached for answer in answers),
        usage=paid,
        saved=saved,
    )


# -- the task, as the route sees it ------------------------------------------------------


class RatingTask:
    """The rating task (see :mod:`prin_guard.tasks` for what each method is)."""

    name = "rating"

    def __repr__(self) -> str:
        return "RatingTask()"

    def coerce(self, raw: Any, options: GuardOptions) -> RatingItem:
        return RatingItem.coerce(raw, max_chars=options.max_chars)

    def refuse(self, options: GuardOptions) -> None:
        template = options.template
        if template is not None and options.rating_template is None:
            # asked anyway, a rating would get prin-guard's own rating prompt, not the
            # words the guard was set up with: refused, as a rating prompt refuses labels
            named = template if isinstance(template, str) else template.id
            raise UsageError(
                f"template: the guard's template {named!r} asks "
                f"{get_template(template).task} questions, not ratings; rate under a "
                "rating prompt (such as 'mt-bench-single') or under no template "
                "(prin-guard's own rating prompt)"
            )
        if not set(options.checks or ("reverse",)) <= {"reverse", "order", "swap"}:
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
        # the item fits the template: its scale, the fields shown, aspects
        template_for(engine.options.template, item)

    def key(self, item: RatingItem) -> str:
        return rating_id(item)

    def chars(self, item: RatingItem) -> int:
        return sum(len(text) for text in item.texts)

    def plan(self, engine: VerdictEngine, item: RatingItem) -> list[RatingPlan]:
        options = engine.options
        return rating_plans(
            engine.callers,
            item,
            rating_template(options),
            order=bool(options.second_order("rating")),
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
        planned = typing.cast(Sequence[RatingPlan], plans)
        if item.aspects:
            if engine.options.rating_aspects == "together":
                template = rating_template(engine.options)
                return await rate_together(
                    engine.callers[0],
                    item,
                    planned,
                    template,
                    prefetched,
                    asks=engine.staggered_answers,
                )
            return await rate_aspects(
                item, functools.partial(_rate_with, engine, planned, prefetched), engine.options
            )
        return await _rate_with(engine, planned, prefetched, item)

    async def ask_leg(
        self,
        engine: VerdictEngine,
        item: RatingItem,
        plan: Any,
        prefetched: Mapping[str, str | None],
    ) -> Leg:
        if item.aspects:
            raise InvalidItemError(
                "aspects",
                "one question of a rating with aspects is one per aspect: ask each aspect "
                "as an item of its own",
            )
        asked = typing.cast(RatingPlan, plan)
        caller = engine.callers[asked.member]
        call = Call(asked.key, asked.messages, (), rating_id(item), asked.polarity.value)
        answer = await caller.answer(call, prefetched=prefetched)
        template = rating_template(engine.options)
        (found,) = await _read_replies(
            [answer], lambda text: read_score(text, item.scale, copied_from=item.texts)
        )
        return _leg(item, asked.polarity, answer, template.id, template.version, found)

    def failed(self, item: RatingItem, error: JudgeError, options: GuardOptions) -> Verdict:
        return error_verdict(rating_id(item), "judge", str(error), task="rating", options=options)

    def messages(
        self, engine: VerdictEngine, item: RatingItem, polarity: Polarity
    ) -> list[Message]:
        return rating_messages(item, polarity, rating_template(engine.options))

    def prompts(self, engine: VerdictEngine, item: RatingItem) -> list[LegPrompt]:
        options = engine.options
        return rating_legs(
            item,
            rating_template(options),
            order=bool(options.second_order("rating")),
            together=options.rating_aspects == "together",
        )

    def max_calls(self, engine: VerdictEngine) -> int:
        """Both legs, and the order check's third (with a rubric), and the probe's rounds
        after each of the first two, for every member."""
        legs = 3 if engine.options.second_order("rating") else 2
        rounds = 2 * len(engine.probe.rounds) if engine.probe is not None else 0
        return (legs + rounds) * len(engine.callers)


async def _rate_with(
    engine: VerdictEngine,
    plans: Sequence[RatingPlan],
    prefetched: Mapping[str, str | None],
    asked: RatingItem,
) -> Verdict:
    """``engine``'s judge (or panel) rating ``asked`` (the item, or one of its aspects)
    through its callers, as ``plans`` say."""
    aspect = asked.focus.name if asked.focus is not None else None
    plans = [plan for plan in plans if plan.aspect == aspect]
    # a rating's order check is one leg (the direct question, its rubric listed the
    # other way): what 'swap' asks, and all 'order' can
    order = bool(engine.options.second_order("rating"))
    template = rating_template(engine.options)
    if engine.names is not None:
        return await rate_panel(
            engine.callers,
            engine.names,
            asked,
            plans,
            template=template,
            order=order,
            probe=engine.probe,
            prefetched=prefetched,
            asks=engine.staggered_answers,
        )
    return await rate(
        engine.callers[0],
        asked,
        plans,
        template=template,
        order=order,
        probe=engine.probe,
        prefetched=prefetched,
        asks=engine.staggered_answers,
    )


RATING = RatingTask()
"""The rating task."""
