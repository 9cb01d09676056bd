"""A verdict's legs: which questions to ask (planning) and what each answer says (reading).

A leg is one judge call: one polarity, one order of the candidates, one panel member.
:class:`LegAsker` plans the legs of an item for the checks a guard runs and reads an
answer into a :class:`~prin_guard.models.Leg`: labels parsed (and mapped back to the
item's own labels for a leg asked in a second order), polarity confusion, and the
judge's confidence in its answer where it returned token log-probabilities. What the
legs then say about the item is decided in ``_decide``.

**The second order.** The order check asks the same question with the candidates in a
second order and labels re-assigned by position (the candidate shown first is always
``A``), then maps the answer back to the item's own labels. The second order is the
reversal when reversal moves every candidate (an even number of candidates); otherwise
(an odd number: reversal keeps the middle candidate in place) a permutation that moves
every candidate, drawn from a generator seeded by the item's key, so the same item is
always asked in the same second order and its legs are cached.

**Confidence.** Given the reply's tokens with their log-probabilities and the span of
the reply the parser read the labels from, the answer's probability is the product of
the probabilities of the tokens that overlap the span: the probability that the judge,
having written what came before, writes exactly that answer (for a set, naming exactly
those labels as written, separators included). It is the judge's own distribution at
each step, not a calibrated probability of being right.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop
from prin_guard._prompting._prompts import (
    Mitigation,
    PromptLayout,
    Template,
    build_messages,
    layout_differs,
    parse_mitigations,
    reask_prompt,
    template_digest,
    template_for,
)
from prin_guard._route._reading import read_answer
from prin_guard.calls import Call, JudgeCaller, KeyScope
from prin_guard.judges._base import SharedPrefix
from prin_guard.models import (
    Item,
    Leg,
    Message,
    ParseMethod,
    ParseStatus,
    Polarity,
    Usage,
)

__all__ = [
    "LegAsker",
    "LegPlan",
    "LegPrompt",
    "ReadLeg",
    "answer_confidence",
    "leg_prompts",
    "map_back",
    "permuted_item",
    "prefix_route",
    "second_order",
    "shared_prefix",
]


@dataclass(frozen=True, slots=True)
class LegPlan:
    """One judge call of a verdict, planned: what to send and where it is cached."""

    polarity: Polarity
    messages: list[Message]
    key: str
    template: Template
    """The wording it is asked in (the item's task's template)."""
    member: int = 0
    """Which panel member asks it (0 for a single judge)."""
    asked: Item | None = None
    """The item as shown, when the candidates are in a second order."""
    mapping: Mapping[str, str] = field(default_factory=dict)
    """Shown label → the item's own label (second order only)."""
    order: tuple[str, ...] | None = None
    """The item's labels in the order shown (second order only)."""
    prefix: SharedPrefix | None = None
    """What its prompt shares with the member's other legs in the same order (the
    direct and the reverse leg), byte for byte; ``None`` when nothing."""


@dataclass(frozen=True, slots=True)
class ReadLeg:
    """A leg read from its answer, and whether the reply repeated the prompt."""

    leg: Leg
    echoed: bool


def item_chars(item: Item) -> int:
    """How long an item's texts are, together: what its legs' prompts repeat."""
    texts = [item.question, item.context, item.response]
    for candidate in item.candidates:
        texts += [candidate.text, candidate.reasoning]
    return sum(len(text) for text in texts if text)


def item_part(item: Item) -> str:
    """The part of a leg's cache key that is the item (serialised once per item).

    A choice item's part is what it has always been, so caches keep serving; the other
    tasks add what they have more (their template ids differ too, so tasks never share
    a key).
    """
    content: list[object] = [
        item.question,
        [[c.label, c.text, c.reasoning] for c in item.candidates],
        item.context,
    ]
    if item.task != "choice":
        content = [item.task, *content, item.response]
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


