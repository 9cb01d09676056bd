"""A reply that questions which question it was asked (issue 38, round 5).

"Are you sure you want the incorrect ones? The answer is C." doubts the leg, then answers
in words that name no side: it may answer the question it thinks was meant. Only an
answer in a polarity's own words after the doubt ("Fine: the incorrect ones are A, B and
D.") says which question it answers; any other conclusion after it is unreadable. A
question about the item ("Is 9 prime?") doubts no leg.
"""

from __future__ import annotations

import re

from prin_guard.models import ParseStatus
from prin_guard.reader._evidence import ParseResult, _Context
from prin_guard.reader._text import _Pattern
from prin_guard.tasks._words import TASK_WORDS

# A question sentence (up to its "?"), not across a line or another sentence's end
_QUESTION = _Pattern(r"[^.!?\n]{1,200}\?")
# What names a leg in a question: "the incorrect ones", "the correct one", "the wrong
# options", "which are wrong"
_LEG_NAMED = _Pattern(
    r"(?<![\w-])(?P<adj>[a-z]+)\s+(?:ones?|options?|answers?|choices?)(?![\w-])"
    r"|(?<![\w-])(?:which|what)\s+(?:is|are)\s+(?P<adj2>[a-z]+)(?![\w-])",
    re.IGNORECASE,
)
_WORD = _Pattern(r"[A-Za-z]+")
# Only the words of the legs themselves: "Which are prime?" asks about the item
_LEG_WORDS = TASK_WORDS["choice"].positive | TASK_WORDS["choice"].negative


def questions_the_leg(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether a choice reading stands after a question that names a leg by its polarity
    word ("Are you sure you want the incorrect ones?", "Do you mean the correct one?")
    and is written in no polarity word of its own leg (so no answer to a question the
    reply made sure of)."""
    if ctx.task != "choice" or not ctx.leg or result.status is ParseStatus.FAILED:
        return False
    if result.span is None or "?" not in text[: result.span[0]]:
        return False
    doubted = -1
    for question in _QUESTION.finditer(text, 0, result.span[0]):
        for named in _LEG_NAMED.finditer(question.group()):
            if (named.group("adj") or named.group("adj2") or "").lower() in _LEG_WORDS:
                doubted = question.end()
    if doubted < 0:
        return False
    return not any(
        ctx.vocab.sign(word.group()) == ctx.leg
        for word in _WORD.finditer(text, doubted, result.span[1])
    )
