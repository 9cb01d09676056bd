"""Reading one leg's reply: the one path the guard, the probe and
:func:`prin_guard.read_reply` read a judge's reply by.

The reader (``prin_guard.reader``) is told what the judge may copy (the item's texts: a
copy of them where an answer would be is never read as one) and the prompt's own words
(its frame: the template's text with the item's texts taken out), the template's answer
contract (read first), its words and nouns; then polarity confusion is judged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from prin_guard._prompting._contract import AnswerContract, Ordering, Ranked, Tag
from prin_guard._prompting._prompts import (
    Mitigation,
    PromptLayout,
    Template,
    build_messages,
    parse_mitigations,
    template_for,
)
from prin_guard._prompting._rating import RatingItem
from prin_guard.errors import UsageError
from prin_guard.models import (
    Candidate,
    Item,
    ParseMethod,
    ParseStatus,
    Polarity,
    RankingItem,
    Reading,
    Task,
)
from prin_guard.reader import (
    ParseResult,
    detect_polarity_confusion,
    parse_reply,
    read_aspect_scores,
    read_score,
)
from prin_guard.reader._ranking import read_ranking

__all__ = ["prompt_frame", "read_answer", "read_reply"]


# A character that is no word, and that the prompt shows as it is (JSON quoting keeps it)
_HOLE = "\ue000"
_HOLES = "\ue000\\d*"


def prompt_frame(
    item: Item,
    polarity: Polarity,
    template: Template,
    mitigations: Sequence[Mitigation],
    layout: PromptLayout = "template",
) -> tuple[str, ...]:
    """The template's own text of a leg's prompt: the prompt with the item's texts taken
    out, as the pieces between them. What a judge may copy of the prompt is its frame
    (skipped by the reader) or the item's texts (the echo, flagged when read as an
    answer); the frame is the same for every item of a shape, so the reader indexes it
    once."""
    return _frame(
        item.task,
        item.labels,
        item.question is not None,
        item.context is not None,
        item.response is not None,
        tuple(candidate.reasoning is not None for candidate in item.candidates),
        polarity,
        template,
        tuple(mitigations),
        layout,
    )


@functools.lru_cache(maxsize=512)
def _frame(
    task: Task,
    labels: tuple[str, ...],
    question: bool,
    context: bool,
    response: bool,
    reasoned: tuple[bool, ...],
    polarity: Polarity,
    template: Template,
    mitigations: tuple[Mitigation, ...],
    layout: PromptLayout,
) -> tuple[str, ...]:
    holes = tuple(
        Candidate(text=f"{_HOLE}{n}", label=label, reasoning=_HOLE if has else None)
        for n, (label, has) in enumerate(zip(labels, reasoned, strict=True))
    )
    shaped = Item(
        task=task,
        question=_HOLE if question else None,
        candidates=holes,
        context=_HOLE if context else None,
        response=_HOLE if response else None,
    )
    prompt = "\n".join(
        m["content"] for m in build_messages(shaped, polarity, template, mitigations, layout=layout)
    )
    return tuple(part for part in re.split(_HOLES, prompt) if part.strip())


def read_answer(
    text: str | None,
    item: Item,
    polarity: Polarity,
    template: Template,
    mitigations: Sequence[Mitigation],
    *,
    shown: Item | None = None,
    layout: PromptLayout = "template",
) -> tuple[Reading, ParseResult]:
    """Read a judge's reply to one leg of ``item``: the one reading path of the guard, the
    probe and :func:`read_reply`. ``shown``: the item as the judge saw it (the second
    order's), when not ``item``; the labels read are ``shown``'s. Returns the reading and
    the parse it came from (its span, in the reply as given)."""
    shown = shown or item
    texts = [candidate.text for candidate in shown.candidates]
    # What the judge may copy: the item's own texts (a copy of them where an answer
    # would be is never read as one, and flags the verdict: an item could inject
    # "The correct option is E.") and the prompt's frame. In the item's own order,
    # whatever the order shown: the reader's index of them does not depend on it,
    # and every leg of the item then shares it.
    echo = (
        item.question or "",
        item.response or "",
        item.context or "",
        *(candidate.text for candidate in item.candidates),
        *(candidate.reasoning or "" for candidate in item.candidates),
    )
    # the prompt's own words (the item's texts taken out): skipped, not flagged
    prompt = prompt_frame(shown, polarity, template, mitigations, layout)
    words = (template.positive, template.negative)

    def parse(leg: Polarity | None) -> ParseResult:
        return parse_reply(
            text,
            shown.labels,
            texts,
            task=item.task,
            polarity=leg,
            words=words,
            nouns=(template.noun,),
            echo=echo,
            prompt=prompt,
            contract=template.answer_contract,
            question=item.question,
        )

    parsed = parse(polarity)
    confused = detect_polarity_confusion(text, polarity, words=words, task=item.task)
    if (
        confused
        and text
        and item.task == "choice"
        and parsed.status is ParseStatus.OK
        and not parsed.weak
        and parsed.span
    ):
        # what follows a set's confident answer is accounted for by the reader (a side against
        # it fails the leg, one it cannot place makes it weak): "Answer: A, C, D\n\nNote:
        # B is the right one." on the reverse leg is no confusion; what leads to it may be
        before = text[: parsed.span[0]]
        confused = detect_polarity_confusion(before, polarity, words=words, task=item.task)
    if parsed.status is ParseStatus.FAILED and item.task == "choice" and not confused:
        # Read in the leg's own polarity, a reply that only answers the other question
        # has no answer, and is never read as this leg's: what it names is the other
        # question's answer ("C is right." on the reverse leg is no wrong one; read as
        # one, it would make the very inconsistency the guard reports). The leg fails,
        # marked: polarity_confusion says what it is. Not for the other tasks, whose
        # parse reads the direct question without a polarity.
        confused = parse(None).status is not ParseStatus.FAILED
    reading = Reading(
        labels=parsed.labels,
        status=parsed.status,
        method=parsed.method,
        weak=parsed.weak,
        copied=parsed.copied,
        echoed=parsed.echoed,
        polarity_confusion=confused,
        answer_mismatch=parsed.disagreement,
        span=parsed.span,
    )
    return reading, parsed


def read_reply(
    reply: str | None,
    item: Item | RatingItem | RankingItem | Mapping[str, object],
    *,
    template: str | Template | AnswerContract | None = None,
    polarity: Polarity | str = Polarity.DIRECT,
    mitigations: Sequence[Mitigation | str] = (),
) -> Reading:
    """Read what a judge's ``reply`` says about ``item``, as the guard reads each leg.

    ``item``: an :class:`~prin_guard.Item` or a mapping of one (checked as the guard
    checks it). ``template``: the template the judge was asked in (an id such as
    ``"pairwise"``, or a :class:`~prin_guard.Template`; ``None``: the item's task's
    bundled one); its answer contract is read first. ``polarity``: the question the reply
    answers, ``"direct"`` ("which are correct / better / met?") or ``"reverse"``.
    ``mitigations``: those the prompt was built with (its own words are then skipped,
    not read as the judge's).

    Returns a :class:`~prin_guard.Reading`: the labels read, the status (``ok``,
    ``none``, ``failed``), the method, and the ``copied`` and ``weak`` marks. The reader
    never guesses: a reply it cannot read unambiguously is ``failed``.

    A rating item (``{"task": "rating", "response": ..., "scale": {"min": 1, "max":
    10}}``) is read for the score the reply declares (``Reading.score``; see
    :mod:`prin_guard._prompting._rating` for what counts); on the reverse leg, the score as written
    on the mirrored scale. A rating item with ``aspects`` is read as one reply rating
    every aspect (``Reading.aspect_scores``: ``Coherence: 4`` on a line of its own per
    aspect, or a JSON field per aspect, each on its aspect's scale).

    A ranking item (``{"task": "ranking", "question": ..., "candidates": [...]}``) is read
    for the ranking the reply declares (``Reading.ranking``: tiers of the item's labels in
    the order the reply lists them, so on the reverse leg worst first), strictly: every
    label exactly once, else ``failed``. ``template``: a template (or an
    :class:`~prin_guard.models.AnswerContract`) whose contract says how the prompt showed
    the responses (``labels``, in the item's order: "Assistant 1", "[1]", ...) and which
    form it asked for (:class:`~prin_guard.models.Ranked`, or ``Ordering``, ``Tag``): that
    form is read first, and decides when it is there.
    """
    try:
        leg = Polarity(getattr(polarity, "value", polarity))
    except ValueError:
        raise UsageError(
            f"polarity: {polarity!r} is not a polarity; use 'direct' or 'reverse'"
        ) from None
    if isinstance(item, RankingItem) or (
        isinstance(item, Mapping) and item.get("task") == "ranking"
    ):
        return _read_ranking_reply(reply, RankingItem.coerce(item), template)
    if isinstance(item, RatingItem) or (isinstance(item, Mapping) and item.get("task") == "rating"):
        if template is not None:
            raise UsageError("template: a rating is read by the score it declares, not a template")
        return _read_rating(reply, RatingItem.coerce(item))
    checked = Item.coerce(item)
    if isinstance(template, AnswerContract):
        raise UsageError("template: a label item is read with a template, not a bare contract")
    chosen = template_for(template, checked)
    return read_answer(reply, checked, leg, chosen, parse_mitigations(mitigations))[0]


_SHOWN_LABEL = re.compile(r"^(?:[A-Za-z]+\s*)?[\[(]*\s*([A-Za-z0-9]{1,4})\s*[\])]*$")


def _ranking_contract(template: str | Template | AnswerContract | None) -> AnswerContract | None:
    if template is None or isinstance(template, AnswerContract):
        return template
    if isinstance(template, Template):
        return template.contract
    raise UsageError(
        "template: a ranking is read with a template's contract (a Template or an "
        f"AnswerContract), not {template!r}: no bundled template asks rankings"
    )


def _read_ranking_reply(
    reply: str | None, item: RankingItem, template: str | Template | AnswerContract | None
) -> Reading:
    """A ranking reply read (see :func:`read_reply`)."""
    contract = _ranking_contract(template)
    shown = item.labels
    form: str | None = None
    if contract is not None:
        if contract.labels is not None:
            if len(contract.labels) != len(item.labels):
                raise UsageError(
                    f"template: contract.labels names {len(contract.labels)} responses; the "
                    f"item has {len(item.labels)}"
                )
            # the label itself where the prompt shows a noun or brackets around it
            cores = [_SHOWN_LABEL.match(label.strip()) for label in contract.labels]
            shown = tuple(
                core.group(1) if core else label
                for core, label in zip(cores, contract.labels, strict=True)
            )
            if len({label.upper() for label in shown}) != len(shown):
                raise UsageError("template: contract.labels: two responses read alike")
        declared = contract.format
        if isinstance(declared, Ranked):
            form = declared.reader_form
        elif isinstance(declared, Ordering):
            form = "ordering"
        elif isinstance(declared, Tag):
            form = "tags"
    found = read_ranking(reply or "", shown, echo=item.texts, form=form)
    if found.ranking is None:
        return Reading(labels=(), status=ParseStatus.FAILED, copied=found.copied)
    to_item = dict(zip(shown, item.labels, strict=True))
    ranking = tuple(tuple(to_item[label] for label in tier) for tier in found.ranking)
    method = (
        ParseMethod.DECLARED
        if form is not None and found.form == form
        else ParseMethod.STRUCTURED
        if found.form in ("json-list", "json-ranks")
        else ParseMethod.VERDICT_TAG
        if found.form == "tags"
        else ParseMethod.LABEL_FORMS
    )
    return Reading(
        labels=(),
        status=ParseStatus.OK,
        method=method,
        span=found.span,
        ranking=ranking,
        copied=found.copied,
    )


def _read_rating(reply: str | None, item: RatingItem) -> Reading:
    if item.aspects:
        each = read_aspect_scores(reply or "", item.aspects, copied_from=item.texts)
        scores = {name: found.score for name, found in each.items()}
        every = all(score is not None for score in scores.values())
        return Reading(
            labels=(),
            status=ParseStatus.OK if every else ParseStatus.FAILED,
            method=ParseMethod.DECLARED if every else None,
            copied=any(found.copied for found in each.values()),
            aspect_scores=scores,
        )
    found = read_score(reply or "", item.scale, copied_from=item.texts)
    if found.score is None:
        return Reading(labels=(), status=ParseStatus.FAILED, copied=found.copied)
    return Reading(
        labels=(),
        status=ParseStatus.OK,
        method=ParseMethod.DECLARED,
        span=found.span,
        score=found.score,
        copied=found.copied,
    )