def scope_parts(
    template: Template, mitigations: Sequence[Mitigation], layout: PromptLayout = "template"
) -> dict[str, object]:
    """What a leg's cache key holds of the wording: the template's id and version (and,
    for a template of one's own, its words: two wordings under one id never share; and
    the layout where it is not the template's own)."""
    parts: dict[str, object] = {
        "template": template.id,
        "template_version": template.version,
        "mitigations": [m.value for m in mitigations],
    }
    if layout_differs(template, layout):
        parts["layout"] = layout
    if not template.builtin:
        parts["template_words"] = [
            template.task,
            template.positive,
            template.negative,
            template.noun,
        ]
        if template.contract is not None:  # what the judge is asked to write
            parts["template_contract"] = template.contract.model_dump(mode="json")
        if template.text:  # every word of the prompt: an edit never reuses an old answer
            parts["template_text"] = template_digest(template)
    return parts


class LegAsker:
    """Plans and reads the legs of one guard (its template choice and mitigations).

    ``template`` is the guard's: a template, or ``None`` for each task's default. Each
    item is asked in the template of its task
    (:func:`~prin_guard._prompting._prompts.template_for`).
    """

    def __init__(
        self,
        template: str | Template | None,
        mitigations: Sequence[Mitigation],
        *,
        reask: bool = False,
        layout: PromptLayout = "template",
    ) -> None:
        self._template = template
        self._mitigations = tuple(mitigations)
        self._reask = reask
        self._layout: PromptLayout = layout

    def messages(self, item: Item, polarity: Polarity, template: Template) -> list[Message]:
        """The conversation of one leg of ``item`` (as shown) in ``template``."""
        return build_messages(item, polarity, template, self._mitigations, layout=self._layout)

    def template_for(self, item: Item) -> Template:
        """The template ``item`` is asked in (an InvalidItemError naming the field when
        the guard's template is another task's)."""
        return template_for(self._template, item)

    def plan(
        self,
        item: Item,
        scopes: Callable[[Template], Sequence[KeyScope]],
        *,
        order: bool | Sequence[Polarity],
    ) -> list[LegPlan]:
        """Every leg of ``item`` for each member's key scope (``scopes`` of the item's
        template): direct and reverse, and the questions ``order`` names (``True``: both;
        the ``swap`` check: the direct one) again with the candidates in the second order
        (when there are at least two)."""
        again = _second_order_polarities(order)
        template = self.template_for(item)
        # the orders the candidates are shown in: the item's own, and the order check's
        # second (a second-order leg is the permuted item's leg, with the same key a guard
        # without the order check would use for that item)
        shown: list[tuple[Item, Mapping[str, str], tuple[str, ...] | None, str]] = [
            (item, {}, None, item_part(item))
        ]
        if again and len(item.candidates) > 1:
            shown_order = second_order(item.labels, item.key)
            asked, mapping = permuted_item(item, shown_order)
            shown.append((asked, mapping, shown_order, item_part(asked)))
        # each leg's prompt built once, whatever the number of panel members
        legs = [
            (asked, mapping, shown_order, part, polarity, self.messages(asked, polarity, template))
            for asked, mapping, shown_order, part in shown
            for polarity in (Polarity.DIRECT, Polarity.REVERSE)
            if shown_order is None or polarity in again
        ]
        plans = [
            LegPlan(
                polarity,
                messages,
                scope.key(part, polarity.value),
                template,
                member,
                None if shown_order is None else asked,
                mapping,
                shown_order,
            )
            for member, scope in enumerate(scopes(template))
            for asked, mapping, shown_order, part, polarity, messages in legs
        ]
        return _with_prefixes(plans, item.key)

    async def read(
        self,
        caller: JudgeCaller,
        item: Item,
        plan: LegPlan,
        prefetched: Mapping[str, str | None],
        *,
        prefix: SharedPrefix | None = None,
    ) -> ReadLeg:
        """Ask one planned leg (through the cache) and read its answer. ``prefix``: the
        shared prefix to mark for the judge's provider (when the legs are staggered)."""
        shown = plan.asked or item
        template = plan.template
        # The labels let a judge constrain its answer (a JSON schema); a template of
        # one's own asks for its own verdict format, so it is asked in plain text.
        labels = shown.labels if template.builtin or template.structured else ()
        call = Call(plan.key, plan.messages, labels, item.key, plan.polarity.value, prefix)
        answer = await caller.answer(call, prefetched=prefetched)
        response = answer.response
        read = functools.partial(
            read_answer,
            response.text,
            item,
            plan.polarity,
            template,
            self._mitigations,
            shown=shown,
            layout=self._layout,
        )
        # A long reply (a judge that repeats a long item) is read off the event loop, so
        # that the loop goes on serving other requests meanwhile.
        long = response.text is not None and len(response.text) > OFF_LOOP_CHARS
        reading, parsed = await off_loop(read) if long else read()
        usage, tokens, reasked = response.usage, response.tokens, None
        if self._reask and reading.status is ParseStatus.FAILED and response.text:
            # once: "state only your final answer as ...", the reply in the history
            messages: list[Message] = [
                *plan.messages,
                {"role": "assistant", "content": response.text},
                {"role": "user", "content": reask_prompt(template, shown, plan.polarity)},
            ]
            again = await caller.converse(
                messages, labels=labels, item_id=item.key, purpose="reask"
            )
            reasked = again.response.text
            usage = _added(usage, again.response.usage)
            read_again = functools.partial(
                read_answer,
                reasked,
                item,
                plan.polarity,
                template,
                self._mitigations,
                shown=shown,
                layout=self._layout,
            )
            long = reasked is not None and len(reasked) > OFF_LOOP_CHARS
            second, second_parsed = await off_loop(read_again) if long else read_again()
            if second.status is not ParseStatus.FAILED:
                reading = second.model_copy(update={"method": ParseMethod.REASKED})
                parsed, tokens = second_parsed, again.response.tokens
        labels = reading.labels
        if plan.order is not None:
            labels = map_back(labels, plan.mapping, item.labels)
        leg = Leg(
            polarity=plan.polarity,
            template=template.id,
            template_version=template.version,
            mitigations=tuple(m.value for m in self._mitigations),
            output_format=response.output_format,
            raw_text=response.text,
            labels=labels,
            parse_status=reading.status,
            parse_method=reading.method,
            polarity_confusion=reading.polarity_confusion,
            answer_mismatch=reading.answer_mismatch,
            copied=reading.copied,
            weak=reading.weak,
            latency_ms=answer.latency_ms,
            usage=usage,
            cached=answer.cached,
            order=plan.order,
            confidence=answer_confidence(
                reasked
                if reasked is not None and reading.method is ParseMethod.REASKED
                else response.text,
                tokens,
                parsed.span,
            ),
            reasked=reasked,
        )
        return ReadLeg(leg, reading.echoed)


