"""The review task: a reviewer's form filled in for a paper, guarded (issue 41). Its item
model is :class:`~prin_guard._review.ReviewItem` (a paper: title and abstract, or a full
document; a review form); its legs are two calls, as a rating's aspects asked together:

- **direct**: the form as its source renders it (the AI Scientist's byte for byte), read
  by :func:`~prin_guard.reader._review.read_review`: every score, the confidence, the
  decision and the reviewer's text;
- **mirrored**: the same system message and the form's user message up to the end of the
  paper's block (:meth:`~prin_guard._review.ReviewForm.paper_block`: the prefix both legs
  share, which a provider's prompt cache serves to the second), then prin-guard's
  mirrored questions: every score on its scale mirrored (the lowest number the best) and
  the decision reversed, ``"Reject": "Yes" or "No"`` ("should it be rejected?").

Each score is reconciled as a rating is (``_rating.reconcile``: the mirrored score read
back, the scale's tolerance, PRIN, ``polarity_confusion``), the decision as the label
tasks' two questions are (the same side both ways, or ``inconsistent``); the coherence
rules (``_review._coherence``) run on the direct leg's form, and with a ``rebuttal`` the
rebuttal probe continues the direct leg's conversation with the author's rebuttal and reads
the form again (``swayed_by_rebuttal``). ``_decide.review_verdict`` builds the verdict.

A review is asked of one judge, under no template or rating prompt of the guard's (the form
is the item's), with the reverse check; a panel, the order checks, the guard's probe and
``reverse_legs="uncertain"`` are refused naming the option. An acceptance file calibrated on
reviews (``prin-guard calibrate`` on an ``eval iclr2017`` run) decides a review's decision
(accepted, or escalated through its tiers and flagged ``not_accepted``) for the forms it
records; a file of another task, or a review in another form, is refused naming the field.
"""

from __future__ import annotations

import asyncio
import contextlib
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop_if
from prin_guard._review import DecisionField, ReviewForm, ScoreField, form_identity
from prin_guard._review._item import CHARS_PER_TOKEN, ReviewItem, estimated_tokens
from prin_guard._route._decide import Rebutted, error_verdict, rebuttal_moved, review_verdict
from prin_guard._route._legs import LegPrompt, shared_prefix
from prin_guard.calls import Answer, Call, JudgeCaller
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.models import Leg, Message, ParseMethod, ParseStatus, Polarity, Verdict
from prin_guard.reader._review import ReviewReading, read_review

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._judging import VerdictEngine
    from prin_guard._route._options import GuardOptions
    from prin_guard.errors import JudgeError

__all__ = [
    "REVIEW",
    "REVIEW_TEMPLATE_VERSION",
    "ReviewPlan",
    "ReviewTask",
    "mirrored_form",
    "rebuttal_turn",
    "review_messages",
]

REVIEW_TEMPLATE_VERSION = 1
"""Version of prin-guard's words in a review's legs (the mirrored questions, the rebuttal's
request): part of the mirrored leg's cache key through its messages."""

_REVERSE_DECISION = DecisionField(name="Reject", accept=("No",), reject=("Yes",))

_MIRRORED = """This time, do not fill in the review form as it is written. Answer the mirrored \
questions below instead: every score is asked on its scale mirrored, where the lowest number \
means the best and the highest number the worst, and the decision is asked the other way \
round.

Rate the paper on each of these fields, on its mirrored scale:
{fields}
- "Reject": should this paper be rejected? Answer "Yes" or "No".

Respond in the following format:

THOUGHT:
<your reasoning>

REVIEW JSON:
```json
{example}
```
Note that these scales are mirrored: a higher number means a worse paper (for "{confidence}", \
a less certain assessment), so an excellent paper gets each scale's lowest number and a very \
poor one its highest."""

_REBUTTAL_REQUEST = (
    "Considering this rebuttal, give your review again in full, in the same format as "
    "before: THOUGHT:, then REVIEW JSON: with every field of the form."
)


def mirrored_form(form: ReviewForm) -> ReviewForm:
    """``form`` as the mirrored leg's reply is read: its scores (each read on its scale,
    then read back through the mirror by the reconciliation), the decision field
    ``Reject`` whose "Yes" is the reject side, no text fields."""
    return form.model_copy(update={"decision": _REVERSE_DECISION, "text_fields": ()})


