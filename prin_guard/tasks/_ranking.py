"""The ranking task: three to twenty responses to one question, ranked from the best to the
worst, guarded (issue 40). Its item model is :class:`~prin_guard.models.RankingItem`.

**The legs.** The direct leg asks for the ranking from the best to the worst, the reverse
leg from the worst to the best; both show the question, the context and the responses
first and end with their own instruction, so the two prompts share everything but their
last paragraph; where the judge's provider caches prompt prefixes, the reverse leg of each
order goes once the direct one has begun answering (``stagger``), so that the provider's
cache serves it the shared part. Orders after the first show the responses in another
order: they share little with the first (its price is each order's full prompt).

A consistent judge's reverse ranking is its direct ranking upside down: the verdict
compares the direct ranking with the reverse one reversed (Kendall's tau-b, and the
normalised Kendall distance as the PRIN-like score) and reconciles them into their Kemeny
consensus (``_decide``, :func:`~prin_guard._route._decide.ranking_verdict`). The cheap best-of-n
mode (``ranking_mode="best"``) asks only which response is the best and which the worst.

**Orders.** With the order check (or ``ranking_orders``) each leg is asked again with the
responses in other orders, balanced so that each response stands in each position about
equally often (a Williams design, :func:`~prin_guard._ranking.balanced_orders`); the
responses are labelled by position (the judge sees A, B, C, ... in the order shown) and
the rankings mapped back. The swap check asks only the direct leg in the other orders.
``ranking_adaptive`` asks the orders after the first two one at a time and stops once two
orders' direct rankings agree (:func:`~prin_guard._ranking.orders_agree`).

**Long lists.** A list longer than ``ranking_window`` is ranked by RankGPT's sliding window
(Sun et al. 2023): the window covers the last ``window`` responses of the list in its
current order, is ranked and put back in place, and moves up half a window at a time until
it covers the first; each pass of the direct leg carries the better responses up, each
pass of the reverse leg (its list worst first) the worse ones. A windowed leg is several
calls in turn, each depending on the one before: only its first window's call is planned
(and listed by ``Guard.cache_keys``); the others are asked, and cached, as they come. A
windowed ranking has no ties.

**Reading.** Each reply is read by :func:`~prin_guard.reader._ranking.read_ranking`:
strictly (every shown label exactly once, or the leg is unread), the item's texts that
the reply copies blanked first. A best-of-n reply is read for one bracket tag (``[[B]]``)
or a "Best: B" / "Worst: B" line; several different ones are no answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop_if
from prin_guard._prompting._contract import Ordering, Ranked, Tag
from prin_guard._prompting._prompts import Template, get_template
from prin_guard._prompting._wording import fields_of
from prin_guard._ranking import Ranking, balanced_orders, orders_agree
from prin_guard._route._decide import error_verdict, ranking_verdict, tournament_verdict
from prin_guard._route._judging import VerdictEngine
from prin_guard._route._legs import LegPlan, LegPrompt, shared_prefix
from prin_guard.calls import Answer, Call, JudgeCaller
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.judges import SharedPrefix
from prin_guard.models import (
    RANKING_MAX_CANDIDATES,
    Item,
    Leg,
    Message,
    ParseMethod,
    ParseStatus,
    Polarity,
    RankingItem,
    Usage,
    Verdict,
)
from prin_guard.reader._ranking import FORMS, read_ranking
from prin_guard.tasks._labels import LABEL_TASKS

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard._route._options import GuardOptions
    from prin_guard.errors import JudgeError

__all__ = [
    "RANKING",
    "RANKING_BEST_TEMPLATE",
    "RANKING_FIELDS",
    "RANKING_TEMPLATE",
    "RANKING_TEMPLATE_VERSION",
    "PairPlan",
    "RankingPlan",
    "RankingTask",
    "check_ranking_template",
    "leg_form",
    "ranking_calls",
    "ranking_messages",
    "ranking_plans",
    "ranking_template",
    "read_pick",
    "window_calls",
    "window_starts",
    "window_sweeps",
]

RANKING_TEMPLATE = "ranking"
"""The wording of a full ranking's legs (best to worst, worst to best)."""
RANKING_BEST_TEMPLATE = "ranking-best"
"""The wording of the best-of-n legs (which is the best, which is the worst)."""
RANKING_TEMPLATE_VERSION = 1
"""Version of both wordings (the words are in the messages, which key each call)."""

_SYSTEM = "You are a helpful assistant."

_JUDGE = (
    "Please act as an impartial judge and evaluate the {count} responses above, given by AI "
    "assistants to the user question shown above. Consider factors such as the helpfulness, "
    "relevance, accuracy, depth, creativity and level of detail of each response. Do not let "
    "the order in which the responses are shown, their length or their labels influence "
    "you, and be as objective as possible. Begin with a short explanation."
)
_FULL = {
    Polarity.DIRECT: (
        " Then rank all {count} responses from the best to the worst. End your reply with "
        'one line of its own in exactly this form: "Ranking from best to worst: <label>, '
        '<label>, ...", naming every response ({labels}) exactly once by its label, the '
        'best first, separated by commas; put "=" between responses that are exactly '
        "equally good."
    ),
    Polarity.REVERSE: (
        " Then rank all {count} responses from the worst to the best. End your reply with "
        'one line of its own in exactly this form: "Ranking from worst to best: <label>, '
        '<label>, ...", naming every response ({labels}) exactly once by its label, the '
        'worst first, separated by commas; put "=" between responses that are exactly '
        "equally good. Note that this ranking starts with the worst response and ends "
        "with the best one."
    ),
}
_BEST = {
    Polarity.DIRECT: (
        " Then decide which response is the best. End your reply with one line of its own "
        'in exactly this form: "Best: [[<label>]]", naming the one best response by its '
        "label ({labels})."
    ),
    Polarity.REVERSE: (
        " Then decide which response is the worst. End your reply with one line of its own "
        'in exactly this form: "Worst: [[<label>]]", naming the one worst response by its '
        "label ({labels})."
    ),
}