def _second_order_polarities(order: bool | Sequence[Polarity]) -> tuple[Polarity, ...]:
    if order is True:
        return (Polarity.DIRECT, Polarity.REVERSE)
    return () if order is False else tuple(order)


def _with_prefixes(plans: list[LegPlan], item_key: str) -> list[LegPlan]:
    """``plans`` with the prefix each shares with the member's other legs in its order
    (routed by the item: every leg of the verdict to one of a provider's caches)."""
    groups: dict[tuple[int, bool], list[int]] = {}
    for index, plan in enumerate(plans):
        groups.setdefault((plan.member, plan.order is None), []).append(index)
    route = prefix_route(item_key)
    out = list(plans)
    commons: dict[int, SharedPrefix | None] = {}
    for member in {plan.member for plan in plans}:
        commons[member] = shared_prefix([plan.messages for plan in plans if plan.member == member])
    for indexes in groups.values():
        if len(indexes) == 1 and plans[indexes[0]].order is not None:
            # the swap check's one leg in the second order: it shares with the others what
            # every leg shares (the instruction, the context), which the first leg wrote
            every = commons[plans[indexes[0]].member]
            if every is not None:
                out[indexes[0]] = dataclasses.replace(
                    plans[indexes[0]], prefix=dataclasses.replace(every, route=route)
                )
            continue
        prefix = shared_prefix([plans[index].messages for index in indexes])
        if prefix is not None:
            every = commons[plans[indexes[0]].member]
            common = every.chars if every is not None else 0
            prefix = dataclasses.replace(
                prefix, route=route, common=common if 0 < common < prefix.chars else 0
            )
            for index in indexes:
                out[index] = dataclasses.replace(plans[index], prefix=prefix)
    return out