def _ends(field: ScoreField) -> str:
    """What a score field's mirrored scale means, in words: its ends, and every level's
    word where the form gives them (each at its mirrored number)."""
    scale = field.scale
    low, high = scale.min, scale.max
    labels = {level: f'"{word}"' for level, word in scale.labels.items()}
    if field.role == "confidence":
        best, worst = labels.get(high, "the most certain"), labels.get(low, "the least certain")
        what = f'"{field.name}" (asked mirrored: how unsure you are of your assessment)'
    else:
        best, worst = labels.get(high, "excellent"), labels.get(low, "very poor")
        what = f'"{field.name}"'
    line = f"- {what}, from {low} to {high}, where {low} means {best} and {high} means {worst}"
    if len(labels) > 2:
        shown = "; ".join(
            f"{level}: {scale.labels[low + high - level]}"
            for level in range(low, high + 1)
            if low + high - level in scale.labels
        )
        line += f" ({shown})"
    return line


def _mirrored_questions(form: ReviewForm) -> str:
    example = ", ".join(
        [f'"{f.name}": <{f.scale.min}-{f.scale.max}>' for f in form.scores]
        + ['"Reject": "<Yes or No>"']
    )
    confidence = form.confidence
    return _MIRRORED.format(
        fields="\n".join(_ends(f) for f in form.scores),
        example="{" + example + "}",
        confidence=confidence.name if confidence is not None else "Confidence",
    )


def review_messages(item: ReviewItem, polarity: Polarity) -> list[Message]:
    """The conversation one leg of ``item`` sends: the form as written (direct), or the
    paper's block and the mirrored questions (reverse)."""
    direct = item.form.messages(item.paper, system=item.system)
    if polarity is Polarity.DIRECT:
        return direct
    user = item.form.paper_block(item.paper) + "\n\n" + _mirrored_questions(item.form)
    return [direct[0], {"role": "user", "content": user}]


def rebuttal_turn(item: ReviewItem) -> str | None:
    """The rebuttal probe's follow-up turn: the rebuttal, then the request to give the
    form again; ``None`` without a rebuttal."""
    text = item.rebuttal_text
    return None if text is None else f"{text}\n\n{_REBUTTAL_REQUEST}"


@dataclass(frozen=True, slots=True)
class ReviewPlan:
    """One leg of a review, planned: the conversation it sends and where it is cached."""

    key: str
    messages: list[Message]
    polarity: Polarity
    member: int = 0


def _reads(form: ReviewForm, polarity: Polarity) -> str:
    scores = ", ".join(f"{f.name} ({f.scale.min}-{f.scale.max})" for f in form.scores)
    if polarity is Polarity.DIRECT:
        words = "/".join((*form.decision.accept, *form.decision.reject))
        return (
            f"one review JSON object (after REVIEW JSON:, in a fence or alone): {scores}, "
            f"{form.decision.name} ({words}) and the text fields; each score an integer on its "
            "scale, read strictly (no guess)"
        )
    return (
        f"one review JSON object: {scores} on the mirrored scales, each read back through "
        "the mirror (min + max - n); Reject (Yes: reject, No: accept)"
    )


def _leg(form: ReviewForm, polarity: Polarity, answer: Answer, reading: ReviewReading) -> Leg:
    """A review leg from its answer: the whole reply (each score's own leg, with its
    score, is built by the verdict)."""
    return Leg(
        polarity=polarity,
        template=f"review:{form.id}",
        template_version=form.version,
        raw_text=answer.response.text,
        labels=(),
        parse_status=ParseStatus.OK if reading.found else ParseStatus.FAILED,
        parse_method=ParseMethod.DECLARED if reading.found else None,
        output_format="json",
        latency_ms=answer.latency_ms,
        usage=answer.response.usage,
        cached=answer.cached,
    )


async def _read(texts: Sequence[str], forms: Sequence[ReviewForm]) -> list[ReviewReading]:
    long = any(len(text) > OFF_LOOP_CHARS for text in texts)
    return await off_loop_if(
        long, lambda: [read_review(t, f) for t, f in zip(texts, forms, strict=True)]
    )