def _shown_labels(
    item: RankingItem, count: int, template: Template | None = None
) -> tuple[str, ...]:
    """The labels a prompt showing ``count`` responses gives them, by position: the
    item's letters (A, B, C, ...), or 1, 2, 3, ... for a template whose ``values`` say
    ``label_kind = "numbers"``."""
    if template is not None and dict(template.values).get("label_kind") == "numbers":
        return tuple(str(number) for number in range(1, count + 1))
    return item.labels[:count]


# -- ranking templates (packs) --------------------------------------------------------------

RANKING_FIELDS: dict[str, str] = {
    "question": "the item's question",
    "context": "the item's context (empty when it has none)",
    "count": "how many responses the prompt shows, in digits (3)",
    "count_words": "how many responses the prompt shows, in words (three)",
    "labels": "the shown responses' labels, comma-separated",
    "responses": "every shown response by candidate_format, separated by a blank line",
}
"""The placeholders a ranking template's texts may use (through its ``placeholders`` too)."""

_RANKING_VALUES = ("label_kind", "reverse_form", "intro", "intro_reply", "response_reply")
"""What a ranking template's ``values`` may hold: ``label_kind`` (``letters``, the default,
or ``numbers``), ``reverse_form`` (the ranking form its reverse leg asks for; default
``headed-list``), and for a conversation (RankGPT's) ``intro`` (the first user turn),
``intro_reply`` (the assistant's answer to it) and ``response_reply`` (the assistant's turn
after each response's user turn, ``{label}`` its label)."""

_NUMBER_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)


def _ranking_names(template: Template) -> dict[str, str]:
    """The field each placeholder name of ``template`` stands for."""
    names = {name: name for name in RANKING_FIELDS}
    names.update(dict(template.placeholders))
    return names


def _ranking_texts(template: Template) -> list[tuple[str, str]]:
    values = dict(template.values)
    texts = [
        (name, text)
        for name in ("system", "instruction", "reverse_system", "reverse_instruction")
        if isinstance(text := getattr(template, name), str)
    ]
    texts += [(f"values.{name}", values[name]) for name in ("intro",) if name in values]
    return texts


@functools.lru_cache(maxsize=64)
def check_ranking_template(template: Template) -> None:
    """A UsageError naming the field when ``template`` cannot ask rankings: its task is not
    ``ranking``; it has no instruction or no reverse_instruction (a ranking's reverse leg
    is written out: "worst to best" is no word flip); a placeholder is no ranking field
    (:data:`RANKING_FIELDS`); it never shows the question or the responses; its
    candidate_format or values are not a ranking's; its contract declares no ranking
    format (:class:`~prin_guard.models.Ranked`, an ordering or bracket tags)."""
    if template.task != "ranking":
        raise UsageError(
            f"template: the template {template.id!r} asks {template.task} questions, not "
            "rankings: rank under a ranking template (llmzoo-order, rankgpt) or none"
        )
    if template.instruction is None:
        raise UsageError(
            f"template: instruction: the ranking template {template.id!r} gives no text: it "
            "only declares how a recorded ranking is read; a guard asks in a template's text"
        )
    if template.reverse_instruction is None:
        raise UsageError(
            "template: reverse_instruction: a ranking template writes its reverse leg out "
            "(from the worst to the best): no word flip turns a ranking around"
        )
    if template.flips:
        raise UsageError("template: flips: a ranking template writes its reverse leg out")
    values = dict(template.values)
    unknown = sorted(set(values) - set(_RANKING_VALUES))
    if unknown:
        raise UsageError(
            f"template: values: {unknown[0]!r} is not a ranking template's; they are "
            f"{', '.join(_RANKING_VALUES)}"
        )
    if values.get("label_kind", "letters") not in ("letters", "numbers"):
        raise UsageError("template: values.label_kind: letters or numbers")
    conversation = [name for name in ("intro", "intro_reply", "response_reply") if name in values]
    if conversation and len(conversation) != 3:
        raise UsageError(
            "template: values: a conversation gives intro, intro_reply and response_reply"
        )
    if values.get("reverse_form", "headed-list") not in FORMS:
        raise UsageError(f"template: values.reverse_form: one of {', '.join(FORMS)}")
    names = _ranking_names(template)
    for own, field in template.placeholders:
        if field not in RANKING_FIELDS:
            raise UsageError(
                f"template: placeholders: {own} stands for {field!r}, which is no ranking "
                f"field; the fields are {', '.join(RANKING_FIELDS)}"
            )
    used: set[str] = set()
    for where, text in _ranking_texts(template):
        for name in fields_of(text, where):
            if name not in names:
                raise UsageError(
                    f"template: {where}: unknown placeholder {{{name}}}; a ranking's fields "
                    f"are {', '.join(RANKING_FIELDS)} (or name yours in placeholders)"
                )
            used.add(names[name])
    if "question" not in used:
        raise UsageError("template: instruction: a ranking prompt must show {question}")
    if "responses" not in used and not conversation:
        raise UsageError(
            "template: instruction: the prompt never shows the responses: use {responses} "
            "(or a conversation: values intro, intro_reply, response_reply)"
        )
    format_fields = set(fields_of(template.candidate_format, "candidate_format"))
    if not format_fields <= {"label", "text"} or "text" not in format_fields:
        raise UsageError("template: candidate_format: use {label} and {text} only, {text} at least")
    if conversation and set(fields_of(values["response_reply"], "values.response_reply")) - {
        "label"
    }:
        raise UsageError("template: values.response_reply: use {label} only")
    if template.contract is None or not isinstance(
        template.contract.format, Ranked | Ordering | Tag
    ):
        raise UsageError(
            "template: contract.format: a ranking template declares the form its direct "
            'leg asks for: { kind = "ranking", form = "ordering" } (or identifiers, '
            "json-list, json-ranks, numbered, tags, headed-list)"
        )
    if template.contract.labels is not None:
        raise UsageError(
            "template: contract.labels: a ranking shows 3 to 20 responses: say how they are "
            'labelled with values.label_kind ("letters" or "numbers"), not a fixed list'
        )