def prefix_route(item_key: str) -> str:
    """Where a provider's prompt cache keeps an item's legs (OpenAI's ``prompt_cache_key``):
    every leg of one verdict to one cache, whatever its prefix."""
    return "prin-guard-" + hashlib.sha256(("route\x00" + item_key).encode()).hexdigest()[:32]


def shared_prefix(conversations: Sequence[Sequence[Message]]) -> SharedPrefix | None:
    """What the conversations share at their start: every message but the last, and the
    last message's content up to the end of the last line they all share; ``None`` when
    they share nothing (or there is only one)."""
    if len(conversations) < 2:
        return None
    first = conversations[0]
    if any(
        len(other) != len(first) or list(other[:-1]) != list(first[:-1])
        for other in conversations[1:]
    ):
        return None
    contents = [conversation[-1]["content"] for conversation in conversations]
    last = contents[0][: _common_length(contents)]
    # to the end of a line: where a provider's content block can end without changing
    # how the text reads (the prefix is sent as its own block to mark it for a cache)
    chars = last.rfind("\n") + 1
    if chars == 0:
        return None
    head = [[m["role"], m["content"]] for m in first[:-1]] + [[first[-1]["role"], last[:chars]]]
    digest = hashlib.sha256(json.dumps(head, ensure_ascii=False).encode()).hexdigest()
    return SharedPrefix(chars=chars, key=f"prin-guard-{digest[:32]}")


def _common_length(texts: Sequence[str]) -> int:
    """How many characters every text of ``texts`` begins with alike (found by halving,
    each comparison a slice compared in C: an item of a megabyte costs no Python loop
    over its characters)."""
    first = texts[0]
    low, high = 0, min(len(text) for text in texts)
    while low < high:
        middle = (low + high + 1) // 2
        head = first[:middle]
        if all(text.startswith(head) for text in texts[1:]):
            low = middle
        else:
            high = middle - 1
    return low


def _added(first: Usage | None, second: Usage | None) -> Usage | None:
    # both calls' cost, known only when both calls reported it
    return None if first is None or second is None else first + second


@dataclass(frozen=True, slots=True)
class LegPrompt:
    """One leg of an item as the judge will be asked it, before anything is spent."""

    name: str
    """``direct``, ``reverse``, and with the order check ``direct, second order`` and
    ``reverse, second order`` (a rating's: ``direct, rubric reversed``; an aspect's legs
    named after it, ``coherence: direct``)."""
    polarity: Polarity
    messages: list[Message]
    reads: str
    """What the reader looks for in the reply (the template's answer contract)."""
    order: tuple[str, ...] | None = None
    """The item's labels in the order shown (second order only)."""


