"""A verdict's legs: which questions to ask (planning) and what each answer says (reading).

A leg is one judge call: one polarity, one order of the candidates, one panel member.
:class:`LegAsker` plans the legs of an item for the checks a guard runs and reads an
answer into a :class:`~prin_guard.models.Leg`: labels parsed (and mapped back to the
item's own labels for a leg asked in a second order), polarity confusion, and the
judge's confidence in its answer where it returned token log-probabilities.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from prin_guard._calls import Call, JudgeCaller, KeyScope
from prin_guard._checks import answer_confidence, map_back, permuted_item, second_order
from prin_guard._models import Item, Leg, Message, ParseStatus, Polarity
from prin_guard._parsing import detect_polarity_confusion, parse_reply
from prin_guard._prompts import Mitigation, Template, build_messages

__all__ = ["LegAsker", "LegPlan", "ReadLeg"]


@dataclass(frozen=True, slots=True)
class LegPlan:
    """One judge call of a verdict, planned: what to send and where it is cached."""

    polarity: Polarity
    messages: list[Message]
    key: str
    member: int = 0
    """Which panel member asks it (0 for a single judge)."""
    asked: Item | None = None
    """The item as shown, when the candidates are in a second order."""
    mapping: Mapping[str, str] = field(default_factory=dict)
    """Shown label → the item's own label (second order only)."""
    order: tuple[str, ...] | None = None
    """The item's labels in the order shown (second order only)."""


@dataclass(frozen=True, slots=True)
class ReadLeg:
    """A leg read from its answer, and whether the reply repeated the prompt."""

    leg: Leg
    echoed: bool


def item_part(item: Item) -> str:
    """The part of a leg's cache key that is the item (serialised once per item)."""
    return json.dumps(
        [
            item.question,
            [[c.label, c.text, c.reasoning] for c in item.candidates],
            item.context,
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


class LegAsker:
    """Plans and reads the legs of one guard (its template and mitigations)."""

    def __init__(self, template: Template, mitigations: Sequence[Mitigation]) -> None:
        self._template = template
        self._mitigations = tuple(mitigations)

    @property
    def template(self) -> Template:
        return self._template

    def plan(self, item: Item, scopes: Sequence[KeyScope], *, order: bool) -> list[LegPlan]:
        """Every leg of ``item`` for each member's key scope: direct and reverse, and with
        ``order`` both again with the candidates in the second order."""
        own = item_part(item)
        plans: list[LegPlan] = []
        second: tuple[Item, dict[str, str], tuple[str, ...], str] | None = None
        if order:
            shown_order = second_order(item.labels, item.key)
            asked, mapping = permuted_item(item, shown_order)
            second = (asked, mapping, shown_order, item_part(asked))
        for member, scope in enumerate(scopes):
            for polarity in (Polarity.DIRECT, Polarity.REVERSE):
                plans.append(
                    LegPlan(
                        polarity,
                        build_messages(item, polarity, self._template, self._mitigations),
                        scope.key(own, polarity.value),
                        member,
                    )
                )
            if second is None:
                continue
            asked, mapping, shown_order, part = second
            for polarity in (Polarity.DIRECT, Polarity.REVERSE):
                plans.append(
                    LegPlan(
                        polarity,
                        build_messages(asked, polarity, self._template, self._mitigations),
                        # the same key a guard without the order check would use for the
                        # permuted item: a second-order leg is that item's leg
                        scope.key(part, polarity.value),
                        member,
                        asked,
                        mapping,
                        shown_order,
                    )
                )
        return plans

    async def read(
        self,
        caller: JudgeCaller,
        item: Item,
        plan: LegPlan,
        prefetched: Mapping[str, str | None],
    ) -> ReadLeg:
        """Ask one planned leg (through the cache) and read its answer."""
        shown = plan.asked or item
        call = Call(plan.key, plan.messages, shown.labels, item.key, plan.polarity.value)
        answer = await caller.answer(call, prefetched=prefetched)
        response = answer.response
        texts = [candidate.text for candidate in shown.candidates]
        # Text the judge may copy from its prompt: an "Answer:" line copied from it
        # (from a candidate, the question, ...) is not the judge's answer.
        echo = [
            *(message["content"] for message in plan.messages),
            shown.question,
            shown.context or "",
            *texts,
            *(candidate.reasoning or "" for candidate in shown.candidates),
        ]
        words = (self._template.positive, self._template.negative)
        parsed = parse_reply(
            response.text, shown.labels, texts, echo=echo, polarity=plan.polarity, words=words
        )
        if parsed.status is ParseStatus.FAILED:
            # Read in the leg's own polarity, a reply that only answers the other question
            # has no answer; the verdict keeps its literal parse (and polarity_confusion
            # says what it is), as the paper's span extraction would read it.
            literal = parse_reply(response.text, shown.labels, texts, echo=echo)
            if literal.status is not ParseStatus.FAILED:
                parsed = literal
        labels = parsed.labels
        if plan.order is not None:
            labels = map_back(labels, plan.mapping, item.labels)
        leg = Leg(
            polarity=plan.polarity,
            template=self._template.id,
            template_version=self._template.version,
            mitigations=tuple(m.value for m in self._mitigations),
            output_format=response.output_format,
            raw_text=response.text,
            labels=labels,
            parse_status=parsed.status,
            parse_method=parsed.method,
            polarity_confusion=detect_polarity_confusion(response.text, plan.polarity),
            latency_ms=answer.latency_ms,
            usage=response.usage,
            cached=answer.cached,
            order=plan.order,
            confidence=answer_confidence(response.text, response.tokens, parsed.span),
        )
        return ReadLeg(leg, parsed.echoed)