def ranking_template(template: str | Template | None) -> Template | None:
    """The ranking template a guard's ``template`` option names (checked), or ``None``."""
    if template is None:
        return None
    chosen = get_template(template)
    check_ranking_template(chosen)
    return chosen


def _direct_form(template: Template) -> str:
    declared = template.contract.format if template.contract is not None else None
    if isinstance(declared, Ranked):
        return declared.reader_form
    return "tags" if isinstance(declared, Tag) else "ordering"


def leg_form(template: Template | None, polarity: Polarity) -> str:
    """The ranking form a leg's reply is read in first: prin-guard's own legs ask for a
    headed list ("Ranking from best to worst: B, A = C"); a template's direct leg for the
    form its contract declares, its reverse leg for ``values.reverse_form``."""
    if template is None:
        return "headed-list"
    if polarity is Polarity.DIRECT:
        return _direct_form(template)
    return dict(template.values).get("reverse_form", "headed-list")


def _template_messages(
    item: RankingItem,
    polarity: Polarity,
    indexes: Sequence[int],
    labels: Sequence[str],
    template: Template,
) -> list[Message]:
    """A leg's conversation in ``template``'s words (see :func:`ranking_messages`)."""
    check_ranking_template(template)
    texts = {
        label: template.candidate_format.format(label=label, text=item.candidates[index].text)
        for label, index in zip(labels, indexes, strict=True)
    }
    count = len(indexes)
    fields = {
        "question": item.question,
        "context": item.context or "",
        "count": str(count),
        "count_words": _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count),
        "labels": ", ".join(labels),
        "responses": "\n\n".join(texts.values()),
    }
    values = {own: fields[field] for own, field in _ranking_names(template).items()}

    def filled(text: str) -> str:
        return text.format_map(values)

    if polarity is Polarity.DIRECT:
        system, instruction = template.system, template.instruction
    else:
        system = template.reverse_system if template.reverse_system is not None else template.system
        instruction = template.reverse_instruction
    assert instruction is not None  # check_ranking_template
    messages: list[Message] = []
    if system is not None:
        messages.append({"role": "system", "content": filled(system)})
    extra = dict(template.values)
    if "intro" in extra:  # a conversation: each response a turn of its own (RankGPT)
        messages.append({"role": "user", "content": filled(extra["intro"])})
        messages.append({"role": "assistant", "content": extra["intro_reply"]})
        for label, text in texts.items():
            messages.append({"role": "user", "content": text})
            reply = extra["response_reply"].format(label=label)
            messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": filled(instruction)})
    return messages


def _check_item(item: RankingItem, template: Template | None) -> None:
    """An item whose context the template never shows is refused (naming ``context``):
    a judge that is not shown it would rank without it."""
    if template is None or not item.context:
        return
    names = _ranking_names(template)
    shown = {
        names.get(name)
        for where, text in _ranking_texts(template)
        for name in fields_of(text, where)
    }
    if "context" not in shown:
        raise InvalidItemError(
            "context",
            f"the ranking template {template.id!r} never shows a context: judge this item "
            "without a template, or under one that shows {context}",
        )


