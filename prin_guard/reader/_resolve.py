"""The resolver: turns evidence into the leg's result (labels, status, method, span), and
a list of per-candidate statuses into the leg's answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import filterfalse

from prin_guard.models import ParseMethod, ParseStatus
from prin_guard.reader._evidence import _FAILED, ParseResult, _Context, _Reading, _Status, _union
from prin_guard.reader._text import _ordered


def _result(
    reading: _Reading, method: ParseMethod, ctx: _Context, *, empty: ParseMethod | None = None
) -> ParseResult:
    """The result of a reading; ``empty``: the method when it names nothing."""
    if reading.void:
        return _FAILED
    if reading.disagrees:
        return ParseResult((), ParseStatus.FAILED, None, disagreement=True)
    span = reading.span if reading.span and reading.span[0] < reading.span[1] else None
    if reading.inverted:
        labels = tuple(filterfalse(reading.labels.__contains__, ctx.labels))
    else:
        labels = _ordered(reading.labels, ctx.labels)
    if ctx.pair and (not labels or len(labels) == len(ctx.labels)):
        # a tie: both responses are the best, neither is the worse
        labels = tuple(ctx.labels) if ctx.leg >= 0 else ()
    if not labels:
        return ParseResult((), ParseStatus.NONE, empty or method, span=span, weak=reading.weak)
    return ParseResult(labels, ParseStatus.OK, method, span=span, weak=reading.weak)


def _joint_result(
    readings: Sequence[_Reading], method: ParseMethod, ctx: _Context, *, weak: bool = False
) -> ParseResult:
    """The labels of readings from several places; a span only when they are one place.
    ``weak``: the places are weak cues whatever each says."""
    if any(reading.disagrees for reading in readings):
        return ParseResult((), ParseStatus.FAILED, None, disagreement=True)
    if any(reading.void for reading in readings):
        return _FAILED
    labels, inverted = _union(readings)
    spans = {reading.span for reading in readings if reading.names_some} or {
        reading.span for reading in readings
    }
    span = spans.pop() if len(spans) == 1 else None
    weak = weak or any(reading.weak for reading in readings)
    joint = _Reading(labels, span, inverted, weak=weak)
    return _result(joint, method, ctx, empty=ParseMethod.NONE_WORD)


def _resolve(statuses: Sequence[_Status], ctx: _Context) -> _Reading | bool:
    """The leg's answer from candidates' statuses: the last status of each candidate
    stands; the answer is those whose status is the leg's. True: the statuses only
    answer the other question; False: nothing to read (a pair without both scores,
    statuses of both signs without a polarity)."""
    ordered = sorted(statuses, key=lambda status: status.at)
    if ctx.pair:
        scores = {s.label: (s.score, s.span) for s in ordered if s.score is not None and s.label}
        if len(scores) != 2 or len(ctx.labels) != 2:
            return False
        given = {(s.label, s.score) for s in ordered if s.score is not None and s.label}
        if len(given) != len(scores):
            return False  # a response given two different scores
        (a, (a_score, a_span)), (b, (b_score, b_span)) = (
            (label, scores[label]) for label in ctx.labels
        )
        if a_score == b_score:
            return _Reading(frozenset(), None)  # a tie
        winner, loser = (
            ((a, a_span), (b, b_span)) if a_score > b_score else ((b, b_span), (a, a_span))
        )
        label, span = winner if ctx.leg >= 0 else loser
        return _Reading(frozenset({label}), span)
    last: dict[str, _Status] = {}
    rest: _Status | None = None
    for status in ordered:
        if status.score is not None:
            continue
        if status.label is None:
            rest = status
        else:
            last[status.label] = status
    leg = ctx.leg
    if not leg:
        signs = {status.sign for status in last.values()} | ({rest.sign} if rest else set())
        if len(signs) != 1:
            return False
        leg = signs.pop()
    chosen = [status for status in last.values() if status.sign == leg]
    weak = any(status.weak for status in last.values()) or (rest is not None and rest.weak)
    if rest is not None and rest.sign == leg:
        # every candidate but those stated otherwise, kept as the labels left out
        excluded = frozenset(label for label, status in last.items() if status.sign != leg)
        spans = {rest.span, *(status.span for status in chosen)}
        span = spans.pop() if len(spans) == 1 else None
        return _Reading(excluded, span, inverted=True, weak=weak)
    if chosen:
        spans = {status.span for status in chosen}
        return _Reading(
            frozenset(status.label for status in chosen if status.label),
            spans.pop() if len(spans) == 1 else None,
            weak=weak,
        )
    if len(last) == len(ctx.labels) or (
        rest is not None and all(status.structured for status in last.values())
    ):
        # every candidate the other side ("A is correct. B is correct. C is correct." on
        # the reverse leg): none; a reply that leaves some without a side answers nothing
        return _Reading(frozenset(), None, weak=weak)
    return True


def _accounted(
    result: ParseResult,
    mentions: Sequence[tuple[str, int]],
    sides: Sequence[tuple[str, int]],
    ctx: _Context,
) -> ParseResult:
    """Every mention accounted for: a set task's reading stands confident only when every
    candidate its concluding part mentions has a side there that agrees with it.

    ``mentions``: the candidates the concluding part names (a label or a candidate's
    text) outside the answer read, with where; ``sides``: the sides that statements in
    that part give candidates (+1 the direct question's, -1 the reverse's: "B is
    incorrect", "C ✅", "Note: B and D are wrong"). A side that contradicts the reading
    (a candidate read as this leg's answer and stated on the other side, or the other
    way round) fails the leg; a mention no statement explains ("Note: B and D were
    close") makes it weak: the reply says something of that candidate the reader cannot
    place. A pair is exempt: its one answer places the other response."""
    if ctx.pair or not ctx.leg or result.status is ParseStatus.FAILED:
        return result
    named = frozenset(result.labels)
    placed: set[str] = set()
    for label, sign in sides:
        if (sign == ctx.leg) != (label in named):
            return _FAILED  # "Answer: C, D. Note: C is wrong."
        placed.add(label)
    if result.weak or all(label in placed for label, _ in mentions):
        return result
    return ParseResult(
        result.labels,
        result.status,
        result.method,
        result.echoed,
        result.span,
        result.disagreement,
        result.copied,
        weak=True,
    )
