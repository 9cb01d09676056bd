"""The guard: both questions about each item, reconciled into a verdict.

:class:`Guard` plans the legs of a verdict (the direct and the reverse question,
and the follow-up rounds of a probe), asks them through its
:class:`~prin_guard.calls.JudgeCaller` (the call layer: cache, single flight, retries,
the limit on calls in flight) and hands the answers to the pure
decision of ``_decide``. It makes no judge call of its own.

One async core. ``Guard.check`` and ``Guard.check_many`` drive it on a private
event loop kept by the guard (so judges and caches that hold loop-bound
connections keep working across calls) and refuse to run inside a running
loop, where they would block it: use ``acheck`` there.

One route for every task (``astream`` takes the same steps per item, batched):

1. ``Guard.acheck`` -> ``Guard._validated``: ``tasks.task_of`` finds the item's task in
   ``tasks.REGISTRY`` (``tasks/_labels``: choice, pairwise, checklist; ``tasks/_ratings``:
   rating); the task refuses the guard's options it cannot honour, coerces the item
   (``Item.coerce``, ``RatingItem.coerce``) and checks it against the guard's template,
   limits and acceptance file.
2. ``Guard._aplan`` -> ``Task.plan``: each leg's messages built once and its cache key per
   judge (a label item's: ``LegAsker.plan`` in ``_legs``, ``calls.KeyScope``; a rating's:
   ``tasks._ratings.rating_plans``, ``JudgeCaller.conversation_key``); a long item's in the worker
   thread.
3. ``VerdictEngine.prefetch`` -> ``JudgeCaller.prefetch`` (``calls``): one cache round trip
   for every leg of every task.
4. ``Guard._verdict`` -> ``VerdictEngine.decide`` (``_judging``): the verdict's tracing span
   and log line, around ``Task.ask``: every leg asked at once (or staggered) through
   ``JudgeCaller.answer`` (cache, single flight, retries, the limit in flight; ``judges/``:
   the model), each reply read once (a label leg by ``LegAsker.read`` ->
   ``_reading.read_answer`` -> ``reader/``; a rating leg by ``reader.read_score``) and the
   legs reconciled (``_decide.make_verdict``: PRIN, the policy's set, the flags; a rating's:
   ``_rating.reconcile``; the Verdict built by ``_decide``).
5. With an acceptance file, ``_judging.escalate``: the rule of each tier
   (``Acceptance.decide``), the next tier asked by the same steps 2-4.
"""

from __future__ import annotations

import functools
import os
import typing
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop
from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit, Retry
from prin_guard._prompting._prompts import Template, get_template, template_for
from prin_guard._prompting._rating import RatingItem
from prin_guard._review._item import ReviewItem
from prin_guard._route._assembly import UNSET, JudgeLike, assemble
from prin_guard._route._decide import error_verdict
from prin_guard._route._judging import escalate
from prin_guard._route._legs import LegPrompt
from prin_guard._route._options import GuardOptions
from prin_guard._route._stream import LoopDriver, stream_verdicts
from prin_guard.cache import Cache
from prin_guard.calls import JudgeCaller
from prin_guard.errors import (
    InconsistentVerdictError,
    InvalidItemError,
    JudgeError,
    UsageError,
)
from prin_guard.judges import Judge
from prin_guard.models import (
    Flag,
    Item,
    Leg,
    Message,
    Polarity,
    RankingItem,
    Task,
    Verdict,
)
from prin_guard.tasks import Planned
from prin_guard.tasks import Task as TaskKind
from prin_guard.tasks._registry import REGISTRY, task_of

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard.probe import Probe

__all__ = ["Guard", "JudgeLike", "claimed_identity"]

_KNOWN: tuple[Task, ...] = tuple(typing.cast(Task, name) for name in REGISTRY)

T = TypeVar("T")


def claimed_identity(raw: Any, fallback: str) -> tuple[str, Task | None]:
    """The id and task an input that failed a guard's validation says it has: an item
    that is valid as such (refused for its template, its limits or its acceptance file)
    by its key (its id, or its content hash) and task; anything else by its own ``id``
    (a non-blank string) or ``fallback``, and its ``task`` when it names one (``choice``
    when it names none, ``None`` when it names an unknown one)."""
    try:
        item = Item.coerce(raw)
    except InvalidItemError:
        pass
    else:
        return item.key, item.task
    if not isinstance(raw, Mapping):
        return fallback, None
    given_id = raw.get("id")
    item_id = given_id if isinstance(given_id, str) and given_id.strip() else fallback
    task = raw.get("task", "choice")
    named = task.strip().lower() if isinstance(task, str) else None
    return item_id, next((known for known in _KNOWN if known == named), None)