def ranking_messages(
    item: RankingItem,
    polarity: Polarity,
    shown: Sequence[int] | None = None,
    *,
    mode: str = "full",
    template: Template | None = None,
) -> list[Message]:
    """The conversation of one leg of ``item``: the question, the context and the
    responses ``shown`` (the candidates' indexes, first shown first; all of them in the
    item's order when ``None``), each labelled by its position (A, B, C, ...), then the
    leg's instruction: rank from the best to the worst (``direct``) or from the worst to
    the best (``reverse``); with ``mode="best"``, which is the best (the worst).

    With a ranking ``template`` (a pack such as ``llmzoo-order`` or ``rankgpt``), the
    template's words: its system message, then its instruction (``reverse_instruction``
    on the reverse leg) with the ranking's fields filled (:data:`RANKING_FIELDS`), or its
    conversation (``values.intro``, each response a user turn answered by
    ``values.response_reply``, then the instruction); labels 1, 2, 3, ... where its
    ``values.label_kind`` is ``numbers``."""
    indexes = list(range(len(item.candidates))) if shown is None else list(shown)
    labels = _shown_labels(item, len(indexes), template)
    if template is not None:
        if mode != "full":
            raise UsageError("ranking_mode: a ranking template asks full rankings, not best-of-n")
        _check_item(item, template)
        return _template_messages(item, polarity, indexes, labels, template)
    parts = [f"[Question]\n{item.question}"]
    if item.context:
        parts.append(f"[Context]\n{item.context}")
    for label, index in zip(labels, indexes, strict=True):
        text = item.candidates[index].text
        parts.append(f"[The Start of Response {label}]\n{text}\n[The End of Response {label}]")
    words = (_BEST if mode == "best" else _FULL)[polarity]
    instruction = (_JUDGE + words).format(count=len(indexes), labels=", ".join(labels))
    parts.append(f"[Instruction]\n{instruction}")
    return [
        {"role": "system", "content": _SYSTEM},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


# -- the sliding window ---------------------------------------------------------------------


def window_starts(count: int, window: int) -> list[int]:
    """Where each window of one sweep starts over a list of ``count`` responses: the last
    ``window`` first, then half a window (at least one) further up each time, the last
    at the top. One window, at 0, when the list fits in one."""
    if count <= window:
        return [0]
    step = max(1, window // 2)
    starts = [count - window]
    while starts[-1] > 0:
        starts.append(max(0, starts[-1] - step))
    return starts


def window_sweeps(count: int, window: int) -> list[list[int]]:
    """The windows a leg of ``count`` responses is ranked in, sweep after sweep, each
    sweep the starts of :func:`window_starts` over the part of the list not yet settled.
    One sweep from the bottom up carries the best half window to the top (RankGPT's
    pass); the next leaves that half window out, until one window holds all that is
    left. The leg stops early after a sweep that moves nothing (overlapping windows each
    in the judge's order: the whole list is in its order)."""
    step = max(1, window // 2)
    sweeps: list[list[int]] = []
    settled = 0
    while True:
        sweeps.append([settled + start for start in window_starts(count - settled, window)])
        if count - settled <= window:
            return sweeps
        settled += step


def window_calls(count: int, window: int) -> int:
    """The most calls a windowed leg of ``count`` responses makes."""
    return sum(len(sweep) for sweep in window_sweeps(count, window))


# -- planning -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankingPlan:
    """One leg of a ranking in one order, planned: its first call's conversation and
    cache key (a windowed leg's later calls depend on the replies before them)."""

    key: str
    messages: list[Message]
    polarity: Polarity
    order: tuple[int, ...]
    """The candidates' indexes in the order shown, first first (the whole list: a
    windowed leg shows a window of it at a time)."""
    number: int = 0
    """Which order: 0 the one given, then the balanced design's rows."""
    member: int = 0
    windows: int = 1
    """Calls the leg makes: the sliding window's passes (1: the list fits in one)."""


def _mode(options: GuardOptions) -> str:
    return options.ranking_mode


def _template(options: GuardOptions) -> Template | None:
    """The ranking template the options name (None: prin-guard's own wording)."""
    chosen = options.template
    return ranking_template(chosen) if isinstance(chosen, str | Template) else None


def _order_polarities(options: GuardOptions) -> tuple[Polarity, ...]:
    """Which legs are asked in the orders after the first: the swap check's direct leg
    alone, else both."""
    second = options.second_order("ranking")
    return second if second else (Polarity.DIRECT, Polarity.REVERSE)


def _window(item: RankingItem, options: GuardOptions) -> int | None:
    """The sliding window's size for ``item``, ``None`` when it is asked whole."""
    if options.ranking_mode == "best" or len(item.candidates) <= options.ranking_window:
        return None
    return options.ranking_window


def ranking_plans(
    callers: Sequence[JudgeCaller], item: RankingItem, options: GuardOptions
) -> list[RankingPlan]:
    """Every leg the guard asks of ``item``, in every order, with its first call's cache
    key: the direct and the reverse leg in the order given, then each further order's
    legs (both, or the direct one with the swap check)."""
    count = len(item.candidates)
    orders = balanced_orders(count, options.ranking_order_count())
    window = _window(item, options)
    passes = window_calls(count, window) if window is not None else 1
    plans: list[RankingPlan] = []
    for member, caller in enumerate(callers):
        for number, order in enumerate(orders):
            asked = (Polarity.DIRECT, Polarity.REVERSE) if number == 0 else None
            for polarity in asked or _order_polarities(options):
                first = order[window_starts(count, window)[0] :] if window else order
                messages = ranking_messages(
                    item, polarity, first, mode=_mode(options), template=_template(options)
                )
                plans.append(
                    RankingPlan(
                        caller.conversation_key(messages),
                        messages,
                        polarity,
                        tuple(order),
                        number,
                        member,
                        passes,
                    )
                )
    return plans


# -- the pairwise tournament ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairPlan:
    """One leg of the tournament's pairwise verdict on two of the responses."""

    pair: tuple[int, int]
    """The two responses' indexes, the first shown as A in the pair's first order."""
    plan: LegPlan

    @property
    def key(self) -> str:
        return self.plan.key

    @property
    def polarity(self) -> Polarity:
        return self.plan.polarity


def _pair_engine(engine: VerdictEngine) -> VerdictEngine:
    """The engine that asks the tournament's pairs: the guard's judge, the pairwise
    task's template, the reverse and the order check (both orders of every pair)."""
    options = engine.options.model_copy(update={"checks": ("reverse", "order")})
    return VerdictEngine(engine.callers, engine.asker, options, None)


def _pair_item(item: RankingItem, first: int, second: int) -> Item:
    candidates = item.candidates
    return Item.coerce(
        {
            "task": "pairwise",
            "question": item.question,
            "candidates": [candidates[first].text, candidates[second].text],
            **({"context": item.context} if item.context else {}),
        }
    )


def _pair_plans(engine: VerdictEngine, item: RankingItem) -> list[PairPlan]:
    pairs = _pair_engine(engine)
    count = len(item.candidates)
    return [
        PairPlan((first, second), plan)
        for first in range(count)
        for second in range(first + 1, count)
        for plan in pairs.plan(_pair_item(item, first, second))
    ]


async def _tournament(
    engine: VerdictEngine,
    item: RankingItem,
    plans: Sequence[PairPlan],
    prefetched: Mapping[str, str | None],
) -> list[tuple[str, str, Verdict]]:
    """Every pair's pairwise verdict, asked by the route's label machinery."""
    pairs = _pair_engine(engine)
    by_pair: dict[tuple[int, int], list[LegPlan]] = {}
    for plan in plans:
        by_pair.setdefault(plan.pair, []).append(plan.plan)
    verdicts = await asyncio.gather(
        *(
            pairs.ask_labels(_pair_item(item, first, second), legs, prefetched)
            for (first, second), legs in by_pair.items()
        )
    )
    labels = item.labels
    return [
        (labels[first], labels[second], verdict)
        for (first, second), verdict in zip(by_pair, verdicts, strict=True)
    ]


# -- reading --------------------------------------------------------------------------------

_PICK_TAG = re.compile(r"\[\[\s*([A-Za-z0-9]{1,4})\s*\]\]")
_PICK_LINE = re.compile(
    r"^[\s*#_`>-]*(?:the\s+)?(?P<word>best|worst)(?:\s+response)?\s*[:\-]\s*[*_`]*\s*"
    r"(?:response\s+)?\(?\[{0,2}\s*(?P<label>[A-Za-z0-9]{1,4})\s*\]{0,2}\)?[\s*_`.]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _blanked(reply: str, echo: Sequence[str]) -> str:
    """``reply`` with exact copies (8 characters or more) of the item's texts blanked."""
    out = reply
    for text in sorted(echo, key=len, reverse=True):
        for piece in (text, *text.splitlines()):
            piece = piece.strip()
            if len(piece) >= 8:
                out = out.replace(piece, " " * len(piece))
    return out


def read_pick(
    reply: str, labels: Sequence[str], polarity: Polarity, *, echo: Sequence[str] = ()
) -> tuple[str | None, str | None]:
    """The one response a best-of-n reply names (the best on the direct leg, the worst on
    the reverse one), among ``labels`` (as shown), and why none was read: the bracket tags
    (``[[B]]``) it writes, all naming the same label, else its last "Best: B" ("Worst:
    B") line; a tag or line that names no label, or two different labels, is no answer."""
    text = _blanked(reply, echo)
    by_upper = {label.upper(): label for label in labels}
    tags = [match.group(1).upper() for match in _PICK_TAG.finditer(text)]
    if tags:
        named = set(tags)
        if not named <= set(by_upper):
            return None, f"a tag names {sorted(named - set(by_upper))[0]!r}, not a label"
        if len(named) > 1:
            return None, f"tags name several responses ({', '.join(sorted(named))})"
        return by_upper[tags[0]], None
    word = "best" if polarity is Polarity.DIRECT else "worst"
    lines = [m for m in _PICK_LINE.finditer(text) if m.group("word").lower() == word]
    if not lines:
        return None, f'no "[[label]]" and no "{word.capitalize()}: label" line'
    named = {m.group("label").upper() for m in lines}
    if len(named) > 1 or not named <= set(by_upper):
        return None, f"the {word} lines name {', '.join(sorted(named))}"
    return by_upper[lines[-1].group("label").upper()], None


# -- asking ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Asked:
    leg: Leg
    answers: list[Answer]
    ranking: Ranking | None
    """The leg's ranking, best first (None: unread, or best-of-n)."""


def _reading(
    item: RankingItem,
    reply: str,
    shown: Sequence[int],
    polarity: Polarity,
    mode: str,
    template: Template | None = None,
) -> tuple[tuple[tuple[int, ...], ...] | None, bool]:
    """A reply read: the tiers of candidate indexes as listed (best-of-n: one tier of
    the pick), or ``None``: unread; and whether a ranking stood in a copy of the item's
    text (not read). The leg's form (:func:`leg_form`) is read first."""
    labels = _shown_labels(item, len(shown), template)
    index_of = dict(zip(labels, shown, strict=True))
    if mode == "best":
        pick, _why = read_pick(reply, labels, polarity, echo=item.texts)
        return (None if pick is None else ((index_of[pick],),)), False
    found = read_ranking(reply, labels, echo=item.texts, form=leg_form(template, polarity))
    if found.ranking is None:
        return None, found.copied
    return tuple(tuple(index_of[label] for label in tier) for tier in found.ranking), found.copied


async def _ask(
    caller: JudgeCaller,
    item: RankingItem,
    plan: RankingPlan,
    prefetched: Mapping[str, str | None],
    options: GuardOptions,
    prefix: SharedPrefix | None = None,
) -> _Asked:
    """One leg asked and read: one call, or the sliding window's calls in turn (``prefix``:
    what its first call shares with the other leg of its order, when staggered)."""
    mode = _mode(options)
    template = _template(options)
    window = _window(item, options)
    purpose = plan.polarity.value if plan.number == 0 else f"{plan.polarity.value}_order"
    answers: list[Answer] = []
    replies: list[str] = []
    where: list[tuple[int, int]] = []
    copied: list[bool] = []

    async def asked(shown: Sequence[int]) -> tuple[tuple[int, ...], ...] | None:
        shared = None
        if not answers:  # the planned call
            key, messages, shared = plan.key, plan.messages, prefix
        else:
            messages = ranking_messages(item, plan.polarity, shown, mode=mode, template=template)
            key = caller.conversation_key(messages)
        call = Call(key, messages, (), item.key, purpose, prefix=shared)
        answer = await caller.answer(call, prefetched=prefetched)
        answers.append(answer)
        reply = answer.response.text or ""
        replies.append(reply)
        read = functools.partial(_reading, item, reply, shown, plan.polarity, mode, template)
        found, copy = await off_loop_if(len(reply) > OFF_LOOP_CHARS, read)
        copied.append(copy)
        return found

    tiers: tuple[tuple[int, ...], ...] | None
    if window is None:
        tiers = await asked(plan.order)
    else:
        listed: list[int] | None = list(plan.order)  # best first (the reverse leg: worst)
        for sweep in window_sweeps(len(plan.order), window):
            changed = False
            for start in sweep:
                assert listed is not None
                shown = listed[start : start + window]
                where.append((start, start + len(shown)))
                found = await asked(shown)
                if found is None:
                    listed = None  # an unread window: the leg is unread; no call more on it
                    break
                ordered = [index for tier in found for index in tier]
                changed = changed or ordered != shown
                listed[start : start + len(shown)] = ordered
            if listed is None or not changed:
                break
        tiers = None if listed is None else tuple((index,) for index in listed)
    ranking: Ranking | None = None
    labels: tuple[str, ...] = ()
    if tiers is not None:
        named = tuple(tuple(item.labels[index] for index in tier) for tier in tiers)
        if mode == "best":
            labels = named[0]
        else:
            ranking = named
    raw = replies[0] if len(replies) == 1 else _joined_replies(replies, where)
    identity = tuple(range(len(item.candidates)))
    leg = Leg(
        polarity=plan.polarity,
        template=(
            template.id
            if template is not None
            else RANKING_BEST_TEMPLATE
            if mode == "best"
            else RANKING_TEMPLATE
        ),
        template_version=template.version if template is not None else RANKING_TEMPLATE_VERSION,
        raw_text=raw if any(answer.response.text is not None for answer in answers) else None,
        labels=labels,
        parse_status=ParseStatus.OK if tiers is not None else ParseStatus.FAILED,
        parse_method=ParseMethod.DECLARED if tiers is not None else None,
        latency_ms=sum(answer.latency_ms for answer in answers),
        usage=_summed([answer.response.usage for answer in answers]),
        cached=all(answer.cached for answer in answers),
        copied=any(copied),
        order=None if plan.order == identity else tuple(item.labels[i] for i in plan.order),
        ranking=ranking,
    )
    best_first = None
    if ranking is not None:
        best_first = ranking if plan.polarity is Polarity.DIRECT else tuple(reversed(ranking))
    return _Asked(leg, answers, best_first)


def _joined_replies(replies: Sequence[str], where: Sequence[tuple[int, int]]) -> str:
    """A windowed leg's replies in one text, each under the window it answers."""
    return "\n\n".join(
        f"--- window {number + 1} of {len(replies)}: positions {start + 1}-{end} ---\n{reply}"
        for number, ((start, end), reply) in enumerate(zip(where, replies, strict=True))
    )


def _summed(usages: Sequence[Usage | None]) -> Usage | None:
    if len(usages) == 1:
        return usages[0]
    if any(usage is None for usage in usages):
        return None
    return sum((usage for usage in usages if usage is not None), Usage.zero())


def _agreed(asked: Sequence[_Asked], mode: str) -> bool:
    """Whether two orders' direct legs agree (adaptive stopping)."""
    direct = [one for one in asked if one.leg.polarity is Polarity.DIRECT]
    if mode == "best":
        picks = [one.leg.labels for one in direct if one.leg.labels]
        return len(picks) != len(set(picks))
    read = [one.ranking for one in direct if one.ranking is not None]
    return len(read) > 1 and orders_agree(read) is not None


async def _order_asked(
    caller: JudgeCaller,
    item: RankingItem,
    plans: Sequence[RankingPlan],
    prefetched: Mapping[str, str | None],
    options: GuardOptions,
) -> list[_Asked]:
    """One order's legs: at once, or staggered where the judge's provider caches the
    prefix they share (the question, the context and the responses: all but the last
    paragraph) and neither is cached here: the direct leg first, the reverse leg once it
    has begun answering (its first token with a streaming judge, else after
    ``stagger_delay``), so that it reads the prefix from the provider's cache."""
    lead, rest = plans[0], plans[1:]
    prefix = shared_prefix([plan.messages for plan in plans])
    mode = None
    if (
        options.stagger == "auto"
        and prefix is not None
        and rest
        and prefetched.get(lead.key) is None
        and any(prefetched.get(plan.key) is None for plan in rest)
    ):
        mode = caller.prefix_caching(lead.messages, prefix)
    if mode is None or prefix is None:
        return list(
            await asyncio.gather(*(_ask(caller, item, plan, prefetched, options) for plan in plans))
        )
    loop = asyncio.get_running_loop()
    began = asyncio.Event()

    def started() -> None:  # the judge may call it from another thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(began.set)

    first_prefix = replace(prefix, started=started if mode == "stream" else None)

    async def first() -> _Asked:
        try:
            return await _ask(caller, item, lead, prefetched, options, first_prefix)
        finally:
            began.set()

    async def then(plan: RankingPlan) -> _Asked:
        if mode == "stream":
            await began.wait()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(began.wait(), options.stagger_delay)
        return await _ask(caller, item, plan, prefetched, options, prefix)

    return list(await asyncio.gather(first(), *(then(plan) for plan in rest)))


async def _listwise(
    engine: VerdictEngine,
    item: RankingItem,
    planned: Sequence[RankingPlan],
    prefetched: Mapping[str, str | None],
) -> Verdict:
    """The ranking's verdict from its listwise legs (see :meth:`RankingTask.ask`)."""
    options = engine.options
    caller = engine.callers[0]
    by_order: dict[int, list[RankingPlan]] = {}
    for plan in planned:
        by_order.setdefault(plan.number, []).append(plan)
    numbers = sorted(by_order)

    async def asked_in(orders: Sequence[int]) -> list[_Asked]:
        groups = await asyncio.gather(
            *(
                _order_asked(caller, item, by_order[number], prefetched, options)
                for number in orders
            )
        )
        return [one for group in groups for one in group]

    if options.ranking_adaptive and len(numbers) > 2:
        asked = await asked_in(numbers[:2])
        for number in numbers[2:]:
            if _agreed(asked, options.ranking_mode):
                break
            asked += await asked_in([number])
    else:
        asked = await asked_in(numbers)
    direct = [one.leg for one in asked if one.leg.polarity is Polarity.DIRECT]
    reverse = [one.leg for one in asked if one.leg.polarity is Polarity.REVERSE]
    calls = [(answer.response.usage, answer.cached) for one in asked for answer in one.answers]
    return ranking_verdict(
        item,
        direct,
        reverse,
        mode=options.ranking_mode,
        tolerance=options.ranking_tolerance,
        checks=options.checks_for("ranking"),
        calls=calls,
    )


# -- the task, as the route sees it ---------------------------------------------------------


class RankingTask:
    """The ranking task (see :mod:`prin_guard.tasks` for what each method is)."""

    name = "ranking"

    def __repr__(self) -> str:
        return "RankingTask()"

    def coerce(self, raw: Any, options: GuardOptions) -> RankingItem:
        return RankingItem.coerce(raw, max_chars=options.max_chars)

    def refuse(self, options: GuardOptions) -> None:
        if options.template is not None:
            if not isinstance(options.template, str | Template):
                raise UsageError(
                    "template: a rating prompt asks no rankings: rank under a ranking "
                    "template (llmzoo-order, rankgpt) or none (prin-guard's own wording)"
                )
            ranking_template(options.template)  # a UsageError naming the field
            if options.ranking_mode == "best":
                raise UsageError(
                    "ranking_mode: a ranking template asks full rankings; best-of-n is "
                    "asked in prin-guard's own wording (no template)"
                )
        if not set(options.checks_for("ranking")) <= {"reverse", "order", "swap"}:
            raise UsageError("checks: a ranking is guarded by the reverse, order and swap checks")
        if options.probe is not None:
            raise UsageError("probe: a ranking is not probed with follow-up questions")
        if options.mitigations:
            raise UsageError(
                "mitigations: a ranking's prompts have no cot or neg_exp wording (its "
                "reverse leg says what the reversed order means)"
            )
        if options.reask:
            raise UsageError("reask: an unread ranking leg is not asked again (it is flagged)")
        if options.reverse_legs != "always":
            raise UsageError("reverse_legs: a ranking asks every leg (reverse_legs='always')")

    def check(
        self, item: RankingItem, engine: VerdictEngine, acceptance: Acceptance | None
    ) -> None:
        if engine.names is not None:
            raise InvalidItemError(
                "task", "a ranking is judged by one judge (or tiers of one), not by a panel"
            )
        if acceptance is not None:
            acceptance.check_task("ranking")

    def key(self, item: RankingItem) -> str:
        return item.key

    def chars(self, item: RankingItem) -> int:
        return sum(len(text) for text in item.texts)

    def plan(self, engine: VerdictEngine, item: RankingItem) -> list[RankingPlan | PairPlan]:
        plans: list[RankingPlan | PairPlan] = list(
            ranking_plans(engine.callers, item, engine.options)
        )
        if engine.options.ranking_tournament:
            plans += _pair_plans(engine, item)
        return plans

    async def ask(
        self,
        engine: VerdictEngine,
        item: RankingItem,
        plans: Sequence[Any],
        prefetched: Mapping[str, str | None],
    ) -> Verdict:
        """Every planned leg asked (with ``ranking_adaptive``, the orders after the first
        two one at a time until two agree), read and reconciled; with the tournament, its
        pairs asked at the same time."""
        planned = [plan for plan in plans if isinstance(plan, RankingPlan)]
        pair_plans = [plan for plan in plans if isinstance(plan, PairPlan)]
        if not pair_plans:
            return await _listwise(engine, item, planned, prefetched)
        verdict, pairs = await asyncio.gather(
            _listwise(engine, item, planned, prefetched),
            _tournament(engine, item, pair_plans, prefetched),
        )
        return tournament_verdict(verdict, pairs)

    async def ask_leg(
        self,
        engine: VerdictEngine,
        item: RankingItem,
        plan: Any,
        prefetched: Mapping[str, str | None],
    ) -> Leg:
        asked = typing.cast(RankingPlan, plan)
        caller = engine.callers[asked.member]
        return (await _ask(caller, item, asked, prefetched, engine.options)).leg

    def failed(self, item: RankingItem, error: JudgeError, options: GuardOptions) -> Verdict:
        return error_verdict(item.key, "judge", str(error), item=item, options=options)

    def messages(
        self, engine: VerdictEngine, item: RankingItem, polarity: Polarity
    ) -> list[Message]:
        plan = next(
            plan
            for plan in ranking_plans(engine.callers[:1], item, engine.options)
            if plan.polarity is polarity
        )
        return plan.messages

    def prompts(self, engine: VerdictEngine, item: RankingItem) -> list[LegPrompt]:
        options = engine.options
        count = len(item.candidates)
        best = options.ranking_mode == "best"
        window = _window(item, options)
        template = _template(options)
        prompts = []
        for plan in ranking_plans(engine.callers[:1], item, options):
            name = plan.polarity.value + (f", order {plan.number + 1}" if plan.number else "")
            if best:
                word = "best" if plan.polarity is Polarity.DIRECT else "worst"
                reads = (
                    f'the {word} response: its bracket tag "[[X]]" (all tags the same '
                    f'label), else a "{word.capitalize()}: X" line; several different: none'
                )
            elif template is not None:
                form = leg_form(template, plan.polarity)
                who = (
                    "the reverse leg, listed worst first"
                    if plan.polarity is Polarity.REVERSE
                    else f"as {template.id} asks"
                )
                reads = (
                    f"the ranking in the {form} form first ({who}; every response shown "
                    "exactly once), else a ranking in another form; a label left out or "
                    "named twice, or two different rankings: unread"
                )
            else:
                way = "best to worst" if plan.polarity is Polarity.DIRECT else "worst to best"
                reads = (
                    f'the line "Ranking from {way}: ..." first (every response shown '
                    'exactly once, "=" a tie), else a ranking in another form (an ordering '
                    "line, numbered lines, bracket tags, JSON); a label left out or named "
                    "twice, or two different rankings: unread"
                )
            if window is not None:
                name += f", window 1 of {plan.windows}"
                reads += (
                    f"; the sliding window: {plan.windows} calls of {window} responses "
                    f"each (of {count}), the later ones built from the replies before"
                )
            order = None
            if plan.number:
                order = tuple(item.labels[index] for index in plan.order)
            prompts.append(LegPrompt(name, plan.polarity, plan.messages, reads, order))
        if options.ranking_tournament:
            pairs = _pair_engine(engine)
            for first in range(count):
                for second in range(first + 1, count):
                    asked = _pair_item(item, first, second)
                    tag = f"pair {item.labels[first]}-{item.labels[second]}"
                    for leg in LABEL_TASKS["pairwise"].prompts(pairs, asked):
                        prompts.append(replace(leg, name=f"{tag}: {leg.name}"))
        return prompts

    def max_calls(self, engine: VerdictEngine) -> int:
        """Each order's legs (both in the first; both, or the direct one with the swap
        check, in each other), each as many calls as the sliding window makes over the
        longest list a ranking holds; with the tournament, every pair's calls."""
        pair = 0
        if engine.options.ranking_tournament:  # both orders through the pairwise task
            pair = _pair_engine(engine).max_calls("pairwise")
        return ranking_calls(engine.options, callers=len(engine.callers), pair_calls=pair)


def ranking_calls(
    options: GuardOptions,
    count: int = RANKING_MAX_CANDIDATES,
    *,
    callers: int = 1,
    pair_calls: int = 0,
) -> int:
    """The most calls a ranking of ``count`` responses (default the most a ranking holds)
    makes: each order's legs (both in the first; both, or the direct one with the swap
    check, in each other), each as many calls as its sliding window makes, for each of
    ``callers``; with ``ranking_tournament``, ``pair_calls`` for each pair. What the
    service's budget reserves for a ranking item as sent."""
    orders = options.ranking_order_count()
    legs = 2 + (orders - 1) * len(_order_polarities(options))
    passes = 1
    if options.ranking_mode == "full" and count > options.ranking_window:
        passes = window_calls(count, options.ranking_window)
    pairs = count * (count - 1) // 2 * pair_calls if options.ranking_tournament else 0
    return legs * passes * callers + pairs


RANKING = RankingTask()
"""The ranking task."""