async def _ask_legs(
    engine: VerdictEngine,
    caller: JudgeCaller,
    key: str,
    plans: Sequence[ReviewPlan],
    prefetched: Mapping[str, str | None],
) -> list[Answer]:
    """Both legs: at once, or (``stagger``, a judge whose provider caches prompt prefixes,
    neither reply cached) the direct leg first, marked for the provider's cache with the
    prefix both share (the system message and the paper), and the mirrored one once it has
    begun answering (its first token when the judge streams, else after ``stagger_delay``
    or when it is done), so that it reads the paper from the provider's cache, as a label
    item's legs are staggered."""
    calls = [Call(plan.key, plan.messages, (), key, plan.polarity.value) for plan in plans]
    prefix = shared_prefix([plan.messages for plan in plans])
    mode = None
    if (
        engine.options.stagger != "off"
        and prefix is not None
        and all(prefetched.get(call.key) is None for call in calls)
    ):
        mode = caller.prefix_caching(calls[0].messages, prefix)
    if mode is None or prefix is None:
        return list(
            await asyncio.gather(*(caller.answer(call, prefetched=prefetched) for call in calls))
        )
    loop = asyncio.get_running_loop()
    began = asyncio.Event()

    def started() -> None:  # the judge may call it from another thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(began.set)

    streamed = mode == "stream"
    lead = replace(calls[0], prefix=replace(prefix, started=started if streamed else None))

    async def first() -> Answer:
        try:
            return await caller.answer(lead, prefetched=prefetched)
        finally:
            began.set()

    async def then(call: Call) -> Answer:
        if streamed:
            await began.wait()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(began.wait(), engine.options.stagger_delay)
        return await caller.answer(replace(call, prefix=prefix), prefetched=prefetched)

    return list(await asyncio.gather(first(), *(then(call) for call in calls[1:])))


async def _rebut(
    caller: JudgeCaller,
    item: ReviewItem,
    key: str,
    turn: str,
    reply: str,
    before: ReviewReading,
) -> Rebutted:
    """The rebuttal probe: Ask Again's follow-up round in the author's words after the
    direct leg's ``reply`` (``probe.ask_follow_up``), its reply read as the form again; the
    round changed when the review was swayed."""
    from prin_guard.probe._probe import RoundReading, ask_follow_up  # with the first probe

    form = item.form
    readings: list[ReviewReading] = []

    def read(text: str | None) -> RoundReading:
        after = read_review(text or "", form)
        readings.append(after)
        swayed = rebuttal_moved(form, before, after, item.rebuttal_tolerance).swayed
        overall = after.scores.get(form.overall.name)
        status = ParseStatus.OK if after.found else ParseStatus.FAILED
        return RoundReading((), status, swayed, None if overall is None else float(overall))

    asked = await ask_follow_up(
        caller,
        Polarity.DIRECT,
        review_messages(item, Polarity.DIRECT),
        reply,
        turn,
        item_id=key,
        read=read,
    )
    return Rebutted(item.rebuttal_name or "custom", asked, readings[-1], item.rebuttal_tolerance)