class Guard:
    """Ask a judge both questions about each item and reconcile the answers.

    ``judge`` is a :class:`~prin_guard.judges.Judge`, a plain function
    ``fn(prompt) -> str`` (sync or async), a :class:`~prin_guard.calls.JudgeCaller` to share
    one cache, single flight and call limit among several guards, or a list of at least
    two of these: a panel, whose verdict is what a strict majority of all its members
    calls correct. ``tiers=[cheap, strong]`` (each a judge or a panel, cheapest first)
    escalates instead: the next tier is asked only about verdicts the calibrated
    ``acceptance`` (an :class:`~prin_guard.Acceptance` or the path of a file written by
    ``prin-guard calibrate``) did not accept at the previous one. With ``acceptance`` and
    one judge, each verdict is accepted or flagged ``not_accepted``.

    How to ask and decide is a :class:`~prin_guard.GuardOptions`, given as ``options=``
    or as keywords (not both): ``Guard(judge, template="v1", checks="reverse,order")``
    is ``Guard(judge, options=GuardOptions(template="v1", checks="reverse,order"))``.
    In Python only, ``template`` may also be a :class:`~prin_guard.models.Template` and
    ``probe`` a :class:`~prin_guard.probe.Probe` of your own.

    How to call the judges, unless they are JudgeCallers already: ``cache`` (default:
    one in-memory LRU for all of them; ``None`` turns caching off), ``concurrency``
    (judge calls in flight, default 8) or a shared ``limit``, ``retry``, and
    ``rate_limit`` (a :class:`~prin_guard.RateLimit` on the provider, shareable across
    processes through Redis).

    :class:`~prin_guard.GuardConfig` describes all of this as data (judges by their
    spelling) and builds the Guard: what the command line, the service and the Ray
    workers do.
    """

    def __init__(
        self,
        judge: JudgeLike | Sequence[JudgeLike] | None = None,
        *,
        tiers: Sequence[JudgeLike | Sequence[JudgeLike]] | None = None,
        acceptance: Acceptance | str | os.PathLike[str] | None = None,
        options: GuardOptions | None = None,
        cache: Cache | Literal["memory"] | None = UNSET,
        concurrency: int | None = None,
        retry: Retry | None = None,
        limit: CallLimit | None = None,
        rate_limit: RateLimit | None = None,
        **option_keywords: Any,
    ) -> None:
        parts = assemble(
            judge,
            tiers=tiers,
            acceptance=acceptance,
            options=options,
            cache=cache,
            concurrency=concurrency,
            retry=retry,
            limit=limit,
            rate_limit=rate_limit,
            option_keywords=option_keywords,
        )
        self._options = parts.options
        self._probe = parts.probe
        self._asker = parts.asker
        self._acceptance = parts.acceptance
        self._engines = parts.engines
        self._engine = self._engines[0]
        self._callers = self._engine.callers
        self._driver = LoopDriver()

    # -- read-only configuration -----------------------------------------------------

    @property
    def options(self) -> GuardOptions:
        """How this guard asks and decides."""
        return self._options

    @property
    def callers(self) -> tuple[JudgeCaller, ...]:
        """The call layer of each judge: one, or one per panel member in the order given."""
        return self._callers

    @property
    def caller(self) -> JudgeCaller:
        """The call layer this guard asks its judge through (a panel: see ``callers``)."""
        return self._only(self._callers)

    @property
    def judge(self) -> Judge:
        """The judge (a panel: see ``judges``)."""
        return self._only(self._callers).judge

    @property
    def judges(self) -> tuple[Judge, ...]:
        return tuple(caller.judge for caller in self._callers)

    @property
    def members(self) -> tuple[str, ...] | None:
        """A panel's member names as verdicts report them; ``None`` for a single judge."""
        return self._engine.names

    @property
    def cache(self) -> Cache | None:
        return self._callers[0].cache

    @property
    def concurrency(self) -> int:
        return self._callers[0].concurrency

    @property
    def retry(self) -> Retry:
        return self._callers[0].retry

    def _only(self, callers: tuple[JudgeCaller, ...]) -> JudgeCaller:
        if len(self._engines) > 1:
            raise UsageError("judge: this guard is a cascade of several tiers; use guard.tiers")
        if len(callers) > 1:
            raise UsageError(
                "judge: this guard is a panel of several judges; use guard.callers or guard.judges"
            )
        return callers[0]

    @property
    def template(self) -> Template | None:
        """The guard's own template, or ``None``: each task's default
        (:meth:`template_for` says which an item is asked in; a rating template asks rating
        items only, a label template label items only)."""
        option = self._options.template
        return None if option is None else get_template(option)

    def template_for(self, item: Item | RatingItem | Mapping[str, Any]) -> Template:
        """The template ``item`` is asked in (its task's, unless the guard names one): a
        rating item's is prin-guard's own ``rating`` or the guard's rating template."""
        _task, checked = self._validated(item)
        if isinstance(checked, RatingItem):
            return template_for(self._options.template, checked)
        return self._asker.template_for(checked)

    @typing.overload
    def validate(self, item: Item) -> Item: ...
    @typing.overload
    def validate(self, item: RatingItem) -> RatingItem: ...
    @typing.overload
    def validate(self, item: RankingItem) -> RankingItem: ...
    @typing.overload
    def validate(self, item: ReviewItem) -> ReviewItem: ...
    @typing.overload
    def validate(self, item: Mapping[str, Any]) -> Item | RatingItem | RankingItem | ReviewItem: ...
    def validate(
        self, item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]
    ) -> Item | RatingItem | RankingItem | ReviewItem:
        """``item`` as this guard judges it, or :class:`~prin_guard.InvalidItemError`
        naming the field and why: an item within the guard's limits (``max_chars``,
        ``max_candidates``), of a task its template asks about (and, for a checklist that
        says its kind, of that kind) and its acceptance file was calibrated on; a rating
        item (:class:`~prin_guard.models.RatingItem`) with a good scale, under a guard whose
        options a rating can honour (an option it cannot is named as the ``task``
        field's reason). What ``check`` raises before any judge call, and what makes an
        item of a batch an ``invalid_item`` verdict."""
        return self._validated(item)[1]  # type: ignore[no-any-return]

    @property
    def probe(self) -> Probe | None:
        return self._probe

    def prompts(
        self, item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]
    ) -> list[LegPrompt]:
        """Every leg this guard would ask of ``item`` (the direct and the reverse leg, and
        the order check's when it runs; a rating's direct and mirrored leg, the order
        check's with the rubric reversed, each aspect's), each with its full messages and
        what the reader will look for in the reply: check a template or a rating prompt
        before a run spends money. Asks no judge."""
        task, checked = self._validated(item)
        return task.prompts(self._engine, checked)

    def cache_keys(
        self, item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]
    ) -> list[str]:
        """The cache keys of ``item``'s legs as this guard stores their replies (its
        judge's, or tier 0's; a panel's every member's), in the order the legs are planned
        (a rating's: each member's, each aspect's, direct, mirrored, the order check's):
        to look a cached reply up, or delete one, without asking the judge."""
        task, checked = self._validated(item)
        return [plan.key for plan in task.plan(self._engine, checked)]

    @property
    def max_judge_calls(self) -> int:
        """The most judge calls one item of any task can cost this guard: every tier
        asked, every leg (two, four with the ``order`` check, per panel member) and every
        probe round a cache miss. :meth:`max_judge_calls_for` bounds one task's."""
        return self.max_judge_calls_for(None)

    def max_judge_calls_for(self, task: str | None) -> int:
        """The most judge calls one item of ``task`` can cost this guard (None or a task
        it does not know: the most of any task; with no checks named, a pair's default
        asks the order check too). What a budget reserves per item (``prin-guard
        serve``)."""
        found = REGISTRY.get(task) if task is not None else None
        if found is None:  # the costliest task's (a ranking's sliding windows over 20)
            return sum(
                max(one.max_calls(engine) for one in REGISTRY.values()) for engine in self._engines
            )
        return sum(found.max_calls(engine) for engine in self._engines)

    @property
    def judge_calls(self) -> int:
        """Judge calls made through this guard's callers, every tier's (attempts; cache
        hits excluded). A :class:`~prin_guard.calls.JudgeCaller` shared by several guards counts
        them all.
        """
        return sum(caller.calls for engine in self._engines for caller in engine.callers)

    @property
    def acceptance(self) -> Acceptance | None:
        """The calibrated acceptance rule(s) this guard decides with, if any."""
        return self._acceptance

    @property
    def tiers(self) -> tuple[dict[str, Any], ...]:
        """The identity of each tier's judge (or panel), cheapest first; one for a guard
        without escalation."""
        return tuple(engine.identity for engine in self._engines)

    def __repr__(self) -> str:
        judges = [c.identity for c in self._callers]
        shown = judges[0] if len(judges) == 1 else judges
        return (
            f"Guard(judge={shown!r}, "
            f"template={self.template.prompt_id if self.template else None!r}, "
            f"mitigations={[m.value for m in self._options.mitigations]!r}, "
            f"policy={self._options.policy!r})"
        )

    def messages(
        self,
        item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any],
        polarity: Polarity = Polarity.DIRECT,
    ) -> list[Message]:
        """The conversation this guard sends the judge for one leg of ``item`` (a rating's:
        the direct question, or the mirrored one).

        For hosts that route the judge call themselves (a proxy's guardrail) and
        hand the answer back through a judge of their own.
        """
        task, checked = self._validated(item)
        return task.messages(self._engine, checked, Polarity(polarity))

    # -- the async core -----------------------------------------------------------

    async def acheck(
        self, item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]
    ) -> Verdict:
        """Judge one item. Raises on bad input and on a judge that keeps failing.

        A rating item (``{"task": "rating", "question": ..., "response": ..., "scale":
        {"min": 1, "max": 10}}``) is asked how good the response is and, on the mirrored
        scale, how poor; the verdict's ``rating`` reconciles the two (see
        :mod:`prin_guard._prompting._rating`). Ratings take a judge, a panel or tiers with an
        acceptance file, and the reverse and order checks (the order check lists a
        rubric's levels the other way).
        """
        task_of(item).refuse(self._options)  # a UsageError, as for any other guard set-up
        task, checked = self._validated(item)
        plans = await self._aplan(task, checked)
        prefetched = await self._engine.prefetch([plan.key for plan in plans])
        verdict = await self._verdict(checked, plans, prefetched)
        self._maybe_raise([verdict])
        return verdict

    async def aask(
        self,
        item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any],
        polarity: Polarity = Polarity.DIRECT,
    ) -> Leg:
        """Ask one of the two questions only, cached like a verdict's leg (a rating's: the
        direct or the mirrored one, its score read; a rating with aspects is refused,
        naming ``aspects``).

        For evaluations that need single answers (self-consistency samples,
        paraphrase inconsistency); a verdict needs both legs, so use ``acheck``.
        """
        task, checked = self._validated(item)
        caller = self._only(self._callers)
        plans = await self._aplan(task, checked)
        plan = next(p for p in plans if p.polarity is Polarity(polarity))
        prefetched = await caller.prefetch([plan.key])
        return await task.ask_leg(self._engine, checked, plan, prefetched)

    async def acheck_many(
        self, items: Iterable[Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]]
    ) -> list[Verdict]:
        """Judge many items; one verdict per item, in input order.

        A bad item or a judge that keeps failing costs only that item's verdict,
        which carries ``invalid_item`` or ``judge_error``; the rest complete. Rating items
        are judged beside the others.
        """
        results: dict[int, Verdict] = {}
        async for index, verdict in self.astream(items):
            results[index] = verdict
        verdicts = [results[index] for index in range(len(results))]
        self._maybe_raise(verdicts)
        return verdicts

    async def astream(
        self,
        items: Iterable[Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]],
        *,
        chunk_size: int | None = None,
        stopping: Callable[[], bool] | None = None,
    ) -> AsyncIterator[tuple[int, Verdict]]:
        """Yield ``(index, verdict)`` as verdicts complete, in completion order.

        Items are read lazily a chunk at a time and each chunk's cache entries are
        fetched in one round trip; no verdict is kept once yielded, so memory stays
        flat however many items there are.

        ``stopping`` (for a Ctrl-C) is asked before each item is read and before each
        judge call an item would start: once it returns true, no item is read and no
        judge call starts, except those of the items whose calls already started, which
        finish and are yielded. The other items read are dropped, unjudged (their
        indexes never come). It is called on the event loop; keep it cheap and
        non-blocking (``asyncio.Event.is_set``, a flag).
        """
        async for entry in stream_verdicts(
            items,
            concurrency=self.concurrency,
            chunk_size=chunk_size,
            plan=self._checked_plan,
            prefetch=self._engine.prefetch,
            verdict=self._verdict_or_error,
            invalid=self._invalid_verdict,
            stopping=stopping,
        ):
            yield entry

    # -- the sync driver ----------------------------------------------------------

    def check(
        self, item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]
    ) -> Verdict:
        """Synchronous :meth:`acheck`. Not callable inside a running event loop."""
        return self._run(self.acheck(item), "check", "acheck")

    def check_many(
        self, items: Iterable[Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any]]
    ) -> list[Verdict]:
        """Synchronous :meth:`acheck_many`. Not callable inside a running event loop."""
        return self._run(self.acheck_many(items), "check_many", "acheck_many")

    def close(self) -> None:
        """Close the private event loop the sync methods use (also done at exit)."""
        self._driver.close()

    def _run(self, coro: Coroutine[Any, Any, T], name: str, async_name: str) -> T:
        return self._driver.run(coro, f"Guard.{name}", f"guard.{async_name}")

    # -- internals ----------------------------------------------------------------

    async def _checked_plan(
        self, raw: Any
    ) -> tuple[Item | RatingItem | RankingItem | ReviewItem, list[Planned]]:
        task, item = self._validated(raw)
        return item, list(await self._aplan(task, item))

    async def _aplan(self, task: TaskKind, item: Any) -> Sequence[Planned]:
        """The item's legs planned; a long item's in the worker thread (its prompts are
        built and hashed there), so that the event loop goes on serving meanwhile."""
        if task.chars(item) > OFF_LOOP_CHARS:
            return await off_loop(functools.partial(task.plan, self._engine, item))
        return task.plan(self._engine, item)

    def _validated(self, raw: Any) -> tuple[TaskKind, Any]:
        """``raw`` as its task's item, checked for this guard (:meth:`validate`), and
        its task."""
        task = task_of(raw)
        try:
            task.refuse(self._options)
        except UsageError as exc:
            raise InvalidItemError("task", f"a {task.name} cannot be judged here: {exc}") from None
        item = task.coerce(raw, self._options)
        task = REGISTRY[item.task]  # the label task the item turned out to be
        task.check(item, self._engine, self._acceptance)
        return task, item

    async def _verdict(
        self,
        item: Item | RatingItem | RankingItem | ReviewItem,
        plans: Sequence[Planned],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """Tier 0's verdict on ``item`` from its planned legs, decided by the acceptance
        file's rule (and escalated through its tiers) when the guard has one."""
        task = REGISTRY[item.task]
        verdict = await self._engine.decide(task, item, plans, prefetched)
        if self._acceptance is None:
            return verdict
        return await escalate(
            verdict,
            functools.partial(self._tier_verdict, task, item),
            len(self._engines),
            self._acceptance,
        )

    async def _tier_verdict(
        self, task: TaskKind, item: Item | RatingItem | RankingItem | ReviewItem, tier: int
    ) -> Verdict:
        """Tier ``tier``'s judge's verdict on ``item`` (a cascade's next tier), by the
        same route."""
        engine = self._engines[tier]
        plans = task.plan(engine, item)
        prefetched = await engine.prefetch([plan.key for plan in plans])
        return await engine.decide(task, item, plans, prefetched)

    def failed_verdict(
        self,
        item: Item | RatingItem | RankingItem | ReviewItem | Mapping[str, Any],
        error: JudgeError,
    ) -> Verdict:
        """The verdict of ``item`` when its judge failed: flagged ``judge_error``, no legs
        (what a batch returns in its place; for hosts that call the judge themselves)."""
        task, checked = self._validated(item)
        return task.failed(checked, error, self._options)

    async def _verdict_or_error(
        self,
        item: Item | RatingItem | RankingItem | ReviewItem,
        plans: Sequence[Planned],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        try:
            return await self._verdict(item, plans, prefetched)
        except JudgeError as exc:  # already checked: no second coerce
            return REGISTRY[item.task].failed(item, exc, self._options)

    def _invalid_verdict(self, index: int, raw: Any, exc: InvalidItemError) -> Verdict:
        """The verdict of the item at ``index`` of a batch that failed validation: known
        by its own id and task where it has them (an item valid as such that this guard
        cannot ask, by its content hash too), else by its place in the batch."""
        item_id, task = claimed_identity(raw, f"#{index}")
        return error_verdict(
            item_id, "input", str(exc), field=exc.field, task=task, options=self._options
        )

    def _maybe_raise(self, verdicts: Sequence[Verdict]) -> None:
        if self._options.on_inconsistent != "raise":
            return
        for verdict in verdicts:
            if Flag.INCONSISTENT in verdict.flags:
                raise InconsistentVerdictError(verdict)