def leg_prompts(
    item: Item | Mapping[str, object],
    template: str | Template | None = None,
    mitigations: Sequence[Mitigation | str] = (),
    *,
    order: bool | Sequence[Polarity] = False,
    layout: PromptLayout = "template",
) -> list[LegPrompt]:
    """Every leg of ``item`` as the judge will be asked it (``template``: as for
    :func:`read_reply`; ``order``: the order check's legs too, ``True`` for both questions
    or the questions asked again, as :meth:`GuardOptions.second_order` gives them;
    ``layout``: the options' ``prompt_layout``), and what the reader will look for in each
    reply: to check a template's reverse leg before a run spends money."""
    again = _second_order_polarities(order)
    checked = Item.coerce(item)
    chosen = template_for(template, checked)
    mitigated = parse_mitigations(mitigations)
    shown_items: list[tuple[str, Item, tuple[str, ...] | None]] = [("", checked, None)]
    if again and len(checked.candidates) > 1:
        shown_order = second_order(checked.labels, checked.key)
        asked, _ = permuted_item(checked, shown_order)
        shown_items.append((", second order", asked, shown_order))
    reads = chosen.answer_contract.describe(checked.labels)
    return [
        LegPrompt(
            f"{polarity.value}{suffix}",
            polarity,
            build_messages(shown, polarity, chosen, mitigated, layout=layout),
            reads,
            shown_order,
        )
        for suffix, shown, shown_order in shown_items
        for polarity in (Polarity.DIRECT, Polarity.REVERSE)
        if shown_order is None or polarity in again
    ]


# -- the second order and the answer's probability -------------------------------------


def second_order(labels: Sequence[str], seed: str) -> tuple[str, ...]:
    """The item's labels in the order the order check shows the candidates.

    The reversal when it moves every label; else a seeded permutation with no fixed
    point (a derangement), the same for the same ``labels`` and ``seed``.
    """
    n = len(labels)
    if n < 2:
        raise ValueError("labels: the order check needs at least two candidates")
    if n % 2 == 0:
        return tuple(reversed(labels))
    digest = hashlib.sha256(("order\x00" + seed).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))  # noqa: S311 (an order, not a secret)
    positions = list(range(n))
    # rejection sampling: a random permutation is a derangement with probability ~1/e,
    # so this takes about three draws; deterministic for the seed
    while True:
        rng.shuffle(positions)
        if all(index != value for index, value in enumerate(positions)):
            return tuple(labels[index] for index in positions)


def permuted_item(item: Item, order: Sequence[str]) -> tuple[Item, dict[str, str]]:
    """``item`` with its candidates shown in ``order`` and labelled by position.

    Returns the item to ask and the map from the labels it shows to the item's own.
    """
    by_label = {candidate.label: candidate for candidate in item.candidates}
    shown_labels = item.labels
    candidates = tuple(
        by_label[label].model_copy(update={"label": shown})
        for shown, label in zip(shown_labels, order, strict=True)
    )
    # built anew (not model_copy): an Item caches its labels and key
    permuted = Item(**{**item.model_dump(exclude={"candidates"}), "candidates": candidates})
    return permuted, dict(zip(shown_labels, order, strict=True))


def map_back(
    shown: Iterable[str], mapping: Mapping[str, str], labels: Sequence[str]
) -> tuple[str, ...]:
    """Labels as shown in the second order, mapped to the item's own (in ``labels`` order)."""
    found = {mapping[label] for label in shown}
    return tuple(label for label in labels if label in found)


def answer_confidence(
    text: str | None,
    tokens: Sequence[tuple[str, float]] | None,
    span: tuple[int, int] | None,
) -> float | None:
    """The probability of the tokens that spell ``text[span]``, or ``None`` when the
    tokens are missing, do not spell ``text``, or there is no span."""
    if not text or not tokens or span is None:
        return None
    start, end = span
    if not 0 <= start < end <= len(text):
        return None
    if "".join(token for token, _ in tokens) != text:
        # the judge's tokens are not the reply as returned (stripped, byte pieces):
        # offsets would not line up, and a wrong number is worse than none
        return None
    position = 0
    logprob = 0.0
    touched = False
    for token, value in tokens:
        token_end = position + len(token)
        if token_end > start and position < end:
            if not math.isfinite(value):
                return None
            logprob += min(value, 0.0)
            touched = True
        position = token_end
        if position >= end:
            break
    return math.exp(logprob) if touched else None