class ReviewTask:
    """The review task (see :mod:`prin_guard.tasks` for what each method is)."""

    name = "review"

    def __repr__(self) -> str:
        return "ReviewTask()"

    def coerce(self, raw: Any, options: GuardOptions) -> ReviewItem:
        return ReviewItem.coerce(raw, max_chars=options.max_chars)

    def refuse(self, options: GuardOptions) -> None:
        if options.template is not None:  # a label, rating or ranking template alike
            named = options.template
            shown = named if isinstance(named, str) else getattr(named, "id", named)
            raise UsageError(
                f"template: the guard's template {shown!r} is not a review form; a review "
                "is asked in its item's form (review under no template)"
            )
        if not set(options.checks or ("reverse",)) <= {"reverse"}:
            raise UsageError(
                "checks: a review is guarded by the reverse check (every score mirrored, "
                "the decision reversed) and its rebuttal probe; it has no order to change"
            )
        if options.reverse_legs != "always":
            raise UsageError("reverse_legs: a review asks both its legs ('always')")
        if options.reask:
            raise UsageError("reask: a review's legs are read strictly, never asked again")

    def check(self, item: ReviewItem, engine: VerdictEngine, acceptance: Acceptance | None) -> None:
        if acceptance is not None:
            acceptance.check_task("review", form=form_identity(item.form))
        if engine.names is not None:
            raise InvalidItemError(
                "task", "a review is asked of one judge, not a panel: review with each judge"
            )
        if engine.probe is not None:
            raise InvalidItemError(
                "rebuttal",
                "the guard's probe asks label and rating legs; a review is probed by its "
                "item's rebuttal (no-evidence, hostile, or the rebuttal's text)",
            )
        limit = item.context_tokens
        if limit is None:  # a judge that declares its context window
            declared = getattr(engine.callers[0].judge, "context_tokens", None)
            if isinstance(declared, int) and not isinstance(declared, bool) and declared > 0:
                limit = declared
        if limit is not None:
            longest = max(
                sum(len(m["content"]) for m in review_messages(item, polarity))
                for polarity in (Polarity.DIRECT, Polarity.REVERSE)
            )
            turn = rebuttal_turn(item)
            if turn is not None:  # the direct conversation, its reply, the rebuttal
                longest = max(longest, longest + len(turn))
            tokens = estimated_tokens(longest)
            if tokens > limit:
                raise InvalidItemError(
                    "document",
                    f"the longest leg is about {tokens} tokens ({longest} characters at "
                    f"{CHARS_PER_TOKEN} a token), more than the judge's context of "
                    f"{limit} tokens (context_tokens): shorten the document or review it "
                    "with a judge of a longer context",
                )

    def key(self, item: ReviewItem) -> str:
        return item.key

    def chars(self, item: ReviewItem) -> int:
        return sum(len(text) for text in item.texts)

    def plan(self, engine: VerdictEngine, item: ReviewItem) -> list[ReviewPlan]:
        caller = engine.callers[0]
        return [
            ReviewPlan(caller.conversation_key(messages), messages, polarity)
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
            for messages in [review_messages(item, polarity)]
        ]

    async def ask(
        self,
        engine: VerdictEngine,
        item: ReviewItem,
        plans: Sequence[Any],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """Both legs asked at once, read, and with a rebuttal the direct leg's conversation
        continued with it; reconciled into the review's verdict."""
        planned = typing.cast(Sequence[ReviewPlan], plans)
        caller = engine.callers[0]
        key = item.key
        answers = await _ask_legs(engine, caller, key, planned, prefetched)
        form, mirrored = item.form, mirrored_form(item.form)
        texts = [answer.response.text or "" for answer in answers]
        direct_reading, reverse_reading = await _read(texts, (form, mirrored))
        direct = _leg(form, Polarity.DIRECT, answers[0], direct_reading)
        reverse = _leg(form, Polarity.REVERSE, answers[1], reverse_reading)
        rebutted = None
        turn = rebuttal_turn(item)
        if turn is not None and direct_reading.found:
            rebutted = await _rebut(caller, item, key, turn, texts[0], direct_reading)
        return review_verdict(
            key, form, item.paper, direct, reverse, direct_reading, reverse_reading, rebutted
        )

    async def ask_leg(
        self,
        engine: VerdictEngine,
        item: ReviewItem,
        plan: Any,
        prefetched: Mapping[str, str | None],
    ) -> Leg:
        asked = typing.cast(ReviewPlan, plan)
        caller = engine.callers[asked.member]
        call = Call(asked.key, asked.messages, (), item.key, asked.polarity.value)
        answer = await caller.answer(call, prefetched=prefetched)
        form = item.form if asked.polarity is Polarity.DIRECT else mirrored_form(item.form)
        (reading,) = await _read([answer.response.text or ""], (form,))
        return _leg(item.form, asked.polarity, answer, reading)

    def failed(self, item: ReviewItem, error: JudgeError, options: GuardOptions) -> Verdict:
        return error_verdict(item.key, "judge", str(error), task="review", options=options)

    def messages(
        self, engine: VerdictEngine, item: ReviewItem, polarity: Polarity
    ) -> list[Message]:
        return review_messages(item, polarity)

    def prompts(self, engine: VerdictEngine, item: ReviewItem) -> list[LegPrompt]:
        return [
            LegPrompt(
                polarity.value,
                polarity,
                review_messages(item, polarity),
                _reads(item.form, polarity),
            )
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
        ]

    def max_calls(self, engine: VerdictEngine) -> int:
        """Both legs and the rebuttal probe's round."""
        return 3


REVIEW = ReviewTask()
"""The review task."""
