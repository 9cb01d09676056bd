"""A reasoning's own whole-set conclusion in the question's words (issue 38, set E): "So
the prime numbers are 29, 37 and 2.", "So the cities that are national capitals are Paris
and Ottawa.", "Conclusion: The countries in South America are Peru and Chile.", "The
cities that are not capitals are B and D." names every candidate on one side. An answer
read after it that does not agree (the direct leg naming others, the reverse leg naming
one of the direct side's) is either the reasoning's or the answer's error, or the other
question's answer: no verdict."""

from __future__ import annotations

import functools
import re

from prin_guard.models import ParseStatus
from prin_guard.reader._answers import _named
from prin_guard.reader._evidence import ParseResult, _Context
from prin_guard.reader._own_sides import predicate_alone

_COP = r"(?:are|is|were|was)"
_AMONG = (
    r"(?:[^\S\n]+(?:here|listed|given|(?:in|on|from|among)[^\S\n]+(?:the|this|these|that)"
    r"[^\S\n]+(?:list|options|choices)))?"
)
_NEG = re.compile(
    r"(?<![\w-])(?:no|never|neither|nor|none|if|whether|unless|maybe|perhaps|might|except"
    r"|\w+n[’']t)(?![\w-])",
    re.IGNORECASE,
)
_NOT = re.compile(r"(?<![\w-])not(?![\w-])", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+")
_LEAD = re.compile(
    r"^\s*(?:(?:conclusion|summary)\s*:\s*)?"
    r"(?:(?:so|therefore|thus|hence|overall|in\s+(?:conclusion|summary|short))\s*,?\s+)?",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=64)
def _forms(pred: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Whole-set statements of the predicate pattern ``pred`` (the predicate, or its head
    alone where it stands for it: "the capital cities" of "national capitals")."""
    noun = r"[a-z]+(?:[^\S\n]+[a-z]+)?"
    tail = rf"{_AMONG}[^\S\n]+{_COP}[^\S\n]+(?P<s>[^.!?\n]{{1,200}}?)[^\S\n]*[.!]?[^\S\n]*$"
    affirm = re.compile(
        rf"the[^\S\n]+(?:(?:{pred})[^\S\n]+(?:{noun})|(?:{noun}|ones)[^\S\n]+(?:that|which)"
        rf"[^\S\n]+{_COP}[^\S\n]+(?:{pred})|(?:{noun})[^\S\n]+(?:{pred})){tail}",
        re.IGNORECASE,
    )
    deny = re.compile(
        rf"the[^\S\n]+(?:(?:{noun}|ones)[^\S\n]+(?:that|which)[^\S\n]+{_COP}[^\S\n]+not"
        rf"[^\S\n]+(?:an?[^\S\n]+)?|(?:{noun})[^\S\n]+not[^\S\n]+)(?:{pred}){tail}",
        re.IGNORECASE,
    )
    return affirm, deny


def _last_whole_set(text: str, ctx: _Context) -> tuple[set[str], int] | None:
    """The last sentence of ``text`` that names every candidate on one side in the
    question's words: the candidates, and 1 (they have the predicate) or -1."""
    affirm, deny = _forms(predicate_alone(ctx.vocab))
    found: tuple[set[str], int] | None = None
    for sentence in _SENTENCE.finditer(text):
        body = sentence.group()
        body = body[_LEAD.match(body).end() :]  # type: ignore[union-attr]
        for pattern, sign in ((deny, -1), (affirm, 1)):
            match = pattern.match(body)
            if match is None or _NEG.search(match.group("s")):
                continue
            if sign > 0 and _NOT.search(body):
                continue
            named = _named(match.group("s"), ctx)
            if named:
                found = named, sign
            break
    return found


def concluded_otherwise(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether the answer read disagrees with the reasoning's last whole-set conclusion
    before it in the question's own words: on the direct leg, the answer must be that set
    (of those said to have the predicate) or share nothing with it (of those said to have
    it not); on the reverse leg, the other way round."""
    if (
        ctx.task != "choice"
        or not ctx.leg
        or not ctx.vocab.predicate
        or result.status is not ParseStatus.OK
        or result.span is None
    ):
        return False
    said = _last_whole_set(text[: result.span[0]], ctx)
    if said is None:
        return False
    named, sign = said
    labels = set(result.labels)
    if sign * ctx.leg > 0:
        return labels != named  # the leg's own side, named whole: the answer must be it
    return bool(labels & named)  # the other side: the answer must name none of it
